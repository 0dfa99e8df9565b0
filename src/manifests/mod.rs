//! Kubernetes objects for the cluster (the MCS CA, serving certificate, tokens and user-data
//! Secrets where OpenShift keeps them) and, on request, a Deployment and Service that run
//! `mcsctl serve` from those Secrets. Replicas share state through the mounted Secrets; the
//! server's reload picks up a rotation.

mod serve;

use std::collections::BTreeMap;

use base64::Engine;
use serde_json::{Value, json};

pub use serve::{Deployment, LEDGER_FILE, LEDGER_MOUNT, METRICS_PORT, NODE_PORT, ServiceType};

/// One object to write.
#[derive(Debug, Clone)]
pub struct Manifest {
    /// File name.
    pub file: String,
    /// The object.
    pub object: Value,
    /// Whether it holds a secret (written 0600).
    pub secret: bool,
}

fn b64(b: &[u8]) -> String {
    base64::engine::general_purpose::STANDARD.encode(b)
}

fn secret(namespace: &str, name: &str, kind: &str, data: BTreeMap<String, Vec<u8>>) -> Value {
    let data: BTreeMap<String, String> = data.into_iter().map(|(k, v)| (k, b64(&v))).collect();
    json!({
        "apiVersion": "v1", "kind": "Secret",
        "metadata": {"name": name, "namespace": namespace, "labels": {"app.kubernetes.io/managed-by": "mcsctl"}},
        "type": kind,
        "data": data,
    })
}

/// What the asset directory holds.
#[derive(Debug, Clone, Default)]
pub struct Inputs {
    /// tls/mcs-ca.crt.
    pub ca_cert: Vec<u8>,
    /// tls/mcs-ca-bundle.crt: every CA pointers trust (two during a rotation).
    pub ca_bundle: Vec<u8>,
    /// tls/mcs-ca.key, only when asked for (`--include-ca-key`).
    pub ca_key: Option<Vec<u8>>,
    /// Whether to write kube-system/root-ca (`--include-root-ca`).
    pub root_ca: bool,
    /// tls/mcs.crt.
    pub serving_cert: Vec<u8>,
    /// tls/mcs.key.
    pub serving_key: Vec<u8>,
    /// auth/tokens.json with only its live tokens, if any are live.
    pub tokens_json: Option<Vec<u8>>,
    /// The current token `<id>.<secret>`, if any.
    pub current_token: Option<String>,
    /// Pointer configs by pool.
    pub pointers: BTreeMap<String, Vec<u8>>,
    /// Rendered configs by pool: (full, pre-approval).
    pub rendered: BTreeMap<String, (Vec<u8>, Option<Vec<u8>>)>,
    /// mcsctl.json (no secret): serve's pods mount it, so their directory is an asset
    /// directory that knows its cluster (the store's keys are the cluster's).
    pub config_json: Vec<u8>,
}

/// Namespace of the serving certificate Secret (as the MCO keeps it).
pub const MCO_NAMESPACE: &str = "openshift-machine-config-operator";

/// Builds every manifest.
pub fn build(i: &Inputs, deploy: Option<&Deployment>) -> Vec<Manifest> {
    let mut out = Vec::new();
    if i.root_ca {
        out.push(Manifest {
            file: "root-ca-configmap.yaml".into(),
            object: json!({
                "apiVersion": "v1", "kind": "ConfigMap",
                "metadata": {"name": "root-ca", "namespace": "kube-system", "labels": {"app.kubernetes.io/managed-by": "mcsctl"}},
                "data": {"ca.crt": String::from_utf8_lossy(&i.ca_cert)},
            }),
            secret: false,
        });
    }
    out.extend([
        // Since OpenShift 4.19 the MCO keeps the MCS CA here and rotates it (library-go
        // certrotation): the bundle in the ConfigMap, the signing pair in the Secret.
        Manifest {
            file: "machine-config-server-ca-configmap.yaml".into(),
            object: json!({
                "apiVersion": "v1", "kind": "ConfigMap",
                "metadata": {"name": "machine-config-server-ca", "namespace": MCO_NAMESPACE, "labels": {"app.kubernetes.io/managed-by": "mcsctl"}},
                "data": {"ca-bundle.crt": String::from_utf8_lossy(&i.ca_bundle)},
            }),
            secret: false,
        },
        Manifest {
            file: "machine-config-server-tls-secret.yaml".into(),
            object: secret(
                MCO_NAMESPACE,
                "machine-config-server-tls",
                "kubernetes.io/tls",
                BTreeMap::from([
                    ("tls.crt".into(), i.serving_cert.clone()),
                    ("tls.key".into(), i.serving_key.clone()),
                ]),
            ),
            secret: true,
        },
    ]);
    if let Some(key) = &i.ca_key {
        out.push(Manifest {
            file: "machine-config-server-ca-secret.yaml".into(),
            object: secret(
                MCO_NAMESPACE,
                "machine-config-server-ca",
                "kubernetes.io/tls",
                BTreeMap::from([
                    ("tls.crt".into(), i.ca_cert.clone()),
                    ("tls.key".into(), key.clone()),
                ]),
            ),
            secret: true,
        });
    }
    out.extend(credentials(i));
    if let Some(d) = deploy {
        out.extend(serve::objects(i, d));
    }
    out
}

/// The token Secret (machineconfig-auth, as the "mco-auth-token" enhancement (openshift/enhancements) names it) and each pool's user-data Secret with its
/// pointer config.
fn credentials(i: &Inputs) -> Vec<Manifest> {
    let mut out = Vec::new();
    if let Some(tokens) = &i.tokens_json {
        let mut data = BTreeMap::from([("tokens.json".to_string(), tokens.clone())]);
        if let Some(t) = &i.current_token {
            // The key the "mco-auth-token" enhancement (openshift/enhancements) names (`oc create secret generic machineconfig-auth --from-file=token`).
            data.insert("token".into(), t.as_bytes().to_vec());
        }
        out.push(Manifest {
            file: "machineconfig-auth-secret.yaml".into(),
            object: secret("openshift-config", "machineconfig-auth", "Opaque", data),
            secret: true,
        });
    }
    for (pool, ptr) in &i.pointers {
        out.push(Manifest {
            file: format!("{pool}-user-data-secret.yaml"),
            object: secret(
                "openshift-machine-api",
                &format!("{pool}-user-data"),
                "Opaque",
                BTreeMap::from([
                    ("userData".into(), ptr.clone()),
                    ("disableTemplating".into(), b"true".to_vec()),
                ]),
            ),
            secret: true,
        });
    }
    out
}
