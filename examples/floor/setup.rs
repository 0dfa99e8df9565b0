//! What bench/serve.sh's two Rust floors share: their arguments, serve's TLS configuration and
//! the files they answer with. (A directory of its own: Cargo takes every `examples/*.rs` for
//! an example.)

use std::fmt::Display;

use rustls::pki_types::CertificateDer;

/// `PORT CERT-PEM KEY-PEM DOCROOT`, read.
pub struct Args {
    pub port: u16,
    pub tls: rustls::ServerConfig,
    /// Each `DOCROOT/NAME.ign` as NAME and its bytes.
    pub files: Vec<(String, Vec<u8>)>,
}

/// The command line of the floor called `name`; a usage line or the problem and exit 2 when it
/// cannot be used.
pub fn args(name: &str) -> Args {
    let a: Vec<String> = std::env::args().collect();
    if a.len() != 5 {
        fail(name, format!("usage: {name} PORT CERT-PEM KEY-PEM DOCROOT"));
    }
    let port = a[1]
        .parse()
        .unwrap_or_else(|_| fail(name, format!("PORT {:?} is not a port number", a[1])));
    let tls = server_config(&a[2], &a[3]).unwrap_or_else(|e| fail(name, e));
    let files = files(&a[4]).unwrap_or_else(|e| fail(name, e));
    if files.is_empty() {
        fail(name, format!("{}: no .ign file to serve", a[4]));
    }
    Args { port, tls, files }
}

/// The listening socket, non-blocking, on loopback.
pub fn listen(name: &str, port: u16) -> std::net::TcpListener {
    let l = std::net::TcpListener::bind(("127.0.0.1", port))
        .unwrap_or_else(|e| fail(name, format!("127.0.0.1:{port}: {e}")));
    l.set_nonblocking(true)
        .unwrap_or_else(|e| fail(name, format!("127.0.0.1:{port}: {e}")));
    l
}

pub fn fail(name: &str, msg: impl Display) -> ! {
    eprintln!("{name}: {msg}");
    std::process::exit(2)
}

/// serve's own configuration (`mcsctl::serve::conn::tls::server_config`, with serve's provider and
/// its suite order) of the pair, read by mcsctl's PEM reader.
fn server_config(cert: &str, key: &str) -> Result<rustls::ServerConfig, String> {
    let read = |path: &str| std::fs::read(path).map_err(|e| format!("{path}: {e}"));
    let chain = mcsctl::pki::cert_ders(&read(cert)?, cert)
        .map_err(|e| format!("{e:#}"))?
        .into_iter()
        .map(CertificateDer::from)
        .collect();
    let key_der = mcsctl::pki::private_key_der(&read(key)?, key).map_err(|e| format!("{e:#}"))?;
    let provider = mcsctl::serve::conn::tls::provider();
    mcsctl::serve::conn::tls::server_config(&provider, chain, key_der, &format!("{cert} and {key}"))
        .map_err(|e| format!("{e:#}"))
}

/// Each `DOCROOT/NAME.ign` as NAME and its bytes.
fn files(docroot: &str) -> Result<Vec<(String, Vec<u8>)>, String> {
    let mut found = Vec::new();
    let entries = std::fs::read_dir(docroot).map_err(|e| format!("{docroot}: {e}"))?;
    for entry in entries {
        let path = entry.map_err(|e| format!("{docroot}: {e}"))?.path();
        let (Some(name), Some("ign")) = (
            path.file_stem().and_then(|s| s.to_str()),
            path.extension().and_then(|s| s.to_str()),
        ) else {
            continue;
        };
        let body = std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        found.push((name.to_string(), body));
    }
    Ok(found)
}
