//! `mcsctl serve`: the authenticated TLS config server. The only place tokio, hyper and
//! rustls server types live.
//!
//! hyper 1 rather than axum: the server has two routes and needs hyper's own knobs (header
//! read timeout, buffer limit for 431, keep-alive) on every connection; a router would add a
//! layer without removing any code.
//!
//! Four folders by concern, and the fetch accounting:
//!
//! - [`conn`]: connections: accepted within the limits, who is at the other end, the TLS
//!   handshake, the write guard that cuts a client that stops reading.
//! - [`request`]: one request: its route, the token it presents, its answer, and the delivery
//!   whose end spends a machine token.
//! - [`state`]: what serve holds (the parts read from the asset directory, the tokens the
//!   store published), reloaded part by part, and what every connection shares.
//! - [`log`]: the access log and the events (one [`log::event::Event`] per kind), never
//!   blocking a request; the metrics and their listener; the banner.
//! - `fetches`: the claims of machine tokens, in the ledger files or the etcd store;
//!   `reports`: first-boot reports (`request::report`), in this replica's file or the store.
//!
//! The path of one request, top to bottom:
//!
//! ```text
//! conn::accept::accept_loop    a connection, admitted by conn::conns / conn::limit, or closed
//!   conn::accept::handle_conn  PROXY header (conn::proxy), TLS handshake (conn::tls; a
//!                              failure is said once by conn::handshakes), conn::io's guard
//!   conn::accept::serve_conn   hyper reads the head (timeouts, 431); ends waited on by conn::woken
//!     request::respond         its facts and answer (request::message), the state (shared)
//!       request::handler       request::route (/healthz, /config/<pool>), request::classify
//!                              the token against state::live, the answer (request::refusals)
//!       request::respond       ready? gated (429 by conn::limit); answered at once, or later:
//!                              a machine token's claim (fetches), a report's body
//!     request::delivery        the body goes out; its last byte confirms the fetch
//!                              (fetches), a cut leaves the token unspent
//!   log                        the access line (request::access_line) and events, queued
//! ```
//!
//! Reliability promises, each kept by one part: a client that stops reading is cut off
//! ([`conn::io`]); logging never blocks a request ([`log`]); a bad file keeps only its own
//! part's last good state ([`state::live`]); the auth mode never follows the token count and
//! fails closed ([`state::live`], [`request::handler`]); guessing cannot lock out a valid token
//! ([`conn::limit`]), even behind a load balancer ([`conn::proxy`]); a bug in handling one
//! request costs that request a 500, not the connection (`request::respond`).

pub mod conn;
mod fetches;
pub mod log;
mod reports;
pub mod request;
pub mod state;

use crate::serve::log::event::Event;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, Result};
use hyper_util::rt::TokioTimer;
use tokio::net::TcpListener;
use tokio::signal::unix::{Signal, SignalKind, signal};
use tokio::sync::{Semaphore, watch};

use conn::limit::RateLimiter;
use conn::proxy::Cidr;
use log::Log;
use state::live::{Loader, State};

use crate::assets::AssetDir;
use crate::model::config::AuthMode;
use conn::accept::{ConnOpts, accept_all};
pub use log::banner::Banner;
use log::banner::banner;
use request::respond::{PANIC_LOG, install_panic_hook};
use state::reload::reload_loop;
use state::shared::Shared;

/// How to run the server.
#[derive(Debug, Clone)]
pub struct Options {
    /// The asset directory.
    pub dir: AssetDir,
    /// How much of the start-up banner to print (`-q`: its warnings and `ready`).
    pub banner: Banner,
    /// Where to answer `GET /metrics` (plain HTTP), if anywhere.
    pub metrics_listen: Option<SocketAddr>,
    /// This replica's ledger of machine-token fetches (its name is the replica's).
    pub ledger: std::path::PathBuf,
    /// The store replicas share (`--store`): machine tokens' fetches are claimed there.
    pub store: Option<crate::store::Options>,
    /// How long tokens are served from the last state the store published while it does not
    /// answer.
    pub store_grace: Duration,
    /// The lease this replica holds its claims under in the store (`--store-lease`).
    pub store_lease: Duration,
    /// Fetches of a machine token with limited uses that may be cut off before it is refused.
    pub max_partial_fetches: u32,
    /// The wall clock: expiry of tokens and certificates.
    pub clock: crate::clock::Clock,
    /// `--log-format`.
    pub log_format: crate::json_line::LogFormat,
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
    /// Load balancers whose connections start with a PROXY protocol header
    /// (`--proxy-protocol-from`; empty: `proxyProtocolFrom` of mcsctl.json, read at start).
    pub proxy_from: Vec<Cidr>,
}

