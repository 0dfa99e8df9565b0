//! What every connection of serve shares: the loaded state (swapped whole at a reload), the
//! rate limiter, the log, the handshake and token-event counters, the clock, the fetch
//! claims and the metrics.

use std::sync::Arc;

use super::limit::RateLimiter;
use super::live::{State, Tokens};
use super::log::Log;
use super::{fetches, handshakes, metrics, repeats};

pub(super) struct Shared {
    pub(super) max_header_bytes: usize,
    pub(super) state: super::current::Current,
    pub(super) limiter: RateLimiter,
    pub(super) log: Log,
    pub(super) handshakes: handshakes::Handshakes,
    pub(super) clock: crate::clock::Clock,
    pub(super) fetches: fetches::Fetches,
    pub(super) metrics: metrics::Metrics,
    /// Refusals and cuts of machine tokens, said once per token and kind, then counted.
    pub(super) token_events: repeats::Repeats<(String, &'static str)>,
    /// With `--store`, the tokens it published, once it has: they stand in for the
    /// directory's at every reload.
    pub(super) published: std::sync::Mutex<Option<(Arc<Tokens>, i64)>>,
}

impl Shared {
    /// Puts `next` in place of the state; the store's tokens, when it published some, stay.
    /// Taken under the state's write lock, so a reload and a publication never undo each
    /// other.
    pub(super) fn swap(&self, mut next: State) {
        self.state.replace(|_| {
            if let Some((t, _)) = &*self.published.lock().unwrap_or_else(|p| p.into_inner()) {
                next.tokens = t.clone();
            }
            next
        });
    }

    /// The revision of the store's tokens in place, if any.
    pub(super) fn published_revision(&self) -> Option<i64> {
        self.published().map(|(_, r)| r)
    }

    /// The store's tokens in place and their revision, if any.
    pub(super) fn published(&self) -> Option<(Arc<Tokens>, i64)> {
        self.published
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone()
    }

    /// The store published `tokens` (at `revision`): they replace the state's at once.
    pub(super) fn set_published(&self, tokens: Tokens, revision: i64) {
        let tokens = Arc::new(tokens);
        self.state.replace(|cur| {
            *self.published.lock().unwrap_or_else(|p| p.into_inner()) =
                Some((tokens.clone(), revision));
            State {
                tls: cur.tls.clone(),
                tokens,
                auth: cur.auth,
                full: cur.full.clone(),
                pre: cur.pre.clone(),
            }
        });
    }
    pub(super) fn current(&self) -> Arc<State> {
        self.state.get()
    }

    /// The state for a request: [`super::current::Current::here`].
    pub(super) fn here(&self) -> Arc<super::current::Held> {
        self.state.here()
    }

    /// Logs `msg` as a `kind` event of `token` when it is the first of its kind for that token
    /// or the last one was said a minute ago (then with the count since): a stolen token
    /// replayed 10,000 times is a line a minute.
    pub(super) fn say_of_token(&self, token: &str, kind: &'static str, msg: &str) {
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
