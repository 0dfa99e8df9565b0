//! Request handling as a plain function of the request and the loaded state: routing, token
//! checks, rate limiting and spec negotiation. No I/O here, so every branch is unit-testable.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use bytes::Bytes;
use time::OffsetDateTime;

use super::state::{State, TokenDigest, digest};
use crate::ignition::SpecVersion;
use crate::ignition::accept::{Wanted, negotiate};
use crate::names::is_dns_label;

/// Who may fetch what.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AuthMode {
    /// A valid token is required.
    Token,
    /// Without a valid token the pre-approval config is served; with one, the full config.
    Split,
    /// Full configs to anyone.
    None,
}

impl AuthMode {
    /// The name used on the command line and in logs.
    pub fn name(self) -> &'static str {
        match self {
            AuthMode::Token => "token",
            AuthMode::Split => "split",
            AuthMode::None => "none",
        }
    }
}

/// The request facts the handler needs.
#[derive(Debug)]
pub struct Request<'a> {
    /// Method, upper case.
    pub method: &'a str,
    /// Path without the query.
    pub path: &'a str,
    /// Raw query, if any.
    pub query: Option<&'a str>,
    /// `Authorization` header.
    pub authorization: Option<&'a str>,
    /// `Accept` header.
    pub accept: Option<&'a str>,
    /// Client address.
    pub remote: IpAddr,
}

/// The response, plus what the access log records.
#[derive(Debug)]
pub struct Response {
    /// HTTP status.
    pub status: u16,
    /// Body.
    pub body: Bytes,
    /// Content type.
    pub content_type: &'static str,
    /// Extra headers.
    pub headers: Vec<(&'static str, String)>,
    /// Pool named in the path, when valid.
    pub pool: Option<String>,
    /// `token:<id>`, `none` or `invalid`.
    pub auth: String,
}

impl Response {
    /// 431 for a request head over the limit; the connection is closed after it.
    pub fn too_large() -> Response {
        let mut r = Response::text(431, "request header fields too large");
        r.headers.push(("connection", "close".into()));
        r
    }

    fn text(status: u16, msg: impl Into<String>) -> Response {
        let mut m = msg.into();
        m.push('\n');
        Response {
            status,
            body: Bytes::from(m),
            content_type: "text/plain; charset=utf-8",
            headers: Vec::new(),
            pool: None,
            auth: "none".into(),
        }
    }
}

/// Failed token attempts per address; an address over the limit gets 429 for a while, others
/// are unaffected.
#[derive(Debug)]
pub struct RateLimiter {
    inner: Mutex<HashMap<IpAddr, Attempts>>,
    max_failures: u32,
    window: Duration,
    block: Duration,
}

#[derive(Debug)]
struct Attempts {
    window_start: Instant,
    failures: u32,
    blocked_until: Option<Instant>,
}

impl RateLimiter {
    /// At most `max_failures` failures per `window`; then blocked for `block`.
    pub fn new(max_failures: u32, window: Duration, block: Duration) -> RateLimiter {
        RateLimiter {
            inner: Mutex::new(HashMap::new()),
            max_failures,
            window,
            block,
        }
    }

    /// Seconds until `ip` may try again, if it is blocked.
    pub fn blocked(&self, ip: IpAddr, now: Instant) -> Option<u64> {
        let m = self.inner.lock().unwrap_or_else(|p| p.into_inner());
        m.get(&ip)
            .and_then(|a| a.blocked_until)
            .filter(|until| *until > now)
            .map(|until| (until - now).as_secs().max(1))
    }

    /// Records a failed attempt.
    pub fn failure(&self, ip: IpAddr, now: Instant) {
        let mut m = self.inner.lock().unwrap_or_else(|p| p.into_inner());
        if m.len() > 100_000 {
            // Bounded memory under a spray of addresses: forget the quiet ones.
            let (window, block) = (self.window, self.block);
            m.retain(|_, a| {
                now.duration_since(a.window_start) < window
                    || a.blocked_until.is_some_and(|u| u > now - block)
            });
        }
        let a = m.entry(ip).or_insert(Attempts {
            window_start: now,
            failures: 0,
            blocked_until: None,
        });
        if now.duration_since(a.window_start) > self.window {
            a.window_start = now;
            a.failures = 0;
        }
        a.failures += 1;
        if a.failures >= self.max_failures {
            a.blocked_until = Some(now + self.block);
        }
    }
}

/// The token presented by a request: `Authorization: Bearer x` or `?token=x`.
fn presented<'a>(req: &Request<'a>) -> Option<&'a str> {
    if let Some(h) = req.authorization {
        let (scheme, rest) = h.trim().split_once(' ')?;
        if scheme.eq_ignore_ascii_case("bearer") {
            return Some(rest.trim());
        }
    }
    req.query?.split('&').find_map(|p| p.strip_prefix("token="))
}

