//! Reading certificates: the facts `inspect` shows and the checks it makes (chain, key match,
//! host coverage, expiry).

use std::net::IpAddr;

use anyhow::{Result, anyhow, bail};
use x509_parser::extensions::{GeneralName, ParsedExtension};
use x509_parser::prelude::{FromDer, X509Certificate};
use x509_parser::public_key::PublicKey;

use crate::pki::keys::KeyAlgorithm;
use x509_parser::x509::SubjectPublicKeyInfo;

use super::{pem_blocks, sha256_fingerprint};
use crate::names::San;

/// The facts of one certificate, owned so they outlive the parse.
#[derive(Debug, Clone)]
pub struct CertInfo {
    /// DER encoding.
    pub der: Vec<u8>,
    /// Subject, RFC 4514 order as openssl prints it (e.g. `OU=openshift, CN=root-ca`).
    pub subject: String,
    /// Issuer, the same way.
    pub issuer: String,
    subject_raw: Vec<u8>,
    issuer_raw: Vec<u8>,
    /// Serial number, lower-case hex.
    pub serial: String,
    /// notBefore, Unix seconds.
    pub not_before: i64,
    /// notAfter, Unix seconds.
    pub not_after: i64,
    /// basicConstraints CA:true.
    pub is_ca: bool,
    /// keyUsage keyCertSign.
    pub can_sign_certs: bool,
    /// DNS subject alternative names.
    pub dns_names: Vec<String>,
    /// IP subject alternative names.
    pub ip_addresses: Vec<IpAddr>,
    /// DNS and IP subject alternative names in certificate order.
    pub san_entries: Vec<San>,
    /// Email subject alternative names.
    pub emails: Vec<String>,
    /// URI subject alternative names.
    pub uris: Vec<String>,
    /// Subject common name (the last CN, as Go's pkix.Name keeps it).
    pub common_name: String,
    /// Extended key usage serverAuth (true when no EKU extension restricts it).
    pub server_auth: bool,
    /// Key type and size, e.g. `ECDSA P-256`, `RSA 2048`, `Ed25519`.
    pub key: String,
    /// The key's algorithm when mcsctl can make keys of it (not P-521, not RSA 1024).
    pub algorithm: Option<KeyAlgorithm>,
    /// SubjectPublicKeyInfo DER.
    pub spki: Vec<u8>,
    /// SHA-256 fingerprint of the DER.
    pub fingerprint: String,
    /// Subject key identifier, colon hex.
    pub subject_key_id: Option<String>,
    /// Authority key identifier, colon hex: tells apart two CAs with the same name.
    pub authority_key_id: Option<String>,
}

impl CertInfo {
    /// Parses one DER certificate.
    pub fn from_der(der: &[u8]) -> Result<CertInfo> {
        let (rest, x) =
            X509Certificate::from_der(der).map_err(|e| anyhow!("not an X.509 certificate: {e}"))?;
        if !rest.is_empty() {
            bail!("not an X.509 certificate: {} trailing bytes", rest.len());
        }
        let mut sans = SubjectAltNames::default();
        let mut server_auth = true;
        let mut can_sign_certs = false;
        let mut is_ca = false;
        let mut subject_key_id = None;
        let mut authority_key_id = None;
        for ext in x.extensions() {
            match ext.parsed_extension() {
                ParsedExtension::SubjectAlternativeName(san) => sans.add(&san.general_names),
                ParsedExtension::ExtendedKeyUsage(eku) => server_auth = eku.any || eku.server_auth,
                ParsedExtension::KeyUsage(ku) => can_sign_certs = ku.key_cert_sign(),
                ParsedExtension::BasicConstraints(bc) => is_ca = bc.ca,
                ParsedExtension::SubjectKeyIdentifier(k) => subject_key_id = Some(colon_hex(k.0)),
                ParsedExtension::AuthorityKeyIdentifier(a) => {
                    authority_key_id = a.key_identifier.as_ref().map(|k| colon_hex(k.0))
                }
                _ => {}
            }
        }
        Ok(CertInfo {
            der: der.to_vec(),
            subject: x.subject().to_string(),
            issuer: x.issuer().to_string(),
            subject_raw: x.subject().as_raw().to_vec(),
            issuer_raw: x.issuer().as_raw().to_vec(),
            serial: crate::hex::encode(x.raw_serial()),
            not_before: x.validity().not_before.timestamp(),
            not_after: x.validity().not_after.timestamp(),
            is_ca,
            can_sign_certs,
            common_name: x
                .subject()
                .iter_common_name()
                .filter_map(|a| a.as_str().ok())
                .last()
                .unwrap_or("")
                .to_string(),
            dns_names: sans.dns,
            ip_addresses: sans.ips,
            san_entries: sans.ordered,
            emails: sans.emails,
            uris: sans.uris,
            server_auth,
            key: describe_key(x.public_key()).0,
            algorithm: describe_key(x.public_key()).1,
            spki: x.public_key().raw.to_vec(),
            fingerprint: sha256_fingerprint(der),
            subject_key_id,
            authority_key_id,
        })
    }

