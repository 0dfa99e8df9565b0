//! Every input mcsctl reads (a file, a directory of files, stdin, an HTTP body through
//! [`max_input`]) is bounded by `--max-input-size`, and a larger one is refused naming it.

use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, anyhow};

/// The most bytes mcsctl reads from one input unless `--max-input-size` says otherwise: far
/// above any real object (the API server stores objects of at most 1.5 MiB), far below what
/// would exhaust a workstation once rendered.
pub const DEFAULT_MAX_INPUT: u64 = 32 << 20;

static MAX_INPUT: std::sync::atomic::AtomicU64 =
    std::sync::atomic::AtomicU64::new(DEFAULT_MAX_INPUT);

/// Sets the most bytes one input may hold (`--max-input-size`).
pub fn set_max_input(bytes: u64) {
    MAX_INPUT.store(bytes, std::sync::atomic::Ordering::Relaxed);
}

/// The most bytes one input may hold.
pub fn max_input() -> u64 {
    MAX_INPUT.load(std::sync::atomic::Ordering::Relaxed)
}

/// Reads at most [`max_input`] bytes from `r`; more is an error naming `what`.
pub fn read_bounded(r: impl std::io::Read, what: &str) -> Result<Vec<u8>> {
    let mut r = Limited::new(r);
    let mut bytes = Vec::new();
    let read = r.read_to_end(&mut bytes);
    if r.over {
        return Err(too_big(what, ""));
    }
    read.with_context(|| format!("reading {what}"))?;
    Ok(bytes)
}

/// Reads a file the user named (or one of the asset directory), at most [`max_input`] bytes,
/// with the file named in the error; `-v` lists each one.
pub fn read_file(path: &Path) -> Result<Vec<u8>> {
    let f = fs::File::open(path).with_context(|| format!("reading {}", path.display()))?;
    let bytes = read_bounded(f, &path.display().to_string())?;
    log::info!("read {} ({} bytes)", path.display(), bytes.len());
    Ok(bytes)
}

/// Reads a file of the asset directory like [`read_file`], refusing anything but a regular
/// file (a symlink to one is one): opened without blocking, so a FIFO or a device put where a
/// key or the token store belongs is an error at once, not a command (or a shell's TAB
/// completion) that hangs until someone writes to it.
pub fn read_regular(path: &Path) -> Result<Vec<u8>> {
    use std::os::unix::fs::OpenOptionsExt;
    let f = fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)
        .with_context(|| format!("reading {}", path.display()))?;
    let kind = f
        .metadata()
        .with_context(|| format!("reading {}", path.display()))?
        .file_type();
    if !kind.is_file() {
        anyhow::bail!(
            "{} is not a regular file (a FIFO, socket or device): the asset directory holds files",
            path.display()
        );
    }
    let bytes = read_bounded(f, &path.display().to_string())?;
    log::info!("read {} ({} bytes)", path.display(), bytes.len());
    Ok(bytes)
}

/// A file read as a stream by `parse` (for an input too large to hold as bytes beside what is
/// parsed from it), at most [`max_input`] bytes: a longer file gives [`read_file`]'s error,
/// whatever `parse` made of the part it saw.
pub fn parse_file<T>(path: &Path, parse: impl FnOnce(&mut dyn Read) -> Result<T>) -> Result<T> {
    let f = fs::File::open(path).with_context(|| format!("reading {}", path.display()))?;
    let mut r = Limited::new(f);
    let parsed = parse(&mut r);
    if r.over {
        return Err(too_big(&path.display().to_string(), ""));
    }
    log::info!("read {} ({} bytes)", path.display(), max_input() - r.left);
    parsed
}

/// A reader that fails past [`max_input`] bytes, saying so in `over`: every bounded read.
struct Limited<R> {
    inner: R,
    /// Bytes still allowed.
    left: u64,
    over: bool,
}

impl<R> Limited<R> {
    fn new(inner: R) -> Limited<R> {
        Limited {
            inner,
            left: max_input(),
            over: false,
        }
    }
}

impl<R: Read> Read for Limited<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if buf.is_empty() {
            return Ok(0);
        }
        // One byte past the limit tells a file of exactly the limit from a longer one.
        let room = usize::try_from(self.left.saturating_add(1)).unwrap_or(usize::MAX);
        let len = buf.len().min(room);
        let n = self.inner.read(&mut buf[..len])?;
        if n as u64 > self.left {
            self.over = true;
            return Err(std::io::Error::other("over the input size limit"));
        }
        self.left -= n as u64;
        Ok(n)
    }
}

