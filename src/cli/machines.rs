//! `machine`: the machines a UPI cluster expects, each with its own pointer config.

use std::net::IpAddr;

use clap::{Args, Subcommand};

use super::values;
use super::{DirArg, FormatArg};
use crate::duration::Duration;

/// `machine` subcommands.
#[derive(Debug, Subcommand)]
pub enum MachineCommand {
    /// Register a machine: its own pointer config (machines/NAME.ign) with a token bound to
    /// it, scoped to its pool, single-use by default.
    Add(MachineAddArgs),
    /// List the registered machines (tokens by id, never secrets).
    List(MachineListArgs),
    /// Unregister a machine: its token is revoked, its pointer config removed.
    Remove(MachineRemoveArgs),
}

/// Arguments of `machine add`.
#[derive(Debug, Args)]
pub struct MachineAddArgs {
    /// The machine's node name (its kubelet asks as system:node:NAME).
    #[arg(
        value_name = "NAME",
        value_parser = values::dns_name,
        required_unless_present = "from",
        conflicts_with = "from"
    )]
    pub name: Option<String>,

    /// The pool whose config it fetches.
    #[arg(
        long,
        value_name = "POOL",
        value_parser = values::dns_label,
        required_unless_present = "from",
        conflicts_with = "from"
    )]
    pub pool: Option<String>,

    /// An address the machine is expected at (repeatable): a serving CSR may name it.
    #[arg(long = "ip", value_name = "ADDR", conflicts_with = "from")]
    pub ips: Vec<IpAddr>,

    /// Register every machine of a list: CSV lines `name,pool,addresses` (addresses separated
    /// by spaces or ';'), or YAML (a list of {name, pool, addresses}); - for stdin.
    #[arg(long, value_name = "FILE")]
    pub from: Option<std::path::PathBuf>,

    /// Lifetime of its token (e.g. 24h); default: no expiry.
    #[arg(long, value_name = "DUR", value_parser = values::duration)]
    pub ttl: Option<Duration>,

    /// How many full-config fetches its token allows (0: any number).
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub uses: u32,

    /// Replace a machine of that name (its old token is revoked).
    #[arg(long)]
    pub force: bool,

    /// The pool is new, not a typo: it may have no rendered config and not be in
    /// mcsctl.json's pools (it is added there). Without it such a pool is refused, naming
    /// the known ones.
    #[arg(long)]
    pub new_pool: bool,

    /// Publish the tokens to the store serve replicas share, once changed.
    #[command(flatten)]
    pub store: super::StoreArgs,

    /// `--dir` after the command..
    #[command(flatten)]
    pub dir: DirArg,

    /// `--format` after the command.
    #[command(flatten)]
    pub out: FormatArg,
}

/// Arguments of `machine list`.
#[derive(Debug, Args)]
pub struct MachineListArgs {
    /// Another replica's ledger to merge (repeatable); every <dir>/auth/ledger/*.jsonl is read.
    #[arg(long = "ledger", value_name = "FILE")]
    pub ledgers: Vec<std::path::PathBuf>,

    /// The cluster's CSRs (`oc get csr -o json`): each machine's trail goes on to its CSRs.
    #[arg(long, value_name = "FILE")]
    pub csrs: Option<std::path::PathBuf>,

    /// The cluster's Nodes (`oc get nodes -o json`): the trail ends at a Ready node.
    #[arg(long, value_name = "FILE")]
    pub nodes: Option<std::path::PathBuf>,

    /// The fetch records from the store serve replicas share, instead of ledger files.
    #[command(flatten)]
    pub store: super::StoreArgs,

    /// `--dir` after the command.
    #[command(flatten)]
    pub dir: DirArg,

    /// `--format` after the command.
    #[command(flatten)]
    pub out: FormatArg,
}

/// Arguments of `machine remove`.
#[derive(Debug, Args)]
pub struct MachineRemoveArgs {
    /// The machine's node name.
    #[arg(value_name = "NAME", value_parser = values::dns_name)]
    pub name: String,

    /// Publish the tokens to the store serve replicas share, once changed.
    #[command(flatten)]
    pub store: super::StoreArgs,

    /// `--dir` after the command..
    #[command(flatten)]
    pub dir: DirArg,

    /// `--format` after the command.
    #[command(flatten)]
    pub out: FormatArg,
}
