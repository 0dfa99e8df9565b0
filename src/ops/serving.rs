//! The serving pair: `cert issue` (the names it must cover), `cert renew` and the re-issue a
//! CA promotion makes; and the CAs given as files that `ca import`, `ca rotate --cert` and
//! `init --ca-cert` adopt.

use anyhow::{Context as _, Result, bail};
use time::OffsetDateTime;

use super::report::FileKind;
use super::{KeyGen, Outcome, Written, report};
use crate::assets::{Change, Overwrite, PUBLIC_MODE, SECRET_MODE, layout};
use crate::model::Snapshot;
use crate::names::San;
use crate::pki::issue::{Ca, Issued, issue_serving};
use crate::pki::keys::KeyAlgorithm;

/// A CA given as files, checked: its certificate, and its key as stored.
#[derive(Debug, Clone)]
pub struct NewCa {
    /// The certificate, PEM.
    pub cert_pem: Vec<u8>,
    /// What the certificate says.
    pub info: crate::pki::cert::CertInfo,
    /// The key, PEM.
    pub key_pem: Vec<u8>,
}

impl NewCa {
    /// Checks a CA read from files (PEM or DER, any key form): a CA certificate and its key.
    /// A PEM key is kept byte for byte (openshift-install's PKCS#1 stays PKCS#1); a DER one
    /// is stored as PEM (PKCS#8).
    pub fn from_files(cert: &[u8], cert_name: &str, key: &[u8], key_name: &str) -> Result<NewCa> {
        let ca = Ca::load(cert, cert_name, key, key_name)?;
        let key_pem = if crate::pki::is_pem(key) {
            key.to_vec()
        } else {
            crate::pki::keys::private_key_pem(&ca.key).into_bytes()
        };
        Ok(NewCa {
            cert_pem: ca.cert.to_pem().into_bytes(),
            info: ca.cert,
            key_pem,
        })
    }

    /// A new CA, as `create_ca` made it.
    pub fn created(issued: Issued) -> NewCa {
        NewCa {
            info: issued.info,
            cert_pem: issued.cert_pem.into_bytes(),
            key_pem: issued.key_pem.into_bytes(),
        }
    }

    /// The CA that signs, with the names used in errors.
    pub fn signer(&self, name: &str) -> Result<Ca> {
        Ca::load(
            &self.cert_pem,
            name,
            &self.key_pem,
            &format!("{name}: the CA's key"),
        )
    }

    /// For `init --ca-cert --ca-key`: refused when expired at `now`; returned as `create_ca`
    /// returns a new CA.
    pub fn adopt(self, cert_name: &str, key_name: &str, now: i64) -> Result<(Ca, Issued)> {
        if self.info.not_after <= now {
            bail!(
                "{cert_name}: the CA expired on {}",
                crate::pki::cert::rfc3339(self.info.not_after)
            );
        }
        let ca = Ca::load(&self.cert_pem, cert_name, &self.key_pem, key_name)?;
        let issued = Issued {
            cert_pem: String::from_utf8_lossy(&self.cert_pem).into_owned(),
            key_pem: String::from_utf8(self.key_pem)
                .with_context(|| format!("{key_name} is not PEM text"))?,
            info: self.info,
        };
        Ok((ca, issued))
    }
}

/// The algorithm of a key as `CertInfo::key` describes it.
pub fn algorithm_of(key_desc: &str) -> Result<KeyAlgorithm> {
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

/// A new serving certificate from `ca` with the current one's SANs and a new key of the
/// current key's algorithm (or `alg`). For `cert renew`, and for `ca promote` with the new CA.
pub fn reissue(
    snap: &Snapshot,
    ca: &Ca,
    validity: time::Duration,
    alg: Option<KeyAlgorithm>,
    keys: KeyGen<'_>,
    now: OffsetDateTime,
) -> Result<Issued> {
    let Some(old) = snap.cas.serving()? else {
        bail!(
            "{} does not exist; run `mcsctl cert issue` first",
            snap.dir.path(layout::SERVING_CERT).display()
        );
    };
    let alg = match alg {
        Some(a) => a,
        None => algorithm_of(&old.info.key)?,
    };
    let key = keys(alg, "serving")?;
    issue_serving(ca, &key, &old.info.san_entries, validity, now)
}

/// Adds a new serving pair to `change` and returns what it writes. Key and certificate land
/// together (see assets::change); a serve reload that catches the pair mid-rename sees a
/// mismatch and keeps its last good certificate until both land.
pub fn stage(change: &mut Change<'_>, issued: &Issued) -> Vec<Written> {
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
            FileKind::Serving,
            &issued.info,
            format!("{}; {}", issued.info.key, issued.info.sans().join(", ")),
        ),
        Written::file(layout::SERVING_KEY, true, FileKind::ServingKey, None),
    ]
}

