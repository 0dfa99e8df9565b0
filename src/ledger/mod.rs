//! The provisioning ledger: one JSON line per full-config fetch made with a machine token,
//! written (`pwrite(2)`, into the kernel's page cache) before the config is sent, so a fetch a
//! machine got is never lost to a kill -9 of serve; flushed to disk (`fdatasync`) at the next
//! reload poll (`--reload-interval`, 2 s), so a power cut loses at most those seconds. A flush
//! per record would cap the fetches at the disk's flush rate; this costs a write per fetch.
//! Each serve replica keeps its own file (`auth/ledger/<replica>.jsonl`, locked while it
//! writes); readers merge every file they are given.
//!
//! A record is written with `"whole":false`; once serve has handed the response's last byte
//! to the kernel, that flag is rewritten in place to `"whole":true ` (same length, so no other
//! byte moves), at once: a single-use token is spent by that rewrite, and a kill -9 right after
//! it cannot un-spend the token. A record left `false` is a fetch cut off before its end (or a
//! power cut within a poll of it): it spends nothing and is no evidence of a boot.
//!
//! Why an append-only log and not an embedded database: one writer per file, records that
//! are only ever confirmed in place, readers in other processes (and on other replicas'
//! copies) while serve writes, and a format `jq`, a log shipper or a cluster's log store reads
//! as it is. A torn line (a kill in the middle of a write) is the only damage a crash can do,
//! and a reader skips it: its fetch was never answered. Damage from outside (the file
//! truncated, replaced or removed under serve) is found at the next poll and repaired from
//! what serve holds in memory (`serve::fetches`).

mod admit;
mod scan;
mod standing;
mod writer;

use std::path::{Path, PathBuf};

use anyhow::Result;
use serde::{Deserialize, Serialize};

use crate::assets::AssetDir;

pub use admit::{Admit, Counts, admit};
pub use scan::{Line, Scanner, identity};
pub use standing::{DEFAULT_MAX_PARTIAL, LONGEST_FETCH, Standing, standing};
pub(crate) use writer::private_dirs;
pub use writer::{Health, Writer};

/// The address of a record's `client` (`IP:PORT`, as serve writes it; a bare IP is read too).
pub fn client_ip(client: &str) -> Option<std::net::IpAddr> {
    client
        .parse::<std::net::SocketAddr>()
        .map(|a| a.ip())
        .ok()
        .or_else(|| client.parse().ok())
}

/// The directory of the ledgers, relative to the asset directory.
pub const DIR: &str = "auth/ledger";

/// One full-config fetch made with a machine token. `S` is `&str` when serve writes one
/// (nothing is copied), `String` when a reader reads one.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Record<S = String> {
    /// When it was answered, RFC 3339 (UTC).
    pub time: S,
    /// The machine the token is bound to.
    pub machine: S,
    /// The token's id (never its secret).
    pub token: S,
    /// The pool whose config was served.
    pub pool: S,
    /// The client, after the PROXY protocol (`IP:PORT`).
    pub client: S,
    /// The balancer it came through, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub via: Option<S>,
    /// The Ignition spec version of the config served.
    pub spec: S,
    /// The size of the config served.
    pub bytes: u64,
    /// The replica that served it.
    pub replica: S,
    /// Whether serve saw the whole response go out (false while it is being sent, and for a
    /// connection cut before its end). The last field: its value is rewritten in place, to
    /// `true ` once the response went out whole, or to `"cut"` once serve saw it cut off.
    #[serde(default, deserialize_with = "whole_flag")]
    pub whole: bool,
    /// Whether serve saw it cut off before its end (its flag rewritten to `"cut"`); a reader
    /// of a record still `false` cannot tell a cut fetch from one being sent.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub cut: bool,
    /// Whether its outcome is unknown (its flag rewritten to `"unknown"`, in the store only):
    /// the replica sending it was lost after it began handing the config's end to the kernel,
    /// so it may have gone out whole. It holds a use for good and is no evidence of a boot.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub unknown: bool,
}

