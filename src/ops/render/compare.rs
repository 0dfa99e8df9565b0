//! Before render replaces what a pool serves: the difference with the current config, refused
//! when something would disappear unless `--replace` (`--dry-run` only reports it); and the
//! staging of the pools' files.

use anyhow::{Result, bail};

use super::super::Note;
use super::NewPool;
use crate::assets::layout::{PRE_APPROVAL, RENDERED};
use crate::assets::{AssetDir, Change, Overwrite, PUBLIC_MODE, SECRET_MODE};
use crate::ignition::render::diff::PoolDiff;
use crate::model::Snapshot;

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

/// Each pool's difference with what it serves now (read under the caller's lock).
pub fn diffs(dir: &AssetDir, new: &[New<'_>]) -> Result<Vec<PoolDiff>> {
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
    Ok(diffs)
}

/// A dry run's notes: the warnings the real run gives, and its refusal as a warning (a dry
/// run answers "what would happen", and a refusal is what would).
pub(super) fn as_dry_run(
    losses: Result<Vec<Note>>,
    pool_warnings: Vec<Note>,
    done: Vec<Note>,
) -> Vec<Note> {
    let mut notes = match losses {
        Ok(n) => n,
        Err(e) => vec![Note::Warn(format!("the render would be refused: {e:#}"))],
    };
    notes.extend(pool_warnings);
    notes.extend(done);
    notes
}

/// Refuses a render that takes away what a pool serves now, unless `replace` accepts it;
/// then each loss is a warning.
pub fn losses(diffs: &[PoolDiff], replace: Losses) -> Result<Vec<Note>> {
    let losses: Vec<String> = diffs
        .iter()
        .filter(|d| !d.losses().is_empty())
        .map(|d| format!("pool {}: {}", d.pool, d.losses().join("; ")))
        .collect();
    if losses.is_empty() || replace == Losses::Accept {
        return Ok(losses
            .into_iter()
            .map(|l| Note::Warn(format!("--replace: no longer served: {l}")))
            .collect());
    }
    bail!(
        "render would take away what the pool serves now: {}. Serve hot-reloads, so every machine booting next would miss them. Check that the input holds every MachineConfig of the pool; `--dry-run` shows the whole difference, `--replace` renders anyway",
        losses.join(" | ")
    )
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

/// Whether a render may take away something a pool serves now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Losses {
    /// Refused, naming what would go.
    Refuse,
    /// `--replace`: rendered, each loss a warning.
    Accept,
}

impl Losses {
    /// `Accept` with `--replace`, else `Refuse`.
    pub fn of(replace: bool) -> Losses {
        if replace {
            Losses::Accept
        } else {
            Losses::Refuse
        }
    }
}

/// Stages a pool's files (owner-only: rendered configs hold pull secrets and kubeconfigs).
pub(super) fn stage_pool(change: &mut Change<'_>, snap: &Snapshot, n: &mut NewPool) {
    let pool = &n.report.pool;
    change.write(
        &full_rel(pool),
        &line(&n.full),
        SECRET_MODE,
        Overwrite::Allow,
    );
    match &n.pre {
        Some(pre) => change.write(&pre_rel(pool), &line(pre), SECRET_MODE, Overwrite::Allow),
        None if snap.dir.exists(&pre_rel(pool)) => {
            change.remove(&pre_rel(pool));
            n.report.removed.push(pre_rel(pool));
        }
        None => {}
    }
    record(change, &snap.dir, pool, n.sources.as_deref());
}

pub(super) fn full_rel(pool: &str) -> String {
    format!("{RENDERED}/{pool}.ign")
}

pub(super) fn pre_rel(pool: &str) -> String {
    format!("{PRE_APPROVAL}/{pool}.ign")
}

/// A config as written: the bytes and a newline.
pub(super) fn line(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(bytes.len() + 1);
    out.extend_from_slice(bytes);
    out.push(b'\n');
    out
}