/// Checks a presented token against the live digests in constant time per comparison; the
/// secret itself is never kept.
fn check_token<'s>(
    tokens: &'s [TokenDigest],
    token: &str,
    now: OffsetDateTime,
) -> Option<&'s TokenDigest> {
    let d = digest(token);
    let mut found = None;
    // Compare against every digest, not stopping at a match, so timing says nothing about
    // which token (or whether any) matched.
    for t in tokens {
        if aws_lc_rs::constant_time::verify_slices_are_equal(&t.digest, &d).is_ok()
            && found.is_none()
        {
            found = Some(t);
        }
    }
    found.filter(|t| t.expires.is_none_or(|e| now < e))
}

/// Handles one request.
pub fn handle(
    state: &State,
    auth: AuthMode,
    limiter: &RateLimiter,
    req: &Request<'_>,
    now: OffsetDateTime,
    clock: Instant,
) -> Response {
    let get_or_head = req.method == "GET" || req.method == "HEAD";
    if req.path == "/healthz" {
        if !get_or_head {
            return method_not_allowed();
        }
        return Response::text(200, "ok");
    }
    let Some(pool) = req.path.strip_prefix("/config/") else {
        return Response::text(404, "not found");
    };
    if !get_or_head {
        return method_not_allowed();
    }
    // Only DNS labels: a path with '/', '.', '%' or anything else never reaches a file name.
    if !is_dns_label(pool) {
        return Response::text(404, "not found");
    }
    if let Some(retry) = limiter.blocked(req.remote, clock) {
        let mut r = Response::text(
            429,
            "too many failed token attempts from this address; try later",
        );
        r.headers.push(("retry-after", retry.to_string()));
        r.pool = Some(pool.to_string());
        return r;
    }
    let token = presented(req);
    let matched = token.and_then(|t| check_token(&state.tokens, t, now));
    let auth_label = match (token, matched) {
        (_, Some(t)) => format!("token:{}", t.id),
        (Some(_), None) => "invalid".to_string(),
        (None, None) => "none".to_string(),
    };
    if token.is_some() && matched.is_none() {
        limiter.failure(req.remote, clock);
    }
    let configs = match (auth, matched.is_some()) {
        (AuthMode::None, _) | (_, true) => &state.full,
        (AuthMode::Split, false) => &state.pre,
        (AuthMode::Token, false) => {
            let mut r = Response::text(
                401,
                "a valid provisioning token is required (Authorization: Bearer <id>.<secret>)",
            );
            r.headers.push(("www-authenticate", "Bearer".into()));
            r.pool = Some(pool.to_string());
            r.auth = auth_label;
            return r;
        }
    };
    let mut r = serve_config(configs.get(pool), req.accept);
    r.pool = Some(pool.to_string());
    r.auth = auth_label;
    r
}

fn method_not_allowed() -> Response {
    let mut r = Response::text(405, "method not allowed");
    r.headers.push(("allow", "GET, HEAD".into()));
    r
}

fn serve_config(
    variants: Option<&crate::ignition::translate::Variants>,
    accept: Option<&str>,
) -> Response {
    let Some(v) = variants else {
        return Response::text(404, "no config for this pool");
    };
    let body = match negotiate(accept, SpecVersion::MAX_MINOR) {
        Ok(Wanted::AsStored) => v.stored.clone(),
        Ok(Wanted::Minor(m)) => match v.get(m) {
            Ok(b) => b.clone(),
            Err(reason) => return Response::text(406, reason),
        },
        Err(refused) => return Response::text(406, refused.to_string()),
    };
    Response {
        status: 200,
        body,
        content_type: "application/json",
        headers: Vec::new(),
        pool: None,
        auth: String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limiter_blocks_one_address_only() {
        let l = RateLimiter::new(3, Duration::from_secs(60), Duration::from_secs(300));
        let (a, b): (IpAddr, IpAddr) = ("127.0.0.1".parse().unwrap(), "127.0.0.2".parse().unwrap());
        let t = Instant::now();
        for _ in 0..4 {
            l.failure(a, t);
        }
        assert!(l.blocked(a, t).is_some());
        assert!(l.blocked(b, t).is_none());
        assert!(l.blocked(a, t + Duration::from_secs(301)).is_none());
    }

    #[test]
    fn presented_tokens() {
        let mut r = Request {
            method: "GET",
            path: "/",
            query: Some("a=1&token=x.y"),
            authorization: None,
            accept: None,
            remote: "127.0.0.1".parse().unwrap(),
        };
        assert_eq!(presented(&r), Some("x.y"));
        r.authorization = Some("Bearer  abc.def ");
        assert_eq!(presented(&r), Some("abc.def"));
        r.authorization = Some("Basic abc");
        assert_eq!(presented(&r), Some("x.y"));
    }
}
