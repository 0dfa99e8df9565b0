//! The parts of a PKCS#10 certificate request the approval rules read (rule P1).

use std::net::IpAddr;

use x509_parser::extensions::ParsedExtension;
use x509_parser::prelude::FromDer;
use x509_parser::x509::X509Name;

use crate::pki::cert::SubjectAltNames;

/// What the rules need of a CSR.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CsrInfo {
    /// Subject common name (the last CN, as Go's pkix.Name keeps it).
    pub common_name: String,
    /// Subject organization values, in order.
    pub organizations: Vec<String>,
    /// DNS SANs.
    pub dns_names: Vec<String>,
    /// Email SANs.
    pub emails: Vec<String>,
    /// IP SANs.
    pub ips: Vec<IpAddr>,
    /// URI SANs.
    pub uris: Vec<String>,
    /// SubjectPublicKeyInfo DER.
    pub spki: Vec<u8>,
}

/// Parses `spec.request`: the first PEM block (text before it is skipped) must be a
/// `CERTIFICATE REQUEST`.
pub fn parse(pem_text: &[u8]) -> Result<CsrInfo, String> {
    let block = crate::pki::first_pem_block(pem_text)?;
    if block.tag() != "CERTIFICATE REQUEST" {
        return Err("PEM block type must be CERTIFICATE REQUEST".into());
    }
    parse_der(block.contents())
}

/// Parses a DER CSR.
pub fn parse_der(der: &[u8]) -> Result<CsrInfo, String> {
    let (_, csr) = x509_parser::certification_request::X509CertificationRequest::from_der(der)
        .map_err(|e| format!("not a valid certificate request: {e}"))?;
    let info = &csr.certification_request_info;
    let mut out = CsrInfo {
        common_name: last_attr(&info.subject, AttrKind::CommonName).unwrap_or_default(),
        organizations: all_attrs(&info.subject, AttrKind::Organization),
        dns_names: Vec::new(),
        emails: Vec::new(),
        ips: Vec::new(),
        uris: Vec::new(),
        spki: info.subject_pki.raw.to_vec(),
    };
    let mut sans = SubjectAltNames::default();
    for e in csr.requested_extensions().into_iter().flatten() {
        if let ParsedExtension::SubjectAlternativeName(san) = e {
            sans.add(&san.general_names);
        }
    }
    if sans.invalid_ips > 0 {
        return Err("IP SAN of invalid length".into());
    }
    out.dns_names = sans.dns;
    out.emails = sans.emails;
    out.ips = sans.ips;
    out.uris = sans.uris;
    Ok(out)
}

#[derive(Clone, Copy)]
enum AttrKind {
    CommonName,
    Organization,
}

fn attrs<'a>(
    name: &'a X509Name<'_>,
    kind: AttrKind,
) -> Vec<&'a x509_parser::x509::AttributeTypeAndValue<'a>> {
    match kind {
        AttrKind::CommonName => name.iter_common_name().collect(),
        AttrKind::Organization => name.iter_organization().collect(),
    }
}

fn all_attrs(name: &X509Name<'_>, kind: AttrKind) -> Vec<String> {
    attrs(name, kind)
        .into_iter()
        .filter_map(|a| a.as_str().ok().map(str::to_string))
        .collect()
}

fn last_attr(name: &X509Name<'_>, kind: AttrKind) -> Option<String> {
    all_attrs(name, kind).pop()
}
