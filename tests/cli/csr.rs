//! csr review end to end with CSRs made by openssl, wrapped as Kubernetes objects: a realistic
//! UPI batch (3 masters, 2 workers, client and serving CSRs, a rogue host), reviewed against an
//! inventory, Machine API machines and nodes; csr sign checked with openssl.

use std::path::Path;

use base64::Engine;
use serde_json::{Value, json};

use crate::support::{demo, golden, init_demo, ok, openssl_run, run};

const NOW: &str = "2026-11-21T09:00:00Z";
const BOOT: &str = "system:serviceaccount:openshift-machine-config-operator:node-bootstrapper";

/// An ECDSA CSR made by openssl; `san` like "DNS:a,IP:1.2.3.4".
pub(crate) fn openssl_csr(dir: &Path, name: &str, cn: &str, san: Option<&str>) -> Option<String> {
    openssl_csr_with(dir, name, cn, san, &[])
}

/// [`openssl_csr`] with more arguments for `openssl req`.
fn openssl_csr_with(
    dir: &Path,
    name: &str,
    cn: &str,
    san: Option<&str>,
    extra: &[&str],
) -> Option<String> {
    let mut args = vec![
        "req",
        "-new",
        "-newkey",
        "ec",
        "-pkeyopt",
        "ec_paramgen_curve:P-256",
        "-nodes",
        "-keyout",
    ];
    let key = format!("{name}.key");
    let out = format!("{name}.csr");
    let subj = format!("/O=system:nodes/CN={cn}");
    let ext = san.map(|s| format!("subjectAltName={s}"));
    args.extend([key.as_str(), "-out", out.as_str(), "-subj", subj.as_str()]);
    if let Some(e) = &ext {
        args.extend(["-addext", e.as_str()]);
    }
    args.extend_from_slice(extra);
    let (okay, log) = openssl_run(&args, dir)?;
    assert!(okay, "{log}");
    Some(std::fs::read_to_string(dir.join(out)).unwrap())
}

pub(crate) fn client_csr(name: &str, node: &str, pem: &str, created: &str) -> Value {
    json!({
        "apiVersion": "certificates.k8s.io/v1", "kind": "CertificateSigningRequest",
        "metadata": {"name": name, "creationTimestamp": created},
        "spec": {"request": base64::engine::general_purpose::STANDARD.encode(pem), "signerName": "kubernetes.io/kube-apiserver-client-kubelet",
                 "username": BOOT, "groups": ["system:serviceaccounts:openshift-machine-config-operator", "system:serviceaccounts", "system:authenticated"],
                 "usages": ["digital signature", "client auth"]},
        "status": {},
        "_node": node,
    })
}

fn serving_csr(name: &str, node: &str, pem: &str, created: &str) -> Value {
    json!({
        "apiVersion": "certificates.k8s.io/v1", "kind": "CertificateSigningRequest",
        "metadata": {"name": name, "creationTimestamp": created},
        "spec": {"request": base64::engine::general_purpose::STANDARD.encode(pem), "signerName": "kubernetes.io/kubelet-serving",
                 "username": format!("system:node:{node}"), "groups": ["system:nodes", "system:authenticated"],
                 "usages": ["digital signature", "server auth"]},
        "status": {},
    })
}

fn node(name: &str, ip: &str) -> Value {
    json!({"apiVersion": "v1", "kind": "Node", "metadata": {"name": name},
           "status": {"addresses": [{"type": "InternalIP", "address": ip}, {"type": "Hostname", "address": name}],
                      "daemonEndpoints": {"kubeletEndpoint": {"Port": 10250}}}})
}

const INVENTORY: &str = "\
hosts:
  - name: master-0.demo.example.com
    role: master
    addresses: [192.0.2.10]
  - name: master-1.demo.example.com
    role: master
    addresses: [192.0.2.11]
  - name: master-2.demo.example.com
    role: master
    addresses: [192.0.2.12]
  - name: worker-0.demo.example.com
    role: worker
    addresses: [192.0.2.20]
    provisioningWindow: {start: 2026-11-21T08:00:00Z, end: 2026-11-21T12:00:00Z}
  - name: worker-1.demo.example.com
    role: worker
    addresses: [192.0.2.21]
    provisioningWindow: {start: 2026-11-21T06:00:00Z}
";

