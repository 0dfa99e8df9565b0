//! Reading a ledger a line at a time, from where the last read stopped: what serve does at
//! start (every replica's ledger, however long, in memory one line at a time) and at each
//! reload poll (what the other replicas appended since), and what `machine list` and `csr
//! review` do once.
//!
//! A followed file can be rewritten under its reader: its writer repairs a truncated or
//! replaced ledger by writing a new file ([`super::Writer::rewrite`]). The follower notices
//! (another inode at the path, or a file shorter than what it read), reads the new file from
//! its start, and marks each record it had read before as read [`Line::again`], so nothing is
//! counted twice.

use std::collections::HashSet;
use std::fs::File;
use std::hash::{Hash, Hasher};
use std::io::{BufRead, BufReader, Read, Seek, SeekFrom};
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

use anyhow::{Context as _, Result, bail};

use super::Record;

/// A line longer than this is not a record (one is a few hundred bytes).
const MAX_LINE: usize = 16 * 1024;

/// A ledger file and how far it has been read.
#[derive(Debug)]
pub struct Scanner {
    path: PathBuf,
    /// The end of the last complete line read.
    offset: u64,
    /// Lines read so far (for error messages).
    line: usize,
    /// Following a file being written: a line with NUL bytes (a record's place taken and not
    /// yet written, before a later record already there) is read only when it is still so at
    /// the next scan.
    follow: bool,
    /// Where such a line was seen last scan.
    gap: Option<u64>,
    /// Followed: the (device, inode) read last, to notice the file rewritten.
    file: Option<(u64, u64)>,
    /// Followed: the identity of every record read ([`identity`]).
    seen: HashSet<u64>,
    /// Followed: where the last line read starts and a hash of its bytes, to notice it gone.
    last: Option<(u64, u64)>,
}

/// One record read.
#[derive(Debug)]
pub struct Line<'a> {
    /// The record.
    pub record: Record,
    /// Its text (trimmed, without the newline).
    pub text: &'a str,
    /// Where that text starts in the file.
    pub at: u64,
    /// Followed: the same record was read before, from an earlier version of the file (its
    /// `whole` flag may have changed since, and where it is).
    pub again: bool,
}

/// What tells one fetch's record from another's, whatever its `whole` flag says.
pub fn identity(r: &Record) -> u64 {
    let mut h = std::hash::DefaultHasher::new();
    (&r.time, &r.machine, &r.token, &r.client, &r.replica).hash(&mut h);
    h.finish()
}

impl Scanner {
    /// A scanner at the start of `path`, for one read of it as it is.
    pub fn new(path: &Path) -> Scanner {
        Scanner {
            path: path.to_path_buf(),
            offset: 0,
            line: 0,
            follow: false,
            gap: None,
            file: None,
            seen: HashSet::new(),
            last: None,
        }
    }

    /// A scanner at the start of `path`, for a file another process is writing: scanned
    /// again and again, it never reads past a place a write is about to fill.
    pub fn follow(path: &Path) -> Scanner {
        Scanner {
            follow: true,
            ..Scanner::new(path)
        }
    }

