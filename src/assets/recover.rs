//! Recovery from an interrupted command, run by whoever takes the directory lock next: a
//! change whose journal landed is completed (see [`super::change`]), and what a command left
//! before its commit point (staged `.mcsctl-new-*` files, `.mcsctl-tmp-*` files) is removed.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};

use super::journal::{JOURNAL, Journal, STAGED_PREFIX, TMP_PREFIX, apply, wipe};
use super::{AssetDir, sync_dir};

/// What recovery found and did.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Recovered {
    /// The command whose committed change was completed.
    pub completed: Option<String>,
    /// Leftover staged or temporary files removed.
    pub removed_leftovers: usize,
}

/// Completes a committed change and removes leftovers of interrupted ones. Call with the lock.
pub(super) fn recover(dir: &AssetDir) -> Result<Recovered> {
    let root = dir.root();
    let mut out = Recovered::default();
    let jpath = root.join(JOURNAL);
    match fs::read(&jpath) {
        Ok(bytes) => {
            let j: Journal = serde_json::from_slice(&bytes).with_context(|| {
                format!(
                    "{} is not a journal mcsctl wrote; move it away after checking the directory",
                    jpath.display()
                )
            })?;
            apply(&j).with_context(|| format!("completing the interrupted `{}`", j.command))?;
            fs::remove_file(&jpath).context("removing the journal")?;
            sync_dir(root)?;
            out.completed = Some(j.command);
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => {}
        Err(e) => return Err(e).with_context(|| format!("reading {}", jpath.display())),
    }
    out.removed_leftovers = remove_leftovers(dir)?;
    Ok(out)
}

/// The `.mcsctl-new-*` and `.mcsctl-tmp-*` files an interrupted command left (staged files
/// of a change that never reached its commit point, which may hold private keys), up to three
/// levels below the directory; none while a journal is pending (they are its files then).
pub fn leftovers(dir: &AssetDir) -> Vec<PathBuf> {
    let mut out = Vec::new();
    if !pending(dir) {
        find_leftovers(dir.root(), 3, &mut out);
    }
    out
}

fn find_leftovers(d: &Path, depth: usize, out: &mut Vec<PathBuf>) {
    let Ok(rd) = fs::read_dir(d) else {
        return;
    };
    for e in rd.flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        let Ok(ft) = e.file_type() else { continue };
        if ft.is_file() && is_leftover(&name) {
            out.push(e.path());
        } else if ft.is_dir() && depth > 0 && !name.starts_with('.') {
            find_leftovers(&e.path(), depth - 1, out);
        }
    }
}

/// Whether a file name is one a command stages or writes temporarily.
pub(super) fn is_leftover(name: &str) -> bool {
    name.starts_with(STAGED_PREFIX) || name.starts_with(TMP_PREFIX)
}

/// Removes each leftover, wiped first; says each at `-v`. Only called with no journal pending.
fn remove_leftovers(dir: &AssetDir) -> Result<usize> {
    let found = leftovers(dir);
    for p in &found {
        wipe(p);
        if p.exists() {
            bail!("removing leftover {}: it is still there", p.display());
        }
        log::info!(
            "removed {}, left by an interrupted command (overwritten first: it may have held a private key)",
            p.display()
        );
    }
    Ok(found.len())
}

/// Whether anything is left for [`recover`] to do (checked without the lock, to decide
/// whether a reader needs to take it).
pub(super) fn pending(dir: &AssetDir) -> bool {
    dir.root().join(JOURNAL).exists()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::assets::journal::journal_for;

    #[test]
    fn a_committed_change_is_completed_by_the_next_lock() {
        let (_t, d) = AssetDir::scratch();
        fs::write(d.path("a"), b"old a").unwrap();
        fs::write(d.path("b"), b"old b").unwrap();
        fs::write(d.path("gone"), b"x").unwrap();
        // Killed after the journal landed and `a` was replaced, before `b` and the removal.
        let staged_b = d.path(".mcsctl-new-b-1");
        fs::write(&staged_b, b"new b").unwrap();
        fs::write(d.path("a"), b"new a").unwrap();
        fs::write(
            d.path(JOURNAL),
            journal_for(
                "cert renew",
                vec![
                    (d.path("a"), Some(d.path(".mcsctl-new-a-1"))),
                    (d.path("b"), Some(staged_b)),
                    (d.path("gone"), None),
                ],
            ),
        )
        .unwrap();
        // A leftover of another, uncommitted change.
        fs::create_dir(d.path("tls")).unwrap();
        fs::write(d.path("tls/.mcsctl-tmp-abc"), b"private key").unwrap();
        let r = d.lock().unwrap().recovered().clone();
        assert_eq!(r.completed.as_deref(), Some("cert renew"));
        assert_eq!(r.removed_leftovers, 1);
        assert_eq!(fs::read(d.path("a")).unwrap(), b"new a");
        assert_eq!(fs::read(d.path("b")).unwrap(), b"new b");
        assert!(!d.exists("gone") && !d.exists(JOURNAL) && !d.exists("tls/.mcsctl-tmp-abc"));
        assert_eq!(d.lock().unwrap().recovered().clone(), Recovered::default());
    }

    #[test]
    fn a_journal_naming_a_file_twice_is_rolled_forward_to_its_last_step_only() {
        // `ca create --force` removes tls/mcs-ca-previous.* (retiring the old previous CA)
        // and writes them again (the demoted active CA). Killed after both renames: replaying
        // the removal would delete the file just put in place, and the rename, its staged
        // file gone, would not bring it back. Journals written before the change kept one
        // step per file name a file twice.
        let (_t, d) = AssetDir::scratch();
        fs::write(d.path("prev.key"), b"demoted active key").unwrap();
        fs::write(d.path("retired.key"), b"old previous key").unwrap();
        let stale = d.path(".mcsctl-new-prev.key-0");
        fs::write(&stale, b"an earlier write of the same file").unwrap();
        fs::write(
            d.path(JOURNAL),
            journal_for(
                "ca create",
                vec![
                    (d.path("prev.key"), Some(stale.clone())),
                    (
                        d.path("retired.key"),
                        Some(d.path(".mcsctl-new-retired.key-1")),
                    ),
                    (d.path("prev.key"), None),
                    (d.path("prev.key"), Some(d.path(".mcsctl-new-prev.key-2"))),
                ],
            ),
        )
        .unwrap();
        let r = d.lock().unwrap().recovered().clone();
        assert_eq!(r.completed.as_deref(), Some("ca create"));
        assert_eq!(fs::read(d.path("prev.key")).unwrap(), b"demoted active key");
        assert_eq!(
            fs::read(d.path("retired.key")).unwrap(),
            b"old previous key"
        );
        assert!(!stale.exists() && !d.exists(JOURNAL));
    }

    #[test]
    fn a_foreign_journal_is_refused_not_guessed_at() {
        let (_t, d) = AssetDir::scratch();
        fs::write(d.path(JOURNAL), b"{\"something\": 1}").unwrap();
        let e = format!("{:#}", d.lock().unwrap_err());
        assert!(e.contains("is not a journal mcsctl wrote"), "{e}");
    }
}
