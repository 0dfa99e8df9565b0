//! `mcsctl ledger import`.

use anyhow::Result;

use crate::assets::AssetDir;
use crate::cli::LedgerImportArgs;
use crate::exit;
use crate::ui::Ui;
use time::OffsetDateTime;

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
        ui.out(format!(
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