    /// The file it reads.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Calls `each` with every record of the complete lines appended since the last call, the
    /// record's text and where that text starts in the file. A missing file has none yet. A last line without its newline is a
    /// write in progress (or one a kill cut short): it is read again next time. A line that
    /// stops in the middle of a record is a write a kill cut short, and is skipped; any other
    /// line that is not a record is an error naming the file and line, and the scanner stays
    /// before it.
    pub fn scan(&mut self, mut each: impl FnMut(Line<'_>)) -> Result<()> {
        let file = match File::open(&self.path) {
            Ok(f) => f,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
            Err(e) => {
                return Err(e).with_context(|| format!("reading {}", self.path.display()));
            }
        };
        if self.follow {
            let m = file
                .metadata()
                .with_context(|| format!("reading {}", self.path.display()))?;
            let id = (m.dev(), m.ino());
            // Cut and grown again past where it was read: the last line read is not where it
            // was any more.
            let regrown = self
                .last
                .is_some_and(|(start, hash)| bytes_hash(&file, start, self.offset) != Some(hash));
            if self.file.is_some_and(|f| f != id) || m.len() < self.offset || regrown {
                // Rewritten (or cut) under us: read it again from the start.
                self.offset = 0;
                self.line = 0;
                self.gap = None;
                self.last = None;
            }
            self.file = Some(id);
        }
        let mut r = BufReader::with_capacity(64 * 1024, file);
        r.seek(SeekFrom::Start(self.offset))
            .with_context(|| format!("reading {}", self.path.display()))?;
        let mut buf = Vec::new();
        loop {
            buf.clear();
            let n = (&mut r)
                .take(MAX_LINE as u64 + 1)
                .read_until(b'\n', &mut buf)
                .with_context(|| format!("reading {}", self.path.display()))?;
            if self.gap.is_some_and(|g| g < self.offset) {
                self.gap = None;
            }
            if buf.last() != Some(&b'\n') {
                // Zeros at the end: a hole a truncation left under a writer, or the region an
                // earlier mcsctl mapped ahead of its records (maybe after a line a kill cut
                // short). Followed, the next record will be there: wait. Read once, nothing
                // will: pass over them.
                let zeros = buf.last() == Some(&0);
                if zeros && !self.follow {
                    self.offset += n as u64;
                    continue;
                }
                if n > MAX_LINE && !zeros {
                    bail!(
                        "{} line {}: longer than {} KiB, not a ledger record",
                        self.path.display(),
                        self.line + 1,
                        MAX_LINE / 1024
                    );
                }
                return Ok(());
            }
            if self.follow && buf.contains(&0) && self.gap != Some(self.offset) {
                self.gap = Some(self.offset);
                return Ok(());
            }
            self.records(&buf, &mut each)?;
            if self.follow {
                self.last = Some((self.offset, hash(&buf)));
            }
            self.offset += n as u64;
            self.line += 1;
        }
    }

    /// One complete line: records, blanks, places never written (NULs) and torn writes.
    fn records(&mut self, line: &[u8], each: &mut impl FnMut(Line<'_>)) -> Result<()> {
        let text = std::str::from_utf8(line).map_err(|_| self.bad("not UTF-8"))?;
        let mut from = 0;
        for raw in text.split('\0') {
            let start = from + (raw.len() - raw.trim_start().len());
            from += raw.len() + 1;
            let piece = raw.trim();
            if piece.is_empty() {
                continue;
            }
            match serde_json::from_str::<Record>(piece) {
                Ok(mut record) => {
                    record.cut |= super::text_is_cut(piece);
                    record.unknown |= super::text_is_unknown(piece);
                    let again = self.follow && !self.seen.insert(identity(&record));
                    each(Line {
                        record,
                        text: piece,
                        at: self.offset + start as u64,
                        again,
                    });
                }
                // A record that stops short: a write a kill cut (its fetch was never answered).
                Err(e) if e.classify() == serde_json::error::Category::Eof => {}
                Err(e) => return Err(self.bad(&format!("not a ledger record ({e})"))),
            }
        }
        Ok(())
    }

    fn bad(&self, why: &str) -> anyhow::Error {
        anyhow::anyhow!("{} line {}: {why}", self.path.display(), self.line + 1)
    }
}

fn hash(bytes: &[u8]) -> u64 {
    let mut h = std::hash::DefaultHasher::new();
    bytes.hash(&mut h);
    h.finish()
}

/// The hash of `file`'s bytes from `start` to `end`, if it has them.
fn bytes_hash(file: &File, start: u64, end: u64) -> Option<u64> {
    use std::os::unix::fs::FileExt;
    let mut b = vec![0u8; usize::try_from(end.checked_sub(start)?).ok()?];
    file.read_exact_at(&mut b, start).ok()?;
    Some(hash(&b))
}
