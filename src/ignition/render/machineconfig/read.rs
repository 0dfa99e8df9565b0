//! A whole input of MachineConfigs, as the MCO meets them: select, then parse. A pool's
//! `machineConfigSelector` picks MachineConfigs by their role label before the render
//! controller reads a byte of their spec, so a MachineConfig no pool selects is never parsed,
//! never validated and never refused; it is listed ([`Unselected`]) with the reason. The
//! selected ones are parsed as [`super`] parses them, and what the MCO would drop from them is
//! listed ([`Dropped`]) with the file and line it came from.
//!
//! Every role label that is a DNS label makes a pool (render renders every role it finds), so
//! the reasons are two: no role label (and no `rendered-<pool>-<hash>` name), or a role label
//! that cannot be a pool's (`Worker`: the built-in pool selects `worker`).

use std::fmt;

use anyhow::{Result, anyhow, bail};
use serde::Serialize;
use serde_json::Value;

use super::{FieldError, MachineConfig, ROLE_LABEL, Strictness, rendered_pool};
use crate::kube::Located;

/// Why no pool selects a MachineConfig.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase", tag = "why")]
pub enum Unselection {
    /// No role label, and no cluster's rendered name.
    NoRoleLabel,
    /// A role label no pool can have: not a DNS label.
    NotAPoolName {
        /// The label's value.
        role: String,
        /// The built-in pool it most likely meant.
        meant: Option<String>,
    },
}

/// A MachineConfig no pool selects: left out, as the MCO leaves it out, and not parsed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Unselected {
    /// metadata.name.
    pub name: String,
    /// The input that holds it.
    pub file: String,
    /// Its line there (YAML input).
    pub line: Option<usize>,
    /// Why.
    #[serde(flatten)]
    pub why: Unselection,
}

impl fmt::Display for Unselected {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({}", self.name, self.file)?;
        if let Some(l) = self.line {
            write!(f, ":{l}")?;
        }
        match &self.why {
            Unselection::NoRoleLabel => write!(f, ": no {ROLE_LABEL} label)"),
            Unselection::NotAPoolName { role, meant } => {
                write!(f, ": role {role:?} is not a pool name, a DNS label")?;
                if let Some(m) = meant {
                    write!(f, "; did you mean {m}?")?;
                }
                f.write_str(")")
            }
        }
    }
}

/// A field the MCO drops, where it was.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Dropped {
    /// The input that holds it.
    pub file: String,
    /// Its line there (YAML input).
    pub line: Option<usize>,
    /// The MachineConfig's name.
    pub machine_config: String,
    /// Its path in the object (`spec.config.networkd`).
    pub field: String,
    /// The field it most likely meant.
    pub meant: Option<String>,
    /// What is wrong with it.
    pub problem: String,
}

impl fmt::Display for Dropped {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.file)?;
        if let Some(l) = self.line {
            write!(f, ":{l}")?;
        }
        write!(
            f,
            ": MachineConfig {}: {}: {}; dropped, as the MCO drops it (--strict refuses it)",
            self.machine_config, self.field, self.problem
        )
    }
}

/// What an input holds: the MachineConfigs pools select, parsed; the others, listed; what the
/// MCO would drop from the parsed ones.
#[derive(Debug, Clone, Default)]
pub struct Read {
    /// Selected and parsed.
    pub mcs: Vec<MachineConfig>,
    /// Selected by no pool; not parsed.
    pub unselected: Vec<Unselected>,
    /// Dropped from the parsed ones.
    pub dropped: Vec<Dropped>,
}

impl Read {
    /// Adds another input's.
    pub fn extend(&mut self, other: Read) {
        self.mcs.extend(other.mcs);
        self.unselected.extend(other.unselected);
        self.dropped.extend(other.dropped);
    }