/// Connections that may be closing at once after giving their place to a newcomer.
const EVICTION_SLACK: usize = 64;

/// Request heads larger than this are dropped by hyper without an answer.
const HARD_HEAD_LIMIT: usize = 256 * 1024;

/// Runs the server until SIGTERM or SIGINT; returns the exit code.
pub fn run(mut opts: Options) -> Result<u8> {
    install_panic_hook();
    if opts.proxy_from.is_empty()
        && let Some(c) = crate::model::config::load(&opts.dir)?
    {
        opts.proxy_from = c.proxy_protocol_from;
    }
    let metrics = if opts.metrics_listen.is_some() {
        log::scrape::MAX_CONNECTIONS
    } else {
        0
    };
    let (fit, too_many) = conn::fds::fit(
        opts.max_connections,
        EVICTION_SLACK,
        metrics,
        conn::fds::raise_limit(),
    );
    opts.max_connections = fit;
    opts.max_connections_per_client = opts.max_connections_per_client.min(fit);

    // Before any thread or allocation of a config.
    if !crate::heap::fix_thresholds() {
        ::log::debug!("the C heap's mmap threshold is left to the allocator");
    }
    // The control runtime: accept loops and connections run on the workers (workers.rs); this
    // one has reloads, signals, the store's client and the metrics listener.
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .context("starting the runtime")?;
    rt.block_on(serve(opts, too_many))
}

