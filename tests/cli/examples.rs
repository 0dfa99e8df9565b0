//! Every command's EXAMPLES (`--help`, man page) run as written, in order, in one lab: the
//! files `src/cli/examples.rs` names, and a `serve` the lab's pointer configs point at.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use mcsctl::cli::examples::EXAMPLES;

use crate::csr::{kubelet_signer, openssl_csr};
use crate::support::{Serve, ok};

const MOTD: &str = "apiVersion: machineconfiguration.openshift.io/v1
kind: MachineConfig
metadata:
  name: 50-worker-motd
  labels:
    machineconfiguration.openshift.io/role: worker
spec:
  config:
    ignition:
      version: 3.2.0
    storage:
      files:
      - path: /etc/motd
        mode: 0644
        contents:
          source: data:,hello%20from%20mcsctl%0A
";

/// The lab's files besides the asset directory.
fn fixtures(d: &Path) -> Option<()> {
    std::fs::write(d.join("50-worker-motd.yaml"), MOTD).unwrap();
    let ca = base64::Engine::encode(
        &base64::engine::general_purpose::STANDARD,
        std::fs::read(d.join("mcs-assets/tls/mcs-ca.crt")).unwrap(),
    );
    std::fs::write(
        d.join("kubeconfig-kubelet"),
        format!("apiVersion: v1\nkind: Config\nclusters:\n- name: local\n  cluster:\n    server: https://api-int.demo.example.com:6443\n    certificate-authority-data: {ca}\nusers:\n- name: kubelet\n  user:\n    token: eyJhbGciOiJSUzI1NiJ9.example.bootstrap\ncontexts:\n- name: kubelet\n  context: {{cluster: local, user: kubelet}}\ncurrent-context: kubelet\n"),
    )
    .unwrap();
    std::fs::write(
        d.join("hosts.csv"),
        "w1,worker,10.0.0.21\nw2,worker,10.0.0.22\n",
    )
    .unwrap();
    std::fs::write(d.join("csrs.json"), r#"{"kind":"List","items":[]}"#).unwrap();
    std::fs::write(d.join("nodes.json"), r#"{"kind":"List","items":[]}"#).unwrap();
    // The kubelet signer (what `oc extract secret/csr-signer` writes) and a node's CSR.
    let (crt, key) = kubelet_signer(d);
    std::fs::copy(d.join(crt), d.join("tls.crt")).unwrap();
    std::fs::copy(d.join(key), d.join("tls.key")).unwrap();
    openssl_csr(d, "node", "system:node:w0", None)?;
    Some(())
}

#[test]
fn every_command_has_examples() {
    let mut missing = Vec::new();
    crate::support::command_leaves(&mut |path| {
        if mcsctl::cli::examples::of(path).is_none() {
            missing.push(path.to_string());
        }
    });
    assert!(missing.is_empty(), "no EXAMPLES: {missing:?}");
    // And the help and the man page show them.
    let d = tempfile::tempdir().unwrap();
    let help = ok(d.path(), &["token", "rotate", "--help"]);
    assert!(
        help.contains("Examples:\n  # A new token per pool")
            && help.contains("\n  mcsctl token rotate --grace 1h\n"),
        "{help}"
    );
    ok(d.path(), &["man", "--output", "man1"]);
    let page = std::fs::read_to_string(d.path().join("man1/mcsctl-token-rotate.1")).unwrap();
    assert!(
        page.contains(".SH EXAMPLES\n.nf\n# A new token per pool")
            && page.contains("mcsctl token rotate \\-\\-grace 1h\n.fi\n"),
        "{page}"
    );
}

#[test]
fn every_example_runs_as_written() {
    let d = tempfile::tempdir().unwrap();
    let lab = d.path();
    crate::support::init_demo(lab, &["--san", "127.0.0.1"]);
    if fixtures(lab).is_none() {
        return; // openssl missing, and the run says to skip such parts
    }
    // The lab's pointer configs point at a serve of the lab.
    let s = Serve::start(lab, &[]);
    let cfg_path = lab.join("mcs-assets/mcsctl.json");
    let mut cfg: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&cfg_path).unwrap()).unwrap();
    cfg["url"] = format!("https://127.0.0.1:{}", s.addr.port()).into();
    std::fs::write(&cfg_path, serde_json::to_vec_pretty(&cfg).unwrap()).unwrap();
    for pool in ["worker", "master"] {
        ok(lab, &["pointer", "--pool", pool, "--force", "-q"]);
    }
    let bin = assert_cmd::cargo::cargo_bin("mcsctl");
    let path = format!(
        "{}:{}",
        bin.parent().unwrap().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    for (command, script) in EXAMPLES {
        // What the examples before changed (tokens, certificates) is what serve answers with.
        s.reload();
        if *command == "serve" {
            run_server(lab, &path, script);
            continue;
        }
        let mut runnable = String::from("set -eu\n");
        for line in script.lines() {
            // A line that needs what the lab has not got is parsed, not run.
            let needs = ["# needs an etcd cluster", "# needs machines booting"];
            match needs.iter().find_map(|n| line.strip_suffix(n)) {
                Some(cmd) => parses(cmd),
                None => {
                    runnable.push_str(line);
                    runnable.push('\n');
                }
            }
        }
        let out = sh(lab, &path, &runnable);
        assert!(
            out.status.success(),
            "the examples of `mcsctl {command}` failed ({}):\n{script}\n--- stdout\n{}--- stderr\n{}",
            out.status,
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

/// Runs `script` with sh in the lab, `mcsctl` first on PATH, no stdin.
fn sh(lab: &Path, path: &str, script: &str) -> std::process::Output {
    Command::new("sh")
        .args(["-c", script])
        .current_dir(lab)
        .env("PATH", path)
        .env_remove("MCSCTL_DIR")
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

/// A line that needs a service the lab does not have: the parser accepts it.
fn parses(line: &str) {
    let words: Vec<&str> = line.split_whitespace().collect();
    if let Err(e) = <mcsctl::cmd::Cli as clap::Parser>::try_parse_from(&words) {
        panic!("{line}: {e}");
    }
}

/// A server's example: it starts, says `ready`, the example's other command lines run while
/// it serves, and it stops cleanly on SIGTERM.
fn run_server(lab: &Path, path: &str, script: &str) {
    let line = script
        .lines()
        .find(|l| l.starts_with("mcsctl "))
        .expect("a serve example");
    let err = lab.join("example-serve.err");
    let mut child = Command::new("sh")
        .args([
            "-c",
            &format!("exec {line} 2> example-serve.err > example-serve.out"),
        ])
        .current_dir(lab)
        .env("PATH", path)
        .env_remove("MCSCTL_DIR")
        .spawn()
        .unwrap();
    let start = Instant::now();
    loop {
        let text = std::fs::read_to_string(&err).unwrap_or_default();
        if text.lines().any(|l| l == "ready") {
            break;
        }
        if start.elapsed() > Duration::from_secs(20) || child.try_wait().unwrap().is_some() {
            let _ = child.kill();
            panic!("`{line}` never said ready:\n{text}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    for other in script.lines().filter(|l| l.starts_with("mcsctl ")).skip(1) {
        let out = sh(lab, path, other);
        assert!(
            out.status.success(),
            "`{other}` beside `{line}` failed:\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let pid = child.id().to_string();
    assert!(
        Command::new("kill")
            .args(["-TERM", &pid])
            .status()
            .unwrap()
            .success()
    );
    let status = child.wait().unwrap();
    assert!(status.success(), "`{line}` stopped with {status}");
}
