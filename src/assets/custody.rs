//! Key custody: no change to the asset directory makes a CA key disappear.
//!
//! A CA key cannot be made again: machines in the field trust its certificate, and without the
//! key nothing they trust can be signed. So a change that removes or replaces a file where CA
//! keys live (the active, next and previous slots of `tls/`, `tls/retired/`, `backup/`) must
//! keep the old bytes somewhere a key is kept: another slot (`ca promote` moves the active key
//! to previous), `tls/retired/` or `backup/<time>/`, written by the same change or already
//! there and left alone. Only an explicit purge ([`super::Change::purge`], `ca retire --purge`)
//! lets one go.
//!
//! The workflows keep the keys they replace and report where; this check is the net under
//! them, run on every change before anything is staged (and on a `--dry-run`'s), so a
//! workflow that forgets fails closed with nothing written instead of losing a key. It
//! compares bytes: a kept key is the very file, copied.

use std::collections::BTreeMap;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};

use super::{AssetDir, layout};

/// The slots of `tls/` that hold a CA key.
pub const CA_KEY_SLOTS: [&str; 3] = [layout::CA_KEY, layout::CA_NEXT_KEY, layout::CA_PREVIOUS_KEY];

/// Where kept files live: every replaced key goes under one of them.
pub const BACKUP: &str = "backup";

/// Whether `rel` (relative to the asset directory) is a place where a CA key lives or is kept.
pub fn holds_keys(rel: &Path) -> bool {
    CA_KEY_SLOTS.iter().any(|s| rel == Path::new(s))
        || rel.starts_with(layout::RETIRED)
        || rel.starts_with(BACKUP)
}

/// What a change does to one path in the end: the bytes it leaves there, or `None` when it
/// removes it.
pub(super) type Outcome<'c> = BTreeMap<&'c Path, Option<&'c [u8]>>;

/// Refuses `outcome` (the final state of every path a change touches) when it would remove or
/// replace a CA key of `dir` without keeping it. `purged` are the paths an explicit purge may
/// delete; `command` names the change in the refusal.
pub(super) fn check(
    dir: &AssetDir,
    command: &str,
    outcome: &Outcome<'_>,
    purged: &[&Path],
) -> Result<()> {
    let rel = |p: &Path| p.strip_prefix(dir.root()).ok().map(Path::to_path_buf);
    for (&path, after) in outcome {
        let Some(r) = rel(path).filter(|r| holds_keys(r)) else {
            continue;
        };
        if purged.contains(&path) {
            continue;
        }
        let old = match fs::read(path) {
            Ok(b) => b,
            Err(e) if e.kind() == io::ErrorKind::NotFound => continue,
            // A directory where a file is expected is refused by the commit itself.
            Err(_) if path.is_dir() => continue,
            Err(e) => return Err(e).with_context(|| format!("reading {}", path.display())),
        };
        if *after == Some(old.as_slice()) {
            continue;
        }
        let written = outcome.iter().any(|(&p, a)| {
            p != path && *a == Some(old.as_slice()) && rel(p).is_some_and(|r| holds_keys(&r))
        });
        if written || kept_on_disk(dir, outcome, path, &old)? {
            continue;
        }
        let verb = if after.is_some() { "replace" } else { "remove" };
        bail!(
            "refusing `{command}`: it would {verb} {} without keeping a copy under {}/ or {}/, and a CA key cannot be made again; nothing was written. If the file is not needed, move it out of the asset directory yourself; otherwise this is a bug in mcsctl, please report it",
            r.display(),
            BACKUP,
            layout::RETIRED
        );
    }
    Ok(())
}

