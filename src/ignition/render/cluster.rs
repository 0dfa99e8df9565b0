//! What the in-cluster MCS serves (`pkg/server/cluster_server.go`), worked out offline from a
//! snapshot of the cluster's objects: for each MachineConfigPool the rendered MachineConfig it
//! names (`spec.configuration` once a node has updated, `status.configuration` before), its
//! config taken to spec 3.5.0, the ControllerConfig's kube-apiserver CA written to
//! `/etc/kubernetes/kubelet-ca.crt` (and its cloud provider CA), the bootstrap kubeconfig built
//! from the node-bootstrapper token Secret with the `kubeconfig-data` ConfigMap's CA bundle in
//! its place when there is one, and a layered pool's image when its build succeeded, a node has
//! updated and the image is outside the internal registry.

use anyhow::{Result, anyhow, bail};
use serde_json::Value;

use super::controller::{self, bytes};
use super::object::Object;
use super::payload::{ControllerData, Source};
use crate::ignition::spec::{Config, Spec};

/// The MCO's namespace.
pub const NAMESPACE: &str = "openshift-machine-config-operator";

/// How to make a snapshot, for errors about a missing object.
pub const HOW_TO_SNAPSHOT: &str = "{ oc get machineconfigpools,machineconfigs,controllerconfigs -o yaml; echo ---; oc -n openshift-machine-config-operator get secret/node-bootstrapper-token configmap/kubeconfig-data -o yaml; } > cluster.yaml";

/// One pool as the MCS serves it.
#[derive(Debug, Clone)]
pub struct Pool {
    /// Its name.
    pub pool: String,
    /// Which field named the rendered MachineConfig: `spec.configuration` or
    /// `status.configuration`.
    pub chosen_by: &'static str,
    /// Nodes that have updated (`status.updatedMachineCount`).
    pub updated: i64,
    /// The layered image served, if any.
    pub image: Option<String>,
    /// What is served.
    pub source: Source,
}

/// A snapshot's answer for every pool.
#[derive(Debug, Clone)]
pub struct Served {
    /// The pools, by name.
    pub pools: Vec<Pool>,
    /// The bootstrap kubeconfig.
    pub kubeconfig: Vec<u8>,
    /// The API server the kubeconfig names.
    pub server: String,
    /// Where its CA came from.
    pub ca_from: &'static str,
    /// Things worth saying (a layered pool without the registry's Service in the snapshot).
    pub notes: Vec<String>,
}

fn kind<'a>(objects: &'a [Value], k: &str) -> impl Iterator<Item = &'a Value> {
    let k = k.to_string();
    objects.iter().filter(move |o| o["kind"] == k.as_str())
}

fn named<'a>(objects: &'a [Value], k: &str, name: &str) -> Option<&'a Value> {
    kind(objects, k).find(|o| o["metadata"]["name"] == name)
}

/// Works out what the MCS serves for each pool of the snapshot (or only `only`). `what` names
/// the snapshot in errors.
pub fn serve(objects: &[Value], only: Option<&str>, what: &str) -> Result<Served> {
    if kind(objects, "MachineConfigPool").next().is_none() {
        let mut kinds: Vec<&str> = objects.iter().filter_map(|o| o["kind"].as_str()).collect();
        kinds.sort_unstable();
        kinds.dedup();
        let holds = if kinds.is_empty() {
            "no Kubernetes objects".to_string()
        } else {
            kinds.join(", ")
        };
        bail!(
            "{what} is no cluster snapshot: it has no MachineConfigPool (it holds {holds}); make the snapshot with: {HOW_TO_SNAPSHOT}"
        );
    }
    let Bootstrap {
        server,
        ca,
        kubeconfig,
        ca_from,
    } = bootstrap(objects, what)?;
    let mut notes = Vec::new();
    let mut pools = Vec::new();
    let mut names: Vec<&str> = kind(objects, "MachineConfigPool")
        .filter_map(|p| p["metadata"]["name"].as_str())
        .collect();
    names.sort_unstable();
    names.dedup();
    if let Some(o) = only
        && !names.contains(&o)
    {
        bail!(
            "{what} has no MachineConfigPool {o} (it has {})",
            names.join(", ")
        );
    }
    if names.is_empty() {
        bail!("{what} has no MachineConfigPool; make the snapshot with: {HOW_TO_SNAPSHOT}");
    }
    for name in names.into_iter().filter(|n| only.is_none_or(|o| o == *n)) {
        pools.push(pool(objects, name, what, &ca, &kubeconfig, &mut notes)?);
    }
    Ok(Served {
        pools,
        kubeconfig,
        server,
        ca_from,
        notes,
    })
}

