//! MachineConfigs to rendered Ignition configs, as the MCO renders them, and the pre-approval
//! subset of seed 002 (`spec.neededBeforeNodeApproved`), scanned for secrets because it is
//! served without authentication.

use std::io::Read;

use anyhow::{Result, anyhow, bail};
use serde_json::{Map, Value};

use super::{SpecVersion, dataurl};

/// The role label of a MachineConfig.
pub const ROLE_LABEL: &str = "machineconfiguration.openshift.io/role";

/// One MachineConfig.
#[derive(Debug, Clone)]
pub struct MachineConfig {
    /// metadata.name.
    pub name: String,
    /// The role label.
    pub role: Option<String>,
    /// spec.config (Ignition 3.x).
    pub config: Value,
    /// spec.neededBeforeNodeApproved.
    pub pre_approval: bool,
    /// spec.kernelArguments.
    pub kernel_arguments: Vec<String>,
}

/// Reads MachineConfig objects; `what` names the input in errors.
pub fn machine_configs(objects: Vec<Value>, what: &str) -> Result<Vec<MachineConfig>> {
    let mut out = Vec::new();
    for o in objects {
        if o["kind"].as_str().is_some_and(|k| k != "MachineConfig") {
            continue;
        }
        let name = o["metadata"]["name"]
            .as_str()
            .ok_or_else(|| anyhow!("{what}: a MachineConfig has no metadata.name"))?
            .to_string();
        let config = if o["spec"]["config"].is_null() {
            Value::Object(Map::new())
        } else {
            o["spec"]["config"].clone()
        };
        if !config.is_object() {
            bail!("{what}: MachineConfig {name}: spec.config is not an object");
        }
        if !config.as_object().is_some_and(|m| m.is_empty()) {
            let bytes = serde_json::to_vec(&config)?;
            ignition_config::Config::parse_slice(&bytes)
                .map_err(|e| anyhow!("{what}: MachineConfig {name}: spec.config is not a valid Ignition 3 config: {}", super::pointer::describe_error(&e)))?;
        }
        let pre_approval = match &o["spec"]["neededBeforeNodeApproved"] {
            Value::Null => false,
            Value::Bool(b) => *b,
            _ => bail!(
                "{what}: MachineConfig {name}: spec.neededBeforeNodeApproved must be true or false"
            ),
        };
        out.push(MachineConfig {
            role: o["metadata"]["labels"][ROLE_LABEL]
                .as_str()
                .map(str::to_string),
            kernel_arguments: o["spec"]["kernelArguments"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|a| a.as_str().map(str::to_string))
                .collect(),
            config,
            pre_approval,
            name,
        });
    }
    if out.is_empty() {
        bail!("{what}: no MachineConfig objects found");
    }
    let mut names: Vec<&str> = out.iter().map(|m| m.name.as_str()).collect();
    names.sort_unstable();
    if let Some(w) = names.windows(2).find(|w| w[0] == w[1]) {
        bail!("{what}: two MachineConfigs are named {}", w[0]);
    }
    Ok(out)
}

/// One pool's render.
#[derive(Debug, Clone)]
pub struct Rendered {
    /// Pool name.
    pub pool: String,
    /// `rendered-<pool>-<hash>`.
    pub name: String,
    /// MachineConfigs in merge order.
    pub order: Vec<String>,
    /// The subset in the pre-approval set.
    pub pre_order: Vec<String>,
    /// The full config.
    pub full: Value,
    /// The pre-approval config.
    pub pre: Value,
    /// Output spec version.
    pub version: SpecVersion,
}

/// The MachineConfigs of a pool in MCO order: `master` takes master configs; every other pool
/// takes the worker configs first, then its own (custom pools inherit worker), each by name.
pub fn pool_order<'a>(mcs: &'a [MachineConfig], pool: &str) -> Vec<&'a MachineConfig> {
    let by_role = |r: &str| {
        let mut v: Vec<&MachineConfig> = mcs
            .iter()
            .filter(|m| m.role.as_deref() == Some(r))
            .collect();
        v.sort_by(|a, b| a.name.cmp(&b.name));
        v
    };
    match pool {
        "master" => by_role("master"),
        "worker" => by_role("worker"),
        custom => {
            let mut v = by_role("worker");
            v.extend(by_role(custom));
            v
        }
    }
}

