//! What `init --force` does to an existing asset directory: what it replaces is kept under
//! `backup/<time>/` (keys, tokens, the cluster record, every pointer config, and the manifests
//! written for the old CA, which move there), and what it makes obsolete is removed (pointer
//! configs of pools no longer listed, a CA rotation in progress, a cluster's bundle record).
//! All of it lands in the same change as the new assets: a kill leaves the old directory or
//! the new one.

use anyhow::Result;

use super::Written;
use super::report::{FileKind, Mode};
use crate::assets::{AssetDir, Change, Overwrite, PUBLIC_MODE, SECRET_MODE, layout};

/// Files replaced by `init`, kept in the backup when they exist: (path, secret).
const KEPT: [(&str, bool); 11] = [
    (layout::CONFIG, false),
    (layout::CA_CERT, false),
    (layout::CA_KEY, true),
    (layout::CA_BUNDLE, false),
    (layout::CA_NEXT_CERT, false),
    (layout::CA_NEXT_KEY, true),
    (layout::CA_PREVIOUS_CERT, false),
    (layout::CA_PREVIOUS_KEY, true),
    (layout::SERVING_CERT, false),
    (layout::SERVING_KEY, true),
    (layout::TOKENS, true),
];

/// Files that describe the old CA's life and mean nothing for the new one.
const OBSOLETE: [&str; 5] = [
    layout::CA_NEXT_CERT,
    layout::CA_NEXT_KEY,
    layout::CA_PREVIOUS_CERT,
    layout::CA_PREVIOUS_KEY,
    layout::CLUSTER_CA,
];

/// Adds the backup and the removals to `change`; returns the rows to report. `stamp` names the
/// backup (UTC, `20261121T192755Z`); `pools` are the pools the new directory has.
pub fn stage(
    dir: &AssetDir,
    change: &mut Change<'_>,
    stamp: &str,
    pools: &[String],
) -> Result<Vec<Written>> {
    let mut rows = Vec::new();
    // Two runs in one second (a script, a rerun after a kill) each keep their own backup.
    let mut backup = format!("backup/{stamp}");
    let mut n = 1;
    while dir.exists(&backup) {
        backup = format!("backup/{stamp}-{n}");
        n += 1;
    }
    let keep = Keep {
        dir,
        backup: &backup,
    };
    for (rel, secret) in KEPT {
        if dir.exists(rel) {
            rows.push(keep.copy(change, rel, secret, format!("the replaced {rel}"))?);
        }
    }
    // Pointer configs carry the old CA and token and may hold an admin's edits (extra
    // headers, a proxy): every one is kept, whether init rewrites or removes it.
    for name in dir.pointer_files()? {
        rows.push(keep.copy(change, &name, true, format!("the replaced {name}"))?);
    }
    // Manifests written for the old CA and tokens would break the cluster if applied now:
    // they move to the backup, and `mcsctl manifests` writes them afresh.
    for name in manifest_files(dir)? {
        let rel = format!("{MANIFESTS}/{name}");
        let why = format!("{rel}, written for the replaced CA (run `mcsctl manifests` again)");
        rows.push(keep.copy(change, &rel, true, why)?);
        change.remove(&rel);
    }
    // Machines were registered with the old CA and tokens: their records and pointer configs
    // move to the backup (`mcsctl machine add` registers them again).
    let machines = dir
        .machine_pointer_files()?
        .into_iter()
        .map(|(rel, _)| rel)
        .chain(
            dir.exists(layout::MACHINES)
                .then(|| layout::MACHINES.to_string()),
        );
    for rel in machines {
        let why =
            format!("{rel}, made for the replaced CA and tokens (run `mcsctl machine add` again)");
        rows.push(keep.copy(change, &rel, true, why)?);
        change.remove(&rel);
    }
    for rel in OBSOLETE {
        if dir.exists(rel) {
            change.remove(rel);
            rows.push(removed(rel, "belonged to the replaced CA"));
        }
    }
    for name in dir.pointer_files()? {
        let pool = name.trim_end_matches(".ign");
        if !pools.iter().any(|p| p == pool) {
            change.remove(&name);
            rows.push(removed(
                &name,
                &format!("pool {pool} is no longer listed (it carried the old CA and token)"),
            ));
        }
    }
    Ok(rows)
}

/// Where replaced files are kept.
struct Keep<'a> {
    dir: &'a AssetDir,
    backup: &'a str,
}

impl Keep<'_> {
    /// Stages a copy of `rel` under the backup (0600 when `secret`); returns its row.
    fn copy(
        &self,
        change: &mut Change<'_>,
        rel: &str,
        secret: bool,
        why: String,
    ) -> Result<Written> {
        let to = format!("{}/{rel}", self.backup);
        let mode = if secret { SECRET_MODE } else { PUBLIC_MODE };
        change.write(&to, &self.dir.read(rel)?, mode, Overwrite::Never);
        Ok(Written::file(&to, secret, FileKind::Backup, Some(why)))
    }
}

/// Where `mcsctl manifests` writes by default.
const MANIFESTS: &str = "manifests";

/// The files of `<dir>/manifests` (names), sorted.
fn manifest_files(dir: &AssetDir) -> Result<Vec<String>> {
    Ok(dir
        .files_in(MANIFESTS)?
        .into_iter()
        .map(|f| f[MANIFESTS.len() + 1..].to_string())
        .collect())
}

fn removed(rel: &str, why: &str) -> Written {
    Written {
        mode: Mode::Removed,
        ..Written::file(rel, false, FileKind::Removed, Some(why.to_string()))
    }
}