/// Masters have joined and ask for serving certificates; the two workers are new and ask for
/// client certificates; worker-1 was provisioned more than 2h ago (its window has closed);
/// a rogue host nobody expects asks too; a master asks for an IP it does not have.
fn upi_batch(d: &Path) -> Option<()> {
    let mut items = Vec::new();
    for (i, ip) in ["192.0.2.10", "192.0.2.11", "192.0.2.12"]
        .iter()
        .enumerate()
    {
        let n = format!("master-{i}.demo.example.com");
        let pem = openssl_csr(
            d,
            &format!("m{i}"),
            &format!("system:node:{n}"),
            Some(&format!("DNS:{n},IP:{ip}")),
        )?;
        items.push(serving_csr(
            &format!("csr-serving-m{i}"),
            &n,
            &pem,
            "2026-11-21T08:55:00Z",
        ));
    }
    let w0 = openssl_csr(d, "w0", "system:node:worker-0.demo.example.com", None)?;
    items.push(client_csr(
        "csr-client-w0",
        "worker-0",
        &w0,
        "2026-11-21T08:50:00Z",
    ));
    let w1 = openssl_csr(d, "w1", "system:node:worker-1.demo.example.com", None)?;
    items.push(client_csr(
        "csr-client-w1",
        "worker-1",
        &w1,
        "2026-11-21T08:59:00Z",
    ));
    let rogue = openssl_csr(d, "rogue", "system:node:rogue.demo.example.com", None)?;
    items.push(client_csr(
        "csr-client-rogue",
        "rogue",
        &rogue,
        "2026-11-21T08:58:00Z",
    ));
    let bad = openssl_csr(
        d,
        "m0x",
        "system:node:master-0.demo.example.com",
        Some("DNS:master-0.demo.example.com,IP:198.51.100.7"),
    )?;
    items.push(serving_csr(
        "csr-serving-m0-extra-ip",
        "master-0.demo.example.com",
        &bad,
        "2026-11-21T08:56:00Z",
    ));
    for it in &mut items {
        it.as_object_mut().unwrap().remove("_node");
    }
    std::fs::write(
        d.join("csrs.json"),
        serde_json::to_vec_pretty(&json!({"apiVersion": "v1", "kind": "List", "items": items}))
            .unwrap(),
    )
    .unwrap();
    let nodes = json!({"kind": "List", "items": [node("master-0.demo.example.com", "192.0.2.10"), node("master-1.demo.example.com", "192.0.2.11"), node("master-2.demo.example.com", "192.0.2.12")]});
    std::fs::write(d.join("nodes.json"), serde_json::to_vec(&nodes).unwrap()).unwrap();
    std::fs::write(d.join("inventory.yaml"), INVENTORY).unwrap();
    Some(())
}

#[test]
fn upi_batch_review_table_and_approve_names() {
    let d = tempfile::tempdir().unwrap();
    if upi_batch(d.path()).is_none() {
        return;
    }
    let base = [
        "csr",
        "review",
        "--csrs",
        "csrs.json",
        "--nodes",
        "nodes.json",
        "--inventory",
        "inventory.yaml",
        "--now",
        NOW,
    ];
    let table = ok(d.path(), &base);
    golden("csr-review-upi.txt", &table);
    let names = ok(d.path(), &[&base[..], &["--approve-names"]].concat());
    assert_eq!(
        names,
        "csr-serving-m0\ncsr-serving-m1\ncsr-serving-m2\ncsr-client-w0\n"
    );
    let json = ok(d.path(), &[&base[..], &["--format", "json"]].concat());
    let v: Value = serde_json::from_str(&json).unwrap();
    let by_name = |n: &str| {
        v["csrs"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["name"] == n)
            .unwrap()
            .clone()
    };
    assert_eq!(by_name("csr-client-rogue")["decision"], "pending");
    assert_eq!(by_name("csr-client-rogue")["rule"], "C4");
    assert_eq!(
        by_name("csr-client-w1")["rule"],
        "C6",
        "worker-1's window (start + 2h) has closed"
    );
    assert_eq!(by_name("csr-serving-m0-extra-ip")["rule"], "S9");
    assert_eq!(v["maxPending"], 105);
    // Read from stdin, YAML: the same decisions.
    let yaml = serde_yaml_ng::to_string(
        &serde_json::from_slice::<Value>(&std::fs::read(d.path().join("csrs.json")).unwrap())
            .unwrap(),
    )
    .unwrap();
    let out = crate::support::mcsctl(d.path())
        .args([
            "csr",
            "review",
            "--csrs",
            "-",
            "--nodes",
            "nodes.json",
            "--inventory",
            "inventory.yaml",
            "--now",
            NOW,
            "--approve-names",
        ])
        .write_stdin(yaml)
        .output()
        .unwrap();
    assert_eq!(String::from_utf8(out.stdout).unwrap(), names);
}

