//! One request, from hyper's request to hyper's response: the handler's facts gathered, the
//! head size bounded, a panic turned into 500, and the access-log line written.

use crate::serve::log::event::Event;
use hyper::StatusCode;
use std::time::Instant;

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use bytes::Bytes;
use hyper::body::Incoming;

use crate::ignition::chunks::Chunks;
use crate::serve::conn::limit;
use crate::serve::conn::peer::Peer;
use crate::serve::fetches::{Claimed, Refusal, Sent};
use crate::serve::log::{Log, Stamp};
use crate::serve::request::access_line::{Facts, LineMemo};
use crate::serve::request::classify::Memo;
use crate::serve::request::delivery::{Body, Delivery};
use crate::serve::request::report;
use crate::serve::request::{handler, message};
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
pub(in crate::serve) fn guarded(f: impl FnOnce() -> message::Response) -> message::Response {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(f))
        .unwrap_or_else(|_| message::Response::internal_error())
}

/// What a connection's requests are answered with, behind one `Arc` of the connection's own:
/// a request clones nothing that other workers' requests also count (`shared`'s count is on a
/// line every worker writes). The token memo is this connection's alone (see `Memo`).
pub(in crate::serve) struct ConnCtx {
    pub(in crate::serve) shared: Arc<Shared>,
    pub(in crate::serve) delivery: Arc<Delivery>,
    pub(in crate::serve) memo: Memo,
    /// The repeating part of the connection's access-log lines (see `LineMemo`).
    pub(in crate::serve) line: LineMemo,
}

/// A request's answer: at once, or after waiting on a report's body, the ledger or the store.
pub(in crate::serve) enum Answer {
    /// Every request but the two below: handled without waiting, so hyper holds and moves a
    /// ready response, not the state of a future that could wait (7.8 KB when this function
    /// was one `async fn`, copied four times a request).
    Now(hyper::Response<Body>),
    /// A first-boot report, or a machine token's config (recorded, or checked for a HEAD).
    Later(Pin<Box<dyn Future<Output = hyper::Response<Body>> + Send>>),
}

/// Answers `req`. A machine token's config is recorded in the ledger first; its access-log
/// line then waits in `delivery` until the response is known to have gone out whole or not.
pub(in crate::serve) fn respond(
    ctx: &Arc<ConnCtx>,
    peer: Peer,
    req: hyper::Request<Incoming>,
) -> Answer {
    let shared = &*ctx.shared;
    let start = Instant::now();
    // The wall clock, read once: to the second for the handler's checks, whole for the line.
    let precise = shared.clock.now_precise();
    let facts = Facts::of(&req, peer);
    let too_large = facts.head_size > shared.max_header_bytes;
    // A first-boot report: its body is read (bounded), so it is answered apart; the handler
    // never reads a body.
    if req.method() == hyper::Method::POST
        && !too_large
        && let Some(pool) = report::pool_of(req.uri().path()).map(str::to_string)
    {
        let ctx = ctx.clone();
        return Answer::Later(Box::pin(async move {
            reported(&ctx.shared, peer, req, pool, start, precise).await
        }));
    }
    let now = crate::clock::Clock::to_second(precise);
    let state = shared.here();
    let mut r = if too_large {
        message::Response::too_large()
    } else {
        guarded(|| handler::handle(&state, &shared.limiter, &facts.req, &ctx.memo, now, start))
    };
    if facts.req.path == "/healthz" && r.status == StatusCode::OK {
        r = ready(shared, &state, r);
    }
    let mut r = gated(shared, peer, r, now);
    let time = Stamp::at(precise);
    if let Some(f) = r.machine.take() {
        // A machine token's fetch waits on the ledger or the store.
        let fetching = MachineFetching {
            ctx: ctx.clone(),
            peer,
            req,
            f,
            r,
            state,
            start,
            time,
        };
        return Answer::Later(Box::pin(fetching.finish()));
    }
    counted(shared, &state, &r, Counted::Request);
    let line = facts.line(&r, start, &time);
    shared
        .log
        .access_with(|out| line.write_remembering(out, &ctx.line));
    Answer::Now(reply(r, Body::new))
}

/// A machine token's fetch, waiting on the ledger or the store: what finishing it needs.
struct MachineFetching {
    ctx: Arc<ConnCtx>,
    peer: Peer,
    req: hyper::Request<Incoming>,
    f: message::MachineFetch,
    r: message::Response,
    state: Arc<crate::serve::state::current::Held>,
    start: Instant,
    time: Stamp,
}

