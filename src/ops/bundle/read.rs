//! The one reader of a cluster's CA bundle file: PEM or DER certificates, or the Kubernetes
//! objects that hold them (the machine-config-server-ca ConfigMap and Secret, root-ca).

use anyhow::{Result, bail};

use crate::pki::cert::CertInfo;

/// What a bundle file gave: the CAs, and a signing key when the file had one.
#[derive(Debug, Clone)]
pub struct Bundle {
    /// The CAs, in the file's order, once each.
    pub cas: Vec<CertInfo>,
    /// The signing key (the Secret's tls.key, or --key), PEM or DER as given.
    pub key_pem: Option<Vec<u8>>,
    /// The objects (or file) it came from.
    pub source: String,
}

/// Reads the bundle: PEM or DER certificates, or Kubernetes objects (one, several, or a
/// List, JSON or YAML): the machine-config-server-ca ConfigMap (`ca-bundle.crt`), the root-ca
/// ConfigMap (`ca.crt`), and the signing Secret (`tls.crt`, `tls.key`), which adds its
/// certificate and gives the key. `oc get configmap/machine-config-server-ca
/// secret/machine-config-server-ca -o yaml` writes both at once.
pub fn parse(bytes: &[u8], name: &str) -> Result<Bundle> {
    let name = name.to_string();
    let pem = |bytes: &[u8]| -> Result<Bundle> {
        Ok(Bundle {
            cas: crate::pki::load::certs(bytes, &name)?,
            key_pem: None,
            source: name.clone(),
        })
    };
    // PEM (or DER) first when it looks like it; a Kubernetes object quotes PEM inside, so
    // "contains BEGIN" alone says nothing.
    let Ok(text) = std::str::from_utf8(bytes) else {
        return pem(bytes);
    };
    if crate::pki::starts_with_pem(bytes) {
        return pem(bytes);
    }
    let objects = match crate::kube::objects(text, &name) {
        Ok(o) => o,
        // PEM after explanatory text, as `openssl x509 -text` writes it.
        Err(_) if crate::pki::is_pem(bytes) => return pem(bytes),
        Err(e) => return Err(e),
    };
    let mut cas: Vec<CertInfo> = Vec::new();
    let mut key_pem = None;
    let mut sources = Vec::new();
    for o in &objects {
        let kind = o["kind"].as_str().unwrap_or_default();
        let obj = format!(
            "{} {}/{}",
            kind,
            o["metadata"]["namespace"].as_str().unwrap_or("?"),
            o["metadata"]["name"].as_str().unwrap_or("?")
        );
        if kind != "ConfigMap" && kind != "Secret" {
            continue;
        }
        let entries = crate::kube::data_entries(o, &format!("{name}: {obj}"))?;
        let field = |k: &str| entries.iter().find(|(n, _)| n == k).map(|(_, v)| v.clone());
        let (certs, key) = match kind {
            "ConfigMap" => (field("ca-bundle.crt").or(field("ca.crt")), None),
            _ => (field("tls.crt").or(field("ca.crt")), field("tls.key")),
        };
        let Some(certs) = certs else { continue };
        for c in crate::pki::load::certs(&certs, &format!("{name}: {obj}"))? {
            if !cas.iter().any(|x| x.der == c.der) {
                cas.push(c);
            }
        }
        if key.is_some() {
            key_pem = key;
        }
        sources.push(obj);
    }
    if cas.is_empty() {
        bail!(
            "{name} holds no CA bundle: expected the machine-config-server-ca ConfigMap (ca-bundle.crt) or Secret (tls.crt), the root-ca ConfigMap (ca.crt), or PEM"
        );
    }
    Ok(Bundle {
        cas,
        key_pem,
        source: sources.join(" and "),
    })
}
