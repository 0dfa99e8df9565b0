//! `ca import --bundle`: trust a cluster's own MCS CA. Since OpenShift 4.19 the MCO rotates it
//! (library-go certrotation, at 80% of its life): the bundle is the ConfigMap
//! `openshift-machine-config-operator/machine-config-server-ca` (key `ca-bundle.crt`), the
//! signing key the Secret of the same name (`tls.crt`, `tls.key`). Older clusters have the
//! ConfigMap `kube-system/root-ca` (`ca.crt`). The MCO rewrites the Machine API's user-data
//! Secrets; nobody rewrites a UPI admin's pointer configs: this does.

use anyhow::{Result, anyhow, bail};
use time::OffsetDateTime;

use super::ca::Replace;
use super::ca_step::{CaReport, bundle_and_pointers};
use super::cas::CaSet;
use super::pointers::{self, Target};
use super::report::FileKind;
use super::{Note, Outcome, Snapshot, Written, report};
use crate::assets::{Change, Overwrite, PUBLIC_MODE, SECRET_MODE, layout};
use crate::pki::cert::CertInfo;
use crate::pki::keys::key_matches_spki;
use crate::pki::rotation::{self, ClusterBundle, Phase};

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

/// Refuses a bundle sharing no CA with what the pointer configs trust (`trusted`), unless
/// `replace` allows it: copies of the pointer configs trust only the CAs here, so a bundle
/// sharing none of them breaks every copy; with pointer configs it takes --force --yes, as
/// `ca create` does.
fn may_trust(snap: &Snapshot, b: &Bundle, trusted: &[Vec<u8>], replace: Replace) -> Result<()> {
    let shares = b.cas.iter().any(|c| trusted.contains(&c.der));
    let needed = if snap.pointers.is_empty() {
        Replace::Force
    } else {
        Replace::BreakingCopies
    };
    if trusted.is_empty() || shares || replace == needed || replace == Replace::BreakingCopies {
        return Ok(());
    }
    let flags = if needed == Replace::Force {
        "--force"
    } else {
        "--force --yes"
    };
    bail!(
        "{} shares no CA with what the pointer configs here trust: is it another cluster's? {flags} trusts it instead, and every copy of a pointer config made before stops working",
        b.source
    )
}

/// `ca import --bundle`: trust the cluster's bundle `b`; its signing key, if any, says which
/// CA is active (else the newest is). Refused when it shares no CA with what the pointer
/// configs here trust, unless `replace` allows it ([`may_trust`]).
pub fn import(
    snap: &Snapshot,
    mut b: Bundle,
    replace: Replace,
    now: OffsetDateTime,
) -> Result<Outcome<'_, CaReport>> {
    let t = now.unix_timestamp();
    let mut notes = keep_live(&mut b, t)?;
    let (active, key_pem) = active_of(&b)?;
    let dir = &snap.dir;
    let cas = &snap.cas;
    let trusted = cas.known();
    may_trust(snap, &b, &trusted, replace)?;
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
    let retired = retire_other_keys(&mut change, cas, &active);
    change.remove(layout::CA_NEXT_CERT);
    change.remove(layout::CA_PREVIOUS_CERT);
    match &key_pem {
        Some(k) => change.write(layout::CA_KEY, k, SECRET_MODE, Overwrite::Allow),
        None => change.remove(layout::CA_KEY),
    }
    stage_record(&mut change, &b.source, t, key_pem.is_some())?;
    let stale_serving = retire_stale_serving(&mut change, cas, &b.cas)?;
    let mut ours = trusted;
    ours.extend(b.cas.iter().map(|c| c.der.clone()));
    let target = Target {
        bundle: pem.as_bytes(),
        ours: &ours,
        tokens: snap.tokens.as_ref(),
        add_token: false,
    };
    let ptrs = pointers::edit_all(&snap.pointers, snap.config.as_ref(), &target, dir, now)?;
    pointers::stage(&mut change, &ptrs, Overwrite::Allow);
    notes.extend(remarks(&retired, stale_serving, key_pem.is_some()));
    let mut files = vec![Written::cert(
        layout::CA_CERT,
        FileKind::Ca,
        &active,
        active.key.clone(),
    )];
    if key_pem.is_some() {
        files.push(Written::file(layout::CA_KEY, true, FileKind::CaKey, None));
    }
    files.extend(bundle_and_pointers(&b.cas, &ptrs));
    notes.extend(report::short_lived(&files, t));
    let (phase, next) = Phase::Steady.describe();
    Ok(Outcome {
        change: Some(change),
        report: CaReport {
            files,
            phase,
            next,
            heading: format!("Trusting the CA bundle of {}:", b.source),
        },
        notes,
    })
}

