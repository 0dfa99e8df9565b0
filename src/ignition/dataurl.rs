//! RFC 2397 `data:` URLs, as Ignition reads them (base64 or percent-encoded).

use anyhow::{Result, anyhow, bail};
use base64::Engine;

use crate::percent::BadEscape;

/// Encodes `data` the way openshift-install writes CA bundles into pointer configs.
pub fn encode_text(data: &[u8]) -> String {
    format!(
        "data:text/plain;charset=utf-8;base64,{}",
        base64::engine::general_purpose::STANDARD.encode(data)
    )
}

/// Encodes `data` as the MCS encodes the files it appends (`data:,` and RFC 2396 escaping, as
/// vincent-petithory/dataurl's `Escape`): ASCII letters, digits and `-_.!~*'()` stay, every
/// other byte becomes `%XX`.
pub fn encode_escaped(data: &[u8]) -> String {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    let mut out = String::with_capacity(6 + data.len() * 3);
    out.push_str("data:,");
    for &b in data {
        if b.is_ascii_alphanumeric() || b"-_.!~*'()".contains(&b) {
            out.push(char::from(b));
        } else {
            out.push('%');
            out.push(char::from(HEX[usize::from(b >> 4)]));
            out.push(char::from(HEX[usize::from(b & 0xf)]));
        }
    }
    out
}

/// Decodes a `data:` URL; anything else is an error naming the scheme.
pub fn decode(url: &str) -> Result<Vec<u8>> {
    let Some(rest) = url.strip_prefix("data:") else {
        let scheme = url.split_once(':').map_or("none", |(s, _)| s);
        bail!("not a data URL (scheme {scheme})");
    };
    let (meta, payload) = rest
        .split_once(',')
        .ok_or_else(|| anyhow!("data URL has no ',' before its data"))?;
    if meta.split(';').any(|p| p == "base64") {
        let cleaned: String = percent_decode(payload)?
            .into_iter()
            .filter(|b| !b.is_ascii_whitespace())
            .map(char::from)
            .collect();
        // Ignition (Go's vincent-petithory/dataurl) accepts base64 with or without padding.
        let lenient = base64::engine::GeneralPurpose::new(
            &base64::alphabet::STANDARD,
            base64::engine::GeneralPurposeConfig::new()
                .with_decode_padding_mode(base64::engine::DecodePaddingMode::Indifferent),
        );
        lenient
            .decode(cleaned)
            .map_err(|e| anyhow!("data URL has invalid base64: {e}"))
    } else {
        percent_decode(payload)
    }
}

/// Decodes a `data:` URL as vincent-petithory/dataurl's `DecodeString` does (Ignition's
/// validator and fetcher use it): a media type of token characters (a discrete or composite
/// top-level type unless it starts with `x-`), `;attr=value` parameters (a quoted value may
/// hold escapes), `;base64` last, then data of URL characters with `%XX` escapes, or standard
/// base64 with padding (line breaks ignored). The error is the library's message.
pub fn decode_strict(s: &str) -> std::result::Result<Vec<u8>, String> {
    let rest = s.strip_prefix("data:").ok_or("missing data prefix")?;
    let c: Vec<char> = rest.chars().collect();
    let mut i = 0;
    // The media type, if any.
    match c.first() {
        Some(';') | Some(',') => {}
        None => return Err("missing comma before data".into()),
        Some(&first) if is_token(first) => media_type(&c, &mut i, first)?,
        Some(_) => return Err("invalid character after data prefix".into()),
    }
    // Parameters, `;base64` last.
    let mut base64 = false;
    while c.get(i) == Some(&';') {
        if let Some(b) = parameter(&c, &mut i)? {
            base64 = b;
            break;
        }
    }
    if c.get(i) != Some(&',') {
        return Err(match c.get(i) {
            None => "missing comma before data".into(),
            Some(_) => "expected semicolon or comma".into(),
        });
    }
    let data: String = c[i + 1..].iter().collect();
    decode_data(&data, base64)
}

