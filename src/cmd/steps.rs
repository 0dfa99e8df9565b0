//! Steps several commands share, so no command calls another: issuing and staging the
//! serving pair (`cert`, `ca promote`, `init`) and adopting a given CA (`ca create`, `ca
//! rotate`, `init`).

use std::path::Path;

use anyhow::{Context as _, Result, bail};

use super::{Written, generate_key};
use crate::assets::{AssetDir, Change, Overwrite, PUBLIC_MODE, SECRET_MODE, layout};
use crate::names::San;
use crate::pki::cert::parse_pem_certs;
use crate::pki::issue::{Ca, Issued, issue_serving};
use crate::pki::keys::KeyAlgorithm;
use crate::ui::Ui;

/// A CA given as files, checked: its certificate, and its key as stored.
pub(crate) struct NewCa {
    /// The certificate, PEM.
    pub cert_pem: Vec<u8>,
    /// What the certificate says.
    pub info: crate::pki::cert::CertInfo,
    /// The key, PEM.
    pub key_pem: Vec<u8>,
}

/// Reads a CA to import (PEM or DER, any key form), checked: a CA certificate and its key.
/// A PEM key is kept byte for byte (openshift-install's PKCS#1 stays PKCS#1); a DER one is
/// stored as PEM (PKCS#8).
pub(crate) fn load_new(cert: &Path, key: &Path) -> Result<NewCa> {
    let cert_name = cert.display().to_string();
    let key_name = key.display().to_string();
    let cert_bytes = crate::assets::read_file(cert)?;
    let key_bytes = crate::assets::read_file(key)?;
    let ca = Ca::load(&cert_bytes, &cert_name, &key_bytes, &key_name)?;
    let key_pem = if crate::pki::load::is_pem(&key_bytes) {
        key_bytes
    } else {
        crate::pki::keys::private_key_pem(&ca.key).into_bytes()
    };
    Ok(NewCa {
        cert_pem: ca.cert.to_pem().into_bytes(),
        info: ca.cert,
        key_pem,
    })
}

/// A CA for `init --ca-cert --ca-key`, as `create_ca` returns a new one: checked (a CA, its
/// key, not expired), the key kept as given when PEM.
pub(crate) fn adopt(cert: &Path, key: &Path, now: i64) -> Result<(Ca, crate::pki::issue::Issued)> {
    let new = load_new(cert, key)?;
    if new.info.not_after <= now {
        bail!(
            "{}: the CA expired on {}",
            cert.display(),
            crate::pki::cert::rfc3339(new.info.not_after)
        );
    }
    let ca = Ca::load(
        &new.cert_pem,
        &cert.display().to_string(),
        &new.key_pem,
        &key.display().to_string(),
    )?;
    let issued = crate::pki::issue::Issued {
        cert_pem: String::from_utf8_lossy(&new.cert_pem).into_owned(),
        key_pem: String::from_utf8(new.key_pem)
            .with_context(|| format!("{} is not PEM text", key.display()))?,
        info: new.info,
    };
    Ok((ca, issued))
}

/// A new serving certificate from `ca` with the current one's SANs and a new key of the
/// current key's algorithm (or `alg`). For `cert renew`, and for `ca promote` with the new CA.
pub(crate) fn reissue(
    ui: &Ui,
    dir: &AssetDir,
    ca: &Ca,
    validity: time::Duration,
    alg: Option<KeyAlgorithm>,
) -> Result<Issued> {
    if !dir.exists(layout::SERVING_CERT) {
        bail!(
            "{} does not exist; run `mcsctl cert issue` first",
            dir.path(layout::SERVING_CERT).display()
        );
    }
    let name = dir.path(layout::SERVING_CERT).display().to_string();
    let old = parse_pem_certs(&dir.read(layout::SERVING_CERT)?, &name)?.remove(0);
    let alg = match alg {
        Some(a) => a,
        None => algorithm_of(&old.key)?,
    };
    let sans: Vec<San> = old.san_entries.clone();
    let key = generate_key(ui, alg, "serving")?;
    issue_serving(ca, &key, &sans, validity, ui.now)
}

pub(crate) fn algorithm_of(key_desc: &str) -> Result<KeyAlgorithm> {
    Ok(match key_desc {
        "ECDSA P-256" => KeyAlgorithm::EcdsaP256,
        "ECDSA P-384" => KeyAlgorithm::EcdsaP384,
        "Ed25519" => KeyAlgorithm::Ed25519,
        "RSA 2048" => KeyAlgorithm::Rsa2048,
        "RSA 3072" => KeyAlgorithm::Rsa3072,
        "RSA 4096" => KeyAlgorithm::Rsa4096,
        other => bail!(
            "the current serving key is {other}; pass --key-algorithm to choose the new key's"
        ),
    })
}

/// Adds a new serving pair to `change` and returns what it writes. Key and certificate land
/// together (see assets::change); a serve reload that catches the pair mid-rename sees a
/// mismatch and keeps its last good certificate until both land.
pub(crate) fn stage_serving(change: &mut Change<'_>, issued: &Issued) -> Vec<Written> {
    change.write(
        layout::SERVING_KEY,
        issued.key_pem.as_bytes(),
        SECRET_MODE,
        Overwrite::Allow,
    );
    change.write(
        layout::SERVING_CERT,
        issued.cert_pem.as_bytes(),
        PUBLIC_MODE,
        Overwrite::Allow,
    );
    vec![
        Written::cert(
            layout::SERVING_CERT,
            "serving",
            &issued.info,
            format!("{}; {}", issued.info.key, issued.info.sans().join(", ")),
        ),
        Written::file(layout::SERVING_KEY, true, "serving-key", None),
    ]
}