/// Whether a file the change leaves alone already holds `key` (a slot, or `tls/retired/`).
fn kept_on_disk(dir: &AssetDir, outcome: &Outcome<'_>, from: &Path, key: &[u8]) -> Result<bool> {
    let mut places: Vec<PathBuf> = CA_KEY_SLOTS.iter().map(|s| dir.path(s)).collect();
    places.extend(dir.files_in(layout::RETIRED)?.iter().map(|r| dir.path(r)));
    Ok(places
        .iter()
        .filter(|p| p.as_path() != from && !outcome.contains_key(p.as_path()))
        .any(|p| fs::read(p).is_ok_and(|b| b == key)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::assets::{Overwrite, PUBLIC_MODE, SECRET_MODE};

    fn dir() -> (tempfile::TempDir, AssetDir) {
        let (t, d) = AssetDir::scratch();
        fs::create_dir_all(d.path(layout::RETIRED)).unwrap();
        fs::write(d.path(layout::CA_KEY), b"active key").unwrap();
        fs::write(d.path(layout::CA_PREVIOUS_KEY), b"previous key").unwrap();
        (t, d)
    }

    fn refused(e: anyhow::Error, what: &str) {
        let e = format!("{e:#}");
        assert!(e.starts_with("refusing `test`: it would"), "{e}");
        assert!(e.contains(what), "{e}");
    }

    #[test]
    fn a_key_removed_or_replaced_without_a_copy_is_refused_with_nothing_written() {
        let (_t, d) = dir();
        let lock = d.lock().unwrap();
        let mut c = d.change("test");
        c.remove(layout::CA_KEY);
        c.write("tls/mcs-ca.crt", b"cert", PUBLIC_MODE, Overwrite::Allow);
        refused(c.commit(&lock).unwrap_err(), "remove tls/mcs-ca.key");
        assert_eq!(fs::read(d.path(layout::CA_KEY)).unwrap(), b"active key");
        assert!(!d.exists("tls/mcs-ca.crt"), "nothing was written");
        let mut c = d.change("test");
        c.write(layout::CA_KEY, b"new", SECRET_MODE, Overwrite::Allow);
        refused(c.commit(&lock).unwrap_err(), "replace tls/mcs-ca.key");
        // A copy elsewhere that is not a keeping place (a manifest) does not count.
        let mut c = d.change("test");
        c.write(
            "manifests/secret.yaml",
            b"active key",
            SECRET_MODE,
            Overwrite::Allow,
        );
        c.remove(layout::CA_KEY);
        refused(c.commit(&lock).unwrap_err(), "remove tls/mcs-ca.key");
        // Nor does a copy the same change removes again.
        let mut c = d.change("test");
        c.write(
            "tls/retired/x.key",
            b"active key",
            SECRET_MODE,
            Overwrite::Allow,
        );
        c.remove(layout::CA_KEY);
        c.remove("tls/retired/x.key");
        refused(c.commit(&lock).unwrap_err(), "remove tls/mcs-ca.key");
        // A backup is never removed but by a purge.
        fs::create_dir_all(d.path("backup/1")).unwrap();
        fs::write(d.path("backup/1/tokens.json"), b"{}").unwrap();
        let mut c = d.change("test");
        c.remove("backup/1/tokens.json");
        refused(c.commit(&lock).unwrap_err(), "remove backup/1/tokens.json");
    }

    #[test]
    fn a_key_kept_by_the_change_or_already_kept_may_leave_its_slot() {
        let (_t, d) = dir();
        let lock = d.lock().unwrap();
        // Promote: active to previous, a new active; previous to retired.
        let mut c = d.change("test");
        c.write(
            "tls/retired/p.key",
            b"previous key",
            SECRET_MODE,
            Overwrite::Allow,
        );
        c.write(
            layout::CA_PREVIOUS_KEY,
            b"active key",
            SECRET_MODE,
            Overwrite::Allow,
        );
        c.write(layout::CA_KEY, b"next key", SECRET_MODE, Overwrite::Allow);
        c.commit(&lock).unwrap();
        assert_eq!(
            fs::read(d.path("tls/retired/p.key")).unwrap(),
            b"previous key"
        );
        // The same bytes written again lose nothing.
        let mut c = d.change("test");
        c.write(layout::CA_KEY, b"next key", SECRET_MODE, Overwrite::Allow);
        c.commit(&lock).unwrap();
        // A key already under tls/retired/ and left there may leave its slot.
        fs::write(d.path("tls/retired/a.key"), b"active key").unwrap();
        let mut c = d.change("test");
        c.remove(layout::CA_PREVIOUS_KEY);
        c.commit(&lock).unwrap();
        // A purge lets a kept key go.
        let mut c = d.change("test");
        c.purge("tls/retired/a.key");
        c.purge("tls/retired/p.key");
        c.commit(&lock).unwrap();
        assert!(!d.exists("tls/retired/a.key") && !d.exists("tls/retired/p.key"));
        // Files elsewhere are not this check's business.
        fs::write(d.path(layout::SERVING_KEY), b"serving").unwrap();
        let mut c = d.change("test");
        c.remove(layout::SERVING_KEY);
        c.commit(&lock).unwrap();
    }
}
