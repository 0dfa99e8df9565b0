//! `mcsctl serve`: the authenticated TLS config server. The only place tokio, hyper and
//! rustls server types live.
//!
//! hyper 1 rather than axum: the server has two routes and needs hyper's own knobs (header
//! read timeout, buffer limit for 431, keep-alive) on every connection; a router would add a
//! layer without removing any code.
//!
//! Reliability promises, each kept by one part: a client that stops reading is cut off
//! ([`io`]); logging never blocks a request ([`log`]); a bad file keeps only its own part's
//! last good state ([`state`]); the auth mode never follows the token count and fails closed
//! ([`state`], [`handler`]); guessing cannot lock out a valid token ([`limit`]), even behind a
//! load balancer ([`proxy`]).

pub mod handler;
pub mod io;
pub mod limit;
pub mod log;
pub mod proxy;
pub mod state;

use std::convert::Infallible;
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
use tokio::net::{TcpListener, TcpStream};
use tokio::signal::unix::{Signal, SignalKind, signal};
use tokio::sync::{Semaphore, watch};

pub use handler::AuthMode;
use handler::Request;
use limit::RateLimiter;
use log::{Log, now_rfc3339};
use proxy::Cidr;
use state::{Loader, State};

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
    /// Auth mode; `None`: `serveAuth` of `mcsctl.json`, else token (re-read at each reload).
    pub auth: Option<AuthMode>,
    /// Time allowed for a request's headers, and for an idle keep-alive connection (hyper
    /// starts the same timer when it waits for the next request).
    pub header_timeout: Duration,
    /// Time allowed for a TLS handshake (and a PROXY header).
    pub handshake_timeout: Duration,
    /// How long a response may stay unsent because the client does not read.
    pub write_timeout: Duration,
    /// How long one connection may live; then it is closed after its request in flight.
    pub connection_deadline: Duration,
    /// Most connections open at once; more are closed at accept.
    pub max_connections: usize,
    /// How often to look for changed files.
    pub reload_interval: Duration,
    /// Largest request head in bytes (larger: 431).
    pub max_header_bytes: usize,
    /// How long SIGTERM waits for in-flight requests.
    pub drain_timeout: Duration,
    /// Failed token guesses per client per minute before 429.
    pub max_failures: u32,
    /// How long a client stays blocked.
    pub block_for: Duration,
    /// Load balancers whose connections start with a PROXY protocol header.
    pub proxy_from: Vec<Cidr>,
}

/// Request heads larger than this are dropped by hyper without an answer.
const HARD_HEAD_LIMIT: usize = 256 * 1024;

struct Shared {
    max_header_bytes: usize,
    state: RwLock<Arc<State>>,
    limiter: RateLimiter,
    log: Log,
}

impl Shared {
    fn current(&self) -> Arc<State> {
        self.state.read().unwrap_or_else(|p| p.into_inner()).clone()
    }
}

/// Runs the server until SIGTERM or SIGINT; returns the exit code.
pub fn run(opts: Options) -> Result<u8> {
    install_panic_hook();
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("starting the runtime")?;
    rt.block_on(serve(opts))
}

/// Where the panic hook reports: serve's event log, once it runs.
static PANIC_LOG: std::sync::OnceLock<Log> = std::sync::OnceLock::new();

/// A panic (a bug) is reported as a `panic` event with its location only: its message may
/// quote a request, and a request may carry a token. The request gets 500 (see [`guarded`]).
fn install_panic_hook() {
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
fn guarded(f: impl FnOnce() -> handler::Response) -> handler::Response {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(f))
        .unwrap_or_else(|_| handler::Response::internal_error())
}

