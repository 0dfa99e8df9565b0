//! The README's walkthrough, run exactly as written: its `sh` block under "Walkthrough" goes to
//! bash (`-euo pipefail`, so any failing step fails the test) with `mcsctl` and the real Ignition
//! client on PATH. The README cannot rot: a change that breaks a step breaks this test.

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::support::ignition;

/// The first ```sh block after the heading that starts with `heading`.
fn block_under(readme: &str, heading: &str) -> String {
    let start = readme
        .find(heading)
        .unwrap_or_else(|| panic!("README has no {heading:?}"));
    let rest = &readme[start..];
    let open = rest.find("```sh\n").expect("a ```sh block") + "```sh\n".len();
    let close = rest[open..].find("\n```\n").expect("the block's end");
    rest[open..open + close + 1].to_string()
}

#[test]
fn the_readme_walkthrough_runs_as_written() {
    let Some(ignition) = ignition() else {
        return;
    };
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let script = block_under(&readme, "## Walkthrough");
    let d = tempfile::tempdir().unwrap();
    let bin = d.path().join("path");
    std::fs::create_dir(&bin).unwrap();
    std::os::unix::fs::symlink(assert_cmd::cargo::cargo_bin("mcsctl"), bin.join("mcsctl")).unwrap();
    std::os::unix::fs::symlink(&ignition, bin.join("ignition")).unwrap();
    std::fs::write(d.path().join("walkthrough.sh"), &script).unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut child = Command::new("bash")
        .args(["-euo", "pipefail", "walkthrough.sh"])
        .current_dir(d.path())
        .env("PATH", path)
        .env_remove("MCSCTL_DIR")
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if start.elapsed() > Duration::from_secs(180) {
            let _ = child.kill();
            let _ = Command::new("pkill")
                .args(["-f", "serve --listen 127.0.0.1:22623"])
                .status();
            panic!("the walkthrough did not finish in 180 s");
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    let out = child.wait_with_output().unwrap();
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    let lab = d.path().join("lab");
    let logs = ["ignition-fetch.log", "ignition-files.log", "access.log"]
        .iter()
        .map(|f| std::fs::read_to_string(lab.join(f)).unwrap_or_default())
        .collect::<Vec<_>>()
        .join("\n");
    assert!(
        status.success(),
        "the walkthrough failed ({status}):\n--- stdout\n{stdout}\n--- stderr\n{stderr}\n--- logs\n{logs}"
    );
    // The machine's disk got the file; doctor's request and the machine's were served.
    assert_eq!(
        std::fs::read_to_string(lab.join("node/etc/motd")).unwrap(),
        "hello from mcsctl\n"
    );
    assert!(stdout.ends_with("hello from mcsctl\n2\n"), "{stdout}");
    assert!(
        stdout.contains(
            "every step passed: a machine booting with this pointer config gets its config"
        ),
        "{stdout}"
    );
}
