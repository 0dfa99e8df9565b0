//! coreos/go-semver's `NewVersion` and `Compare`: `MAJOR.MINOR.PATCH`, each a decimal
//! `int64` as `strconv.ParseInt` reads it (a sign and leading zeros allowed), with an
//! optional `-pre-release` and `+metadata` of dot-separated `[0-9A-Za-z-]` identifiers.

use std::cmp::Ordering;

/// A parsed version.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Version {
    /// Major.
    pub major: i64,
    /// Minor.
    pub minor: i64,
    /// Patch.
    pub patch: i64,
    /// Pre-release, empty when none.
    pub pre_release: String,
}

impl Version {
    /// `X.Y.0` with no pre-release.
    pub const fn new(major: i64, minor: i64) -> Version {
        Version {
            major,
            minor,
            patch: 0,
            pre_release: String::new(),
        }
    }

    /// `semver.NewVersion(s)`.
    pub fn parse(s: &str) -> Option<Version> {
        let (rest, metadata) = match s.split_once('+') {
            Some((a, b)) => (a, b),
            None => (s, ""),
        };
        let (core, pre) = match rest.split_once('-') {
            Some((a, b)) => (a, b),
            None => (rest, ""),
        };
        let parts: Vec<&str> = core.splitn(3, '.').collect();
        if parts.len() != 3 || !identifier(pre) || !identifier(metadata) {
            return None;
        }
        let num = |p: &str| -> Option<i64> {
            let digits = p.strip_prefix(['+', '-']).unwrap_or(p);
            if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            p.parse::<i64>().ok()
        };
        Some(Version {
            major: num(parts[0])?,
            minor: num(parts[1])?,
            patch: num(parts[2])?,
            pre_release: pre.to_string(),
        })
    }

    /// `Version.Compare`: numbers first, then a version without a pre-release is greater,
    /// then pre-release identifiers (numeric ones below alphanumeric ones).
    pub fn compare(&self, other: &Version) -> Ordering {
        let nums =
            (self.major, self.minor, self.patch).cmp(&(other.major, other.minor, other.patch));
        if nums != Ordering::Equal {
            return nums;
        }
        match (self.pre_release.is_empty(), other.pre_release.is_empty()) {
            (true, false) => return Ordering::Greater,
            (false, true) => return Ordering::Less,
            _ => {}
        }
        let a: Vec<&str> = self.pre_release.split('.').collect();
        let b: Vec<&str> = other.pre_release.split('.').collect();
        for (x, y) in a.iter().zip(&b) {
            let (xi, yi) = (x.parse::<i64>().ok(), y.parse::<i64>().ok());
            let o = match (xi, yi) {
                (Some(_), None) => Ordering::Less,
                (None, Some(_)) => Ordering::Greater,
                (Some(p), Some(q)) if p != q => p.cmp(&q),
                _ => x.cmp(y),
            };
            if o != Ordering::Equal {
                return o;
            }
        }
        a.len().cmp(&b.len())
    }
}

impl std::fmt::Display for Version {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}.{}.{}", self.major, self.minor, self.patch)?;
        if !self.pre_release.is_empty() {
            write!(f, "-{}", self.pre_release)?;
        }
        Ok(())
    }
}

/// `^[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*$`, or empty.
fn identifier(s: &str) -> bool {
    s.is_empty()
        || s.split('.')
            .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_as_go_semver() {
        let v = Version::parse("3.4.0-experimental").unwrap();
        assert_eq!(
            (v.major, v.minor, v.pre_release.as_str()),
            (3, 4, "experimental")
        );
        assert_eq!(Version::parse("03.2.0").unwrap().major, 3);
        assert!(Version::parse("3.2").is_none());
        assert!(Version::parse("1").is_none());
        assert!(Version::parse("\"3.2.0\"").is_none());
        assert!(
            Version::parse("3.2.0+").is_some(),
            "an empty metadata is allowed"
        );
        assert!(Version::parse("3.2.x").is_none());
        assert_eq!(Version::parse("3.2.0.1"), None);
        let a = Version::parse("3.4.0-experimental").unwrap();
        assert_eq!(a.compare(&Version::new(3, 4)), Ordering::Less);
        assert_eq!(
            Version::new(2, 4).compare(&Version::new(2, 2)),
            Ordering::Greater
        );
    }
}