/// Renders `pool`. `version`: the output spec; `None` picks the newest input version (at least
/// 3.2.0, what the MCO writes).
pub fn render(mcs: &[MachineConfig], pool: &str, version: Option<SpecVersion>) -> Result<Rendered> {
    let order = pool_order(mcs, pool);
    if order.is_empty() {
        bail!("no MachineConfig applies to pool {pool}");
    }
    let version = match version {
        Some(v) => v,
        None => order
            .iter()
            .filter_map(|m| {
                m.config["ignition"]["version"]
                    .as_str()
                    .and_then(|v| SpecVersion::parse(v).ok())
            })
            .max()
            .unwrap_or(SpecVersion::DEFAULT)
            .max(SpecVersion::DEFAULT),
    };
    let full = merge_all(&order, version)?;
    let pre_mcs: Vec<&MachineConfig> = order.iter().copied().filter(|m| m.pre_approval).collect();
    let pre = merge_all(&pre_mcs, version)?;
    let hash = {
        let d = aws_lc_rs::digest::digest(&aws_lc_rs::digest::SHA256, &serde_json::to_vec(&full)?);
        d.as_ref()[..16]
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect::<String>()
    };
    Ok(Rendered {
        pool: pool.to_string(),
        name: format!("rendered-{pool}-{hash}"),
        order: order.iter().map(|m| m.name.clone()).collect(),
        pre_order: pre_mcs.iter().map(|m| m.name.clone()).collect(),
        full,
        pre,
        version,
    })
}

