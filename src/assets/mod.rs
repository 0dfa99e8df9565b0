//! The asset directory: its layout, changes that land whole ([`change`]), the state-changing
//! lock, directories with exact modes. What the files mean is `crate::ops`'s business.

pub mod change;
pub mod custody;
pub mod interrupt;
mod journal;
mod on_disk;
mod read;
mod recover;
mod write;

use std::fs::{self, File, OpenOptions};
use std::io;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};

pub use change::Change;
pub use on_disk::{Image, PointerFile};
pub use read::{
    DEFAULT_MAX_INPUT, Depth, input_files, max_input, parse_file, read_bounded, read_file,
    read_input, read_input_text, read_regular, read_stdin, read_text, read_texts, set_max_input,
};
pub use recover::{Recovered, leftovers};
pub(crate) use write::write_atomic_quietly;
pub use write::{check_write, create_output_dir, ensure_private_dir, write_atomic};

/// Relative paths inside the asset directory.
pub mod layout {
    /// Cluster metadata.
    pub const CONFIG: &str = "mcsctl.json";
    /// The MCS CA certificate.
    pub const CA_CERT: &str = "tls/mcs-ca.crt";
    /// The MCS CA key (kept for renewals).
    pub const CA_KEY: &str = "tls/mcs-ca.key";
    /// The CAs written into pointer configs.
    pub const CA_BUNDLE: &str = "tls/mcs-ca-bundle.crt";
    /// A CA being introduced by `ca rotate`, until `ca promote`.
    pub const CA_NEXT_CERT: &str = "tls/mcs-ca-next.crt";
    /// Its key.
    pub const CA_NEXT_KEY: &str = "tls/mcs-ca-next.key";
    /// The CA `ca promote` replaced, trusted until `ca retire`.
    pub const CA_PREVIOUS_CERT: &str = "tls/mcs-ca-previous.crt";
    /// Its key.
    pub const CA_PREVIOUS_KEY: &str = "tls/mcs-ca-previous.key";
    /// Present when the bundle is the cluster's own (`ca import --bundle`).
    pub const CLUSTER_CA: &str = "tls/cluster-ca.json";
    /// Keys of retired CAs, kept until `ca retire --purge`.
    pub const RETIRED: &str = "tls/retired";
    /// The serving certificate.
    pub const SERVING_CERT: &str = "tls/mcs.crt";
    /// The serving key.
    pub const SERVING_KEY: &str = "tls/mcs.key";
    /// Provisioning tokens.
    pub const TOKENS: &str = "auth/tokens.json";
    /// The kubelet's bootstrap kubeconfig, appended to every openshift-flavour config.
    pub const BOOTSTRAP_KUBECONFIG: &str = "auth/bootstrap-kubeconfig";
    /// Lock file that serialises state changes.
    pub const LOCK: &str = ".mcsctl.lock";
    /// The pools' first-boot report credentials (`render --report`).
    pub const REPORT_CREDENTIALS: &str = "auth/report-credentials.json";
    /// The first-boot reports serve recorded, one file per replica (`<replica>.jsonl`).
    pub const REPORTS: &str = "auth/reports";
    /// The registered machines (`machine add`).
    pub const MACHINES: &str = "auth/machines.json";
    /// The machines' own pointer configs (`<name>.ign`).
    pub const MACHINE_POINTERS: &str = "machines";
    /// The rendered configs, one per pool (`<pool>.ign`).
    pub const RENDERED: &str = "rendered";
    /// The pre-approval subset of each pool.
    pub const PRE_APPROVAL: &str = "rendered/pre-approval";
    /// Where a pool's pointer config lives.
    pub fn pointer(pool: &str) -> String {
        format!("{pool}.ign")
    }

    /// The pointer config of the machine `name`.
    pub fn machine_pointer(name: &str) -> String {
        format!("{MACHINE_POINTERS}/{name}.ign")
    }
}

/// File mode of secrets: keys, tokens, pointer configs that hold a token.
pub const SECRET_MODE: u32 = 0o600;
/// File mode of public files.
pub const PUBLIC_MODE: u32 = 0o644;

/// The asset directory.
#[derive(Debug, Clone)]
pub struct AssetDir {
    root: PathBuf,
}

/// Whether an existing file may be replaced.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Overwrite {
    /// Fail when the file exists.
    Never,
    /// Replace atomically.
    Allow,
}

