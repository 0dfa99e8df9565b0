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
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() != 5 {
        eprintln!("usage: hyper_floor PORT CERT-PEM KEY-PEM DOCROOT");
        std::process::exit(2);
    }
    let port: u16 = args[1].parse().expect("PORT");
    let acceptor = tokio_rustls::TlsAcceptor::from(Arc::new(server_config(&args[2], &args[3])));
    let bodies = Arc::new(bodies(&args[4]));
    let listener = std::net::TcpListener::bind(("127.0.0.1", port)).expect("bind");
    listener.set_nonblocking(true).expect("nonblocking");
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let threads: Vec<_> = (0..cores)
        .map(|_| {
            let listener = listener.try_clone().expect("dup");
            let (acceptor, bodies) = (acceptor.clone(), bodies.clone());
            std::thread::spawn(move || {
                let rt = tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                    .expect("runtime");
                rt.block_on(worker(listener, acceptor, bodies));
            })
        })
        .collect();
    println!("ready");
    for t in threads {
        let _ = t.join();
    }
}

/// Each `DOCROOT/NAME.ign` as the body for `/config/NAME`.
fn bodies(docroot: &str) -> HashMap<String, Bytes> {
    let mut found = HashMap::new();
    for entry in std::fs::read_dir(docroot).expect("DOCROOT") {
        let path = entry.expect("DOCROOT").path();
        let (Some(name), Some("ign")) = (
            path.file_stem().and_then(|s| s.to_str()),
            path.extension().and_then(|s| s.to_str()),
        ) else {
            continue;
        };
        let body = std::fs::read(&path).expect("a file in DOCROOT");
        found.insert(format!("/config/{name}"), Bytes::from(body));
    }
    found
}

/// serve's configuration (src/serve/tls.rs), less what only a reload needs.
fn server_config(cert: &str, key: &str) -> rustls::ServerConfig {
    let chain = CertificateDer::pem_file_iter(cert)
        .expect("CERT-PEM")
        .collect::<Result<Vec<_>, _>>()
        .expect("CERT-PEM");
    let key = PrivateKeyDer::from_pem_file(key).expect("KEY-PEM");
    let provider = Arc::new(rustls::crypto::aws_lc_rs::default_provider());
    let mut tls = rustls::ServerConfig::builder_with_provider(provider)
        .with_protocol_versions(&[&rustls::version::TLS13, &rustls::version::TLS12])
        .expect("versions")
        .with_no_client_auth()
        .with_single_cert(chain, key)
        .expect("certificate and key");
    tls.alpn_protocols = vec![b"http/1.1".to_vec()];
    tls.ignore_client_order = true;
    tls.session_storage = rustls::server::ServerSessionMemoryCache::new(4096);
    tls.ticketer = rustls::crypto::aws_lc_rs::Ticketer::new().expect("ticketer");
    tls.send_tls13_tickets = 1;
    tls
}

async fn worker(
    listener: std::net::TcpListener,
    acceptor: tokio_rustls::TlsAcceptor,
    bodies: Arc<HashMap<String, Bytes>>,
) {
    let listener = tokio::net::TcpListener::from_std(listener).expect("listener");
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
