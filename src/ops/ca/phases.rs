//! The three-step rotation of the MCS CA (see `pki::rotation`): `ca rotate` introduces a new
//! CA beside the active one, `ca promote` makes it sign, `ca retire` drops the old one. Each
//! is one change; a step already taken reports where the rotation stands and changes nothing.

use anyhow::{Result, anyhow, bail};
use time::OffsetDateTime;

use super::step::{CaReport, bundle_and_pointers, done, nothing, set_bundle};
use crate::assets::{Change, Overwrite, PUBLIC_MODE, SECRET_MODE, layout};
use crate::model::Snapshot;
use crate::model::cas::Loaded;
use crate::ops::report::FileKind;
use crate::ops::serving::{self, NewCa};
use crate::ops::{KeyGen, Note, Outcome, Written};
use crate::pki::cert::CertInfo;
use crate::pki::issue::{Ca, create_ca};
use crate::pki::keys::KeyAlgorithm;
use crate::pki::rotation::{self, Phase};

/// `ca rotate`: `new` (or a new CA of the active one's algorithm, or `alg`) enters the bundle
/// and every pointer config beside the active one.
pub fn rotate<'s>(
    snap: &'s Snapshot,
    new: Option<NewCa>,
    alg: Option<KeyAlgorithm>,
    validity: time::Duration,
    keys: KeyGen<'_>,
    now: OffsetDateTime,
) -> Result<Outcome<'s, CaReport>> {
    if let Some(c) = &snap.cas.cluster {
        bail!(c.refusal("rotate"));
    }
    let cas = &snap.cas;
    let Some(active) = &cas.active else {
        bail!(
            "{} has no CA to rotate from; run `mcsctl ca create` or `mcsctl ca import`",
            snap.dir.root().display()
        );
    };
    match cas.phase() {
        Phase::Introduced => {
            return Ok(nothing(
                cas,
                "the new CA was already introduced (phase 1 of 3); nothing to do",
            ));
        }
        Phase::Promoted => bail!(
            "the previous rotation is not finished: the old CA is still trusted; run `mcsctl ca retire` first (the bundle holds at most two CAs)"
        ),
        Phase::Steady => {}
    }
    let new = match new {
        Some(n) => n,
        None => {
            let alg = match alg {
                Some(x) => x,
                None => serving::algorithm_of(&active.info.key)?,
            };
            NewCa::created(create_ca(keys(alg, "CA")?, validity, now)?.1)
        }
    };
    if new.info.der == active.info.der {
        bail!("that CA is already the active one");
    }
    let mut change = snap.change("ca rotate");
    let bundle = rotation::bundle([&active.info, &new.info], now.unix_timestamp());
    change.write(
        layout::CA_NEXT_CERT,
        &new.cert_pem,
        PUBLIC_MODE,
        Overwrite::Allow,
    );
    change.write(
        layout::CA_NEXT_KEY,
        &new.key_pem,
        SECRET_MODE,
        Overwrite::Allow,
    );
    let ptrs = set_bundle(snap, &mut change, &bundle, &[&new.info], now)?;
    let mut files = vec![
        Written::cert(
            layout::CA_NEXT_CERT,
            FileKind::CaNext,
            &new.info,
            new.info.key.clone(),
        ),
        Written::file(layout::CA_NEXT_KEY, true, FileKind::CaNextKey, None),
    ];
    files.extend(bundle_and_pointers(&bundle, &ptrs));
    Ok(done(
        change,
        "Introduced a new CA beside the active one:",
        files,
        Phase::Introduced,
        Vec::new(),
        now,
    ))
}

