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

pub fn read(p: &Path) -> serde_json::Value {
    serde_json::from_slice(&std::fs::read(p).unwrap()).unwrap()
}

/// Paths the MCS appends to every config (openshift flavour).
pub const APPENDED: [&str; 4] = [
    "/etc/machine-config-daemon/node-annotations.json",
    "/etc/kubernetes/kubeconfig",
    "/etc/mcs-machine-config-content.json",
    "/etc/ignition-machine-config-encapsulated.json",
];

/// The paths of a config's files, in order.
pub fn paths(config: &serde_json::Value) -> Vec<String> {
    config["storage"]["files"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|f| f["path"].as_str().unwrap().to_string())
        .collect()
}

/// The decoded contents of the file at `path` in a config.
pub fn file(config: &serde_json::Value, path: &str) -> Vec<u8> {
    let f = config["storage"]["files"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["path"] == path)
        .unwrap_or_else(|| panic!("no {path} in {config}"));
    data_url(f["contents"]["source"].as_str().unwrap())
}

/// Decodes a `data:` URL (percent or base64), independently of mcsctl's own decoder.
pub fn data_url(u: &str) -> Vec<u8> {
    let (meta, data) = u.strip_prefix("data:").unwrap().split_once(',').unwrap();
    if meta.ends_with(";base64") {
        return base64::engine::general_purpose::STANDARD
            .decode(data)
            .unwrap();
    }
    let b = data.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' {
            out.push(
                u8::from_str_radix(std::str::from_utf8(&b[i + 1..i + 3]).unwrap(), 16).unwrap(),
            );
            i += 3;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    out
}

/// The rendered name a config's node annotations give.
pub fn served_name(config: &serde_json::Value) -> String {
    let a: serde_json::Value = serde_json::from_slice(&file(config, APPENDED[0])).unwrap();
    a["machineconfiguration.openshift.io/currentConfig"]
        .as_str()
        .unwrap()
        .to_string()
}

/// A config's encapsulated MachineConfig.
pub fn encapsulated(config: &serde_json::Value) -> serde_json::Value {
    serde_json::from_slice(&file(config, APPENDED[3])).unwrap()
}