async fn serve(opts: Options) -> Result<u8> {
    let log = Log::start();
    let _ = PANIC_LOG.set(log.clone());
    let provider = crate::pki::remote::provider();
    // A change a killed command committed is completed before anything is read (a read-only
    // mount has no journal; if completing fails, the per-part reload keeps what it can).
    match opts.dir.settle() {
        Ok(Some(c)) => log.event("recovery", &format!("completed an interrupted `{c}`")),
        Ok(None) => {}
        Err(e) => log.event("recovery-failed", &format!("{e:#}")),
    }
    let loader = Loader::new(opts.dir.clone(), provider, opts.auth);
    // Taken before the load: a change that lands while loading is seen by the first poll.
    let loaded_from = loader.fingerprint();
    let (state, outcome) = loader.initial(OffsetDateTime::now_utc())?;
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
    log.raw(banner(
        &opts,
        &state,
        &outcome,
        &tls_listener,
        plain_listener.as_ref(),
    ));
    if state.auth != AuthMode::None && state.tokens.live_at(OffsetDateTime::now_utc()) == 0 {
        log.event(
            "no-live-token",
            "no live token in auth/tokens.json: every request for a full config gets 401 until `mcsctl token create` or `mcsctl token rotate`",
        );
    }

    let shared = Arc::new(Shared {
        max_header_bytes: opts.max_header_bytes,
        state: RwLock::new(Arc::new(state)),
        limiter: RateLimiter::new(opts.max_failures, Duration::from_secs(60), opts.block_for),
        log: log.clone(),
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
    let conn = Arc::new(ConnOpts {
        http,
        handshake_timeout: opts.handshake_timeout,
        write_timeout: opts.write_timeout,
        connection_deadline: opts.connection_deadline,
        proxy_from: opts.proxy_from.clone(),
    });

    let mut tasks = vec![tokio::spawn(accept_loop(
        tls_listener,
        true,
        shared.clone(),
        conn.clone(),
        permits.clone(),
        stop_rx.clone(),
    ))];
    if let Some(l) = plain_listener {
        tasks.push(tokio::spawn(accept_loop(
            l,
            false,
            shared.clone(),
            conn.clone(),
            permits.clone(),
            stop_rx.clone(),
        )));
    }
    let reloader = tokio::spawn(reload_loop(
        loader,
        opts.dir.clone(),
        shared.clone(),
        loaded_from,
        hup,
        opts.reload_interval,
        stop_rx.clone(),
    ));

    wait_for_stop(term, int).await;
    log.event(
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
        log.event(
            "shutdown",
            &format!(
                "drain timeout ({}s) reached; closing the remaining connections",
                opts.drain_timeout.as_secs()
            ),
        );
    }
    log.event("shutdown", "stopped");
    log.flush(Duration::from_secs(2));
    Ok(crate::exit::OK)
}

fn banner(
    opts: &Options,
    state: &State,
    outcome: &state::Outcome,
    tls: &TcpListener,
    plain: Option<&TcpListener>,
) -> String {
    let pools = state.pools();
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
        "  serving certificate sha256: {} (expires {})\n",
        state.tls.cert_fingerprint,
        crate::pki::cert::rfc3339(state.tls.leaf.not_after)
    ));
    b.push_str(&format!(
        "  CA sha256: {}\n",
        state
            .tls
            .ca_fingerprint
            .as_deref()
            .unwrap_or("(tls/mcs-ca.crt not present)")
    ));
    b.push_str(&format!(
        "  pools: {}\n",
        if pools.is_empty() {
            "none (no rendered/<pool>.ign yet)".into()
        } else {
            pools.join(", ")
        }
    ));
    if state.auth == AuthMode::Split {
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
    let live = state.tokens.live_at(OffsetDateTime::now_utc());
    b.push_str(&format!(
        "  auth: {} ({live} live token(s)){}\n",
        state.auth.name(),
        if opts.auth.is_some() {
            " from --auth"
        } else {
            ""
        }
    ));
    if !opts.proxy_from.is_empty() {
        let list: Vec<String> = opts.proxy_from.iter().map(Cidr::to_string).collect();
        b.push_str(&format!(
            "  PROXY protocol from: {} (their connections must start with a header)\n",
            list.join(", ")
        ));
    }
    b.push_str(&format!(
        "  limits: write timeout {}s, connection deadline {}s, {} connections\n",
        opts.write_timeout.as_secs(),
        opts.connection_deadline.as_secs(),
        opts.max_connections
    ));
    if state.auth == AuthMode::None {
        b.push_str(&format!(
            "WARNING: auth none: anyone who reaches {} can read every machine's full configuration, secrets included.\n",
            addr(tls)
        ));
    }
    if state.auth != AuthMode::None && live == 0 {
        b.push_str(&format!(
            "WARNING: auth {} but no live token in auth/tokens.json: every request for a full config gets 401 until `mcsctl token create` or `mcsctl token rotate`.\n",
            state.auth.name()
        ));
    }
    let left = state.tls.leaf.not_after - OffsetDateTime::now_utc().unix_timestamp();
    if left < 30 * 86_400 {
        b.push_str(&format!(
            "WARNING: the serving certificate expires in {} ({}): machines booting after that fail; `mcsctl cert renew` (picked up without a restart).\n",
            crate::duration::residual(left),
            crate::pki::cert::rfc3339(state.tls.leaf.not_after)
        ));
    }
    for (part, why) in &outcome.failed {
        b.push_str(&format!("WARNING: {part} not served: {why}\n"));
    }
    if plain.is_some() {
        b.push_str("WARNING: the plain HTTP listener sends configs and tokens in clear text.\n");
    }
    b.push_str("ready\n");
    b
}

/// Stops on SIGTERM or SIGINT.
async fn wait_for_stop(mut term: Signal, mut int: Signal) {
    tokio::select! {
        _ = term.recv() => {}
        _ = int.recv() => {}
    }
}

/// What every connection is served with.
struct ConnOpts {
    http: hyper::server::conn::http1::Builder,
    handshake_timeout: Duration,
    write_timeout: Duration,
    connection_deadline: Duration,
    proxy_from: Vec<Cidr>,
}

async fn accept_loop(
    listener: TcpListener,
    tls: bool,
    shared: Arc<Shared>,
    conn: Arc<ConnOpts>,
    permits: Arc<Semaphore>,
    mut stop: watch::Receiver<bool>,
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
                shared.log.event("accept-error", &e.to_string());
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        let Ok(permit) = permits.clone().try_acquire_owned() else {
            if refused_logged.elapsed() > Duration::from_secs(10) {
                shared.log.event(
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
        let conn = conn.clone();
        let w = stop.clone();
        tokio::spawn(async move {
            let _permit = permit;
            handle_conn(tcp, peer, tls, shared, conn, w).await;
        });
    }
}

/// One connection: the PROXY header from a listed balancer, the TLS handshake, then HTTP/1.1
/// with writes guarded and the connection's life bounded.
async fn handle_conn(
    mut tcp: TcpStream,
    peer: SocketAddr,
    tls: bool,
    shared: Arc<Shared>,
    conn: Arc<ConnOpts>,
    stop: watch::Receiver<bool>,
) {
    let mut client = peer;
    let mut via = None;
    if conn.proxy_from.iter().any(|c| c.contains(peer.ip())) {
        match proxy::read_header(&mut tcp, conn.handshake_timeout).await {
            Ok(Some(real)) => {
                client = real;
                via = Some(peer);
            }
            Ok(None) => via = Some(peer),
            Err(e) => {
                shared.log.event(
                    "proxy-refused",
                    &format!("closing a connection from balancer {peer}: {e}"),
                );
                return;
            }
        }
    }
    let guarded = io::WriteGuard::new(tcp, conn.write_timeout);
    let peer = Peer { client, via };
    if tls {
        let cfg = shared.current().tls.config.clone();
        let acceptor = tokio_rustls::TlsAcceptor::from(cfg);
        let Ok(Ok(stream)) =
            tokio::time::timeout(conn.handshake_timeout, acceptor.accept(guarded)).await
        else {
            return;
        };
        serve_conn(TokioIo::new(stream), peer, shared, conn, stop).await;
    } else {
        serve_conn(TokioIo::new(guarded), peer, shared, conn, stop).await;
    }
}

/// Who is on the other end.
#[derive(Debug, Clone, Copy)]
struct Peer {
    /// The client (behind a balancer: the address its PROXY header gave).
    client: SocketAddr,
    /// The balancer, when the connection came through one.
    via: Option<SocketAddr>,
}

async fn serve_conn<I>(
    io: I,
    peer: Peer,
    shared: Arc<Shared>,
    conn: Arc<ConnOpts>,
    mut stop: watch::Receiver<bool>,
) where
    I: hyper::rt::Read + hyper::rt::Write + Unpin + Send + 'static,
{
    let svc_shared = shared.clone();
    let svc = service_fn(move |req| {
        let shared = svc_shared.clone();
        async move { Ok::<_, Infallible>(respond(&shared, peer, req)) }
    });
    let c = conn.http.serve_connection(io, svc);
    tokio::pin!(c);
    let deadline = tokio::time::sleep(conn.connection_deadline);
    tokio::pin!(deadline);
    let result = tokio::select! {
        r = c.as_mut() => r,
        _ = stop.changed() => {
            // Finish the request in flight (if any), then close.
            c.as_mut().graceful_shutdown();
            c.await
        }
        _ = &mut deadline => {
            c.as_mut().graceful_shutdown();
            c.await
        }
    };
    if let Err(e) = result {
        let timed_out = std::error::Error::source(&e)
            .and_then(|s| s.downcast_ref::<std::io::Error>())
            .is_some_and(|io| io.kind() == std::io::ErrorKind::TimedOut);
        if timed_out {
            shared.log.event(
                "write-timeout",
                &format!(
                    "closed the connection from {}: it stopped reading",
                    peer.client
                ),
            );
        }
    }
}

fn respond(
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
    let r = if head_size > shared.max_header_bytes {
        handler::Response::too_large()
    } else {
        guarded(|| {
            handler::handle(
                &state,
                &shared.limiter,
                &request,
                OffsetDateTime::now_utc(),
                start,
            )
        })
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
    };
    if let Ok(text) = serde_json::to_string(&line) {
        shared.log.access(text);
    }
}

async fn reload_loop(
    loader: Loader,
    dir: AssetDir,
    shared: Arc<Shared>,
    loaded_from: state::Fingerprint,
    mut hup: Signal,
    every: Duration,
    mut stop: watch::Receiver<bool>,
) {
    let mut seen = loaded_from;
    // The last failure message of each part: a part that keeps failing is retried at every
    // poll (a chmod, a Secret swap) but logged once per distinct reason.
    let mut failing: std::collections::HashMap<String, String> = Default::default();
    let mut live_before = shared.current().tokens.live_at(OffsetDateTime::now_utc());
    let mut cert_dead_said = false;
    let mut tick = tokio::time::interval(every);
    tick.tick().await;
    loop {
        let forced = tokio::select! {
            _ = tick.tick() => false,
            _ = hup.recv() => true,
            _ = stop.changed() => return,
        };
        let now = OffsetDateTime::now_utc();
        // Certificates expire without any file changing: say so when it happens.
        let cert_dead = shared.current().tls.unusable_at(now.unix_timestamp());
        if let Some(why) = &cert_dead
            && !cert_dead_said
        {
            shared.log.event(
                "certificate-expired",
                &format!("{why}: every machine now refuses the connection; run `mcsctl cert renew` (serve picks it up)"),
            );
        }
        cert_dead_said = cert_dead.is_some();
        // Tokens expire without any file changing: say so when the last one goes.
        let live_now = shared.current().tokens.live_at(now);
        if live_now == 0 && live_before > 0 && shared.current().auth != AuthMode::None {
            shared.log.event(
                "no-live-token",
                "the last live token expired: every request for a full config now gets 401",
            );
        }
        live_before = live_now;
        let fp = loader.fingerprint();
        if !forced && fp == seen && failing.is_empty() {
            continue;
        }
        // A killed command's committed change is completed first (this takes the exclusive
        // lock, so before the shared one below).
        if dir.change_pending()
            && let Ok(Some(c)) = dir.settle()
        {
            shared
                .log
                .event("recovery", &format!("completed an interrupted `{c}`"));
        }
        // A command writing right now: try at the next poll rather than read its half.
        let Ok(guard) = dir.try_read_lock() else {
            continue;
        };
        let prev = shared.current();
        let (next, outcome) = loader.reload(&prev, now);
        drop(guard);
        let failed_parts: Vec<String> = outcome.failed.iter().map(|(p, _)| p.clone()).collect();
        for (part, why) in &outcome.failed {
            if failing.get(part) != Some(why) {
                shared.log.event(
                    "reload-failed",
                    &format!("{part}: keeping its last good state: {why}"),
                );
            }
        }
        failing.retain(|p, _| failed_parts.contains(p));
        for (part, why) in outcome.failed {
            failing.insert(part, why);
        }
        if !outcome.changed.is_empty() || forced {
            let live = next.tokens.live_at(now);
            let msg = format!(
                "reloaded{}: {}; auth {}, {live} live token(s), pools {:?}",
                if forced { " on SIGHUP" } else { "" },
                if outcome.changed.is_empty() {
                    "nothing changed".to_string()
                } else {
                    outcome.changed.join(", ")
                },
                next.auth.name(),
                next.pools(),
            );
            if live == 0 && next.auth != AuthMode::None {
                shared.log.event(
                    "no-live-token",
                    "no live token: every request for a full config gets 401",
                );
            }
            *shared.state.write().unwrap_or_else(|p| p.into_inner()) = Arc::new(next);
            shared.log.event("reload", &msg);
        } else {
            *shared.state.write().unwrap_or_else(|p| p.into_inner()) = Arc::new(next);
        }
        seen = fp;
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
