//! The clap definition is sound, and the committed completions/ and man/ are what the binary
//! generates now.

use std::path::Path;

use clap::CommandFactory;

use crate::support::ok;

#[test]
fn cli_definition_is_consistent() {
    mcsctl::cli::Cli::command().debug_assert();
}

#[test]
fn committed_completions_are_current() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let d = tempfile::tempdir().unwrap();
    for (shell, file) in [
        ("bash", "mcsctl.bash"),
        ("zsh", "_mcsctl"),
        ("fish", "mcsctl.fish"),
        ("elvish", "mcsctl.elv"),
        ("powershell", "_mcsctl.ps1"),
    ] {
        let now = ok(d.path(), &["completions", shell]);
        let committed = std::fs::read_to_string(root.join("completions").join(file))
            .unwrap_or_else(|_| panic!("completions/{file} is missing: run scripts/gen-docs"));
        assert!(
            now == committed,
            "completions/{file} is stale: run scripts/gen-docs and commit"
        );
    }
}

#[test]
fn committed_man_pages_are_current() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let d = tempfile::tempdir().unwrap();
    ok(d.path(), &["man", "--output", "man", "-q"]);
    let mut generated: Vec<_> = std::fs::read_dir(d.path().join("man"))
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    generated.sort();
    let mut committed: Vec<_> = std::fs::read_dir(root.join("man"))
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    committed.sort();
    assert_eq!(
        generated, committed,
        "man/ has other pages than the binary generates: run scripts/gen-docs"
    );
    for f in generated {
        let a = std::fs::read(d.path().join("man").join(&f)).unwrap();
        let b = std::fs::read(root.join("man").join(&f)).unwrap();
        assert!(
            a == b,
            "man/{} is stale: run scripts/gen-docs and commit",
            f.to_string_lossy()
        );
    }
}
