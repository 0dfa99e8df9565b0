//! What a file is, when it is not what a command asked for: every error about a certificate,
//! key or request file says what the file holds and what to run (`openssl x509 -inform DER
//! ...`, `openssl pkcs12 ...`), instead of a parser's "no items found".

use x509_parser::prelude::FromDer;

/// What a command wanted from a file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Wanted {
    /// One or more X.509 certificates.
    Certificate,
    /// A private key.
    PrivateKey,
    /// A PKCS#10 certificate signing request.
    Request,
}

impl Wanted {
    fn noun(self) -> &'static str {
        match self {
            Wanted::Certificate => "a certificate",
            Wanted::PrivateKey => "a private key",
            Wanted::Request => "a certificate signing request",
        }
    }
}

/// What a file holds, as far as the first look tells.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Kind {
    /// Nothing.
    Empty,
    /// PEM blocks, by label (`CERTIFICATE`, `RSA PRIVATE KEY`, …).
    Pem(Vec<String>),
    /// A DER certificate.
    DerCertificate,
    /// A DER private key (PKCS#8, PKCS#1 or SEC1).
    DerPrivateKey,
    /// A DER certificate signing request.
    DerRequest,
    /// A PKCS#12 bundle (`.p12`, `.pfx`).
    Pkcs12,
    /// DER of something else.
    DerOther,
    /// A Kubernetes object (by kind) or a list of them.
    Kube(String),
    /// An Ignition config (a pointer config, say).
    Ignition,
    /// Other text.
    Text,
    /// Other binary data.
    Binary,
}

/// Looks at `bytes`.
pub fn of(bytes: &[u8]) -> Kind {
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Kind::Empty;
    }
    if super::is_pem(bytes) {
        let text = String::from_utf8_lossy(bytes);
        let labels = text
            .split("-----BEGIN ")
            .skip(1)
            .filter_map(|rest| rest.split_once("-----").map(|(l, _)| l.trim().to_string()))
            .filter(|l| l.len() < 64)
            .collect::<Vec<_>>();
        // A Kubernetes object quotes PEM inside; it is the object that counts.
        if let Some(k) = kube_kind(&text) {
            return Kind::Kube(k);
        }
        return Kind::Pem(labels);
    }
    if bytes[0] == 0x30 {
        if x509_parser::certificate::X509Certificate::from_der(bytes).is_ok() {
            return Kind::DerCertificate;
        }
        if x509_parser::certification_request::X509CertificationRequest::from_der(bytes).is_ok() {
            return Kind::DerRequest;
        }
        if super::der_key(bytes).is_some() {
            return Kind::DerPrivateKey;
        }
        if is_pkcs12(bytes) {
            return Kind::Pkcs12;
        }
        return Kind::DerOther;
    }
    match std::str::from_utf8(bytes) {
        Ok(text) => match kube_kind(text) {
            Some(k) => Kind::Kube(k),
            None if serde_json::from_str::<serde_json::Value>(text)
                .is_ok_and(|v| v.get("ignition").is_some()) =>
            {
                Kind::Ignition
            }
            None => Kind::Text,
        },
        Err(_) => Kind::Binary,
    }
}

/// The `kind:` of a JSON or YAML Kubernetes object, if the text is one.
fn kube_kind(text: &str) -> Option<String> {
    let v: serde_json::Value = if text.trim_start().starts_with('{') {
        serde_json::from_str(text).ok()?
    } else {
        crate::kube::yaml::documents(text, "")
            .ok()?
            .into_iter()
            .next()?
            .value
    };
    v.get("kind")?.as_str().map(str::to_string)
}

/// PFX: SEQUENCE { INTEGER 3, ContentInfo { OID pkcs7-data, ... }, ... }.
fn is_pkcs12(der: &[u8]) -> bool {
    const PKCS7_DATA: [u8; 11] = [
        0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x07, 0x01,
    ];
    let head = &der[..der.len().min(32)];
    head.windows(3).any(|w| w == [0x02, 0x01, 0x03])
        && head.windows(PKCS7_DATA.len()).any(|w| w == PKCS7_DATA)
}

