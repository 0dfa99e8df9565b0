//! MachineConfig objects as the MCO reads them. `null` anywhere means "not set". The MCO's checks run
//! on each object (`ValidateMachineConfig`): the kernel type, and the Ignition config as
//! Ignition validates it (duplicate paths, unit contents systemd cannot parse, URLs, modes).
//! The config is then what `ParseAndConvertConfig` makes of it: any spec 3 version translated
//! up to the MCO's internal 3.5.0, a spec 2.2 one cleaned up and converted the MCO's way.
//! Every error names the field by its path in the object (`spec.config.storage.files[0].mode`),
//! and the line of the file the user wrote when the input was YAML.
//!
//! Unknown `spec` fields and unknown Ignition keys are dropped and listed in
//! [`MachineConfig::dropped`], as the API server and the MCO drop them (Ignition warns "unused
//! key"); [`Strictness::Strict`] refuses them instead. Deliberately stricter than the MCO:
//! unknown extensions are refused in every MachineConfig (the MCO checks them only in one that
//! has a config, and the daemon then fails at firstboot).
//!
//! Reading a whole input, and which MachineConfigs a pool selects, is [`read`]'s.

mod dropped;
mod read;

use dropped::refuse_if_strict;
pub use dropped::{DroppedField, Strictness};
pub use read::{Dropped, Read, Unselected, Unselection, parse_one, read};

use anyhow::Result;
use serde_json::{Map, Value};

use super::object::GENERATED_BY;
use crate::ignition::spec::validate::{Issue, validate};
use crate::ignition::spec::{self, Config, DecodeError, Spec, convert, v2};

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

/// Extensions the MCO installs (`SupportedExtensions` of machine-config-operator; `wasm`
/// left in 28f9c7246, `two-node-ha` came in a4131ad63).
pub const SUPPORTED_EXTENSIONS: [&str; 7] = [
    "two-node-ha",
    "ipsec",
    "usbguard",
    "kerberos",
    "kernel-devel",
    "sandboxed-containers",
    "sysstat",
];

/// Every field of `MachineConfigSpec` (openshift/api), plus `neededBeforeNodeApproved` of
/// the "Securing the Machine Config Server" enhancement (openshift/enhancements).
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
    /// spec.config as the MCO holds it after `ParseAndConvertConfig` (spec 3.5.0); `None`
    /// when the MachineConfig has none.
    pub config: Option<Config>,
    /// The spec the config was written in.
    pub written_in: Option<Spec>,
    /// What Ignition's validator warned about.
    pub warnings: Vec<Issue>,
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
    /// Whether a controller generated it (its `osImageURL` is then ignored in a merge).
    pub generated: bool,
    /// The pool, when this is a cluster's rendered MachineConfig (`rendered-<pool>-<hash>`).
    pub rendered_pool: Option<String>,
    /// The object as given, which the MCS serves for a cluster's rendered MachineConfig.
    pub object: Value,
    /// What the MCO would drop from it, and did drop here.
    pub dropped: Vec<DroppedField>,
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

/// The pool of a cluster's rendered MachineConfig: `rendered-<pool>-<hex hash>`.
pub fn rendered_pool(name: &str) -> Option<&str> {
    let (pool, hash) = name.strip_prefix("rendered-")?.rsplit_once('-')?;
    let is_hash = hash.len() >= 8 && hash.bytes().all(|b| b.is_ascii_hexdigit());
    (is_hash && crate::names::is_dns_label(pool)).then_some(pool)
}

