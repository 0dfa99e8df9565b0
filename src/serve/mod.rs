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
//! load balancer ([`proxy`]); a bug in handling one request costs that request a 500, not the
//! connection ([`respond`]).

mod banner;
pub mod handler;
pub mod io;
pub mod limit;
pub mod log;
pub mod proxy;
mod reload;
mod respond;
pub mod state;

use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::{Arc, RwLock};
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use hyper::service::service_fn;
use hyper_util::rt::{TokioIo, TokioTimer};
use time::OffsetDateTime;
use tokio::net::{TcpListener, TcpStream};
use tokio::signal::unix::{Signal, SignalKind, signal};
use tokio::sync::{Semaphore, watch};

pub use handler::AuthMode;
use limit::RateLimiter;
use log::Log;
use proxy::Cidr;
use state::{Loader, State};

use crate::assets::AssetDir;
use banner::banner;
use reload::reload_loop;
use respond::{PANIC_LOG, install_panic_hook, respond};

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