#[test]
fn machine_api_review_and_time_window() {
    let d = tempfile::tempdir().unwrap();
    let Some(pem) = openssl_csr(d.path(), "w", "system:node:worker-5.demo.example.com", None)
    else {
        return;
    };
    let csrs = json!({"kind": "List", "items": [client_csr("csr-a", "worker-5", &pem, "2026-11-21T08:30:00Z")]});
    std::fs::write(
        d.path().join("csrs.json"),
        serde_json::to_vec(&csrs).unwrap(),
    )
    .unwrap();
    let machine = |created: &str| {
        json!({"kind": "List", "items": [{"apiVersion": "machine.openshift.io/v1beta1", "kind": "Machine",
            "metadata": {"name": "demo-worker-5", "namespace": "openshift-machine-api", "creationTimestamp": created},
            "status": {"addresses": [{"type": "InternalDNS", "address": "worker-5.demo.example.com."}]}}]})
    };
    std::fs::write(
        d.path().join("m.json"),
        serde_json::to_vec(&machine("2026-11-21T08:00:00Z")).unwrap(),
    )
    .unwrap();
    // Client CSRs are never decided without the Nodes (the check against impersonation).
    let (code, _, err) = run(
        d.path(),
        &[
            "csr",
            "review",
            "--csrs",
            "csrs.json",
            "--machines",
            "m.json",
            "--now",
            NOW,
        ],
    );
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("--nodes is required to decide client CSRs"),
        "{err}"
    );
    // A file given for the wrong flag is named, not read as empty.
    let (code, _, err) = run(
        d.path(),
        &[
            "csr",
            "review",
            "--csrs",
            "csrs.json",
            "--machines",
            "m.json",
            "--nodes",
            "csrs.json",
            "--now",
            NOW,
        ],
    );
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("csrs.json holds CertificateSigningRequest objects, not Node; --nodes takes"),
        "{err}"
    );
    std::fs::write(d.path().join("nodes.json"), r#"{"kind":"List","items":[]}"#).unwrap();
    let args = [
        "csr",
        "review",
        "--csrs",
        "csrs.json",
        "--machines",
        "m.json",
        "--nodes",
        "nodes.json",
        "--now",
        NOW,
        "--approve-names",
    ];
    assert_eq!(ok(d.path(), &args), "csr-a\n");
    std::fs::write(
        d.path().join("m.json"),
        serde_json::to_vec(&machine("2026-11-21T05:00:00Z")).unwrap(),
    )
    .unwrap();
    assert_eq!(
        ok(d.path(), &args),
        "",
        "machine created more than 2h before the CSR"
    );
}

/// A kubelet signer apart from the MCS CA (standing for the cluster's csr-signer), made by
/// `mcsctl ca create` in its own directory; returns its certificate and key paths.
pub(crate) fn kubelet_signer(p: &Path) -> (String, String) {
    ok(p, &["--dir", "kubelet-signer", "ca", "create", "-q"]);
    (
        "kubelet-signer/tls/mcs-ca.crt".into(),
        "kubelet-signer/tls/mcs-ca.key".into(),
    )
}