/// RFC 2045 token characters.
fn is_token(c: char) -> bool {
    c.is_ascii() && !c.is_ascii_control() && c != ' ' && !"()<>@,;:\\\"/[]?=".contains(c)
}

/// `type/subtype`: a discrete or composite top-level type unless it starts with `x-`.
fn media_type(c: &[char], i: &mut usize, first: char) -> std::result::Result<(), String> {
    let x_token = (first == 'x' || first == 'X') && c.get(1) == Some(&'-');
    let start = *i;
    loop {
        match c.get(*i) {
            Some('/') => break,
            None => return Err("missing media type slash".into()),
            Some(&ch) if is_token(ch) => *i += 1,
            Some(_) => return Err("invalid character for media type".into()),
        }
    }
    let ty: String = c[start..*i].iter().collect();
    let known = [
        "text",
        "image",
        "audio",
        "video",
        "application",
        "message",
        "multipart",
    ]
    .iter()
    .any(|p| ty.starts_with(p));
    if !x_token && !known {
        return Err("invalid media type".into());
    }
    *i += 1;
    loop {
        match c.get(*i) {
            Some(';' | ',') => break,
            None => return Err("incomplete media type".into()),
            Some(&ch) if is_token(ch) => *i += 1,
            Some(_) => return Err("invalid character for media subtype".into()),
        }
    }
    Ok(())
}

/// One `;attr=value` parameter from the `;` at `i`: `Some(base64)` when the data follows,
/// `None` when another parameter does.
fn parameter(c: &[char], i: &mut usize) -> std::result::Result<Option<bool>, String> {
    *i += 1;
    match c.get(*i) {
        None | Some('=') | Some(',') => return Err("unterminated parameter sequence".into()),
        Some(&ch) if is_token(ch) => {}
        Some(_) => return Err("invalid character for parameter attribute".into()),
    }
    let start = *i;
    loop {
        match c.get(*i) {
            Some('=') => break,
            Some(',') => {
                let attr: String = c[start..*i].iter().collect();
                if attr != "base64" {
                    return Err(format!("expected base64, got {attr}"));
                }
                return Ok(Some(true));
            }
            None => return Err("unterminated parameter sequence".into()),
            Some(&ch) if is_token(ch) => *i += 1,
            Some(_) => return Err("invalid character for parameter attribute".into()),
        }
    }
    *i += 1; // '='
    match c.get(*i) {
        Some('"') => {
            *i += 1;
            let vstart = *i;
            loop {
                match c.get(*i) {
                    None => return Err("unclosed quoted string".into()),
                    // After a backslash any ASCII character goes; the end of the
                    // text falls through to "unclosed".
                    Some('\\') => match c.get(*i + 1) {
                        None => return Err("unclosed quoted string".into()),
                        Some(ch) if ch.is_ascii() => *i += 2,
                        Some(_) => return Err("invalid escaped character".into()),
                    },
                    Some('"') => break,
                    Some(ch) if ch.is_ascii() => *i += 1,
                    Some(_) => return Err("invalid character for parameter value".into()),
                }
            }
            let v: String = c[vstart..*i].iter().collect();
            unquote(&v)?;
            *i += 1;
        }
        None => return Err("missing comma before data".into()),
        Some(&ch) if is_token(ch) => {
            let vstart = *i;
            loop {
                match c.get(*i) {
                    Some(';' | ',') => break,
                    None => return Err("missing comma before data".into()),
                    Some(&ch) if is_token(ch) => *i += 1,
                    Some(_) => return Err("invalid character for parameter value".into()),
                }
            }
            let v: String = c[vstart..*i].iter().collect();
            rfc2396_unescape(&v)?;
        }
        Some(_) => return Err("invalid character for parameter value".into()),
    }
    match c.get(*i) {
        Some(';') => Ok(None),
        Some(',') => Ok(Some(false)),
        None => Err("missing comma before data".into()),
        Some(_) => Err("expected semicolon or comma".into()),
    }
}