impl Kind {
    /// What the file holds, in words: "a private key (PEM \"RSA PRIVATE KEY\")".
    pub fn describe(&self) -> String {
        match self {
            Kind::Empty => "nothing (the file is empty)".into(),
            Kind::Pem(labels) => match labels.first().map(String::as_str) {
                None => "damaged PEM".into(),
                Some("CERTIFICATE") => "a certificate (PEM)".into(),
                Some("CERTIFICATE REQUEST" | "NEW CERTIFICATE REQUEST") => {
                    "a certificate signing request (PEM)".into()
                }
                Some(l) if l.ends_with("PRIVATE KEY") => format!("a private key (PEM \"{l}\")"),
                Some(l) => format!("a PEM \"{l}\" block"),
            },
            Kind::DerCertificate => "a certificate in DER (binary) form".into(),
            Kind::DerPrivateKey => "a private key in DER (binary) form".into(),
            Kind::DerRequest => "a certificate signing request in DER (binary) form".into(),
            Kind::Pkcs12 => "a PKCS#12 bundle (.p12/.pfx)".into(),
            Kind::DerOther => "DER (binary ASN.1) that is not a certificate, key or request".into(),
            Kind::Kube(k) => format!("a Kubernetes {k}"),
            Kind::Ignition => "an Ignition config".into(),
            Kind::Text => "text without a PEM header (-----BEGIN ...-----)".into(),
            Kind::Binary => "binary data that is neither PEM nor DER".into(),
        }
    }

    fn holds(&self, w: Wanted) -> bool {
        match self {
            Kind::Pem(labels) => labels.iter().any(|l| match w {
                Wanted::Certificate => l == "CERTIFICATE",
                Wanted::PrivateKey => l.ends_with("PRIVATE KEY"),
                Wanted::Request => l.ends_with("CERTIFICATE REQUEST"),
            }),
            Kind::DerCertificate => w == Wanted::Certificate,
            Kind::DerPrivateKey => w == Wanted::PrivateKey,
            Kind::DerRequest => w == Wanted::Request,
            _ => false,
        }
    }
}

/// Why `file` is not what the command `wanted`, with what to do: "ca.key holds a private key
/// (PEM "RSA PRIVATE KEY"), not a certificate: were the certificate and the key swapped?".
pub fn mismatch(file: &str, bytes: &[u8], wanted: Wanted) -> String {
    let kind = of(bytes);
    let fix = match (&kind, wanted) {
        (Kind::Pem(_) | Kind::DerPrivateKey | Kind::DerCertificate, Wanted::Certificate)
            if kind.holds(Wanted::PrivateKey) =>
        {
            "were the certificate and the key swapped?".to_string()
        }
        (Kind::Pem(_) | Kind::DerCertificate | Kind::DerPrivateKey, Wanted::PrivateKey)
            if kind.holds(Wanted::Certificate) =>
        {
            "were the certificate and the key swapped?".to_string()
        }
        (_, Wanted::Certificate) if kind.holds(Wanted::Request) => {
            "a request is not a certificate yet: `mcsctl csr sign --csr FILE` signs a kubelet request, `mcsctl cert issue` makes the serving certificate".to_string()
        }
        (_, Wanted::Request) if kind.holds(Wanted::PrivateKey) => {
            format!("pass the request made with this key, not the key (`openssl req -new -key {file} -out node.csr` makes one)")
        }
        (_, Wanted::Request) if kind.holds(Wanted::Certificate) => {
            "this is already a certificate; pass the request (PEM CERTIFICATE REQUEST, or the CertificateSigningRequest object)".to_string()
        }
        (Kind::Pkcs12, Wanted::PrivateKey) => format!(
            "extract the key: `openssl pkcs12 -in {file} -nocerts -nodes -out key.pem`"
        ),
        (Kind::Pkcs12, _) => format!(
            "extract the certificate: `openssl pkcs12 -in {file} -nokeys -clcerts -out cert.pem`"
        ),
        (Kind::Kube(k), _) => format!(
            "mcsctl reads a {k} with `mcsctl inspect {file}`; for the PEM inside: `oc extract` or `jq -r '.data[\"tls.crt\"]' {file} | base64 -d`"
        ),
        (Kind::Ignition, _) => format!(
            "the CAs a pointer config trusts are inside it: `mcsctl inspect {file}` shows them"
        ),
        (Kind::DerOther, _) => {
            format!("`openssl asn1parse -inform DER -in {file}` shows what it is")
        }
        (Kind::Text | Kind::Binary | Kind::Empty, _) => match wanted {
            Wanted::Certificate => "pass a PEM or DER certificate".to_string(),
            Wanted::PrivateKey => {
                "pass a PEM or DER private key (PKCS#1, PKCS#8 or SEC1)".to_string()
            }
            Wanted::Request => {
                "pass a PEM or DER request, or the CertificateSigningRequest object".to_string()
            }
        },
        _ => String::new(),
    };
    if fix.is_empty() {
        format!("{file} holds {}, not {}", kind.describe(), wanted.noun())
    } else {
        format!(
            "{file} holds {}, not {}: {fix}",
            kind.describe(),
            wanted.noun()
        )
    }
}