#[test]
fn render_merges_by_role_and_pool_and_validates() {
    let d = demo(&[]);
    std::fs::write(d.path().join("mcs.yaml"), MCS).unwrap();
    // coreos: kernel arguments are Ignition kernelArguments, which need spec 3.3.0.
    let (code, _, err) = run(
        d.path(),
        &["render", "--machine-configs", "mcs.yaml", "--for", "coreos"],
    );
    assert_eq!(code, 1);
    assert!(err.contains("50-infra") && err.contains("3.3.0"), "{err}");
    assert!(
        !d.path().join("mcs-assets/rendered").exists(),
        "nothing written on error"
    );
    // openshift (the default): they stay in the MachineConfig for the daemon, at any spec.
    // Without a bootstrap kubeconfig the render is refused, and with --no-bootstrap-kubeconfig
    // it warns that nodes will not join.
    let (code, _, err) = run(d.path(), &["render", "--machine-configs", "mcs.yaml"]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("or --no-bootstrap-kubeconfig if configs that cannot join are meant"));
    let (code, out, err) = run(
        d.path(),
        &[
            "render",
            "--machine-configs",
            "mcs.yaml",
            "--no-bootstrap-kubeconfig",
        ],
    );
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("warning: no bootstrap kubeconfig")
            && err.contains("will never join")
            && err.contains("a later `mcsctl render --bootstrap-kubeconfig FILE` adds it"),
        "{err}"
    );
    // Ignition's validation warnings are rendered anyway, as the MCO does, and said once
    // per pool the MachineConfig reaches.
    let warning = "warning: pool worker: MachineConfig 00-worker: spec.config.systemd.units[0].contents: unit \"kubelet.service\" is enabled, but has no install section so enable does nothing\n";
    assert_eq!(err.matches(warning).count(), 1, "{err}");
    let re = regex::Regex::new(r"rendered-(\w+)-[0-9a-f]{32}").unwrap();
    golden("render.txt", &re.replace_all(&out, "rendered-$1-[HASH]"));
    let r = d.path().join("mcs-assets/rendered");
    for pool in ["worker", "master", "infra"] {
        assert_ignition_valid(&r.join(format!("{pool}.ign")));
        assert_ignition_valid(&r.join(format!("pre-approval/{pool}.ign")));
        assert_eq!(mode(&r.join(format!("{pool}.ign"))), 0o600);
    }
    let w = read(&r.join("worker.ign"));
    assert_eq!(
        w["ignition"]["version"], "3.5.0",
        "the MCS's answer to a spec 3.5.0 client"
    );
    let files = w["storage"]["files"].as_array().unwrap();
    let motd = files.iter().find(|f| f["path"] == "/etc/motd").unwrap();
    assert_eq!(
        motd["contents"]["source"], "data:,worker",
        "later config wins by path"
    );
    assert_eq!(motd["overwrite"], true);
    assert_eq!(files.iter().filter(|f| f["path"] == "/etc/motd").count(), 1);
    let own: Vec<String> = paths(&w)
        .into_iter()
        .filter(|p| !APPENDED.contains(&p.as_str()))
        .collect();
    assert_eq!(
        own,
        [
            "/etc/kubernetes/kubelet-ca.crt",
            "/etc/motd",
            "/var/lib/kubelet/config.json"
        ]
    );
    assert_eq!(
        paths(&w)[3..],
        [APPENDED[0], APPENDED[2], APPENDED[3]],
        "appended last, in the MCS's order (no kubeconfig given)"
    );
    let unit = &w["systemd"]["units"][0];
    assert_eq!(
        (unit["name"].as_str(), unit["enabled"].as_bool()),
        (Some("kubelet.service"), Some(true))
    );
    assert_eq!(unit["dropins"][0]["name"], "10-extra.conf");
    assert_eq!(w["passwd"]["users"][0]["name"], "core");
    let pre = read(&r.join("pre-approval/worker.ign"));
    assert_eq!(
        paths(&pre),
        [
            "/etc/kubernetes/kubelet-ca.crt",
            "/etc/motd",
            APPENDED[0],
            APPENDED[2],
            APPENDED[3]
        ]
    );
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
    assert!(infra.get("kernelArguments").is_none());
    assert_eq!(
        encapsulated(&infra)["spec"]["kernelArguments"],
        serde_json::json!(["nosmt"])
    );
    let master = read(&r.join("master.ign"));
    assert_eq!(
        paths(&master)
            .iter()
            .filter(|p| !APPENDED.contains(&p.as_str()))
            .count(),
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
            "--format",
            "json",
            "--no-bootstrap-kubeconfig",
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
    assert_eq!(infra["flavour"], "openshift");
    assert_eq!(
        infra["machine"]["kernelArguments"],
        serde_json::json!(["nosmt"])
    );
    assert!(v["bootstrapKubeconfig"].is_null());
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
                    // Only what a data URL may not hold raw is escaped (Ignition refuses
                    // the rest).
                    secret
                        .replace('%', "%25")
                        .replace('\n', "%0A")
                        .replace(' ', "%20")
                        .replace('"', "%22")
                        .replace('#', "%23")
                        .replace('{', "%7B")
                        .replace('}', "%7D")
                        .replace('[', "%5B")
                        .replace(']', "%5D")
                        .replace('|', "%7C")
                        .replace('<', "%3C")
                        .replace('>', "%3E")
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
                    "--no-bootstrap-kubeconfig",
                    "-q",
                ],
            );
            // Outside the pre-approval set the same content is fine.
            let mut quiet = mc.clone();
            quiet["spec"]["neededBeforeNodeApproved"] = false.into();
            std::fs::write(d.path().join("ok.json"), quiet.to_string()).unwrap();
            ok(
                d.path(),
                &[
                    "render",
                    "--machine-configs",
                    "ok.json",
                    "--no-bootstrap-kubeconfig",
                    "-q",
                ],
            );
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
    std::fs::write(d.path().join("bad.yaml"), "kind: MachineConfig\nmetadata: {name: x, labels: {machineconfiguration.openshift.io/role: worker}}\nspec:\n  config: {ignition: {version: 2.1.0}}\n").unwrap();
    let (code, _, err) = run(d.path(), &["render", "--machine-configs", "bad.yaml"]);
    assert_eq!(code, 1);
    assert!(
        err.contains("bad.yaml") && err.contains("MachineConfig x") && err.contains("2.2.0"),
        "{err}"
    );
    std::fs::write(d.path().join("garbage.yaml"), ": : :\n\t-").unwrap();
    let (code, _, err) = run(d.path(), &["render", "--machine-configs", "garbage.yaml"]);
    assert_eq!(code, 1, "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    // In a directory, the error names the file, not the directory.
    std::fs::create_dir(d.path().join("mcs")).unwrap();
    std::fs::write(d.path().join("mcs/00-good.yaml"), "kind: MachineConfig\nmetadata: {name: a, labels: {machineconfiguration.openshift.io/role: worker}}\n").unwrap();
    std::fs::copy(d.path().join("bad.yaml"), d.path().join("mcs/10-bad.yaml")).unwrap();
    let (code, _, err) = run(d.path(), &["render", "--machine-configs", "mcs"]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains(
            "mcs/10-bad.yaml:4: MachineConfig x: spec.config.ignition.version: Ignition spec 2.1.0"
        ),
        "{err}"
    );
    // The wrong file: a pointer config, a kubeconfig.
    let (code, _, err) = run(
        d.path(),
        &["render", "--machine-configs", "mcs-assets/worker.ign"],
    );
    assert_eq!(code, 1);
    assert!(
        err.contains("worker.ign is an Ignition config, not a MachineConfig"),
        "{err}"
    );
    std::fs::write(
        d.path().join("kc.yaml"),
        "apiVersion: v1\nkind: Config\nclusters: []\n",
    )
    .unwrap();
    let (code, _, err) = run(d.path(), &["render", "--machine-configs", "kc.yaml"]);
    assert_eq!(code, 1);
    assert!(
        err.contains("kc.yaml: no MachineConfig objects found (it holds Config)"),
        "{err}"
    );
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
            "--no-bootstrap-kubeconfig",
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

#[test]
fn the_scan_walks_every_string_of_the_pre_approval_set() {
    let d = demo(&[]);
    let sa = "eyJhbGciOiJSUzI1NiIsImtpZCI6IjEyMyJ9.eyJzdWIiOiJzeXN0ZW06c2VydmljZWFjY291bnQ6ZGVmYXVsdDpkZWZhdWx0In0.c2lnbmF0dXJl";
    let file = |path: &str, text: &str| serde_json::json!({"path": path, "contents": {"source": format!("data:,{}", percent(text))}});
    let cases: Vec<(serde_json::Value, &str, &str)> = vec![
        (
            serde_json::json!({"storage": {"files": [file("/etc/kc", "kind: Config\nusers:\n- name: u\n  user:\n    token: abcdef\n")]}}),
            "/etc/kc",
            "kubeconfig with credentials",
        ),
        (
            serde_json::json!({"storage": {"files": [file("/etc/sa-token", sa)]}}),
            "/etc/sa-token",
            "JWT",
        ),
        (
            serde_json::json!({"storage": {"files": [{"path": "/etc/extra", "contents": {"source": "https://admin:hunter2@mirror.example.com/extra"}}]}}),
            "/etc/extra",
            "credentials in a URL",
        ),
        (
            serde_json::json!({"ignition": {"config": {"merge": [{"source": "https://mirror.example.com/extra.ign", "httpHeaders": [{"name": "Authorization", "value": "Basic dXNlcjpwYXNz"}]}]}}}),
            "ignition.config.merge[0].httpHeaders",
            "HTTP header credential",
        ),
        (
            serde_json::json!({"storage": {"luks": [{"name": "data", "device": "/dev/sdb", "keyFile": {"source": "data:;base64,c2VjcmV0"}}]}}),
            "luks device data",
            "LUKS key file",
        ),
        (
            // Valid base64 that does not gunzip (Ignition itself refuses a data URL it cannot
            // decode, so that never reaches the scan).
            serde_json::json!({"storage": {"files": [{"path": "/etc/blob", "contents": {"source": "data:;base64,bm90IGd6aXA=", "compression": "gzip"}}]}}),
            "/etc/blob",
            "content that cannot be decoded",
        ),
    ];
    for (mut config, at, kind) in cases {
        config["ignition"]["version"] = "3.2.0".into();
        let mc = serde_json::json!({"kind": "MachineConfig", "metadata": {"name": "05-worker-pre", "labels": {"machineconfiguration.openshift.io/role": "worker"}},
            "spec": {"neededBeforeNodeApproved": true, "config": config}});
        std::fs::write(d.path().join("pre.json"), mc.to_string()).unwrap();
        let before = snapshot(d.path());
        let (code, _, err) = run(d.path(), &["render", "--machine-configs", "pre.json"]);
        assert_eq!(code, 1, "{kind} not caught: {err}");
        assert!(
            err.contains(&format!("MachineConfig 05-worker-pre puts a {kind}")) && err.contains(at),
            "{kind} at {at}: {err}"
        );
        assert_eq!(err.lines().count(), 1, "{err}");
        for secret in ["abcdef", "hunter2", "dXNlcjpwYXNz", "c2VjcmV0", "eyJhbGci"] {
            assert!(!err.contains(secret), "the error printed a secret: {err}");
        }
        assert_eq!(snapshot(d.path()), before, "nothing written");
    }
}

/// Rendering part of a pool's MachineConfigs never silently replaces what it serves: the
/// MachineConfigs, files and units that would disappear are named and the render refused;
/// `--dry-run` prints the difference and writes nothing; `--replace` renders anyway.
#[test]
fn a_partial_render_is_refused_unless_replace() {
    let d = demo(&["--for", "coreos"]);
    std::fs::write(d.path().join("all.yaml"), MCS).unwrap();
    ok(
        d.path(),
        &[
            "render",
            "--machine-configs",
            "all.yaml",
            "--spec-version",
            "3.3.0",
            "-q",
        ],
    );
    // Only 00-worker: 01-worker-kubelet and 99-worker-ssh would go, with their file.
    let only: String = MCS.split("\n---\n").next().unwrap().to_string();
    std::fs::write(d.path().join("part.yaml"), &only).unwrap();
    let before = snapshot(d.path());
    let (code, out, err) = run(
        d.path(),
        &[
            "render",
            "--machine-configs",
            "part.yaml",
            "--spec-version",
            "3.3.0",
        ],
    );
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        err.contains("pool worker: MachineConfigs 01-worker-kubelet, 99-worker-ssh; files /var/lib/kubelet/config.json")
            && err.contains("--replace")
            && err.contains("--dry-run"),
        "{err}"
    );
    assert_eq!(snapshot(d.path()), before, "nothing written");
    let (code, out, err) = run(
        d.path(),
        &[
            "render",
            "--machine-configs",
            "part.yaml",
            "--spec-version",
            "3.3.0",
            "--dry-run",
        ],
    );
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("pool worker:\n  - MachineConfig 01-worker-kubelet\n  - MachineConfig 99-worker-ssh\n  - file /var/lib/kubelet/config.json\n  ~ file /etc/motd\n")
            && out.ends_with("dry run: nothing written\n"),
        "{out}"
    );
    assert_eq!(snapshot(d.path()), before, "a dry run writes nothing");
    let (code, _, err) = run(
        d.path(),
        &[
            "render",
            "--machine-configs",
            "part.yaml",
            "--spec-version",
            "3.3.0",
            "--replace",
            "-q",
        ],
    );
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("--replace: no longer served: pool worker"),
        "{err}"
    );
    let served = read(&d.path().join("mcs-assets/rendered/worker.ign"));
    assert!(!paths(&served).contains(&"/var/lib/kubelet/config.json".to_string()));
    // The same input again changes nothing and needs no flag.
    ok(
        d.path(),
        &[
            "render",
            "--machine-configs",
            "part.yaml",
            "--spec-version",
            "3.3.0",
            "-q",
        ],
    );
}