/// Standard input, at most [`max_input`] bytes.
pub fn read_stdin() -> Result<Vec<u8>> {
    read_bounded(std::io::stdin().lock(), "stdin")
}

/// The UTF-8 files of a directory input (`what` names it), at most [`max_input`] bytes in all:
/// a directory is one input.
pub fn read_texts(files: &[PathBuf], what: &str) -> Result<Vec<(PathBuf, String)>> {
    let limit = max_input();
    let mut total = 0u64;
    let mut out = Vec::with_capacity(files.len());
    for f in files {
        let t = read_text(f)?;
        total += t.len() as u64;
        if total > limit {
            return Err(too_big(what, " in its files"));
        }
        out.push((f.clone(), t));
    }
    Ok(out)
}

/// [`read_file`] of UTF-8 text.
pub fn read_text(path: &Path) -> Result<String> {
    String::from_utf8(read_file(path)?)
        .map_err(|_| anyhow::anyhow!("{} is not UTF-8 text", path.display()))
}

/// An input the user named: a file, or `-` for stdin. Its bytes, at most [`max_input`], and
/// its name for messages (`stdin`, or the path as given).
pub fn read_input(p: &Path) -> Result<(Vec<u8>, String)> {
    if p.as_os_str() == "-" {
        return Ok((read_stdin()?, "stdin".into()));
    }
    Ok((read_file(p)?, p.display().to_string()))
}

/// [`read_input`] as text: every text input is UTF-8 (YAML and JSON are), and one that is not
/// is refused naming it.
pub fn read_input_text(p: &Path) -> Result<(String, String)> {
    let (bytes, name) = read_input(p)?;
    let text = String::from_utf8(bytes).map_err(|_| anyhow!("{name} is not UTF-8 text"))?;
    Ok((text, name))
}

/// How deep [`input_files`] looks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Depth {
    /// The directory's own files.
    Top,
    /// Its subdirectories' too.
    Tree,
}

/// The input files of a directory: those whose extension is one of `extensions`, in name
/// order; with [`Depth::Tree`], those of its subdirectories too (symlinked directories are
/// not followed: an input is a plain tree).
pub fn input_files(dir: &Path, extensions: &[&str], depth: Depth) -> Result<Vec<PathBuf>> {
    let mut entries: Vec<PathBuf> = fs::read_dir(dir)
        .with_context(|| format!("reading {}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    entries.sort();
    let mut out = Vec::new();
    for p in entries {
        let meta = fs::symlink_metadata(&p).with_context(|| format!("reading {}", p.display()))?;
        if meta.is_dir() {
            if depth == Depth::Tree {
                out.extend(input_files(&p, extensions, depth)?);
            }
        } else if p
            .extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| extensions.contains(&e))
        {
            out.push(p);
        }
    }
    Ok(out)
}

/// The error for an input over the limit.
fn too_big(what: &str, part: &str) -> anyhow::Error {
    anyhow!(
        "{what} holds more than {}{part}, the most mcsctl reads from one input; raise it with --max-input-size (or MCSCTL_MAX_INPUT_SIZE) if the input is what you meant",
        crate::size::human(max_input())
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_streamed_file_is_bounded_like_a_read_one() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("x.json");
        let limit = max_input() as usize;
        let count = |r: &mut dyn Read| -> Result<usize> {
            let mut n = 0;
            let mut buf = [0u8; 7];
            loop {
                match r.read(&mut buf)? {
                    0 => return Ok(n),
                    k => n += k,
                }
            }
        };
        std::fs::write(&p, vec![b' '; limit]).unwrap();
        assert_eq!(parse_file(&p, count).unwrap(), limit, "exactly the limit");
        std::fs::write(&p, vec![b' '; limit + 1]).unwrap();
        let e = parse_file(&p, count).unwrap_err().to_string();
        assert_eq!(e, read_file(&p).unwrap_err().to_string());
        assert!(e.contains("holds more than 32 MiB"), "{e}");
        // Whatever the parser made of the part it saw, the error is the limit's.
        let e = parse_file(&p, |r| {
            let _ = count(r);
            Ok(())
        })
        .unwrap_err();
        assert!(e.to_string().contains("holds more than"), "{e}");
        let e = parse_file(&d.path().join("missing"), count).unwrap_err();
        assert!(format!("{e:#}").starts_with("reading "), "{e:#}");
    }
}
