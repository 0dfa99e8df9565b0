//! Percent-escapes (`%XX`), decoded once for all of mcsctl: a request path (Go's
//! `url.PathUnescape`) and a data URL's payload (Ignition's, and the dataurl library's
//! `Unescape`), each wrapping the one error in its own words. Go's `url.Parse`, which has its
//! own rules for hosts, is ported whole in `golang::url`.

/// Why a `%` escape cannot be decoded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BadEscape {
    /// The input ends within it.
    Truncated,
    /// A character after `%` is not a hex digit (Go's `ishex`: no sign, no space).
    NotHex,
}

/// Every `%XX` decoded, every other byte kept.
pub fn decode(s: &[u8]) -> Result<Vec<u8>, BadEscape> {
    let mut out = Vec::with_capacity(s.len());
    let mut i = 0;
    while i < s.len() {
        if s[i] != b'%' {
            out.push(s[i]);
            i += 1;
            continue;
        }
        let (Some(&h), Some(&l)) = (s.get(i + 1), s.get(i + 2)) else {
            return Err(BadEscape::Truncated);
        };
        let hex = |c: u8| (c as char).to_digit(16);
        let (Some(h), Some(l)) = (hex(h), hex(l)) else {
            return Err(BadEscape::NotHex);
        };
        out.push((h * 16 + l) as u8);
        i += 3;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_and_their_errors() {
        assert_eq!(decode(b"a%20b%2F").unwrap(), b"a b/");
        assert_eq!(decode(b"%e2%9c%93").unwrap(), "\u{2713}".as_bytes());
        assert_eq!(decode(b"no escapes").unwrap(), b"no escapes");
        assert_eq!(decode(b"a%2"), Err(BadEscape::Truncated));
        assert_eq!(decode(b"a%"), Err(BadEscape::Truncated));
        assert_eq!(decode(b"a%zz"), Err(BadEscape::NotHex));
        // from_str_radix would take a sign; Go's ishex does not.
        assert_eq!(decode(b"%+1"), Err(BadEscape::NotHex));
    }
}
