//! `mcsctl doctor` against a live `mcsctl serve`: healthy, another CA, a wrong token, an unknown
//! pool, and nothing listening. Each failure names its step and exits 4.

use crate::serve::FULL_34;
use crate::support::{Redactor, Serve, demo, golden, ok, render, run};

fn setup() -> (tempfile::TempDir, Serve) {
    let d = demo(&["--san", "127.0.0.1"]);
    render(&d.path().join("mcs-assets"), "worker", FULL_34, None);
    let s = Serve::start(d.path(), &[]);
    (d, s)
}

/// Every test server listens on loopback; the pointer names api-int.
const RESOLVE: &str = "api-int.demo.example.com:127.0.0.1";

fn pointer_at(d: &std::path::Path, port: u16, pool: &str, out: &str) {
    let url = format!("https://api-int.demo.example.com:{port}/config/{pool}");
    ok(
        d,
        &[
            "pointer",
            "--pool",
            pool,
            "--url",
            &url,
            "--output",
            out,
            "--force",
            "-q",
            "--new-pool",
        ],
    );
}

fn failed_step(out: &str) -> String {
    let v: serde_json::Value = serde_json::from_str(out).unwrap();
    let steps = v["steps"].as_array().unwrap();
    let last = steps.last().unwrap();
    assert_eq!(last["status"], "fail", "{out}");
    assert!(
        last["fix"].as_str().is_some_and(|f| !f.is_empty()),
        "a failure must say the fix: {out}"
    );
    assert_eq!(v["exitCode"], 4);
    last["step"].as_str().unwrap().to_string()
}

#[test]
fn healthy_server_passes_every_step() {
    let (d, s) = setup();
    pointer_at(d.path(), s.addr.port(), "worker", "lab.ign");
    let (code, out, err) = run(d.path(), &["doctor", "lab.ign", "--resolve", RESOLVE]);
    assert_eq!(code, 0, "{out}{err}");
    let r = Redactor::new(d.path(), Some(&d.path().join("mcs-assets")));
    golden("doctor-ok.txt", &r.apply(&out));
    let (code, out, _) = run(
        d.path(),
        &[
            "doctor",
            "lab.ign",
            "--resolve",
            RESOLVE,
            "--format",
            "json",
            "--ignition-spec",
            "3.2.0",
        ],
    );
    assert_eq!(code, 0, "{out}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let steps: Vec<&str> = v["steps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["step"].as_str().unwrap())
        .collect();
    assert_eq!(
        steps,
        [
            "parse",
            "resolve",
            "connect",
            "tls",
            "request",
            "status",
            "body",
            "config",
            "references"
        ]
    );
    assert!(
        v["steps"][7]["detail"]
            .as_str()
            .unwrap()
            .contains("Ignition 3.2.0 config"),
        "{out}"
    );
    // The token never appears in the report.
    for t in crate::support::tokens(&d.path().join("mcs-assets")) {
        assert!(!out.contains(t.split('.').nth(1).unwrap()));
    }
}

#[test]
fn server_with_another_ca_fails_at_tls() {
    let (_d, s) = setup();
    let other = demo(&["--san", "127.0.0.1"]);
    pointer_at(other.path(), s.addr.port(), "worker", "lab.ign");
    let (code, out, _) = run(
        other.path(),
        &[
            "doctor",
            "lab.ign",
            "--resolve",
            RESOLVE,
            "--format",
            "json",
        ],
    );
    assert_eq!(code, 4);
    assert_eq!(failed_step(&out), "tls");
    assert!(
        out.contains("x509: certificate signed by unknown authority") && out.contains("key id"),
        "{out}"
    );
    let (_, text, _) = run(other.path(), &["doctor", "lab.ign", "--resolve", RESOLVE]);
    assert!(
        text.contains("failed at step tls") && text.contains("fix: the pointer would need the CA"),
        "{text}"
    );
}

#[test]
fn wrong_token_fails_at_status_401() {
    let (d, s) = setup();
    pointer_at(d.path(), s.addr.port(), "worker", "lab.ign");
    crate::support::rotate_and_revoke(d.path());
    assert!(s.wait_stderr("\"event\":\"reload\"", std::time::Duration::from_secs(10)));
    let (code, out, _) = run(
        d.path(),
        &[
            "doctor",
            "lab.ign",
            "--resolve",
            RESOLVE,
            "--format",
            "json",
        ],
    );
    assert_eq!(code, 4);
    assert_eq!(failed_step(&out), "status");
    assert!(out.contains("401") && out.contains("stale"), "{out}");
}

