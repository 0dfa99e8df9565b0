//! `mcsctl serve`: the authenticated TLS config server. The only place tokio, hyper and
//! rustls server types live.
//!
//! hyper 1 rather than axum: the server has two routes and needs hyper's own knobs (header
//! read timeout, buffer limit for 431, keep-alive) on every connection; a router would add a
//! layer without removing any code.

pub mod handler;
pub mod state;

use std::convert::Infallible;
use std::io::Write;
use std::net::SocketAddr;
use std::sync::{Arc, RwLock};
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use bytes::Bytes;
use http_body_util::Full;
use hyper::body::Incoming;
use hyper::service::service_fn;
use hyper_util::rt::{TokioIo, TokioTimer};
use time::OffsetDateTime;
use tokio::net::TcpListener;
use tokio::signal::unix::{Signal, SignalKind, signal};
use tokio::sync::{Semaphore, watch};

pub use handler::AuthMode;
use handler::{RateLimiter, Request};
use state::State;

use crate::assets::AssetDir;

/// How to run the server.
#[derive(Debug, Clone)]
pub struct Options {
    /// The asset directory.
    pub dir: AssetDir,
    /// HTTPS listen address.
    pub listen: SocketAddr,
    /// Optional plain-HTTP listen address.
    pub insecure_listen: Option<SocketAddr>,
    /// Auth mode; `None` picks `token` when tokens exist, else `none`.
    pub auth: Option<AuthMode>,
    /// Time allowed for a request's headers, and for an idle keep-alive connection (hyper
    /// starts the same timer when it waits for the next request).
    pub header_timeout: Duration,
    /// Time allowed for a TLS handshake.
    pub handshake_timeout: Duration,
    /// Most connections open at once; more are closed at accept.
    pub max_connections: usize,
    /// How often to look for changed files.
    pub reload_interval: Duration,
    /// Largest request head in bytes (larger: 431).
    pub max_header_bytes: usize,
    /// How long SIGTERM waits for in-flight requests.
    pub drain_timeout: Duration,
    /// Failed token attempts per address per minute before 429.
    pub max_failures: u32,
    /// How long an address stays blocked.
    pub block_for: Duration,
}

/// Request heads larger than this are dropped by hyper without an answer.
const HARD_HEAD_LIMIT: usize = 256 * 1024;

struct Shared {
    max_header_bytes: usize,
    state: RwLock<Arc<State>>,
    auth: AuthMode,
    limiter: RateLimiter,
}

impl Shared {
    fn current(&self) -> Arc<State> {
        self.state.read().unwrap_or_else(|p| p.into_inner()).clone()
    }
}

/// Runs the server until SIGTERM or SIGINT; returns the exit code.
pub fn run(opts: Options) -> Result<u8> {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("starting the runtime")?;
    rt.block_on(serve(opts))
}

fn event(kind: &str, message: &str) {
    let line = serde_json::json!({ "time": now_rfc3339(), "event": kind, "message": message });
    eprintln!("{line}");
}

fn now_rfc3339() -> String {
    OffsetDateTime::now_utc()
        .format(&time::format_description::well_known::Rfc3339)
        .unwrap_or_default()
}

