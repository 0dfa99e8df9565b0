//! Appending to this replica's ledger: one `pwrite` per record at the end serve keeps, under
//! an exclusive lock on the file (`flock`) so that no other process appends to it meanwhile.

use std::fs::{File, OpenOptions, TryLockError};
use std::os::unix::fs::{FileExt, OpenOptionsExt};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use anyhow::{Context as _, Result, bail};

use crate::assets::SECRET_MODE;

/// A ledger open for appending, locked against every other writer.
#[derive(Debug)]
pub struct Writer {
    path: PathBuf,
    file: File,
    /// Where the next record goes. Held across the write, so records land in order with no
    /// gap between them (the kernel serializes writes to one file anyway).
    end: Mutex<u64>,
}

impl Writer {
    /// Opens (creating, 0600) the ledger at `path` and locks it. Another process holding the
    /// lock (a second serve given the same ledger) is an error: two writers would overwrite
    /// each other's records.
    pub fn open(path: &Path) -> Result<Writer> {
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)
                .with_context(|| format!("creating {}", parent.display()))?;
        }
        let file = OpenOptions::new()
            .create(true)
            .read(true)
            .write(true)
            .mode(SECRET_MODE)
            .open(path)
            .with_context(|| format!("opening the ledger {}", path.display()))?;
        match file.try_lock() {
            Ok(()) => {}
            Err(TryLockError::WouldBlock) => bail!(
                "the ledger {} is being written by another serve process (give each its own --ledger)",
                path.display()
            ),
            Err(TryLockError::Error(e)) => {
                return Err(e).with_context(|| format!("locking the ledger {}", path.display()));
            }
        }
        let w = Writer {
            path: path.to_path_buf(),
            end: Mutex::new(file.metadata()?.len()),
            file,
        };
        w.end_line()?;
        Ok(w)
    }

    /// After a kill in the middle of a write, the file ends in a torn line: the next record
    /// starts on a line of its own (the reader skips the torn one).
    fn end_line(&self) -> Result<()> {
        let mut end = self.lock();
        let mut last = [0u8; 1];
        if *end > 0 {
            self.file.read_exact_at(&mut last, *end - 1)?;
            if last[0] != b'\n' {
                self.write_at(b"\n", *end)?;
                *end += 1;
            }
        }
        Ok(())
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, u64> {
        self.end.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn write_at(&self, bytes: &[u8], at: u64) -> Result<()> {
        self.file
            .write_all_at(bytes, at)
            .with_context(|| format!("writing the ledger {}", self.path.display()))
    }

    /// Where it writes.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Appends `line` (ending in a newline) and returns where it starts. Once this returns,
    /// another process reads it and a kill of this one cannot lose it. A failed write leaves
    /// the end where it was: the next record overwrites whatever part of it landed.
    pub fn append(&self, line: &[u8]) -> Result<u64> {
        let mut end = self.lock();
        let at = *end;
        self.write_at(line, at)?;
        *end += line.len() as u64;
        Ok(at)
    }

    /// Rewrites `bytes` at `at`, inside a record already appended (the `"whole"` flag).
    pub fn rewrite(&self, at: u64, bytes: &[u8]) -> Result<()> {
        debug_assert!(at + bytes.len() as u64 <= *self.lock());
        self.write_at(bytes, at)
    }

    /// Flushes what was written to disk; appends go on meanwhile.
    pub fn sync(&self) -> Result<()> {
        self.file
            .sync_data()
            .with_context(|| format!("flushing the ledger {}", self.path.display()))
    }
}