#[test]
fn render_names_a_pool_nothing_targets_and_every_machine_config_no_pool_selects() {
    let d = demo(&[]);
    let mc = |name: &str, role: Option<&str>| {
        let labels = role.map_or(String::new(), |r| {
            format!("  labels:\n    machineconfiguration.openshift.io/role: {r}\n")
        });
        format!(
            "apiVersion: machineconfiguration.openshift.io/v1\nkind: MachineConfig\nmetadata:\n  name: {name}\n{labels}spec:\n  config:\n    ignition:\n      version: 3.2.0\n"
        )
    };
    std::fs::write(
        d.path().join("mcs.yaml"),
        [
            mc("50-worker-a", Some("worker")),
            mc("60-typo", Some("wroker")),
            mc("98-loose", None),
            mc("99-loose", None).replace(
                "version: 3.2.0",
                "version: 3.2.0\n    storage: {file: [oops]}",
            ),
            mc("40-arbiter-a", Some("arbiter")),
        ]
        .join("---\n"),
    )
    .unwrap();
    let (code, out, err) = run(
        d.path(),
        &["render", "--machine-configs", "mcs.yaml", "--for", "coreos"],
    );
    assert_eq!(code, 0, "{out}{err}");
    // Selected by no pool: in the summary, with where each is and why.
    assert!(
        out.ends_with("selected by no pool, left out as the MCO leaves them: 98-loose (mcs.yaml:26: no machineconfiguration.openshift.io/role label), 99-loose (mcs.yaml:35: no machineconfiguration.openshift.io/role label)\n"),
        "{out}"
    );
    assert!(
        err.contains("warning: pool wroker is new (did you mean worker?): the role of 60-typo, and no pointer config, token or mcsctl.json pool targets it; nothing boots from rendered/wroker.ign until `mcsctl pointer --pool wroker --new-pool`"),
        "{err}"
    );
    assert!(!err.contains("pool worker is new"), "{err}");
    // The MCO's built-in arbiter pool is no typo; it takes its own MachineConfigs only.
    assert!(!err.contains("pool arbiter is new"), "{err}");
    let sources: serde_json::Value = serde_json::from_slice(
        &std::fs::read(d.path().join("mcs-assets/rendered/sources/arbiter.json")).unwrap(),
    )
    .unwrap();
    assert!(
        sources.to_string().contains("40-arbiter-a")
            && !sources.to_string().contains("50-worker-a"),
        "the arbiter pool selects role arbiter alone: {sources}"
    );
    // Rendered once, the pool is known: said no more. Not parsed, an unselected
    // MachineConfig's typo is nobody's business, even with --strict; -v and JSON list it.
    let (code, out, err) = run(
        d.path(),
        &[
            "render",
            "--machine-configs",
            "mcs.yaml",
            "--for",
            "coreos",
            "--strict",
            "-v",
            "--format",
            "json",
        ],
    );
    assert_eq!(code, 0, "{err}");
    assert!(!err.contains("is new"), "{err}");
    assert!(
        err.contains("- 3 MachineConfig(s) selected by a pool, 2 by none\n")
            && err.contains("selected by no pool, not parsed: 99-loose (mcs.yaml:35: no machineconfiguration.openshift.io/role label)\n"),
        "{err}"
    );
    let report: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        report["unselected"][1],
        serde_json::json!({"name": "99-loose", "file": "mcs.yaml", "line": 35, "why": "noRoleLabel"})
    );
    assert_eq!(report["dropped"], serde_json::json!([]));
}

