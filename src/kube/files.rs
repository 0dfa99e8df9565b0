//! Kubernetes objects from files: one file of `oc get -o yaml` output, a YAML stream, stdin,
//! or a directory of them such as `oc adm inspect` writes.

use std::path::{Path, PathBuf};

use anyhow::{Context as _, Result, anyhow, bail};
use serde_json::Value;

/// Every object of a file, of stdin (`-`), or of every `*.yaml`, `*.yml` and `*.json` under a
/// directory (recursively, in name order), Lists flattened.
pub fn read_objects(path: &Path) -> Result<Vec<Value>> {
    if path.as_os_str() == "-" {
        let s = String::from_utf8(crate::assets::read_stdin()?)
            .map_err(|_| anyhow!("stdin is not UTF-8 text"))?;
        return super::objects(&s, "stdin");
    }
    if !path.is_dir() {
        let text = crate::assets::read_text(path)?;
        return super::objects(&text, &path.display().to_string());
    }
    let mut files = Vec::new();
    walk(path, &mut files)?;
    if files.is_empty() {
        bail!("{} holds no *.yaml, *.yml or *.json file", path.display());
    }
    let mut out = Vec::new();
    for (f, text) in crate::assets::read_texts(&files, &path.display().to_string())? {
        out.extend(super::objects(&text, &f.display().to_string())?);
    }
    Ok(out)
}

fn walk(d: &Path, out: &mut Vec<PathBuf>) -> Result<()> {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(d)
        .with_context(|| format!("reading {}", d.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    entries.sort();
    for p in entries {
        // Symlinked directories are not followed: a snapshot is a plain tree.
        let meta = std::fs::symlink_metadata(&p)?;
        if meta.is_dir() {
            walk(&p, out)?;
        } else if p
            .extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| ["yaml", "yml", "json"].contains(&e))
        {
            out.push(p);
        }
    }
    Ok(())
}
