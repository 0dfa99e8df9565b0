//! Reading `oc get csr|machines|nodes -o json` (or YAML; a List, one object or several
//! documents) and the UPI inventory file into the approval rules' types.

use anyhow::{Context as _, Result, anyhow, bail};
use base64::Engine;
use serde::Deserialize;
use serde_json::Value;

use super::{Address, Approved, Csr, HostSubnet, Machine, Node};
pub use crate::kube::{objects, timestamp};

fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .into_iter()
        .flatten()
        .filter_map(|x| x.as_str().map(str::to_string))
        .collect()
}

fn addresses(v: &Value) -> Vec<Address> {
    v.as_array()
        .into_iter()
        .flatten()
        .filter_map(|a| {
            Some(Address {
                kind: a["type"].as_str()?.to_string(),
                address: a["address"].as_str()?.to_string(),
            })
        })
        .collect()
}

/// What the approver knows besides the CSRs, as `cmd` read it: each input's text (or bytes)
/// and name.
#[derive(Debug, Default)]
pub struct ContextInputs {
    /// `oc get machines -o json`.
    pub machines: Option<(String, String)>,
    /// An inventory of hosts (for UPI, instead of Machines).
    pub inventory: Option<(String, String)>,
    /// `oc get nodes -o json`.
    pub nodes: Option<(String, String)>,
    /// `oc get hostsubnets -o json`.
    pub host_subnets: Option<(String, String)>,
    /// The approver's configuration.
    pub approver_config: Option<(String, String)>,
    /// The kubelet CA bundle.
    pub kubelet_ca: Option<(Vec<u8>, String)>,
    /// The serving certificates nodes present now, one file per node.
    pub serving_certs: Vec<(std::path::PathBuf, Vec<u8>)>,
    /// networks.config.openshift.io/cluster status.networkType.
    pub network_type: String,
}

/// The approver's context from what `cmd` read.
pub fn context(i: ContextInputs, now: time::OffsetDateTime) -> Result<super::Context> {
    let mut ctx = super::Context {
        now,
        network_type: i.network_type,
        ..super::Context::at(now)
    };
    if let Some((t, n)) = &i.machines {
        ctx.machines.extend(machines(t, n)?);
    }
    if let Some((t, n)) = &i.inventory {
        ctx.machines.extend(inventory(t, n)?);
    }
    if let Some((t, n)) = &i.nodes {
        ctx.nodes = nodes(t, n)?;
    }
    if let Some((t, n)) = &i.host_subnets {
        ctx.host_subnets = host_subnets(t, n)?;
    }
    if let Some((t, n)) = &i.approver_config {
        ctx.client_approval_disabled = client_approval_disabled(t, n)?;
    }
    if let Some((b, n)) = &i.kubelet_ca {
        ctx.kubelet_ca = kubelet_ca(b, n)?;
    }
    ctx.serving_certs = super::current::from_files(&i.serving_certs)?;
    Ok(ctx)
}

/// The approver's `nodeClientCert.disabled` from its configuration (YAML or JSON).
fn client_approval_disabled(text: &str, what: &str) -> Result<bool> {
    let v = crate::kube::yaml::documents(text, what)?
        .into_iter()
        .next()
        .map(|d| d.value)
        .unwrap_or_default();
    Ok(v["nodeClientCert"]["disabled"].as_bool().unwrap_or(false))
}

/// The kubelet CA bundle (DER certificates); an empty bundle gives no CA pool, as in the
/// controller, so renewal is skipped.
fn kubelet_ca(bytes: &[u8], what: &str) -> Result<Option<Vec<Vec<u8>>>> {
    if String::from_utf8_lossy(bytes).trim().is_empty() {
        return Ok(None);
    }
    let certs = crate::pki::load::certs(bytes, what)?;
    Ok(Some(certs.into_iter().map(|c| c.der).collect()))
}

/// The CertificateSigningRequests of an input's bytes (`oc get csr -o json`). Only input that
/// does not read as such is looked at more closely (a PEM or DER request, a key, is named): a
/// List of thousands is parsed once.
pub fn csrs_of(bytes: &[u8], name: &str) -> Result<Vec<Csr>> {
    use crate::pki::kind::{self, Kind};
    std::str::from_utf8(bytes)
        .map_err(|_| anyhow!("{name} is not UTF-8 text: expected `oc get csr -o json` output"))
        .and_then(|text| csrs(text, name))
        .map_err(|e| match kind::of(bytes) {
            k @ (Kind::Pem(_)
            | Kind::DerRequest
            | Kind::DerCertificate
            | Kind::DerPrivateKey
            | Kind::Pkcs12) => anyhow!(
                "{name} holds {}, not CertificateSigningRequest objects: `oc get csr -o json > csrs.json` gives what review reads (`mcsctl csr sign --csr {name}` signs a single PEM request)",
                k.describe()
            ),
            _ => e,
        })
}

