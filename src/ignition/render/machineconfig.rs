//! MachineConfig objects as the MCO reads them. `spec` is strict: an unknown field is an error
//! naming it, as `oc apply` rejects it. `null` anywhere means "not set". A spec 2.2 Ignition
//! config is converted to spec 3 (`ParseAndConvertConfig`), and the MCO's admission checks run
//! on each object: kernel type, supported extensions, file modes.

use anyhow::{Result, anyhow, bail};
use serde_json::{Map, Value};

use super::spec2;

/// The role label of a MachineConfig.
pub const ROLE_LABEL: &str = "machineconfiguration.openshift.io/role";

/// Kernel types the MCO accepts (`ValidateMachineConfig`); `default` is also the absence of one.
pub const KERNEL_TYPES: [&str; 3] = ["default", "realtime", "64k-pages"];

/// Extensions the MCO installs (`SupportedExtensions` of machine-config-operator).
pub const SUPPORTED_EXTENSIONS: [&str; 7] = [
    "wasm",
    "ipsec",
    "usbguard",
    "kerberos",
    "kernel-devel",
    "sandboxed-containers",
    "sysstat",
];

/// Every field of `MachineConfigSpec` (openshift/api), plus seed 002's `neededBeforeNodeApproved`.
const SPEC_FIELDS: [&str; 8] = [
    "config",
    "kernelArguments",
    "extensions",
    "fips",
    "kernelType",
    "osImageURL",
    "baseOSExtensionsContainerImage",
    "neededBeforeNodeApproved",
];

/// One MachineConfig, checked.
#[derive(Debug, Clone, Default)]
pub struct MachineConfig {
    /// metadata.name.
    pub name: String,
    /// The role label.
    pub role: Option<String>,
    /// spec.config as Ignition 3 JSON, `null` members removed; `{}` when absent.
    pub config: Value,
    /// The spec 2 version this config was converted from, if it was.
    pub converted_from: Option<String>,
    /// spec.neededBeforeNodeApproved.
    pub pre_approval: bool,
    /// spec.kernelArguments.
    pub kernel_arguments: Vec<String>,
    /// spec.fips.
    pub fips: bool,
    /// spec.kernelType, when set to something other than `default`.
    pub kernel_type: Option<String>,
    /// spec.extensions.
    pub extensions: Vec<String>,
    /// spec.osImageURL, when not empty.
    pub os_image_url: Option<String>,
    /// spec.baseOSExtensionsContainerImage, when not empty.
    pub extensions_image: Option<String>,
    /// The pool, when this is a cluster's rendered MachineConfig (`rendered-<pool>-<hash>`).
    pub rendered_pool: Option<String>,
    /// The object as given, which the MCS serves for a cluster's rendered MachineConfig.
    pub object: Value,
}

impl MachineConfig {
    /// Whether a field nothing but the machine-config daemon applies is set (kernel type,
    /// FIPS, extensions, OS image).
    pub fn daemon_fields(&self) -> Vec<&'static str> {
        let mut v = Vec::new();
        if self.fips {
            v.push("fips");
        }
        if self.kernel_type.is_some() {
            v.push("kernelType");
        }
        if !self.extensions.is_empty() {
            v.push("extensions");
        }
        if self.os_image_url.is_some() {
            v.push("osImageURL");
        }
        if self.extensions_image.is_some() {
            v.push("baseOSExtensionsContainerImage");
        }
        v
    }
}

/// Reads MachineConfig objects (other kinds are skipped) and checks the set: at least one,
/// names unique. `what` names the input in errors.
pub fn machine_configs(objects: Vec<Value>, what: &str) -> Result<Vec<MachineConfig>> {
    check_set(parse_all(&objects, what)?, what)
}

/// Reads the MachineConfig objects of one input (other kinds are skipped); `what` names it.
pub fn parse_all(objects: &[Value], what: &str) -> Result<Vec<MachineConfig>> {
    let mut out = Vec::new();
    for o in objects {
        if o["kind"].as_str().is_some_and(|k| k != "MachineConfig") {
            continue;
        }
        if o.get("kind").is_none() && o.get("ignition").is_some() {
            bail!(
                "{what} is an Ignition config, not a MachineConfig; render reads MachineConfig objects as `oc get mc -o yaml` prints them (an Ignition config goes under spec.config)"
            );
        }
        let name = o["metadata"]["name"]
            .as_str()
            .filter(|n| !n.is_empty())
            .ok_or_else(|| anyhow!("{what}: a MachineConfig has no metadata.name"))?;
        out.push(parse(o, name).map_err(|e| anyhow!("{what}: MachineConfig {name}: {e}"))?);
    }
    Ok(out)
}

