//! Request handling as a plain function of the request and the loaded state: routing, token
//! checks, rate limiting and spec negotiation. No I/O here, so every branch is unit-testable.
//!
//! The order is what keeps valid machines in and everyone else out: a valid token is served
//! first, whatever else is going on; only then may a blocked client get 429; a guess (a token
//! matching nothing) counts towards a block; a stale token the server knows (expired,
//! revoked) is refused with its reason and never counts.

use hyper::StatusCode;
use hyper::header::{RETRY_AFTER, WWW_AUTHENTICATE};
use std::time::Instant;

use time::OffsetDateTime;

use std::sync::Arc;

use crate::ignition::accept::negotiate_remembered;
use crate::serve::conn::limit::RateLimiter;
use crate::serve::request::auth::Auth;
use crate::serve::request::classify::{Memo, Presented, classify};
use crate::serve::request::message::{MachineFetch, Request, Response};
use crate::serve::request::refusals::refusal;
use crate::serve::request::route::{Route, route};
use crate::serve::state::live::{State, TokenDigest};

use crate::model::config::AuthMode;

/// The token presented by a request: `Authorization: Bearer x` or `?token=x`. A header value
/// here is visible ASCII, spaces and tabs (`HeaderValue::to_str`), so ASCII trimming is all
/// the trimming there is; the scans are byte loops, not `str` patterns (this runs per request).
fn presented<'a>(req: &Request<'a>) -> Option<&'a [u8]> {
    if let Some(h) = req.authorization {
        let h = h.trim_ascii();
        let space = h.iter().position(|&b| b == b' ')?;
        let (scheme, rest) = (&h[..space], &h[space + 1..]);
        if scheme.eq_ignore_ascii_case(b"bearer") {
            return Some(rest.trim_ascii());
        }
    }
    req.query?
        .split('&')
        .find_map(|p| p.strip_prefix("token="))
        .map(str::as_bytes)
}

/// Handles one request.
pub(in crate::serve) fn handle(
    state: &State,
    limiter: &RateLimiter,
    req: &Request<'_>,
    memo: &Memo,
    now: OffsetDateTime,
    clock: Instant,
) -> Response {
    let pool = match route(req) {
        Route::Pool(p) => p,
        Route::Answer(r) => return *r,
    };
    let pool = &*pool;
    let who = classify(&state.tokens, presented(req), memo, now);
    let label = match &who {
        Presented::None => Auth::None,
        Presented::Live(t) => Auth::Live(t.id.clone()),
        Presented::Stale(why, id) => Auth::Stale(*why, Arc::clone(id)),
        Presented::Unknown => Auth::Unknown,
    };
    let in_full = state.full.get(pool);
    let full = || serve_config(in_full.map(|p| &p.variants), req.accept);
    let public = || match state.auth {
        AuthMode::None => full(),
        AuthMode::Split => serve_config(state.pre.get(pool).map(|p| &p.variants), req.accept),
        AuthMode::Token => unauthorized(&who, state.tokens.live_at(now)),
    };
    // Only a guess can be rate limited: a valid token is served, a known stale one gets its
    // own reason, and a machine sending no token is never blocked for what others sent.
    let mut r = match &who {
        // A pool that has no config is 404 for everyone with a valid token; the scope is
        // checked for pools that exist.
        Presented::Live(t) if !t.covers(pool) => {
            if in_full.is_some() {
                forbidden(t, pool)
            } else {
                Response::text(StatusCode::NOT_FOUND, "no config for this pool")
            }
        }
        Presented::Live(t) => {
            let mut r = full();
            if r.status == StatusCode::OK
                && let Some((machine, uses)) = &t.machine
            {
                r.machine = Some(MachineFetch {
                    token: t.id.clone(),
                    machine: machine.clone(),
                    uses: *uses,
                });
            }
            r
        }
        Presented::Stale(..) if state.auth != AuthMode::None => {
            unauthorized(&who, state.tokens.live_at(now))
        }
        Presented::Stale(..) | Presented::None => public(),
        Presented::Unknown => match limiter.blocked(req.remote, clock) {
            Some(retry) => {
                let mut r = Response::text(
                    StatusCode::TOO_MANY_REQUESTS,
                    "too many failed token attempts from this client; try later",
                );
                r.headers.push((RETRY_AFTER, retry.to_string()));
                r
            }
            None => {
                let blocked_for = limiter.failure(req.remote, clock);
                let mut r = public();
                r.blocked_for = blocked_for;
                r
            }
        },
    };
    // A served pool's name is shared; any other is copied.
    let served = in_full.or_else(|| state.pre.get(pool));
    r.pool = Some(served.map_or_else(|| pool.into(), |p| p.name.clone()));
    r.served = served.is_some();
    r.auth = label;
    r
}

/// 403: a valid token asking for another pool's config.
fn forbidden(t: &TokenDigest, pool: &str) -> Response {
    let scope = t.pools.as_deref().unwrap_or_default().join(", ");
    Response::text(
        StatusCode::FORBIDDEN,
        format!(
            "token {} may fetch the config of pool {scope} only, not {pool}: each pointer config carries its own pool's token",
            t.id
        ),
    )
}

/// 401 with the reason: what a machine's console and the admin need to see.
fn unauthorized(who: &Presented<'_>, live: usize) -> Response {
    let msg = match who {
        _ if live == 0 => "no provisioning token is live on this server (auth/tokens.json has none current), so every config request is refused; run `mcsctl token create` or `mcsctl token rotate`".to_string(),
        Presented::Stale(why, id) => format!(
            "token {id} is {}: this pointer config is stale; write a new one (mcsctl pointer, or mcsctl token rotate rewrites them)",
            why.word()
        ),
        Presented::Unknown => "invalid provisioning token".to_string(),
        _ => "a valid provisioning token is required (Authorization: Bearer <id>.<secret>)".to_string(),
    };
    match who {
        // A stale token's reason, for a HEAD too.
        Presented::Stale(..) => refusal(StatusCode::UNAUTHORIZED, msg),
        _ => {
            let mut r = Response::text(StatusCode::UNAUTHORIZED, msg);
            r.headers.push((WWW_AUTHENTICATE, "Bearer".into()));
            r
        }
    }
}

fn serve_config(
    variants: Option<&crate::ignition::translate::Variants>,
    accept: Option<&[u8]>,
) -> Response {
    let Some(v) = variants else {
        return Response::text(StatusCode::NOT_FOUND, "no config for this pool");
    };
    let spec = match negotiate_remembered(accept) {
        Ok(s) => s,
        Err(refused) => return Response::text(StatusCode::BAD_REQUEST, refused.to_string()),
    };
    let body = match v.get(spec) {
        Ok(b) => b.clone(),
        Err(reason) => {
            return Response::text(
                StatusCode::NOT_ACCEPTABLE,
                format!("this config cannot be served to an Ignition spec {spec} client: {reason}"),
            );
        }
    };
    Response {
        spec: Some(spec),
        ..Response::new(StatusCode::OK, body, "application/json")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
        assert_eq!(presented(&r), Some(&b"x.y"[..]));
        r.authorization = Some(b"Bearer  abc.def ");
        assert_eq!(presented(&r), Some(&b"abc.def"[..]));
        r.authorization = Some(b"Basic abc");
        assert_eq!(presented(&r), Some(&b"x.y"[..]));
    }
}
