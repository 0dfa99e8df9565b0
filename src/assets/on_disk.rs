//! The bytes of every file a snapshot is made of, read in one pass: `crate::model::Snapshot`
//! parses them, and no workflow reads the directory again.
//!
//! A read error is kept beside the file it belongs to and given back when that file is taken,
//! so the snapshot reports the first bad file in the order it parses them, as it did when each
//! part read its own files.

use std::collections::BTreeMap;
use std::path::PathBuf;

use anyhow::{Context, Result};

use super::{AssetDir, layout, read_file};

/// The files of fixed name a snapshot reads, in the order they are read (`-v` lists them):
/// those before the pointer configs, then those after.
const FIXED: [&str; 12] = [
    layout::CONFIG,
    layout::CA_BUNDLE,
    layout::CLUSTER_CA,
    layout::SERVING_CERT,
    layout::SERVING_KEY,
    layout::CA_CERT,
    layout::CA_KEY,
    layout::CA_NEXT_CERT,
    layout::CA_NEXT_KEY,
    layout::CA_PREVIOUS_CERT,
    layout::CA_PREVIOUS_KEY,
    layout::TOKENS,
];
/// Read after the pointer configs.
const FIXED_AFTER: [&str; 2] = [layout::MACHINES, layout::REPORT_CREDENTIALS];

/// A pointer config of the directory as read: a pool's (`<pool>.ign`) or a machine's
/// (`machines/<name>.ign`). What it says is `crate::model::pointers`' business.
#[derive(Debug, Clone)]
pub struct PointerFile {
    /// Its name in the directory (`worker.ign`).
    pub rel: String,
    /// The file it is: for a symlinked pointer config, the file it links to.
    pub path: PathBuf,
    /// Its contents.
    pub bytes: Vec<u8>,
    /// For a machine's pointer config (`machines/<name>.ign`), the machine.
    pub machine: Option<String>,
}

/// The directory's files, read once.
#[derive(Debug)]
pub struct Image {
    /// The files of fixed name: absent is `Ok(None)`.
    fixed: BTreeMap<&'static str, Result<Option<Vec<u8>>>>,
    /// The pointer configs, pools' first (name order), then machines'.
    pointers: Result<Vec<PointerFile>>,
    /// The files directly under `tls/retired/`, sorted.
    pub retired: Vec<String>,
    /// The pools with a rendered config (`rendered/<pool>.ign`), in name order.
    pub rendered: Vec<String>,
}

impl Image {
    /// Takes a file of fixed name (one of the layout's): `None` when it is not there, the
    /// error reading it when it could not be read.
    ///
    /// # Panics
    /// When `rel` is not a file the image reads (a programming error), or is taken twice.
    pub fn take(&mut self, rel: &str) -> Result<Option<Vec<u8>>> {
        self.fixed
            .remove(rel)
            .unwrap_or_else(|| panic!("{rel} is not read into the image, or was taken twice"))
    }

    /// Takes the pointer configs.
    pub fn take_pointers(&mut self) -> Result<Vec<PointerFile>> {
        std::mem::replace(&mut self.pointers, Ok(Vec::new()))
    }
}

impl AssetDir {
    /// Reads every file a snapshot is made of (each bounded), after checking that the
    /// directory is one.
    pub fn image(&self) -> Result<Image> {
        self.require()?;
        let optional = |rel: &'static str| {
            let bytes = if self.exists(rel) {
                self.read(rel).map(Some)
            } else {
                Ok(None)
            };
            (rel, bytes)
        };
        let mut fixed: BTreeMap<_, _> = FIXED.into_iter().map(optional).collect();
        let pointers = self.pointer_configs();
        fixed.extend(FIXED_AFTER.into_iter().map(optional));
        Ok(Image {
            fixed,
            pointers,
            retired: self.files_in(layout::RETIRED).unwrap_or_default(),
            rendered: super::pool_files(&self.path(layout::RENDERED))
                .into_iter()
                .map(|(pool, _)| pool)
                .collect(),
        })
    }

    /// The pointer configs: the pools' at the top of the directory, then the machines'.
    fn pointer_configs(&self) -> Result<Vec<PointerFile>> {
        let machines = self
            .machine_pointer_files()?
            .into_iter()
            .map(|(rel, name)| (rel, Some(name)));
        let mut out = Vec::new();
        for (rel, machine) in self
            .pointer_files()?
            .into_iter()
            .map(|r| (r, None))
            .chain(machines)
        {
            let link = self.path(&rel);
            let path = std::fs::canonicalize(&link)
                .with_context(|| format!("following {}", link.display()))?;
            let bytes = read_file(&path)?;
            out.push(PointerFile {
                rel,
                path,
                bytes,
                machine,
            });
        }
        Ok(out)
    }

    /// The machines' pointer configs, (`machines/<name>.ign`, name), in name order.
    pub fn machine_pointer_files(&self) -> Result<Vec<(String, String)>> {
        let Ok(rd) = std::fs::read_dir(self.path(layout::MACHINE_POINTERS)) else {
            return Ok(Vec::new());
        };
        let mut out = Vec::new();
        for e in rd {
            let name = e?.file_name().to_string_lossy().into_owned();
            if let Some(machine) = name.strip_suffix(".ign") {
                out.push((layout::machine_pointer(machine), machine.to_string()));
            }
        }
        out.sort();
        Ok(out)
    }
}
