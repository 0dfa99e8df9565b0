//! The README's walkthrough, run exactly as written: its `sh` block under "Walkthrough" goes to
//! bash (`-euo pipefail`, so any failing step fails the test) with `mcsctl` and the real Ignition
//! client on PATH. The README cannot rot: a change that breaks a step breaks this test.

use std::os::unix::process::CommandExt;
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
    let Some(lab) = run_walkthrough(|script| script) else {
        return;
    };
    let stdout = lab.stdout;
    // The machine's disk got the file; doctor's request and the machine's were served.
    assert_eq!(
        std::fs::read_to_string(lab.dir.path().join("lab/node/etc/motd")).unwrap(),
        "hello from mcsctl\n"
    );
    assert!(stdout.ends_with("hello from mcsctl\n3\n"), "{stdout}");
    assert!(
        stdout.contains(
            "every step passed: a machine booting with this pointer config gets its config"
        ),
        "{stdout}"
    );
}

/// The walkthrough with a MachineConfig that adds a user with an SSH key, as the README says
/// it works: run as root, nothing prepared in the lab's root.
#[test]
fn the_walkthrough_also_boots_machine_configs_with_users() {
    if !is_root() {
        if std::env::var_os("MCSCTL_TEST_SKIP_MISSING").is_some_and(|v| !v.is_empty() && v != "0") {
            eprintln!(
                "NOTICE: not root; MCSCTL_TEST_SKIP_MISSING is set: skipping (useradd --root needs root)"
            );
            return;
        }
        panic!(
            "this test runs Ignition's useradd, which needs root (run as root, or set MCSCTL_TEST_SKIP_MISSING=1 to skip it)"
        );
    }
    const USERS: &str = "cat > 99-worker-ssh.yaml <<'EOF'\napiVersion: machineconfiguration.openshift.io/v1\nkind: MachineConfig\nmetadata:\n  name: 99-worker-ssh\n  labels:\n    machineconfiguration.openshift.io/role: worker\nspec:\n  config:\n    ignition:\n      version: 3.2.0\n    passwd:\n      users:\n      - name: core\n        sshAuthorizedKeys:\n        - ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGx0aW5nIGtleQ lab@example\nEOF\n";
    let Some(lab) = run_walkthrough(|script| {
        let render = "mcsctl render --machine-configs 50-worker-motd.yaml";
        assert!(
            script.contains(render),
            "the walkthrough renders {render:?}"
        );
        script.replace(
            render,
            &format!("{USERS}mkdir mcs && mv 50-worker-motd.yaml 99-worker-ssh.yaml mcs/\nmcsctl render --machine-configs mcs"),
        )
    }) else {
        return;
    };
    let node = lab.dir.path().join("lab/node");
    assert!(
        std::fs::read_to_string(node.join("etc/passwd"))
            .unwrap()
            .lines()
            .any(|l| l.starts_with("core:")),
        "{}",
        lab.stdout
    );
    assert_eq!(
        std::fs::read_to_string(node.join("home/core/.ssh/authorized_keys.d/ignition")).unwrap(),
        "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGx0aW5nIGtleQ lab@example\n"
    );
}

fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
}

/// A walkthrough that ran: its temporary directory (the lab is `lab/` in it) and its stdout.
struct Lab {
    dir: tempfile::TempDir,
    stdout: String,
}

/// Runs the README's walkthrough block, changed by `edit`, with the MCS on a free port; fails
/// the test when it fails. None when Ignition is missing and the run skips such parts.
fn run_walkthrough(edit: impl FnOnce(String) -> String) -> Option<Lab> {
    let ignition = ignition()?;
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let script = edit(block_under(&readme, "## Walkthrough"));
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
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    // Its own process group: on a timeout, the script and the server it started (and only
    // they) are stopped by the group's id.
    let mut child = Command::new("bash")
        .args(["-euo", "pipefail", "walkthrough.sh"])
        .current_dir(d.path())
        .env("PATH", path)
        .env("PORT", port.to_string())
        .env_remove("MCSCTL_DIR")
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0)
        .spawn()
        .unwrap();
    let start = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if start.elapsed() > Duration::from_secs(180) {
            let _ = Command::new("kill")
                .args(["-KILL", "--", &format!("-{}", child.id())])
                .status();
            panic!("the walkthrough did not finish in 180 s");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let out = child.wait_with_output().unwrap();
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    );
    let lab = d.path().join("lab");
    let logs = [
        "ignition-fetch.log",
        "ignition-files.log",
        "access.log",
        "serve.log",
    ]
    .iter()
    .map(|f| std::fs::read_to_string(lab.join(f)).unwrap_or_default())
    .collect::<Vec<_>>()
    .join("\n");
    assert!(
        status.success(),
        "the walkthrough failed ({status}):\n--- stdout\n{stdout}\n--- stderr\n{stderr}\n--- logs\n{logs}"
    );
    Some(Lab { dir: d, stdout })
}
