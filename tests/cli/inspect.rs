//! inspect: the exit codes of the acceptance list, every target kind, and --remote.

use base64::Engine;

use crate::support::{Serve, demo, ok, run};

#[test]
fn fresh_assets_exit_0() {
    let d = demo(&[]);
    let (code, out, _) = run(d.path(), &["inspect"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("0 warning(s), 0 failure(s)"), "{out}");
}

#[test]
fn serving_cert_from_another_ca_exits_4_naming_the_mismatch() {
    let d = demo(&[]);
    let other = demo(&[]);
    for f in ["tls/mcs.crt", "tls/mcs.key"] {
        std::fs::copy(
            other.path().join("mcs-assets").join(f),
            d.path().join("mcs-assets").join(f),
        )
        .unwrap();
    }
    let (code, out, _) = run(d.path(), &["inspect"]);
    assert_eq!(code, 4, "{out}");
    assert!(
        out.contains("tls/mcs.crt is not signed by tls/mcs-ca.crt"),
        "{out}"
    );
    assert!(
        out.contains("x509: certificate signed by unknown authority"),
        "{out}"
    );
    let json = ok_or(d.path(), &["inspect", "--format", "json"], 4);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["exitCode"], 4);
    assert!(
        v["checks"]
            .as_array()
            .unwrap()
            .iter()
            .any(|c| c["check"] == "pointer-ca" && c["status"] == "fail")
    );
}

fn ok_or(cwd: &std::path::Path, args: &[&str], want: i32) -> String {
    let (code, out, err) = run(cwd, args);
    assert_eq!(code, want, "{out}{err}");
    out
}

#[test]
fn certificate_expiring_in_10_days_exits_3() {
    let d = demo(&[]);
    ok(
        d.path(),
        &["cert", "issue", "--force", "--validity", "10d", "-q"],
    );
    let (code, out, _) = run(d.path(), &["inspect", "--warn-within", "30d"]);
    assert_eq!(code, 3, "{out}");
    assert!(
        out.lines()
            .any(|l| l.starts_with("tls/mcs.crt") && l.contains("10d") && l.ends_with("expiring")),
        "{out}"
    );
    // A check row with the command that fixes it, in text and JSON.
    assert!(
        out.contains("warn   expiry       tls/mcs.crt expires in 10d (")
            && out.contains("fix: `mcsctl cert renew` (same CA, same SANs, new key)"),
        "{out}"
    );
    let json = ok_or(d.path(), &["inspect", "--format", "json"], 3);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["exitCode"], 3);
    let check = v["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["check"] == "expiry")
        .unwrap_or_else(|| panic!("no expiry check: {json}"));
    assert_eq!(check["status"], "warn");
    assert!(
        check["message"]
            .as_str()
            .unwrap()
            .starts_with("tls/mcs.crt expires in 10d")
    );
    assert!(check["fix"].as_str().unwrap().contains("mcsctl cert renew"));
    // Every check that is not ok carries a fix.
    for c in v["checks"].as_array().unwrap() {
        assert!(
            c["status"] == "ok" || c["fix"].as_str().is_some_and(|f| !f.is_empty()),
            "{c}"
        );
    }
    // Outside the window it is fine.
    assert_eq!(run(d.path(), &["inspect", "--warn-within", "5d"]).0, 0);
}

#[test]
fn key_mismatch_exits_4() {
    let d = demo(&[]);
    let other = demo(&[]);
    std::fs::copy(
        other.path().join("mcs-assets/tls/mcs.key"),
        d.path().join("mcs-assets/tls/mcs.key"),
    )
    .unwrap();
    let (code, out, _) = run(d.path(), &["inspect"]);
    assert_eq!(code, 4);
    assert!(
        out.contains("tls/mcs.key does not match its certificate"),
        "{out}"
    );
}

