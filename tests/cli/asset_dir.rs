//! A directory is an asset directory or it is refused (issue 44, point 4): every command but
//! `init` refuses a `--dir` without `mcsctl.json`, naming it and `init`, before it reads or
//! locks anything, so not even a lock file is left behind. `ca create` and `ca import` may
//! start one step by step in a missing or empty directory, and mark it with `mcsctl.json`.

use std::collections::BTreeSet;

use crate::custody::{cases, command_of};
use crate::support::{ok, run, snapshot};

/// Each command's first custody case, its placeholders naming files that do not exist: the
/// refusal comes before any input is read.
fn one_run_per_command() -> Vec<(String, Vec<String>)> {
    let mut seen = BTreeSet::new();
    let mut out = Vec::new();
    for c in cases() {
        let cmd = command_of(c.args);
        if !seen.insert(cmd.clone()) {
            continue;
        }
        let args = c
            .args
            .split(' ')
            .map(|a| {
                if a.contains('{') {
                    "no-such-input".to_string()
                } else {
                    a.to_string()
                }
            })
            .collect();
        out.push((cmd, args));
    }
    out
}

#[test]
fn every_command_but_init_refuses_a_directory_that_is_not_an_asset_directory() {
    let t = tempfile::tempdir().unwrap();
    // A directory with someone else's files, and an empty one.
    let other = t.path().join("other");
    std::fs::create_dir(&other).unwrap();
    std::fs::write(other.join("notes.txt"), "not mcsctl's").unwrap();
    std::fs::create_dir(t.path().join("empty")).unwrap();
    let no_dir = ["completions", "man", "version"];
    let mut refused = 0;
    for (cmd, args) in one_run_per_command() {
        for dir in ["other", "empty"] {
            if cmd == "init" || no_dir.contains(&cmd.as_str()) {
                continue;
            }
            // ca create and ca import start a directory step by step in an empty one.
            if dir == "empty"
                && cmd.starts_with("ca ")
                && (cmd == "ca create" || cmd == "ca import")
            {
                continue;
            }
            let before = snapshot(t.path());
            let mut argv = vec!["--dir", dir];
            argv.extend(args.iter().map(String::as_str));
            let (code, out, err) = run(t.path(), &argv);
            assert_eq!(code, 1, "mcsctl {argv:?}:\n{out}{err}");
            let fix = if dir == "empty" {
                "`mcsctl init --dir empty` makes one there"
            } else {
                "pass --dir with an asset directory (one `mcsctl init` made)"
            };
            assert_eq!(
                err,
                format!("error: {dir} is not an asset directory: it has no mcsctl.json; {fix}\n"),
                "mcsctl {argv:?}"
            );
            assert!(out.is_empty(), "mcsctl {argv:?}: {out}");
            assert_eq!(before, snapshot(t.path()), "mcsctl {argv:?} left something");
            refused += 1;
        }
    }
    // Every command of the table, each in both directories but those that start one.
    let mut all = 0;
    crate::support::command_leaves(&mut |_| all += 1);
    assert_eq!(refused, (all - 4) * 2 - 2, "every command was tried");
    // A directory named in MCSCTL_DIR is named too; the default one, when there, as well.
    let (code, _, err) = crate::support::mcsctl(t.path())
        .env("MCSCTL_DIR", "other")
        .args(["token", "list"])
        .output()
        .map(|o| {
            (
                o.status.code(),
                (),
                String::from_utf8_lossy(&o.stderr).into_owned(),
            )
        })
        .unwrap();
    assert_eq!(code, Some(1));
    assert!(
        err.starts_with("error: other is not an asset directory"),
        "{err}"
    );
    std::fs::create_dir(t.path().join("mcs-assets")).unwrap();
    std::fs::write(t.path().join("mcs-assets/x"), "x").unwrap();
    let (code, _, err) = run(t.path(), &["inspect"]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.starts_with("error: mcs-assets is not an asset directory"),
        "{err}"
    );
}

#[test]
fn commands_that_need_no_directory_work_without_the_default_one() {
    let d = crate::support::demo(&[]);
    let elsewhere = tempfile::tempdir().unwrap();
    let cert = d.path().join("mcs-assets/tls/mcs.crt");
    // No ./mcs-assets here: inspect of a file, and csr review, read what they are given.
    let (code, out, err) = run(elsewhere.path(), &["inspect", cert.to_str().unwrap()]);
    assert_eq!(code, 0, "{out}{err}");
    std::fs::write(
        elsewhere.path().join("csrs.json"),
        r#"{"kind":"List","items":[]}"#,
    )
    .unwrap();
    ok(elsewhere.path(), &["csr", "review", "--csrs", "csrs.json"]);
    assert!(!elsewhere.path().join("mcs-assets").exists());
}

#[test]
fn a_directory_started_step_by_step_is_marked_as_mcsctls() {
    let t = tempfile::tempdir().unwrap();
    ok(t.path(), &["--dir", "lab", "ca", "create", "-q"]);
    let marker = std::fs::read_to_string(t.path().join("lab/mcsctl.json")).unwrap();
    assert_eq!(marker, "{\n  \"formatVersion\": 1\n}\n");
    // The later steps take it as an asset directory without a cluster.
    ok(
        t.path(),
        &["--dir", "lab", "cert", "issue", "--san", "192.0.2.1", "-q"],
    );
    let out = ok(t.path(), &["--dir", "lab", "token", "list"]);
    assert!(out.is_empty(), "{out}");
    // A directory that is not empty is not started: its files may be anyone's.
    std::fs::create_dir(t.path().join("full")).unwrap();
    std::fs::write(t.path().join("full/x"), "x").unwrap();
    let (code, _, err) = run(t.path(), &["--dir", "full", "ca", "create"]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("full is not an asset directory"), "{err}");
}