#[test]
fn sign_client_and_serving_certificates() {
    let d = demo(&[]);
    let p = d.path();
    let (ca, key) = kubelet_signer(p);
    let signer = ["--ca-cert", ca.as_str(), "--ca-key", key.as_str()];
    let Some(client_pem) = openssl_csr(p, "c", "system:node:worker-0.demo.example.com", None)
    else {
        return;
    };
    let obj = client_csr("csr-c", "worker-0", &client_pem, "2026-11-21T08:50:00Z");
    std::fs::write(p.join("client.json"), serde_json::to_vec(&obj).unwrap()).unwrap();
    let mut args = vec![
        "csr",
        "sign",
        "--csr",
        "client.json",
        "--output",
        "client.crt",
        "--validity",
        "30d",
        "-q",
    ];
    args.extend(signer);
    ok(p, &args);
    openssl_csr(
        p,
        "s",
        "system:node:worker-0.demo.example.com",
        Some("DNS:worker-0.demo.example.com,IP:192.0.2.20"),
    )
    .unwrap();
    let mut args = vec!["csr", "sign", "--csr", "s.csr", "--address", "192.0.2.20"];
    args.extend(signer);
    let serving = ok(p, &args);
    std::fs::write(p.join("serving.crt"), &serving).unwrap();
    for (f, eku) in [
        ("client.crt", "TLS Web Client Authentication"),
        ("serving.crt", "TLS Web Server Authentication"),
    ] {
        let (okay, out) = openssl_run(&["verify", "-CAfile", &ca, f], p).unwrap();
        assert!(okay, "{out}");
        // Never trusted by what machines trust for the MCS.
        let (okay, out) = openssl_run(
            &["verify", "-CAfile", "mcs-assets/tls/mcs-ca-bundle.crt", f],
            p,
        )
        .unwrap();
        assert!(!okay, "{out}");
        let (_, text) = openssl_run(&["x509", "-in", f, "-noout", "-text"], p).unwrap();
        assert!(text.contains(eku) && text.contains("CA:FALSE"), "{text}");
        let other = if f == "client.crt" {
            "TLS Web Server Authentication"
        } else {
            "TLS Web Client Authentication"
        };
        assert!(!text.contains(other), "one purpose only: {text}");
        assert!(
            text.contains("system:node:worker-0.demo.example.com"),
            "{text}"
        );
        // The certificate carries the CSR's key.
        let key = if f == "client.crt" { "c.key" } else { "s.key" };
        let (_, a) = openssl_run(&["x509", "-in", f, "-noout", "-pubkey"], p).unwrap();
        let (_, b) = openssl_run(&["pkey", "-in", key, "-pubout"], p).unwrap();
        assert_eq!(a, b);
    }
    let (_, text) = openssl_run(
        &[
            "x509",
            "-in",
            "serving.crt",
            "-noout",
            "-ext",
            "subjectAltName",
        ],
        p,
    )
    .unwrap();
    assert!(
        text.contains("DNS:worker-0.demo.example.com") && text.contains("IP Address:192.0.2.20"),
        "{text}"
    );
    // Not a kubelet request: refused, one line naming the file.
    openssl_run(
        &[
            "req",
            "-new",
            "-newkey",
            "ec",
            "-pkeyopt",
            "ec_paramgen_curve:P-256",
            "-nodes",
            "-keyout",
            "x.key",
            "-out",
            "x.csr",
            "-subj",
            "/CN=admin",
        ],
        p,
    )
    .unwrap();
    let mut args = vec!["csr", "sign", "--csr", "x.csr"];
    args.extend(signer);
    let (code, _, err) = run(p, &args);
    assert_eq!(code, 1);
    assert!(err.contains("x.csr: not a kubelet request"), "{err}");
    // A tampered request fails its signature check.
    let mut tampered = client_pem.clone().into_bytes();
    let mid = tampered.len() / 2;
    tampered[mid] = if tampered[mid] == b'A' { b'B' } else { b'A' };
    std::fs::write(p.join("t.csr"), tampered).unwrap();
    let mut args = vec!["csr", "sign", "--csr", "t.csr"];
    args.extend(signer);
    let (code, _, err) = run(p, &args);
    assert_ne!(code, 0);
    assert_ne!(code, 101, "{err}");
}

#[test]
fn sign_never_makes_a_certificate_that_could_stand_in_for_the_mcs() {
    let d = demo(&["--san", "127.0.0.1"]);
    let p = d.path();
    let (ca, key) = kubelet_signer(p);
    let signer = ["--ca-cert", ca.as_str(), "--ca-key", key.as_str()];
    // The attack: a "kubelet" serving request naming the MCS.
    let Some(_) = openssl_csr(
        p,
        "evil",
        "system:node:worker-0",
        Some("DNS:api-int.demo.example.com,IP:127.0.0.1"),
    ) else {
        return;
    };
    // Without a signer there is nothing to sign with: the MCS CA is no default.
    let (code, _, err) = run(p, &["csr", "sign", "--csr", "evil.csr"]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("--ca-cert <FILE>") && err.contains("--ca-key <FILE>"),
        "{err}"
    );
    // The MCS CA, or any CA a pointer config trusts, is refused as the signer, even for a
    // request that is otherwise fine.
    openssl_csr(p, "good", "system:node:worker-0", Some("DNS:worker-0")).unwrap();
    for (c, k) in [
        ("mcs-assets/tls/mcs-ca.crt", "mcs-assets/tls/mcs-ca.key"),
        (
            "mcs-assets/tls/mcs-ca-bundle.crt",
            "mcs-assets/tls/mcs-ca.key",
        ),
    ] {
        let (code, _, err) = run(
            p,
            &[
                "csr",
                "sign",
                "--csr",
                "good.csr",
                "--ca-cert",
                c,
                "--ca-key",
                k,
            ],
        );
        assert_eq!(code, 1, "{err}");
        assert!(
            err.contains("a CA that machines trust for the Machine Config Server")
                && !err.contains("BEGIN"),
            "{err}"
        );
    }
    // The MCS's own names, even vouched for with --address.
    let mut args = vec![
        "csr",
        "sign",
        "--csr",
        "evil.csr",
        "--address",
        "127.0.0.1",
        "--address",
        "api-int.demo.example.com",
    ];
    args.extend(signer);
    let (code, out, err) = run(p, &args);
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        err.contains("\"api-int.demo.example.com\", a name of the Machine Config Server"),
        "{err}"
    );
    assert!(out.is_empty());
    // Names the admin did not vouch for, wildcards, the unspecified address.
    for (san, want) in [
        (
            "DNS:worker-1",
            "neither the node name \"worker-0\" nor an address given with --address",
        ),
        ("DNS:*.worker-0", "wildcard"),
        ("IP:0.0.0.0", "unspecified address"),
        ("IP:192.0.2.99", "not an address given with --address"),
        ("email:a@example.com", "e-mail address"),
    ] {
        openssl_csr(p, "n", "system:node:worker-0", Some(san)).unwrap();
        let mut args = vec!["csr", "sign", "--csr", "n.csr"];
        args.extend(signer);
        let (code, _, err) = run(p, &args);
        assert_eq!(code, 1, "{san}: {err}");
        assert!(err.contains(want), "{san}: {err}");
    }
    // A client request naming anything, or asking for server auth as a client: refused.
    let pem = openssl_csr(p, "cs", "system:node:worker-0", Some("DNS:worker-0")).unwrap();
    let mut obj = client_csr("csr-x", "worker-0", &pem, "2026-11-21T08:50:00Z");
    std::fs::write(p.join("cs.json"), serde_json::to_vec(&obj).unwrap()).unwrap();
    let mut args = vec!["csr", "sign", "--csr", "cs.json"];
    args.extend(signer);
    let (code, _, err) = run(p, &args);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("rule D1"), "{err}");
    obj["spec"]["usages"] = json!(["digital signature", "client auth", "server auth"]);
    std::fs::write(p.join("cs.json"), serde_json::to_vec(&obj).unwrap()).unwrap();
    let (code, _, err) = run(p, &args);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("one or the other"), "{err}");
}

