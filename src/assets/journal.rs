//! The journal of a change (see [`super::change`]): what `commit` writes at its commit point
//! and recovery rolls forward, the names of the files a change stages, and how a staged file
//! that will never land is removed. What the change, recovery and the signal handler share.

use std::collections::HashMap;
use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use serde::{Deserialize, Serialize};

use super::sync_dir;

/// The journal of a committed change.
pub const JOURNAL: &str = ".mcsctl-journal";
/// Prefix of staged files.
pub(super) const STAGED_PREFIX: &str = ".mcsctl-new-";
/// Prefix of temporary files of single atomic writes.
pub const TMP_PREFIX: &str = ".mcsctl-tmp-";

/// The journal as written: targets and staged files, absolute or relative to the directory.
#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(super) struct Journal {
    pub(super) command: String,
    pub(super) steps: Vec<Step>,
}

#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(super) struct Step {
    /// The file the step changes.
    pub(super) target: PathBuf,
    /// The staged file to rename over the target; none for a removal.
    pub(super) staged: Option<PathBuf>,
}

/// The directory a file goes in (`.` for a bare name).
pub(super) fn parent_of(p: &Path) -> PathBuf {
    match p.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// Rolls a journal forward: each staged file still there is renamed over its target (a
/// missing one was renamed before the kill), each removal done.
///
/// Invariant relied on: replaying is idempotent only when each target has one step, its
/// final state (a removal replayed after the rename that followed it would delete the
/// renamed file for good). [`super::Change`] records one step per target; a journal written
/// before it did is rolled forward to each target's last step, the staged files of the
/// earlier ones wiped.
pub(super) fn apply(j: &Journal) -> Result<()> {
    let mut parents: Vec<PathBuf> = Vec::new();
    let last: HashMap<&Path, usize> = j
        .steps
        .iter()
        .enumerate()
        .map(|(i, s)| (s.target.as_path(), i))
        .collect();
    for (i, s) in j.steps.iter().enumerate() {
        if last[s.target.as_path()] != i {
            if let Some(staged) = &s.staged {
                wipe(staged);
            }
            continue;
        }
        step(s)?;
        let parent = parent_of(&s.target);
        if !parents.contains(&parent) {
            parents.push(parent);
        }
    }
    for p in parents {
        sync_dir(&p)?;
    }
    Ok(())
}

/// One step, done again harmlessly: a staged file already renamed, a file already removed.
pub(super) fn step(s: &Step) -> Result<()> {
    match &s.staged {
        Some(staged) => match fs::rename(staged, &s.target) {
            Ok(()) => Ok(()),
            Err(e) if e.kind() == io::ErrorKind::NotFound && !staged.exists() => Ok(()),
            Err(e) => Err(e).with_context(|| format!("replacing {}", s.target.display())),
        },
        None => match fs::remove_file(&s.target) {
            Ok(()) => Ok(()),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
            Err(e) => Err(e).with_context(|| format!("removing {}", s.target.display())),
        },
    }
}

/// Removes a file that may hold a private key: its bytes overwritten with zeros and flushed
/// first, so the key is not left in the freed blocks for whoever reads the disk next (on
/// filesystems that write in place). Best effort: the file goes in any case.
pub(super) fn wipe(path: &Path) {
    if let Ok(mut f) = fs::OpenOptions::new().write(true).open(path)
        && let Ok(m) = f.metadata()
    {
        let zeros = vec![0u8; (m.len() as usize).min(1 << 20)];
        let mut left = m.len();
        while left > 0 {
            let n = (left as usize).min(zeros.len());
            if f.write_all(&zeros[..n]).is_err() {
                break;
            }
            left -= n as u64;
        }
        let _ = f.sync_all();
    }
    let _ = fs::remove_file(path);
}

/// For tests of interrupted changes: the journal of `steps` as commit writes it.
#[cfg(test)]
pub(super) fn journal_for(command: &str, steps: Vec<(PathBuf, Option<PathBuf>)>) -> Vec<u8> {
    let j = Journal {
        command: command.into(),
        steps: steps
            .into_iter()
            .map(|(target, staged)| Step { target, staged })
            .collect(),
    };
    serde_json::to_vec(&j).unwrap_or_default()
}
