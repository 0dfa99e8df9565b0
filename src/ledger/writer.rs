//! Appending to this replica's ledger: a copy into the mapped region past its last record
//! ([`super::region`]), at an offset taken from a counter (no lock is held across the copy),
//! under an exclusive lock on the file (`flock`) so that no other process appends to it
//! meanwhile. A record that falls past the region is written with `pwrite`, and the next
//! region is mapped. While serve writes, the file ends in the region's zeros (readers skip
//! NULs); when it stops, and when a writer opens a file a kill left so, they are cut off.
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

use super::region::{Placed, Region};

use anyhow::{Context as _, Result, bail};

use crate::assets::SECRET_MODE;

/// A ledger open for appending, locked against every other writer.
#[derive(Debug)]
pub struct Writer {
    path: PathBuf,
    file: File,
    /// The mapped region, with where the next record goes. Every append passes it shared; a
    /// confirmation, a new region and the close hold it alone. `None` once closed.
    gate: RwLock<Option<Region>>,
}

/// A region with less room left than this is replaced (a record is far smaller).
const ROOM: u64 = 16 * 1024;

/// Where the records of a ledger end: before the zeros a region left (serve killed while it
/// wrote), cut off here; a last line a kill cut short gets its newline, so the next record
/// starts a line of its own (the reader skips the torn one).
fn records_end(file: &File) -> std::io::Result<u64> {
    let mut end = file.metadata()?.len();
    let mut buf = vec![0u8; 64 * 1024];
    while end > 0 {
        let from = end.saturating_sub(buf.len() as u64);
        let chunk = &mut buf[..(end - from) as usize];
        file.read_exact_at(chunk, from)?;
        match chunk.iter().rposition(|&b| b != 0) {
            Some(i) => {
                end = from + i as u64 + 1;
                break;
            }
            None => end = from,
        }
    }
    file.set_len(end)?;
    if end > 0 && last_byte(file, end)? != b'\n' {
        file.write_all_at(b"\n", end)?;
        end += 1;
    }
    Ok(end)
}

fn last_byte(file: &File, end: u64) -> std::io::Result<u8> {
    let mut last = [0u8; 1];
    file.read_exact_at(&mut last, end - 1)?;
    Ok(last[0])
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
        let end = records_end(&file).with_context(|| format!("reading {}", path.display()))?;
        let region = Region::map(&file, end)
            .with_context(|| format!("preparing the ledger {}", path.display()))?;
        Ok(Writer {
            path: path.to_path_buf(),
            gate: RwLock::new(Some(region)),
            file,
        })
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
        let (at, full) = {
            let region = self.gate.read().unwrap_or_else(|p| p.into_inner());
            let Some(r) = region.as_ref() else {
                bail!("the ledger {} is closed", self.path.display());
            };
            let at = match r.append(line) {
                Placed::Mapped(at) => at,
                Placed::Beyond(at) => {
                    self.write_at(line, at)?;
                    at
                }
            };
            (at, r.nearly_full(ROOM))
        };
        if full {
            // Failing that, records go on being written past the region, with pwrite.
            let _ = self.grow();
        }
        Ok(at)
    }

    /// Maps the next region, from the end of the records.
    fn grow(&self) -> Result<()> {
        let mut region = self.gate.write().unwrap_or_else(|p| p.into_inner());
        if let Some(r) = region.as_ref()
            && r.nearly_full(ROOM)
        {
            *region = Some(Region::map(&self.file, r.end())?);
        }
        Ok(())
    }

    /// Drops the region and cuts the file at the end of its records (serve stopping).
    pub fn close(&self) -> Result<()> {
        let mut region = self.gate.write().unwrap_or_else(|p| p.into_inner());
        if let Some(r) = region.take() {
            let end = r.end();
            drop(r);
            self.file
                .set_len(end)
                .with_context(|| format!("closing the ledger {}", self.path.display()))?;
        }
        Ok(())
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
