//! The fetches of machine tokens: counted against each token's uses and recorded in this
//! replica's ledger (flushed to disk) before the config is sent. What the ledgers held at
//! start counts too, so a restart does not give a spent token another fetch. The ledger is
//! opened at the first machine-token fetch: a directory without machines gets none.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use super::accept::Peer;
use super::handler::MachineFetch;
use crate::assets::AssetDir;
use crate::ledger::{self, Record, Writer};

/// Why a fetch is refused.
pub(super) enum Refusal {
    /// The token's fetches are spent: the last one.
    Spent(Box<Record>),
    /// The ledger cannot be read or written.
    Unrecorded(String),
}

/// This replica's ledger and every fetch seen, by token id.
pub(super) struct Fetches {
    path: PathBuf,
    replica: String,
    /// Why the ledgers could not be read at start: then no machine token is served.
    unreadable: Option<String>,
    inner: Mutex<Inner>,
}

struct Inner {
    writer: Option<Writer>,
    seen: HashMap<String, Vec<Record>>,
}

impl Fetches {
    /// Reads every ledger of `dir` (and `path`, where this replica writes).
    pub(super) fn open(dir: &AssetDir, path: &Path) -> Fetches {
        let replica = path
            .file_stem()
            .map_or("serve".into(), |s| s.to_string_lossy().into_owned());
        let mut seen: HashMap<String, Vec<Record>> = HashMap::new();
        let own: Vec<PathBuf> = path
            .exists()
            .then(|| path.to_path_buf())
            .into_iter()
            .collect();
        let read = ledger::read(&ledger::files(dir, &own));
        let unreadable = read.as_ref().err().map(|e| format!("{e:#}"));
        for r in read.unwrap_or_default() {
            seen.entry(r.token.clone()).or_default().push(r);
        }
        Fetches {
            path: path.to_path_buf(),
            replica,
            unreadable,
            inner: Mutex::new(Inner { writer: None, seen }),
        }
    }

    /// Why no machine token can be served, if that is so from the start.
    pub(super) fn problem(&self) -> Option<&str> {
        self.unreadable.as_deref()
    }

    /// Counts and records a fetch of `f` (the config of `pool`, `bytes` long at `spec`), or
    /// says why it may not be served.
    pub(super) fn claim(
        &self,
        f: &MachineFetch,
        pool: &str,
        peer: Peer,
        spec: &str,
        bytes: u64,
        time: String,
    ) -> Result<Record, Refusal> {
        if let Some(e) = &self.unreadable {
            return Err(Refusal::Unrecorded(e.clone()));
        }
        let mut inner = self.inner.lock().unwrap_or_else(|p| p.into_inner());
        let used = inner.seen.get(&f.token).map_or(0, Vec::len);
        if let (Some(n), Some(last)) = (f.uses, inner.seen.get(&f.token).and_then(|v| v.last()))
            && used >= n as usize
        {
            return Err(Refusal::Spent(Box::new(last.clone())));
        }
        let r = Record {
            time,
            machine: f.machine.clone(),
            token: f.token.clone(),
            pool: pool.to_string(),
            client: peer.client.to_string(),
            via: peer.via.map(|v| v.to_string()),
            spec: spec.to_string(),
            bytes,
            replica: self.replica.clone(),
        };
        if inner.writer.is_none() {
            let w = Writer::open(&self.path).map_err(|e| Refusal::Unrecorded(format!("{e:#}")))?;
            inner.writer = Some(w);
        }
        let w = inner.writer.as_ref().expect("opened just above");
        w.append(&r)
            .map_err(|e| Refusal::Unrecorded(format!("{e:#}")))?;
        inner
            .seen
            .entry(f.token.clone())
            .or_default()
            .push(r.clone());
        Ok(r)
    }
}
