//! Changes to the asset directory that land as a whole or not at all, whatever moment the
//! process is killed at.
//!
//! A command describes its change (files to write, files to remove) and commits it under the
//! directory lock. Commit stages every new file next to its target (`.mcsctl-new-*`, created
//! with its final mode, fsynced), then writes the journal `.mcsctl-journal` by one atomic
//! rename: that rename is the commit point. Then each staged file is renamed over its target,
//! each removal done, and the journal removed.
//!
//! - Killed before the journal lands: the previous state is intact; the staged files are
//!   leftovers, removed by the next command.
//! - Killed after: the change is decided. The next process that takes the lock (every command,
//!   and `inspect`, `doctor` and `serve` before they read) rolls it forward from the journal,
//!   so nobody ever reads a mix of old and new files.

use std::collections::HashMap;
use std::fs;
use std::io::{self, Write};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};

use super::journal::{JOURNAL, Journal, STAGED_PREFIX, Step, apply, parent_of, wipe};
use super::{AssetDir, DirLock, Overwrite, ensure_dir, sync_dir};

/// One step of a change.
#[derive(Debug)]
enum Op {
    Write {
        bytes: Vec<u8>,
        mode: u32,
        overwrite: Overwrite,
    },
    /// `purge`: an explicit purge, which may delete a kept key ([`super::custody`]).
    Remove { purge: bool },
}

/// A change to the asset directory, described before anything is written.
///
/// Invariant: one step per target, the target's final state (a later write or removal of a
/// path replaces the earlier step, in its place). Recovery relies on it: replaying a journal
/// is idempotent only then ([`super::journal::apply`]).
#[derive(Debug)]
pub struct Change<'d> {
    dir: &'d AssetDir,
    command: String,
    steps: Vec<(PathBuf, Op)>,
    /// Where each target's step is in `steps`.
    index: HashMap<PathBuf, usize>,
}