/// Checks a whole set of MachineConfigs: at least one, names unique.
pub fn check_set(mcs: Vec<MachineConfig>, what: &str) -> Result<Vec<MachineConfig>> {
    if mcs.is_empty() {
        bail!("{what}: no MachineConfig objects found");
    }
    let mut names: Vec<&str> = mcs.iter().map(|m| m.name.as_str()).collect();
    names.sort_unstable();
    if let Some(w) = names.windows(2).find(|w| w[0] == w[1]) {
        bail!("{what}: two MachineConfigs are named {}", w[0]);
    }
    Ok(mcs)
}

/// The pool of a cluster's rendered MachineConfig: `rendered-<pool>-<hex hash>`.
pub fn rendered_pool(name: &str) -> Option<&str> {
    let (pool, hash) = name.strip_prefix("rendered-")?.rsplit_once('-')?;
    let is_hash = hash.len() >= 8 && hash.bytes().all(|b| b.is_ascii_hexdigit());
    (is_hash && crate::names::is_dns_label(pool)).then_some(pool)
}

fn parse(o: &Value, name: &str) -> Result<MachineConfig> {
    let empty = Map::new();
    let spec = match o.get("spec") {
        None | Some(Value::Null) => &empty,
        Some(Value::Object(m)) => m,
        Some(_) => bail!("spec is not an object"),
    };
    for key in spec.keys() {
        if !SPEC_FIELDS.contains(&key.as_str()) {
            let hint = suggest(key)
                .map(|s| format!(" (did you mean {s}?)"))
                .unwrap_or_default();
            bail!(
                "spec.{key} is not a MachineConfig field{hint}; the fields are {}",
                SPEC_FIELDS.join(", ")
            );
        }
    }
    let (config, converted_from) = config(spec.get("config"))?;
    let extensions = strings(spec, "extensions")?;
    if let Some(bad) = extensions
        .iter()
        .find(|e| !SUPPORTED_EXTENSIONS.contains(&e.as_str()))
    {
        bail!(
            "spec.extensions: {bad:?} is not an extension the MCO supports ({})",
            SUPPORTED_EXTENSIONS.join(", ")
        );
    }
    let kernel_type = match optional_string(spec, "kernelType")? {
        None => None,
        Some(k) if k == "default" => None,
        Some(k) if KERNEL_TYPES.contains(&k.as_str()) => Some(k),
        Some(k) => bail!(
            "spec.kernelType {k:?} is not one of {}",
            KERNEL_TYPES.join(", ")
        ),
    };
    let role = o["metadata"]["labels"][ROLE_LABEL]
        .as_str()
        .map(str::to_string);
    Ok(MachineConfig {
        name: name.to_string(),
        role,
        config,
        converted_from,
        pre_approval: optional_bool(spec, "neededBeforeNodeApproved")?.unwrap_or(false),
        kernel_arguments: strings(spec, "kernelArguments")?,
        fips: optional_bool(spec, "fips")?.unwrap_or(false),
        kernel_type,
        extensions,
        os_image_url: optional_string(spec, "osImageURL")?,
        extensions_image: optional_string(spec, "baseOSExtensionsContainerImage")?,
        rendered_pool: rendered_pool(name).map(str::to_string),
        object: o.clone(),
    })
}

/// spec.config: Ignition 3 JSON with nulls removed, after converting spec 2.2.
fn config(v: Option<&Value>) -> Result<(Value, Option<String>)> {
    let mut c = match v {
        None | Some(Value::Null) => return Ok((Value::Object(Map::new()), None)),
        Some(v @ Value::Object(_)) => v.clone(),
        Some(_) => bail!("spec.config is not an object"),
    };
    strip_nulls(&mut c);
    yaml11_octal_modes(&mut c);
    if c.as_object().is_some_and(Map::is_empty) {
        return Ok((c, None));
    }
    let mut converted_from = None;
    if let Some(v) = c["ignition"]["version"].as_str()
        && v.starts_with("2.")
    {
        if v != "2.2.0" {
            bail!(
                "spec.config is Ignition spec {v}; the MCO reads spec 2 configs only as 2.2.0 (and 3.x)"
            );
        }
        converted_from = Some(v.to_string());
        c = spec2::convert(&c).map_err(|e| anyhow!("spec.config (Ignition 2.2.0): {e}"))?;
    }
    let bytes = serde_json::to_vec(&c)?;
    let (_, warnings) = ignition_config::Config::parse_slice(&bytes).map_err(|e| {
        anyhow!(
            "spec.config is not a valid Ignition 3 config: {}",
            crate::ignition::pointer::describe_error(&e)
        )
    })?;
    if !warnings.is_empty() {
        let version = c["ignition"]["version"].as_str().unwrap_or("?");
        bail!(
            "spec.config has {}, which Ignition spec {version} does not have",
            unused_keys(&warnings).join(", ")
        );
    }
    // The MCO refuses setuid, setgid and sticky bits (validateIgn3FileModes).
    for f in c["storage"]["files"].as_array().into_iter().flatten() {
        if let Some(mode) = f["mode"].as_u64()
            && mode > 0o777
        {
            bail!(
                "spec.config: file {} has mode {mode:#o}; the MCO allows at most 0o777 (no setuid, setgid or sticky bit)",
                f["path"].as_str().unwrap_or("?")
            );
        }
    }
    Ok((c, converted_from))
}