#[test]
fn a_role_that_cannot_be_a_pool_is_selected_by_none_and_only_unselected_is_an_error() {
    let d = demo(&["--for", "coreos"]);
    let mc = |name: &str, role: &str| {
        format!(
            "apiVersion: machineconfiguration.openshift.io/v1\nkind: MachineConfig\nmetadata:\n  name: {name}\n  labels: {{machineconfiguration.openshift.io/role: {role}}}\nspec:\n  config:\n    ignition: {{version: 9.9.9}}\n"
        )
    };
    std::fs::write(d.path().join("mcs.yaml"), mc("50-worker-a", "Worker")).unwrap();
    let before = snapshot(d.path());
    let (code, _, err) = run(d.path(), &["render", "--machine-configs", "mcs.yaml"]);
    assert_eq!(code, 1);
    assert_eq!(
        err,
        "error: no MachineConfig has a role label (machineconfiguration.openshift.io/role) naming a pool, and none is a rendered-<pool>-<hash> config; selected by no pool: 50-worker-a (mcs.yaml:4: role \"Worker\" is not a pool name, a DNS label; did you mean worker?)\n"
    );
    assert_eq!(snapshot(d.path()), before);
}

#[test]
fn machine_configs_as_json_documents_in_a_yaml_stream_render() {
    let d = demo(&[]);
    let mc = |name: &str, path: &str| {
        serde_json::json!({"apiVersion": "machineconfiguration.openshift.io/v1", "kind": "MachineConfig",
            "metadata": {"name": name, "labels": {"machineconfiguration.openshift.io/role": "worker"}},
            "spec": {"config": {"ignition": {"version": "3.2.0"},
                "storage": {"files": [{"path": path, "contents": {"source": "data:,x"}}]}}}})
        .to_string()
    };
    // As some tools write `oc get -o json` output: JSON documents joined by `---`.
    std::fs::write(
        d.path().join("mcs.json"),
        format!("{}\n---\n{}\n", mc("50-a", "/etc/a"), mc("60-b", "/etc/b")),
    )
    .unwrap();
    let (code, out, err) = run(
        d.path(),
        &["render", "--machine-configs", "mcs.json", "--for", "coreos"],
    );
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("merge order:  50-a, 60-b"), "{out}");
}

