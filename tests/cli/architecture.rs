//! The layering the README's architecture section describes, checked on the source: no command
//! module reaches into another (what they share lives in `cmd/mod.rs`), no domain module
//! reaches into `cmd`, and the workflows of `state` neither print nor read the command line.
//! Plus sizes: no file over 500 lines, no function over 80, no function of `src/cmd` over 60;
//! one home for each concept a grep can find (stdin, PEM detection, the ledger); and no file
//! I/O of their own in `cmd` and the workflows (the snapshot's readers aside).

use std::path::{Path, PathBuf};

/// `src/` of this crate.
pub(super) fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// The `.rs` files under `dir`, sorted.
pub(super) fn rust_files(dir: &Path) -> Vec<PathBuf> {
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

/// The first component of a path under `src/` (or `src/cmd/`), without `.rs`: its module.
fn top_module(rel: &Path) -> String {
    rel.iter()
        .next()
        .unwrap()
        .to_string_lossy()
        .trim_end_matches(".rs")
        .to_string()
}

/// The line of the drawing `m` is on, from the top.
fn level(lines: &[(Vec<String>, bool)], m: &str) -> Option<usize> {
    lines
        .iter()
        .position(|(mods, _)| mods.iter().any(|x| x == m))
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
        let own = top_module(&rel);
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
    // What the drawing puts above cmd (main.rs, completion) may use it.
    let lines = drawing();
    let level = |m: &str| level(&lines, m);
    let cmd_level = level("cmd").unwrap();
    for f in rust_files(&src()) {
        let rel = f.strip_prefix(src()).unwrap();
        let own = top_module(rel);
        if rel.starts_with("cmd")
            || rel == Path::new("lib.rs")
            || level(&own).is_some_and(|l| l < cmd_level)
        {
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

/// The most lines a function of `src/cmd` may have: a handler resolves, loads, calls one
/// workflow, commits and prints; what takes longer is a workflow's or a printer's.
const HANDLER_LINES: usize = 60;

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
    for f in rust_files(&src()) {
        let rel = f
            .strip_prefix(src())
            .unwrap()
            .to_string_lossy()
            .into_owned();
        let text = std::fs::read_to_string(&f).unwrap();
        let lines = text.lines().count();
        if lines > FILE_LINES {
            grew.push(format!("src/{rel}: {lines} lines (at most {FILE_LINES})"));
        }
        if rel.starts_with("cmd/") {
            for (name, line, len) in functions(&text) {
                if len > HANDLER_LINES {
                    grew.push(format!(
                        "src/{rel}:{line} {name}: {len} lines (a handler has at most {HANDLER_LINES}: move the logic into a workflow)"
                    ));
                }
            }
        }
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
            "pub use crate::model::config::AuthMode",
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

/// The drawing of docs/development.md's "Architecture": its lines, top to bottom, each the
/// modules on it and whether they are peers.
fn drawing() -> Vec<(Vec<String>, bool)> {
    let doc =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/development.md"))
            .unwrap();
    let arch = &doc[doc
        .find("## Architecture")
        .expect("docs/development.md has its Architecture")..];
    let block = arch
        .split("```text\n")
        .nth(1)
        .unwrap()
        .split("```")
        .next()
        .unwrap();
    block
        .lines()
        .map(|l| {
            let peers = l.trim_end().ends_with("(peers)");
            let mods = l
                .trim_end()
                .trim_end_matches("(peers)")
                .split('·')
                .map(|m| m.trim().trim_end_matches(".rs").to_string())
                .collect();
            (mods, peers)
        })
        .collect()
}

/// The top-level modules one file's production code names through `crate::` (a `use
/// crate::{a, b::c}` group included), with a line where each is named.
fn crate_paths(p: &Path) -> Vec<(String, usize)> {
    let mut out = Vec::new();
    let lines = production(p);
    let text: String = lines.iter().map(|(_, l)| format!("{l}\n")).collect();
    let line_of = |at: usize| lines[text[..at].matches('\n').count()].0;
    let ident = |s: &str| -> String {
        s.chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect()
    };
    let mut from = 0;
    while let Some(i) = text[from..].find("crate::") {
        let at = from + i;
        let rest = &text[at + "crate::".len()..];
        // `mcsctl::crate::` does not occur; `$crate::` is a macro's own crate, the same rule.
        if let Some(group) = rest.strip_prefix('{') {
            let mut depth = 0;
            let mut item = String::new();
            for c in group.chars() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => break,
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        out.push((ident(item.trim()), line_of(at)));
                        item.clear();
                        continue;
                    }
                    _ => {}
                }
                if depth == 0 || c != '{' {
                    item.push(c);
                }
            }
            out.push((ident(item.trim()), line_of(at)));
        } else {
            out.push((ident(rest), line_of(at)));
        }
        from = at + "crate::".len();
    }
    out.retain(|(m, _)| !m.is_empty() && m != "self");
    out
}

#[test]
fn the_code_obeys_the_drawing() {
    let lines = drawing();
    let level = |m: &str| level(&lines, m);
    // Every module of src/ is drawn, once.
    let mut drawn: Vec<&String> = lines.iter().flat_map(|(m, _)| m).collect();
    drawn.sort();
    let before = drawn.len();
    drawn.dedup();
    assert_eq!(before, drawn.len(), "a module is drawn twice: {drawn:?}");
    let mut modules: Vec<String> = std::fs::read_dir(src())
        .unwrap()
        .map(|e| {
            e.unwrap()
                .file_name()
                .to_string_lossy()
                .trim_end_matches(".rs")
                .to_string()
        })
        .filter(|m| m != "lib")
        .collect();
    modules.sort();
    let drawn: Vec<String> = drawn.into_iter().cloned().collect();
    assert_eq!(modules, drawn, "src/'s modules and the drawing's differ");

    let mut bad = Vec::new();
    let mut peer_edges: Vec<(String, String)> = Vec::new();
    for f in rust_files(&src()) {
        let rel = f.strip_prefix(src()).unwrap();
        let own = top_module(rel);
        if own == "lib" || rel.components().any(|c| c.as_os_str() == "tests") {
            continue;
        }
        let mine = level(&own).unwrap();
        for (used, n) in crate_paths(&f) {
            if used == own {
                continue;
            }
            let Some(theirs) = level(&used) else {
                bad.push(format!(
                    "src/{}:{n}: crate::{used} is not a module",
                    rel.display()
                ));
                continue;
            };
            let ok = theirs > mine || (theirs == mine && lines[mine].1);
            if !ok {
                bad.push(format!(
                    "src/{}:{n}: {own} uses {used}, which the drawing puts {}",
                    rel.display(),
                    if theirs == mine {
                        "beside it, not as a peer"
                    } else {
                        "above it"
                    }
                ));
            }
            if theirs == mine && !peer_edges.contains(&(own.clone(), used.clone())) {
                peer_edges.push((own.clone(), used.clone()));
            }
        }
    }
    assert!(
        bad.is_empty(),
        "the code breaks the drawing (docs/development.md):\n{}",
        bad.join("\n")
    );
    // Peers in no circle.
    fn reaches(from: &str, to: &str, edges: &[(String, String)], seen: &mut Vec<String>) -> bool {
        edges.iter().filter(|(a, _)| a == from).any(|(_, b)| {
            b == to
                || (!seen.contains(b) && {
                    seen.push(b.clone());
                    reaches(b, to, edges, seen)
                })
        })
    }
    for (a, b) in &peer_edges {
        assert!(
            !reaches(b, a, &peer_edges, &mut Vec::new()),
            "{a} and {b} use each other (a circle among peers)"
        );
    }
}
