//! Merging a pool's MachineConfigs as the MCO's `MergeMachineConfigs` does: Ignition 3 merge
//! rules for `spec.config` (keyed lists, later scalars win, files overwrite unless told not
//! to), and the MachineConfig rules on top: `fips` if any config sets it, a non-default
//! `kernelType` wins, kernel arguments and extensions concatenated in merge order, no
//! `kernel-devel` with a non-default kernel, the last non-empty `osImageURL` wins.

use anyhow::{Result, anyhow, bail};
use serde_json::Value;

use super::MachineConfig;
use super::machineconfig::unused_keys;
use crate::ignition::SpecVersion;

/// What merging a pool's MachineConfigs gives: one MachineConfig spec.
#[derive(Debug, Clone, PartialEq)]
pub struct Merged {
    /// The merged Ignition config, at the output version.
    pub config: Value,
    /// FIPS mode.
    pub fips: bool,
    /// `default`, `realtime` or `64k-pages`.
    pub kernel_type: String,
    /// Kernel arguments, in merge order.
    pub kernel_arguments: Vec<String>,
    /// Extensions, in merge order.
    pub extensions: Vec<String>,
    /// The OS image the node pivots to (empty: the one it booted).
    pub os_image_url: String,
    /// The extensions container image, if any config sets one.
    pub extensions_image: Option<String>,
}

/// Merges `mcs` (already in merge order) into one spec whose config is at `version`. The
/// caller validates the config once its flavour has placed the kernel arguments.
pub fn merge(mcs: &[&MachineConfig], version: SpecVersion) -> Result<Merged> {
    let mut config = serde_json::json!({ "ignition": { "version": version.to_string() } });
    for m in mcs {
        let mut c = m.config.clone();
        if let Some(ign) = c.get_mut("ignition").and_then(Value::as_object_mut) {
            ign.remove("version");
        }
        merge_value(&mut config, c, "");
    }
    // The MCO writes files with overwrite: true unless a config says otherwise. (`pointer_mut`,
    // not indexing: `IndexMut` would insert `null` members where there are none.)
    if let Some(files) = config
        .pointer_mut("/storage/files")
        .and_then(Value::as_array_mut)
    {
        for f in files {
            if f.get("overwrite").is_none_or(Value::is_null) {
                f["overwrite"] = Value::Bool(true);
            }
        }
    }
    let mut kernel_type: Option<(&str, &str)> = None;
    for m in mcs {
        if let Some(k) = &m.kernel_type {
            kernel_type = Some((k, &m.name));
        }
    }
    let extensions: Vec<String> = mcs.iter().flat_map(|m| m.extensions.clone()).collect();
    if let Some((kernel, set_by)) = kernel_type
        && let Some(asker) = mcs
            .iter()
            .find(|m| m.extensions.iter().any(|e| e == "kernel-devel"))
    {
        bail!(
            "MachineConfig {} asks for the kernel-devel extension, which the MCO does not support with kernelType {kernel} (set by MachineConfig {set_by})",
            asker.name
        );
    }
    Ok(Merged {
        config,
        fips: mcs.iter().any(|m| m.fips),
        kernel_type: kernel_type.map_or("default", |(k, _)| k).to_string(),
        kernel_arguments: mcs
            .iter()
            .flat_map(|m| m.kernel_arguments.clone())
            .collect(),
        extensions,
        os_image_url: mcs
            .iter()
            .filter_map(|m| m.os_image_url.clone())
            .next_back()
            .unwrap_or_default(),
        extensions_image: mcs
            .iter()
            .filter_map(|m| m.extensions_image.clone())
            .next_back(),
    })
}

/// The merged config must be valid at the output version, with nothing that version lacks.
pub fn validate(config: &Value, version: SpecVersion) -> Result<()> {
    let bytes = serde_json::to_vec(config)?;
    let (_, warnings) = ignition_config::Config::parse_slice(&bytes).map_err(|e| {
        anyhow!(
            "the merged config is not a valid Ignition {version} config: {}",
            crate::ignition::pointer::describe_error(&e)
        )
    })?;
    if !warnings.is_empty() {
        bail!(
            "the merged config uses {}, which Ignition spec {version} does not have: pass a newer --spec-version",
            unused_keys(&warnings).join(", ")
        );
    }
    Ok(())
}

/// The key of each keyed list, by the list's path (Ignition 3 merge rules).
fn list_key(path: &str) -> Option<&'static str> {
    match path {
        "storage.files" | "storage.directories" | "storage.links" => Some("path"),
        "storage.disks" | "storage.filesystems" => Some("device"),
        "storage.raid"
        | "storage.luks"
        | "systemd.units"
        | "systemd.units.dropins"
        | "passwd.users"
        | "passwd.groups" => Some("name"),
        _ => None,
    }
}

