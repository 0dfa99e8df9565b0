//! The layering the README's architecture section describes, checked on the source: no command
//! module reaches into another (what they share lives in `cmd/mod.rs`), no domain module
//! reaches into `cmd`, and the workflows of `state` neither print nor read the command line.
//! Plus sizes: no file over 500 lines, no function over 80, and `src/cmd` under 2,500 in all;
//! one home for each concept a grep can find (stdin, PEM detection, the ledger); and no file
//! I/O of their own in `cmd` and the workflows (the snapshot's readers aside).

use std::path::{Path, PathBuf};

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            out.extend(rust_files(&p));
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
    out.sort();
    out
}

/// The command modules: `pub mod` lines of `cmd/mod.rs`.
fn commands() -> Vec<String> {
    std::fs::read_to_string(src().join("cmd/mod.rs"))
        .unwrap()
        .lines()
        .filter_map(|l| l.strip_prefix("pub mod ")?.strip_suffix(';'))
        .map(str::to_string)
        .collect()
}

/// Code lines (comments dropped) of a file.
fn code(p: &Path) -> Vec<(usize, String)> {
    std::fs::read_to_string(p)
        .unwrap()
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim_start().starts_with("//"))
        .map(|(i, l)| (i + 1, l.to_string()))
        .collect()
}

#[test]
fn no_command_module_reaches_into_another_and_no_domain_module_into_cmd() {
    let cmds = commands();
    assert!(cmds.contains(&"ca".to_string()) && cmds.contains(&"cert".to_string()));
    let mut bad = Vec::new();
    for f in rust_files(&src().join("cmd")) {
        let rel = f.strip_prefix(src().join("cmd")).unwrap().to_path_buf();
        let own = rel
            .iter()
            .next()
            .unwrap()
            .to_string_lossy()
            .trim_end_matches(".rs")
            .to_string();
        if own == "mod" {
            continue;
        }
        let nested = rel.components().count() > 1;
        for (n, line) in code(&f) {
            for other in cmds.iter().filter(|c| **c != own) {
                let mut paths = vec![
                    format!("crate::cmd::{other}::"),
                    format!("crate::cmd::{other};"),
                ];
                // From cmd/<own>.rs, `super` is cmd; from cmd/<own>/x.rs, `super::super` is.
                let up = if nested { "super::super" } else { "super" };
                paths.push(format!("{up}::{other}::"));
                paths.push(format!("{up}::{{{other}"));
                paths.push(format!("{up}::{other};"));
                if paths.iter().any(|p| line.contains(p.as_str())) {
                    bad.push(format!(
                        "src/cmd/{}:{n}: uses cmd::{other}: {}",
                        rel.display(),
                        line.trim()
                    ));
                }
            }
        }
    }
    for f in rust_files(&src()) {
        let rel = f.strip_prefix(src()).unwrap();
        if rel.starts_with("cmd") || rel == Path::new("main.rs") || rel == Path::new("lib.rs") {
            continue;
        }
        for (n, line) in code(&f) {
            if line.contains("crate::cmd") {
                bad.push(format!(
                    "src/{}:{n}: a domain module uses cmd: {}",
                    rel.display(),
                    line.trim()
                ));
            }
        }
    }
    assert!(bad.is_empty(), "layering broken:\n{}", bad.join("\n"));
}

/// The most lines a file of `src/` may have: one you can read in one sitting.
const FILE_LINES: usize = 500;

/// The most lines `src/cmd` may have in all: it resolves, loads, calls, commits and prints.
const CMD_LINES: usize = 2_500;

#[test]
fn workflows_neither_print_nor_read_the_command_line() {
    let mut bad = Vec::new();
    for f in rust_files(&src().join("ops")) {
        for (n, line) in code(&f) {
            for word in [
                "crate::ui",
                "crate::cli",
                "println!",
                "eprintln!",
                "std::io::stdout",
            ] {
                if line.contains(word) {
                    bad.push(format!(
                        "{}:{n}: {word}: {}",
                        f.strip_prefix(src()).unwrap().display(),
                        line.trim()
                    ));
                }
            }
        }
    }
    assert!(
        bad.is_empty(),
        "a workflow does I/O of cmd's:\n{}",
        bad.join("\n")
    );
}