/// One MachineConfig object, checked as the MCO checks it; `name` is its metadata.name.
fn parse(o: &Value, name: &str, strict: Strictness) -> Result<MachineConfig> {
    let empty = Map::new();
    let spec = match o.get("spec") {
        None | Some(Value::Null) => &empty,
        Some(Value::Object(m)) => m,
        Some(_) => return Err(field("spec", "must be a mapping (an object)")),
    };
    let mut dropped: Vec<DroppedField> = spec
        .iter()
        .filter(|(k, v)| !SPEC_FIELDS.contains(&k.as_str()) && !v.is_null())
        .map(|(k, _)| DroppedField {
            path: format!("spec.{k}"),
            meant: suggest(k).map(str::to_string),
            ignition: None,
        })
        .collect();
    refuse_if_strict(&dropped, strict)?;
    // The MCO's order (ValidateMachineConfig): kernel type, Ignition config, extensions.
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
    let parsed = config(spec.get("config"), strict, &mut dropped)?;
    let extensions = strings(spec, "extensions")?;
    check_extensions(&extensions)?;
    let role = o["metadata"]["labels"][ROLE_LABEL]
        .as_str()
        .map(str::to_string);
    let generated = o["metadata"]["annotations"][GENERATED_BY]
        .as_str()
        .is_some_and(|v| !v.is_empty());
    let (config, written_in, warnings) = match parsed {
        Some(p) => (Some(p.config), Some(p.written_in), p.warnings),
        None => (None, None, Vec::new()),
    };
    Ok(MachineConfig {
        name: name.to_string(),
        role,
        config,
        written_in,
        warnings,
        pre_approval: optional_bool(spec, "neededBeforeNodeApproved")?.unwrap_or(false),
        kernel_arguments: strings(spec, "kernelArguments")?,
        fips: optional_bool(spec, "fips")?.unwrap_or(false),
        kernel_type,
        extensions,
        os_image_url: optional_string(spec, "osImageURL")?,
        extensions_image: optional_string(spec, "baseOSExtensionsContainerImage")?,
        generated,
        rendered_pool: rendered_pool(name).map(str::to_string),
        object: o.clone(),
        dropped,
    })
}

/// Every extension must be one the MCO supports; the error names the first that is not.
fn check_extensions(extensions: &[String]) -> Result<()> {
    let unsupported: Vec<&String> = extensions
        .iter()
        .filter(|e| !SUPPORTED_EXTENSIONS.contains(&e.as_str()))
        .collect();
    if let Some(first) = unsupported.first() {
        let i = extensions.iter().position(|e| e == *first).unwrap_or(0);
        let names: Vec<String> = unsupported.iter().map(|e| format!("{e:?}")).collect();
        return Err(field(
            format!("spec.extensions[{i}]"),
            format!(
                "{} {} not {} the MCO supports ({})",
                names.join(", "),
                if names.len() == 1 { "is" } else { "are" },
                if names.len() == 1 {
                    "an extension"
                } else {
                    "extensions"
                },
                SUPPORTED_EXTENSIONS.join(", ")
            ),
        ));
    }
    Ok(())
}

/// A MachineConfig's Ignition config, read.
struct Parsed {
    config: Config,
    written_in: Spec,
    warnings: Vec<Issue>,
}