async fn serve(opts: Options) -> Result<u8> {
    let provider = crate::pki::remote::provider();
    // A change a killed command committed is completed before anything is read (a read-only
    // mount has no journal; if completing fails, the per-part reload keeps what it can).
    match opts.dir.settle() {
        Ok(Some(c)) => event("recovery", &format!("completed an interrupted `{c}`")),
        Ok(None) => {}
        Err(e) => event("recovery-failed", &format!("{e:#}")),
    }
    // Taken before the load: a change that lands while loading is seen by the first poll.
    let loaded_from = state::fingerprint(&opts.dir);
    let state = State::load(&opts.dir, provider.clone(), OffsetDateTime::now_utc())?;
    let auth = opts.auth.unwrap_or(if state.tokens.is_empty() {
        AuthMode::None
    } else {
        AuthMode::Token
    });
    let tls_listener = TcpListener::bind(opts.listen)
        .await
        .with_context(|| format!("listening on {}", opts.listen))?;
    let plain_listener = match opts.insecure_listen {
        Some(a) => Some(
            TcpListener::bind(a)
                .await
                .with_context(|| format!("listening on {a}"))?,
        ),
        None => None,
    };
    // Handlers go in before the banner says "ready": a signal that comes early must not fall
    // to the default action (SIGHUP would end the process).
    let term = signal(SignalKind::terminate()).context("installing the SIGTERM handler")?;
    let int = signal(SignalKind::interrupt()).context("installing the SIGINT handler")?;
    let hup = signal(SignalKind::hangup()).context("installing the SIGHUP handler")?;
    banner(&opts, &state, auth, &tls_listener, plain_listener.as_ref());

    let shared = Arc::new(Shared {
        max_header_bytes: opts.max_header_bytes,
        state: RwLock::new(Arc::new(state)),
        auth,
        limiter: RateLimiter::new(opts.max_failures, Duration::from_secs(60), opts.block_for),
    });
    let (stop_tx, stop_rx) = watch::channel(false);
    let permits = Arc::new(Semaphore::new(opts.max_connections));
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(opts.header_timeout)
        // hyper's own limit is a hard stop that closes the connection (the client, still
        // sending, often sees a reset instead of the 431); it sits well above ours so that
        // respond() can answer a clean 431 for heads between the two.
        .max_buf_size(HARD_HEAD_LIMIT.max(opts.max_header_bytes * 2))
        .keep_alive(true);

    let mut tasks = Vec::new();
    tasks.push(tokio::spawn(accept_loop(
        tls_listener,
        true,
        shared.clone(),
        http.clone(),
        permits.clone(),
        stop_rx.clone(),
        opts.handshake_timeout,
    )));
    if let Some(l) = plain_listener {
        tasks.push(tokio::spawn(accept_loop(
            l,
            false,
            shared.clone(),
            http.clone(),
            permits.clone(),
            stop_rx.clone(),
            opts.handshake_timeout,
        )));
    }
    let reloader = tokio::spawn(reload_loop(
        opts.dir.clone(),
        provider,
        shared.clone(),
        loaded_from,
        hup,
        opts.reload_interval,
        stop_rx.clone(),
    ));

    wait_for_stop(term, int).await;
    event(
        "shutdown",
        "stopping: no new connections; draining in-flight requests",
    );
    let _ = stop_tx.send(true);
    for t in tasks {
        let _ = t.await;
    }
    reloader.abort();
    // Every connection holds a permit until it ends: all permits back means all drained.
    let all = u32::try_from(opts.max_connections).unwrap_or(u32::MAX);
    if tokio::time::timeout(opts.drain_timeout, permits.acquire_many(all))
        .await
        .is_err()
    {
        event(
            "shutdown",
            &format!(
                "drain timeout ({}s) reached; closing the remaining connections",
                opts.drain_timeout.as_secs()
            ),
        );
    }
    event("shutdown", "stopped");
    Ok(crate::exit::OK)
}