#[test]
fn renewal_with_fetched_serving_certificate() {
    // A "kubelet" presenting a serving certificate signed by the kubelet signer: mcsctl serve
    // of a second asset directory (whose CA is the signer) with a certificate from `csr sign`.
    // Its renewal CSR (same names) is approved by S6 after --fetch-serving-certs dials it; a
    // CSR with an extra name is not.
    let d = demo(&[]);
    let p = d.path();
    std::fs::create_dir(p.join("kubelet")).unwrap();
    init_demo(&p.join("kubelet"), &["--san", "127.0.0.1"]);
    let signer = "kubelet/mcs-assets/tls/mcs-ca.crt";
    let node_name = "worker-0.demo.example.com";
    let Some(_) = openssl_csr(
        p,
        "k",
        &format!("system:node:{node_name}"),
        Some(&format!("DNS:{node_name},IP:127.0.0.1")),
    ) else {
        return;
    };
    ok(
        p,
        &[
            "csr",
            "sign",
            "--csr",
            "k.csr",
            "--address",
            "127.0.0.1",
            "--ca-cert",
            signer,
            "--ca-key",
            "kubelet/mcs-assets/tls/mcs-ca.key",
            "--output",
            "kubelet.crt",
            "-q",
        ],
    );
    let tls = p.join("kubelet/mcs-assets/tls");
    std::fs::copy(p.join("kubelet.crt"), tls.join("mcs.crt")).unwrap();
    std::fs::copy(p.join("k.key"), tls.join("mcs.key")).unwrap();
    let kubelet = crate::support::Serve::start(&p.join("kubelet"), &["--auth", "none"]);
    let renew = openssl_csr(
        p,
        "r",
        &format!("system:node:{node_name}"),
        Some(&format!("DNS:{node_name},IP:127.0.0.1")),
    )
    .unwrap();
    let extra = openssl_csr(
        p,
        "x",
        &format!("system:node:{node_name}"),
        Some(&format!("DNS:{node_name},IP:127.0.0.1,IP:203.0.113.9")),
    )
    .unwrap();
    let csrs = json!({"kind": "List", "items": [serving_csr("csr-renew", node_name, &renew, "2026-11-21T08:59:00Z"), serving_csr("csr-extra", node_name, &extra, "2026-11-21T08:59:00Z")]});
    std::fs::write(p.join("csrs.json"), serde_json::to_vec(&csrs).unwrap()).unwrap();
    let nodes = json!({"kind": "List", "items": [{"kind": "Node", "metadata": {"name": node_name},
        "status": {"addresses": [{"type": "InternalIP", "address": "127.0.0.1"}], "daemonEndpoints": {"kubeletEndpoint": {"Port": kubelet.addr.port()}}}}]});
    std::fs::write(p.join("nodes.json"), serde_json::to_vec(&nodes).unwrap()).unwrap();
    let out = ok(
        p,
        &[
            "csr",
            "review",
            "--csrs",
            "csrs.json",
            "--nodes",
            "nodes.json",
            "--kubelet-ca",
            signer,
            "--fetch-serving-certs",
            "--format",
            "json",
        ],
    );
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["csrs"][0]["decision"], "approve", "{out}");
    assert_eq!(v["csrs"][0]["rule"], "S6", "{out}");
    assert_eq!(v["csrs"][1]["decision"], "pending", "{out}");
    assert!(
        v["csrs"][1]["reason"]
            .as_str()
            .unwrap()
            .contains("do not match current certificate"),
        "{out}"
    );
}

