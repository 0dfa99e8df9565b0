//! The first-boot report (`render --report`): the real Ignition client writes the script and
//! its unit to the node's disk, the script runs as the machine would (its paths under the
//! node's root) against `mcsctl serve`, and `machine list` shows every machine's timeline.

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use serde_json::Value;

use crate::ignition_client::ignition_boot;
use crate::support::{
    Https, Serve, demo, machine_config_file, machines_at, mode, ok, run, run_later,
};

const SCRIPT: &str = "/usr/local/bin/mcsctl-first-boot-report";

/// A demo directory served, two machines registered at the server's URL, and the worker pool
/// rendered with the report on.
fn reporting(serve: &[&str]) -> (tempfile::TempDir, Serve) {
    let d = demo(&["--san", "127.0.0.1"]);
    let s = Serve::start(d.path(), serve);
    machines_at(
        d.path(),
        s.addr.port(),
        &["w1.demo.example.com", "w2.demo.example.com"],
        &[],
    );
    std::fs::write(
        d.path().join("mc.yaml"),
        machine_config_file("50-worker-motd", "worker", "/etc/motd"),
    )
    .unwrap();
    let out = ok(
        d.path(),
        &[
            "render",
            "--machine-configs",
            "mc.yaml",
            "--for",
            "coreos",
            "--report",
        ],
    );
    let url = format!("https://127.0.0.1:{}/report/worker", s.addr.port());
    assert!(
        out.contains(&format!(
            "first boot:   reported to {url} (full config only)"
        )),
        "{out}"
    );
    s.reload();
    (d, s)
}

/// Runs the script written to `root` as the machine would, with `journalctl` and `systemctl`
/// standing in for the machine's; its stdout and stderr.
fn run_script(root: &Path) -> (bool, String) {
    let bin = root.parent().unwrap().join("machine-bin");
    std::fs::create_dir_all(&bin).unwrap();
    for (name, out) in [
        (
            "journalctl",
            "Ignition 2.14.0\\nIgnition finished successfully",
        ),
        ("systemctl", "activating"),
    ] {
        let p = bin.join(name);
        std::fs::write(&p, format!("#!/bin/sh\nprintf '{out}\\n'\n")).unwrap();
        std::fs::set_permissions(&p, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    }
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap());
    let o = Command::new("sh")
        .arg(root.join(SCRIPT.trim_start_matches('/')))
        .env("MCSCTL_REPORT_ROOT", root)
        .env("PATH", path)
        .output()
        .unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    (o.status.success(), text)
}

fn reports(assets: &Path) -> Vec<Value> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(assets.join("auth/reports"))
        .into_iter()
        .flatten()
    {
        let text = std::fs::read_to_string(e.unwrap().path()).unwrap();
        out.extend(
            text.lines()
                .map(|l| serde_json::from_str::<Value>(l).unwrap()),
        );
    }
    out
}

