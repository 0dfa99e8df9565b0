//! How commands talk to the user: data to stdout (text or JSON), progress, warnings and next
//! steps to stderr; colour only on a terminal and never with `NO_COLOR`.

use std::io::{IsTerminal, Write};
use std::time::Duration;

use anyhow::Result;
use serde::Serialize;

/// Output format of stdout data.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Format {
    /// Text for people.
    #[default]
    Text,
    /// One JSON document.
    Json,
    /// The same document in YAML, as `oc -o yaml` writes objects.
    Yaml,
}

impl Format {
    /// The name used on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Format::Text => "text",
            Format::Json => "json",
            Format::Yaml => "yaml",
        }
    }
}

/// How a status word is coloured on a terminal: what the report's own level says of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tone {
    /// Green.
    Good,
    /// Yellow.
    Caution,
    /// Red.
    Bad,
}

/// The user interface of one run.
#[derive(Debug, Clone)]
pub struct Ui {
    /// stdout format.
    pub format: Format,
    /// Only data and errors.
    pub quiet: bool,
    /// Extra detail on stderr.
    pub verbose: bool,
    /// Prompts allowed (stdin is a terminal and --non-interactive was not given).
    pub interactive: bool,
    /// `--dry-run`: workflows run, changes are not committed.
    pub dry_run: bool,
    color_out: bool,
    color_err: bool,
}

/// How much a command says besides its data (`-q`, `-v`; clap refuses both at once).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verbosity {
    /// `-q`: data and errors only.
    Quiet,
    /// The default: data, then progress and next steps on stderr.
    Normal,
    /// `-v`: also each file read and written and each decision taken.
    Verbose,
}

/// Whether a command may ask (`--non-interactive`: never).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Prompts {
    /// When stdin and stderr are a terminal.
    WhenATerminal,
    /// Never: a missing value is an error naming it.
    Never,
}

impl Ui {
    /// Builds the interface from the global options and the terminal state.
    pub fn new(format: Format, talk: Verbosity, prompts: Prompts) -> Ui {
        let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
        Ui {
            format,
            quiet: talk == Verbosity::Quiet,
            verbose: talk == Verbosity::Verbose,
            interactive: prompts == Prompts::WhenATerminal
                && std::io::stdin().is_terminal()
                && std::io::stderr().is_terminal(),
            dry_run: false,
            color_out: !no_color && std::io::stdout().is_terminal(),
            color_err: !no_color && std::io::stderr().is_terminal(),
        }
    }

    /// `done`, or with `--dry-run` `would` (a result line says what a dry run would have done).
    pub fn did<'a>(&self, done: &'a str, would: &'a str) -> &'a str {
        if self.dry_run { would } else { done }
    }

    /// Whether stdout wants a document (JSON or YAML) rather than text.
    pub fn structured(&self) -> bool {
        self.format != Format::Text
    }

    /// A progress or informational line on stderr (suppressed by --quiet).
    pub fn info(&self, msg: impl AsRef<str>) {
        if !self.quiet {
            eprintln!("{}", crate::escape::text(msg.as_ref(), false));
        }
    }

    /// A decision, on stderr with --verbose (as the files read and written are).
    pub fn detail(&self, msg: impl AsRef<str>) {
        if self.verbose {
            eprintln!("- {}", crate::escape::text(msg.as_ref(), false));
        }
    }

    /// A warning on stderr (shown even with --quiet: it needs attention).
    pub fn warn(&self, msg: impl AsRef<str>) {
        let prefix = if self.color_err {
            console::style("warning:").yellow().bold().to_string()
        } else {
            "warning:".into()
        };
        eprintln!("{prefix} {}", crate::escape::text(msg.as_ref(), false));
    }

    /// An error on stderr that does not end the command (a pool refused while the others are
    /// written): the command exits 1 after it.
    pub fn error(&self, msg: impl AsRef<str>) {
        let prefix = if self.color_err {
            console::style("error:").red().bold().to_string()
        } else {
            "error:".into()
        };
        eprintln!("{prefix} {}", crate::escape::text(msg.as_ref(), false));
    }

    /// Writes text data to stdout, with controls and bidi characters from inputs escaped
    /// (JSON is written as serde_json escapes it).
    pub fn out(&self, text: impl AsRef<str>) -> Result<()> {
        self.write_out(text.as_ref())
    }

    /// A report of what the command did (the files it wrote, what it rotated or removed) on
    /// stdout; nothing with `-q`, which leaves data and errors: `--format json` gives the same
    /// facts to scripts. Data (a token, a list, a pointer config to stdout) goes by [`Ui::out`].
    pub fn report(&self, text: impl AsRef<str>) -> Result<()> {
        if self.quiet {
            return Ok(());
        }
        self.write_out(text.as_ref())
    }

    fn write_out(&self, text: &str) -> Result<()> {
        let text = if self.structured() {
            std::borrow::Cow::Borrowed(text)
        } else {
            crate::escape::text(text, self.color_out)
        };
        let mut o = std::io::stdout().lock();
        o.write_all(text.as_bytes())?;
        o.flush()?;
        Ok(())
    }

