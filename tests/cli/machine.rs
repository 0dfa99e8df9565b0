//! `machine add`, `list` and `remove`: a machine's own pointer config, with a token bound to
//! it that token rotations leave alone and CA rotations keep trusting the right CAs.

use std::path::Path;

use crate::support::*;

/// The bearer token a pointer config carries in its Authorization header.
fn bearer(p: &Path) -> String {
    let v: serde_json::Value = serde_json::from_slice(&std::fs::read(p).unwrap()).unwrap();
    v["ignition"]["config"]["merge"][0]["httpHeaders"][0]["value"]
        .as_str()
        .unwrap()
        .trim_start_matches("Bearer ")
        .to_string()
}

/// How many certificates the pointer config's inline CA bundle holds.
fn trusted(p: &Path) -> usize {
    let v: serde_json::Value = serde_json::from_slice(&std::fs::read(p).unwrap()).unwrap();
    let src = v["ignition"]["security"]["tls"]["certificateAuthorities"][0]["source"]
        .as_str()
        .unwrap();
    let (head, data) = src.split_once(',').unwrap();
    let text = if head.ends_with(";base64") {
        use base64::Engine;
        base64::engine::general_purpose::STANDARD
            .decode(data)
            .unwrap()
    } else {
        percent_decode(data)
    };
    String::from_utf8(text)
        .unwrap()
        .matches("BEGIN CERTIFICATE")
        .count()
}

fn percent_decode(s: &str) -> Vec<u8> {
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' {
            out.push(u8::from_str_radix(&s[i + 1..i + 3], 16).unwrap());
            i += 3;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    out
}

#[test]
fn add_writes_a_private_pointer_with_a_token_bound_to_the_machine() {
    let d = demo(&[]);
    let a = d.path().join("mcs-assets");
    ok(
        d.path(),
        &[
            "machine",
            "add",
            "w1.demo.example.com",
            "--pool",
            "worker",
            "--ip",
            "10.0.0.5",
        ],
    );
    let ptr = a.join("machines/w1.demo.example.com.ign");
    assert_eq!(mode(&ptr) & 0o777, 0o600);
    assert_ignition_valid(&ptr);
    let token = bearer(&ptr);
    assert_ne!(token, token_for(&a, "worker"), "not the pool's token");
    let (id, secret) = token.split_once('.').unwrap();
    // The store binds it: one pool, one use, never current.
    let store: serde_json::Value =
        serde_json::from_slice(&std::fs::read(a.join("auth/tokens.json")).unwrap()).unwrap();
    let t = store["tokens"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["id"] == id)
        .unwrap();
    assert_eq!(t["machine"], "w1.demo.example.com");
    assert_eq!(t["pools"], serde_json::json!(["worker"]));
    assert_eq!(t["uses"], 1);
    assert_eq!(t["state"], "active");
    // list shows it, never the secret.
    let out = ok(d.path(), &["--format", "json", "machine", "list"]);
    assert!(!out.contains(secret));
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let m = &v["machines"][0];
    assert_eq!(
        (m["name"].as_str(), m["pool"].as_str(), m["token"].as_str()),
        (Some("w1.demo.example.com"), Some("worker"), Some(id))
    );
    assert_eq!(m["addresses"], serde_json::json!(["10.0.0.5"]));
    assert_eq!(
        (m["tokenState"].as_str(), m["uses"].as_u64()),
        (Some("active"), Some(1))
    );
    // A second registration of the name is refused without --force, and changes nothing.
    let before = snapshot(&a);
    let (code, _, err) = run(
        d.path(),
        &["machine", "add", "w1.demo.example.com", "--pool", "worker"],
    );
    assert_eq!(code, 1);
    assert!(err.contains("is registered (token"), "{err}");
    assert_eq!(snapshot(&a), before);
    // A pool the directory does not know is refused.
    let (code, _, err) = run(d.path(), &["machine", "add", "w2", "--pool", "gpu"]);
    assert_eq!(code, 1);
    assert!(
        err.contains("machine w2: pool gpu is not a pool of mcs-assets"),
        "{err}"
    );
}

