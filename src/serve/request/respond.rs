//! One request, from hyper's request to hyper's response: the handler's facts gathered, the
//! head size bounded, a panic turned into 500, and the access-log line written.

use crate::serve::log::event::Event;
use hyper::StatusCode;
use std::time::Instant;

use std::sync::Arc;

use bytes::Bytes;
use hyper::body::Incoming;

use crate::ignition::chunks::Chunks;
use crate::serve::conn::limit;
use crate::serve::conn::peer::Peer;
use crate::serve::fetches::{Claimed, Refusal, Sent};
use crate::serve::log::{Log, Stamp};
use crate::serve::request::classify::Memo;
use crate::serve::request::delivery::{Body, Delivery};
use crate::serve::request::handler::{self, Request};
use crate::serve::request::report;
use crate::serve::state::shared::Shared;

/// Where the panic hook reports: serve's event log, once it runs.
pub(in crate::serve) static PANIC_LOG: std::sync::OnceLock<Log> = std::sync::OnceLock::new();

/// A panic (a bug) is reported as a `panic` event with its location only: its message may
/// quote a request, and a request may carry a token. The request gets 500 (see [`guarded`]).
pub(in crate::serve) fn install_panic_hook() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| match PANIC_LOG.get() {
        Some(log) => {
            let at = info
                .location()
                .map_or_else(|| "an unknown place".to_string(), |l| l.to_string());
            log.event(
                Event::Panic,
                &format!(
                    "internal error at {at} (a bug in mcsctl; the message is withheld as it may quote a request)"
                ),
            );
        }
        None => default(info),
    }));
}

/// Runs a request's handling; a panic becomes 500 instead of a dropped connection.
pub(in crate::serve) fn guarded(f: impl FnOnce() -> handler::Response) -> handler::Response {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(f))
        .unwrap_or_else(|_| handler::Response::internal_error())
}

/// Answers `req`. A machine token's config is recorded in the ledger first; its access-log
/// line then waits in `delivery` until the response is known to have gone out whole or not.
pub(in crate::serve) async fn respond(
    shared: &Shared,
    peer: Peer,
    req: hyper::Request<Incoming>,
    delivery: &Arc<Delivery>,
    memo: &Memo,
) -> hyper::Response<Body> {
    let start = Instant::now();
    // The wall clock, read once: to the second for the handler's checks, whole for the line.
    let precise = shared.clock.now_precise();
    // A first-boot report: its body is read (bounded), so it is answered apart; the handler
    // never reads a body.
    if req.method() == hyper::Method::POST
        && let Some(pool) = report::pool_of(req.uri().path()).map(str::to_string)
        && head_size(&req) <= shared.max_header_bytes
    {
        return reported(shared, peer, req, pool, start, precise).await;
    }
    let now = crate::clock::Clock::to_second(precise);
    let state = shared.here();
    let headers = req.headers();
    use hyper::header::{ACCEPT, AUTHORIZATION, HeaderName, USER_AGENT};
    let h = |name: HeaderName| headers.get(name).and_then(|v| v.to_str().ok());
    let request = Request {
        method: req.method().as_str(),
        path: req.uri().path(),
        query: req.uri().query(),
        authorization: h(AUTHORIZATION),
        accept: h(ACCEPT),
        remote: peer.client.ip(),
    };
    let mut r = if head_size(&req) > shared.max_header_bytes {
        handler::Response::too_large()
    } else {
        guarded(|| handler::handle(&state, &shared.limiter, &request, memo, now, start))
    };
    if request.path == "/healthz" && r.status == StatusCode::OK {
        r = ready(shared, &state, r);
    }
    let mut r = gated(shared, peer, r, now);
    let head = req.method() == hyper::Method::HEAD;
    let machine = r.machine.is_some();
    let time = Stamp::at(precise);
    // A machine token's fetch waits on the ledger or the store; its futures are boxed so that
    // the common request's future stays small (hyper moves it: it was 2.5 KB with them inline).
    let (r, claimed) = match r.machine.take() {
        Some(f) if head => (Box::pin(check(shared, peer, &f, r, &state)).await, None),
        Some(f) => Box::pin(record(shared, peer, &f, r, time.as_str(), &state)).await,
        None => (r, None),
    };
    counted(shared, &state, &r, machine, claimed.is_some());
    let line = Line {
        req: &request,
        peer,
        r: &r,
        bytes: if head { 0 } else { r.body.len() },
        start,
        ua: h(USER_AGENT),
        time: time.as_str(),
    };
    match claimed {
        Some(c) => {
            let mut out = Vec::with_capacity(768);
            let at = line.write(&mut out, Some((&c.line[..], c.at)));
            // Every piece is a str or ASCII written by the object.
            let line = String::from_utf8(out).unwrap_or_default();
            delivery.start(c.id, line, at);
            let gate = shared.fetches.gate(c.id);
            reply(r, |b| Body::tracked(b, delivery.clone(), gate))
        }
        None => {
            shared.log.access_with(|out| {
                line.write(out, None);
            });
            reply(r, Body::new)
        }
    }
}

