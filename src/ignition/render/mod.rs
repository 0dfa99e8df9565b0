//! MachineConfigs to what a config server serves for each pool, in two flavours:
//! `openshift`, the MCS payload (the MCO's render: its merge rules, the rendered
//! MachineConfig named by the MCO's hash, and what the MCS appends per request), and `coreos`,
//! plain Ignition for fleets without a machine-config daemon. Each pool also gets the
//! pre-approval subset of the "Securing the Machine Config Server" enhancement (openshift/enhancements) (`spec.neededBeforeNodeApproved`), which is served without
//! authentication and so is scanned for secrets by the caller.

pub mod cluster;
pub mod controller;
pub mod diff;
mod first_boot;
pub mod hash;
pub mod input;
pub mod machineconfig;
pub mod merge;
pub mod object;
pub mod payload;
pub mod reconcile;
pub mod secrets;

use std::collections::BTreeMap;

use anyhow::{Result, anyhow, bail};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

pub use machineconfig::{MachineConfig, ROLE_LABEL, Strictness};
use merge::{Images, Merged};
use object::Object;
use payload::{ControllerData, Source};

use super::SpecVersion;
use super::spec::{Config, Spec, convert};

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

/// What a cluster gives a render beyond its MachineConfigs (all empty offline): the
/// ControllerConfig's images and CAs, the controller's version, and each pool's identity.
#[derive(Debug, Clone, Default)]
pub struct Cluster {
    /// The base OS and extensions images.
    pub images: Images,
    /// The kubelet and cloud provider CAs.
    pub ca: ControllerData,
    /// The controller version the generated MachineConfigs carry (`None`: take it from them,
    /// else the MCO's value for an unstamped build).
    pub controller_version: Option<String>,
    /// The ControllerConfig's release-image-version annotation.
    pub release_version: String,
    /// Each pool's UID (owner reference of its rendered MachineConfig).
    pub pool_uids: BTreeMap<String, String>,
    /// Each pool's layered image, when the MCS would serve one.
    pub pool_images: BTreeMap<String, String>,
}

/// How to render.
#[derive(Debug, Clone, Copy)]
pub struct Options<'a> {
    /// The flavour.
    pub flavour: Flavour,
    /// The coreos flavour's output spec; `None` picks the newest input version (at least
    /// 3.2.0). The openshift flavour always keeps the MCO's internal 3.5.0.
    pub version: Option<SpecVersion>,
    /// The bootstrap kubeconfig (openshift flavour); `None` leaves it out.
    pub kubeconfig: Option<&'a [u8]>,
    /// What the cluster adds.
    pub cluster: &'a Cluster,
    /// The first-boot report's files and unit (`render --report`), added to the full config
    /// only.
    pub first_boot: Option<&'a [crate::firstboot::Addition]>,
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
    /// What is written to `rendered/`: the MCS's answer for a spec 3.5.0 client, or the
    /// coreos config at its spec.
    pub bytes: Vec<u8>,
    /// The files appended after the merged config (openshift flavour).
    pub appended: Vec<&'static str>,
    /// What Ignition warned about in the MachineConfigs.
    pub warnings: Vec<String>,
}

impl Payload {
    /// The written config as JSON.
    pub fn config(&self) -> Value {
        serde_json::from_slice(&self.bytes).unwrap_or(Value::Null)
    }
}

/// One pool's render.
#[derive(Debug, Clone)]
pub struct Rendered {
    /// Pool name.
    pub pool: String,
    /// The spec of what is written.
    pub version: Spec,
    /// Whether the pool's config is a cluster's rendered MachineConfig, taken as it is.
    pub from_cluster: bool,
    /// The full config.
    pub full: Payload,
    /// The pre-approval subset.
    pub pre: Payload,
}

/// The MCO's built-in pools (`manifests/*.machineconfigpool.yaml` at the pinned commit), each
/// selecting its own role alone.
pub const BUILT_IN_POOLS: [&str; 3] = ["master", "worker", "arbiter"];

/// How to list only source MachineConfigs: rendered ones carry no role label.
const SOURCES_ONLY: &str =
    "`oc get mc -l machineconfiguration.openshift.io/role -o yaml` lists only those";

