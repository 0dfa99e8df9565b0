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
            "-q",
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
