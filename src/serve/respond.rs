//! One request, from hyper's request to hyper's response: the handler's facts gathered, the
//! head size bounded, a panic turned into 500, and the access-log line written.

use std::time::Instant;

use bytes::Bytes;
use http_body_util::Full;
use hyper::body::Incoming;

use super::Shared;
use super::accept::Peer;
use super::fetches::Refusal;
use super::handler::{self, Request};
use super::limit;
use super::log::{Log, now_rfc3339};

/// Where the panic hook reports: serve's event log, once it runs.
pub(super) static PANIC_LOG: std::sync::OnceLock<Log> = std::sync::OnceLock::new();

/// A panic (a bug) is reported as a `panic` event with its location only: its message may
/// quote a request, and a request may carry a token. The request gets 500 (see [`guarded`]).
pub(super) fn install_panic_hook() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| match PANIC_LOG.get() {
        Some(log) => {
            let at = info
                .location()
                .map_or_else(|| "an unknown place".to_string(), |l| l.to_string());
            log.event(
                "panic",
                &format!(
                    "internal error at {at} (a bug in mcsctl; the message is withheld as it may quote a request)"
                ),
            );
        }
        None => default(info),
    }));
}

/// Runs a request's handling; a panic becomes 500 instead of a dropped connection.
pub(super) fn guarded(f: impl FnOnce() -> handler::Response) -> handler::Response {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(f))
        .unwrap_or_else(|_| handler::Response::internal_error())
}

pub(super) fn respond(
    shared: &Shared,
    peer: Peer,
    req: hyper::Request<Incoming>,
) -> hyper::Response<Full<Bytes>> {
    let start = Instant::now();
    let state = shared.current();
    let headers = req.headers();
    let h = |name: &str| headers.get(name).and_then(|v| v.to_str().ok());
    let request = Request {
        method: req.method().as_str(),
        path: req.uri().path(),
        query: req.uri().query(),
        authorization: h("authorization"),
        accept: h("accept"),
        remote: peer.client.ip(),
    };
    // Counted without allocating: the request line's target plus every header line.
    let head_size: usize = req.uri().path_and_query().map_or(0, |p| p.as_str().len())
        + headers
            .iter()
            .map(|(k, v)| k.as_str().len() + v.len() + 4)
            .sum::<usize>();
    let mut r = if head_size > shared.max_header_bytes {
        handler::Response::too_large()
    } else {
        guarded(|| handler::handle(&state, &shared.limiter, &request, shared.clock.now(), start))
    };
    if let Some(block) = r.blocked_for {
        shared.log.event(
            "blocked",
            &format!(
                "client {} sent too many unknown tokens: 429 for {}s (valid tokens are still served)",
                limit::client_key(peer.client.ip()),
                block.as_secs()
            ),
        );
    }
    let head = req.method() == hyper::Method::HEAD;
    let machine = r.machine.is_some();
    let r = match r.machine.take() {
        Some(f) if !head => record(shared, peer, &f, r),
        _ => r,
    };
    let outcome = super::metrics::auth_outcome(&r.auth, machine);
    shared.metrics.request(r.pool.as_deref(), r.status, outcome);
    if r.recorded.is_some() {
        shared
            .metrics
            .machine_fetch(r.pool.as_deref().unwrap_or(""));
    }
    let bytes = if head { 0 } else { r.body.len() };
    access_log(shared, &request, peer, &r, bytes, start, h("user-agent"));
    let mut resp = hyper::Response::builder()
        .status(r.status)
        .header("content-type", r.content_type)
        .header("content-length", r.body.len());
    for (k, v) in &r.headers {
        resp = resp.header(*k, v.as_str());
    }
    resp.body(Full::new(r.body)).unwrap_or_else(|_| {
        let mut fallback = hyper::Response::new(Full::new(Bytes::from_static(b"internal error\n")));
        *fallback.status_mut() = hyper::StatusCode::INTERNAL_SERVER_ERROR;
        fallback
    })
}

/// A full config for a machine token: counted and recorded in the ledger before it is sent,
/// else refused: 401 when its fetches
/// are spent (a possible stolen token, logged), 503 when the ledger cannot be written.
fn record(
    shared: &Shared,
    peer: Peer,
    f: &handler::MachineFetch,
    r: handler::Response,
) -> handler::Response {
    let pool = r.pool.clone().unwrap_or_default();
    let spec = r.spec.clone().unwrap_or_default();
    // One `write` into the page cache, no flush: cheap enough for the worker thread.
    let claimed = shared
        .fetches
        .claim(f, &pool, peer, &spec, r.body.len() as u64, now_rfc3339());
    match claimed {
        Ok(json) => handler::Response {
            recorded: serde_json::value::RawValue::from_string(json).ok(),
            ..r
        },
        Err(Refusal::Spent(last)) => {
            shared.log.event(
                "token-reused",
                &format!(
                    "machine {}'s token {} asked again from {} after its last fetch at {} from {}: possible stolen token; refused with 401",
                    f.machine, f.token, peer.client, last.time, last.client
                ),
            );
            let mut refused = handler::Response::spent(f, &last);
            refused.pool = r.pool;
            refused.auth = r.auth;
            refused
        }
        Err(Refusal::Unrecorded(why)) => {
            shared.log.event(
                "ledger-failed",
                &format!("{why}: machine {}'s fetch refused with 503", f.machine),
            );
            let mut refused = handler::Response::unrecorded();
            refused.pool = r.pool;
            refused.auth = r.auth;
            refused
        }
    }
}

/// One JSON line per request. The query is never logged (it may carry `?token=`), nor any
/// header but the user agent; long client-controlled values are cut.
fn access_log(
    shared: &Shared,
    req: &Request<'_>,
    peer: Peer,
    r: &handler::Response,
    bytes: usize,
    start: Instant,
    ua: Option<&str>,
) {
    /// The line's fields, in the order the JSON has always had them (alphabetical).
    #[derive(serde::Serialize)]
    #[serde(rename_all = "camelCase")]
    struct Line<'a> {
        auth: &'a str,
        bytes: usize,
        duration_ms: f64,
        method: &'a str,
        path: &'a str,
        pool: Option<&'a str>,
        remote: String,
        status: u16,
        time: String,
        user_agent: Option<&'a str>,
        #[serde(skip_serializing_if = "Option::is_none")]
        via: Option<String>,
        /// The ledger record of a machine token's fetch, as written there.
        #[serde(skip_serializing_if = "Option::is_none")]
        ledger: Option<&'a serde_json::value::RawValue>,
    }
    /// At most `n` characters of a client-controlled value.
    fn cut(s: &str, n: usize) -> &str {
        s.char_indices().nth(n).map_or(s, |(i, _)| &s[..i])
    }
    let line = Line {
        auth: &r.auth,
        bytes,
        duration_ms: (start.elapsed().as_secs_f64() * 1000.0 * 1000.0).round() / 1000.0,
        method: cut(req.method, 16),
        path: cut(req.path, 256),
        pool: r.pool.as_deref(),
        remote: peer.client.to_string(),
        status: r.status,
        time: now_rfc3339(),
        user_agent: ua.map(|u| cut(u, 256)),
        via: peer.via.map(|v| v.to_string()),
        ledger: r.recorded.as_deref(),
    };
    if let Ok(text) = serde_json::to_string(&line) {
        shared.log.access(text);
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_panicking_request_gets_500() {
        let r = super::guarded(|| panic!("a bug"));
        assert_eq!(r.status, 500);
        let ok = super::guarded(super::handler::Response::too_large);
        assert_eq!(ok.status, 431);
    }
}