impl<'d> Change<'d> {
    pub(super) fn new(dir: &'d AssetDir, command: &str) -> Change<'d> {
        Change {
            dir,
            command: command.to_string(),
            steps: Vec::new(),
            index: HashMap::new(),
        }
    }

    /// Writes `rel` (inside the directory) with `mode`.
    pub fn write(&mut self, rel: &str, bytes: &[u8], mode: u32, overwrite: Overwrite) {
        self.write_path(&self.dir.path(rel), bytes, mode, overwrite);
    }

    /// Writes any path (a pointer config's symlink target, an --output file) as part of the
    /// same change.
    pub fn write_path(&mut self, path: &Path, bytes: &[u8], mode: u32, overwrite: Overwrite) {
        self.set(
            path,
            Op::Write {
                bytes: bytes.to_vec(),
                mode,
                overwrite,
            },
        );
    }

    /// Removes `rel` (inside the directory) if it exists. A CA key (or anything under
    /// `backup/` or `tls/retired/`) must be kept elsewhere by the same change
    /// ([`super::custody`]).
    pub fn remove(&mut self, rel: &str) {
        self.set(&self.dir.path(rel), Op::Remove { purge: false });
    }

    /// Deletes `rel`, a kept key or backup, on the user's explicit word (`ca retire --purge`):
    /// the one way a CA key leaves the directory.
    pub fn purge(&mut self, rel: &str) {
        self.set(&self.dir.path(rel), Op::Remove { purge: true });
    }

    /// Makes `op` the step of `target`: in place of an earlier one, or last.
    fn set(&mut self, target: &Path, op: Op) {
        match self.index.get(target) {
            Some(&i) => self.steps[i].1 = op,
            None => {
                self.index.insert(target.to_path_buf(), self.steps.len());
                self.steps.push((target.to_path_buf(), op));
            }
        }
    }

    /// The bytes the change writes to `rel`, if it writes it.
    pub fn written(&self, rel: &str) -> Option<&[u8]> {
        let target = self.dir.path(rel);
        match &self.steps[*self.index.get(&target)?].1 {
            Op::Write { bytes, .. } => Some(bytes.as_slice()),
            Op::Remove { .. } => None,
        }
    }

    /// Whether the change has nothing to do.
    pub fn is_empty(&self) -> bool {
        self.steps.is_empty()
    }

    /// The paths it would write and remove, in order (`--dry-run` lists them).
    pub fn paths(&self) -> Vec<(&Path, bool)> {
        self.steps
            .iter()
            .map(|(p, op)| (p.as_path(), matches!(op, Op::Write { .. })))
            .collect()
    }

    /// Refuses a change that would lose a CA key ([`super::custody`]); `commit` runs it
    /// first, and a `--dry-run` runs it instead, so it refuses what the real run would.
    pub fn verify(&self) -> Result<()> {
        let mut outcome = super::custody::Outcome::new();
        let mut purged = Vec::new();
        for (target, op) in &self.steps {
            let after = match op {
                Op::Write { bytes, .. } => Some(bytes.as_slice()),
                Op::Remove { purge } => {
                    if *purge {
                        purged.push(target.as_path());
                    }
                    None
                }
            };
            outcome.insert(target.as_path(), after);
        }
        super::custody::check(self.dir, &self.command, &outcome, &purged)
    }

    /// Lands the change. The lock proves the caller holds the directory; it was taken (and any
    /// earlier change recovered) before the caller read the state this change is built on.
    pub fn commit(self, _lock: &DirLock) -> Result<()> {
        if self.steps.is_empty() {
            return Ok(());
        }
        let (journal, committing) = self.journal()?;
        let root = self.dir.root();
        apply(&journal).with_context(|| {
            format!(
                "completing `{}` (recorded in {}; the next mcsctl command completes it once this is fixed)",
                self.command,
                root.join(JOURNAL).display()
            )
        })?;
        fs::remove_file(root.join(JOURNAL)).context("removing the journal")?;
        sync_dir(root)?;
        committing.landed();
        for (target, op) in &self.steps {
            match op {
                Op::Write { mode, .. } => {
                    log::info!("wrote {} (mode {mode:04o})", target.display())
                }
                Op::Remove { .. } => log::info!("removed {}", target.display()),
            }
        }
        Ok(())
    }

    /// Up to the commit point: the refusals, every new file staged, the journal written. From
    /// the returned guard on, a signal waits until the change is in place.
    fn journal(&self) -> Result<(Journal, super::interrupt::Committing)> {
        // Refusals first: nothing is staged when one target may not be replaced.
        self.verify()?;
        for (target, op) in &self.steps {
            if let Op::Write {
                overwrite: Overwrite::Never,
                ..
            } = op
                && fs::symlink_metadata(target).is_ok()
            {
                bail!("{} exists; use --force to overwrite", target.display());
            }
            if fs::metadata(target).is_ok_and(|m| m.is_dir()) {
                bail!(
                    "{} is a directory; mcsctl writes a file there",
                    target.display()
                );
            }
        }
        let mut staged: Vec<Step> = Vec::new();
        super::interrupt::staging(self.steps.len());
        let result = self.stage(&mut staged);
        if let Err(e) = result {
            for s in &staged {
                if let Some(p) = &s.staged {
                    wipe(p);
                }
            }
            super::interrupt::abandoned();
            return Err(e);
        }
        let journal = Journal {
            command: self.command.clone(),
            steps: staged,
        };
        let text = serde_json::to_vec_pretty(&journal).context("encoding the journal")?;
        // From here a signal waits until the change is in place (or an error stops it).
        let committing = super::interrupt::committing();
        super::write_atomic_quietly(
            &self.dir.root().join(JOURNAL),
            &text,
            0o600,
            Overwrite::Allow,
        )
        .context("committing the change")?;
        Ok((journal, committing))
    }

    /// Writes every new file beside its target, durable before the journal names it: each
    /// flushed on its own, or, for a change of many files (`machine add --from` of thousands),
    /// all of them at once by one `syncfs(2)` of the directory's filesystem, which costs one
    /// flush instead of one per file.
    fn stage(&self, staged: &mut Vec<Step>) -> Result<()> {
        let batch = self.steps.len() > BATCH_FLUSH;
        let mut parents: Vec<PathBuf> = Vec::new();
        for (target, op) in &self.steps {
            match op {
                Op::Write { bytes, mode, .. } => {
                    let parent = parent_of(target);
                    ensure_dir(self.dir, &parent)?;
                    let name = target
                        .file_name()
                        .map(|n| n.to_string_lossy().into_owned())
                        .unwrap_or_default();
                    let mut tmp = tempfile::Builder::new()
                        .prefix(&format!("{STAGED_PREFIX}{name}-"))
                        .permissions(fs::Permissions::from_mode(*mode))
                        .tempfile_in(&parent)
                        .with_context(|| format!("staging {}", target.display()))?;
                    super::interrupt::staged(tmp.path());
                    // The umask may have narrowed the mode: make it exact.
                    tmp.as_file()
                        .set_permissions(fs::Permissions::from_mode(*mode))
                        .with_context(|| format!("staging {}", target.display()))?;
                    tmp.write_all(bytes)
                        .and_then(|_| {
                            if batch {
                                Ok(())
                            } else {
                                tmp.as_file().sync_all()
                            }
                        })
                        .with_context(|| format!("staging {}", target.display()))?;
                    let path = tmp
                        .into_temp_path()
                        .keep()
                        .with_context(|| format!("staging {}", target.display()))?;
                    staged.push(Step {
                        target: target.clone(),
                        staged: Some(path),
                    });
                    if !parents.contains(&parent) {
                        parents.push(parent);
                    }
                }
                Op::Remove { .. } => staged.push(Step {
                    target: target.clone(),
                    staged: None,
                }),
            }
        }
        if batch {
            let root = self.dir.root();
            let d = fs::File::open(root).with_context(|| format!("opening {}", root.display()))?;
            rustix::fs::syncfs(&d)
                .map_err(io::Error::from)
                .with_context(|| format!("flushing the staged files under {}", root.display()))?;
            return Ok(());
        }
        for p in parents {
            sync_dir(&p)?;
        }
        Ok(())
    }
}

/// Files in one change past which they are flushed together (`syncfs`) rather than one by one.
const BATCH_FLUSH: usize = 64;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::assets::{PUBLIC_MODE, SECRET_MODE};

