//! The clap definition is sound, and the committed completions/ and man/ are what the binary
//! generates now.

use std::path::Path;

use clap::CommandFactory;

use crate::support::ok;

#[test]
fn cli_definition_is_consistent() {
    mcsctl::cmd::Cli::command().debug_assert();
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

/// The `mcsctl` command lines of a markdown file's `sh` blocks: continuations joined, trailing
/// comments dropped, each split into words as a shell would (quotes, no expansion).
fn documented_command_lines(text: &str) -> Vec<(usize, Vec<String>)> {
    let mut out = Vec::new();
    let mut in_sh = false;
    let mut pending: Option<(usize, String)> = None;
    for (i, line) in text.lines().enumerate() {
        if line.starts_with("```") {
            in_sh = line.trim() == "```sh" && !in_sh;
            continue;
        }
        if !in_sh {
            continue;
        }
        let (n, mut joined) = match pending.take() {
            Some((n, s)) => (n, s + " " + line.trim()),
            None => (i + 1, line.trim().to_string()),
        };
        if joined.ends_with('\\') {
            joined.pop();
            pending = Some((n, joined));
            continue;
        }
        if let Some(words) = shell_words(&joined)
            && words.first().is_some_and(|w| w == "mcsctl")
        {
            out.push((n, words));
        }
    }
    out
}

/// Words of a shell command up to a comment, a pipe, a redirection or `&`; `None` for a line
/// that is not a plain command (an unclosed quote, a heredoc).
fn shell_words(line: &str) -> Option<Vec<String>> {
    let mut words = Vec::new();
    let mut cur: Option<String> = None;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '#' if cur.is_none() => break,
            '|' | '>' | '<' | '&' | ';' if cur.is_none() => break,
            c if c.is_whitespace() => {
                if let Some(w) = cur.take() {
                    words.push(w);
                }
            }
            '"' | '\'' => {
                let w = cur.get_or_insert_with(String::new);
                loop {
                    match chars.next() {
                        Some(q) if q == c => break,
                        Some(x) => w.push(x),
                        None => return None,
                    }
                }
            }
            _ => cur.get_or_insert_with(String::new).push(c),
        }
    }
    words.extend(cur);
    Some(words)
}

#[test]
fn every_documented_command_line_parses() {
    // Each `mcsctl ...` line of README.md and docs/*.md names commands and flags that exist and
    // values they accept (a shell variable stands for a port).
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = vec![root.join("README.md")];
    for e in std::fs::read_dir(root.join("docs")).unwrap() {
        files.push(e.unwrap().path());
    }
    files.sort();
    let mut bad = Vec::new();
    let mut seen = 0;
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        for (line, words) in documented_command_lines(&text) {
            let words: Vec<String> = words
                .iter()
                .map(|w| {
                    w.replace("${PORT:-22623}", "22623")
                        .replace("$port", "22623")
                })
                .collect();
            seen += 1;
            if let Err(e) = <mcsctl::cmd::Cli as clap::Parser>::try_parse_from(&words) {
                let first = e.to_string().lines().next().unwrap_or_default().to_string();
                bad.push(format!(
                    "{}:{line}: {}: {first}",
                    f.display(),
                    words.join(" ")
                ));
            }
        }
    }
    assert!(
        bad.is_empty(),
        "{} of {seen}:\n{}",
        bad.len(),
        bad.join("\n")
    );
    // 81 when this was written: the extractor must keep finding them.
    assert!(seen >= 75, "only {seen} documented command lines found");
}

#[test]
fn the_readme_is_short_and_maps_one_page_per_task() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let lines = readme.lines().count();
    assert!(
        lines < 300,
        "README.md has {lines} lines: move sections to docs/"
    );
    for page in [
        "install-a-cluster.md",
        "serve.md",
        "run-serve-in-the-cluster.md",
        "render.md",
        "node-admission.md",
        "rotate-the-ca.md",
        "security-and-limits.md",
        "agreement-with-the-mco.md",
        "scripting.md",
    ] {
        assert!(
            root.join("docs").join(page).is_file(),
            "docs/{page} is missing"
        );
        assert!(
            readme.contains(&format!("(docs/{page})")),
            "README's map lacks docs/{page}"
        );
    }
}

#[test]
fn the_two_set_up_commands_share_one_build_and_put_mcsctl_on_path() {
    // README's set-up is `scripts/setup` then `scripts/test`: one debug build serves both (no
    // release build first), and setup links mcsctl and ignition where the walkthrough finds
    // them.
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let start = readme.find("## Set up on a fresh machine").unwrap();
    let end = start + readme[start..].find("\n## Walkthrough").unwrap();
    let blocks: Vec<&str> = readme[start..end]
        .split("```sh\n")
        .skip(1)
        .map(|b| b.split("```").next().unwrap().trim())
        .collect();
    assert_eq!(blocks, ["scripts/setup", "scripts/test"]);
    let setup = std::fs::read_to_string(root.join("scripts/setup")).unwrap();
    let test = std::fs::read_to_string(root.join("scripts/test")).unwrap();
    assert!(setup.contains("\ncargo build --locked\n"), "{setup}");
    for (name, s) in [("setup", &setup), ("test", &test)] {
        assert!(
            !s.contains("--release"),
            "scripts/{name} builds in release: a second build"
        );
    }
    assert!(
        setup.contains("ln -sf \"$PWD/target/debug/mcsctl\" \"$bin_dir/mcsctl\"")
            && setup.contains("ln -sf \"$IGNITION_BIN\" \"$bin_dir/ignition\""),
        "{setup}"
    );
}

