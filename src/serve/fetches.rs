//! The fetches of machine tokens: counted against each token's uses and recorded in this
//! replica's ledger before the config is sent (one `pwrite`, no flush: a kill cannot lose it).
//! At each reload poll ([`Fetches::flush`], on a blocking thread) the records whose response
//! went out whole are confirmed in place, the ledger is flushed to disk, and what the other
//! replicas' ledgers gained since is counted too, so a token spent on one replica is spent on
//! all within a poll. What the ledgers held at start counts, so a restart does not give a
//! spent token another fetch. The ledger is opened (and locked) at the first machine-token
//! fetch: a directory without machines gets none.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use crate::assets::AssetDir;
use crate::ledger::{self, Record, Scanner, Writer};

use super::handler::MachineFetch;

/// Why a fetch is refused.
pub(super) enum Refusal {
    /// The token's fetches are spent: the last one.
    Spent(Box<Record>),
    /// The ledger cannot be read or written.
    Unrecorded(String),
}

/// A fetch counted and written to the ledger.
pub(super) struct Claimed {
    /// The record as written (JSON and its newline), for the access log.
    pub line: Vec<u8>,
    /// Where its `"whole"` flag is in the ledger, for [`Fetches::confirm`].
    pub flag: u64,
    /// Where that flag is in `line`.
    pub at: usize,
}

/// What a fetch is: the config of `pool` at `spec`, `bytes` long, sent to `client` (through
/// the balancer `via`) at `time`.
pub(super) struct Sent<'a> {
    pub pool: &'a str,
    pub spec: &'a str,
    pub bytes: u64,
    pub client: &'a str,
    pub via: Option<&'a str>,
    pub time: &'a str,
}

/// This replica's ledger and every fetch seen, by token id.
pub(super) struct Fetches {
    dir: AssetDir,
    path: PathBuf,
    replica: String,
    /// Why the ledgers could not be read: then no machine token is served until a restart.
    /// Set once, read without a lock at each fetch.
    problem: OnceLock<String>,
    inner: Mutex<Inner>,
    /// The ledgers read on at each poll: every one but this replica's once it writes there.
    scanners: Mutex<Vec<Scanner>>,
    /// This replica writes its ledger (set under the scanners' lock, with its scanner gone).
    writing: AtomicBool,
}

#[derive(Default)]
struct Inner {
    writer: Option<Arc<Writer>>,
    /// Each token's fetches (memory stays one line per token).
    seen: HashMap<String, Seen>,
    /// Records appended since the last flush.
    unsynced: usize,
    /// The flags of records whose response went out whole, to rewrite at the next flush.
    confirmed: Vec<u64>,
}

/// A token's fetches: how many, and the last one's line (its buffer reused for the next).
struct Seen {
    count: usize,
    last: Vec<u8>,
}

type Found = HashMap<String, Seen>;

/// Confirmations held for the next flush at most.
const MAX_CONFIRMED: usize = 8192;

fn merge(into: &mut Found, found: Found) {
    for (token, s) in found {
        add(into, &token, s.count, &s.last);
    }
}

fn fold(into: &mut Found, token: &str, last: &[u8]) {
    add(into, token, 1, last);
}

/// `count` more fetches of `token`, the last one `last` (its buffer reused when known).
fn add(into: &mut Found, token: &str, count: usize, last: &[u8]) {
    match into.get_mut(token) {
        Some(s) => {
            s.count += count;
            s.last.clear();
            s.last.extend_from_slice(last);
        }
        None => {
            let last = last.to_vec();
            into.insert(token.to_string(), Seen { count, last });
        }
    }
}

impl Fetches {
    /// Reads every ledger of `dir` (and `path`, where this replica writes).
    pub(super) fn open(dir: &AssetDir, path: &Path) -> Fetches {
        let f = Fetches {
            dir: dir.clone(),
            path: path.to_path_buf(),
            replica: ledger::replica_of(path),
            problem: OnceLock::new(),
            inner: Mutex::default(),
            scanners: Mutex::default(),
            writing: AtomicBool::new(false),
        };
        let _ = f.read_on();
        f
    }

