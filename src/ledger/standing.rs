//! Where a machine token stands, read from its fetch records from outside serve: what serve
//! would answer its next fetch ([`Admit`], the one rule), and the fetches that say why.
//! `inspect` reports a machine's pointer config by it.
//!
//! A record is written `"whole":false` before its config is sent and rewritten once it ended:
//! `true` when the last byte went out, `"cut"` when serve saw the connection end first. One
//! still `false` is being sent if its serve still runs (its ledger file locked) and it is
//! younger than the longest a fetch may take; else it was cut by a serve killed meanwhile (or
//! one that could not mark it).

use std::path::Path;
use std::time::Duration;

use time::OffsetDateTime;

use super::{Admit, Record, admit};

/// The longest a fetch may take with serve's defaults (`--connection-deadline` 10m, then
/// `--write-timeout` 30s for the request in flight).
pub const LONGEST_FETCH: Duration = Duration::from_secs(10 * 60 + 30);

/// Cut fetches a token with limited uses is allowed before serve refuses it (serve's
/// `--max-partial-fetches` default).
pub const DEFAULT_MAX_PARTIAL: u32 = 3;

/// A machine token's fetches, sorted out.
#[derive(Debug, Clone)]
pub struct Standing {
    /// What serve answers its next fetch (with the default `--max-partial-fetches`).
    pub admit: Admit,
    /// Fetches that went out whole, oldest first.
    pub whole: Vec<Record>,
    /// Fetches being sent now.
    pub sending: Vec<Record>,
    /// Fetches cut off before their end, oldest first.
    pub cut: Vec<Record>,
    /// Fetches whose outcome is unknown ([`Record::unknown`]), oldest first.
    pub unknown: Vec<Record>,
}

/// Where a token allowing `uses` whole fetches (`None`: any number) stands after `records`
/// (its own, oldest first), at `now`; `running` says whether a replica's serve holds its
/// ledger now.
pub fn standing(
    records: &[Record],
    uses: Option<u32>,
    running: &dyn Fn(&str) -> bool,
    now: OffsetDateTime,
) -> Standing {
    let mut s = Standing {
        admit: Admit::Left(uses),
        whole: Vec::new(),
        sending: Vec::new(),
        cut: Vec::new(),
        unknown: Vec::new(),
    };
    for r in records {
        if r.whole {
            s.whole.push(r.clone());
        } else if r.unknown {
            s.unknown.push(r.clone());
        } else if !r.cut && running(&r.replica) && age(r, now).is_some_and(|a| a < LONGEST_FETCH) {
            s.sending.push(r.clone());
        } else {
            s.cut.push(r.clone());
        }
    }
    let n = |v: &Vec<Record>| u32::try_from(v.len()).unwrap_or(u32::MAX);
    let counts = super::Counts {
        whole: n(&s.whole),
        unknown: n(&s.unknown),
        cut: n(&s.cut),
        in_flight: n(&s.sending),
    };
    s.admit = admit(uses, counts, DEFAULT_MAX_PARTIAL);
    s
}

/// How long ago `r` was made (nothing, when its time is ahead of `now`: another replica's
/// clock, or `now` in whole seconds); `None` when its time does not read.
fn age(r: &Record, now: OffsetDateTime) -> Option<Duration> {
    let at = OffsetDateTime::parse(&r.time, &time::format_description::well_known::Rfc3339).ok()?;
    Some(Duration::try_from(now - at).unwrap_or(Duration::ZERO))
}

/// Whether a serve holds the ledger at `path` now (it keeps it locked while it runs).
pub(super) fn held(path: &Path) -> bool {
    let Ok(f) = std::fs::File::open(path) else {
        return false;
    };
    matches!(f.try_lock_shared(), Err(std::fs::TryLockError::WouldBlock))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rec(time: &str, replica: &str, whole: bool) -> Record {
        Record {
            time: time.into(),
            machine: "w0".into(),
            token: "abc123".into(),
            pool: "worker".into(),
            client: "192.0.2.5:40000".into(),
            via: None,
            spec: "3.2.0".into(),
            bytes: 10,
            replica: replica.into(),
            whole,
            cut: false,
            unknown: false,
        }
    }

    #[test]
    fn unfinished_fetches_are_sent_only_by_a_running_serve_within_the_longest_fetch() {
        let now = OffsetDateTime::parse(
            "2026-11-28T10:00:00Z",
            &time::format_description::well_known::Rfc3339,
        )
        .unwrap();
        let running = |r: &str| r == "a";
        let mut marked = rec("2026-11-28T09:59:30Z", "a", false);
        marked.cut = true;
        let s = standing(std::slice::from_ref(&marked), Some(1), &running, now);
        assert_eq!((s.sending.len(), s.cut.len()), (0, 1), "marked cut: ended");
        let fresh = rec("2026-11-28T09:59:00Z", "a", false);
        let old = rec("2026-11-28T09:40:00Z", "a", false);
        let stopped = rec("2026-11-28T09:59:00Z", "b", false);
        let s = standing(
            &[old.clone(), stopped.clone(), fresh.clone()],
            Some(1),
            &running,
            now,
        );
        assert_eq!((s.sending.len(), s.cut.len()), (1, 2));
        assert_eq!(s.admit, Admit::Busy);
        let s = standing(
            &[old, stopped, rec("2026-11-28T09:58:00Z", "b", false)],
            Some(1),
            &running,
            now,
        );
        assert_eq!(s.admit, Admit::CutOff);
        let s = standing(
            &[fresh, rec("2026-11-28T09:59:30Z", "a", true)],
            Some(1),
            &running,
            now,
        );
        assert_eq!(s.admit, Admit::Spent);
        assert_eq!(
            standing(&[], Some(1), &running, now).admit,
            Admit::Left(Some(1))
        );
    }
}
