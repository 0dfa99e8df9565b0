//! On a terminal, `init` asks for missing values (dialoguer) and validates them. The terminal is
//! a real pseudo-terminal from util-linux's `script`.

use std::io::Write;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::support::tool;

#[test]
fn init_prompts_on_a_terminal_and_validates() {
    let Some(script) = tool("script", "SCRIPT_BIN", "script") else {
        return;
    };
    let d = tempfile::tempdir().unwrap();
    let bin = assert_cmd::cargo::cargo_bin("mcsctl");
    let mut child = Command::new(script)
        .args(["-qfec", &format!("{} init", bin.display()), "/dev/null"])
        .current_dir(d.path())
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    // A bad cluster name first: the prompt must refuse it and ask again.
    stdin.write_all(b"Bad_Name\rdemo\rexample.com\r").unwrap();
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > Duration::from_secs(30) {
            let _ = child.kill();
            panic!("init did not finish on the terminal");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(
        text.contains("Cluster name") && text.contains("Base domain"),
        "{text}"
    );
    assert!(text.contains("\"Bad_Name\" is not a DNS label"), "{text}");
    let cfg = std::fs::read_to_string(d.path().join("mcs-assets/mcsctl.json")).unwrap();
    assert!(
        cfg.contains("\"clusterName\": \"demo\"")
            && cfg.contains("\"baseDomain\": \"example.com\""),
        "{cfg}"
    );
}

#[test]
fn rsa_generation_shows_a_spinner_only_on_a_terminal() {
    let Some(script) = tool("script", "SCRIPT_BIN", "script") else {
        return;
    };
    let d = tempfile::tempdir().unwrap();
    let bin = assert_cmd::cargo::cargo_bin("mcsctl");
    let cmd = format!(
        "{} init --cluster-name demo --base-domain example.com --key-algorithm rsa-4096",
        bin.display()
    );
    let mut child = Command::new(script)
        .args(["-qfec", &cmd, "/dev/null"])
        .current_dir(d.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let stdin = child.stdin.take().unwrap();
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "init did not finish"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("generating rsa-4096 CA key"), "{text}");
    // Without a terminal: no spinner, nothing but the summary on stderr.
    let e = tempfile::tempdir().unwrap();
    let (code, _, err) = crate::support::run(
        e.path(),
        &[
            "init",
            "--cluster-name",
            "demo",
            "--base-domain",
            "example.com",
            "--key-algorithm",
            "rsa-2048",
        ],
    );
    assert_eq!(code, 0);
    assert!(!err.contains("generating"), "{err}");
}
