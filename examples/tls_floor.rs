//! The TLS floor of bench/serve.sh: the least a server built on serve's TLS library can do for
//! each of its requests. rustls with aws-lc-rs, configured as serve configures it (TLS 1.3 and
//! 1.2, serve's suite order, a session cache and one ticket per handshake), on one mio event
//! loop per core over the same listening socket (serve's worker model), answering every request
//! (each blank line ending a header block) with a canned response found by its path: no HTTP
//! parsing beyond the request line, no auth, no log, no async runtime. A request carrying
//! `Connection: close` gets its response, a close_notify and the connection closed, as serve
//! closes it.
//!
//! What this costs per request, next to bench/floor.c (the same without TLS) and nginx, says
//! how much of serve's cost is TLS and the kernel, which no server on this library escapes, and
//! how much is everything above them.
//!
//! usage: tls_floor PORT CERT-PEM KEY-PEM DOCROOT
//! (`/config/NAME` answers DOCROOT/NAME.ign; cargo build --release --example tls_floor)

use std::collections::HashMap;
use std::io::{self, Read, Write};
use std::sync::Arc;

use mio::net::{TcpListener, TcpStream};
use mio::{Events, Interest, Poll, Token};

#[path = "floor/setup.rs"]
mod setup;

const LISTENER: Token = Token(usize::MAX);

fn main() {
    let args = setup::args("tls_floor");
    let listener = setup::listen("tls_floor", args.port);
    let config = Arc::new(args.tls);
    let responses = Arc::new(Responses::of(args.files));
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let threads: Vec<_> = (0..cores)
        .map(|_| {
            let listener = listener.try_clone().expect("a listening socket's copy");
            let (config, responses) = (config.clone(), responses.clone());
            std::thread::spawn(move || worker(listener, config, responses))
        })
        .collect();
    println!("ready");
    for t in threads {
        let _ = t.join();
    }
}

/// The request line's start (method, path and a space) and the whole response to it.
struct Responses(Vec<(Vec<u8>, Vec<u8>)>);

impl Responses {
    /// `GET /config/NAME` answered with NAME's bytes.
    fn of(files: Vec<(String, Vec<u8>)>) -> Responses {
        let each = files.into_iter().map(|(name, body)| {
            let mut response = format!(
                "HTTP/1.1 200 OK\r\ncontent-type: application/vnd.coreos.ignition+json;version=3.3.0\r\ncontent-length: {}\r\n\r\n",
                body.len()
            )
            .into_bytes();
            response.extend_from_slice(&body);
            (format!("GET /config/{name} ").into_bytes(), response)
        });
        Responses(each.collect())
    }

    fn to(&self, head: &[u8]) -> &[u8] {
        self.0
            .iter()
            .find(|(line, _)| head.starts_with(line))
            .map_or(NOT_FOUND, |(_, response)| response)
    }
}

const NOT_FOUND: &[u8] = b"HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\n\r\n";

struct Conn {
    sock: TcpStream,
    tls: rustls::ServerConnection,
    /// The last bytes of the previous plaintext read, so a blank line split across reads counts.
    tail: u32,
    /// The head being read so far (its first 8 KiB), its header names in lower case.
    head: Vec<u8>,
    closing: bool,
    writable: bool,
}

fn worker(
    listener: std::net::TcpListener,
    config: Arc<rustls::ServerConfig>,
    responses: Arc<Responses>,
) {
    let mut poll = Poll::new().expect("an epoll instance");
    let mut listener = TcpListener::from_std(listener);
    poll.registry()
        .register(&mut listener, LISTENER, Interest::READABLE)
        .expect("the listening socket in epoll");
    let mut conns: HashMap<usize, Conn> = HashMap::new();
    let mut next = 0usize;
    let mut events = Events::with_capacity(256);
    loop {
        if poll.poll(&mut events, None).is_err() {
            continue;
        }
        for event in events.iter() {
            if event.token() == LISTENER {
                while let Ok((mut sock, _)) = listener.accept() {
                    let _ = sock.set_nodelay(true);
                    next = next.wrapping_add(1);
                    if poll
                        .registry()
                        .register(&mut sock, Token(next), Interest::READABLE)
                        .is_err()
                    {
                        continue;
                    }
                    let mut tls =
                        rustls::ServerConnection::new(config.clone()).expect("a TLS connection");
                    // A whole response is sealed at once and left to drain: the least work,
                    // paid for in memory (serve streams a large body under a bound instead).
                    tls.set_buffer_limit(None);
                    let conn = Conn {
                        sock,
                        tls,
                        tail: 0,
                        head: Vec::new(),
                        closing: false,
                        writable: false,
                    };
                    conns.insert(next, conn);
                }
                continue;
            }
            let key = event.token().0;
            let Some(conn) = conns.get_mut(&key) else {
                continue;
            };
            if turn(conn, &responses) {
                let mut conn = conns.remove(&key).expect("the connection just served");
                let _ = poll.registry().deregister(&mut conn.sock);
                continue;
            }
            // Ask for writability only while TLS records wait for a full socket buffer.
            let want = conn.tls.wants_write();
            if want != conn.writable {
                conn.writable = want;
                let interest = if want {
                    Interest::READABLE | Interest::WRITABLE
                } else {
                    Interest::READABLE
                };
                let _ = poll
                    .registry()
                    .reregister(&mut conn.sock, Token(key), interest);
            }
        }
    }
}

/// Reads what the socket has, answers every request it completes and writes what TLS has to
/// send. True when the connection is done with.
fn turn(conn: &mut Conn, responses: &Responses) -> bool {
    let mut wire = [0u8; 16 * 1024];
    loop {
        let n = match conn.sock.read(&mut wire) {
            Ok(0) => return true,
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => break,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(_) => return true,
        };
        let mut fed = &wire[..n];
        while !fed.is_empty() {
            if conn.tls.read_tls(&mut fed).is_err() || conn.tls.process_new_packets().is_err() {
                let _ = conn.tls.write_tls(&mut conn.sock);
                return true;
            }
            if answer(conn, responses) {
                conn.tls.send_close_notify();
                conn.closing = true;
            }
        }
        // Edge-triggered: a read shorter than the buffer emptied the socket (as tokio assumes).
        if n < wire.len() {
            break;
        }
    }
    while conn.tls.wants_write() {
        match conn.tls.write_tls(&mut conn.sock) {
            Ok(_) => {}
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => break,
            Err(_) => return true,
        }
    }
    conn.closing && !conn.tls.wants_write()
}

/// Answers each request the plaintext completes; true when one asked for `Connection: close`.
fn answer(conn: &mut Conn, responses: &Responses) -> bool {
    let mut plain = [0u8; 16 * 1024];
    let mut close = false;
    loop {
        let n = match conn.tls.reader().read(&mut plain) {
            Ok(0) | Err(_) => return close,
            Ok(n) => n,
        };
        for &b in &plain[..n] {
            conn.tail = (conn.tail << 8) | u32::from(b);
            if conn.head.len() < 8192 {
                conn.head.push(b);
            }
            if conn.tail == 0x0d0a_0d0a {
                let _ = conn.tls.writer().write_all(responses.to(&conn.head));
                conn.head.make_ascii_lowercase();
                if contains(&conn.head, b"connection: close") {
                    close = true;
                }
                conn.head.clear();
            }
        }
    }
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}
