//! The first-boot reports serve replicas recorded in the store: one key each under
//! `reports/<pool>/`, written once by the replica that received the report.

use anyhow::{Result, anyhow};
use etcd_client::GetOptions;

use super::{Store, prefix_end};
use crate::firstboot::Record;

/// The keys' prefix, under the cluster's.
pub const REPORTS: &str = "reports/";

/// Reports read a page at a time: a page stays well under gRPC's 4 MiB answer (a report is at
/// most 32 KiB).
const PAGE: i64 = 100;

impl Store {
    /// Every report recorded, oldest first; a key that holds no report is skipped.
    pub async fn reports(&self) -> Result<Vec<Record>> {
        let prefix = self.key(REPORTS);
        let end = prefix_end(&prefix);
        let mut from = prefix.clone().into_bytes();
        let mut out = Vec::new();
        loop {
            let r = self
                .kv(|mut kv| {
                    let (key, end) = (from.clone(), end.clone());
                    let o = GetOptions::new().with_range(end).with_limit(PAGE);
                    async move { kv.get(key, Some(o)).await }
                })
                .await
                .map_err(|e| anyhow!(e))?;
            out.extend(
                r.kvs()
                    .iter()
                    .filter_map(|kv| serde_json::from_slice::<Record>(kv.value()).ok()),
            );
            let Some(last) = r.kvs().last() else { break };
            if !r.more() {
                break;
            }
            from = last.key().to_vec();
            from.push(0);
        }
        out.sort_by(|a, b| a.time.cmp(&b.time));
        Ok(out)
    }
}
