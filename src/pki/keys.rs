//! Private keys: generation for every supported algorithm, loading PEM in PKCS#1, PKCS#8 or
//! SEC1, and checking that a key belongs to a certificate.

use std::fmt;
use std::str::FromStr;

use anyhow::{Result, anyhow, bail};
use rcgen::{KeyPair, PublicKeyData, RsaKeySize};
use rustls_pki_types::{PrivateKeyDer, PrivatePkcs1KeyDer, PrivatePkcs8KeyDer, PrivateSec1KeyDer};

use super::pem_blocks;

/// The key algorithms mcsctl generates.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyAlgorithm {
    /// ECDSA P-256 / SHA-256 (default).
    EcdsaP256,
    /// ECDSA P-384 / SHA-384.
    EcdsaP384,
    /// Ed25519.
    Ed25519,
    /// RSA 2048 (openshift-install's choice).
    Rsa2048,
    /// RSA 3072.
    Rsa3072,
    /// RSA 4096.
    Rsa4096,
}

impl KeyAlgorithm {
    /// Every algorithm, in the order `--help` lists them.
    pub const ALL: [KeyAlgorithm; 6] = [
        KeyAlgorithm::EcdsaP256,
        KeyAlgorithm::EcdsaP384,
        KeyAlgorithm::Ed25519,
        KeyAlgorithm::Rsa2048,
        KeyAlgorithm::Rsa3072,
        KeyAlgorithm::Rsa4096,
    ];

    /// The name used on the command line and in `mcsctl.json`.
    pub fn name(self) -> &'static str {
        match self {
            KeyAlgorithm::EcdsaP256 => "ecdsa-p256",
            KeyAlgorithm::EcdsaP384 => "ecdsa-p384",
            KeyAlgorithm::Ed25519 => "ed25519",
            KeyAlgorithm::Rsa2048 => "rsa-2048",
            KeyAlgorithm::Rsa3072 => "rsa-3072",
            KeyAlgorithm::Rsa4096 => "rsa-4096",
        }
    }

    /// RSA generation takes long enough to deserve a spinner.
    pub fn is_slow(self) -> bool {
        matches!(
            self,
            KeyAlgorithm::Rsa2048 | KeyAlgorithm::Rsa3072 | KeyAlgorithm::Rsa4096
        )
    }

    /// Generates a new key pair from the OS random source.
    pub fn generate(self) -> Result<KeyPair> {
        let kp = match self {
            KeyAlgorithm::EcdsaP256 => KeyPair::generate_for(&rcgen::PKCS_ECDSA_P256_SHA256),
            KeyAlgorithm::EcdsaP384 => KeyPair::generate_for(&rcgen::PKCS_ECDSA_P384_SHA384),
            KeyAlgorithm::Ed25519 => KeyPair::generate_for(&rcgen::PKCS_ED25519),
            KeyAlgorithm::Rsa2048 => {
                KeyPair::generate_rsa_for(&rcgen::PKCS_RSA_SHA256, RsaKeySize::_2048)
            }
            KeyAlgorithm::Rsa3072 => {
                KeyPair::generate_rsa_for(&rcgen::PKCS_RSA_SHA256, RsaKeySize::_3072)
            }
            KeyAlgorithm::Rsa4096 => {
                KeyPair::generate_rsa_for(&rcgen::PKCS_RSA_SHA256, RsaKeySize::_4096)
            }
        };
        kp.map_err(|e| anyhow!("generating a {} key: {e}", self.name()))
    }
}

impl fmt::Display for KeyAlgorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for KeyAlgorithm {
    type Err = anyhow::Error;
    fn from_str(s: &str) -> Result<Self> {
        KeyAlgorithm::ALL
            .into_iter()
            .find(|a| a.name() == s)
            .ok_or_else(|| anyhow!("unknown key algorithm {s:?}"))
    }
}

/// PEM of a private key as PKCS#8. Ed25519 keys are written as PKCS#8 v1 (the seed alone):
/// aws-lc produces v2 with the public key attached, which OpenSSL 3.0 cannot read.
pub fn private_key_pem(key: &KeyPair) -> String {
    const V2_PREFIX: [u8; 16] = [
        0x30, 0x51, 0x02, 0x01, 0x01, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x04, 0x22, 0x04,
        0x20,
    ];
    const V1_PREFIX: [u8; 16] = [
        0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x04, 0x22, 0x04,
        0x20,
    ];
    let der = key.serialized_der();
    let der = match der.strip_prefix(&V2_PREFIX[..]) {
        Some(rest) if key.algorithm() == &rcgen::PKCS_ED25519 && rest.len() >= 32 => {
            let mut v1 = V1_PREFIX.to_vec();
            v1.extend_from_slice(&rest[..32]);
            v1
        }
        _ => der.to_vec(),
    };
    super::to_pem("PRIVATE KEY", &der)
}

/// Loads a private key from PEM text. `what` names the file in errors.
pub fn load_key_pem(pem_text: &[u8], what: &str) -> Result<KeyPair> {
    let blocks = pem_blocks(pem_text, what)?;
    let mut keys = blocks.iter().filter(|b| b.tag().ends_with("PRIVATE KEY"));
    let Some(block) = keys.next() else {
        bail!(
            "{}",
            super::kind::mismatch(what, pem_text, super::kind::Wanted::PrivateKey)
        );
    };
    if keys.next().is_some() {
        bail!("{what}: more than one private key; give a file with exactly one");
    }
    let der: PrivateKeyDer<'_> = match block.tag() {
        "PRIVATE KEY" => PrivatePkcs8KeyDer::from(block.contents()).into(),
        "RSA PRIVATE KEY" => PrivatePkcs1KeyDer::from(block.contents()).into(),
        "EC PRIVATE KEY" => PrivateSec1KeyDer::from(block.contents()).into(),
        "ENCRYPTED PRIVATE KEY" => {
            bail!(
                "{what}: the key is encrypted; decrypt it first (openssl pkey -in {what} -out plain.key)"
            )
        }
        other => bail!("{what}: unsupported key type {other:?}"),
    };
    KeyPair::try_from(&der).map_err(|e| {
        anyhow!(
            "{what}: not a usable private key ({e}); supported: RSA, ECDSA P-256/P-384, Ed25519"
        )
    })
}

/// Whether `key` is the private half of the public key in `spki_der` (a certificate's
/// SubjectPublicKeyInfo).
pub fn key_matches_spki(key: &KeyPair, spki_der: &[u8]) -> bool {
    key.subject_public_key_info() == spki_der
}