#[test]
fn rotations_keep_a_machine_token_and_give_its_pointer_the_new_ca() {
    let d = demo(&[]);
    let a = d.path().join("mcs-assets");
    ok(
        d.path(),
        &["machine", "add", "w1", "--pool", "worker", "--uses", "0"],
    );
    let ptr = a.join("machines/w1.ign");
    let token = bearer(&ptr);
    ok(d.path(), &["token", "rotate"]);
    assert_eq!(
        bearer(&ptr),
        token,
        "token rotate leaves a machine's token alone"
    );
    assert_eq!(trusted(&ptr), 1);
    ok(d.path(), &["ca", "rotate"]);
    assert_eq!(
        trusted(&ptr),
        2,
        "the machine's pointer trusts the new CA too"
    );
    assert_eq!(bearer(&ptr), token);
    ok(d.path(), &["ca", "promote"]);
    ok(d.path(), &["ca", "retire"]);
    assert_eq!(trusted(&ptr), 1);
    assert_ignition_valid(&ptr);
}

#[test]
fn remove_revokes_the_token_and_removes_the_pointer() {
    let d = demo(&[]);
    let a = d.path().join("mcs-assets");
    ok(d.path(), &["machine", "add", "w1", "--pool", "worker"]);
    let id = bearer(&a.join("machines/w1.ign"))
        .split_once('.')
        .unwrap()
        .0
        .to_string();
    ok(d.path(), &["machine", "remove", "w1"]);
    assert!(!a.join("machines/w1.ign").exists());
    let list = ok(d.path(), &["token", "list"]);
    let row = list.lines().find(|l| l.starts_with(&id)).unwrap();
    assert!(row.contains("revoked"), "{row}");
    let (code, _, err) = run(d.path(), &["machine", "remove", "w1"]);
    assert_eq!(code, 1);
    assert!(err.contains("machine w1 is not registered"), "{err}");
    // init --force keeps the machines in its backup: they belonged to the old CA and tokens.
    ok(d.path(), &["machine", "add", "w2", "--pool", "worker"]);
    ok(
        d.path(),
        &[
            "init",
            "--cluster-name",
            "demo",
            "--base-domain",
            "example.com",
            "--force",
            "--yes",
        ],
    );
    assert!(!a.join("machines/w2.ign").exists());
    assert!(!a.join("auth/machines.json").exists());
    let kept: Vec<_> = std::fs::read_dir(a.join("backup"))
        .unwrap()
        .map(|e| e.unwrap().path().join("machines/w2.ign"))
        .collect();
    assert!(kept.iter().any(|p| p.exists()), "{kept:?}");
}

#[test]
fn list_merges_the_ledgers_of_every_replica() {
    let d = demo(&[]);
    let a = d.path().join("mcs-assets");
    ok(d.path(), &["machine", "add", "w1", "--pool", "worker"]);
    let id = bearer(&a.join("machines/w1.ign"))
        .split_once('.')
        .unwrap()
        .0
        .to_string();
    let rec = |time: &str, client: &str, replica: &str| {
        format!(
            "{{\"time\":\"{time}\",\"machine\":\"w1\",\"token\":\"{id}\",\"pool\":\"worker\",\"client\":\"{client}\",\"spec\":\"3.2.0\",\"bytes\":10,\"replica\":\"{replica}\"}}\n"
        )
    };
    std::fs::create_dir_all(a.join("auth/ledger")).unwrap();
    std::fs::write(
        a.join("auth/ledger/a.jsonl"),
        rec("2026-11-23T10:00:00Z", "10.0.0.5:4000", "a"),
    )
    .unwrap();
    let other = d.path().join("replica-b.jsonl");
    std::fs::write(&other, rec("2026-11-23T10:05:00Z", "10.9.9.9:4000", "b")).unwrap();
    let one = ok(d.path(), &["--format", "json", "machine", "list"]);
    let v: serde_json::Value = serde_json::from_str(&one).unwrap();
    assert_eq!(v["machines"][0]["fetches"].as_array().unwrap().len(), 1);
    let out = ok(
        d.path(),
        &["machine", "list", "--ledger", other.to_str().unwrap()],
    );
    let row = out.lines().find(|l| l.starts_with("w1 ")).unwrap();
    assert!(
        row.contains("2x, last 2026-11-23T10:05:00 from 10.9.9.9:4000 (spec 3.2.0)"),
        "{out}"
    );
}