#[test]
fn san_not_covering_the_pointer_host_exits_4() {
    let d = demo(&[]);
    ok(
        d.path(),
        &[
            "pointer",
            "--pool",
            "edge",
            "--url",
            "https://mcs.other.example.org:22623/config/edge",
            // pointer refuses a host the certificate does not name; inspect is what is tested.
            "--force",
            "-q",
            "--new-pool",
        ],
    );
    let (code, out, _) = run(d.path(), &["inspect"]);
    assert_eq!(code, 4);
    assert!(
        out.contains("does not cover mcs.other.example.org"),
        "{out}"
    );
}

#[test]
fn stale_token_in_a_pointer_exits_4() {
    let d = demo(&[]);
    std::fs::copy(
        d.path().join("mcs-assets/worker.ign"),
        d.path().join("old.ign"),
    )
    .unwrap();
    crate::support::rotate_and_revoke(d.path());
    std::fs::copy(
        d.path().join("old.ign"),
        d.path().join("mcs-assets/stale.ign"),
    )
    .unwrap();
    let (code, out, _) = run(d.path(), &["inspect"]);
    assert_eq!(code, 4, "{out}");
    assert!(
        out.contains("stale.ign: token") && out.contains("revoked"),
        "{out}"
    );
}

#[test]
fn files_pointers_and_kubernetes_objects() {
    let d = demo(&[]);
    let a = d.path().join("mcs-assets");
    let out = ok(
        d.path(),
        &[
            "inspect",
            "mcs-assets/tls/mcs-ca.crt",
            "mcs-assets/worker.ign",
        ],
    );
    assert!(
        out.contains("mcs-assets/tls/mcs-ca.crt") && out.contains("worker.ign"),
        "{out}"
    );
    assert!(out.contains("header"), "{out}");
    let secret_token = std::fs::read_to_string(a.join("auth/tokens.json")).unwrap();
    let v: serde_json::Value = serde_json::from_str(&secret_token).unwrap();
    assert!(!out.contains(v["tokens"][0]["secret"].as_str().unwrap()));

    let b64 = |f: &str| {
        base64::engine::general_purpose::STANDARD.encode(std::fs::read(a.join(f)).unwrap())
    };
    let secret_yaml = format!(
        "apiVersion: v1\nkind: Secret\nmetadata:\n  name: machine-config-server-tls\n  namespace: openshift-machine-config-operator\ntype: kubernetes.io/tls\ndata:\n  tls.crt: {}\n  tls.key: {}\n",
        b64("tls/mcs.crt"),
        b64("tls/mcs.key")
    );
    std::fs::write(d.path().join("secret.yaml"), secret_yaml).unwrap();
    let cm = serde_json::json!({
        "apiVersion": "v1", "kind": "ConfigMap",
        "metadata": {"name": "root-ca", "namespace": "kube-system"},
        "data": {"ca.crt": std::fs::read_to_string(a.join("tls/mcs-ca.crt")).unwrap()}
    });
    std::fs::write(d.path().join("root-ca.json"), cm.to_string()).unwrap();
    let out = ok(d.path(), &["inspect", "secret.yaml", "root-ca.json"]);
    assert!(
        out.contains("openshift-machine-config-operator/machine-config-server-tls tls.crt"),
        "{out}"
    );
    assert!(out.contains("kube-system/root-ca ca.crt"), "{out}");
    assert!(out.contains("tls.key matches tls.crt"), "{out}");
}

