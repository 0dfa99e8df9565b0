//! The fetches of machine tokens counted in ledger files: this replica's, written, and the
//! other replicas', read on at each poll. The invariants of `super` (the lock order, a
//! `whole` count that never goes down) are this file's.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock, RwLock};

use time::OffsetDateTime;

use super::claim::{Claimed, Refusal, Rules};
use super::tally::{Got, Inner, Own, Until};
use super::{BATCH, Place, repair};
use crate::assets::AssetDir;
use crate::ledger::{self, Line, Record, Scanner, Writer};
use crate::serve::request::message::MachineFetch;
use crate::serve::state::live::Tokens;

/// This replica's ledger file and every fetch the ledgers hold, by token id.
pub(super) struct FileFetches {
    dir: AssetDir,
    path: PathBuf,
    rules: Rules,
    /// Why the ledgers could not be read: then no machine token is served until a restart.
    /// Set once, read without a lock at each fetch.
    problem: OnceLock<String>,
    /// This replica's ledger, once opened.
    io: RwLock<Option<Writer>>,
    inner: Mutex<Inner>,
    /// The other replicas' ledgers, read on at each poll.
    scanners: Mutex<Vec<Scanner>>,
    /// This replica has taken its ledger over (`io` holds it): read without a lock.
    writing: AtomicBool,
}

impl FileFetches {
    /// Reads every ledger of `dir` but `path`, where this replica writes (read when it takes
    /// the file over).
    pub(super) fn open(
        dir: &AssetDir,
        path: &Path,
        rules: Rules,
        now: OffsetDateTime,
    ) -> FileFetches {
        let f = FileFetches {
            dir: dir.clone(),
            path: path.to_path_buf(),
            rules,
            problem: OnceLock::new(),
            io: RwLock::new(None),
            inner: Mutex::default(),
            scanners: Mutex::default(),
            writing: AtomicBool::new(false),
        };
        let _ = f.read_on(now);
        f
    }

    /// Why no machine token can be served, if that is so.
    pub(super) fn problem(&self) -> Option<&str> {
        self.problem.get().map(String::as_str)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn io(&self) -> std::sync::RwLockReadGuard<'_, Option<Writer>> {
        self.io.read().unwrap_or_else(|p| p.into_inner())
    }

