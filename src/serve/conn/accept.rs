//! Connections: the accept loop (fairness caps, eviction), then per connection the PROXY
//! header from a listed balancer, the TLS handshake (failures counted per client and reason),
//! and HTTP/1.1 with guarded writes and a bounded life.

use crate::serve::log::event::Event;
use std::collections::HashMap;
use std::convert::Infallible;
use std::future::Future;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::Poll;
use std::time::{Duration, Instant};

use hyper::service::service_fn;
use hyper_util::rt::TokioIo;
use tokio::net::{TcpListener, TcpStream};
use tokio::runtime::Handle;
use tokio::sync::{Semaphore, futures::Notified, watch};

use crate::serve::conn::conns;
use crate::serve::conn::handshakes;
use crate::serve::conn::io;
use crate::serve::conn::limit;
use crate::serve::conn::peer::Peer;
use crate::serve::conn::proxy::{self, Cidr};
use crate::serve::conn::woken::Woken;
use crate::serve::request::classify::Memo;
use crate::serve::request::delivery::{Body, Confirming, Delivery};
use crate::serve::request::respond::{Answer, ConnCtx, respond};
use crate::serve::state::shared::Shared;

/// What every connection is served with.
pub(in crate::serve) struct ConnOpts {
    pub http: hyper::server::conn::http1::Builder,
    pub handshake_timeout: Duration,
    pub write_timeout: Duration,
    pub min_send_rate: u64,
    pub connection_deadline: Duration,
    pub proxy_from: Vec<Cidr>,
    pub max_connections: usize,
    pub max_per_client: usize,
}

/// Which listener a connection came in on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Listener {
    /// `--listen`: TLS.
    Tls,
    /// `--insecure-listen`: plain HTTP, as the MCS once served on 22624.
    Plain,
}

/// Starts the accept loops: on every worker, one for the TLS listener and one for the plain
/// one, if any. Each worker accepts from the same sockets (a duplicate of the descriptor
/// registered with its own runtime) and serves what it accepted; a refusal is logged at most
/// every 10 s per kind whichever worker meets it.
pub(in crate::serve) fn accept_all(
    (tls, plain): (TcpListener, Option<TcpListener>),
    workers: &[Handle],
    (shared, conn): (&Arc<Shared>, &Arc<ConnOpts>),
    limits: (Arc<Semaphore>, Arc<conns::Conns>),
    stop: &watch::Receiver<bool>,
) -> std::io::Result<Vec<tokio::task::JoinHandle<()>>> {
    let said = Arc::new(Said::default());
    let mut tasks = Vec::new();
    let listeners = [(Some(tls), Listener::Tls), (plain, Listener::Plain)];
    for (l, kind) in listeners.into_iter().filter_map(|(l, k)| Some((l?, k))) {
        let l = l.into_std()?;
        for w in workers {
            let l = l.try_clone()?;
            let (shared, conn, limits) = (shared.clone(), conn.clone(), limits.clone());
            let (said, stop) = (said.clone(), stop.clone());
            tasks.push(w.spawn(async move {
                match TcpListener::from_std(l) {
                    Ok(l) => accept_loop(l, kind, shared, conn, limits, said, stop).await,
                    Err(e) => shared.log.event(
                        Event::AcceptError,
                        &format!("a worker cannot accept connections: {e}"),
                    ),
                }
            }));
        }
    }
    Ok(tasks)
}

/// When each kind of refusal was last logged.
#[derive(Default)]
struct Said(Mutex<HashMap<Event, Instant>>);

impl Said {
    /// Logs `msg` unless its kind was logged less than 10 s ago.
    fn say(&self, log: &crate::serve::log::Log, kind: Event, msg: String) {
        let mut said = self.0.lock().unwrap_or_else(|p| p.into_inner());
        if said
            .get(&kind)
            .is_none_or(|t| t.elapsed() > Duration::from_secs(10))
        {
            log.event(kind, &msg);
            said.insert(kind, Instant::now());
        }
    }
}