#[test]
fn from_a_list_every_machine_lands_or_none() {
    let d = demo(&[]);
    let a = d.path().join("mcs-assets");
    std::fs::write(
        d.path().join("hosts.csv"),
        "name,pool,addresses\nw1.demo.example.com,worker,192.0.2.20\nm3.demo.example.com,master,192.0.2.13;192.0.2.14\n",
    )
    .unwrap();
    let out = ok(d.path(), &["machine", "add", "--from", "hosts.csv"]);
    assert!(out.starts_with("Registered 2 machines:"), "{out}");
    for n in ["w1.demo.example.com", "m3.demo.example.com"] {
        assert_eq!(mode(&a.join(format!("machines/{n}.ign"))) & 0o777, 0o600);
    }
    let v: serde_json::Value =
        serde_json::from_str(&ok(d.path(), &["--format", "json", "machine", "list"])).unwrap();
    assert_eq!(
        v["machines"][1]["addresses"],
        serde_json::json!(["192.0.2.13", "192.0.2.14"])
    );
    // One bad entry (a pool that does not exist) registers none of the list.
    std::fs::write(
        d.path().join("more.yaml"),
        "- {name: w2.demo.example.com, pool: worker}\n- {name: g1.demo.example.com, pool: gpu}\n",
    )
    .unwrap();
    let before = snapshot(&a);
    let (code, _, err) = run(d.path(), &["machine", "add", "--from", "more.yaml"]);
    assert_eq!(code, 1);
    assert!(
        err.contains("machine g1.demo.example.com: pool gpu is not a pool"),
        "{err}"
    );
    assert_eq!(snapshot(&a), before);
    // NAME and --from do not go together.
    let (code, _, _) = run(
        d.path(),
        &[
            "machine",
            "add",
            "w9",
            "--pool",
            "worker",
            "--from",
            "more.yaml",
        ],
    );
    assert_eq!(code, 2);
}

#[test]
fn a_ledger_named_that_is_not_there_is_an_error_not_an_empty_ledger() {
    let d = crate::support::demo(&[]);
    ok(
        d.path(),
        &["machine", "add", "w0", "--pool", "worker", "-q"],
    );
    let want = "error: --ledger replica-b.jsonl: no such file (another replica's ledger, auth/ledger/<replica>.jsonl there)\n";
    let (code, _, err) = crate::support::run(
        d.path(),
        &["machine", "list", "--ledger", "replica-b.jsonl"],
    );
    assert_eq!((code, err.as_str()), (1, want));
    // inspect says so in a failed row, and checks the machine without its fetches.
    let (code, out, _) = crate::support::run(
        d.path(),
        &[
            "inspect",
            "mcs-assets/machines/w0.ign",
            "--ledger",
            "replica-b.jsonl",
        ],
    );
    assert_eq!(code, 4, "{out}");
    assert!(
        out.contains("--ledger replica-b.jsonl: no such file"),
        "{out}"
    );
    assert!(
        out.contains("w0.ign: token ") && out.contains("(its fetches were not read)"),
        "{out}"
    );
}

#[test]
fn a_csr_named_to_forge_a_line_is_refused_by_machine_list() {
    let d = crate::support::demo(&[]);
    ok(
        d.path(),
        &["machine", "add", "w0", "--pool", "worker", "-q"],
    );
    let forged = "csr-1\nw9    worker  -  forged  active  1  never  -  ready";
    let list = serde_json::json!({"kind": "List", "items": [{"kind": "CertificateSigningRequest",
        "metadata": {"name": forged, "creationTimestamp": "2026-11-28T04:38:00Z"},
        "spec": {"request": "", "signerName": "kubernetes.io/kube-apiserver-client-kubelet"}}]});
    std::fs::write(d.path().join("csrs.json"), list.to_string()).unwrap();
    let (code, out, err) =
        crate::support::run(d.path(), &["machine", "list", "--csrs", "csrs.json"]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.is_empty(), "{out}");
    assert!(!err.lines().any(|l| l.starts_with("w9 ")), "{err}");
    assert!(
        err.starts_with("error: csrs.json: CertificateSigningRequest 1 is named \"csr-1\\nw9 "),
        "{err}"
    );
}
