//! Golden output of every command, text and JSON, through the one redaction table; and the
//! `--help` of every subcommand. Refresh with `UPDATE_GOLDEN=1 cargo nextest run`.

use clap::CommandFactory;

use crate::support::{Redactor, golden, mcsctl, run};

/// Runs one step of the scenario and records stdout (and stderr when asked) under `name`.
fn step(cwd: &std::path::Path, name: &str, args: &[&str], want: i32, with_stderr: bool) {
    let (code, out, err) = run(cwd, args);
    assert_eq!(code, want, "{args:?}:\n{out}\n{err}");
    let r = Redactor::new(cwd, Some(&cwd.join("mcs-assets")));
    let mut text = r.apply(&format!("$ mcsctl {}\n{}", args.join(" "), out));
    if with_stderr {
        text.push_str(&format!("--- stderr ---\n{}", r.apply(&err)));
    }
    golden(&format!("{name}.txt"), &text);
}

#[test]
fn scenario_text_and_json() {
    let d = tempfile::tempdir().unwrap();
    let p = d.path();
    step(
        p,
        "init",
        &[
            "init",
            "--cluster-name",
            "demo",
            "--base-domain",
            "example.com",
            "--san",
            "10.0.0.5",
        ],
        0,
        true,
    );
    step(p, "inspect", &["inspect"], 0, false);
    step(
        p,
        "inspect-json",
        &["inspect", "--format", "json"],
        0,
        false,
    );
    step(
        p,
        "inspect-files",
        &[
            "inspect",
            "mcs-assets/tls/mcs-ca-bundle.crt",
            "mcs-assets/worker.ign",
        ],
        0,
        false,
    );
    step(
        p,
        "pointer",
        &["pointer", "--pool", "infra", "--new-pool"],
        0,
        false,
    );
    step(
        p,
        "pointer-stdout",
        &[
            "pointer",
            "--pool",
            "infra",
            "--spec-version",
            "3.0.0",
            "--token-transport",
            "query",
            "--output",
            "-",
        ],
        0,
        false,
    );
    step(
        p,
        "pointer-json",
        &[
            "pointer",
            "--pool",
            "edge",
            "--new-pool",
            "--token-transport",
            "none",
            "--format",
            "json",
        ],
        0,
        false,
    );
    step(
        p,
        "token-rotate",
        &["token", "rotate", "--grace", "1h"],
        0,
        false,
    );
    step(
        p,
        "token-rotate-json",
        &["token", "rotate", "--grace", "2h", "--format", "json"],
        0,
        false,
    );
    step(
        p,
        "token-create",
        &["token", "create", "--ttl", "7d", "--description", "ci lab"],
        0,
        true,
    );
    step(
        p,
        "token-create-json",
        &["token", "create", "--format", "json"],
        0,
        false,
    );
    step(p, "token-list", &["token", "list"], 0, false);
    step(
        p,
        "token-list-json",
        &["token", "list", "--format", "json"],
        0,
        false,
    );
    let v: serde_json::Value =
        serde_json::from_slice(&std::fs::read(p.join("mcs-assets/auth/tokens.json")).unwrap())
            .unwrap();
    let extra = v["tokens"][3]["id"].as_str().unwrap().to_string();
    step(p, "token-revoke", &["token", "revoke", &extra], 0, false);
    step(
        p,
        "ca-import",
        &[
            "--dir",
            "imported",
            "ca",
            "import",
            "--cert",
            "mcs-assets/tls/mcs-ca.crt",
            "--key",
            "mcs-assets/tls/mcs-ca.key",
        ],
        0,
        true,
    );
    step(
        p,
        "cert-issue",
        &[
            "--dir",
            "imported",
            "cert",
            "issue",
            "--san",
            "mcs.lab.example.com",
            "--san",
            "192.0.2.7",
        ],
        0,
        false,
    );
    step(p, "cert-renew", &["cert", "renew"], 0, false);
    step(
        p,
        "cert-issue-json",
        &[
            "cert",
            "issue",
            "--force",
            "--validity",
            "10d",
            "--format",
            "json",
        ],
        0,
        false,
    );
    step(
        p,
        "inspect-expiring",
        &["inspect", "--warn-within", "30d"],
        3,
        false,
    );
    step(
        p,
        "ca-create",
        &[
            "--dir",
            "fresh",
            "ca",
            "create",
            "--key-algorithm",
            "ed25519",
        ],
        0,
        true,
    );
    step(
        p,
        "init-json",
        &[
            "--dir",
            "second",
            "init",
            "--cluster-name",
            "lab",
            "--base-domain",
            "corp.example",
            "--no-token",
            "--format",
            "json",
        ],
        0,
        false,
    );
}