    /// Why no machine token can be served, if that is so.
    pub(super) fn problem(&self) -> Option<&str> {
        self.problem.get().map(String::as_str)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Counts the records the ledgers gained since the last read. A ledger that cannot be read
    /// stops machine tokens (fail closed); the error is returned the first time only.
    fn read_on(&self) -> Result<(), String> {
        let mut found = Found::new();
        let read = {
            let mut scanners = self.scanners.lock().unwrap_or_else(|p| p.into_inner());
            let own = self.writing.load(Ordering::Acquire);
            for p in ledger::files(&self.dir, std::slice::from_ref(&self.path)) {
                let ours = p == self.path;
                if !(scanners.iter().any(|s| s.path() == p) || ours && own) {
                    scanners.push(Scanner::follow(&p));
                }
            }
            scanners
                .iter_mut()
                .try_for_each(|s| s.scan(|r, line| fold(&mut found, &r.token, line.as_bytes())))
        };
        merge(&mut self.lock().seen, found);
        match read {
            Err(e) if self.problem.set(format!("{e:#}")).is_ok() => {
                Err(self.problem().unwrap_or_default().to_string())
            }
            _ => Ok(()),
        }
    }

    /// Counts and records a fetch of `f` and returns the record as written, or says why it may
    /// not be served. The record is one `pwrite` into the page cache; no flush.
    pub(super) fn claim(&self, f: &MachineFetch, s: &Sent<'_>) -> Result<Claimed, Refusal> {
        if let Some(e) = self.problem() {
            return Err(Refusal::Unrecorded(e.to_string()));
        }
        let (line, flag) = Record {
            time: s.time,
            machine: &f.machine,
            token: &f.token,
            pool: s.pool,
            client: s.client,
            via: s.via,
            spec: s.spec,
            bytes: s.bytes,
            replica: &self.replica,
            whole: false,
        }
        .line();
        // Counted under the lock (two requests with one single-use token: one wins).
        let writer = {
            let mut inner = self.lock();
            if let (Some(n), Some(seen)) = (f.uses, inner.seen.get(&*f.token))
                && seen.count >= n as usize
            {
                return Err(match serde_json::from_slice::<Record>(&seen.last) {
                    Ok(last) => Refusal::Spent(Box::new(last)),
                    Err(e) => Refusal::Unrecorded(format!("a ledger record: {e}")),
                });
            }
            if inner.writer.is_none() {
                self.open_writer(&mut inner)?;
            }
            fold(&mut inner.seen, &f.token, &line[..line.len() - 1]);
            inner.unsynced += 1;
            inner.writer.clone().expect("opened just above")
        };
        match writer.append(&line) {
            Ok(start) => Ok(Claimed {
                line,
                flag: start + flag as u64,
                at: flag,
            }),
            Err(e) => {
                // Not recorded: not counted.
                if let Some(seen) = self.lock().seen.get_mut(&*f.token) {
                    seen.count -= 1;
                }
                Err(Refusal::Unrecorded(format!("{e:#}")))
            }
        }
    }

    /// Opens and locks this replica's ledger, then counts what it gained since it was last
    /// read (another process wrote it until it let go of the lock); from then on only this
    /// process writes it, and it is no longer read.
    fn open_writer(&self, inner: &mut Inner) -> Result<(), Refusal> {
        let unrecorded = |e: anyhow::Error| Refusal::Unrecorded(format!("{e:#}"));
        let w = Writer::open(&self.path).map_err(unrecorded)?;
        let mut scanners = self.scanners.lock().unwrap_or_else(|p| p.into_inner());
        let own = scanners
            .iter()
            .position(|s| s.path() == self.path)
            .map_or_else(|| Scanner::follow(&self.path), |i| scanners.remove(i));
        let mut found = Found::new();
        // Nobody else writes it now: what it holds is final (a gap is a write a kill cut).
        own.finish(|r, line| fold(&mut found, &r.token, line.as_bytes()))
            .map_err(unrecorded)?;
        self.writing.store(true, Ordering::Release);
        drop(scanners);
        merge(&mut inner.seen, found);
        inner.writer = Some(Arc::new(w));
        Ok(())
    }

    /// The response of the record whose flag is at `flag` went out whole. The flags wait for
    /// the next flush; past [`MAX_CONFIRMED`] of them (a poll interval of fetches without
    /// end) they are rewritten at once, so memory stays bounded.
    pub(super) fn confirm(&self, flag: u64) {
        let due = {
            let mut inner = self.lock();
            inner.confirmed.push(flag);
            if inner.confirmed.len() < MAX_CONFIRMED {
                return;
            }
            (inner.writer.clone(), std::mem::take(&mut inner.confirmed))
        };
        if let (Some(w), flags) = due {
            // A failed rewrite leaves `false`: the records stay, unconfirmed.
            let _ = w.confirm(flags);
        }
    }

    /// serve stops: the ledger is cut at the end of its records (no connection is left).
    pub(super) fn close(&self) -> Result<(), String> {
        match self.lock().writer.clone() {
            Some(w) => w.close().map_err(|e| format!("{e:#}")),
            None => Ok(()),
        }
    }

    /// Confirms the records whose response went out whole, flushes the ledger to disk, and
    /// counts what the other ledgers gained (without holding up the fetches meanwhile).
    pub(super) fn flush(&self) -> Result<(), String> {
        let (writer, confirmed) = {
            let mut inner = self.lock();
            let confirmed = std::mem::take(&mut inner.confirmed);
            let dirty = std::mem::take(&mut inner.unsynced) > 0 || !confirmed.is_empty();
            (inner.writer.clone().filter(|_| dirty), confirmed)
        };
        if let Some(w) = writer {
            if !confirmed.is_empty() {
                w.confirm(confirmed).map_err(|e| format!("{e:#}"))?;
            }
            w.sync().map_err(|e| format!("{e:#}"))?;
        }
        self.read_on()
    }
}