#[test]
fn unknown_pool_fails_at_status_404() {
    let (d, s) = setup();
    pointer_at(d.path(), s.addr.port(), "storage", "storage.ign");
    // The pool had no token: `pointer` made one, which serve takes at its next reload.
    s.reload();
    let (code, out, _) = run(
        d.path(),
        &[
            "doctor",
            "storage.ign",
            "--resolve",
            RESOLVE,
            "--format",
            "json",
        ],
    );
    assert_eq!(code, 4);
    assert_eq!(failed_step(&out), "status");
    assert!(out.contains("404") && out.contains("storage"), "{out}");
}

#[test]
fn nothing_listening_fails_at_connect() {
    let d = demo(&["--san", "127.0.0.1"]);
    // A port that was just free.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    pointer_at(d.path(), port, "worker", "lab.ign");
    let (code, out, _) = run(
        d.path(),
        &[
            "doctor",
            "lab.ign",
            "--resolve",
            "api-int.demo.example.com:127.0.0.1",
            "--format",
            "json",
        ],
    );
    assert_eq!(code, 4);
    assert_eq!(failed_step(&out), "connect");
    assert!(out.contains("mcsctl serve"), "{out}");
}

#[test]
fn unresolvable_host_and_bad_pointer() {
    let d = demo(&[]);
    ok(
        d.path(),
        &[
            "pointer",
            "--pool",
            "worker",
            "--url",
            "https://no-such-host.invalid:22623/config/worker",
            "--output",
            "x.ign",
            // The certificate does not name the host either: written anyway.
            "--force",
            "-q",
        ],
    );
    let (code, out, _) = run(
        d.path(),
        &["doctor", "x.ign", "--format", "json", "--timeout", "3s"],
    );
    assert_eq!(code, 4);
    assert_eq!(failed_step(&out), "resolve");
    std::fs::write(d.path().join("bad.ign"), "not json").unwrap();
    let (code, out, _) = run(d.path(), &["doctor", "bad.ign", "--format", "json"]);
    assert_eq!(code, 4);
    assert_eq!(failed_step(&out), "parse");
    let (code, _, err) = run(d.path(), &["doctor", "--resolve", "garbage"]);
    assert_eq!(code, 2, "{err}");
}

