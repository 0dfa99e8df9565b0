//! Kubernetes objects from files: one file of `oc get -o yaml` output, a YAML stream, stdin,
//! or a directory of them such as `oc adm inspect` writes.

use std::path::Path;

use anyhow::{Result, bail};
use serde_json::Value;

/// Every object of a file, of stdin (`-`), or of every `*.yaml`, `*.yml` and `*.json` under a
/// directory (recursively, in name order), Lists flattened.
pub fn read_objects(path: &Path) -> Result<Vec<Value>> {
    if path.as_os_str() == "-" || !path.is_dir() {
        let (text, name) = crate::assets::read_input_text(path)?;
        return super::objects(&text, &name);
    }
    let files = crate::assets::input_files(path, &INPUTS, crate::assets::Depth::Tree)?;
    if files.is_empty() {
        bail!("{} holds no *.yaml, *.yml or *.json file", path.display());
    }
    let mut out = Vec::new();
    for (f, text) in crate::assets::read_texts(&files, &path.display().to_string())? {
        out.extend(super::objects(&text, &f.display().to_string())?);
    }
    Ok(out)
}

/// The extensions of a Kubernetes object file in a directory input.
pub const INPUTS: [&str; 3] = ["yaml", "yml", "json"];
