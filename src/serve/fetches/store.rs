//! Machine tokens' fetches claimed in the shared store (`serve --store`), by the claim protocol
//! of [`crate::store::claims`] (stated there and in docs/replicas.md): this replica registers
//! as a holder under a lease it renews ([`crate::store::holders`]); it claims a fetch in one
//! compare-and-swap, marks it `ending` before the config's last piece goes to the kernel (the
//! body waits on [`StoreFetches::gate`]; the piece is never sent when the mark fails), and
//! confirms or cuts it once the connection says how it ended, retrying until the store takes
//! it; a confirm is kept in a journal ([`super::journal`]) until then, so a restart confirms it.
//!
//! Without the store no machine token is served (503, with the reason): a fetch is never served
//! unclaimed. Of any number of fetches racing on any replicas for a token's last use exactly one
//! is served; the others get 503 (Ignition retries) while it is sent, 401 once it went out whole
//! (or may have: unknown).

use crate::serve::log::event::Event;
use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicI64, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use time::OffsetDateTime;

use super::journal::{Entry, Journal, Unopened};
use super::lease::{Keeper, lock};
use super::settle::{Ctx, confirm_entry, machine_of, retry};
use super::tally::parse;
use super::{Claimed, Refusal, Rules};
use crate::clock::Clock;
use crate::ledger::{self, Admit};
use crate::serve::log::Log;
use crate::serve::request::message::MachineFetch;
use crate::store::claims::{self, End, Sending, TokenState};
use crate::store::holders::{Holder, PROTOCOL, Registration, Unregistered};
use crate::store::{self, Store};

/// How long the end mark may take before the fetch is cut instead.
const MARK_WITHIN: Duration = Duration::from_secs(10);

/// How long a stopping serve waits for its confirms and cuts to reach the store.
const SETTLE_AT_STOP: Duration = Duration::from_secs(5);

/// What the body of a claimed fetch waits on before its last piece: the end mark.
pub(in crate::serve) type Gate = Pin<Box<dyn Future<Output = Result<(), String>> + Send>>;

/// Whether `f` may be served by its token's state `st` in the store, by the ledger files'
/// rule ([`ledger::admit`]).
fn admit(st: &TokenState, f: &MachineFetch, max_partial: u32) -> Result<Option<u32>, Refusal> {
    let record = |text: Option<&str>| parse(text.unwrap_or_default().as_bytes());
    match ledger::admit(f.uses, st.counts(), max_partial) {
        Admit::Left(left) => Ok(left),
        Admit::Spent => Err(Refusal::Spent(record(st.first_whole.as_deref())?)),
        Admit::Unknown => Err(Refusal::Unknown(record(st.last_unknown.as_deref())?)),
        Admit::CutOff => Err(Refusal::CutOff(st.cut, record(st.last_cut.as_deref())?)),
        Admit::Busy => Err(Refusal::Busy(record(
            st.sending.first().map(|s| s.record.as_str()),
        )?)),
    }
}

/// A fetch claimed here, until it is confirmed or cut.
#[derive(Clone)]
struct Pending {
    token: String,
    claim: String,
    /// The holder it was claimed under.
    holder: String,
    /// The record, `"whole":false`, without its newline.
    record: String,
    limited: bool,
    /// Its record is in the store (a token of unlimited uses past its kept records: counted
    /// only, nothing to rewrite).
    recorded: bool,
}

/// The fetches of machine tokens, claimed in the store.
pub(in crate::serve) struct StoreFetches {
    ctx: Ctx,
    replica: String,
    lease: Duration,
    /// This process's registration, while its lease lives (`None`: not registered, or
    /// registering again after it ended).
    holder: Arc<Mutex<Option<Holder>>>,
    /// Why the last registration failed.
    unregistered: Arc<Mutex<Option<String>>>,
    next: AtomicU64,
    pending: Mutex<HashMap<u64, Pending>>,
    /// Tokens of unlimited uses with all their records kept ([`store::counted::KEEP`]), and
    /// this process's count of their fetches since; taken across the count's write, so the
    /// totals reach the store in order.
    beyond: tokio::sync::Mutex<HashMap<String, u64>>,
    runtime: tokio::runtime::Handle,
    /// Why the store did not answer at the last poll (readiness says it).
    down: Mutex<Option<String>>,
    /// When the store last answered (Unix seconds).
    answered: AtomicI64,
    /// How long tokens are served while it does not.
    grace: Duration,
}

