//! render: merge rules across role and pool, ignition-validate on every output, the secret scan
//! of the pre-approval set for every kind of secret in every encoding, and the real Ignition
//! client getting the pre-approval config without a token from `serve --auth split`.

use std::io::Write;
use std::path::Path;

use base64::Engine;

use crate::ignition_client::ignition_fetch;
use crate::support::{Serve, assert_ignition_valid, demo, golden, mode, ok, run, snapshot};

const MCS: &str = r#"
apiVersion: machineconfiguration.openshift.io/v1
kind: MachineConfig
metadata:
  name: 00-worker
  labels: {machineconfiguration.openshift.io/role: worker}
spec:
  neededBeforeNodeApproved: true
  config:
    ignition: {version: 3.2.0}
    storage:
      files:
        - path: /etc/kubernetes/kubelet-ca.crt
          mode: 420
          contents: {source: "data:,kubelet%20ca"}
        - path: /etc/motd
          contents: {source: "data:,base"}
    systemd:
      units:
        - name: kubelet.service
          enabled: true
          contents: "[Unit]\nDescription=kubelet\n"
---
apiVersion: machineconfiguration.openshift.io/v1
kind: MachineConfig
metadata:
  name: 01-worker-kubelet
  labels: {machineconfiguration.openshift.io/role: worker}
spec:
  config:
    ignition: {version: 3.2.0}
    storage:
      files:
        - path: /var/lib/kubelet/config.json
          mode: 384
          contents: {source: "data:,%7B%22auths%22%3A%7B%22quay.io%22%3A%7B%22auth%22%3A%22dXNlcjpwYXNz%22%7D%7D%7D"}
        - path: /etc/motd
          contents: {source: "data:,worker"}
    systemd:
      units:
        - name: kubelet.service
          dropins: [{name: 10-extra.conf, contents: "[Service]\nEnvironment=X=1\n"}]
---
apiVersion: machineconfiguration.openshift.io/v1
kind: MachineConfig
metadata:
  name: 99-worker-ssh
  labels: {machineconfiguration.openshift.io/role: worker}
spec:
  config:
    ignition: {version: 3.2.0}
    passwd:
      users: [{name: core, sshAuthorizedKeys: ["ssh-ed25519 AAAA worker"]}]
---
apiVersion: machineconfiguration.openshift.io/v1
kind: MachineConfig
metadata:
  name: 00-master
  labels: {machineconfiguration.openshift.io/role: master}
spec:
  config:
    ignition: {version: 3.2.0}
    storage:
      files: [{path: /etc/motd, contents: {source: "data:,master"}}]
---
apiVersion: machineconfiguration.openshift.io/v1
kind: MachineConfig
metadata:
  name: 50-infra
  labels: {machineconfiguration.openshift.io/role: infra}
spec:
  neededBeforeNodeApproved: true
  kernelArguments: [nosmt]
  config:
    ignition: {version: 3.2.0}
    storage:
      files: [{path: /etc/motd, contents: {source: "data:,infra"}}]
"#;

fn read(p: &Path) -> serde_json::Value {
    serde_json::from_slice(&std::fs::read(p).unwrap()).unwrap()
}

