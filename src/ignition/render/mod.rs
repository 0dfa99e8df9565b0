//! MachineConfigs to what a config server serves for each pool, in two flavours:
//! `openshift`, the MCS payload (the MCO's merge rules and the files the MCS appends), and
//! `coreos`, plain Ignition for fleets without a machine-config daemon. Each pool also gets the
//! pre-approval subset of seed 002 (`spec.neededBeforeNodeApproved`), which is served without
//! authentication and so is scanned for secrets by the caller.

pub mod machineconfig;
pub mod merge;
pub mod payload;
pub mod secrets;
pub mod spec2;

use anyhow::{Result, anyhow, bail};
use serde::{Deserialize, Serialize};
use serde_json::Value;

pub use machineconfig::{MachineConfig, ROLE_LABEL, machine_configs};
use merge::Merged;

use super::SpecVersion;

/// What the rendered configs are for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Flavour {
    /// OpenShift / OKD nodes: the MCS payload, read by the machine-config daemon.
    #[default]
    OpenShift,
    /// Fedora CoreOS fleets without a machine-config daemon: plain Ignition.
    CoreOs,
}

impl Flavour {
    /// The name used on the command line and in `mcsctl.json`.
    pub fn name(self) -> &'static str {
        match self {
            Flavour::OpenShift => "openshift",
            Flavour::CoreOs => "coreos",
        }
    }
}

/// How to render.
#[derive(Debug, Clone, Copy)]
pub struct Options<'a> {
    /// The flavour.
    pub flavour: Flavour,
    /// The output spec; `None` picks the newest input version (at least 3.2.0).
    pub version: Option<SpecVersion>,
    /// The bootstrap kubeconfig (openshift flavour); `None` leaves it out.
    pub kubeconfig: Option<&'a [u8]>,
}

/// One payload: the full config of a pool, or its pre-approval subset.
#[derive(Debug, Clone)]
pub struct Payload {
    /// The rendered MachineConfig's name, `rendered-<pool>-<hash>` (or a cluster's own).
    pub name: String,
    /// The MachineConfigs merged, in order.
    pub order: Vec<String>,
    /// The merged MachineConfig spec.
    pub merged: Merged,
    /// What is written and served.
    pub config: Value,
    /// The files appended after the merged config (openshift flavour).
    pub appended: Vec<&'static str>,
}

/// One pool's render.
#[derive(Debug, Clone)]
pub struct Rendered {
    /// Pool name.
    pub pool: String,
    /// Output spec version.
    pub version: SpecVersion,
    /// Whether the pool's config is a cluster's rendered MachineConfig, taken as it is.
    pub from_cluster: bool,
    /// The full config.
    pub full: Payload,
    /// The pre-approval subset.
    pub pre: Payload,
}

/// How to list only source MachineConfigs: rendered ones carry no role label.
const SOURCES_ONLY: &str =
    "`oc get mc -l machineconfiguration.openshift.io/role -o yaml` lists only those";

/// The MachineConfigs of a pool in MCO order: `master` takes master configs; every other pool
/// takes the worker configs first, then its own (custom pools inherit worker), each by name.
/// A cluster's rendered MachineConfig for the pool is the whole of it; source MachineConfigs of
/// the pool's own role beside it are an error (which one should win?).
pub fn pool_order<'a>(mcs: &'a [MachineConfig], pool: &str) -> Result<Vec<&'a MachineConfig>> {
    let rendered: Vec<&MachineConfig> = mcs
        .iter()
        .filter(|m| m.rendered_pool.as_deref() == Some(pool))
        .collect();
    let by_role = |r: &str| {
        let mut v: Vec<&MachineConfig> = mcs
            .iter()
            .filter(|m| m.rendered_pool.is_none() && m.role.as_deref() == Some(r))
            .collect();
        v.sort_by(|a, b| a.name.cmp(&b.name));
        v
    };
    match rendered.as_slice() {
        [] => {}
        [one] => {
            let own = by_role(pool);
            if !own.is_empty() {
                let names: Vec<&str> = own.iter().map(|m| m.name.as_str()).collect();
                bail!(
                    "{} is pool {pool}'s rendered config from a cluster, and cannot be merged with source MachineConfigs of role {pool} ({}); give one or the other ({SOURCES_ONLY})",
                    one.name,
                    names.join(", ")
                );
            }
            return Ok(vec![*one]);
        }
        many => {
            let names: Vec<&str> = many.iter().map(|m| m.name.as_str()).collect();
            bail!(
                "pool {pool} has {} rendered MachineConfigs ({}); give the one its nodes should get (`oc get mcp {pool} -o jsonpath='{{.status.configuration.name}}'` names it), or only source MachineConfigs ({SOURCES_ONLY})",
                many.len(),
                names.join(", ")
            );
        }
    }
    Ok(match pool {
        "master" => by_role("master"),
        "worker" => by_role("worker"),
        custom => {
            let mut v = by_role("worker");
            v.extend(by_role(custom));
            v
        }
    })
}