/// `ca promote`: the introduced CA becomes the active one and signs a new serving
/// certificate; the old one stays trusted as "previous". Refused while a pointer config does
/// not trust the new CA, unless `force`.
pub fn promote<'s>(
    snap: &'s Snapshot,
    force: bool,
    validity: time::Duration,
    keys: KeyGen<'_>,
    now: OffsetDateTime,
) -> Result<Outcome<'s, CaReport>> {
    if let Some(c) = &snap.cas.cluster {
        bail!(c.refusal("promote"));
    }
    let cas = &snap.cas;
    let Some(next) = &cas.next else {
        if cas.phase() == Phase::Promoted {
            return Ok(nothing(
                cas,
                "the new CA already signs the serving certificate (phase 2 of 3); nothing to do",
            ));
        }
        bail!("no new CA to promote: run `mcsctl ca rotate` first");
    };
    let mut notes = Vec::new();
    let lacking: Vec<&str> = snap
        .pointers
        .iter()
        .filter(|p| !p.trusts(&next.info))
        .map(|p| p.rel.as_str())
        .collect();
    if !lacking.is_empty() {
        if !force {
            bail!(
                "{} do not trust the new CA yet: machines booting with them would fail with \"x509: certificate signed by unknown authority\" once it signs; rewrite them (`mcsctl pointer --pool P --force`), which keeps them working, or pass --force to promote anyway, and machines booting with them stop working",
                lacking.join(", ")
            );
        }
        notes.push(Note::Warn(format!(
            "promoting although {} do not trust the new CA: machines booting with them will fail",
            lacking.join(", ")
        )));
    }
    let dir = &snap.dir;
    let key = next
        .key_pem
        .as_ref()
        .ok_or_else(|| anyhow!("{} is missing", dir.path(layout::CA_NEXT_KEY).display()))?;
    let ca = Ca::load(
        &next.cert_pem,
        &dir.path(layout::CA_NEXT_CERT).display().to_string(),
        key,
        &dir.path(layout::CA_NEXT_KEY).display().to_string(),
    )?;
    let mut change = snap.change("ca promote");
    let promotion = Promotion {
        active: cas.active.as_ref(),
        ca: &ca,
        next,
        validity,
    };
    let files = promote_into(snap, &mut change, promotion, keys, now)?;
    Ok(done(
        change,
        "Promoted the new CA: it signs the serving certificate now:",
        files,
        Phase::Promoted,
        notes,
        now,
    ))
}

/// What a promotion moves: the active CA (if any) becomes previous, `next` (loaded as `ca`,
/// with its key) becomes active and re-issues the serving certificate for `validity`.
pub(super) struct Promotion<'a> {
    pub(super) active: Option<&'a Loaded>,
    pub(super) ca: &'a Ca,
    pub(super) next: &'a Loaded,
    pub(super) validity: time::Duration,
}

/// The promotion's writes.
pub(super) fn promote_into(
    snap: &Snapshot,
    change: &mut Change<'_>,
    p: Promotion<'_>,
    keys: KeyGen<'_>,
    now: OffsetDateTime,
) -> Result<Vec<Written>> {
    let Promotion {
        active,
        ca,
        next,
        validity,
    } = p;
    let mut files = Vec::new();
    if let Some(active) = active {
        change.write(
            layout::CA_PREVIOUS_CERT,
            &active.cert_pem,
            PUBLIC_MODE,
            Overwrite::Allow,
        );
        files.push(Written::cert(
            layout::CA_PREVIOUS_CERT,
            FileKind::CaPrevious,
            &active.info,
            "still trusted until `ca retire`".into(),
        ));
        if let Some(k) = &active.key_pem {
            change.write(layout::CA_PREVIOUS_KEY, k, SECRET_MODE, Overwrite::Allow);
            files.push(Written::file(
                layout::CA_PREVIOUS_KEY,
                true,
                FileKind::KeptKey,
                Some(format!("kept: moved from {}", layout::CA_KEY)),
            ));
        }
    }
    change.write(
        layout::CA_CERT,
        &next.cert_pem,
        PUBLIC_MODE,
        Overwrite::Allow,
    );
    change.remove(layout::CA_NEXT_CERT);
    change.remove(layout::CA_NEXT_KEY);
    files.push(Written::cert(
        layout::CA_CERT,
        FileKind::Ca,
        &next.info,
        next.info.key.clone(),
    ));
    if let Some(k) = &next.key_pem {
        change.write(layout::CA_KEY, k, SECRET_MODE, Overwrite::Allow);
        // The introduced CA's key moves out of its slot; a CA made or given here is new.
        let moved = snap
            .cas
            .next
            .as_ref()
            .is_some_and(|n| n.info.der == next.info.der);
        files.push(if moved {
            Written::file(
                layout::CA_KEY,
                true,
                FileKind::KeptKey,
                Some(format!("kept: moved from {}", layout::CA_NEXT_KEY)),
            )
        } else {
            Written::file(layout::CA_KEY, true, FileKind::CaKey, None)
        });
    }
    if snap.cas.serving.is_some() {
        let issued = serving::reissue(snap, ca, validity, None, keys, now)?;
        files.extend(serving::stage(change, &issued));
    }
    Ok(files)
}

