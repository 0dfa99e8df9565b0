//! `mcsctl ca`: load the directory, call the workflow of `ops::ca` (or `ops::bundle`),
//! commit, print the files and where a rotation stands.

use anyhow::Result;
use time::OffsetDateTime;

use super::{commit, keygen, print_written};
use crate::assets::AssetDir;

use crate::cli::values;
use crate::exit;
use crate::ops::ca::phases;
use crate::ops::ca::{self, CaReport};
use crate::ops::serving::NewCa;
use crate::ops::{Outcome, bundle};
use crate::ui::Ui;
use clap::{Args, Subcommand};
use std::path::PathBuf;

use crate::cli::{DirArg, FormatArg};
use crate::duration::Duration;
use crate::pki::keys::KeyAlgorithm;

/// `ca` subcommands.
#[derive(Debug, Subcommand)]
pub enum CaCommand {
    /// Create the MCS CA; with --force over an existing one, rotate to a new CA and promote it at once.
    Create(CaCreateArgs),
    /// Adopt an existing CA (openshift-install's tls/root-ca.{crt,key}), or trust a cluster's CA bundle.
    Import(CaImportArgs),
    /// Phase 1 of 3: introduce a new CA beside the active one; pointer configs trust both.
    Rotate(CaRotateArgs),
    /// Phase 2 of 3: re-issue the serving certificate from the new CA, which becomes the active one.
    Promote(CaPromoteArgs),
    /// Phase 3 of 3: drop the previous CA from the bundle and every pointer config.
    Retire(CaRetireArgs),
}

/// Arguments of `ca create`.
#[derive(Debug, Args)]
pub struct CaCreateArgs {
    /// Key algorithm of the CA key.
    #[arg(long, value_enum, value_name = "ALGORITHM", default_value_t = KeyAlgorithm::EcdsaP256)]
    pub key_algorithm: KeyAlgorithm,

    /// Validity of the CA.
    #[arg(long, default_value = "10y", value_name = "DUR", value_parser = values::duration)]
    pub validity: Duration,

    /// Replace an existing CA: retire any previous CA, rotate to a new one and promote it in one
    /// step. Refused while pointer configs trust the CA (their copies would stop working) unless
    /// --yes; `ca rotate` keeps them working. No key is lost: the replaced CA's key is kept as
    /// tls/mcs-ca-previous.key, a previous one's under tls/retired/.
    #[arg(long)]
    pub force: bool,

    /// With --force: replace the CA even though copies of the pointer configs stop working.
    #[arg(long, short = 'y', requires = "force")]
    pub yes: bool,

    /// `--dir` after the command.
    #[command(flatten)]
    pub dir: DirArg,

    /// `--format` after the command.
    #[command(flatten)]
    pub out: FormatArg,
}

/// Arguments of `ca import`.
#[derive(Debug, Args)]
pub struct CaImportArgs {
    /// CA certificate, PEM or DER.
    #[arg(long, value_name = "FILE", requires = "key", conflicts_with = "bundle")]
    pub cert: Option<PathBuf>,

    /// CA private key, PEM or DER (PKCS#1, PKCS#8 or SEC1).
    #[arg(long, value_name = "FILE")]
    pub key: Option<PathBuf>,

    /// A cluster's CA bundle to trust exactly: the machine-config-server-ca or root-ca ConfigMap
    /// (oc get -o json|yaml), or PEM; with the Secret of the same name (or --key), its signing
    /// key. The directory's own bundle again changes nothing; a bundle without the CA whose key
    /// is here needs --force, and that key is kept under tls/retired/.
    #[arg(long, value_name = "FILE", required_unless_present = "cert")]
    pub bundle: Option<PathBuf>,

    /// Replace an existing CA (rotate to the imported one and promote it in one step). Refused
    /// while pointer configs trust the CA unless --yes; `ca rotate --cert --key` keeps them
    /// working. Not needed to put the active CA's own key back. No key is lost: a replaced one
    /// is kept as tls/mcs-ca-previous.key or under tls/retired/ (and listed).
    #[arg(long)]
    pub force: bool,

    /// With --force: replace the CA even though copies of the pointer configs stop working.
    #[arg(long, short = 'y', requires = "force")]
    pub yes: bool,

    /// `--dir` after the command.
    #[command(flatten)]
    pub dir: DirArg,

    /// `--format` after the command.
    #[command(flatten)]
    pub out: FormatArg,
}

/// Arguments of `ca rotate`.
#[derive(Debug, Args)]
pub struct CaRotateArgs {
    /// Key algorithm of the new CA key (default: the active CA's).
    #[arg(long, value_enum, value_name = "ALGORITHM")]
    pub key_algorithm: Option<KeyAlgorithm>,

    /// Validity of the new CA.
    #[arg(long, default_value = "10y", value_name = "DUR", value_parser = values::duration)]
    pub validity: Duration,

    /// Rotate to an existing CA instead of a new one: its certificate (PEM or DER).
    #[arg(long, value_name = "FILE", requires = "key")]
    pub cert: Option<PathBuf>,

    /// The existing CA's private key (PEM or DER).
    #[arg(long, value_name = "FILE", requires = "cert")]
    pub key: Option<PathBuf>,

    /// `--dir` after the command.
    #[command(flatten)]
    pub dir: DirArg,

    /// `--format` after the command.
    #[command(flatten)]
    pub out: FormatArg,
}

/// Arguments of `ca promote`.
#[derive(Debug, Args)]
pub struct CaPromoteArgs {
    /// Validity of the re-issued serving certificate (never beyond the new CA's).
    #[arg(long, default_value = "10y", value_name = "DUR", value_parser = values::duration)]
    pub validity: Duration,

    /// Promote even though some pointer configs here do not trust the new CA (they are named).
    #[arg(long)]
    pub force: bool,

    /// `--dir` after the command.
    #[command(flatten)]
    pub dir: DirArg,

    /// `--format` after the command.
    #[command(flatten)]
    pub out: FormatArg,
}

/// Arguments of `ca retire`.
#[derive(Debug, Args)]
pub struct CaRetireArgs {
    /// Also delete the keys of retired CAs kept under tls/retired/: the one way mcsctl deletes
    /// a CA key. Without it, the retired CA's key is kept there (and listed).
    #[arg(long)]
    pub purge: bool,

    /// `--dir` after the command.
    #[command(flatten)]
    pub dir: DirArg,

    /// `--format` after the command.
    #[command(flatten)]
    pub out: FormatArg,
}

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
    let out = phases::retire(&snap, phases::Retired::of(a.purge), now)?;
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
