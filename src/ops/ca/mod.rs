//! The MCS CA put in place: the first CA (`ca create`, `ca import`) and the one-step
//! replacement of `ca create --force` and `ca import --force`; the three-step rotation is in
//! [`phases`]. Each is one change to the asset directory, so a kill leaves the state
//! before or the state after, and each is safe to rerun.

use anyhow::{Result, bail};
use time::OffsetDateTime;

pub mod phases;
pub(crate) mod step;

use super::report::FileKind;
use super::serving::NewCa;
use super::{KeyGen, Note, Written};
use crate::assets::{Overwrite, PUBLIC_MODE, SECRET_MODE, layout};
use crate::model::Snapshot;
use crate::model::cas::Loaded;
use crate::pki::issue::create_ca;
use crate::pki::keys::KeyAlgorithm;
use crate::pki::rotation::{self, Phase};
use phases::{promote_into, retire_into};
pub use step::CaReport;
use step::{CaOutcome, bundle_and_pointers, done, nothing, set_bundle};

/// What `--force` and `--yes` allow when a CA is in place.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Replace {
    /// Nothing: an existing CA is kept (the error points to `ca rotate`).
    No,
    /// `--force`: replaced at once when no pointer config of the directory trusts it; with
    /// pointer configs, refused (their copies in the field would stop working).
    Force,
    /// `--force --yes`: replaced at once even though every copy of a pointer config made
    /// before stops working.
    BreakingCopies,
}

impl Replace {
    /// From the two flags.
    pub fn of(force: bool, yes: bool) -> Replace {
        match (force, yes) {
            (false, _) => Replace::No,
            (true, false) => Replace::Force,
            (true, true) => Replace::BreakingCopies,
        }
    }
}

/// Refuses the one-step replacement of the active CA unless `replace` allows it: every
/// message says which way keeps the pointer configs in the field working. `command` is what
/// was run (`ca create`, `ca import --cert ... --key ...`), `rotate` the rotation's first step
/// for it.
fn may_replace(snap: &Snapshot, replace: Replace, command: &str, rotate: &str) -> Result<()> {
    let cert = snap.dir.path(layout::CA_CERT);
    let Some(active) = &snap.cas.active else {
        return Ok(());
    };
    let who = active.info.subject_with_key_id();
    if replace == Replace::No {
        bail!(
            "{} exists ({who}); `{rotate}` moves to a new CA in three steps that keep every pointer config working (`{command} --force` replaces it at once, keeping its key as {}, and every copy of a pointer config made before stops working)",
            cert.display(),
            layout::CA_PREVIOUS_KEY
        );
    }
    if replace == Replace::Force && !snap.pointers.is_empty() {
        let names: Vec<&str> = snap
            .pointers
            .iter()
            .take(3)
            .map(|p| p.rel.as_str())
            .collect();
        let more = snap.pointers.len().saturating_sub(names.len());
        let more = if more > 0 {
            format!(" and {more} more")
        } else {
            String::new()
        };
        bail!(
            "{} pointer config(s) ({}{more}) trust the CA in {} ({who}): copies of them on PXE servers, in VM templates and in machines' user data would stop working at once. `{rotate}` moves to a new CA in three steps that keep every copy working; to replace it now anyway, breaking those copies, add --yes (its key is kept as {})",
            snap.pointers.len(),
            names.join(", "),
            cert.display(),
            layout::CA_PREVIOUS_KEY
        );
    }
    Ok(())
}

/// `ca create`: a new CA, first or (with `replace`) replacing the active one in one step.
pub fn create<'s>(
    snap: &'s Snapshot,
    replace: Replace,
    alg: KeyAlgorithm,
    validity: time::Duration,
    keys: KeyGen<'_>,
    now: OffsetDateTime,
) -> Result<CaOutcome<'s>> {
    let exists = snap.cas.active.is_some();
    if let Some(a) = &snap.cas.active
        && a.key_pem.is_none()
        && replace == Replace::No
    {
        bail!("{}", crate::model::cas::key_missing(&snap.dir, a));
    }
    may_replace(snap, replace, "mcsctl ca create", "mcsctl ca rotate")?;
    let (_, issued) = create_ca(keys(alg, "CA")?, validity, now)?;
    let new = NewCa::created(issued);
    if exists {
        self::replace(snap, "ca create --force", new, keys, now)
    } else {
        Ok(install(snap, "ca create", new, now)?)
    }
}

/// `ca import --cert --key`: a given CA, first or (with `force`) replacing the active one.
pub fn import<'s>(
    snap: &'s Snapshot,
    new: NewCa,
    cert_name: &str,
    replace: Replace,
    keys: KeyGen<'_>,
    now: OffsetDateTime,
) -> Result<CaOutcome<'s>> {
    if new.info.not_after <= now.unix_timestamp() {
        bail!(
            "{cert_name}: the CA expired on {}; import a valid CA",
            crate::pki::cert::rfc3339(new.info.not_after)
        );
    }
    let mut notes = Vec::new();
    if !new.info.can_sign_certs {
        notes.push(Note::Warn(format!(
            "{cert_name}: the CA's keyUsage lacks keyCertSign; TLS clients may reject what it signs"
        )));
    }
    // The active CA itself, its key brought back: only the key is written.
    if let Some(a) = &snap.cas.active
        && a.info.der == new.info.der
    {
        return Ok(key_back(snap, a, new, now));
    }
    let mut out = if snap.cas.active.is_some() {
        may_replace(
            snap,
            replace,
            "mcsctl ca import --cert ... --key ...",
            "mcsctl ca rotate --cert ... --key ...",
        )?;
        self::replace(snap, "ca import --force", new, keys, now)?
    } else {
        install(snap, "ca import", new, now)?
    };
    notes.append(&mut out.notes);
    out.notes = notes;
    Ok(out)
}

