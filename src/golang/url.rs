//! Go's `net/url.Parse`: which strings it refuses (control characters, a missing scheme before
//! `:`, a bad port, a bad `%` escape in the host, path or fragment, a bad userinfo) and the
//! scheme, opaque part, userinfo, host, path and query it finds. mcsctl's one URL parser: the
//! components it agrees with (Ignition, the MCS, the approver, `oc`) are Go programs, so a URL
//! means to mcsctl what `url.Parse` makes of it; `crate::http::HttpUrl` is the http(s) kind.

/// What `url.Parse` found.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Url {
    /// Lower-cased scheme, empty when there is none.
    pub scheme: String,
    /// What follows `scheme:` when it does not start with `/` (a `data:` URL's body).
    pub opaque: String,
    /// Whether it has a `user[:password]@`.
    pub userinfo: bool,
    /// Host and port (`[::1]:22623`), unescaped.
    pub host: String,
    /// The path as written (escaped), empty when there is none.
    pub raw_path: String,
    /// The raw query, without `?`.
    pub raw_query: String,
}

impl Url {
    /// `URL.Hostname()`: the host without the port and IPv6 brackets.
    pub fn hostname(&self) -> &str {
        let h = self.host.as_str();
        if let Some(rest) = h.strip_prefix('[') {
            return rest.split_once(']').map_or(rest, |(h, _)| h);
        }
        h.rsplit_once(':').map_or(h, |(h, _)| h)
    }

    /// `URL.Port()`: the port as written, empty when there is none.
    pub fn port(&self) -> &str {
        let after = match self.host.rfind(']') {
            Some(i) => &self.host[i + 1..],
            None => &self.host[self.host.rfind(':').unwrap_or(self.host.len())..],
        };
        after.strip_prefix(':').unwrap_or_default()
    }
}

/// `url.Parse(s)`; the error is Go's message.
pub fn parse(s: &str) -> Result<Url, String> {
    let (u, frag) = s.split_once('#').unwrap_or((s, ""));
    let url = parse_no_fragment(u)?;
    unescape(frag, Mode::Fragment)?;
    Ok(url)
}

fn parse_no_fragment(raw: &str) -> Result<Url, String> {
    if raw.bytes().any(|b| b < 0x20 || b == 0x7f) {
        return Err("net/url: invalid control character in URL".into());
    }
    let mut url = Url::default();
    if raw == "*" {
        return Ok(url);
    }
    let (scheme, mut rest) = scheme(raw)?;
    url.scheme = scheme.to_ascii_lowercase();
    if rest.ends_with('?') && rest.matches('?').count() == 1 {
        rest = &rest[..rest.len() - 1];
    } else if let Some((r, q)) = rest.split_once('?') {
        url.raw_query = q.to_string();
        rest = r;
    }
    if !rest.starts_with('/') {
        if !url.scheme.is_empty() {
            url.opaque = rest.to_string();
            return Ok(url);
        }
        let segment = rest.split('/').next().unwrap_or("");
        if segment.contains(':') {
            return Err("first path segment in URL cannot contain colon".into());
        }
    }
    if (!url.scheme.is_empty() || !rest.starts_with("///")) && rest.starts_with("//") {
        let authority = &rest[2..];
        let (authority, path) = match authority.find('/') {
            Some(i) => (&authority[..i], &authority[i..]),
            None => (authority, ""),
        };
        (url.host, url.userinfo) = parse_authority(authority)?;
        rest = path;
    }
    unescape(rest, Mode::Path)?;
    url.raw_path = rest.to_string();
    Ok(url)
}

fn scheme(raw: &str) -> Result<(&str, &str), String> {
    for (i, c) in raw.bytes().enumerate() {
        match c {
            b'a'..=b'z' | b'A'..=b'Z' => {}
            b'0'..=b'9' | b'+' | b'-' | b'.' if i > 0 => {}
            b':' if i == 0 => return Err("missing protocol scheme".into()),
            b':' => return Ok((&raw[..i], &raw[i + 1..])),
            _ => return Ok(("", raw)),
        }
    }
    Ok(("", raw))
}

/// The host (unescaped) and whether there was a userinfo.
fn parse_authority(authority: &str) -> Result<(String, bool), String> {
    let (userinfo, host) = match authority.rfind('@') {
        Some(i) => (Some(&authority[..i]), &authority[i + 1..]),
        None => (None, authority),
    };
    let host = parse_host(host)?;
    if let Some(u) = userinfo {
        let valid = u.bytes().all(|c| {
            c.is_ascii_alphanumeric()
                || matches!(
                    c,
                    b'-' | b'.'
                        | b'_'
                        | b':'
                        | b'~'
                        | b'!'
                        | b'$'
                        | b'&'
                        | b'\''
                        | b'('
                        | b')'
                        | b'*'
                        | b'+'
                        | b','
                        | b';'
                        | b'='
                        | b'%'
                        | b'@'
                )
        });
        if !valid {
            return Err("net/url: invalid userinfo".into());
        }
        unescape(u, Mode::Userinfo)?;
    }
    Ok((host, userinfo.is_some()))
}

