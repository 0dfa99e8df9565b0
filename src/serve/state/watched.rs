//! What the reload loop watches and reports: each file's identity, the fingerprint of all
//! of them, and what a reload changed.

use std::collections::BTreeMap;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

/// A file's identity after following symlinks: (device, inode, size, mtime s, mtime ns,
/// ctime s, ctime ns). A Kubernetes Secret update swaps the `..data` symlink, which changes
/// the inode behind every name; a `chmod` changes the ctime.
pub type FileId = (u64, u64, u64, i64, i64, i64, i64);

pub fn file_id(p: &Path) -> Option<FileId> {
    std::fs::metadata(p).ok().map(|m| {
        (
            m.dev(),
            m.ino(),
            m.size(),
            m.mtime(),
            m.mtime_nsec(),
            m.ctime(),
            m.ctime_nsec(),
        )
    })
}

/// Identities of everything the server reads, to notice a change.
pub type Fingerprint = BTreeMap<PathBuf, FileId>;

/// What a reload changed, and which parts failed (each keeping its last good state).
#[derive(Debug, Default)]
pub struct Outcome {
    /// Parts that now hold something new.
    pub changed: Vec<String>,
    /// (part, why) for parts whose new files were refused.
    pub failed: Vec<(String, String)>,
    /// Whether the directory's tokens changed (with `--store`, what the store published is
    /// served instead: the two may disagree).
    pub tokens_changed: bool,
}