    /// PEM encoding.
    pub fn to_pem(&self) -> String {
        super::to_pem("CERTIFICATE", &self.der)
    }

    /// Whether subject and issuer are the same name (a root).
    pub fn is_self_issued(&self) -> bool {
        self.subject_raw == self.issuer_raw
    }

    /// Whether `issuer` issued this certificate: names match and the signature verifies with
    /// the issuer's public key.
    pub fn is_issued_by(&self, issuer: &CertInfo) -> bool {
        if self.issuer_raw != issuer.subject_raw {
            return false;
        }
        let Ok((_, x)) = X509Certificate::from_der(&self.der) else {
            return false;
        };
        let Ok((_, spki)) = SubjectPublicKeyInfo::from_der(&issuer.spki) else {
            return false;
        };
        x.verify_signature(Some(&spki)).is_ok()
    }

    /// Whether a TLS client connecting to `host` would accept this certificate's names
    /// (exact DNS match, a left-most `*` wildcard, or an IP SAN).
    pub fn covers_host(&self, host: &str) -> bool {
        let host = host.trim_start_matches('[').trim_end_matches(']');
        if let Ok(ip) = host.parse::<IpAddr>() {
            return self.ip_addresses.contains(&ip);
        }
        let host = host.trim_end_matches('.').to_ascii_lowercase();
        self.dns_names.iter().any(|n| {
            let n = n.trim_end_matches('.').to_ascii_lowercase();
            match n.strip_prefix("*.") {
                Some(suffix) => host
                    .split_once('.')
                    .is_some_and(|(first, rest)| !first.is_empty() && rest == suffix),
                None => n == host,
            }
        })
    }

    /// The issuer name with its key id, e.g. `OU=openshift, CN=root-ca (key id 1A:2B:...)`:
    /// two CAs made by openshift-install have the same name and differ only by key.
    pub fn issuer_with_key_id(&self) -> String {
        match &self.authority_key_id {
            Some(k) => format!("{} (key id {k})", self.issuer),
            None => self.issuer.clone(),
        }
    }

    /// A short file-name tag: the first 16 hex digits of the SHA-256 fingerprint, lower case
    /// (names a retired CA's or serving certificate's files).
    pub fn tag(&self) -> String {
        self.fingerprint
            .replace(':', "")
            .chars()
            .take(16)
            .collect::<String>()
            .to_lowercase()
    }

    /// The subject name with its key id.
    pub fn subject_with_key_id(&self) -> String {
        match &self.subject_key_id {
            Some(k) => format!("{} (key id {k})", self.subject),
            None => self.subject.clone(),
        }
    }

    /// Subject alternative names as `DNS:x` / `IP:y`, as openssl prints them.
    pub fn sans(&self) -> Vec<String> {
        self.san_entries.iter().map(San::to_string).collect()
    }
}

/// Subject alternative names as the rules read them, from a certificate or a request. One
/// reader for both, so they cannot disagree about what a name is.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SubjectAltNames {
    /// DNS names.
    pub dns: Vec<String>,
    /// Email addresses.
    pub emails: Vec<String>,
    /// IP addresses.
    pub ips: Vec<IpAddr>,
    /// URIs.
    pub uris: Vec<String>,
    /// DNS and IP names in their order.
    pub ordered: Vec<San>,
    /// IP entries of a length that is neither 4 nor 16 (skipped).
    pub invalid_ips: usize,
}

impl SubjectAltNames {
    /// Adds the names of one SubjectAlternativeName extension.
    pub fn add(&mut self, names: &[GeneralName<'_>]) {
        for name in names {
            match name {
                GeneralName::DNSName(d) => {
                    self.dns.push(d.to_string());
                    self.ordered.push(San::Dns(d.to_string()));
                }
                GeneralName::RFC822Name(m) => self.emails.push(m.to_string()),
                GeneralName::URI(u) => self.uris.push(u.to_string()),
                GeneralName::IPAddress(b) => match ip_from_bytes(b) {
                    Some(ip) => {
                        self.ips.push(ip);
                        self.ordered.push(San::Ip(ip));
                    }
                    None => self.invalid_ips += 1,
                },
                _ => {}
            }
        }
    }
}

/// Parses every certificate of a PEM file or bundle; `what` names the file in errors.
pub fn parse_pem_certs(text: &[u8], what: &str) -> Result<Vec<CertInfo>> {
    let blocks = pem_blocks(text, what)?;
    let certs: Vec<_> = blocks.iter().filter(|b| b.tag() == "CERTIFICATE").collect();
    if certs.is_empty() {
        bail!(
            "{}",
            super::kind::mismatch(what, text, super::kind::Wanted::Certificate)
        );
    }
    certs
        .iter()
        .enumerate()
        .map(|(i, b)| {
            CertInfo::from_der(b.contents())
                .map_err(|e| anyhow!("{what}: certificate {}: {e}", i + 1))
        })
        .collect()
}

/// Health of one certificate at a given time.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Status {
    /// Valid, not inside the warning window, less than 80% of its life used.
    Ok,
    /// Valid, but inside the warning window or past 80% of its life.
    ExpiringSoon,
    /// Expired or not yet valid.
    Invalid,
}