#[test]
fn the_event_table_is_the_event_enum() {
    use mcsctl::serve::log::event::Event;
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let page = root.join("docs/serve.md");
    let text = std::fs::read_to_string(&page).unwrap();
    let open =
        "<!-- events: generated from src/serve/log/event.rs (UPDATE_GOLDEN=1 rewrites it) -->\n";
    let close = "<!-- /events -->";
    let start = text
        .find(open)
        .expect("docs/serve.md has the events table's markers")
        + open.len();
    let end = start + text[start..].find(close).unwrap();
    let mut table = String::from("| event | when serve writes it |\n| --- | --- |\n");
    for e in Event::ALL {
        table.push_str(&format!("| `{}` | {} |\n", e.name(), e.when()));
    }
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(&page, format!("{}{table}{}", &text[..start], &text[end..])).unwrap();
        return;
    }
    assert_eq!(
        &text[start..end],
        table,
        "docs/serve.md's events table is stale: UPDATE_GOLDEN=1 cargo nextest run -E 'test(the_event_table)'"
    );
}

/// What a user reads names nothing they cannot open: not the domain documents the project was
/// started from ("the "Securing the Machine Config Server" enhancement"), not the development tree beside the repository. Public sources
/// are named by their titles instead (the "Securing the Machine Config Server" enhancement).
#[test]
fn nothing_a_user_reads_names_a_document_outside_the_repository() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let outside =
        regex::Regex::new(r"(?i)\bseeds? ?0\d\d\b|\.\./shared|\bDESIGN\.md\b|\brealworld/")
            .unwrap();
    let mut texts: Vec<(String, String)> = Vec::new();
    fn help(cmd: &mut clap::Command, path: String, out: &mut Vec<(String, String)>) {
        out.push((
            format!("mcsctl {path} --help"),
            cmd.render_long_help().to_string(),
        ));
        for s in cmd.get_subcommands_mut() {
            let name = format!("{path} {}", s.get_name()).trim().to_string();
            help(s, name, out);
        }
    }
    help(&mut mcsctl::cmd::Cli::command(), String::new(), &mut texts);
    fn files(d: &Path, out: &mut Vec<(String, String)>) {
        for e in std::fs::read_dir(d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                files(&p, out);
            } else if let Ok(t) = std::fs::read_to_string(&p) {
                out.push((p.display().to_string(), t));
            }
        }
    }
    for d in ["docs", "man", "completions", "tests/golden"] {
        files(&root.join(d), &mut texts);
    }
    texts.push((
        "README.md".into(),
        std::fs::read_to_string(root.join("README.md")).unwrap(),
    ));
    // The program's own strings: every literal in src/ (messages, reports, help).
    let mut src = Vec::new();
    files(&root.join("src"), &mut src);
    let literal = regex::Regex::new(r#""(?:[^"\\]|\\.)*""#).unwrap();
    for (p, t) in src {
        for m in literal.find_iter(&t) {
            texts.push((p.clone(), m.as_str().to_string()));
        }
    }
    assert!(texts.len() > 500, "only {} texts read", texts.len());
    let found: Vec<String> = texts
        .iter()
        .flat_map(|(name, t)| {
            outside
                .find_iter(t)
                .map(move |m| format!("{name}: {}", m.as_str()))
        })
        .collect();
    assert!(
        found.is_empty(),
        "names a document outside the repository:\n{}",
        found.join("\n")
    );
}

