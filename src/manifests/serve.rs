//! What runs `mcsctl serve` in the cluster: the Secrets (and the ConfigMap with mcsctl.json)
//! its pods mount as an asset directory, the Deployment (or DaemonSet), its Service and the
//! ledger's PersistentVolumeClaim.

use std::collections::BTreeMap;

use serde_json::{Value, json};

use super::{Inputs, MCO_NAMESPACE, Manifest, secret};

/// Options of the serve Deployment.
#[derive(Debug, Clone)]
pub struct Deployment {
    /// Container image running mcsctl.
    pub image: String,
    /// Namespace of the Deployment, Service and rendered-config Secret.
    pub namespace: String,
    /// Service type (without host network).
    pub service_type: ServiceType,
    /// Run as the real MCS does: a DaemonSet on the control plane nodes' host network, port
    /// 22623, and no Service.
    pub host_network: bool,
    /// Auth mode passed to serve.
    pub auth: String,
    /// Replicas of the Deployment; one keeps its ledger on a PersistentVolumeClaim.
    pub replicas: u32,
    /// The store the replicas share (`--store`): then any number of replicas, and no ledger
    /// volume.
    pub store: Option<crate::store::Options>,
}

impl Deployment {
    /// Whether its pods record machine-token fetches on a volume of their own: one replica of
    /// a Deployment without the store (a DaemonSet has one per control plane node).
    pub fn keeps_ledger(&self) -> bool {
        self.store.is_none() && !self.host_network && self.replicas == 1
    }
}

/// Where the serve pod finds the store's TLS files.
const STORE_MOUNT: &str = "/store";

/// Where the serve pod's ledger volume is mounted, and its ledger.
pub const LEDGER_MOUNT: &str = "/var/lib/mcsctl";
/// The ledger on that volume.
pub const LEDGER_FILE: &str = "/var/lib/mcsctl/ledger/serve.jsonl";

/// How booting machines reach the serve Service.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ServiceType {
    /// Port [`NODE_PORT`] on every node.
    #[default]
    NodePort,
    /// A load balancer from the platform.
    LoadBalancer,
    /// Inside the cluster only.
    ClusterIP,
}

impl ServiceType {
    /// The Kubernetes name.
    pub fn name(self) -> &'static str {
        match self {
            ServiceType::NodePort => "NodePort",
            ServiceType::LoadBalancer => "LoadBalancer",
            ServiceType::ClusterIP => "ClusterIP",
        }
    }
}

/// The node port of a NodePort Service: 22623 is outside the node port range (30000-32767),
/// so the nearest memorable one.
pub const NODE_PORT: u16 = 32623;

/// The port of `serve --metrics-listen` in the Deployment's pods.
pub const METRICS_PORT: u16 = 9623;

