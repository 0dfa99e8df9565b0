//! What serve knows of each machine token's fetches: how many went out whole, how many were
//! cut, how many are being sent here or on another replica, and the records kept to repair a
//! damaged ledger. Every function here runs under the fetch state's lock.

use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use time::OffsetDateTime;

use super::Refusal;
use crate::ledger::{self, Admit, Line, Record};
use crate::serve::request::message::MachineFetch;

/// Records of a token with unlimited uses kept in memory to repair a damaged ledger; a token
/// with limited uses keeps all of its own (at most its uses plus `max_partial`).
const KEEP_UNLIMITED: u32 = 64;

/// Other replicas' unconfirmed records followed at once; past this, a new one counts as cut
/// at once (a flood of fetches cut on another replica cannot grow memory without end).
const MAX_ELSEWHERE: usize = 65_536;

#[derive(Default)]
pub(super) struct Inner {
    /// Each token's fetches (memory stays one entry per token).
    pub(super) tokens: HashMap<Box<str>, Seen>,
    /// This replica's fetches being sent, by claim.
    pub(super) sending: HashMap<u64, Own>,
    pub(super) next_id: u64,
    /// This replica's records once settled (whole or cut), kept to rewrite a damaged ledger.
    pub(super) kept: Vec<Box<[u8]>>,
    /// Other replicas' records not confirmed yet, by identity.
    elsewhere: HashMap<u64, Foreign>,
    /// Records appended or confirmed since the last flush.
    pub(super) unsynced: usize,
}

/// A token's fetches.
#[derive(Default)]
pub(super) struct Seen {
    pub(super) whole: u32,
    pub(super) cut: u32,
    /// This replica's fetches being sent.
    pub(super) sending: u32,
    /// Other replicas' fetches not confirmed yet.
    pub(super) elsewhere: u32,
    /// This replica's records kept in memory.
    pub(super) kept: u32,
    /// The first whole fetch's record (a refused replay names it).
    pub(super) first_whole: Option<Box<str>>,
    /// The latest cut fetch's record (a refusal after too many names it).
    pub(super) last_cut: Option<Box<str>>,
}

/// One of this replica's fetches being sent.
pub(super) struct Own {
    pub(super) token: Box<str>,
    /// Its record and newline.
    pub(super) line: Vec<u8>,
    /// Where the `"whole"` flag is in `line`.
    pub(super) flag: usize,
    /// Where `line` starts in the ledger, and in which generation of the file (`None`:
    /// not written yet).
    pub(super) at: Option<(u64, u64)>,
    /// Its token's uses are limited.
    pub(super) limited: bool,
}

/// Another replica's unconfirmed record.
struct Foreign {
    file: Arc<Path>,
    token: Box<str>,
    /// Where its flag is in `file`, when the record was written by this mcsctl.
    flag: Option<u64>,
    time: Option<OffsetDateTime>,
    /// Its text (a refused replay may name it).
    text: Box<str>,
}

/// When another replica's unconfirmed record stops counting as being sent, and counts as cut:
/// once it is older than `settle` at `now` (a connection lives no longer).
#[derive(Debug, Clone, Copy)]
pub(super) struct Until {
    /// The time now.
    pub(super) now: OffsetDateTime,
    /// How long a connection may live.
    pub(super) settle: Duration,
}

impl Until {
    /// Whether a record of `time` (unknown: unreadable) is past it.
    fn past(self, time: Option<OffsetDateTime>) -> bool {
        time.is_none_or(|t| self.now - t >= self.settle)
    }
}

/// A line read, owned: (record, text, where it starts, read before).
pub(super) type Got = (Record, String, u64, bool);

pub(super) fn parse(text: &[u8]) -> Result<Box<Record>, Refusal> {
    serde_json::from_slice::<Record>(text)
        .map(Box::new)
        .map_err(|e| Refusal::Unrecorded(format!("a ledger record: {e}")))
}

fn rfc3339(s: &str) -> Option<OffsetDateTime> {
    OffsetDateTime::parse(s, &time::format_description::well_known::Rfc3339).ok()
}

impl Inner {
    pub(super) fn seen(&mut self, token: &str) -> &mut Seen {
        if !self.tokens.contains_key(token) {
            self.tokens.insert(token.into(), Seen::default());
        }
        self.tokens.get_mut(token).expect("inserted just above")
    }

    /// A settled record of `token` (this replica's or another's): whole or cut. Copies its
    /// text only when a refusal may name it: the first whole one, each cut one.
    pub(super) fn settled(&mut self, token: &str, whole: bool, text: &str) {
        let s = self.seen(token);
        if whole {
            s.whole += 1;
            if s.first_whole.is_none() {
                s.first_whole = Some(text.into());
            }
        } else {
            s.cut += 1;
            s.last_cut = Some(text.into());
        }
    }

