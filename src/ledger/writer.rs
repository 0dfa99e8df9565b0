//! Appending to this replica's ledger: each record is one `pwrite` at an offset taken from a
//! counter (no lock is held across the write), under an exclusive lock on the file (`flock`)
//! so that no other mcsctl appends to it meanwhile. Appends and flag rewrites take `&self` and
//! run at once on every worker; [`Writer::health`] and [`Writer::rewrite`] take `&mut self`,
//! so the caller holds every append off while they run.
//!
//! Nothing is mapped into memory: a mapping of a file another process can truncate turns that
//! truncation into `SIGBUS` at the next store (`logrotate`'s `copytruncate` did exactly that).
//! A record written past the end of a truncated file leaves a hole of NULs before it, which
//! readers skip. [`Writer::health`] finds what happened at the next poll: the file shorter than
//! what was written, longer (another hand wrote to it), another file at its path, none, or NULs
//! in what was written since the last check (read back from the page cache: a poll's worth of
//! records); the caller then rewrites the ledger from what it holds.

use std::fs::{File, OpenOptions, TryLockError};
use std::os::unix::fs::{FileExt, MetadataExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use anyhow::{Context as _, Result, bail};

use crate::assets::SECRET_MODE;

/// A ledger open for appending, locked against every other writer.
#[derive(Debug)]
pub struct Writer {
    path: PathBuf,
    file: Arc<File>,
    /// The file's (device, inode), to notice it replaced or removed under us.
    id: (u64, u64),
    /// Where the next record goes: the end of every place taken.
    end: AtomicU64,
    /// Up to where what was written has been checked ([`Writer::health`]).
    checked: u64,
    /// How many times the file was rewritten: a place taken before a rewrite is not one in
    /// the new file.
    generation: u64,
}

/// What became of the ledger's file since it was opened (or last checked).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Health {
    /// It is as written.
    Intact,
    /// Cut short (`truncate`, `logrotate`'s `copytruncate`): what was written from `at` on is
    /// gone (NULs there, or the file ends there).
    Truncated {
        /// Where the damage starts.
        at: u64,
        /// Where the records written end.
        end: u64,
    },
    /// Longer than the records written: another hand wrote to it.
    Appended {
        /// Its length.
        len: u64,
        /// Where the records written end.
        end: u64,
    },
    /// Another file is at its path (renamed away, a file moved in its place).
    Replaced,
    /// Nothing is at its path.
    Removed,
}

/// Where the records of a ledger end: trailing NULs (a place a kill left unwritten, or the
/// zeros an earlier mcsctl mapped ahead of its records) are cut off; a last line a kill cut
/// short gets its newline, so the next record starts a line of its own (readers skip the torn
/// one).
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

/// Creates the missing directories of `dir` 0700 whatever the umask (a ledger holds which
/// machine fetched from where); existing ones are left as they are.
pub(crate) fn private_dirs(dir: &Path) -> Result<()> {
    if dir.as_os_str().is_empty() || dir.is_dir() {
        return Ok(());
    }
    if let Some(parent) = dir.parent() {
        private_dirs(parent)?;
    }
    use std::os::unix::fs::DirBuilderExt;
    match std::fs::DirBuilder::new().mode(0o700).create(dir) {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && dir.is_dir() => return Ok(()),
        Err(e) => return Err(e).with_context(|| format!("creating {}", dir.display())),
    }
    // The mode given to mkdir is cut by the umask; only tightened here, never widened.
    std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700))
        .with_context(|| format!("setting the mode of {}", dir.display()))
}

/// Takes the exclusive lock of the ledger `file` at `path`.
fn lock(file: &File, path: &Path) -> Result<()> {
    match file.try_lock() {
        Ok(()) => Ok(()),
        Err(TryLockError::WouldBlock) => bail!(
            "the ledger {} is being written by another serve process (give each its own --ledger)",
            path.display()
        ),
        Err(TryLockError::Error(e)) => {
            Err(e).with_context(|| format!("locking the ledger {}", path.display()))
        }
    }
}

fn id_of(m: &std::fs::Metadata) -> (u64, u64) {
    (m.dev(), m.ino())
}

impl Writer {
    /// Opens (creating it 0600, and its missing directories 0700, whatever the umask) the
    /// ledger at `path` and locks it. Another process holding the lock (a second serve given
    /// the same ledger) is an error: two writers would overwrite each other's records.
    pub fn open(path: &Path) -> Result<Writer> {
        if let Some(parent) = path.parent() {
            private_dirs(parent)?;
        }
        let file = OpenOptions::new()
            .create(true)
            .read(true)
            .write(true)
            .mode(SECRET_MODE)
            .open(path)
            .with_context(|| format!("opening the ledger {}", path.display()))?;
        lock(&file, path)?;
        let end = records_end(&file).with_context(|| format!("reading {}", path.display()))?;
        let id = id_of(&file.metadata()?);
        Ok(Writer {
            path: path.to_path_buf(),
            file: Arc::new(file),
            id,
            end: AtomicU64::new(end),
            checked: end,
            generation: 0,
        })
    }

