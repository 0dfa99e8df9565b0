//! What `csr sign` may sign, decided before anything is signed. The MCS CA signs one thing, the
//! MCS's serving certificate, so the kubelet signer must be another CA, and one no pointer
//! config trusts: a certificate it issued could otherwise stand in for the MCS and receive a
//! machine's provisioning token. A request is signed as the cluster-machine-approver would
//! judge it (rule D1 picks client or serving; a client certificate names nothing, a serving
//! one names the node and its addresses only), and never for a name the MCS itself answers to.

use std::net::IpAddr;

use anyhow::{Result, anyhow, bail};
use base64::Engine;

use super::request::CsrInfo;
use super::{CLIENT_SIGNER, NODE_GROUP, NODE_PREFIX, SERVING_SIGNER};
use crate::names::San;
use crate::pki::cert::CertInfo;
use crate::pki::issue::KubeletUsage;
use crate::pki::kind::{self, Kind};

/// What a kubelet signer must not be, and the names a kubelet certificate must not carry.
#[derive(Debug, Default, Clone)]
pub struct Protected {
    /// CAs that machines trust for the MCS, with where each was found.
    pub cas: Vec<(String, CertInfo)>,
    /// Names the MCS answers to (its certificate's SANs, the recorded URL hosts).
    pub names: Vec<San>,
}

/// Refuses a signer that machines trust for the MCS (same public key as a CA of `protected`).
pub fn check_signer(signer: &CertInfo, protected: &Protected) -> Result<(), String> {
    match protected.cas.iter().find(|(_, ca)| ca.spki == signer.spki) {
        Some((place, _)) => Err(format!(
            "the signer is a CA that machines trust for the Machine Config Server ({place}): a certificate it signs could impersonate the MCS and receive provisioning tokens. Sign kubelet certificates with the cluster's kubelet signer (openshift-kube-controller-manager-operator's csr-signer), never the MCS CA"
        )),
        None => Ok(()),
    }
}

/// The usages of a request, from its CSR object when there is one (`spec.usages`,
/// `spec.signerName`), else from the request itself as rule D1 would classify it.
pub fn usage(
    info: &CsrInfo,
    usages: Option<&[String]>,
    signer_name: Option<&str>,
) -> Result<(KubeletUsage, Vec<String>), String> {
    // The approver's D1 shape; mcsctl signs no URI name into a client certificate either.
    let client_shape = super::client_shaped(info) && info.uris.is_empty();
    let usages: Vec<String> = match usages {
        Some(u) => u.to_vec(),
        None if client_shape => vec!["digital signature".into(), "client auth".into()],
        None => vec!["digital signature".into(), "server auth".into()],
    };
    let client = usages.iter().any(|u| u == "client auth");
    let server = usages.iter().any(|u| u == "server auth");
    let kind = match (client, server) {
        (true, true) => {
            return Err(
                "the usages ask for client auth and server auth: a kubelet certificate is one or the other"
                    .into(),
            );
        }
        (true, false) => KubeletUsage::Client,
        (false, true) => KubeletUsage::Serving,
        (false, false) => return Err("the usages name neither client auth nor server auth".into()),
    };
    match (signer_name, kind) {
        (None, _) | (Some(CLIENT_SIGNER), KubeletUsage::Client) => {}
        (Some(SERVING_SIGNER), KubeletUsage::Serving) => {}
        (Some(s @ (CLIENT_SIGNER | SERVING_SIGNER)), _) => {
            return Err(format!(
                "spec.signerName is {s} but the usages ask for {}",
                if kind == KubeletUsage::Client {
                    "client auth"
                } else {
                    "server auth"
                }
            ));
        }
        (Some(other), _) => {
            return Err(format!(
                "spec.signerName {other:?} is not a kubelet signer ({CLIENT_SIGNER} or {SERVING_SIGNER})"
            ));
        }
    }
    if kind == KubeletUsage::Client && !client_shape {
        return Err(format!(
            "a kubelet client certificate has exactly O={NODE_GROUP} and no subject alternative names (rule D1); this request has {}",
            describe(info)
        ));
    }
    Ok((kind, usages))
}