    fn io_alone(&self) -> std::sync::RwLockWriteGuard<'_, Option<Writer>> {
        self.io.write().unwrap_or_else(|p| p.into_inner())
    }

    /// Counts the records the ledgers gained since the last read, a batch at a time (a
    /// ledger of millions of records never sits in memory whole). A ledger that cannot be read
    /// stops machine tokens (fail closed); the error is returned the first time only.
    fn read_on(&self, now: OffsetDateTime) -> Result<(), String> {
        let until = Until {
            now,
            settle: self.rules.settle,
        };
        // The lock order is scanners, then inner (as in `ensure_writer`).
        let mut scanners = self.scanners.lock().unwrap_or_else(|p| p.into_inner());
        // This replica's own ledger is read once, when it takes the file over (`ensure_writer`):
        // nothing is decided from it before.
        for p in ledger::files(&self.dir, &[]) {
            if p != self.path && !scanners.iter().any(|s| s.path() == p) {
                scanners.push(Scanner::follow(&p));
            }
        }
        let read = scanners.iter_mut().try_for_each(|s| {
            let file: Arc<Path> = Arc::from(s.path());
            let mut batch: Vec<Got> = Vec::with_capacity(BATCH);
            let apply = |batch: &mut Vec<Got>| {
                let mut inner = self.lock();
                for (record, text, at, again) in batch.drain(..) {
                    inner.foreign(
                        Line {
                            record,
                            text: &text,
                            at,
                            again,
                        },
                        &file,
                        until,
                    );
                }
            };
            let r = s.scan(|l| {
                batch.push((l.record, l.text.to_string(), l.at, l.again));
                if batch.len() >= BATCH {
                    apply(&mut batch);
                }
            });
            apply(&mut batch);
            r
        });
        drop(scanners);
        self.lock().recheck(until);
        match read {
            Err(e) if self.problem.set(format!("{e:#}")).is_ok() => {
                Err(self.problem().unwrap_or_default().to_string())
            }
            _ => Ok(()),
        }
    }

    /// Gives back claim `id`, whose record could not be written.
    fn unclaim(&self, id: u64, why: String) -> Refusal {
        let mut inner = self.lock();
        if let Some(own) = inner.sending.remove(&id) {
            let s = inner.seen(&own.token);
            s.sending = s.sending.saturating_sub(1);
        }
        Refusal::Unrecorded(why)
    }

    /// Opens and locks this replica's ledger unless it is open, and reads it once: each record
    /// counted as final (nobody else writes it now: a record still `false` is a fetch that
    /// never went out whole) and kept in memory for a repair. Every decision on a machine
    /// token comes after this.
    fn ensure_writer(&self, tokens: &Tokens) -> Result<(), Refusal> {
        if self.writing.load(Ordering::Acquire) {
            return Ok(());
        }
        let mut io = self.io_alone();
        let mut inner = self.lock();
        if io.is_some() {
            return Ok(());
        }
        let unrecorded = |e: anyhow::Error| Refusal::Unrecorded(format!("{e:#}"));
        let w = Writer::open(&self.path).map_err(unrecorded)?;
        let limited: std::collections::HashSet<&str> = tokens
            .live
            .iter()
            .filter(|t| t.machine.as_ref().is_some_and(|(_, uses)| uses.is_some()))
            .map(|t| &*t.id)
            .collect();
        Scanner::new(&self.path)
            .scan(|l| {
                let token = l.record.token.as_str();
                inner.settled(token, l.record.whole, l.text);
                let line = format!("{}\n", l.text).into_bytes().into();
                inner.keep(token, line, limited.contains(token));
            })
            .map_err(unrecorded)?;
        *io = Some(w);
        self.writing.store(true, Ordering::Release);
        Ok(())
    }

    /// Takes fetch `id` off the fetches being sent, with its flag set to `flag` in memory (what
    /// a repair writes), and counts it; returns its text and its token's cuts (for a cut, to
    /// log), where its flag is on disk and whether its token has limited uses.
    fn end(&self, id: u64, flag: &[u8; 5]) -> Option<(Option<String>, Option<u32>, Place, bool)> {
        let mut inner = self.lock();
        let mut own = inner.sending.remove(&id)?;
        inner.unsynced += 1;
        own.line[own.flag..own.flag + 5].copy_from_slice(flag);
        let whole = flag == ledger::WHOLE;
        let text = std::str::from_utf8(&own.line[..own.line.len() - 1]).unwrap_or_default();
        let s = inner.seen(&own.token);
        s.sending = s.sending.saturating_sub(1);
        inner.settled(&own.token, whole, text);
        // A whole fetch is not logged here: its text is not copied (one per machine fetch).
        let text = (!whole).then(|| text.to_string());
        let cuts = (!whole).then(|| inner.tokens.get(&*own.token).map_or(0, |s| s.cut));
        let place = own
            .at
            .map(|(at, generation)| (at + own.flag as u64, generation));
        inner.keep(&own.token, own.line.into(), own.limited);
        Some((text, cuts, place, own.limited))
    }

    /// Rewrites a record's flag on disk at `place`, unless a repair since (another generation
    /// of the file) wrote it from memory already.
    fn mark(&self, place: Place, flag: &[u8; 5]) -> Result<(), String> {
        let io = self.io();
        match (io.as_ref(), place) {
            (Some(w), Some((at, generation))) if w.generation() == generation => {
                w.mark(at, flag).map_err(|e| format!("{e:#}"))
            }
            _ => Ok(()),
        }
    }

    /// Whether `f` may be served now, without claiming anything (a HEAD, a check): the whole
    /// fetches it has left, or the refusal a GET would get.
    pub(super) fn check(&self, f: &MachineFetch, tokens: &Tokens) -> Result<Option<u32>, Refusal> {
        if let Some(e) = self.problem() {
            return Err(Refusal::Unrecorded(e.to_string()));
        }
        self.ensure_writer(tokens)?;
        self.lock().admit(f, self.rules.max_partial)
    }

    /// Claims a fetch of `f` in this replica's ledger file, its record `line` with its flag at `flag`.
    pub(super) fn claim(
        &self,
        f: &MachineFetch,
        line: Vec<u8>,
        flag: usize,
        tokens: &Tokens,
    ) -> Result<Claimed, Refusal> {
        if let Some(e) = self.problem() {
            return Err(Refusal::Unrecorded(e.to_string()));
        }
        self.ensure_writer(tokens)?;
        // Decided under the lock: two requests for one last use, one wins.
        let (id, left) = {
            let mut inner = self.lock();
            let left = inner.admit(f, self.rules.max_partial)?;
            let id = inner.next_id;
            inner.next_id += 1;
            inner.seen(&f.token).sending += 1;
            let own = Own {
                token: f.token.as_ref().into(),
                line: line.clone(),
                flag,
                at: None,
                limited: f.uses.is_some(),
            };
            inner.sending.insert(id, own);
            (id, left)
        };
        // Written with the writer held, and placed before it is let go: a repair either comes
        // before the write (which then goes to the new file) or after its place is known.
        let io = self.io();
        let Some(w) = io.as_ref() else {
            return Err(self.unclaim(id, "the ledger is not open".into()));
        };
        match w.append(&line) {
            Ok(at) => {
                let mut inner = self.lock();
                inner.unsynced += 1;
                if let Some(own) = inner.sending.get_mut(&id) {
                    own.at = Some((at, w.generation()));
                }
            }
            Err(e) => return Err(self.unclaim(id, format!("{e:#}"))),
        }
        Ok(Claimed {
            line,
            at: flag,
            id,
            left,
        })
    }

    /// The fetch `id` went out whole: its use is spent, and its flag rewritten at once. An
    /// error (the flag could not be written) is returned to be logged: the use is spent in
    /// memory all the same, and the record stays `false` on disk.
    pub(super) fn confirm(&self, id: u64) -> Result<(), String> {
        self.end(id, ledger::WHOLE)
            .map_or(Ok(()), |(_, _, place, _)| self.mark(place, ledger::WHOLE))
    }

    /// The fetch `id` ended before its last byte went out: its use is given back, the cut
    /// counted, and its flag marked cut on disk at once, so other replicas and `inspect` know it
    /// ended (not marked, it settles as cut by its age). Returns its token and what to log.
    pub(super) fn cut(&self, id: u64) -> Option<(String, String)> {
        let (text, cuts, place, limited) = self.end(id, ledger::CUT)?;
        let unmarked = self.mark(place, ledger::CUT).err();
        let r: Record = serde_json::from_str(&text?).ok()?;
        let cuts = cuts.unwrap_or_default();
        let said =
            crate::serve::request::refusals::cut_said(&r, cuts, self.rules.max_partial, limited);
        let unmarked = unmarked.map(|e| format!(" (its record could not be marked cut: {e})"));
        Some((r.token, format!("{said}{}", unmarked.unwrap_or_default())))
    }

    /// Whether machine tokens can be served: `None` when they can, else why not (for
    /// readiness). Opens the ledger when it is not open yet.
    pub(super) fn unready(&self, tokens: &Tokens) -> Option<String> {
        if let Some(p) = self.problem() {
            return Some(format!("the ledgers cannot be read: {p}"));
        }
        match self.ensure_writer(tokens) {
            Err(Refusal::Unrecorded(why)) => Some(format!("the ledger cannot be written: {why}")),
            _ => None,
        }
    }

    /// Flushes the ledger to disk, repairs it when it was truncated, replaced or removed under
    /// serve, and counts what the other ledgers gained (without holding up the fetches
    /// meanwhile). Returns what a repair did, to log.
    pub(super) fn flush(&self, now: OffsetDateTime) -> Result<Option<String>, String> {
        let (file, repaired) = {
            let mut io = self.io_alone();
            let mut inner = self.lock();
            let repaired = match io.as_mut() {
                Some(w) => repair::repair(w, &mut inner, &self.path, now)?,
                None => None,
            };
            let dirty = std::mem::take(&mut inner.unsynced) > 0 || repaired.is_some();
            let file = io.as_ref().filter(|_| dirty).map(Writer::file);
            (file, repaired)
        };
        if let Some(f) = file {
            f.sync_data()
                .map_err(|e| format!("flushing the ledger {}: {e}", self.path.display()))?;
        }
        self.read_on(now)?;
        Ok(repaired)
    }
}