    #[test]
    fn commit_writes_everything_with_modes_and_leaves_nothing_behind() {
        let (_t, d) = AssetDir::scratch();
        let lock = d.lock().unwrap();
        let mut c = d.change("test");
        c.write("tls/k", b"key", SECRET_MODE, Overwrite::Never);
        c.write("c", b"cert", PUBLIC_MODE, Overwrite::Never);
        c.commit(&lock).unwrap();
        assert_eq!(fs::read(d.path("tls/k")).unwrap(), b"key");
        assert_eq!(
            fs::metadata(d.path("tls/k")).unwrap().permissions().mode() & 0o777,
            0o600
        );
        let names: Vec<String> = fs::read_dir(d.root())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert!(
            !names
                .iter()
                .any(|n| n.starts_with(".mcsctl-new") || n == JOURNAL),
            "{names:?}"
        );
        // Never: nothing staged, nothing changed.
        let mut c = d.change("test");
        c.write("new", b"x", PUBLIC_MODE, Overwrite::Never);
        c.write("c", b"other", PUBLIC_MODE, Overwrite::Never);
        let e = c.commit(&lock).unwrap_err().to_string();
        assert!(e.contains("use --force"), "{e}");
        assert!(!d.exists("new"));
        assert_eq!(fs::read(d.path("c")).unwrap(), b"cert");
        // Removal.
        let mut c = d.change("test");
        c.remove("c");
        c.remove("never-was");
        c.commit(&lock).unwrap();
        assert!(!d.exists("c"));
    }

