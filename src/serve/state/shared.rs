//! What every connection of serve shares: the loaded state (swapped whole at a reload), the
//! rate limiter, the log, the handshake and token-event counters, the clock, the fetch
//! claims and the metrics.

use crate::serve::log::event::Event;
use std::sync::Arc;

use crate::serve::conn::handshakes;
use crate::serve::conn::limit::RateLimiter;
use crate::serve::fetches;
use crate::serve::log::Log;
use crate::serve::log::metrics;
use crate::serve::log::repeats;
use crate::serve::state::live::{DeadToken, State, Tokens};

pub(in crate::serve) struct Shared {
    pub(in crate::serve) max_header_bytes: usize,
    pub(in crate::serve) state: crate::serve::state::current::Current,
    pub(in crate::serve) limiter: RateLimiter,
    pub(in crate::serve) log: Log,
    pub(in crate::serve) handshakes: handshakes::Handshakes,
    pub(in crate::serve) clock: crate::clock::Clock,
    pub(in crate::serve) fetches: fetches::Fetches,
    /// Where first-boot reports are recorded.
    pub(in crate::serve) reports: crate::serve::reports::Reports,
    /// First-boot reports per address (`request::report`).
    pub(in crate::serve) report_limiter: RateLimiter,
    /// The asset directory (the report credentials are read from it per report).
    pub(in crate::serve) dir: crate::assets::AssetDir,
    /// This replica's name, in each report it records.
    pub(in crate::serve) replica: String,
    pub(in crate::serve) metrics: metrics::Metrics,
    /// Refusals and cuts of machine tokens, said once per token and kind, then counted.
    pub(in crate::serve) token_events: repeats::Repeats<(String, Event)>,
    /// With `--store`, the tokens it published, once it has: they stand in for the
    /// directory's at every reload.
    pub(in crate::serve) published: std::sync::Mutex<Option<(Arc<Tokens>, i64)>>,
    /// The directory's tokens, while the store's are served: their revocations count too.
    pub(in crate::serve) directory: std::sync::Mutex<Option<Arc<Tokens>>>,
    /// The ids the directory revokes and the store does not, as last said.
    pub(in crate::serve) diverged: std::sync::Mutex<Vec<Arc<str>>>,
}

impl Shared {
    /// Puts `next` in place of the state; the store's tokens, when it published some, stay.
    /// Taken under the state's write lock, so a reload and a publication never undo each
    /// other.
    pub(in crate::serve) fn swap(&self, mut next: State) {
        self.state.replace(|_| {
            let dir = next.tokens.clone();
            *lock(&self.directory) = Some(dir.clone());
            if let Some((t, _)) = &*lock(&self.published) {
                next.tokens = self.honoured(t, &dir);
            }
            next
        });
    }

    /// The store's tokens `t` with the directory's revocations (`dir`); says when the two
    /// diverge (once per set of tokens).
    fn honoured(&self, t: &Arc<Tokens>, dir: &Tokens) -> Arc<Tokens> {
        let (tokens, ids) = match honouring(t, dir) {
            Some((c, ids)) => (Arc::new(c), ids),
            None => (t.clone(), Vec::new()),
        };
        let mut said = lock(&self.diverged);
        if *said != ids && !ids.is_empty() {
            let list: Vec<&str> = ids.iter().map(|i| &**i).collect();
            self.log.event(
                Event::TokensDiverge,
                &format!(
                    "token(s) {} are revoked in the directory's auth/tokens.json but not in the store: refused here all the same; `mcsctl token publish` publishes the revocation to every replica",
                    list.join(", ")
                ),
            );
        }
        *said = ids;
        tokens
    }

    /// The revision of the store's tokens in place, if any.
    pub(in crate::serve) fn published_revision(&self) -> Option<i64> {
        self.published().map(|(_, r)| r)
    }

    /// The store's tokens in place and their revision, if any.
    pub(in crate::serve) fn published(&self) -> Option<(Arc<Tokens>, i64)> {
        self.published
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone()
    }

    /// The store published `tokens` (at `revision`): they replace the state's at once.
    pub(in crate::serve) fn set_published(&self, tokens: Tokens, revision: i64) {
        let published = Arc::new(tokens);
        self.state.replace(|cur| {
            *lock(&self.published) = Some((published.clone(), revision));
            let tokens = match &*lock(&self.directory) {
                Some(dir) => self.honoured(&published, dir),
                None => published.clone(),
            };
            State {
                tls: cur.tls.clone(),
                tokens,
                auth: cur.auth,
                full: cur.full.clone(),
                pre: cur.pre.clone(),
            }
        });
    }
    pub(in crate::serve) fn current(&self) -> Arc<State> {
        self.state.get()
    }

    /// The state for a request: [`crate::serve::state::current::Current::here`].
    pub(in crate::serve) fn here(&self) -> Arc<crate::serve::state::current::Held> {
        self.state.here()
    }

    /// Logs `msg` as a `kind` event of `token` when it is the first of its kind for that token
    /// or the last one was said a minute ago (then with the count since): a stolen token
    /// replayed 10,000 times is a line a minute.
    pub(in crate::serve) fn say_of_token(&self, token: &str, kind: Event, msg: &str) {
        let wall = repeats::clock_time(self.clock.now());
        let Some(said) =
            self.token_events
                .record(&(token.to_string(), kind), std::time::Instant::now(), &wall)
        else {
            return;
        };
        if said.count == 1 {
            self.log.event(kind, msg);
        } else {
            self.log.event(
                kind,
                &format!("{msg} ({} times since {})", said.count, said.since),
            );
        }
    }
}

fn lock<T>(m: &std::sync::Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// The store's tokens with every token the directory's `dir` revokes refused too:
/// serve honours a revocation from either. `None` when `dir` revokes none of them; else
/// the tokens and the ids it refused.
fn honouring(store: &Tokens, dir: &Tokens) -> Option<(Tokens, Vec<Arc<str>>)> {
    let revoked: std::collections::HashSet<&Arc<str>> = dir
        .dead
        .iter()
        .filter(|d| d.why == crate::token::Dead::Revoked)
        .map(|d| &d.id)
        .collect();
    if !store.live.iter().any(|t| revoked.contains(&t.id)) {
        return None;
    }
    let mut t = store.clone();
    let (gone, live): (Vec<_>, Vec<_>) = t.live.drain(..).partition(|l| revoked.contains(&l.id));
    t.live = live;
    let ids = gone.iter().map(|g| g.id.clone()).collect();
    t.dead.extend(gone.into_iter().map(|g| DeadToken {
        id: g.id,
        digest: g.digest,
        why: crate::token::Dead::Revoked,
    }));
    t.machines = t.live.iter().any(|l| l.machine.is_some());
    Some((t.indexed(), ids))
}
