//! `pointer` and `token`: what a booting machine carries.

use std::path::PathBuf;

use clap::{Args, Subcommand};

use super::values::{self, UrlArg};
use super::{DirArg, FormatArg};
use crate::duration::Duration;
use crate::ignition::SpecVersion;
use crate::ignition::pointer::Transport;

/// Arguments of `pointer`.
#[derive(Debug, Args)]
pub struct PointerArgs {
    /// Machine pool (a DNS label, e.g. worker or master).
    #[arg(long, value_name = "POOL", value_parser = values::dns_label)]
    pub pool: String,

    /// Merge source URL, or the MCS address (HOST[:PORT], completed with /config/<pool>);
    /// remembered for the pool in mcsctl.json (default: init --url, else
    /// https://api-int.<cluster>.<base-domain>:22623/config/<pool>).
    #[arg(long, value_name = "URL", value_parser = values::merge_url)]
    pub url: Option<UrlArg>,

    /// Ignition spec version (3.0.0 to 3.4.0; default from mcsctl.json).
    #[arg(long, value_name = "V", value_parser = values::pointer_spec)]
    pub spec_version: Option<SpecVersion>,

    /// How the token is carried (default from mcsctl.json; none for no token).
    #[arg(long, value_enum, value_name = "TRANSPORT")]
    pub token_transport: Option<Transport>,

    /// Where to write: a file, or - for stdout (default <dir>/<pool>.ign).
    #[arg(long, value_name = "FILE")]
    pub output: Option<PathBuf>,

    /// Write the config base64-encoded, as cloud user-data fields expect.
    #[arg(long)]
    pub base64: bool,

    /// Replace an existing file.
    #[arg(long)]
    pub force: bool,

    /// The pool is new, not a typo: it may have no rendered config and not be in
    /// mcsctl.json's pools (it is added there). Without it such a pool is refused, naming
    /// the known ones.
    #[arg(long)]
    pub new_pool: bool,

    /// `--dir` after the command.
    #[command(flatten)]
    pub dir: DirArg,

    /// `--format` after the command.
    #[command(flatten)]
    pub out: FormatArg,
}

/// `token` subcommands.
#[derive(Debug, Subcommand)]
pub enum TokenCommand {
    /// Create a new token; it becomes current (and goes into pointer configs) when none is.
    Create(TokenCreateArgs),
    /// Make a new current token, keep the old one valid for --grace, rewrite every pointer config.
    Rotate(TokenRotateArgs),
    /// List tokens (ids, states, expiry; never secrets).
    List(TokenListArgs),
    /// Revoke a token by id.
    Revoke(TokenRevokeArgs),
    /// Remove expired and revoked tokens from auth/tokens.json.
    Prune(TokenPruneArgs),
    /// Publish the directory's tokens to the store serve replicas share (again, after a
    /// publish failed, or to move the directory to another store).
    #[command(
        long_about = "Publish the directory's tokens to the store serve replicas share: the store mcsctl.json remembers (the first --store command's), or --store, which moves the directory there. What the store holds is reconciled first: a token revoked there (by another copy of this directory) is revoked here too, and a live token there that this directory lacks is refused, naming it, as is a store holding another asset directory's tokens. Digests only, never a secret."
    )]
    Publish(TokenPublishArgs),
}

/// Arguments of `token create`.
#[derive(Debug, Args)]
pub struct TokenCreateArgs {
    /// Lifetime of the token (e.g. 24h, 30d); default: no expiry.
    #[arg(long, value_name = "DUR", value_parser = values::duration)]
    pub ttl: Option<Duration>,

    /// Free-text description shown by `token list`.
    #[arg(long, value_name = "TEXT")]
    pub description: Option<String>,

    /// Print a ready pointer config carrying the new token on stdout, as `kubeadm token create
    /// --print-join-command` prints a join command.
    #[arg(long)]
    pub print_pointer: bool,

    /// A pool whose config the token may fetch; repeatable (default: every pool of
    /// mcsctl.json). With --print-pointer, the pointer config printed is the first pool's.
    #[arg(long = "pool", value_name = "POOL", value_parser = values::dns_label)]
    pub pools: Vec<String>,

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

/// Arguments of `token rotate`.
#[derive(Debug, Args)]
pub struct TokenRotateArgs {
    /// How long the previous current token stays valid.
    #[arg(long, default_value = "1h", value_name = "DUR", value_parser = values::grace)]
    pub grace: Duration,

    /// Lifetime of the new token; default: no expiry.
    #[arg(long, value_name = "DUR", value_parser = values::duration)]
    pub ttl: Option<Duration>,

    /// Free-text description of the new token.
    #[arg(long, value_name = "TEXT")]
    pub description: Option<String>,

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

/// Arguments of `token list`.
#[derive(Debug, Args)]
pub struct TokenListArgs {
    /// `--dir` after the command.
    #[command(flatten)]
    pub dir: DirArg,

    /// `--format` after the command.
    #[command(flatten)]
    pub out: FormatArg,
}

/// Arguments of `token revoke`.
#[derive(Debug, Args)]
pub struct TokenRevokeArgs {
    /// Token id (the 6 characters before the dot). Checked by the command, not by the parser:
    /// a whole token pasted by mistake must not be echoed in the error.
    #[arg(value_name = "ID")]
    pub id: String,

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

/// Arguments of `token publish`.
#[derive(Debug, Args)]
pub struct TokenPublishArgs {
    /// The store to publish to (default: the one mcsctl.json remembers).
    #[command(flatten)]
    pub store: super::StoreArgs,

    /// `--dir` after the command.
    #[command(flatten)]
    pub dir: DirArg,

    /// `--format` after the command.
    #[command(flatten)]
    pub out: FormatArg,
}

/// Arguments of `token prune`.
#[derive(Debug, Args)]
pub struct TokenPruneArgs {
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
