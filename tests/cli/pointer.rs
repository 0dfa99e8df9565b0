//! Pointer configs: every spec version and transport, validated by ignition-validate;
//! byte-identical output; base64 and stdout output.

use base64::Engine;

use crate::support::{assert_ignition_valid, demo, mode, ok, run};

#[test]
fn every_spec_version_and_transport_validates() {
    let d = demo(&[]);
    for minor in 0..=4 {
        let v = format!("3.{minor}.0");
        for transport in ["header", "query", "none"] {
            let out = format!("p-{minor}-{transport}.ign");
            let (code, _, err) = run(
                d.path(),
                &[
                    "pointer",
                    "--pool",
                    "worker",
                    "--spec-version",
                    &v,
                    "--token-transport",
                    transport,
                    "--output",
                    &out,
                ],
            );
            if minor == 0 && transport == "header" {
                assert_eq!(code, 2, "spec 3.0.0 cannot carry headers");
                assert!(err.contains("httpHeaders"), "{err}");
                continue;
            }
            assert_eq!(code, 0, "{v} {transport}: {err}");
            let p = d.path().join(&out);
            assert_ignition_valid(&p);
            let text = std::fs::read_to_string(&p).unwrap();
            let j: serde_json::Value = serde_json::from_str(&text).unwrap();
            assert_eq!(j["ignition"]["version"], v.as_str());
            let src = j["ignition"]["config"]["merge"][0]["source"]
                .as_str()
                .unwrap();
            assert!(src.starts_with("https://api-int.demo.example.com:22623/config/worker"));
            let ca = j["ignition"]["security"]["tls"]["certificateAuthorities"][0]["source"]
                .as_str()
                .unwrap();
            let pem = base64::engine::general_purpose::STANDARD
                .decode(
                    ca.strip_prefix("data:text/plain;charset=utf-8;base64,")
                        .unwrap(),
                )
                .unwrap();
            assert_eq!(
                pem,
                std::fs::read(d.path().join("mcs-assets/tls/mcs-ca-bundle.crt")).unwrap()
            );
            match transport {
                "header" => {
                    let h = &j["ignition"]["config"]["merge"][0]["httpHeaders"][0];
                    assert_eq!(h["name"], "Authorization");
                    assert!(h["value"].as_str().unwrap().starts_with("Bearer "));
                    assert_eq!(mode(&p), 0o600);
                }
                "query" => {
                    assert!(src.contains("?token="));
                    assert_eq!(mode(&p), 0o600);
                }
                _ => {
                    assert!(!text.contains("token") && !text.contains("Bearer"));
                    assert_eq!(mode(&p), 0o644);
                }
            }
        }
    }
}

#[test]
fn init_pointer_matches_design() {
    let d = demo(&[]);
    let p = d.path().join("mcs-assets/worker.ign");
    assert_ignition_valid(&p);
    let j: serde_json::Value = serde_json::from_slice(&std::fs::read(&p).unwrap()).unwrap();
    assert_eq!(j["ignition"]["version"], "3.2.0");
    let m = &j["ignition"]["config"]["merge"][0];
    assert_eq!(
        m["source"],
        "https://api-int.demo.example.com:22623/config/worker"
    );
    let v = m["httpHeaders"][0]["value"].as_str().unwrap();
    let tok = v.strip_prefix("Bearer ").unwrap();
    let (id, secret) = tok.split_once('.').unwrap();
    assert_eq!(id.len(), 6);
    assert!(
        id.bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
    );
    assert_eq!(
        base64::engine::general_purpose::URL_SAFE_NO_PAD
            .decode(secret)
            .unwrap()
            .len(),
        32
    );
    assert_ignition_valid(&d.path().join("mcs-assets/master.ign"));
}

#[test]
fn same_inputs_give_identical_bytes_and_base64_round_trips() {
    let d = demo(&[]);
    let new = ["--new-pool"];
    let a = ok(
        d.path(),
        &[&["pointer", "--pool", "infra", "--output", "-"][..], &new].concat(),
    );
    let b = ok(
        d.path(),
        &[&["pointer", "--pool", "infra", "--output", "-"][..], &new].concat(),
    );
    assert_eq!(a, b);
    let b64 = ok(
        d.path(),
        &[
            "pointer",
            "--pool",
            "infra",
            "--output",
            "-",
            "--base64",
            "--new-pool",
        ],
    );
    let decoded = base64::engine::general_purpose::STANDARD
        .decode(b64.trim())
        .unwrap();
    assert_eq!(String::from_utf8(decoded).unwrap(), a);
    // The default output lands in the asset directory and the pool is remembered.
    ok(
        d.path(),
        &["pointer", "--pool", "infra", "-q", "--new-pool"],
    );
    assert_ignition_valid(&d.path().join("mcs-assets/infra.ign"));
    let cfg = std::fs::read_to_string(d.path().join("mcs-assets/mcsctl.json")).unwrap();
    assert!(cfg.contains("\"infra\""));
    let (code, _, err) = run(d.path(), &["pointer", "--pool", "infra"]);
    assert_eq!(code, 1);
    assert!(err.contains("infra.ign exists; use --force"), "{err}");
}

