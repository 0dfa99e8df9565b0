//! MachineConfigs from `render --machine-configs`: a file, a directory (*.yaml, *.yml,
//! *.json, by name, not its subdirectories) or stdin, in one or more YAML or JSON documents. A ControllerConfig among
//! them (as `oc get mc,controllerconfig -o yaml` lists it) is kept for the render.

use std::path::Path;

use anyhow::{Result, bail};
use serde_json::Value;

use super::machineconfig::{Read, Strictness};

/// What the inputs hold.
#[derive(Debug, Default)]
pub struct Inputs {
    /// The MachineConfigs, selected and not.
    pub read: Read,
    /// Every ControllerConfig object found, with the input it came from.
    pub controller_configs: Vec<(Value, String)>,
}

/// Reads every MachineConfig (and ControllerConfig) from a file, a directory (*.yaml, *.yml,
/// *.json, by name) or stdin; errors name the file that holds the problem.
pub fn read_all(p: &Path, strict: Strictness) -> Result<Inputs> {
    let name = p.display().to_string();
    let mut kinds = std::collections::BTreeSet::new();
    let mut out = Inputs::default();
    let mut parse = |text: &str, what: &str| -> Result<()> {
        let objects = crate::kube::located(text, what)?;
        kinds.extend(
            objects
                .iter()
                .filter_map(|o| o.value["kind"].as_str().map(str::to_string)),
        );
        out.controller_configs.extend(
            objects
                .iter()
                .filter(|o| o.value["kind"] == "ControllerConfig")
                .map(|o| (o.value.clone(), what.to_string())),
        );
        out.read
            .extend(super::machineconfig::read(&objects, what, strict)?);
        Ok(())
    };
    if p.as_os_str() == "-" || !p.is_dir() {
        let (text, name) = crate::assets::read_input_text(p)?;
        parse(&text, &name)?;
    } else {
        let files =
            crate::assets::input_files(p, &crate::kube::files::INPUTS, crate::assets::Depth::Top)?;
        if files.is_empty() {
            bail!("{name} holds no *.yaml, *.yml or *.json file");
        }
        for (f, t) in crate::assets::read_texts(&files, &name)? {
            parse(&t, &f.display().to_string())?;
        }
    }
    kinds.remove("MachineConfig");
    kinds.remove("ControllerConfig");
    let none = out.read.mcs.is_empty() && out.read.unselected.is_empty();
    if none && !kinds.is_empty() {
        let kinds: Vec<String> = kinds.into_iter().collect();
        bail!(
            "{name}: no MachineConfig objects found (it holds {}); `oc get mc -o yaml` prints MachineConfigs",
            kinds.join(", ")
        );
    }
    out.read = std::mem::take(&mut out.read).check(&name)?;
    Ok(out)
}
