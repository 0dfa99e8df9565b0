//! The first-boot reports serve replicas recorded in the store: one key each under
//! `reports/<pool>/`, written once by the replica that received the report.

use anyhow::Result;

use super::Store;
use crate::firstboot::Record;

/// The keys' prefix, under the cluster's.
pub const REPORTS: &str = "reports/";

/// Reports read a page at a time: a page stays well under gRPC's 4 MiB answer (a report is at
/// most 32 KiB).
const PAGE: i64 = 100;

impl Store {
    /// Every report recorded, oldest first; a key that holds no report is skipped.
    pub async fn reports(&self) -> Result<Vec<Record>> {
        let mut out = Vec::new();
        self.pages(REPORTS, PAGE, |kvs| {
            out.extend(
                kvs.iter()
                    .filter_map(|kv| serde_json::from_slice::<Record>(kv.value()).ok()),
            );
        })
        .await?;
        out.sort_by(|a, b| a.time.cmp(&b.time));
        Ok(out)
    }
}