/// tls/cluster-ca.json: the bundle is the cluster's, from `source`, imported at `t`.
fn stage_record(change: &mut Change<'_>, source: &str, t: i64, signing_key: bool) -> Result<()> {
    let record = ClusterBundle {
        format_version: ClusterBundle::FORMAT_VERSION,
        source: source.to_string(),
        imported_at: crate::pki::cert::rfc3339(t),
        signing_key,
    };
    let mut record_json = serde_json::to_vec_pretty(&record)?;
    record_json.push(b'\n');
    change.write(
        layout::CLUSTER_CA,
        &record_json,
        PUBLIC_MODE,
        Overwrite::Allow,
    );
    Ok(())
}

/// Leaves the expired CAs out of `b` (an expired CA validates nothing: the MCO drops it too),
/// with a warning each; refuses a certificate that is no CA, or a bundle with none live.
fn keep_live(b: &mut Bundle, t: i64) -> Result<Vec<Note>> {
    let mut notes = Vec::new();
    if let Some(c) = b.cas.iter().find(|c| !c.is_ca) {
        bail!("{}: {} is not a CA certificate", b.source, c.subject);
    }
    let (live, expired): (Vec<CertInfo>, Vec<CertInfo>) = std::mem::take(&mut b.cas)
        .into_iter()
        .partition(|c| c.not_after > t);
    for c in &expired {
        notes.push(Note::Warn(format!(
            "{}: leaving out {}, which expired on {}",
            b.source,
            c.subject_with_key_id(),
            crate::pki::cert::rfc3339(c.not_after)
        )));
    }
    if live.is_empty() {
        bail!("{}: every CA in it has expired", b.source);
    }
    b.cas = live;
    Ok(notes)
}

/// The active CA: the one the signing key belongs to, else the newest; and the key as stored
/// (PEM as given, DER as PKCS#8 PEM).
fn active_of(b: &Bundle) -> Result<(CertInfo, Option<Vec<u8>>)> {
    Ok(match &b.key_pem {
        Some(k) => {
            let key = crate::pki::load::key(k, "the signing key")?;
            let ca = b
                .cas
                .iter()
                .find(|c| key_matches_spki(&key, &c.spki))
                .ok_or_else(|| {
                    anyhow!("the signing key belongs to none of the CAs in {}", b.source)
                })?;
            let pem = if crate::pki::is_pem(k) {
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
    })
}

/// A key here that is not the active CA's would be a mismatch: it moves (with its
/// certificate) under retired/. Returns whose keys moved.
fn retire_other_keys(change: &mut Change<'_>, cas: &CaSet, active: &CertInfo) -> Vec<String> {
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
            let tag = c.info.tag();
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
    retired
}

/// A serving pair signed by none of `cas` would be refused by every pointer config: it moves
/// under retired/ (kept, not deleted), and the cluster's MCS serves instead. Whether it did.
fn retire_stale_serving(change: &mut Change<'_>, cas: &CaSet, bundle: &[CertInfo]) -> Result<bool> {
    let stale_serving = cas
        .serving()?
        .filter(|s| !bundle.iter().any(|c| s.info.is_issued_by(c)));
    if let Some(s) = stale_serving {
        let tag = s.info.tag();
        change.write(
            &format!("{}/mcs-{tag}.crt", layout::RETIRED),
            &s.cert_pem,
            PUBLIC_MODE,
            Overwrite::Allow,
        );
        change.remove(layout::SERVING_CERT);
        if let Some(k) = &s.key_pem {
            change.write(
                &format!("{}/mcs-{tag}.key", layout::RETIRED),
                k,
                SECRET_MODE,
                Overwrite::Allow,
            );
            change.remove(layout::SERVING_KEY);
        }
    }
    Ok(stale_serving.is_some())
}

/// What to tell the user besides the files.
fn remarks(retired: &[String], stale_serving: bool, signing_key: bool) -> Vec<Note> {
    let mut notes = Vec::new();
    if !retired.is_empty() {
        notes.push(Note::Info(format!(
            "moved the key(s) of {} under {} (no longer trusted)",
            retired.join(", "),
            layout::RETIRED
        )));
    }
    if stale_serving {
        notes.push(Note::Info(format!(
            "moved {} and its key under {}: it is signed by none of these CAs, so machines trusting them would refuse it; the cluster's MCS serves with its own (Secret {}/machine-config-server-tls)",
            layout::SERVING_CERT,
            layout::RETIRED,
            crate::manifests::MCO_NAMESPACE
        )));
    }
    if !signing_key {
        notes.push(Note::Info(
            "no signing key: the cluster signs the MCS's serving certificate; `cert issue` and `cert renew` need the key (the machine-config-server-ca Secret, or --key)".into(),
        ));
        notes.push(Note::Info(format!(
            "check a pointer config against what the cluster's MCS presents: `mcsctl inspect --remote api-int.<cluster>.<domain>:22623 {}`",
            layout::pointer("worker")
        )));
    }
    notes
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
