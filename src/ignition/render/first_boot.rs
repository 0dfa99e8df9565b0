//! What `render --report` adds to a pool's full config (`crate::firstboot`'s files and unit),
//! written into the rendered config as Ignition entries.

use anyhow::{Result, bail};
use serde_json::{Value, json};

use crate::ignition::dataurl;
use crate::ignition::spec::Config;

/// Adds what `render --report` puts in a full config (files with their modes, overwrite true,
/// and an enabled unit), after everything the MachineConfigs wrote; a MachineConfig that
/// already writes one of those paths or units is refused (Ignition refuses a duplicate).
pub fn add_first_boot(config: &mut Config, adds: &[crate::firstboot::Addition]) -> Result<()> {
    use crate::firstboot::Addition;
    for a in adds {
        let (list, key, name) = match a {
            Addition::File { path, .. } => ("/storage/files", "path", *path),
            Addition::Unit { name, .. } => ("/systemd/units", "name", *name),
        };
        if config.list(list).iter().any(|e| e[key] == name) {
            bail!(
                "a MachineConfig of this pool writes {name}, which render --report adds: rename it, or render with --no-report"
            );
        }
    }
    let Some(root) = config.value.as_object_mut() else {
        bail!("the rendered config is not an object");
    };
    for a in adds {
        let (section, list, entry) = match a {
            Addition::File {
                path,
                mode,
                contents,
            } => (
                "storage",
                "files",
                json!({
                    "overwrite": true,
                    "path": path,
                    "contents": { "source": dataurl::encode_escaped(contents) },
                    "mode": mode,
                }),
            ),
            Addition::Unit { name, contents } => (
                "systemd",
                "units",
                json!({ "contents": contents, "enabled": true, "name": name }),
            ),
        };
        let s = root.entry(section).or_insert_with(|| json!({}));
        let Some(items) = s
            .as_object_mut()
            .map(|s| s.entry(list).or_insert_with(|| json!([])))
            .and_then(Value::as_array_mut)
        else {
            bail!("the rendered config's {section}.{list} is not a list");
        };
        items.push(entry);
    }
    Ok(())
}