async fn serve(opts: Options, too_many: Option<String>) -> Result<u8> {
    let log = Log::start(opts.clock.clone(), opts.log_format);
    let _ = PANIC_LOG.set(log.clone());
    if let Some(why) = too_many {
        log.event(Event::OpenFileLimit, &why);
    }
    let provider = conn::tls::provider();
    settle(&opts.dir, &log);
    let loader = Arc::new(Loader::new(opts.dir.clone(), provider, opts.auth));
    // Taken before the load: a change that lands while loading is seen by the first poll.
    let loaded_from = loader.fingerprint();
    let (state, outcome) = loader.initial(opts.clock.now())?;
    let (tls_listener, plain_listener, metrics_listener) = listeners(&opts).await?;
    // Handlers go in before the banner says "ready": a signal that comes early must not fall
    // to the default action (SIGHUP would end the process).
    let term = signal(SignalKind::terminate()).context("installing the SIGTERM handler")?;
    let int = signal(SignalKind::interrupt()).context("installing the SIGINT handler")?;
    let hup = signal(SignalKind::hangup()).context("installing the SIGHUP handler")?;
    let (stop_tx, stop_rx) = watch::channel(false);
    let (shared, store) = start_shared(&opts, state, &log, &stop_rx).await?;
    // After the handlers: `serve --reload` finds this serve only once SIGHUP reloads it.
    let bound = tls_listener.local_addr().unwrap_or(opts.listen);
    let _pid = state::pidfile::PidFile::write(&opts.dir, bound)
        .map_err(|e| log.event(Event::PidFile, &format!("{e:#}: `mcsctl serve --reload` will not find this serve; SIGHUP still reloads it")))
        .ok();
    log.raw(opts.banner.shown(banner(
        &opts,
        &shared.current(),
        &outcome,
        &tls_listener,
        plain_listener.as_ref(),
        metrics_listener.as_ref(),
    )));
    say_at_start(&shared);
    // The logical limits are `conns`'; the semaphore is a hard cap on connection tasks, with
    // room for connections that are closing to make room for newcomers.
    let conns = conn::conns::Conns::new(opts.max_connections, opts.max_connections_per_client);
    let capacity = opts.max_connections + EVICTION_SLACK;
    let permits = Arc::new(Semaphore::new(capacity));
    let conn = Arc::new(conn_opts(&opts));

    let workers = conn::workers::Workers::start()?;
    let tasks = accept_all(
        (tls_listener, plain_listener),
        workers.handles(),
        (&shared, &conn),
        (permits.clone(), conns.clone()),
        &stop_rx,
    )
    .context("handing the listening sockets to the connection workers")?;
    if let Some((revision, s)) = store {
        let stop = stop_rx.clone();
        tokio::spawn(state::published::follow(shared.clone(), s, revision, stop));
    }
    if let Some(l) = metrics_listener {
        tokio::spawn(log::scrape::serve_metrics(
            l,
            shared.clone(),
            conns.clone(),
            stop_rx.clone(),
        ));
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
    reloader.abort();
    drain(&log, stop_tx, tasks, &permits, capacity, opts.drain_timeout).await;
    workers.stop().await;
    shared.fetches.close_store().await;
    stopped(&shared, &log);
    Ok(crate::exit::OK)
}

/// The state every connection shares, with the store (when there is one) connected, this
/// replica registered in it, and what it publishes read. Every ledger is read before the
/// banner says "ready" (a long one takes a moment).
async fn start_shared(
    opts: &Options,
    state: State,
    log: &Log,
    stop: &watch::Receiver<bool>,
) -> Result<(
    Arc<Shared>,
    Option<((i64, Option<String>), crate::store::Store)>,
)> {
    let store = connect_store(opts).await?;
    let mut shared = shared(opts, state, log, store.clone());
    shared
        .fetches
        .start_store(&opts.ledger, stop.clone())
        .await
        .map_err(anyhow::Error::msg)?;
    let shared = Arc::new(shared);
    // This directory's id in the store: a state another directory published is refused.
    let owner = crate::model::config::load(&opts.dir)
        .ok()
        .flatten()
        .and_then(|c| c.store)
        .map(|r| r.id);
    let store = match store {
        Some(s) => Some((
            (
                state::published::initial(&shared, &s, owner.as_deref()).await,
                owner,
            ),
            s,
        )),
        None => None,
    };
    Ok((shared, store))
}

/// What an admin must know at once: no live token; with machine tokens, a ledger that cannot
/// be written (it is opened now, and /healthz answers 503), not at the first machine's boot.
fn say_at_start(shared: &Shared) {
    let state = shared.current();
    if state.auth != AuthMode::None && state.tokens.live_at(shared.clock.now()) == 0 {
        shared.log.event(
            Event::NoLiveToken,
            "no live token in auth/tokens.json: every request for a full config gets 401 until `mcsctl token create` or `mcsctl token rotate`",
        );
    }
    if state.full.is_empty() && state.pre.is_empty() {
        shared.log.event(
            Event::NoPool,
            "no rendered/<pool>.ign: every config request gets 404 until `mcsctl render` writes one (serve picks it up at its next reload)",
        );
    }
    let tokens = state.tokens.clone();
    if tokens.machines
        && let Some(why) = shared.fetches.unready(&tokens)
    {
        shared.log.event(
            Event::NotReady,
            &format!("machine tokens are refused (503) and /healthz answers 503: {why}"),
        );
    }
}

/// After the last connection: the ledger (what the last responses confirmed, every record) and
/// the log go out.
fn stopped(shared: &Shared, log: &Log) {
    match shared.fetches.flush(shared.clock.now()) {
        Err(e) => log.event(Event::LedgerFailed, &e),
        Ok(Some(repaired)) => log.event(Event::LedgerRepaired, &repaired),
        Ok(None) => {}
    }
    log.event(Event::Shutdown, "stopped");
    log.flush(Duration::from_secs(2));
}

/// The store replicas share, when `--store` names one (reached lazily: a member down now is
/// tried again at each request).
async fn connect_store(opts: &Options) -> Result<Option<crate::store::Store>> {
    let Some(o) = &opts.store else {
        return Ok(None);
    };
    let cluster = crate::model::config::require(&opts.dir)?.cluster_domain();
    crate::store::Store::connect(o, &cluster).await.map(Some)
}

/// What every connection shares: the state, the limits, the log, the ledger, the metrics.
fn shared(opts: &Options, state: State, log: &Log, store: Option<crate::store::Store>) -> Shared {
    let directory = std::sync::Mutex::new(Some(state.tokens.clone()));
    let replica = crate::ledger::replica_of(&opts.ledger);
    let reports = reports::Reports::new(&opts.dir, &replica, store.clone());
    Shared {
        max_header_bytes: opts.max_header_bytes,
        state: state::current::Current::new(state),
        limiter: RateLimiter::new(opts.max_failures, Duration::from_secs(60), opts.block_for),
        log: log.clone(),
        handshakes: conn::handshakes::Handshakes::default(),
        clock: opts.clock.clone(),
        fetches: open_ledger(opts, log, store),
        reports,
        report_limiter: RateLimiter::new(
            request::report::PER_MINUTE,
            Duration::from_secs(60),
            Duration::from_secs(60),
        ),
        dir: opts.dir.clone(),
        replica,
        metrics: log::metrics::Metrics::default(),
        token_events: log::repeats::Repeats::default(),
        published: std::sync::Mutex::default(),
        directory,
        diverged: std::sync::Mutex::default(),
    }
}

/// Completes a change a killed command committed, before anything is read (a read-only
/// mount has no journal; if completing fails, the per-part reload keeps what it can).
fn settle(dir: &AssetDir, log: &Log) {
    match dir.settle() {
        Ok(Some(c)) => log.event(Event::Recovery, &format!("completed an interrupted `{c}`")),
        Ok(None) => {}
        Err(e) => log.event(Event::RecoveryFailed, &format!("{e:#}")),
    }
}

/// This replica's ledger, and the fetches every ledger of the directory holds.
fn open_ledger(opts: &Options, log: &Log, store: Option<crate::store::Store>) -> fetches::Fetches {
    let rules = fetches::Rules {
        max_partial: opts.max_partial_fetches,
        settle: opts.connection_deadline + opts.write_timeout,
    };
    let store = store.map(|s| {
        let replica = crate::ledger::replica_of(&opts.ledger);
        let grace = opts.store_grace;
        let times = (grace, opts.store_lease);
        fetches::StoreFetches::new(s, replica, rules, times, opts.clock.clone(), log.clone())
    });
    let f = fetches::Fetches::open(&opts.dir, &opts.ledger, rules, opts.clock.now(), store);
    if let Some(p) = f.problem() {
        log.event(
            Event::LedgerFailed,
            &format!(
                "{p}: machine tokens are refused (503) until serve restarts with a readable ledger"
            ),
        );
    }
    f
}

/// The TLS listener and, with --insecure-listen, the plain one; with --metrics-listen, the
/// metrics one.
async fn listeners(
    opts: &Options,
) -> Result<(TcpListener, Option<TcpListener>, Option<TcpListener>)> {
    let tls_listener = TcpListener::bind(opts.listen)
        .await
        .with_context(|| format!("listening on {}", opts.listen))?;
    let mut more = Vec::new();
    for (a, what) in [
        (opts.insecure_listen, ""),
        (opts.metrics_listen, " for metrics"),
    ] {
        more.push(match a {
            Some(a) => Some(
                TcpListener::bind(a)
                    .await
                    .with_context(|| format!("listening on {a}{what}"))?,
            ),
            None => None,
        });
    }
    let metrics = more.pop().flatten();
    let plain = more.pop().flatten();
    Ok((tls_listener, plain, metrics))
}

/// hyper's connection settings and the per-connection limits.
fn conn_opts(opts: &Options) -> ConnOpts {
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(opts.header_timeout)
        // hyper's own limit is a hard stop that closes the connection (the client, still
        // sending, often sees a reset instead of the 431); it sits well above ours so that
        // respond() can answer a clean 431 for heads between the two.
        .max_buf_size(HARD_HEAD_LIMIT.max(opts.max_header_bytes * 2))
        .keep_alive(true);
    ConnOpts {
        http,
        handshake_timeout: opts.handshake_timeout,
        write_timeout: opts.write_timeout,
        min_send_rate: opts.min_send_rate,
        connection_deadline: opts.connection_deadline,
        proxy_from: opts.proxy_from.clone(),
        max_connections: opts.max_connections,
        max_per_client: opts.max_connections_per_client,
    }
}

/// Stops accepting, then waits (at most `timeout`) for the connections to end: every one
/// holds a permit until it ends, so all `capacity` permits back means all drained.
async fn drain(
    log: &Log,
    stop_tx: watch::Sender<bool>,
    tasks: Vec<tokio::task::JoinHandle<()>>,
    permits: &Semaphore,
    capacity: usize,
    timeout: Duration,
) {
    log.event(
        Event::Shutdown,
        "stopping: no new connections; draining in-flight requests",
    );
    let _ = stop_tx.send(true);
    for t in tasks {
        let _ = t.await;
    }
    // Every connection holds a permit until it ends: all permits back means all drained.
    let all = u32::try_from(capacity).unwrap_or(u32::MAX);
    if tokio::time::timeout(timeout, permits.acquire_many(all))
        .await
        .is_err()
    {
        log.event(
            Event::Shutdown,
            &format!(
                "drain timeout ({}s) reached; closing the remaining connections",
                timeout.as_secs()
            ),
        );
    }
}

/// Stops on SIGTERM or SIGINT.
async fn wait_for_stop(mut term: Signal, mut int: Signal) {
    tokio::select! {
        _ = term.recv() => {}
        _ = int.recv() => {}
    }
}
