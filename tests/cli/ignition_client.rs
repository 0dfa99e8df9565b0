//! The real Ignition client (Debian's ignition 2.14) fetching through a TLS server with a
//! pointer config written by `mcsctl pointer`: the exact path a booting machine takes.

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use crate::support::{TlsServer, demo, ignition, ok};

const RENDERED: &str = r#"{"ignition":{"version":"3.2.0"},"storage":{"files":[{"path":"/etc/mcsctl-test","contents":{"source":"data:,fetched%20through%20mcsctl"},"mode":420}]}}"#;

/// Runs Ignition's fetch stage on `pointer`; returns (success, fetched config, log).
/// Ignition retries a failed fetch for ever (a booting machine has nothing better to do), so
/// the run is bounded: after `limit` it is killed and counted as a failure.
pub fn ignition_fetch_within(pointer: &Path, limit: Duration) -> Option<(bool, String, String)> {
    let bin = ignition()?;
    let work = tempfile::tempdir().unwrap();
    let cache = work.path().join("config.json");
    let root = work.path().join("root");
    std::fs::create_dir_all(&root).unwrap();
    let log_path = work.path().join("log");
    let log_file = std::fs::File::create(&log_path).unwrap();
    let mut child = Command::new(bin)
        .env("IGNITION_CONFIG_FILE", pointer)
        .args(["-platform", "file", "-stage", "fetch", "-log-to-stdout"])
        .arg("-config-cache")
        .arg(&cache)
        .arg("-state-file")
        .arg(work.path().join("state"))
        .arg("-neednet")
        .arg(work.path().join("neednet"))
        .arg("-root")
        .arg(&root)
        .stdout(log_file.try_clone().unwrap())
        .stderr(log_file)
        .spawn()
        .unwrap();
    let start = Instant::now();
    let success = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status.success();
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            break false;
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    let log = std::fs::read_to_string(&log_path).unwrap_or_default();
    Some((
        success,
        std::fs::read_to_string(&cache).unwrap_or_default(),
        log,
    ))
}

/// [`ignition_fetch_within`] with a limit long enough for a fetch that works.
pub fn ignition_fetch(pointer: &Path) -> Option<(bool, String, String)> {
    ignition_fetch_within(pointer, Duration::from_secs(60))
}

fn token_of(assets: &Path) -> String {
    let v: serde_json::Value =
        serde_json::from_slice(&std::fs::read(assets.join("auth/tokens.json")).unwrap()).unwrap();
    let t = &v["tokens"][0];
    format!(
        "{}.{}",
        t["id"].as_str().unwrap(),
        t["secret"].as_str().unwrap()
    )
}

#[test]
fn ignition_fetches_through_our_ca_with_our_token() {
    let d = demo(&["--san", "127.0.0.1"]);
    let assets = d.path().join("mcs-assets");
    let token = token_of(&assets);
    let server = TlsServer::start(
        &assets.join("tls/mcs.crt"),
        &assets.join("tls/mcs.key"),
        RENDERED.into(),
        Some(token.clone()),
    );
    let url = format!("https://127.0.0.1:{}/config/worker", server.addr.port());
    ok(
        d.path(),
        &[
            "pointer", "--pool", "worker", "--url", &url, "--output", "lab.ign",
        ],
    );
    let Some((success, fetched, log)) = ignition_fetch(&d.path().join("lab.ign")) else {
        return;
    };
    assert!(success, "ignition failed:\n{log}");
    assert!(
        fetched.contains("fetched%20through%20mcsctl"),
        "fetched config lacks the rendered file:\n{fetched}\n{log}"
    );
    let reqs = server.requests();
    let req = reqs
        .iter()
        .find(|r| r.target == "/config/worker")
        .expect("ignition asked for /config/worker");
    assert_eq!(req.method, "GET");
    assert_eq!(
        req.header("authorization"),
        Some(format!("Bearer {token}").as_str())
    );
    assert!(
        req.header("accept")
            .unwrap_or("")
            .contains("application/vnd.coreos.ignition+json"),
        "{req:?}"
    );
    assert!(
        req.header("user-agent").unwrap_or("").contains("Ignition"),
        "{req:?}"
    );
}

#[test]
fn ignition_with_query_token_on_spec_30() {
    let d = demo(&[
        "--san",
        "127.0.0.1",
        "--spec-version",
        "3.0.0",
        "--token-transport",
        "query",
    ]);
    let assets = d.path().join("mcs-assets");
    let token = token_of(&assets);
    let server = TlsServer::start(
        &assets.join("tls/mcs.crt"),
        &assets.join("tls/mcs.key"),
        RENDERED.into(),
        Some(token.clone()),
    );
    let url = format!("https://127.0.0.1:{}/config/worker", server.addr.port());
    ok(
        d.path(),
        &[
            "pointer", "--pool", "worker", "--url", &url, "--output", "lab.ign",
        ],
    );
    let Some((success, fetched, log)) = ignition_fetch(&d.path().join("lab.ign")) else {
        return;
    };
    assert!(success, "ignition failed:\n{log}");
    assert!(fetched.contains("fetched%20through%20mcsctl"));
    assert!(
        server
            .requests()
            .iter()
            .any(|r| r.target == format!("/config/worker?token={token}"))
    );
}

#[test]
fn ignition_refuses_a_server_from_another_ca() {
    // The pointer config trusts the CA of one asset directory; the server presents a
    // certificate from another: Ignition must refuse, as a real machine would.
    let ours = demo(&["--san", "127.0.0.1"]);
    let theirs = demo(&["--san", "127.0.0.1"]);
    let t = theirs.path().join("mcs-assets");
    let server = TlsServer::start(
        &t.join("tls/mcs.crt"),
        &t.join("tls/mcs.key"),
        RENDERED.into(),
        None,
    );
    let url = format!("https://127.0.0.1:{}/config/worker", server.addr.port());
    ok(
        ours.path(),
        &[
            "pointer", "--pool", "worker", "--url", &url, "--output", "lab.ign",
        ],
    );
    let Some((success, fetched, log)) =
        ignition_fetch_within(&ours.path().join("lab.ign"), Duration::from_secs(8))
    else {
        return;
    };
    assert!(
        !success,
        "ignition trusted a certificate from another CA:\n{log}"
    );
    assert!(!fetched.contains("fetched"));
    assert!(
        log.contains("x509: certificate signed by unknown authority"),
        "unexpected failure:\n{log}"
    );
    assert!(
        !server
            .requests()
            .iter()
            .any(|r| r.target.starts_with("/config/")),
        "a request got through the failed handshake"
    );
}

#[test]
fn ignition_fails_when_the_server_refuses_the_token() {
    let d = demo(&["--san", "127.0.0.1"]);
    let assets = d.path().join("mcs-assets");
    let server = TlsServer::start(
        &assets.join("tls/mcs.crt"),
        &assets.join("tls/mcs.key"),
        RENDERED.into(),
        Some("aaaaaa.wrong".into()),
    );
    let url = format!("https://127.0.0.1:{}/config/worker", server.addr.port());
    ok(
        d.path(),
        &[
            "pointer", "--pool", "worker", "--url", &url, "--output", "lab.ign",
        ],
    );
    let Some((success, fetched, log)) =
        ignition_fetch_within(&d.path().join("lab.ign"), Duration::from_secs(8))
    else {
        return;
    };
    assert!(
        !success,
        "ignition succeeded with a token the server does not accept:\n{log}"
    );
    assert!(!fetched.contains("fetched"));
    assert!(
        log.contains("GET result: Unauthorized"),
        "expected a 401 in the log:\n{log}"
    );
}
