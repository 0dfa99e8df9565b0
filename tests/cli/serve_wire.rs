//! What `mcsctl serve` puts on the wire around a response: a fetch asking to close the
//! connection (as wrk and some load balancers' health checks do) gets the whole response, the
//! close alert and the FIN, and is confirmed whole; a handshake that fails still tells the
//! client why.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::Duration;

use crate::support::{Serve, client_config, ledger_records, machine_token, ok};

fn setup() -> (tempfile::TempDir, std::path::PathBuf) {
    crate::serve::setup_with(&[])
}

/// A TLS client over `tcp`, handshake done.
fn handshaken(
    tcp: &mut TcpStream,
    config: std::sync::Arc<rustls::ClientConfig>,
) -> rustls::ClientConnection {
    let name = rustls::pki_types::ServerName::try_from("127.0.0.1").unwrap();
    let mut c = rustls::ClientConnection::new(config, name).unwrap();
    while c.is_handshaking() {
        c.complete_io(tcp).unwrap();
    }
    c
}

#[test]
fn a_fetch_that_closes_the_connection_ends_with_the_close_alert_and_is_confirmed_whole() {
    let (d, a) = setup();
    ok(d.path(), &["machine", "add", "w1", "--pool", "worker"]);
    let bearer = format!("Bearer {}", machine_token(&a, "w1"));
    let s = Serve::start(d.path(), &[]);
    let mut tcp = TcpStream::connect(s.addr).unwrap();
    tcp.set_read_timeout(Some(Duration::from_secs(15))).unwrap();
    let mut c = handshaken(&mut tcp, client_config(&a.join("tls/mcs-ca.crt")));
    write!(
        c.writer(),
        "GET /config/worker HTTP/1.1\r\nHost: x\r\nAuthorization: {bearer}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    while c.wants_write() {
        c.write_tls(&mut tcp).unwrap();
    }
    // Everything up to the FIN: a clean end (the close alert) is an end of stream, not an
    // error, to rustls' reader.
    let mut plain = Vec::new();
    rustls::Stream::new(&mut c, &mut tcp)
        .read_to_end(&mut plain)
        .unwrap();
    assert!(c.process_new_packets().unwrap().peer_has_closed());
    let text = String::from_utf8_lossy(&plain);
    assert!(text.starts_with("HTTP/1.1 200 OK\r\n"), "{text}");
    let len: usize = text
        .lines()
        .find_map(|l| l.strip_prefix("content-length: "))
        .unwrap()
        .parse()
        .unwrap();
    assert_eq!(plain.len() - (text.find("\r\n\r\n").unwrap() + 4), len);
    let log = s.access_log_with(r#""whole":true}}"#);
    assert!(log.contains(r#""status":200"#), "{log}");
    s.reload();
    assert_eq!(ledger_records(&a)[0]["whole"], true);
}

#[test]
fn a_handshake_that_fails_still_sends_the_client_its_alert() {
    let (d, a) = setup();
    let s = Serve::start(d.path(), &[]);
    // serve speaks http/1.1 only: a client that insists on h2 is refused with an alert.
    let mut config = (*client_config(&a.join("tls/mcs-ca.crt"))).clone();
    config.alpn_protocols = vec![b"h2".to_vec()];
    let mut tcp = TcpStream::connect(s.addr).unwrap();
    tcp.set_read_timeout(Some(Duration::from_secs(15))).unwrap();
    let name = rustls::pki_types::ServerName::try_from("127.0.0.1").unwrap();
    let mut c = rustls::ClientConnection::new(std::sync::Arc::new(config), name).unwrap();
    let err = loop {
        match c.complete_io(&mut tcp) {
            Ok(_) if c.is_handshaking() => continue,
            Ok(_) => panic!("the handshake succeeded"),
            Err(e) => break e,
        }
    };
    let got = err
        .get_ref()
        .and_then(|e| e.downcast_ref::<rustls::Error>())
        .cloned();
    assert_eq!(
        got,
        Some(rustls::Error::AlertReceived(
            rustls::AlertDescription::NoApplicationProtocol
        )),
        "{err}"
    );
}
