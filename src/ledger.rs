//! The provisioning ledger: one JSON line per full-config fetch made with a machine token,
//! written (`write(2)`, into the kernel's page cache) before the config is sent, so a fetch a
//! machine got is never lost to a kill -9 of serve; flushed to disk (`fdatasync`) at the next
//! reload poll (`--reload-interval`, 2 s), so a power cut loses at most those seconds. A flush
//! per record would cap the fetches at the disk's flush rate; this costs a write per fetch. Each serve replica keeps
//! its own file (`auth/ledger/<replica>.jsonl`); readers merge every file they are given.
//!
//! Why an append-only log and not an embedded database: one writer per file, records that are
//! never updated, readers in other processes (and on other replicas' copies) while serve
//! writes, and a format `jq`, a log shipper or a cluster's log store reads as it is. A torn
//! last line (a kill in the middle of a write, before its flush) is the only damage a crash
//! can do, and a reader skips it: its fetch was never answered.

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};

use anyhow::{Context as _, Result, bail};
use serde::{Deserialize, Serialize};

use crate::assets::{AssetDir, SECRET_MODE};

/// The directory of the ledgers, relative to the asset directory.
pub const DIR: &str = "auth/ledger";

/// One full-config fetch made with a machine token.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Record {
    /// When it was answered, RFC 3339 (UTC).
    pub time: String,
    /// The machine the token is bound to.
    pub machine: String,
    /// The token's id (never its secret).
    pub token: String,
    /// The pool whose config was served.
    pub pool: String,
    /// The client, after the PROXY protocol (`IP:PORT`).
    pub client: String,
    /// The balancer it came through, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub via: Option<String>,
    /// The Ignition spec version of the config served.
    pub spec: String,
    /// The size of the config served.
    pub bytes: u64,
    /// The replica that served it.
    pub replica: String,
}

/// A ledger open for appending.
#[derive(Debug)]
pub struct Writer {
    path: PathBuf,
    /// The file, opened for appending; writes and flushes need no lock.
    syncer: File,
}

impl Writer {
    /// Opens (creating, 0600) the ledger at `path`.
    pub fn open(path: &Path) -> Result<Writer> {
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)
                .with_context(|| format!("creating {}", parent.display()))?;
        }
        let file = OpenOptions::new()
            .create(true)
            .append(true)
            .mode(SECRET_MODE)
            .open(path)
            .with_context(|| format!("opening the ledger {}", path.display()))?;
        Ok(Writer {
            path: path.to_path_buf(),
            syncer: file,
        })
    }

    /// Where it writes.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Appends `r` as one line, in one `write`: once this returns, another process reads it
    /// and a kill of this one cannot lose it.
    pub fn append(&self, r: &Record) -> Result<()> {
        let mut line = serde_json::to_vec(r)?;
        line.push(b'\n');
        self.append_line(&line)
    }

    /// Appends a line already serialized (ending in a newline). The file is opened with
    /// `O_APPEND`, so concurrent appends each land whole at the end, without a lock.
    pub fn append_line(&self, line: &[u8]) -> Result<()> {
        (&self.syncer)
            .write_all(line)
            .with_context(|| format!("writing the ledger {}", self.path.display()))
    }

    /// Flushes what was appended to disk; appends go on meanwhile.
    pub fn sync(&self) -> Result<()> {
        self.syncer
            .sync_data()
            .with_context(|| format!("flushing the ledger {}", self.path.display()))
    }
}

/// The default ledger of this serve process: `auth/ledger/<replica>.jsonl`.
pub fn default_path(dir: &AssetDir, replica: &str) -> PathBuf {
    dir.path(&format!("{DIR}/{replica}.jsonl"))
}

/// This host's name, the default replica name.
pub fn hostname() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .ok()
        .map(|h| h.trim().to_string())
        .filter(|h| crate::names::is_dns_name(h))
        .unwrap_or_else(|| "serve".to_string())
}

/// The ledgers of the asset directory (`auth/ledger/*.jsonl`) and `extra`, in name order.
pub fn files(dir: &AssetDir, extra: &[PathBuf]) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir.path(DIR))
        .into_iter()
        .flatten()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "jsonl"))
        .collect();
    out.sort();
    for e in extra {
        if !out.contains(e) {
            out.push(e.clone());
        }
    }
    out
}

/// Every record of `files`, merged in time order. A torn last line is skipped; any other
/// line that is not a record is an error naming the file and line.
pub fn read(files: &[PathBuf]) -> Result<Vec<Record>> {
    let mut all = Vec::new();
    for f in files {
        let text = crate::assets::read_text(f)?;
        let lines: Vec<&str> = text.split('\n').collect();
        for (i, line) in lines.iter().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            match serde_json::from_str::<Record>(line) {
                Ok(r) => all.push(r),
                // The last line without its newline: a write a kill cut short.
                Err(_) if i + 1 == lines.len() => {}
                Err(e) => bail!("{} line {}: not a ledger record ({e})", f.display(), i + 1),
            }
        }
    }
    all.sort_by(|a, b| a.time.cmp(&b.time));
    Ok(all)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rec(time: &str, token: &str) -> Record {
        Record {
            time: time.into(),
            machine: "w1".into(),
            token: token.into(),
            pool: "worker".into(),
            client: "10.0.0.5:40000".into(),
            via: None,
            spec: "3.2.0".into(),
            bytes: 100,
            replica: "a".into(),
        }
    }

    #[test]
    fn records_survive_a_reopen_merge_in_time_order_and_a_torn_tail_is_skipped() {
        let d = tempfile::tempdir().unwrap();
        let (a, b) = (d.path().join("a.jsonl"), d.path().join("b.jsonl"));
        Writer::open(&a)
            .unwrap()
            .append(&rec("2026-11-23T10:00:02Z", "t2"))
            .unwrap();
        let w = Writer::open(&b).unwrap();
        w.append(&rec("2026-11-23T10:00:01Z", "t1")).unwrap();
        drop(w);
        let w = Writer::open(&a).unwrap();
        w.append(&rec("2026-11-23T10:00:03Z", "t3")).unwrap();
        let mode = std::fs::metadata(&a).unwrap().permissions();
        assert_eq!(
            std::os::unix::fs::PermissionsExt::mode(&mode) & 0o777,
            0o600
        );
        // A kill in the middle of a write leaves a line without its end.
        let mut f = OpenOptions::new().append(true).open(&b).unwrap();
        f.write_all(br#"{"time":"2026-11-23T10:00:04Z","mach"#)
            .unwrap();
        let got: Vec<String> = read(&[a.clone(), b.clone()])
            .unwrap()
            .into_iter()
            .map(|r| r.token)
            .collect();
        assert_eq!(got, ["t1", "t2", "t3"]);
        // Damage anywhere else is an error naming the line.
        f.write_all(b"\n{}\n").unwrap();
        let e = read(&[b]).unwrap_err().to_string();
        assert!(e.contains("b.jsonl line 2: not a ledger record"), "{e}");
    }
}
