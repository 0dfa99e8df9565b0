//! `ca rotate`, `ca promote`, `ca retire` (see `pki::rotation`), and the one-step replacement
//! that `ca create --force` and `ca import --force` do. Each is one change to the asset
//! directory, so a kill leaves the phase before or the phase after, and each is safe to rerun.

use anyhow::{Result, anyhow, bail};

use super::{CaFiles, Written, report};
use crate::assets::{AssetDir, Change, DirLock, Overwrite, PUBLIC_MODE, SECRET_MODE, layout};
use crate::cli::{CaPromoteArgs, CaRetireArgs, CaRotateArgs};
use crate::cmd::{
    PendingPointer, cluster_ca, edit_pointers, generate_key, known_cas, load_tokens, lock,
    write_pointers,
};
use crate::exit;
use crate::ignition::pointer;
use crate::pki::cert::CertInfo;
use crate::pki::issue::{Ca, create_ca};
use crate::pki::rotation::{self, Phase};
use crate::ui::Ui;

use crate::cmd::steps::NewCa;

/// Runs `ca rotate`.
pub fn rotate(ui: &Ui, dir: &AssetDir, a: &CaRotateArgs) -> Result<u8> {
    let validity = a.validity.to_time();
    let lock = lock(ui, dir)?;
    if let Some(c) = cluster_ca(dir)? {
        bail!(c.refusal("rotate"));
    }
    let cas = CaFiles::read(dir)?;
    let Some(active) = &cas.active else {
        bail!(
            "{} has no CA to rotate from; run `mcsctl ca create` or `mcsctl ca import`",
            dir.root().display()
        );
    };
    match cas.phase() {
        Phase::Introduced => {
            ui.info("the new CA was already introduced (phase 1 of 3); nothing to do");
            report::phase(ui, dir)?;
            return Ok(exit::OK);
        }
        Phase::Promoted => bail!(
            "the previous rotation is not finished: the old CA is still trusted; run `mcsctl ca retire` first (the bundle holds at most two CAs)"
        ),
        Phase::Steady => {}
    }
    let new = match (&a.cert, &a.key) {
        (Some(c), Some(k)) => crate::cmd::steps::load_new(c, k)?,
        _ => {
            let alg = match a.key_algorithm {
                Some(x) => x,
                None => crate::cmd::steps::algorithm_of(&active.info.key)?,
            };
            let (_, issued) = create_ca(generate_key(ui, alg, "CA")?, validity, ui.now)?;
            NewCa {
                info: issued.info,
                cert_pem: issued.cert_pem.into_bytes(),
                key_pem: issued.key_pem.into_bytes(),
            }
        }
    };
    if new.info.der == active.info.der {
        bail!("that CA is already the active one");
    }
    let mut change = dir.change("ca rotate");
    let bundle = rotation::bundle([&active.info, &new.info], ui.now.unix_timestamp());
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
    let pointers = set_bundle(dir, &mut change, &bundle, &[&new.info], ui.now)?;
    change.commit(&lock)?;
    let mut files = vec![
        Written::cert(
            layout::CA_NEXT_CERT,
            "ca-next",
            &new.info,
            new.info.key.clone(),
        ),
        Written::file(layout::CA_NEXT_KEY, true, "ca-next-key", None),
    ];
    files.extend(report::bundle_and_pointers(&bundle, &pointers));
    report::done(
        ui,
        dir,
        "Introduced a new CA beside the active one:",
        &files,
    )
}

/// Runs `ca promote`.
pub fn promote(ui: &Ui, dir: &AssetDir, a: &CaPromoteArgs) -> Result<u8> {
    let validity = a.validity.to_time();
    let lock = lock(ui, dir)?;
    if let Some(c) = cluster_ca(dir)? {
        bail!(c.refusal("promote"));
    }
    let cas = CaFiles::read(dir)?;
    let Some(next) = &cas.next else {
        if cas.phase() == Phase::Promoted {
            ui.info(
                "the new CA already signs the serving certificate (phase 2 of 3); nothing to do",
            );
            report::phase(ui, dir)?;
            return Ok(exit::OK);
        }
        bail!("no new CA to promote: run `mcsctl ca rotate` first");
    };
    let lacking = pointers_lacking(dir, &next.info)?;
    if !lacking.is_empty() {
        if !a.force {
            bail!(
                "{} do not trust the new CA yet: machines booting with them would fail with \"x509: certificate signed by unknown authority\" once it signs; rewrite them (mcsctl pointer --pool P --force) or pass --force",
                lacking.join(", ")
            );
        }
        ui.warn(format!(
            "promoting although {} do not trust the new CA: machines booting with them will fail",
            lacking.join(", ")
        ));
    }
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
    let mut change = dir.change("ca promote");
    let files = promote_into(ui, dir, &mut change, &cas, &ca, next, validity)?;
    change.commit(&lock)?;
    report::done(
        ui,
        dir,
        "Promoted the new CA: it signs the serving certificate now:",
        &files,
    )
}

