//! On a terminal, `init` asks for missing values (dialoguer) and validates them. The terminal is
//! a real pseudo-terminal from util-linux's `script`.

use std::io::Write;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::support::tool;

/// Runs `mcsctl ARGS` in `cwd` on a pseudo-terminal, typing `keys`; returns (success, what the
/// terminal showed). None when `script` is missing and the run skips such parts.
fn on_terminal(cwd: &std::path::Path, args: &str, keys: &[u8]) -> Option<(bool, String)> {
    on_terminal_with(cwd, args, keys, true)
}

/// [`on_terminal`], with colour when `no_color` is false.
fn on_terminal_with(
    cwd: &std::path::Path,
    args: &str,
    keys: &[u8],
    no_color: bool,
) -> Option<(bool, String)> {
    let script = tool("script", "SCRIPT_BIN", "script")?;
    let bin = assert_cmd::cargo::cargo_bin("mcsctl");
    let mut cmd = Command::new(script);
    if no_color {
        cmd.env("NO_COLOR", "1");
    } else {
        cmd.env_remove("NO_COLOR");
    }
    let mut child = cmd
        .args(["-qfec", &format!("{} {args}", bin.display()), "/dev/null"])
        .current_dir(cwd)
        .env_remove("MCSCTL_DIR")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    // One answer at a time: a prompt reads only once it is shown.
    for line in keys.split_inclusive(|b| *b == b'\r') {
        std::thread::sleep(Duration::from_millis(300));
        stdin.write_all(line).unwrap();
        stdin.flush().unwrap();
    }
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > Duration::from_secs(30) {
            let _ = child.kill();
            panic!("mcsctl {args} did not finish on the terminal");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    Some((
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    ))
}

#[test]
fn init_interviews_on_a_terminal_validates_and_confirms() {
    let d = tempfile::tempdir().unwrap();
    // A bad cluster name first: the prompt refuses it and asks again. Then the MCS address (a
    // load balancer), one extra SAN, the default pools and key algorithm, and yes.
    let Some((ok, text)) = on_terminal(
        d.path(),
        "init",
        b"Bad_Name\rdemo\rexample.com\rlb.example.com:8443\r192.0.2.10\r\r\ry\r",
    ) else {
        return;
    };
    assert!(ok, "{text}");
    for prompt in [
        "Cluster name",
        "Base domain",
        "Where machines reach the MCS (a load balancer; empty for api-int.demo.example.com:22623)",
        "Extra names or addresses on the serving certificate",
        "Pools with a pointer config (comma-separated)",
        "Key algorithm (rsa-2048 is what openshift-install uses)",
        "Write these assets?",
    ] {
        assert!(text.contains(prompt), "no prompt {prompt:?}:\n{text}");
    }
    assert!(
        text.contains("error: not a DNS label: use 1 to 63 lower-case letters"),
        "{text}"
    );
    assert!(
        text.contains("MCS address:     https://lb.example.com:8443 (each pool at https://lb.example.com:8443/config/<pool>)")
            && text.contains("serving names:   api-int.demo.example.com, lb.example.com, 192.0.2.10")
            && text.contains("pools:           worker, master")
            && text.contains("key algorithm:   ecdsa-p256"),
        "the summary before writing:\n{text}"
    );
    let cfg = std::fs::read_to_string(d.path().join("mcs-assets/mcsctl.json")).unwrap();
    assert!(
        cfg.contains("\"clusterName\": \"demo\"")
            && cfg.contains("\"baseDomain\": \"example.com\"")
            && cfg.contains("\"url\": \"https://lb.example.com:8443\""),
        "{cfg}"
    );
    let (code, out, _) = crate::support::run(d.path(), &["inspect", "--format", "json"]);
    assert_eq!(code, 0, "{out}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let serving = v["certificates"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == "tls/mcs.crt")
        .unwrap();
    assert_eq!(
        serving["sans"],
        serde_json::json!([
            "DNS:api-int.demo.example.com",
            "DNS:lb.example.com",
            "IP:192.0.2.10"
        ])
    );

    // Saying no writes nothing.
    let e = tempfile::tempdir().unwrap();
    let (ok, text) = on_terminal(e.path(), "init", b"demo\rexample.com\r\r\r\r\rn\r").unwrap();
    assert!(!ok, "{text}");
    assert!(text.contains("cancelled: nothing was written"), "{text}");
    assert!(!e.path().join("mcs-assets").exists());
}

#[test]
fn init_force_asks_before_replacing_a_ca_key_on_a_terminal() {
    let d = crate::support::demo(&[]);
    let before = crate::support::snapshot(d.path());
    let args = "init --cluster-name demo --base-domain example.com --force";
    let Some((ok, text)) = on_terminal(d.path(), args, b"n\r") else {
        return;
    };
    assert!(!ok, "{text}");
    assert!(
        text.contains("mcs-assets/tls/mcs-ca.key holds a CA key (OU=openshift, CN=root-ca (key id")
            && text.contains("Replace it with a new CA?")
            && text.contains("kept mcs-assets as it was (`mcsctl ca rotate` replaces a CA without breaking machines)"),
        "{text}"
    );
    assert_eq!(before, crate::support::snapshot(d.path()));
    // --yes, or no terminal: --force is the consent.
    let (ok, text) = on_terminal(d.path(), &format!("{args} --yes -q"), b"").unwrap();
    assert!(ok, "{text}");
    assert!(!text.contains("Replace it with a new CA?"), "{text}");
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

#[test]
fn colour_never_spans_a_line_end() {
    let d = crate::support::demo(&[]);
    crate::support::ok(d.path(), &["cert", "renew", "--validity", "10d", "-q"]);
    let mut seen = 0;
    for args in ["inspect", "token rotate --ttl 1s", "doctor --timeout 1s"] {
        let Some((_, text)) = on_terminal_with(d.path(), args, b"", false) else {
            return;
        };
        // Every SGR sequence that sets a colour is reset before the line ends, so a pager or
        // a log viewer never paints the next line.
        for line in text.split('\n') {
            let mut open = false;
            let mut rest = line;
            while let Some(i) = rest.find("\x1b[") {
                let after = &rest[i + 2..];
                let end = after.find('m').unwrap_or(after.len());
                let code = &after[..end];
                open = !(code.is_empty() || code == "0");
                seen += 1;
                rest = &after[end.min(after.len())..];
            }
            assert!(!open, "{args}: colour left open at the end of {line:?}");
        }
    }
    assert!(seen > 0, "no colour at all on a terminal");
}