/// The first CA of a directory: certificate, key and a bundle of it alone; pointer configs
/// already there (from another CA) are edited to trust it.
fn install<'s>(
    snap: &'s Snapshot,
    command: &str,
    new: NewCa,
    now: OffsetDateTime,
) -> Result<CaOutcome<'s>> {
    let bundle = rotation::bundle([&new.info], now.unix_timestamp());
    let mut change = snap.change(command);
    change.write(layout::CA_KEY, &new.key_pem, SECRET_MODE, Overwrite::Allow);
    change.write(
        layout::CA_CERT,
        &new.cert_pem,
        PUBLIC_MODE,
        Overwrite::Allow,
    );
    let ptrs = set_bundle(snap, &mut change, &bundle, &[&new.info], now)?;
    let mut files = Vec::new();
    files.extend(super::mark(snap, &mut change));
    files.extend([
        Written::cert(
            layout::CA_CERT,
            FileKind::Ca,
            &new.info,
            new.info.key.clone(),
        ),
        Written::file(layout::CA_KEY, true, FileKind::CaKey, None),
    ]);
    files.extend(bundle_and_pointers(&bundle, &ptrs));
    let mut notes = Vec::new();
    if snap.cas.serving.is_none() {
        let (san, url) = if snap.config.is_some() {
            ("", "")
        } else {
            (
                " --san <host of the merge URL>",
                " --url https://<host>:22623/config/worker",
            )
        };
        notes.push(Note::Info(format!(
            "\nNext: `mcsctl cert issue --dir {}{san}`, then `mcsctl pointer --pool worker{url}`.",
            snap.dir.root().display()
        )));
    }
    let mut out = done(
        change,
        "Wrote the MCS CA:",
        files,
        Phase::Steady,
        Vec::new(),
        now,
    );
    out.notes.extend(notes);
    Ok(out)
}

/// `ca create --force` and `ca import --force`: retire a previous CA still in the bundle,
/// introduce `new` and promote it, in one change.
fn replace<'s>(
    snap: &'s Snapshot,
    command: &str,
    new: NewCa,
    keys: KeyGen<'_>,
    now: OffsetDateTime,
) -> Result<CaOutcome<'s>> {
    let cas = &snap.cas;
    if cas.next.is_some() {
        bail!(
            "a rotation is in phase 1 (a new CA is introduced): finish it with `mcsctl ca promote` and `mcsctl ca retire`, or promote this one with `mcsctl ca rotate --cert --key`"
        );
    }
    let Some(active) = &cas.active else {
        bail!("no CA to replace");
    };
    if new.info.der == active.info.der {
        // A rerun (or the same CA twice): nothing to change.
        return Ok(nothing(
            cas,
            "that CA is already the active one; nothing to do",
        ));
    }
    let mut change = snap.change(command);
    // The CA is ours from now on, whatever the cluster's bundle was.
    change.remove(layout::CLUSTER_CA);
    let mut files = Vec::new();
    let mut notes = Vec::new();
    if let Some(p) = &cas.previous {
        notes.push(Note::Warn(format!(
            "retiring the previous CA {} first: pointer configs that trust only it stop working",
            p.info.subject_with_key_id()
        )));
        files.extend(
            retire_into(snap, &mut change, now)?
                .into_iter()
                .filter(|f| matches!(f.kind, FileKind::CaRetired | FileKind::KeptKey)),
        );
    }
    let bundle = rotation::bundle([&new.info, &active.info], now.unix_timestamp());
    let ptrs = set_bundle(snap, &mut change, &bundle, &[&new.info], now)?;
    let ca = new.signer(command)?;
    let next = Loaded {
        info: new.info.clone(),
        cert_pem: new.cert_pem.clone(),
        key_pem: Some(new.key_pem.clone()),
    };
    let promotion = phases::Promotion {
        active: Some(active),
        ca: &ca,
        next: &next,
        validity: time::Duration::days(3650),
    };
    files.extend(promote_into(snap, &mut change, promotion, keys, now)?);
    files.extend(bundle_and_pointers(&bundle, &ptrs));
    notes.push(Note::Warn(
        "the new CA signs the serving certificate now: copies of pointer configs made before this command trust only the old CA and fail; the ones here were rewritten to trust both until `mcsctl ca retire` (the three-step `ca rotate`, `ca promote`, `ca retire` avoids this)".into(),
    ));
    Ok(done(
        change,
        "Replaced the CA (rotated and promoted in one step):",
        files,
        Phase::Promoted,
        notes,
        now,
    ))
}

/// `ca import` of the CA already active: its key is written when it was missing; otherwise
/// there is nothing to do. Pointer configs and the bundle are untouched (they already trust it).
fn key_back<'s>(
    snap: &'s Snapshot,
    active: &Loaded,
    new: NewCa,
    now: OffsetDateTime,
) -> CaOutcome<'s> {
    if active.key_pem.is_some() {
        return nothing(
            &snap.cas,
            &format!(
                "{} is already this CA ({}), with its key: nothing to do",
                snap.dir.path(layout::CA_CERT).display(),
                active.info.subject_with_key_id()
            ),
        );
    }
    let mut change = snap.change("ca import");
    change.write(layout::CA_KEY, &new.key_pem, SECRET_MODE, Overwrite::Never);
    let files = vec![Written::file(layout::CA_KEY, true, FileKind::CaKey, None)];
    done(
        change,
        "The active CA's key is back:",
        files,
        snap.cas.phase(),
        Vec::new(),
        now,
    )
}