    #[test]
    fn a_path_written_after_its_removal_is_one_step_the_last() {
        // What `ca create --force` does to tls/mcs-ca-previous.*: retired, then written with
        // the demoted CA. One step per path keeps the journal's replay idempotent.
        let (_t, d) = AssetDir::scratch();
        let lock = d.lock().unwrap();
        fs::write(d.path("p"), b"old").unwrap();
        let mut c = d.change("test");
        c.remove("p");
        c.write("q", b"q", PUBLIC_MODE, Overwrite::Allow);
        c.write("p", b"first", PUBLIC_MODE, Overwrite::Allow);
        c.write("p", b"new", SECRET_MODE, Overwrite::Allow);
        assert_eq!(
            c.paths(),
            [(d.path("p").as_path(), true), (d.path("q").as_path(), true)]
        );
        assert_eq!(c.written("p"), Some(&b"new"[..]));
        c.commit(&lock).unwrap();
        assert_eq!(fs::read(d.path("p")).unwrap(), b"new");
        let mut c = d.change("test");
        c.write("p", b"newer", PUBLIC_MODE, Overwrite::Allow);
        c.remove("p");
        assert_eq!(c.written("p"), None);
        c.commit(&lock).unwrap();
        assert!(!d.exists("p") && d.exists("q"));
    }

    #[test]
    fn a_change_killed_after_any_step_past_its_commit_point_is_completed_whole() {
        // kill -9 after the journal landed and `k` of its steps were done, for every `k`; the
        // next lock completes it. A path removed and written again (as `ca create --force`
        // does to tls/mcs-ca-previous.*) and one written twice are among the steps.
        fn change(d: &AssetDir) -> Change<'_> {
            let mut c = d.change("test");
            c.remove("p");
            c.write("q", b"new q", PUBLIC_MODE, Overwrite::Allow);
            c.write("p", b"new p", SECRET_MODE, Overwrite::Allow);
            c.remove("r");
            c.write("s", b"s", PUBLIC_MODE, Overwrite::Never);
            c.write("q", b"newer q", PUBLIC_MODE, Overwrite::Allow);
            c
        }
        let (_t, d) = AssetDir::scratch();
        let steps = change(&d).journal().unwrap().0.steps.len();
        for k in 0..=steps {
            let (_t, d) = AssetDir::scratch();
            for (f, b) in [("p", "old p"), ("q", "old q"), ("r", "old r")] {
                fs::write(d.path(f), b).unwrap();
            }
            let lock = d.lock().unwrap();
            let (journal, committing) = change(&d).journal().unwrap();
            for s in &journal.steps[..k] {
                super::super::journal::step(s).unwrap();
            }
            drop((committing, lock));
            let r = d.lock().unwrap().recovered().clone();
            assert_eq!(r.completed.as_deref(), Some("test"), "after {k} steps");
            let read = |f: &str| fs::read_to_string(d.path(f)).ok();
            assert_eq!(
                [read("p"), read("q"), read("r"), read("s")],
                [
                    Some("new p".into()),
                    Some("newer q".into()),
                    None,
                    Some("s".into())
                ],
                "killed after {k} of {steps} steps"
            );
            let left: Vec<String> = fs::read_dir(d.root())
                .unwrap()
                .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .filter(|n| n.starts_with(".mcsctl-new") || n == JOURNAL)
                .collect();
            assert!(left.is_empty(), "after {k} steps: {left:?}");
        }
    }

    #[test]
    fn a_change_of_many_files_lands_whole_with_one_flush() {
        let (_t, d) = AssetDir::scratch();
        let lock = d.lock().unwrap();
        let mut c = d.change("test");
        let n = BATCH_FLUSH * 3;
        for i in 0..n {
            let mode = if i % 2 == 0 { SECRET_MODE } else { PUBLIC_MODE };
            c.write(
                &format!("m/{i}.ign"),
                i.to_string().as_bytes(),
                mode,
                Overwrite::Never,
            );
        }
        c.commit(&lock).unwrap();
        let mut names: Vec<String> = fs::read_dir(d.path("m"))
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        assert_eq!(names.len(), n, "no staged file left behind: {names:?}");
        for i in 0..n {
            let p = d.path(&format!("m/{i}.ign"));
            assert_eq!(fs::read(&p).unwrap(), i.to_string().as_bytes());
            let want = if i % 2 == 0 { 0o600 } else { 0o644 };
            assert_eq!(fs::metadata(&p).unwrap().permissions().mode() & 0o777, want);
        }
        assert!(!d.exists(JOURNAL));
    }
}
