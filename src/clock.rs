//! Where "now" comes from. `main` makes one [`Clock`] and passes it down: every command reads
//! the time of its invocation from it once, and `serve` asks it whenever it needs the wall
//! clock (expiry of tokens and certificates, log lines). Durations (timeouts, rates) use the
//! monotonic clock and never come from here.
//!
//! Tests move time instead of sleeping, through `MCSCTL_TEST_CLOCK`, which only the tests set:
//! an RFC 3339 time fixes the clock; `@FILE` adds the whole seconds written in FILE to the
//! system clock, read again at every call, so a test can move a running server's clock forward.

use std::path::PathBuf;

use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

/// The variable only tests set.
pub const TEST_VAR: &str = "MCSCTL_TEST_CLOCK";

/// A source of the current time.
#[derive(Debug, Clone, Default)]
pub enum Clock {
    /// The system clock.
    #[default]
    System,
    /// Always this time.
    Fixed(OffsetDateTime),
    /// The system clock plus the seconds written in this file (0 while it is missing).
    Shifted(PathBuf),
}

impl Clock {
    /// The clock `MCSCTL_TEST_CLOCK` asks for, else the system clock. A value that is neither
    /// form is an error: a test that meant to move time must not run on the real one.
    pub fn from_env() -> Result<Clock, String> {
        let Some(v) = std::env::var_os(TEST_VAR).filter(|v| !v.is_empty()) else {
            return Ok(Clock::System);
        };
        let v = v.to_string_lossy().into_owned();
        if let Some(file) = v.strip_prefix('@') {
            return Ok(Clock::Shifted(PathBuf::from(file)));
        }
        OffsetDateTime::parse(&v, &Rfc3339)
            .map(Clock::Fixed)
            .map_err(|_| format!("{TEST_VAR}={v:?}: expected an RFC 3339 time or @FILE"))
    }

    /// The current time, to the second.
    pub fn now(&self) -> OffsetDateTime {
        Clock::to_second(self.now_precise())
    }

    /// `t` to the second, as [`Clock::now`] gives it: for a caller that needs both forms of
    /// one reading.
    pub fn to_second(t: OffsetDateTime) -> OffsetDateTime {
        t.replace_nanosecond(0).unwrap_or(t)
    }

    /// The current time, to the nanosecond (a ledger record's time).
    pub fn now_precise(&self) -> OffsetDateTime {
        match self {
            Clock::System => system_now(),
            Clock::Fixed(t) => *t,
            Clock::Shifted(file) => {
                let shift = std::fs::read_to_string(file)
                    .ok()
                    .and_then(|s| s.trim().parse::<i64>().ok())
                    .unwrap_or(0);
                OffsetDateTime::now_utc() + time::Duration::seconds(shift)
            }
        }
    }
}

/// The system clock, as `OffsetDateTime::now_utc` gives it: the date and time of its second
/// worked out once a second per thread, not at every reading (serve reads it per request).
fn system_now() -> OffsetDateTime {
    use std::cell::Cell;
    use std::time::{SystemTime, UNIX_EPOCH};
    thread_local! {
        static SECOND: Cell<(u64, OffsetDateTime)> = const { Cell::new((u64::MAX, OffsetDateTime::UNIX_EPOCH)) };
    }
    let Ok(since) = SystemTime::now().duration_since(UNIX_EPOCH) else {
        return OffsetDateTime::now_utc();
    };
    let secs = since.as_secs();
    let second = SECOND.with(|cell| {
        let (at, t) = cell.get();
        if at == secs {
            return Some(t);
        }
        let t = i64::try_from(secs)
            .ok()
            .and_then(|s| OffsetDateTime::from_unix_timestamp(s).ok())?;
        cell.set((secs, t));
        Some(t)
    });
    second
        .and_then(|t| t.replace_nanosecond(since.subsec_nanos()).ok())
        .unwrap_or_else(OffsetDateTime::now_utc)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fixed_and_shifted() {
        let t = OffsetDateTime::parse("2030-01-02T03:04:05Z", &Rfc3339).unwrap();
        assert_eq!(Clock::Fixed(t).now(), t);
        let d = tempfile::tempdir().unwrap();
        let f = d.path().join("shift");
        let c = Clock::Shifted(f.clone());
        let real = OffsetDateTime::now_utc().unix_timestamp();
        assert!((c.now().unix_timestamp() - real).abs() <= 1);
        std::fs::write(&f, "7200\n").unwrap();
        assert!((c.now().unix_timestamp() - real - 7200).abs() <= 1);
    }

    #[test]
    fn the_system_clock_read_from_its_second_is_the_time_crates() {
        for _ in 0..1000 {
            let before = OffsetDateTime::now_utc();
            let t = Clock::System.now_precise();
            let after = OffsetDateTime::now_utc();
            assert!(before <= t && t <= after, "{before} {t} {after}");
            assert!(t.offset().is_utc());
        }
    }
}