/// What `cert issue` is asked for.
pub struct IssueInputs {
    /// `--san`.
    pub extra: Vec<San>,
    /// `--replace-sans`: drop the current certificate's names.
    pub replace_sans: bool,
    /// `--force`: replace an existing pair.
    pub force: bool,
    /// `--key-algorithm`.
    pub key_algorithm: Option<KeyAlgorithm>,
    /// `--validity`.
    pub validity: time::Duration,
}

/// What `cert issue` and `cert renew` report.
#[derive(Debug, serde::Serialize)]
pub struct CertReport {
    /// The files written.
    pub files: Vec<Written>,
    /// The names the certificate covers and why (for `-v`).
    #[serde(skip)]
    pub why: String,
}

/// `cert issue`: a new serving pair from the active CA, covering what it must.
pub fn issue<'s>(
    snap: &'s Snapshot,
    i: &IssueInputs,
    keys: KeyGen<'_>,
    now: OffsetDateTime,
) -> Result<Outcome<'s, CertReport>> {
    let dir = &snap.dir;
    if !i.force && (dir.exists(layout::SERVING_CERT) || dir.exists(layout::SERVING_KEY)) {
        bail!(
            "{} exists; use --force to replace it, or `mcsctl cert renew` to keep its SANs",
            dir.path(layout::SERVING_CERT).display()
        );
    }
    let ca = snap.cas.signing(dir)?;
    let sans = must_cover(snap, i.replace_sans, i.extra.clone())?;
    // Unless told, the directory's recorded algorithm; in a directory built step by step
    // (`ca create`, no `init`), the signing CA's own, so a P-384 CA gets a P-384 serving key.
    let (alg, from) = match (i.key_algorithm, &snap.config, ca.cert.algorithm) {
        (Some(a), _, _) => (a, "from --key-algorithm"),
        (None, Some(c), _) => (c.key_algorithm, "from mcsctl.json"),
        (None, None, Some(a)) => (a, "the CA's"),
        (None, None, None) => (KeyAlgorithm::EcdsaP256, "the default"),
    };
    let why = format!(
        "names {} (api-int and the URLs from mcsctl.json, {}then --san); key {} ({})",
        sans.iter()
            .map(San::to_string)
            .collect::<Vec<_>>()
            .join(", "),
        if i.replace_sans {
            ""
        } else {
            "the current certificate's, "
        },
        alg.name(),
        from
    );
    let key = keys(alg, "serving")?;
    let issued = issue_serving(&ca, &key, &sans, i.validity, now)?;
    Ok(staged(snap, "cert issue", &issued, why, now))
}

/// `cert renew`: same CA, same SANs, new key.
pub fn renew<'s>(
    snap: &'s Snapshot,
    validity: time::Duration,
    alg: Option<KeyAlgorithm>,
    keys: KeyGen<'_>,
    now: OffsetDateTime,
) -> Result<Outcome<'s, CertReport>> {
    let ca = snap.cas.signing(&snap.dir)?;
    let issued = reissue(snap, &ca, validity, alg, keys, now)?;
    Ok(staged(snap, "cert renew", &issued, String::new(), now))
}

fn staged<'s>(
    snap: &'s Snapshot,
    command: &str,
    issued: &Issued,
    why: String,
    now: OffsetDateTime,
) -> Outcome<'s, CertReport> {
    let mut change = snap.change(command);
    let files = stage(&mut change, issued);
    Outcome {
        change: Some(change),
        notes: report::short_lived(&files, now.unix_timestamp()),
        report: CertReport { files, why },
    }
}

/// The names a new serving certificate must cover, in order and once each: api-int and the
/// hosts of every URL recorded for the pointer configs first and always (machines reach the
/// server by them), then the current certificate's names unless `replace_sans` (a reissue
/// must not drop what pointers or balancers use), then `extra` (--san).
fn must_cover(snap: &Snapshot, replace_sans: bool, extra: Vec<San>) -> Result<Vec<San>> {
    let mut wanted: Vec<San> = Vec::new();
    if let Some(c) = &snap.config {
        wanted.push(San::Dns(c.api_int_host()));
        for u in c.url.iter().chain(c.urls.values()) {
            if let Some(url) = crate::http::HttpUrl::parse(u)
                && let Ok(san) = San::parse(url.host())
            {
                wanted.push(san);
            }
        }
    }
    if !replace_sans {
        let current = snap.cas.serving().map_err(|e| {
            anyhow::anyhow!(
                "cannot read the names of the current serving certificate ({e:#}); pass --replace-sans to issue with api-int, the recorded URLs and --san only"
            )
        })?;
        if let Some(s) = current {
            wanted.extend(s.info.san_entries.iter().cloned());
        }
    }
    wanted.extend(extra);
    let mut sans = Vec::with_capacity(wanted.len());
    for s in wanted {
        if !sans.contains(&s) {
            sans.push(s);
        }
    }
    Ok(sans)
}