/// `--dry-run` warns exactly as the real run does: the same stderr, word for word, for a
/// typo'd role; and where the real run refuses, the dry run shows the difference and says the
/// render would be refused, with the refusal's words.
#[test]
fn a_dry_run_warns_as_the_real_run_does() {
    let d = demo(&[]);
    let mc = crate::support::machine_config_file;
    std::fs::write(
        d.path().join("typo.yaml"),
        mc("50-wroker-motd", "wroker", "/etc/motd"),
    )
    .unwrap();
    let args = [
        "render",
        "--machine-configs",
        "typo.yaml",
        "--no-bootstrap-kubeconfig",
    ];
    let (code, _, dry_err) = run(d.path(), &[&args[..], &["--dry-run"]].concat());
    assert_eq!(code, 0, "{dry_err}");
    assert!(
        dry_err.contains("warning: pool wroker is new (did you mean worker?)"),
        "{dry_err}"
    );
    assert!(!d.path().join("mcs-assets/rendered/wroker.ign").exists());
    let (code, _, real_err) = run(d.path(), &args);
    assert_eq!(code, 0, "{real_err}");
    assert_eq!(dry_err, real_err);

    // A render that would take a file away: the real run refuses, the dry run says so.
    std::fs::write(
        d.path().join("w.yaml"),
        mc("50-worker-motd", "worker", "/etc/motd"),
    )
    .unwrap();
    ok(
        d.path(),
        &[
            "render",
            "--machine-configs",
            "w.yaml",
            "--no-bootstrap-kubeconfig",
            "-q",
        ],
    );
    std::fs::write(
        d.path().join("w2.yaml"),
        mc("50-worker-motd", "worker", "/etc/motd2"),
    )
    .unwrap();
    let args = [
        "render",
        "--machine-configs",
        "w2.yaml",
        "--no-bootstrap-kubeconfig",
    ];
    let (code, out, err) = run(d.path(), &[&args[..], &["--dry-run"]].concat());
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("  - file /etc/motd\n  + file /etc/motd2\n"),
        "{out}"
    );
    let (real_code, _, real) = run(d.path(), &args);
    assert_eq!(real_code, 1);
    let refusal = real.trim_end().strip_prefix("error: ").unwrap();
    assert!(
        err.contains(&format!("warning: the render would be refused: {refusal}")),
        "{err}"
    );
}