/// Nothing a CSR carries reaches the terminal as a control: an object name with a screen clear,
/// a window-title sequence and a bidi override, a subject with a line break and an override,
/// and a file name with an escape in an error, all come out escaped; JSON keeps the exact
/// strings (serde_json escapes controls).
#[test]
fn review_output_escapes_controls_and_bidi_from_csrs() {
    let d = tempfile::tempdir().unwrap();
    let cn = "system:node:worker-9\u{202e}exe.txt";
    let Some(pem) = openssl_csr_utf8(d.path(), "evil", cn) else {
        return;
    };
    // A name no API server accepts is refused, shown escaped: the file is not `oc get` output.
    let name = "csr-\u{1b}[2J\u{1b}]0;owned\u{7}-\u{202e}lmth.exe\nforged line";
    let csrs = json!({"apiVersion": "v1", "kind": "List",
        "items": [client_csr(name, "worker-9", &pem, "2026-11-20T10:00:00Z")]});
    std::fs::write(d.path().join("hostile.json"), csrs.to_string()).unwrap();
    let (code, out, err) = run(
        d.path(),
        &[
            "csr",
            "review",
            "--csrs",
            "hostile.json",
            "--nodes",
            "nodes.json",
            "--now",
            NOW,
        ],
    );
    assert_eq!(code, 1, "{out}{err}");
    assert_eq!(
        err,
        "error: hostile.json: CertificateSigningRequest 1 is named \"csr-\\u{1b}[2J\\u{1b}]0;owned\\u{7}-\\u{202e}lmth.exe\\nforged line\", which no API server accepts (a name is a DNS subdomain): the file is not `oc get` output\n"
    );
    // A subject's controls and bidi characters reach no terminal either.
    let name = "csr-evil";
    let csrs = json!({"apiVersion": "v1", "kind": "List",
        "items": [client_csr(name, "worker-9", &pem, "2026-11-20T10:00:00Z")]});
    std::fs::write(d.path().join("csrs.json"), csrs.to_string()).unwrap();
    std::fs::write(
        d.path().join("nodes.json"),
        r#"{"apiVersion": "v1", "kind": "List", "items": []}"#,
    )
    .unwrap();
    let review = [
        "csr",
        "review",
        "--csrs",
        "csrs.json",
        "--nodes",
        "nodes.json",
        "--now",
        NOW,
    ];
    let (code, out, err) = run(d.path(), &review);
    assert!(code == 0 || code == 3, "{out}{err}");
    for bad in ['\u{1b}', '\u{7}', '\u{202e}'] {
        assert!(
            !out.contains(bad) && !err.contains(bad),
            "{bad:?} in {out}{err}"
        );
    }
    assert!(out.contains("csr-evil"), "{out}");
    let (_, json_out, _) = run(d.path(), &[&review[..], &["--format", "json"]].concat());
    let v: Value = serde_json::from_str(&json_out).unwrap();
    assert_eq!(v["csrs"][0]["name"], name);
    // A file name in an error.
    let (code, _, err) = run(
        d.path(),
        &["csr", "review", "--csrs", "gone\u{1b}[2J\u{202e}.json"],
    );
    assert_ne!(code, 0);
    assert!(
        err.contains("gone\\u{1b}[2J\\u{202e}.json") && !err.contains('\u{1b}'),
        "{err}"
    );
}

/// A CSR whose subject is UTF-8 as given (control and bidi characters included).
fn openssl_csr_utf8(dir: &Path, name: &str, cn: &str) -> Option<String> {
    openssl_csr_with(dir, name, cn, None, &["-utf8"])
}

/// A ledger line for machine `name`'s token (read from auth/machines.json).
fn fetch_record(assets: &Path, name: &str, time: &str, client: &str, replica: &str) -> String {
    let reg: Value =
        serde_json::from_slice(&std::fs::read(assets.join("auth/machines.json")).unwrap()).unwrap();
    let m = reg["machines"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["name"] == name)
        .unwrap();
    format!(
        "{}\n",
        json!({"time": time, "machine": name, "token": m["token"], "pool": "worker",
               "client": client, "spec": "3.2.0", "bytes": 100, "replica": replica,
               "whole": true})
    )
}

