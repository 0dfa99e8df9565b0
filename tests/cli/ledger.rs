//! The provisioning ledger under a running serve, as outside hands treat log files: created
//! private whatever the umask, truncated by logrotate's `copytruncate`, renamed away, removed.
//! serve keeps running, keeps every record it acknowledged, and never gives a spent token
//! another fetch, then or after a restart.

use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::time::Duration;

use crate::support::{Https, Serve, https_get, ledger_records, machine_token, mode, ok};

fn setup() -> (tempfile::TempDir, std::path::PathBuf) {
    let (d, a) = crate::serve::setup_with(&[]);
    for m in ["w0", "w1", "w2", "w3"] {
        ok(d.path(), &["machine", "add", m, "--pool", "worker", "-q"]);
    }
    (d, a)
}

/// A fetch of `machine`'s config; once it is 200, its confirmation is awaited.
fn get(s: &Serve, a: &Path, machine: &str) -> u16 {
    let bearer = format!("Bearer {}", machine_token(a, machine));
    let before = crate::support::ledger_records(a)
        .iter()
        .filter(|r| r["machine"] == machine && r["whole"] == true)
        .count();
    let status = https_get(
        s,
        &a.join("tls/mcs-ca.crt"),
        "/config/worker",
        &[("Authorization", &bearer)],
    )
    .status;
    if status == 200 {
        crate::support::await_whole(a, machine, before + 1);
    }
    status
}

/// The ledger serve writes under the asset directory `a` (the only one there).
fn own_ledger(a: &Path) -> std::path::PathBuf {
    let mut files: Vec<_> = std::fs::read_dir(a.join("auth/ledger"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "jsonl"))
        .collect();
    assert_eq!(files.len(), 1, "{files:?}");
    files.remove(0)
}

/// The machines of the ledger's records, and whether each went out whole.
fn fetched(a: &Path) -> Vec<(String, bool)> {
    let mut v: Vec<(String, bool)> = ledger_records(a)
        .iter()
        .map(|r| {
            (
                r["machine"].as_str().unwrap().to_string(),
                r["whole"].as_bool().unwrap(),
            )
        })
        .collect();
    v.sort();
    v
}

#[test]
fn the_ledger_and_its_directories_are_private_whatever_the_umask() {
    let (d, a) = setup();
    let elsewhere = d.path().join("var/lib/mcsctl/ledger/serve.jsonl");
    let s = Serve::start_after(d.path(), "umask 000", &[]);
    assert_eq!(get(&s, &a, "w0"), 200);
    let own = own_ledger(&a);
    assert_eq!(mode(&a.join("auth/ledger")), 0o700);
    assert_eq!(mode(&own), 0o600);
    drop(s);
    let s = Serve::start_after(
        d.path(),
        "umask 000",
        &["--ledger", elsewhere.to_str().unwrap()],
    );
    // Its ledger is elsewhere: the fetch is awaited there.
    let bearer = format!("Bearer {}", machine_token(&a, "w1"));
    let r = https_get(
        &s,
        &a.join("tls/mcs-ca.crt"),
        "/config/worker",
        &[("Authorization", &bearer)],
    );
    assert_eq!(r.status, 200);
    crate::support::await_whole(&elsewhere, "w1", 1);
    for p in [
        elsewhere.parent().unwrap(),
        &d.path().join("var/lib/mcsctl"),
        &d.path().join("var"),
    ] {
        assert_eq!(mode(p), 0o700, "{}", p.display());
    }
    assert_eq!(mode(&elsewhere), 0o600);
}

#[test]
fn a_ledger_truncated_under_serve_is_rewritten_and_no_spent_token_fetches_again() {
    let (d, a) = setup();
    let mut s = Serve::start(d.path(), &[]);
    assert_eq!(get(&s, &a, "w0"), 200);
    let ledger = own_ledger(&a);
    // logrotate's copytruncate: a copy beside it, then the file cut to nothing in place.
    std::fs::copy(&ledger, ledger.with_extension("jsonl.1")).unwrap();
    std::fs::OpenOptions::new()
        .write(true)
        .open(&ledger)
        .unwrap()
        .set_len(0)
        .unwrap();
    // serve goes on (a mapped ledger died of SIGBUS here), recording past the hole.
    assert_eq!(get(&s, &a, "w1"), 200);
    assert_eq!(get(&s, &a, "w0"), 401, "spent before the cut, spent after");
    s.reload();
    assert!(
        s.wait_stderr("\"event\":\"ledger-repaired\"", Duration::from_secs(10)),
        "{}",
        s.stderr()
    );
    assert!(
        s.stderr().contains("was truncated under serve")
            && s.stderr()
                .contains("no spent token was given another fetch"),
        "{}",
        s.stderr()
    );
    assert_eq!(
        fetched(&a),
        [("w0".to_string(), true), ("w1".into(), true)],
        "both records back, each once, whole"
    );
    assert_eq!(mode(&ledger), 0o600);
    // A restart reads the repaired ledger: still spent.
    s.signal("KILL");
    s.wait_exit(Duration::from_secs(10));
    let s = Serve::start(d.path(), &[]);
    assert_eq!(get(&s, &a, "w0"), 401);
    assert_eq!(get(&s, &a, "w1"), 401);
    assert_eq!(get(&s, &a, "w2"), 200);
}

