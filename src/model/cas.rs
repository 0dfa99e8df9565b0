//! The CAs of an asset directory (active, next, previous, the bundle, the cluster's record)
//! and the serving certificate they are judged by, read once.

use anyhow::{Result, bail};

use crate::assets::{AssetDir, Image, layout};
use crate::pki::cert::{CertInfo, parse_pem_certs};
use crate::pki::issue::Ca;
use crate::pki::rotation::{ClusterBundle, Phase};

/// A CA of the directory: certificate and (when present) key, as stored.
#[derive(Debug, Clone)]
pub struct Loaded {
    /// What the certificate says.
    pub info: CertInfo,
    /// The certificate file, byte for byte.
    pub cert_pem: Vec<u8>,
    /// The key file, byte for byte, when there is one.
    pub key_pem: Option<Vec<u8>>,
}

/// The serving pair as stored.
#[derive(Debug, Clone)]
pub struct Serving {
    /// The certificate (the first of tls/mcs.crt).
    pub info: CertInfo,
    /// tls/mcs.crt, byte for byte.
    pub cert_pem: Vec<u8>,
    /// tls/mcs.key, byte for byte, when there is one.
    pub key_pem: Option<Vec<u8>>,
}

/// Every CA file of the directory, and the serving certificate.
#[derive(Debug, Default)]
pub struct CaSet {
    /// tls/mcs-ca.crt and .key.
    pub active: Option<Loaded>,
    /// tls/mcs-ca-next.crt and .key (phase 1 of a rotation).
    pub next: Option<Loaded>,
    /// tls/mcs-ca-previous.crt and .key (phase 2).
    pub previous: Option<Loaded>,
    /// tls/mcs-ca-bundle.crt: what pointer configs trust.
    pub bundle: Vec<CertInfo>,
    /// tls/mcs-ca-bundle.crt, byte for byte.
    pub bundle_pem: Option<Vec<u8>>,
    /// tls/cluster-ca.json: the bundle is the cluster's own.
    pub cluster: Option<ClusterBundle>,
    /// tls/mcs.crt and .key; `Err` when the certificate cannot be read, kept apart so that
    /// `cert issue --force --replace-sans` can still replace it.
    pub serving: Option<std::result::Result<Serving, String>>,
    /// The files under tls/retired/ (relative paths).
    pub retired: Vec<String>,
}

/// A file of the directory, or `None` when it is not there: the snapshot's one policy for
/// optional files (absent is `None`, present but unreadable is an error naming it).
pub fn optional(dir: &AssetDir, rel: &str) -> Result<Option<Vec<u8>>> {
    if dir.exists(rel) {
        dir.read(rel).map(Some)
    } else {
        Ok(None)
    }
}

/// The certificates of a PEM file of the directory, or `None` when it is not there. The
/// snapshot and `inspect` read certificates through it.
pub fn certs(dir: &AssetDir, rel: &str) -> Result<Option<Vec<CertInfo>>> {
    match optional(dir, rel)? {
        Some(pem) => parse_pem_certs(&pem, &dir.path(rel).display().to_string()).map(Some),
        None => Ok(None),
    }
}

impl CaSet {
    /// The CAs and the serving pair from the directory's `image`; `dir` names the files in
    /// errors.
    pub fn parse(image: &mut Image, dir: &AssetDir) -> Result<CaSet> {
        let name = |rel: &str| dir.path(rel).display().to_string();
        let mut one = |cert: &str, key: &str| -> Result<Option<Loaded>> {
            let Some(cert_pem) = image.take(cert)? else {
                // A key without its certificate is not the snapshot's (as if never read).
                let _ = image.take(key);
                return Ok(None);
            };
            let info = parse_pem_certs(&cert_pem, &name(cert))?.remove(0);
            Ok(Some(Loaded {
                info,
                cert_pem,
                key_pem: image.take(key)?,
            }))
        };
        let active = one(layout::CA_CERT, layout::CA_KEY)?;
        let next = one(layout::CA_NEXT_CERT, layout::CA_NEXT_KEY)?;
        let previous = one(layout::CA_PREVIOUS_CERT, layout::CA_PREVIOUS_KEY)?;
        let bundle_pem = image.take(layout::CA_BUNDLE)?;
        let bundle = match &bundle_pem {
            Some(b) => parse_pem_certs(b, &name(layout::CA_BUNDLE))?,
            None => Vec::new(),
        };
        let cluster = match image.take(layout::CLUSTER_CA)? {
            Some(b) => Some(ClusterBundle::parse(&b, &name(layout::CLUSTER_CA))?),
            None => None,
        };
        let serving_key = image.take(layout::SERVING_KEY);
        let serving = match image.take(layout::SERVING_CERT) {
            Ok(None) => None,
            Ok(Some(cert_pem)) => Some(
                parse_pem_certs(&cert_pem, &name(layout::SERVING_CERT))
                    .map_err(|e| format!("{e:#}"))
                    .and_then(|mut certs| {
                        Ok(Serving {
                            info: certs.remove(0),
                            cert_pem,
                            key_pem: serving_key.map_err(|e| format!("{e:#}"))?,
                        })
                    }),
            ),
            Err(e) => Some(Err(format!("{e:#}"))),
        };
        Ok(CaSet {
            active,
            next,
            previous,
            bundle,
            bundle_pem,
            cluster,
            serving,
            retired: std::mem::take(&mut image.retired),
        })
    }

