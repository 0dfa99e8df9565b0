//! MachineConfig objects as the MCO reads them. `spec` is strict: an unknown field is an error
//! naming it, as `oc apply` rejects it. `null` anywhere means "not set". A spec 2.2 Ignition
//! config is converted to spec 3 (`ParseAndConvertConfig`), and the MCO's admission checks run
//! on each object: kernel type, supported extensions, file modes. Every error names the field
//! by its path in the object (`spec.config.storage.files[0].mode`), and the line of the file
//! the user wrote when the input was YAML.

use anyhow::{Result, anyhow, bail};
use serde_json::{Map, Value};

use super::spec2;
use crate::kube::Located;

/// A problem with one field of a MachineConfig: its path in the object and what is wrong.
#[derive(Debug, thiserror::Error)]
#[error("{path}: {message}")]
pub struct FieldError {
    /// `spec.config.storage.files[0].mode`.
    pub path: String,
    /// What is wrong, and what would be right.
    pub message: String,
}

fn field(path: impl Into<String>, message: impl Into<String>) -> anyhow::Error {
    FieldError {
        path: path.into(),
        message: message.into(),
    }
    .into()
}

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
    let located: Vec<Located> = objects.into_iter().map(Located::bare).collect();
    check_set(parse_all(&located, what)?, what)
}

/// Reads the MachineConfig objects of one input (other kinds are skipped); `what` names it,
/// with the line of the field at fault when the input was YAML (`worker.yaml:14:`).
pub fn parse_all(objects: &[Located], what: &str) -> Result<Vec<MachineConfig>> {
    let mut out = Vec::new();
    for located in objects {
        let o = &located.value;
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
        let parsed = parse(o, name).map_err(|e| {
            let at = e
                .downcast_ref::<FieldError>()
                .and_then(|f| line_near(located, &f.path))
                .map(|l| format!(":{l}"))
                .unwrap_or_default();
            anyhow!("{what}{at}: MachineConfig {name}: {e}")
        })?;
        out.push(parsed);
    }
    Ok(out)
}

/// The line of `path`, or of the nearest node above it that has one (a missing field's
/// parent).
fn line_near(o: &Located, path: &str) -> Option<usize> {
    let mut p = path.to_string();
    loop {
        if let Some(l) = o.line_of(&p) {
            return Some(l);
        }
        let cut = p.rfind(['.', '['])?;
        p.truncate(cut);
    }
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
        Some(_) => return Err(field("spec", "must be a mapping (an object)")),
    };
    for key in spec.keys() {
        if !SPEC_FIELDS.contains(&key.as_str()) {
            let hint = suggest(key)
                .map(|s| format!(" (did you mean {s}?)"))
                .unwrap_or_default();
            return Err(field(
                format!("spec.{key}"),
                format!(
                    "not a MachineConfig field{hint}; the fields are {}",
                    SPEC_FIELDS.join(", ")
                ),
            ));
        }
    }
    let (config, converted_from) = config(spec.get("config"))?;
    let extensions = strings(spec, "extensions")?;
    if let Some(bad) = extensions
        .iter()
        .find(|e| !SUPPORTED_EXTENSIONS.contains(&e.as_str()))
    {
        let i = extensions.iter().position(|e| e == bad).unwrap_or(0);
        return Err(field(
            format!("spec.extensions[{i}]"),
            format!(
                "{bad:?} is not an extension the MCO supports ({})",
                SUPPORTED_EXTENSIONS.join(", ")
            ),
        ));
    }
    let kernel_type = match optional_string(spec, "kernelType")? {
        None => None,
        Some(k) if k == "default" => None,
        Some(k) if KERNEL_TYPES.contains(&k.as_str()) => Some(k),
        Some(k) => {
            return Err(field(
                "spec.kernelType",
                format!("{k:?} is not one of {}", KERNEL_TYPES.join(", ")),
            ));
        }
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
        Some(_) => {
            return Err(field(
                "spec.config",
                "must be a mapping (an Ignition config)",
            ));
        }
    };
    strip_nulls(&mut c);
    if c.as_object().is_some_and(Map::is_empty) {
        return Ok((c, None));
    }
    let mut converted_from = None;
    if let Some(v) = c["ignition"]["version"].as_str()
        && v.starts_with("2.")
    {
        if v != "2.2.0" {
            return Err(field(
                "spec.config.ignition.version",
                format!("Ignition spec {v}: the MCO reads spec 2 configs only as 2.2.0 (and 3.x)"),
            ));
        }
        converted_from = Some(v.to_string());
        c = spec2::convert(&c)
            .map_err(|e| field("spec.config", format!("(Ignition 2.2.0) {e}")))?;
    }
    if let Some(e) = typed_error(&c) {
        return Err(e);
    }
    let bytes = serde_json::to_vec(&c)?;
    let (_, warnings) = ignition_config::Config::parse_slice(&bytes).map_err(|e| {
        field(
            "spec.config",
            format!(
                "not a valid Ignition 3 config: {}",
                crate::ignition::pointer::describe_error(&e)
            ),
        )
    })?;
    if !warnings.is_empty() {
        let version = c["ignition"]["version"].as_str().unwrap_or("?");
        let keys = unused_keys(&warnings);
        return Err(field(
            format!("spec.config.{}", keys[0]),
            format!(
                "Ignition spec {version} has no such field{}",
                if keys.len() > 1 {
                    format!(" (nor {})", keys[1..].join(", "))
                } else {
                    String::new()
                }
            ),
        ));
    }
    // The MCO refuses setuid, setgid and sticky bits (validateIgn3FileModes).
    for (i, f) in c["storage"]["files"]
        .as_array()
        .into_iter()
        .flatten()
        .enumerate()
    {
        if let Some(mode) = f["mode"].as_u64()
            && mode > 0o777
        {
            let decimal = if (0o1000..=0o1777).contains(&mode) || mode == 644 || mode == 755 {
                format!(" (decimal {mode}: did you mean 0{mode}, which YAML reads as octal?)")
            } else {
                String::new()
            };
            return Err(field(
                format!("spec.config.storage.files[{i}].mode"),
                format!(
                    "file {} has mode {mode:#o}{decimal}; the MCO allows at most 0o777 (no setuid, setgid or sticky bit)",
                    f["path"].as_str().unwrap_or("?")
                ),
            ));
        }
    }
    Ok((c, converted_from))
}