/// A request counted in the metrics (and a machine token's fetch, when `claimed`).
fn counted(
    shared: &Shared,
    state: &crate::serve::state::live::State,
    r: &handler::Response,
    machine: bool,
    claimed: bool,
) {
    let pool = crate::serve::log::metrics::pool_label(state, r.pool.as_deref());
    shared
        .metrics
        .request(pool, r.status.as_u16(), r.auth.outcome(machine));
    if claimed {
        shared
            .metrics
            .machine_fetch(r.pool.as_deref().unwrap_or(""));
    }
}

/// The size of a request's head, counted without allocating: the request line's target plus
/// every header line.
fn head_size<B>(req: &hyper::Request<B>) -> usize {
    req.uri().path_and_query().map_or(0, |p| p.as_str().len())
        + req
            .headers()
            .iter()
            .map(|(k, v)| k.as_str().len() + v.len() + 4)
            .sum::<usize>()
}

/// A first-boot report for `pool`, answered and logged as every request is.
async fn reported(
    shared: &Shared,
    peer: Peer,
    req: hyper::Request<Incoming>,
    pool: String,
    start: Instant,
    precise: time::OffsetDateTime,
) -> hyper::Response<Body> {
    let path = req.uri().path().to_string();
    let ua = req
        .headers()
        .get(hyper::header::USER_AGENT)
        .and_then(|v| v.to_str().ok())
        .map(str::to_string);
    let time = Stamp::at(precise);
    let r = report::receive(shared, peer, req, &pool, time.as_str()).await;
    let state = shared.here();
    let label = crate::serve::log::metrics::pool_label(&state, Some(&pool));
    shared
        .metrics
        .request(label, r.status.as_u16(), r.auth.outcome(false));
    let request = Request {
        method: "POST",
        path: &path,
        query: None,
        authorization: None,
        accept: None,
        remote: peer.client.ip(),
    };
    let line = Line {
        req: &request,
        peer,
        r: &r,
        bytes: r.body.len(),
        start,
        ua: ua.as_deref(),
        time: time.as_str(),
    };
    shared.log.access_with(|out| {
        line.write(out, None);
    });
    reply(r, Body::new)
}

/// What the handler decided, past serve's own gates: a token is not served while the store
/// has been silent past its grace; a client blocked for guessing is logged.
fn gated(
    shared: &Shared,
    peer: Peer,
    r: handler::Response,
    now: time::OffsetDateTime,
) -> handler::Response {
    if let Some(block) = r.blocked_for {
        shared.log.event(
            Event::Blocked,
            &format!(
                "client {} sent too many unknown tokens: 429 for {}s (valid tokens are still served)",
                limit::client_key(peer.client.ip()),
                block.as_secs()
            ),
        );
    }
    if r.status == StatusCode::OK
        && matches!(r.auth, crate::serve::request::auth::Auth::Live(_))
        && let Some(why) = shared.fetches.store_stale(now)
    {
        return handler::Response {
            pool: r.pool,
            auth: r.auth,
            ..handler::Response::store_stale(&why)
        };
    }
    r
}