#[test]
fn follows_merge_references_of_the_returned_config() {
    let d = demo(&["--san", "127.0.0.1"]);
    let a = d.path().join("mcs-assets");
    // The merge reference carries a token of its own pool.
    let token = crate::support::pools_token(d.path(), &["infra"]);
    render(&a, "infra", FULL_34, None);
    let s = Serve::start(d.path(), &[]);
    let port = s.addr.port();
    // The served worker config merges an inline config and another pool of the same server.
    let inline = "data:,%7B%22ignition%22%3A%7B%22version%22%3A%223.2.0%22%7D%7D";
    let worker = serde_json::json!({"ignition": {"version": "3.2.0", "config": {"merge": [
        {"source": inline},
        {"source": format!("https://api-int.demo.example.com:{port}/config/infra"),
         "httpHeaders": [{"name": "Authorization", "value": format!("Bearer {token}")}]},
    ]}}});
    std::fs::write(a.join("rendered/worker.ign"), worker.to_string()).unwrap();
    s.signal("HUP");
    assert!(
        s.wait_stderr(
            r#"pools [\"infra\", \"worker\"]"#,
            std::time::Duration::from_secs(10)
        ),
        "{}",
        s.stderr()
    );
    pointer_at(d.path(), port, "worker", "lab.ign");
    let doctor = [
        "doctor",
        "lab.ign",
        "--resolve",
        "api-int.demo.example.com:127.0.0.1",
        "--format",
        "json",
    ];
    let (code, out, _) = run(d.path(), &doctor);
    assert_eq!(code, 0, "{out}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let steps: Vec<&str> = v["steps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["step"].as_str().unwrap())
        .collect();
    for want in [
        "ref[1] config",
        "ref[2] tls",
        "ref[2] status",
        "ref[2] config",
        "ref[2] references",
    ] {
        assert!(steps.contains(&want), "{want} missing: {steps:?}");
    }
    // The referenced pool vanishes: the failure is the reference's status step.
    std::fs::remove_file(a.join("rendered/infra.ign")).unwrap();
    s.signal("HUP");
    assert!(
        s.wait_stderr(r#"pools [\"worker\"]"#, std::time::Duration::from_secs(10)),
        "{}",
        s.stderr()
    );
    let (code, out, _) = run(d.path(), &doctor);
    assert_eq!(code, 4);
    assert_eq!(failed_step(&out), "ref[2] status");
}

/// A plain-HTTP server on a free loopback port that answers each of `answers` connections, in
/// order, with the given bytes after reading the request head, then closes (no close_notify
/// to worry about: plain TCP).
/// An answer ending in `RESET` is sent without those bytes and the connection reset after it.
fn raw_server(answers: Vec<Vec<u8>>) -> (u16, std::thread::JoinHandle<()>) {
    use std::io::{Read, Write};
    let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = l.local_addr().unwrap().port();
    let h = std::thread::spawn(move || {
        for answer in answers {
            let (mut s, _) = l.accept().unwrap();
            let mut head = Vec::new();
            let mut b = [0u8; 1024];
            while !head.windows(4).any(|w| w == b"\r\n\r\n") {
                match s.read(&mut b) {
                    Ok(0) | Err(_) => break,
                    Ok(n) => head.extend_from_slice(&b[..n]),
                }
            }
            match answer.strip_suffix(b"RESET") {
                Some(a) => {
                    let _ = s.write_all(a);
                    socket2::SockRef::from(&s)
                        .set_linger(Some(std::time::Duration::ZERO))
                        .unwrap();
                }
                None => {
                    let _ = s.write_all(&answer);
                }
            }
        }
    });
    (port, h)
}

/// A pointer config fetching `http://127.0.0.1:PORT/config/worker`, written by hand.
fn http_pointer(d: &std::path::Path, port: u16) -> std::path::PathBuf {
    let p = d.join("http.ign");
    let v = serde_json::json!({"ignition": {"version": "3.2.0", "config": {"merge": [
        {"source": format!("http://127.0.0.1:{port}/config/worker")}]}}});
    std::fs::write(&p, v.to_string()).unwrap();
    p
}

/// doctor fails what Ignition fails: a chunked body cut off before its last chunk (Go's
/// client reports "unexpected EOF" and Ignition retries for ever), a connection reset after
/// the head, and a config nested deeper than the 10,000 levels of Ignition's JSON parser
/// (coreos/go-json's maxNestingDepth: "exceeded max depth"), even inside a field Ignition
/// ignores. Nesting Ignition accepts (deeper than serde_json's default 128) still passes.
#[test]
fn a_cut_body_or_json_too_deep_for_ignition_fails() {
    let d = tempfile::tempdir().unwrap();
    let config = |depth: usize| {
        format!(
            r#"{{"ignition":{{"version":"3.2.0"}},"x":{}1{}}}"#,
            "[".repeat(depth),
            "]".repeat(depth)
        )
    };
    let plain = |body: &str| {
        format!(
            "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        )
        .into_bytes()
    };
    let ok_body = config(5000);
    let whole = r#"{"ignition":{"version":"3.2.0"}}"#;
    let chunked_cut = format!(
        "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n{:x}\r\n{}\r\n",
        whole.len() - 3,
        &whole[..whole.len() - 3]
    )
    .into_bytes();
    let reset = format!(
        "HTTP/1.1 200 OK\r\nContent-Length: {}\r\n\r\n{}RESET",
        whole.len() + 10,
        whole
    )
    .into_bytes();
    let (port, server) = raw_server(vec![
        plain(&ok_body),
        chunked_cut,
        reset,
        plain(&config(10_000)),
        plain(&config(9_999)),
    ]);
    let p = http_pointer(d.path(), port);
    let doctor = ["doctor", p.to_str().unwrap(), "--format", "json"];

    let (code, out, _) = run(d.path(), &doctor);
    assert_eq!(code, 0, "5,000 levels are within Ignition's limit: {out}");

    let (code, out, _) = run(d.path(), &doctor);
    assert_eq!(code, 4, "{out}");
    assert_eq!(failed_step(&out), "body", "{out}");
    assert!(out.contains("cut off"), "{out}");

    let (code, out, _) = run(d.path(), &doctor);
    assert_eq!(code, 4, "{out}");
    assert_eq!(failed_step(&out), "body", "{out}");
    assert!(out.contains("reset"), "{out}");

    let (code, out, _) = run(d.path(), &doctor);
    assert_eq!(code, 4, "{out}");
    assert_eq!(failed_step(&out), "config", "{out}");
    assert!(out.contains("exceeded max depth"), "{out}");

    let (code, out, _) = run(d.path(), &doctor);
    assert_eq!(
        code, 0,
        "exactly 10,000 levels with the outer object: {out}"
    );
    server.join().unwrap();
}

#[test]
fn doctor_checks_a_single_use_machine_token_without_spending_it_and_says_so() {
    use crate::support::{Https, ledger_records, machine_token};
    let (d, s) = setup();
    let a = d.path().join("mcs-assets");
    crate::support::machines_at(d.path(), s.addr.port(), &["w0", "w1"], &[]);
    s.reload();
    // Twice, text and JSON: TLS, auth and the token's state checked with HEAD, nothing spent.
    for _ in 0..2 {
        let (code, out, err) = run(d.path(), &["doctor", "mcs-assets/machines/w0.ign"]);
        assert_eq!(code, 0, "{out}{err}");
        assert!(
            out.contains("request  ok       HEAD /config/worker"),
            "{out}"
        );
        assert!(
            out.contains("body     skipped  not fetched: token"),
            "{out}"
        );
        assert!(out.contains("1 left; the machine needs it"), "{out}");
        assert!(
            out.contains(
                "its config was not fetched (step body: a GET would spend the machine's token)"
            ),
            "{out}"
        );
        assert!(
            out.contains("`mcsctl doctor --fetch mcs-assets/machines/w0.ign`"),
            "{out}"
        );
    }
    let (code, out, _) = run(
        d.path(),
        &["doctor", "mcs-assets/machines/w0.ign", "--format", "json"],
    );
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        v["steps"].as_array().unwrap().last().unwrap()["status"],
        "skipped"
    );
    assert!(ledger_records(&a).is_empty(), "doctor spent nothing");
    // HEAD answers what GET would, claiming nothing: status, length, and the uses left.
    let ca = a.join("tls/mcs-ca.crt");
    let bearer = format!("Bearer {}", machine_token(&a, "w0"));
    let head = Https::connect(s.addr, &ca)
        .request("HEAD", "/config/worker", &[("Authorization", &bearer)])
        .unwrap();
    assert_eq!(head.status, 200);
    assert_eq!(head.header("mcsctl-fetches-left"), Some("1"));
    let get = crate::support::https_get(&s, &ca, "/config/worker", &[("Authorization", &bearer)]);
    assert_eq!(get.status, 200);
    crate::support::await_whole(&a, "w0", 1);
    assert_eq!(
        head.header("content-length").unwrap(),
        get.body.len().to_string()
    );
    // Spent by that GET: HEAD and doctor now say 401 with the reason, still claiming nothing.
    let head = Https::connect(s.addr, &ca)
        .request("HEAD", "/config/worker", &[("Authorization", &bearer)])
        .unwrap();
    assert_eq!(head.status, 401);
    let why = head.header("www-authenticate").unwrap();
    assert!(
        why.starts_with("Bearer error=\"invalid_token\", error_description=\"token ")
            && why.contains("of machine w0 was used at"),
        "{why}"
    );
    let (code, out, _) = run(d.path(), &["doctor", "mcs-assets/machines/w0.ign"]);
    assert_eq!(code, 4, "{out}");
    assert!(out.contains("401 Unauthorized: token"), "{out}");
    assert!(
        out.contains("`mcsctl machine add w0 --pool worker --force`"),
        "{out}"
    );
    assert_eq!(ledger_records(&a).len(), 1);
    // --fetch spends, and says so before it does.
    let (code, out, err) = run(
        d.path(),
        &["doctor", "mcs-assets/machines/w1.ign", "--fetch"],
    );
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        err.contains("doctor --fetch: fetching /config/worker with token")
            && err.contains(
                "(machine w1's token, allowed 1 whole fetch(es), 1 left) spends one of its fetches"
            ),
        "{err}"
    );
    assert!(out.contains("every step passed"), "{out}");
    let recs = ledger_records(&a);
    assert_eq!(recs.len(), 2);
    assert_eq!(recs[1]["machine"], "w1");
    // A pool token is fetched as before: doctor's HEAD is silent, its GET checks the config.
    let (code, out, _) = run(d.path(), &["doctor", "mcs-assets/worker.ign"]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("request     ok      GET /config/worker"),
        "{out}"
    );
}

#[test]
fn a_booting_machine_still_gets_its_config_after_doctor() {
    let (d, s) = setup();
    let a = d.path().join("mcs-assets");
    crate::support::machines_at(d.path(), s.addr.port(), &["w0"], &[]);
    s.reload();
    ok(d.path(), &["doctor", "mcs-assets/machines/w0.ign"]);
    let Some(boot) = crate::ignition_client::ignition_boot(&a.join("machines/w0.ign")) else {
        return;
    };
    assert!(boot.success, "{}", boot.log);
}