fn banner(
    opts: &Options,
    state: &State,
    auth: AuthMode,
    tls: &TcpListener,
    plain: Option<&TcpListener>,
) {
    let mut pools: Vec<&String> = state.full.keys().collect();
    pools.sort();
    let mut pre: Vec<&String> = state.pre.keys().collect();
    pre.sort();
    let addr = |l: &TcpListener| l.local_addr().map(|a| a.to_string()).unwrap_or_default();
    let mut b = format!("mcsctl serve {}\n", env!("CARGO_PKG_VERSION"));
    b.push_str(&format!("  listening: https://{}", addr(tls)));
    if let Some(p) = plain {
        b.push_str(&format!(" and http://{} (plain HTTP)", addr(p)));
    }
    b.push('\n');
    b.push_str(&format!(
        "  asset directory: {}\n",
        opts.dir.root().display()
    ));
    b.push_str(&format!(
        "  serving certificate sha256: {}\n",
        state.cert_fingerprint
    ));
    b.push_str(&format!(
        "  CA sha256: {}\n",
        state
            .ca_fingerprint
            .as_deref()
            .unwrap_or("(tls/mcs-ca.crt not present)")
    ));
    b.push_str(&format!(
        "  pools: {}\n",
        if pools.is_empty() {
            "none (no rendered/<pool>.ign yet)".into()
        } else {
            pools
                .iter()
                .map(|s| s.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        }
    ));
    if auth == AuthMode::Split {
        b.push_str(&format!(
            "  pre-approval pools: {}\n",
            if pre.is_empty() {
                "none".into()
            } else {
                pre.iter()
                    .map(|s| s.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            }
        ));
    }
    b.push_str(&format!(
        "  auth: {} ({} live token(s))\n",
        auth.name(),
        state.tokens.len()
    ));
    if auth == AuthMode::None {
        b.push_str(&format!(
            "WARNING: --auth none: anyone who reaches {} can read every machine's full configuration, secrets included.\n",
            addr(tls)
        ));
    }
    if auth == AuthMode::Token && state.tokens.is_empty() {
        b.push_str("WARNING: --auth token but no live token in auth/tokens.json: every config request will get 401.\n");
    }
    if plain.is_some() {
        b.push_str("WARNING: the plain HTTP listener sends configs and tokens in clear text.\n");
    }
    b.push_str("ready\n");
    // One write, so the banner is never interleaved with the first log lines.
    eprint!("{b}");
}

/// Stops on SIGTERM or SIGINT.
async fn wait_for_stop(mut term: Signal, mut int: Signal) {
    tokio::select! {
        _ = term.recv() => {}
        _ = int.recv() => {}
    }
}

#[allow(clippy::too_many_arguments)]
async fn accept_loop(
    listener: TcpListener,
    tls: bool,
    shared: Arc<Shared>,
    http: hyper::server::conn::http1::Builder,
    permits: Arc<Semaphore>,
    mut stop: watch::Receiver<bool>,
    handshake_timeout: Duration,
) {
    let mut refused_logged = Instant::now() - Duration::from_secs(60);
    loop {
        let accepted = tokio::select! {
            r = listener.accept() => r,
            _ = stop.changed() => return,
        };
        let (tcp, peer) = match accepted {
            Ok(x) => x,
            Err(e) => {
                // EMFILE and friends: back off briefly rather than spin.
                event("accept-error", &e.to_string());
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        let Ok(permit) = permits.clone().try_acquire_owned() else {
            if refused_logged.elapsed() > Duration::from_secs(10) {
                event(
                    "connection-limit",
                    &format!(
                        "connection limit reached; closing new connections (e.g. from {peer})"
                    ),
                );
                refused_logged = Instant::now();
            }
            drop(tcp);
            continue;
        };
        let _ = tcp.set_nodelay(true);
        let shared = shared.clone();
        let http = http.clone();
        let w = stop.clone();
        tokio::spawn(async move {
            let _permit = permit;
            if tls {
                let cfg = shared.current().tls.clone();
                let acceptor = tokio_rustls::TlsAcceptor::from(cfg);
                let Ok(Ok(stream)) =
                    tokio::time::timeout(handshake_timeout, acceptor.accept(tcp)).await
                else {
                    return;
                };
                serve_conn(TokioIo::new(stream), peer, shared, http, w).await;
            } else {
                serve_conn(TokioIo::new(tcp), peer, shared, http, w).await;
            }
        });
    }
}

async fn serve_conn<I>(
    io: I,
    peer: SocketAddr,
    shared: Arc<Shared>,
    http: hyper::server::conn::http1::Builder,
    mut stop: watch::Receiver<bool>,
) where
    I: hyper::rt::Read + hyper::rt::Write + Unpin + Send + 'static,
{
    let svc = service_fn(move |req| {
        let shared = shared.clone();
        async move { Ok::<_, Infallible>(respond(&shared, peer, req)) }
    });
    let conn = http.serve_connection(io, svc);
    tokio::pin!(conn);
    tokio::select! {
        _ = conn.as_mut() => {}
        _ = stop.changed() => {
            // Finish the request in flight (if any), then close.
            conn.as_mut().graceful_shutdown();
            let _ = conn.await;
        }
    }
}

fn respond(
    shared: &Shared,
    peer: SocketAddr,
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
        remote: peer.ip(),
    };
    // Counted without allocating: the request line's target plus every header line.
    let head_size: usize = req.uri().path_and_query().map_or(0, |p| p.as_str().len())
        + headers
            .iter()
            .map(|(k, v)| k.as_str().len() + v.len() + 4)
            .sum::<usize>();
    let r = if head_size > shared.max_header_bytes {
        handler::Response::too_large()
    } else {
        handler::handle(
            &state,
            shared.auth,
            &shared.limiter,
            &request,
            OffsetDateTime::now_utc(),
            start,
        )
    };
    let head = req.method() == hyper::Method::HEAD;
    let bytes = if head { 0 } else { r.body.len() };
    access_log(&request, peer, &r, bytes, start, h("user-agent"));
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

/// One JSON line per request on stdout. The query is never logged (it may carry `?token=`),
/// nor any header but the user agent; long client-controlled values are cut.
fn access_log(
    req: &Request<'_>,
    peer: SocketAddr,
    r: &handler::Response,
    bytes: usize,
    start: Instant,
    ua: Option<&str>,
) {
    let cut = |s: &str, n: usize| s.chars().take(n).collect::<String>();
    let line = serde_json::json!({
        "time": now_rfc3339(),
        "remote": peer.to_string(),
        "method": cut(req.method, 16),
        "path": cut(req.path, 256),
        "pool": r.pool,
        "status": r.status,
        "bytes": bytes,
        "auth": r.auth,
        "durationMs": (start.elapsed().as_secs_f64() * 1000.0 * 1000.0).round() / 1000.0,
        "userAgent": ua.map(|u| cut(u, 256)),
    });
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{line}");
}

async fn reload_loop(
    dir: AssetDir,
    provider: Arc<rustls::crypto::CryptoProvider>,
    shared: Arc<Shared>,
    loaded_from: state::Fingerprint,
    mut hup: Signal,
    every: Duration,
    mut stop: watch::Receiver<bool>,
) {
    let mut seen = loaded_from;
    let mut failed_at: Option<state::Fingerprint> = None;
    let mut tick = tokio::time::interval(every);
    tick.tick().await;
    loop {
        let forced = tokio::select! {
            _ = tick.tick() => false,
            _ = hup.recv() => true,
            _ = stop.changed() => return,
        };
        let now = state::fingerprint(&dir);
        if !forced && now == seen && failed_at.is_none() {
            continue;
        }
        if !forced && failed_at.as_ref() == Some(&now) {
            continue;
        }
        match State::load(&dir, provider.clone(), OffsetDateTime::now_utc()) {
            Ok(s) => {
                let msg = format!(
                    "reloaded{}: certificate sha256 {}, {} live token(s), pools {:?}",
                    if forced { " on SIGHUP" } else { "" },
                    s.cert_fingerprint,
                    s.tokens.len(),
                    {
                        let mut p: Vec<&String> = s.full.keys().collect();
                        p.sort();
                        p
                    }
                );
                *shared.state.write().unwrap_or_else(|p| p.into_inner()) = Arc::new(s);
                seen = now;
                failed_at = None;
                event("reload", &msg);
            }
            Err(e) => {
                event(
                    "reload-failed",
                    &format!("keeping the last good state: {e:#}"),
                );
                failed_at = Some(now);
            }
        }
    }
}