    /// Writes the document to stdout: pretty JSON (fields in their declared order), or YAML
    /// as `sigs.k8s.io/yaml` writes it (keys sorted, as `oc -o yaml`). Under `--dry-run` a
    /// document that is an object says so first, `"dryRun": true`, so that a script reading it
    /// cannot take what would be done for what was.
    pub fn out_json<T: Serialize>(&self, value: &T) -> Result<()> {
        if self.format == Format::Yaml {
            let mut doc = serde_json::to_value(value)?;
            if self.dry_run
                && let Some(o) = doc.as_object_mut()
            {
                o.entry(DRY_RUN_KEY).or_insert(true.into());
            }
            return self.out(crate::golang::yaml::marshal(&doc));
        }
        let mut s = serde_json::to_string_pretty(value)?;
        // Only a dry run's document is looked at as a value (whether it says so already).
        if self.dry_run
            && serde_json::to_value(value)?
                .as_object()
                .is_some_and(|o| !o.contains_key(DRY_RUN_KEY))
        {
            // serde_json's map sorts its keys; the declared order is kept by marking the text:
            // a pretty object starts "{" and a newline, or is "{}".
            s = match s.strip_prefix("{\n") {
                Some(rest) => format!("{{\n  \"{DRY_RUN_KEY}\": true,\n{rest}"),
                None => format!("{{\n  \"{DRY_RUN_KEY}\": true\n}}"),
            };
        }
        s.push('\n');
        self.out(s)
    }

    /// Colours a status word for a stdout table by its tone, when stdout is a terminal.
    pub fn status_word(&self, word: &str, tone: Tone) -> String {
        if !self.color_out {
            return word.to_string();
        }
        let style = match tone {
            Tone::Good => console::Style::new().green(),
            Tone::Caution => console::Style::new().yellow(),
            Tone::Bad => console::Style::new().red().bold(),
        };
        style.apply_to(word).to_string()
    }

    /// Runs `f` with a spinner on stderr when stderr is a terminal and not --quiet.
    pub fn with_spinner<T>(&self, msg: &str, f: impl FnOnce() -> T) -> T {
        if self.quiet || !std::io::stderr().is_terminal() {
            return f();
        }
        let pb = indicatif::ProgressBar::new_spinner();
        pb.set_message(msg.to_string());
        pb.enable_steady_tick(Duration::from_millis(100));
        let r = f();
        pb.finish_and_clear();
        r
    }
}

/// `-v`: the records mcsctl's own modules log (each file read and written, each decision), one
/// line each on stderr, marked "- ". Records of dependencies (rustls) stay out.
struct VerboseLog;

impl log::Log for VerboseLog {
    fn enabled(&self, m: &log::Metadata<'_>) -> bool {
        m.level() <= log::Level::Info && m.target().starts_with("mcsctl")
    }

    fn log(&self, r: &log::Record<'_>) {
        if self.enabled(r.metadata()) {
            eprintln!("- {}", crate::escape::text(&r.args().to_string(), false));
        }
    }

    fn flush(&self) {}
}

static VERBOSE_LOG: VerboseLog = VerboseLog;

/// The field a structured report made under `--dry-run` carries.
const DRY_RUN_KEY: &str = "dryRun";

/// Turns the `-v` lines on.
pub fn enable_verbose_log() {
    if log::set_logger(&VERBOSE_LOG).is_ok() {
        log::set_max_level(log::LevelFilter::Info);
    }
}

/// Says why and where a command stopped on a signal (one line, see
/// `assets::interrupt`), puts a cursor a prompt hid back, and exits with `code`.
pub fn stopped(line: &str, code: i32) {
    let term = console::Term::stderr();
    if term.is_term() {
        let _ = term.show_cursor();
        eprintln!();
    }
    eprintln!("mcsctl: {}", crate::escape::text(line, false));
    std::process::exit(code);
}

/// Renders rows as left-aligned columns separated by two spaces (no trailing spaces).
pub fn table(header: &[&str], rows: &[Vec<String>]) -> String {
    // A cell is one value: a line break in it (a CSR subject, a file name) must not start a
    // line of its own.
    let rows: Vec<Vec<String>> = rows
        .iter()
        .map(|r| {
            r.iter()
                .map(|c| {
                    if c.contains(['\n', '\r']) {
                        c.replace('\n', "\\n").replace('\r', "\\r")
                    } else {
                        c.clone()
                    }
                })
                .collect()
        })
        .collect();
    let rows = rows.as_slice();
    let mut widths: Vec<usize> = header.iter().map(|h| h.chars().count()).collect();
    for r in rows {
        for (i, c) in r.iter().enumerate() {
            if i < widths.len() {
                widths[i] = widths[i].max(visible_len(c));
            }
        }
    }
    let line = |cells: Vec<&str>| {
        let mut s = String::new();
        let last = cells.len().saturating_sub(1);
        for (i, c) in cells.iter().enumerate() {
            s.push_str(c);
            if i < last {
                s.push_str(&" ".repeat(widths[i] - visible_len(c) + 2));
            }
        }
        s.trim_end().to_string() + "\n"
    };
    let mut out = line(header.to_vec());
    for r in rows {
        out.push_str(&line(r.iter().map(String::as_str).collect()));
    }
    out
}

fn visible_len(s: &str) -> usize {
    console::measure_text_width(s)
}

#[cfg(test)]
mod tests {
    #[test]
    fn table_aligns() {
        let t = super::table(&["A", "BB"], &[vec!["xxx".into(), "y".into()]]);
        assert_eq!(t, "A    BB\nxxx  y\n");
    }
}
