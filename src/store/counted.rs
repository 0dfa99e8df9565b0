//! The fetch records of a token with unlimited uses, bounded: its first [`KEEP`] fetches are
//! kept as records (the evidence `csr review` and `machine list` read), later ones only
//! counted, so a machine that fetches forever cannot grow the store without bound or make a
//! read of its records too large to answer.
//!
//! The count is kept per serve process (`counts/<token>/<holder>`, written only by that
//! process, its running total), so no two replicas contend for one key; readers add them up.

use std::collections::HashMap;

use etcd_client::GetOptions;

use super::{FETCHES, Store};

/// Records kept per token with unlimited uses (a few more when fetches race at the bound).
pub const KEEP: u32 = 1_000;

/// Where the counts live, under the prefix.
pub const COUNTS: &str = "counts/";

impl Store {
    /// Whether token `token` has [`KEEP`] records or more.
    pub async fn records_full(&self, token: &str) -> Result<bool, String> {
        let key = self.key(&format!("{FETCHES}{token}/"));
        let r = self
            .kv(|mut kv| {
                let key = key.clone();
                let o = GetOptions::new().with_prefix().with_count_only();
                async move { kv.get(key, Some(o)).await }
            })
            .await?;
        Ok(r.count() >= i64::from(KEEP))
    }

    /// Writes `total`, the fetches of `token` past its records that holder `holder` counted.
    pub async fn put_count(&self, token: &str, holder: &str, total: u64) -> Result<(), String> {
        self.put(
            &format!("{COUNTS}{token}/{holder}"),
            total.to_string().as_bytes(),
        )
        .await
    }

    /// The fetches of each token past its records (token id → how many, every holder's).
    pub async fn unrecorded(&self) -> Result<HashMap<String, u64>, String> {
        let prefix = self.key(COUNTS);
        let r = self
            .kv(|mut kv| {
                let (key, end) = (prefix.clone(), super::prefix_end(&prefix));
                let o = GetOptions::new().with_range(end);
                async move { kv.get(key, Some(o)).await }
            })
            .await?;
        let mut out: HashMap<String, u64> = HashMap::new();
        for kv in r.kvs() {
            let Ok(rel) = std::str::from_utf8(&kv.key()[prefix.len()..]) else {
                continue;
            };
            let Some((token, _holder)) = rel.split_once('/') else {
                continue;
            };
            let n = std::str::from_utf8(kv.value())
                .ok()
                .and_then(|v| v.parse::<u64>().ok());
            if let (Some(n), true) = (n, crate::token::is_token_id(token)) {
                let t = out.entry(token.to_string()).or_default();
                *t = t.saturating_add(n);
            }
        }
        Ok(out)
    }
}
