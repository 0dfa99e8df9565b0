//! Machine tokens' fetches claimed in the shared store (`serve --store`), so replicas agree:
//! a fetch is claimed in one compare-and-swap on its token's state, so of any number of
//! fetches racing on any replicas for a token's last use exactly one is served; the others get
//! 503 (Ignition retries) while it is sent, 401 once it went out whole.
//!
//! The states and rules are those of the ledger files (see the parent module): *claimed*
//! (in the token's `sending`, with its record written `"whole":false`), *whole* (the use spent,
//! the record rewritten `true`), *cut* (the use given back, the cut counted). A claim whose
//! replica died or lost the store stays `sending` until it is older than a connection can live
//! (`settle`), then counts as cut, as another replica's unconfirmed record does in the files:
//! the machine may fetch again, and nothing was served whole twice. Without the store no
//! machine token is served (503, with the reason): a fetch is never served unclaimed.

use std::collections::HashMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicI64, AtomicU64, Ordering};
use std::time::Duration;

use time::OffsetDateTime;

use super::tally::parse;
use super::{Claimed, Refusal, Rules};
use crate::clock::Clock;
use crate::ledger::{self, Admit};
use crate::serve::handler::MachineFetch;
use crate::serve::log::Log;
use crate::store::claims::{self, Sending, TokenState};
use crate::store::{self, Store};

/// How long a confirmation or a cut is retried while the store does not answer.
const RETRY_FOR: Duration = Duration::from_secs(60);

/// Whether `f` may be served by its token's state `st` in the store, by the ledger files'
/// rule ([`ledger::admit`]).
fn admit(st: &TokenState, f: &MachineFetch, max_partial: u32) -> Result<Option<u32>, Refusal> {
    let n = st.sending.len() as u32;
    match ledger::admit(f.uses, st.whole, st.cut, n, max_partial) {
        Admit::Left(left) => Ok(left),
        Admit::Spent => Err(Refusal::Spent(parse(
            st.first_whole.as_deref().unwrap_or_default().as_bytes(),
        )?)),
        Admit::CutOff => Err(Refusal::CutOff(
            st.cut,
            parse(st.last_cut.as_deref().unwrap_or_default().as_bytes())?,
        )),
        Admit::Busy => Err(Refusal::Busy(parse(
            st.sending
                .first()
                .map_or("", |s| s.record.as_str())
                .as_bytes(),
        )?)),
    }
}

/// A fetch claimed here, until it is confirmed or cut.
struct Pending {
    token: String,
    claim: String,
    /// The record, `"whole":false`, without its newline.
    record: String,
    limited: bool,
}

/// The fetches of machine tokens, claimed in the store.
pub(in crate::serve) struct StoreFetches {
    store: Store,
    replica: String,
    rules: Rules,
    /// Makes this process's claims unlike those of an earlier run of the same replica.
    nonce: u64,
    next: AtomicU64,
    pending: Mutex<HashMap<u64, Pending>>,
    runtime: tokio::runtime::Handle,
    clock: Clock,
    log: Log,
    /// Why the store did not answer at the last poll (readiness says it).
    down: Mutex<Option<String>>,
    /// When the store last answered (Unix seconds).
    answered: AtomicI64,
    /// How long tokens are served while it does not.
    grace: Duration,
}

impl StoreFetches {
    /// Claims go to `store`; confirmations and cuts are written on `runtime`.
    pub(in crate::serve) fn new(
        store: Store,
        replica: String,
        rules: Rules,
        grace: Duration,
        clock: Clock,
        log: Log,
    ) -> StoreFetches {
        let mut nonce = [0u8; 8];
        // Without the OS's random source, the process id tells runs apart well enough.
        let nonce = match aws_lc_rs::rand::fill(&mut nonce) {
            Ok(()) => u64::from_le_bytes(nonce),
            Err(_) => u64::from(std::process::id()),
        };
        StoreFetches {
            store,
            replica,
            rules,
            nonce,
            next: AtomicU64::new(0),
            pending: Mutex::default(),
            runtime: tokio::runtime::Handle::current(),
            answered: AtomicI64::new(clock.now().unix_timestamp()),
            grace,
            clock,
            log,
            down: Mutex::default(),
        }
    }