/// The data: standard base64 with padding (line breaks ignored), or URL characters with
/// `%XX` escapes.
fn decode_data(data: &str, base64: bool) -> std::result::Result<Vec<u8>, String> {
    if base64 {
        if !data
            .chars()
            .all(|ch| ch.is_ascii_alphanumeric() || matches!(ch, '+' | '/' | '=' | '\n'))
        {
            return Err("invalid data character".into());
        }
        let cleaned: String = data.chars().filter(|&ch| ch != '\n').collect();
        base64::engine::general_purpose::STANDARD
            .decode(cleaned)
            .map_err(|e| format!("illegal base64 data ({e})"))
    } else {
        let url_char =
            |ch: char| ch.is_ascii() && !ch.is_ascii_control() && !" <>#\"{}|\\^[]`".contains(ch);
        if !data.chars().all(url_char) {
            return Err("invalid data character".into());
        }
        rfc2396_unescape(data)
    }
}

/// The library's `Unescape`: ASCII only, `%` followed by two hex digits.
fn rfc2396_unescape(s: &str) -> std::result::Result<Vec<u8>, String> {
    if !s.is_ascii() {
        return Err("rfc2396: non-ASCII char detected".into());
    }
    crate::percent::decode(s.as_bytes()).map_err(|e| match e {
        BadEscape::Truncated => "rfc2396: unexpected end of unescape sequence".into(),
        BadEscape::NotHex => "rfc2396: invalid char 0x25 in unescape sequence".into(),
    })
}

/// `strconv.Unquote` of a quoted parameter value succeeding.
fn unquote(v: &str) -> std::result::Result<(), String> {
    serde_json::from_str::<String>(&format!("\"{v}\""))
        .map(|_| ())
        .map_err(|_| "invalid syntax".into())
}

fn percent_decode(s: &str) -> Result<Vec<u8>> {
    crate::percent::decode(s.as_bytes()).map_err(|e| match e {
        BadEscape::Truncated => anyhow!("data URL has a truncated %-escape"),
        BadEscape::NotHex => anyhow!("data URL has an invalid %-escape"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_percent() {
        assert_eq!(decode(&encode_text(b"hello\n")).unwrap(), b"hello\n");
        assert_eq!(decode("data:,a%20b").unwrap(), b"a b");
        assert_eq!(decode("data:;base64,aGk").unwrap(), b"hi");
        assert!(decode("https://x").is_err());
        assert!(decode("data:,%2").is_err());
    }

    #[test]
    fn strict_as_ignition_reads_them() {
        assert_eq!(decode_strict("data:,a%20b").unwrap(), b"a b");
        assert_eq!(
            decode_strict("data:text/plain;charset=utf-8;base64,aGk=").unwrap(),
            b"hi"
        );
        assert_eq!(decode_strict("data:;base64,aGk=").unwrap(), b"hi");
        for (bad, why) in [
            ("https://x", "missing data prefix"),
            ("data:x", "missing media type slash"),
            ("data:foo/bar,x", "invalid media type"),
            ("data:,a b", "invalid data character"),
            ("data:,a%2", "rfc2396: unexpected end of unescape sequence"),
            ("data:;base64,aGk", "illegal base64"),
            ("data:;charset,x", "expected base64, got charset"),
            ("data:text/plain", "incomplete media type"),
        ] {
            let e = decode_strict(bad).unwrap_err();
            assert!(e.starts_with(why), "{bad}: {e}");
        }
        assert!(decode_strict("data:x-custom/y;a=\"q\\\"\",z").is_ok());
    }

    #[test]
    fn escaped_as_the_mcs_writes_it() {
        assert_eq!(
            encode_escaped(b"a b/{\"x\"}\n"),
            "data:,a%20b%2F%7B%22x%22%7D%0A"
        );
        assert_eq!(encode_escaped(b"-_.!~*'()"), "data:,-_.!~*'()");
        let all: Vec<u8> = (0..=255).collect();
        assert_eq!(decode(&encode_escaped(&all)).unwrap(), all);
    }
}
