//! Appending to this replica's ledger: one `write` per record through a descriptor opened
//! `O_APPEND`, under an exclusive lock on the file (`flock`) so that no other mcsctl appends
//! to it meanwhile. The caller (serve's fetch state) serializes every call: one writer.
//!
//! Nothing is mapped into memory: a mapping of a file another process can truncate turns that
//! truncation into `SIGBUS` at the next store (`logrotate`'s `copytruncate` did exactly that).
//! `O_APPEND` puts each record at the file's real end, wherever that is now, and the position
//! it lands at says whether the file changed under serve (cut, or written by someone else):
//! [`Writer::health`] reports it, and the caller rewrites the ledger from what it holds. The
//! `"whole"` flag is rewritten through a second descriptor without `O_APPEND` (on Linux,
//! `pwrite` on an `O_APPEND` descriptor appends whatever the offset).

use std::fs::{File, OpenOptions, TryLockError};
use std::io::{Seek, Write};
use std::os::unix::fs::{FileExt, MetadataExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::{Context as _, Result, bail};

use crate::assets::SECRET_MODE;

/// A ledger open for appending, locked against every other writer.
#[derive(Debug)]
pub struct Writer {
    path: PathBuf,
    /// Read, flag rewrites, flush; holds the lock.
    file: Arc<File>,
    /// The same file, `O_APPEND`: where records are written.
    tail: File,
    /// The file's (device, inode), to notice it replaced or removed under us.
    id: (u64, u64),
    /// Where the file ended after the last record written.
    end: u64,
    /// A write landed elsewhere than where the last one ended: (where it was expected, where
    /// it landed). The first such moment is kept until a rewrite.
    moved: Option<(u64, u64)>,
    /// A write failed: what it left (if anything) has no newline yet.
    torn: bool,
}

/// What became of the ledger's file since it was opened.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Health {
    /// It is as written.
    Intact,
    /// Shorter than the records written (`truncate`, `logrotate`'s `copytruncate`), or
    /// written by another hand: a record landed at `len`, not at `end`.
    Truncated {
        /// Its length when it was found so.
        len: u64,
        /// Where the records written ended then.
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
fn private_dirs(dir: &Path) -> Result<()> {
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
        let tail = append_to(path, id)?;
        Ok(Writer {
            path: path.to_path_buf(),
            file: Arc::new(file),
            tail,
            id,
            end,
            moved: None,
            torn: false,
        })
    }

    /// Where it writes.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Appends `line` (ending in a newline) at the file's end and returns where it starts.
    /// Once this returns, another process reads it and a kill of this one cannot lose it (it
    /// is in the page cache). After a failed write the next record starts a line of its own,
    /// so a torn piece is a line readers skip.
    pub fn append(&mut self, line: &[u8]) -> Result<u64> {
        let what = || format!("writing the ledger {}", self.path.display());
        let newline = std::mem::take(&mut self.torn);
        let written = if newline {
            let mut l = Vec::with_capacity(line.len() + 1);
            l.push(b'\n');
            l.extend_from_slice(line);
            self.tail.write_all(&l)
        } else {
            self.tail.write_all(line)
        };
        if let Err(e) = written {
            self.torn = true;
            return Err(e).with_context(what);
        }
        let end = self.tail.stream_position().with_context(what)?;
        let at = end - line.len() as u64;
        // Where this write began: the file's end a moment ago.
        let began = at - u64::from(newline);
        if began != self.end && !newline && self.moved.is_none() {
            self.moved = Some((self.end, began));
        }
        self.end = end;
        Ok(at)
    }

    /// Rewrites the `"whole":false` whose `false` starts at `flag` (where
    /// [`super::Record::line`] put it, in a record this writer wrote) to `"whole":true `: the
    /// same length, so no other byte moves.
    pub fn confirm(&self, flag: u64) -> Result<()> {
        self.file
            .write_all_at(super::WHOLE, flag)
            .with_context(|| format!("writing the ledger {}", self.path.display()))
    }

    /// The open file, to flush it without holding up the appends.
    pub fn file(&self) -> Arc<File> {
        self.file.clone()
    }

    /// Whether the file at its path is still the one it writes, as long as it wrote it.
    pub fn health(&self) -> Result<Health> {
        let here = match std::fs::metadata(&self.path) {
            Ok(m) => m,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Health::Removed),
            Err(e) => return Err(e).with_context(|| format!("reading {}", self.path.display())),
        };
        if id_of(&here) != self.id {
            return Ok(Health::Replaced);
        }
        if let Some((end, len)) = self.moved {
            return Ok(Health::Truncated { len, end });
        }
        let len = self
            .file
            .metadata()
            .with_context(|| format!("reading {}", self.path.display()))?
            .len();
        if len < self.end {
            return Ok(Health::Truncated { len, end: self.end });
        }
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
        let id = id_of(&tmp.as_file().metadata().with_context(what)?);
        let tail = append_to(tmp.path(), id)?;
        let file = tmp
            .persist(&self.path)
            .map_err(|e| e.error)
            .with_context(what)?;
        crate::assets::sync_dir(&dir)?;
        self.id = id;
        self.file = Arc::new(file);
        self.tail = tail;
        self.end = end;
        self.moved = None;
        self.torn = false;
        Ok(starts)
    }
}

/// The file at `path`, which must be (device, inode) `id`, opened to append.
fn append_to(path: &Path, id: (u64, u64)) -> Result<File> {
    let tail = OpenOptions::new()
        .append(true)
        .open(path)
        .with_context(|| format!("opening the ledger {}", path.display()))?;
    let here = tail
        .metadata()
        .with_context(|| format!("opening the ledger {}", path.display()))?;
    if id_of(&here) != id {
        bail!(
            "the ledger {} was replaced while serve opened it",
            path.display()
        );
    }
    Ok(tail)
}
