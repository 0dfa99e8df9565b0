//! `mcsctl completions` and `mcsctl man`: generated from the clap definition, so they never
//! disagree with the binary.

use std::path::Path;

use anyhow::Result;

use crate::assets::{Overwrite, PUBLIC_MODE, write_atomic};

use crate::exit;
use crate::ui::Ui;
use clap::Args;
use std::path::PathBuf;

/// Arguments of `completions`.
#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// The shell to generate for.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

/// Arguments of `man`.
#[derive(Debug, Args)]
pub struct ManArgs {
    /// Directory to write the pages into (created when missing).
    #[arg(long, value_name = "DIR")]
    pub output: PathBuf,
}

/// Runs `completions`.
pub fn completions(args: &CompletionsArgs) -> Result<u8> {
    let mut out = Vec::new();
    clap_complete::generate(args.shell, &mut crate::cmd::command(), "mcsctl", &mut out);
    let mut stdout = std::io::stdout().lock();
    std::io::Write::write_all(&mut stdout, &out)?;
    Ok(exit::OK)
}

/// Text appended to every man page: the exit codes and the environment.
const EXIT_STATUS: &str = "0 success; 1 error; 2 usage error; 3 a check found something that needs attention soon \
(e.g. a certificate inside --warn-within); 4 a check failed (expired, not yet valid, broken chain, key mismatch, \
CA in a pointer config does not match the served certificate).";

/// Runs `man`: one page for `mcsctl` and one for every subcommand (`mcsctl-token-rotate.1`).
pub fn man(ui: &Ui, args: &ManArgs) -> Result<u8> {
    let cmd = crate::cmd::command();
    if ui.dry_run {
        ui.info(format!(
            "dry run: no man page written to {}",
            args.output.display()
        ));
        return Ok(exit::OK);
    }
    let written = write_pages(&cmd, &args.output)?;
    ui.info(format!(
        "wrote {written} man pages to {}",
        args.output.display()
    ));
    Ok(exit::OK)
}

/// Writes the man pages of `cmd` and its subcommands into `dir`; returns how many.
pub fn write_pages(cmd: &clap::Command, dir: &Path) -> Result<usize> {
    crate::assets::create_output_dir(dir)?;
    let mut cmd = cmd.clone();
    cmd.build();
    let mut count = 0;
    render(&cmd, "mcsctl", dir, &mut count)?;
    Ok(count)
}

fn render(cmd: &clap::Command, name: &str, dir: &Path, count: &mut usize) -> Result<()> {
    // The examples get a section of their own, as written (clap_mangen would fill them as
    // prose under EXTRA).
    let path = name
        .strip_prefix("mcsctl")
        .unwrap_or(name)
        .replace('-', " ");
    let examples = crate::cli::examples::of(path.trim());
    let page_cmd = cmd
        .clone()
        .name(name.to_string())
        .after_long_help(None::<&str>);
    let man = clap_mangen::Man::new(page_cmd);
    let mut buf = Vec::new();
    man.render(&mut buf)?;
    if let Some(e) = examples {
        buf.extend_from_slice(b".SH EXAMPLES\n.nf\n");
        for line in e.lines() {
            // A backslash is roff's escape; `\-` keeps `--flag` an ASCII minus when copied.
            let line = line.replace('\\', "\\e").replace('-', "\\-");
            let line = if line.starts_with(['.', '\'']) {
                format!("\\&{line}")
            } else {
                line
            };
            buf.extend_from_slice(line.as_bytes());
            buf.push(b'\n');
        }
        buf.extend_from_slice(b".fi\n");
    }
    buf.extend_from_slice(format!(".SH \"EXIT STATUS\"\n{EXIT_STATUS}\n.SH ENVIRONMENT\nMCSCTL_DIR sets --dir; NO_COLOR disables colour.\n").as_bytes());
    write_atomic(
        &dir.join(format!("{name}.1")),
        &buf,
        PUBLIC_MODE,
        Overwrite::Allow,
    )?;
    *count += 1;
    for sub in cmd.get_subcommands().filter(|s| s.get_name() != "help") {
        render(sub, &format!("{name}-{}", sub.get_name()), dir, count)?;
    }
    Ok(())
}