impl MachineFetching {
    /// The config, recorded in the ledger (or the store) before it is sent, or, for a HEAD,
    /// checked; its access-log line waits in `delivery` for the end of the response.
    async fn finish(self) -> hyper::Response<Body> {
        let MachineFetching {
            ctx,
            peer,
            req,
            f,
            r,
            state,
            start,
            time,
        } = self;
        let shared = &*ctx.shared;
        let (r, claimed) = if req.method() == hyper::Method::HEAD {
            (check(shared, peer, &f, r, &state).await, None)
        } else {
            record(shared, peer, &f, r, time.as_str(), &state).await
        };
        counted(
            shared,
            &state,
            &r,
            Counted::MachineFetch {
                claimed: claimed.is_some(),
            },
        );
        let facts = Facts::of(&req, peer);
        let line = facts.line(&r, start, &time);
        match claimed {
            Some(c) => {
                let mut out = Vec::with_capacity(768);
                let at = line.write(&mut out, Some((&c.line[..], c.at)));
                // Every piece is a str or ASCII written by the object.
                let line = String::from_utf8(out).unwrap_or_default();
                ctx.delivery.start(c.id, line, at);
                let gate = shared.fetches.gate(c.id);
                reply(r, |b| Body::tracked(b, ctx.delivery.clone(), gate))
            }
            None => {
                shared.log.access_with(|out| {
                    line.write(out, None);
                });
                reply(r, Body::new)
            }
        }
    }
}

/// What a request is counted as, beyond its status and pool.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Counted {
    /// Any request but the one below: its auth label is its token's kind (or why it has none).
    Request,
    /// A full config to a machine token (auth label `machine`); `claimed` when one of the
    /// token's fetches was taken for it (not for a HEAD, nor a refused fetch).
    MachineFetch { claimed: bool },
}

/// A request counted in the metrics (and a machine token's fetch, when claimed).
fn counted(
    shared: &Shared,
    state: &crate::serve::state::live::State,
    r: &message::Response,
    how: Counted,
) {
    let pool = match r.pool.as_deref() {
        Some(p) if r.served => p,
        p => crate::serve::log::metrics::pool_label(state, p),
    };
    shared.metrics.request(
        pool,
        r.status.as_u16(),
        r.auth.outcome(how != Counted::Request),
    );
    if how == (Counted::MachineFetch { claimed: true }) {
        shared
            .metrics
            .machine_fetch(r.pool.as_deref().unwrap_or(""));
    }
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
    let facts = Facts::posted(&path, ua.as_deref(), peer);
    let line = facts.line(&r, start, &time);
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
    r: message::Response,
    now: time::OffsetDateTime,
) -> message::Response {
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
        return message::Response {
            pool: r.pool,
            served: r.served,
            auth: r.auth,
            ..message::Response::store_stale(&why)
        };
    }
    r
}

/// `/healthz`: ready only when the machine tokens serve holds can be served.
fn ready(
    shared: &Shared,
    state: &crate::serve::state::live::State,
    ok: message::Response,
) -> message::Response {
    if !state.tokens.machines {
        return ok;
    }
    match shared.fetches.unready(&state.tokens) {
        Some(why) => message::Response::not_ready(&why),
        None => ok,
    }
}

/// `r` as hyper's response, its body made by `body`. The head is put together without
/// parsing: header names are the program's own, the content type a static value. No
/// `Content-Length`: hyper writes it from the body's exact size (a HEAD's included).
fn reply(r: message::Response, body: impl FnOnce(Chunks) -> Body) -> hyper::Response<Body> {
    use hyper::header::{CONTENT_TYPE, HeaderValue};
    // Checked before the body is made (a tracked body is a delivery under way). A value is
    // text serve made (a count, a quoted refusal): one that is not a valid header value is a
    // bug, answered 500. Most answers have none, and allocate nothing here.
    let mut extra = Vec::new();
    if !r.headers.is_empty() {
        extra.reserve(r.headers.len());
        for (k, v) in r.headers {
            match HeaderValue::try_from(v) {
                Ok(v) => extra.push((k, v)),
                Err(_) => return internal_error(),
            }
        }
    }
    let mut resp = hyper::Response::new(body(r.body));
    *resp.status_mut() = r.status;
    let h = resp.headers_mut();
    h.insert(CONTENT_TYPE, HeaderValue::from_static(r.content_type));
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
    f: &message::MachineFetch,
    mut r: message::Response,
    state: &crate::serve::state::live::State,
) -> message::Response {
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

fn with_left(r: &mut message::Response, left: Option<u32>) {
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
    f: &message::MachineFetch,
    mut r: message::Response,
    time: &str,
    state: &crate::serve::state::live::State,
) -> (message::Response, Option<Claimed>) {
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
    f: &message::MachineFetch,
    r: message::Response,
    refusal: Refusal,
) -> message::Response {
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
            message::Response::spent(f, &first)
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
            message::Response::unknown(f, &which)
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
            message::Response::cut_off(f, cuts, &last)
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
            message::Response::busy(f, &other)
        }
        Refusal::Unrecorded(why) => {
            shared.log.event(
                Event::LedgerFailed,
                &format!("{why}: machine {}'s fetch refused with 503", f.machine),
            );
            message::Response::unrecorded()
        }
    };
    message::Response {
        pool: r.pool,
        served: r.served,
        auth: r.auth,
        ..refused
    }
}

#[cfg(test)]
mod tests {
    use hyper::StatusCode;

    #[test]
    fn a_panicking_request_gets_500() {
        let r = super::guarded(|| panic!("a bug"));
        assert_eq!(r.status, StatusCode::INTERNAL_SERVER_ERROR);
        let ok = super::guarded(crate::serve::request::message::Response::too_large);
        assert_eq!(ok.status, StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE);
    }
}
