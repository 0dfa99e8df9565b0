//! The approver's rules for a kubelet serving CSR: a node's first serving certificate is
//! vouched for by its Node object (and a Machine, when there is one); a renewal by the current
//! certificate, whose chain is verified as Go's x509 does; addresses beyond the node's by its
//! HostSubnet's egress addresses and CIDRs.

use std::net::IpAddr;

use super::*;

pub(super) fn serving(csr: &Csr, req: &CsrInfo, ctx: &Context) -> Verdict {
    let node = match requestor(csr, req) {
        Ok(node) => node,
        Err(pending) => return pending,
    };
    let n = Some(node);
    let mut errors = Vec::new();
    // S6: renewal against the certificate the kubelet presents now.
    let current = current_cert(node, ctx);
    if let Some(cert) = &current {
        match renewal(node, req, cert, ctx) {
            Ok(()) => {
                return v(
                    Decision::Approve,
                    "S6",
                    "renewal: same names as the serving certificate the node presents now",
                    n,
                );
            }
            Err(e) => errors.push(e),
        }
    }
    // S7: a machine (or inventory host) linked to the node.
    match machine_fallback(node, req, ctx) {
        Ok(m) => {
            let from = if m.inventory {
                "inventory host"
            } else {
                "machine"
            };
            return v(
                Decision::Approve,
                "S7",
                format!("every SAN is an address of {from} {}", display_name(m)),
                n,
            );
        }
        Err(e) => errors.push(e),
    }
    // S8: OpenShiftSDN egress addresses.
    if let Some(cert) = &current
        && ctx.network_type == "OpenShiftSDN"
    {
        match egress(node, req, cert, ctx) {
            Ok(()) => {
                return v(
                    Decision::Approve,
                    "S8",
                    "renewal with extra IPs that are the node's egress addresses",
                    n,
                );
            }
            Err(e) => errors.push(e),
        }
    }
    v(
        Decision::Pending,
        "S9",
        format!("exhausted all authorization methods: {}", errors.join("; ")),
        n,
    )
}

/// Who asks and for what (S1-S5): a node, in the node groups, for a serving certificate's
/// usages, naming itself with O=system:nodes. The node's name, or why the CSR stays pending.
fn requestor<'c>(csr: &'c Csr, req: &CsrInfo) -> Result<&'c str, Verdict> {
    let Some(node) = csr
        .username
        .strip_prefix(NODE_PREFIX)
        .filter(|n| !n.is_empty())
    else {
        return Err(v(
            Decision::Pending,
            "S1",
            "serving CSR whose requestor is not a node (system:node:<name>)",
            None,
        ));
    };
    let n = Some(node);
    let has = |g: &str| csr.groups.iter().any(|x| x == g);
    if csr.groups.len() < 2 || !has(NODE_GROUP) || !has("system:authenticated") {
        return Err(v(
            Decision::Pending,
            "S2",
            "requestor lacks the system:nodes and system:authenticated groups",
            n,
        ));
    }
    let uses = |u: &str| csr.usages.iter().any(|x| x == u);
    if !(2..=3).contains(&csr.usages.len()) || !uses("digital signature") || !uses("server auth") {
        return Err(v(
            Decision::Pending,
            "S3",
            "usages are not a kubelet serving set (digital signature, server auth[, key encipherment])",
            n,
        ));
    }
    if req.common_name != csr.username {
        return Err(v(
            Decision::Pending,
            "S4",
            format!(
                "CSR common name {:?} is not the requestor {:?}",
                req.common_name, csr.username
            ),
            n,
        ));
    }
    if !req.organizations.iter().any(|o| o == NODE_GROUP) {
        return Err(v(
            Decision::Pending,
            "S5",
            "CSR subject lacks O=system:nodes",
            n,
        ));
    }
    Ok(node)
}

/// The node's current serving certificate, when the kubelet CA exists, the Node exists with an
/// internal IP, and its certificate was obtained.
fn current_cert(node: &str, ctx: &Context) -> Option<CertInfo> {
    ctx.kubelet_ca.as_ref()?;
    let n = ctx.node(node)?;
    node_internal_ip(n).ok()?;
    let der = ctx.serving_certs.get(node)?;
    CertInfo::from_der(der).ok()
}