    fn pending(&self) -> std::sync::MutexGuard<'_, HashMap<u64, Pending>> {
        self.pending.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Why machine tokens cannot be served now, if so.
    pub(super) fn unready(&self) -> Option<String> {
        self.down.lock().unwrap_or_else(|p| p.into_inner()).clone()
    }

    /// Asks the store whether it answers (each reload poll); says when that changes.
    pub(super) async fn poll(&self) {
        let down = self.store.ping().await.err();
        let now = self.clock.now().unix_timestamp();
        let silent = now - self.answered.load(Ordering::Relaxed);
        if down.is_none() {
            self.answered.store(now, Ordering::Relaxed);
        }
        let mut was = self.down.lock().unwrap_or_else(|p| p.into_inner());
        match (was.is_some(), &down) {
            (false, Some(why)) => self.log.event(
                "store-unreachable",
                &format!(
                    "{why}: machine tokens get 503 until it answers; the tokens last known are served for --store-grace ({}s)",
                    self.grace.as_secs()
                ),
            ),
            (true, None) => self.log.event(
                "store-reachable",
                &format!("the store answers again, after {silent}s: every token is served from it"),
            ),
            _ => {}
        }
        *was = down;
    }

    /// Why no token may be served now: the store has not answered for longer than the
    /// grace (`--store-grace`), so the state last known may be stale.
    pub(super) fn stale(&self, now: OffsetDateTime) -> Option<String> {
        let silent = now.unix_timestamp() - self.answered.load(Ordering::Relaxed);
        (silent > self.grace.as_secs() as i64).then(|| {
            format!(
                "the store has not answered for {silent}s, more than --store-grace ({}s): no token is served until it does",
                self.grace.as_secs()
            )
        })
    }

    /// What a GET of `f` would get now, claiming nothing.
    pub(super) async fn check(
        &self,
        f: &MachineFetch,
        now: OffsetDateTime,
    ) -> Result<Option<u32>, Refusal> {
        if f.uses.is_none() {
            return Ok(None);
        }
        let v = self
            .store
            .get(&store::claims_key(&f.token))
            .await
            .map_err(Refusal::Unrecorded)?;
        let mut s = TokenState::read(&v).map_err(Refusal::Unrecorded)?;
        s.settle(now, self.rules.settle);
        admit(&s, f, self.rules.max_partial)
    }

    /// Claims a fetch of `f` whose record is `line` (with its newline; `flag` where its
    /// `false` is), or says why it may not be served.
    pub(super) async fn claim(
        &self,
        f: &MachineFetch,
        line: Vec<u8>,
        flag: usize,
        now: OffsetDateTime,
    ) -> Result<Claimed, Refusal> {
        let id = self.next.fetch_add(1, Ordering::Relaxed);
        let claim = format!("{}-{:016x}-{id}", self.replica, self.nonce);
        let record = String::from_utf8_lossy(&line[..line.len() - 1]).into_owned();
        let fetch_key = store::fetch_key(&f.token, &claim);
        let left = if f.uses.is_none() {
            self.store
                .put(&fetch_key, record.as_bytes())
                .await
                .map_err(Refusal::Unrecorded)?;
            None
        } else {
            self.claim_use(f, &claim, &record, &fetch_key, now).await?
        };
        self.pending().insert(
            id,
            Pending {
                token: f.token.to_string(),
                claim,
                record,
                limited: f.uses.is_some(),
            },
        );
        Ok(Claimed {
            line,
            at: flag,
            id,
            left,
        })
    }

    /// Takes one of the token's uses in a compare-and-swap, with the record.
    async fn claim_use(
        &self,
        f: &MachineFetch,
        claim: &str,
        record: &str,
        fetch_key: &str,
        now: OffsetDateTime,
    ) -> Result<Option<u32>, Refusal> {
        let also: [(&str, &[u8]); 1] = [(fetch_key, record.as_bytes())];
        claims::update(&self.store, &f.token, &also, |s| {
            s.settle(now, self.rules.settle);
            let left = admit(s, f, self.rules.max_partial)?;
            s.sending.push(Sending {
                claim: claim.to_string(),
                since: now.unix_timestamp(),
                record: record.to_string(),
            });
            Ok(left)
        })
        .await
    }