/// The first type error in an Ignition 3 config, with its path, as the typed structs of the
/// `ignition-config` crate for its version find it: `storage.files[0].mode: expected an
/// integer, got the string "rw"`.
fn typed_error(c: &Value) -> Option<anyhow::Error> {
    macro_rules! check {
        ($m:ident) => {
            serde_path_to_error::deserialize::<_, ignition_config::$m::Config>(c.clone())
                .err()
                .map(|e| (e.path().to_string(), e.into_inner().to_string()))
        };
    }
    let found = match c["ignition"]["version"].as_str()? {
        "3.0.0" => check!(v3_0),
        "3.1.0" => check!(v3_1),
        "3.2.0" => check!(v3_2),
        "3.3.0" => check!(v3_3),
        "3.4.0" => check!(v3_4),
        "3.5.0" => check!(v3_5),
        _ => None,
    };
    let (path, message) = found?;
    Some(field(
        if path == "." {
            "spec.config".to_string()
        } else {
            format!("spec.config.{path}")
        },
        plain_serde_message(&message, &path),
    ))
}

/// serde's "invalid type: string \"rw\", expected i64" in the user's words.
fn plain_serde_message(m: &str, path: &str) -> String {
    let want = |w: &str| {
        w.replace("i64", "an integer")
            .replace("u64", "an integer")
            .replace("a boolean", "true or false")
            .replace("a sequence", "a list")
            .replace("a map", "a mapping")
    };
    let got = |g: &str| match g.split_once(' ') {
        Some(("string", v)) => format!("the string {v}"),
        Some(("integer", v)) => format!("the number {v}"),
        Some(("floating", v)) => format!("the number {}", v.trim_start_matches("point ")),
        Some(("boolean", v)) => v.trim_matches('`').to_string(),
        _ => match g {
            "map" => "a mapping".to_string(),
            "sequence" => "a list".to_string(),
            "null" => "null".to_string(),
            other => other.to_string(),
        },
    };
    let Some((g, w)) = m
        .strip_prefix("invalid type: ")
        .and_then(|rest| rest.split_once(", expected "))
    else {
        return m.to_string();
    };
    let out = format!("expected {}, got {}", want(w), got(g));
    if !path.ends_with(".mode") {
        return out;
    }
    let quoted_octal = g
        .strip_prefix("string ")
        .map(|v| v.trim_matches('"'))
        .is_some_and(|v| !v.is_empty() && v.bytes().all(|b| (b'0'..=b'7').contains(&b)));
    if quoted_octal {
        format!(
            "{out}: a quoted mode is a string to Kubernetes too; write it unquoted (0644, read as octal) or in decimal (420)"
        )
    } else {
        format!("{out}: a file mode is a number, 0644 in YAML (octal) or 420")
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

fn strings(spec: &Map<String, Value>, name: &str) -> Result<Vec<String>> {
    match spec.get(name) {
        None | Some(Value::Null) => Ok(Vec::new()),
        Some(Value::Array(items)) => items
            .iter()
            .map(|i| {
                i.as_str()
                    .map(str::to_string)
                    .ok_or_else(|| field(format!("spec.{name}"), "must be a list of strings"))
            })
            .collect(),
        Some(_) => Err(field(format!("spec.{name}"), "must be a list of strings")),
    }
}

fn optional_string(spec: &Map<String, Value>, name: &str) -> Result<Option<String>> {
    match spec.get(name) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) if s.is_empty() => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(_) => Err(field(format!("spec.{name}"), "must be a string")),
    }
}