#[test]
fn remote_shows_the_chain_and_verifies_it() {
    let d = demo(&["--san", "127.0.0.1"]);
    let s = Serve::start(d.path(), &[]);
    let addr = format!("127.0.0.1:{}", s.addr.port());
    let (code, out, err) = run(d.path(), &["inspect", "--remote", &addr]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains("CN=system:machine-config-server") && out.contains("verifies against"),
        "{out}"
    );
    // SNI the certificate does not cover: the chain is shown, verification fails.
    let (code, out, _) = run(
        d.path(),
        &[
            "inspect",
            "--remote",
            &addr,
            "--server-name",
            "api-int.other.example.com",
        ],
    );
    assert_eq!(code, 4, "{out}");
    assert!(out.contains("does not verify"), "{out}");
    // A server from another CA: shown even though untrusted, and exit 4.
    let other = demo(&["--san", "127.0.0.1"]);
    let s2 = Serve::start(other.path(), &[]);
    let addr2 = format!("127.0.0.1:{}", s2.addr.port());
    let (code, out, _) = run(d.path(), &["inspect", "--remote", &addr2]);
    assert_eq!(code, 4, "{out}");
    // Both CAs are named OU=openshift, CN=root-ca (as openshift-install names every CA), so
    // the verifier finds a CA by name and the signature check fails.
    assert!(
        out.contains("CN=system:machine-config-server") && out.contains("not signed by any CA of"),
        "{out}"
    );
    // With --ca naming the right CA it verifies.
    let ca = other.path().join("mcs-assets/tls/mcs-ca.crt");
    let (code, out, _) = run(
        d.path(),
        &["inspect", "--remote", &addr2, "--ca", ca.to_str().unwrap()],
    );
    assert_eq!(code, 0, "{out}");
}

#[test]
fn a_foreign_ca_pointer_named_on_the_command_line_fails() {
    let d = demo(&[]);
    let other = demo(&[]);
    std::fs::copy(
        other.path().join("mcs-assets/worker.ign"),
        d.path().join("foreign.ign"),
    )
    .unwrap();
    let (code, out, _) = run(d.path(), &["inspect", "foreign.ign"]);
    assert_eq!(code, 4, "{out}");
    assert!(
        out.contains("fail   pointer-ca  foreign.ign trusts OU=openshift, CN=root-ca (key id")
            && out.contains(
                "machines will fail with \"x509: certificate signed by unknown authority\""
            )
            && out.contains("fix: rewrite it with `mcsctl pointer --pool worker --force`"),
        "{out}"
    );
    // The same file inside the directory says the same.
    std::fs::copy(
        d.path().join("foreign.ign"),
        d.path().join("mcs-assets/foreign.ign"),
    )
    .unwrap();
    let (code, out, _) = run(d.path(), &["inspect"]);
    assert_eq!(code, 4, "{out}");
    assert!(
        out.contains("fail   pointer-ca   foreign.ign trusts"),
        "{out}"
    );
}

#[test]
fn a_ca_past_80_percent_of_its_life_needs_attention() {
    // A CA made 900 days ago for 1000 days: 100 days left (outside the 30d window), 90% used.
    let d = tempfile::tempdir().unwrap();
    let now = time::OffsetDateTime::now_utc();
    let (_, old) = mcsctl::pki::issue::create_ca(
        rcgen::KeyPair::generate().unwrap(),
        time::Duration::days(1000),
        now - time::Duration::days(900),
    )
    .unwrap();
    std::fs::write(d.path().join("old-ca.crt"), &old.cert_pem).unwrap();
    std::fs::write(d.path().join("old-ca.key"), &old.key_pem).unwrap();
    crate::support::init_demo(
        d.path(),
        &["--ca-cert", "old-ca.crt", "--ca-key", "old-ca.key"],
    );
    let (code, out, _) = run(d.path(), &["inspect"]);
    assert_eq!(code, 3, "{out}");
    assert!(
        out.contains("warn   expiry       tls/mcs-ca.crt has used 90% of its life (100d left): past the 80% at which it should be replaced")
            && out.contains("fix: replace the CA in three steps: `mcsctl ca rotate`, then `mcsctl ca promote`, then `mcsctl ca retire`"),
        "{out}"
    );
    // The serving certificate it signed is new: only the CA needs attention.
    assert!(!out.contains("expiry       tls/mcs.crt"), "{out}");
    // The same file named on the command line, and in JSON.
    let json = ok_or(d.path(), &["inspect", "old-ca.crt", "--format", "json"], 3);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert!(
        v["checks"]
            .as_array()
            .unwrap()
            .iter()
            .any(|c| c["check"] == "expiry"
                && c["status"] == "warn"
                && c["message"]
                    .as_str()
                    .unwrap()
                    .contains("has used 90% of its life")
                && c["fix"].as_str().is_some()),
        "{json}"
    );
    // Rotating clears it.
    for step in ["rotate", "promote", "retire"] {
        ok(d.path(), &["ca", step, "-q"]);
    }
    assert_eq!(run(d.path(), &["inspect"]).0, 0);
}

