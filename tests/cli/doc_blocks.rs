//! Every shell block of README.md and docs/ is true when followed literally. The line above
//! each ```` ```sh ```` fence says how that is known:
//!
//! - `<!-- lab -->` or `<!-- lab: init -->`: run here, as written, in a lab directory (empty,
//!   or where `mcsctl init --cluster-name demo --base-domain example.com` ran), with `mcsctl` on
//!   PATH and the inputs the pages name (`machineconfigs.yaml`: the worker fixture;
//!   `bootstrap-kubeconfig`). A page's lab blocks run in order in one lab. An untagged block
//!   right after one is its output, compared with what it printed.
//! - `<!-- run by tests/cli/FILE.rs -->`: a test of its own runs it (the README walkthrough,
//!   the container page's blocks); that file must name the page.
//! - `<!-- reference: WHY -->`: a form for a real cluster or a real machine (an `oc` command, a
//!   store at 10.0.0.5, an install into ~/.cargo): not run; its `mcsctl` lines are parsed by
//!   `docs::every_documented_command_line_parses`.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::support::{bootstrap_kubeconfig, fixture};

/// How a block is known to be true.
#[derive(Debug, PartialEq)]
enum Mark {
    Lab { init: bool },
    RunBy(String),
    Reference,
}

/// A shell block: its page, its first line's number, its mark, its text and the output block
/// after it (if any).
#[derive(Debug)]
struct Block {
    page: String,
    line: usize,
    mark: Option<Mark>,
    text: String,
    output: Option<String>,
}

fn pages() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut out = vec![root.join("README.md")];
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root.join("docs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    docs.sort();
    out.extend(docs);
    out
}

fn blocks(page: &Path) -> Vec<Block> {
    let text = std::fs::read_to_string(page).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let name = page
        .strip_prefix(env!("CARGO_MANIFEST_DIR"))
        .unwrap()
        .display()
        .to_string();
    let mut out: Vec<Block> = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let fence = lines[i];
        if !fence.starts_with("```") {
            i += 1;
            continue;
        }
        let end = (i + 1..lines.len())
            .find(|&j| lines[j].starts_with("```"))
            .unwrap_or_else(|| panic!("{name}:{}: unclosed block", i + 1));
        let body = lines[i + 1..end].join("\n") + "\n";
        if fence == "```sh" {
            let above = if i > 0 { lines[i - 1].trim() } else { "" };
            let mark = above
                .strip_prefix("<!-- ")
                .and_then(|m| m.strip_suffix(" -->"))
                .and_then(|m| match m {
                    "lab" => Some(Mark::Lab { init: false }),
                    "lab: init" => Some(Mark::Lab { init: true }),
                    _ if m.starts_with("run by ") => Some(Mark::RunBy(m["run by ".len()..].into())),
                    _ if m.starts_with("reference: ") => Some(Mark::Reference),
                    _ => None,
                });
            out.push(Block {
                page: name.clone(),
                line: i + 2,
                mark,
                text: body,
                output: None,
            });
        } else if fence == "```" && i > 0 && lines[i - 1].starts_with("```") {
            // Right after a block's closing fence: that block's output.
            if let Some(b) = out
                .last_mut()
                .filter(|b| b.output.is_none() && b.line + b.text.lines().count() == i)
            {
                b.output = Some(body);
            }
        }
        i = end + 1;
    }
    out
}

#[test]
fn every_shell_block_is_run_or_marked_as_a_reference() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut unmarked = Vec::new();
    let mut counts = (0, 0, 0);
    for page in pages() {
        for b in blocks(&page) {
            match &b.mark {
                None => unmarked.push(format!("{}:{}", b.page, b.line)),
                Some(Mark::Lab { .. }) => counts.0 += 1,
                Some(Mark::RunBy(file)) => {
                    counts.1 += 1;
                    let page_name = Path::new(&b.page)
                        .file_name()
                        .unwrap()
                        .to_string_lossy()
                        .into_owned();
                    let runner = std::fs::read_to_string(root.join(file))
                        .unwrap_or_else(|e| panic!("{}:{}: {file}: {e}", b.page, b.line));
                    assert!(
                        runner.contains(&page_name),
                        "{}:{}: {file} does not name {page_name}",
                        b.page,
                        b.line
                    );
                }
                Some(Mark::Reference) => counts.2 += 1,
            }
        }
    }
    assert!(
        unmarked.is_empty(),
        "shell blocks with no <!-- lab -->, <!-- run by FILE --> or <!-- reference: WHY --> line above them:\n{}",
        unmarked.join("\n")
    );
    assert!(
        counts.0 >= 2 && counts.1 >= 3 && counts.2 >= 3,
        "{counts:?}"
    );
}

/// Output compared with the numbers a run makes up (times, hashes, token ids) left out.
fn normal(s: &str) -> String {
    let t = regex::Regex::new(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z").unwrap();
    t.replace_all(s, "[TIME]").trim_end().to_string()
}

#[test]
fn lab_blocks_run_as_written_and_print_what_the_page_shows() {
    let bin = assert_cmd::cargo::cargo_bin("mcsctl");
    let path = format!(
        "{}:{}",
        bin.parent().unwrap().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut ran = 0;
    for page in pages() {
        let labs: Vec<Block> = blocks(&page)
            .into_iter()
            .filter(|b| matches!(b.mark, Some(Mark::Lab { .. })))
            .collect();
        if labs.is_empty() {
            continue;
        }
        let d = tempfile::tempdir().unwrap();
        let lab = d.path();
        std::fs::copy(
            fixture("machineconfigs/worker.yaml"),
            lab.join("machineconfigs.yaml"),
        )
        .unwrap();
        if labs
            .iter()
            .any(|b| b.mark == Some(Mark::Lab { init: true }))
        {
            crate::support::init_demo(lab, &[]);
        }
        let kubeconfig = if lab.join("mcs-assets").exists() {
            bootstrap_kubeconfig(lab)
        } else {
            // Made from a CA of its own: the page's `init` runs after.
            let other = tempfile::tempdir().unwrap();
            crate::support::init_demo(other.path(), &[]);
            bootstrap_kubeconfig(other.path())
        };
        std::fs::write(lab.join("bootstrap-kubeconfig"), kubeconfig).unwrap();
        for b in labs {
            ran += 1;
            let out = Command::new("sh")
                .args(["-eu", "-c", &b.text])
                .current_dir(lab)
                .env("PATH", &path)
                .env_remove("MCSCTL_DIR")
                .env("NO_COLOR", "1")
                .stdin(Stdio::null())
                .output()
                .unwrap();
            let stdout = String::from_utf8_lossy(&out.stdout);
            assert!(
                out.status.success(),
                "{}:{}: the block failed ({}):\n{}--- stdout\n{stdout}--- stderr\n{}",
                b.page,
                b.line,
                out.status,
                b.text,
                String::from_utf8_lossy(&out.stderr)
            );
            if let Some(shown) = &b.output {
                assert_eq!(
                    normal(&stdout),
                    normal(shown),
                    "{}:{}: the page shows other output than the block prints",
                    b.page,
                    b.line
                );
            }
        }
    }
    assert!(ran >= 2, "{ran} lab blocks");
}