/// Merges `child` into `parent`: objects key by key, keyed lists entry by key (entries merged
/// field by field), other lists appended without duplicates, scalars replaced. A `null` in
/// the child is "not set" and leaves the parent as it is.
pub fn merge_value(parent: &mut Value, child: Value, path: &str) {
    match (parent, child) {
        (_, Value::Null) => {}
        (Value::Object(p), Value::Object(c)) => {
            for (k, v) in c {
                let sub = if path.is_empty() {
                    k.clone()
                } else {
                    format!("{path}.{k}")
                };
                match p.get_mut(&k) {
                    Some(existing) => merge_value(existing, v, &sub),
                    None if v.is_null() => {}
                    None => {
                        p.insert(k, v);
                    }
                }
            }
        }
        (Value::Array(p), Value::Array(c)) => match list_key(path) {
            Some(key) => {
                for item in c {
                    match p
                        .iter_mut()
                        .find(|e| e.get(key).is_some() && e.get(key) == item.get(key))
                    {
                        Some(existing) => merge_value(existing, item, path),
                        None => p.push(item),
                    }
                }
            }
            None => {
                for item in c {
                    if !p.contains(&item) {
                        p.push(item);
                    }
                }
            }
        },
        (p, c) => *p = c,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn mc(name: &str) -> MachineConfig {
        MachineConfig {
            name: name.into(),
            role: Some("worker".into()),
            config: json!({}),
            ..MachineConfig::default()
        }
    }

    fn merged(mcs: &[MachineConfig]) -> Result<Merged> {
        let refs: Vec<&MachineConfig> = mcs.iter().collect();
        merge(&refs, SpecVersion::DEFAULT)
    }

    #[test]
    fn fips_if_any_config_sets_it() {
        let mut a = mc("00-a");
        a.fips = true;
        assert!(merged(&[a, mc("10-b")]).unwrap().fips);
        assert!(!merged(&[mc("00-a"), mc("10-b")]).unwrap().fips);
    }

    #[test]
    fn a_non_default_kernel_type_wins() {
        let mut a = mc("00-a");
        a.kernel_type = Some("realtime".into());
        let m = merged(&[a.clone(), mc("10-b")]).unwrap();
        assert_eq!(
            m.kernel_type, "realtime",
            "a later default does not undo it"
        );
        let mut c = mc("20-c");
        c.kernel_type = Some("64k-pages".into());
        assert_eq!(
            merged(&[a, mc("10-b"), c]).unwrap().kernel_type,
            "64k-pages"
        );
        assert_eq!(merged(&[mc("00-a")]).unwrap().kernel_type, "default");
    }

    #[test]
    fn kernel_arguments_and_extensions_concatenate_in_merge_order() {
        let mut a = mc("00-a");
        a.kernel_arguments = vec!["nosmt".into(), "quiet".into()];
        a.extensions = vec!["usbguard".into()];
        let mut b = mc("10-b");
        b.kernel_arguments = vec!["quiet".into(), "mitigations=off".into()];
        b.extensions = vec!["sysstat".into()];
        let m = merged(&[a, b]).unwrap();
        assert_eq!(
            m.kernel_arguments,
            ["nosmt", "quiet", "quiet", "mitigations=off"]
        );
        assert_eq!(m.extensions, ["usbguard", "sysstat"]);
        assert!(
            m.config.get("kernelArguments").is_none(),
            "kept in the MachineConfig, not in Ignition"
        );
    }

    #[test]
    fn kernel_devel_with_a_non_default_kernel_names_both_configs() {
        let mut a = mc("00-rt");
        a.kernel_type = Some("realtime".into());
        let mut b = mc("50-devel");
        b.extensions = vec!["kernel-devel".into()];
        let e = merged(&[a, b]).unwrap_err().to_string();
        assert!(
            e.contains("MachineConfig 50-devel")
                && e.contains("kernelType realtime")
                && e.contains("MachineConfig 00-rt"),
            "{e}"
        );
    }

    #[test]
    fn the_last_non_empty_os_image_wins() {
        let mut a = mc("00-a");
        a.os_image_url = Some("quay.io/a@sha256:1".into());
        let mut b = mc("10-b");
        b.os_image_url = Some("quay.io/b@sha256:2".into());
        let m = merged(&[a.clone(), b, mc("20-c")]).unwrap();
        assert_eq!(m.os_image_url, "quay.io/b@sha256:2");
        assert_eq!(merged(&[mc("00-a")]).unwrap().os_image_url, "");
    }

    #[test]
    fn null_never_erases() {
        let mut a = mc("00-a");
        a.config = json!({"ignition": {"version": "3.2.0"}, "storage": {"files": [
            {"path": "/etc/a", "contents": {"source": "data:,a"}, "mode": 420}]}});
        let mut parent = a.config.clone();
        merge_value(&mut parent, json!({"storage": null}), "");
        merge_value(
            &mut parent,
            json!({"storage": {"files": [{"path": "/etc/a", "mode": null}]}}),
            "",
        );
        assert_eq!(parent, a.config);
    }

    #[test]
    fn keyed_lists_merge_by_key() {
        let mut a = mc("00-a");
        a.config = json!({"ignition":{"version":"3.2.0"},"storage":{"files":[{"path":"/etc/a","contents":{"source":"data:,one"}}]},"systemd":{"units":[{"name":"x.service","enabled":true,"dropins":[{"name":"10.conf","contents":"a"}]}]},"passwd":{"users":[{"name":"core","sshAuthorizedKeys":["k1"]}]}});
        let mut b = mc("10-b");
        b.config = json!({"ignition":{"version":"3.2.0"},"storage":{"files":[{"path":"/etc/a","contents":{"source":"data:,two"},"mode":384}]},"systemd":{"units":[{"name":"x.service","dropins":[{"name":"10.conf","contents":"b"},{"name":"20.conf","contents":"c"}]}]},"passwd":{"users":[{"name":"core","sshAuthorizedKeys":["k2"]}]}});
        let m = merged(&[a, b]).unwrap();
        let f = &m.config["storage"]["files"];
        assert_eq!(f.as_array().unwrap().len(), 1);
        assert_eq!(f[0]["contents"]["source"], "data:,two");
        assert_eq!(f[0]["mode"], 384);
        assert_eq!(f[0]["overwrite"], true);
        let u = &m.config["systemd"]["units"][0];
        assert_eq!(u["enabled"], true);
        assert_eq!(u["dropins"][0]["contents"], "b");
        assert_eq!(u["dropins"].as_array().unwrap().len(), 2);
        assert_eq!(
            m.config["passwd"]["users"][0]["sshAuthorizedKeys"],
            json!(["k1", "k2"])
        );
    }
}