/// Renders `pool`: its full config and its pre-approval subset.
pub fn render(mcs: &[MachineConfig], pool: &str, opts: Options<'_>) -> Result<Rendered> {
    let order = pool_order(mcs, pool)?;
    if order.is_empty() {
        bail!("no MachineConfig applies to pool {pool}");
    }
    let version = match opts.version {
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
    let full = payload(&order, pool, version, opts)?;
    let pre_order: Vec<&MachineConfig> = order.iter().copied().filter(|m| m.pre_approval).collect();
    let pre = payload(&pre_order, pool, version, opts)?;
    Ok(Rendered {
        pool: pool.to_string(),
        version,
        from_cluster: order.iter().any(|m| m.rendered_pool.is_some()),
        full,
        pre,
    })
}

fn payload(
    order: &[&MachineConfig],
    pool: &str,
    version: SpecVersion,
    opts: Options<'_>,
) -> Result<Payload> {
    let mut merged = merge::merge(order, version)?;
    let names: Vec<String> = order.iter().map(|m| m.name.clone()).collect();
    match opts.flavour {
        Flavour::CoreOs => {
            for m in order {
                let fields = m.daemon_fields();
                if !fields.is_empty() {
                    bail!(
                        "MachineConfig {} sets {}, which only the machine-config daemon applies and a CoreOS node without it would ignore; render with --for openshift, or remove {}",
                        m.name,
                        fields.join(", "),
                        if fields.len() == 1 { "it" } else { "them" }
                    );
                }
            }
            kernel_arguments_into_ignition(&mut merged, order, version)?;
            merge::validate(&merged.config, version)?;
            let name = format!("rendered-{pool}-{}", hash(&merged.config)?);
            Ok(Payload {
                name,
                order: names,
                config: merged.config.clone(),
                merged,
                appended: Vec::new(),
            })
        }
        Flavour::OpenShift => {
            kernel_arguments_out_of_ignition(&mut merged, version)?;
            for m in order {
                if let Some(p) = m.config["storage"]["files"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(|f| f["path"].as_str())
                    .find(|p| payload::APPENDED.contains(p))
                {
                    bail!(
                        "MachineConfig {} writes {p}, which the MCS appends to every config itself{}",
                        m.name,
                        if p == payload::KUBECONFIG {
                            "; pass the kubeconfig with --bootstrap-kubeconfig instead"
                        } else {
                            ""
                        }
                    );
                }
            }
            merge::validate(&merged.config, version)?;
            let (name, mc) = match order {
                // A cluster's rendered MachineConfig is served as the cluster holds it.
                [one] if one.rendered_pool.is_some() => (one.name.clone(), one.object.clone()),
                _ => {
                    let spec = payload::machine_config("", &merged)["spec"].clone();
                    let name = format!("rendered-{pool}-{}", hash(&spec)?);
                    let mc = payload::machine_config(&name, &merged);
                    (name, mc)
                }
            };
            let config = payload::openshift(&merged.config, &mc, &name, opts.kubeconfig)?;
            let mut appended = vec![payload::NODE_ANNOTATIONS];
            if opts.kubeconfig.is_some() {
                appended.push(payload::KUBECONFIG);
            }
            appended.extend([payload::CONTENT, payload::ENCAPSULATED]);
            Ok(Payload {
                name,
                order: names,
                merged,
                config,
                appended,
            })
        }
    }
}

/// CoreOS: Ignition applies kernel arguments itself (`kernelArguments.shouldExist`, spec 3.3).
fn kernel_arguments_into_ignition(
    merged: &mut Merged,
    order: &[&MachineConfig],
    version: SpecVersion,
) -> Result<()> {
    if merged.kernel_arguments.is_empty() {
        return Ok(());
    }
    if version.minor < 3 {
        let who: Vec<&str> = order
            .iter()
            .filter(|m| !m.kernel_arguments.is_empty())
            .map(|m| m.name.as_str())
            .collect();
        let named = if who.len() > 3 {
            format!("{} and {} more", who[..3].join(", "), who.len() - 3)
        } else {
            who.join(", ")
        };
        bail!(
            "spec.kernelArguments of {named} need Ignition spec 3.3.0 or later (kernelArguments.shouldExist); the output spec is {version}: pass --spec-version 3.3.0"
        );
    }
    let mut all: Vec<Value> = merged.config["kernelArguments"]["shouldExist"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    for k in std::mem::take(&mut merged.kernel_arguments) {
        if !all.iter().any(|v| v.as_str() == Some(&k)) {
            all.push(Value::String(k));
        }
    }
    merged.config["kernelArguments"]["shouldExist"] = Value::Array(all);
    Ok(())
}

/// OpenShift: kernel arguments stay in the MachineConfig for the daemon. Ignition
/// `kernelArguments` in a config older clients cannot read move there too, as the MCS's
/// `MigrateKernelArgsIfNecessary` does; `shouldNotExist` has nowhere to go.
fn kernel_arguments_out_of_ignition(merged: &mut Merged, version: SpecVersion) -> Result<()> {
    if version.minor >= 3 {
        return Ok(());
    }
    let Some(kargs) = merged
        .config
        .as_object_mut()
        .and_then(|o| o.remove("kernelArguments"))
    else {
        return Ok(());
    };
    if kargs["shouldNotExist"]
        .as_array()
        .is_some_and(|a| !a.is_empty())
    {
        bail!(
            "kernelArguments.shouldNotExist cannot be served at Ignition spec {version}, and a MachineConfig has no place for it: pass --spec-version 3.3.0"
        );
    }
    for k in kargs["shouldExist"].as_array().into_iter().flatten() {
        let k = k
            .as_str()
            .ok_or_else(|| anyhow!("kernelArguments.shouldExist holds a non-string"))?;
        merged.kernel_arguments.push(k.to_string());
    }
    Ok(())
}

/// 32 hex digits of the SHA-256 of a value's JSON (keys sorted, so stable).
fn hash(v: &Value) -> Result<String> {
    let d = aws_lc_rs::digest::digest(&aws_lc_rs::digest::SHA256, &serde_json::to_vec(v)?);
    Ok(d.as_ref()[..16]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect())
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
            ..MachineConfig::default()
        }
    }

    const OPENSHIFT: Options<'static> = Options {
        flavour: Flavour::OpenShift,
        version: None,
        kubeconfig: Some(b"kubeconfig"),
    };
    const COREOS: Options<'static> = Options {
        flavour: Flavour::CoreOs,
        version: None,
        kubeconfig: None,
    };

    #[test]
    fn pool_order_by_role_and_custom_pools_inherit_worker() {
        let all = vec![
            mc("10-worker", "worker", json!({})),
            mc("05-infra", "infra", json!({})),
            mc("00-worker", "worker", json!({})),
            mc("00-master", "master", json!({})),
        ];
        let names = |p: &str| -> Vec<String> {
            pool_order(&all, p)
                .unwrap()
                .iter()
                .map(|m| m.name.clone())
                .collect()
        };
        assert_eq!(names("worker"), ["00-worker", "10-worker"]);
        assert_eq!(names("infra"), ["00-worker", "10-worker", "05-infra"]);
        assert_eq!(names("master"), ["00-master"]);
    }

    #[test]
    fn a_clusters_rendered_config_keeps_its_name_and_cannot_be_mixed() {
        let name = "rendered-worker-5f9c1d3b0a4e8c7f6d2b1a0e9c8d7f6a";
        let object = json!({"apiVersion": "machineconfiguration.openshift.io/v1", "kind": "MachineConfig",
            "metadata": {"name": name, "uid": "1234"},
            "spec": {"config": {"ignition": {"version": "3.4.0"}}, "kernelArguments": ["nosmt"], "fips": true}});
        let mut rendered = mc(name, "", json!({"ignition": {"version": "3.4.0"}}));
        rendered.role = None;
        rendered.rendered_pool = Some("worker".into());
        rendered.kernel_arguments = vec!["nosmt".into()];
        rendered.fips = true;
        rendered.object = object.clone();
        let r = render(std::slice::from_ref(&rendered), "worker", OPENSHIFT).unwrap();
        assert_eq!(r.full.name, name);
        assert!(r.from_cluster);
        assert_eq!(
            payload::served_name(&r.full.config).as_deref(),
            Some(name),
            "the daemon finds it in the cluster by this name"
        );
        assert_eq!(r.version.to_string(), "3.4.0");
        let mixed = vec![rendered, mc("00-worker", "worker", json!({}))];
        let e = render(&mixed, "worker", OPENSHIFT).unwrap_err().to_string();
        assert!(
            e.contains(name) && e.contains("00-worker") && e.contains("give one or the other"),
            "{e}"
        );
    }

    #[test]
    fn source_configs_get_a_content_hash_name() {
        let a = mc(
            "00-worker",
            "worker",
            json!({"ignition": {"version": "3.2.0"}}),
        );
        let r1 = render(std::slice::from_ref(&a), "worker", OPENSHIFT).unwrap();
        let mut b = a.clone();
        b.fips = true;
        let r2 = render(&[b], "worker", OPENSHIFT).unwrap();
        let re =
            |n: &str| n.len() == "rendered-worker-".len() + 32 && n.starts_with("rendered-worker-");
        assert!(re(&r1.full.name), "{}", r1.full.name);
        assert_ne!(r1.full.name, r2.full.name, "fips is part of the content");
        assert_eq!(
            r1.full.name,
            render(&[a], "worker", OPENSHIFT).unwrap().full.name,
            "stable"
        );
    }

    #[test]
    fn coreos_appends_nothing_and_refuses_daemon_fields() {
        let mut a = mc(
            "00-worker",
            "worker",
            json!({"ignition": {"version": "3.2.0"}}),
        );
        let r = render(std::slice::from_ref(&a), "worker", COREOS).unwrap();
        assert!(r.full.appended.is_empty());
        assert_eq!(r.full.config, json!({"ignition": {"version": "3.2.0"}}));
        a.fips = true;
        a.os_image_url = Some("quay.io/x".into());
        let e = render(&[a], "worker", COREOS).unwrap_err().to_string();
        assert!(
            e.contains("MachineConfig 00-worker sets fips, osImageURL")
                && e.contains("--for openshift"),
            "{e}"
        );
    }

    #[test]
    fn kernel_arguments_per_flavour() {
        let mut a = mc(
            "00-worker",
            "worker",
            json!({"ignition": {"version": "3.2.0"}}),
        );
        a.kernel_arguments = vec!["quiet".into()];
        // openshift: in the MachineConfig, fine at 3.2.0.
        let r = render(std::slice::from_ref(&a), "worker", OPENSHIFT).unwrap();
        assert!(r.full.config.get("kernelArguments").is_none());
        assert_eq!(r.full.merged.kernel_arguments, ["quiet"]);
        // coreos: Ignition kernelArguments, which need 3.3.0.
        let e = render(std::slice::from_ref(&a), "worker", COREOS)
            .unwrap_err()
            .to_string();
        assert!(e.contains("00-worker") && e.contains("3.3.0"), "{e}");
        let opts = Options {
            version: Some(SpecVersion { minor: 3 }),
            ..COREOS
        };
        let r = render(&[a], "worker", opts).unwrap();
        assert_eq!(
            r.full.config["kernelArguments"]["shouldExist"],
            json!(["quiet"])
        );
        // openshift at 3.2.0 with Ignition kernelArguments from a 3.3 config: migrated.
        let b = mc(
            "00-worker",
            "worker",
            json!({"ignition": {"version": "3.3.0"}, "kernelArguments": {"shouldExist": ["nosmt"]}}),
        );
        let opts = Options {
            version: Some(SpecVersion::DEFAULT),
            ..OPENSHIFT
        };
        let r = render(&[b], "worker", opts).unwrap();
        assert!(r.full.config.get("kernelArguments").is_none());
        assert_eq!(r.full.merged.kernel_arguments, ["nosmt"]);
    }

    #[test]
    fn a_machine_config_writing_an_appended_path_is_named() {
        let a = mc(
            "50-worker-kubeconfig",
            "worker",
            json!({"ignition": {"version": "3.2.0"}, "storage": {"files": [
                {"path": "/etc/kubernetes/kubeconfig", "contents": {"source": "data:,x"}}]}}),
        );
        let e = render(&[a], "worker", OPENSHIFT).unwrap_err().to_string();
        assert!(
            e.contains("MachineConfig 50-worker-kubeconfig writes /etc/kubernetes/kubeconfig")
                && e.contains("--bootstrap-kubeconfig"),
            "{e}"
        );
    }
}
