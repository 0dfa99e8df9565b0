//! `mcsctl ca`: load the directory, call the workflow of `ops::ca` (or `ops::bundle`),
//! commit, print the files and where a rotation stands.

use anyhow::Result;
use time::OffsetDateTime;

use super::{commit, keygen, print_written};
use crate::assets::AssetDir;
use crate::cli::{CaCreateArgs, CaImportArgs, CaPromoteArgs, CaRetireArgs, CaRotateArgs};
use crate::exit;
use crate::ops::ca::phases;
use crate::ops::ca::{self, CaReport};
use crate::ops::serving::NewCa;
use crate::ops::{Outcome, bundle};
use crate::ui::Ui;

/// Runs `ca create`.
pub fn create(ui: &Ui, dir: &AssetDir, a: &CaCreateArgs, now: OffsetDateTime) -> Result<u8> {
    dir.creating(|| {
        let (lock, snap) = super::load(ui, dir)?;
        let keys = keygen(ui);
        let validity = a.validity.to_time();
        let replace = ca::Replace::of(a.force, a.yes);
        let out = ca::create(&snap, replace, a.key_algorithm, validity, &keys, now)?;
        finish(ui, commit(ui, &lock, out)?)
    })
}

/// Runs `ca import`.
pub fn import(ui: &Ui, dir: &AssetDir, a: &CaImportArgs, now: OffsetDateTime) -> Result<u8> {
    if let Some(file) = &a.bundle {
        let name = file.display().to_string();
        let mut b = bundle::parse(&crate::assets::read_file(file)?, &name)?;
        if let Some(k) = &a.key {
            b.key_pem = Some(crate::assets::read_file(k)?);
        }
        return dir.creating(|| {
            let (lock, snap) = super::load(ui, dir)?;
            let out = bundle::import(&snap, b, ca::Replace::of(a.force, a.yes), now)?;
            finish(ui, commit(ui, &lock, out)?)
        });
    }
    let (Some(cert), Some(key)) = (&a.cert, &a.key) else {
        return Err(crate::exit::usage(
            "ca import needs --cert and --key, or --bundle",
        ));
    };
    let new = read_ca(cert, key)?;
    dir.creating(|| {
        let (lock, snap) = super::load(ui, dir)?;
        let keys = keygen(ui);
        let name = cert.display().to_string();
        let replace = ca::Replace::of(a.force, a.yes);
        let out = ca::import(&snap, new, &name, replace, &keys, now)?;
        finish(ui, commit(ui, &lock, out)?)
    })
}

/// Runs `ca rotate`.
pub fn rotate(ui: &Ui, dir: &AssetDir, a: &CaRotateArgs, now: OffsetDateTime) -> Result<u8> {
    let given = match (&a.cert, &a.key) {
        (Some(c), Some(k)) => Some(read_ca(c, k)?),
        _ => None,
    };
    let (lock, snap) = super::load(ui, dir)?;
    let keys = keygen(ui);
    let out = phases::rotate(
        &snap,
        given,
        a.key_algorithm,
        a.validity.to_time(),
        &keys,
        now,
    )?;
    finish(ui, commit(ui, &lock, out)?)
}

/// Runs `ca promote`.
pub fn promote(ui: &Ui, dir: &AssetDir, a: &CaPromoteArgs, now: OffsetDateTime) -> Result<u8> {
    let (lock, snap) = super::load(ui, dir)?;
    let keys = keygen(ui);
    let out = phases::promote(&snap, a.force, a.validity.to_time(), &keys, now)?;
    finish(ui, commit(ui, &lock, out)?)
}

/// Runs `ca retire`.
pub fn retire(ui: &Ui, dir: &AssetDir, a: &CaRetireArgs, now: OffsetDateTime) -> Result<u8> {
    let (lock, snap) = super::load(ui, dir)?;
    let out = phases::retire(&snap, a.purge, now)?;
    finish(ui, commit(ui, &lock, out)?)
}

/// A CA given as files (`--cert`, `--key`), checked.
fn read_ca(cert: &std::path::Path, key: &std::path::Path) -> Result<NewCa> {
    NewCa::from_files(
        &crate::assets::read_file(cert)?,
        &cert.display().to_string(),
        &crate::assets::read_file(key)?,
        &key.display().to_string(),
    )
}

/// Prints the notes, then the files and the phase (or, when nothing changed, the phase).
fn finish(ui: &Ui, (changed, out): (bool, Outcome<'_, CaReport>)) -> Result<u8> {
    super::print_notes(ui, &out.notes);
    let r = &out.report;
    if ui.structured() {
        ui.out_json(r)?;
    } else if changed || (ui.dry_run && !r.files.is_empty()) {
        print_written(ui, &r.heading, &r.files)?;
        // Only a rotation in progress is news.
        if let Some(n) = r.next {
            let then = ui.did("", "Would be: ");
            ui.info(format!("\n{then}{}.\nNext: {n}.", r.phase));
        }
    } else {
        ui.info(format!("{}.", r.phase));
        if let Some(n) = r.next {
            ui.info(format!("Next: {n}."));
        }
    }
    Ok(exit::OK)
}
