//! An http(s) URL as a booting machine would fetch it: parsed by Go's rules
//! ([`crate::golang::url`], mcsctl's one URL parser, as Ignition parses the URL it fetches),
//! with only the parts a fetch needs, and a printable form that never shows a token.

use std::fmt;

use crate::golang::url::{self, Url};

/// An absolute `http` or `https` URL with a host, no userinfo, and a request target hyper
/// can send.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HttpUrl {
    /// Go's parts. Invariants of [`HttpUrl::parse`]: the scheme is `http` or `https`, the
    /// hostname is not empty, the port (if any) is a u16.
    url: Url,
    /// As given, without the fragment.
    text: String,
}

impl HttpUrl {
    /// Parses `s`; `None` unless it is an absolute http(s) URL with a host.
    pub fn parse(s: &str) -> Option<HttpUrl> {
        // A fragment is never sent (Go's client drops it too).
        let text = s.split('#').next().unwrap_or_default();
        let url = url::parse(text).ok()?;
        if !matches!(url.scheme.as_str(), "http" | "https")
            || !url.opaque.is_empty()
            || url.hostname().is_empty()
            // `user:pass@` would be sent as Basic auth by Go; Ignition never writes it.
            || url.userinfo
            || (!url.port().is_empty() && url.port().parse::<u16>().is_err())
        {
            return None;
        }
        let u = HttpUrl {
            url,
            text: text.to_string(),
        };
        // What Go would escape before sending (a space, say), hyper refuses to send.
        hyper::http::uri::PathAndQuery::try_from(u.path_and_query()).ok()?;
        hyper::http::uri::Authority::try_from(u.authority()).ok()?;
        Some(u)
    }

    /// Whether the scheme is https.
    pub fn is_https(&self) -> bool {
        self.url.scheme == "https"
    }

    /// The host without IPv6 brackets, as a TLS server name and for name resolution.
    pub fn host(&self) -> &str {
        self.url.hostname()
    }

    /// The port, or the scheme's default.
    pub fn port(&self) -> u16 {
        // Invariant of `parse`: a port that is there is a u16.
        self.url
            .port()
            .parse()
            .unwrap_or(if self.is_https() { 443 } else { 80 })
    }

    /// `host[:port]` as written, for the Host header (what Go's client sends).
    pub fn authority(&self) -> &str {
        &self.url.host
    }

    /// The path and query to request (`/` when the URL has none): Go's `RequestURI`.
    pub fn path_and_query(&self) -> String {
        let path = match self.url.raw_path.as_str() {
            "" => "/",
            p => p,
        };
        match self.url.raw_query.as_str() {
            "" if !self.text.ends_with('?') => path.to_string(),
            q => format!("{path}?{q}"),
        }
    }

    /// The last path segment (a pool name for `/config/<pool>`).
    pub fn last_segment(&self) -> &str {
        self.url.raw_path.rsplit('/').next().unwrap_or_default()
    }

    /// The URL with `path` (and no query) in place of its path.
    pub fn with_path(&self, path: &str) -> Option<HttpUrl> {
        HttpUrl::parse(&format!("{}://{}{path}", self.url.scheme, self.authority()))
    }
}

impl fmt::Display for HttpUrl {
    /// The URL with any `token=` query value replaced by `<redacted>`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&redact(&self.text))
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
            (
                u.host(),
                u.port(),
                u.path_and_query().as_str(),
                u.last_segment()
            ),
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
        assert_eq!((u.port(), u.path_and_query().as_str()), (8080, "/"));
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
            "http://h:99999/",
            "http://h/a b",
            "mailto:a@b",
        ] {
            assert!(HttpUrl::parse(bad).is_none(), "{bad}");
        }
        assert_eq!(
            redact("/config/w?token=abc.def&x=1"),
            "/config/w?token=<redacted>&x=1"
        );
    }
}
