//! Keys, the MCS CA, the serving certificate and certificate inspection.

pub mod cert;
pub mod issue;
pub mod keys;
pub mod kind;
pub mod load;
pub mod remote;
pub mod rotation;
pub mod verify;

use anyhow::{Result, bail};

/// Parses every PEM block of a file, failing on a truncated or malformed block rather than
/// silently skipping it (the `pem` crate ignores a BEGIN line without its END).
pub fn pem_blocks(text: &[u8], what: &str) -> Result<Vec<pem::Pem>> {
    let begins = count(text, b"-----BEGIN ");
    let ends = count(text, b"-----END ");
    if begins == 0 {
        bail!("{}", kind::not_pem(what, text));
    }
    let blocks = match pem::parse_many(text) {
        Ok(b) => b,
        // The crate's message ("Invalid symbol 35, offset 68") says nothing to a reader.
        Err(_) => bail!(
            "{what}: malformed PEM: the base64 between a BEGIN and an END line is damaged (copied through a terminal or an editor that wrapped or changed it?)"
        ),
    };
    if blocks.len() != begins || ends != begins {
        bail!(
            "{what}: truncated or malformed PEM: {begins} BEGIN line(s), {ends} END line(s), {} complete block(s)",
            blocks.len()
        );
    }
    Ok(blocks)
}

/// The first PEM block of `text`, as Go's `pem.Decode` takes it: text before it is skipped,
/// text after it ignored. The approver reads `spec.request` so.
pub fn first_pem_block(text: &[u8]) -> std::result::Result<pem::Pem, String> {
    let Some(start) = text.windows(11).position(|w| w == b"-----BEGIN ") else {
        return Err("no PEM block in the request".into());
    };
    pem::parse(&text[start..]).map_err(|e| format!("malformed PEM: {e}"))
}

/// One PEM block of `label` around `der`, with LF line endings.
pub fn to_pem(label: &str, der: &[u8]) -> String {
    pem::encode_config(
        &pem::Pem::new(label, der.to_vec()),
        pem::EncodeConfig::new().set_line_ending(pem::LineEnding::LF),
    )
}

/// The DER certificates of a PEM file, in order (blocks of other labels skipped).
pub fn cert_ders(text: &[u8], what: &str) -> Result<Vec<Vec<u8>>> {
    Ok(pem_blocks(text, what)?
        .into_iter()
        .filter(|b| b.tag() == "CERTIFICATE")
        .map(|b| b.into_contents())
        .collect())
}

/// The first private key of a PEM file, as rustls takes it: PKCS#8, PKCS#1 or SEC1 by the
/// block's label.
pub fn private_key_der(
    text: &[u8],
    what: &str,
) -> Result<rustls_pki_types::PrivateKeyDer<'static>> {
    use rustls_pki_types::{PrivatePkcs1KeyDer, PrivatePkcs8KeyDer, PrivateSec1KeyDer};
    for b in pem_blocks(text, what)? {
        let tag = b.tag().to_string();
        let der = b.into_contents();
        match tag.as_str() {
            "PRIVATE KEY" => return Ok(PrivatePkcs8KeyDer::from(der).into()),
            "RSA PRIVATE KEY" => return Ok(PrivatePkcs1KeyDer::from(der).into()),
            "EC PRIVATE KEY" => return Ok(PrivateSec1KeyDer::from(der).into()),
            _ => {}
        }
    }
    bail!("{what} holds no private key")
}

fn count(hay: &[u8], needle: &[u8]) -> usize {
    hay.windows(needle.len()).filter(|w| *w == needle).count()
}

/// SHA-256 of `data` as colon-separated upper-case hex, as `openssl x509 -fingerprint -sha256`
/// prints it.
pub fn sha256_fingerprint(data: &[u8]) -> String {
    let d = aws_lc_rs::digest::digest(&aws_lc_rs::digest::SHA256, data);
    d.as_ref()
        .iter()
        .map(|b| format!("{b:02X}"))
        .collect::<Vec<_>>()
        .join(":")
}

/// A DER private key in any of the three forms.
pub fn der_key(bytes: &[u8]) -> Option<rcgen::KeyPair> {
    let attempts: [rustls_pki_types::PrivateKeyDer<'_>; 3] = [
        rustls_pki_types::PrivatePkcs8KeyDer::from(bytes).into(),
        rustls_pki_types::PrivatePkcs1KeyDer::from(bytes).into(),
        rustls_pki_types::PrivateSec1KeyDer::from(bytes).into(),
    ];
    attempts
        .iter()
        .find_map(|der| rcgen::KeyPair::try_from(der).ok())
}

/// Whether `bytes` start with a PEM block (after white space): a PEM file, not a document that
/// quotes PEM inside (a Kubernetes object does).
pub fn starts_with_pem(bytes: &[u8]) -> bool {
    bytes.trim_ascii_start().starts_with(PEM_BEGIN)
}

/// How every PEM block begins.
const PEM_BEGIN: &[u8] = b"-----BEGIN ";

/// Whether `bytes` hold a PEM block (anywhere: PEM may follow explanatory text). With
/// [`starts_with_pem`], the one PEM detection of mcsctl.
pub fn is_pem(bytes: &[u8]) -> bool {
    bytes.windows(PEM_BEGIN.len()).any(|w| w == PEM_BEGIN)
}

/// Whether `bytes` hold a private key: a PEM block labelled `... PRIVATE KEY`, or a DER key.
pub fn holds_private_key(bytes: &[u8]) -> bool {
    if is_pem(bytes) {
        return pem::parse_many(bytes)
            .is_ok_and(|blocks| blocks.iter().any(|b| b.tag().ends_with("PRIVATE KEY")));
    }
    der_key(bytes).is_some()
}

/// Refuses an `--output` file `path` that holds a private key (`existing`: its bytes, when it
/// is there), whatever `--force` says: a pointer config or a certificate written over
/// `tls/mcs-ca.key` (a slip of the shell's completion) would destroy a key that cannot be
/// made again.
pub fn refuse_output_over_key(path: &std::path::Path, existing: Option<&[u8]>) -> Result<()> {
    if existing.is_some_and(holds_private_key) {
        bail!(
            "{} holds a private key: mcsctl never writes over a key, even with --force; choose another --output",
            path.display()
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn truncated_pem_is_an_error() {
        let good = b"-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n";
        assert_eq!(pem_blocks(good, "x").unwrap().len(), 1);
        let cut = b"-----BEGIN CERTIFICATE-----\nAAAA\n";
        assert!(
            pem_blocks(cut, "x")
                .unwrap_err()
                .to_string()
                .contains("truncated")
        );
        assert!(
            pem_blocks(b"hello", "x")
                .unwrap_err()
                .to_string()
                .contains("x holds text without a PEM header (-----BEGIN ...-----), not PEM")
        );
    }
}