impl Overwrite {
    /// `Allow` with `--force`, else `Never`.
    pub fn when(force: bool) -> Overwrite {
        if force {
            Overwrite::Allow
        } else {
            Overwrite::Never
        }
    }
}

/// What a command needs of its `--dir`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DirUse {
    /// It makes the asset directory (`init`): it checks the directory itself.
    Creates,
    /// It may start one step by step, in a directory that is missing or empty (`ca create`,
    /// `ca import`); any other must be an asset directory.
    StartsStepByStep,
    /// It works without one (`inspect FILE`, `doctor POINTER`, `csr`): the default directory
    /// is used when it is there; a directory named (`--dir`, `MCSCTL_DIR`) must be one.
    WhenThere,
    /// It needs an asset directory.
    Assets,
    /// It has no directory.
    None,
}

impl AssetDir {
    /// Refuses a directory that is not an asset directory (one with `mcsctl.json`), for a
    /// command that uses it as `how`; `named` says whether the user named it (`--dir`,
    /// `MCSCTL_DIR`) rather than it being the default. Checked before anything is read or
    /// locked, so nothing (not even a lock file) is left in a directory that is not one.
    pub fn check_use(&self, how: DirUse, named: bool) -> Result<()> {
        let missing = fs::symlink_metadata(&self.root).is_err();
        match how {
            DirUse::Creates | DirUse::None => return Ok(()),
            DirUse::StartsStepByStep if missing || self.is_empty()? => return Ok(()),
            DirUse::WhenThere if missing && !named => return Ok(()),
            _ => {}
        }
        self.require()?;
        if self.path(layout::CONFIG).is_file() {
            return Ok(());
        }
        let d = self.root.display();
        let ours = if self.exists(layout::CA_CERT) {
            format!(
                " (if an earlier mcsctl made it step by step, write {{\"formatVersion\": 1}} to {}, as `ca create` now does)",
                self.path(layout::CONFIG).display()
            )
        } else {
            String::new()
        };
        let fix = if self.is_empty()? {
            let left = match recover::leftovers(self).len() {
                0 => String::new(),
                n => format!(
                    " (it holds only what a command stopped before its change landed left: {n} staged file(s), which it removes)"
                ),
            };
            format!("`mcsctl init --dir {d}` makes one there{left}")
        } else {
            "pass --dir with an asset directory (one `mcsctl init` made)".to_string()
        };
        bail!(
            "{d} is not an asset directory: it has no {}{ours}; {fix}",
            layout::CONFIG
        )
    }

    /// For tests: an empty directory in a temporary one (removed when the guard drops).
    #[cfg(test)]
    pub(crate) fn scratch() -> (tempfile::TempDir, AssetDir) {
        let t = tempfile::tempdir().unwrap_or_else(|e| panic!("a temporary directory: {e}"));
        let d = AssetDir::new(t.path().join("a"));
        d.create()
            .unwrap_or_else(|e| panic!("creating {}: {e}", d.root().display()));
        (t, d)
    }

    /// An asset directory at `root` (not checked).
    pub fn new(root: impl Into<PathBuf>) -> Self {
        AssetDir { root: root.into() }
    }

    /// The directory itself.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// An absolute-or-relative path of a file inside the directory.
    pub fn path(&self, rel: &str) -> PathBuf {
        self.root.join(rel)
    }

    /// Whether a file exists inside the directory.
    pub fn exists(&self, rel: &str) -> bool {
        self.path(rel).exists()
    }

    /// Reads a file inside the directory, with the file named in the error.
    pub fn read(&self, rel: &str) -> Result<Vec<u8>> {
        read::read_regular(&self.path(rel))
    }

    /// Fails with a user error unless the directory exists and is a directory.
    pub fn require(&self) -> Result<()> {
        match fs::metadata(&self.root) {
            Ok(m) if m.is_dir() => Ok(()),
            Ok(_) => bail!(
                "{} is not a directory; pass --dir with an asset directory",
                self.root.display()
            ),
            Err(e) if e.kind() == io::ErrorKind::NotFound => bail!(
                "asset directory {} does not exist; run `mcsctl init` first or pass --dir",
                self.root.display()
            ),
            Err(e) => Err(e).with_context(|| format!("reading {}", self.root.display())),
        }
    }

    /// Creates the directory (and parents) when missing; fails when the path is a file.
    pub fn create(&self) -> Result<()> {
        self.refuse_non_directory()?;
        ensure_dir(self, &self.root)
    }