/// The share of its life a certificate may use before it needs attention: library-go's
/// certrotation (which the MCO uses for its CA since 4.19) refreshes at 80%.
pub const REFRESH_AT: f64 = 0.8;

impl Status {
    /// Classifies `cert` at `now` (Unix seconds) with a warning window in seconds.
    pub fn of(cert: &CertInfo, now: i64, warn_within: i64) -> Status {
        // `now` is in whole seconds: at second notAfter a client's clock is already past it
        // (Go's `now.After(NotAfter)`), so that second counts as expired.
        if now < cert.not_before || now >= cert.not_after {
            Status::Invalid
        } else if cert.not_after - now <= warn_within || lifetime_used(cert, now) >= REFRESH_AT {
            Status::ExpiringSoon
        } else {
            Status::Ok
        }
    }

    /// Why a certificate is not ok, in words: expired, not yet valid, inside the window, or
    /// past 80% of its life.
    pub fn reason(cert: &CertInfo, now: i64, warn_within: i64) -> Option<String> {
        let left = crate::duration::residual(cert.not_after - now);
        match Status::of(cert, now, warn_within) {
            Status::Ok => None,
            Status::Invalid if now < cert.not_before => Some(format!(
                "is not valid until {} (a clock far behind, or a certificate from the future)",
                rfc3339(cert.not_before)
            )),
            Status::Invalid => Some(format!("expired on {}", rfc3339(cert.not_after))),
            Status::ExpiringSoon if cert.not_after - now <= warn_within => Some(format!(
                "expires in {left} ({}), inside the warning window {}",
                rfc3339(cert.not_after),
                crate::duration::Duration(warn_within)
            )),
            Status::ExpiringSoon => Some(format!(
                "has used {:.0}% of its life ({left} left): past the 80% at which it should be replaced",
                lifetime_used(cert, now) * 100.0
            )),
        }
    }

    /// The label printed in tables.
    pub fn label(self, cert: &CertInfo, now: i64) -> &'static str {
        match self {
            Status::Ok => "ok",
            Status::ExpiringSoon => "expiring",
            Status::Invalid if now < cert.not_before => "not-yet-valid",
            Status::Invalid => "expired",
        }
    }
}

/// The share of the validity period that has passed at `now` (0 before notBefore).
pub fn lifetime_used(cert: &CertInfo, now: i64) -> f64 {
    let life = (cert.not_after - cert.not_before).max(1) as f64;
    ((now - cert.not_before).max(0) as f64) / life
}

/// The key as printed, and as one of the algorithms mcsctl generates.
fn describe_key(spki: &SubjectPublicKeyInfo<'_>) -> (String, Option<KeyAlgorithm>) {
    const ED25519: &str = "1.3.101.112";
    const P256: &str = "1.2.840.10045.3.1.7";
    const P384: &str = "1.3.132.0.34";
    const P521: &str = "1.3.132.0.35";
    if spki.algorithm.algorithm.to_id_string() == ED25519 {
        return ("Ed25519".into(), Some(KeyAlgorithm::Ed25519));
    }
    match spki.parsed() {
        Ok(PublicKey::RSA(rsa)) => {
            let bits = rsa.key_size();
            let alg = match bits {
                2048 => Some(KeyAlgorithm::Rsa2048),
                3072 => Some(KeyAlgorithm::Rsa3072),
                4096 => Some(KeyAlgorithm::Rsa4096),
                _ => None,
            };
            (format!("RSA {bits}"), alg)
        }
        Ok(PublicKey::EC(_)) => {
            let curve = spki
                .algorithm
                .parameters
                .as_ref()
                .and_then(|p| p.as_oid().ok())
                .map(|o| o.to_id_string())
                .unwrap_or_default();
            match curve.as_str() {
                P256 => ("ECDSA P-256".into(), Some(KeyAlgorithm::EcdsaP256)),
                P384 => ("ECDSA P-384".into(), Some(KeyAlgorithm::EcdsaP384)),
                P521 => ("ECDSA P-521".into(), None),
                other => (format!("ECDSA {other}"), None),
            }
        }
        _ => (
            format!("unknown ({})", spki.algorithm.algorithm.to_id_string()),
            None,
        ),
    }
}

fn ip_from_bytes(b: &[u8]) -> Option<IpAddr> {
    match b.len() {
        4 => Some(IpAddr::from(<[u8; 4]>::try_from(b).ok()?)),
        16 => Some(IpAddr::from(<[u8; 16]>::try_from(b).ok()?)),
        _ => None,
    }
}

fn colon_hex(b: &[u8]) -> String {
    b.iter()
        .map(|x| format!("{x:02X}"))
        .collect::<Vec<_>>()
        .join(":")
}

/// Formats Unix seconds as RFC 3339 UTC (`2036-11-19T05:33:00Z`).
pub fn rfc3339(ts: i64) -> String {
    time::OffsetDateTime::from_unix_timestamp(ts)
        .ok()
        .and_then(|t| {
            t.format(&time::format_description::well_known::Rfc3339)
                .ok()
        })
        .unwrap_or_else(|| ts.to_string())
}