/// What `ca retire` does with the keys already kept under tls/retired/.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Retired {
    /// Keep them (the default: no command makes a CA key disappear).
    Keep,
    /// `--purge`: delete them, the one explicit way a kept key goes.
    Purge,
}

impl Retired {
    /// `Purge` with `--purge`, else `Keep`.
    pub fn of(purge: bool) -> Retired {
        if purge { Retired::Purge } else { Retired::Keep }
    }
}

/// `ca retire`: every CA but the active one leaves the bundle and the pointer configs; with
/// [`Retired::Purge`], the files under tls/retired/ are deleted.
pub fn retire(
    snap: &Snapshot,
    retired: Retired,
    now: OffsetDateTime,
) -> Result<Outcome<'_, CaReport>> {
    if let Some(c) = &snap.cas.cluster {
        bail!(c.refusal("retire"));
    }
    let mut change = snap.change("ca retire");
    let files = retire_into(snap, &mut change, now)?;
    let purge = retired == Retired::Purge;
    let purged = if purge { snap.cas.retired.len() } else { 0 };
    if purge {
        for f in &snap.cas.retired {
            change.purge(f);
        }
    }
    if files.is_empty() && purged == 0 {
        return Ok(nothing(
            &snap.cas,
            "no CA to retire: the bundle holds only the active CA",
        ));
    }
    let notes = if purged > 0 {
        vec![Note::Info(format!(
            "deleted {purged} file(s) of retired CAs under {}",
            layout::RETIRED
        ))]
    } else {
        Vec::new()
    };
    Ok(done(
        change,
        "Retired the previous CA:",
        files,
        Phase::Steady,
        notes,
        now,
    ))
}

/// The retirement's writes: every bundle CA but the active one leaves the bundle and the
/// pointer configs; the previous CA's certificate and key move under tls/retired/. Nothing
/// when there is nothing to retire.
pub(super) fn retire_into(
    snap: &Snapshot,
    change: &mut Change<'_>,
    now: OffsetDateTime,
) -> Result<Vec<Written>> {
    let cas = &snap.cas;
    let Some(active) = &cas.active else {
        bail!(
            "{} has no active CA",
            snap.dir.path(layout::CA_CERT).display()
        );
    };
    if cas.next.is_some() {
        bail!(
            "a new CA is introduced but not promoted: run `mcsctl ca promote` before retiring anything"
        );
    }
    let retiring: Vec<&CertInfo> = cas
        .bundle
        .iter()
        .chain(cas.previous.iter().map(|p| &p.info))
        .filter(|c| c.der != active.info.der)
        .collect();
    if retiring.is_empty() {
        return Ok(Vec::new());
    }
    if let Some(serving) = cas.serving()?
        && let Some(c) = retiring.iter().find(|c| serving.info.is_issued_by(c))
    {
        bail!(
            "{} is still signed by {}: run `mcsctl ca promote` (or `mcsctl cert issue --force`) before retiring it",
            layout::SERVING_CERT,
            c.subject_with_key_id()
        );
    }
    let bundle = rotation::bundle([&active.info], now.unix_timestamp());
    let ptrs = set_bundle(snap, change, &bundle, &[], now)?;
    let mut files = Vec::new();
    if let Some(p) = &cas.previous {
        let tag = p.info.tag();
        let cert_rel = format!("{}/{tag}.crt", layout::RETIRED);
        change.write(&cert_rel, &p.cert_pem, PUBLIC_MODE, Overwrite::Allow);
        change.remove(layout::CA_PREVIOUS_CERT);
        files.push(Written::cert(
            &cert_rel,
            FileKind::CaRetired,
            &p.info,
            "no longer trusted".into(),
        ));
        if let Some(k) = &p.key_pem {
            let key_rel = format!("{}/{tag}.key", layout::RETIRED);
            change.write(&key_rel, k, SECRET_MODE, Overwrite::Allow);
            files.push(Written::file(
                &key_rel,
                true,
                FileKind::KeptKey,
                Some(format!(
                    "kept: moved from {} until `ca retire --purge`",
                    layout::CA_PREVIOUS_KEY
                )),
            ));
        }
        change.remove(layout::CA_PREVIOUS_KEY);
    }
    files.extend(bundle_and_pointers(&bundle, &ptrs));
    Ok(files)
}
