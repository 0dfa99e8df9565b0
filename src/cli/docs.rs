//! `completions` and `man`.

use std::path::PathBuf;

use clap::Args;

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