#[test]
fn a_ledger_renamed_away_or_removed_under_serve_is_written_anew_at_its_path() {
    let (d, a) = setup();
    let s = Serve::start(d.path(), &[]);
    assert_eq!(get(&s, &a, "w0"), 200);
    let ledger = own_ledger(&a);
    // logrotate without copytruncate: renamed away, an empty file created in its place.
    std::fs::rename(&ledger, ledger.with_extension("jsonl.1")).unwrap();
    std::fs::write(&ledger, b"").unwrap();
    std::fs::set_permissions(&ledger, std::fs::Permissions::from_mode(0o644)).unwrap();
    s.reload();
    assert!(
        s.wait_stderr("was replaced under serve", Duration::from_secs(10)),
        "{}",
        s.stderr()
    );
    assert_eq!(fetched(&a), [("w0".to_string(), true)]);
    assert_eq!(mode(&ledger), 0o600, "the new file is serve's own, private");
    assert_eq!(get(&s, &a, "w1"), 200);
    // Removed by hand.
    std::fs::remove_file(&ledger).unwrap();
    s.reload();
    assert!(
        s.wait_stderr("was removed under serve", Duration::from_secs(10)),
        "{}",
        s.stderr()
    );
    assert_eq!(fetched(&a), [("w0".to_string(), true), ("w1".into(), true)]);
    assert_eq!(get(&s, &a, "w0"), 401);
    // A file that is no ledger put in its place is kept aside, not overwritten.
    std::fs::rename(&ledger, ledger.with_extension("jsonl.2")).unwrap();
    std::fs::write(&ledger, b"not a ledger\n").unwrap();
    s.reload();
    assert!(
        s.wait_stderr("is no ledger", Duration::from_secs(10)),
        "{}",
        s.stderr()
    );
    let aside: Vec<_> = std::fs::read_dir(a.join("auth/ledger"))
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().contains(".displaced-"))
        .collect();
    assert_eq!(aside.len(), 1);
    assert_eq!(std::fs::read(aside[0].path()).unwrap(), b"not a ledger\n");
    assert_eq!(fetched(&a), [("w0".to_string(), true), ("w1".into(), true)]);
}

#[test]
fn ten_thousand_replays_of_a_spent_token_are_one_event_line() {
    let (d, a) = setup();
    let s = Serve::start(d.path(), &[]);
    assert_eq!(get(&s, &a, "w0"), 200);
    let bearer = format!("Bearer {}", machine_token(&a, "w0"));
    let mut c = Https::connect(s.addr, &a.join("tls/mcs-ca.crt"));
    for _ in 0..10_000 {
        let r = c
            .request("GET", "/config/worker", &[("Authorization", &bearer)])
            .unwrap();
        assert_eq!(r.status, 401);
    }
    let events = |s: &Serve| s.stderr().matches("\"event\":\"token-reused\"").count();
    assert_eq!(events(&s), 1, "{}", s.stderr());
    // The access log has every one (one line per request), written by serve's log thread a
    // moment after each response: polled, bounded.
    let logged = |s: &Serve| s.access_log().matches("\"status\":401").count();
    let start = std::time::Instant::now();
    while logged(&s) < 10_000 && start.elapsed() < Duration::from_secs(30) {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert_eq!(logged(&s), 10_000, "{}", s.stderr());
}

#[test]
fn serve_killed_in_the_middle_of_a_fetch_leaves_the_token_to_the_machine() {
    let (d, a) = setup();
    // Far larger than the socket buffers: the fetch is still being sent at the kill.
    let big = serde_json::json!({
        "ignition": {"version": "3.2.0"},
        "storage": {"files": [{"path": "/etc/big", "contents": {"source": format!("data:,{}", "x".repeat(2 << 20))}}]}
    });
    crate::support::render(&a, "worker", &big.to_string(), None);
    let mut s = Serve::start(d.path(), &[]);
    let bearer = format!("Bearer {}", machine_token(&a, "w0"));
    let c = Https::ask_worker(s.addr, &a.join("tls/mcs-ca.crt"), &bearer);
    let start = std::time::Instant::now();
    while ledger_records(&a).is_empty() {
        assert!(start.elapsed() < Duration::from_secs(10), "never claimed");
        std::thread::sleep(Duration::from_millis(20));
    }
    s.signal("KILL");
    s.wait_exit(Duration::from_secs(10));
    drop(c);
    assert_eq!(fetched(&a), [("w0".to_string(), false)]);
    // The machine's next boot gets its config (once).
    let s = Serve::start(d.path(), &[]);
    assert_eq!(get(&s, &a, "w0"), 200);
    assert_eq!(get(&s, &a, "w0"), 401);
}
