//! Bad input: each gives a non-zero exit (never a panic), one line naming the file and the
//! problem, and leaves the disk as it was.

use std::path::Path;

use crate::support::{demo, run, snapshot};

/// Runs `args` in `cwd`, expecting failure with `code`, one error line containing `needle`,
/// and no change below `cwd`.
fn fails(cwd: &Path, args: &[&str], code: i32, needle: &str) {
    let before = snapshot(cwd);
    let (got, out, err) = run(cwd, args);
    assert_ne!(got, 101, "mcsctl panicked on {args:?}:\n{err}");
    assert_eq!(got, code, "mcsctl {args:?}: stdout {out:?} stderr {err:?}");
    // A usage error clap found adds its pointer to --help, as every clap program does.
    let lines: Vec<&str> = err
        .lines()
        .filter(|l| !l.is_empty() && *l != "For more information, try '--help'.")
        .collect();
    assert_eq!(lines.len(), 1, "expected one error line, got:\n{err}");
    assert!(lines[0].starts_with("error: "), "{err}");
    assert!(
        err.contains(needle),
        "error for {args:?} lacks {needle:?}:\n{err}"
    );
    assert_eq!(before, snapshot(cwd), "{args:?} changed files on disk");
}

/// Runs `inspect` with a target it cannot read: the report still comes out, with a failed
/// row naming the file and a fix (exit 4), and nothing on disk changes.
fn inspect_fails(cwd: &Path, args: &[&str], needle: &str) {
    let before = snapshot(cwd);
    let (got, out, err) = run(cwd, args);
    assert_eq!(got, 4, "mcsctl {args:?}: stdout {out:?} stderr {err:?}");
    assert!(err.is_empty(), "{err}");
    let row = out
        .lines()
        .position(|l| l.starts_with("fail") && l.contains(needle))
        .unwrap_or_else(|| panic!("no failed row with {needle:?}:\n{out}"));
    let fix = out.lines().nth(row + 1).unwrap_or_default();
    assert!(fix.trim_start().starts_with("fix: "), "{out}");
    assert_eq!(before, snapshot(cwd), "{args:?} changed files on disk");
}

#[test]
fn truncated_pem() {
    let d = demo(&[]);
    let a = d.path().join("mcs-assets");
    let pem = std::fs::read_to_string(a.join("tls/mcs.crt")).unwrap();
    std::fs::write(d.path().join("cut.crt"), &pem[..pem.len() / 2]).unwrap();
    inspect_fails(
        d.path(),
        &["inspect", "cut.crt"],
        "cut.crt: truncated or malformed PEM",
    );
    let key = std::fs::read_to_string(a.join("tls/mcs-ca.key")).unwrap();
    std::fs::write(d.path().join("cut.key"), &key[..key.len() - 30]).unwrap();
    fails(
        d.path(),
        &[
            "ca",
            "import",
            "--cert",
            "mcs-assets/tls/mcs-ca.crt",
            "--key",
            "cut.key",
            "--force",
        ],
        1,
        "cut.key",
    );
}

#[test]
fn ca_import_with_a_key_that_does_not_match() {
    let d = demo(&[]);
    fails(
        d.path(),
        &[
            "ca",
            "import",
            "--cert",
            "mcs-assets/tls/mcs-ca.crt",
            "--key",
            "mcs-assets/tls/mcs.key",
            "--force",
        ],
        1,
        "mcs-assets/tls/mcs.key does not match the certificate in mcs-assets/tls/mcs-ca.crt",
    );
}

#[test]
fn ca_import_of_a_certificate_that_is_not_a_ca() {
    let d = demo(&[]);
    fails(
        d.path(),
        &[
            "ca",
            "import",
            "--cert",
            "mcs-assets/tls/mcs.crt",
            "--key",
            "mcs-assets/tls/mcs.key",
            "--force",
        ],
        1,
        "mcs-assets/tls/mcs.crt: CN=system:machine-config-server is not a CA certificate",
    );
}

#[test]
fn spec_version_2() {
    let d = demo(&[]);
    fails(
        d.path(),
        &[
            "pointer",
            "--pool",
            "worker",
            "--spec-version",
            "2.2.0",
            "--force",
        ],
        2,
        "spec 2 configs",
    );
    let e = tempfile::tempdir().unwrap();
    fails(
        e.path(),
        &[
            "init",
            "--cluster-name",
            "demo",
            "--base-domain",
            "example.com",
            "--spec-version",
            "2.2.0",
        ],
        2,
        "--spec-version",
    );
}

#[test]
fn bad_cluster_name() {
    let e = tempfile::tempdir().unwrap();
    fails(
        e.path(),
        &[
            "init",
            "--cluster-name",
            "Bad_Name",
            "--base-domain",
            "example.com",
        ],
        2,
        "invalid value 'Bad_Name' for '--cluster-name <NAME>': not a DNS label: use 1 to 63 lower-case letters, digits and '-', not at either end",
    );
    fails(
        e.path(),
        &[
            "init",
            "--cluster-name",
            "demo",
            "--base-domain",
            "exa mple.com",
        ],
        2,
        "--base-domain",
    );
}

