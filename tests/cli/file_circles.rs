//! No two files of `src/` use each other, through any number of others: the drawing in
//! docs/development.md orders the top-level modules (`architecture.rs` checks it), and this
//! orders the files inside them, so that each file reads with only what is below it in mind.
//! A file uses another when its production code names a path (`crate::…`, `super::…`, a
//! `{…}` group expanded) whose longest prefix that is a module lives in that file. A `mod.rs`
//! naming its own children by their bare names (`rules::check`) is not counted: it declares them.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::architecture::{rust_files, src};

/// A file's module path (`serve/request/mod.rs` is `serve::request`; `lib.rs` is the crate).
fn module_of(rel: &Path) -> Vec<String> {
    let mut m: Vec<String> = rel
        .iter()
        .map(|c| c.to_string_lossy().trim_end_matches(".rs").to_string())
        .collect();
    if m.last()
        .is_some_and(|l| l == "mod" || l == "lib" || l == "main")
    {
        m.pop();
    }
    m
}

/// Production code: comment lines dropped, nothing from `#[cfg(test)]` on.
fn production(p: &Path) -> String {
    std::fs::read_to_string(p)
        .unwrap()
        .lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .take_while(|l| l.trim() != "#[cfg(test)]")
        .map(|l| format!("{l}\n"))
        .collect()
}

/// The paths of `text` (after `crate::`, or after the `super::`s), `prefix` put in front; a
/// group is expanded, nested groups too.
fn expand(prefix: &[String], text: &str, out: &mut Vec<Vec<String>>) {
    let mut path = prefix.to_vec();
    let mut rest = text;
    loop {
        rest = rest.trim_start();
        if let Some(group) = rest.strip_prefix('{') {
            let (mut depth, mut start) = (0, 0);
            for (i, c) in group.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' if depth > 0 => depth -= 1,
                    ',' | '}' if depth == 0 => {
                        expand(&path, &group[start..i], out);
                        if c == '}' {
                            return;
                        }
                        start = i + 1;
                    }
                    _ => {}
                }
            }
            return;
        }
        let n = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(rest.len());
        if n == 0 || &rest[..n] == "self" {
            break;
        }
        path.push(rest[..n].to_string());
        match rest[n..].strip_prefix("::") {
            Some(r) => rest = r,
            None => break,
        }
    }
    out.push(path);
}

/// The file a module path's longest module prefix lives in.
fn file_of(path: &[String]) -> Option<PathBuf> {
    let (mut dir, mut best) = (src(), None);
    for seg in path {
        if dir.join(format!("{seg}.rs")).is_file() {
            return Some(dir.join(format!("{seg}.rs")));
        }
        dir = dir.join(seg);
        if !dir.join("mod.rs").is_file() {
            break;
        }
        best = Some(dir.join("mod.rs"));
    }
    best
}

/// The files of `src/` each file uses, itself left out.
fn uses() -> BTreeMap<PathBuf, Vec<PathBuf>> {
    let mut graph = BTreeMap::new();
    for f in rust_files(&src()) {
        let rel = f.strip_prefix(src()).unwrap().to_path_buf();
        let here = module_of(&rel);
        let text = production(&f);
        let mut paths = Vec::new();
        for (at, _) in text.match_indices("crate::") {
            if !text[..at].ends_with('$') {
                expand(&[], &text[at + "crate::".len()..], &mut paths);
            }
        }
        let mut rest = text.as_str();
        while let Some(at) = rest.find("super::") {
            let (before, mut after) = (&rest[..at], &rest[at..]);
            rest = &rest[at + "super::".len()..];
            if before.ends_with("::") || before.ends_with(|c: char| c.is_alphanumeric()) {
                continue;
            }
            let mut up = here.len();
            while let Some(a) = after.strip_prefix("super::") {
                up = up.saturating_sub(1);
                after = a;
            }
            expand(&here[..up], after, &mut paths);
        }
        let mut to: Vec<PathBuf> = paths.iter().filter_map(|p| file_of(p)).collect();
        to.retain(|t| *t != f);
        to.sort();
        to.dedup();
        graph.insert(f, to);
    }
    graph
}

/// The files `at` reaches through its uses, itself included.
fn reach(at: &Path, graph: &BTreeMap<PathBuf, Vec<PathBuf>>) -> Vec<PathBuf> {
    let mut seen = vec![at.to_path_buf()];
    let mut i = 0;
    while i < seen.len() {
        for next in graph.get(&seen[i]).into_iter().flatten() {
            if !seen.contains(next) {
                seen.push(next.clone());
            }
        }
        i += 1;
    }
    seen
}

#[test]
fn no_two_files_use_each_other() {
    let graph = uses();
    let reached: BTreeMap<&PathBuf, Vec<PathBuf>> =
        graph.keys().map(|f| (f, reach(f, &graph))).collect();
    let mut circles: Vec<Vec<String>> = Vec::new();
    for (f, from_f) in &reached {
        let mut circle: Vec<String> = from_f
            .iter()
            .filter(|g| reached.get(g).is_some_and(|r| r.contains(f)))
            .map(|p| p.strip_prefix(src()).unwrap().display().to_string())
            .collect();
        circle.sort();
        if circle.len() > 1 && !circles.contains(&circle) {
            circles.push(circle);
        }
    }
    let text: Vec<String> = circles.iter().map(|c| c.join(", ")).collect();
    assert!(
        circles.is_empty(),
        "these files use each other, through one another (move what they share into a file below them):\n{}",
        text.join("\n")
    );
}

/// The check sees the uses it is about: `handler.rs` uses `route.rs` and `message.rs`, through
/// a `crate::` path and a group.
#[test]
fn the_circle_check_reads_paths_and_groups() {
    let graph = uses();
    let handler = src().join("serve/request/handler.rs");
    let to = &graph[&handler];
    for f in ["serve/request/route.rs", "serve/request/message.rs"] {
        assert!(to.contains(&src().join(f)), "{f} not among {to:?}");
    }
    let mut paths = Vec::new();
    expand(&[], "a::{b::{c, d}, e}, f", &mut paths);
    let want: Vec<Vec<String>> = [&["a", "b", "c"][..], &["a", "b", "d"], &["a", "e"]]
        .iter()
        .map(|p| p.iter().map(|s| s.to_string()).collect())
        .collect();
    assert_eq!(paths, want);
}