/// The promotion's writes: active becomes previous, `next` becomes active, the serving
/// certificate is re-issued by it.
fn promote_into(
    ui: &Ui,
    dir: &AssetDir,
    change: &mut Change<'_>,
    cas: &CaFiles,
    ca: &Ca,
    next: &super::Loaded,
    validity: time::Duration,
) -> Result<Vec<Written>> {
    let mut files = Vec::new();
    if let Some(active) = &cas.active {
        change.write(
            layout::CA_PREVIOUS_CERT,
            &active.cert_pem,
            PUBLIC_MODE,
            Overwrite::Allow,
        );
        if let Some(k) = &active.key_pem {
            change.write(layout::CA_PREVIOUS_KEY, k, SECRET_MODE, Overwrite::Allow);
        }
        files.push(Written::cert(
            layout::CA_PREVIOUS_CERT,
            "ca-previous",
            &active.info,
            "still trusted until `ca retire`".into(),
        ));
    }
    change.write(
        layout::CA_CERT,
        &next.cert_pem,
        PUBLIC_MODE,
        Overwrite::Allow,
    );
    if let Some(k) = &next.key_pem {
        change.write(layout::CA_KEY, k, SECRET_MODE, Overwrite::Allow);
    }
    change.remove(layout::CA_NEXT_CERT);
    change.remove(layout::CA_NEXT_KEY);
    files.push(Written::cert(
        layout::CA_CERT,
        "ca",
        &next.info,
        next.info.key.clone(),
    ));
    if dir.exists(layout::SERVING_CERT) {
        let issued = crate::cmd::steps::reissue(ui, dir, ca, validity, None)?;
        files.extend(crate::cmd::steps::stage_serving(change, &issued));
    }
    Ok(files)
}

/// Runs `ca retire`.
pub fn retire(ui: &Ui, dir: &AssetDir, a: &CaRetireArgs) -> Result<u8> {
    let lock = lock(ui, dir)?;
    if let Some(c) = cluster_ca(dir)? {
        bail!(c.refusal("retire"));
    }
    let cas = CaFiles::read(dir)?;
    let mut change = dir.change("ca retire");
    let files = retire_into(dir, &mut change, &cas, ui.now)?;
    let purged = if a.purge { purge(dir, &mut change)? } else { 0 };
    if files.is_empty() && purged == 0 {
        ui.info("no CA to retire: the bundle holds only the active CA");
        report::phase(ui, dir)?;
        return Ok(exit::OK);
    }
    change.commit(&lock)?;
    if purged > 0 {
        ui.info(format!(
            "deleted {purged} file(s) of retired CAs under {}",
            layout::RETIRED
        ));
    }
    report::done(ui, dir, "Retired the previous CA:", &files)
}