    /// Where it writes.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Appends `line` (ending in a newline) and returns where it starts. Once this returns,
    /// another process reads it and a kill of this one cannot lose it (it is in the page
    /// cache). A failed write leaves its place unwritten (NULs, skipped by readers, and found
    /// by the next [`Writer::health`]).
    pub fn append(&self, line: &[u8]) -> Result<u64> {
        let at = self.end.fetch_add(line.len() as u64, Ordering::Relaxed);
        self.file
            .write_all_at(line, at)
            .with_context(|| format!("writing the ledger {}", self.path.display()))?;
        Ok(at)
    }

    /// How many times the file was rewritten ([`Writer::rewrite`]): a place returned by
    /// [`Writer::append`] is one in the file of that generation only.
    pub fn generation(&self) -> u64 {
        self.generation
    }

    /// Rewrites the `"whole":false` whose `false` starts at `at` (where [`super::Record::line`]
    /// put it, in a record this writer wrote) to `flag`: [`super::WHOLE`] once the response went
    /// out whole, [`super::CUT`] once serve saw it cut off. The same length, so no other byte
    /// moves.
    pub fn mark(&self, at: u64, flag: &[u8; 5]) -> Result<()> {
        self.file
            .write_all_at(flag, at)
            .with_context(|| format!("writing the ledger {}", self.path.display()))
    }

    /// The open file, to flush it without holding up the appends.
    pub fn file(&self) -> Arc<File> {
        self.file.clone()
    }

    /// Whether the file at its path is still the one it writes, as long as it wrote it and
    /// without holes in what it wrote since the last check (read back from the page cache).
    /// With `&mut self` no append is in flight: every place taken is written.
    pub fn health(&mut self) -> Result<Health> {
        let what = || format!("reading {}", self.path.display());
        let here = match std::fs::metadata(&self.path) {
            Ok(m) => m,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Health::Removed),
            Err(e) => return Err(e).with_context(what),
        };
        if id_of(&here) != self.id {
            return Ok(Health::Replaced);
        }
        let end = *self.end.get_mut();
        let len = self.file.metadata().with_context(what)?.len();
        if len < end {
            return Ok(Health::Truncated { at: len, end });
        }
        if len > end {
            return Ok(Health::Appended { len, end });
        }
        // From the newline that ended what was checked last: a cut before it, filled since
        // by later records, left NULs there too.
        let mut buf = vec![0u8; 64 * 1024];
        let mut from = self.checked.min(end).saturating_sub(1);
        while from < end {
            let n = buf.len().min((end - from) as usize);
            self.file
                .read_exact_at(&mut buf[..n], from)
                .with_context(what)?;
            if let Some(i) = buf[..n].iter().position(|&b| b == 0) {
                let at = hole_start(&self.file, from + i as u64).with_context(what)?;
                return Ok(Health::Truncated { at, end });
            }
            from += n as u64;
        }
        self.checked = end;
        Ok(Health::Intact)
    }

    /// Replaces the ledger by a new file holding `lines` (each ending in a newline), written
    /// whole and renamed over its path (0600, locked before it appears there), and writes there
    /// from now on. Returns where each line starts.
    pub fn rewrite(&mut self, lines: &[&[u8]]) -> Result<Vec<u64>> {
        let dir = match self.path.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        };
        private_dirs(&dir)?;
        let what = || format!("rewriting the ledger {}", self.path.display());
        let tmp = tempfile::Builder::new()
            .prefix(".ledger-")
            .permissions(std::fs::Permissions::from_mode(SECRET_MODE))
            .tempfile_in(&dir)
            .with_context(what)?;
        lock(tmp.as_file(), tmp.path())?;
        let mut starts = Vec::with_capacity(lines.len());
        let mut end = 0u64;
        for l in lines {
            tmp.as_file().write_all_at(l, end).with_context(what)?;
            starts.push(end);
            end += l.len() as u64;
        }
        tmp.as_file().sync_data().with_context(what)?;
        let file = tmp
            .persist(&self.path)
            .map_err(|e| e.error)
            .with_context(what)?;
        crate::assets::sync_dir(&dir)?;
        self.id = id_of(&file.metadata().with_context(what)?);
        self.file = Arc::new(file);
        *self.end.get_mut() = end;
        self.checked = end;
        self.generation += 1;
        Ok(starts)
    }
}

/// Where the run of NULs around `nul` (a NUL byte of `file`) begins: where a truncation cut it.
fn hole_start(file: &File, nul: u64) -> std::io::Result<u64> {
    let mut buf = vec![0u8; 64 * 1024];
    let mut start = nul;
    while start > 0 {
        let from = start.saturating_sub(buf.len() as u64);
        let chunk = &mut buf[..(start - from) as usize];
        file.read_exact_at(chunk, from)?;
        match chunk.iter().rposition(|&b| b != 0) {
            Some(i) => return Ok(from + i as u64 + 1),
            None => start = from,
        }
    }
    Ok(0)
}
