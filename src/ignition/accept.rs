//! The `Accept` header, read as the MCS reads it (`pkg/server/api.go`): split on `,` then `;`,
//! entries without a `/` skipped, the first `version=` (a semver) and the first `q=` (one when
//! missing) of each entry, entries stable-sorted by q descending. The first entry whose
//! subtype is `vnd.coreos.ignition+json` and that has a version decides: spec 2.2 or any later
//! 2.x gets 2.2, a known minor gets that minor, a newer 3.x minor gets 3.5, anything else is
//! refused. With no such entry, or no usable header at all, the client gets spec 2.2 (Ignition
//! 0.x sends `version=2.4.0`; curl sends nothing).

use crate::golang::semver::Version;
use crate::ignition::spec::Spec;

/// The media subtype of Ignition configs.
pub const IGNITION_SUBTYPE: &str = "vnd.coreos.ignition+json";

/// Why an `Accept` header cannot be served (the MCS answers 400).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "unsupported Ignition version in Accept header: {0}; this server serves Ignition specs 2.2.0 and 3.0.0 to 3.5.0"
)]
pub struct Refused(pub String);

/// The spec to serve for `header`.
pub fn negotiate(header: Option<&str>) -> Result<Spec, Refused> {
    let header = header.unwrap_or("");
    let mut entries: Vec<(f32, &str, Option<Version>)> = Vec::new();
    for value in header.split(',') {
        let mut parts = value.trim().split(';').map(str::trim);
        let Some((_, subtype)) = parts.next().and_then(|media| media.split_once('/')) else {
            continue;
        };
        let mut version = None;
        let mut q = None;
        for ext in parts {
            let Some((k, v)) = ext.split_once('=') else {
                continue;
            };
            if k == "version" && version.is_none() {
                version = Version::parse(v);
            } else if k == "q" && q.is_none() {
                q = go_parse_float32(v);
            }
        }
        entries.push((q.unwrap_or(1.0), subtype, version));
    }
    // Go's stable sort with the MCS's `less`: equal q keeps the client's order, and `q=nan`
    // (which strconv parses) lands where it lands in Go, without a panic.
    crate::golang::sort::slice_stable(&mut entries, |a, b| a.0 > b.0);
    for (_, subtype, version) in entries {
        if subtype != IGNITION_SUBTYPE {
            continue;
        }
        let Some(v) = version else { continue };
        if v.major == 2 && v.compare(&Version::new(2, 2)).is_ge() {
            return Ok(Spec::V2_2);
        }
        return match (v.major, v.minor) {
            (2, 2) => Ok(Spec::V2_2),
            (3, m @ 0..=5) => Ok(Spec::V3(m as u8)),
            (3, m) if m > 5 => Ok(Spec::INTERNAL),
            _ => Err(Refused(header.to_string())),
        };
    }
    Ok(Spec::V2_2)
}

/// [`negotiate`] of a header as it came (bytes that are not UTF-8 read as no header),
/// remembering the last header this thread read: a fleet's machines send the same few headers
/// (one per Ignition version), so most requests are one comparison, and the header is read as
/// text only when it is not the one remembered. Headers longer than [`REMEMBERED`] bytes are
/// read afresh and not kept.
pub fn negotiate_remembered(header: Option<&[u8]>) -> Result<Spec, Refused> {
    type Last = (Vec<u8>, Option<Result<Spec, Refused>>);
    thread_local! {
        static LAST: std::cell::RefCell<Last> = const { std::cell::RefCell::new((Vec::new(), None)) };
    }
    let text = || header.and_then(|h| std::str::from_utf8(h).ok());
    // `None` reads as the empty header: the same answer.
    let h = header.unwrap_or_default();
    if h.len() > REMEMBERED {
        return negotiate(text());
    }
    LAST.with_borrow_mut(|(last, answer)| match answer {
        Some(a) if last[..] == *h => a.clone(),
        _ => {
            let a = negotiate(text());
            last.clear();
            last.extend_from_slice(h);
            *answer = Some(a.clone());
            a
        }
    })
}

/// The longest header [`negotiate_remembered`] keeps (Ignition's are under 100 bytes).
pub const REMEMBERED: usize = 256;

/// `strconv.ParseFloat(s, 32)` for what an Accept header holds.
fn go_parse_float32(s: &str) -> Option<f32> {
    let body = s.trim_start_matches(['+', '-']);
    if ["inf", "infinity", "nan"]
        .iter()
        .any(|w| body.eq_ignore_ascii_case(w))
    {
        return s.parse::<f32>().ok();
    }
    if body.is_empty()
        || !body
            .bytes()
            .all(|b| b.is_ascii_digit() || matches!(b, b'.' | b'e' | b'+' | b'-'))
    {
        return None;
    }
    s.parse::<f32>().ok().filter(|f| f.is_finite())
}

