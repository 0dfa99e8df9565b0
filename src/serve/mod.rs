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
pub mod conns;
pub mod handler;
pub mod handshakes;
pub mod io;
pub mod limit;
pub mod log;
pub mod proxy;
mod reload;
mod respond;
pub mod state;

use std::collections::HashMap;
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
    /// The wall clock: expiry of tokens and certificates.
    pub clock: crate::clock::Clock,
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
    /// Bytes per second a response must go out at once it takes longer than `write_timeout`.
    pub min_send_rate: u64,
    /// How long one connection may live; then it is closed after its request in flight.
    pub connection_deadline: Duration,
    /// Most connections open at once; past it, the client holding the most loses an idle one.
    pub max_connections: usize,
    /// Most connections one client (address; IPv6 /64) may hold.
    pub max_connections_per_client: usize,
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

/// Connections that may be closing at once after giving their place to a newcomer.
const EVICTION_SLACK: usize = 64;

/// Request heads larger than this are dropped by hyper without an answer.
const HARD_HEAD_LIMIT: usize = 256 * 1024;

struct Shared {
    max_header_bytes: usize,
    state: RwLock<Arc<State>>,
    limiter: RateLimiter,
    log: Log,
    handshakes: handshakes::Handshakes,
    clock: crate::clock::Clock,
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
    let loader = Arc::new(Loader::new(opts.dir.clone(), provider, opts.auth));
    // Taken before the load: a change that lands while loading is seen by the first poll.
    let loaded_from = loader.fingerprint();
    let (state, outcome) = loader.initial(opts.clock.now())?;
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
    if state.auth != AuthMode::None && state.tokens.live_at(opts.clock.now()) == 0 {
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
        handshakes: handshakes::Handshakes::default(),
        clock: opts.clock.clone(),
    });
    let (stop_tx, stop_rx) = watch::channel(false);
    // The logical limits are `conns`'; the semaphore is a hard cap on connection tasks, with
    // room for connections that are closing to make room for newcomers.
    let conns = conns::Conns::new(opts.max_connections, opts.max_connections_per_client);
    let capacity = opts.max_connections + EVICTION_SLACK;
    let permits = Arc::new(Semaphore::new(capacity));
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
        min_send_rate: opts.min_send_rate,
        connection_deadline: opts.connection_deadline,
        proxy_from: opts.proxy_from.clone(),
        max_connections: opts.max_connections,
        max_per_client: opts.max_connections_per_client,
    });

    let mut tasks = vec![tokio::spawn(accept_loop(
        tls_listener,
        true,
        shared.clone(),
        conn.clone(),
        (permits.clone(), conns.clone()),
        stop_rx.clone(),
    ))];
    if let Some(l) = plain_listener {
        tasks.push(tokio::spawn(accept_loop(
            l,
            false,
            shared.clone(),
            conn.clone(),
            (permits.clone(), conns.clone()),
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
    let all = u32::try_from(capacity).unwrap_or(u32::MAX);
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
    min_send_rate: u64,
    connection_deadline: Duration,
    proxy_from: Vec<Cidr>,
    max_connections: usize,
    max_per_client: usize,
}

async fn accept_loop(
    listener: TcpListener,
    tls: bool,
    shared: Arc<Shared>,
    conn: Arc<ConnOpts>,
    (permits, conns): (Arc<Semaphore>, Arc<conns::Conns>),
    mut stop: watch::Receiver<bool>,
) {
    // Each kind of refusal is logged at most every 10 s, with the latest example.
    let mut said: HashMap<&'static str, Instant> = HashMap::new();
    let mut say = |kind: &'static str, msg: String| {
        if said
            .get(kind)
            .is_none_or(|t| t.elapsed() > Duration::from_secs(10))
        {
            shared.log.event(kind, &msg);
            said.insert(kind, Instant::now());
        }
    };
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
        let balancer = conn.proxy_from.iter().any(|c| c.contains(peer.ip()));
        let slot = match conns.admit(peer.ip(), balancer) {
            Ok((slot, evicted)) => {
                if let Some(from) = evicted {
                    say(
                        "connection-evicted",
                        format!(
                            "all {} connections taken: closed an idle one of {from}, the client holding the most, to let {peer} in",
                            conn.max_connections
                        ),
                    );
                }
                slot
            }
            Err(conns::Refused::Client) => {
                say(
                    "connection-limit-client",
                    format!(
                        "{} already holds {} connections (--max-connections-per-client); closing its new ones",
                        limit::client_key(peer.ip()),
                        conn.max_per_client
                    ),
                );
                continue;
            }
            Err(conns::Refused::Full) => {
                say(
                    "connection-limit",
                    format!(
                        "all {} connections taken and none idle; closing new connections (e.g. from {peer})",
                        conn.max_connections
                    ),
                );
                continue;
            }
        };
        let Ok(permit) = permits.clone().try_acquire_owned() else {
            say(
                "connection-limit",
                format!("too many connections closing; closing new connections (e.g. from {peer})"),
            );
            continue;
        };
        let _ = tcp.set_nodelay(true);
        let _ = socket2::SockRef::from(&tcp).set_send_buffer_size(io::SEND_BUFFER);
        let shared = shared.clone();
        let conn = conn.clone();
        let w = stop.clone();
        tokio::spawn(async move {
            let _permit = permit;
            let slot = Arc::new(slot);
            let evict = slot.evict.clone();
            // Closed to make room (before or during the handshake: an idle connection).
            tokio::select! {
                _ = handle_conn(tcp, peer, tls, shared, conn, w, slot) => {}
                _ = evict.notified() => {}
            }
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
    slot: Arc<conns::Slot>,
) {
    let mut client = peer;
    let mut via = None;
    if conn.proxy_from.iter().any(|c| c.contains(peer.ip())) {
        match proxy::read_header(&mut tcp, conn.handshake_timeout).await {
            Ok(Some(real)) => {
                client = real;
                via = Some(peer);
                if slot.rekey(real.ip()).is_err() {
                    shared.log.event(
                        "connection-limit-client",
                        &format!(
                            "{} (via {peer}) already holds {} connections (--max-connections-per-client); closing this one",
                            limit::client_key(real.ip()),
                            conn.max_per_client
                        ),
                    );
                    return;
                }
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
    let guarded = io::WriteGuard::new(tcp, conn.write_timeout, conn.min_send_rate);
    let abort = guarded.abort_flag();
    let peer = Peer { client, via };
    if tls {
        let cfg = shared.current().tls.config.clone();
        let acceptor = tokio_rustls::TlsAcceptor::from(cfg);
        let failed =
            match tokio::time::timeout(conn.handshake_timeout, acceptor.accept(guarded)).await {
                Ok(Ok(stream)) => Ok(stream),
                Ok(Err(e)) => Err(handshakes::Reason::of(&e)),
                Err(_) => Err(Some(handshakes::Reason::Timeout)),
            };
        let stream = match failed {
            Ok(stream) => stream,
            Err(reason) => {
                if let Some(line) = reason.and_then(|r| {
                    let wall = OffsetDateTime::now_utc();
                    let since = format!(
                        "{:02}:{:02}:{:02}Z",
                        wall.hour(),
                        wall.minute(),
                        wall.second()
                    );
                    shared
                        .handshakes
                        .record(client.ip(), r, Instant::now(), &since)
                }) {
                    shared.log.event("handshake-failed", &line);
                }
                return;
            }
        };
        serve_conn(TokioIo::new(stream), peer, shared, conn, stop, abort, slot).await;
    } else {
        serve_conn(TokioIo::new(guarded), peer, shared, conn, stop, abort, slot).await;
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
    abort: io::AbortFlag,
    slot: Arc<conns::Slot>,
) where
    I: hyper::rt::Read + hyper::rt::Write + Unpin + Send + 'static,
{
    let svc_shared = shared.clone();
    let svc_slot = slot.clone();
    let svc = service_fn(move |req| {
        let shared = svc_shared.clone();
        let slot = svc_slot.clone();
        async move {
            slot.busy(true);
            let r = respond(&shared, peer, req);
            slot.busy(false);
            Ok::<_, Infallible>(r)
        }
    });
    let evict = slot.evict.clone();
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
        _ = evict.notified() => {
            // Idle: closes at once (a response still being written gets the write timeout).
            c.as_mut().graceful_shutdown();
            match tokio::time::timeout(conn.write_timeout, c).await {
                Ok(r) => r,
                Err(_) => return,
            }
        }
        _ = &mut deadline => {
            // The response in flight gets the write timeout to finish, not longer: a slow
            // reader does not outlive the deadline.
            c.as_mut().graceful_shutdown();
            match tokio::time::timeout(conn.write_timeout, c).await {
                Ok(r) => r,
                Err(_) => {
                    abort.store(true, std::sync::atomic::Ordering::Relaxed);
                    shared.log.event(
                        "connection-deadline",
                        &format!(
                            "closed the connection from {}: open longer than --connection-deadline ({}s) and still sending",
                            peer.client,
                            conn.connection_deadline.as_secs()
                        ),
                    );
                    return;
                }
            }
        }
    };
    if let Err(e) = result {
        let io = std::error::Error::source(&e).and_then(|s| s.downcast_ref::<std::io::Error>());
        match io.map(|e| e.to_string()) {
            Some(m) if m == io::STALLED => shared.log.event(
                "write-timeout",
                &format!(
                    "closed the connection from {}: it stopped reading",
                    peer.client
                ),
            ),
            Some(m) if m == io::TOO_SLOW => shared.log.event(
                "slow-client",
                &format!(
                    "closed the connection from {}: it read slower than --min-send-rate ({}/s)",
                    peer.client,
                    crate::size::human(conn.min_send_rate)
                ),
            ),
            _ => {}
        }
    }
}
