//! How help is laid out: the width it is wrapped at, and EXAMPLES set out for that width by
//! mcsctl itself, so clap never breaks a command in the middle (a command broken by the
//! wrapper, pasted into a shell, runs something else).

use std::io::IsTerminal;

/// The widest help is wrapped at on a terminal: wider lines are hard to read.
pub const READABLE: usize = 120;

/// The width when stdout is not a terminal (a pipe, a file, a pager, a golden test).
pub const PLAIN: usize = 80;

/// The narrowest width honoured: below it help is unreadable whatever is done.
const NARROWEST: usize = 40;

/// The width help is wrapped at: the terminal's, at most [`READABLE`], when stdout is a
/// terminal; [`PLAIN`] otherwise.
pub fn width() -> usize {
    if !std::io::stdout().is_terminal() {
        return PLAIN;
    }
    match console::Term::stdout().size_checked() {
        Some((_, cols)) => usize::from(cols).clamp(NARROWEST, READABLE),
        None => PLAIN,
    }
}

/// The examples of a command as its help shows them at `width`: indented by two; a comment
/// wider than that goes on over `#` lines; a command wider than that goes on over lines ending
/// in ` \`, broken only between its words, before an option where it can be (an option and its
/// value stay together), so each line is still the command as written when pasted.
pub fn examples(script: &str, width: usize) -> String {
    let mut out = Vec::new();
    for line in script.lines() {
        if 2 + line.chars().count() <= width {
            out.push(format!("  {line}"));
        } else if let Some(text) = line.strip_prefix("# ") {
            // Prose: an apostrophe is no quote.
            let prose: Vec<String> = text.split_whitespace().map(String::from).collect();
            for l in fill(&prose, width.saturating_sub(4)) {
                out.push(format!("  # {l}"));
            }
        } else {
            out.extend(command_lines(line, width));
        }
    }
    out.join("\n")
}

/// A command over lines ending in ` \`, the first indented by two, the rest by six.
fn command_lines(line: &str, width: usize) -> Vec<String> {
    // Groups: an option with the words after it that are not options (its values).
    let mut groups: Vec<String> = Vec::new();
    for w in words(line) {
        match groups.last_mut() {
            Some(g) if !w.starts_with('-') => {
                g.push(' ');
                g.push_str(&w);
            }
            _ => groups.push(w),
        }
    }
    // The first group is the program and its subcommand words: too long a line of them is
    // still broken between words rather than left wider than the help.
    let first = groups.remove(0);
    let mut out: Vec<String> = Vec::new();
    let mut cur = format!("  {first}");
    for g in groups {
        // Room is left for the ` \` that ends every line but the last.
        if cur.chars().count() + 1 + g.chars().count() + 2 > width {
            out.push(cur);
            cur = format!("      {g}");
        } else {
            cur.push(' ');
            cur.push_str(&g);
        }
    }
    out.push(cur);
    let last = out.len() - 1;
    out.iter_mut().take(last).for_each(|l| l.push_str(" \\"));
    out
}

/// The words of a line as a shell splits it: on spaces outside quotes, each quote kept.
fn words(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quote: Option<char> = None;
    for c in line.chars() {
        match (quote, c) {
            (None, ' ') => {
                if !cur.is_empty() {
                    out.push(std::mem::take(&mut cur));
                }
            }
            (None, '\'' | '"') => {
                quote = Some(c);
                cur.push(c);
            }
            (Some(q), _) if c == q => {
                quote = None;
                cur.push(c);
            }
            _ => cur.push(c),
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// Words filled into lines of at most `width` characters (a longer word alone on its line).
fn fill(words: &[String], width: usize) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    for w in words {
        if !cur.is_empty() && cur.chars().count() + 1 + w.chars().count() > width {
            out.push(std::mem::take(&mut cur));
        }
        if !cur.is_empty() {
            cur.push(' ');
        }
        cur.push_str(w);
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The lines joined as a shell joins ` \` continuations, and comments joined.
    fn joined(shown: &str) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        let mut open = false;
        for l in shown.lines() {
            let l = l.trim_start();
            match (open, out.last_mut()) {
                (true, Some(prev)) => prev.push_str(l),
                _ => out.push(l.to_string()),
            }
            open = l.ends_with(" \\");
            if open {
                let prev = out.last_mut().unwrap();
                prev.truncate(prev.len() - 1);
            }
        }
        out
    }

    #[test]
    fn every_example_fits_and_is_the_same_command_at_every_width() {
        for (path, script) in crate::cli::examples::EXAMPLES {
            for width in [NARROWEST, 60, PLAIN, 100, READABLE] {
                let shown = examples(script, width);
                for l in shown.lines() {
                    // Wider than the help only when nothing in it can be broken: one option
                    // and its value (a long image name at 40 columns).
                    let body = l.trim_start().trim_end_matches(" \\");
                    let one_group = !body.get(1..).unwrap_or("").contains(" -");
                    assert!(
                        l.chars().count() <= width || one_group,
                        "{path} at {width}: {l:?}"
                    );
                }
                let commands: Vec<String> = joined(&shown)
                    .into_iter()
                    .filter(|l| !l.starts_with('#'))
                    .collect();
                let want: Vec<String> = script
                    .lines()
                    .filter(|l| !l.starts_with('#'))
                    .map(|l| words(l).join(" "))
                    .collect();
                assert_eq!(commands, want, "{path} at {width}");
            }
        }
    }

    #[test]
    fn a_long_command_breaks_before_options_and_keeps_values_with_them() {
        let shown = examples(
            "mcsctl machine add w0 --pool worker --address 192.0.2.10 --ttl 2h --description 'first rack'",
            48,
        );
        assert_eq!(
            shown,
            "  mcsctl machine add w0 --pool worker \\\n      --address 192.0.2.10 --ttl 2h \\\n      --description 'first rack'"
        );
    }
}
