//! `mcsctl serve` at the HTTP level: every status code, Accept variants, traversal, limits,
//! rate limiting, split auth, reload and shutdown. Clients are rustls over std sockets.

use std::io::Read;
use std::time::{Duration, Instant};

use crate::support::{
    Https, Serve, accept, connect_from, demo, https_get, ok, render, run, token_for,
};

pub const FULL_34: &str = r#"{"ignition":{"version":"3.4.0"},"storage":{"files":[{"path":"/etc/mcsctl-full","contents":{"source":"data:,full%20config"},"mode":420}]}}"#;
pub const PRE_32: &str = r#"{"ignition":{"version":"3.2.0"},"storage":{"files":[{"path":"/etc/mcsctl-pre","contents":{"source":"data:,pre%20approval"},"mode":420}]}}"#;
pub const KARGS_33: &str =
    r#"{"ignition":{"version":"3.3.0"},"kernelArguments":{"shouldExist":["quiet"]}}"#;
const IGN: &str = "application/vnd.coreos.ignition+json";

fn setup() -> (tempfile::TempDir, std::path::PathBuf) {
    setup_with(&[])
}

/// An asset directory (127.0.0.1 in the certificate) with pools worker, master and infra, each
/// with its own token; worker rendered with a pre-approval set, infra with kernel arguments.
pub fn setup_with(extra_init: &[&str]) -> (tempfile::TempDir, std::path::PathBuf) {
    let mut args = vec![
        "--san",
        "127.0.0.1",
        "--pool",
        "worker",
        "--pool",
        "master",
        "--pool",
        "infra",
    ];
    args.extend_from_slice(extra_init);
    let d = demo(&args);
    let a = d.path().join("mcs-assets");
    render(&a, "worker", FULL_34, Some(PRE_32));
    render(&a, "infra", KARGS_33, None);
    (d, a)
}

fn https_get_method(
    s: &Serve,
    ca: &std::path::Path,
    method: &str,
    target: &str,
) -> crate::support::HttpResponse {
    Https::connect(s.addr, ca)
        .request(method, target, &[])
        .unwrap()
}

fn version_of(body: &[u8]) -> String {
    let v: serde_json::Value = serde_json::from_slice(body).unwrap();
    v["ignition"]["version"].as_str().unwrap().to_string()
}

#[test]
fn status_codes_and_methods() {
    let (d, a) = setup();
    let s = Serve::start(d.path(), &[]);
    let ca = a.join("tls/mcs-ca.crt");
    let tok = token_for(&a, "worker");
    let bearer = format!("Bearer {tok}");
    // A client that asks for the stored spec gets the stored file.
    let a34 = accept("3.4.0");
    let auth = [("Authorization", bearer.as_str()), ("Accept", a34.as_str())];

    assert_eq!(https_get(&s, &ca, "/healthz", &[]).status, 200);
    let r = https_get(&s, &ca, "/config/worker", &[]);
    assert_eq!(r.status, 401);
    assert_eq!(r.header("www-authenticate"), Some("Bearer"));
    let r = https_get(&s, &ca, "/config/worker", &auth);
    assert_eq!(r.status, 200);
    assert_eq!(r.header("content-type"), Some("application/json"));
    assert_eq!(r.body, FULL_34.as_bytes());
    let r = https_get(&s, &ca, &format!("/config/worker?token={tok}"), &[]);
    assert_eq!(r.status, 200);
    let r = https_get(
        &s,
        &ca,
        "/config/worker",
        &[("Authorization", "Bearer aaaaaa.not-a-real-secret")],
    );
    assert_eq!(r.status, 401);
    assert_eq!(https_get(&s, &ca, "/config/nosuchpool", &auth).status, 404);
    assert_eq!(https_get(&s, &ca, "/nothing-here", &auth).status, 404);
    assert_eq!(https_get(&s, &ca, "/", &[]).status, 404);
    // The MCS takes the pool from the path's last segment.
    let r = https_get(&s, &ca, "/config/worker/", &auth);
    assert_eq!((r.status, r.body.as_slice()), (200, FULL_34.as_bytes()));
    assert_eq!(https_get(&s, &ca, "/config/x/worker", &auth).status, 200);
    // q=nan is a float to Go's strconv: the order stays as sent, and nothing breaks (Rust's
    // sort once panicked on it, dropping the connection).
    // (These q values made Rust's sort detect the broken order and panic.)
    let qs: String = (0..21)
        .map(|i| match i % 3 {
            0 => "*/*;q=nan, ".to_string(),
            1 => "*/*;q=0.3, ".to_string(),
            _ => format!("*/*;q=0.{}, ", (i * 7) % 10),
        })
        .collect();
    let nan = format!("{qs}{};q=nan, */*;q=0.1", accept("3.4.0"));
    let r = https_get(
        &s,
        &ca,
        "/config/worker",
        &[("Authorization", bearer.as_str()), ("Accept", nan.as_str())],
    );
    assert_eq!((r.status, r.body.as_slice()), (200, FULL_34.as_bytes()));
    // Outside /config/, other methods are 405 as in the MCS's default handler.
    assert_eq!(
        https_get_method(&s, &ca, "POST", "/nothing-here").status,
        405
    );
    let mut c = Https::connect(s.addr, &ca);
    for m in ["POST", "PUT", "DELETE", "OPTIONS", "PATCH"] {
        let r = c.request(m, "/config/worker", &auth).unwrap();
        assert_eq!(r.status, 405, "{m}");
        assert_eq!(r.header("allow"), Some("GET, HEAD"));
    }
    assert_eq!(c.request("POST", "/healthz", &[]).unwrap().status, 405);
    // HEAD: the GET's headers, no body; on the same keep-alive connection.
    let r = c.request("HEAD", "/config/worker", &auth).unwrap();
    assert_eq!(r.status, 200);
    assert_eq!(
        r.header("content-length"),
        Some(FULL_34.len().to_string().as_str())
    );
    assert!(r.body.is_empty());
    let r = c.request("GET", "/config/worker", &auth).unwrap();
    assert_eq!(
        r.status, 200,
        "keep-alive connection still serves after HEAD"
    );
    // Expired and revoked tokens are refused once the server reloads.
    crate::support::rotate_and_revoke(d.path());
    assert!(
        s.wait_stderr("\"event\":\"reload\"", Duration::from_secs(10)),
        "{}",
        s.stderr()
    );
    assert_eq!(https_get(&s, &ca, "/config/worker", &auth).status, 401);
    let new = format!("Bearer {}", token_for(&a, "worker"));
    assert_eq!(
        https_get(&s, &ca, "/config/worker", &[("Authorization", &new)]).status,
        200
    );
}

