//! Day 2: a pool that already has a configuration is rendered as the MCO's render controller
//! renders it on a running cluster ([`crate::ignition::render::reconcile`]). The new merge is
//! checked against the pool's current rendered MachineConfig, which is `--current FILE`
//! (`oc get mc rendered-<pool>-<hash> -o yaml`) when given, else the MachineConfig inside the
//! directory's `rendered/<pool>.ign`. A first render (no current config) is not checked, as
//! the MCO does not check a pool without a configuration, nor at bootstrap. Plain CoreOS
//! (`--for coreos`) has no machine-config daemon, so no rule applies there.

use anyhow::Result;

use super::{Note, full_rel};
use crate::ignition::render::reconcile::{self, Rendered, Storage};
use crate::ignition::render::{MachineConfig, payload::Stored};
use crate::ignition::spec::Config;
use crate::model::Snapshot;

/// The pool's current configuration: `given` (`--current`), else the directory's.
fn current(snap: &Snapshot, pool: &str, given: Option<&Rendered>) -> Result<Option<Rendered>> {
    // `--current` is one pool's: the one its name (`rendered-<pool>-<hash>`) names.
    if let Some(g) = given.filter(|g| g.name.starts_with(&format!("rendered-{pool}-"))) {
        return Ok(Some(g.clone()));
    }
    let rel = full_rel(pool);
    if !snap.dir.exists(&rel) {
        return Ok(None);
    }
    let what = snap.dir.path(&rel).display().to_string();
    match Stored::read(&snap.dir.read(&rel)?, &what) {
        Ok(Stored::Mcs(s)) => Rendered::of_object(&s.mc, &what)
            .map(Some)
            .map_err(anyhow::Error::msg),
        // Plain Ignition (rendered for CoreOS) or unreadable: no MachineConfig to check
        // against; the render replaces it as before.
        _ => Ok(None),
    }
}

/// Checks pool `pool`'s new merge (`merged`, its FIPS flag, from `sources`) against its
/// current configuration; what the report says when the check passed by an override.
pub fn check(
    snap: &Snapshot,
    pool: &str,
    given: Option<&Rendered>,
    new: (&Config, bool),
    sources: &[&MachineConfig],
    allowed: &[Storage],
) -> Result<Vec<Note>> {
    let Some(cur) = current(snap, pool, given)? else {
        return Ok(Vec::new());
    };
    if let Err(why) = reconcile::check(&cur, new, sources, allowed) {
        anyhow::bail!(
            "pool {pool}: {why}. The MCO refuses this on a running cluster (the pool goes RenderDegraded): nodes running {} can never reach the new config. Nothing was written{}",
            cur.name,
            if why.contains("disks") || why.contains("filesystems") || why.contains("raid") {
                "; --allow-irreconcilable disks,filesystems,raid exempts those sections, as the MCO's IrreconcilableValidationOverrides do"
            } else {
                ""
            }
        );
    }
    // Passed: say so when an exemption was what let it pass.
    if !allowed.is_empty() && reconcile::check(&cur, new, sources, &[]).is_err() {
        return Ok(vec![Note::Warn(format!(
            "pool {pool}: rendered with --allow-irreconcilable: nodes running {} keep their current config (the daemon does not apply these sections in place); only new machines get the new one",
            cur.name
        ))]);
    }
    Ok(Vec::new())
}
