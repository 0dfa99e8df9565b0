//! Which pools a render makes, and what it says of them: a pool a role label names that
//! nothing targets (a typo, most likely), and the MachineConfigs no pool selects.

use anyhow::{Result, bail};

use crate::assets::layout::{self, RENDERED};
use crate::ignition::render::{self, MachineConfig};
use crate::state::{Note, Snapshot};

/// The MachineConfigs no pool selects (no role label, not a rendered config): left out, as
/// the MCO leaves them out, and said.
pub(super) fn unselected(mcs: &[MachineConfig]) -> Vec<Note> {
    let names: Vec<&str> = mcs
        .iter()
        .filter(|m| m.role.is_none() && m.rendered_pool.is_none())
        .map(|m| m.name.as_str())
        .collect();
    if names.is_empty() {
        return Vec::new();
    }
    vec![Note::Warn(format!(
        "{} MachineConfig(s) no pool selects, left out (no {} label, as the MCO leaves them out): {}",
        names.len(),
        render::ROLE_LABEL,
        names.join(", ")
    ))]
}

/// A pool this render creates that nothing targets (not in mcsctl.json, no rendered config
/// before, no pointer config, no token scoped to it): a role label's typo, most likely.
pub(super) fn untargeted(snap: &Snapshot, mcs: &[MachineConfig], pool: &str) -> Option<Note> {
    let known = snap.known_pools();
    // The MCO's built-in pools (arbiter among them) are known, not typos.
    if known.iter().any(|p| p == pool) || snap.pointers.iter().any(|p| p.pool() == pool) {
        return None;
    }
    let scoped = |t: &crate::token::Token| {
        t.pools
            .as_ref()
            .is_some_and(|ps| ps.iter().any(|p| p == pool))
    };
    if snap
        .tokens
        .as_ref()
        .is_some_and(|s| s.tokens.iter().any(scoped))
    {
        return None;
    }
    let from: Vec<&str> = mcs
        .iter()
        .filter(|m| m.role.as_deref() == Some(pool) || m.rendered_pool.as_deref() == Some(pool))
        .map(|m| m.name.as_str())
        .collect();
    let meant = crate::names::closest(pool, &known)
        .map(|k| format!(" (did you mean {k}?)"))
        .unwrap_or_default();
    Some(Note::Warn(format!(
        "pool {pool} is new{meant}: the role of {}, and no pointer config, token or {} pool targets it; nothing boots from {}/{pool}.ign until `mcsctl pointer --pool {pool} --new-pool`",
        from.join(", "),
        layout::CONFIG,
        RENDERED
    )))
}

/// The pools to render: every role and rendered pool found, and the asset directory's pools
/// (which inherit worker configs). Each must be a DNS label: it becomes a file name and a URL.
pub(super) fn pools(mcs: &[MachineConfig], snap: &Snapshot) -> Result<Vec<String>> {
    let mut pools: Vec<String> = mcs
        .iter()
        .filter_map(|m| m.rendered_pool.clone().or_else(|| m.role.clone()))
        .collect();
    if let Some(cfg) = &snap.config {
        pools.extend(cfg.pools.iter().cloned());
    }
    pools.sort();
    pools.dedup();
    for p in &pools {
        if !crate::names::is_dns_label(p) {
            bail!("role {p:?} is not a pool name (a DNS label)");
        }
    }
    Ok(pools)
}