/// The `"whole"` flag as written: `false`, `true`, or `"cut"` (not whole; [`Record::cut`]
/// says it, from the record's text).
fn whole_flag<'de, D: serde::Deserializer<'de>>(d: D) -> Result<bool, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Flag<'a> {
        Bool(bool),
        #[serde(borrow)]
        Word(std::borrow::Cow<'a, str>),
    }
    match Flag::deserialize(d)? {
        Flag::Bool(b) => Ok(b),
        Flag::Word(w) if w == "cut" || w == "unknown" => Ok(false),
        Flag::Word(w) => Err(serde::de::Error::custom(format!(
            "\"whole\" is {w:?}, not true, false, \"cut\" or \"unknown\""
        ))),
    }
}

/// Where the `false` of a record's `"whole":false` starts, counted from the line's end
/// (`false}` and the newline).
const WHOLE_FROM_END: usize = "false}\n".len();

/// What `"whole":false` becomes: the same length, so the rewrite moves no other byte.
pub const WHOLE: &[u8; 5] = b"true ";

/// What `"whole":false` becomes when serve saw the fetch cut off: the same length, so a reader
/// (another replica, `inspect`) knows at once that it ended, and spent nothing.
pub const CUT: &[u8; 5] = b"\"cut\"";

/// Whether a record's text says its fetch was cut off (its flag rewritten to [`CUT`]).
pub fn text_is_cut(text: &str) -> bool {
    text.ends_with("\"whole\":\"cut\"}")
}

/// Whether a record's text says its fetch's outcome is unknown ([`Record::unknown`]).
pub fn text_is_unknown(text: &str) -> bool {
    text.ends_with("\"whole\":\"unknown\"}")
}

/// A record's text (as written, `"whole":false` last) with its flag rewritten to `word`
/// (`true`, `"cut"`, `"unknown"`): what the store keeps once the fetch is settled. A text
/// written otherwise is returned as it is.
pub fn with_flag(text: &str, word: &str) -> String {
    match text.strip_suffix("\"whole\":false}") {
        Some(head) => format!("{head}\"whole\":{word}}}"),
        None => text.to_string(),
    }
}

/// Where the `false` of `"whole":false` is in a record's text as this mcsctl writes it
/// (trimmed, without its newline); `None` for a record written otherwise.
pub fn flag_in(text: &str) -> Option<usize> {
    text.ends_with("\"whole\":false}")
        .then(|| text.len() - (WHOLE_FROM_END - 1))
}

/// What the flag at `at` in a file says now: `Some(true)` rewritten to whole
/// ([`Writer::mark`] with [`WHOLE`]), `Some(false)` to cut ([`CUT`]), `None` still `false`.
pub fn flag_at(file: &std::fs::File, at: u64) -> std::io::Result<Option<bool>> {
    use std::os::unix::fs::FileExt;
    let mut b = [0u8; 5];
    file.read_exact_at(&mut b, at)?;
    Ok(match &b {
        b if b == WHOLE => Some(true),
        b if b == CUT => Some(false),
        _ => None,
    })
}

impl Record<&str> {
    /// The record as one line (ending in a newline) and where, in that line, the `false` of
    /// `"whole"` starts. `self.whole` must be false: only the rewrite sets it. Written field by
    /// field (the bytes `serde_json` writes for the record, as the tests check): serve writes
    /// one per machine-token fetch.
    pub fn line(&self) -> (Vec<u8>, usize) {
        debug_assert!(!self.whole, "a record is written unconfirmed");
        let mut out = Vec::with_capacity(384);
        let mut o = crate::json_line::Object::new(&mut out);
        o.str("time", self.time);
        o.str("machine", self.machine);
        o.str("token", self.token);
        o.str("pool", self.pool);
        o.str("client", self.client);
        if let Some(via) = self.via {
            o.str("via", via);
        }
        o.str("spec", self.spec);
        o.u64("bytes", self.bytes);
        o.str("replica", self.replica);
        o.bool("whole", false);
        o.end();
        out.push(b'\n');
        let flag = out.len() - WHOLE_FROM_END;
        debug_assert_eq!(&out[flag..flag + 5], b"false");
        (out, flag)
    }
}

/// The default ledger of this serve process: `auth/ledger/<replica>.jsonl`.
pub fn default_path(dir: &AssetDir, replica: &str) -> PathBuf {
    dir.path(&format!("{DIR}/{replica}.jsonl"))
}