/// CertificateSigningRequest objects.
pub fn csrs(text: &str, what: &str) -> Result<Vec<Csr>> {
    of_kind(
        objects(text, what)?,
        "CertificateSigningRequest",
        what,
        "--csrs",
    )?
    .into_iter()
    .map(|o| {
        let name = o["metadata"]["name"].as_str().unwrap_or("").to_string();
        let req_b64 = o["spec"]["request"]
            .as_str()
            .ok_or_else(|| anyhow!("{what}: CSR {name:?} has no spec.request"))?;
        let request = base64::engine::general_purpose::STANDARD
            .decode(req_b64.trim())
            .map_err(|_| anyhow!("{what}: CSR {name:?}: spec.request is not base64"))?;
        let conds = o["status"]["conditions"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        let approved = conds
            .iter()
            .find(|c| c["type"] == "Approved" && c["status"].as_str().is_none_or(|s| s == "True"))
            .map(|c| -> Result<Approved> {
                Ok(Approved {
                    last_transition: timestamp(&c["lastTransitionTime"])?,
                    message: c["message"].as_str().unwrap_or("").to_string(),
                })
            })
            .transpose()?;
        let denied = conds
            .iter()
            .any(|c| c["type"] == "Denied" || c["type"] == "Failed");
        Ok(Csr {
            created: timestamp(&o["metadata"]["creationTimestamp"])
                .with_context(|| format!("{what}: CSR {name}"))?,
            name,
            request,
            signer: o["spec"]["signerName"].as_str().unwrap_or("").to_string(),
            username: o["spec"]["username"].as_str().unwrap_or("").to_string(),
            groups: strings(&o["spec"]["groups"]),
            usages: strings(&o["spec"]["usages"]),
            approved,
            denied,
        })
    })
    .collect()
}

/// Machine API Machines.
pub fn machines(text: &str, what: &str) -> Result<Vec<Machine>> {
    of_kind(objects(text, what)?, "Machine", what, "--machines")?
        .into_iter()
        .map(|o| {
            let name = o["metadata"]["name"].as_str().unwrap_or("").to_string();
            Ok(Machine {
                created: timestamp(&o["metadata"]["creationTimestamp"])
                    .with_context(|| format!("{what}: machine {name}"))?,
                window_end: None,
                addresses: addresses(&o["status"]["addresses"]),
                node_ref: o["status"]["nodeRef"]["name"].as_str().map(str::to_string),
                inventory: false,
                name,
            })
        })
        .collect()
}

/// Every object must be of `kind` (an object without a kind is taken as one): a file given
/// for the wrong flag is an error naming both, never silently empty. Each name must be one the
/// API server accepts (a DNS subdomain): names go into tables, hints and `--approve-names`
/// lines, and one with a line break or a space could forge what follows it.
fn of_kind(objs: Vec<Value>, kind: &str, what: &str, flag: &str) -> Result<Vec<Value>> {
    if let Some(other) = objs
        .iter()
        .filter_map(|o| o["kind"].as_str())
        .find(|k| *k != kind)
    {
        bail!("{what} holds {other} objects, not {kind}; {flag} takes `oc get` output of {kind}s");
    }
    for (i, o) in objs.iter().enumerate() {
        // Empty is unset (the approver's own tests leave names out); it forges nothing.
        if let Some(name) = o["metadata"]["name"].as_str()
            && !name.is_empty()
            && !crate::names::is_dns_name(name)
        {
            bail!(
                "{what}: {kind} {} is named {name:?}, which no API server accepts (a name is a DNS subdomain): the file is not `oc get` output",
                i + 1
            );
        }
    }
    Ok(objs)
}

/// Nodes.
pub fn nodes(text: &str, what: &str) -> Result<Vec<Node>> {
    Ok(of_kind(objects(text, what)?, "Node", what, "--nodes")?
        .into_iter()
        .map(|o| Node {
            name: o["metadata"]["name"].as_str().unwrap_or("").to_string(),
            addresses: addresses(&o["status"]["addresses"]),
            kubelet_port: o["status"]["daemonEndpoints"]["kubeletEndpoint"]["Port"]
                .as_u64()
                .unwrap_or(10250) as u16,
            ready: o["status"]["conditions"]
                .as_array()
                .into_iter()
                .flatten()
                .any(|c| c["type"] == "Ready" && c["status"] == "True"),
        })
        .collect())
}

/// OpenShiftSDN HostSubnets (`oc get hostsubnets -o json`).
pub fn host_subnets(text: &str, what: &str) -> Result<Vec<HostSubnet>> {
    Ok(
        of_kind(objects(text, what)?, "HostSubnet", what, "--host-subnets")?
            .into_iter()
            .map(|o| HostSubnet {
                name: o["metadata"]["name"]
                    .as_str()
                    .or(o["host"].as_str())
                    .unwrap_or("")
                    .to_string(),
                egress_ips: strings(&o["egressIPs"]),
                egress_cidrs: strings(&o["egressCIDRs"]),
            })
            .collect(),
    )
}

/// The UPI inventory: the hosts an admin expects to join.
///
/// ```yaml
/// hosts:
///   - name: worker-0.demo.example.com   # the node name (kubelet hostname)
///     role: worker
///     addresses: [192.0.2.20]            # IPs the kubelet may put in its serving certificate
///     dnsNames: [worker-0.demo.example.com, worker-0]
///     provisioningWindow:                # optional: when its client CSR may arrive
///       start: 2026-11-21T08:00:00Z
///       end: 2026-11-21T12:00:00Z        # default: start + 2h
/// ```
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Inventory {
    hosts: Vec<Host>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct Host {
    name: String,
    #[serde(default)]
    role: Option<String>,
    #[serde(default)]
    addresses: Vec<String>,
    #[serde(default)]
    dns_names: Vec<String>,
    #[serde(default)]
    provisioning_window: Option<Window>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Window {
    start: String,
    #[serde(default)]
    end: Option<String>,
}

/// Reads an inventory file into machines the rules treat like Machine API objects: the name
/// is an InternalDNS and Hostname address, `addresses` are InternalIPs, `dnsNames` InternalDNS.
pub fn inventory(text: &str, what: &str) -> Result<Vec<Machine>> {
    let doc = crate::kube::yaml::documents(text, what)?
        .into_iter()
        .next()
        .map(|d| d.value)
        .unwrap_or(serde_json::Value::Null);
    let inv: Inventory =
        serde_json::from_value(doc).map_err(|e| anyhow!("{what} is not a valid inventory: {e}"))?;
    inv.hosts
        .into_iter()
        .map(|h| {
            if !crate::names::is_dns_name(&h.name.to_ascii_lowercase()) {
                bail!("{what}: host name {:?} is not a DNS name", h.name);
            }
            let mut addrs = vec![
                Address {
                    kind: "InternalDNS".into(),
                    address: h.name.clone(),
                },
                Address {
                    kind: "Hostname".into(),
                    address: h.name.clone(),
                },
            ];
            for ip in &h.addresses {
                ip.parse::<std::net::IpAddr>()
                    .map_err(|_| anyhow!("{what}: host {}: {ip:?} is not an IP address", h.name))?;
                addrs.push(Address {
                    kind: "InternalIP".into(),
                    address: ip.clone(),
                });
            }
            for d in &h.dns_names {
                addrs.push(Address {
                    kind: "InternalDNS".into(),
                    address: d.clone(),
                });
            }
            let parse = |s: &str| {
                timestamp(&Value::String(s.to_string()))
                    .with_context(|| format!("{what}: host {}", h.name))
            };
            let (created, window_end) = match &h.provisioning_window {
                Some(w) => (
                    parse(&w.start)?,
                    w.end.as_deref().map(parse).transpose()?.flatten(),
                ),
                None => (None, None),
            };
            if let Some(r) = &h.role
                && !crate::names::is_dns_label(r)
            {
                bail!(
                    "{what}: host {}: role {r:?} is not a pool name (e.g. master, worker)",
                    h.name
                );
            }
            Ok(Machine {
                name: h.name,
                created,
                window_end,
                addresses: addrs,
                node_ref: None,
                inventory: true,
            })
        })
        .collect()
}
