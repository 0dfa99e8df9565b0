//! `auth/machines.json`: the machines registered for per-machine tokens (`machine add`).

use std::net::IpAddr;

use anyhow::{Result, bail};
use serde::{Deserialize, Serialize};

use crate::assets::{Change, Overwrite, PUBLIC_MODE, layout};

/// One registered machine.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Machine {
    /// Its node name (`system:node:<name>`).
    pub name: String,
    /// The pool whose config it fetches.
    pub pool: String,
    /// The addresses it is expected at (`--ip`).
    #[serde(default)]
    pub addresses: Vec<IpAddr>,
    /// The id of its token.
    pub token: String,
    /// When it was registered, RFC 3339.
    pub added: String,
}

/// `auth/machines.json`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Registry {
    /// Layout version.
    pub format_version: u32,
    /// The machines, in the order registered.
    pub machines: Vec<Machine>,
}

impl Registry {
    /// The layout this mcsctl writes.
    pub const FORMAT_VERSION: u32 = 1;

    /// Parses the registry; `what` names it in errors.
    pub fn parse(bytes: &[u8], what: &str) -> Result<Registry> {
        let r: Registry = serde_json::from_slice(bytes).map_err(|e| {
            anyhow::anyhow!(
                "{what} is not a valid machine registry (line {}, column {})",
                e.line(),
                e.column()
            )
        })?;
        if r.format_version != Self::FORMAT_VERSION {
            bail!(
                "{what} has format version {}, this mcsctl reads version {}",
                r.format_version,
                Self::FORMAT_VERSION
            );
        }
        for m in &r.machines {
            if !crate::names::is_dns_name(&m.name) || !crate::names::is_dns_label(&m.pool) {
                bail!("{what}: machine {:?} is malformed", m.name);
            }
        }
        Ok(r)
    }

    /// The machine called `name`.
    pub fn get(&self, name: &str) -> Option<&Machine> {
        self.machines.iter().find(|m| m.name == name)
    }

    pub(crate) fn stage(&self, change: &mut Change<'_>) -> Result<()> {
        let mut bytes = serde_json::to_vec_pretty(self)?;
        bytes.push(b'\n');
        change.write(layout::MACHINES, &bytes, PUBLIC_MODE, Overwrite::Allow);
        Ok(())
    }
}
