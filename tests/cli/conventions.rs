//! The conventions of oc, kubectl and kubeadm that scripts and people bring with them: `-o
//! json|yaml`, a `version` command, `-q` that leaves only data and errors.

use serde_json::Value;

use crate::support::{demo, ok, run};

#[test]
fn version_says_what_it_is_and_what_it_speaks() {
    let d = tempfile::tempdir().unwrap();
    let out = ok(d.path(), &["version"]);
    let git = std::process::Command::new("git")
        .args(["rev-parse", "--short=12", "HEAD"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string());
    let commit = git.unwrap_or_else(|| "unknown".into());
    assert_eq!(
        out,
        format!(
            "mcsctl {}\ncommit: {commit}\ntarget: {}\nTLS: 1.3, 1.2\nIgnition specs: 2.2.0, 3.0.0, 3.1.0, 3.2.0, 3.3.0, 3.4.0, 3.5.0 (stored at 3.5.0)\n",
            env!("CARGO_PKG_VERSION"),
            std::env::consts::ARCH.to_string() + "-unknown-linux-gnu"
        )
    );
    let v: Value = serde_json::from_str(&ok(d.path(), &["version", "-o", "json"])).unwrap();
    assert_eq!(v["version"], env!("CARGO_PKG_VERSION"));
    assert_eq!(v["commit"], commit.as_str());
    assert_eq!(v["tlsVersions"], serde_json::json!(["1.3", "1.2"]));
    assert_eq!(v["ignitionSpecs"].as_array().unwrap().len(), 7);
    assert_eq!(v["internalSpec"], "3.5.0");
}

#[test]
fn dash_o_yaml_is_the_json_document_in_yaml_before_or_after_the_command() {
    let d = demo(&[]);
    let json: Value =
        serde_json::from_str(&ok(d.path(), &["token", "list", "--format", "json"])).unwrap();
    for args in [
        &["token", "list", "-o", "yaml"][..],
        &["-o", "yaml", "token", "list"],
        &["token", "list", "--format", "yaml"],
    ] {
        let text = ok(d.path(), args);
        assert!(!text.trim_start().starts_with('{'), "{args:?}: {text}");
        let yaml: Value = serde_yaml_ng::from_str(&text).unwrap();
        assert_eq!(yaml, json, "{args:?}");
    }
    let (code, _, err) = run(d.path(), &["token", "list", "-o", "xml"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("[possible values: text, json, yaml]"), "{err}");
}

#[test]
fn quiet_leaves_only_data_and_errors() {
    let d = demo(&[]);
    // A command whose report is the files it wrote: nothing at all.
    let (code, out, err) = run(
        d.path(),
        &["machine", "add", "w0", "--pool", "worker", "-q"],
    );
    assert_eq!((code, out.as_str(), err.as_str()), (0, "", ""));
    // A command whose output is data: the data alone.
    let (code, out, err) = run(d.path(), &["token", "create", "-q"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.lines().count(), 1, "{out}");
    assert_eq!(err, "");
    // Errors still say what is wrong.
    let (code, _, err) = run(
        d.path(),
        &["machine", "add", "w0", "--pool", "worker", "-q"],
    );
    assert_eq!(code, 1);
    assert!(err.contains("machine w0 is registered"), "{err}");
}

#[test]
fn dry_run_writes_nothing_and_says_what_it_would() {
    let d = demo(&["--san", "127.0.0.1"]);
    ok(
        d.path(),
        &["machine", "add", "w0", "--pool", "worker", "-q"],
    );
    let commands: [&[&str]; 12] = [
        &[
            "init",
            "--cluster-name",
            "demo",
            "--base-domain",
            "example.com",
            "--force",
            "--yes",
        ],
        &["token", "rotate"],
        &["token", "create"],
        &["token", "prune"],
        &["ca", "rotate"],
        &["ca", "create", "--force", "--yes"],
        &["cert", "renew"],
        &["cert", "issue", "--force", "--san", "192.0.2.10"],
        &["machine", "add", "w1", "--pool", "worker"],
        &["machine", "remove", "w0"],
        &[
            "pointer", "--pool", "worker", "--force", "--output", "copy.ign",
        ],
        &["manifests"],
    ];
    let before = crate::support::snapshot(d.path());
    for c in commands {
        let args = [c, &["--dry-run"]].concat();
        let (code, out, err) = run(d.path(), &args);
        assert_eq!(code, 0, "{c:?}: {err}");
        assert_eq!(crate::support::snapshot(d.path()), before, "{c:?} wrote");
        assert!(
            out.contains("Dry run, nothing was written. It would write:")
                || err.contains("dry run"),
            "{c:?} does not say it is a dry run:\n{out}{err}"
        );
    }
    // Every structured report of a dry run says so, first, in JSON and in YAML.
    for c in commands {
        for format in ["json", "yaml"] {
            let args = [c, &["--dry-run", "-o", format]].concat();
            let (code, out, err) = run(d.path(), &args);
            assert_eq!(code, 0, "{c:?} -o {format}: {err}");
            let v: Value = if format == "json" {
                serde_json::from_str(&out).unwrap_or_else(|e| panic!("{c:?}: {e}: {out}"))
            } else {
                serde_yaml_ng::from_str(&out).unwrap_or_else(|e| panic!("{c:?}: {e}: {out}"))
            };
            assert_eq!(v["dryRun"], true, "{c:?} -o {format}: {out}");
            if format == "json" {
                assert!(out.starts_with("{\n  \"dryRun\": true,"), "{c:?}: {out}");
            }
        }
    }
    let (_, out, _) = run(
        d.path(),
        &["machine", "add", "w2", "--pool", "worker", "-o", "json"],
    );
    let v: Value = serde_json::from_str(&out).unwrap();
    assert!(
        v.get("dryRun").is_none(),
        "a real change is no dry run: {out}"
    );
    // Result lines say what would be done; no secret of a token never saved is printed.
    let (_, out, err) = run(d.path(), &["token", "create", "--dry-run"]);
    assert!(out.is_empty(), "a secret that was never saved: {out}");
    assert!(err.contains("Would create token"), "{err}");
    let (_, out, _) = run(d.path(), &["token", "create", "--dry-run", "-o", "json"]);
    let v: Value = serde_json::from_str(&out).unwrap();
    assert!(v["dryRun"] == true && v.get("bearer").is_none(), "{out}");
    let (_, out, _) = run(d.path(), &["token", "rotate", "--dry-run"]);
    assert!(out.contains("worker: would make current token"), "{out}");
    assert!(out.contains("would rewrite: worker.ign"), "{out}");
    let (_, _, err) = run(d.path(), &["ca", "rotate", "--dry-run"]);
    assert!(err.contains("Would be: CA rotation, phase 1 of 3"), "{err}");
    let (_, _, err) = run(d.path(), &["manifests", "--dry-run"]);
    assert!(!err.contains("apply with"), "{err}");
    let (_, out, _) = run(
        d.path(),
        &["pointer", "--pool", "worker", "--force", "--dry-run"],
    );
    assert!(out.starts_with("Would write "), "{out}");
    let new_pool = [
        "pointer",
        "--pool",
        "infra",
        "--new-pool",
        "--output",
        "-",
        "--dry-run",
    ];
    let (code, out, err) = run(d.path(), &new_pool);
    assert_eq!((code, out.as_str()), (0, ""), "{err}");
    assert!(err.contains("its token, made here, is not saved"), "{err}");
    // An --output the real command could not write fails the dry run the same way.
    std::fs::write(d.path().join("afile"), "x").unwrap();
    for dry in [true, false] {
        let mut args = vec!["pointer", "--pool", "worker", "--output", "afile/w.ign"];
        args.extend(dry.then_some("--dry-run"));
        let (code, _, err) = run(d.path(), &args);
        assert_eq!(code, 1, "{err}");
        assert!(err.contains("afile is not a directory"), "{err}");
    }
    // A dry run in a directory that does not exist leaves none behind.
    let e = tempfile::tempdir().unwrap();
    let (code, _, err) = run(
        e.path(),
        &[
            "--dir",
            "fresh",
            "init",
            "--cluster-name",
            "demo",
            "--base-domain",
            "example.com",
            "--dry-run",
        ],
    );
    assert_eq!(code, 0, "{err}");
    assert!(!e.path().join("fresh").exists());
}

#[test]
fn render_without_a_source_names_all_three_and_serve_without_a_pool_says_so() {
    let d = demo(&["--san", "127.0.0.1"]);
    let (code, _, err) = run(d.path(), &["render"]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("render needs a source: --machine-configs PATH")
            && err.contains("--from-cluster PATH")
            && err.contains("--from-mcs URL --pool POOL"),
        "{err}"
    );
    let s = crate::support::Serve::start(d.path(), &[]);
    assert!(
        s.wait_stderr(
            "\"event\":\"no-pool\",\"message\":\"no rendered/<pool>.ign: every config request gets 404 until `mcsctl render` writes one",
            std::time::Duration::from_secs(10)
        ),
        "{}",
        s.stderr()
    );
}

#[test]
fn serve_writes_readable_lines_when_asked_and_json_lines_to_a_pipe() {
    let d = demo(&["--san", "127.0.0.1"]);
    // Pipes are not terminals: auto gives JSON lines, as log collectors read them.
    let s = crate::support::Serve::start(d.path(), &[]);
    assert!(s.wait_stderr("{\"event\":\"no-pool\"", std::time::Duration::from_secs(10)));
    drop(s);
    let s = crate::support::Serve::start(d.path(), &["--log-format", "text"]);
    assert!(
        s.wait_stderr(
            "Z no-pool: no rendered/<pool>.ign: every config request gets 404",
            std::time::Duration::from_secs(10)
        ),
        "{}",
        s.stderr()
    );
    assert!(!s.stderr().contains("{\"event\""), "{}", s.stderr());
}

/// What the shell gets when it asks mcsctl for the candidates of `words`' last one (as the
/// scripts of `COMPLETE=<shell> mcsctl` ask).
fn candidates(d: &std::path::Path, shell: &str, words: &[&str]) -> Vec<String> {
    let mut c = crate::support::mcsctl(d);
    c.env("COMPLETE", shell)
        .env("_CLAP_COMPLETE_INDEX", (words.len() - 1).to_string())
        .arg("--")
        .args(words);
    let out = c.output().unwrap();
    assert!(out.status.success(), "{out:?}");
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with("--"))
        .map(|l| l.to_string())
        .collect()
}

#[test]
fn completions_offer_the_directorys_pools_tokens_and_machines() {
    let d = demo(&[]);
    ok(
        d.path(),
        &["machine", "add", "w0", "--pool", "worker", "-q"],
    );
    let secret = ok(
        d.path(),
        &["token", "create", "--description", "rack 3", "-q"],
    );
    let id = secret.trim().split('.').next().unwrap().to_string();
    let v: Value = serde_json::from_str(&ok(d.path(), &["token", "list", "-o", "json"])).unwrap();
    let ids: Vec<String> = v["tokens"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["id"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(
        candidates(d.path(), "bash", &["mcsctl", "token", "revoke", ""]),
        ids
    );
    assert_eq!(
        candidates(d.path(), "bash", &["mcsctl", "machine", "remove", ""]),
        ["w0"]
    );
    // The pools `--pool` accepts: the MCO's built-in ones and the directory's.
    assert_eq!(
        candidates(d.path(), "bash", &["mcsctl", "pointer", "--pool", ""]),
        ["arbiter", "master", "worker"]
    );
    // The directory the line names, from elsewhere, before or after the command.
    let elsewhere = tempfile::tempdir().unwrap();
    let assets = d.path().join("mcs-assets");
    let dir = assets.to_str().unwrap();
    assert_eq!(
        candidates(
            elsewhere.path(),
            "bash",
            &["mcsctl", "--dir", dir, "machine", "remove", ""]
        ),
        ["w0"]
    );
    assert_eq!(
        candidates(
            elsewhere.path(),
            "bash",
            &["mcsctl", "machine", "remove", &format!("--dir={dir}"), ""]
        ),
        ["w0"]
    );
    assert!(
        candidates(
            elsewhere.path(),
            "bash",
            &["mcsctl", "machine", "remove", ""]
        )
        .is_empty()
    );
    // fish and zsh get each candidate with what it is; never a secret.
    let fish = candidates(d.path(), "fish", &["mcsctl", "token", "revoke", ""]);
    assert!(fish.contains(&format!("{id}\track 3")), "{fish:?}");
    assert!(fish.iter().any(|l| l.ends_with("\tmachine w0")), "{fish:?}");
    let zsh = candidates(d.path(), "zsh", &["mcsctl", "machine", "remove", ""]);
    assert_eq!(zsh, ["w0:pool worker"]);
    let all = ["bash", "fish", "zsh"]
        .iter()
        .flat_map(|s| candidates(d.path(), s, &["mcsctl", "token", "revoke", ""]))
        .collect::<Vec<_>>()
        .join("\n");
    assert!(!all.contains(secret.trim()), "a secret in the candidates");
    // The registration script a shell sources calls mcsctl back.
    let out = crate::support::mcsctl(d.path())
        .env("COMPLETE", "bash")
        .output()
        .unwrap();
    let script = String::from_utf8(out.stdout).unwrap();
    assert!(
        script.contains("complete -o nospace -o bashdefault"),
        "{script}"
    );
}

#[test]
fn on_a_terminal_serve_writes_readable_lines_by_itself() {
    use std::io::Read;
    use std::sync::{Arc, Mutex};
    let d = demo(&["--san", "127.0.0.1"]);
    let Some(script) = crate::support::tool("script", "SCRIPT_BIN", "script") else {
        return;
    };
    let bin = assert_cmd::cargo::cargo_bin("mcsctl");
    // A real pseudo-terminal (util-linux's `script`) for serve's stdout and stderr.
    let mut child = std::process::Command::new(script)
        .args([
            "-qfec",
            &format!("exec {} serve --listen 127.0.0.1:0", bin.display()),
            "/dev/null",
        ])
        .current_dir(d.path())
        .env_remove("MCSCTL_DIR")
        .env("NO_COLOR", "1")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let seen = Arc::new(Mutex::new(String::new()));
    let mut out = child.stdout.take().unwrap();
    let sink = seen.clone();
    std::thread::spawn(move || {
        let mut buf = [0u8; 4096];
        while let Ok(n) = out.read(&mut buf) {
            if n == 0 {
                break;
            }
            sink.lock()
                .unwrap()
                .push_str(&String::from_utf8_lossy(&buf[..n]));
        }
    });
    // Stops serve itself (script's child), by its PID.
    let script_pid = child.id();
    let stop = move || {
        let children =
            std::fs::read_to_string(format!("/proc/{script_pid}/task/{script_pid}/children"))
                .unwrap_or_default();
        for pid in children.split_whitespace() {
            let _ = std::process::Command::new("kill")
                .args(["-TERM", pid])
                .status();
        }
    };
    let start = std::time::Instant::now();
    while !seen.lock().unwrap().contains(" no-pool: ") {
        if start.elapsed() > std::time::Duration::from_secs(20) {
            stop();
            let _ = child.wait();
            panic!("no readable no-pool line:\n{}", seen.lock().unwrap());
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    stop();
    let status = child.wait().unwrap();
    let text = seen.lock().unwrap().clone();
    assert!(status.success(), "{status}: {text}");
    assert!(!text.contains("{\"event\""), "JSON on a terminal:\n{text}");
}

#[test]
fn completions_offer_only_valid_names_and_never_wait_on_a_fifo() {
    let d = demo(&[]);
    let a = d.path().join("mcs-assets");
    // A hand-edited mcsctl.json with pools a shell would expand: refused, so not offered.
    let mut cfg: Value =
        serde_json::from_slice(&std::fs::read(a.join("mcsctl.json")).unwrap()).unwrap();
    cfg["pools"].as_array_mut().unwrap().push("*`id`".into());
    std::fs::write(a.join("mcsctl.json"), cfg.to_string()).unwrap();
    assert_eq!(
        candidates(d.path(), "bash", &["mcsctl", "pointer", "--pool", ""]),
        ["arbiter", "master", "worker"]
    );
    let (code, _, err) = crate::support::run(d.path(), &["token", "list"]);
    assert_eq!(code, 1);
    assert!(err.contains("pool \"*`id`\" is not a DNS label"), "{err}");
    // A FIFO where the token store belongs: completion and commands return at once (the
    // harness kills a command after 120 s, so a hang fails here).
    std::fs::remove_file(a.join("auth/tokens.json")).unwrap();
    assert!(
        std::process::Command::new("mkfifo")
            .arg(a.join("auth/tokens.json"))
            .status()
            .unwrap()
            .success()
    );
    assert!(candidates(d.path(), "bash", &["mcsctl", "token", "revoke", ""]).is_empty());
    let (code, _, err) = crate::support::run(d.path(), &["inspect"]);
    assert_eq!(code, 4);
    assert!(err.is_empty(), "{err}");
}