#[test]
fn evidence_approves_only_what_a_registered_machines_fetch_vouches_for() {
    let d = demo(&[]);
    let p = d.path();
    let a = p.join("mcs-assets");
    let w1 = "w1.demo.example.com";
    ok(
        p,
        &[
            "machine",
            "add",
            w1,
            "--pool",
            "worker",
            "--ip",
            "192.0.2.30",
        ],
    );
    ok(
        p,
        &["machine", "add", "w2.demo.example.com", "--pool", "worker"],
    );
    // w1's token fetched at 08:30 from 192.0.2.31 (another address than registered).
    std::fs::create_dir_all(a.join("auth/ledger")).unwrap();
    std::fs::write(
        a.join("auth/ledger/a.jsonl"),
        fetch_record(&a, w1, "2026-11-21T08:30:00Z", "192.0.2.31:40000", "a"),
    )
    .unwrap();
    let csr = |n: &str, cn: &str, san: Option<&str>| openssl_csr(p, n, cn, san);
    let Some(c1) = csr("c1", &format!("system:node:{w1}"), None) else {
        return;
    };
    let c2 = csr("c2", &format!("system:node:{w1}"), None).unwrap();
    let early = csr("c0", &format!("system:node:{w1}"), None).unwrap();
    let rogue = csr("r", "system:node:rogue.demo.example.com", None).unwrap();
    let w2 = csr("w2", "system:node:w2.demo.example.com", None).unwrap();
    let s_ok = csr(
        "s1",
        &format!("system:node:{w1}"),
        Some(&format!("DNS:{w1},IP:192.0.2.30,IP:192.0.2.31")),
    )
    .unwrap();
    let s_bad = csr(
        "s2",
        &format!("system:node:{w1}"),
        Some(&format!("DNS:{w1},IP:198.51.100.7")),
    )
    .unwrap();
    let mut items = vec![
        client_csr("early", w1, &early, "2026-11-21T08:20:00Z"),
        client_csr("first", w1, &c1, "2026-11-21T08:40:00Z"),
        client_csr("second", w1, &c2, "2026-11-21T08:45:00Z"),
        client_csr("rogue", "rogue", &rogue, "2026-11-21T08:41:00Z"),
        client_csr("w2", "w2", &w2, "2026-11-21T08:42:00Z"),
        serving_csr("serving-ok", w1, &s_ok, "2026-11-21T08:50:00Z"),
        serving_csr("serving-bad", w1, &s_bad, "2026-11-21T08:51:00Z"),
    ];
    for it in &mut items {
        it.as_object_mut().unwrap().remove("_node");
    }
    std::fs::write(
        p.join("csrs.json"),
        serde_json::to_vec(&json!({"kind": "List", "items": items})).unwrap(),
    )
    .unwrap();
    std::fs::write(p.join("nodes.json"), r#"{"kind":"List","items":[]}"#).unwrap();
    let review = |extra: &[&str]| -> Vec<(String, String, String)> {
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
            NOW,
        ];
        args.extend_from_slice(extra);
        let v: Value = serde_json::from_str(&ok(p, &args)).unwrap();
        v["csrs"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| {
                (
                    c["name"].as_str().unwrap().to_string(),
                    c["decision"].as_str().unwrap().to_string(),
                    format!(
                        "{} {}",
                        c["rule"].as_str().unwrap(),
                        c["reason"].as_str().unwrap()
                    ),
                )
            })
            .collect()
    };
    let got = review(&[]);
    let rule = |name: &str| {
        let (_, d, r) = got.iter().find(|(n, _, _)| n == name).unwrap();
        format!("{d} {r}")
    };
    // Two client CSRs for w1 since its fetch: neither is approved, whatever their order.
    for name in ["first", "second"] {
        assert!(
            rule(name).starts_with("pending E6 2 client CSRs for w1.demo.example.com since its fetch at 2026-11-21T08:30:00Z (first, second)"),
            "{got:?}"
        );
    }
    assert!(
        rule("early").starts_with("pending E3 created 2026-11-21T08:20:00Z"),
        "{got:?}"
    );
    assert!(
        rule("rogue")
            .starts_with("pending E1 node rogue.demo.example.com is not a registered machine"),
        "{got:?}"
    );
    assert!(
        rule("w2").starts_with(
            "pending E2 machine w2.demo.example.com is registered but its token never fetched"
        ),
        "{got:?}"
    );
    assert!(rule("serving-ok").starts_with("approve S7"), "{got:?}");
    assert!(
        rule("serving-bad").starts_with("pending S9")
            && rule("serving-bad").contains("198.51.100.7"),
        "{got:?}"
    );
    // --approve-names prints only the evidence-backed ones.
    let names = ok(
        p,
        &[
            "csr",
            "review",
            "--csrs",
            "csrs.json",
            "--nodes",
            "nodes.json",
            "--now",
            NOW,
            "--approve-names",
        ],
    );
    assert_eq!(names, "serving-ok\n");
    // The same fetch in another replica's ledger, merged with --ledger: the same decisions.
    std::fs::remove_file(a.join("auth/ledger/a.jsonl")).unwrap();
    std::fs::write(
        a.join("auth/ledger/b.jsonl"),
        fetch_record(&a, w1, "2026-11-21T08:35:00Z", "192.0.2.30:40001", "b"),
    )
    .unwrap();
    let other = p.join("replica-a.jsonl");
    std::fs::write(
        &other,
        fetch_record(&a, w1, "2026-11-21T08:30:00Z", "192.0.2.31:40000", "a"),
    )
    .unwrap();
    assert_eq!(review(&["--ledger", other.to_str().unwrap()]), got);
    // machine list follows each machine to its node: the approved CSRs, then a Ready node.
    for it in items.iter_mut() {
        if it["metadata"]["name"] == "first" || it["metadata"]["name"] == "serving-ok" {
            it["status"] = json!({"conditions": [{"type": "Approved", "status": "True",
                "lastTransitionTime": "2026-11-21T08:52:00Z", "message": "approved"}]});
        }
    }
    std::fs::write(
        p.join("csrs.json"),
        serde_json::to_vec(&json!({"kind": "List", "items": items})).unwrap(),
    )
    .unwrap();
    let mut n = node(w1, "192.0.2.30");
    n["status"]["conditions"] = json!([{"type": "Ready", "status": "True"}]);
    std::fs::write(
        p.join("nodes.json"),
        serde_json::to_vec(&json!({"kind": "List", "items": [n]})).unwrap(),
    )
    .unwrap();
    let args = [
        "--format",
        "json",
        "machine",
        "list",
        "--csrs",
        "csrs.json",
        "--nodes",
        "nodes.json",
        "--ledger",
        other.to_str().unwrap(),
    ];
    let v: Value = serde_json::from_str(&ok(p, &args)).unwrap();
    let trail = |i: usize| -> Vec<String> {
        v["machines"][i]["trail"]["steps"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| {
                format!(
                    "{} {}",
                    s["step"].as_str().unwrap(),
                    s["seen"].as_str().unwrap()
                )
            })
            .collect()
    };
    // An approved CSR is the one that counts; the later pending ones stay pending.
    let t = trail(0);
    assert!(
        t[..2]
            .iter()
            .all(|s| s.starts_with("registered ") || s.starts_with("pointer ")),
        "{t:?}"
    );
    assert!(t[t.len() - 4].starts_with("fetched "), "{t:?}");
    assert_eq!(
        t[t.len() - 3..],
        [
            "client-csr first approved",
            "serving-csr serving-ok approved",
            "ready node w1.demo.example.com Ready"
        ],
        "{v:#}"
    );
    assert!(v["machines"][0]["trail"]["next"].is_null());
    assert!(
        v["machines"][1]["trail"]["next"]
            .as_str()
            .unwrap()
            .starts_with("not fetched yet")
    );
}

