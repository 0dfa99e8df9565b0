//! The fetches of machine tokens: each one recorded in this replica's ledger before the config
//! is sent, and counted against its token's uses only once it went out whole.
//!
//! A token's fetch goes through three states. *Claimed*: its record is written with
//! `"whole":false` (one `pwrite`, no flush: a kill cannot lose it) and it holds one of the
//! token's uses while it is sent, so a second fetch racing it for the last use gets 503 and
//! retries (Ignition retries any 5xx). *Whole*: serve handed the response's last byte to the
//! kernel; the flag is rewritten at once and the use is spent. *Cut*: the connection ended
//! first; the use is given back and the cut counted, so the machine may fetch again, at most
//! `max_partial` cuts of a token with limited uses (past that, 401: a thief aborting fetches
//! to read a config piece by piece is stopped, and the admin told). Only a whole fetch is
//! evidence of a boot (`csr review`); a refused replay names the first whole fetch.
//!
//! Invariants the code relies on:
//! - decisions and counts are made under `inner`'s lock, which is never held across a system
//!   call; the ledger's writes are made under `io`'s read lock, many at once, at offsets the
//!   writer reserves; a repair takes `io`'s write lock, so no write is in flight while it
//!   rewrites the file, and each offset is kept with the file generation it belongs to (a
//!   write for an older generation is never made);
//! - the locks are taken in one order: `scanners`, then `inner`; `io`, then `inner`;
//! - a token's `whole` count never goes down: a damaged ledger is rewritten from memory, a
//!   record read again is recognised ([`ledger::identity`]) and not counted twice.
//!
//! At each reload poll (`Fetches::flush`, on a blocking thread) the ledger is flushed to
//! disk, checked (truncated, replaced or removed under serve: rewritten from the records serve
//! keeps in memory), and the other replicas' ledgers are read on: a record of theirs still
//! `false` counts as being sent there until it is confirmed or older than a connection can
//! live (`settle`), then as cut. What the ledgers held at start counts, so a restart does not
//! give a spent token another fetch.

use std::path::Path;

use time::OffsetDateTime;

use crate::assets::AssetDir;
use crate::ledger::{self, Record};

use crate::serve::request::message::MachineFetch;
use crate::serve::state::live::Tokens;

mod claim;
mod files;
mod journal;
mod lease;
mod repair;
mod settle;
mod store;
mod tally;

pub(super) use claim::{Claimed, Refusal, Rules, Sent};
pub(super) use store::{Gate, StoreFetches};

use files::FileFetches;

/// Where a record's flag is on disk: its offset in the file of one generation (none for a
/// record not written to the file).
type Place = Option<(u64, u64)>;

/// Lines of the other ledgers applied at once (each poll, and at start a ledger of any length).
const BATCH: usize = 4096;

/// Where the fetches of machine tokens are counted: the ledger files, or the store replicas
/// share (`--store`). Every decision goes to one or the other, never both.
enum Backend {
    /// This replica's ledger file and the others' ([`files`]).
    Files(Box<FileFetches>),
    /// The etcd store: claims under this replica's lease ([`store`]).
    Store(Box<StoreFetches>),
}

/// The fetches of machine tokens, in the ledger files or the store.
pub(super) struct Fetches {
    /// This replica's name, in each record it writes.
    replica: String,
    backend: Backend,
}

impl Fetches {
    /// Reads every ledger of `dir` (but `path`, where this replica writes); with `store`,
    /// none: the store is the ledger.
    pub(super) fn open(
        dir: &AssetDir,
        path: &Path,
        rules: Rules,
        now: OffsetDateTime,
        store: Option<StoreFetches>,
    ) -> Fetches {
        let backend = match store {
            Some(s) => Backend::Store(Box::new(s)),
            None => Backend::Files(Box::new(FileFetches::open(dir, path, rules, now))),
        };
        Fetches {
            replica: ledger::replica_of(path),
            backend,
        }
    }

    /// The store, with `--store`.
    fn store(&self) -> Option<&StoreFetches> {
        match &self.backend {
            Backend::Store(s) => Some(s),
            Backend::Files(_) => None,
        }
    }

    /// Why the ledger files cannot be read, if that is so: then no machine token is served
    /// until a restart. Never with the store.
    pub(super) fn problem(&self) -> Option<&str> {
        match &self.backend {
            Backend::Files(files) => files.problem(),
            Backend::Store(_) => None,
        }
    }

