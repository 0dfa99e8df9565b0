//! Where serve records first-boot reports (`POST /report/<pool>`): this replica's own file,
//! `auth/reports/<replica>.jsonl` (one writer per file, as the ledger: a line appended with one
//! `pwrite`, read by `machine list` with the other replicas' files), or, with `--store`, one
//! key per report under the store's `reports/` (written by the replica that received it, so
//! once across replicas). A report that cannot be recorded is answered 503, which the
//! machine's script retries.

use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::assets::AssetDir;
use crate::firstboot::Record;
use crate::ledger::Writer;

/// The store key of a report: under `reports/`, by pool, time and replica (and a count, so
/// two reports of one second never share a key).
pub fn store_key(r: &Record, n: u64) -> String {
    format!(
        "{}{}/{}-{}-{n}",
        crate::store::reports::REPORTS,
        r.pool,
        r.time,
        r.replica
    )
}

/// The place reports go.
pub(in crate::serve) enum Reports {
    /// This replica's file, opened at the first report.
    Files {
        path: PathBuf,
        writer: Mutex<Option<Writer>>,
    },
    /// The store replicas share.
    Store {
        store: Box<crate::store::Store>,
        next: AtomicU64,
    },
}

impl Reports {
    /// Reports of replica `replica` of `dir`, or of the store.
    pub(in crate::serve) fn new(
        dir: &AssetDir,
        replica: &str,
        store: Option<crate::store::Store>,
    ) -> Reports {
        match store {
            Some(store) => Reports::Store {
                store: Box::new(store),
                next: AtomicU64::new(0),
            },
            None => Reports::Files {
                path: dir
                    .path(crate::firstboot::DIR)
                    .join(format!("{replica}.jsonl")),
                writer: Mutex::new(None),
            },
        }
    }

    /// Records `r`; the error says why it could not be.
    pub(in crate::serve) async fn record(&self, r: &Record) -> Result<(), String> {
        let line = r.line();
        match self {
            Reports::Files { path, writer } => {
                let mut w = writer.lock().unwrap_or_else(|p| p.into_inner());
                if w.is_none() {
                    // Created 0600 in 0700 directories, and locked: one writer per file.
                    *w = Some(Writer::open(path).map_err(|e| format!("{e:#}"))?);
                }
                let Some(writer) = w.as_ref() else {
                    return Err("no report file".into());
                };
                writer
                    .append(&line)
                    .map(|_| ())
                    .map_err(|e| format!("writing {}: {e:#}", path.display()))
            }
            Reports::Store { store, next } => {
                let n = next.fetch_add(1, Ordering::Relaxed);
                store.put(&store_key(r, n), &line).await
            }
        }
    }
}
