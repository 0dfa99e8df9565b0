//! An http(s) URL as a booting machine would fetch it: parsed by the `http` crate's `Uri`
//! (hyper's own type), with only the parts a fetch needs, and a printable form that never shows
//! a token.

use std::fmt;

use hyper::Uri;

/// An absolute `http` or `https` URL with a host.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HttpUrl {
    uri: Uri,
}

impl HttpUrl {
    /// Parses `s`; `None` unless it is an absolute http(s) URL with a host.
    pub fn parse(s: &str) -> Option<HttpUrl> {
        // A fragment is never sent (Go's client drops it too).
        let s = s.split('#').next().unwrap_or_default();
        let uri: Uri = s.parse().ok()?;
        let scheme = uri.scheme_str()?.to_ascii_lowercase();
        if !matches!(scheme.as_str(), "http" | "https") || uri.host().is_none_or(str::is_empty) {
            return None;
        }
        // `user:pass@` would be sent as Basic auth by Go; Ignition never writes it.
        if uri.authority().is_some_and(|a| a.as_str().contains('@')) {
            return None;
        }
        Some(HttpUrl { uri })
    }

    /// Whether the scheme is https.
    pub fn is_https(&self) -> bool {
        self.uri
            .scheme_str()
            .is_some_and(|s| s.eq_ignore_ascii_case("https"))
    }

    /// The host without IPv6 brackets, as a TLS server name and for name resolution.
    pub fn host(&self) -> &str {
        // Invariant of `parse`: the URI has a non-empty host.
        let h = self.uri.host().expect("HttpUrl has a host");
        h.strip_prefix('[')
            .and_then(|h| h.strip_suffix(']'))
            .unwrap_or(h)
    }

    /// The port, or the scheme's default.
    pub fn port(&self) -> u16 {
        self.uri
            .port_u16()
            .unwrap_or(if self.is_https() { 443 } else { 80 })
    }

    /// `host[:port]` as written, for the Host header (what Go's client sends).
    pub fn authority(&self) -> &str {
        // Invariant of `parse`: an absolute URI with a host has an authority.
        self.uri
            .authority()
            .expect("HttpUrl has an authority")
            .as_str()
    }

    /// The path and query to request (`/` when the URL has none).
    pub fn path_and_query(&self) -> &str {
        match self.uri.path_and_query().map(|p| p.as_str()) {
            None | Some("") => "/",
            Some(p) => p,
        }
    }

    /// The last path segment (a pool name for `/config/<pool>`).
    pub fn last_segment(&self) -> &str {
        self.uri.path().rsplit('/').next().unwrap_or_default()
    }

    /// The URL with `path` (and no query) in place of its path.
    pub fn with_path(&self, path: &str) -> Option<HttpUrl> {
        let scheme = self.uri.scheme_str()?;
        HttpUrl::parse(&format!("{scheme}://{}{path}", self.authority()))
    }
}

impl fmt::Display for HttpUrl {
    /// The URL with any `token=` query value replaced by `<redacted>`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&redact(&self.uri.to_string()))
    }
}

/// `u` without any `token=` query value, for printing a URL that did not parse.
pub fn redact(u: &str) -> String {
    match u.split_once('?') {
        Some((base, q)) => {
            let q: Vec<&str> = q
                .split('&')
                .map(|p| {
                    if p.starts_with("token=") {
                        "token=<redacted>"
                    } else {
                        p
                    }
                })
                .collect();
            format!("{base}?{}", q.join("&"))
        }
        None => u.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parts_and_redaction() {
        let u =
            HttpUrl::parse("https://api-int.x.example.com:22623/config/worker?token=a.b").unwrap();
        assert_eq!(
            (u.host(), u.port(), u.path_and_query(), u.last_segment()),
            (
                "api-int.x.example.com",
                22623,
                "/config/worker?token=a.b",
                "worker"
            )
        );
        assert_eq!(
            u.to_string(),
            "https://api-int.x.example.com:22623/config/worker?token=<redacted>"
        );
        let u = HttpUrl::parse("https://[::1]/c").unwrap();
        assert_eq!((u.host(), u.port(), u.authority()), ("::1", 443, "[::1]"));
        let u = HttpUrl::parse("http://10.0.0.1:8080").unwrap();
        assert_eq!((u.port(), u.path_and_query()), (8080, "/"));
        assert_eq!(
            u.with_path("/config/w").unwrap().to_string(),
            "http://10.0.0.1:8080/config/w"
        );
        for bad in [
            "tftp://x/y",
            "/config/w",
            "https://",
            "https://u:p@h/c",
            "not a url",
        ] {
            assert!(HttpUrl::parse(bad).is_none(), "{bad}");
        }
        assert_eq!(
            redact("/config/w?token=abc.def&x=1"),
            "/config/w?token=<redacted>&x=1"
        );
    }
}
