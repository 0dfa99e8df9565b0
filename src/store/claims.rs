//! A machine token's fetches as the store keeps them (`claims/<token>`): how many went out
//! whole, how many were cut, which are being sent on any replica, and which records of the
//! ledger files were imported (`mcsctl ledger import`). Changed only by compare-and-swap on the
//! key's revision: serve claims and settles through it, the import adds the files' history.

use std::time::Duration;

use anyhow::Result;
use serde::{Deserialize, Serialize};
use time::OffsetDateTime;

use super::{Store, Versioned, claims_key, fetch_key};
use crate::ledger::Record;

/// Attempts of one compare-and-swap before giving up (replicas changing one token at once).
pub const ATTEMPTS: u32 = 16;

/// A token's fetches.
#[derive(Debug, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TokenState {
    /// Fetches that went out whole.
    pub whole: u32,
    /// Fetches cut off before their end.
    pub cut: u32,
    /// The first whole fetch's record (a refused replay names it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first_whole: Option<String>,
    /// The latest cut fetch's record.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_cut: Option<String>,
    /// The fetches being sent, on any replica.
    #[serde(default)]
    pub sending: Vec<Sending>,
    /// The ledger files' records counted here already (their import keys).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub imported: Vec<String>,
    /// Of them, those counted as cut: counted again as whole if a later import finds the
    /// fetch went out whole after all (it was being sent at the first import).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub imported_cut: Vec<String>,
}

/// A fetch being sent.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Sending {
    /// Its claim (`<replica>-<nonce>-<n>`).
    pub claim: String,
    /// When it was claimed, Unix seconds.
    pub since: i64,
    /// Its record, `"whole":false`.
    pub record: String,
}

impl TokenState {
    /// The state in `v` (absent: no fetch yet).
    pub fn read(v: &Versioned) -> Result<TokenState, String> {
        if v.revision == 0 {
            return Ok(TokenState::default());
        }
        serde_json::from_slice(&v.value).map_err(|e| format!("the store's claim state: {e}"))
    }

    /// Claims older than a connection can live count as cut (their replica died, or lost
    /// the store before it could say).
    pub fn settle(&mut self, now: OffsetDateTime, settle: Duration) {
        let now = now.unix_timestamp();
        let (old, live): (Vec<Sending>, Vec<Sending>) = std::mem::take(&mut self.sending)
            .into_iter()
            .partition(|s| now - s.since >= settle.as_secs() as i64);
        self.sending = live;
        for s in old {
            self.cut += 1;
            self.last_cut = Some(s.record);
        }
    }

    /// Counts a settled record (whole or cut).
    pub fn count(&mut self, whole: bool, text: &str) {
        if whole {
            self.whole += 1;
            self.first_whole.get_or_insert_with(|| text.to_string());
        } else {
            self.cut += 1;
            self.last_cut = Some(text.to_string());
        }
    }

    /// The state as stored.
    pub fn json(&self) -> Vec<u8> {
        serde_json::to_vec(self).expect("a claim state serialises")
    }
}

/// Changes `token`'s claim state by `f` in one compare-and-swap on its revision, with the
/// `also` writes in the same transaction; when another writer changed it first, reads it again
/// and retries (at most [`ATTEMPTS`] times). An error of `f` stops without writing anything.
/// The one way the claim state changes: serve's claims and settlements, and the import.
pub async fn update<T, E: From<String>>(
    store: &Store,
    token: &str,
    also: &[(&str, &[u8])],
    mut f: impl FnMut(&mut TokenState) -> Result<T, E>,
) -> Result<T, E> {
    let key = claims_key(token);
    for _ in 0..ATTEMPTS {
        let v = store.get(&key).await?;
        let mut s = TokenState::read(&v)?;
        let out = f(&mut s)?;
        let json = s.json();
        let mut puts: Vec<(&str, &[u8])> = vec![(key.as_str(), json.as_slice())];
        puts.extend_from_slice(also);
        if store.swap(&key, v.revision, &puts).await? {
            return Ok(out);
        }
    }
    Err(E::from(format!(
        "the store: token {token}'s fetches kept changing under other writers; try again"
    )))
}

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
            count_imported(store, &token, &recs).await?;
        }
        out.tokens += 1;
    }
    Ok(out)
}

/// Adds `recs` (claim, record, whole) not counted yet to `token`'s claim state.
async fn count_imported(store: &Store, token: &str, recs: &[(String, String, bool)]) -> Result<()> {
    update(store, token, &[], |s| {
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