fn optional_bool(spec: &Map<String, Value>, name: &str) -> Result<Option<bool>> {
    match spec.get(name) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Bool(b)) => Ok(Some(*b)),
        Some(_) => Err(field(format!("spec.{name}"), "must be true or false")),
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
                && e.contains("spec.kernelArgs: not a MachineConfig field")
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
        assert!(e.contains("spec.fips: must be true or false"), "{e}");
        let e = one(json!({"kernelArguments": "nosmt"}))
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("spec.kernelArguments: must be a list of strings"),
            "{e}"
        );
    }

    #[test]
    fn ignition_typos_are_named() {
        let e = one(json!({"config": {"ignition": {"version": "3.2.0"}, "storage": {"file": []}}}))
            .unwrap_err()
            .to_string();
        assert!(
            e.ends_with("spec.config.storage.file: Ignition spec 3.2.0 has no such field"),
            "{e}"
        );
        let e = one(json!({"config": {"ignition": {"version": "2.1.0"}}}))
            .unwrap_err()
            .to_string();
        assert!(e.contains("only as 2.2.0"), "{e}");
    }

    #[test]
    fn modes_are_numbers_and_a_string_is_named_at_its_line() {
        // What kube::yaml made of `mode: 0644` (plain) arrives as the number 420.
        let m = one(
            json!({"config": {"ignition": {"version": "3.2.0"}, "storage": {
            "files": [{"path": "/etc/a", "mode": 420, "contents": {"source": "data:,a"}}],
            "directories": [{"path": "/etc/d", "mode": 488}]}}}),
        )
        .unwrap();
        assert_eq!(m.config["storage"]["files"][0]["mode"], 420);
        // A quoted one stays a string, as it does for Kubernetes: named, with the line.
        let yaml = "kind: MachineConfig\nmetadata:\n  name: 50-worker-x\nspec:\n  config:\n    ignition:\n      version: 3.2.0\n    storage:\n      directories:\n      - path: /etc/d\n        mode: \"0750\"\n";
        let objects = crate::kube::located(yaml, "in.yaml").unwrap();
        let e = parse_all(&objects, "in.yaml").unwrap_err().to_string();
        assert_eq!(
            e,
            "in.yaml:11: MachineConfig 50-worker-x: spec.config.storage.directories[0].mode: expected an integer, got the string \"0750\": a quoted mode is a string to Kubernetes too; write it unquoted (0644, read as octal) or in decimal (420)"
        );
        let e = one(
            json!({"config": {"ignition": {"version": "3.2.0"}, "storage": {
            "files": [{"path": "/etc/a", "mode": "rw-r--r--"}]}}}),
        )
        .unwrap_err()
        .to_string();
        assert!(
            e.ends_with("a file mode is a number, 0644 in YAML (octal) or 420"),
            "{e}"
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
