//! What `mcsctl serve` puts on the wire around a response: a fetch asking to close the
//! connection (as wrk and some load balancers' health checks do) gets the whole response, the
//! close alert and the FIN, and is confirmed whole; a handshake that fails still tells the
//! client why, and serve's log names a server name (SNI) that is not a host name.

use std::net::TcpStream;
use std::time::Duration;

use crate::support::{Https, Serve, client_config, ledger_records, machine_token, ok, openssl_run};

fn setup() -> (tempfile::TempDir, std::path::PathBuf) {
    crate::serve::setup_with(&[])
}

#[test]
fn a_fetch_that_closes_the_connection_ends_with_the_close_alert_and_is_confirmed_whole() {
    let (d, a) = setup();
    ok(d.path(), &["machine", "add", "w1", "--pool", "worker"]);
    let bearer = format!("Bearer {}", machine_token(&a, "w1"));
    let s = Serve::start(d.path(), &[]);
    let mut c = Https::connect(s.addr, &a.join("tls/mcs-ca.crt"));
    // The whole body, by its content-length.
    let r = c
        .request(
            "GET",
            "/config/worker",
            &[("Authorization", &bearer), ("Connection", "close")],
        )
        .unwrap();
    assert_eq!(r.status, 200);
    // Then a clean end: rustls reads 0 only after the close alert (a FIN without it is an
    // error).
    assert_eq!(c.read_some(&mut [0u8; 64]).unwrap(), 0);
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
    let mut c = Https::with_config(TcpStream::connect(s.addr).unwrap(), config.into());
    let err = c.send(b"GET /healthz HTTP/1.1\r\n\r\n").unwrap_err();
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

#[test]
fn a_server_name_that_is_not_a_host_name_is_refused_and_named_in_the_log() {
    let (d, _a) = setup();
    let s = Serve::start(d.path(), &[]);
    // hey 0.1.4 puts the Host header, port included, in SNI; rustls refuses that.
    let at = s.addr.to_string();
    let args = ["s_client", "-connect", &at, "-servername", &at];
    let Some((_, out)) = openssl_run(&args, d.path()) else {
        return;
    };
    assert!(out.contains("alert illegal parameter"), "{out}");
    assert!(
        s.wait_stderr("handshake-failed", Duration::from_secs(10)),
        "{}",
        s.stderr()
    );
    let err = s.stderr();
    let line = err
        .lines()
        .find(|l| l.contains("handshake-failed"))
        .unwrap();
    assert!(
        line.contains(
            "127.0.0.1: 1 handshake carried a TLS server name (SNI) that is not a host name since "
        ) && line.contains("(hey 0.1.4 does); Ignition sends the URL's host name"),
        "{line}"
    );
}