/// Why a file of the asset directory (which mcsctl keeps in PEM) is not PEM, with the command
/// that converts it: a DER certificate put there by hand, say.
pub fn not_pem(file: &str, bytes: &[u8]) -> String {
    let kind = of(bytes);
    let fix = match kind {
        Kind::DerCertificate => format!(
            "the asset directory keeps PEM: `openssl x509 -inform DER -in {file} -out {file}.pem` and move it over {file}"
        ),
        Kind::DerPrivateKey => format!(
            "the asset directory keeps PEM: `openssl pkey -inform DER -in {file} -out {file}.pem` and move it over {file}"
        ),
        Kind::DerRequest => {
            format!("convert it: `openssl req -inform DER -in {file} -out {file}.pem`")
        }
        Kind::Pkcs12 => format!("extract it: `openssl pkcs12 -in {file} -nodes -out {file}.pem`"),
        _ => "expected PEM (-----BEGIN ...-----)".to_string(),
    };
    format!("{file} holds {}, not PEM: {fix}", kind.describe())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_is_named_with_its_fix() {
        let key = rcgen::KeyPair::generate().unwrap();
        let cert = rcgen::CertificateParams::new(vec!["x".to_string()])
            .unwrap()
            .self_signed(&key)
            .unwrap();
        let csr = rcgen::CertificateParams::new(vec!["x".to_string()])
            .unwrap()
            .serialize_request(&key)
            .unwrap();
        assert_eq!(of(cert.der()), Kind::DerCertificate);
        assert_eq!(of(&key.serialize_der()), Kind::DerPrivateKey);
        assert_eq!(of(csr.der()), Kind::DerRequest);
        assert_eq!(of(b""), Kind::Empty);
        assert_eq!(of(b"hello"), Kind::Text);
        assert_eq!(
            of(b"{\"kind\": \"Secret\", \"data\": {}}"),
            Kind::Kube("Secret".into())
        );
        assert_eq!(
            mismatch("k.pem", key.serialize_pem().as_bytes(), Wanted::Certificate),
            "k.pem holds a private key (PEM \"PRIVATE KEY\"), not a certificate: were the certificate and the key swapped?"
        );
        assert_eq!(
            mismatch("k.pem", key.serialize_pem().as_bytes(), Wanted::Request),
            "k.pem holds a private key (PEM \"PRIVATE KEY\"), not a certificate signing request: pass the request made with this key, not the key (`openssl req -new -key k.pem -out node.csr` makes one)"
        );
        assert_eq!(
            not_pem("tls/mcs.crt", cert.der()),
            "tls/mcs.crt holds a certificate in DER (binary) form, not PEM: the asset directory keeps PEM: `openssl x509 -inform DER -in tls/mcs.crt -out tls/mcs.crt.pem` and move it over tls/mcs.crt"
        );
        assert!(
            mismatch("x.csr", csr.pem().unwrap().as_bytes(), Wanted::Certificate)
                .contains("mcsctl csr sign --csr FILE")
        );
    }
}
