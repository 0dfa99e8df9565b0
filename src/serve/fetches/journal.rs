//! This replica's confirms the store has not taken yet (`--store`): a fetch that went out
//! whole is written here (one JSON line) before its confirm is sent, and the file is emptied
//! once every confirm written is in the store. A serve started again finds what is left and
//! confirms it: a whole fetch whose replica was killed (or lost the store) before the store
//! took its confirm stays counted whole, not unknown (`store::claims`, rule 3).
//!
//! Its path is the replica's ledger's with `.confirming` for `.jsonl` (never read as a
//! ledger); it is locked while serve runs, so two serves of one replica name refuse to share
//! it. The lines hold what the ledger's do: ids and names, never a secret; 0600 all the same.

use std::fs::{File, OpenOptions};
use std::io::{BufRead, Write};
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use serde::{Deserialize, Serialize};

/// Lines read back at start, at most (a journal is emptied at each moment nothing is
/// outstanding: it holds what one outage of the store left).
const MAX_ENTRIES: usize = 100_000;

/// One confirm not yet in the store.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(super) struct Entry {
    /// The token's id.
    pub token: String,
    /// The claim.
    pub claim: String,
    /// The record, `"whole":true`.
    pub record: String,
}

/// The journal, open and locked.
pub(super) struct Journal {
    path: PathBuf,
    inner: Mutex<Inner>,
}

struct Inner {
    file: File,
    /// Entries written (or read back) whose confirm is not in the store yet.
    outstanding: usize,
}

/// Why the journal could not be used.
pub(super) enum Unopened {
    /// Another serve holds it: this one must not start.
    Held(String),
    /// It cannot be read or written (a read-only directory): serve goes on without it.
    Failed(String),
}

/// The journal's path beside the ledger at `ledger`.
pub(super) fn path_for(ledger: &Path) -> PathBuf {
    ledger.with_extension("confirming")
}

impl Journal {
    /// Opens (creating it 0600, its directories 0700) and locks the journal at `path`; returns
    /// it and the confirms a run before left.
    pub(super) fn open(path: &Path) -> Result<(Journal, Vec<Entry>), Unopened> {
        let failed = |what: &str, e: &dyn std::fmt::Display| {
            Unopened::Failed(format!("{what} {}: {e}", path.display()))
        };
        if let Some(dir) = path.parent() {
            crate::ledger::private_dirs(dir)
                .map_err(|e| failed("creating the directory of", &e))?;
        }
        let file = OpenOptions::new()
            .read(true)
            .append(true)
            .create(true)
            .mode(0o600)
            .custom_flags(libc::O_NOFOLLOW)
            .open(path)
            .map_err(|e| failed("opening", &e))?;
        match file.try_lock() {
            Ok(()) => {}
            Err(std::fs::TryLockError::WouldBlock) => {
                return Err(Unopened::Held(format!(
                    "{} is held by another serve of this replica name: give each replica its own --ledger",
                    path.display()
                )));
            }
            Err(std::fs::TryLockError::Error(e)) => return Err(failed("locking", &e)),
        }
        if !file.metadata().is_ok_and(|m| m.is_file()) {
            return Err(failed("reading", &"not a regular file"));
        }
        let mut left = Vec::new();
        for line in std::io::BufReader::new(&file).lines() {
            let line = line.map_err(|e| failed("reading", &e))?;
            // A line a kill cut short was never followed by its confirm's send: the fetch's
            // end mark stands, and it stays unknown (never given back).
            if let Ok(e) = serde_json::from_str::<Entry>(&line) {
                left.push(e);
            }
            if left.len() >= MAX_ENTRIES {
                break;
            }
        }
        let outstanding = left.len();
        Ok((
            Journal {
                path: path.to_path_buf(),
                inner: Mutex::new(Inner { file, outstanding }),
            },
            left,
        ))
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Writes `e` before its confirm is sent (into the page cache: a kill -9 keeps it).
    pub(super) fn add(&self, e: &Entry) -> Result<(), String> {
        let mut line = serde_json::to_vec(e).expect("an entry serialises");
        line.push(b'\n');
        let mut inner = self.lock();
        inner.outstanding += 1;
        inner
            .file
            .write_all(&line)
            .map_err(|err| format!("writing {}: {err}", self.path.display()))
    }

    /// A confirm written is in the store; once none is left, the file is emptied.
    pub(super) fn done(&self) -> Result<(), String> {
        let mut inner = self.lock();
        inner.outstanding = inner.outstanding.saturating_sub(1);
        if inner.outstanding == 0 {
            inner
                .file
                .set_len(0)
                .map_err(|err| format!("emptying {}: {err}", self.path.display()))?;
        }
        Ok(())
    }
}