#[test]
fn no_token_init_writes_public_pointers() {
    let d = demo(&["--no-token"]);
    let p = d.path().join("mcs-assets/worker.ign");
    assert_eq!(mode(&p), 0o644);
    assert!(!std::fs::read_to_string(&p).unwrap().contains("Bearer"));
    assert!(!d.path().join("mcs-assets/auth/tokens.json").exists());
    assert_ignition_valid(&p);
}

/// The merge source of a pointer config.
fn source_of(p: &std::path::Path) -> String {
    let v: serde_json::Value = serde_json::from_slice(&std::fs::read(p).unwrap()).unwrap();
    v["ignition"]["config"]["merge"][0]["source"]
        .as_str()
        .unwrap()
        .to_string()
}

#[test]
fn the_mcs_url_of_each_pool_is_remembered_by_every_rewrite() {
    let d = tempfile::tempdir().unwrap();
    crate::support::init_demo(
        d.path(),
        &[
            "--url",
            "lb.example.com:8443",
            "--san",
            "mcs-edge.example.com",
        ],
    );
    let a = d.path().join("mcs-assets");
    let lb = "https://lb.example.com:8443/config/worker";
    assert_eq!(source_of(&a.join("worker.ign")), lb);
    // The load balancer's name is on the serving certificate.
    let (code, out, _) = run(d.path(), &["inspect"]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("tls/mcs.crt covers lb.example.com (worker.ign)"),
        "{out}"
    );
    // An MCS address is completed as for init --url; a whole URL is taken as it is.
    let edge = "https://mcs-edge.example.com:22623/config/edge";
    ok(
        d.path(),
        &[
            "pointer",
            "--pool",
            "edge",
            "--url",
            "mcs-edge.example.com",
            "-q",
            "--new-pool",
        ],
    );
    assert_eq!(source_of(&a.join("edge.ign")), edge);
    ok(
        d.path(),
        &["pointer", "--pool", "edge", "--url", edge, "--force", "-q"],
    );
    // Rewrites without --url keep each pool's URL: pointer --force (inspect's own fix),
    // token rotate, every CA rotation phase.
    for args in [
        &["pointer", "--pool", "edge", "--force", "-q"][..],
        &["pointer", "--pool", "worker", "--force", "-q"],
        &["token", "rotate", "-q"],
        &["ca", "rotate", "-q"],
        &["ca", "promote", "-q"],
        &["ca", "retire", "-q"],
    ] {
        ok(d.path(), args);
        assert_eq!(source_of(&a.join("edge.ign")), edge, "after {args:?}");
        assert_eq!(source_of(&a.join("worker.ign")), lb, "after {args:?}");
        assert_eq!(
            source_of(&a.join("master.ign")),
            "https://lb.example.com:8443/config/master",
            "after {args:?}"
        );
    }
    // Not an address: a usage error.
    for bad in ["https://lb.example.com/some/path", "ftp://lb.example.com"] {
        let (code, _, err) = run(
            d.path(),
            &[
                "--dir",
                "other",
                "init",
                "--cluster-name",
                "demo",
                "--base-domain",
                "example.com",
                "--url",
                bad,
            ],
        );
        assert_eq!(code, 2, "{bad}: {err}");
        assert!(err.contains("expected the MCS address"), "{err}");
    }
}

#[test]
fn ca_import_in_a_fresh_directory_then_cert_issue_then_pointer() {
    let lab = demo(&[]);
    let tls = lab.path().join("mcs-assets/tls");
    let d = tempfile::tempdir().unwrap();
    ok(
        d.path(),
        &[
            "ca",
            "import",
            "--cert",
            tls.join("mcs-ca.crt").to_str().unwrap(),
            "--key",
            tls.join("mcs-ca.key").to_str().unwrap(),
            "-q",
        ],
    );
    ok(
        d.path(),
        &["cert", "issue", "--san", "mcs.lab.example.com", "-q"],
    );
    let url = "https://mcs.lab.example.com:22623/config/worker";
    ok(
        d.path(),
        &["pointer", "--pool", "worker", "--url", url, "-q"],
    );
    let a = d.path().join("mcs-assets");
    assert_eq!(source_of(&a.join("worker.ign")), url);
    let (code, out, _) = run(d.path(), &["inspect"]);
    assert!(!out.contains("\nfail "), "{out}");
    assert!(code == 0 || code == 3, "{out}");
    assert!(
        out.contains("worker.ign trusts the issuer of tls/mcs.crt")
            && out.contains("tls/mcs.crt covers mcs.lab.example.com (worker.ign)"),
        "{out}"
    );
}

