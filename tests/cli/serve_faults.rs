//! `mcsctl serve` under attack and faults: it fails closed with no live token, never locks
//! out a valid token (not even behind a load balancer), cuts off clients that do not read,
//! keeps answering with stdout stalled, and reloads each part on its own.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use crate::serve::{FULL_34, KARGS_33, PRE_32};
use crate::support::{
    HttpResponse, Https, Serve, accept, connect_from, https_get, ledger_records, machine_token, ok,
    render, token_for,
};

fn setup(extra_init: &[&str]) -> (tempfile::TempDir, std::path::PathBuf) {
    crate::serve::setup_with(extra_init)
}

/// `GET /config/worker` with `bearer`, on a new connection from the loopback address `from`.
fn worker_from(from: &str, s: &Serve, ca: &std::path::Path, bearer: &str) -> HttpResponse {
    Https::over(connect_from(from, s.addr), ca)
        .request("GET", "/config/worker", &[("Authorization", bearer)])
        .unwrap()
}

/// Polls `f` until it is true, at most `limit`.
fn eventually(limit: Duration, mut f: impl FnMut() -> bool) -> bool {
    let start = Instant::now();
    while start.elapsed() < limit {
        if f() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(200));
    }
    false
}

#[test]
fn with_no_live_token_serve_fails_closed_and_says_why() {
    let (d, a) = setup(&["--no-token"]);
    let expired = ok(d.path(), &["token", "create", "--ttl", "1s"])
        .trim()
        .to_string();
    // Serve starts with its clock past that second.
    let s = Serve::start_later(d.path(), 5, &[]);
    let err = s.stderr();
    assert!(
        err.contains("auth: token (0 live token(s))")
            && err.contains("WARNING: auth token but no live token"),
        "{err}"
    );
    assert!(
        s.wait_stderr("\"event\":\"no-live-token\"", Duration::from_secs(5)),
        "{err}"
    );
    let ca = a.join("tls/mcs-ca.crt");
    let r = https_get(&s, &ca, "/config/worker", &[]);
    assert_eq!(r.status, 401, "never the full config to anyone");
    assert!(
        r.text()
            .contains("no provisioning token is live on this server"),
        "{}",
        r.text()
    );
    // The expired token: refused with its reason, logged as such, never counted as guessing.
    let bearer = format!("Bearer {expired}");
    let mut c = Https::connect(s.addr, &ca);
    for _ in 0..30 {
        let r = c
            .request("GET", "/config/worker", &[("Authorization", &bearer)])
            .unwrap();
        assert_eq!(r.status, 401);
    }
    let id = expired.split_once('.').unwrap().0;
    let needle = format!("\"auth\":\"expired:{id}\"");
    assert!(s.access_log_with(&needle).contains(&needle));
    // Re-evaluated on reload: a new token takes effect without a restart.
    ok(d.path(), &["token", "rotate", "--grace", "1h", "-q"]);
    let fresh = format!("Bearer {}", token_for(&a, "worker"));
    assert!(
        eventually(Duration::from_secs(10), || {
            https_get(&s, &ca, "/config/worker", &[("Authorization", &fresh)]).status == 200
        }),
        "{}",
        s.stderr()
    );
    // The mode follows mcsctl.json (never the token count), also on reload.
    let cfg_path = a.join("mcsctl.json");
    let mut cfg: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&cfg_path).unwrap()).unwrap();
    cfg["serveAuth"] = "split".into();
    std::fs::write(&cfg_path, serde_json::to_vec_pretty(&cfg).unwrap()).unwrap();
    assert!(
        eventually(Duration::from_secs(10), || {
            let r = https_get(&s, &ca, "/config/worker", &[("Accept", &accept("3.2.0"))]);
            r.status == 200 && r.body == PRE_32.as_bytes()
        }),
        "{}",
        s.stderr()
    );
    // The reload event follows the swap of the state by a moment.
    assert!(
        s.wait_stderr("auth split", Duration::from_secs(5)),
        "{}",
        s.stderr()
    );
    // A reload never opens the server to everyone: `none` in the file is refused, loudly.
    cfg["serveAuth"] = "none".into();
    std::fs::write(&cfg_path, serde_json::to_vec_pretty(&cfg).unwrap()).unwrap();
    s.signal("HUP");
    assert!(
        s.wait_stderr(
            "asks for serveAuth none; keeping split",
            Duration::from_secs(10)
        ),
        "{}",
        s.stderr()
    );
    let r = https_get(&s, &ca, "/config/worker", &[("Accept", &accept("3.2.0"))]);
    assert_eq!((r.status, r.body.as_slice()), (200, PRE_32.as_bytes()));
    assert!(s.stderr().contains(r#""event":"reload-failed""#));
}

#[test]
fn guessing_never_locks_out_a_valid_token_and_stale_tokens_are_not_guesses() {
    let (d, a) = setup(&[]);
    let old = token_for(&a, "worker");
    crate::support::rotate_and_revoke(d.path());
    let good = format!("Bearer {}", token_for(&a, "worker"));
    let s = Serve::start(d.path(), &["--max-failures", "5"]);
    let ca = a.join("tls/mcs-ca.crt");
    // The shared address of a load balancer without PROXY protocol: a guesser and a machine.
    let mut guesser = Https::over(connect_from("127.0.0.2", s.addr), &ca);
    for i in 0..8 {
        let bad = format!("Bearer aaaaaa.guess-{i}");
        let st = guesser
            .request("GET", "/config/worker", &[("Authorization", &bad)])
            .unwrap()
            .status;
        assert_eq!(st, if i < 5 { 401 } else { 429 }, "guess {i}");
    }
    let mut machine = Https::over(connect_from("127.0.0.2", s.addr), &ca);
    let r = machine
        .request(
            "GET",
            "/config/worker",
            &[("Authorization", &good), ("Accept", &accept("3.4.0"))],
        )
        .unwrap();
    assert_eq!((r.status, r.body.as_slice()), (200, FULL_34.as_bytes()));
    assert!(s.wait_stderr("\"event\":\"blocked\"", Duration::from_secs(5)));
    assert_eq!(
        s.stderr().matches("\"event\":\"blocked\"").count(),
        1,
        "logged once"
    );
    // A machine with a stale pointer config (revoked token) is told so and never blocked.
    let mut stale = Https::over(connect_from("127.0.0.3", s.addr), &ca);
    let revoked = format!("Bearer {old}");
    for _ in 0..20 {
        let r = stale
            .request("GET", "/config/worker", &[("Authorization", &revoked)])
            .unwrap();
        assert_eq!(r.status, 401);
        assert!(
            r.text()
                .contains("is revoked: this pointer config is stale"),
            "{}",
            r.text()
        );
    }
    let id = old.split_once('.').unwrap().0;
    let needle = format!("\"auth\":\"revoked:{id}\"");
    assert!(s.access_log_with(&needle).contains(&needle));
    // A known id with a wrong secret is a guess like any other.
    let forged = format!("Bearer {id}.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA");
    let mut forger = Https::over(connect_from("127.0.0.4", s.addr), &ca);
    let statuses: Vec<u16> = (0..7)
        .map(|_| {
            forger
                .request("GET", "/config/worker", &[("Authorization", &forged)])
                .unwrap()
                .status
        })
        .collect();
    assert_eq!(statuses.last(), Some(&429), "{statuses:?}");
}

/// A TLS client over `tcp` after writing `header` raw (a PROXY protocol header).
fn through_balancer(tcp: TcpStream, header: &[u8], ca: &std::path::Path) -> Https {
    let mut tcp = tcp;
    tcp.write_all(header).unwrap();
    Https::over(tcp, ca)
}

fn v2(src: [u8; 4], port: u16) -> Vec<u8> {
    let mut h = b"\r\n\r\n\0\r\nQUIT\n".to_vec();
    h.extend_from_slice(&[0x21, 0x11, 0, 12]);
    h.extend_from_slice(&src);
    h.extend_from_slice(&[127, 0, 0, 1]);
    h.extend_from_slice(&port.to_be_bytes());
    h.extend_from_slice(&22623u16.to_be_bytes());
    h
}

#[test]
fn behind_a_proxy_protocol_balancer_each_machine_is_its_own_client() {
    let (_d, a) = setup(&[]);
    let d = _d;
    let good = format!("Bearer {}", token_for(&a, "worker"));
    let s = Serve::start(
        d.path(),
        &[
            "--proxy-protocol-from",
            "127.0.0.9/32",
            "--max-failures",
            "5",
        ],
    );
    assert!(
        s.stderr().contains("PROXY protocol from: 127.0.0.9/32"),
        "{}",
        s.stderr()
    );
    let ca = a.join("tls/mcs-ca.crt");
    let lb = || connect_from("127.0.0.9", s.addr);
    // A guesser behind the balancer (v1 header) gets blocked...
    let mut guesser = through_balancer(
        lb(),
        b"PROXY TCP4 198.51.100.7 127.0.0.1 40000 22623\r\n",
        &ca,
    );
    let last = (0..7)
        .map(|i| {
            let bad = format!("Bearer aaaaaa.guess-{i}");
            guesser
                .request("GET", "/config/worker", &[("Authorization", &bad)])
                .unwrap()
                .status
        })
        .last();
    assert_eq!(last, Some(429));
    // ...another machine behind the same balancer (v2 header) is not.
    let mut machine = through_balancer(lb(), &v2([198, 51, 100, 8], 40001), &ca);
    assert_eq!(
        machine
            .request("GET", "/config/worker", &[])
            .unwrap()
            .status,
        401
    );
    let r = machine
        .request("GET", "/config/worker", &[("Authorization", &good)])
        .unwrap();
    assert_eq!(r.status, 200);
    let log = s.access_log_with("198.51.100.8:40001");
    assert!(
        log.contains("\"remote\":\"198.51.100.7:40000\"") && log.contains("\"via\":\"127.0.0.9:"),
        "{log}"
    );
    assert!(log.contains("\"remote\":\"198.51.100.8:40001\""), "{log}");
    // Events reach stderr from serve's log thread, a moment after the response.
    assert!(
        s.wait_stderr(
            "client 198.51.100.7 sent too many unknown tokens",
            Duration::from_secs(5)
        ),
        "{}",
        s.stderr()
    );
    // The balancer's address must speak PROXY protocol: without a header, nothing.
    let mut bare = Https::over(lb(), &ca);
    assert!(bare.request("GET", "/healthz", &[]).is_err());
    assert!(s.wait_stderr("proxy-refused", Duration::from_secs(5)));
    // And nobody else can claim an address: a header from an unlisted address is not read.
    let mut spoof = through_balancer(
        connect_from("127.0.0.10", s.addr),
        b"PROXY TCP4 203.0.113.1 127.0.0.1 1 22623\r\n",
        &ca,
    );
    assert!(spoof.request("GET", "/healthz", &[]).is_err());
    assert!(!s.access_log().contains("203.0.113.1"));
}

#[test]
fn clients_that_do_not_read_are_cut_off_and_legitimate_ones_get_in() {
    let (d, a) = setup(&[]);
    let good = format!("Bearer {}", token_for(&a, "worker"));
    let s = Serve::start(
        d.path(),
        &[
            "--max-connections",
            "4",
            "--max-connections-per-client",
            "4",
            "--write-timeout",
            "2s",
        ],
    );
    let ca = a.join("tls/mcs-ca.crt");
    // Four clients take every slot, pipeline requests without a token and never read.
    let attackers: Vec<_> = (0..4)
        .map(|_| {
            let mut c = Https::connect(s.addr, &ca);
            c.peer_leaf();
            std::thread::spawn(move || {
                let batch = "GET /config/worker HTTP/1.1\r\nHost: x\r\n\r\n".repeat(2000);
                let start = Instant::now();
                // Until the server cuts the connection (bounded: 60 s).
                while start.elapsed() < Duration::from_secs(60) {
                    if c.send(batch.as_bytes()).is_err() {
                        return true;
                    }
                }
                false
            })
        })
        .collect();
    // A machine keeps trying, as Ignition does; it gets in once the readers are cut off.
    let got_in = eventually(Duration::from_secs(45), || {
        let Ok(tcp) = TcpStream::connect(s.addr) else {
            return false;
        };
        let mut c = Https::over(tcp, &ca);
        c.request("GET", "/config/worker", &[("Authorization", &good)])
            .is_ok_and(|r| r.status == 200)
    });
    assert!(got_in, "{}", s.stderr());
    for a in attackers {
        assert!(a.join().unwrap(), "an attacker kept its connection");
    }
    assert!(
        s.wait_stderr("\"event\":\"write-timeout\"", Duration::from_secs(5)),
        "{}",
        s.stderr()
    );
}

#[test]
fn a_stalled_stdout_blocks_no_request() {
    let (d, a) = setup(&[]);
    let mut s = Serve::start_with_stdout_pipe(d.path(), &[]);
    let ca = a.join("tls/mcs-ca.crt");
    // Nobody reads the access log: the pipe (64 KiB) fills after a few hundred lines, the
    // worker's buffer (512 KiB) after about 2,000 more. Every request must still be answered
    // (each read is bounded).
    let mut c = Https::connect(s.addr, &ca);
    for i in 0..10_000 {
        let r = c
            .request("GET", "/healthz", &[])
            .unwrap_or_else(|e| panic!("request {i}: {e}"));
        assert_eq!(r.status, 200);
    }
    let good = format!("Bearer {}", token_for(&a, "worker"));
    assert_eq!(
        https_get(&s, &ca, "/config/worker", &[("Authorization", &good)]).status,
        200
    );
    // Once the log is read again, the loss is reported.
    let mut out = s.stdout.take().unwrap();
    std::thread::spawn(move || {
        let mut sink = [0u8; 65536];
        while out.read(&mut sink).is_ok_and(|n| n > 0) {}
    });
    assert!(
        s.wait_stderr(
            "access-log line(s): stdout was not being read",
            Duration::from_secs(10)
        ),
        "{}",
        s.stderr()
    );
}

/// infra (rendered by `setup` with [`KARGS_33`]) is still served as it was.
fn serves_infras_last_good(s: &Serve, a: &std::path::Path) {
    let infra = format!("Bearer {}", token_for(a, "infra"));
    let r = https_get(
        s,
        &a.join("tls/mcs-ca.crt"),
        "/config/infra",
        &[("Authorization", &infra), ("Accept", &accept("3.3.0"))],
    );
    assert_eq!(
        (r.status, r.body.as_slice()),
        (200, KARGS_33.as_bytes()),
        "infra's last good"
    );
}

#[test]
fn a_bad_pool_file_keeps_only_its_own_last_good_state() {
    let (d, a) = setup(&[]);
    let s = Serve::start(d.path(), &[]);
    let ca = a.join("tls/mcs-ca.crt");
    // infra is truncated, then the token rotated: worker must take the new token at once.
    std::fs::write(a.join("rendered/infra.ign"), &KARGS_33[..20]).unwrap();
    ok(d.path(), &["token", "rotate", "--grace", "1h", "-q"]);
    let fresh = format!("Bearer {}", token_for(&a, "worker"));
    assert!(
        eventually(Duration::from_secs(10), || {
            https_get(&s, &ca, "/config/worker", &[("Authorization", &fresh)]).status == 200
        }),
        "{}",
        s.stderr()
    );
    assert!(
        s.stderr()
            .contains("rendered/infra.ign: keeping its last good state")
    );
    serves_infras_last_good(&s, &a);
    // A missing tokens.json is a failed reload, not an empty token set.
    std::fs::remove_file(a.join("auth/tokens.json")).unwrap();
    assert!(s.wait_stderr(
        "tokens: keeping its last good state",
        Duration::from_secs(10)
    ));
    assert_eq!(
        https_get(&s, &ca, "/config/worker", &[("Authorization", &fresh)]).status,
        200
    );
    // Logged once per reason, though retried at every poll.
    std::thread::sleep(Duration::from_millis(2500));
    assert_eq!(
        s.stderr().matches("rendered/infra.ign: keeping").count(),
        1,
        "{}",
        s.stderr()
    );
}

#[test]
fn a_blocked_address_still_gets_the_public_config_and_stale_tokens_their_reason() {
    // In split mode the pre-approval config is public: a guesser sharing an address (a NAT, a
    // balancer without PROXY protocol) must not cut tokenless machines off it, and a machine
    // with a stale pointer config behind that address must still learn why it is refused.
    let (d, a) = setup(&[]);
    let old = token_for(&a, "worker");
    crate::support::rotate_and_revoke(d.path());
    let s = Serve::start(d.path(), &["--auth", "split", "--max-failures", "5"]);
    let ca = a.join("tls/mcs-ca.crt");
    let mut guesser = Https::over(connect_from("127.0.0.5", s.addr), &ca);
    for i in 0..20 {
        let bad = format!("Bearer aaaaaa.guess-{i}");
        guesser
            .request("GET", "/config/worker", &[("Authorization", &bad)])
            .unwrap();
    }
    let last = guesser
        .request(
            "GET",
            "/config/worker",
            &[("Authorization", "Bearer aaaaaa.more")],
        )
        .unwrap();
    assert_eq!(last.status, 429, "the guesser is blocked");
    // A tokenless machine behind the same address: the pre-approval config, not 429.
    let mut machine = Https::over(connect_from("127.0.0.5", s.addr), &ca);
    for _ in 0..5 {
        let r = machine
            .request("GET", "/config/worker", &[("Accept", &accept("3.2.0"))])
            .unwrap();
        assert_eq!((r.status, r.body.as_slice()), (200, PRE_32.as_bytes()));
    }
    // A revoked token behind it: its own 401 reason, not 429.
    let r = machine
        .request(
            "GET",
            "/config/worker",
            &[("Authorization", &format!("Bearer {old}"))],
        )
        .unwrap();
    assert_eq!(r.status, 401, "{}", r.text());
    assert!(
        r.text()
            .contains("is revoked: this pointer config is stale"),
        "{}",
        r.text()
    );
}

/// A config of about 1 MB in pool `big` (random data, so nothing compresses it away).
fn big_config(a: &std::path::Path) {
    use base64::Engine;
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let files: Vec<serde_json::Value> = (0..300)
        .map(|i| {
            let data: Vec<u8> = (0..2400)
                .map(|_| {
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    seed as u8
                })
                .collect();
            serde_json::json!({"path": format!("/etc/big/{i}"), "mode": 420, "contents": {
                "source": format!("data:;base64,{}", base64::engine::general_purpose::STANDARD.encode(data))}})
        })
        .collect();
    let cfg = serde_json::json!({"ignition": {"version": "3.2.0"}, "storage": {"files": files}});
    render(a, "big", &cfg.to_string(), None);
}

/// Reads the big config at about `rate` bytes per second (a small receive buffer, so the
/// server feels it) until the server ends the connection or `limit` bytes arrived; returns
/// the bytes read. The pauses pace the reader: they are what is being tested.
fn read_slowly(s: &Serve, ca: &std::path::Path, token: &str, rate: usize, limit: usize) -> usize {
    // The receive buffer is set before connecting, so the window it implies is the one
    // advertised from the start.
    let sock = socket2::Socket::new(socket2::Domain::IPV4, socket2::Type::STREAM, None).unwrap();
    sock.set_recv_buffer_size(4096).unwrap();
    sock.connect(&s.addr.into()).unwrap();
    let tcp: std::net::TcpStream = sock.into();
    let mut c = Https::over(tcp, ca);
    c.send(
        format!(
            "GET /config/big HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {token}\r\nAccept: {}\r\n\r\n",
            accept("3.2.0")
        )
        .as_bytes(),
    )
    .unwrap();
    let mut total = 0;
    let mut buf = [0u8; 1024];
    while total < limit {
        match c.read_some(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => total += n,
        }
        std::thread::sleep(Duration::from_secs_f64(1024.0 / rate as f64));
    }
    total
}

#[test]
fn a_steady_but_slow_reader_is_cut_off_by_the_minimum_rate_and_the_deadline() {
    let (d, a) = setup(&["--pool", "big"]);
    big_config(&a);
    let size = std::fs::metadata(a.join("rendered/big.ign")).unwrap().len() as usize;
    let ca = a.join("tls/mcs-ca.crt");
    let token = token_for(&a, "big");
    // 20 KB/s against a 64 KiB/s minimum: it keeps reading (no write stalls 5 s), too slowly.
    let s = Serve::start(
        d.path(),
        &["--write-timeout", "5s", "--min-send-rate", "64KiB"],
    );
    let started = Instant::now();
    let got = read_slowly(&s, &ca, &token, 20_000, size);
    let took = started.elapsed();
    eprintln!("slow reader: {got} of {size} bytes in {took:?}");
    assert!(got < size / 2, "cut off early: {got} of {size} bytes");
    assert!(took < Duration::from_secs(30));
    assert!(
        s.wait_stderr("\"event\":\"slow-client\"", Duration::from_secs(10)),
        "{}",
        s.stderr()
    );
    assert!(
        s.stderr()
            .contains("it read slower than --min-send-rate (64 KiB/s)")
    );
    drop(s);
    // Fast enough for the rate, too slow for the deadline: cut once the deadline and the
    // write timeout have passed, not when the reader is done.
    let s = Serve::start(
        d.path(),
        &[
            "--connection-deadline",
            "2s",
            "--write-timeout",
            "2s",
            "--min-send-rate",
            "1KiB",
        ],
    );
    let started = Instant::now();
    let got = read_slowly(&s, &ca, &token, 40_000, size);
    assert!(
        got < size / 2,
        "cut off at the deadline: {got} of {size} bytes"
    );
    assert!(started.elapsed() < Duration::from_secs(20));
    assert!(
        s.wait_stderr("\"event\":\"connection-deadline\"", Duration::from_secs(10)),
        "{}",
        s.stderr()
    );
    // A reader that keeps up gets the whole config.
    let fresh = Https::connect(s.addr, &ca)
        .request(
            "GET",
            "/config/big",
            &[
                ("Authorization", &format!("Bearer {token}")),
                ("Accept", &accept("3.2.0")),
            ],
        )
        .unwrap();
    assert_eq!((fresh.status, fresh.body.len()), (200, size));
}

#[test]
fn one_address_holding_idle_connections_never_starves_another() {
    let (d, a) = setup(&[]);
    let ca = a.join("tls/mcs-ca.crt");
    let s = Serve::start(
        d.path(),
        &[
            "--max-connections",
            "100",
            "--max-connections-per-client",
            "40",
            "--handshake-timeout",
            "60s",
        ],
    );
    // 200 idle connections (no handshake, no request) from one address: 40 are kept, the
    // others are closed at once.
    let mut hog: Vec<std::net::TcpStream> = (0..200)
        .map(|_| {
            let t: std::net::TcpStream = connect_from("127.0.0.2", s.addr);
            t.set_nonblocking(true).unwrap();
            t
        })
        .collect();
    let closed = |hog: &mut Vec<std::net::TcpStream>| {
        hog.iter_mut()
            .filter_map(|t| std::io::Read::read(t, &mut [0u8; 1]).ok())
            .filter(|n| *n == 0)
            .count()
    };
    assert!(
        eventually(Duration::from_secs(10), || closed(&mut hog) == 160),
        "{} of 200 closed\n{}",
        closed(&mut hog),
        s.stderr()
    );
    assert!(s.wait_stderr(
        "\"event\":\"connection-limit-client\"",
        Duration::from_secs(5)
    ));
    // Another address is served, request after request.
    let good = format!("Bearer {}", token_for(&a, "worker"));
    for i in 0..100 {
        let r = worker_from("127.0.0.3", &s, &ca, &good);
        assert_eq!(r.status, 200, "request {i}");
    }
    // All 100 taken by idle connections (40 + 40 + 20 from three addresses): a newcomer is let
    // in by closing an idle connection of a client holding the most.
    let more: Vec<std::net::TcpStream> = (0..40)
        .map(|_| connect_from("127.0.0.4", s.addr))
        .chain((0..20).map(|_| connect_from("127.0.0.5", s.addr)))
        .collect();
    let r = worker_from("127.0.0.6", &s, &ca, &good);
    assert_eq!(r.status, 200);
    assert!(
        s.wait_stderr("\"event\":\"connection-evicted\"", Duration::from_secs(5)),
        "{}",
        s.stderr()
    );
    drop(more);
}

#[test]
fn an_idle_keep_alive_connection_closed_to_make_room_ends_with_close_notify() {
    let (d, a) = setup(&[]);
    let ca = a.join("tls/mcs-ca.crt");
    let s = Serve::start(
        d.path(),
        &[
            "--max-connections",
            "2",
            "--max-connections-per-client",
            "2",
        ],
    );
    let good = format!("Bearer {}", token_for(&a, "worker"));
    // Two connections from one address: one served and left idle (the longest idle), one that
    // never starts its handshake.
    let mut served = Https::over(connect_from("127.0.0.2", s.addr), &ca);
    let r = served
        .request("GET", "/config/worker", &[("Authorization", &good)])
        .unwrap();
    assert_eq!(r.status, 200);
    let _quiet = connect_from("127.0.0.2", s.addr);
    // A newcomer is let in by closing the served one, which is past its handshake: HTTP's
    // graceful close, so its TLS session ends with close_notify rather than a bare FIN.
    let r = worker_from("127.0.0.3", &s, &ca, &good);
    assert_eq!(r.status, 200);
    assert!(
        s.wait_stderr("\"event\":\"connection-evicted\"", Duration::from_secs(5)),
        "{}",
        s.stderr()
    );
    let mut buf = [0u8; 64];
    match served.read_some(&mut buf) {
        Ok(0) => {}
        other => panic!("the evicted connection did not end cleanly: {other:?}"),
    }
}

/// The `"whole"` flags of the asset directory's ledger records, in order.
fn whole_flags(assets: &std::path::Path) -> Vec<bool> {
    ledger_records(assets)
        .iter()
        .map(|r| r["whole"] == true)
        .collect()
}

#[test]
fn a_machine_fetch_cut_off_mid_response_is_recorded_as_not_whole() {
    let (d, a) = setup(&[]);
    // Far larger than the socket buffers: a client that never reads stalls the response.
    let big = serde_json::json!({
        "ignition": {"version": "3.2.0"},
        "storage": {"files": [{"path": "/etc/big", "contents": {"source": format!("data:,{}", "x".repeat(1 << 20))}}]}
    });
    render(&a, "worker", &big.to_string(), None);
    ok(
        d.path(),
        &["machine", "add", "w1", "--pool", "worker", "--uses", "2"],
    );
    let bearer = format!("Bearer {}", machine_token(&a, "w1"));
    let s = Serve::start(d.path(), &["--write-timeout", "2s"]);
    let ca = a.join("tls/mcs-ca.crt");
    // Read whole: confirmed.
    let r = https_get(&s, &ca, "/config/worker", &[("Authorization", &bearer)]);
    assert_eq!(r.status, 200);
    assert!(r.body.len() > 1 << 20);
    // Asked for and never read: recorded (the fetch happened), cut off, never confirmed.
    let c = Https::ask_worker(s.addr, &ca, &bearer);
    assert!(
        s.wait_stderr("\"event\":\"write-timeout\"", Duration::from_secs(30)),
        "{}",
        s.stderr()
    );
    let log = s.access_log_with(r#""whole":false}}"#);
    let flags: Vec<bool> = log
        .lines()
        .filter(|l| l.contains("\"ledger\""))
        .map(|l| l.contains(r#""whole":true}}"#))
        .collect();
    assert_eq!(flags, [true, false], "{log}");
    s.reload();
    assert_eq!(whole_flags(&a), [true, false]);
    drop(c);
}

#[test]
fn replicas_count_each_others_fetches_at_each_poll_and_never_share_a_ledger() {
    let (d, a) = setup(&[]);
    ok(d.path(), &["machine", "add", "w1", "--pool", "worker"]);
    ok(d.path(), &["machine", "add", "w2", "--pool", "worker"]);
    let ca = a.join("tls/mcs-ca.crt");
    let get = |s: &Serve, machine: &str| {
        let bearer = format!("Bearer {}", machine_token(&a, machine));
        let r = https_get(s, &ca, "/config/worker", &[("Authorization", &bearer)]);
        (r.status, r.text())
    };
    let ledger = |name: &str| a.join(format!("auth/ledger/{name}.jsonl"));
    let one = Serve::start(d.path(), &["--ledger", ledger("one").to_str().unwrap()]);
    let two = Serve::start(d.path(), &["--ledger", ledger("two").to_str().unwrap()]);
    // w1's single use is spent on replica one; replica two learns it at its next poll.
    assert_eq!(get(&one, "w1").0, 200);
    crate::support::await_whole(&a, "w1", 1);
    two.reload();
    let (status, text) = get(&two, "w1");
    assert_eq!(status, 401, "{text}");
    assert!(text.contains("of machine w1 was used at"), "{text}");
    // A third serve given replica one's ledger cannot write it while one does: 503, said why.
    let three = Serve::start(d.path(), &["--ledger", ledger("one").to_str().unwrap()]);
    assert_eq!(get(&three, "w2").0, 503);
    assert!(
        three.wait_stderr(
            "is being written by another serve process (give each its own --ledger)",
            Duration::from_secs(10)
        ),
        "{}",
        three.stderr()
    );
    assert_eq!(get(&two, "w2").0, 200);
}

#[test]
fn a_fetch_cut_on_one_replica_is_marked_so_the_others_let_the_machine_in_at_once() {
    let (d, a) = setup(&[]);
    // Far larger than the socket buffers: a client that reads a byte and goes away cuts it.
    let big = serde_json::json!({
        "ignition": {"version": "3.2.0"},
        "storage": {"files": [{"path": "/etc/big", "contents": {"source": format!("data:,{}", "x".repeat(1 << 20))}}]}
    });
    render(&a, "worker", &big.to_string(), None);
    ok(d.path(), &["machine", "add", "w1", "--pool", "worker"]);
    let ca = a.join("tls/mcs-ca.crt");
    let bearer = format!("Bearer {}", machine_token(&a, "w1"));
    let ledger = |name: &str| a.join(format!("auth/ledger/{name}.jsonl"));
    let one = Serve::start(d.path(), &["--ledger", ledger("one").to_str().unwrap()]);
    let two = Serve::start(d.path(), &["--ledger", ledger("two").to_str().unwrap()]);
    let mut c = Https::ask_worker(one.addr, &ca, &bearer);
    c.read_some(&mut [0u8; 1]).unwrap();
    drop(c);
    assert!(
        one.wait_stderr("\"event\":\"fetch-cut\"", Duration::from_secs(30)),
        "{}",
        one.stderr()
    );
    // The record says so on disk: `"whole":"cut"`, the same length as `false`.
    let text = std::fs::read_to_string(ledger("one")).unwrap();
    assert!(text.trim_end().ends_with(r#""whole":"cut"}"#), "{text}");
    // Replica two reads it at its next poll: nothing was spent, the machine may fetch (it
    // waited --connection-deadline and --write-timeout, 10m30s, before).
    two.reload();
    let r = https_get(&two, &ca, "/config/worker", &[("Authorization", &bearer)]);
    assert_eq!(r.status, 200, "{}", r.text());
}

#[test]
fn a_pool_file_past_the_input_limit_keeps_its_last_good_state_and_says_so() {
    let (d, a) = setup(&[]);
    // Every file of the asset directory is far below 4 KiB; the limit bounds the pools too.
    let s = Serve::start(d.path(), &["--max-input-size", "4KiB"]);
    // A valid config of 5,000 bytes, read as a stream: refused as too large, not as bad JSON.
    let head = r#"{"ignition":{"version":"3.2.0"},"storage":{"files":[{"path":"/big","contents":{"source":"data:,"#;
    let tail = r#""}}]}}"#;
    let big = format!("{head}{}{tail}", "a".repeat(5000 - head.len() - tail.len()));
    assert_eq!(big.len(), 5000);
    std::fs::write(a.join("rendered/infra.ign"), &big).unwrap();
    let want = "rendered/infra.ign: keeping its last good state: mcs-assets/rendered/infra.ign holds more than 4 KiB, the most mcsctl reads from one input";
    assert!(
        s.wait_stderr(want, Duration::from_secs(10)),
        "{}",
        s.stderr()
    );
    serves_infras_last_good(&s, &a);
}

#[test]
fn a_directory_in_place_of_a_pool_file_keeps_its_last_good_state_and_says_so() {
    let (d, a) = setup(&[]);
    let s = Serve::start(d.path(), &[]);
    let ca = a.join("tls/mcs-ca.crt");
    std::fs::remove_file(a.join("rendered/infra.ign")).unwrap();
    std::fs::create_dir(a.join("rendered/infra.ign")).unwrap();
    assert!(
        s.wait_stderr(
            "rendered/infra.ign: keeping its last good state: mcs-assets/rendered/infra.ign is not a regular file",
            Duration::from_secs(10)
        ),
        "{}",
        s.stderr()
    );
    serves_infras_last_good(&s, &a);
    let infra = format!("Bearer {}", token_for(&a, "infra"));
    // Gone for good: the pool goes, and the log says so.
    std::fs::remove_dir(a.join("rendered/infra.ign")).unwrap();
    assert!(
        s.wait_stderr("rendered/infra.ign removed", Duration::from_secs(10)),
        "{}",
        s.stderr()
    );
    let r = https_get(&s, &ca, "/config/infra", &[("Authorization", &infra)]);
    assert_eq!(r.status, 404);
}

#[test]
fn a_single_use_token_raced_is_served_once_and_cut_fetches_are_bounded() {
    let (d, a) = setup(&[]);
    // Far larger than the socket buffers: a client that does not read holds the fetch open.
    let big = serde_json::json!({
        "ignition": {"version": "3.2.0"},
        "storage": {"files": [{"path": "/etc/big", "contents": {"source": format!("data:,{}", "x".repeat(2 << 20))}}]}
    });
    render(&a, "worker", &big.to_string(), None);
    ok(
        d.path(),
        &["machine", "add", "w1", "--pool", "worker", "-q"],
    );
    ok(
        d.path(),
        &["machine", "add", "w2", "--pool", "worker", "-q"],
    );
    let s = Serve::start(
        d.path(),
        &["--write-timeout", "2s", "--max-partial-fetches", "2"],
    );
    let ca = a.join("tls/mcs-ca.crt");
    let bearer = |m: &str| format!("Bearer {}", machine_token(&a, m));
    let ask = |m: &str| Https::ask_worker(s.addr, &ca, &bearer(m));
    // A takes w1's only use and does not read yet; B, racing it, gets 503 (which Ignition
    // retries), and so does a HEAD: the use is held, not spent.
    let mut first = ask("w1");
    // Claimed once its record is in the ledger.
    assert!(eventually(Duration::from_secs(10), || ledger_records(&a)
        .len()
        == 1));
    let b = https_get(
        &s,
        &ca,
        "/config/worker",
        &[("Authorization", &bearer("w1"))],
    );
    assert_eq!(b.status, 503, "{}", b.text());
    assert_eq!(b.header("retry-after"), Some("5"));
    assert!(
        b.text()
            .contains("is being sent: a fetch spends the token only once it went out whole"),
        "{}",
        b.text()
    );
    let h = Https::connect(s.addr, &ca)
        .request(
            "HEAD",
            "/config/worker",
            &[("Authorization", &bearer("w1"))],
        )
        .unwrap();
    assert_eq!(h.status, 503);
    // A reads it all: spent; B's retry gets 401.
    let r = first.read_response(false).unwrap();
    assert_eq!(r.status, 200);
    let start = Instant::now();
    let status = loop {
        let st = https_get(
            &s,
            &ca,
            "/config/worker",
            &[("Authorization", &bearer("w1"))],
        )
        .status;
        if st != 503 || start.elapsed() > Duration::from_secs(10) {
            break st;
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    assert_eq!(status, 401);
    // w2: two fetches cut off (clients that read a byte and go away) give the use back; the
    // third attempt is refused, naming the cuts and the way out.
    let mut head = [0u8; 1];
    for i in 1..=2 {
        let mut c = ask("w2");
        c.read_some(&mut head).unwrap();
        drop(c);
        // The ledger's flag is written `false` when the fetch starts, and a second cut's event
        // may be folded into the first's: the fetch's access-log line, written once its cut
        // is settled, is what says this one ended.
        assert!(
            eventually(Duration::from_secs(30), || s
                .access_log()
                .matches(r#""whole":false}}"#)
                .count()
                == i
                && s.stderr().contains("\"event\":\"fetch-cut\"")
                && whole_flags(&a).iter().filter(|w| !**w).count() == i),
            "{}",
            s.stderr()
        );
    }
    let r = https_get(
        &s,
        &ca,
        "/config/worker",
        &[("Authorization", &bearer("w2"))],
    );
    assert_eq!(r.status, 401, "{}", r.text());
    assert!(
        r.text().contains("2 fetches were cut off before their end")
            && r.text()
                .contains("`mcsctl machine add w2 --pool worker --force` gives it a new token"),
        "{}",
        r.text()
    );
    assert_eq!(whole_flags(&a), [true, false, false]);
}
