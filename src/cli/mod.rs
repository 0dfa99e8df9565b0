//! What the commands' clap arguments share: `--dir`, `--format`, the global options, the
//! store's flags ([`StoreArgs`]), the typed value parsers ([`values`]) and each command's
//! EXAMPLES ([`examples`]). Each command's own arguments live beside its handler in `cmd/`. No
//! logic lives here, and the domain modules never see clap. Structured values (durations,
//! spec versions, names, addresses) are parsed by clap through [`values`], so a bad one is a
//! usage error (exit 2) before any handler runs.
//!
//! `--dir` and `--format` are accepted before the command and after it, by the commands they
//! mean something to; `-q`, `-v` and `--non-interactive` anywhere. All five are listed under
//! "Global options" in every help page that has them.

pub mod examples;
pub mod help;
mod store;
pub mod values;

use std::path::PathBuf;

use clap::Args;

pub use store::*;

use crate::ui::Format;

/// The help heading of the options every command shares.
pub const GLOBAL: &str = "Global options";

/// Options given before the command.
#[derive(Debug, Args)]
pub struct GlobalArgs {
    /// Asset directory: CA, serving certificate, tokens, pointer configs (default: $MCSCTL_DIR,
    /// else mcs-assets); also accepted after the command.
    #[arg(long, value_name = "DIR", help_heading = GLOBAL)]
    pub dir: Option<PathBuf>,

    /// Output format of the data written to stdout (default text); also accepted after the
    /// command. `-o` as in oc and kubectl.
    #[arg(short = 'o', long, value_enum, value_name = "FORMAT", help_heading = GLOBAL)]
    pub format: Option<Format>,

    /// Print only data, warnings and errors: no progress, no report of what was written, no
    /// next steps.
    #[arg(
        short,
        long,
        global = true,
        conflicts_with = "verbose",
        help_heading = GLOBAL
    )]
    pub quiet: bool,

    /// Also print, on stderr, each file read and written and each decision taken.
    #[arg(short, long, global = true, help_heading = GLOBAL)]
    pub verbose: bool,

    /// Never prompt; fail naming missing values instead (implied when stdin is not a terminal).
    #[arg(long, global = true, help_heading = GLOBAL)]
    pub non_interactive: bool,

    /// Do everything but write: the command's checks run and its report says what it would
    /// write; no file, no store, no new asset directory is touched.
    #[arg(long, global = true, help_heading = GLOBAL)]
    pub dry_run: bool,

    /// The most bytes read from one input file, stdin or HTTP response (default 32MiB);
    /// larger inputs are refused.
    #[arg(
        long,
        global = true,
        value_name = "SIZE",
        env = "MCSCTL_MAX_INPUT_SIZE",
        value_parser = values::size,
        help_heading = GLOBAL
    )]
    pub max_input_size: Option<u64>,
}

/// `--new-pool`, for the commands that name a pool: read as [`NewPool`](crate::model::NewPool).
#[derive(Debug, Clone, Default, Args)]
pub struct NewPoolArg {
    /// The pool is new, not a typo: it may have no rendered config and not be in
    /// mcsctl.json's pools (it is added there). Without it such a pool is refused, naming
    /// the known ones.
    #[arg(long = "new-pool")]
    pub new_pool: bool,
}

impl NewPoolArg {
    /// The flag as the workflows take it.
    pub fn get(&self) -> crate::model::NewPool {
        crate::model::NewPool::of(self.new_pool)
    }
}

/// `--dir` after the command, for the commands that use an asset directory.
#[derive(Debug, Clone, Default, Args)]
pub struct DirArg {
    /// Asset directory: CA, serving certificate, tokens, pointer configs (default: $MCSCTL_DIR,
    /// else mcs-assets).
    #[arg(long = "dir", value_name = "DIR", help_heading = GLOBAL)]
    pub dir: Option<PathBuf>,
}

impl DirArg {
    /// The asset directory the user named: `--dir` after the command, else before it, else
    /// `$MCSCTL_DIR`; `None` for the default (`mcs-assets`).
    pub fn named(after: Option<&DirArg>, before: Option<&PathBuf>) -> Option<PathBuf> {
        after
            .and_then(|d| d.dir.clone())
            .or_else(|| before.cloned())
            .or_else(|| {
                std::env::var_os("MCSCTL_DIR")
                    .filter(|v| !v.is_empty())
                    .map(PathBuf::from)
            })
    }
}

/// `--format` after the command, for the commands that print data.
#[derive(Debug, Clone, Default, Args)]
pub struct FormatArg {
    /// Output format of the data written to stdout (default text); `-o` as in oc and kubectl.
    #[arg(short = 'o', long = "format", value_enum, value_name = "FORMAT", help_heading = GLOBAL)]
    pub format: Option<Format>,
}
