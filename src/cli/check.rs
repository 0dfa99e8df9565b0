//! `inspect` and `doctor`: checking the chain before a machine boots.

use std::path::PathBuf;

use clap::Args;

use super::values;
use super::{DirArg, FormatArg};
use crate::duration::Duration;
use crate::http::resolve::Resolve;
use crate::ignition::SpecVersion;

/// Arguments of `inspect`.
#[derive(Debug, Args)]
pub struct InspectArgs {
    /// PEM or DER certificates, pointer configs, Kubernetes Secret/ConfigMap YAML or JSON, or
    /// an asset directory (default: the --dir asset directory).
    #[arg(value_name = "TARGET")]
    pub targets: Vec<PathBuf>,

    /// Connect to a live TLS endpoint, show the chain it presents and check each named pointer
    /// config against it.
    #[arg(long, value_name = "HOST:PORT", value_parser = values::host_port)]
    pub remote: Option<String>,

    /// Server name to send (SNI) with --remote (default: the host of HOST:PORT).
    #[arg(long, value_name = "NAME", requires = "remote")]
    pub server_name: Option<String>,

    /// CA bundle to verify --remote against (default: the asset CA bundle when present).
    #[arg(long, value_name = "FILE", requires = "remote")]
    pub ca: Option<PathBuf>,

    /// Warn (exit 3) about certificates expiring within this duration.
    #[arg(long, default_value = "30d", value_name = "DUR", value_parser = values::duration)]
    pub warn_within: Duration,

    /// Another replica's ledger to read machine tokens' fetches from (repeatable); every
    /// <dir>/auth/ledger/*.jsonl is read.
    #[arg(long = "ledger", value_name = "FILE", conflicts_with = "store")]
    pub ledgers: Vec<PathBuf>,

    /// Where serve replicas keep machine tokens' fetches, read instead of the ledger files.
    #[command(flatten)]
    pub store: super::StoreArgs,

    /// `--dir` after the command.
    #[command(flatten)]
    pub dir: DirArg,

    /// `--format` after the command.
    #[command(flatten)]
    pub out: FormatArg,
}

/// Arguments of `doctor`.
#[derive(Debug, Args)]
pub struct DoctorArgs {
    /// The pointer config to check (default: <dir>/worker.ign).
    #[arg(value_name = "POINTER")]
    pub pointer: Option<PathBuf>,

    /// Use ADDR for HOST instead of DNS, like curl: HOST:ADDR or HOST:PORT:ADDR; repeatable.
    #[arg(long, value_name = "HOST:ADDR", value_parser = values::resolve)]
    pub resolve: Vec<Resolve>,

    /// The newest Ignition spec the simulated client reads (Ignition 2.14 reads 3.3.0, 2.20
    /// reads 3.5.0); a newer pointer config fails at step parse.
    #[arg(long, default_value = "3.3.0", value_name = "V", value_parser = values::spec)]
    pub ignition_spec: SpecVersion,

    /// Time allowed for each network step.
    #[arg(long, default_value = "10s", value_name = "DUR", value_parser = values::duration)]
    pub timeout: Duration,

    /// Fetch the config even when the pointer's token has limited uses (a machine's
    /// single-use token): that spends one, and the machine then gets 401. Without it such a
    /// token is checked with HEAD (TLS, auth, its state), which spends nothing.
    #[arg(long)]
    pub fetch: bool,

    /// `--dir` after the command.
    #[command(flatten)]
    pub dir: DirArg,

    /// `--format` after the command.
    #[command(flatten)]
    pub out: FormatArg,
}
