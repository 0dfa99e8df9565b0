//! Node admission from evidence against what breaks it: a rogue's client CSR made with the
//! bootstrap credentials every full config carries, a fetch cut off before its end, and clocks
//! that disagree (serve's in the ledger, the API server's on the CSRs). The fetches are real:
//! `mcsctl serve` records them; the CSRs are openssl's.

use std::path::Path;
use std::time::Duration;

use serde_json::{Value, json};
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

use crate::csr::{client_csr, openssl_csr};
use crate::support::{
    Https, Serve, demo, https_get, ledger_records, machine_token, ok, render, run,
};

fn at(t: OffsetDateTime) -> String {
    t.format(&Rfc3339).unwrap()
}

/// A review's row: name, decision, rule, reason.
type Row = (String, String, String, String);

fn setup() -> (tempfile::TempDir, std::path::PathBuf) {
    let d = demo(&["--san", "127.0.0.1"]);
    let a = d.path().join("mcs-assets");
    // Large enough that a client reading 1 KiB of it leaves serve still sending.
    let big = json!({
        "ignition": {"version": "3.2.0"},
        "storage": {"files": [{"path": "/etc/big", "contents": {"source": format!("data:,{}", "x".repeat(2 << 20))}}]}
    });
    render(&a, "worker", &big.to_string(), None);
    for m in ["w0", "w1", "w2"] {
        ok(
            d.path(),
            &[
                "machine",
                "add",
                m,
                "--pool",
                "worker",
                "--ip",
                "127.0.0.1",
                "-q",
            ],
        );
    }
    std::fs::write(d.path().join("nodes.json"), r#"{"kind":"List","items":[]}"#).unwrap();
    (d, a)
}

/// A whole fetch of `machine`'s config; returns the time serve recorded for it.
fn fetch(s: &Serve, a: &Path, machine: &str) -> OffsetDateTime {
    let bearer = format!("Bearer {}", machine_token(a, machine));
    let r = https_get(
        s,
        &a.join("tls/mcs-ca.crt"),
        "/config/worker",
        &[("Authorization", &bearer)],
    );
    assert_eq!(r.status, 200);
    // Confirmed a moment after the last byte left serve: the client may have read it first.
    let start = std::time::Instant::now();
    loop {
        let recs = ledger_records(a);
        let rec = recs.iter().rev().find(|r| r["machine"] == machine).unwrap();
        if rec["whole"] == true {
            return OffsetDateTime::parse(rec["time"].as_str().unwrap(), &Rfc3339).unwrap();
        }
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "never confirmed: {rec}"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Writes `csrs.json` and runs `csr review` at `now`; returns (name, decision, rule, reason)
/// and the JSON report.
fn review(
    d: &Path,
    items: &[Value],
    now: OffsetDateTime,
    extra: &[&str],
) -> (Vec<Row>, Value, String) {
    std::fs::write(
        d.join("csrs.json"),
        serde_json::to_vec(&json!({"kind": "List", "items": items})).unwrap(),
    )
    .unwrap();
    let now = at(now);
    let mut args = vec![
        "--format",
        "json",
        "csr",
        "review",
        "--csrs",
        "csrs.json",
        "--nodes",
        "nodes.json",
        "--now",
        &now,
    ];
    args.extend_from_slice(extra);
    let (code, out, err) = run(d, &args);
    assert_eq!(code, 0, "{out}{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    let rows = v["csrs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            let s = |k: &str| c[k].as_str().unwrap_or_default().to_string();
            (s("name"), s("decision"), s("rule"), s("reason"))
        })
        .collect();
    (rows, v, err)
}

fn csr(d: &Path, name: &str, node: &str, created: OffsetDateTime) -> Option<Value> {
    let pem = openssl_csr(d, name, &format!("system:node:{node}"), None)?;
    let mut c = client_csr(name, node, &pem, &at(created));
    c.as_object_mut().unwrap().remove("_node");
    Some(c)
}

fn rule_of<'a>(rows: &'a [Row], name: &str) -> (&'a str, &'a str, &'a str) {
    let r = rows.iter().find(|r| r.0 == name).unwrap();
    (&r.1, &r.2, &r.3)
}

#[test]
fn a_rogue_client_csr_cannot_win_by_its_name_or_its_order() {
    let (d, a) = setup();
    let p = d.path();
    let s = Serve::start(p, &[]);
    let fetched = fetch(&s, &a, "w0");
    let m = time::Duration::minutes;
    // The machine's own CSR two minutes after its fetch; a rogue's a minute later, with the
    // bootstrap credentials of the config, named to sort first.
    let Some(real) = csr(p, "csr-zzzz", "w0", fetched + m(2)) else {
        return;
    };
    let rogue = csr(p, "csr-0000", "w0", fetched + m(3)).unwrap();
    for items in [
        vec![real.clone(), rogue.clone()],
        vec![rogue.clone(), real.clone()],
    ] {
        let (rows, _, _) = review(p, &items, fetched + m(10), &[]);
        for name in ["csr-zzzz", "csr-0000"] {
            let (decision, rule, reason) = rule_of(&rows, name);
            assert_eq!((decision, rule), ("pending", "E6"), "{rows:?}");
            assert!(
                reason.starts_with("2 client CSRs for w0 since its fetch at")
                    && reason.contains("csr-0000")
                    && reason.contains("csr-zzzz")
                    && reason.contains("`oc adm certificate deny NAME`"),
                "{reason}"
            );
        }
    }
    let names = crate::support::ok(
        p,
        &[
            "csr",
            "review",
            "--csrs",
            "csrs.json",
            "--nodes",
            "nodes.json",
            "--now",
            &at(fetched + m(10)),
            "--approve-names",
        ],
    );
    assert_eq!(names, "", "nothing to approve");
    // The admin denies the rogue: the machine's CSR is approved, naming its fetch.
    let mut denied = rogue.clone();
    denied["status"] = json!({"conditions": [{"type": "Denied", "status": "True"}]});
    let (rows, _, _) = review(p, &[denied, real.clone()], fetched + m(10), &[]);
    let (decision, rule, reason) = rule_of(&rows, "csr-zzzz");
    assert_eq!((decision, rule), ("approve", "E5"), "{rows:?}");
    assert!(
        reason.starts_with("registered machine w0 fetched its config at"),
        "{reason}"
    );
    // Once approved, a later one is E4.
    let mut approved = real.clone();
    approved["status"] = json!({"conditions": [{"type": "Approved", "status": "True",
        "lastTransitionTime": at(fetched + m(4)), "message": "approved"}]});
    let late = csr(p, "csr-late", "w0", fetched + m(5)).unwrap();
    let (rows, _, _) = review(p, &[approved, late], fetched + m(10), &[]);
    assert_eq!(rule_of(&rows, "csr-late").1, "E4", "{rows:?}");
}

#[test]
fn a_fetch_cut_off_before_its_end_is_no_evidence() {
    let (d, a) = setup();
    let p = d.path();
    let s = Serve::start(p, &["--write-timeout", "1s"]);
    // w1 asks and reads 1 KiB of 2 MiB, then goes away: recorded, not whole.
    let bearer = format!("Bearer {}", machine_token(&a, "w1"));
    let mut c = Https::ask_worker(s.addr, &a.join("tls/mcs-ca.crt"), &bearer);
    let mut buf = [0u8; 1024];
    c.read_some(&mut buf).unwrap();
    drop(c);
    assert!(
        s.wait_stderr("\"event\":\"fetch-cut\"", Duration::from_secs(30)),
        "{}",
        s.stderr()
    );
    let recs = ledger_records(&a);
    assert_eq!(recs.len(), 1);
    assert_eq!(recs[0]["whole"], "cut", "serve saw it cut and marked it");
    let when = OffsetDateTime::parse(recs[0]["time"].as_str().unwrap(), &Rfc3339).unwrap();
    let Some(c1) = csr(p, "csr-w1", "w1", when + time::Duration::minutes(2)) else {
        return;
    };
    let (rows, _, _) = review(p, &[c1], when + time::Duration::minutes(5), &[]);
    let (decision, rule, reason) = rule_of(&rows, "csr-w1");
    assert_eq!((decision, rule), ("pending", "E2"), "{rows:?}");
    assert!(
        reason.contains("never fetched the full config whole (1 fetch(es) were cut off before their end, which proves nothing)"),
        "{reason}"
    );
    // machine list says what to do: boot it again.
    let out = ok(p, &["machine", "list", "--format", "json"]);
    let v: Value = serde_json::from_str(&out).unwrap();
    let w1 = v["machines"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["name"] == "w1")
        .unwrap();
    assert!(
        w1["trail"]["next"]
            .as_str()
            .unwrap()
            .starts_with("1 fetch(es) cut off before their end"),
        "{w1}"
    );
}

#[test]
fn clocks_that_disagree_are_tolerated_within_the_skew_and_named_beyond_it() {
    let (d, a) = setup();
    let p = d.path();
    let m = time::Duration::minutes;
    let real = OffsetDateTime::now_utc();
    // serve's clock three hours ahead of the API server's: the machine's CSR, made minutes
    // after its fetch, looks hours older than it.
    let s = Serve::start_later(p, 3 * 3600, &[]);
    let fetched = fetch(&s, &a, "w0");
    assert!(fetched - real > m(170), "serve's clock is ahead");
    let Some(c0) = csr(p, "csr-w0", "w0", real + m(2)) else {
        return;
    };
    let (rows, v, err) = review(p, std::slice::from_ref(&c0), real + m(10), &[]);
    assert_eq!(rule_of(&rows, "csr-w0").1, "E3", "{rows:?}");
    assert!(
        rule_of(&rows, "csr-w0")
            .2
            .contains("give or take the clock-skew tolerance of 5m")
    );
    let warnings: Vec<&str> = v["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w.as_str().unwrap())
        .collect();
    assert!(
        warnings.iter().any(|w| w
            .starts_with("every client CSR for w0 was created before its fetch")
            && w.contains("serve's clock may be ahead of the API server's")),
        "{warnings:?}"
    );
    assert!(
        warnings
            .iter()
            .any(|w| w.contains("after this review's time: serve's clock may be ahead")),
        "{warnings:?}"
    );
    assert!(err.contains("serve's clock may be ahead"), "{err}");
    drop(s);
    // Four minutes ahead: inside the tolerance, approved; with a tighter one, not.
    let s = Serve::start_later(p, 4 * 60, &[]);
    let fetched = fetch(&s, &a, "w1");
    let c1 = csr(p, "csr-w1", "w1", fetched - m(3)).unwrap();
    let (rows, v, _) = review(p, std::slice::from_ref(&c1), fetched + m(5), &[]);
    assert_eq!(rule_of(&rows, "csr-w1").1, "E5", "{rows:?}");
    // w0's fetch three hours ahead is still said; nothing of w1.
    assert!(
        v["warnings"]
            .as_array()
            .unwrap()
            .iter()
            .all(|w| !w.as_str().unwrap().contains("w1")),
        "{v}"
    );
    let (rows, _, _) = review(p, &[c1], fetched + m(5), &["--clock-skew", "1m"]);
    assert_eq!(rule_of(&rows, "csr-w1").1, "E3", "{rows:?}");
}

#[test]
fn serve_an_hour_behind_cannot_let_a_csr_made_before_the_fetch_win() {
    let (d, a) = setup();
    let p = d.path();
    let m = time::Duration::minutes;
    let real = OffsetDateTime::now_utc();
    // serve's clock an hour behind: its fetch is dated an hour early, so a CSR made 50 minutes
    // before the real fetch falls after the recorded one. With the machine's own CSR beside
    // it, neither is approved.
    let s = Serve::start_later(p, -3600, &[]);
    let fetched = fetch(&s, &a, "w2");
    assert!(real - fetched > m(55));
    let Some(early) = csr(p, "csr-early", "w2", real - m(50)) else {
        return;
    };
    let own = csr(p, "csr-own", "w2", real + m(2)).unwrap();
    let (rows, _, _) = review(p, &[early, own], real + m(10), &[]);
    assert_eq!(rule_of(&rows, "csr-early").1, "E6", "{rows:?}");
    assert_eq!(rule_of(&rows, "csr-own").1, "E6", "{rows:?}");
}

#[test]
fn csr_review_decides_the_same_from_the_store_as_from_the_ledger_files() {
    let Some(etcd) = crate::store::Etcd::start(1) else {
        return;
    };
    let (d, a) = setup();
    let p = d.path();
    let m = time::Duration::minutes;
    // Fetches recorded in the ledger files, by a replica without the store.
    let s = Serve::start(p, &[]);
    let w0 = fetch(&s, &a, "w0");
    let w1 = fetch(&s, &a, "w1");
    drop(s);
    let Some(c0) = csr(p, "csr-w0", "w0", w0 + m(1)) else {
        return;
    };
    let items = [
        c0,
        csr(p, "csr-w1", "w1", w1 + m(1)).unwrap(),
        csr(p, "csr-w2", "w2", w1 + m(1)).unwrap(),
        csr(p, "csr-early", "w1", w1 - m(1)).unwrap(),
    ];
    let now = w1 + m(10);
    let (files, _, _) = review(p, &items, now, &[]);
    let url = etcd.url();
    let imported = ok(
        p,
        &["ledger", "import", "--store", &url, "--store-insecure"],
    );
    assert!(
        imported.starts_with("imported 2 of 2 record(s)"),
        "{imported}"
    );
    let again = ok(
        p,
        &["ledger", "import", "--store", &url, "--store-insecure"],
    );
    assert!(again.starts_with("imported 0 of 2 record(s)"), "{again}");
    let (store, _, _) = review(p, &items, now, &["--store", &url, "--store-insecure"]);
    assert_eq!(store, files);
    assert_eq!(rule_of(&store, "csr-w0").0, "approve", "{store:?}");
    // What the files spent stays spent: a replica on the store refuses w0's token again.
    let s = Serve::start(p, &["--store", &url, "--store-insecure"]);
    let bearer = format!("Bearer {}", machine_token(&a, "w0"));
    let r = https_get(
        &s,
        &a.join("tls/mcs-ca.crt"),
        "/config/worker",
        &[("Authorization", &bearer)],
    );
    assert_eq!(r.status, 401);
    let bearer = format!("Bearer {}", machine_token(&a, "w2"));
    let r = https_get(
        &s,
        &a.join("tls/mcs-ca.crt"),
        "/config/worker",
        &[("Authorization", &bearer)],
    );
    assert_eq!(r.status, 200, "a token the files never spent is served");
}