#[test]
fn files_stay_readable_and_cmd_stays_thin() {
    let mut grew = Vec::new();
    let mut cmd_lines = 0;
    for f in rust_files(&src()) {
        let rel = f
            .strip_prefix(src())
            .unwrap()
            .to_string_lossy()
            .into_owned();
        let lines = std::fs::read_to_string(&f).unwrap().lines().count();
        if rel.starts_with("cmd/") {
            cmd_lines += lines;
        }
        if lines > FILE_LINES {
            grew.push(format!("src/{rel}: {lines} lines (at most {FILE_LINES})"));
        }
    }
    if cmd_lines > CMD_LINES {
        grew.push(format!("src/cmd: {cmd_lines} lines (at most {CMD_LINES})"));
    }
    assert!(grew.is_empty(), "split these instead:\n{}", grew.join("\n"));
}

/// The most lines a function may have.
const FUNCTION_LINES: usize = 80;

/// Each `fn` of a file with its name, first line and length in lines (signature to closing
/// brace). Braces in strings, characters and line comments are not counted.
fn functions(text: &str) -> Vec<(String, usize, usize)> {
    let lines: Vec<&str> = text.lines().collect();
    let fn_re =
        regex::Regex::new(r"^\s*(pub(\([^)]*\))?\s+)?(async\s+)?(const\s+)?(unsafe\s+)?fn\s+(\w+)")
            .unwrap();
    let strings = regex::Regex::new(r#""(\\.|[^"\\])*"|'(\\.|[^'\\])'"#).unwrap();
    let mut out = Vec::new();
    for (i, l) in lines.iter().enumerate() {
        let Some(c) = fn_re.captures(l) else { continue };
        let (mut depth, mut started) = (0i32, false);
        for (j, l) in lines.iter().enumerate().skip(i) {
            let plain = strings.replace_all(l, "\"\"");
            let plain = plain.split("//").next().unwrap_or_default();
            for ch in plain.chars() {
                match ch {
                    '{' => {
                        depth += 1;
                        started = true;
                    }
                    '}' => depth -= 1,
                    _ => {}
                }
            }
            if !started && plain.trim_end().ends_with(';') {
                break;
            }
            if started && depth == 0 {
                out.push((c[6].to_string(), i + 1, j - i + 1));
                break;
            }
        }
    }
    out
}

#[test]
fn functions_fit_on_a_screen() {
    let mut bad = Vec::new();
    for f in rust_files(&src()) {
        let rel = f.strip_prefix(src()).unwrap().display().to_string();
        for (name, line, len) in functions(&std::fs::read_to_string(&f).unwrap()) {
            if len > FUNCTION_LINES {
                bad.push(format!(
                    "src/{rel}:{line} {name}: {len} lines (at most {FUNCTION_LINES})"
                ));
            }
        }
    }
    assert!(bad.is_empty(), "split these:\n{}", bad.join("\n"));
}

#[test]
fn unsafe_code_lives_in_the_heap_module_alone() {
    // The ledger maps nothing (a mapping of a file another process truncates is SIGBUS): the
    // heap's `mallopt` and `malloc_trim` are the only unsafe code.
    let allowed = src().join("heap.rs");
    let mut found = Vec::new();
    for p in rust_files(&src()) {
        for (n, l) in code(&p) {
            let hit =
                l.contains("unsafe {") || l.contains("unsafe fn") || l.contains("unsafe impl");
            let allows = l.contains("allow(unsafe_code)");
            if (hit || allows) && p != allowed {
                found.push(format!("{}:{n}", p.display()));
            }
        }
    }
    assert!(found.is_empty(), "unsafe code outside heap.rs: {found:?}");
    let lib = std::fs::read_to_string(src().join("lib.rs")).unwrap();
    assert!(
        lib.contains("#![deny(unsafe_code)]"),
        "lib.rs denies unsafe code"
    );
    let text = std::fs::read_to_string(&allowed).unwrap();
    assert_eq!(
        text.matches("unsafe {").count(),
        2,
        "heap.rs: its unsafe blocks"
    );
    assert_eq!(
        text.matches("// SAFETY:").count(),
        2,
        "heap.rs: each says why"
    );
}

/// The code lines of a file before its `#[cfg(test)]` module (tests may do what they like).
fn production(p: &Path) -> Vec<(usize, String)> {
    code(p)
        .into_iter()
        .take_while(|(_, l)| l.trim() != "#[cfg(test)]")
        .collect()
}

/// Where `needle` occurs in production code outside the files and folders of `homes`
/// (relative to `src/`).
fn outside(needle: &str, homes: &[&str]) -> Vec<String> {
    let mut out = Vec::new();
    for f in rust_files(&src()) {
        let rel = f.strip_prefix(src()).unwrap().to_string_lossy().to_string();
        if homes.iter().any(|h| rel == *h || rel.starts_with(h)) {
            continue;
        }
        for (n, l) in production(&f) {
            if l.contains(needle) {
                out.push(format!("{rel}:{n}: {}", l.trim()));
            }
        }
    }
    out
}

#[test]
fn each_concept_has_one_home() {
    // (the concept, what betrays it, its home)
    let homes: [(&str, &str, &[&str]); 15] = [
        (
            "verifying a certificate chain",
            "webpki::",
            &["pki/verify.rs"],
        ),
        // percent.rs decodes; Go's url.unescape, with its own rules for hosts, is ported whole;
        // hex.rs reads digests.
        (
            "decoding %XX or hex",
            "to_digit(16)",
            &["percent.rs", "golang/url.rs", "hex.rs"],
        ),
        ("encoding hex", ":02x}", &["hex.rs"]),
        // One clock: read in clock.rs; cmd takes the time once per command and passes it down.
        ("reading the wall clock", "now_utc()", &["clock.rs"]),
        ("a time riding on the output", "ui.now", &[]),
        // One Ignition model: mcsctl's own (the crate is the tests' independent reader).
        ("a second Ignition model", "ignition_config", &[]),
        (
            "reading an Ignition spec's types",
            "typed::decode(",
            &["ignition/spec/"],
        ),
        // One URL parser (Go's rules) and one http(s) URL type built on it.
        ("parsing a URL", "fn parse_authority(", &["golang/url.rs"]),
        ("a URL type over hyper's Uri", "Uri", &[]),
        ("reading stdin", "read_stdin(", &["assets/"]),
        (
            "PEM detection",
            "-----BEGIN",
            &["pki/", "ignition/render/secrets/detect.rs"],
        ),
        ("reading the ledger", "ledger::read(", &["ledger/"]),
        (
            "listing the ledger files",
            "ledger::files(",
            &["ledger/", "serve/fetches/"],
        ),
        ("decoding text input lossily", "from_utf8_lossy(&b)", &[]),
        (
            "a re-export of AuthMode",
            "pub use crate::ops::config::AuthMode",
            &[],
        ),
    ];
    let mut bad = Vec::new();
    for (what, needle, home) in homes {
        for hit in outside(needle, home) {
            bad.push(format!("{what} outside {home:?}: {hit}"));
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn commands_and_workflows_do_no_file_io_of_their_own() {
    // cmd reads inputs and commits through `assets`, and the asset directory through the
    // snapshot; the workflows of `ops` take a snapshot, whose files `assets::Image` reads in
    // one pass (the tests' scratch directories aside).
    let mut bad = Vec::new();
    for dir in ["cmd", "ops"] {
        for f in rust_files(&src().join(dir)) {
            let rel = f.strip_prefix(src()).unwrap().to_string_lossy().to_string();
            if rel.starts_with("ops/tests/") {
                continue;
            }
            for (n, l) in production(&f) {
                let io = ["std::fs", "fs::read", "File::open"];
                // cmd reads the asset directory through the snapshot alone.
                let bypass = ["config::load(", "read_tokens(", "dir.read("];
                if io.iter().any(|x| l.contains(x))
                    || (dir == "cmd" && bypass.iter().any(|x| l.contains(x)))
                {
                    bad.push(format!("{rel}:{n}: {}", l.trim()));
                }
            }
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}