/// What the MCS builds every pool's config with: the API server, the CAs of the
/// ControllerConfig, and the bootstrap kubeconfig (and where its CA came from).
struct Bootstrap {
    server: String,
    ca: ControllerData,
    kubeconfig: Vec<u8>,
    ca_from: &'static str,
}

/// The ControllerConfig, the node-bootstrapper token and the kubeconfig-data bundle.
fn bootstrap(objects: &[Value], what: &str) -> Result<Bootstrap> {
    let cc = named(objects, "ControllerConfig", controller::NAME)
        .or_else(|| kind(objects, "ControllerConfig").next())
        .ok_or_else(|| {
            anyhow!(
                "{what} has no ControllerConfig, which the MCS needs (the kubelet CA and the API server come from it); make the snapshot with: {HOW_TO_SNAPSHOT}"
            )
        })?;
    let server = cc["spec"]["infra"]["status"]["apiServerInternalURI"]
        .as_str()
        .filter(|s| !s.is_empty())
        .ok_or_else(|| {
            anyhow!("{what}: the ControllerConfig has no spec.infra.status.apiServerInternalURI")
        })?
        .to_string();
    let ca = super::controller::ca(cc)?;
    let in_ns = |o: &&Value| {
        o["metadata"]["namespace"]
            .as_str()
            .is_none_or(|n| n == NAMESPACE)
    };
    let secret = kind(objects, "Secret")
        .filter(in_ns)
        .find(|o| o["metadata"]["name"] == "node-bootstrapper-token")
        .ok_or_else(|| {
            anyhow!(
                "{what} has no Secret node-bootstrapper-token ({NAMESPACE}), which the bootstrap kubeconfig is built from; make the snapshot with: {HOW_TO_SNAPSHOT}"
            )
        })?;
    let token = bytes(
        &secret["data"]["token"],
        "Secret node-bootstrapper-token data.token",
    )?;
    if token.is_empty() {
        bail!("{what}: Secret node-bootstrapper-token has no data.token");
    }
    // The MCS takes the CA bundle of the kubeconfig-data ConfigMap (binaryData only) over the
    // Secret's ca.crt.
    let bundle = kind(objects, "ConfigMap")
        .filter(in_ns)
        .find(|o| o["metadata"]["name"] == "kubeconfig-data")
        .map(|cm| {
            bytes(
                &cm["binaryData"]["ca-bundle.crt"],
                "ConfigMap kubeconfig-data binaryData.ca-bundle.crt",
            )
        })
        .transpose()?
        .filter(|b| !b.is_empty());
    let (kube_ca, ca_from) = match bundle {
        Some(b) => (b, "ConfigMap kubeconfig-data"),
        None => (
            bytes(
                &secret["data"]["ca.crt"],
                "Secret node-bootstrapper-token data.ca.crt",
            )?,
            "Secret node-bootstrapper-token",
        ),
    };
    let kubeconfig = crate::kubeconfig::build(&server, &kube_ca, &token);
    Ok(Bootstrap {
        server,
        ca,
        kubeconfig,
        ca_from,
    })
}

/// One pool: the rendered MachineConfig the MCS picks for it (spec while a node is updated to
/// it, else status), with the layered image when one applies.
fn pool(
    objects: &[Value],
    name: &str,
    what: &str,
    ca: &ControllerData,
    kubeconfig: &[u8],
    notes: &mut Vec<String>,
) -> Result<Pool> {
    if !crate::names::is_dns_label(name) {
        bail!("{what}: pool {name:?} is not a DNS label");
    }
    let mcp = named(objects, "MachineConfigPool", name).expect("the name came from the list");
    let updated = mcp["status"]["updatedMachineCount"].as_i64().unwrap_or(0);
    let (chosen_by, chosen) = if updated > 0 {
        ("spec.configuration", &mcp["spec"]["configuration"]["name"])
    } else {
        (
            "status.configuration",
            &mcp["status"]["configuration"]["name"],
        )
    };
    let chosen = chosen
        .as_str()
        .filter(|c| !c.is_empty())
        .ok_or_else(|| anyhow!("{what}: MachineConfigPool {name} has no {chosen_by}.name yet"))?;
    let mc = named(objects, "MachineConfig", chosen).ok_or_else(|| {
        anyhow!(
            "{what} has no MachineConfig {chosen}, which pool {name}'s {chosen_by} names; `oc get machineconfigs -o yaml` lists the rendered ones too"
        )
    })?;
    let parsed = super::machineconfig::parse_one(mc, what)?;
    notes.extend(parsed.dropped.iter().map(|d| {
        format!(
            "MachineConfig {chosen}: {}: {}; dropped, as the MCS drops it",
            d.path,
            d.problem()
        )
    }));
    let config = parsed
        .config
        .clone()
        .unwrap_or_else(|| Config::empty(Spec::INTERNAL));
    let mut object = Object::from_value(mc)?;
    // The MCS holds the object as its informer lists it: without apiVersion and kind.
    object.kind.clear();
    object.api_version.clear();
    let image = layered_image(objects, mcp, chosen, updated, notes);
    if let Some(i) = &image {
        object.spec.os_image_url = i.clone();
    }
    let source = Source::new(
        object,
        config,
        ca,
        Some(kubeconfig.to_vec()),
        image.as_deref().unwrap_or(""),
    );
    Ok(Pool {
        pool: name.to_string(),
        chosen_by,
        updated,
        image,
        source,
    })
}

