//! Every reader is bounded: a few hundred bytes of YAML aliases, a deeply nested file or a huge
//! input gets a one-line refusal naming the file, at once, from every command that reads
//! Kubernetes objects; `--max-input-size` (or MCSCTL_MAX_INPUT_SIZE) raises the size limit.

use std::path::Path;

use crate::support::{demo, mcsctl, run};

/// Nine levels of nine aliases: 572 bytes that expand to 387 million strings.
fn alias_bomb() -> String {
    let mut t = String::from(
        "kind: MachineConfig\nmetadata: {name: bomb}\na: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n",
    );
    let names = ["a", "b", "c", "d", "e", "f", "g", "h", "i"];
    for w in names.windows(2) {
        let refs = vec![format!("*{}", w[0]); 9].join(",");
        t.push_str(&format!("{}: &{} [{refs}]\n", w[1], w[1]));
    }
    t
}

/// Each command that reads Kubernetes objects, given `file`.
fn readers(file: &str) -> Vec<Vec<String>> {
    [
        vec!["render", "--machine-configs", file],
        vec!["render", "--from-cluster", file],
        vec!["inspect", file],
        vec!["ca", "import", "--bundle", file],
        vec!["csr", "review", "--csrs", file],
        vec!["csr", "review", "--csrs", "empty.json", "--inventory", file],
    ]
    .into_iter()
    .map(|a| a.into_iter().map(String::from).collect())
    .collect()
}

/// The command refuses, saying `want`: an error (exit 1, one line), or for `inspect` a failed
/// check (exit 4).
fn refused(d: &Path, args: &[String], want: &str) {
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let (code, out, err) = run(d, &args);
    if args[0] == "inspect" {
        assert_eq!(code, 4, "{args:?}: {out}{err}");
        assert!(out.contains(want), "{args:?}: {out}");
        return;
    }
    assert_eq!(code, 1, "{args:?}: {out}{err}");
    assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    assert!(err.contains(want), "{args:?}: {err}");
}

#[test]
fn alias_bombs_and_deep_nesting_are_refused_by_every_reader() {
    let d = demo(&[]);
    let p = d.path();
    std::fs::write(p.join("empty.json"), r#"{"kind": "List", "items": []}"#).unwrap();
    let bomb = alias_bomb();
    assert!(bomb.len() < 700, "{}", bomb.len());
    std::fs::write(p.join("bomb.yaml"), &bomb).unwrap();
    for args in readers("bomb.yaml") {
        refused(p, &args, "bomb.yaml: line ");
        refused(p, &args, "excessive aliasing");
    }
    let deep = format!(
        "kind: MachineConfig\nmetadata: {{name: deep}}\nspec:\n{}",
        (1..400)
            .map(|i| format!("{}a:\n", " ".repeat(i)))
            .collect::<String>()
    );
    std::fs::write(p.join("deep.yaml"), deep).unwrap();
    for args in readers("deep.yaml") {
        refused(p, &args, "nested deeper than 200 levels");
    }
}

#[test]
fn inputs_past_the_size_limit_are_refused_and_the_flag_raises_it() {
    let d = demo(&[]);
    let p = d.path();
    // A MachineConfig of 33 MiB (a 33 MiB file in it): past the 32 MiB default.
    let big = format!(
        "kind: MachineConfig\nmetadata: {{name: big, labels: {{machineconfiguration.openshift.io/role: worker}}}}\nspec:\n  config:\n    ignition: {{version: 3.2.0}}\n    storage:\n      files:\n      - path: /big\n        contents: {{source: \"data:,{}\"}}\n",
        "a".repeat(33 << 20)
    );
    std::fs::write(p.join("big.yaml"), &big).unwrap();
    refused(
        p,
        &["render", "--machine-configs", "big.yaml"].map(String::from),
        "big.yaml holds more than 32 MiB, the most mcsctl reads from one input; raise it with --max-input-size",
    );
    // The same on stdin.
    let out = mcsctl(p)
        .args(["render", "--machine-configs", "-"])
        .write_stdin(big.clone())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("stdin holds more than 32 MiB"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // A small limit, by flag or environment; raised, the same file renders.
    let mc = "kind: MachineConfig\nmetadata: {name: 00-worker, labels: {machineconfiguration.openshift.io/role: worker}}\nspec:\n  config:\n    ignition: {version: 3.2.0}\n    storage:\n      files:\n      - {path: /etc/motd, contents: {source: \"data:,hello\"}}\n";
    std::fs::write(p.join("mc.yaml"), mc).unwrap();
    refused(
        p,
        &[
            "--max-input-size",
            "100",
            "render",
            "--machine-configs",
            "mc.yaml",
            "--for",
            "coreos",
        ]
        .map(String::from),
        "mc.yaml holds more than 100 bytes",
    );
    let out = mcsctl(p)
        .args(["render", "--machine-configs", "mc.yaml", "--for", "coreos"])
        .env("MCSCTL_MAX_INPUT_SIZE", "100")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let out = mcsctl(p)
        .args([
            "render",
            "--machine-configs",
            "mc.yaml",
            "--for",
            "coreos",
            // The limit bounds every file read, the asset directory's own too (its pointer
            // configs are about 1.5 KiB).
            "--max-input-size",
            "4KiB",
        ])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // A directory is one input: its files count together.
    std::fs::create_dir(p.join("mcs")).unwrap();
    for i in 0..3 {
        std::fs::write(
            p.join(format!("mcs/{i}.yaml")),
            mc.replace("00-worker", &format!("0{i}-worker")),
        )
        .unwrap();
    }
    refused(
        p,
        &[
            "--max-input-size",
            "500",
            "render",
            "--machine-configs",
            "mcs",
        ]
        .map(String::from),
        "mcs holds more than 500 bytes in its files",
    );
}
