//! `mcsctl ca`: the MCS CA over its life. `create` and `import` put the first CA in place (or,
//! with --force, replace it in one step); `rotate`, `promote` and `retire` replace it in three
//! (`pki::rotation`); `import --bundle` trusts a cluster's own CA.

mod bundle;
mod report;
mod rotation;

use anyhow::{Result, bail};

pub use rotation::{promote, retire, rotate};

use super::{Written, edit_pointers, generate_key, known_cas, load_tokens, lock, write_pointers};
use crate::assets::{AssetDir, DirLock, Overwrite, PUBLIC_MODE, SECRET_MODE, layout};
use crate::cli::{CaCreateArgs, CaImportArgs};
use crate::cmd::steps::{NewCa, load_new};
use crate::exit;
use crate::pki::cert::{CertInfo, parse_pem_certs};
use crate::pki::issue::create_ca;
use crate::pki::rotation::{self as phases, Phase};
use crate::ui::Ui;

/// A CA of the directory: certificate and (when present) key, as stored.
#[derive(Debug, Clone)]
pub(super) struct Loaded {
    pub info: CertInfo,
    pub cert_pem: Vec<u8>,
    pub key_pem: Option<Vec<u8>>,
}

/// Every CA file of the directory, and the serving certificate they are judged by.
#[derive(Debug)]
pub(super) struct CaFiles {
    pub active: Option<Loaded>,
    pub next: Option<Loaded>,
    pub previous: Option<Loaded>,
    pub bundle: Vec<CertInfo>,
    pub serving: Option<CertInfo>,
}

impl CaFiles {
    pub fn read(dir: &AssetDir) -> Result<CaFiles> {
        let one = |cert: &str, key: &str| -> Result<Option<Loaded>> {
            if !dir.exists(cert) {
                return Ok(None);
            }
            let cert_pem = dir.read(cert)?;
            let info = parse_pem_certs(&cert_pem, &dir.path(cert).display().to_string())?.remove(0);
            let key_pem = if dir.exists(key) {
                Some(dir.read(key)?)
            } else {
                None
            };
            Ok(Some(Loaded {
                info,
                cert_pem,
                key_pem,
            }))
        };
        let certs = |rel: &str| -> Result<Vec<CertInfo>> {
            if dir.exists(rel) {
                parse_pem_certs(&dir.read(rel)?, &dir.path(rel).display().to_string())
            } else {
                Ok(Vec::new())
            }
        };
        Ok(CaFiles {
            active: one(layout::CA_CERT, layout::CA_KEY)?,
            next: one(layout::CA_NEXT_CERT, layout::CA_NEXT_KEY)?,
            previous: one(layout::CA_PREVIOUS_CERT, layout::CA_PREVIOUS_KEY)?,
            bundle: certs(layout::CA_BUNDLE)?,
            serving: certs(layout::SERVING_CERT)?.into_iter().next(),
        })
    }

    pub fn phase(&self) -> Phase {
        Phase::of(self.next.is_some(), self.previous.is_some())
    }
}

/// Runs `ca create`.
pub fn create(ui: &Ui, dir: &AssetDir, args: &CaCreateArgs) -> Result<u8> {
    let validity = args.validity.to_time();
    let alg = args.key_algorithm;
    dir.create()?;
    let lock = lock(ui, dir)?;
    let exists = dir.exists(layout::CA_CERT);
    if exists && !args.force {
        bail!(
            "{} exists; `mcsctl ca rotate` replaces it in three safe steps, or use --force to rotate and promote at once",
            dir.path(layout::CA_CERT).display()
        );
    }
    let (_, issued) = create_ca(generate_key(ui, alg, "CA")?, validity, ui.now)?;
    let new = NewCa {
        info: issued.info,
        cert_pem: issued.cert_pem.into_bytes(),
        key_pem: issued.key_pem.into_bytes(),
    };
    if exists {
        rotation::replace(ui, dir, &lock, "ca create --force", new)
    } else {
        install(ui, dir, &lock, "ca create", new)
    }
}

/// Runs `ca import`.
pub fn import(ui: &Ui, dir: &AssetDir, args: &CaImportArgs) -> Result<u8> {
    if let Some(b) = &args.bundle {
        return bundle::import(ui, dir, b, args.key.as_deref(), args.force);
    }
    let (Some(cert), Some(key)) = (&args.cert, &args.key) else {
        return Err(crate::exit::usage(
            "ca import needs --cert and --key, or --bundle",
        ));
    };
    let new = load_new(cert, key)?;
    let t = ui.now.unix_timestamp();
    if new.info.not_after <= t {
        bail!(
            "{}: the CA expired on {}; import a valid CA",
            cert.display(),
            crate::pki::cert::rfc3339(new.info.not_after)
        );
    }
    if !new.info.can_sign_certs {
        ui.warn(format!(
            "{}: the CA's keyUsage lacks keyCertSign; TLS clients may reject what it signs",
            cert.display()
        ));
    }
    dir.create()?;
    let lock = lock(ui, dir)?;
    if dir.exists(layout::CA_CERT) {
        if !args.force {
            bail!(
                "{} exists; `mcsctl ca rotate --cert --key` moves to this CA in three safe steps, or use --force to rotate and promote at once",
                dir.path(layout::CA_CERT).display()
            );
        }
        return rotation::replace(ui, dir, &lock, "ca import --force", new);
    }
    install(ui, dir, &lock, "ca import", new)
}

/// The first CA of a directory: certificate, key and a bundle of it alone; pointer configs
/// already there (from another CA) are edited to trust it.
fn install(ui: &Ui, dir: &AssetDir, lock: &DirLock, command: &str, new: NewCa) -> Result<u8> {
    let bundle = phases::bundle([&new.info], ui.now.unix_timestamp());
    let pem = phases::pem(&bundle);
    let mut ours = known_cas(dir)?;
    ours.push(new.info.der.clone());
    let store = load_tokens(dir)?;
    let pointers = edit_pointers(dir, pem.as_bytes(), &ours, store.as_ref(), false, ui.now)?;
    let mut change = dir.change(command);
    change.write(layout::CA_KEY, &new.key_pem, SECRET_MODE, Overwrite::Allow);
    change.write(
        layout::CA_CERT,
        &new.cert_pem,
        PUBLIC_MODE,
        Overwrite::Allow,
    );
    change.write(
        layout::CA_BUNDLE,
        pem.as_bytes(),
        PUBLIC_MODE,
        Overwrite::Allow,
    );
    write_pointers(&mut change, &pointers, Overwrite::Allow);
    change.commit(lock)?;
    let mut files = vec![
        Written::cert(layout::CA_CERT, "ca", &new.info, new.info.key.clone()),
        Written::file(layout::CA_KEY, true, "ca-key", None),
    ];
    files.extend(report::bundle_and_pointers(&bundle, &pointers));
    report::done(ui, dir, "Wrote the MCS CA:", &files)?;
    if !dir.exists(layout::SERVING_CERT) {
        let san = if dir.exists(layout::CONFIG) {
            ""
        } else {
            " --san <host of the merge URL>"
        };
        ui.info(format!(
            "\nNext: `mcsctl cert issue --dir {}{san}`, then `mcsctl pointer --pool worker{}`.",
            dir.root().display(),
            if dir.exists(layout::CONFIG) {
                ""
            } else {
                " --url https://<host>:22623/config/worker"
            }
        ));
    }
    Ok(exit::OK)
}