/// `resolveDesiredImageForPool`: the MachineOSConfig of the pool with an image, its
/// MachineOSBuild for the served MachineConfig succeeded, a node updated, and the image not in
/// the internal registry (new nodes could not resolve it before they join).
fn layered_image(
    objects: &[Value],
    mcp: &Value,
    served: &str,
    updated: i64,
    notes: &mut Vec<String>,
) -> Option<String> {
    let pool = mcp["metadata"]["name"].as_str()?;
    let mosc = kind(objects, "MachineOSConfig")
        .find(|c| c["spec"]["machineConfigPool"]["name"] == pool)?;
    let image = mosc["status"]["currentImagePullSpec"]
        .as_str()
        .filter(|i| !i.is_empty())?;
    let mosb = kind(objects, "MachineOSBuild").find(|b| {
        b["spec"]["machineOSConfig"]["name"] == mosc["metadata"]["name"]
            && b["spec"]["machineConfig"]["name"] == served
    })?;
    let succeeded = mosb["status"]["conditions"]
        .as_array()
        .into_iter()
        .flatten()
        .any(|c| c["type"] == "Succeeded" && c["status"] == "True");
    if !succeeded || updated == 0 {
        return None;
    }
    let registry = "openshift-image-registry";
    let mut hosts: Vec<String> = kind(objects, "Service")
        .filter(|s| s["metadata"]["namespace"] == registry)
        .map(|s| {
            let host = format!(
                "{}.{registry}.svc",
                s["metadata"]["name"].as_str().unwrap_or("")
            );
            match s["spec"]["ports"][0]["port"].as_i64() {
                Some(p) => format!("{host}:{p}"),
                None => host,
            }
        })
        .collect();
    hosts.extend(
        kind(objects, "Route")
            .filter(|r| r["metadata"]["namespace"] == registry)
            .filter_map(|r| r["spec"]["host"].as_str().filter(|h| !h.is_empty()))
            .map(str::to_string),
    );
    if hosts.is_empty() {
        hosts.push(format!("image-registry.{registry}.svc:5000"));
        notes.push(format!(
            "pool {pool}: the snapshot has no Service of {registry}; taking image-registry.{registry}.svc:5000 as the internal registry (add `oc -n {registry} get services,routes -o yaml` to be sure)"
        ));
    }
    (!hosts.iter().any(|h| image.starts_with(h.as_str()))).then(|| image.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use base64::Engine;
    use serde_json::json;

    fn b64(s: &str) -> String {
        base64::engine::general_purpose::STANDARD.encode(s)
    }

    fn snapshot(updated: i64) -> Vec<Value> {
        vec![
            json!({"kind": "ControllerConfig", "metadata": {"name": "machine-config-controller"},
                "spec": {"infra": {"status": {"apiServerInternalURI": "https://api-int.x:6443"}},
                         "kubeAPIServerServingCAData": b64("KUBE CA\n")}}),
            json!({"kind": "Secret", "metadata": {"name": "node-bootstrapper-token", "namespace": NAMESPACE},
                "data": {"token": b64("tok"), "ca.crt": b64("SA CA\n")}}),
            json!({"kind": "MachineConfigPool", "metadata": {"name": "worker", "uid": "u1"},
                "spec": {"configuration": {"name": "rendered-worker-2222"}},
                "status": {"configuration": {"name": "rendered-worker-1111"}, "updatedMachineCount": updated}}),
            json!({"apiVersion": "machineconfiguration.openshift.io/v1", "kind": "MachineConfig",
                "metadata": {"name": "rendered-worker-1111"}, "spec": {"config": {"ignition": {"version": "3.4.0"}}}}),
            json!({"apiVersion": "machineconfiguration.openshift.io/v1", "kind": "MachineConfig",
                "metadata": {"name": "rendered-worker-2222"}, "spec": {"config": {"ignition": {"version": "3.5.0"}}}}),
        ]
    }

    #[test]
    fn the_pool_status_picks_the_config_and_the_secret_makes_the_kubeconfig() {
        let s = serve(&snapshot(0), None, "cluster.yaml").unwrap();
        assert_eq!(s.pools[0].source.name(), "rendered-worker-1111");
        assert_eq!(s.pools[0].chosen_by, "status.configuration");
        assert_eq!(s.ca_from, "Secret node-bootstrapper-token");
        let kc = String::from_utf8(s.kubeconfig.clone()).unwrap();
        assert!(
            kc.contains("server: https://api-int.x:6443") && kc.contains("token: tok"),
            "{kc}"
        );
        assert!(
            s.pools[0].source.mc.kind.is_empty(),
            "as the MCS's informer holds it"
        );
        let files = s.pools[0].source.base.list("/storage/files");
        assert_eq!(files[0]["path"], "/etc/kubernetes/kubelet-ca.crt");
        let s = serve(&snapshot(1), None, "cluster.yaml").unwrap();
        assert_eq!(
            s.pools[0].source.name(),
            "rendered-worker-2222",
            "a node has updated"
        );
    }

    #[test]
    fn the_kubeconfig_data_bundle_wins_and_gaps_are_named() {
        let mut objs = snapshot(0);
        objs.push(json!({"kind": "ConfigMap", "metadata": {"name": "kubeconfig-data", "namespace": NAMESPACE},
            "binaryData": {"ca-bundle.crt": b64("BUNDLE\n")}}));
        let s = serve(&objs, None, "cluster.yaml").unwrap();
        assert_eq!(s.ca_from, "ConfigMap kubeconfig-data");
        assert!(
            String::from_utf8(s.kubeconfig)
                .unwrap()
                .contains(&b64("BUNDLE\n"))
        );
        let e = serve(&objs[1..], None, "cluster.yaml")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("no ControllerConfig") && e.contains("oc get"),
            "{e}"
        );
        let e = serve(&objs, Some("infra"), "cluster.yaml")
            .unwrap_err()
            .to_string();
        assert!(e.contains("no MachineConfigPool infra"), "{e}");
        objs.retain(|o| o["metadata"]["name"] != "rendered-worker-1111");
        let e = serve(&objs, None, "cluster.yaml").unwrap_err().to_string();
        assert!(e.contains("no MachineConfig rendered-worker-1111"), "{e}");
    }

    #[test]
    fn a_layered_image_only_when_built_updated_and_outside_the_registry() {
        let mut objs = snapshot(1);
        objs.push(
            json!({"kind": "MachineOSConfig", "metadata": {"name": "worker"},
            "spec": {"machineConfigPool": {"name": "worker"}},
            "status": {"currentImagePullSpec": "quay.io/me/os@sha256:1"}}),
        );
        objs.push(json!({"kind": "MachineOSBuild", "metadata": {"name": "b"},
            "spec": {"machineOSConfig": {"name": "worker"}, "machineConfig": {"name": "rendered-worker-2222"}},
            "status": {"conditions": [{"type": "Succeeded", "status": "True"}]}}));
        let s = serve(&objs, None, "c").unwrap();
        assert_eq!(s.pools[0].image.as_deref(), Some("quay.io/me/os@sha256:1"));
        assert_eq!(
            s.pools[0].source.mc.spec.os_image_url,
            "quay.io/me/os@sha256:1"
        );
        let anno = String::from_utf8(s.pools[0].source.annotations.clone()).unwrap();
        assert!(
            anno.contains("desiredImage\":\"quay.io/me/os@sha256:1"),
            "{anno}"
        );
        objs[5]["status"]["currentImagePullSpec"] =
            "image-registry.openshift-image-registry.svc:5000/x/os@sha256:1".into();
        let s = serve(&objs, None, "c").unwrap();
        assert_eq!(
            s.pools[0].image, None,
            "internal registry: not during bootstrap"
        );
    }
}