/// The retirement's writes: every bundle CA but the active one leaves the bundle and the
/// pointer configs; the previous CA's certificate and key move under tls/retired/. Nothing
/// when there is nothing to retire.
fn retire_into(
    dir: &AssetDir,
    change: &mut Change<'_>,
    cas: &CaFiles,
    now: time::OffsetDateTime,
) -> Result<Vec<Written>> {
    let Some(active) = &cas.active else {
        bail!("{} has no active CA", dir.path(layout::CA_CERT).display());
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
    if let Some(serving) = &cas.serving
        && let Some(c) = retiring.iter().find(|c| serving.is_issued_by(c))
    {
        bail!(
            "{} is still signed by {}: run `mcsctl ca promote` (or `mcsctl cert issue --force`) before retiring it",
            layout::SERVING_CERT,
            c.subject_with_key_id()
        );
    }
    let bundle = rotation::bundle([&active.info], now.unix_timestamp());
    let pointers = set_bundle(dir, change, &bundle, &[], now)?;
    let mut files = Vec::new();
    if let Some(p) = &cas.previous {
        let tag = p.info.tag();
        let cert_rel = format!("{}/{tag}.crt", layout::RETIRED);
        change.write(&cert_rel, &p.cert_pem, PUBLIC_MODE, Overwrite::Allow);
        if let Some(k) = &p.key_pem {
            change.write(
                &format!("{}/{tag}.key", layout::RETIRED),
                k,
                SECRET_MODE,
                Overwrite::Allow,
            );
        }
        change.remove(layout::CA_PREVIOUS_CERT);
        change.remove(layout::CA_PREVIOUS_KEY);
        files.push(Written::cert(
            &cert_rel,
            "ca-retired",
            &p.info,
            "key kept until `ca retire --purge`".into(),
        ));
    }
    files.extend(report::bundle_and_pointers(&bundle, &pointers));
    Ok(files)
}

/// Deletes everything under tls/retired/.
fn purge(dir: &AssetDir, change: &mut Change<'_>) -> Result<usize> {
    let Ok(rd) = std::fs::read_dir(dir.path(layout::RETIRED)) else {
        return Ok(0);
    };
    let mut n = 0;
    for e in rd.flatten() {
        if e.file_type().is_ok_and(|t| t.is_file()) {
            change.remove(&format!(
                "{}/{}",
                layout::RETIRED,
                e.file_name().to_string_lossy()
            ));
            n += 1;
        }
    }
    Ok(n)
}

/// `ca create --force` and `ca import --force`: retire a previous CA still in the bundle,
/// introduce `new` and promote it, in one change.
pub(super) fn replace(
    ui: &Ui,
    dir: &AssetDir,
    lock: &DirLock,
    command: &str,
    new: NewCa,
) -> Result<u8> {
    let mut cas = CaFiles::read(dir)?;
    if cas.next.is_some() {
        bail!(
            "a rotation is in phase 1 (a new CA is introduced): finish it with `mcsctl ca promote` and `mcsctl ca retire`, or promote this one with `mcsctl ca rotate --cert --key`"
        );
    }
    let Some(active) = cas.active.clone() else {
        bail!("no CA to replace");
    };
    if new.info.der == active.info.der {
        // A rerun (or the same CA twice): nothing to change.
        ui.info("that CA is already the active one; nothing to do");
        report::phase(ui, dir)?;
        return Ok(exit::OK);
    }
    let mut change = dir.change(command);
    // The CA is ours from now on, whatever the cluster's bundle was.
    change.remove(layout::CLUSTER_CA);
    let mut files = Vec::new();
    if let Some(p) = &cas.previous {
        ui.warn(format!(
            "retiring the previous CA {} first: pointer configs that trust only it stop working",
            p.info.subject_with_key_id()
        ));
        files.extend(
            retire_into(dir, &mut change, &cas, ui.now)?
                .into_iter()
                .filter(|f| f.kind == "ca-retired"),
        );
        cas.previous = None;
    }
    let bundle = rotation::bundle([&new.info, &active.info], ui.now.unix_timestamp());
    let pointers = set_bundle(dir, &mut change, &bundle, &[&new.info], ui.now)?;
    let key_name = format!("{command}: the new CA's key");
    let ca = Ca::load(&new.cert_pem, command, &new.key_pem, &key_name)?;
    let next = super::Loaded {
        info: new.info.clone(),
        cert_pem: new.cert_pem.clone(),
        key_pem: Some(new.key_pem.clone()),
    };
    files.extend(promote_into(
        ui,
        dir,
        &mut change,
        &cas,
        &ca,
        &next,
        time::Duration::days(3650),
    )?);
    files.extend(report::bundle_and_pointers(&bundle, &pointers));
    change.commit(lock)?;
    ui.warn(
        "the new CA signs the serving certificate now: copies of pointer configs made before this command trust only the old CA and fail; the ones here were rewritten to trust both until `mcsctl ca retire` (the three-step `ca rotate`, `ca promote`, `ca retire` avoids this)",
    );
    report::done(
        ui,
        dir,
        "Replaced the CA (rotated and promoted in one step):",
        &files,
    )
}

/// Writes `bundle` and edits every pointer config to trust exactly it. `added`: CAs entering
/// the bundle now (they count as mcsctl's when finding its entry in a pointer config).
fn set_bundle(
    dir: &AssetDir,
    change: &mut Change<'_>,
    bundle: &[CertInfo],
    added: &[&CertInfo],
    now: time::OffsetDateTime,
) -> Result<Vec<PendingPointer>> {
    let pem = rotation::pem(bundle);
    change.write(
        layout::CA_BUNDLE,
        pem.as_bytes(),
        PUBLIC_MODE,
        Overwrite::Allow,
    );
    let mut ours = known_cas(dir)?;
    ours.extend(added.iter().map(|c| c.der.clone()));
    ours.extend(bundle.iter().map(|c| c.der.clone()));
    let store = load_tokens(dir)?;
    let pointers = edit_pointers(dir, pem.as_bytes(), &ours, store.as_ref(), false, now)?;
    write_pointers(change, &pointers, Overwrite::Allow);
    Ok(pointers)
}

/// Pointer configs of the directory that do not trust `ca`.
pub(crate) fn pointers_lacking(dir: &AssetDir, ca: &CertInfo) -> Result<Vec<String>> {
    let mut out = Vec::new();
    for name in dir.pointer_files()? {
        let info = pointer::parse(&dir.read(&name)?, &dir.path(&name).display().to_string())?;
        let trusts = info.ca_pems.iter().any(|pem| {
            crate::pki::cert::parse_pem_certs(pem, &name)
                .is_ok_and(|certs| certs.iter().any(|c| c.der == ca.der))
        });
        if !trusts {
            out.push(name);
        }
    }
    Ok(out)
}