/// Checks a serving request's names: the node's name (from `CN=system:node:<name>`) and the
/// addresses the admin vouches for, nothing else; no wildcard, no unspecified address, no
/// e-mail or URI, and nothing the MCS answers to.
pub fn check_serving_names(
    info: &CsrInfo,
    addresses: &[San],
    protected: &Protected,
) -> Result<(), String> {
    let node = info.common_name.strip_prefix(NODE_PREFIX).unwrap_or("");
    if let Some(e) = info.emails.first() {
        return Err(format!(
            "the request names the e-mail address {e:?}; a kubelet serving certificate names the node only"
        ));
    }
    if let Some(u) = info.uris.first() {
        return Err(format!(
            "the request names the URI {u:?}; a kubelet serving certificate names the node only"
        ));
    }
    for d in &info.dns_names {
        let name = d.trim_end_matches('.');
        if name.contains('*') {
            return Err(format!("the request names the wildcard {d:?}"));
        }
        if mcs_answers_to(protected, &San::Dns(name.to_ascii_lowercase())) {
            return Err(format!(
                "the request names {d:?}, a name of the Machine Config Server: a certificate for it could impersonate the MCS"
            ));
        }
        let vouched = name.eq_ignore_ascii_case(node)
            || addresses.iter().any(
                |a| matches!(a, San::Dns(x) if x.trim_end_matches('.').eq_ignore_ascii_case(name)),
            );
        if !vouched {
            return Err(format!(
                "the request names {d:?}, which is neither the node name {node:?} nor an address given with --address"
            ));
        }
    }
    for ip in &info.ips {
        if ip.is_unspecified() {
            return Err(format!("the request names the unspecified address {ip}"));
        }
        if mcs_answers_to(protected, &San::Ip(*ip)) {
            return Err(format!(
                "the request names {ip}, an address of the Machine Config Server: a certificate for it could impersonate the MCS"
            ));
        }
        if !addresses.iter().any(|a| a == &San::Ip(*ip)) {
            return Err(format!(
                "the request names {ip}, which is not an address given with --address (the node's InternalIP or ExternalIP, as `oc get node {node} -o wide` shows)"
            ));
        }
    }
    Ok(())
}

fn mcs_answers_to(protected: &Protected, san: &San) -> bool {
    protected.names.iter().any(|n| match (n, san) {
        (San::Ip(a), San::Ip(b)) => a == b,
        (San::Dns(a), San::Dns(b)) => {
            let a = a.trim_end_matches('.').to_ascii_lowercase();
            match a.strip_prefix("*.") {
                // A wildcard of the MCS covers one more label.
                Some(base) => b
                    .split_once('.')
                    .is_some_and(|(_, rest)| rest.eq_ignore_ascii_case(base)),
                None => a.eq_ignore_ascii_case(b),
            }
        }
        _ => false,
    })
}

fn describe(info: &CsrInfo) -> String {
    let mut parts = vec![format!("O={}", info.organizations.join("+"))];
    let mut names: Vec<String> = info.dns_names.iter().map(|d| format!("DNS:{d}")).collect();
    names.extend(info.ips.iter().map(|i: &IpAddr| format!("IP:{i}")));
    names.extend(info.emails.iter().map(|e| format!("email:{e}")));
    names.extend(info.uris.iter().map(|u| format!("URI:{u}")));
    if !names.is_empty() {
        parts.push(names.join(", "));
    }
    parts.join(" and ")
}