    /// Checks the whole set: at least one MachineConfig, names unique (selected or not: the
    /// API server holds one object per name).
    pub fn check(self, what: &str) -> Result<Read> {
        if self.mcs.is_empty() && self.unselected.is_empty() {
            bail!("{what}: no MachineConfig objects found");
        }
        let mut names: Vec<&str> = self.mcs.iter().map(|m| m.name.as_str()).collect();
        names.extend(self.unselected.iter().map(|u| u.name.as_str()));
        names.sort_unstable();
        if let Some(w) = names.windows(2).find(|w| w[0] == w[1]) {
            bail!("{what}: two MachineConfigs are named {}", w[0]);
        }
        Ok(self)
    }
}

/// Reads the MachineConfig objects of one input (other kinds are skipped); `what` names it,
/// with the line of the field at fault when the input was YAML (`worker.yaml:14:`).
pub fn read(objects: &[Located], what: &str, strict: Strictness) -> Result<Read> {
    let mut out = Read::default();
    for located in objects {
        let o = &located.value;
        if o["kind"].as_str().is_some_and(|k| k != "MachineConfig") {
            continue;
        }
        if o.get("kind").is_none() && o.get("ignition").is_some() {
            bail!(
                "{what} is an Ignition config, not a MachineConfig; render reads MachineConfig objects as `oc get mc -o yaml` prints them (an Ignition config goes under spec.config)"
            );
        }
        let name = o["metadata"]["name"]
            .as_str()
            .filter(|n| !n.is_empty())
            .ok_or_else(|| anyhow!("{what}: a MachineConfig has no metadata.name"))?;
        if let Some(why) = unselected(o, name) {
            out.unselected.push(Unselected {
                name: name.to_string(),
                file: what.to_string(),
                line: located.line_of("metadata.name"),
                why,
            });
            continue;
        }
        let mc = parse_located(located, name, what, strict)?;
        out.dropped.extend(mc.dropped.iter().map(|d| Dropped {
            file: what.to_string(),
            line: line_near(located, &d.path),
            machine_config: name.to_string(),
            field: d.path.clone(),
            meant: d.meant.clone(),
            problem: d.problem(),
        }));
        out.mcs.push(mc);
    }
    Ok(out)
}

/// One MachineConfig chosen by name (a pool's rendered one, from a cluster snapshot), parsed
/// as the MCO parses it: what it would drop is in [`MachineConfig::dropped`].
pub fn parse_one(o: &Value, what: &str) -> Result<MachineConfig> {
    let name = o["metadata"]["name"].as_str().unwrap_or_default();
    parse_located(&Located::bare(o.clone()), name, what, Strictness::AsTheMco)
}

fn parse_located(
    located: &Located,
    name: &str,
    what: &str,
    strict: Strictness,
) -> Result<MachineConfig> {
    super::parse(&located.value, name, strict).map_err(|e| {
        let at = e
            .downcast_ref::<FieldError>()
            .and_then(|f| line_near(located, &f.path))
            .map(|l| format!(":{l}"))
            .unwrap_or_default();
        anyhow!("{what}{at}: MachineConfig {name}: {e}")
    })
}

/// Why no pool selects `o`, or `None` when one does.
fn unselected(o: &Value, name: &str) -> Option<Unselection> {
    if rendered_pool(name).is_some() {
        return None;
    }
    match o["metadata"]["labels"][ROLE_LABEL].as_str() {
        None | Some("") => Some(Unselection::NoRoleLabel),
        Some(role) if crate::names::is_dns_label(role) => None,
        Some(role) => {
            let lower = role.to_ascii_lowercase();
            let meant = crate::names::closest(&lower, &crate::ignition::render::BUILT_IN_POOLS)
                .map(|p| p.to_string());
            Some(Unselection::NotAPoolName {
                role: role.to_string(),
                meant,
            })
        }
    }
}

/// The line of `path`, or of the nearest node above it that has one (a missing field's
/// parent).
fn line_near(o: &Located, path: &str) -> Option<usize> {
    let mut p = path.to_string();
    loop {
        if let Some(l) = o.line_of(&p) {
            return Some(l);
        }
        let cut = p.rfind(['.', '['])?;
        p.truncate(cut);
    }
}