    /// With `--store`, asks whether the store answers (each reload poll); readiness and
    /// `/healthz` say it when it does not.
    pub(super) async fn poll_store(&self) {
        if let Some(s) = self.store() {
            s.poll().await;
        }
    }

    /// With `--store`: opens the journal beside the ledger at `ledger`, registers this replica
    /// and keeps it registered until `stop`. An error when it must not serve (see
    /// [`StoreFetches::start`]).
    pub(super) async fn start_store(
        &mut self,
        ledger: &Path,
        stop: tokio::sync::watch::Receiver<bool>,
    ) -> Result<(), String> {
        match &mut self.backend {
            Backend::Store(s) => s.start(&journal::path_for(ledger), stop).await,
            Backend::Files(_) => Ok(()),
        }
    }

    /// With `--store`: once the last connection is gone, the settlements go out and this
    /// replica's lease ends.
    pub(super) async fn close_store(&self) {
        if let Some(s) = self.store() {
            s.close().await;
        }
    }

    /// What claim `id`'s body waits on before its end (with `--store`, its end mark).
    pub(super) fn gate(&self, id: u64) -> Option<Gate> {
        self.store().and_then(|s| s.gate(id))
    }

    /// With `--store`: why no token may be served now (the store silent past its grace).
    pub(super) fn store_stale(&self, now: OffsetDateTime) -> Option<String> {
        self.store().and_then(|s| s.stale(now))
    }

    /// Whether `f` may be served now, without claiming anything (a HEAD, a check): the whole
    /// fetches it has left, or the refusal a GET would get.
    pub(super) async fn check(
        &self,
        f: &MachineFetch,
        tokens: &Tokens,
        now: OffsetDateTime,
    ) -> Result<Option<u32>, Refusal> {
        match &self.backend {
            // The store's futures are boxed (here and in `claim`): inline, they made every
            // request's future 6 KB, moved on every request, machine token or not.
            Backend::Store(s) => Box::pin(s.check(f, now)).await,
            Backend::Files(files) => files.check(f, tokens),
        }
    }

    /// Claims a fetch of `f` and records it, or says why it may not be served. In the files
    /// the record is one `pwrite` into the page cache; no flush.
    pub(super) async fn claim(
        &self,
        f: &MachineFetch,
        s: &Sent<'_>,
        tokens: &Tokens,
        now: OffsetDateTime,
    ) -> Result<Claimed, Refusal> {
        let (line, flag) = self.record(f, s);
        match &self.backend {
            Backend::Store(store) => Box::pin(store.claim(f, line, flag, now)).await,
            Backend::Files(files) => files.claim(f, line, flag, tokens),
        }
    }

    /// The record of fetch `f`, `"whole":false`, and where its `false` is.
    fn record(&self, f: &MachineFetch, s: &Sent<'_>) -> (Vec<u8>, usize) {
        Record {
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
            cut: false,
            unknown: false,
        }
        .line()
    }

    /// The fetch `id` went out whole: its use is spent, and (in the files) its flag rewritten
    /// at once. An error (the flag could not be written) is returned to be logged: the use is
    /// spent in memory all the same, and the record stays `false` on disk.
    pub(super) fn confirm(&self, id: u64) -> Result<(), String> {
        match &self.backend {
            Backend::Store(s) => {
                s.confirm(id);
                Ok(())
            }
            Backend::Files(files) => files.confirm(id),
        }
    }

    /// The fetch `id` ended before its last byte went out: its use is given back and the cut
    /// counted. Returns its token and what to log (the store counts and logs its own).
    pub(super) fn cut(&self, id: u64) -> Option<(String, String)> {
        match &self.backend {
            Backend::Store(s) => {
                s.cut(id);
                None
            }
            Backend::Files(files) => files.cut(id),
        }
    }

    /// Whether machine tokens can be served: `None` when they can, else why not (for
    /// readiness).
    pub(super) fn unready(&self, tokens: &Tokens) -> Option<String> {
        match &self.backend {
            Backend::Store(s) => s.unready(),
            Backend::Files(files) => files.unready(tokens),
        }
    }

    /// In the files: flushes this replica's ledger, repairs it if need be and reads the others
    /// on (returns what a repair did, to log). Nothing to do with the store.
    pub(super) fn flush(&self, now: OffsetDateTime) -> Result<Option<String>, String> {
        match &self.backend {
            Backend::Store(_) => Ok(None),
            Backend::Files(files) => files.flush(now),
        }
    }
}