/// A request to sign, from a PEM or DER request or a CertificateSigningRequest object: the
/// request as PEM, and the object's usages and signer (a bare request says nothing of its
/// purpose; an object does).
pub fn read_request(
    bytes: &[u8],
    name: &str,
) -> Result<(String, Option<Vec<String>>, Option<String>)> {
    let text = match kind::of(bytes) {
        // A request in DER (`openssl req -outform DER`) is the same request.
        Kind::DerRequest => crate::pki::to_pem("CERTIFICATE REQUEST", bytes),
        Kind::Kube(_) => String::from_utf8_lossy(bytes).into_owned(),
        Kind::Pem(labels) if labels.iter().any(|l| l.ends_with("CERTIFICATE REQUEST")) => {
            String::from_utf8_lossy(bytes).into_owned()
        }
        _ => bail!("{}", kind::mismatch(name, bytes, kind::Wanted::Request)),
    };
    // A bare request says nothing of its purpose; a CertificateSigningRequest object does.
    Ok(if text.contains("CERTIFICATE REQUEST-----") {
        (text.clone(), None, None)
    } else {
        let objs = crate::kube::objects(&text, name)?;
        let [o] = objs.as_slice() else {
            bail!(
                "{name}: expected one CertificateSigningRequest, found {}",
                objs.len()
            )
        };
        let b64 = o["spec"]["request"]
            .as_str()
            .ok_or_else(|| anyhow!("{name}: no spec.request"))?;
        let pem = base64::engine::general_purpose::STANDARD
            .decode(b64.trim())
            .map_err(|_| anyhow!("{name}: spec.request is not base64"))?;
        let usages: Vec<String> = o["spec"]["usages"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|u| u.as_str().map(String::from))
            .collect();
        (
            String::from_utf8(pem).map_err(|_| anyhow!("{name}: spec.request is not PEM text"))?,
            Some(usages),
            o["spec"]["signerName"].as_str().map(String::from),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn req(o: &[&str], dns: &[&str], ips: &[&str]) -> CsrInfo {
        CsrInfo {
            common_name: "system:node:worker-0".into(),
            organizations: o.iter().map(|s| s.to_string()).collect(),
            dns_names: dns.iter().map(|s| s.to_string()).collect(),
            emails: vec![],
            ips: ips.iter().map(|s| s.parse().unwrap()).collect(),
            uris: vec![],
            spki: vec![],
        }
    }

    fn protected() -> Protected {
        Protected {
            cas: vec![],
            names: vec![
                San::Dns("api-int.demo.example.com".into()),
                San::Dns("*.apps.demo.example.com".into()),
                San::Ip("192.0.2.10".parse().unwrap()),
            ],
        }
    }

    #[test]
    fn serving_names_are_the_node_and_vouched_addresses_only() {
        let p = protected();
        let addr = [San::Ip("192.0.2.20".parse().unwrap())];
        let ok = req(&[NODE_GROUP], &["worker-0"], &["192.0.2.20"]);
        assert_eq!(check_serving_names(&ok, &addr, &p), Ok(()));
        for (dns, ips, want) in [
            (
                vec!["api-int.demo.example.com"],
                vec![],
                "a name of the Machine Config Server",
            ),
            (
                vec!["API-INT.demo.example.com."],
                vec![],
                "a name of the Machine Config Server",
            ),
            (
                vec!["x.apps.demo.example.com"],
                vec![],
                "a name of the Machine Config Server",
            ),
            (vec!["*.demo.example.com"], vec![], "wildcard"),
            (vec!["worker-1"], vec![], "neither the node name"),
            (vec![], vec!["0.0.0.0"], "unspecified"),
            (vec![], vec!["::"], "unspecified"),
            (
                vec![],
                vec!["192.0.2.10"],
                "an address of the Machine Config Server",
            ),
            (
                vec![],
                vec!["127.0.0.1"],
                "not an address given with --address",
            ),
        ] {
            let r = req(&[NODE_GROUP], &dns, &ips);
            let e = check_serving_names(&r, &addr, &p).unwrap_err();
            assert!(e.contains(want), "{dns:?} {ips:?}: {e}");
        }
    }

    #[test]
    fn the_usage_follows_rule_d1_and_the_signer_name() {
        let client = req(&[NODE_GROUP], &[], &[]);
        assert_eq!(usage(&client, None, None).unwrap().0, KubeletUsage::Client);
        let serving = req(&[NODE_GROUP], &["worker-0"], &[]);
        assert_eq!(
            usage(&serving, None, None).unwrap().0,
            KubeletUsage::Serving
        );
        let both = ["client auth".to_string(), "server auth".to_string()];
        assert!(usage(&client, Some(&both), None).is_err());
        // Client usages on a request that names something: not a client certificate.
        let c = ["digital signature".to_string(), "client auth".to_string()];
        let e = usage(&serving, Some(&c), None).unwrap_err();
        assert!(e.contains("rule D1") && e.contains("DNS:worker-0"), "{e}");
        let e = usage(&client, Some(&c), Some(SERVING_SIGNER)).unwrap_err();
        assert!(e.contains("signerName"), "{e}");
        assert!(usage(&client, Some(&c), Some("example.com/other")).is_err());
    }
}