#[test]
fn render_merges_by_role_and_pool_and_validates() {
    let d = demo(&[]);
    std::fs::write(d.path().join("mcs.yaml"), MCS).unwrap();
    // kernelArguments need spec 3.3.0: without it, an error naming the MachineConfig.
    let (code, _, err) = run(d.path(), &["render", "--machine-configs", "mcs.yaml"]);
    assert_eq!(code, 1);
    assert!(err.contains("50-infra") && err.contains("3.3.0"), "{err}");
    assert!(
        !d.path().join("mcs-assets/rendered").exists(),
        "nothing written on error"
    );
    let out = ok(
        d.path(),
        &[
            "render",
            "--machine-configs",
            "mcs.yaml",
            "--spec-version",
            "3.3.0",
        ],
    );
    let re = regex::Regex::new(r"rendered-(\w+)-[0-9a-f]{32}").unwrap();
    golden("render.txt", &re.replace_all(&out, "rendered-$1-[HASH]"));
    let r = d.path().join("mcs-assets/rendered");
    for pool in ["worker", "master", "infra"] {
        assert_ignition_valid(&r.join(format!("{pool}.ign")));
        assert_ignition_valid(&r.join(format!("pre-approval/{pool}.ign")));
        assert_eq!(mode(&r.join(format!("{pool}.ign"))), 0o600);
    }
    let w = read(&r.join("worker.ign"));
    assert_eq!(w["ignition"]["version"], "3.3.0");
    let files = w["storage"]["files"].as_array().unwrap();
    let motd = files.iter().find(|f| f["path"] == "/etc/motd").unwrap();
    assert_eq!(
        motd["contents"]["source"], "data:,worker",
        "later config wins by path"
    );
    assert_eq!(motd["overwrite"], true);
    assert_eq!(files.iter().filter(|f| f["path"] == "/etc/motd").count(), 1);
    let unit = &w["systemd"]["units"][0];
    assert_eq!(
        (unit["name"].as_str(), unit["enabled"].as_bool()),
        (Some("kubelet.service"), Some(true))
    );
    assert_eq!(unit["dropins"][0]["name"], "10-extra.conf");
    assert_eq!(w["passwd"]["users"][0]["name"], "core");
    let pre = read(&r.join("pre-approval/worker.ign"));
    let pre_paths: Vec<&str> = pre["storage"]["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["path"].as_str().unwrap())
        .collect();
    assert_eq!(pre_paths, ["/etc/kubernetes/kubelet-ca.crt", "/etc/motd"]);
    assert!(
        pre["passwd"].is_null(),
        "99-worker-ssh is not in the pre-approval set"
    );
    let infra = read(&r.join("infra.ign"));
    let motd = infra["storage"]["files"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["path"] == "/etc/motd")
        .unwrap()
        .clone();
    assert_eq!(
        motd["contents"]["source"], "data:,infra",
        "the pool's own config comes after worker's"
    );
    assert_eq!(
        infra["kernelArguments"]["shouldExist"],
        serde_json::json!(["nosmt"])
    );
    let master = read(&r.join("master.ign"));
    assert_eq!(
        master["storage"]["files"].as_array().unwrap().len(),
        1,
        "master takes only master configs"
    );
    // JSON output.
    let json = ok(
        d.path(),
        &[
            "render",
            "--machine-configs",
            "mcs.yaml",
            "--spec-version",
            "3.3.0",
            "--format",
            "json",
        ],
    );
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let infra = v["pools"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["pool"] == "infra")
        .unwrap()
        .clone();
    assert_eq!(
        infra["mergeOrder"],
        serde_json::json!([
            "00-worker",
            "01-worker-kubelet",
            "99-worker-ssh",
            "50-infra"
        ])
    );
    assert_eq!(
        infra["preApproval"],
        serde_json::json!(["00-worker", "50-infra"])
    );
}

const KEY: &str = "-----BEGIN EC PRIVATE KEY-----\nMHcCAQEEIIaXsecretsecretsecret\n-----END EC PRIVATE KEY-----\n";
const KUBECONFIG: &str = "apiVersion: v1\nkind: Config\nclusters:\n- cluster: {server: https://api:6443}\n  name: c\ncontexts:\n- context: {cluster: c, user: u}\n  name: x\nusers:\n- name: u\n  user:\n    token: sha256~abcdefghijklmnopqrstuvwxyz\n";
const PULL: &str =
    r#"{"auths":{"registry.example.com":{"auth":"dXNlcjpzZWNyZXQ=","email":"a@b"}}}"#;
const BEARER: &str = "[Service]\nEnvironment=\"HDR=Authorization: Bearer eyJhbGciOiJSUzI1NiIsImtpZCI6IjEyMyJ9.payload\"\n";

fn percent(s: &str) -> String {
    s.bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() {
                (b as char).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect()
}

fn gzip(s: &str) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    e.write_all(s.as_bytes()).unwrap();
    e.finish().unwrap()
}

#[test]
fn every_secret_kind_in_every_encoding_is_caught() {
    let b64 = |b: &[u8]| base64::engine::general_purpose::STANDARD.encode(b);
    let d = demo(&[]);
    for (kind, secret) in [
        ("PEM private key", KEY),
        ("kubeconfig with credentials", KUBECONFIG),
        ("pull secret", PULL),
        ("bearer token", BEARER),
    ] {
        let encodings: Vec<(&str, String, Option<&str>)> = vec![
            (
                "plain",
                format!(
                    "data:,{}",
                    secret
                        .replace('\n', "%0A")
                        .replace(' ', "%20")
                        .replace('"', "%22")
                        .replace('#', "%23")
                ),
                None,
            ),
            ("percent", format!("data:,{}", percent(secret)), None),
            (
                "base64",
                format!("data:text/plain;base64,{}", b64(secret.as_bytes())),
                None,
            ),
            (
                "gzip",
                format!("data:;base64,{}", b64(&gzip(secret))),
                Some("gzip"),
            ),
        ];
        for (enc, source, compression) in encodings {
            let mut file = serde_json::json!({"path": "/etc/leak", "contents": {"source": source}});
            if let Some(c) = compression {
                file["contents"]["compression"] = c.into();
            }
            let mc = serde_json::json!({"apiVersion": "machineconfiguration.openshift.io/v1", "kind": "MachineConfig",
                "metadata": {"name": "05-worker-leaky", "labels": {"machineconfiguration.openshift.io/role": "worker"}},
                "spec": {"neededBeforeNodeApproved": true, "config": {"ignition": {"version": "3.2.0"}, "storage": {"files": [file]}}}});
            std::fs::write(d.path().join("leak.json"), mc.to_string()).unwrap();
            let before = snapshot(d.path());
            let (code, _, err) = run(d.path(), &["render", "--machine-configs", "leak.json"]);
            assert_eq!(code, 1, "{kind} / {enc} not caught");
            assert!(
                err.contains("MachineConfig 05-worker-leaky puts a")
                    && err.contains(kind)
                    && err.contains("/etc/leak"),
                "{kind} / {enc}: {err}"
            );
            assert_eq!(err.lines().count(), 1, "{err}");
            for fragment in ["secretsecret", "sha256~abc", "dXNlcjpzZWNyZXQ", "eyJhbGci"] {
                assert!(
                    !err.contains(fragment),
                    "the error printed the secret: {err}"
                );
            }
            assert_eq!(before, snapshot(d.path()), "nothing written");
            // Explicitly allowed: rendered.
            ok(
                d.path(),
                &[
                    "render",
                    "--machine-configs",
                    "leak.json",
                    "--allow-sensitive",
                    "/etc/leak",
                    "-q",
                ],
            );
            // Outside the pre-approval set the same content is fine.
            let mut quiet = mc.clone();
            quiet["spec"]["neededBeforeNodeApproved"] = false.into();
            std::fs::write(d.path().join("ok.json"), quiet.to_string()).unwrap();
            ok(d.path(), &["render", "--machine-configs", "ok.json", "-q"]);
        }
    }
    // Systemd unit contents are scanned too.
    let mc = serde_json::json!({"kind": "MachineConfig", "metadata": {"name": "06-worker-unit", "labels": {"machineconfiguration.openshift.io/role": "worker"}},
        "spec": {"neededBeforeNodeApproved": true, "config": {"ignition": {"version": "3.2.0"}, "systemd": {"units": [{"name": "fetch.service", "contents": BEARER}]}}}});
    std::fs::write(d.path().join("unit.json"), mc.to_string()).unwrap();
    let (code, _, err) = run(d.path(), &["render", "--machine-configs", "unit.json"]);
    assert_eq!(code, 1);
    assert!(
        err.contains("systemd unit fetch.service") && err.contains("bearer token"),
        "{err}"
    );
}

#[test]
fn bad_machine_configs_are_one_line_errors() {
    let d = demo(&[]);
    std::fs::write(d.path().join("bad.yaml"), "kind: MachineConfig\nmetadata: {name: x, labels: {machineconfiguration.openshift.io/role: worker}}\nspec:\n  config: {ignition: {version: 2.2.0}}\n").unwrap();
    let (code, _, err) = run(d.path(), &["render", "--machine-configs", "bad.yaml"]);
    assert_eq!(code, 1);
    assert!(
        err.contains("bad.yaml") && err.contains("MachineConfig x"),
        "{err}"
    );
    std::fs::write(d.path().join("garbage.yaml"), ": : :\n\t-").unwrap();
    let (code, _, err) = run(d.path(), &["render", "--machine-configs", "garbage.yaml"]);
    assert_eq!(code, 1, "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
}

#[test]
fn split_serve_from_render_output_with_the_real_ignition_client() {
    let d = demo(&["--san", "127.0.0.1"]);
    std::fs::write(d.path().join("mcs.yaml"), MCS).unwrap();
    ok(
        d.path(),
        &[
            "render",
            "--machine-configs",
            "mcs.yaml",
            "--spec-version",
            "3.3.0",
            "-q",
        ],
    );
    let s = Serve::start(d.path(), &["--auth", "split"]);
    let url = format!("https://127.0.0.1:{}/config/worker", s.addr.port());
    ok(
        d.path(),
        &[
            "pointer",
            "--pool",
            "worker",
            "--url",
            &url,
            "--output",
            "anon.ign",
            "--token-transport",
            "none",
            "-q",
        ],
    );
    ok(
        d.path(),
        &[
            "pointer", "--pool", "worker", "--url", &url, "--output", "tok.ign", "-q",
        ],
    );
    let Some((success, fetched, log)) = ignition_fetch(&d.path().join("anon.ign")) else {
        return;
    };
    assert!(success, "{log}");
    assert!(
        fetched.contains("kubelet%20ca") && !fetched.contains("/var/lib/kubelet/config.json"),
        "pre-approval only: {fetched}"
    );
    let (success, fetched, log) = ignition_fetch(&d.path().join("tok.ign")).unwrap();
    assert!(success, "{log}");
    assert!(
        fetched.contains("/var/lib/kubelet/config.json") && fetched.contains("ssh-ed25519"),
        "full config: {fetched}"
    );
}