/// Chain to the kubelet CA at `now` with EKU serverAuth, then the CN checks.
fn verify_and_cn(node: &str, req: &CsrInfo, cert: &CertInfo, ctx: &Context) -> Result<(), String> {
    verify_chain(&cert.der, ctx.kubelet_ca.as_deref().unwrap_or(&[]), ctx.now)?;
    if cert.common_name != format!("{NODE_PREFIX}{node}") {
        return Err("current serving cert has bad common name".into());
    }
    if cert.common_name != req.common_name {
        return Err("current serving cert and CSR common name mismatch".into());
    }
    Ok(())
}

fn sorted<T: Ord + Clone>(v: &[T]) -> Vec<T> {
    let mut v = v.to_vec();
    v.sort();
    v
}

fn renewal(node: &str, req: &CsrInfo, cert: &CertInfo, ctx: &Context) -> Result<(), String> {
    verify_and_cn(node, req, cert, ctx)?;
    let ips = |v: &[IpAddr]| sorted(&v.iter().map(IpAddr::to_string).collect::<Vec<_>>());
    if sorted(&req.dns_names) != sorted(&cert.dns_names)
        || sorted(&req.emails) != sorted(&cert.emails)
        || ips(&req.ips) != ips(&cert.ip_addresses)
        || sorted(&req.uris) != sorted(&cert.uris)
    {
        return Err("CSR Subject Alternate Name values do not match current certificate".into());
    }
    Ok(())
}

fn machine_fallback<'a>(
    node: &str,
    req: &CsrInfo,
    ctx: &'a Context,
) -> Result<&'a Machine, String> {
    let m = ctx
        .linked_machine(node)
        .ok_or_else(|| "unable to find machine for node".to_string())?;
    let addr_of = |kinds: &[&str]| -> Vec<String> {
        m.addresses
            .iter()
            .filter(|a| kinds.contains(&a.kind.as_str()))
            .map(|a| a.address.clone())
            .collect()
    };
    let dns = addr_of(&["InternalDNS", "ExternalDNS", "Hostname"]);
    for d in req.dns_names.iter().filter(|d| !d.is_empty()) {
        if !dns
            .iter()
            .any(|a| a.strip_suffix('.').unwrap_or(a).eq_ignore_ascii_case(d))
        {
            return Err(format!("DNS name '{d}' not in machine names"));
        }
    }
    let ips = addr_of(&["InternalIP", "ExternalIP"]);
    for ip in &req.ips {
        if !ips.contains(&ip.to_string()) {
            return Err(format!("IP address '{ip}' not in machine addresses"));
        }
    }
    Ok(m)
}

fn egress(node: &str, req: &CsrInfo, cert: &CertInfo, ctx: &Context) -> Result<(), String> {
    verify_and_cn(node, req, cert, ctx)?;
    if sorted(&req.dns_names) != sorted(&cert.dns_names)
        || sorted(&req.emails) != sorted(&cert.emails)
        || sorted(&req.uris) != sorted(&cert.uris)
    {
        return Err("CSR Subject Alternate Name values do not match current certificate".into());
    }
    let hs = ctx
        .host_subnets
        .iter()
        .find(|h| h.name == node)
        .ok_or_else(|| format!("no HostSubnet for node {node}"))?;
    for ip in &req.ips {
        let s = ip.to_string();
        let ok = cert.ip_addresses.contains(ip)
            || hs.egress_ips.contains(&s)
            || hs.egress_cidrs.iter().any(|c| cidr_contains(c, *ip));
        if !ok {
            return Err("CSR Subject Alternate Names includes unknown IP addresses".into());
        }
    }
    Ok(())
}

/// Whether `ip` is in `cidr`, read as Go's `net.ParseCIDR` reads it (a malformed one holds
/// nothing).
fn cidr_contains(cidr: &str, ip: IpAddr) -> bool {
    crate::cidr::Cidr::parse_block(cidr).is_ok_and(|c| c.contains(ip))
}

/// x509 path validation of `leaf` to one of `roots` at `now`, for serverAuth, as Go's
/// `x509.Certificate.Verify` with default options does (no name check), in Go's words.
pub fn verify_chain(leaf: &[u8], roots: &[Vec<u8>], now: OffsetDateTime) -> Result<(), String> {
    use crate::pki::verify::{self, ChainError};
    let roots: Vec<&[u8]> = roots.iter().map(Vec::as_slice).collect();
    let at = now.unix_timestamp();
    verify::chain(&[leaf], &roots, at, None).map_err(|e| match e {
        ChainError::OutsideValidity => {
            "x509: certificate has expired or is not yet valid".to_string()
        }
        ChainError::UnknownIssuer | ChainError::NoAnchor => {
            "x509: certificate signed by unknown authority".to_string()
        }
        other => format!("x509: {other}"),
    })
}