/// The replica a ledger belongs to: its file name without `.jsonl`.
pub fn replica_of(path: &Path) -> String {
    path.file_stem()
        .map_or("serve".into(), |s| s.to_string_lossy().into_owned())
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
    // A directory that cannot be listed holds no ledger a reader could read either.
    let mut out: Vec<PathBuf> = dir
        .files_in(DIR)
        .unwrap_or_default()
        .into_iter()
        .filter(|rel| rel.ends_with(".jsonl"))
        .map(|rel| dir.path(&rel))
        .collect();
    for e in extra {
        if !out.contains(e) {
            out.push(e.clone());
        }
    }
    out
}

/// Every record of `files`, merged in time order, read a line at a time (see [`Scanner`]).
pub fn read(files: &[PathBuf]) -> Result<Vec<Record>> {
    let mut all = Vec::new();
    for f in files {
        Scanner::new(f).scan(|l| all.push(l.record))?;
    }
    all.sort_by(|a, b| a.time.cmp(&b.time));
    Ok(all)
}

/// Calls `each` with every record of the directory's ledger files and `extra` (each named file
/// must be there), file by file, a line at a time: a ledger of any length in bounded memory.
/// The first error of `each` ends it.
pub fn scan_files(
    dir: &AssetDir,
    extra: &[PathBuf],
    mut each: impl FnMut(Record) -> Result<()>,
) -> Result<()> {
    named_files_exist(extra)?;
    for f in files(dir, extra) {
        let mut failed = None;
        Scanner::new(&f).scan(|l| {
            if failed.is_none()
                && let Err(e) = each(l.record)
            {
                failed = Some(e);
            }
        })?;
        if let Some(e) = failed {
            return Err(e);
        }
    }
    Ok(())
}

/// Each file named by `--ledger` is there: one that is not is an error, not a ledger without
/// records.
fn named_files_exist(extra: &[PathBuf]) -> Result<()> {
    if let Some(missing) = extra.iter().find(|p| !p.is_file()) {
        anyhow::bail!(
            "--ledger {}: no such file (another replica's ledger, auth/ledger/<replica>.jsonl there)",
            missing.display()
        );
    }
    Ok(())
}

/// The fetch records a reader decides from, read once (as part of the asset directory's
/// snapshot, under its lock) from their backend, merged in time order.
#[derive(Debug, Clone)]
pub struct Ledger {
    /// Where the records came from.
    pub backend: Backend,
    /// Every record, oldest first.
    pub records: Vec<Record>,
    /// Per token id, fetches past the records kept of a token with unlimited uses (the store
    /// keeps the first `store::counted::KEEP` as records, and counts the rest).
    pub unrecorded: std::collections::HashMap<String, u64>,
}

/// Where a ledger's records live.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Backend {
    /// One JSON-lines file per serve replica (`auth/ledger/*.jsonl`), and any others given.
    Files(Vec<PathBuf>),
    /// The store serve replicas share (`--store`), named by its members.
    Store(String),
}

impl Ledger {
    /// The records of the directory's ledger files and of `extra` (each named by the user, so
    /// one that is not there is an error, not a ledger without records).
    pub fn read_files(dir: &AssetDir, extra: &[PathBuf]) -> Result<Ledger> {
        named_files_exist(extra)?;
        let files = files(dir, extra);
        Ok(Ledger {
            records: read(&files)?,
            backend: Backend::Files(files),
            unrecorded: Default::default(),
        })
    }

    /// The replicas whose serve holds its ledger file now (it keeps it locked while it runs);
    /// `None` for the store, where any replica may be running.
    pub fn running(&self) -> Option<std::collections::HashSet<String>> {
        match &self.backend {
            Backend::Files(files) => Some(
                files
                    .iter()
                    .filter(|p| standing::held(p))
                    .map(|p| replica_of(p))
                    .collect(),
            ),
            Backend::Store(_) => None,
        }
    }

    /// The records read from the store `url` (oldest first), and its counts of the fetches
    /// past them.
    pub fn of_store(
        url: String,
        mut records: Vec<Record>,
        unrecorded: std::collections::HashMap<String, u64>,
    ) -> Ledger {
        records.sort_by(|a, b| a.time.cmp(&b.time));
        Ledger {
            backend: Backend::Store(url),
            records,
            unrecorded,
        }
    }
}

#[cfg(test)]
mod tests;