/// spec.config as the MCO reads it: `IgnParseWrapper` (any spec 3 version, or 2.2, each
/// validated as Ignition validates it), `ValidateIgnition`'s file modes, then
/// `ParseAndConvertConfig` to spec 3.5.0.
fn config(
    v: Option<&Value>,
    strict: Strictness,
    dropped: &mut Vec<DroppedField>,
) -> Result<Option<Parsed>> {
    let c = match v {
        None | Some(Value::Null) => return Ok(None),
        Some(v @ Value::Object(_)) => v,
        Some(_) => {
            return Err(field(
                "spec.config",
                "must be a mapping (an Ignition config)",
            ));
        }
    };
    let (cfg, unknown) = Config::decode(c.clone()).map_err(|e| match e {
        DecodeError::Field(f) => field(
            format!("spec.config.{}", f.path),
            mode_hint(&f),
        ),
        DecodeError::InvalidVersion => field(
            "spec.config.ignition.version",
            "missing or not a version: an Ignition config starts with ignition.version (3.0.0 to 3.5.0, or 2.2.0); the MCO refuses it too (\"invalid version\")",
        ),
        DecodeError::UnknownVersion(v) if v.starts_with("2.") => field(
            "spec.config.ignition.version",
            format!(
                "Ignition spec {v}: spec 2 MachineConfigs are read only as 2.2.0 (the MCO also reads 2.0 and 2.1, which no OpenShift 4 release wrote); change the version to 2.2.0"
            ),
        ),
        DecodeError::UnknownVersion(v) => field(
            "spec.config.ignition.version",
            format!("Ignition spec {v} is not one the MCO reads (2.2.0, 3.0.0 to 3.5.0)"),
        ),
    })?;
    let first_new = dropped.len();
    let case_warnings = dropped::sort_unknown(unknown, cfg.spec, dropped);
    refuse_if_strict(&dropped[first_new..], strict)?;
    let written_in = cfg.spec;
    let at = |e: &Issue| format!("spec.config.{}", e.path);
    let (config, mut warnings) = if cfg.spec == Spec::V2_2 {
        // The MCO validates a spec 2 config (IgnParseWrapper), then cleans it up and
        // converts it (ParseAndConvertConfig).
        let v3 = v2::mco_dedupe(&cfg)
            .and_then(|d| convert::to_spec(d, Spec::INTERNAL))
            .map_err(|e| field("spec.config", format!("(Ignition 2.2.0) {e}")))?;
        check_modes(&cfg)?;
        (v3, Vec::new())
    } else {
        let r = validate(&cfg);
        if let Some(e) = r.errors.first() {
            let misplaced = dropped::misplaced(&at(e), &dropped[first_new..]);
            return Err(field(at(e), format!("{}{misplaced}", describe_issue(e))));
        }
        let warnings: Vec<Issue> = r
            .warnings
            .into_iter()
            .map(|w| Issue {
                path: at(&w),
                message: w.message,
            })
            .collect();
        let v35 = convert::to_spec(cfg, Spec::INTERNAL).map_err(|e| field("spec.config", e))?;
        check_modes(&v35)?;
        (v35, warnings)
    };
    warnings.splice(0..0, case_warnings);
    Ok(Some(Parsed {
        config,
        written_in,
        warnings,
    }))
}

/// Ignition's words, with what usually causes them.
fn describe_issue(e: &Issue) -> String {
    match e.message.as_str() {
        "duplicate entry defined" => format!(
            "{} (files, directories and links share one list of paths; units and dropins are by name)",
            e.message
        ),
        m if m.starts_with("invalid unit content") => {
            format!("{m} (systemd could not read this unit)")
        }
        m => m.to_string(),
    }
}

/// The MCO refuses setuid, setgid and sticky bits (`validateIgn3FileModes`).
fn check_modes(cfg: &Config) -> Result<()> {
    for (i, f) in cfg.list("/storage/files").iter().enumerate() {
        if let Some(mode) = f["mode"].as_i64()
            && !(0..=0o777).contains(&mode)
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
    Ok(())
}

/// A type error (without its path), with the YAML hint when it is on a mode.
fn mode_hint(f: &spec::FieldError) -> String {
    let message = format!("expected {}, got {}", f.expected, f.got);
    if !f.path.ends_with(".mode") || f.expected != "an integer" {
        return message;
    }
    let Some(quoted) = f.got.strip_prefix("the string ") else {
        return message;
    };
    let v = quoted.trim_matches('"');
    if !v.is_empty() && v.bytes().all(|b| (b'0'..=b'7').contains(&b)) {
        format!(
            "{message}: a quoted mode is a string to Kubernetes too; write it unquoted (0644, read as octal) or in decimal (420)"
        )
    } else {
        format!("{message}: a file mode is a number, 0644 in YAML (octal) or 420")
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
        (shared >= 5 && shared + 2 >= k.len()) || crate::names::edit_distance(&k, &f) <= 2
    })
}

#[cfg(test)]
mod tests;