pub(super) fn objects(i: &Inputs, d: &Deployment) -> Vec<Manifest> {
    let labels =
        json!({"app.kubernetes.io/name": "mcsctl-serve", "app.kubernetes.io/managed-by": "mcsctl"});
    let (objects, mut volumes, mut mounts) = serve_secrets(i, d, &labels);
    if d.keeps_ledger() {
        volumes
            .push(json!({"name": "ledger", "persistentVolumeClaim": {"claimName": LEDGER_CLAIM}}));
        mounts.push(json!({"name": "ledger", "mountPath": LEDGER_MOUNT}));
    }
    let mut objects = objects;
    if let Some(s) = &d.store
        && s.ca.is_some()
    {
        let mut data = BTreeMap::new();
        if let Some(ca) = &s.ca {
            data.insert("ca.crt".to_string(), ca.clone());
        }
        if let Some((cert, key)) = &s.identity {
            data.insert("tls.crt".to_string(), cert.clone());
            data.insert("tls.key".to_string(), key.clone());
        }
        let mut store = secret(&d.namespace, "mcsctl-serve-store", "Opaque", data);
        store["metadata"]["labels"] = labels.clone();
        objects.push(store);
        volumes.push(json!({"name": "store", "secret": {"secretName": "mcsctl-serve-store", "defaultMode": 0o440}}));
        mounts.push(json!({"name": "store", "mountPath": STORE_MOUNT, "readOnly": true}));
    }
    let pod = pod(d, volumes, mounts);
    let workload = workload(d, pod, &labels);
    let mut out: Vec<Manifest> = objects
        .into_iter()
        .map(|o| Manifest {
            file: format!(
                "serve-{}-secret.yaml",
                o["metadata"]["name"].as_str().unwrap_or("x")
            ),
            object: o,
            secret: true,
        })
        .collect();
    out.push(Manifest {
        file: "serve-config-configmap.yaml".into(),
        object: json!({
            "apiVersion": "v1", "kind": "ConfigMap",
            "metadata": {"name": CONFIG_MAP, "namespace": d.namespace, "labels": labels},
            "data": {"mcsctl.json": String::from_utf8_lossy(&i.config_json)},
        }),
        secret: false,
    });
    if d.keeps_ledger() {
        out.push(Manifest {
            file: "serve-ledger-pvc.yaml".into(),
            object: ledger_claim(d, &labels),
            secret: false,
        });
    }
    if d.host_network {
        out.push(Manifest {
            file: "serve-daemonset.yaml".into(),
            object: workload,
            secret: false,
        });
    } else {
        out.push(Manifest {
            file: "serve-deployment.yaml".into(),
            object: workload,
            secret: false,
        });
        out.push(Manifest {
            file: "serve-service.yaml".into(),
            object: service(d, &labels),
            secret: false,
        });
    }
    out
}

/// The Secrets the serve pods mount (the rendered configs, the serving pair outside the MCO's
/// namespace, the tokens), with their volumes and mounts.
fn serve_secrets(
    i: &Inputs,
    d: &Deployment,
    labels: &Value,
) -> (Vec<Value>, Vec<Value>, Vec<Value>) {
    // Rendered configs hold secrets: a Secret, projected so pre-approval files land in a
    // subdirectory (Secret keys cannot contain '/').
    let mut data = BTreeMap::new();
    let mut items = Vec::new();
    for (pool, (full, pre)) in &i.rendered {
        data.insert(format!("{pool}.ign"), full.clone());
        items.push(json!({"key": format!("{pool}.ign"), "path": format!("{pool}.ign")}));
        if let Some(p) = pre {
            data.insert(format!("pre-approval.{pool}.ign"), p.clone());
            items.push(json!({"key": format!("pre-approval.{pool}.ign"), "path": format!("pre-approval/{pool}.ign")}));
        }
    }
    let mut rendered = secret(&d.namespace, "mcsctl-rendered", "Opaque", data);
    rendered["metadata"]["labels"] = labels.clone();
    // In the MCO's namespace the serving Secret is the one written above; elsewhere a copy.
    let tls_secret = if d.namespace == MCO_NAMESPACE {
        "machine-config-server-tls"
    } else {
        "mcsctl-serve-tls"
    };
    let mut objects = vec![rendered];
    if d.namespace != MCO_NAMESPACE {
        let mut tls = secret(
            &d.namespace,
            tls_secret,
            "kubernetes.io/tls",
            BTreeMap::from([
                ("tls.crt".into(), i.serving_cert.clone()),
                ("tls.key".into(), i.serving_key.clone()),
            ]),
        );
        tls["metadata"]["labels"] = labels.clone();
        objects.push(tls);
    }
    let mut volumes = vec![
        json!({"name": "tls", "secret": {"secretName": tls_secret, "defaultMode": 0o440,
               "items": [{"key": "tls.crt", "path": "mcs.crt"}, {"key": "tls.key", "path": "mcs.key"}]}}),
        json!({"name": "rendered", "secret": {"secretName": "mcsctl-rendered", "defaultMode": 0o440, "items": items}}),
    ];
    let mut mounts = vec![
        json!({"name": "tls", "mountPath": "/assets/tls", "readOnly": true}),
        json!({"name": "rendered", "mountPath": "/assets/rendered", "readOnly": true}),
    ];
    // mcsctl.json makes /assets an asset directory: one file, so a subPath mount.
    volumes
        .push(json!({"name": "config", "configMap": {"name": CONFIG_MAP, "defaultMode": 0o444}}));
    mounts.push(json!({"name": "config", "mountPath": "/assets/mcsctl.json", "subPath": "mcsctl.json", "readOnly": true}));
    if let Some(tokens) = &i.tokens_json {
        let mut auth = secret(
            &d.namespace,
            "mcsctl-serve-auth",
            "Opaque",
            BTreeMap::from([("tokens.json".into(), tokens.clone())]),
        );
        auth["metadata"]["labels"] = labels.clone();
        objects.push(auth);
        volumes.push(json!({"name": "auth", "secret": {"secretName": "mcsctl-serve-auth", "defaultMode": 0o440}}));
        mounts.push(json!({"name": "auth", "mountPath": "/assets/auth", "readOnly": true}));
    }
    (objects, volumes, mounts)
}

