//! Why a handshake failed, in the words a booting machine's Ignition logs, with the chain the
//! server presented (fetched again without verification) and what would fix it.

use std::net::SocketAddr;

use super::{Fetch, Options};
use crate::http::client::explain_tls;
use crate::pki::cert::CertInfo;
use crate::pki::remote;

/// (detail, fix) for a failed handshake with `host` at `addr`.
pub fn tls_failure(
    error: Option<&rustls::Error>,
    io: &str,
    addr: &SocketAddr,
    host: &str,
    opts: &Options,
    f: &Fetch,
) -> (String, String) {
    let timeout = opts.timeout;
    use rustls::CertificateError as C;
    let Some(rustls::Error::InvalidCertificate(c)) = error else {
        return match error {
            Some(other) => (
                format!("TLS handshake failed: {other}"),
                "check that the port serves TLS (mcsctl serve) and supports TLS 1.2 or 1.3".into(),
            ),
            None => (
                format!("TLS handshake failed: {io}"),
                "check that the port serves TLS (mcsctl serve) and is not behind a proxy that resets it".into(),
            ),
        };
    };
    let presented = remote::fetch_chain(&addr.to_string(), host, timeout).ok();
    let chain_desc = describe(presented.as_ref());
    let trusted: Vec<String> = f.cas.iter().map(CertInfo::subject_with_key_id).collect();
    let said = error.map(explain_tls).unwrap_or_default();
    match c {
        C::UnknownIssuer | C::BadSignature => {
            let leaf = presented.as_ref().and_then(|p| p.chain.first());
            if let Some(said) = opts.history.stale_copy(&f.cas, leaf, &f.pool) {
                return said;
            }
            let needed = presented
                .as_ref()
                .and_then(|p| p.chain.last())
                .map(|c| c.issuer_with_key_id())
                .unwrap_or_else(|| "the server's CA".into());
            (
                format!(
                    "{said}: the server presents {chain_desc}; the pointer trusts only {}",
                    if trusted.is_empty() {
                        "(no CA)".into()
                    } else {
                        trusted.join(", ")
                    }
                ),
                format!(
                    "the pointer would need the CA {needed}: write it from the asset directory the server uses (`mcsctl pointer --pool {} --force`), or install the serving certificate signed by the pointer's CA (`mcsctl cert issue --force`)",
                    f.pool
                ),
            )
        }
        C::NotValidForName | C::NotValidForNameContext { .. } => {
            let sans = presented
                .as_ref()
                .and_then(|p| p.chain.first())
                .map(|c| c.sans().join(", "))
                .unwrap_or_default();
            (
                format!("the serving certificate does not cover {host} (its SANs: {sans})"),
                format!("add the name: `mcsctl cert issue --force --san {host}`"),
            )
        }
        C::Expired | C::ExpiredContext { .. } => (
            format!("the serving certificate has expired ({chain_desc})"),
            "renew it: `mcsctl cert renew`, and check the machine's clock".into(),
        ),
        C::NotValidYet | C::NotValidYetContext { .. } => (
            format!("the serving certificate is not valid yet ({chain_desc})"),
            "check the clocks of the machine and the server".into(),
        ),
        other => (
            format!("certificate rejected: {other:?} ({chain_desc})"),
            "inspect the server with `mcsctl inspect --remote HOST:PORT`".into(),
        ),
    }
}

/// The presented chain, one certificate after the other with its issuer.
fn describe(presented: Option<&remote::Presented>) -> String {
    presented
        .map(|p| {
            p.chain
                .iter()
                .map(|c| format!("{} issued by {}", c.subject, c.issuer_with_key_id()))
                .collect::<Vec<_>>()
                .join(" / ")
        })
        .unwrap_or_else(|| "(the chain could not be read)".into())
}
