//! The serving certificate each node presents now, which a renewal (rule S6) is checked
//! against: from PEM files named after the nodes (`--serving-certs DIR`), or dialed from each
//! kubelet as the approver dials it (`--fetch-serving-certs`).

use std::collections::HashMap;
use std::path::PathBuf;

use anyhow::Result;

use super::{Context, Csr, NODE_PREFIX, SERVING_SIGNER, node_internal_ip};

/// The first certificate of each `<node>.pem` or `<node>.crt` file, by node name.
pub fn from_files(files: &[(PathBuf, Vec<u8>)]) -> Result<HashMap<String, Vec<u8>>> {
    let mut out = HashMap::new();
    for (p, bytes) in files {
        let Some(name) = p.file_name().and_then(|n| n.to_str()) else {
            continue;
        };
        let Some(node) = name
            .strip_suffix(".pem")
            .or_else(|| name.strip_suffix(".crt"))
        else {
            continue;
        };
        let certs = crate::pki::cert::parse_pem_certs(bytes, &p.display().to_string())?;
        out.insert(node.to_string(), certs[0].der.clone());
    }
    Ok(out)
}

/// Dials the kubelet of every node that asks for a serving certificate, as the approver does:
/// its first InternalIP, the kubelet port, bounded by `timeout`. A failure only means no
/// renewal for that node; each is returned with the node's name, for `-v`.
pub fn fetch(
    csrs: &[Csr],
    ctx: &Context,
    timeout: std::time::Duration,
) -> (HashMap<String, Vec<u8>>, Vec<String>) {
    let mut out = HashMap::new();
    let mut failed = Vec::new();
    for c in csrs.iter().filter(|c| c.signer == SERVING_SIGNER) {
        let Some(node) = c.username.strip_prefix(NODE_PREFIX) else {
            continue;
        };
        if out.contains_key(node) {
            continue;
        }
        let Some(n) = ctx.node(node) else {
            continue;
        };
        let Ok(ip) = node_internal_ip(n) else {
            continue;
        };
        let Ok(addr) = ip
            .parse()
            .map(|i| std::net::SocketAddr::new(i, n.kubelet_port))
        else {
            continue;
        };
        match crate::pki::remote::fetch_chain(&addr.to_string(), &ip, timeout) {
            Ok(p) => {
                out.insert(node.to_string(), p.chain[0].der.clone());
            }
            Err(e) => failed.push(format!(
                "node {node}: no current serving certificate from {addr}: {e:#}"
            )),
        }
    }
    (out, failed)
}