    /// Refuses a `--dir` that exists and is not a directory (before anything is asked).
    pub fn refuse_non_directory(&self) -> Result<()> {
        if let Ok(m) = fs::metadata(&self.root)
            && !m.is_dir()
        {
            bail!(
                "{} exists and is not a directory; choose another --dir",
                self.root.display()
            );
        }
        Ok(())
    }

    /// Runs `f` for a command that may be the first in its directory, creating the
    /// directory; when `f` fails, a directory this created is removed again (it holds only
    /// the lock file), so a refused command leaves nothing behind.
    pub fn creating<T>(&self, f: impl FnOnce() -> Result<T>) -> Result<T> {
        let created = fs::symlink_metadata(&self.root).is_err();
        self.create()?;
        let r = f();
        // Failed, or wrote nothing (--dry-run): a directory made for it goes again.
        if created && self.is_empty().unwrap_or(false) {
            let _ = fs::remove_file(self.path(layout::LOCK));
            let _ = fs::remove_dir(&self.root);
        }
        r
    }

    /// The plain files directly under `rel` (relative paths, sorted); none when `rel` is not
    /// there.
    pub fn files_in(&self, rel: &str) -> Result<Vec<String>> {
        let Ok(rd) = fs::read_dir(self.path(rel)) else {
            return Ok(Vec::new());
        };
        let mut out = Vec::new();
        for e in rd {
            let e = e.with_context(|| format!("reading {}", self.path(rel).display()))?;
            if e.file_type().is_ok_and(|t| t.is_file()) {
                out.push(format!("{rel}/{}", e.file_name().to_string_lossy()));
            }
        }
        out.sort();
        Ok(out)
    }

    /// Whether the directory holds nothing of value: nothing but our lock file, what an
    /// interrupted command left before its commit point (`.mcsctl-new-*`, `.mcsctl-tmp-*`),
    /// and directories holding only those. A directory `init` was stopped in counts as empty.
    pub fn is_empty(&self) -> Result<bool> {
        if recover::pending(self) {
            return Ok(false);
        }
        holds_nothing(&self.root, 0)
    }

    /// Names of the pointer configs at the top of the directory (`*.ign`, sorted).
    pub fn pointer_files(&self) -> Result<Vec<String>> {
        let mut names: Vec<String> = fs::read_dir(&self.root)
            .with_context(|| format!("reading {}", self.root.display()))?
            .filter_map(|e| e.ok())
            // Following symlinks: an admin may link worker.ign to where the PXE server reads it.
            .filter(|e| fs::metadata(e.path()).is_ok_and(|m| m.is_file()))
            .filter_map(|e| e.file_name().into_string().ok())
            .filter(|n| n.ends_with(".ign") && !n.starts_with('.'))
            .collect();
        names.sort();
        Ok(names)
    }

    /// Takes the exclusive lock that every state-changing command holds until it returns, so two
    /// concurrent `token rotate` runs serialise instead of losing a token. Taking it completes
    /// a change an earlier process committed but did not finish, and removes leftovers of
    /// interrupted ones, before the caller reads anything.
    pub fn lock(&self) -> Result<DirLock> {
        self.require()?;
        let p = self.path(layout::LOCK);
        let file = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .mode_0600()
            .open(&p)
            .with_context(|| format!("opening lock file {}", p.display()))?;
        file.lock()
            .with_context(|| format!("locking {}", p.display()))?;
        let recovered = recover::recover(self)?;
        Ok(DirLock {
            _file: file,
            recovered,
        })
    }

    /// For readers (`inspect`, `doctor`, `serve`): completes a committed but unfinished change
    /// before reading, so a killed command is never seen half done. Returns the command it
    /// completed. Cheap when nothing is pending (no lock taken).
    pub fn settle(&self) -> Result<Option<String>> {
        if !recover::pending(self) {
            return Ok(None);
        }
        Ok(self.lock()?.recovered.completed)
    }

    /// A shared lock for a reader that must not read a change while it is being written
    /// (`serve`'s reload). `Ok(None)` when there is no lock file (a read-only Kubernetes
    /// mount has no writers); `Err(Busy)` while a command holds the lock.
    pub fn try_read_lock(&self) -> std::result::Result<Option<File>, Busy> {
        let Ok(f) = File::open(self.path(layout::LOCK)) else {
            return Ok(None);
        };
        match f.try_lock_shared() {
            Ok(()) => Ok(Some(f)),
            Err(std::fs::TryLockError::WouldBlock) => Err(Busy),
            Err(std::fs::TryLockError::Error(_)) => Ok(None),
        }
    }