impl StoreFetches {
    /// Claims go to `store`; confirmations and cuts are written on `runtime`. Nothing is
    /// claimed before [`StoreFetches::start`] registers this replica.
    pub(in crate::serve) fn new(
        store: Store,
        replica: String,
        rules: Rules,
        (grace, lease): (Duration, Duration),
        clock: Clock,
        log: Log,
    ) -> StoreFetches {
        StoreFetches {
            ctx: Ctx {
                store,
                log,
                rules,
                journal: None,
                settling: Arc::default(),
                clock: clock.clone(),
            },
            replica,
            lease,
            holder: Arc::default(),
            unregistered: Arc::new(Mutex::new(Some("not registered yet".into()))),
            next: AtomicU64::new(0),
            pending: Mutex::default(),
            beyond: tokio::sync::Mutex::default(),
            runtime: tokio::runtime::Handle::current(),
            answered: AtomicI64::new(clock.now().unix_timestamp()),
            grace,
            down: Mutex::default(),
        }
    }

    /// Opens the journal at `journal` and registers this replica; confirms what an earlier run
    /// left; keeps the lease alive until `stop`. An error when this replica must not serve: the
    /// journal held by another serve, or a live replica deciding claims otherwise.
    pub(in crate::serve) async fn start(
        &mut self,
        journal: &std::path::Path,
        stop: tokio::sync::watch::Receiver<bool>,
    ) -> Result<(), String> {
        let left = match Journal::open(journal) {
            Ok((j, left)) => {
                self.ctx.journal = Some(Arc::new(j));
                left
            }
            Err(Unopened::Held(why)) => return Err(why),
            Err(Unopened::Failed(why)) => {
                self.ctx.log.event(
                    Event::JournalFailed,
                    &format!("{why}: a whole fetch whose confirm a restart interrupts stays unknown (spent) instead of whole"),
                );
                Vec::new()
            }
        };
        let keeper = Keeper {
            store: self.ctx.store.clone(),
            log: self.ctx.log.clone(),
            holder: self.holder.clone(),
            unregistered: self.unregistered.clone(),
            reg: Registration {
                replica: self.replica.clone(),
                protocol: PROTOCOL,
                max_partial_fetches: self.ctx.rules.max_partial,
            },
            lease: self.lease,
        };
        if let Err(Unregistered::Differs(why)) = keeper.register().await {
            return Err(why);
        }
        if !left.is_empty() {
            self.ctx.log.event(
                Event::JournalReplayed,
                &format!(
                    "{} whole fetch(es) an earlier run sent were not confirmed in the store: confirming them now",
                    left.len()
                ),
            );
        }
        for e in left {
            let ctx = self.ctx.clone();
            self.spawn_settle(async move { confirm_entry(&ctx, &e).await });
        }
        self.runtime.spawn(keeper.run(stop));
        Ok(())
    }

