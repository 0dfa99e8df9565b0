//! The fetches of machine tokens: counted against each token's uses and recorded in this
//! replica's ledger before the config is sent (one `write`, no flush: a kill cannot lose it),
//! and flushed to disk at each reload poll ([`Fetches::flush`], on a blocking thread). What the ledgers held at
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
    writer: Option<std::sync::Arc<Writer>>,
    /// Each token's fetches: how many, and the last (memory stays one record per token).
    seen: HashMap<String, (usize, Record)>,
    /// Records appended since the last flush.
    unsynced: usize,
}

impl Fetches {
    /// Reads every ledger of `dir` (and `path`, where this replica writes).
    pub(super) fn open(dir: &AssetDir, path: &Path) -> Fetches {
        let replica = path
            .file_stem()
            .map_or("serve".into(), |s| s.to_string_lossy().into_owned());
        let mut seen: HashMap<String, (usize, Record)> = HashMap::new();
        let own: Vec<PathBuf> = path
            .exists()
            .then(|| path.to_path_buf())
            .into_iter()
            .collect();
        let read = ledger::read(&ledger::files(dir, &own));
        let unreadable = read.as_ref().err().map(|e| format!("{e:#}"));
        for r in read.unwrap_or_default() {
            match seen.get_mut(&r.token) {
                Some((n, last)) => {
                    *n += 1;
                    *last = r;
                }
                None => {
                    seen.insert(r.token.clone(), (1, r));
                }
            }
        }
        Fetches {
            path: path.to_path_buf(),
            replica,
            unreadable,
            inner: Mutex::new(Inner {
                writer: None,
                seen,
                unsynced: 0,
            }),
        }
    }

    /// Why no machine token can be served, if that is so from the start.
    pub(super) fn problem(&self) -> Option<&str> {
        self.unreadable.as_deref()
    }

    /// Counts and records a fetch of `f` (the config of `pool`, `bytes` long at `spec`) and
    /// returns the record as written (JSON), or says why it may not be served. The record is
    /// one `write` into the page cache, made outside the lock; no flush (see [`Fetches::flush`]).
    pub(super) fn claim(
        &self,
        f: &MachineFetch,
        pool: &str,
        peer: Peer,
        spec: &str,
        bytes: u64,
        time: String,
    ) -> Result<String, Refusal> {
        if let Some(e) = &self.unreadable {
            return Err(Refusal::Unrecorded(e.clone()));
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
        let json = serde_json::to_string(&r).map_err(|e| Refusal::Unrecorded(e.to_string()))?;
        // Counted under the lock (two requests with one single-use token: one wins), written
        // outside it.
        let writer = {
            let mut inner = self.inner.lock().unwrap_or_else(|p| p.into_inner());
            if let (Some(n), Some((used, last))) = (f.uses, inner.seen.get(&f.token))
                && *used >= n as usize
            {
                return Err(Refusal::Spent(Box::new(last.clone())));
            }
            if inner.writer.is_none() {
                let w =
                    Writer::open(&self.path).map_err(|e| Refusal::Unrecorded(format!("{e:#}")))?;
                inner.writer = Some(std::sync::Arc::new(w));
            }
            match inner.seen.get_mut(&f.token) {
                Some(e) => {
                    e.0 += 1;
                    e.1 = r;
                }
                None => {
                    inner.seen.insert(f.token.clone(), (1, r));
                }
            }
            inner.unsynced += 1;
            inner.writer.clone().expect("opened just above")
        };
        let mut line = json.clone().into_bytes();
        line.push(b'\n');
        if let Err(e) = writer.append_line(&line) {
            // Not recorded: not counted.
            let mut inner = self.inner.lock().unwrap_or_else(|p| p.into_inner());
            if let Some(entry) = inner.seen.get_mut(&f.token) {
                entry.0 -= 1;
            }
            return Err(Refusal::Unrecorded(format!("{e:#}")));
        }
        Ok(json)
    }

    /// Flushes the records appended since the last flush to disk (without holding up the
    /// fetches meanwhile).
    pub(super) fn flush(&self) -> Result<(), String> {
        let writer = {
            let mut inner = self.inner.lock().unwrap_or_else(|p| p.into_inner());
            if inner.unsynced == 0 {
                return Ok(());
            }
            inner.unsynced = 0;
            inner.writer.clone()
        };
        match writer {
            Some(w) => w.sync().map_err(|e| format!("{e:#}")),
            None => Ok(()),
        }
    }
}