#[test]
fn every_object_manifests_writes_is_understood() {
    let d = demo(&[]);
    ok(d.path(), &["ca", "rotate", "-q"]);
    crate::support::render(
        &d.path().join("mcs-assets"),
        "worker",
        crate::serve::FULL_34,
        Some(crate::serve::PRE_32),
    );
    ok(
        d.path(),
        &[
            "manifests",
            "--output",
            "manifests",
            "--serve-deployment",
            "--image",
            "quay.io/example/mcsctl:1",
            "--include-ca-key",
            "--include-root-ca",
            "-q",
        ],
    );
    let mut files: Vec<String> = std::fs::read_dir(d.path().join("manifests"))
        .unwrap()
        .map(|e| format!("manifests/{}", e.unwrap().file_name().to_string_lossy()))
        .collect();
    files.sort();
    assert!(files.len() >= 11, "{files:?}");
    let mut args = vec!["inspect"];
    args.extend(files.iter().map(String::as_str));
    let (code, out, err) = run(d.path(), &args);
    // Mid-rotation (phase 1 of 3) is not a finding about the objects: nothing fails.
    assert_eq!(code, 0, "{out}{err}");
    for needle in [
        "kube-system/root-ca ca.crt",
        "openshift-machine-config-operator/machine-config-server-ca ca-bundle.crt[1]",
        "openshift-machine-config-operator/machine-config-server-ca ca-bundle.crt[2]",
        "openshift-machine-config-operator/machine-config-server-ca ca-bundle.crt holds a CA of the asset directory's bundle",
        "openshift-machine-config-operator/machine-config-server-ca: tls.key matches tls.crt",
        "openshift-machine-config-operator/machine-config-server-tls: tls.key matches tls.crt",
        "openshift-config/machineconfig-auth: 2 live token(s)",
        "openshift-machine-api/worker-user-data userData trusts the issuer of tls/mcs.crt",
        "openshift-machine-api/master-user-data userData trusts the issuer of tls/mcs.crt",
        "openshift-machine-config-operator/mcsctl-rendered: holds no certificate",
        "openshift-machine-config-operator/mcsctl-serve-auth: 2 live token(s)",
        "Deployment openshift-machine-config-operator/mcsctl-serve: holds no certificate",
        "Service openshift-machine-config-operator/mcsctl-serve: holds no certificate",
    ] {
        assert!(out.contains(needle), "inspect lacks {needle:?}:\n{out}");
    }
    // Every file gave at least one row.
    for f in &files {
        assert!(!out.contains(&format!("fail   target  {f}")), "{out}");
    }
}