/// `/healthz`: ready only when the machine tokens serve holds can be served.
fn ready(
    shared: &Shared,
    state: &crate::serve::state::live::State,
    ok: handler::Response,
) -> handler::Response {
    if !state.tokens.machines {
        return ok;
    }
    match shared.fetches.unready(&state.tokens) {
        Some(why) => handler::Response::not_ready(&why),
        None => ok,
    }
}

/// `r` as hyper's response, its body made by `body`. The head is put together without
/// parsing: header names are the program's own, the content type a static value.
fn reply(r: handler::Response, body: impl FnOnce(Chunks) -> Body) -> hyper::Response<Body> {
    use hyper::header::{CONTENT_LENGTH, CONTENT_TYPE, HeaderValue};
    let mut extra = Vec::with_capacity(r.headers.len());
    for (k, v) in r.headers {
        // A value is text serve made (a count, a quoted refusal): one that is not a valid
        // header value is a bug, answered 500.
        match HeaderValue::from_str(&v) {
            Ok(v) => extra.push((k, v)),
            Err(_) => return internal_error(),
        }
    }
    let len = HeaderValue::from(r.body.len());
    let mut resp = hyper::Response::new(body(r.body));
    *resp.status_mut() = r.status;
    let h = resp.headers_mut();
    h.insert(CONTENT_TYPE, HeaderValue::from_static(r.content_type));
    h.insert(CONTENT_LENGTH, len);
    for (k, v) in extra {
        h.append(k, v);
    }
    resp
}

fn internal_error() -> hyper::Response<Body> {
    let mut r = hyper::Response::new(Body::new(Bytes::from_static(b"internal error\n")));
    *r.status_mut() = hyper::StatusCode::INTERNAL_SERVER_ERROR;
    r
}

/// A HEAD for a machine token's config: what a GET would get, claiming nothing.
async fn check(
    shared: &Shared,
    peer: Peer,
    f: &handler::MachineFetch,
    mut r: handler::Response,
    state: &crate::serve::state::live::State,
) -> handler::Response {
    match shared
        .fetches
        .check(f, &state.tokens, shared.clock.now())
        .await
    {
        Ok(left) => {
            with_left(&mut r, left);
            r
        }
        Err(refusal) => refused(shared, peer, f, r, refusal),
    }
}

fn with_left(r: &mut handler::Response, left: Option<u32>) {
    if let Some(n) = left {
        r.headers.push((
            hyper::header::HeaderName::from_static(crate::http::FETCHES_LEFT),
            n.to_string(),
        ));
    }
}

/// A full config for a machine token: claimed and recorded in the ledger before it is sent,
/// else refused (see [`refused`]).
async fn record(
    shared: &Shared,
    peer: Peer,
    f: &handler::MachineFetch,
    mut r: handler::Response,
    time: &str,
    state: &crate::serve::state::live::State,
) -> (handler::Response, Option<Claimed>) {
    let client = peer.client_str();
    let via = peer.via_str();
    let spec = r.spec.map(|s| s.to_string()).unwrap_or_default();
    let sent = Sent {
        pool: r.pool.as_deref().unwrap_or_default(),
        spec: &spec,
        bytes: r.body.len() as u64,
        client,
        via,
        time,
    };
    // One `pwrite` into the page cache, no flush: cheap enough for the worker thread; or one
    // compare-and-swap in the store (`--store`).
    match shared
        .fetches
        .claim(f, &sent, &state.tokens, shared.clock.now())
        .await
    {
        Ok(c) => {
            with_left(&mut r, c.left);
            (r, Some(c))
        }
        Err(refusal) => (refused(shared, peer, f, r, refusal), None),
    }
}