async fn accept_loop(
    listener: TcpListener,
    on: Listener,
    shared: Arc<Shared>,
    conn: Arc<ConnOpts>,
    (permits, conns): (Arc<Semaphore>, Arc<conns::Conns>),
    said: Arc<Said>,
    mut stop: watch::Receiver<bool>,
) {
    let mut say = |kind: Event, msg: String| said.say(&shared.log, kind, msg);
    loop {
        let accepted = tokio::select! {
            r = listener.accept() => r,
            _ = stop.changed() => return,
        };
        let (tcp, peer) = match accepted {
            Ok(x) => x,
            Err(e) => {
                // EMFILE and friends: said once per 10 s, backed off from rather than spun on.
                say(Event::AcceptError, format!("{e}: backing off"));
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        let balancer = conn.proxy_from.iter().any(|c| c.contains(peer.ip()));
        let Some(slot) = admit(&conns, &conn, peer, balancer, &mut say) else {
            continue;
        };
        let Ok(permit) = permits.clone().try_acquire_owned() else {
            say(
                Event::ConnectionLimit,
                format!("too many connections closing; closing new connections (e.g. from {peer})"),
            );
            continue;
        };
        let _ = tcp.set_nodelay(true);
        let _ = socket2::SockRef::from(&tcp).set_send_buffer_size(io::SEND_BUFFER);
        let shared = shared.clone();
        let conn = conn.clone();
        let w = stop.clone();
        // On this worker: the connection stays on the thread that accepted it.
        tokio::spawn(async move {
            let _permit = permit;
            // Boxed: a task's future is moved by value into the task, and this one holds the
            // connection's TLS and HTTP state (about 5 KB, copied for every connection).
            Box::pin(handle_conn(tcp, peer, on, shared, conn, w, Arc::new(slot))).await;
        });
    }
}

/// Admits a connection within the limits (closing an idle one of the client holding the
/// most when all are taken), or says why not.
fn admit(
    conns: &Arc<conns::Conns>,
    conn: &ConnOpts,
    peer: std::net::SocketAddr,
    balancer: bool,
    say: &mut impl FnMut(Event, String),
) -> Option<conns::Slot> {
    match conns.admit(peer.ip(), balancer) {
        Ok((slot, evicted)) => {
            if let Some(from) = evicted {
                say(
                    Event::ConnectionEvicted,
                    format!(
                        "all {} connections taken: closed an idle one of {from}, the client holding the most, to let {peer} in",
                        conn.max_connections
                    ),
                );
            }
            Some(slot)
        }
        Err(conns::Refused::Client) => {
            say(
                Event::ConnectionLimitClient,
                format!(
                    "{} already holds {} connections (--max-connections-per-client); closing its new ones",
                    limit::client_key(peer.ip()),
                    conn.max_per_client
                ),
            );
            None
        }
        Err(conns::Refused::Full) => {
            say(
                Event::ConnectionLimit,
                format!(
                    "all {} connections taken and none idle; closing new connections (e.g. from {peer})",
                    conn.max_connections
                ),
            );
            None
        }
    }
}

/// One connection: the PROXY header from a listed balancer, the TLS handshake, then HTTP/1.1
/// with writes guarded and the connection's life bounded.
async fn handle_conn(
    mut tcp: TcpStream,
    peer: SocketAddr,
    on: Listener,
    shared: Arc<Shared>,
    conn: Arc<ConnOpts>,
    stop: watch::Receiver<bool>,
    slot: Arc<conns::Slot>,
) {
    // One wait for eviction for the connection's whole life (`notify_one` wakes the oldest
    // waiter): before and during the handshake it drops the connection, once HTTP is served it
    // closes it gracefully.
    let evict = slot.evict.clone();
    let evicted = evict.notified();
    tokio::pin!(evicted);
    let mut client = peer;
    let mut via = None;
    if conn.proxy_from.iter().any(|c| c.contains(peer.ip())) {
        let header = proxy::read_header(&mut tcp, conn.handshake_timeout);
        let Some(header) = unless_evicted(evicted.as_mut(), header).await else {
            return;
        };
        match header {
            Ok(Some(real)) => {
                client = real;
                via = Some(peer);
                if slot.rekey(real.ip()).is_err() {
                    shared.log.event(
                        Event::ConnectionLimitClient,
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
                    Event::ProxyRefused,
                    &format!("closing a connection from balancer {peer}: {e}"),
                );
                return;
            }
        }
    }
    let guarded = io::WriteGuard::new(tcp, conn.write_timeout, conn.min_send_rate);
    let abort = guarded.abort_flag();
    let peer = Peer::new(client, via);
    if on == Listener::Tls {
        let cfg = shared.here().tls.config.clone();
        let acceptor = tokio_rustls::TlsAcceptor::from(cfg);
        let handshake = tokio::time::timeout(conn.handshake_timeout, acceptor.accept(guarded));
        let Some(handshake) = unless_evicted(evicted.as_mut(), handshake).await else {
            return;
        };
        let stream = match handshake {
            Ok(Ok(stream)) => stream,
            Ok(Err(e)) => return handshake_failed(&shared, client, handshakes::Reason::of(&e)),
            Err(_) => return handshake_failed(&shared, client, Some(handshakes::Reason::Timeout)),
        };
        let io = TokioIo::new(stream);
        serve_conn(io, peer, shared, conn, (stop, evicted), abort, slot).await;
    } else {
        let io = TokioIo::new(guarded);
        serve_conn(io, peer, shared, conn, (stop, evicted), abort, slot).await;
    }
}

/// Counts a failed handshake by its reason (`None`: one not counted, such as a client that
/// closed before saying anything) and logs it, at most once a while per client.
fn handshake_failed(shared: &Shared, client: SocketAddr, reason: Option<handshakes::Reason>) {
    let Some(r) = reason else { return };
    shared.metrics.handshake_failed(&r);
    let at = handshakes::clock_time(shared.clock.now());
    if let Some(line) = shared
        .handshakes
        .record(client.ip(), r, Instant::now(), &at)
    {
        shared.log.event(Event::HandshakeFailed, &line);
    }
}

/// `f`'s output, or `None` when the connection is evicted first.
async fn unless_evicted<T>(
    evicted: Pin<&mut Notified<'_>>,
    f: impl Future<Output = T>,
) -> Option<T> {
    tokio::select! {
        r = f => Some(r),
        _ = evicted => None,
    }
}

/// A request of a connection, answered by `respond`; the connection's slot is busy until the
/// answer is known (as hyper then writes it): at once, or when what it waited on is done.
fn answer(
    ctx: &Arc<ConnCtx>,
    slot: &Arc<conns::Slot>,
    peer: Peer,
    req: hyper::Request<hyper::body::Incoming>,
) -> impl Future<Output = Result<hyper::Response<Body>, Infallible>> + use<> {
    slot.busy(true);
    let answer = respond(ctx, peer, req);
    let waiting = match answer {
        Answer::Now(_) => {
            slot.busy(false);
            None
        }
        Answer::Later(_) => Some(slot.clone()),
    };
    async move {
        let r = match answer {
            Answer::Now(r) => r,
            Answer::Later(f) => f.await,
        };
        if let Some(slot) = waiting {
            slot.busy(false);
        }
        Ok(r)
    }
}

async fn serve_conn<I>(
    io: I,
    peer: Peer,
    shared: Arc<Shared>,
    conn: Arc<ConnOpts>,
    (mut stop, evicted): (watch::Receiver<bool>, Pin<&mut Notified<'_>>),
    abort: io::AbortFlag,
    slot: Arc<conns::Slot>,
) where
    I: hyper::rt::Read + hyper::rt::Write + Unpin + Send + 'static,
{
    let delivery = Delivery::new(shared.clone());
    let io = Confirming {
        inner: io,
        delivery: delivery.clone(),
    };
    let ctx = Arc::new(ConnCtx {
        shared: shared.clone(),
        delivery,
        memo: Memo::default(),
        line: Default::default(),
    });
    let svc = service_fn(move |req| answer(&ctx, &slot, peer, req));
    let c = conn.http.serve_connection(io, svc);
    tokio::pin!(c);
    let deadline = tokio::time::sleep(conn.connection_deadline);
    // The connection's rare ends, polled only when one of them woke (see `Woken`).
    let mut ends = Woken::new(async move {
        tokio::select! {
            _ = stop.changed() => End::Stop,
            _ = evicted => End::Evicted,
            _ = deadline => End::Deadline,
        }
    });
    let ended = std::future::poll_fn(|cx| match c.as_mut().poll(cx) {
        Poll::Ready(r) => Poll::Ready(End::Served(r)),
        Poll::Pending => Pin::new(&mut ends).poll(cx),
    })
    .await;
    let result = match ended {
        End::Served(r) => r,
        End::Stop => {
            // Finish the request in flight (if any), then close.
            c.as_mut().graceful_shutdown();
            c.await
        }
        End::Evicted => {
            // Idle: closes at once (a response still being written gets the write timeout).
            c.as_mut().graceful_shutdown();
            match tokio::time::timeout(conn.write_timeout, c).await {
                Ok(r) => r,
                Err(_) => return,
            }
        }
        End::Deadline => {
            // The response in flight gets the write timeout to finish, not longer: a slow
            // reader does not outlive the deadline.
            c.as_mut().graceful_shutdown();
            match tokio::time::timeout(conn.write_timeout, c).await {
                Ok(r) => r,
                Err(_) => {
                    abort.store(true, std::sync::atomic::Ordering::Relaxed);
                    shared.log.event(
                        Event::ConnectionDeadline,
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
        log_cut(&shared, &e, peer, &conn);
    }
}

/// How a connection's serving ended.
enum End {
    /// hyper finished it (the client closed it, or an error).
    Served(hyper::Result<()>),
    /// serve is stopping.
    Stop,
    /// The connection was idle when a new one needed its place.
    Evicted,
    /// `--connection-deadline` passed.
    Deadline,
}

/// Logs a connection the write guards cut: a client that stopped reading, or read too slowly.
fn log_cut(shared: &Shared, e: &hyper::Error, peer: Peer, conn: &ConnOpts) {
    match io::Cut::of(e) {
        Some(io::Cut::Stalled) => shared.log.event(
            Event::WriteTimeout,
            &format!(
                "closed the connection from {}: it stopped reading",
                peer.client
            ),
        ),
        Some(io::Cut::TooSlow) => shared.log.event(
            Event::SlowClient,
            &format!(
                "closed the connection from {}: it read slower than --min-send-rate ({}/s)",
                peer.client,
                crate::size::human(conn.min_send_rate)
            ),
        ),
        None => {}
    }
}
