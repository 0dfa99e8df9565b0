//! Events said once, then counted: a machine retrying for ever (a stale pointer config's
//! handshake, a stolen token's replays) is worth one log line a minute, not one per retry, and
//! what a client can make serve remember is bounded.

use std::collections::HashMap;
use std::hash::Hash;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// How often one key is said again while its events continue.
pub const REPEAT: Duration = Duration::from_secs(60);

/// Most keys tracked; beyond that the ones quiet longest are forgotten.
const MAX_TRACKED: usize = 4096;

struct Entry {
    count: u64,
    since: String,
    said_at: Instant,
    said: bool,
    last: Instant,
}

/// What to say of a key now.
#[derive(Debug, PartialEq, Eq)]
pub struct Said {
    /// Events of the key so far.
    pub count: u64,
    /// The wall-clock time of its first one.
    pub since: String,
}

/// The events seen, per key.
pub struct Repeats<K> {
    seen: Mutex<HashMap<K, Entry>>,
}

impl<K> Default for Repeats<K> {
    fn default() -> Self {
        Repeats {
            seen: Mutex::new(HashMap::new()),
        }
    }
}

impl<K: Eq + Hash + Clone> Repeats<K> {
    /// Counts an event of `key` at `now` (wall clock `wall`, for the "since"); returns what to
    /// say when the key is new or was last said [`REPEAT`] ago.
    pub fn record(&self, key: &K, now: Instant, wall: &str) -> Option<Said> {
        let mut seen = self.seen.lock().unwrap_or_else(|p| p.into_inner());
        if seen.len() >= MAX_TRACKED && !seen.contains_key(key) {
            let quiet = seen.values().map(|e| e.last).min()?;
            seen.retain(|_, e| e.last > quiet);
        }
        let e = seen.entry(key.clone()).or_insert_with(|| Entry {
            count: 0,
            since: wall.to_string(),
            said_at: now,
            said: false,
            last: now,
        });
        e.count += 1;
        e.last = now;
        if e.said && now.duration_since(e.said_at) < REPEAT {
            return None;
        }
        e.said_at = now;
        e.said = true;
        Some(Said {
            count: e.count,
            since: e.since.clone(),
        })
    }

    #[cfg(test)]
    pub(crate) fn tracked(&self) -> usize {
        self.seen.lock().unwrap().len()
    }
}

/// `10:02:11Z`: the time of day a log line's "since" names.
pub fn clock_time(t: time::OffsetDateTime) -> String {
    format!("{:02}:{:02}:{:02}Z", t.hour(), t.minute(), t.second())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn said_once_then_counted_and_said_again_after_a_while() {
        let r = Repeats::default();
        let t0 = Instant::now();
        let first = r.record(&"a", t0, "10:00:00Z").unwrap();
        assert_eq!(first.count, 1);
        for i in 1..10 {
            assert!(r.record(&"a", t0 + Duration::from_secs(i), "x").is_none());
        }
        assert_eq!(r.record(&"b", t0, "10:00:01Z").unwrap().count, 1);
        let again = r.record(&"a", t0 + REPEAT, "x").unwrap();
        assert_eq!(
            again,
            Said {
                count: 11,
                since: "10:00:00Z".into()
            }
        );
    }

    #[test]
    fn tracking_is_bounded() {
        let r = Repeats::default();
        let t0 = Instant::now();
        for i in 0..(MAX_TRACKED as u64 + 100) {
            r.record(&i, t0 + Duration::from_millis(i), "t");
        }
        assert!(r.tracked() <= MAX_TRACKED);
    }
}