/// The ConfigMap holding mcsctl.json for serve's pods.
const CONFIG_MAP: &str = "mcsctl-serve-config";

/// The claim of the serve pod's ledger volume: a restart keeps the evidence of every fetch.
const LEDGER_CLAIM: &str = "mcsctl-serve-ledger";

/// The PersistentVolumeClaim of the ledger (ReadWriteOnce: one replica writes it).
fn ledger_claim(d: &Deployment, labels: &Value) -> Value {
    json!({
        "apiVersion": "v1", "kind": "PersistentVolumeClaim",
        "metadata": {"name": LEDGER_CLAIM, "namespace": d.namespace, "labels": labels},
        "spec": {"accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "1Gi"}}},
    })
}

/// The serve pod: non-root, read-only but for its ledger volume; ready on /healthz (which
/// fails while machine tokens cannot be served), alive while its port accepts connections (a
/// pod that is only unready is not restarted).
fn pod(d: &Deployment, volumes: Vec<Value>, mounts: Vec<Value>) -> Value {
    let ready = json!({"httpGet": {"path": "/healthz", "port": 22623, "scheme": "HTTPS"}, "initialDelaySeconds": 2, "periodSeconds": 10, "timeoutSeconds": 2});
    let alive = json!({"tcpSocket": {"port": 22623}, "initialDelaySeconds": 10, "periodSeconds": 10, "timeoutSeconds": 2});
    let mut args = json!([
        "serve",
        "--dir",
        "/assets",
        "--listen",
        "0.0.0.0:22623",
        "--auth",
        d.auth,
        "--metrics-listen",
        format!("0.0.0.0:{METRICS_PORT}")
    ]);
    if let Some(a) = args.as_array_mut() {
        if d.keeps_ledger() {
            a.extend([json!("--ledger"), json!(LEDGER_FILE)]);
        }
        if let Some(s) = &d.store {
            a.extend([json!("--store"), json!(s.url.to_string())]);
            if s.ca.is_none() {
                a.push(json!("--store-insecure"));
            }
            if s.ca.is_some() {
                a.extend([json!("--store-ca"), json!(format!("{STORE_MOUNT}/ca.crt"))]);
            }
            if s.identity.is_some() {
                a.extend([
                    json!("--store-cert"),
                    json!(format!("{STORE_MOUNT}/tls.crt")),
                ]);
                a.extend([
                    json!("--store-key"),
                    json!(format!("{STORE_MOUNT}/tls.key")),
                ]);
            }
            if let Some(p) = &s.prefix {
                a.extend([json!("--store-prefix"), json!(p)]);
            }
        }
    }
    json!({
        "securityContext": {"runAsNonRoot": true, "runAsUser": 65534, "runAsGroup": 65534, "fsGroup": 65534,
                            "seccompProfile": {"type": "RuntimeDefault"}},
        "containers": [{
            "name": "serve",
            "image": d.image,
            "args": args,
            "ports": [{"name": "mcs", "containerPort": 22623, "protocol": "TCP"},
                      {"name": "metrics", "containerPort": METRICS_PORT, "protocol": "TCP"}],
            "readinessProbe": ready,
            "livenessProbe": alive,
            "resources": {"requests": {"cpu": "50m", "memory": "32Mi"}, "limits": {"memory": "128Mi"}},
            "securityContext": {"allowPrivilegeEscalation": false, "readOnlyRootFilesystem": true,
                                "capabilities": {"drop": ["ALL"]}},
            "volumeMounts": mounts,
        }],
        "volumes": volumes,
    })
}

/// A Deployment, or with host networking a DaemonSet on the control plane as the real MCS runs.
/// Its pods carry the `prometheus.io` scrape annotations for their metrics port.
fn workload(d: &Deployment, mut pod: Value, labels: &Value) -> Value {
    let scrape = json!({"prometheus.io/scrape": "true", "prometheus.io/port": METRICS_PORT.to_string(),
                        "prometheus.io/path": "/metrics"});
    let selector = json!({"matchLabels": {"app.kubernetes.io/name": "mcsctl-serve"}});
    if d.host_network {
        // As the real MCS runs (manifests/machineconfigserver/daemonset.yaml of the MCO): one
        // pod per control plane node on its host network, tolerating the control plane's
        // NoSchedule taint, so the UPI load balancer's :22623 backends answer.
        pod["hostNetwork"] = true.into();
        pod["dnsPolicy"] = "ClusterFirstWithHostNet".into();
        pod["priorityClassName"] = "system-cluster-critical".into();
        pod["affinity"] = json!({"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [
            {"matchExpressions": [{"key": "node-role.kubernetes.io/master", "operator": "Exists"}]},
            {"matchExpressions": [{"key": "node-role.kubernetes.io/control-plane", "operator": "Exists"}]},
        ]}}});
        pod["tolerations"] = json!([
            {"key": "node-role.kubernetes.io/master", "operator": "Exists", "effect": "NoSchedule"},
            {"key": "node-role.kubernetes.io/control-plane", "operator": "Exists", "effect": "NoSchedule"},
            {"key": "node.kubernetes.io/unreachable", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 120},
            {"key": "node.kubernetes.io/not-ready", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 120},
        ]);
        json!({
            "apiVersion": "apps/v1", "kind": "DaemonSet",
            "metadata": {"name": "mcsctl-serve", "namespace": d.namespace, "labels": labels},
            "spec": {
                "selector": selector,
                "updateStrategy": {"type": "RollingUpdate", "rollingUpdate": {"maxUnavailable": 1}},
                "template": {"metadata": {"labels": labels, "annotations": scrape}, "spec": pod},
            },
        })
    } else {
        json!({
            "apiVersion": "apps/v1", "kind": "Deployment",
            "metadata": {"name": "mcsctl-serve", "namespace": d.namespace, "labels": labels},
            "spec": {
                "replicas": d.replicas,
                // One writer of the ledger volume at a time: the old pod goes before the new.
                "strategy": {"type": if d.keeps_ledger() { "Recreate" } else { "RollingUpdate" }},
                "selector": selector,
                "template": {"metadata": {"labels": labels, "annotations": scrape}, "spec": pod},
            },
        })
    }
}

/// The Service in front of the serve pods (a NodePort on 32623 when asked).
fn service(d: &Deployment, labels: &Value) -> Value {
    let mut port = json!({"name": "mcs", "port": 22623, "targetPort": 22623, "protocol": "TCP"});
    if d.service_type == ServiceType::NodePort {
        port["nodePort"] = NODE_PORT.into();
    }
    json!({
        "apiVersion": "v1", "kind": "Service",
        "metadata": {"name": "mcsctl-serve", "namespace": d.namespace, "labels": labels},
        "spec": {
            "type": d.service_type.name(),
            "selector": {"app.kubernetes.io/name": "mcsctl-serve"},
            "ports": [port],
        },
    })
}