/// Help fits where it is read: 80 columns when stdout is not a terminal, the terminal's width
/// (at most 120) on one; EXAMPLES are set out by mcsctl for that width and never broken inside
/// a word by the wrapper; each subcommand's summary is a whole sentence.
#[test]
fn help_fits_its_width_and_examples_are_whole_commands() {
    let d = tempfile::tempdir().unwrap();
    let mut paths = Vec::new();
    crate::support::command_leaves(&mut |p| paths.push(p.to_string()));
    for p in &paths {
        let mut args: Vec<&str> = p.split(' ').collect();
        args.push("--help");
        let help = ok(d.path(), &args);
        for l in help.lines() {
            assert!(
                l.chars().count() <= 80 || !l.trim().contains(' '),
                "mcsctl {p} --help, wider than 80: {l:?}"
            );
        }
        // Every example command is in the help as written, over ` \` lines at most.
        let shown = help
            .split("\nExamples:\n")
            .nth(1)
            .unwrap_or_else(|| panic!("{p}: no examples"));
        let joined = shown.replace(" \\\n      ", " ");
        for cmd in mcsctl::cli::examples::of(p)
            .unwrap()
            .lines()
            .filter(|l| l.starts_with("mcsctl "))
        {
            assert!(
                joined.contains(&format!("  {cmd}\n"))
                    || joined.ends_with(&format!("  {cmd}"))
                    || joined.contains(&format!("  {cmd} ")),
                "mcsctl {p} --help does not show `{cmd}` whole:\n{shown}"
            );
        }
    }
    // Summaries end as sentences do, not on a word that wants more.
    fn abouts(cmd: &clap::Command, out: &mut Vec<(String, String)>) {
        for s in cmd.get_subcommands() {
            if let Some(a) = s.get_about() {
                out.push((s.get_name().to_string(), a.to_string()));
            }
            abouts(s, out);
        }
    }
    let mut all = Vec::new();
    abouts(&mcsctl::cmd::Cli::command(), &mut all);
    let dangling = [
        "a", "an", "the", "and", "or", "of", "to", "when", "with", "for", "by", "in", "is",
        "none is", "from",
    ];
    for (name, about) in &all {
        let last = about.trim_end_matches('.').rsplit(' ').next().unwrap_or("");
        assert!(
            !dangling.contains(&last) && !about.trim_end_matches('.').ends_with("none is"),
            "{name}: {about:?}"
        );
    }
    // On a 200-column terminal, wrapped at 120; on a 60-column one, at 60.
    let Some(script) = crate::support::tool("script", "SCRIPT_BIN", "script") else {
        return;
    };
    let bin = assert_cmd::cargo::cargo_bin("mcsctl");
    for (cols, most) in [(200, 120), (60, 60)] {
        let out = std::process::Command::new(&script)
            .args([
                "-qfec",
                &format!(
                    "stty cols {cols} rows 50; NO_COLOR=1 {} token rotate --help",
                    bin.display()
                ),
                "/dev/null",
            ])
            .env("NO_COLOR", "1")
            .stdin(std::process::Stdio::null())
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout).replace('\r', "");
        let widest = text.lines().map(|l| l.chars().count()).max().unwrap_or(0);
        assert!(
            widest <= most && widest > most - 15,
            "{cols} columns: widest line {widest}:\n{text}"
        );
    }
}

/// The README's set-up section says everything scripts/setup (through scripts/prereqs) does to
/// the machine, each with how to undo it, and its install command works after setup (whose
/// link in ~/.cargo/bin makes a plain `cargo install` refuse).
#[test]
fn the_readme_lists_what_setup_changes_and_how_to_undo_it() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let setup = readme
        .split("## Set up on a fresh machine")
        .nth(1)
        .and_then(|s| s.split("\n## ").next())
        .expect("README has a set-up section");
    let prereqs = std::fs::read_to_string(root.join("scripts/prereqs")).unwrap();
    let apt = regex::Regex::new(r"need_apt\+=\(([^)]*)\)").unwrap();
    let mut packages: Vec<&str> = apt
        .captures_iter(&prereqs)
        .flat_map(|c| c.get(1).unwrap().as_str().split_whitespace())
        .collect();
    packages.sort();
    packages.dedup();
    assert!(packages.len() >= 10, "{packages:?}");
    for p in &packages {
        assert!(
            setup.contains(&format!("`{p}`")),
            "README's set-up section does not name the package {p}"
        );
    }
    assert!(
        setup.contains("apt-get remove"),
        "no way to undo the packages"
    );
    let pip =
        regex::Regex::new(r"pip install -q (?:--break-system-packages )?([A-Za-z0-9_-]+)").unwrap();
    let mut pypi: Vec<&str> = pip
        .captures_iter(&prereqs)
        .map(|c| c.get(1).unwrap().as_str())
        .collect();
    pypi.dedup();
    assert!(pypi.len() >= 2, "{pypi:?}");
    for p in &pypi {
        assert!(
            setup.contains(&format!("`{p}`")),
            "README does not name the PyPI package {p}"
        );
    }
    let undo = setup.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        undo.contains(&format!("python3 -m pip uninstall {}", pypi.join(" "))),
        "{setup}"
    );
    // The service the etcd package starts is stopped by the script, and the README says so.
    assert!(prereqs.contains("systemctl disable --now etcd.service"));
    assert!(setup.contains("`etcd.service`") && setup.contains("stops and disables"));
    // The links and the demo directory, with their undo.
    assert!(
        undo.contains("rm ~/.cargo/bin/mcsctl ~/.cargo/bin/ignition"),
        "{setup}"
    );
    assert!(undo.contains("rm -rf ~/.cache/mcsctl-ci") && undo.contains("rm -rf mcs-assets"));
    // Install after setup: `cargo install` refuses to replace a file it did not install.
    let install = readme
        .lines()
        .find(|l| l.starts_with("cargo install "))
        .expect("an install command");
    assert!(install.contains("--force"), "{install}");
}
