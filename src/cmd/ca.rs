//! `mcsctl ca create` and `mcsctl ca import`.

use anyhow::{Context, Result, bail};
use serde::Serialize;

use super::{
    Written, duration_flag, edit_pointers, generate_key, key_algorithm, known_cas, load_tokens,
    lock, now, print_written, write_pointers,
};
use crate::assets::{AssetDir, DirLock, Overwrite, PUBLIC_MODE, SECRET_MODE, layout};
use crate::cli::{CaCreateArgs, CaImportArgs};
use crate::exit;
use crate::pki::cert::{CertInfo, parse_pem_certs};
use crate::pki::issue::{Ca, create_ca};
use crate::ui::Ui;

#[derive(Serialize)]
struct CaReport<'a> {
    files: &'a [Written],
}

/// Runs `ca create`.
pub fn create(ui: &Ui, dir: &AssetDir, args: &CaCreateArgs) -> Result<u8> {
    let validity = duration_flag("validity", &args.validity)?;
    let alg = key_algorithm(args.key_algorithm);
    dir.create()?;
    let lock = lock(ui, dir)?;
    refuse_existing(dir, args.force)?;
    let key = generate_key(ui, alg, "CA")?;
    let (_, issued) = create_ca(key, validity, now())?;
    install(
        ui,
        dir,
        &lock,
        "ca create",
        &issued.info,
        issued.cert_pem.as_bytes(),
        issued.key_pem.as_bytes(),
    )
}

/// Runs `ca import`.
pub fn import(ui: &Ui, dir: &AssetDir, args: &CaImportArgs) -> Result<u8> {
    let cert_name = args.cert.display().to_string();
    let key_name = args.key.display().to_string();
    let cert_pem = std::fs::read(&args.cert).with_context(|| format!("reading {cert_name}"))?;
    let key_pem = std::fs::read(&args.key).with_context(|| format!("reading {key_name}"))?;
    let ca = Ca::load(&cert_pem, &cert_name, &key_pem, &key_name)?;
    let t = now().unix_timestamp();
    if ca.cert.not_after <= t {
        bail!(
            "{cert_name}: the CA expired on {}; import a valid CA",
            crate::pki::cert::rfc3339(ca.cert.not_after)
        );
    }
    if !ca.cert.can_sign_certs {
        ui.warn(format!(
            "{cert_name}: the CA's keyUsage lacks keyCertSign; TLS clients may reject what it signs"
        ));
    }
    dir.create()?;
    let lock = lock(ui, dir)?;
    refuse_existing(dir, args.force)?;
    // The key is kept byte for byte (PKCS#1 from openshift-install stays PKCS#1).
    let key_text =
        String::from_utf8(key_pem).with_context(|| format!("{key_name} is not PEM text"))?;
    install(
        ui,
        dir,
        &lock,
        "ca import",
        &ca.cert,
        ca.cert.to_pem().as_bytes(),
        key_text.as_bytes(),
    )
}

fn refuse_existing(dir: &AssetDir, force: bool) -> Result<()> {
    if !force && (dir.exists(layout::CA_CERT) || dir.exists(layout::CA_KEY)) {
        bail!(
            "{} exists; use --force to replace the CA (the old CA stays in the bundle of the pointer configs until it expires)",
            dir.path(layout::CA_CERT).display()
        );
    }
    Ok(())
}

/// Writes a new CA, builds the bundle (the new CA plus the previous one while it is valid, so
/// machines keep trusting the serving certificate it signed), and rewrites pointer configs.
fn install(
    ui: &Ui,
    dir: &AssetDir,
    lock: &DirLock,
    command: &str,
    info: &CertInfo,
    cert_pem: &[u8],
    key_pem: &[u8],
) -> Result<u8> {
    let t = now().unix_timestamp();
    let mut bundle: Vec<CertInfo> = vec![info.clone()];
    if dir.exists(layout::CA_BUNDLE) {
        let name = dir.path(layout::CA_BUNDLE).display().to_string();
        for old in parse_pem_certs(&dir.read(layout::CA_BUNDLE)?, &name)? {
            if old.not_after > t && !bundle.iter().any(|c| c.der == old.der) {
                bundle.push(old);
            }
        }
    }
    let bundle_pem: String = bundle.iter().map(CertInfo::to_pem).collect();
    let store = load_tokens(dir)?;
    let mut ours = known_cas(dir)?;
    ours.extend(bundle.iter().map(|c| c.der.clone()));
    let token = store.as_ref().and_then(|s| s.current(now()));
    let pointers = edit_pointers(dir, bundle_pem.as_bytes(), &ours, token, false)?;

    let mut change = dir.change(command);
    change.write(layout::CA_KEY, key_pem, SECRET_MODE, Overwrite::Allow);
    change.write(layout::CA_CERT, cert_pem, PUBLIC_MODE, Overwrite::Allow);
    change.write(
        layout::CA_BUNDLE,
        bundle_pem.as_bytes(),
        PUBLIC_MODE,
        Overwrite::Allow,
    );
    write_pointers(&mut change, &pointers, Overwrite::Allow);
    change.commit(lock)?;
    let mut files = vec![
        Written::cert(layout::CA_CERT, "ca", info, info.key.clone()),
        Written::file(layout::CA_KEY, true, "ca-key", None),
        Written::file(
            layout::CA_BUNDLE,
            false,
            "ca-bundle",
            Some(cas(bundle.len())),
        ),
    ];
    for p in &pointers {
        files.push(Written::file(
            &p.rel,
            p.has_token,
            "pointer",
            Some(format!("now trusts {}", cas(bundle.len()))),
        ));
    }
    if ui.json() {
        ui.out_json(&CaReport { files: &files })?;
    } else {
        print_written(ui, "Wrote the MCS CA:", &files)?;
    }
    if dir.exists(layout::SERVING_CERT) {
        ui.info(format!(
            "\nNext: the serving certificate is still signed by the old CA. Once every machine has a\npointer config with the new bundle, run `mcsctl cert issue --force --dir {}`.",
            dir.root().display()
        ));
    } else {
        let san = if dir.exists(layout::CONFIG) {
            ""
        } else {
            " --san <host of the merge URL>"
        };
        ui.info(format!(
            "\nNext: `mcsctl cert issue --dir {}{san}`.",
            dir.root().display()
        ));
    }
    Ok(exit::OK)
}

fn cas(n: usize) -> String {
    if n == 1 {
        "1 CA".into()
    } else {
        format!("{n} CAs")
    }
}