/// `mode: 0644` is octal 420 to Kubernetes (sigs.k8s.io/yaml reads YAML 1.1), but a string to a
/// YAML 1.2 reader like ours. Read such modes as Kubernetes and `oc apply` do.
fn yaml11_octal_modes(c: &mut Value) {
    for list in ["/storage/files", "/storage/directories"] {
        for entry in c
            .pointer_mut(list)
            .and_then(Value::as_array_mut)
            .into_iter()
            .flatten()
        {
            let octal = entry["mode"]
                .as_str()
                .filter(|m| m.len() > 1 && m.starts_with('0'))
                .and_then(|m| u64::from_str_radix(&m[1..], 8).ok());
            if let Some(mode) = octal {
                entry["mode"] = mode.into();
            }
        }
    }
}

/// The field paths of `ignition-config`'s unused-key warnings, as `storage.file`.
pub fn unused_keys(warnings: &[ignition_config::Warning]) -> Vec<String> {
    warnings
        .iter()
        .map(|w| {
            let s = w.to_string();
            s.trim_start_matches("unused key: ")
                .trim_start_matches("$.")
                .to_string()
        })
        .collect()
}

/// Removes every object member whose value is `null`, at any depth: in a MachineConfig,
/// `null` means "not set", never "erase".
pub fn strip_nulls(v: &mut Value) {
    match v {
        Value::Object(m) => {
            m.retain(|_, v| !v.is_null());
            m.values_mut().for_each(strip_nulls);
        }
        Value::Array(a) => a.iter_mut().for_each(strip_nulls),
        _ => {}
    }
}

fn strings(spec: &Map<String, Value>, field: &str) -> Result<Vec<String>> {
    match spec.get(field) {
        None | Some(Value::Null) => Ok(Vec::new()),
        Some(Value::Array(items)) => items
            .iter()
            .map(|i| {
                i.as_str()
                    .map(str::to_string)
                    .ok_or_else(|| anyhow!("spec.{field} must be a list of strings"))
            })
            .collect(),
        Some(_) => bail!("spec.{field} must be a list of strings"),
    }
}

fn optional_string(spec: &Map<String, Value>, field: &str) -> Result<Option<String>> {
    match spec.get(field) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) if s.is_empty() => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(_) => bail!("spec.{field} must be a string"),
    }
}

fn optional_bool(spec: &Map<String, Value>, field: &str) -> Result<Option<bool>> {
    match spec.get(field) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Bool(b)) => Ok(Some(*b)),
        Some(_) => bail!("spec.{field} must be true or false"),
    }
}

/// The spec field a typo most likely meant: a long shared start (`kernelArgs`), or at most
/// two edits away (`fisp`).
fn suggest(key: &str) -> Option<&'static str> {
    let k = key.to_ascii_lowercase();
    SPEC_FIELDS.into_iter().find(|f| {
        let f = f.to_ascii_lowercase();
        let shared = k.bytes().zip(f.bytes()).take_while(|(a, b)| a == b).count();
        (shared >= 5 && shared + 2 >= k.len()) || edit_distance(&k, &f) <= 2
    })
}

fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            let sub = prev[j] + usize::from(ca != *cb);
            cur.push(sub.min(prev[j + 1] + 1).min(cur[j] + 1));
        }
        prev = cur;
    }
    prev[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn one(spec: Value) -> Result<MachineConfig> {
        let o = json!({"kind": "MachineConfig", "metadata": {"name": "50-worker-x",
            "labels": {ROLE_LABEL: "worker"}}, "spec": spec});
        machine_configs(vec![o], "in.yaml").map(|mut v| v.remove(0))
    }

    #[test]
    fn unknown_spec_field_is_named_with_a_suggestion() {
        let e = one(json!({"kernelArgs": ["nosmt"]}))
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("MachineConfig 50-worker-x")
                && e.contains("spec.kernelArgs is not a MachineConfig field")
                && e.contains("did you mean kernelArguments?"),
            "{e}"
        );
        let e = one(json!({"fisp": true})).unwrap_err().to_string();
        assert!(e.contains("did you mean fips?"), "{e}");
        let e = one(json!({"colour": "blue"})).unwrap_err().to_string();
        assert!(
            e.contains("spec.colour") && !e.contains("did you mean"),
            "{e}"
        );
    }

    #[test]
    fn null_means_not_set() {
        let m = one(
            json!({"config": null, "kernelArguments": null, "fips": null,
            "kernelType": null, "extensions": null, "osImageURL": null}),
        )
        .unwrap();
        assert_eq!(m.config, json!({}));
        assert!(m.kernel_arguments.is_empty() && !m.fips && m.kernel_type.is_none());
        let m = one(
            json!({"config": {"ignition": {"version": "3.2.0"}, "storage": null,
            "systemd": {"units": [{"name": "a.service", "contents": null, "enabled": true}]}}}),
        )
        .unwrap();
        assert_eq!(
            m.config,
            json!({"ignition": {"version": "3.2.0"}, "systemd": {"units": [{"name": "a.service", "enabled": true}]}})
        );
    }

    #[test]
    fn kernel_types_extensions_and_modes_are_checked() {
        assert_eq!(
            one(json!({"kernelType": "64k-pages"}))
                .unwrap()
                .kernel_type
                .as_deref(),
            Some("64k-pages")
        );
        assert_eq!(
            one(json!({"kernelType": "default"})).unwrap().kernel_type,
            None
        );
        let e = one(json!({"kernelType": "rt"})).unwrap_err().to_string();
        assert!(
            e.contains("\"rt\" is not one of default, realtime, 64k-pages"),
            "{e}"
        );
        let e = one(json!({"extensions": ["usbguard", "vim"]}))
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("\"vim\" is not an extension the MCO supports"),
            "{e}"
        );
        let e = one(
            json!({"config": {"ignition": {"version": "3.2.0"}, "storage": {"files": [
            {"path": "/usr/local/bin/x", "mode": 2541, "contents": {"source": "data:,x"}}]}}}),
        )
        .unwrap_err()
        .to_string();
        assert!(e.contains("/usr/local/bin/x has mode 0o4755"), "{e}");
        let e = one(json!({"fips": "yes"})).unwrap_err().to_string();
        assert!(e.contains("spec.fips must be true or false"), "{e}");
        let e = one(json!({"kernelArguments": "nosmt"}))
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("spec.kernelArguments must be a list of strings"),
            "{e}"
        );
    }

    #[test]
    fn ignition_typos_are_named() {
        let e = one(json!({"config": {"ignition": {"version": "3.2.0"}, "storage": {"file": []}}}))
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("spec.config has storage.file, which Ignition spec 3.2.0 does not have"),
            "{e}"
        );
        let e = one(json!({"config": {"ignition": {"version": "2.1.0"}}}))
            .unwrap_err()
            .to_string();
        assert!(e.contains("only as 2.2.0"), "{e}");
    }

    #[test]
    fn yaml_11_octal_modes_are_read_as_kubernetes_reads_them() {
        let m = one(
            json!({"config": {"ignition": {"version": "3.2.0"}, "storage": {
            "files": [{"path": "/etc/a", "mode": "0644", "contents": {"source": "data:,a"}}],
            "directories": [{"path": "/etc/d", "mode": "0750"}]}}}),
        )
        .unwrap();
        assert_eq!(m.config["storage"]["files"][0]["mode"], 420);
        assert_eq!(m.config["storage"]["directories"][0]["mode"], 488);
        assert!(
            one(
                json!({"config": {"ignition": {"version": "3.2.0"}, "storage": {
            "files": [{"path": "/etc/a", "mode": "rw-r--r--"}]}}})
            )
            .is_err()
        );
    }

    #[test]
    fn rendered_names() {
        assert_eq!(
            rendered_pool("rendered-worker-5f9c1d3b0a4e8c7f6d2b1a0e9c8d7f6a"),
            Some("worker")
        );
        assert_eq!(
            rendered_pool("rendered-infra-gpu-0123abcd"),
            Some("infra-gpu")
        );
        assert_eq!(rendered_pool("rendered-worker"), None);
        assert_eq!(rendered_pool("rendered-worker-notahash"), None);
        assert_eq!(rendered_pool("99-worker-ssh"), None);
    }
}
