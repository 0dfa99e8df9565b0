//! `mcsctl ledger import`: the ledger files' history brought into the store, so a token spent
//! before the move stays spent on every replica after it.

use anyhow::Result;
use serde::Serialize;

use super::claims::update;
use super::{Store, fetch_key};
use crate::ledger::Record;

/// What an import did.
#[derive(Debug, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Imported {
    /// Records read from the files.
    pub records: usize,
    /// Of them, written to the store now (the others were there from an earlier import).
    pub added: usize,
    /// Tokens whose fetch counts now include the files' history.
    pub tokens: usize,
}

/// Imports the ledger files of `dir` and `extra` into `store`, as the files are read (a batch of
/// [`super::BATCH`] records at a time, so a ledger of any length in bounded memory): each
/// record under `fetches/<token>/import-<identity>` (a whole one replaces what an earlier
/// import wrote of the same fetch, a cut one never replaces anything), and each token of
/// `limited` (limited uses) has its whole and cut fetches counted in its claim state, once
/// however many times this runs, so a token spent before the move stays spent on every replica
/// after it. With `dry`, the store is read, never written.
pub async fn import(
    store: &Store,
    dir: &crate::assets::AssetDir,
    extra: &[std::path::PathBuf],
    limited: std::collections::HashSet<String>,
    dry: bool,
    now: i64,
) -> Result<Imported> {
    // Reached before anything is said of it, with records to import or none.
    store.ping().await.map_err(anyhow::Error::msg)?;
    // The files are read on a thread of their own, at most a few batches ahead.
    let (tx, mut rx) = tokio::sync::mpsc::channel::<Record>(2 * super::BATCH);
    let (dir, extra) = (dir.clone(), extra.to_vec());
    let reader = std::thread::spawn(move || {
        crate::ledger::scan_files(&dir, &extra, |r| {
            tx.blocking_send(r)
                .map_err(|_| anyhow::anyhow!("the import stopped"))
        })
    });
    let mut out = Imported::default();
    let mut by_token: std::collections::BTreeMap<String, Vec<(String, String, bool)>> =
        Default::default();
    let mut batch = Vec::with_capacity(super::BATCH);
    loop {
        let next = rx.recv().await;
        let done = next.is_none();
        if let Some(r) = next {
            let claim = format!("import-{:016x}", crate::ledger::identity(&r));
            let text = serde_json::to_string(&r)?;
            if limited.contains(&r.token) {
                let recs = by_token.entry(r.token.clone()).or_default();
                recs.push((claim.clone(), text.clone(), r.whole));
            }
            batch.push(super::BatchPut {
                rel: fetch_key(&r.token, &claim),
                value: text.into_bytes(),
                replace: r.whole,
            });
            out.records += 1;
        }
        if batch.len() == super::BATCH || (done && !batch.is_empty()) {
            out.added += store
                .write_batch(&batch, dry)
                .await
                .map_err(anyhow::Error::msg)?;
            batch.clear();
        }
        if done {
            break;
        }
    }
    // The reader's error (a damaged file) is the import's.
    reader
        .join()
        .map_err(|_| anyhow::anyhow!("reading the ledger files failed"))??;
    for (token, recs) in by_token {
        if !dry {
            count_imported(store, &token, &recs, now).await?;
        }
        out.tokens += 1;
    }
    Ok(out)
}

/// Adds `recs` (claim, record, whole) not counted yet to `token`'s claim state.
async fn count_imported(
    store: &Store,
    token: &str,
    recs: &[(String, String, bool)],
    now: i64,
) -> Result<()> {
    update(store, token, None, now, &[], |s| {
        for (claim, text, whole) in recs {
            if !s.imported.contains(claim) {
                s.count(*whole, text);
                s.imported.push(claim.clone());
                if !whole {
                    s.imported_cut.push(claim.clone());
                }
            } else if *whole && s.imported_cut.contains(claim) {
                // Counted cut while it was being sent; it went out whole: spent after all.
                // (Never the other way: a whole fetch counted stays spent.)
                s.imported_cut.retain(|c| c != claim);
                s.cut = s.cut.saturating_sub(1);
                s.whole += 1;
                s.first_whole.get_or_insert_with(|| text.clone());
            }
        }
        Ok::<_, String>(())
    })
    .await
    .map_err(anyhow::Error::msg)
}
