//! Durations as users type them: `90s`, `30m`, `1h`, `7d`, `10y` (a year is 365 days, as
//! openshift-install counts its ten-year validity).

use std::fmt;

/// A parsed, non-negative duration in whole seconds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Duration(pub i64);

/// Why a duration did not parse.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[error("invalid duration {input:?}: {reason} (use a number and a unit: 90s, 30m, 1h, 7d, 10y)")]
pub struct ParseError {
    input: String,
    reason: &'static str,
}

impl ParseError {
    /// Why, without the input (for messages that already show it).
    pub fn reason(&self) -> String {
        format!(
            "{} (use a number and a unit: 90s, 30m, 1h, 7d, 10y)",
            self.reason
        )
    }
}

impl Duration {
    /// Parses `<number><unit>` with unit `s`, `m`, `h`, `d` or `y`.
    pub fn parse(input: &str) -> Result<Self, ParseError> {
        let err = |reason| ParseError {
            input: input.to_string(),
            reason,
        };
        let s = input.trim();
        let unit_at = s
            .find(|c: char| !c.is_ascii_digit())
            .ok_or_else(|| err("missing unit"))?;
        let (num, unit) = s.split_at(unit_at);
        if num.is_empty() {
            return Err(err("missing number"));
        }
        let n: i64 = num.parse().map_err(|_| err("number too large"))?;
        let mult = match unit {
            "s" => 1,
            "m" => 60,
            "h" => 3600,
            "d" => 86_400,
            "y" => 365 * 86_400,
            _ => return Err(err("unknown unit")),
        };
        // Cap at 1000 years: x509 GeneralizedTime ends at 9999 and nothing sane needs more.
        n.checked_mul(mult)
            .filter(|secs| *secs <= 1000 * 365 * 86_400)
            .map(Duration)
            .ok_or_else(|| err("too long"))
    }

    /// Seconds.
    pub fn seconds(self) -> i64 {
        self.0
    }

    /// As a `time::Duration`.
    pub fn to_time(self) -> time::Duration {
        time::Duration::seconds(self.0)
    }

    /// As a `std::time::Duration` (a negative one is zero).
    pub fn to_std(self) -> std::time::Duration {
        std::time::Duration::from_secs(self.0.max(0) as u64)
    }
}

impl fmt::Display for Duration {
    /// The largest unit that divides exactly, so `parse(display(d)) == d`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = self.0;
        for (unit, mult) in [("y", 365 * 86_400), ("d", 86_400), ("h", 3600), ("m", 60)] {
            if s != 0 && s % mult == 0 {
                return write!(f, "{}{unit}", s / mult);
            }
        }
        write!(f, "{s}s")
    }
}

/// A human description of a signed span such as a certificate's residual time: `10y`,
/// `9y364d`, `10d`, `23h`, `-2d` (expired two days ago). Coarse on purpose, as kubeadm's
/// RESIDUAL TIME column, and rounded to the nearest unit shown, so a certificate made for ten
/// days reads `10d` for its first half day rather than `9d`.
pub fn residual(seconds: i64) -> String {
    const DAY: u64 = 86_400;
    let sign = if seconds < 0 { "-" } else { "" };
    let s = seconds.unsigned_abs();
    let round = |unit: u64| (s + unit / 2) / unit;
    // The unit is chosen after rounding: 3,599 s is `1h`, not `60m`.
    let body = if s >= DAY - 3600 / 2 {
        let days = round(DAY);
        match (days / 365, days % 365) {
            (0, d) => format!("{d}d"),
            (y, 0) => format!("{y}y"),
            (y, d) => format!("{y}y{d}d"),
        }
    } else if s >= 3600 - 60 / 2 {
        format!("{}h", round(3600))
    } else if s >= 60 {
        format!("{}m", round(60))
    } else {
        format!("{s}s")
    };
    format!("{sign}{body}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_every_unit() {
        assert_eq!(Duration::parse("90s").unwrap().seconds(), 90);
        assert_eq!(Duration::parse("30m").unwrap().seconds(), 1800);
        assert_eq!(Duration::parse("1h").unwrap().seconds(), 3600);
        assert_eq!(Duration::parse("7d").unwrap().seconds(), 604_800);
        assert_eq!(Duration::parse("10y").unwrap().seconds(), 3650 * 86_400);
        assert_eq!(Duration::parse("0s").unwrap().seconds(), 0);
    }

    #[test]
    fn rejects_bad_input() {
        for bad in [
            "",
            "h",
            "10",
            "1x",
            "-1h",
            "1.5h",
            "99999999999999999999s",
            "1001y",
            "1h30m",
        ] {
            assert!(Duration::parse(bad).is_err(), "{bad} parsed");
        }
    }

    #[test]
    fn display_round_trips() {
        for s in ["90s", "30m", "1h", "7d", "10y", "25h", "0s"] {
            assert_eq!(Duration::parse(s).unwrap().to_string(), s);
        }
    }

    #[test]
    fn residual_is_coarse() {
        assert_eq!(residual(3649 * 86_400 + 5), "9y364d");
        assert_eq!(residual(3650 * 86_400 - 3), "10y");
        assert_eq!(residual(10 * 86_400 - 1), "10d");
        assert_eq!(residual(10 * 86_400), "10d");
        assert_eq!(residual(3600 * 5 - 20), "5h");
        assert_eq!(residual(-2 * 86_400), "-2d");
        assert_eq!(residual(59), "59s");
        // Rounding never shows 60m or 24h.
        assert_eq!(residual(3599), "1h");
        assert_eq!(residual(3569), "59m");
        assert_eq!(residual(86_399), "1d");
        assert_eq!(residual(84_599), "23h");
    }
}