    /// The serving pair, or the error reading it.
    pub fn serving(&self) -> Result<Option<&Serving>> {
        match &self.serving {
            None => Ok(None),
            Some(Ok(s)) => Ok(Some(s)),
            Some(Err(e)) => Err(anyhow::anyhow!("{e}")),
        }
    }

    /// Where a rotation stands.
    pub fn phase(&self) -> Phase {
        Phase::of(self.next.is_some(), self.previous.is_some())
    }

    /// DER of every CA the directory has put into pointer configs: the active CA and the
    /// bundle.
    pub fn known(&self) -> Vec<Vec<u8>> {
        let mut out: Vec<Vec<u8>> = Vec::new();
        for c in self.active.iter().map(|a| &a.info).chain(&self.bundle) {
            if !out.contains(&c.der) {
                out.push(c.der.clone());
            }
        }
        out
    }

    /// The active CA with its key, to sign the serving certificate; refuses, saying what to
    /// do, when the CA is the cluster's and its key was not imported, or a file is missing.
    pub fn signing(&self, dir: &AssetDir) -> Result<Ca> {
        if let Some(c) = &self.cluster
            && self.active.as_ref().is_none_or(|a| a.key_pem.is_none())
        {
            bail!(
                "{} is not here: the CA is the cluster's (from {}) and the cluster signs the MCS's serving certificate (Secret {}/machine-config-server-tls); to sign here, import the signing Secret: `oc -n {} get secret machine-config-server-ca -o yaml > ca.yaml` and `mcsctl ca import --bundle ca.yaml`",
                dir.path(layout::CA_KEY).display(),
                c.source,
                crate::manifests::MCO_NAMESPACE,
                crate::manifests::MCO_NAMESPACE,
            );
        }
        let active = self.active.as_ref().ok_or_else(|| {
            anyhow::anyhow!(
                "{} is missing; run `mcsctl ca create` or `mcsctl ca import` first",
                dir.path(layout::CA_CERT).display()
            )
        })?;
        let Some(key) = active.key_pem.as_ref() else {
            bail!("{}", key_missing(dir, active));
        };
        Ca::load(
            &active.cert_pem,
            &dir.path(layout::CA_CERT).display().to_string(),
            key,
            &dir.path(layout::CA_KEY).display().to_string(),
        )
    }
}

/// Why a command that signs cannot, when the active CA's key is not in the directory (kept
/// offline, as `init` advises): the way back is the same key, never a new CA.
pub fn key_missing(dir: &AssetDir, active: &Loaded) -> String {
    format!(
        "{} is missing: the key of the CA every pointer config trusts ({}) is not in the directory. If you keep it offline, put it back (`install -m 0600 /path/to/mcs-ca.key {}`, or `mcsctl ca import --cert {} --key /path/to/mcs-ca.key`) and run this again. Do not create or import another CA: every pointer config already on a machine, a PXE server or in a VM template would stop working",
        dir.path(layout::CA_KEY).display(),
        active.info.subject_with_key_id(),
        dir.path(layout::CA_KEY).display(),
        dir.path(layout::CA_CERT).display(),
    )
}

/// What a CA is, or was, to the directory.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CaRole {
    /// tls/mcs-ca.crt: it signs the serving certificate.
    Active,
    /// tls/mcs-ca-next.crt: introduced by `ca rotate`, not signing yet.
    Next,
    /// tls/mcs-ca-previous.crt: replaced by `ca promote`, still trusted until `ca retire`.
    Previous,
    /// A certificate under tls/retired/ (its relative path): dropped by `ca retire` or a
    /// one-step replacement.
    Retired(String),
}

impl CaSet {
    /// Every CA the directory has or had, with its role: the active, next and previous CAs
    /// and the retired ones still kept (`ca retire --purge` forgets them). A retired file that
    /// cannot be read is left out: the history explains, it never fails a command.
    pub fn history(&self, dir: &AssetDir) -> Vec<(CaRole, CertInfo)> {
        let mut out = Vec::new();
        for (role, ca) in [
            (CaRole::Active, &self.active),
            (CaRole::Next, &self.next),
            (CaRole::Previous, &self.previous),
        ] {
            if let Some(ca) = ca {
                out.push((role, ca.info.clone()));
            }
        }
        for rel in self.retired.iter().filter(|r| r.ends_with(".crt")) {
            for c in certs(dir, rel).ok().flatten().unwrap_or_default() {
                out.push((CaRole::Retired(rel.clone()), c));
            }
        }
        out
    }
}