/// The MachineConfigs of a pool in MCO order. The MCO's built-in pools
/// (`manifests/*.machineconfigpool.yaml` at the pinned commit: master, worker, arbiter) each
/// select their own role alone; every other pool takes the worker configs first, then its own
/// (custom pools inherit worker, as their documented selector `role In [worker, <pool>]` does),
/// each by name.
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
        built_in if BUILT_IN_POOLS.contains(&built_in) => by_role(pool),
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
    let version = match opts.flavour {
        Flavour::OpenShift => Spec::INTERNAL,
        Flavour::CoreOs => match opts.version {
            Some(v) => v.into(),
            None => order
                .iter()
                .filter_map(|m| m.written_in)
                .filter(|v| *v >= Spec::V3(0))
                .max()
                .unwrap_or(Spec::V3(2))
                .max(Spec::V3(2)),
        },
    };
    let full = payload(&order, pool, version, opts)?;
    let pre_order: Vec<&MachineConfig> = order.iter().copied().filter(|m| m.pre_approval).collect();
    let opts = Options {
        first_boot: None,
        ..opts
    };
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
    version: Spec,
    opts: Options<'_>,
) -> Result<Payload> {
    let merged = merge::merge(order, &opts.cluster.images)?;
    let names: Vec<String> = order.iter().map(|m| m.name.clone()).collect();
    let warnings = order
        .iter()
        .flat_map(|m| {
            m.warnings
                .iter()
                .map(move |w| format!("MachineConfig {}: {w}", m.name))
        })
        .collect();
    match opts.flavour {
        Flavour::CoreOs => {
            refuse_daemon_fields(order)?;
            let mut config = kernel_arguments_into_ignition(&merged, order, version)?;
            if let Some(adds) = opts.first_boot {
                first_boot::add_first_boot(&mut config, adds)?;
            }
            let out = convert::to_spec(config, version).map_err(|e| {
                // A newer spec helps a field the asked one lacks, not a merge that is invalid
                // in any spec (a file without a source that the merge marks overwrite).
                let hint = if e.contains("is not a valid Ignition") {
                    "; serve would refuse it in any spec, so no machine of the pool could boot: fix the MachineConfigs that wrote that entry"
                } else {
                    "; pass a newer --spec-version"
                };
                anyhow!("the merged config cannot be written at Ignition spec {version}: {e}{hint}")
            })?;
            let name = hash::rendered_name(pool, &object_spec(&merged));
            Ok(Payload {
                name,
                order: names,
                merged,
                bytes: out.to_json(),
                appended: Vec::new(),
                warnings,
            })
        }
        Flavour::OpenShift => {
            refuse_appended_paths(order)?;
            let mut source = source(order, pool, &merged, opts)?;
            if let Some(adds) = opts.first_boot {
                first_boot::add_first_boot(&mut source.base, adds)?;
            }
            let mut warnings = warnings;
            warnings.extend(source.mc.check_size()?);
            let bytes = source
                .serve(Spec::INTERNAL)
                .map_err(|e| anyhow!("the MCS could not serve this pool's config: {e}"))?;
            let mut appended = vec![payload::NODE_ANNOTATIONS];
            if opts.kubeconfig.is_some() {
                appended.push(payload::KUBECONFIG);
            }
            appended.extend([payload::CONTENT, payload::ENCAPSULATED]);
            Ok(Payload {
                name: source.name().to_string(),
                order: names,
                merged,
                bytes,
                appended,
                warnings,
            })
        }
    }
}

/// A CoreOS node has no machine-config daemon: what only the daemon applies is refused.
fn refuse_daemon_fields(order: &[&MachineConfig]) -> Result<()> {
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
    Ok(())
}

/// What the MCS serves the pool from: a cluster's rendered MachineConfig as the cluster holds
/// it, else the rendered object of the merge.
fn source(
    order: &[&MachineConfig],
    pool: &str,
    merged: &Merged,
    opts: Options<'_>,
) -> Result<Source> {
    let image = opts
        .cluster
        .pool_images
        .get(pool)
        .map_or("", String::as_str);
    let kubeconfig = opts.kubeconfig.map(<[u8]>::to_vec);
    Ok(match order {
        // A cluster's rendered MachineConfig is served as the cluster holds it.
        [one] if one.rendered_pool.is_some() => {
            let mc = Object::from_value(&one.object)?;
            let config = one
                .config
                .clone()
                .unwrap_or_else(|| Config::empty(Spec::INTERNAL));
            Source::new(mc, config, &opts.cluster.ca, kubeconfig, image)
        }
        _ => {
            let mc = rendered_object(pool, merged, order, opts.cluster);
            Source::new(
                mc,
                merged.config.clone(),
                &opts.cluster.ca,
                kubeconfig,
                image,
            )
        }
    })
}

