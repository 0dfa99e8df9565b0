//! Every clap type of the command line. No logic lives here: handlers in `cmd/` take these
//! structs and call the domain modules, which never see clap. Structured values (durations,
//! spec versions, names, addresses) are parsed by clap through [`values`], so a bad one is a
//! usage error (exit 2) before any handler runs.
//!
//! `--dir` and `--format` are accepted before the command and after it, by the commands they
//! mean something to; `-q`, `-v` and `--non-interactive` anywhere. All five are listed under
//! "Global options" in every help page that has them.

mod check;
mod csr;
mod deploy;
mod docs;
pub mod examples;
mod machines;
mod pki;
mod store;
mod tokens;
pub mod values;

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

pub use check::*;
pub use csr::*;
pub use deploy::*;
pub use docs::*;
pub use machines::*;
pub use pki::*;
pub use store::*;
pub use tokens::*;

use crate::ui::Format;

/// The command definition as the binary parses, documents and completes it: the derived one
/// with each command's examples ([`examples::attach`]).
pub fn command() -> clap::Command {
    examples::attach(<Cli as clap::CommandFactory>::command())
}

/// Parses the process's arguments (exiting with clap's usage error, or printing help).
pub fn parse() -> Cli {
    let m = command().get_matches();
    <Cli as clap::FromArgMatches>::from_arg_matches(&m).unwrap_or_else(|e| e.exit())
}

/// The help heading of the options every command shares.
pub const GLOBAL: &str = "Global options";

/// Installer and PKI toolkit for the Machine Config Server (MCS) trust chain.
///
/// mcsctl creates the MCS CA and serving certificate, writes Ignition pointer configs that carry
/// the CA and a bearer provisioning token, rotates tokens with a grace period, and inspects the
/// whole chain for the mismatches that make a booting machine fail with
/// "x509: certificate signed by unknown authority".
///
/// Exit codes: 0 success; 1 error; 2 usage error; 3 a check found something that needs attention
/// soon (e.g. a certificate inside --warn-within or past 80% of its life); 4 a check failed
/// (expired, not yet valid, broken chain, key mismatch, CA in a pointer config does not match
/// the served certificate).
#[derive(Debug, Parser)]
#[command(
    name = "mcsctl",
    version,
    propagate_version = true,
    help_expected = true
)]
#[command(max_term_width = 100)]
pub struct Cli {
    /// Global options.
    #[command(flatten)]
    pub global: GlobalArgs,

    /// The command to run.
    #[command(subcommand)]
    pub command: Command,
}

impl Command {
    /// What the command needs of its `--dir`. A command added later needs an asset directory
    /// unless it is listed here.
    pub fn dir_use(&self) -> crate::assets::DirUse {
        use crate::assets::DirUse;
        match self {
            Command::Init(_) => DirUse::Creates,
            Command::Ca(CaCommand::Create(_) | CaCommand::Import(_)) => DirUse::StartsStepByStep,
            Command::Inspect(_) | Command::Doctor(_) | Command::Csr(_) => DirUse::WhenThere,
            Command::Completions(_) | Command::Man(_) | Command::Version(_) => DirUse::None,
            _ => DirUse::Assets,
        }
    }
}

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

    /// Print only data and errors; no progress or next steps.
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

/// The commands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Create the whole asset directory in one step: CA, serving certificate, token, pointer configs.
    Init(InitArgs),
    /// Create, import or rotate the MCS CA.
    #[command(subcommand)]
    Ca(CaCommand),
    /// Issue or renew the MCS serving certificate.
    #[command(subcommand)]
    Cert(CertCommand),
    /// Write an Ignition pointer config for a pool.
    Pointer(PointerArgs),
    /// Manage bearer provisioning tokens.
    #[command(subcommand)]
    Token(TokenCommand),
    /// Register the machines a UPI cluster expects, each with its own single-use pointer config.
    #[command(subcommand)]
    Machine(MachineCommand),
    /// Check expiry and consistency of certificates, pointer configs, the asset directory or a live endpoint.
    Inspect(InspectArgs),
    /// Render MachineConfigs into rendered/<pool>.ign and the pre-approval subset.
    Render(RenderArgs),
    /// Serve rendered configs over TLS to booting machines (the Machine Config Server).
    Serve(ServeArgs),
    /// Do what Ignition does with a pointer config, step by step, and say which step fails.
    Doctor(DoctorArgs),
    /// Review kubelet CSRs by the cluster-machine-approver's rules, or sign one.
    #[command(subcommand)]
    Csr(CsrCommand),
    /// Write Kubernetes objects for the cluster, and optionally a Deployment running `mcsctl serve`.
    Manifests(ManifestsArgs),
    /// Move the provisioning ledger files into the store serve replicas share.
    #[command(subcommand)]
    Ledger(LedgerCommand),
    /// Print a static shell completion script to stdout (commands and flags). For completions
    /// that also offer the asset directory's pools, token ids and machines, have the shell ask
    /// mcsctl: `source <(COMPLETE=bash mcsctl)` in ~/.bashrc (zsh alike; fish: `COMPLETE=fish
    /// mcsctl | source`).
    Completions(CompletionsArgs),
    /// Write one man page per command into a directory.
    Man(ManArgs),
    /// Print mcsctl's version, the commit and target it was built for, and the TLS and Ignition
    /// spec versions it speaks.
    Version(VersionArgs),
}

/// Arguments of `version`.
#[derive(Debug, Args)]
pub struct VersionArgs {
    /// `--format` after the command.
    #[command(flatten)]
    pub out: FormatArg,
}
