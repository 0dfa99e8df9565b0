//! `ca import --bundle`: trust a cluster's own MCS CA. Since OpenShift 4.19 the MCO rotates it
//! (library-go certrotation, at 80% of its life): the bundle is the ConfigMap
//! `openshift-machine-config-operator/machine-config-server-ca` (key `ca-bundle.crt`), the
//! signing key the Secret of the same name (`tls.crt`, `tls.key`). Older clusters have the
//! ConfigMap `kube-system/root-ca` (`ca.crt`). The MCO rewrites the Machine API's user-data
//! Secrets; nobody rewrites a UPI admin's pointer configs: this does.

mod read;

use anyhow::{Result, anyhow, bail};

pub use read::{Bundle, parse};
use time::OffsetDateTime;

use super::ca::Replace;
use super::ca::step::{CaReport, bundle_and_pointers, nothing};
use super::report::FileKind;
use super::{Note, Outcome, Written, report};
use crate::assets::{Change, Overwrite, PUBLIC_MODE, SECRET_MODE, layout};
use crate::model::Snapshot;
use crate::model::cas::{CaSet, Loaded};
use crate::model::pointers::{self, Target};
use crate::pki::cert::CertInfo;
use crate::pki::keys::key_matches_spki;
use crate::pki::rotation::{self, ClusterBundle, Phase};

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

/// `ca import --bundle`: trust the cluster's bundle `b`. The active CA after it is the one its
/// signing key belongs to, else the CA of this directory whose key is here when the bundle
/// holds it (a re-import of the directory's own bundle changes nothing, and never drops the
/// key), else the newest. Refused when it shares no CA with what the pointer configs here
/// trust ([`may_trust`]), or would leave no signing key where there was one
/// ([`may_drop_key`]), unless `replace` allows it. Every key it moves is kept under
/// tls/retired/ and listed.
pub fn import(
    snap: &Snapshot,
    mut b: Bundle,
    replace: Replace,
    now: OffsetDateTime,
) -> Result<Outcome<'_, CaReport>> {
    let t = now.unix_timestamp();
    let mut notes = keep_live(&mut b, t)?;
    let active = active_of(&b, &snap.cas)?;
    let dir = &snap.dir;
    let cas = &snap.cas;
    let trusted = cas.known();
    may_trust(snap, &b, &trusted, replace)?;
    let pem = rotation::pem(&b.cas);
    let mut ours = trusted;
    ours.extend(b.cas.iter().map(|c| c.der.clone()));
    let target = Target {
        bundle: pem.as_bytes(),
        ours: &ours,
        tokens: snap.tokens.as_ref(),
        add_token: false,
    };
    let ptrs = pointers::edit_all(&snap.pointers, snap.config.as_ref(), &target, dir, now)?;
    if let Some(why) = unchanged(snap, &pem, &active, &ptrs) {
        return Ok(nothing(cas, &why));
    }
    may_drop_key(snap, &b, &active, replace)?;
    let mut change = dir.change("ca import --bundle");
    change.write(
        layout::CA_BUNDLE,
        pem.as_bytes(),
        PUBLIC_MODE,
        Overwrite::Allow,
    );
    change.write(
        layout::CA_CERT,
        active.info.to_pem().as_bytes(),
        PUBLIC_MODE,
        Overwrite::Allow,
    );
    let mut files = Vec::new();
    files.extend(crate::ops::mark(snap, &mut change));
    files.push(Written::cert(
        layout::CA_CERT,
        FileKind::Ca,
        &active.info,
        active.info.key.clone(),
    ));
    files.extend(move_keys(&mut change, cas, &active));
    change.remove(layout::CA_NEXT_CERT);
    change.remove(layout::CA_PREVIOUS_CERT);
    stage_record(&mut change, &b.source, t, active.key.is_some())?;
    let stale_serving = retire_stale_serving(&mut change, cas, &b.cas)?;
    pointers::stage(&mut change, &ptrs, Overwrite::Allow);
    notes.extend(remarks(stale_serving, active.key.is_some()));
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