#[test]
fn an_unreadable_file_among_good_ones_is_one_failed_row() {
    let d = demo(&[]);
    std::fs::write(d.path().join("garbage.txt"), "just some text\n").unwrap();
    let (code, out, err) = run(
        d.path(),
        &[
            "inspect",
            "mcs-assets/tls/mcs-ca.crt",
            "missing.crt",
            "garbage.txt",
            "mcs-assets/worker.ign",
        ],
    );
    assert_eq!(code, 4, "{out}{err}");
    assert!(err.is_empty(), "{err}");
    // The good ones are all there.
    assert!(
        out.lines()
            .any(|l| l.starts_with("mcs-assets/tls/mcs-ca.crt "))
            && out.contains("worker.ign trusts the issuer of tls/mcs.crt"),
        "{out}"
    );
    // Each bad one is a failed row with a fix.
    for (needle, bad) in [
        (
            "reading missing.crt: No such file or directory",
            "missing.crt",
        ),
        (
            "garbage.txt: not a certificate, pointer config or Kubernetes object",
            "garbage.txt",
        ),
    ] {
        let lines: Vec<&str> = out.lines().collect();
        let i = lines
            .iter()
            .position(|l| l.starts_with("fail   target") && l.contains(needle))
            .unwrap_or_else(|| panic!("no failed row for {bad}:\n{out}"));
        assert!(
            lines[i + 1]
                .trim_start()
                .starts_with(&format!("fix: check {bad}")),
            "{out}"
        );
    }
    assert!(out.contains("2 failure(s)"), "{out}");
}

/// Waits (bounded) until `f` holds.
fn eventually(limit: std::time::Duration, mut f: impl FnMut() -> bool) -> bool {
    let start = std::time::Instant::now();
    while start.elapsed() < limit {
        if f() {
            return true;
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    false
}

/// The status and check name of a row of the checks table.
fn status(row: &str) -> (&str, &str) {
    let mut w = row.split_whitespace();
    (w.next().unwrap_or_default(), w.next().unwrap_or_default())
}

/// The line of `out` that holds `needle`, or a panic showing `out`.
fn line_with<'o>(out: &'o str, needle: &str) -> &'o str {
    out.lines()
        .find(|l| l.contains(needle))
        .unwrap_or_else(|| panic!("no line with {needle:?}:\n{out}"))
}