#[test]
fn missing_values_without_a_terminal_name_every_flag() {
    let e = tempfile::tempdir().unwrap();
    fails(
        e.path(),
        &["init"],
        2,
        "missing --cluster-name and --base-domain",
    );
    fails(
        e.path(),
        &["init", "--cluster-name", "demo", "--non-interactive"],
        2,
        "missing --base-domain",
    );
}

#[test]
fn init_into_a_non_empty_directory() {
    let d = demo(&[]);
    fails(
        d.path(),
        &[
            "init",
            "--cluster-name",
            "demo",
            "--base-domain",
            "example.com",
        ],
        1,
        "mcs-assets is not empty; --force overwrites the assets in it (what it replaces is kept under backup/), and a new CA means every pointer config made from the old one stops working: `mcsctl ca rotate` replaces a CA without breaking machines",
    );
}

#[test]
fn dir_that_is_a_file() {
    let e = tempfile::tempdir().unwrap();
    std::fs::write(e.path().join("afile"), "x").unwrap();
    fails(
        e.path(),
        &[
            "--dir",
            "afile",
            "init",
            "--cluster-name",
            "demo",
            "--base-domain",
            "example.com",
        ],
        1,
        "afile exists and is not a directory",
    );
    fails(
        e.path(),
        &["--dir", "afile", "token", "rotate"],
        1,
        "afile is not a directory",
    );
    // A --dir that is no asset directory is refused before anything is read, by every command.
    fails(
        e.path(),
        &["--dir", "afile", "inspect"],
        1,
        "afile is not a directory",
    );
}

#[test]
fn garbage_in_tokens_json() {
    let d = demo(&[]);
    std::fs::write(
        d.path().join("mcs-assets/auth/tokens.json"),
        "{\"formatVersion\": 1, \"tokens\": [garbage",
    )
    .unwrap();
    fails(
        d.path(),
        &["token", "rotate"],
        1,
        "mcs-assets/auth/tokens.json is not a valid token store",
    );
    fails(
        d.path(),
        &["token", "list"],
        1,
        "tokens.json is not a valid token store",
    );
    fails(
        d.path(),
        &["pointer", "--pool", "worker", "--force"],
        1,
        "tokens.json is not a valid token store",
    );
}

#[test]
fn pointer_config_that_is_not_json() {
    let d = demo(&[]);
    std::fs::write(d.path().join("broken.ign"), "this is not json").unwrap();
    inspect_fails(
        d.path(),
        &["inspect", "broken.ign"],
        "broken.ign is not JSON",
    );
    std::fs::write(d.path().join("mcs-assets/extra.ign"), "{\"ignition\": ").unwrap();
    let (code, out, _) = run(d.path(), &["inspect"]);
    assert_eq!(code, 4, "{out}");
    assert!(out.contains("extra.ign is not JSON"), "{out}");
    fails(d.path(), &["token", "rotate"], 1, "extra.ign is not JSON");
}

#[test]
fn bad_durations_and_sans_are_usage_errors() {
    let e = tempfile::tempdir().unwrap();
    fails(
        e.path(),
        &[
            "init",
            "--cluster-name",
            "demo",
            "--base-domain",
            "example.com",
            "--ca-validity",
            "ten years",
        ],
        2,
        "--ca-validity",
    );
    fails(
        e.path(),
        &[
            "init",
            "--cluster-name",
            "demo",
            "--base-domain",
            "example.com",
            "--san",
            "bad san!",
        ],
        2,
        "--san",
    );
    fails(
        e.path(),
        &[
            "init",
            "--cluster-name",
            "demo",
            "--base-domain",
            "example.com",
            "--pool",
            "../etc",
        ],
        2,
        "--pool",
    );
}

#[test]
fn commands_without_an_asset_directory_say_how_to_make_one() {
    let e = tempfile::tempdir().unwrap();
    fails(
        e.path(),
        &["pointer", "--pool", "worker"],
        1,
        "run `mcsctl init` first",
    );
    fails(e.path(), &["cert", "renew"], 1, "run `mcsctl init` first");
}

#[test]
fn a_mistyped_address_is_not_a_dns_name() {
    let d = tempfile::tempdir().unwrap();
    for san in ["10.0.0.300", "192.168.1", "*.10.0.0.1"] {
        let (code, _, err) = crate::support::run(
            d.path(),
            &[
                "init",
                "--cluster-name",
                "demo",
                "--base-domain",
                "example.com",
                "--san",
                san,
            ],
        );
        assert_eq!(code, 2, "{san}: {err}");
        assert!(err.contains("invalid IP address in SAN"), "{san}: {err}");
    }
}