    /// Whether a committed change is waiting to be completed.
    pub fn change_pending(&self) -> bool {
        recover::pending(self)
    }

    /// A change to this directory, named after the command making it (shown if it has to be
    /// completed later).
    pub fn change(&self, command: &str) -> Change<'_> {
        Change::new(self, command)
    }
}

/// A command holds the directory lock.
#[derive(Debug, Clone, Copy)]
pub struct Busy;

/// Holds the directory lock until dropped.
#[derive(Debug)]
pub struct DirLock {
    _file: File,
    recovered: Recovered,
}

impl DirLock {
    /// What taking the lock completed or cleaned up.
    pub fn recovered(&self) -> &Recovered {
        &self.recovered
    }
}

/// Whether `d`, `depth` levels below the asset directory, holds nothing but leftovers, empty
/// directories and (at the top) the lock. Deeper than a command ever writes counts as something.
fn holds_nothing(d: &Path, depth: usize) -> Result<bool> {
    if depth > 4 {
        return Ok(false);
    }
    let entries = match fs::read_dir(d) {
        Ok(e) => e,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(true),
        Err(e) => return Err(e).with_context(|| format!("reading {}", d.display())),
    };
    for e in entries {
        let e = e.with_context(|| format!("reading {}", d.display()))?;
        let name = e.file_name().to_string_lossy().into_owned();
        let ft = e
            .file_type()
            .with_context(|| format!("reading {}", d.display()))?;
        let nothing = if ft.is_dir() {
            holds_nothing(&e.path(), depth + 1)?
        } else {
            ft.is_file() && ((depth == 0 && name == layout::LOCK) || recover::is_leftover(&name))
        };
        if !nothing {
            return Ok(false);
        }
    }
    Ok(true)
}

/// Creates `path` and its missing parents with exact modes whatever the umask: `auth/` (and
/// below) of an asset directory 0700, every other directory 0755. Existing directories are
/// left as they are.
pub(crate) fn ensure_dir(dir: &AssetDir, path: &Path) -> Result<()> {
    match fs::metadata(path) {
        Ok(m) if m.is_dir() => return Ok(()),
        Ok(_) => bail!("{} is not a directory", path.display()),
        Err(_) => {}
    }
    if let Some(parent) = path.parent()
        && !parent.as_os_str().is_empty()
    {
        ensure_dir(dir, parent)?;
    }
    let secret = path
        .strip_prefix(dir.root())
        .ok()
        .and_then(|r| r.components().next())
        .is_some_and(|c| c.as_os_str() == "auth" || c.as_os_str() == "backup");
    let mode = if secret { 0o700 } else { 0o755 };
    use std::os::unix::fs::DirBuilderExt;
    match fs::DirBuilder::new().mode(mode).create(path) {
        Ok(()) => {}
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists && path.is_dir() => return Ok(()),
        Err(e) => return Err(e).with_context(|| format!("creating {}", path.display())),
    }
    fs::set_permissions(path, fs::Permissions::from_mode(mode))
        .with_context(|| format!("setting the mode of {}", path.display()))
}

/// `<pool>.ign` files of a directory (missing directory: none); names that are not DNS
/// labels are skipped (they could never be requested); symlinks are followed (Kubernetes
/// mounts are symlinks into `..data`).
pub fn pool_files(d: &Path) -> Vec<(String, PathBuf)> {
    let Ok(rd) = std::fs::read_dir(d) else {
        return Vec::new();
    };
    let mut out: Vec<(String, PathBuf)> = rd
        .flatten()
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            let pool = name.strip_suffix(".ign")?.to_string();
            let p = e.path();
            (crate::names::is_dns_label(&pool) && std::fs::metadata(&p).is_ok_and(|m| m.is_file()))
                .then_some((pool, p))
        })
        .collect();
    out.sort();
    out
}

/// fsyncs a directory, so renames and new entries in it are durable.
pub(crate) fn sync_dir(d: &Path) -> Result<()> {
    File::open(d)
        .and_then(|f| f.sync_all())
        .with_context(|| format!("syncing directory {}", d.display()))
}

trait Mode0600 {
    fn mode_0600(&mut self) -> &mut Self;
}

impl Mode0600 for OpenOptions {
    fn mode_0600(&mut self) -> &mut Self {
        use std::os::unix::fs::OpenOptionsExt;
        self.mode(SECRET_MODE)
    }
}