    /// The record of a fetch of `token` being sent, here or on another replica.
    fn in_flight(&self, token: &str) -> Option<&[u8]> {
        let here = self.sending.values().find(|o| &*o.token == token);
        let there = || self.elsewhere.values().find(|f| &*f.token == token);
        here.map(|o| &o.line[..o.line.len() - 1])
            .or_else(|| there().map(|f| f.text.as_bytes()))
    }

    /// Keeps one of this replica's settled records (its line and newline) for a repair: every
    /// one of a token with limited uses (a repair must never give it a use back), the first
    /// [`KEEP_UNLIMITED`] of any other.
    pub(super) fn keep(&mut self, token: &str, line: Box<[u8]>, limited: bool) {
        let s = self.seen(token);
        if limited || s.kept < KEEP_UNLIMITED {
            s.kept += 1;
            self.kept.push(line);
        }
    }

    /// Whether `f` may be served now: the whole fetches it has left, or why not.
    pub(super) fn admit(&self, f: &MachineFetch, max_partial: u32) -> Result<Option<u32>, Refusal> {
        let Some(s) = self.tokens.get(&*f.token) else {
            return Ok(f.uses);
        };
        let counts = ledger::Counts {
            whole: s.whole,
            unknown: 0,
            cut: s.cut,
            in_flight: s.sending + s.elsewhere,
        };
        match ledger::admit(f.uses, counts, max_partial) {
            Admit::Left(left) => Ok(left),
            // No outcome is unknown in files (a replica there is never lost mid-claim to
            // another's judgement): `unknown` is 0, and this is spent.
            Admit::Spent | Admit::Unknown => {
                let first = s.first_whole.as_deref().unwrap_or_default();
                Err(Refusal::Spent(parse(first.as_bytes())?))
            }
            Admit::CutOff => {
                let last = s.last_cut.as_deref().unwrap_or_default();
                Err(Refusal::CutOff(s.cut, parse(last.as_bytes())?))
            }
            Admit::Busy => {
                let other = self.in_flight(&f.token).unwrap_or_default();
                Err(Refusal::Busy(parse(other)?))
            }
        }
    }

    /// One line of another replica's ledger (or of this one's before it writes there).
    pub(super) fn foreign(&mut self, l: Line<'_>, file: &Arc<Path>, until: Until) {
        let key = ledger::identity(&l.record);
        let token = l.record.token.as_str();
        if l.again {
            // Read before, from an earlier version of a rewritten file: only news of a record
            // still followed.
            if (l.record.whole || l.record.cut) && self.elsewhere.contains_key(&key) {
                self.resolve(key, l.record.whole);
            } else if let Some(f) = self.elsewhere.get_mut(&key) {
                f.file = file.clone();
                f.flag = ledger::flag_in(l.text).map(|i| l.at + i as u64);
            }
            return;
        }
        let time = rfc3339(&l.record.time);
        if l.record.whole
            || l.record.cut
            || until.past(time)
            || self.elsewhere.len() >= MAX_ELSEWHERE
        {
            self.settled(token, l.record.whole, l.text);
            return;
        }
        let s = self.seen(token);
        s.elsewhere += 1;
        let flag = ledger::flag_in(l.text).map(|i| l.at + i as u64);
        self.elsewhere.insert(
            key,
            Foreign {
                file: file.clone(),
                token: token.into(),
                flag,
                time,
                text: l.text.into(),
            },
        );
    }

    /// Another replica's record followed until now is settled.
    pub(super) fn resolve(&mut self, key: u64, whole: bool) {
        let Some(f) = self.elsewhere.remove(&key) else {
            return;
        };
        // Its text as read (`false`): what a refusal names is its time and client.
        let s = self.seen(&f.token);
        s.elsewhere = s.elsewhere.saturating_sub(1);
        self.settled(&f.token, whole, &f.text);
    }

    /// Looks again at the other replicas' unconfirmed records: confirmed or marked cut since,
    /// or too old to be still being sent.
    pub(super) fn recheck(&mut self, until: Until) {
        let mut files: HashMap<Arc<Path>, Option<std::fs::File>> = HashMap::new();
        let mut done = Vec::new();
        for (key, f) in &self.elsewhere {
            let file = files
                .entry(f.file.clone())
                .or_insert_with(|| std::fs::File::open(&f.file).ok());
            let settled = match (file.as_ref(), f.flag) {
                (Some(file), Some(at)) => ledger::flag_at(file, at).unwrap_or(None),
                _ => None,
            };
            match settled {
                Some(whole) => done.push((*key, whole)),
                None if until.past(f.time) => done.push((*key, false)),
                None => {}
            }
        }
        for (key, whole) in done {
            self.resolve(key, whole);
        }
    }
}
