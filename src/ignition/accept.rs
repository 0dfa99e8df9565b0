//! The `Accept` header Ignition sends, parsed as the real MCS parses it: split on `,` then `;`,
//! read `version=` and `q=` (default 1), stable-sort by q descending, and the first
//! `application/vnd.coreos.ignition+json` entry with a valid semver wins. An unknown 3.x minor
//! means the highest 3.x supported; another major is refused.

/// The media type of Ignition configs.
pub const IGNITION_MEDIA_TYPE: &str = "application/vnd.coreos.ignition+json";

/// What the client asked for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Wanted {
    /// No Ignition entry (or no header): serve the config as stored.
    AsStored,
    /// Spec 3.`minor`.0, already capped at the highest minor served.
    Minor(u8),
}

/// Why a request cannot be served (406).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Refused {
    /// An Ignition spec 2 client (Ignition 0.x).
    #[error(
        "Ignition spec {0} clients are not supported: this server serves spec 3 configs (Ignition 2.x and later)"
    )]
    Spec2(String),
    /// Any other major.
    #[error("Ignition spec {0} is not supported: this server serves spec 3 configs")]
    OtherMajor(String),
}

/// Parses `header` and picks the spec version to serve, up to `3.<max_minor>.0`.
pub fn negotiate(header: Option<&str>, max_minor: u8) -> Result<Wanted, Refused> {
    let Some(header) = header else {
        return Ok(Wanted::AsStored);
    };
    let mut entries: Vec<(f32, &str, Option<&str>)> = Vec::new();
    for entry in header.split(',') {
        let mut parts = entry.split(';');
        let media = parts.next().unwrap_or("").trim();
        let mut version = None;
        let mut q = 1.0f32;
        for p in parts {
            let Some((k, v)) = p.split_once('=') else {
                continue;
            };
            match k.trim() {
                "version" => version = Some(v.trim().trim_matches('"')),
                "q" => q = v.trim().parse().unwrap_or(1.0),
                _ => {}
            }
        }
        entries.push((q, media, version));
    }
    // Stable: equal q keeps the client's order.
    entries.sort_by(|a, b| b.0.partial_cmp(&a.0).unwrap_or(std::cmp::Ordering::Equal));
    for (_, media, version) in entries {
        if !media.eq_ignore_ascii_case(IGNITION_MEDIA_TYPE) {
            continue;
        }
        let Some((major, minor)) = version.and_then(semver_major_minor) else {
            continue;
        };
        let v = version.unwrap_or_default().to_string();
        return match major {
            3 => Ok(Wanted::Minor(minor.min(u64::from(max_minor)) as u8)),
            2 => Err(Refused::Spec2(v)),
            _ => Err(Refused::OtherMajor(v)),
        };
    }
    Ok(Wanted::AsStored)
}

/// `MAJOR.MINOR.PATCH[-pre][+build]` → (major, minor).
fn semver_major_minor(v: &str) -> Option<(u64, u64)> {
    let core = v.split(['-', '+']).next()?;
    let mut it = core.split('.');
    let (a, b, c) = (it.next()?, it.next()?, it.next()?);
    if it.next().is_some() {
        return None;
    }
    let num = |s: &str| {
        (!s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()))
            .then(|| s.parse::<u64>().ok())
            .flatten()
    };
    num(c)?;
    Some((num(a)?, num(b)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    const IGN: &str = "application/vnd.coreos.ignition+json";

    #[test]
    fn variants() {
        assert_eq!(negotiate(None, 4), Ok(Wanted::AsStored));
        assert_eq!(negotiate(Some("*/*"), 4), Ok(Wanted::AsStored));
        let ign214 = format!("{IGN};version=3.3.0, */*;q=0.1");
        assert_eq!(negotiate(Some(&ign214), 4), Ok(Wanted::Minor(3)));
        assert_eq!(
            negotiate(Some(&format!("{IGN};version=3.0.0")), 4),
            Ok(Wanted::Minor(0))
        );
        assert_eq!(
            negotiate(Some(&format!("{IGN};version=3.99.0")), 4),
            Ok(Wanted::Minor(4))
        );
        assert!(matches!(
            negotiate(Some(&format!("{IGN};version=2.2.0")), 4),
            Err(Refused::Spec2(_))
        ));
        assert!(matches!(
            negotiate(Some(&format!("{IGN};version=4.0.0")), 4),
            Err(Refused::OtherMajor(_))
        ));
        // q ordering: the higher q wins even when listed later.
        let q = format!("{IGN};version=3.1.0;q=0.5, {IGN};version=3.2.0;q=0.9");
        assert_eq!(negotiate(Some(&q), 4), Ok(Wanted::Minor(2)));
        // Equal q: the client's order.
        let same = format!("{IGN};version=3.1.0, {IGN};version=3.2.0");
        assert_eq!(negotiate(Some(&same), 4), Ok(Wanted::Minor(1)));
        // An invalid version is skipped.
        let bad = format!("{IGN};version=three, {IGN};version=3.0.0;q=0.2");
        assert_eq!(negotiate(Some(&bad), 4), Ok(Wanted::Minor(0)));
        assert_eq!(
            negotiate(Some(&format!("{IGN};version=3.4.0-experimental")), 4),
            Ok(Wanted::Minor(4))
        );
    }
}
