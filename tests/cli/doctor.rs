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
            "pointer", "--pool", pool, "--url", &url, "--output", out, "--force", "-q",
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
            "config",
            "references"
        ]
    );
    assert!(
        v["steps"][6]["detail"]
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