/// The active CA after an import, and where its key comes from.
struct Active {
    /// Its certificate.
    info: CertInfo,
    /// Its key, if this directory will have one.
    key: Option<Key>,
}

/// Where the active CA's key comes from.
enum Key {
    /// The bundle's signing key (the Secret's tls.key, or --key), as it will be stored.
    Given(Vec<u8>),
    /// This directory's own, left in (or moved to) tls/mcs-ca.key: the slot it is in now.
    Here(&'static str),
}

/// Why nothing changes, when the bundle is what the directory already trusts, with the same
/// active CA and its key where it is, every pointer config trusting exactly it, and no
/// rotation in progress.
fn unchanged(
    snap: &Snapshot,
    pem: &str,
    active: &Active,
    ptrs: &[pointers::PendingPointer],
) -> Option<String> {
    let cas = &snap.cas;
    let same_bundle = cas.bundle_pem.as_deref() == Some(pem.as_bytes());
    let same_active = cas
        .active
        .as_ref()
        .is_some_and(|a| a.info.der == active.info.der);
    let same_key = match &active.key {
        Some(Key::Here(slot)) => *slot == layout::CA_KEY,
        Some(Key::Given(_)) => false,
        None => cas.active.as_ref().is_some_and(|a| a.key_pem.is_none()),
    };
    let steady = cas.next.is_none() && cas.previous.is_none();
    if !(same_bundle && same_active && same_key && steady && ptrs.is_empty()) {
        return None;
    }
    let key = if active.key.is_some() {
        format!(", and keeps its signing key {}", layout::CA_KEY)
    } else {
        String::new()
    };
    Some(format!(
        "{} already trusts exactly this bundle ({} CA(s)), every pointer config with it{key}: nothing to change",
        snap.dir.root().display(),
        cas.bundle.len()
    ))
}

/// Refuses, unless `replace` allows it, an import that takes the signer's place from the CA
/// whose key is here: the bundle does not hold it, so the key leaves tls/mcs-ca.key (for
/// another signer, or for none). Said before anything is done: with --force, where the key is
/// kept.
fn may_drop_key(snap: &Snapshot, b: &Bundle, active: &Active, replace: Replace) -> Result<()> {
    let Some(ours) = &snap.cas.active else {
        return Ok(());
    };
    let held = ours.key_pem.is_some() && !b.cas.iter().any(|c| c.der == ours.info.der);
    if !held || replace != Replace::No {
        return Ok(());
    }
    let (then, advice) = match &active.key {
        None => (
            "would leave this directory no key to sign with (`cert issue`, `cert renew`)"
                .to_string(),
            format!(
                "Import the cluster's signing Secret with it (`oc -n {} get configmap/machine-config-server-ca secret/machine-config-server-ca -o yaml`)",
                crate::manifests::MCO_NAMESPACE
            ),
        ),
        Some(_) => (
            format!(
                "would make {} the signer in its place",
                active.info.subject_with_key_id()
            ),
            "Check that it is the cluster's current bundle".to_string(),
        ),
    };
    bail!(
        "{} does not hold {} (the CA whose key is {}): trusting it {then}. {advice}, or pass --force: the key is then kept as {}/{}.key",
        b.source,
        ours.info.subject_with_key_id(),
        layout::CA_KEY,
        layout::RETIRED,
        ours.info.tag()
    )
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

/// The active CA: the one the given signing key belongs to; else the first CA of this
/// directory (active, next, previous) whose key is here and which the bundle holds; else the
/// newest, without a key.
fn active_of(b: &Bundle, cas: &CaSet) -> Result<Active> {
    if let Some(k) = &b.key_pem {
        let key = crate::pki::load::key(k, "the signing key")?;
        let ca = b
            .cas
            .iter()
            .find(|c| key_matches_spki(&key, &c.spki))
            .ok_or_else(|| anyhow!("the signing key belongs to none of the CAs in {}", b.source))?;
        // The directory's own key for that CA stays as it is (a Secret may hold it in
        // another encoding): only a key not here already is written.
        if let Some((_, slot)) = held(cas).find(|(l, _)| l.info.der == ca.der) {
            return Ok(Active {
                info: ca.clone(),
                key: Some(Key::Here(slot)),
            });
        }
        let pem = if crate::pki::is_pem(k) {
            k.clone()
        } else {
            crate::pki::keys::private_key_pem(&key).into_bytes()
        };
        return Ok(Active {
            info: ca.clone(),
            key: Some(Key::Given(pem)),
        });
    }
    if let Some((l, slot)) = held(cas).find(|(l, _)| b.cas.iter().any(|c| c.der == l.info.der)) {
        return Ok(Active {
            info: l.info.clone(),
            key: Some(Key::Here(slot)),
        });
    }
    let newest = b
        .cas
        .iter()
        .max_by_key(|c| c.not_before)
        .cloned()
        .ok_or_else(|| anyhow!("{}: no CA", b.source))?;
    Ok(Active {
        info: newest,
        key: None,
    })
}

/// The CAs of the directory whose keys are here, with their slots: active, next, previous.
fn held(cas: &CaSet) -> impl Iterator<Item = (&Loaded, &'static str)> {
    [
        (cas.active.as_ref(), layout::CA_KEY),
        (cas.next.as_ref(), layout::CA_NEXT_KEY),
        (cas.previous.as_ref(), layout::CA_PREVIOUS_KEY),
    ]
    .into_iter()
    .filter_map(|(l, slot)| l.filter(|l| l.key_pem.is_some()).map(|l| (l, slot)))
}

/// Puts every key of the directory but the active CA's (with its certificate) under
/// tls/retired/, kept, and the active CA's key in tls/mcs-ca.key; returns the rows of the keys
/// written and kept. The last step on a path is what the change leaves there.
fn move_keys(change: &mut Change<'_>, cas: &CaSet, active: &Active) -> Vec<Written> {
    let signer = match &active.key {
        Some(Key::Here(slot)) => Some(*slot),
        _ => None,
    };
    let mut rows = Vec::new();
    for (l, slot) in held(cas).filter(|(_, s)| Some(*s) != signer) {
        rows.push(retire_key(change, l, slot));
        change.remove(slot);
    }
    match &active.key {
        Some(Key::Given(k)) => {
            change.write(layout::CA_KEY, k, SECRET_MODE, Overwrite::Allow);
            rows.push(Written::file(layout::CA_KEY, true, FileKind::CaKey, None));
        }
        Some(Key::Here(slot)) if *slot != layout::CA_KEY => {
            // Invariant of `held`: the slot it named has a key.
            if let Some((l, k)) = held(cas)
                .find(|(_, s)| s == slot)
                .and_then(|(l, _)| Some((l, l.key_pem.as_ref()?)))
            {
                change.write(layout::CA_KEY, k, SECRET_MODE, Overwrite::Allow);
                change.remove(slot);
                rows.push(Written::file(
                    layout::CA_KEY,
                    true,
                    FileKind::KeptKey,
                    Some(format!(
                        "kept: the key of {}, moved from {slot}",
                        l.info.subject_with_key_id()
                    )),
                ));
            }
        }
        Some(Key::Here(_)) | None => {}
    }
    rows
}

/// Keeps a CA's key and certificate under tls/retired/; the key's row.
fn retire_key(change: &mut Change<'_>, l: &Loaded, slot: &str) -> Written {
    let tag = l.info.tag();
    let key_rel = format!("{}/{tag}.key", layout::RETIRED);
    // Invariant of `held`: the CAs it gives have keys.
    if let Some(k) = &l.key_pem {
        change.write(&key_rel, k, SECRET_MODE, Overwrite::Allow);
    }
    change.write(
        &format!("{}/{tag}.crt", layout::RETIRED),
        &l.cert_pem,
        PUBLIC_MODE,
        Overwrite::Allow,
    );
    Written::file(
        &key_rel,
        true,
        FileKind::KeptKey,
        Some(format!(
            "kept: the key of {} (was {slot}), no longer the signer",
            l.info.subject_with_key_id()
        )),
    )
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
fn remarks(stale_serving: bool, signing_key: bool) -> Vec<Note> {
    let mut notes = Vec::new();
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
