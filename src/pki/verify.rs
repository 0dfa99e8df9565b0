//! Certificate chains, verified in one place with webpki (the verifier rustls itself uses):
//! what a TLS client trusting only given roots would accept (`inspect --remote`, with a server
//! name, at the time now), and what Go's `x509.Certificate.Verify` with default options
//! accepts for the approver's renewal rule (at the review's time, no name). The reason for a
//! refusal is a [`ChainError`], each caller saying it in its own words.

use rustls::pki_types::{CertificateDer, ServerName, UnixTime};

/// Why a chain is refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ChainError {
    /// No root signed it (or a signature does not verify).
    UnknownIssuer,
    /// It is not valid for the server name.
    NotValidForName,
    /// Past its notAfter, or before its notBefore.
    OutsideValidity,
    /// No root can be a trust anchor.
    NoAnchor,
    /// Anything else webpki says.
    Other(String),
}

impl std::fmt::Display for ChainError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ChainError::UnknownIssuer => f.write_str("UnknownIssuer"),
            ChainError::NotValidForName => f.write_str("NotValidForName"),
            ChainError::OutsideValidity => f.write_str("Expired"),
            ChainError::NoAnchor => f.write_str("no usable trust anchor"),
            ChainError::Other(e) => f.write_str(e),
        }
    }
}

/// Verifies `chain` (leaf first, DER) up to one of `roots` (DER) for server authentication
/// at `at` (Unix seconds); with `name`, also that the leaf is valid for it.
pub fn chain(
    chain: &[&[u8]],
    roots: &[&[u8]],
    at: i64,
    name: Option<&str>,
) -> Result<(), ChainError> {
    let ders: Vec<CertificateDer<'_>> = roots.iter().map(|r| CertificateDer::from(*r)).collect();
    let anchors: Vec<_> = ders
        .iter()
        .filter_map(|d| webpki::anchor_from_trusted_cert(d).ok())
        .collect();
    if anchors.is_empty() {
        return Err(if roots.is_empty() {
            ChainError::UnknownIssuer
        } else {
            ChainError::NoAnchor
        });
    }
    let Some((leaf, rest)) = chain.split_first() else {
        return Err(ChainError::Other("empty chain".into()));
    };
    let leaf = CertificateDer::from(*leaf);
    let intermediates: Vec<CertificateDer<'_>> =
        rest.iter().map(|c| CertificateDer::from(*c)).collect();
    let ee = webpki::EndEntityCert::try_from(&leaf).map_err(reason)?;
    let time = UnixTime::since_unix_epoch(std::time::Duration::from_secs(at.max(0) as u64));
    ee.verify_for_usage(
        webpki::ALL_VERIFICATION_ALGS,
        &anchors,
        &intermediates,
        time,
        webpki::KeyUsage::server_auth(),
        None,
        None,
    )
    .map_err(reason)?;
    if let Some(n) = name {
        let server = ServerName::try_from(n.to_string())
            .map_err(|_| ChainError::Other(format!("invalid server name {n:?}")))?;
        ee.verify_is_valid_for_subject_name(&server)
            .map_err(reason)?;
    }
    Ok(())
}

fn reason(e: webpki::Error) -> ChainError {
    match e {
        webpki::Error::UnknownIssuer
        | webpki::Error::InvalidSignatureForPublicKey
        | webpki::Error::UnsupportedSignatureAlgorithmContext(_)
        | webpki::Error::UnsupportedSignatureAlgorithmForPublicKeyContext(_) => {
            ChainError::UnknownIssuer
        }
        webpki::Error::CertNotValidForName(_) => ChainError::NotValidForName,
        webpki::Error::CertExpired { .. } | webpki::Error::CertNotValidYet { .. } => {
            ChainError::OutsideValidity
        }
        other => ChainError::Other(format!("{other}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A CA and a leaf for `name` it signed, valid 2025-2027 (DER).
    fn pair(name: &str) -> (Vec<u8>, Vec<u8>) {
        let ca_key = rcgen::KeyPair::generate().unwrap();
        let mut ca = rcgen::CertificateParams::new(Vec::<String>::new()).unwrap();
        ca.is_ca = rcgen::IsCa::Ca(rcgen::BasicConstraints::Unconstrained);
        ca.not_before = rcgen::date_time_ymd(2025, 1, 1);
        ca.not_after = rcgen::date_time_ymd(2027, 1, 1);
        let ca_cert = ca.self_signed(&ca_key).unwrap();
        let issuer = rcgen::Issuer::new(ca, ca_key);
        let key = rcgen::KeyPair::generate().unwrap();
        let mut leaf = rcgen::CertificateParams::new(vec![name.to_string()]).unwrap();
        leaf.not_before = rcgen::date_time_ymd(2025, 6, 1);
        leaf.not_after = rcgen::date_time_ymd(2026, 6, 1);
        let leaf = leaf.signed_by(&key, &issuer).unwrap();
        (ca_cert.der().to_vec(), leaf.der().to_vec())
    }

    #[test]
    fn each_refusal_has_its_reason() {
        let (ca, leaf) = pair("mcs.example.com");
        let (other_ca, _) = pair("x.example.com");
        let jan_2026 = 1_767_225_600;
        assert_eq!(
            chain(&[&leaf], &[&ca], jan_2026, Some("mcs.example.com")),
            Ok(())
        );
        assert_eq!(chain(&[&leaf], &[&ca], jan_2026, None), Ok(()));
        assert_eq!(
            chain(&[&leaf], &[&ca], jan_2026, Some("other.example.com")),
            Err(ChainError::NotValidForName)
        );
        assert_eq!(
            chain(&[&leaf], &[&other_ca], jan_2026, None),
            Err(ChainError::UnknownIssuer)
        );
        assert_eq!(
            chain(&[&leaf], &[], jan_2026, None),
            Err(ChainError::UnknownIssuer)
        );
        let jan_2027 = jan_2026 + 365 * 86_400;
        assert_eq!(
            chain(&[&leaf], &[&ca], jan_2027, None),
            Err(ChainError::OutsideValidity)
        );
    }
}
