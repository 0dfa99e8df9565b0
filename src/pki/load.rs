//! Reading a certificate or a private key an admin hands over, in whatever form it comes: PEM
//! or DER; PKCS#1, PKCS#8 or SEC1 keys. When a file is not what it was given as, the error
//! says what it is ("holds a private key, not a certificate: were the certificate and the key swapped?").

use anyhow::{Result, anyhow, bail};
use rcgen::KeyPair;
use rustls_pki_types::{PrivateKeyDer, PrivatePkcs1KeyDer, PrivatePkcs8KeyDer, PrivateSec1KeyDer};

use super::cert::{CertInfo, parse_pem_certs};
use super::keys::load_key_pem;

/// Every certificate of a PEM file or bundle, or the one certificate of a DER file.
pub fn certs(bytes: &[u8], what: &str) -> Result<Vec<CertInfo>> {
    if is_pem(bytes) {
        let labels = pem_labels(bytes);
        if !labels.iter().any(|l| l == "CERTIFICATE") && !labels.is_empty() {
            bail!(
                "{what} holds {}, not a certificate{}",
                describe_label(&labels[0]),
                swapped_hint(&labels[0], "certificate")
            );
        }
        return parse_pem_certs(bytes, what);
    }
    if let Ok(c) = CertInfo::from_der(bytes) {
        return Ok(vec![c]);
    }
    if der_key(bytes).is_some() {
        bail!(
            "{what} holds a private key (DER), not a certificate: were the certificate and the key swapped?"
        );
    }
    bail!("{what} is not a certificate: it {}", describe(bytes))
}

/// The private key of a PEM or DER file (PKCS#8, PKCS#1 or SEC1).
pub fn key(bytes: &[u8], what: &str) -> Result<KeyPair> {
    if is_pem(bytes) {
        let labels = pem_labels(bytes);
        if !labels.iter().any(|l| l.ends_with("PRIVATE KEY")) && !labels.is_empty() {
            bail!(
                "{what} holds {}, not a private key{}",
                describe_label(&labels[0]),
                swapped_hint(&labels[0], "key")
            );
        }
        return load_key_pem(bytes, what);
    }
    if let Some(k) = der_key(bytes) {
        return Ok(k);
    }
    if CertInfo::from_der(bytes).is_ok() {
        bail!(
            "{what} holds a certificate (DER), not a private key: were the certificate and the key swapped?"
        );
    }
    Err(anyhow!(
        "{what} is not a private key (PEM or DER; PKCS#1, PKCS#8 or SEC1): it {}",
        describe(bytes)
    ))
}

/// A DER private key in any of the three forms.
fn der_key(bytes: &[u8]) -> Option<KeyPair> {
    let attempts: [PrivateKeyDer<'_>; 3] = [
        PrivatePkcs8KeyDer::from(bytes).into(),
        PrivatePkcs1KeyDer::from(bytes).into(),
        PrivateSec1KeyDer::from(bytes).into(),
    ];
    attempts.iter().find_map(|der| KeyPair::try_from(der).ok())
}

fn is_pem(bytes: &[u8]) -> bool {
    bytes.windows(11).any(|w| w == b"-----BEGIN ")
}

/// The labels of the PEM blocks (`CERTIFICATE`, `RSA PRIVATE KEY`, …).
fn pem_labels(bytes: &[u8]) -> Vec<String> {
    String::from_utf8_lossy(bytes)
        .split("-----BEGIN ")
        .skip(1)
        .filter_map(|rest| rest.split_once("-----").map(|(l, _)| l.trim().to_string()))
        .filter(|l| l.len() < 64)
        .collect()
}

/// What a PEM block is, in words, with its label as written.
fn describe_label(label: &str) -> String {
    if label.ends_with("PRIVATE KEY") {
        format!("a private key (PEM \"{label}\")")
    } else if label == "CERTIFICATE" {
        "a certificate (PEM)".to_string()
    } else if label == "CERTIFICATE REQUEST" {
        "a certificate signing request (PEM)".to_string()
    } else {
        format!("a PEM \"{label}\" block")
    }
}

fn swapped_hint(label: &str, wanted: &str) -> &'static str {
    match (
        label.ends_with("PRIVATE KEY"),
        label == "CERTIFICATE",
        wanted,
    ) {
        (true, _, "certificate") | (_, true, "key") => {
            ": were the certificate and the key swapped?"
        }
        _ => "",
    }
}

/// What a file that is neither PEM nor the DER asked for looks like.
fn describe(bytes: &[u8]) -> &'static str {
    if bytes.is_empty() {
        return "is empty";
    }
    let text = bytes
        .iter()
        .all(|b| b.is_ascii_graphic() || b.is_ascii_whitespace());
    if text {
        "is text without a PEM header (-----BEGIN ...-----)"
    } else if bytes[0] == 0x30 {
        "is DER, but of something else"
    } else {
        "is binary data that is neither PEM nor DER"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ca() -> (rcgen::Certificate, KeyPair) {
        let key = KeyPair::generate().unwrap();
        let mut p = rcgen::CertificateParams::new(Vec::<String>::new()).unwrap();
        p.is_ca = rcgen::IsCa::Ca(rcgen::BasicConstraints::Unconstrained);
        (p.self_signed(&key).unwrap(), key)
    }

    #[test]
    fn pem_and_der_of_certificates_and_keys() {
        let (cert, key) = ca();
        assert_eq!(certs(cert.pem().as_bytes(), "c").unwrap().len(), 1);
        assert_eq!(
            certs(cert.der(), "c.der").unwrap()[0].der,
            cert.der().to_vec()
        );
        let pem_key = key.serialize_pem();
        assert!(self::key(pem_key.as_bytes(), "k").is_ok());
        assert!(self::key(&key.serialize_der(), "k.der").is_ok());
    }

    #[test]
    fn a_file_given_as_the_other_says_what_it_is() {
        let (cert, key) = ca();
        let e = certs(key.serialize_pem().as_bytes(), "ca.crt")
            .unwrap_err()
            .to_string();
        assert!(e.contains("ca.crt holds a private key (PEM \"PRIVATE KEY\"), not a certificate: were the certificate and the key swapped?"), "{e}");
        let e = self::key(cert.pem().as_bytes(), "ca.key")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("holds a certificate (PEM), not a private key"),
            "{e}"
        );
        let e = self::key(cert.der(), "ca.key").unwrap_err().to_string();
        assert!(
            e.contains("holds a certificate (DER), not a private key"),
            "{e}"
        );
        let e = certs(&key.serialize_der(), "ca.crt")
            .unwrap_err()
            .to_string();
        assert_eq!(
            e,
            "ca.crt holds a private key (DER), not a certificate: were the certificate and the key swapped?"
        );
        let e = certs(b"hello world\n", "x").unwrap_err().to_string();
        assert!(e.contains("text without a PEM header"), "{e}");
        let e = certs(&[0x30, 0x03, 0x02, 0x01, 0x00], "x")
            .unwrap_err()
            .to_string();
        assert!(e.contains("DER, but of something else"), "{e}");
        let e = certs(b"", "x").unwrap_err().to_string();
        assert!(e.contains("is empty"), "{e}");
    }
}
