//! `POST /report/<pool>`: a machine's first-boot report (`render --report`, the script of
//! `crate::firstboot`). Checked in this order, each refusal before any work the next needs:
//! the client's report rate (429: at most [`PER_MINUTE`] a minute per address, bounded as
//! `conn::limit` bounds guesses), the pool's report credential (compared in constant time;
//! 401, 404 for a pool that takes none), the size (413, from Content-Length before a byte of the
//! body is read, then as it is read), the time to send it (408), the report's fields (400),
//! and recording it (503 when the file or the store cannot take it: the script retries).
//! A report is information for `machine list`; nothing serve decides reads it.

use std::time::{Duration, Instant};

use http_body_util::BodyExt as _;
use hyper::StatusCode;
use hyper::body::Incoming;

use crate::firstboot::{Credentials, Record, Submitted};
use crate::serve::conn::peer::Peer;
use crate::serve::log::event::Event;
use crate::serve::request::message::Response;
use crate::serve::state::shared::Shared;

/// Reports one address may send a minute; the next within the minute gets 429.
pub(in crate::serve) const PER_MINUTE: u32 = 30;

/// The longest a client may take to send a report's body.
const BODY_TIME: Duration = Duration::from_secs(10);

/// The pool of a report's path (`/report/<pool>`), when the path is one.
pub(in crate::serve) fn pool_of(path: &str) -> Option<&str> {
    path.strip_prefix("/report/")
        .filter(|p| crate::names::is_dns_label(p))
}

/// How a report was answered (`mcsctl_reports_total{result}`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Received {
    Recorded,
    Limited,
    BadCredential,
    NoReports,
    TooLarge,
    TooSlow,
    Invalid,
    Unrecorded,
}

impl Received {
    fn label(self) -> &'static str {
        match self {
            Received::Recorded => "recorded",
            Received::Limited => "limited",
            Received::BadCredential => "bad_credential",
            Received::NoReports => "no_reports",
            Received::TooLarge => "too_large",
            Received::TooSlow => "too_slow",
            Received::Invalid => "invalid",
            Received::Unrecorded => "unrecorded",
        }
    }
}

/// Answers a report for `pool`, recorded at `time` (the access line's).
pub(in crate::serve) async fn receive(
    shared: &Shared,
    peer: Peer,
    req: hyper::Request<Incoming>,
    pool: &str,
    time: &str,
) -> Response {
    let (r, how) = answer(shared, peer, req, pool, time).await;
    let state = shared.here();
    let label = crate::serve::log::metrics::pool_label(&state, Some(pool));
    shared.metrics.report(label, how.label());
    Response {
        pool: Some(pool.into()),
        ..r
    }
}

async fn answer(
    shared: &Shared,
    peer: Peer,
    req: hyper::Request<Incoming>,
    pool: &str,
    time: &str,
) -> (Response, Received) {
    let ip = peer.client.ip();
    let now = Instant::now();
    if let Some(retry) = shared.report_limiter.blocked(ip, now) {
        let mut r = Response::text(
            StatusCode::TOO_MANY_REQUESTS,
            "too many first-boot reports from this address; try later",
        );
        r.headers
            .push((hyper::header::RETRY_AFTER, retry.to_string()));
        return (r, Received::Limited);
    }
    shared.report_limiter.failure(ip, now);
    let presented = req
        .headers()
        .get(hyper::header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|h| h.trim().strip_prefix("Bearer "))
        .map(str::trim)
        .unwrap_or_default();
    match credentials(shared) {
        Some(c) if c.pools.contains_key(pool) => {
            if !c.accepts(pool, presented) {
                let mut r = Response::text(
                    StatusCode::UNAUTHORIZED,
                    "not this pool's report credential",
                );
                r.headers.push((
                    hyper::header::WWW_AUTHENTICATE,
                    "Bearer realm=\"mcsctl first-boot report\"".into(),
                ));
                return (r, Received::BadCredential);
            }
        }
        _ => {
            return (
                Response::text(
                    StatusCode::NOT_FOUND,
                    "this pool takes no first-boot reports (render --report)",
                ),
                Received::NoReports,
            );
        }
    }
    let body = match body(req).await {
        Ok(b) => b,
        Err(refused) => return refused,
    };
    let report = match Submitted::parse(&body) {
        Ok(s) => s,
        Err(why) => {
            return (
                Response::text(StatusCode::BAD_REQUEST, format!("bad report: {why}")),
                Received::Invalid,
            );
        }
    };
    record(shared, peer, pool, time, report).await
}

/// The body, at most [`crate::firstboot::MAX_BODY`] bytes, within [`BODY_TIME`].
async fn body(req: hyper::Request<Incoming>) -> Result<Vec<u8>, (Response, Received)> {
    let max = crate::firstboot::MAX_BODY;
    let too_large = || {
        (
            Response::text(
                StatusCode::PAYLOAD_TOO_LARGE,
                format!("a first-boot report is at most {max} bytes"),
            ),
            Received::TooLarge,
        )
    };
    let declared = req
        .headers()
        .get(hyper::header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if declared.is_some_and(|n| n > max as u64) {
        return Err(too_large());
    }
    let limited = http_body_util::Limited::new(req.into_body(), max);
    match tokio::time::timeout(BODY_TIME, limited.collect()).await {
        Ok(Ok(c)) => Ok(c.to_bytes().to_vec()),
        Ok(Err(e)) if e.is::<http_body_util::LengthLimitError>() => Err(too_large()),
        Ok(Err(_)) => Err((
            Response::text(StatusCode::BAD_REQUEST, "the report's body was cut off"),
            Received::Invalid,
        )),
        Err(_) => Err((
            Response::text(
                StatusCode::REQUEST_TIMEOUT,
                "the report's body took too long",
            ),
            Received::TooSlow,
        )),
    }
}

/// The pools' credentials as the directory holds them now (read per report: reports are
/// few, and a render that adds a pool needs no reload).
fn credentials(shared: &Shared) -> Option<Credentials> {
    let dir = &shared.dir;
    let rel = crate::firstboot::CREDENTIALS;
    let bytes = dir.read(rel).ok()?;
    Credentials::parse(&bytes, rel).ok()
}

async fn record(
    shared: &Shared,
    peer: Peer,
    pool: &str,
    time: &str,
    report: Submitted,
) -> (Response, Received) {
    let r = Record {
        time: time.to_string(),
        pool: pool.to_string(),
        client: peer.client_str().to_string(),
        via: peer.via_str().map(str::to_string),
        replica: shared.replica.clone(),
        report,
    };
    match shared.reports.record(&r).await {
        Ok(()) => {
            shared.log.event(
                Event::FirstBootReport,
                &format!(
                    "pool {pool}: {} ({}) reported its first boot from {}: {}, kubelet {}",
                    r.report.hostname,
                    r.report.machine_id,
                    r.client,
                    r.report.ignition(),
                    if r.report.kubelet.is_empty() {
                        "unknown"
                    } else {
                        &r.report.kubelet
                    }
                ),
            );
            (
                Response::text(StatusCode::OK, "first-boot report recorded"),
                Received::Recorded,
            )
        }
        Err(why) => {
            shared.log.event(
                Event::ReportFailed,
                &format!("{why}: a first-boot report of pool {pool} refused with 503"),
            );
            (
                Response::text(
                    StatusCode::SERVICE_UNAVAILABLE,
                    "the report could not be recorded; retry",
                ),
                Received::Unrecorded,
            )
        }
    }
}