#[cfg(test)]
mod tests {
    use super::*;

    const IGN: &str = "application/vnd.coreos.ignition+json";

    #[test]
    fn a_remembered_answer_is_the_answer_for_that_header() {
        let headers = [
            format!("{IGN};version=3.3.0, */*;q=0.1"),
            format!("{IGN};version=3.3.0, */*;q=0.1"),
            format!("{IGN};version=4.0.0"),
            format!("{IGN};version=4.0.0"),
            String::new(),
            format!("{IGN};version=3.0.0"),
            format!("{IGN};version=3.3.0, */*;q=0.1"),
            format!("{}{IGN};version=3.1.0", "a/b, ".repeat(60)),
            format!("{IGN};version=3.3.0, */*;q=0.1"),
        ];
        for h in &headers {
            assert_eq!(
                negotiate_remembered(Some(h.as_bytes())),
                negotiate(Some(h)),
                "{h}"
            );
        }
        assert_eq!(negotiate_remembered(None), Ok(Spec::V2_2));
        // Bytes that are not UTF-8 read as no header, remembered or not.
        for _ in 0..2 {
            assert_eq!(negotiate_remembered(Some(b"\xff")), Ok(Spec::V2_2));
        }
        assert!(headers[7].len() > REMEMBERED);
    }

    #[test]
    fn as_the_mcs_reads_it() {
        assert_eq!(negotiate(None), Ok(Spec::V2_2), "curl");
        assert_eq!(negotiate(Some("*/*")), Ok(Spec::V2_2));
        assert_eq!(negotiate(Some("an-invalid-accept-header")), Ok(Spec::V2_2));
        let ign214 = format!("{IGN};version=3.3.0, */*;q=0.1");
        assert_eq!(negotiate(Some(&ign214)), Ok(Spec::V3(3)));
        assert_eq!(
            negotiate(Some(&format!("{IGN};version=3.0.0"))),
            Ok(Spec::V3(0))
        );
        assert_eq!(
            negotiate(Some(&format!("{IGN};version=3.99.0"))),
            Ok(Spec::V3(5))
        );
        assert_eq!(
            negotiate(Some(&format!("{IGN};version=3.4.0-experimental"))),
            Ok(Spec::V3(4))
        );
        // Ignition 0.x.
        let ign0 = format!("{IGN}; version=2.4.0, {IGN}; version=1; q=0.5, */*; q=0.1");
        assert_eq!(negotiate(Some(&ign0)), Ok(Spec::V2_2));
        assert!(negotiate(Some(&format!("{IGN};version=4.0.0"))).is_err());
        assert!(negotiate(Some(&format!("{IGN};version=2.1.0"))).is_err());
        // q ordering: the higher q wins even when listed later; equal q keeps the order.
        let q = format!("{IGN};version=3.1.0;q=0.5, {IGN};version=3.4.0, */*;q=0.1");
        assert_eq!(negotiate(Some(&q)), Ok(Spec::V3(4)));
        let same = format!("{IGN};version=3.1.0, {IGN};version=3.2.0");
        assert_eq!(negotiate(Some(&same)), Ok(Spec::V3(1)));
        // q=nan parses (strconv.ParseFloat) and compares as neither more nor less: the order
        // stays as sent, as Go's stable sort leaves it. The fuzzer found Rust's sort panicking
        // on such a header, which anyone can send.
        let nan = format!("x/y;q=nan, {IGN};version=3.1.0;q=nan, {IGN};version=3.4.0");
        assert_eq!(negotiate(Some(&nan)), Ok(Spec::V3(1)));
        let many = format!("{}{IGN};version=3.2.0", "*/*;q=nan, a/b;q=0.3, ".repeat(40));
        assert_eq!(negotiate(Some(&many)), Ok(Spec::V3(2)));
        // A version that is no semver is skipped; a quoted one is no semver.
        let bad = format!("{IGN};version=three, {IGN};version=3.0.0;q=0.2");
        assert_eq!(negotiate(Some(&bad)), Ok(Spec::V3(0)));
        assert_eq!(
            negotiate(Some(&format!("{IGN};version=\"3.2.0\""))),
            Ok(Spec::V2_2)
        );
        // Only the subtype is compared.
        assert_eq!(
            negotiate(Some("x/vnd.coreos.ignition+json;version=3.1.0")),
            Ok(Spec::V3(1))
        );
    }
}