#[test]
fn machine_pointer_configs_are_inspected_by_their_tokens_fetches() {
    use crate::support::{Https, https_get, ledger_records, machine_token, render};
    let d = demo(&["--san", "127.0.0.1", "--for", "coreos"]);
    let a = d.path().join("mcs-assets");
    // Far larger than the socket buffers: a client that does not read stalls the response.
    let big = serde_json::json!({
        "ignition": {"version": "3.2.0"},
        "storage": {"files": [{"path": "/etc/big", "contents": {"source": format!("data:,{}", "x".repeat(1 << 20))}}]}
    });
    render(&a, "worker", &big.to_string(), None);
    for m in ["w0", "w1", "w2"] {
        ok(d.path(), &["machine", "add", m, "--pool", "worker", "-q"]);
    }
    let (code, out, _) = run(d.path(), &["inspect"]);
    assert_eq!(code, 0, "{out}");
    for m in ["w0", "w1", "w2"] {
        assert!(line_with(&out, &format!("machines/{m}.ign  3.2.0")).contains("header"));
        let row = line_with(&out, &format!("machines/{m}.ign: token"));
        assert!(
            status(row) == ("ok", "machine")
                && row.ends_with(&format!(
                    "of machine {m} has not fetched yet; 1 whole fetch(es) left"
                )),
            "{out}"
        );
    }
    let s = Serve::start(d.path(), &["--write-timeout", "60s"]);
    let ca = a.join("tls/mcs-ca.crt");
    let bearer = |m: &str| format!("Bearer {}", machine_token(&a, m));
    let ask = |m: &str| Https::ask_worker(s.addr, &ca, &bearer(m));
    let records = |m: &str| -> Vec<bool> {
        ledger_records(&a)
            .iter()
            .filter(|r| r["machine"] == m)
            .map(|r| r["whole"] == true)
            .collect()
    };
    // w0 fetches whole; w1 reads a byte and goes away; w2 asks and does not read.
    assert_eq!(
        https_get(
            &s,
            &ca,
            "/config/worker",
            &[("Authorization", &bearer("w0"))]
        )
        .status,
        200
    );
    let mut c = ask("w1");
    c.read_some(&mut [0u8; 1]).unwrap();
    drop(c);
    assert!(
        eventually(std::time::Duration::from_secs(30), || s
            .stderr()
            .contains("\"event\":\"fetch-cut\"")),
        "{}",
        s.stderr()
    );
    let _w2 = ask("w2");
    assert!(eventually(std::time::Duration::from_secs(30), || records(
        "w2"
    ) == [
        false
    ]));
    assert_eq!(records("w1"), [false]);
    let (code, out, _) = run(d.path(), &["inspect"]);
    assert_eq!(code, 3, "{out}");
    let w0 = line_with(&out, "machines/w0.ign: token");
    assert_eq!(status(w0), ("ok", "machine"), "{out}");
    assert!(
        w0.contains("of machine w0 was spent by a whole fetch at 20")
            && w0.contains(" from 127.0.0.1:")
            && w0.ends_with(
                "(1 ledger file(s)): serve answers 401 to it now; it has provisioned its machine"
            ),
        "{w0}"
    );
    let w1 = line_with(&out, "machines/w1.ign: token");
    assert_eq!(status(w1), ("warn", "machine"), "{out}");
    assert!(
        w1.contains("of machine w1: 1 fetch(es) cut off before their end (the last at 20")
            && w1.ends_with(
                "): nothing spent, 1 whole fetch(es) left; serve refuses it after 2 more by default"
            ),
        "{w1}"
    );
    let w2 = line_with(&out, "machines/w2.ign: token");
    assert_eq!(status(w2), ("warn", "machine"), "{out}");
    assert!(
        w2.contains("of machine w2 is being fetched now (since 20")
            && w2.ends_with(
                "): serve answers 503 to another fetch until it ends, and once it goes out whole the token is spent"
            ),
        "{w2}"
    );
    // Named to boot a machine with, a spent pointer config fails, saying what serve says.
    let (code, out, _) = run(d.path(), &["inspect", "mcs-assets/machines/w0.ign"]);
    assert_eq!(code, 4, "{out}");
    assert_eq!(
        status(line_with(&out, "w0.ign: token")),
        ("fail", "machine"),
        "{out}"
    );
    assert!(
        out.contains("fix: to provision w0 again: `mcsctl machine add w0 --pool worker --force` gives w0 a new token and pointer config"),
        "{out}"
    );
    assert_eq!(
        https_get(
            &s,
            &ca,
            "/config/worker",
            &[("Authorization", &bearer("w0"))]
        )
        .status,
        401,
        "serve agrees"
    );
    // With serve killed, the unfinished fetch can no longer end: it was cut.
    let mut s = s;
    s.signal("KILL");
    s.wait_exit(std::time::Duration::from_secs(10));
    let (_, out, _) = run(d.path(), &["inspect"]);
    assert!(
        line_with(&out, "machines/w2.ign: token").contains("1 fetch(es) cut off before their end"),
        "{out}"
    );
}

#[test]
fn a_copy_made_before_a_token_rotation_is_to_be_replaced_not_rotated_again() {
    let d = demo(&[]);
    std::fs::copy(
        d.path().join("mcs-assets/worker.ign"),
        d.path().join("pxe-worker.ign"),
    )
    .unwrap();
    ok(d.path(), &["token", "rotate", "--grace", "1h", "-q"]);
    let current = crate::support::token_for(&d.path().join("mcs-assets"), "worker");
    let id = current.split('.').next().unwrap();
    let (code, out, _) = run(d.path(), &["inspect", "pxe-worker.ign"]);
    assert_eq!(code, 3, "{out}");
    let row = line_with(&out, "pxe-worker.ign: token");
    assert!(
        status(row) == ("warn", "token")
            && row.contains(&format!(
                " was replaced by {id} (`mcsctl token rotate`): the server accepts it until 20"
            ))
            && row.ends_with(", then answers 401"),
        "{out}"
    );
    assert!(
        out.contains(&format!(
            "fix: replace this copy wherever machines boot from it with mcs-assets/worker.ign, which carries {id}"
        )),
        "{out}"
    );
    assert!(!out.contains("token rotate --grace"), "{out}");
    // Once its grace is over, the same: replace it.
    let (code, out, _) = crate::support::run_later(d.path(), 7200, &["inspect", "pxe-worker.ign"]);
    assert_eq!(code, 4, "{out}");
    assert!(
        out.contains(&format!(
            "fix: replace it wherever machines boot from it with mcs-assets/worker.ign, which carries the current token {id}"
        )),
        "{out}"
    );
}