/// A MachineConfig that writes a file the MCS appends would make a duplicate entry, which
/// Ignition refuses: upstream renders it and then cannot serve it; this says so up front. (The
/// kubeconfig too when none is given yet: the render that adds it would fail then.)
fn refuse_appended_paths(order: &[&MachineConfig]) -> Result<()> {
    for m in order {
        let Some(c) = &m.config else { continue };
        if let Some(p) = c
            .list("/storage/files")
            .iter()
            .filter_map(|f| f["path"].as_str())
            .find(|p| payload::APPENDED.contains(p))
        {
            bail!(
                "MachineConfig {} writes {p}, which the MCS appends to every config itself, so Ignition would find it twice and refuse the config{}",
                m.name,
                if p == payload::KUBECONFIG {
                    "; pass the kubeconfig with --bootstrap-kubeconfig instead"
                } else {
                    ""
                }
            );
        }
    }
    Ok(())
}

/// The rendered MachineConfig's spec.
fn object_spec(merged: &Merged) -> object::Spec {
    object::Spec {
        os_image_url: merged.os_image_url.clone(),
        extensions_image: merged.extensions_image.clone(),
        config: Some(merged.config.to_json()),
        kernel_arguments: Some(merged.kernel_arguments.clone()),
        extensions: Some(merged.extensions.clone()),
        fips: merged.fips,
        kernel_type: merged.kernel_type.clone(),
    }
}

/// The rendered MachineConfig the MCO's render controller creates
/// (`generateRenderedMachineConfig`): the hashed name, the controller-version and
/// release-image annotations, `os-image-url-overridden` when a MachineConfig set the image,
/// and the pool as its controlling owner.
fn rendered_object(
    pool: &str,
    merged: &Merged,
    order: &[&MachineConfig],
    cluster: &Cluster,
) -> Object {
    let spec = object_spec(merged);
    let name = hash::rendered_name(pool, &spec);
    let version = cluster.controller_version.clone().unwrap_or_else(|| {
        order
            .iter()
            .find_map(|m| m.object["metadata"]["annotations"][object::GENERATED_BY].as_str())
            .filter(|v| !v.is_empty())
            .unwrap_or(object::UNSTAMPED_CONTROLLER)
            .to_string()
    });
    let mut annotations = Map::new();
    annotations.insert(object::GENERATED_BY.into(), json!(version));
    annotations.insert(
        object::RELEASE_IMAGE_VERSION.into(),
        json!(cluster.release_version),
    );
    if merged.os_image_url != cluster.images.os_image_url {
        annotations.insert(object::OS_IMAGE_URL_OVERRIDDEN.into(), json!("true"));
    }
    let mut metadata = Map::new();
    metadata.insert("name".into(), json!(name));
    metadata.insert("annotations".into(), Value::Object(annotations));
    metadata.insert(
        "ownerReferences".into(),
        json!([{
            "apiVersion": "machineconfiguration.openshift.io/v1",
            "kind": "MachineConfigPool",
            "name": pool,
            "uid": cluster.pool_uids.get(pool).cloned().unwrap_or_default(),
            "controller": true,
            "blockOwnerDeletion": true,
        }]),
    );
    Object {
        kind: String::new(),
        api_version: String::new(),
        metadata,
        spec,
    }
}

/// CoreOS: Ignition applies kernel arguments itself (`kernelArguments.shouldExist`, spec 3.3).
fn kernel_arguments_into_ignition(
    merged: &Merged,
    order: &[&MachineConfig],
    version: Spec,
) -> Result<Config> {
    let mut config = merged.config.clone();
    if merged.kernel_arguments.is_empty() {
        return Ok(config);
    }
    if version < Spec::V3(3) {
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
    let mut all: Vec<Value> = config.list("/kernelArguments/shouldExist").to_vec();
    for k in &merged.kernel_arguments {
        if !all.iter().any(|v| v.as_str() == Some(k)) {
            all.push(Value::String(k.clone()));
        }
    }
    config.value["kernelArguments"]["shouldExist"] = Value::Array(all);
    Ok(config)
}

#[cfg(test)]
mod tests;