fn parse_host(host: &str) -> Result<String, String> {
    let port_ok = |p: &str| {
        p.is_empty() || (p.starts_with(':') && p[1..].bytes().all(|b| b.is_ascii_digit()))
    };
    if host.starts_with('[') {
        let Some(i) = host.rfind(']') else {
            return Err("missing ']' in host".into());
        };
        let colon_port = &host[i + 1..];
        if !port_ok(colon_port) {
            return Err(format!("invalid port {colon_port:?} after host"));
        }
    } else if let Some(i) = host.rfind(':') {
        let colon_port = &host[i..];
        if !port_ok(colon_port) {
            return Err(format!("invalid port {colon_port:?} after host"));
        }
    }
    unescape(host, Mode::Host)
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Path,
    Host,
    Userinfo,
    Fragment,
}

/// `url.unescape`: every `%` starts two hex digits; in a host only `%25` may encode an ASCII
/// byte, and the host's other ASCII characters must be ones a host may hold.
fn unescape(s: &str, mode: Mode) -> Result<String, String> {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'%' => {
                let hex = |c: Option<&u8>| c.and_then(|c| (*c as char).to_digit(16));
                let (Some(h), Some(l)) = (hex(b.get(i + 1)), hex(b.get(i + 2))) else {
                    // Go quotes up to three bytes, which may end inside a character.
                    let end = (i + 3).min(b.len());
                    let bad = String::from_utf8_lossy(&b[i..end]);
                    return Err(format!("invalid URL escape {bad:?}"));
                };
                if mode == Mode::Host && h < 8 && &s[i..i + 3] != "%25" {
                    return Err(format!("invalid URL escape {:?}", &s[i..i + 3]));
                }
                out.push((h * 16 + l) as u8);
                i += 3;
            }
            c => {
                if mode == Mode::Host && c < 0x80 && !host_char(c) {
                    return Err(format!("invalid character {:?} in host name", c as char));
                }
                out.push(c);
                i += 1;
            }
        }
    }
    Ok(String::from_utf8_lossy(&out).into_owned())
}

/// Characters `shouldEscape` leaves alone in a host.
fn host_char(c: u8) -> bool {
    c.is_ascii_alphanumeric()
        || matches!(
            c,
            b'-' | b'.'
                | b'_'
                | b'~'
                | b'!'
                | b'$'
                | b'&'
                | b'\''
                | b'('
                | b')'
                | b'*'
                | b'+'
                | b','
                | b';'
                | b'='
                | b':'
                | b'['
                | b']'
                | b'<'
                | b'>'
                | b'"'
        )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bad_escape_before_a_multibyte_character_is_an_error() {
        // Found by the ignition fuzz target: the quoted three bytes ended inside 'ԑ'.
        assert_eq!(
            parse("https://x/a%2\u{511}"),
            Err("invalid URL escape \"%2\u{fffd}\"".to_string())
        );
        assert!(parse("https://x/#%\u{511}").is_err());
    }

    #[test]
    fn as_go_parses() {
        let u = parse("https://api-int.x:22623/config/worker?token=a").unwrap();
        assert_eq!(
            (u.scheme.as_str(), u.host.as_str()),
            ("https", "api-int.x:22623")
        );
        assert_eq!(u.raw_query, "token=a");
        assert_eq!(
            (u.hostname(), u.port(), u.raw_path.as_str()),
            ("api-int.x", "22623", "/config/worker")
        );
        let v6 = parse("https://u@[fe80::1%25eth0]:443").unwrap();
        assert_eq!(
            (v6.hostname(), v6.port(), v6.userinfo),
            ("fe80::1%eth0", "443", true)
        );
        assert_eq!(parse("http://h").unwrap().port(), "");
        let d = parse("data:,a%zz").unwrap();
        assert_eq!((d.scheme.as_str(), d.opaque.as_str()), ("data", ",a%zz"));
        assert_eq!(parse("/etc/x").unwrap().scheme, "");
        assert!(parse(":x").is_err());
        assert!(parse("http://h:port/").is_err());
        assert!(parse("http://h/%zz").is_err());
        assert!(parse("http://h/a#%").is_err());
        assert!(parse("http://a b/").is_err());
        assert!(parse("http://h/\n").is_err());
        assert!(parse("a:b/c").is_ok());
        assert_eq!(parse("HTTP://x").unwrap().scheme, "http");
        assert!(parse("x:y").is_ok());
        assert!(
            parse("1a:b").is_err(),
            "no scheme, and a colon in the first segment"
        );
    }
}