    /// Claim `id` went out whole: its use is spent and its record rewritten, in the store, in
    /// the background (retried while the store does not answer).
    pub(super) fn confirm(&self, id: u64) {
        let Some(p) = self.pending().remove(&id) else {
            return;
        };
        let store = self.store.clone();
        let log = self.log.clone();
        let settle = self.rules.settle;
        let clock = self.clock.clone();
        self.runtime.spawn(async move {
            let whole = p.record.replacen("\"whole\":false}", "\"whole\":true}", 1);
            let done = retry(|| settled(&store, &p, &whole, true, (clock.now(), settle))).await;
            if let Err(e) = done {
                log.event(
                    "store-failed",
                    &format!("{e}: machine {}'s whole fetch with token {} is not recorded as whole; it counts as cut once {}s have passed", machine_of(&p), p.token, settle.as_secs()),
                );
            }
        });
    }

    /// Claim `id` ended before its last byte: its use is given back and the cut counted, in
    /// the background; what happened is logged there.
    pub(super) fn cut(&self, id: u64) {
        let Some(p) = self.pending().remove(&id) else {
            return;
        };
        let store = self.store.clone();
        let log = self.log.clone();
        let rules = self.rules;
        let clock = self.clock.clone();
        self.runtime.spawn(async move {
            let cuts =
                retry(|| settled(&store, &p, &p.record, false, (clock.now(), rules.settle))).await;
            let record = serde_json::from_str::<ledger::Record>(&p.record);
            let msg = match (cuts, record) {
                (Ok(cuts), Ok(r)) => {
                    crate::serve::refusals::cut_said(&r, cuts, rules.max_partial, p.limited)
                }
                (Ok(_), Err(_)) => {
                    format!("a fetch with token {} was cut off before its end", p.token)
                }
                (Err(e), _) => format!(
                    "{e}: machine {}'s cut fetch with token {} counts as cut once {}s have passed",
                    machine_of(&p),
                    p.token,
                    rules.settle.as_secs()
                ),
            };
            log.event("fetch-cut", &msg);
        });
    }
}

fn machine_of(p: &Pending) -> String {
    serde_json::from_str::<ledger::Record>(&p.record).map_or_else(|_| "?".into(), |r| r.machine)
}

/// Settles claim `p` in the store, whole or cut, with its record `text`; returns the token's
/// cut count. A claim no longer `sending` (counted as cut by another replica meanwhile) is
/// moved from the cut ones when it went out whole.
async fn settled(
    store: &Store,
    p: &Pending,
    text: &str,
    whole: bool,
    (now, settle): (OffsetDateTime, Duration),
) -> Result<u32, String> {
    let fetch_key = store::fetch_key(&p.token, &p.claim);
    if !p.limited {
        store.put(&fetch_key, text.as_bytes()).await?;
        return Ok(0);
    }
    let also: [(&str, &[u8]); 1] = [(&fetch_key, text.as_bytes())];
    claims::update(store, &p.token, &also, |s| {
        let was_sending = s.sending.iter().position(|x| x.claim == p.claim);
        if let Some(i) = was_sending {
            s.sending.remove(i);
        }
        match (whole, was_sending.is_some()) {
            // Counted as cut by another replica meanwhile: it went out whole after all.
            (true, false) => {
                s.cut = s.cut.saturating_sub(1);
                s.count(true, text);
            }
            (_, true) => s.count(whole, text),
            (false, false) => {}
        }
        s.settle(now, settle);
        Ok::<_, String>(s.cut)
    })
    .await
}

/// Runs `f` until it succeeds or [`RETRY_FOR`] has passed, waiting longer each time.
async fn retry<T, F, Fut>(mut f: F) -> Result<T, String>
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Result<T, String>>,
{
    let start = std::time::Instant::now();
    let mut wait = Duration::from_millis(100);
    loop {
        match f().await {
            Ok(v) => return Ok(v),
            Err(e) if start.elapsed() >= RETRY_FOR => return Err(e),
            Err(_) => {
                tokio::time::sleep(wait).await;
                wait = (wait * 2).min(Duration::from_secs(5));
            }
        }
    }
}
