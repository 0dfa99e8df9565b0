//! `ca import --bundle`: trust a cluster's own MCS CA. Since OpenShift 4.19 the MCO rotates it
//! (library-go certrotation, at 80% of its life): the bundle is the ConfigMap
//! `openshift-machine-config-operator/machine-config-server-ca` (key `ca-bundle.crt`), the
//! signing key the Secret of the same name (`tls.crt`, `tls.key`). Older clusters have the
//! ConfigMap `kube-system/root-ca` (`ca.crt`). The MCO rewrites the Machine API's user-data
//! Secrets; nobody rewrites a UPI admin's pointer configs: this does.

use std::path::Path;

use anyhow::{Context, Result, anyhow, bail};
use base64::Engine;
use serde_json::Value;

use super::{CaFiles, Written, report};
use crate::assets::{AssetDir, Overwrite, PUBLIC_MODE, SECRET_MODE, layout};
use crate::cmd::{edit_pointers, known_cas, load_tokens, lock, now, write_pointers};
use crate::pki::cert::CertInfo;
use crate::pki::keys::key_matches_spki;
use crate::pki::rotation;
use crate::ui::Ui;

/// What a bundle file gave: the CAs, and a signing key when the file had one.
struct Bundle {
    cas: Vec<CertInfo>,
    key_pem: Option<Vec<u8>>,
    source: String,
}

/// Runs `ca import --bundle FILE [--key FILE]`.
pub fn import(ui: &Ui, dir: &AssetDir, file: &Path, key: Option<&Path>, force: bool) -> Result<u8> {
    let mut b = read(file)?;
    if let Some(k) = key {
        b.key_pem = Some(std::fs::read(k).with_context(|| format!("reading {}", k.display()))?);
    }
    let t = now().unix_timestamp();
    for c in &b.cas {
        if !c.is_ca {
            bail!("{}: {} is not a CA certificate", b.source, c.subject);
        }
        if c.not_after <= t {
            ui.warn(format!(
                "{}: {} expired on {}; pointer configs will trust it anyway, as the bundle says",
                b.source,
                c.subject_with_key_id(),
                crate::pki::cert::rfc3339(c.not_after)
            ));
        }
    }
    // The signing key, if any, says which CA is active; else the newest one is.
    let (active, key_pem) = match &b.key_pem {
        Some(k) => {
            let key = crate::pki::load::key(k, "the signing key")?;
            let ca = b
                .cas
                .iter()
                .find(|c| key_matches_spki(&key, &c.spki))
                .ok_or_else(|| {
                    anyhow!("the signing key belongs to none of the CAs in {}", b.source)
                })?;
            let pem = if k.windows(11).any(|w| w == b"-----BEGIN ") {
                k.clone()
            } else {
                crate::pki::keys::private_key_pem(&key).into_bytes()
            };
            (ca.clone(), Some(pem))
        }
        None => (
            b.cas
                .iter()
                .max_by_key(|c| c.not_before)
                .cloned()
                .ok_or_else(|| anyhow!("{}: no CA", b.source))?,
            None,
        ),
    };
    dir.create()?;
    let lock = lock(ui, dir)?;
    let cas = CaFiles::read(dir)?;
    let trusted = known_cas(dir)?;
    if !trusted.is_empty() && !b.cas.iter().any(|c| trusted.contains(&c.der)) && !force {
        bail!(
            "{} shares no CA with what the pointer configs here trust: is it another cluster's? Use --force to trust it instead",
            b.source
        );
    }
    let mut change = dir.change("ca import --bundle");
    let pem = rotation::pem(&b.cas);
    change.write(
        layout::CA_BUNDLE,
        pem.as_bytes(),
        PUBLIC_MODE,
        Overwrite::Allow,
    );
    change.write(
        layout::CA_CERT,
        active.to_pem().as_bytes(),
        PUBLIC_MODE,
        Overwrite::Allow,
    );
    // A key here that is not the active CA's would be a mismatch: it moves under retired/.
    let mut retired = Vec::new();
    for (cert, key_rel) in [
        (cas.active.as_ref(), layout::CA_KEY),
        (cas.next.as_ref(), layout::CA_NEXT_KEY),
        (cas.previous.as_ref(), layout::CA_PREVIOUS_KEY),
    ] {
        let Some(c) = cert else { continue };
        if let Some(k) = &c.key_pem
            && c.info.der != active.der
        {
            let tag: String = c.info.fingerprint.replace(':', "")[..16].to_lowercase();
            change.write(
                &format!("{}/{tag}.key", layout::RETIRED),
                k,
                SECRET_MODE,
                Overwrite::Allow,
            );
            change.write(
                &format!("{}/{tag}.crt", layout::RETIRED),
                &c.cert_pem,
                PUBLIC_MODE,
                Overwrite::Allow,
            );
            retired.push(c.info.subject_with_key_id());
        }
        if key_rel != layout::CA_KEY || c.info.der != active.der {
            change.remove(key_rel);
        }
    }
    change.remove(layout::CA_NEXT_CERT);
    change.remove(layout::CA_PREVIOUS_CERT);
    match &key_pem {
        Some(k) => change.write(layout::CA_KEY, k, SECRET_MODE, Overwrite::Allow),
        None => change.remove(layout::CA_KEY),
    }
    let mut ours = trusted;
    ours.extend(b.cas.iter().map(|c| c.der.clone()));
    let store = load_tokens(dir)?;
    let token = store.as_ref().and_then(|s| s.current(now()));
    let pointers = edit_pointers(dir, pem.as_bytes(), &ours, token, false)?;
    write_pointers(&mut change, &pointers, Overwrite::Allow);
    change.commit(&lock)?;
    if !retired.is_empty() {
        ui.info(format!(
            "moved the key(s) of {} under {} (no longer trusted)",
            retired.join(", "),
            layout::RETIRED
        ));
    }
    if let Some(s) = &cas.serving
        && !b.cas.iter().any(|c| s.is_issued_by(c))
    {
        ui.warn(format!(
            "{} here is signed by none of these CAs: machines would refuse `mcsctl serve`; the cluster's MCS serves with its own certificate (Secret machine-config-server-tls)",
            layout::SERVING_CERT
        ));
    }
    if key_pem.is_none() {
        ui.info(
            "no signing key: the cluster signs the MCS's serving certificate; `cert issue` and `cert renew` need the key (the machine-config-server-ca Secret, or --key)",
        );
    }
    let mut files = vec![Written::cert(
        layout::CA_CERT,
        "ca",
        &active,
        active.key.clone(),
    )];
    if key_pem.is_some() {
        files.push(Written::file(layout::CA_KEY, true, "ca-key", None));
    }
    files.extend(report::bundle_and_pointers(&b.cas, &pointers));
    report::done(
        ui,
        dir,
        &format!("Trusting the CA bundle of {}:", b.source),
        &files,
    )
}

