//! The real Ignition client (Debian's ignition 2.14) fetching through `mcsctl serve` with
//! pointer configs written by `mcsctl`: the exact path a booting machine takes.

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use crate::serve::{FULL_34, PRE_32};
use crate::support::{Https, Serve, demo, ignition, ok, render};

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

/// A demo asset directory with a 3.4.0 rendered worker config (Ignition 2.14 accepts at most
/// 3.3.0, so every fetch below also exercises down-translation), served by `mcsctl serve`.
fn served(extra_init: &[&str], serve_args: &[&str]) -> (tempfile::TempDir, Serve) {
    let mut args = vec!["--san", "127.0.0.1"];
    args.extend_from_slice(extra_init);
    let d = demo(&args);
    render(
        &d.path().join("mcs-assets"),
        "worker",
        FULL_34,
        Some(PRE_32),
    );
    let s = Serve::start(d.path(), serve_args);
    (d, s)
}

fn pointer_for(d: &Path, s: &Serve, out: &str, extra: &[&str]) {
    let url = format!("https://127.0.0.1:{}/config/worker", s.addr.port());
    let mut args = vec![
        "pointer",
        "--pool",
        "worker",
        "--url",
        url.as_str(),
        "--output",
        out,
        "--force",
        "-q",
    ];
    args.extend_from_slice(extra);
    ok(d, &args);
}

/// Whether Ignition fetched the full config; false only when Ignition is not installed (outside
/// CI, after a notice), so callers skip what depends on the fetch.
fn fetches_full(d: &Path, file: &str) -> bool {
    let Some((success, fetched, log)) = ignition_fetch(&d.join(file)) else {
        return false;
    };
    assert!(success, "ignition failed with {file}:\n{log}");
    assert!(
        fetched.contains("full%20config"),
        "fetched config lacks the rendered file:\n{fetched}"
    );
    true
}

fn refused(d: &Path, file: &str, expect_in_log: &str) {
    let Some((success, fetched, log)) =
        ignition_fetch_within(&d.join(file), Duration::from_secs(8))
    else {
        return;
    };
    assert!(!success, "ignition succeeded with {file}:\n{log}");
    assert!(!fetched.contains("full%20config"));
    assert!(
        log.contains(expect_in_log),
        "expected {expect_in_log:?} in the log:\n{log}"
    );
}

#[test]
fn header_token_fetch_of_a_34_config_by_ignition_214() {
    let (d, s) = served(&[], &[]);
    pointer_for(d.path(), &s, "lab.ign", &[]);
    if !fetches_full(d.path(), "lab.ign") {
        return;
    }
    let log = s.access_log();
    let line = log
        .lines()
        .find(|l| l.contains("/config/worker"))
        .expect("request logged");
    assert!(
        line.contains("\"status\":200")
            && line.contains("\"auth\":\"token:")
            && line.contains("Ignition"),
        "{line}"
    );
}

#[test]
fn spec_30_pointer_with_query_token() {
    let (d, s) = served(
        &["--spec-version", "3.0.0", "--token-transport", "query"],
        &[],
    );
    pointer_for(d.path(), &s, "lab30.ign", &[]);
    fetches_full(d.path(), "lab30.ign");
}

#[test]
fn wrong_token_fails() {
    let (d, s) = served(&[], &[]);
    pointer_for(d.path(), &s, "lab.ign", &[]);
    let text = std::fs::read_to_string(d.path().join("lab.ign")).unwrap();
    let re = regex::Regex::new(r"Bearer [a-z0-9]{6}\.[A-Za-z0-9_-]{43}").unwrap();
    let forged = re
        .replace(
            &text,
            "Bearer aaaaaa.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
        )
        .into_owned();
    std::fs::write(d.path().join("forged.ign"), forged).unwrap();
    refused(d.path(), "forged.ign", "GET result: Unauthorized");
}

#[test]
fn another_ca_is_refused_by_ignition() {
    let (_d, s) = served(&[], &[]);
    let ours = demo(&["--san", "127.0.0.1"]);
    pointer_for(ours.path(), &s, "lab.ign", &[]);
    refused(
        ours.path(),
        "lab.ign",
        "x509: certificate signed by unknown authority",
    );
}

#[test]
fn rotation_keeps_old_pointers_working_for_the_grace_only() {
    let (d, s) = served(&[], &[]);
    pointer_for(d.path(), &s, "old.ign", &[]);
    ok(d.path(), &["token", "rotate", "--grace", "1h", "-q"]);
    pointer_for(d.path(), &s, "new.ign", &[]);
    assert!(
        s.wait_stderr("2 live token(s)", Duration::from_secs(10)),
        "{}",
        s.stderr()
    );
    fetches_full(d.path(), "new.ign");
    fetches_full(d.path(), "old.ign");
    // A short grace: the previous token works until it ends, then not.
    ok(d.path(), &["token", "rotate", "--grace", "3s", "-q"]);
    pointer_for(d.path(), &s, "newest.ign", &[]);
    let rotated_at = Instant::now();
    assert!(
        s.wait_stderr("3 live token(s)", Duration::from_secs(10)),
        "{}",
        s.stderr()
    );
    fetches_full(d.path(), "newest.ign");
    std::thread::sleep(Duration::from_secs(4).saturating_sub(rotated_at.elapsed()));
    refused(d.path(), "new.ign", "GET result: Unauthorized");
    fetches_full(d.path(), "newest.ign");
}

#[test]
fn cert_renew_while_serving_reaches_new_connections() {
    let (d, s) = served(&[], &[]);
    let ca = d.path().join("mcs-assets/tls/mcs-ca.crt");
    let before = Https::connect(s.addr, &ca).peer_leaf();
    pointer_for(d.path(), &s, "lab.ign", &[]);
    ok(d.path(), &["cert", "renew", "-q"]);
    let start = Instant::now();
    let mut after = before.clone();
    while after == before && start.elapsed() < Duration::from_secs(10) {
        std::thread::sleep(Duration::from_millis(200));
        after = Https::connect(s.addr, &ca).peer_leaf();
    }
    assert_ne!(after, before, "still the old certificate:\n{}", s.stderr());
    fetches_full(d.path(), "lab.ign");
}

#[test]
fn split_mode_gives_ignition_the_pre_approval_config_without_a_token() {
    let (d, s) = served(&[], &["--auth", "split"]);
    pointer_for(d.path(), &s, "anon.ign", &["--token-transport", "none"]);
    let Some((success, fetched, log)) = ignition_fetch(&d.path().join("anon.ign")) else {
        return;
    };
    assert!(success, "{log}");
    assert!(
        fetched.contains("pre%20approval") && !fetched.contains("full%20config"),
        "{fetched}"
    );
    pointer_for(d.path(), &s, "tok.ign", &[]);
    fetches_full(d.path(), "tok.ign");
}