#[test]
fn every_file_manifests_writes_inspects_on_its_own() {
    let d = demo(&[]);
    crate::support::render(
        &d.path().join("mcs-assets"),
        "worker",
        crate::serve::FULL_34,
        None,
    );
    // A DaemonSet needs no ledger volume: without machine tokens; one replica with them.
    for (out_dir, extra) in [
        ("daemonset", &["--host-network"][..]),
        ("one", &["--replicas", "1"][..]),
    ] {
        if out_dir == "one" {
            ok(
                d.path(),
                &["machine", "add", "w0", "--pool", "worker", "-q"],
            );
        }
        let mut args = vec![
            "manifests",
            "--output",
            out_dir,
            "--serve-deployment",
            "--image",
            "quay.io/example/mcsctl:1",
            "-q",
        ];
        args.extend_from_slice(extra);
        ok(d.path(), &args);
        let mut kinds = Vec::new();
        for e in std::fs::read_dir(d.path().join(out_dir)).unwrap() {
            let f = format!("{out_dir}/{}", e.unwrap().file_name().to_string_lossy());
            let (code, out, err) = run(d.path(), &["inspect", &f]);
            assert_eq!(code, 0, "inspect {f}:\n{out}{err}");
            let text = std::fs::read_to_string(d.path().join(&f)).unwrap();
            let kind = line_with(&text, "kind: ")
                .trim_start_matches("kind: ")
                .to_string();
            if [
                "PersistentVolumeClaim",
                "DaemonSet",
                "Deployment",
                "Service",
            ]
            .contains(&kind.as_str())
            {
                let row = line_with(&out, &format!(" {kind} "));
                assert_eq!(status(row), ("ok", "object"), "{f}:\n{out}");
            }
            kinds.push(kind);
        }
        let want = if out_dir == "one" {
            "PersistentVolumeClaim"
        } else {
            "DaemonSet"
        };
        assert!(kinds.iter().any(|k| k == want), "{out_dir}: {kinds:?}");
        assert!(
            kinds.iter().any(|k| k == "ConfigMap"),
            "{out_dir}: {kinds:?}"
        );
    }
}

#[test]
fn every_kept_key_is_listed_where_it_is() {
    let d = demo(&[]);
    for step in ["rotate", "promote", "retire"] {
        ok(d.path(), &["ca", step, "-q"]);
    }
    crate::support::init_demo(d.path(), &["--force", "--yes"]);
    let (code, out, _) = run(d.path(), &["inspect"]);
    assert_eq!(code, 0, "{out}");
    let retired = line_with(&out, "tls/retired/");
    assert_eq!(status(retired), ("ok", "kept"), "{out}");
    assert!(
        retired.contains(".key: a retired CA's key of OU=openshift, CN=root-ca (key id ")
            && retired.ends_with("), kept until `mcsctl ca retire --purge`"),
        "{retired}"
    );
    let backup = line_with(&out, "backup/");
    assert_eq!(status(backup), ("ok", "kept"), "{out}");
    // The CA key and the serving key that init replaced.
    assert!(
        backup.ends_with("/: what `mcsctl init --force` replaced (2 key(s)), never read again"),
        "{backup}"
    );
}