/// Reads a ConfigMap (machine-config-server-ca `ca-bundle.crt`, root-ca `ca.crt`), the
/// signing Secret (`tls.crt`, `tls.key`), or PEM.
fn read(file: &Path) -> Result<Bundle> {
    let name = file.display().to_string();
    let bytes = std::fs::read(file).with_context(|| format!("reading {name}"))?;
    if bytes.windows(11).any(|w| w == b"-----BEGIN ") {
        return Ok(Bundle {
            cas: crate::pki::load::certs(&bytes, &name)?,
            key_pem: None,
            source: name,
        });
    }
    let text = String::from_utf8(bytes)
        .map_err(|_| anyhow!("{name} is neither PEM nor a Kubernetes object"))?;
    let objects = crate::kube::objects(&text, &name)?;
    for o in &objects {
        let kind = o["kind"].as_str().unwrap_or_default();
        let obj = format!(
            "{} {}/{}",
            kind,
            o["metadata"]["namespace"].as_str().unwrap_or("?"),
            o["metadata"]["name"].as_str().unwrap_or("?")
        );
        let field = |v: &Value, k: &str, b64: bool| -> Result<Option<Vec<u8>>> {
            let Some(s) = v[k].as_str() else {
                return Ok(None);
            };
            if b64 {
                base64::engine::general_purpose::STANDARD
                    .decode(s.trim())
                    .map(Some)
                    .map_err(|_| anyhow!("{name}: {obj} data.{k} is not base64"))
            } else {
                Ok(Some(s.as_bytes().to_vec()))
            }
        };
        let (pem, key) = match kind {
            "ConfigMap" => (
                field(&o["data"], "ca-bundle.crt", false)?.or(field(&o["data"], "ca.crt", false)?),
                None,
            ),
            "Secret" => (
                field(&o["data"], "tls.crt", true)?.or(field(&o["data"], "ca.crt", true)?),
                field(&o["data"], "tls.key", true)?,
            ),
            _ => continue,
        };
        let Some(pem) = pem else { continue };
        return Ok(Bundle {
            cas: crate::pki::load::certs(&pem, &format!("{name}: {obj}"))?,
            key_pem: key,
            source: obj,
        });
    }
    bail!(
        "{name} holds no CA bundle: expected the machine-config-server-ca ConfigMap (ca-bundle.crt) or Secret (tls.crt), the root-ca ConfigMap (ca.crt), or PEM"
    )
}
