//! Appending to this replica's ledger: one `pwrite` per record at an offset taken from a
//! counter (no lock is held across the write), under an exclusive lock on the file (`flock`)
//! so that no other process appends to it meanwhile.
//!
//! Two records written at once may land out of order: for a moment the earlier one's place is
//! NUL bytes before the later one. A reader that follows the file waits a poll for such a gap
//! to fill ([`super::Scanner`]); one a kill left (a place taken, never written) stays NULs,
//! which every reader skips: its fetch was never answered.
//!
//! Confirming records (their `"whole"` flag) is done in batches: the appends are held back for
//! a moment ([`Writer::confirm`] takes the gate every append passes), a stretch of the file
//! holding many flags is read, patched and written back in one `pread` and one `pwrite`. With
//! the gate held no write is in flight, so the stretch written back is the file as it is.

use std::fs::{File, OpenOptions, TryLockError};
use std::os::unix::fs::{FileExt, OpenOptionsExt};
use std::path::{Path, PathBuf};
use std::sync::RwLock;
use std::sync::atomic::{AtomicU64, Ordering};

use anyhow::{Context as _, Result, bail};

use crate::assets::SECRET_MODE;

/// A ledger open for appending, locked against every other writer.
#[derive(Debug)]
pub struct Writer {
    path: PathBuf,
    file: File,
    /// Where the next record goes.
    end: AtomicU64,
    /// Every append passes it shared; a confirmation holds it alone.
    gate: RwLock<()>,
}

/// The longest stretch of the ledger read and written back at once to confirm records.
const STRETCH: u64 = 64 * 1024;

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
            end: AtomicU64::new(file.metadata()?.len()),
            gate: RwLock::new(()),
            file,
        };
        w.end_line()?;
        Ok(w)
    }

    /// After a kill in the middle of a write, the file ends in a torn line: the next record
    /// starts on a line of its own (the reader skips the torn one).
    fn end_line(&self) -> Result<()> {
        let end = self.end.load(Ordering::Relaxed);
        let mut last = [0u8; 1];
        if end > 0 {
            self.file.read_exact_at(&mut last, end - 1)?;
            if last[0] != b'\n' {
                self.append(b"\n")?;
            }
        }
        Ok(())
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
    /// its place unwritten (NULs, skipped by readers).
    pub fn append(&self, line: &[u8]) -> Result<u64> {
        let _pass = self.gate.read().unwrap_or_else(|p| p.into_inner());
        let at = self.end.fetch_add(line.len() as u64, Ordering::Relaxed);
        self.write_at(line, at)?;
        Ok(at)
    }

    /// Rewrites the `"whole":false` at each of `flags` (where [`super::Record::line`] put it,
    /// in records this writer appended) to `"whole":true `, a stretch of the file at a time.
    /// A place that does not hold `false` (a record whose write failed) is left alone.
    pub fn confirm(&self, mut flags: Vec<u64>) -> Result<()> {
        flags.sort_unstable();
        let mut rest = &flags[..];
        let mut buf = Vec::new();
        while let Some(&first) = rest.first() {
            let n = rest.partition_point(|&f| f + 5 <= first + STRETCH);
            let (run, next) = rest.split_at(n.max(1));
            rest = next;
            let last = run[run.len() - 1];
            buf.resize((last + 5 - first) as usize, 0);
            let _alone = self.gate.write().unwrap_or_else(|p| p.into_inner());
            self.file
                .read_exact_at(&mut buf, first)
                .with_context(|| format!("reading the ledger {}", self.path.display()))?;
            for &f in run {
                let at = (f - first) as usize;
                if &buf[at..at + 5] == b"false" {
                    buf[at..at + 5].copy_from_slice(super::WHOLE);
                }
            }
            self.write_at(&buf, first)?;
        }
        Ok(())
    }

    /// Flushes what was written to disk; appends go on meanwhile.
    pub fn sync(&self) -> Result<()> {
        self.file
            .sync_data()
            .with_context(|| format!("flushing the ledger {}", self.path.display()))
    }
}
