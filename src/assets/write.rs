//! Single atomic writes outside a [`super::Change`]: an `--output` file, a man page, the journal.

use std::fs;
use std::io::{self, Write};
use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use anyhow::{Context, Result, bail};

use super::{AssetDir, Overwrite, ensure_dir, sync_dir};
#[cfg(test)]
use super::{PUBLIC_MODE, SECRET_MODE};

/// Creates an output directory the user named (and its parents), 0755.
pub fn create_output_dir(path: &Path) -> Result<()> {
    fs::create_dir_all(path).with_context(|| format!("creating {}", path.display()))
}

/// A directory only its owner may enter (0700), made if missing and tightened if looser; its
/// parent must exist.
pub fn ensure_private_dir(path: &Path) -> Result<()> {
    use std::os::unix::fs::DirBuilderExt;
    match fs::DirBuilder::new().mode(0o700).create(path) {
        Ok(()) => {}
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists && path.is_dir() => {}
        Err(e) => return Err(e).with_context(|| format!("creating {}", path.display())),
    }
    fs::set_permissions(path, fs::Permissions::from_mode(0o700))
        .with_context(|| format!("setting the mode of {}", path.display()))
}

/// Atomic write of one file outside a [`Change`] (an `--output` file, a man page): temporary
/// file in the same directory created with `mode`, fsync, rename, fsync of the directory;
/// creates the parent directory (0755).
pub fn write_atomic(path: &Path, contents: &[u8], mode: u32, overwrite: Overwrite) -> Result<()> {
    // A signal meanwhile removes the temporary file, and says what was written.
    write_with(path, contents, mode, overwrite, super::interrupt::temporary)?;
    super::interrupt::wrote(path);
    log::info!("wrote {} (mode {mode:04o})", path.display());
    Ok(())
}

/// The directory a file named `path` goes in (`.` for a bare name).
fn parent_of(path: &Path) -> &Path {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

/// What [`write_atomic`] would refuse, checked without writing anything (`--dry-run`).
pub fn check_write(path: &Path, overwrite: Overwrite) -> Result<()> {
    let parent = parent_of(path);
    if let Ok(m) = fs::metadata(parent)
        && !m.is_dir()
    {
        bail!("{} is not a directory", parent.display());
    }
    if overwrite == Overwrite::Never && fs::symlink_metadata(path).is_ok() {
        bail!("{} exists; use --force to overwrite", path.display());
    }
    Ok(())
}

/// [`write_atomic`] without the `-v` line (the journal is not the user's business).
pub(crate) fn write_atomic_quietly(
    path: &Path,
    contents: &[u8],
    mode: u32,
    overwrite: Overwrite,
) -> Result<()> {
    write_with(path, contents, mode, overwrite, |_| {})
}

/// [`write_atomic`], telling `temporary` where the temporary file is as soon as it exists.
fn write_with(
    path: &Path,
    contents: &[u8],
    mode: u32,
    overwrite: Overwrite,
    temporary: fn(&Path),
) -> Result<()> {
    check_write(path, overwrite)?;
    let parent = parent_of(path).to_path_buf();
    ensure_dir(&AssetDir::new(&parent), &parent)?;
    let mut tmp = tempfile::Builder::new()
        .prefix(super::journal::TMP_PREFIX)
        .permissions(fs::Permissions::from_mode(mode))
        .tempfile_in(&parent)
        .with_context(|| format!("creating a temporary file in {}", parent.display()))?;
    temporary(tmp.path());
    // The umask may have narrowed the mode (never widened it beyond what we asked): make it exact.
    tmp.as_file()
        .set_permissions(fs::Permissions::from_mode(mode))
        .with_context(|| {
            format!(
                "setting the mode of a temporary file in {}",
                parent.display()
            )
        })?;
    tmp.write_all(contents)
        .and_then(|_| tmp.as_file().sync_all())
        .with_context(|| format!("writing {}", path.display()))?;
    match overwrite {
        Overwrite::Allow => {
            tmp.persist(path)
                .map_err(|e| e.error)
                .with_context(|| format!("replacing {}", path.display()))?;
        }
        Overwrite::Never => {
            tmp.persist_noclobber(path).map_err(|e| {
                if e.error.kind() == io::ErrorKind::AlreadyExists {
                    anyhow::anyhow!("{} exists; use --force to overwrite", path.display())
                } else {
                    anyhow::Error::new(e.error).context(format!("writing {}", path.display()))
                }
            })?;
        }
    }
    sync_dir(&parent)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn atomic_write_creates_with_mode_and_refuses_overwrite() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("sub/secret");
        write_atomic(&p, b"one", SECRET_MODE, Overwrite::Never).unwrap();
        assert_eq!(
            fs::metadata(&p).unwrap().permissions().mode() & 0o777,
            0o600
        );
        let err = write_atomic(&p, b"two", SECRET_MODE, Overwrite::Never).unwrap_err();
        assert!(err.to_string().contains("use --force"), "{err}");
        assert_eq!(fs::read(&p).unwrap(), b"one");
        write_atomic(&p, b"two", PUBLIC_MODE, Overwrite::Allow).unwrap();
        assert_eq!(fs::read(&p).unwrap(), b"two");
        assert_eq!(
            fs::metadata(&p).unwrap().permissions().mode() & 0o777,
            0o644
        );
        // no temp files left behind
        assert_eq!(fs::read_dir(d.path().join("sub")).unwrap().count(), 1);
    }
}
