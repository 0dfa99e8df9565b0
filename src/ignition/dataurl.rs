//! RFC 2397 `data:` URLs, as Ignition reads them (base64 or percent-encoded).

use anyhow::{Result, anyhow, bail};
use base64::Engine;

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

fn percent_decode(s: &str) -> Result<Vec<u8>> {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' {
            let hex = b
                .get(i + 1..i + 3)
                .ok_or_else(|| anyhow!("data URL has a truncated %-escape"))?;
            let v = std::str::from_utf8(hex)
                .ok()
                .and_then(|h| u8::from_str_radix(h, 16).ok())
                .ok_or_else(|| anyhow!("data URL has an invalid %-escape"))?;
            out.push(v);
            i += 3;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    Ok(out)
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
