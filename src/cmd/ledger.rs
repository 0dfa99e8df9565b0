//! `mcsctl ledger import`.

use anyhow::Result;

use crate::assets::AssetDir;
use crate::cli::StoreArgs;
use crate::exit;
use crate::ui::Ui;
use clap::Args;
use std::path::PathBuf;
use time::OffsetDateTime;

/// `ledger` subcommands.
#[derive(Debug, clap::Subcommand)]
pub enum LedgerCommand {
    /// Import the ledger files (<dir>/auth/ledger/*.jsonl and --ledger) into the store: every
    /// fetch record, and each single-use token's fetches counted there, so a token spent
    /// before the move stays spent on every replica after it. Run it again at will: a record
    /// is imported once.
    #[command(
        after_help = "Examples:\n  mcsctl ledger import --store etcd://10.0.0.5:2379,10.0.0.6:2379,10.0.0.7:2379 --store-ca ca.crt\n  mcsctl ledger import --store etcd://etcd-0:2379 --store-ca ca.crt --store-cert c.crt --store-key c.key --ledger copy-of-replica-b.jsonl"
    )]
    Import(LedgerImportArgs),
}

/// Arguments of `ledger import`.
#[derive(Debug, Args)]
pub struct LedgerImportArgs {
    /// Another replica's ledger to import too (repeatable).
    #[arg(long = "ledger", value_name = "FILE")]
    pub ledgers: Vec<PathBuf>,

    /// The store to import into (--store is required).
    #[command(flatten)]
    pub store: StoreArgs,

    /// `--dir` after the command.
    #[command(flatten)]
    pub dir: crate::cli::DirArg,

    /// `--format` after the command.
    #[command(flatten)]
    pub out: crate::cli::FormatArg,
}

/// Runs `ledger import`.
pub fn import(ui: &Ui, dir: &AssetDir, a: &LedgerImportArgs, now: OffsetDateTime) -> Result<u8> {
    let Some(o) = a.store.options()? else {
        return Err(exit::usage(
            "ledger import needs --store etcd://HOST:PORT[,HOST:PORT...]: the store to import into",
        ));
    };
    let (_lock, snap) = super::load(ui, dir)?;
    let Some(cfg) = &snap.config else {
        anyhow::bail!(
            "{} has no mcsctl.json: the store's keys are the cluster's",
            dir.root().display()
        );
    };
    // A token with limited uses has its fetches counted in the store; any other token's
    // records are evidence only.
    let limited = snap
        .tokens
        .iter()
        .flat_map(|s| &s.tokens)
        .filter(|t| t.uses.is_some())
        .map(|t| t.id.clone())
        .collect();
    let url = o.url.to_string();
    let done = crate::store::blocking(async {
        let s = crate::store::Store::connect(&o, &cfg.cluster_domain()).await?;
        let now = now.unix_timestamp();
        crate::store::import::import(&s, dir, &a.ledgers, limited, ui.dry_run, now).await
    })?;
    if ui.structured() {
        ui.out_json(&done)?;
    } else {
        ui.report(format!(
            "{} {} of {} record(s) into {url} ({} there already); {} single-use token(s) {}\n",
            ui.did("imported", "dry run: would import"),
            done.added,
            done.records,
            done.records - done.added,
            done.tokens,
            ui.did("counted", "to count"),
        ))?;
    }
    Ok(exit::OK)
}