#[test]
fn evidence_without_an_asset_directory_names_the_directory_looked_in() {
    let d = tempfile::tempdir().unwrap();
    std::fs::write(d.path().join("csrs.json"), r#"{"kind":"List","items":[]}"#).unwrap();
    let (code, _, err) = run(
        d.path(),
        &[
            "csr",
            "review",
            "--evidence",
            "--csrs",
            "csrs.json",
            "--dir",
            "nothere",
        ],
    );
    assert_eq!(code, 1, "{err}");
    assert_eq!(
        err,
        "error: asset directory nothere does not exist; run `mcsctl init` first or pass --dir\n"
    );
    assert!(
        !d.path().join("nothere").exists(),
        "review creates no directory"
    );
}

#[test]
fn times_at_the_end_of_the_calendar_are_decided_not_panicked_on() {
    let d = demo(&[]);
    let p = d.path();
    let a = p.join("mcs-assets");
    ok(p, &["machine", "add", "w0", "--pool", "worker", "-q"]);
    // A fetch dated the last second the calendar has, and a review at it.
    let end = "9999-12-31T23:59:59Z";
    std::fs::create_dir_all(a.join("auth/ledger")).unwrap();
    std::fs::write(
        a.join("auth/ledger/x.jsonl"),
        fetch_record(&a, "w0", end, "192.0.2.9:40000", "x"),
    )
    .unwrap();
    let Some(pem) = openssl_csr(p, "w0", "system:node:w0", None) else {
        return;
    };
    let list = json!({"kind": "List", "items": [client_csr("csr-w0", "w0", &pem, end)]});
    std::fs::write(p.join("csrs.json"), list.to_string()).unwrap();
    std::fs::write(p.join("nodes.json"), r#"{"kind":"List","items":[]}"#).unwrap();
    for now in [end, "0001-01-01T00:00:00Z", "2026-11-28T00:00:00Z"] {
        let (code, out, err) = run(
            p,
            &[
                "csr",
                "review",
                "--csrs",
                "csrs.json",
                "--nodes",
                "nodes.json",
                "--evidence",
                "--now",
                now,
            ],
        );
        assert_eq!(code, 0, "--now {now}:\n{out}{err}");
        assert!(out.contains("csr-w0"), "{out}");
        assert!(!err.contains("panicked"), "{err}");
    }
}