    /// Ends this replica's lease once its settlements are in the store (waiting at most
    /// [`SETTLE_AT_STOP`]): its fetches still being sent are settled by the others at once
    /// instead of when the lease would have ended.
    pub(in crate::serve) async fn close(&self) {
        let start = std::time::Instant::now();
        while self.ctx.settling.load(Ordering::Acquire) > 0 && start.elapsed() < SETTLE_AT_STOP {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        let held = lock(&self.holder).take();
        if let Some(h) = held {
            let _ = self.ctx.store.release(h.lease).await;
        }
    }

    fn spawn_settle(&self, f: impl Future<Output = ()> + Send + 'static) {
        let settling = self.ctx.settling.clone();
        settling.fetch_add(1, Ordering::AcqRel);
        self.runtime.spawn(async move {
            f.await;
            settling.fetch_sub(1, Ordering::AcqRel);
        });
    }

    /// Why machine tokens cannot be served now, if so.
    pub(super) fn unready(&self) -> Option<String> {
        lock(&self.down).clone().or_else(|| {
            lock(&self.holder).is_none().then(|| {
                let why = lock(&self.unregistered).clone().unwrap_or_default();
                format!("this replica is not registered in the store: {why}")
            })
        })
    }

    /// Asks the store whether it answers (each reload poll); says when that changes.
    pub(super) async fn poll(&self) {
        let down = self.ctx.store.ping().await.err();
        let now = self.ctx.clock.now().unix_timestamp();
        let silent = now - self.answered.load(Ordering::Relaxed);
        if down.is_none() {
            self.answered.store(now, Ordering::Relaxed);
        }
        let mut was = lock(&self.down);
        let log = &self.ctx.log;
        match (was.is_some(), &down) {
            (false, Some(why)) => log.event(
                Event::StoreUnreachable,
                &format!(
                    "{why}: machine tokens get 503 until it answers; the tokens last known are served for --store-grace ({}s)",
                    self.grace.as_secs()
                ),
            ),
            (true, None) => log.event(
                Event::StoreReachable,
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
        let s = claims::read(&self.ctx.store, &f.token, now.unix_timestamp())
            .await
            .map_err(Refusal::Unrecorded)?;
        admit(&s, f, self.ctx.rules.max_partial)
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
        let holder = lock(&self.holder).as_ref().map(|h| h.id.clone());
        let Some(holder) = holder else {
            return Err(Refusal::Unrecorded(self.unready().unwrap_or_default()));
        };
        let id = self.next.fetch_add(1, Ordering::Relaxed);
        let claim = format!("{holder}-{id}");
        let record = String::from_utf8_lossy(&line[..line.len() - 1]).into_owned();
        let fetch_key = store::fetch_key(&f.token, &claim);
        let mut recorded = true;
        let left = if f.uses.is_none() {
            recorded = self
                .record_unlimited(&f.token, &holder, &fetch_key, &record)
                .await?;
            None
        } else {
            let also: [(&str, &[u8]); 1] = [(&fetch_key, record.as_bytes())];
            let max_partial = self.ctx.rules.max_partial;
            let now = now.unix_timestamp();
            claims::update(&self.ctx.store, &f.token, Some(&holder), now, &also, |s| {
                let left = admit(s, f, max_partial)?;
                s.sending.push(Sending {
                    claim: claim.clone(),
                    holder: holder.clone(),
                    since: now,
                    record: record.clone(),
                    ending: false,
                });
                Ok::<_, Refusal>(left)
            })
            .await?
        };
        lock(&self.pending).insert(
            id,
            Pending {
                token: f.token.to_string(),
                claim,
                holder,
                record,
                limited: f.uses.is_some(),
                recorded,
            },
        );
        Ok(Claimed {
            line,
            at: flag,
            id,
            left,
        })
    }

    /// Records a fetch of a token with unlimited uses: its record while the token has fewer
    /// than [`store::counted::KEEP`], else one more in this process's count. Whether it was
    /// recorded.
    async fn record_unlimited(
        &self,
        token: &str,
        holder: &str,
        fetch_key: &str,
        record: &str,
    ) -> Result<bool, Refusal> {
        let store = &self.ctx.store;
        let known_full = self.beyond.lock().await.contains_key(token);
        if !known_full
            && !store
                .records_full(token)
                .await
                .map_err(Refusal::Unrecorded)?
        {
            store
                .put(fetch_key, record.as_bytes())
                .await
                .map_err(Refusal::Unrecorded)?;
            return Ok(true);
        }
        let mut beyond = self.beyond.lock().await;
        let total = beyond.entry(token.to_string()).or_default();
        *total += 1;
        let n = *total;
        store.put_count(token, holder, n).await.map_err(|e| {
            *total -= 1;
            Refusal::Unrecorded(e)
        })?;
        Ok(false)
    }

    /// What claim `id`'s body waits on before its last piece: its end mark, written while this
    /// replica's lease lives (none for a token of unlimited uses: nothing to spend).
    pub(super) fn gate(&self, id: u64) -> Option<Gate> {
        let p = lock(&self.pending)
            .get(&id)
            .filter(|p| p.limited)
            .cloned()?;
        let ctx = self.ctx.clone();
        Some(Box::pin(async move {
            let now = ctx.clock.now().unix_timestamp();
            let mark = claims::update(&ctx.store, &p.token, Some(&p.holder), now, &[], |s| {
                s.mark_ending(&p.claim)
            });
            match tokio::time::timeout(MARK_WITHIN, mark).await {
                Ok(r) => r,
                Err(_) => Err(format!(
                    "the store did not take the end mark within {}s",
                    MARK_WITHIN.as_secs()
                )),
            }
            .map_err(|e| {
                ctx.log.event(
                    Event::FetchCut,
                    &format!(
                        "{e}: machine {}'s fetch with token {} is cut before its end (never served unrecorded); it may fetch again",
                        machine_of(&p.record),
                        p.token
                    ),
                );
                e
            })
        }))
    }

    /// Claim `id` went out whole: its use is spent and its record rewritten, in the store, in
    /// the background, retried until the store takes it (kept in the journal until then).
    pub(super) fn confirm(&self, id: u64) {
        let Some(p) = lock(&self.pending).remove(&id) else {
            return;
        };
        let e = Entry {
            record: ledger::with_flag(&p.record, "true"),
            token: p.token,
            claim: p.claim,
        };
        let ctx = self.ctx.clone();
        if !p.limited {
            if !p.recorded {
                return;
            }
            self.spawn_settle(async move {
                let key = store::fetch_key(&e.token, &e.claim);
                let _ = retry(&ctx, &e, || ctx.store.put(&key, e.record.as_bytes())).await;
            });
            return;
        }
        if let Some(j) = &ctx.journal
            && let Err(why) = j.add(&e)
        {
            ctx.log.event(Event::JournalFailed, &why);
        }
        self.spawn_settle(async move { confirm_entry(&ctx, &e).await });
    }

    /// Claim `id` ended before its last byte: its use is given back and the cut counted, in
    /// the background (retried until the store takes it); what happened is logged there.
    pub(super) fn cut(&self, id: u64) {
        let Some(p) = lock(&self.pending).remove(&id) else {
            return;
        };
        let ctx = self.ctx.clone();
        self.spawn_settle(async move {
            let text = ledger::with_flag(&p.record, "\"cut\"");
            let e = Entry {
                token: p.token.clone(),
                claim: p.claim.clone(),
                record: text.clone(),
            };
            let key = store::fetch_key(&p.token, &p.claim);
            let cuts = retry(&ctx, &e, || async {
                if !p.limited {
                    if !p.recorded {
                        return Ok(0);
                    }
                    return ctx.store.put(&key, text.as_bytes()).await.map(|()| 0);
                }
                let now = ctx.clock.now().unix_timestamp();
                claims::update(&ctx.store, &p.token, None, now, &[], |s| {
                    Ok::<_, String>(s.end(&p.claim, End::Cut, &text).then_some(s.cut))
                })
                .await
                .map(|cuts| cuts.unwrap_or(u32::MAX))
            })
            .await;
            let msg = match (cuts, serde_json::from_str::<ledger::Record>(&p.record)) {
                // Settled unknown meanwhile (this replica's lease ended after its end mark).
                (u32::MAX, _) => format!(
                    "machine {}'s fetch with token {} was cut off before its end, but another replica took it for unknown meanwhile (this replica's lease had ended): it stays spent",
                    machine_of(&p.record),
                    p.token
                ),
                (cuts, Ok(r)) => crate::serve::request::refusals::cut_said(
                    &r,
                    cuts,
                    ctx.rules.max_partial,
                    p.limited,
                ),
                (_, Err(_)) => format!("a fetch with token {} was cut off before its end", p.token),
            };
            ctx.log.event(Event::FetchCut, &msg);
        });
    }
}
