//! The metrics listener (`--metrics-listen`): plain HTTP, `GET /metrics` only, bounded like the
//! config listener so that neither a scraper nor anyone else who reaches it can starve the
//! config listener: at most [`MAX_CONNECTIONS`] open (a newcomer past them is closed at once),
//! a request head read within [`HEADER_TIMEOUT`] (an idle keep-alive connection is closed
//! after it too), a response the client does not read cut after [`WRITE_TIMEOUT`], every
//! connection closed after [`DEADLINE`]. An accept error (EMFILE, the process out of
//! descriptors) is said once per 10 s and backed off from, never spun on.

use crate::serve::log::event::Event;
use std::sync::Arc;
use std::time::{Duration, Instant};

use http_body_util::Full;
use hyper::body::Bytes;
use tokio::sync::{Semaphore, watch};

use crate::serve::conn::conns;
use crate::serve::conn::io;
use crate::serve::state::shared::Shared;

/// Metrics connections open at once; what serve sets aside for them among its descriptors.
pub const MAX_CONNECTIONS: usize = 16;

/// Time allowed for a request head, and for an idle connection between requests.
const HEADER_TIMEOUT: Duration = Duration::from_secs(10);

/// How long a response may stay unsent because the client does not read.
const WRITE_TIMEOUT: Duration = Duration::from_secs(10);

/// How long one connection may live.
const DEADLINE: Duration = Duration::from_secs(120);

/// The longest pause after accept errors in a row.
const MAX_BACKOFF: Duration = Duration::from_secs(1);

/// Answers `GET /metrics` on `listener` until `stop`: the exposition of the counters and of
/// the state at that moment.
pub(in crate::serve) async fn serve_metrics(
    listener: tokio::net::TcpListener,
    shared: Arc<Shared>,
    conns: Arc<conns::Conns>,
    mut stop: watch::Receiver<bool>,
) {
    let permits = Arc::new(Semaphore::new(MAX_CONNECTIONS));
    let mut said: Option<Instant> = None;
    let mut say = |shared: &Shared, kind: Event, msg: String| {
        if said.is_none_or(|t| t.elapsed() > Duration::from_secs(10)) {
            shared.log.event(kind, &msg);
            said = Some(Instant::now());
        }
    };
    let mut backoff = Duration::from_millis(10);
    loop {
        let accepted = tokio::select! {
            r = listener.accept() => r,
            _ = stop.changed() => return,
        };
        let tcp = match accepted {
            Ok((tcp, _)) => tcp,
            Err(e) => {
                say(
                    &shared,
                    Event::MetricsAcceptError,
                    format!("{e}: backing off"),
                );
                tokio::time::sleep(backoff).await;
                backoff = (backoff * 2).min(MAX_BACKOFF);
                continue;
            }
        };
        backoff = Duration::from_millis(10);
        let Ok(permit) = permits.clone().try_acquire_owned() else {
            say(
                &shared,
                Event::MetricsConnectionLimit,
                format!("all {MAX_CONNECTIONS} metrics connections taken: closing new ones"),
            );
            continue;
        };
        let (shared, conns) = (shared.clone(), conns.clone());
        tokio::spawn(async move {
            let _permit = permit;
            let guarded = io::WriteGuard::new(tcp, WRITE_TIMEOUT, 0);
            let _ = tokio::time::timeout(DEADLINE, one(guarded, shared, conns)).await;
        });
    }
}

/// One metrics connection.
async fn one(
    io: io::WriteGuard<tokio::net::TcpStream>,
    shared: Arc<Shared>,
    conns: Arc<conns::Conns>,
) {
    let svc = hyper::service::service_fn(move |req: hyper::Request<hyper::body::Incoming>| {
        let (status, body) = if req.uri().path() != "/metrics" {
            (404, "not found: metrics are at /metrics\n".to_string())
        } else if req.method() != hyper::Method::GET {
            (405, "method not allowed\n".to_string())
        } else {
            (200, shared.metrics.render(&shared.current(), conns.open()))
        };
        let resp = hyper::Response::builder()
            .status(status)
            .header("content-type", "text/plain; version=0.0.4; charset=utf-8")
            .body(Full::new(Bytes::from(body)));
        async move { resp }
    });
    let _ = hyper::server::conn::http1::Builder::new()
        .timer(hyper_util::rt::TokioTimer::new())
        .header_read_timeout(HEADER_TIMEOUT)
        .max_buf_size(8192)
        .serve_connection(hyper_util::rt::TokioIo::new(io), svc)
        .await;
}
