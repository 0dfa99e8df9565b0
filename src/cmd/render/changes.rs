//! Before render replaces what a pool serves: the difference with the current config, refused
//! when something would disappear unless `--replace`, and only printed with `--dry-run`.

use anyhow::{Result, bail};

use crate::assets::{AssetDir, Change, Overwrite, PUBLIC_MODE, SECRET_MODE};
use crate::cli::RenderArgs;
use crate::ignition::render::diff::PoolDiff;
use crate::serve::state::{PRE_APPROVAL, RENDERED};
use crate::ui::Ui;

/// Where render records the MachineConfigs merged into a pool's config (serve reads only
/// `rendered/*.ign`).
pub fn sources_rel(pool: &str) -> String {
    format!("{RENDERED}/sources/{pool}.json")
}

/// One pool's new config: its bytes as written and, for `--machine-configs`, the
/// MachineConfigs merged (`None`: the source is a server or a cluster, not MachineConfigs).
pub struct New<'a> {
    /// The pool.
    pub pool: &'a str,
    /// The config as it will be written.
    pub bytes: &'a [u8],
    /// The MachineConfigs merged, in order.
    pub sources: Option<&'a [String]>,
}

/// What to do after the comparison.
pub enum Verdict {
    /// Write.
    Proceed,
    /// `--dry-run`: the difference is printed; write nothing.
    DryRun,
}

/// Compares each pool with what it serves now (read under the caller's lock).
pub fn check(ui: &Ui, dir: &AssetDir, a: &RenderArgs, new: &[New<'_>]) -> Result<Verdict> {
    let mut diffs = Vec::new();
    for n in new {
        let rel = format!("{RENDERED}/{}.ign", n.pool);
        let current = if dir.exists(&rel) {
            Some(dir.read(&rel)?)
        } else {
            None
        };
        let recorded: Option<Vec<String>> = if dir.exists(&sources_rel(n.pool)) {
            let bytes = dir.read(&sources_rel(n.pool))?;
            serde_json::from_slice::<serde_json::Value>(&bytes)
                .ok()
                .and_then(|v| serde_json::from_value(v["machineConfigs"].clone()).ok())
        } else {
            None
        };
        let old_sources = recorded.as_deref().filter(|_| n.sources.is_some());
        diffs.push(PoolDiff::new(
            n.pool,
            current.as_deref().map(|c| (c, old_sources)),
            n.bytes,
            n.sources.unwrap_or_default(),
        ));
    }
    if a.dry_run {
        if ui.json() {
            ui.out_json(&serde_json::json!({ "dryRun": true, "pools": diffs }))?;
        } else {
            let text: String = diffs.iter().map(PoolDiff::text).collect();
            ui.out(format!("{text}dry run: nothing written\n"))?;
        }
        return Ok(Verdict::DryRun);
    }
    let losses: Vec<String> = diffs
        .iter()
        .filter(|d| !d.losses().is_empty())
        .map(|d| format!("pool {}: {}", d.pool, d.losses().join("; ")))
        .collect();
    if losses.is_empty() {
        return Ok(Verdict::Proceed);
    }
    if a.replace {
        for l in &losses {
            ui.warn(format!("--replace: no longer served: {l}"));
        }
        return Ok(Verdict::Proceed);
    }
    bail!(
        "render would take away what the pool serves now: {}. Serve hot-reloads, so every machine booting next would miss them. Check that the input holds every MachineConfig of the pool; `--dry-run` shows the whole difference, `--replace` renders anyway",
        losses.join(" | ")
    )
}

/// Stages a pool's config taken whole from a server or a cluster: the bytes as served (serve
/// takes them apart again for each client version), no record of MachineConfigs, and no
/// pre-approval subset (such a config cannot be split; an earlier subset would no longer
/// describe the pool). Returns (the config's path, the paths removed).
pub fn stage_whole(
    change: &mut Change<'_>,
    dir: &AssetDir,
    pool: &str,
    body: &[u8],
) -> (String, Vec<String>) {
    let full_rel = format!("{RENDERED}/{pool}.ign");
    change.write(&full_rel, &super::line(body), SECRET_MODE, Overwrite::Allow);
    record(change, dir, pool, None);
    let pre_rel = format!("{PRE_APPROVAL}/{pool}.ign");
    let mut removed = Vec::new();
    if dir.exists(&pre_rel) {
        change.remove(&pre_rel);
        removed.push(pre_rel);
    }
    (full_rel, removed)
}

/// Records the MachineConfigs of `pool`'s config, or removes an earlier record when the config
/// does not come from MachineConfigs.
pub fn record(change: &mut Change<'_>, dir: &AssetDir, pool: &str, sources: Option<&[String]>) {
    let rel = sources_rel(pool);
    match sources {
        Some(s) => {
            let mut text = serde_json::to_vec_pretty(&serde_json::json!({ "machineConfigs": s }))
                .unwrap_or_default();
            text.push(b'\n');
            change.write(&rel, &text, PUBLIC_MODE, Overwrite::Allow);
        }
        None if dir.exists(&rel) => change.remove(&rel),
        None => {}
    }
}
