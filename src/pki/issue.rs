//! Making certificates: the MCS CA and the serving certificate. Every field is set explicitly;
//! rcgen's defaults (validity 1975..4096, a made-up CN) never reach a certificate.

use anyhow::{Context, Result, anyhow, bail};
use rcgen::{
    BasicConstraints, CertificateParams, DistinguishedName, DnType, ExtendedKeyUsagePurpose, IsCa,
    Issuer, KeyIdMethod, KeyPair, KeyUsagePurpose, SanType, SerialNumber,
};
use time::OffsetDateTime;

use super::cert::CertInfo;
use super::keys::key_matches_spki;
use crate::names::San;

/// Subject CN of the CA, as openshift-install writes it.
pub const CA_COMMON_NAME: &str = "root-ca";
/// Subject OU of the CA.
pub const CA_ORG_UNIT: &str = "openshift";
/// Subject CN of the serving certificate.
pub const SERVING_COMMON_NAME: &str = "system:machine-config-server";
/// Machines boot with wrong clocks: certificates start this long before "now".
pub const BACKDATE: time::Duration = time::Duration::hours(1);

/// A certificate and its key, PEM-encoded, as written to disk.
#[derive(Debug)]
pub struct Issued {
    /// Certificate PEM.
    pub cert_pem: String,
    /// Private key PEM (PKCS#8).
    pub key_pem: String,
    /// The certificate's facts.
    pub info: CertInfo,
}

/// A CA that can sign: its certificate and private key.
pub struct Ca {
    /// The CA certificate's facts.
    pub cert: CertInfo,
    /// The private key.
    pub key: KeyPair,
}

impl std::fmt::Debug for Ca {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Ca")
            .field("subject", &self.cert.subject)
            .finish_non_exhaustive()
    }
}

impl Ca {
    /// Loads a CA (PEM or DER; PKCS#1, PKCS#8 or SEC1 keys) and checks that it can act as one: the certificate is a CA
    /// (basicConstraints CA:true), may sign certificates when keyUsage is present, and the key
    /// is its private half. `cert_name`/`key_name` name the files in errors.
    pub fn load(cert_pem: &[u8], cert_name: &str, key_pem: &[u8], key_name: &str) -> Result<Ca> {
        let certs = super::load::certs(cert_pem, cert_name)?;
        let [cert] = <[CertInfo; 1]>::try_from(certs)
            .map_err(|v| anyhow!("{cert_name}: expected one certificate, found {}", v.len()))?;
        if !cert.is_ca {
            bail!(
                "{cert_name}: {} is not a CA certificate (basicConstraints CA:true is missing)",
                cert.subject
            );
        }
        let key = super::load::key(key_pem, key_name)?;
        if !key_matches_spki(&key, &cert.spki) {
            bail!(
                "{key_name} does not match the certificate in {cert_name} (the public keys differ)"
            );
        }
        Ok(Ca { cert, key })
    }

    fn issuer(&self) -> Result<Issuer<'static, &KeyPair>> {
        Issuer::from_ca_cert_der(&self.cert.der.clone().into(), &self.key)
            .map_err(|e| anyhow!("using the CA certificate as issuer: {e}"))
    }
}

/// Creates a self-signed MCS CA: `OU=openshift, CN=root-ca`, CA:true and
/// keyCertSign|cRLSign (both critical), SKI, a 16-byte positive random serial.
pub fn create_ca(
    key: KeyPair,
    validity: time::Duration,
    now: OffsetDateTime,
) -> Result<(Ca, Issued)> {
    let mut p = base_params(now, now.saturating_add(validity))?;
    let mut dn = DistinguishedName::new();
    dn.push(DnType::OrganizationalUnitName, CA_ORG_UNIT);
    dn.push(DnType::CommonName, CA_COMMON_NAME);
    p.distinguished_name = dn;
    p.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    p.key_usages = vec![KeyUsagePurpose::KeyCertSign, KeyUsagePurpose::CrlSign];
    let cert = p
        .self_signed(&key)
        .map_err(|e| anyhow!("signing the CA certificate: {e}"))?;
    let info = CertInfo::from_der(cert.der()).context("reading back the new CA certificate")?;
    let issued = Issued {
        cert_pem: info.to_pem(),
        key_pem: super::keys::private_key_pem(&key),
        info: info.clone(),
    };
    Ok((Ca { cert: info, key }, issued))
}