/// The answer to a machine token's fetch that may not be served: 401 when its fetches are
/// spent (a possible stolen token) or too many were cut off, 503 (which Ignition retries)
/// while its last use is being sent elsewhere or the ledger cannot be written. Each is
/// logged once per token and then counted.
fn refused(
    shared: &Shared,
    peer: Peer,
    f: &handler::MachineFetch,
    r: handler::Response,
    refusal: Refusal,
) -> handler::Response {
    let refused = match refusal {
        Refusal::Spent(first) => {
            shared.say_of_token(
                &f.token,
                Event::TokenReused,
                &format!(
                    "machine {}'s token {} asked again from {} after its fetch at {} from {}: possible stolen token; refused with 401",
                    f.machine, f.token, peer.client, first.time, first.client
                ),
            );
            handler::Response::spent(f, &first)
        }
        Refusal::Unknown(which) => {
            shared.say_of_token(
                &f.token,
                Event::TokenUnknown,
                &format!(
                    "machine {}'s token {} asked from {}: its fetch at {} from {} may have gone out whole (its replica was lost while sending the end), so it counts as spent; refused with 401",
                    f.machine, f.token, peer.client, which.time, which.client
                ),
            );
            handler::Response::unknown(f, &which)
        }
        Refusal::CutOff(cuts, last) => {
            shared.say_of_token(
                &f.token,
                Event::TokenCutOff,
                &format!(
                    "machine {}'s token {} asked again from {} after {cuts} fetches cut off before their end (the last at {} from {}): refused with 401",
                    f.machine, f.token, peer.client, last.time, last.client
                ),
            );
            handler::Response::cut_off(f, cuts, &last)
        }
        Refusal::Busy(other) => {
            shared.say_of_token(
                &f.token,
                Event::TokenBusy,
                &format!(
                    "machine {}'s token {} asked from {} while its last fetch (at {} from {}) is being sent: 503, retry",
                    f.machine, f.token, peer.client, other.time, other.client
                ),
            );
            handler::Response::busy(f, &other)
        }
        Refusal::Unrecorded(why) => {
            shared.log.event(
                Event::LedgerFailed,
                &format!("{why}: machine {}'s fetch refused with 503", f.machine),
            );
            handler::Response::unrecorded()
        }
    };
    handler::Response {
        pool: r.pool,
        auth: r.auth,
        ..refused
    }
}

/// The facts of one access-log line.
struct Line<'a> {
    req: &'a Request<'a>,
    peer: Peer,
    r: &'a handler::Response,
    bytes: usize,
    start: Instant,
    ua: Option<&'a str>,
    time: &'a str,
}

impl Line<'_> {
    /// One JSON line per request, fields in alphabetical order. The query is never logged (it
    /// may carry `?token=`), nor any header but the user agent; long client-controlled values
    /// are cut. A machine token's fetch gains its ledger `record` (as written to the ledger,
    /// with the place of its `"whole"` flag) as the last field, `ledger`; the place of that
    /// flag in the line (counted from the start of `out`) is returned. Written at the end of
    /// `out`.
    fn write(&self, out: &mut Vec<u8>, record: Option<(&[u8], usize)>) -> usize {
        /// At most `n` characters of a client-controlled value.
        fn cut(s: &str, n: usize) -> &str {
            if s.len() <= n {
                return s;
            }
            s.char_indices().nth(n).map_or(s, |(i, _)| &s[..i])
        }
        let ms = (self.start.elapsed().as_secs_f64() * 1000.0 * 1000.0).round() / 1000.0;
        let mut o = crate::json_line::Object::new(out);
        o.str_cat("auth", &self.r.auth.logged_parts());
        o.u64("bytes", self.bytes as u64);
        o.f64("durationMs", ms);
        o.str("method", cut(self.req.method, 16));
        o.str("path", cut(self.req.path, 256));
        o.opt_str("pool", self.r.pool.as_deref());
        o.plain("remote", self.peer.client_str());
        o.u64("status", u64::from(self.r.status.as_u16()));
        o.plain("time", self.time);
        o.opt_str("userAgent", self.ua.map(|u| cut(u, 256)));
        if let Some(v) = self.peer.via_str() {
            o.plain("via", v);
        }
        let mut at = 0;
        if let Some((record, flag)) = record {
            let record = record.strip_suffix(b"\n").unwrap_or(record);
            o.raw("ledger", record);
            at = o.offset() - record.len() + flag;
        }
        o.end();
        at
    }
}

#[cfg(test)]
mod tests {
    use hyper::StatusCode;

    #[test]
    fn a_panicking_request_gets_500() {
        let r = super::guarded(|| panic!("a bug"));
        assert_eq!(r.status, StatusCode::INTERNAL_SERVER_ERROR);
        let ok = super::guarded(crate::serve::request::handler::Response::too_large);
        assert_eq!(ok.status, StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE);
    }
}