fn steps(v: &Value, i: usize) -> Vec<String> {
    v["machines"][i]["trail"]["steps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["step"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn a_machine_reports_its_first_boot_and_one_that_fetched_and_never_did_is_named() {
    let (d, s) = reporting(&[]);
    let a = d.path().join("mcs-assets");
    assert_eq!(mode(&a.join("auth/report-credentials.json")), 0o600);
    // The pre-approval set never carries the report.
    let pre = std::fs::read_to_string(a.join("rendered/pre-approval/worker.ign")).unwrap();
    assert!(!pre.contains("first-boot-report"), "{pre}");
    // The full config with the report is valid Ignition by Ignition's own validator.
    crate::support::assert_ignition_valid(&a.join("rendered/worker.ign"));
    let Some(boot) = ignition_boot(&a.join("machines/w1.demo.example.com.ign")) else {
        return;
    };
    assert!(boot.success, "{}", boot.log);
    assert_eq!(mode(&boot.path(SCRIPT)), 0o755);
    assert_eq!(mode(&boot.path("/etc/mcsctl/report-credential")), 0o600);
    assert_eq!(
        boot.read("/etc/mcsctl/report-ca.crt"),
        std::fs::read(a.join("tls/mcs-ca-bundle.crt")).unwrap()
    );
    // The CA the script trusts is the one serve's certificate chains to.
    let (verified, said) = crate::support::openssl_run(
        &[
            "verify",
            "-CAfile",
            boot.path("/etc/mcsctl/report-ca.crt").to_str().unwrap(),
            a.join("tls/mcs.crt").to_str().unwrap(),
        ],
        d.path(),
    )
    .expect("openssl");
    assert!(verified, "{said}");
    let unit = String::from_utf8(boot.read("/etc/systemd/system/mcsctl-first-boot-report.service"))
        .unwrap();
    assert!(unit.contains("Type=simple"), "{unit}");
    let preset =
        String::from_utf8(boot.read("/etc/systemd/system-preset/20-ignition.preset")).unwrap();
    assert!(
        preset.contains("enable mcsctl-first-boot-report.service"),
        "{preset}"
    );
    // What systemd writes at the first boot.
    std::fs::write(
        boot.path("/etc/machine-id"),
        "0123456789abcdef0123456789abcdef\n",
    )
    .unwrap();
    let root = boot.path("/");
    // Watched while it boots: a JSON line per change (stdout is no terminal). w2 never
    // fetches while this watch runs, so it ends at its timeout.
    let watch = std::process::Command::new(assert_cmd::cargo::cargo_bin("mcsctl"))
        .current_dir(d.path())
        .args(["machine", "watch", "--interval", "1s", "--timeout", "8s"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let (sent, out) = run_script(&root);
    assert!(sent, "{out}");
    assert!(out.contains("first-boot report sent to"), "{out}");
    assert!(boot.has("/var/lib/mcsctl/first-boot-reported"));
    // Once: a second boot sends nothing.
    let (again, out) = run_script(&root);
    assert!(again && out.is_empty(), "{out}");
    let recs = reports(&a);
    assert_eq!(recs.len(), 1, "{recs:?}");
    let r = &recs[0];
    assert_eq!(r["pool"], "worker");
    assert_eq!(r["machineId"], "0123456789abcdef0123456789abcdef");
    assert_eq!(r["kubelet"], "activating");
    assert_eq!(
        r["ignitionJournal"],
        "Ignition 2.14.0\nIgnition finished successfully"
    );
    assert!(
        r["ignitionResult"]
            .as_str()
            .unwrap()
            .contains("provisioningDate"),
        "{r}"
    );
    assert!(s.wait_stderr("\"event\":\"first-boot-report\"", Duration::from_secs(10)));
    let watched = watch.wait_with_output().unwrap();
    let lines: Vec<Value> = String::from_utf8_lossy(&watched.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let of_w1: Vec<(&str, &str)> = lines
        .iter()
        .filter(|l| l["machine"] == "w1.demo.example.com")
        .map(|l| (l["step"].as_str().unwrap(), l["progress"].as_str().unwrap()))
        .collect();
    assert_eq!(
        of_w1,
        [("fetched", "waiting"), ("first-boot", "done")],
        "{lines:?}"
    );
    assert_eq!(watched.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&watched.stderr)
            .contains("gave up after --timeout 8s: 1 machine(s) still waiting"),
        "{watched:?}"
    );
    // w2 fetches its config and never reports.
    let Some(boot2) = ignition_boot(&a.join("machines/w2.demo.example.com.ign")) else {
        return;
    };
    assert!(boot2.success, "{}", boot2.log);
    let list = |ahead: i64| -> Value {
        let (code, out, err) = run_later(d.path(), ahead, &["machine", "list", "-o", "json"]);
        assert_eq!(code, 0, "{err}");
        serde_json::from_str(&out).unwrap()
    };
    let v = list(0);
    assert_eq!(
        steps(&v, 0),
        ["registered", "pointer", "fetched", "first-boot"],
        "{v:#}"
    );
    assert_eq!(v["machines"][0]["firstBoot"]["kubelet"], "activating");
    assert_eq!(steps(&v, 1), ["registered", "pointer", "fetched"]);
    assert_eq!(
        v["machines"][1]["trail"]["next"]
            .as_str()
            .unwrap()
            .split(';')
            .next()
            .unwrap()
            .split(" ago")
            .nth(1),
        Some(""),
        "{v:#}"
    );
    assert_eq!(v["unmatchedReports"], Value::Array(vec![]));
    // Sixteen minutes on, w2 has stopped: where, and the likeliest cause.
    let v = list(16 * 60);
    let next = v["machines"][1]["trail"]["next"].as_str().unwrap();
    assert!(
        next.starts_with("fetched ")
            && next.ends_with(
                " from 127.0.0.1, no first-boot report after 15m: Ignition or the first boot failed after the fetch; look at the console for ignition's stage errors"
            ),
        "{next}"
    );
    // Nothing waits any more: the watch ends at once, saying one stopped (exit 3).
    let (code, out, err) = run_later(d.path(), 16 * 60, &["machine", "watch", "-o", "json"]);
    assert_eq!(code, 3, "{out}{err}");
    assert_eq!(out.lines().count(), 2, "{out}");
    assert!(out.contains(r#""progress":"stopped""#), "{out}");
    assert!(
        err.contains("1 machine(s) stopped on the way: `mcsctl machine list` says where"),
        "{err}"
    );
    // The table says the same, on stderr, after the machines.
    let (_, out, err) = run_later(d.path(), 16 * 60, &["machine", "list"]);
    assert!(
        out.contains("registered > pointer > fetched > first-boot"),
        "{out}"
    );
    assert!(err.contains("w2.demo.example.com: fetched "), "{err}");
}

/// POSTs `body` to `/report/<pool>` with `credential`; the status.
fn post(s: &Serve, ca: &Path, pool: &str, credential: &str, body: &[u8]) -> u16 {
    let mut h = Https::connect(s.addr, ca);
    let head = format!(
        "POST /report/{pool} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {credential}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    h.send(head.as_bytes()).unwrap();
    // A body larger than serve takes may be refused before it is all sent.
    let _ = h.send(body);
    h.read_response(false).unwrap().status
}

const REPORT: &str = r#"{"bootId":"0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0","machineId":"0123456789abcdef0123456789abcdef","hostname":"stranger","addresses":["192.0.2.99"],"ignitionResult":"","ignitionJournal":"","kubelet":"inactive"}"#;

#[test]
fn reports_with_a_wrong_credential_too_large_or_too_many_are_refused_and_counted() {
    let (d, s) = reporting(&["--metrics-listen", "127.0.0.1:0"]);
    let a = d.path().join("mcs-assets");
    let ca = a.join("tls/mcs-ca.crt");
    let creds: Value =
        serde_json::from_slice(&std::fs::read(a.join("auth/report-credentials.json")).unwrap())
            .unwrap();
    let secret = creds["pools"]["worker"].as_str().unwrap();
    assert_eq!(post(&s, &ca, "worker", "wrong", REPORT.as_bytes()), 401);
    assert_eq!(post(&s, &ca, "master", secret, REPORT.as_bytes()), 404);
    assert_eq!(post(&s, &ca, "worker", secret, &vec![b' '; 40_000]), 413);
    assert_eq!(post(&s, &ca, "worker", secret, b"{\"bootId\":1}"), 400);
    assert_eq!(post(&s, &ca, "worker", secret, REPORT.as_bytes()), 200);
    assert!(reports(&a).len() == 1, "only the good report is recorded");
    // A flood from one address: past 30 a minute, 429 (the valid ones included).
    let statuses: Vec<u16> = (0..30)
        .map(|_| post(&s, &ca, "worker", "wrong", REPORT.as_bytes()))
        .collect();
    assert_eq!(statuses.last(), Some(&429), "{statuses:?}");
    assert_eq!(post(&s, &ca, "worker", secret, REPORT.as_bytes()), 429);
    assert_eq!(reports(&a).len(), 1);
    // A report from a machine nobody registered is listed apart.
    let (code, out, err) = run(d.path(), &["machine", "list"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("First-boot reports from no registered machine (1)")
            && out.contains("stranger"),
        "{out}"
    );
    let text = crate::metrics::scrape(&s.metrics_addr());
    for line in [
        "mcsctl_reports_total{pool=\"worker\",result=\"recorded\"} 1",
        "mcsctl_reports_total{pool=\"worker\",result=\"bad_credential\"} ",
        "mcsctl_reports_total{pool=\"other\",result=\"no_reports\"} 1",
        "mcsctl_reports_total{pool=\"worker\",result=\"too_large\"} 1",
        "mcsctl_reports_total{pool=\"worker\",result=\"invalid\"} 1",
        "mcsctl_reports_total{pool=\"worker\",result=\"limited\"} ",
    ] {
        assert!(text.contains(line), "{line} not in\n{text}");
    }
}

#[test]
fn without_report_the_rendered_bytes_are_as_before_and_no_report_takes_it_out() {
    let d = demo(&["--san", "127.0.0.1"]);
    std::fs::write(
        d.path().join("mc.yaml"),
        machine_config_file("50-worker-motd", "worker", "/etc/motd"),
    )
    .unwrap();
    let a = d.path().join("mcs-assets");
    let render = |extra: &[&str]| {
        let mut args = vec![
            "render",
            "--machine-configs",
            "mc.yaml",
            "--for",
            "coreos",
            "-q",
        ];
        args.extend_from_slice(extra);
        ok(d.path(), &args);
        std::fs::read(a.join("rendered/worker.ign")).unwrap()
    };
    let plain = render(&[]);
    let with = render(&["--report"]);
    assert_ne!(plain, with);
    // Remembered, and the same credential: the same bytes again.
    assert_eq!(render(&[]), with);
    let cfg = std::fs::read_to_string(a.join("mcsctl.json")).unwrap();
    assert!(cfg.contains("\"reportPools\""), "{cfg}");
    // Off again: today's bytes, and no --replace needed for what the report had added.
    assert_eq!(render(&["--no-report"]), plain);
    let cfg = std::fs::read_to_string(a.join("mcsctl.json")).unwrap();
    assert!(!cfg.contains("reportPools"), "{cfg}");
}

#[test]
fn with_the_store_each_report_is_recorded_once_whichever_replica_took_it() {
    let Some(etcd) = crate::store::Etcd::start(1) else {
        return;
    };
    let url = etcd.url();
    let d = demo(&["--san", "127.0.0.1"]);
    let a = d.path().join("mcs-assets");
    std::fs::write(
        d.path().join("mc.yaml"),
        machine_config_file("50-worker-motd", "worker", "/etc/motd"),
    )
    .unwrap();
    let args = ["render", "--machine-configs", "mc.yaml", "--for", "coreos"];
    ok(d.path(), &[&args[..], &["--report", "-q"]].concat());
    let secret = {
        let c: Value =
            serde_json::from_slice(&std::fs::read(a.join("auth/report-credentials.json")).unwrap())
                .unwrap();
        c["pools"]["worker"].as_str().unwrap().to_string()
    };
    let r1 = crate::store::replica(d.path(), &url, "a", &[]);
    let r2 = crate::store::replica(d.path(), &url, "b", &[]);
    let ca = a.join("tls/mcs-ca.crt");
    let one = REPORT.replace("stranger", "one");
    let two = REPORT.replace("stranger", "two");
    assert_eq!(post(&r1, &ca, "worker", &secret, one.as_bytes()), 200);
    assert_eq!(post(&r2, &ca, "worker", &secret, two.as_bytes()), 200);
    // Nothing in the directory: the store is where they are.
    assert!(reports(&a).is_empty());
    let (code, out, err) = run(
        d.path(),
        &[
            "machine",
            "list",
            "-o",
            "json",
            "--store",
            &url,
            "--store-insecure",
        ],
    );
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    let hosts: Vec<(&str, &str)> = v["unmatchedReports"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["hostname"].as_str().unwrap(),
                r["replica"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(hosts, [("one", "a"), ("two", "b")], "{v:#}");
}
