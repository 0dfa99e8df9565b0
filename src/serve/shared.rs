//! What every connection of serve shares: the loaded state (swapped whole at a reload), the
//! rate limiter, the log, the handshake and token-event counters, the clock, the fetch
//! claims and the metrics.

use std::sync::{Arc, RwLock};

use super::limit::RateLimiter;
use super::live::State;
use super::log::Log;
use super::{fetches, handshakes, metrics, repeats};

pub(super) struct Shared {
    pub(super) max_header_bytes: usize,
    pub(super) state: RwLock<Arc<State>>,
    pub(super) limiter: RateLimiter,
    pub(super) log: Log,
    pub(super) handshakes: handshakes::Handshakes,
    pub(super) clock: crate::clock::Clock,
    pub(super) fetches: fetches::Fetches,
    pub(super) metrics: metrics::Metrics,
    /// Refusals and cuts of machine tokens, said once per token and kind, then counted.
    pub(super) token_events: repeats::Repeats<(String, &'static str)>,
}

impl Shared {
    pub(super) fn current(&self) -> Arc<State> {
        self.state.read().unwrap_or_else(|p| p.into_inner()).clone()
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