fn merge_all(mcs: &[&MachineConfig], version: SpecVersion) -> Result<Value> {
    let mut acc = serde_json::json!({ "ignition": { "version": version.to_string() } });
    let mut kargs: Vec<String> = Vec::new();
    for m in mcs {
        let mut c = m.config.clone();
        if let Some(obj) = c.as_object_mut()
            && let Some(ign) = obj.get_mut("ignition").and_then(Value::as_object_mut)
        {
            ign.remove("version");
        }
        merge(&mut acc, c, "");
        for k in &m.kernel_arguments {
            if !kargs.contains(k) {
                kargs.push(k.clone());
            }
        }
    }
    // The MCO writes files with overwrite: true unless a config says otherwise.
    if let Some(files) = acc["storage"]["files"].as_array_mut() {
        for f in files {
            if f.get("overwrite").is_none_or(Value::is_null) {
                f["overwrite"] = Value::Bool(true);
            }
        }
    }
    if !kargs.is_empty() {
        if version.minor < 3 {
            let who: Vec<&str> = mcs
                .iter()
                .filter(|m| !m.kernel_arguments.is_empty())
                .map(|m| m.name.as_str())
                .collect();
            bail!(
                "spec.kernelArguments of {} need Ignition spec 3.3.0 or later (kernelArguments.shouldExist); the output spec is {version}: pass --spec-version 3.3.0",
                who.join(", ")
            );
        }
        let existing = acc["kernelArguments"]["shouldExist"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        let mut all: Vec<Value> = existing;
        for k in kargs {
            if !all.iter().any(|v| v.as_str() == Some(&k)) {
                all.push(Value::String(k));
            }
        }
        acc["kernelArguments"]["shouldExist"] = Value::Array(all);
    }
    // The result must be a valid config of the output version, with nothing it lacks.
    let bytes = serde_json::to_vec(&acc)?;
    let (_, warnings) = ignition_config::Config::parse_slice(&bytes).map_err(|e| {
        anyhow!(
            "the merged config is not a valid Ignition {version} config: {}",
            super::pointer::describe_error(&e)
        )
    })?;
    if !warnings.is_empty() {
        let fields: Vec<String> = warnings
            .iter()
            .map(|w| {
                w.to_string()
                    .trim_start_matches("unused key: $.")
                    .to_string()
            })
            .collect();
        bail!(
            "the merged config uses {}, which Ignition spec {version} does not have: pass a newer --spec-version",
            fields.join(", ")
        );
    }
    Ok(acc)
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
/// field by field), other lists appended without duplicates, scalars replaced.
fn merge(parent: &mut Value, child: Value, path: &str) {
    match (parent, child) {
        (Value::Object(p), Value::Object(c)) => {
            for (k, v) in c {
                let sub = if path.is_empty() {
                    k.clone()
                } else {
                    format!("{path}.{k}")
                };
                match p.get_mut(&k) {
                    Some(existing) => merge(existing, v, &sub),
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
                        Some(existing) => merge(existing, item, path),
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

/// A secret found in the pre-approval set.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    /// The MachineConfig.
    pub machine_config: String,
    /// The file path or unit name.
    pub path: String,
    /// What kind of secret.
    pub kind: &'static str,
}

impl std::fmt::Display for Finding {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "MachineConfig {} puts a {} in {}",
            self.machine_config, self.kind, self.path
        )
    }
}

/// Largest decompressed content scanned (a gzip bomb stops here).
const MAX_SCAN: u64 = 64 * 1024 * 1024;

/// Scans the configs of the pre-approval MachineConfigs for secrets: file contents (plain,
/// percent-encoded and base64 data URLs, gzip-compressed or not), systemd units and dropins.
/// Paths in `allowed` are skipped. Never returns the secret itself.
pub fn scan(mcs: &[&MachineConfig], allowed: &[String]) -> Vec<Finding> {
    let mut out = Vec::new();
    for m in mcs {
        let c = &m.config;
        for f in c["storage"]["files"].as_array().into_iter().flatten() {
            let path = f["path"].as_str().unwrap_or("?").to_string();
            if allowed.contains(&path) {
                continue;
            }
            let mut resources: Vec<&Value> = vec![&f["contents"]];
            resources.extend(f["append"].as_array().into_iter().flatten());
            for r in resources {
                let Some(src) = r["source"].as_str() else {
                    continue;
                };
                let Ok(mut data) = dataurl::decode(src) else {
                    continue;
                };
                if r["compression"].as_str() == Some("gzip") {
                    let mut dec = Vec::new();
                    let gz = flate2::read::GzDecoder::new(data.as_slice());
                    if gz.take(MAX_SCAN).read_to_end(&mut dec).is_err() {
                        out.push(Finding {
                            machine_config: m.name.clone(),
                            path: path.clone(),
                            kind: "content that does not decompress (cannot be checked)",
                        });
                        continue;
                    }
                    data = dec;
                }
                for kind in detect(&data) {
                    out.push(Finding {
                        machine_config: m.name.clone(),
                        path: path.clone(),
                        kind,
                    });
                }
            }
        }
        for u in c["systemd"]["units"].as_array().into_iter().flatten() {
            let unit = u["name"].as_str().unwrap_or("?").to_string();
            let upath = format!("systemd unit {unit}");
            if allowed.contains(&unit) || allowed.contains(&upath) {
                continue;
            }
            if let Some(body) = u["contents"].as_str() {
                for kind in detect(body.as_bytes()) {
                    out.push(Finding {
                        machine_config: m.name.clone(),
                        path: upath.clone(),
                        kind,
                    });
                }
            }
            for d in u["dropins"].as_array().into_iter().flatten() {
                if let Some(body) = d["contents"].as_str() {
                    let dpath = format!("{upath} dropin {}", d["name"].as_str().unwrap_or("?"));
                    for kind in detect(body.as_bytes()) {
                        out.push(Finding {
                            machine_config: m.name.clone(),
                            path: dpath.clone(),
                            kind,
                        });
                    }
                }
            }
        }
    }
    out
}

/// The kinds of secret in a blob.
fn detect(data: &[u8]) -> Vec<&'static str> {
    let text = String::from_utf8_lossy(data);
    let mut kinds = Vec::new();
    if text.contains("-----BEGIN ") && text.contains("PRIVATE KEY-----") {
        kinds.push("PEM private key");
    }
    if is_kubeconfig_with_credentials(&text) {
        kinds.push("kubeconfig with credentials");
    }
    if is_pull_secret(&text) {
        kinds.push("pull secret");
    }
    if has_bearer_token(&text) {
        kinds.push("bearer token");
    }
    kinds
}

fn is_kubeconfig_with_credentials(text: &str) -> bool {
    let shaped = text.contains("clusters") && text.contains("users") && text.contains("contexts");
    if !shaped {
        return false;
    }
    let cred = |k: &str| {
        text.lines().any(|l| {
            let t = l.trim_start().trim_start_matches("- ");
            t.strip_prefix(&format!("{k}:"))
                .is_some_and(|v| !v.trim().is_empty())
                || t.strip_prefix(&format!("\"{k}\":"))
                    .is_some_and(|v| !v.trim().trim_matches(',').trim_matches('"').is_empty())
        }) || text.contains(&format!("\"{k}\":\"")) && !text.contains(&format!("\"{k}\":\"\""))
    };
    cred("token") || cred("client-key-data") || cred("password")
}

fn is_pull_secret(text: &str) -> bool {
    let Ok(v) = serde_json::from_str::<Value>(text.trim()) else {
        return false;
    };
    v["auths"].as_object().is_some_and(|a| {
        a.values()
            .any(|e| e["auth"].as_str().is_some_and(|s| !s.is_empty()))
    })
}

fn has_bearer_token(text: &str) -> bool {
    let mut rest = text;
    while let Some(i) = rest.find("Bearer ") {
        let after = &rest[i + 7..];
        let tok: String = after
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || "-._~+/=".contains(*c))
            .collect();
        if tok.len() >= 16 && !tok.starts_with('$') {
            return true;
        }
        rest = after;
    }
    // mcsctl's own provisioning tokens: 6 of [a-z0-9], a dot, 43 of base64url.
    text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '.' || c == '-' || c == '_'))
        .any(|w| {
            w.split_once('.').is_some_and(|(id, s)| {
                crate::token::is_token_id(id)
                    && s.len() == 43
                    && s.bytes()
                        .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
            })
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn mc(name: &str, role: &str, config: Value) -> MachineConfig {
        MachineConfig {
            name: name.into(),
            role: Some(role.into()),
            config,
            pre_approval: false,
            kernel_arguments: vec![],
        }
    }

    #[test]
    fn keyed_merge_and_order() {
        let a = mc(
            "00-worker",
            "worker",
            json!({"ignition":{"version":"3.2.0"},"storage":{"files":[{"path":"/etc/a","contents":{"source":"data:,one"}}]},"systemd":{"units":[{"name":"x.service","enabled":true,"dropins":[{"name":"10.conf","contents":"a"}]}]},"passwd":{"users":[{"name":"core","sshAuthorizedKeys":["k1"]}]}}),
        );
        let b = mc(
            "10-worker",
            "worker",
            json!({"ignition":{"version":"3.2.0"},"storage":{"files":[{"path":"/etc/a","contents":{"source":"data:,two"},"mode":384}]},"systemd":{"units":[{"name":"x.service","dropins":[{"name":"10.conf","contents":"b"},{"name":"20.conf","contents":"c"}]}]},"passwd":{"users":[{"name":"core","sshAuthorizedKeys":["k2"]}]}}),
        );
        let c = mc(
            "05-infra",
            "infra",
            json!({"ignition":{"version":"3.2.0"},"storage":{"files":[{"path":"/etc/a","contents":{"source":"data:,three"}}]}}),
        );
        let all = vec![b.clone(), c.clone(), a.clone()];
        let r = render(&all, "worker", None).unwrap();
        assert_eq!(r.order, ["00-worker", "10-worker"]);
        let f = &r.full["storage"]["files"];
        assert_eq!(f.as_array().unwrap().len(), 1);
        assert_eq!(f[0]["contents"]["source"], "data:,two");
        assert_eq!(f[0]["mode"], 384);
        assert_eq!(f[0]["overwrite"], true);
        let u = &r.full["systemd"]["units"][0];
        assert_eq!(u["enabled"], true);
        assert_eq!(u["dropins"].as_array().unwrap().len(), 2);
        assert_eq!(u["dropins"][0]["contents"], "b");
        assert_eq!(
            r.full["passwd"]["users"][0]["sshAuthorizedKeys"],
            json!(["k1", "k2"])
        );
        let infra = render(&all, "infra", None).unwrap();
        assert_eq!(infra.order, ["00-worker", "10-worker", "05-infra"]);
        assert_eq!(
            infra.full["storage"]["files"][0]["contents"]["source"],
            "data:,three"
        );
        assert!(render(&all, "master", None).is_err());
    }

    #[test]
    fn kernel_arguments_need_33() {
        let mut a = mc(
            "00-worker",
            "worker",
            json!({"ignition":{"version":"3.2.0"}}),
        );
        a.kernel_arguments = vec!["quiet".into()];
        let e = render(std::slice::from_ref(&a), "worker", None)
            .unwrap_err()
            .to_string();
        assert!(e.contains("00-worker") && e.contains("3.3.0"), "{e}");
        let r = render(&[a], "worker", Some(SpecVersion { minor: 3 })).unwrap();
        assert_eq!(r.full["kernelArguments"]["shouldExist"], json!(["quiet"]));
    }
}
