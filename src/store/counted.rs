//! The fetch records of a token with unlimited uses, bounded: its first [`KEEP`] fetches are
//! kept as records (the evidence `csr review` and `machine list` read), later ones only
//! counted (`counts/<token>`), so a machine that fetches forever cannot grow the store without
//! bound or make a read of its records too large to answer.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use super::{Store, Swap, claims};

/// Records kept per token with unlimited uses.
pub const KEEP: u32 = 1_000;

/// Where a token's counts live, under the prefix.
pub const COUNTS: &str = "counts/";

/// A token's fetches as counted.
#[derive(Debug, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Counted {
    /// Fetches kept as records.
    recorded: u32,
    /// Fetches past [`KEEP`], counted only.
    more: u64,
}

impl Store {
    /// Counts a fetch of `token` (unlimited uses), writing `record` at `fetch_key` while it has
    /// fewer than [`KEEP`] records; whether it did.
    pub async fn count_fetch(
        &self,
        token: &str,
        fetch_key: &str,
        record: &[u8],
    ) -> Result<bool, String> {
        let key = format!("{COUNTS}{token}");
        for _ in 0..claims::ATTEMPTS {
            let v = self.get(&key).await?;
            let mut c: Counted = serde_json::from_slice(&v.value).unwrap_or_default();
            let recorded = c.recorded < KEEP;
            if recorded {
                c.recorded += 1;
            } else {
                c.more = c.more.saturating_add(1);
            }
            let bytes = serde_json::to_vec(&c).map_err(|e| e.to_string())?;
            let mut puts: Vec<(&str, &[u8])> = vec![(&key, &bytes)];
            if recorded {
                puts.push((fetch_key, record));
            }
            if self.swap(&key, v.revision, None, &puts).await? == Swap::Done {
                return Ok(recorded);
            }
        }
        Err(format!(
            "the store's count of token {token}'s fetches changed {} times in a row",
            claims::ATTEMPTS
        ))
    }

    /// The fetches of each token past its records (token id → how many).
    pub async fn unrecorded(&self) -> Result<HashMap<String, u64>, String> {
        let prefix = self.key(COUNTS);
        let r = self
            .kv(|mut kv| {
                let (key, end) = (prefix.clone(), super::prefix_end(&prefix));
                let o = etcd_client::GetOptions::new().with_range(end);
                async move { kv.get(key, Some(o)).await }
            })
            .await?;
        Ok(r.kvs()
            .iter()
            .filter_map(|kv| {
                let token = std::str::from_utf8(&kv.key()[prefix.len()..]).ok()?;
                let c: Counted = serde_json::from_slice(kv.value()).ok()?;
                (c.more > 0 && crate::token::is_token_id(token))
                    .then(|| (token.to_string(), c.more))
            })
            .collect())
    }
}
