//! The stack floor of bench/serve.sh: the least a server built on serve's stack can do for each
//! of its requests. tokio-rustls (configured as serve configures rustls) and hyper's HTTP/1
//! server with the header timeout serve sets, on serve's worker model (one current-thread tokio
//! runtime per core, each accepting from the same listening socket), answering every request
//! with a canned body found by its path: no auth, no content negotiation, no log, no limits.
//!
//! Next to examples/tls_floor.rs (rustls on a bare event loop) it shows what the async runtime
//! and the HTTP library cost per request, and next to serve what serve's own work costs.
//!
//! usage: hyper_floor PORT CERT-PEM KEY-PEM DOCROOT
//! (`/config/NAME` answers DOCROOT/NAME.ign; cargo build --release --example hyper_floor)

use std::collections::HashMap;
use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use http_body_util::Full;
use hyper::service::service_fn;
use hyper_util::rt::{TokioIo, TokioTimer};

#[path = "floor/setup.rs"]
mod setup;

fn main() {
    let args = setup::args("hyper_floor");
    let listener = setup::listen("hyper_floor", args.port);
    let acceptor = tokio_rustls::TlsAcceptor::from(Arc::new(args.tls));
    let bodies: HashMap<String, Bytes> = args
        .files
        .into_iter()
        .map(|(name, body)| (format!("/config/{name}"), Bytes::from(body)))
        .collect();
    let bodies = Arc::new(bodies);
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let threads: Vec<_> = (0..cores)
        .map(|_| {
            let listener = listener.try_clone().expect("a listening socket's copy");
            let (acceptor, bodies) = (acceptor.clone(), bodies.clone());
            std::thread::spawn(move || {
                let rt = tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                    .expect("a tokio runtime");
                rt.block_on(worker(listener, acceptor, bodies));
            })
        })
        .collect();
    println!("ready");
    for t in threads {
        let _ = t.join();
    }
}

async fn worker(
    listener: std::net::TcpListener,
    acceptor: tokio_rustls::TlsAcceptor,
    bodies: Arc<HashMap<String, Bytes>>,
) {
    let listener = tokio::net::TcpListener::from_std(listener).expect("the listening socket");
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(Duration::from_secs(10))
        .keep_alive(true);
    let http = Arc::new(http);
    loop {
        let Ok((sock, _)) = listener.accept().await else {
            continue;
        };
        let _ = sock.set_nodelay(true);
        let (acceptor, bodies, http) = (acceptor.clone(), bodies.clone(), http.clone());
        tokio::spawn(async move {
            let Ok(tls) = acceptor.accept(sock).await else {
                return;
            };
            let svc = service_fn(move |req: hyper::Request<hyper::body::Incoming>| {
                let body = bodies.get(req.uri().path()).cloned();
                async move {
                    let response = match body {
                        Some(body) => hyper::Response::builder()
                            .header(
                                "content-type",
                                "application/vnd.coreos.ignition+json;version=3.3.0",
                            )
                            .body(Full::new(body)),
                        None => hyper::Response::builder()
                            .status(404)
                            .body(Full::new(Bytes::new())),
                    };
                    Ok::<_, Infallible>(response.expect("response"))
                }
            });
            let _ = http.serve_connection(TokioIo::new(tls), svc).await;
        });
    }
}