#[test]
fn a_pool_nobody_declared_is_a_typo_until_new_pool_says_otherwise() {
    let d = demo(&[]);
    let a = d.path().join("mcs-assets");
    let before = crate::support::snapshot(&a);
    let refusals: [&[&str]; 3] = [
        &["token", "create", "--pool", "nosuch"],
        &["pointer", "--pool", "wroker"],
        &["machine", "add", "w0", "--pool", "wroker"],
    ];
    for args in refusals {
        let (code, out, err) = run(d.path(), args);
        assert_eq!(code, 1, "{args:?}: {out}{err}");
        assert!(
            err.contains("is not a pool of mcs-assets")
                && err.contains(
                    "is not in mcsctl.json and is not one of the MCO's built-in pools (known here: arbiter, master, worker). Pass --new-pool if"
                ),
            "{args:?}: {err}"
        );
        assert_eq!(
            err.contains("(did you mean worker?)"),
            args.contains(&"wroker"),
            "{err}"
        );
        assert_eq!(
            crate::support::snapshot(&a),
            before,
            "{args:?} wrote nothing"
        );
    }
    // Meant: --new-pool creates it (and mcsctl.json lists it from then on).
    ok(
        d.path(),
        &["pointer", "--pool", "infra", "--new-pool", "-q"],
    );
    let cfg: serde_json::Value =
        serde_json::from_slice(&std::fs::read(a.join("mcsctl.json")).unwrap()).unwrap();
    assert_eq!(
        cfg["pools"],
        serde_json::json!(["worker", "master", "infra"])
    );
    ok(d.path(), &["token", "create", "--pool", "infra", "-q"]);
    ok(d.path(), &["machine", "add", "i0", "--pool", "infra", "-q"]);
    ok(
        d.path(),
        &["token", "create", "--pool", "edge", "--new-pool", "-q"],
    );
    ok(
        d.path(),
        &["machine", "add", "g0", "--pool", "gpu", "--new-pool", "-q"],
    );
    let cfg: serde_json::Value =
        serde_json::from_slice(&std::fs::read(a.join("mcsctl.json")).unwrap()).unwrap();
    assert_eq!(
        cfg["pools"],
        serde_json::json!(["worker", "master", "infra", "edge", "gpu"])
    );
    // A pool with a rendered config is known without mcsctl.json naming it.
    std::fs::create_dir_all(a.join("rendered")).unwrap();
    std::fs::write(
        a.join("rendered/storage.ign"),
        r#"{"ignition":{"version":"3.2.0"}}"#,
    )
    .unwrap();
    ok(d.path(), &["token", "create", "--pool", "storage", "-q"]);
}

#[test]
fn a_merge_url_the_serving_certificate_does_not_name_is_refused_and_inspected() {
    let d = demo(&["--san", "127.0.0.1"]);
    let a = d.path().join("mcs-assets");
    let url = "https://192.0.2.10:22623/config/edge";
    let args = ["pointer", "--pool", "edge", "--new-pool", "--url", url];
    let (code, _, err) = run(d.path(), &args);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("tls/mcs.crt does not cover 192.0.2.10, the host of https://192.0.2.10:22623/config/edge (its names: DNS:api-int.demo.example.com, IP:127.0.0.1): machines booting from this pointer config would refuse the server. `mcsctl cert issue --force --san 192.0.2.10` adds it (same CA: pointer configs keep working); --force writes the pointer config anyway"),
        "{err}"
    );
    assert!(!a.join("edge.ign").exists(), "nothing written");
    // Written anyway: inspect of the directory fails on it.
    ok(d.path(), &[&args[..], &["--force", "-q"]].concat());
    let (code, out, _) = run(d.path(), &["inspect"]);
    assert_eq!(code, 4, "{out}");
    assert!(
        out.contains("tls/mcs.crt does not cover 192.0.2.10, the host of edge.ign's merge source")
            && out.contains("`mcsctl cert issue --force --san 192.0.2.10`"),
        "{out}"
    );
    // The fix the message names keeps the pointer configs working and clears the check.
    ok(
        d.path(),
        &["cert", "issue", "--force", "--san", "192.0.2.10", "-q"],
    );
    assert_eq!(run(d.path(), &["inspect"]).0, 0);
}
