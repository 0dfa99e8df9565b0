//! MachineConfigs from `render --machine-configs`: a file, a directory (*.yaml, *.yml,
//! *.json, by name) or stdin, in one or more YAML or JSON documents.

use std::path::Path;

use anyhow::{Context as _, Result, bail};

use super::MachineConfig;

/// Reads every MachineConfig from a file, a directory (*.yaml, *.yml, *.json, by name) or
/// stdin; errors name the file that holds the problem.
pub fn read_all(p: &Path) -> Result<Vec<MachineConfig>> {
    let name = p.display().to_string();
    let mut kinds = std::collections::BTreeSet::new();
    let mut parse = |text: &str, what: &str| {
        let objects = crate::kube::located(text, what)?;
        kinds.extend(
            objects
                .iter()
                .filter_map(|o| o.value["kind"].as_str().map(str::to_string)),
        );
        super::machineconfig::parse_all(&objects, what)
    };
    let mcs = if p.as_os_str() == "-" {
        let s = String::from_utf8(crate::assets::read_stdin()?)
            .map_err(|_| anyhow::anyhow!("stdin is not UTF-8 text"))?;
        parse(&s, "stdin")?
    } else if p.is_dir() {
        let mut files: Vec<_> = std::fs::read_dir(p)
            .with_context(|| format!("reading {name}"))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|f| {
                f.extension()
                    .and_then(|e| e.to_str())
                    .is_some_and(|e| ["yaml", "yml", "json"].contains(&e))
            })
            .collect();
        files.sort();
        if files.is_empty() {
            bail!("{name} holds no *.yaml, *.yml or *.json file");
        }
        let mut all = Vec::new();
        for (f, t) in crate::assets::read_texts(&files, &name)? {
            all.extend(parse(&t, &f.display().to_string())?);
        }
        all
    } else {
        let t = crate::assets::read_text(p)?;
        parse(&t, &name)?
    };
    kinds.remove("MachineConfig");
    if mcs.is_empty() && !kinds.is_empty() {
        let kinds: Vec<String> = kinds.into_iter().collect();
        bail!(
            "{name}: no MachineConfig objects found (it holds {}); `oc get mc -o yaml` prints MachineConfigs",
            kinds.join(", ")
        );
    }
    super::machineconfig::check_set(mcs, &name)
}