#[test]
fn accept_header_negotiation() {
    let (d, a) = setup();
    let s = Serve::start(d.path(), &[]);
    let ca = a.join("tls/mcs-ca.crt");
    let get = |pool: &str, accept: Option<&str>| {
        let bearer = format!("Bearer {}", token_for(&a, pool));
        let mut h = vec![("Authorization", bearer.as_str())];
        if let Some(x) = accept {
            h.push(("Accept", x));
        }
        https_get(&s, &ca, &format!("/config/{pool}"), &h)
    };
    // As the MCS: no Accept (curl), no Ignition entry, or an Ignition 0.x one: spec 2.2.
    assert_eq!(version_of(&get("worker", None).body), "2.2.0", "no Accept");
    assert_eq!(version_of(&get("worker", Some("*/*")).body), "2.2.0");
    let ign0 = format!("{IGN}; version=2.4.0, {IGN}; version=1; q=0.5, */*; q=0.1");
    let r = get("worker", Some(&ign0));
    assert_eq!(version_of(&r.body), "2.2.0", "Ignition 0.x");
    assert!(r.text().contains(r#""filesystem":"root""#), "{}", r.text());
    let ign214 = format!("{IGN};version=3.3.0, */*;q=0.1");
    assert_eq!(version_of(&get("worker", Some(&ign214)).body), "3.3.0");
    assert_eq!(
        version_of(&get("worker", Some(&format!("{IGN};version=3.0.0"))).body),
        "3.0.0",
        "spec 3.0 clients get 3.0 (the MCS answers 500)"
    );
    assert_eq!(
        version_of(&get("worker", Some(&format!("{IGN};version=3.99.0"))).body),
        "3.5.0",
        "a newer 3.x minor gets the newest"
    );
    let r = get("worker", Some(&format!("{IGN};version=4.0.0")));
    assert_eq!(r.status, 400);
    assert!(
        r.text().contains("unsupported Ignition version"),
        "{}",
        r.text()
    );
    let q = format!("{IGN};version=3.1.0;q=0.3, {IGN};version=3.2.0;q=0.8");
    assert_eq!(version_of(&get("worker", Some(&q)).body), "3.2.0");
    let r = get("infra", None);
    assert_eq!(r.status, 406, "spec 2.2 has no kernel arguments");
    // Down-translation refused when the config uses something the older spec lacks.
    let r = get("infra", Some(&format!("{IGN};version=3.2.0")));
    assert_eq!(r.status, 406);
    assert!(r.text().contains("kernelArguments"), "{}", r.text());
    assert_eq!(
        version_of(&get("infra", Some(&format!("{IGN};version=3.3.0"))).body),
        "3.3.0"
    );
}

#[test]
fn path_traversal_is_404_and_leaks_nothing() {
    let (d, a) = setup();
    let s = Serve::start(d.path(), &[]);
    let ca = a.join("tls/mcs-ca.crt");
    let bearer = format!("Bearer {}", token_for(&a, "worker"));
    let key = std::fs::read_to_string(a.join("tls/mcs.key")).unwrap();
    let ask = |target: &str| https_get(&s, &ca, target, &[("Authorization", &bearer)]);
    for target in [
        "/config/../tls/mcs.key",
        "/config/..%2Ftls%2Fmcs.key",
        "/config/%2e%2e%2ftls%2fmcs.key",
        "/config/worker/../../auth/tokens.json",
        "/config/worker%2F..%2F..%2Fauth%2Ftokens.json",
        "/config/..",
        "/config/.worker",
        "/config/WORKER",
        "/config/",
        "/config//etc/passwd",
        "/../../etc/passwd",
    ] {
        // A path that is not clean is redirected to its clean form (as Go's ServeMux does);
        // where it leads is not found either.
        let mut r = ask(target);
        if r.status == 301 {
            let to = r.header("location").unwrap().to_string();
            assert!(!to.contains("..") && !to.contains("//"), "{target} -> {to}");
            r = ask(&to);
        }
        assert_eq!(r.status, 404, "{target}");
        let body = r.text();
        assert!(
            !body.contains("PRIVATE KEY") && !body.contains(&key) && !body.contains("secret"),
            "{target}: {body}"
        );
    }
}

#[test]
fn large_headers_get_431_and_the_server_lives_on() {
    let (d, a) = setup();
    let s = Serve::start(d.path(), &[]);
    let ca = a.join("tls/mcs-ca.crt");
    let big = "a".repeat(64 * 1024);
    let r = https_get(&s, &ca, "/config/worker", &[("X-Big", &big)]);
    assert_eq!(r.status, 431);
    assert_eq!(https_get(&s, &ca, "/healthz", &[]).status, 200);
}

#[test]
fn bad_tokens_from_one_address_get_429_others_unaffected() {
    let (d, a) = setup();
    let s = Serve::start(d.path(), &[]);
    let ca = a.join("tls/mcs-ca.crt");
    let good = format!("Bearer {}", token_for(&a, "worker"));
    let mut attacker = Https::over(connect_from("127.0.0.1", s.addr), &ca);
    let mut statuses = std::collections::BTreeMap::new();
    for i in 0..1000 {
        let bad = format!("Bearer aaaaaa.bad-secret-{i}");
        let r = attacker
            .request("GET", "/config/worker", &[("Authorization", &bad)])
            .unwrap();
        *statuses.entry(r.status).or_insert(0) += 1;
        if i == 999 {
            assert_eq!(r.status, 429);
            assert!(r.header("retry-after").is_some());
        }
    }
    assert_eq!(statuses.get(&401), Some(&20), "{statuses:?}");
    assert_eq!(statuses.get(&429), Some(&980), "{statuses:?}");
    // The right token is served even from the blocked address (behind a load balancer every
    // machine shares it)...
    assert_eq!(
        attacker
            .request("GET", "/config/worker", &[("Authorization", &good)])
            .unwrap()
            .status,
        200
    );
    // ...and another address is not blocked at all.
    let mut other = Https::over(connect_from("127.0.0.2", s.addr), &ca);
    assert_eq!(
        other
            .request("GET", "/config/worker", &[("Authorization", &good)])
            .unwrap()
            .status,
        200
    );
    assert!(
        s.access_log_with("\"remote\":\"127.0.0.2:")
            .contains("\"remote\":\"127.0.0.2:")
    );
}

#[test]
fn access_log_is_json_and_holds_no_secret() {
    let (d, a) = setup();
    let s = Serve::start(d.path(), &[]);
    let ca = a.join("tls/mcs-ca.crt");
    let toks = [token_for(&a, "worker")];
    https_get(
        &s,
        &ca,
        "/config/worker",
        &[
            ("Authorization", &format!("Bearer {}", toks[0])),
            ("User-Agent", "Ignition/2.14.0"),
            ("Accept", &accept("3.4.0")),
        ],
    );
    https_get(&s, &ca, &format!("/config/worker?token={}", toks[0]), &[]);
    https_get(
        &s,
        &ca,
        "/config/worker",
        &[("Authorization", "Bearer zzzzzz.wrong-secret-value")],
    );
    // The third line (the guess is logged as "invalid", never by its id) ends the wait.
    let log = s.access_log_with("\"auth\":\"invalid\"");
    let lines: Vec<serde_json::Value> = log
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 3, "{log}");
    let id = toks[0].split('.').next().unwrap();
    assert_eq!(lines[0]["auth"], format!("token:{id}"));
    assert_eq!(lines[0]["userAgent"], "Ignition/2.14.0");
    assert_eq!(lines[0]["pool"], "worker");
    assert_eq!(lines[0]["status"], 200);
    assert_eq!(lines[0]["bytes"], FULL_34.len());
    for k in ["time", "remote", "method", "path", "durationMs"] {
        assert!(!lines[0][k].is_null(), "{k} missing");
    }
    // The time is whole RFC 3339 (UTC), to the nanosecond's last non-zero digit.
    let t = lines[0]["time"].as_str().unwrap();
    assert!(
        time::OffsetDateTime::parse(t, &time::format_description::well_known::Rfc3339).is_ok()
            && t.ends_with('Z'),
        "{t}"
    );
    assert_eq!(
        lines[1]["path"], "/config/worker",
        "the query (and its token) is not logged"
    );
    assert_eq!(lines[2]["auth"], "invalid");
    for t in &toks {
        let secret = t.split('.').nth(1).unwrap();
        assert!(
            !log.contains(secret) && !s.stderr().contains(secret),
            "a token secret reached the log"
        );
    }
    assert!(!log.contains("wrong-secret-value"));
}

#[test]
fn split_auth_serves_pre_approval_without_a_token() {
    let (d, a) = setup();
    let s = Serve::start(d.path(), &["--auth", "split"]);
    let ca = a.join("tls/mcs-ca.crt");
    let r = https_get(&s, &ca, "/config/worker", &[("Accept", &accept("3.2.0"))]);
    assert_eq!((r.status, r.body.as_slice()), (200, PRE_32.as_bytes()));
    let r = https_get(
        &s,
        &ca,
        "/config/worker",
        &[
            (
                "Authorization",
                &format!("Bearer {}", token_for(&a, "worker")),
            ),
            ("Accept", &accept("3.4.0")),
        ],
    );
    assert_eq!((r.status, r.body.as_slice()), (200, FULL_34.as_bytes()));
    // A pool without a pre-approval set gives nothing without a token.
    assert_eq!(https_get(&s, &ca, "/config/infra", &[]).status, 404);
    assert!(s.stderr().contains("auth: split"));
}

#[test]
fn auth_none_warns_loudly() {
    let (d, a) = setup();
    let s = Serve::start(d.path(), &["--auth", "none"]);
    assert!(s.stderr().contains("WARNING: auth none"), "{}", s.stderr());
    let r = https_get(
        &s,
        &a.join("tls/mcs-ca.crt"),
        "/config/worker",
        &[("Accept", &accept("3.4.0"))],
    );
    assert_eq!((r.status, r.body.as_slice()), (200, FULL_34.as_bytes()));
}

#[test]
fn a_trickling_client_is_cut_off_while_others_are_served() {
    let (d, a) = setup();
    let s = Serve::start(d.path(), &["--header-timeout", "2s"]);
    let ca = a.join("tls/mcs-ca.crt");
    let mut slow = Https::connect(s.addr, &ca);
    slow.send(b"GET /config/worker HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        .unwrap();
    let start = Instant::now();
    let mut cut = false;
    while start.elapsed() < Duration::from_secs(8) {
        // One header line per 500 ms: never completes the head.
        if slow.send(b"X-Slow: a\r\n").is_err() {
            cut = true;
            break;
        }
        assert_eq!(
            https_get(&s, &ca, "/healthz", &[]).status,
            200,
            "others are served meanwhile"
        );
        std::thread::sleep(Duration::from_millis(500));
    }
    if !cut {
        // The write may still succeed into the socket buffer: the read tells.
        cut = slow.read_response(false).is_err();
    }
    assert!(cut, "the trickling client was not cut off");
    assert!(start.elapsed() < Duration::from_secs(8));
}

#[test]
fn connection_limit_closes_extra_connections() {
    let (d, a) = setup();
    // One client: its own idle connections are never closed to let it in again.
    let s = Serve::start(
        d.path(),
        &[
            "--max-connections",
            "2",
            "--max-connections-per-client",
            "2",
        ],
    );
    let ca = a.join("tls/mcs-ca.crt");
    let mut c1 = Https::connect(s.addr, &ca);
    let mut c2 = Https::connect(s.addr, &ca);
    assert_eq!(c1.request("GET", "/healthz", &[]).unwrap().status, 200);
    assert_eq!(c2.request("GET", "/healthz", &[]).unwrap().status, 200);
    let mut tcp = std::net::TcpStream::connect(s.addr).unwrap();
    tcp.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
    let mut b = [0u8; 1];
    assert!(
        matches!(tcp.read(&mut b), Ok(0) | Err(_)),
        "a third connection must be closed"
    );
    drop(c1);
    // The slot frees once serve sees the close: poll for it, bounded.
    let start = std::time::Instant::now();
    let freed = loop {
        let ok = Https::connect(s.addr, &ca)
            .request("GET", "/healthz", &[])
            .is_ok_and(|r| r.status == 200);
        if ok || start.elapsed() > Duration::from_secs(5) {
            break ok;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    assert!(freed, "a freed slot is usable again");
}

#[test]
fn reload_on_change_keeps_last_good_state_and_follows_symlink_swaps() {
    let d = demo(&["--san", "127.0.0.1"]);
    let a = d.path().join("mcs-assets");
    render(&a, "worker", FULL_34, None);
    // Kubernetes-style mount: tls/ files are symlinks into ..data, which is swapped.
    let v1 = a.join("tls/..2026_v1");
    std::fs::create_dir(&v1).unwrap();
    for f in ["mcs.crt", "mcs.key"] {
        std::fs::rename(a.join("tls").join(f), v1.join(f)).unwrap();
    }
    std::os::unix::fs::symlink("..2026_v1", a.join("tls/..data")).unwrap();
    for f in ["mcs.crt", "mcs.key"] {
        std::os::unix::fs::symlink(format!("..data/{f}"), a.join("tls").join(f)).unwrap();
    }
    let mut s = Serve::start(d.path(), &[]);
    let ca = a.join("tls/mcs-ca.crt");
    let before = Https::connect(s.addr, &ca).peer_leaf();

    // A bad tokens.json: logged, the last good tokens keep working.
    let good = std::fs::read(a.join("auth/tokens.json")).unwrap();
    std::fs::write(a.join("auth/tokens.json"), "{ not json").unwrap();
    assert!(
        s.wait_stderr("reload-failed", Duration::from_secs(10)),
        "{}",
        s.stderr()
    );
    assert!(s.stderr().contains("keeping its last good state"));
    let bearer = format!("Bearer {}", tokens_of(&good));
    assert_eq!(
        https_get(&s, &ca, "/config/worker", &[("Authorization", &bearer)]).status,
        200
    );
    std::fs::write(a.join("auth/tokens.json"), &good).unwrap();

    // New certificate into a new ..data target, swapped atomically.
    let v2 = a.join("tls/..2026_v2");
    std::fs::create_dir(&v2).unwrap();
    let other = demo(&["--san", "127.0.0.1"]);
    // Renew within this asset directory's CA: copy the CA in, renew, then move the results.
    let tmp = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(tmp.path().join("mcs-assets")).unwrap();
    crate::support::copy_dir(&a, &tmp.path().join("mcs-assets"));
    for f in ["mcs.crt", "mcs.key"] {
        let target = tmp.path().join("mcs-assets/tls").join(f);
        std::fs::remove_file(&target).unwrap();
        std::fs::copy(v1.join(f), &target).unwrap();
    }
    ok(tmp.path(), &["cert", "renew", "-q"]);
    for f in ["mcs.crt", "mcs.key"] {
        std::fs::copy(tmp.path().join("mcs-assets/tls").join(f), v2.join(f)).unwrap();
    }
    std::os::unix::fs::symlink("..2026_v2", a.join("tls/..data_tmp")).unwrap();
    std::fs::rename(a.join("tls/..data_tmp"), a.join("tls/..data")).unwrap();
    drop(other);
    let start = Instant::now();
    let mut after = before.clone();
    while start.elapsed() < Duration::from_secs(10) && after == before {
        std::thread::sleep(Duration::from_millis(200));
        after = Https::connect(s.addr, &ca).peer_leaf();
    }
    assert_ne!(
        after,
        before,
        "new connections must get the new certificate:\n{}",
        s.stderr()
    );
    assert_eq!(after, pem_der(&v2.join("mcs.crt")));

    // SIGHUP reloads at once; SIGTERM exits 0.
    s.signal("HUP");
    assert!(
        s.wait_stderr("reloaded on SIGHUP", Duration::from_secs(10)),
        "{}",
        s.stderr()
    );
    s.signal("TERM");
    assert_eq!(
        s.wait_exit(Duration::from_secs(20)),
        Some(0),
        "{}",
        s.stderr()
    );
}

fn tokens_of(store: &[u8]) -> String {
    let v: serde_json::Value = serde_json::from_slice(store).unwrap();
    format!(
        "{}.{}",
        v["tokens"][0]["id"].as_str().unwrap(),
        v["tokens"][0]["secret"].as_str().unwrap()
    )
}

fn pem_der(p: &std::path::Path) -> Vec<u8> {
    let (_, pem) = x509_parser::pem::parse_x509_pem(&std::fs::read(p).unwrap()).unwrap();
    pem.contents
}

#[test]
fn sigterm_finishes_the_request_in_flight() {
    let (d, a) = setup();
    let mut s = Serve::start(d.path(), &[]);
    let ca = a.join("tls/mcs-ca.crt");
    let bearer = format!("Bearer {}", token_for(&a, "worker"));
    let mut c = Https::connect(s.addr, &ca);
    // Half a request is on the wire when SIGTERM arrives.
    c.send(b"GET /config/worker HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        .unwrap();
    std::thread::sleep(Duration::from_millis(200));
    s.signal("TERM");
    std::thread::sleep(Duration::from_millis(300));
    c.send(
        format!(
            "Authorization: {bearer}\r\nAccept: {}\r\n\r\n",
            accept("3.4.0")
        )
        .as_bytes(),
    )
    .unwrap();
    let r = c.read_response(false).unwrap();
    assert_eq!(r.status, 200);
    assert_eq!(r.body, FULL_34.as_bytes());
    assert_eq!(
        s.wait_exit(Duration::from_secs(20)),
        Some(0),
        "{}",
        s.stderr()
    );
    // And nothing listens any more.
    assert!(std::net::TcpStream::connect(s.addr).is_err());
}

#[test]
fn bad_startup_is_one_error_line() {
    let d = demo(&[]);
    std::fs::write(d.path().join("mcs-assets/tls/mcs.key"), "garbage").unwrap();
    let (code, _, err) = run(d.path(), &["serve", "--listen", "127.0.0.1:0"]);
    assert_eq!(code, 1);
    assert!(
        err.starts_with("error: ") && err.contains("mcs.key") && err.lines().count() == 1,
        "{err}"
    );
    let (code, _, err) = run(d.path(), &["serve", "--listen", "not-an-address"]);
    assert_eq!(code, 2, "{err}");
}

#[test]
fn tls_12_and_13_both_resume_sessions() {
    use std::io::Write;
    use std::sync::Arc;
    let (d, a) = setup();
    let s = Serve::start(d.path(), &[]);
    let mut roots = rustls::RootCertStore::empty();
    for c in
        <rustls::pki_types::CertificateDer as rustls::pki_types::pem::PemObject>::pem_file_iter(
            a.join("tls/mcs-ca.crt"),
        )
        .unwrap()
    {
        roots.add(c.unwrap()).unwrap();
    }
    for (name, version) in [
        ("TLSv1_2", &rustls::version::TLS12),
        ("TLSv1_3", &rustls::version::TLS13),
    ] {
        let config = Arc::new(
            rustls::ClientConfig::builder_with_provider(Arc::new(
                rustls::crypto::aws_lc_rs::default_provider(),
            ))
            .with_protocol_versions(&[version])
            .unwrap()
            .with_root_certificates(roots.clone())
            .with_no_client_auth(),
        );
        let mut kinds = Vec::new();
        for _ in 0..2 {
            let tcp = std::net::TcpStream::connect(s.addr).unwrap();
            tcp.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
            let conn =
                rustls::ClientConnection::new(config.clone(), "127.0.0.1".try_into().unwrap())
                    .unwrap();
            let mut tls = rustls::StreamOwned::new(conn, tcp);
            tls.write_all(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
                .unwrap();
            let mut resp = Vec::new();
            let _ = tls.read_to_end(&mut resp);
            assert!(
                String::from_utf8_lossy(&resp).starts_with("HTTP/1.1 200"),
                "{name}"
            );
            assert_eq!(format!("{:?}", tls.conn.protocol_version().unwrap()), name);
            kinds.push(tls.conn.handshake_kind().unwrap());
        }
        assert_eq!(
            kinds,
            [rustls::HandshakeKind::Full, rustls::HandshakeKind::Resumed],
            "{name}"
        );
    }
}

#[test]
fn insecure_listener_serves_plain_http_with_the_same_rules() {
    use std::io::Write;
    let (d, a) = setup();
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let s = Serve::start(
        d.path(),
        &["--insecure-listen", &format!("127.0.0.1:{port}")],
    );
    assert!(
        s.stderr()
            .contains(&format!("http://127.0.0.1:{port} (plain HTTP)")),
        "{}",
        s.stderr()
    );
    assert!(
        s.stderr().contains("WARNING: the plain HTTP listener"),
        "{}",
        s.stderr()
    );
    let get = |headers: &str| {
        let mut c = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
        c.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
        write!(
            c,
            "GET /config/worker HTTP/1.1\r\nHost: x\r\nConnection: close\r\n{headers}\r\n"
        )
        .unwrap();
        let mut out = String::new();
        let _ = c.read_to_string(&mut out);
        out
    };
    assert!(get("").starts_with("HTTP/1.1 401"));
    let ok_resp = get(&format!(
        "Authorization: Bearer {}\r\nAccept: {}\r\n",
        token_for(&a, "worker"),
        accept("3.4.0")
    ));
    assert!(
        ok_resp.starts_with("HTTP/1.1 200") && ok_resp.ends_with(FULL_34),
        "{ok_resp}"
    );
    // A header value is read as text only when it is visible ASCII (and tabs), as
    // `HeaderValue::to_str` reads it: a control character or DEL is refused by hyper's parser
    // before serve sees the request; a byte past ASCII leaves the token unread.
    let raw = |auth_tail: &[u8]| {
        let mut c = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
        c.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
        let mut req = b"GET /config/worker HTTP/1.1\r\nHost: x\r\nConnection: close\r\n".to_vec();
        req.extend_from_slice(
            format!("Authorization: Bearer {}", token_for(&a, "worker")).as_bytes(),
        );
        req.extend_from_slice(auth_tail);
        req.extend_from_slice(b"\r\n\r\n");
        c.write_all(&req).unwrap();
        let mut out = Vec::new();
        let _ = c.read_to_end(&mut out);
        String::from_utf8_lossy(&out).into_owned()
    };
    assert!(raw(b"").starts_with("HTTP/1.1 200"));
    assert!(raw(b"\t").starts_with("HTTP/1.1 200"));
    for bad in [&b"\x01"[..], b"\x7f", b"x\x1fy"] {
        let r = raw(bad);
        assert!(r.starts_with("HTTP/1.1 400"), "{bad:?}: {r}");
    }
    let r = raw("é".as_bytes());
    assert!(
        r.starts_with("HTTP/1.1 401") && r.contains("a valid provisioning token is required"),
        "{r}"
    );
}

#[test]
fn a_pools_token_fetches_its_own_pool_only() {
    let (d, a) = setup();
    let s = Serve::start(d.path(), &[]);
    let ca = a.join("tls/mcs-ca.crt");
    let with = |pool: &str| format!("Bearer {}", token_for(&a, pool));
    let get = |target: &str, bearer: &str| {
        https_get(
            &s,
            &ca,
            target,
            &[("Authorization", bearer), ("Accept", &accept("3.4.0"))],
        )
    };
    // The worker pointer's token asks for another pool: 403, naming both.
    let worker = with("worker");
    let id = token_for(&a, "worker")
        .split_once('.')
        .unwrap()
        .0
        .to_string();
    let r = get("/config/infra", &worker);
    assert_eq!(r.status, 403, "{}", r.text());
    assert_eq!(
        r.text(),
        format!(
            "token {id} may fetch the config of pool worker only, not infra: each pointer config carries its own pool's token\n"
        )
    );
    let line = s.access_log_with("/config/infra");
    assert!(line.contains("\"status\":403"), "{line}");
    // Its own pool, and the other pool with the other pool's token.
    assert_eq!(get("/config/worker", &worker).status, 200);
    assert_eq!(get("/config/infra", &with("infra")).status, 200);
    // A pool without a config is 404 whatever the token.
    assert_eq!(get("/config/nosuch", &worker).status, 404);
    // A scope refusal is no guess: it never leads to 429.
    for _ in 0..30 {
        assert_eq!(get("/config/infra", &worker).status, 403);
    }
    assert_eq!(get("/config/worker", &worker).status, 200);
    // The inspect of a pointer config sent to another pool says it will get 403.
    let mut p: serde_json::Value =
        serde_json::from_slice(&std::fs::read(a.join("worker.ign")).unwrap()).unwrap();
    p["ignition"]["config"]["merge"][0]["source"] =
        "https://api-int.demo.example.com:22623/config/infra".into();
    std::fs::write(d.path().join("moved.ign"), p.to_string()).unwrap();
    let (code, out, _) = run(d.path(), &["inspect", "moved.ign"]);
    assert_eq!(code, 4, "{out}");
    assert!(
        out.contains(&format!("moved.ign: token {id} may fetch pool worker only, but this pointer config fetches pool infra: the server will answer 403")),
        "{out}"
    );
}

#[test]
fn tokens_from_before_scopes_keep_working_and_inspect_warns() {
    let (d, a) = setup();
    // A version 1 store, as an older mcsctl wrote it: one token, no scope.
    let bearer = token_for(&a, "worker");
    let (id, secret) = bearer.split_once('.').unwrap();
    let v1 = serde_json::json!({"formatVersion": 1, "tokens": [{"id": id, "secret": secret,
        "created": "2026-01-01T00:00:00Z", "expires": null, "state": "current"}]});
    // Every pointer config carried that one token.
    for pool in ["master", "infra"] {
        let f = a.join(format!("{pool}.ign"));
        let text = std::fs::read_to_string(&f)
            .unwrap()
            .replace(&token_for(&a, pool), &bearer);
        std::fs::write(&f, text).unwrap();
    }
    std::fs::write(a.join("auth/tokens.json"), v1.to_string()).unwrap();
    let s = Serve::start(d.path(), &[]);
    let ca = a.join("tls/mcs-ca.crt");
    for pool in ["worker", "infra"] {
        let r = https_get(
            &s,
            &ca,
            &format!("/config/{pool}"),
            &[
                ("Authorization", &format!("Bearer {bearer}")),
                ("Accept", &accept("3.4.0")),
            ],
        );
        assert_eq!(r.status, 200, "{pool}");
    }
    let (code, out, _) = run(d.path(), &["inspect"]);
    assert_eq!(code, 3, "{out}");
    assert!(
        out.contains(&format!("token {id} has no pool scope (made before scopes existed): it fetches every pool's config")),
        "{out}"
    );
    // token rotate gives each pool its own; the old one is the predecessor of each.
    let out = ok(d.path(), &["token", "rotate", "--grace", "1h"]);
    assert!(
        out.contains("worker: current token ")
            && out.matches(&format!("(replaces {id},")).count() == 3,
        "{out}"
    );
    let store: serde_json::Value =
        serde_json::from_slice(&std::fs::read(a.join("auth/tokens.json")).unwrap()).unwrap();
    assert_eq!(store["formatVersion"], 2);
    assert_ne!(token_for(&a, "worker"), token_for(&a, "master"));
}

/// One TLS session resumed with openssl s_client: (reused, transcript).
fn resume(d: &std::path::Path, s: &Serve, ca: &std::path::Path, sess_in: bool) -> (bool, String) {
    let text = s_client(
        d,
        s,
        ca,
        &if sess_in {
            ["-sess_in", "sess.pem"]
        } else {
            ["-sess_out", "sess.pem"]
        },
    );
    (text.contains("Reused, TLSv1.3"), text)
}

/// openssl s_client's transcript (with `-msg`) of one GET /healthz, given `extra` arguments.
fn s_client(d: &std::path::Path, s: &Serve, ca: &std::path::Path, extra: &[&str]) -> String {
    use std::io::Write;
    let openssl = crate::support::openssl().expect("openssl");
    let connect = format!("127.0.0.1:{}", s.addr.port());
    let mut args = vec![
        "s_client",
        "-connect",
        &connect,
        "-CAfile",
        ca.to_str().unwrap(),
        "-ign_eof",
        "-msg",
    ];
    args.extend(extra);
    let mut child = std::process::Command::new(openssl)
        .args(&args)
        .current_dir(d)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// serve picks AES-128-GCM with SHA-256 whatever order the client gives (its key schedule is
/// the cheapest on the server), and sends one session ticket per handshake, not two.
#[test]
fn serve_picks_the_cheapest_suite_and_sends_one_ticket() {
    let (d, a) = setup();
    let s = Serve::start(d.path(), &[]);
    let ca = a.join("tls/mcs-ca.crt");
    let text = s_client(
        d.path(),
        &s,
        &ca,
        &[
            "-ciphersuites",
            "TLS_AES_256_GCM_SHA384:TLS_CHACHA20_POLY1305_SHA256:TLS_AES_128_GCM_SHA256",
        ],
    );
    assert!(
        text.contains("Cipher is TLS_AES_128_GCM_SHA256") && text.contains("HTTP/1.1 200"),
        "{text}"
    );
    assert_eq!(
        text.matches("NewSessionTicket").count(),
        1,
        "one ticket per handshake:\n{text}"
    );
    // A client that offers AES-256-GCM only still gets it.
    let text = s_client(
        d.path(),
        &s,
        &ca,
        &["-ciphersuites", "TLS_AES_256_GCM_SHA384"],
    );
    assert!(text.contains("Cipher is TLS_AES_256_GCM_SHA384"), "{text}");
}

/// A token rotation (or a render) reloads tokens and configs but not TLS: the configuration
/// and its ticket keys stay, so a machine's session resumes across the reload. A new serving
/// certificate does rebuild it.
#[test]
fn a_reload_that_does_not_touch_tls_keeps_sessions_resumable() {
    let (d, a) = setup();
    let s = Serve::start(d.path(), &[]);
    let ca = a.join("tls/mcs-ca.crt");
    let (reused, text) = resume(d.path(), &s, &ca, false);
    assert!(!reused && text.contains("HTTP/1.1 200"), "{text}");
    ok(d.path(), &["token", "rotate", "--grace", "1h", "-q"]);
    s.reload();
    let (reused, text) = resume(d.path(), &s, &ca, true);
    assert!(reused, "not resumed after a token rotation:\n{text}");
    ok(d.path(), &["cert", "renew", "-q"]);
    s.reload();
    assert!(s.stderr().contains("certificate sha256"), "{}", s.stderr());
    let (reused, text) = resume(d.path(), &s, &ca, true);
    assert!(
        !reused,
        "a new certificate makes a new configuration:\n{text}"
    );
}

/// A config of long files (served as slices of the 3.5.0 body, see `ignition::sharing`) goes out
/// whole at every spec: the same files, one of them twice, with only the version (3.x) or the
/// shape (2.2) changed.
#[test]
fn a_config_of_long_files_goes_out_whole_at_every_spec() {
    let (d, a) = setup();
    let data: Vec<String> = (0..3u32)
        .map(|i| {
            (0..40_000u32)
                .map(|j| char::from(b'a' + ((i * 7 + j * 13) % 26) as u8))
                .collect()
        })
        .collect();
    let file = |path: &str, i: usize| serde_json::json!({"path": path, "mode": 420, "contents": {"source": format!("data:,{}", data[i])}});
    let full = serde_json::json!({"ignition": {"version": "3.4.0"}, "storage": {"files": [
        file("/etc/a", 0), file("/etc/b", 1), file("/etc/c", 0), file("/etc/d", 2)]}});
    let full = serde_json::to_string(&full).unwrap();
    render(&a, "worker", &full, None);
    let s = Serve::start(d.path(), &[]);
    let ca = a.join("tls/mcs-ca.crt");
    let bearer = format!("Bearer {}", token_for(&a, "worker"));
    let mut newest = String::new();
    for v in [
        "3.5.0", "3.4.0", "3.3.0", "3.2.0", "3.1.0", "3.0.0", "2.2.0",
    ] {
        let accept = accept(v);
        let r = https_get(
            &s,
            &ca,
            "/config/worker",
            &[
                ("Authorization", bearer.as_str()),
                ("Accept", accept.as_str()),
            ],
        );
        assert_eq!(r.status, 200, "{v}");
        assert_eq!(
            r.header("content-length"),
            Some(r.body.len().to_string().as_str())
        );
        assert_eq!(version_of(&r.body), v);
        if v.starts_with('3') {
            let text = String::from_utf8(r.body).unwrap();
            if v == "3.5.0" {
                newest = text.clone();
                let got: serde_json::Value = serde_json::from_str(&text).unwrap();
                let mut want: serde_json::Value = serde_json::from_str(&full).unwrap();
                want["ignition"]["version"] = "3.5.0".into();
                assert_eq!(got, want);
            }
            assert_eq!(text.replacen(v, "3.5.0", 1), newest, "{v}");
            continue;
        }
        let got: serde_json::Value = serde_json::from_slice(&r.body).unwrap();
        let sources: Vec<&str> = got["storage"]["files"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f["contents"]["source"].as_str().unwrap())
            .collect();
        let want: Vec<String> = [0, 1, 0, 2]
            .iter()
            .map(|&i| format!("data:,{}", data[i]))
            .collect();
        assert_eq!(sources, want);
        assert_eq!(got["storage"]["files"][3]["filesystem"], "root");
    }
}

/// `serve --reload` reaches the serves of one directory and no other process: each serve
/// writes run/serve-PID.pid (0600) in its asset directory and removes it when it stops; a
/// file left by a serve killed with SIGKILL is removed, and nothing is signalled for it.
#[test]
fn serve_reload_signals_the_serves_of_its_directory_only() {
    use std::os::unix::fs::PermissionsExt;
    let a = demo(&["--san", "127.0.0.1"]);
    let b = demo(&["--san", "127.0.0.1"]);
    render(
        &a.path().join("mcs-assets"),
        "worker",
        r#"{"ignition":{"version":"3.2.0"}}"#,
        None,
    );
    render(
        &b.path().join("mcs-assets"),
        "worker",
        r#"{"ignition":{"version":"3.2.0"}}"#,
        None,
    );
    let (code, _, err) = run(a.path(), &["serve", "--reload"]);
    assert_eq!(code, 1);
    assert_eq!(
        err,
        "error: no serve of mcs-assets is running: no mcs-assets/run/serve-*.pid names a live serve (a serve that cannot write there, in a pod say, reloads on SIGHUP and every --reload-interval)\n"
    );
    let mut sa = Serve::start(a.path(), &[]);
    let sb = Serve::start(b.path(), &[]);
    let file = a
        .path()
        .join(format!("mcs-assets/run/serve-{}.pid", sa.pid()));
    assert_eq!(
        std::fs::metadata(&file).unwrap().permissions().mode() & 0o777,
        0o600
    );
    let out = ok(a.path(), &["serve", "--reload"]);
    assert_eq!(
        out,
        format!("reloaded serve {} (listening on {})\n", sa.pid(), sa.addr)
    );
    assert!(
        sa.wait_stderr("reloaded on SIGHUP", Duration::from_secs(10)),
        "{}",
        sa.stderr()
    );
    assert!(
        !sb.stderr().contains("reloaded on SIGHUP"),
        "{}",
        sb.stderr()
    );
    // Stopped as it should be: its file goes with it.
    sa.signal("TERM");
    assert_eq!(sa.wait_exit(Duration::from_secs(30)), Some(0));
    assert!(!file.exists());
    // Killed: the file stays, and --reload removes it without signalling anything.
    let mut sa = Serve::start(a.path(), &[]);
    let pid = sa.pid();
    let file = a.path().join(format!("mcs-assets/run/serve-{pid}.pid"));
    sa.signal("KILL");
    sa.wait_exit(Duration::from_secs(10));
    assert!(file.exists());
    let (code, _, err) = run(a.path(), &["serve", "--reload"]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.starts_with(&format!(
            "warning: removed run/serve-{pid}.pid: serve {pid} is gone (killed without its shutdown)\n"
        )),
        "{err}"
    );
    assert!(!file.exists());
}