/// Every subcommand path, e.g. ["token", "rotate"].
fn paths(cmd: &clap::Command, prefix: Vec<String>, out: &mut Vec<Vec<String>>) {
    out.push(prefix.clone());
    for s in cmd.get_subcommands() {
        let mut p = prefix.clone();
        p.push(s.get_name().to_string());
        paths(s, p, out);
    }
}

#[test]
fn help_of_every_subcommand() {
    let mut all = Vec::new();
    paths(&mcsctl::cmd::Cli::command(), Vec::new(), &mut all);
    let d = tempfile::tempdir().unwrap();
    for p in all {
        let mut args = p.clone();
        args.push("--help".into());
        let out = mcsctl(d.path()).args(&args).output().unwrap();
        assert!(out.status.success(), "{args:?}");
        let name = if p.is_empty() {
            "mcsctl".to_string()
        } else {
            format!("mcsctl-{}", p.join("-"))
        };
        golden(
            &format!("help/{name}.txt"),
            &String::from_utf8(out.stdout).unwrap(),
        );
    }
}

/// The errors users meet most, word for word (just's style): each command's common mistakes,
/// with the exit code, in one golden file. A change to any of these words is a reviewed diff.
#[test]
fn common_errors_word_for_word() {
    let d = tempfile::tempdir().unwrap();
    let p = d.path();
    let mut text = String::new();
    let mut case = |args: &[&str]| {
        let (code, out, err) = run(p, args);
        assert!(code != 0, "{args:?} succeeded:\n{out}");
        let r = Redactor::new(p, Some(&p.join("mcs-assets")));
        // A check that fails says so on stdout (its report); an error, on stderr.
        let said = if err.is_empty() { out } else { err };
        text.push_str(&r.apply(&format!(
            "$ mcsctl {}\nexit {code}\n{said}\n",
            args.join(" ")
        )));
    };
    // Before any asset directory.
    case(&["token", "list"]);
    case(&["--dir", "nowhere", "pointer", "--pool", "worker"]);
    case(&[
        "init",
        "--cluster-name",
        "Bad_Name",
        "--base-domain",
        "example.com",
    ]);
    case(&["init", "--cluster-name", "demo"]);
    crate::support::ok(
        p,
        &[
            "init",
            "--cluster-name",
            "demo",
            "--base-domain",
            "example.com",
            "-q",
        ],
    );
    // With one.
    case(&[
        "init",
        "--cluster-name",
        "demo",
        "--base-domain",
        "example.com",
    ]);
    case(&["ca", "create"]);
    case(&["cert", "issue", "--san", "10.0.0.5"]);
    case(&["pointer", "--pool", "wroker"]);
    std::fs::write(p.join("taken.ign"), "{}").unwrap();
    case(&["pointer", "--pool", "worker", "--output", "taken.ign"]);
    case(&["token", "create", "--ttl", "5x"]);
    case(&["token", "revoke", "no-such-id"]);
    case(&["machine", "add", "Bad_Name", "--pool", "worker"]);
    crate::support::ok(p, &["machine", "add", "w0", "--pool", "worker", "-q"]);
    case(&["machine", "add", "w0", "--pool", "worker"]);
    case(&["machine", "remove", "w9"]);
    case(&["render", "--machine-configs", "missing.yaml"]);
    std::fs::write(
        p.join("two.yaml"),
        "apiVersion: machineconfiguration.openshift.io/v1\nkind: MachineConfig\nmetadata:\n  name: 50-a\n  labels: {machineconfiguration.openshift.io/role: worker}\napiVersion: machineconfiguration.openshift.io/v1\n",
    )
    .unwrap();
    case(&["render", "--machine-configs", "two.yaml"]);
    // The YAML mistakes people make: a tab, a line indented one space too far, an entry that
    // lines up with nothing.
    let head = "apiVersion: machineconfiguration.openshift.io/v1\nkind: MachineConfig\nmetadata:\n";
    std::fs::write(p.join("tab.yaml"), format!("{head}\tname: 50-a\n")).unwrap();
    case(&["render", "--machine-configs", "tab.yaml"]);
    std::fs::write(
        p.join("deeper.yaml"),
        format!("{head}  name: 50-a\n   labels: {{}}\n"),
    )
    .unwrap();
    case(&["render", "--machine-configs", "deeper.yaml"]);
    std::fs::write(
        p.join("astray.yaml"),
        format!("{head}  name: 50-a\nspec:\n  config:\n    ignition:\n      version: 3.2.0\n  storage:\n      files:\n    - path: /etc/a\n"),
    )
    .unwrap();
    case(&["render", "--machine-configs", "astray.yaml"]);
    case(&["manifests", "--serve-deployment"]);
    case(&["serve", "--listen", "not-an-address"]);
    case(&["inspect", "missing.crt"]);
    case(&["doctor", "missing.ign"]);
    case(&["ledger", "import"]);
    case(&["csr", "review"]);
    case(&["token", "list", "--format", "xml"]);
    golden("errors.txt", &text);
}
