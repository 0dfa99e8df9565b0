//! Reading a certificate or a private key an admin hands over, in whatever form it comes: PEM
//! or DER; PKCS#1, PKCS#8 or SEC1 keys. When a file is not what it was given as, the error
//! says what it is (`pki::kind`: "holds a private key, not a certificate: were the certificate
//! and the key swapped?").

use anyhow::{Result, anyhow, bail};
use rcgen::KeyPair;

use super::cert::{CertInfo, parse_pem_certs};
use super::keys::load_key_pem;
use super::kind::{Wanted, mismatch};
use super::{der_key, is_pem};

/// Every certificate of a PEM file or bundle, or the one certificate of a DER file.
pub fn certs(bytes: &[u8], what: &str) -> Result<Vec<CertInfo>> {
    if is_pem(bytes) {
        return parse_pem_certs(bytes, what);
    }
    if let Ok(c) = CertInfo::from_der(bytes) {
        return Ok(vec![c]);
    }
    bail!("{}", mismatch(what, bytes, Wanted::Certificate))
}

/// The private key of a PEM or DER file (PKCS#8, PKCS#1 or SEC1).
pub fn key(bytes: &[u8], what: &str) -> Result<KeyPair> {
    if is_pem(bytes) {
        return load_key_pem(bytes, what);
    }
    der_key(bytes).ok_or_else(|| anyhow!("{}", mismatch(what, bytes, Wanted::PrivateKey)))
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
            e.contains("holds a certificate in DER (binary) form, not a private key: were the certificate and the key swapped?"),
            "{e}"
        );
        let e = certs(&key.serialize_der(), "ca.crt")
            .unwrap_err()
            .to_string();
        assert_eq!(
            e,
            "ca.crt holds a private key in DER (binary) form, not a certificate: were the certificate and the key swapped?"
        );
        let e = certs(b"hello world\n", "x").unwrap_err().to_string();
        assert_eq!(
            e,
            "x holds text without a PEM header (-----BEGIN ...-----), not a certificate: pass a PEM or DER certificate"
        );
        let e = certs(&[0x30, 0x03, 0x02, 0x01, 0x00], "x")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("DER (binary ASN.1) that is not a certificate, key or request")
                && e.contains("openssl asn1parse -inform DER -in x"),
            "{e}"
        );
        let e = certs(b"", "x").unwrap_err().to_string();
        assert!(e.contains("holds nothing (the file is empty)"), "{e}");
    }
}