/// Issues the serving certificate: `CN=system:machine-config-server`, the given SANs, EKU
/// serverAuth, AKI/SKI, never valid beyond the CA's notAfter.
pub fn issue_serving(
    ca: &Ca,
    key: &KeyPair,
    sans: &[San],
    validity: time::Duration,
    now: OffsetDateTime,
) -> Result<Issued> {
    if sans.is_empty() {
        bail!("a serving certificate needs at least one subject alternative name");
    }
    let ca_not_after = OffsetDateTime::from_unix_timestamp(ca.cert.not_after)
        .map_err(|_| anyhow!("the CA's notAfter is out of range"))?;
    if ca_not_after <= now {
        bail!(
            "the CA expired on {}; create or import a new CA first",
            super::cert::rfc3339(ca.cert.not_after)
        );
    }
    let mut p = base_params(now, now.saturating_add(validity).min(ca_not_after))?;
    let mut dn = DistinguishedName::new();
    dn.push(DnType::CommonName, SERVING_COMMON_NAME);
    p.distinguished_name = dn;
    p.is_ca = IsCa::ExplicitNoCa;
    p.key_usages = if key.algorithm() == &rcgen::PKCS_RSA_SHA256 {
        vec![
            KeyUsagePurpose::DigitalSignature,
            KeyUsagePurpose::KeyEncipherment,
        ]
    } else {
        vec![KeyUsagePurpose::DigitalSignature]
    };
    p.extended_key_usages = vec![ExtendedKeyUsagePurpose::ServerAuth];
    p.use_authority_key_identifier_extension = true;
    p.subject_alt_names = sans
        .iter()
        .map(|s| match s {
            San::Dns(d) => d
                .clone()
                .try_into()
                .map(SanType::DnsName)
                .map_err(|e| anyhow!("SAN {d:?}: {e}")),
            San::Ip(ip) => Ok(SanType::IpAddress(*ip)),
        })
        .collect::<Result<_>>()?;
    let issuer = ca.issuer()?;
    let cert = p
        .signed_by(key, &issuer)
        .map_err(|e| anyhow!("signing the serving certificate: {e}"))?;
    let info =
        CertInfo::from_der(cert.der()).context("reading back the new serving certificate")?;
    Ok(Issued {
        cert_pem: info.to_pem(),
        key_pem: super::keys::private_key_pem(key),
        info,
    })
}

fn base_params(now: OffsetDateTime, not_after: OffsetDateTime) -> Result<CertificateParams> {
    let mut p = CertificateParams::default();
    // Whole seconds: x509 times have no fractions and golden output must not depend on them.
    let now = now.replace_nanosecond(0).unwrap_or(now);
    p.not_before = now.saturating_sub(BACKDATE);
    p.not_after = not_after.replace_nanosecond(0).unwrap_or(not_after);
    if p.not_after <= now {
        bail!("validity must be longer than zero");
    }
    p.serial_number = Some(random_serial()?);
    p.key_identifier_method = KeyIdMethod::Sha256;
    p.subject_alt_names = Vec::new();
    p.extended_key_usages = Vec::new();
    p.key_usages = Vec::new();
    p.custom_extensions = Vec::new();
    p.crl_distribution_points = Vec::new();
    p.name_constraints = None;
    p.use_authority_key_identifier_extension = false;
    Ok(p)
}

/// 16 random bytes with the top bit clear (positive) and the next bit set, so the DER
/// INTEGER is always exactly 16 bytes.
fn random_serial() -> Result<SerialNumber> {
    let mut b = [0u8; 16];
    aws_lc_rs::rand::fill(&mut b).map_err(|_| anyhow!("the OS random source failed"))?;
    b[0] = (b[0] & 0x7f) | 0x40;
    Ok(SerialNumber::from_slice(&b))
}

/// A kubelet certificate's purpose, from the CSR's Kubernetes usages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KubeletUsage {
    /// `client auth`: the kubelet's client certificate.
    Client,
    /// `server auth`: the kubelet's serving certificate.
    Serving,
}

/// Issues a kubelet certificate for a PEM CSR: its signature is checked, the subject and SANs
/// are taken from it, everything else (validity, serial, CA:false, key usages, EKU) is set here
/// from `usages` (Kubernetes usage strings); never a CA, whatever the request asks.
pub fn sign_csr(
    ca: &Ca,
    csr_pem: &str,
    usages: &[String],
    validity: time::Duration,
    now: OffsetDateTime,
) -> Result<(Issued, KubeletUsage)> {
    let req = rcgen::CertificateSigningRequestParams::from_pem(csr_pem)
        .map_err(|e| anyhow!("the certificate request is not usable: {e}"))?;
    let ca_not_after = OffsetDateTime::from_unix_timestamp(ca.cert.not_after)
        .map_err(|_| anyhow!("the CA's notAfter is out of range"))?;
    let mut p = base_params(now, now.saturating_add(validity).min(ca_not_after))?;
    p.distinguished_name = req.params.distinguished_name.clone();
    p.subject_alt_names = req.params.subject_alt_names.clone();
    p.is_ca = IsCa::ExplicitNoCa;
    p.use_authority_key_identifier_extension = true;
    let mut kind = None;
    for u in usages {
        match u.as_str() {
            "digital signature" => p.key_usages.push(KeyUsagePurpose::DigitalSignature),
            "key encipherment" => p.key_usages.push(KeyUsagePurpose::KeyEncipherment),
            "client auth" => {
                p.extended_key_usages
                    .push(ExtendedKeyUsagePurpose::ClientAuth);
                kind = Some(KubeletUsage::Client);
            }
            "server auth" => {
                p.extended_key_usages
                    .push(ExtendedKeyUsagePurpose::ServerAuth);
                kind = Some(KubeletUsage::Serving);
            }
            other => bail!(
                "usage {other:?} is not one a kubelet certificate carries (digital signature, key encipherment, client auth, server auth)"
            ),
        }
    }
    let Some(kind) = kind else {
        bail!("the usages name neither client auth nor server auth")
    };
    if p.extended_key_usages.len() > 1 {
        bail!("a kubelet certificate is either for client auth or for server auth, not both");
    }
    let issuer = ca.issuer()?;
    // Our own parameters are signed, not the request's (which may ask for CA:true or more).
    let cert = p
        .signed_by(&req.public_key, &issuer)
        .map_err(|e| anyhow!("signing: {e}"))?;
    let info = CertInfo::from_der(cert.der()).context("reading back the new certificate")?;
    Ok((
        Issued {
            cert_pem: info.to_pem(),
            key_pem: String::new(),
            info,
        },
        kind,
    ))
}
