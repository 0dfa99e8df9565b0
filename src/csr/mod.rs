//! Kubelet CSR approval by the rules of openshift/cluster-machine-approver (rule ids of
//! `tests/fixtures/cluster-machine-approver/RULES.md`). Pure functions over data; the clock and
//! the nodes' current serving certificates are inputs, so every decision is reproducible.

pub mod current;
pub mod evidence;
mod index;
pub mod kube;
pub mod request;
mod serving;
pub mod sign;

use std::collections::HashMap;

use serde::Serialize;
use time::OffsetDateTime;

use request::CsrInfo;
pub use serving::verify_chain;

use crate::pki::cert::CertInfo;

/// Username prefix of nodes.
pub const NODE_PREFIX: &str = "system:node:";
/// Group of nodes.
pub const NODE_GROUP: &str = "system:nodes";
/// The node-bootstrapper service account that requests client certificates.
pub const BOOTSTRAPPER: &str =
    "system:serviceaccount:openshift-machine-config-operator:node-bootstrapper";
/// Its groups, exactly.
pub const BOOTSTRAPPER_GROUPS: [&str; 3] = [
    "system:serviceaccounts:openshift-machine-config-operator",
    "system:serviceaccounts",
    "system:authenticated",
];
/// Signer of kubelet client certificates.
pub const CLIENT_SIGNER: &str = "kubernetes.io/kube-apiserver-client-kubelet";
/// Signer of kubelet serving certificates.
pub const SERVING_SIGNER: &str = "kubernetes.io/kubelet-serving";
/// The message CMA writes on approval.
pub const APPROVED_MESSAGE: &str =
    "This CSR was approved by the Node CSR Approver (cluster-machine-approver)";

/// One CSR object.
#[derive(Debug, Clone)]
pub struct Csr {
    /// metadata.name.
    pub name: String,
    /// metadata.creationTimestamp; `None` = unset (Go's zero time).
    pub created: Option<OffsetDateTime>,
    /// spec.request (PEM text).
    pub request: Vec<u8>,
    /// spec.signerName.
    pub signer: String,
    /// spec.username.
    pub username: String,
    /// spec.groups.
    pub groups: Vec<String>,
    /// spec.usages.
    pub usages: Vec<String>,
    /// The Approved condition, if any.
    pub approved: Option<Approved>,
    /// A Denied or Failed condition: the CSR is final.
    pub denied: bool,
}

/// An Approved condition.
#[derive(Debug, Clone)]
pub struct Approved {
    /// lastTransitionTime.
    pub last_transition: Option<OffsetDateTime>,
    /// message.
    pub message: String,
}

/// An address of a Machine or Node.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Address {
    /// InternalIP, ExternalIP, InternalDNS, ExternalDNS, Hostname.
    pub kind: String,
    /// The value.
    pub address: String,
}

/// A Machine (Machine API) or an inventory host (UPI).
#[derive(Debug, Clone)]
pub struct Machine {
    /// Name.
    pub name: String,
    /// creationTimestamp (`None` = zero time). For inventory hosts: the window start.
    pub created: Option<OffsetDateTime>,
    /// End of an inventory host's provisioning window (Machine API: created + 2h).
    pub window_end: Option<OffsetDateTime>,
    /// status.addresses.
    pub addresses: Vec<Address>,
    /// status.nodeRef.name.
    pub node_ref: Option<String>,
    /// From the inventory file rather than the Machine API.
    pub inventory: bool,
}

/// A Node that exists.
#[derive(Debug, Clone)]
pub struct Node {
    /// Name.
    pub name: String,
    /// status.addresses.
    pub addresses: Vec<Address>,
    /// status.daemonEndpoints.kubeletEndpoint.Port.
    pub kubelet_port: u16,
    /// Its Ready condition is True.
    pub ready: bool,
}

/// An OpenShiftSDN HostSubnet (egress fallback, S8).
#[derive(Debug, Clone, Default)]
pub struct HostSubnet {
    /// Node name.
    pub name: String,
    /// Egress IPs.
    pub egress_ips: Vec<String>,
    /// Egress CIDRs.
    pub egress_cidrs: Vec<String>,
}

/// Everything besides the CSR that a decision reads.
#[derive(Debug, Clone)]
pub struct Context {
    /// The time the decisions are taken at.
    pub now: OffsetDateTime,
    /// Machines and inventory hosts.
    pub machines: Vec<Machine>,
    /// Nodes that exist.
    pub nodes: Vec<Node>,
    /// The kubelet CA bundle (DER certificates); `None` = no CA: renewal (S6) is skipped.
    pub kubelet_ca: Option<Vec<Vec<u8>>>,
    /// The serving certificate each node presents now (DER), by node name.
    pub serving_certs: HashMap<String, Vec<u8>>,
    /// networks.config.openshift.io/cluster status.networkType.
    pub network_type: String,
    /// HostSubnets by node name.
    pub host_subnets: Vec<HostSubnet>,
    /// nodeClientCert.disabled.
    pub client_approval_disabled: bool,
    /// Nodes by name and machines by InternalDNS ([`Context::node`],
    /// [`Context::machine_by_dns`]), made on first use.
    pub index: index::Index,
}

impl Context {
    /// Knowing nothing but the time.
    pub fn at(now: OffsetDateTime) -> Context {
        Context {
            now,
            machines: Vec::new(),
            nodes: Vec::new(),
            kubelet_ca: None,
            serving_certs: HashMap::new(),
            network_type: String::new(),
            host_subnets: Vec::new(),
            client_approval_disabled: false,
            index: Default::default(),
        }
    }
}

/// What to do with a CSR.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Decision {
    /// Approve it.
    Approve,
    /// Leave it pending.
    Pending,
    /// Not ours to decide (another signer, already approved or denied).
    Ignore,
}

impl Decision {
    /// The word used in tables.
    pub fn word(self) -> &'static str {
        match self {
            Decision::Approve => "approve",
            Decision::Pending => "pending",
            Decision::Ignore => "ignore",
        }
    }
}

/// A decision, the rule that made it, and why.
#[derive(Debug, Clone, Serialize)]
pub struct Verdict {
    /// The decision.
    pub decision: Decision,
    /// Rule id (F1, F2, L3, P1, C0..C6, S1..S9; E1..E5 with evidence).
    pub rule: &'static str,
    /// One sentence.
    pub reason: String,
    /// The node the CSR is for, when known.
    pub node: Option<String>,
}

fn v(
    decision: Decision,
    rule: &'static str,
    reason: impl Into<String>,
    node: Option<&str>,
) -> Verdict {
    Verdict {
        decision,
        rule,
        reason: reason.into(),
        node: node.map(str::to_string),
    }
}

const MAX_SKEW: i64 = 10;
const MAX_MACHINE_DELTA: i64 = 2 * 3600;
const MAX_PENDING_DELTA: i64 = 3600;
const MAX_APPROVED_DELTA: i64 = 30;
const PENDING_HEADROOM: usize = 100;

/// Seconds since the Unix epoch, with Go's zero time for `None`.
fn secs(t: Option<OffsetDateTime>) -> i64 {
    t.map(|t| t.unix_timestamp()).unwrap_or(-62_135_596_800)
}

/// F1: the controller looks at CSRs that are not approved, or were approved moments ago by
/// someone other than the approver (those only count towards the pending limit).
fn passes_f1(csr: &Csr, now: OffsetDateTime) -> bool {
    if csr.denied {
        return false;
    }
    match &csr.approved {
        None => true,
        Some(a) => {
            let (now, t) = (now.unix_timestamp(), secs(a.last_transition));
            now - MAX_APPROVED_DELTA < t && t < now + MAX_SKEW && a.message != APPROVED_MESSAGE
        }
    }
}

/// F1 + F2: whether the controller looks at this CSR at all.
pub fn prefilter(csr: &Csr, now: OffsetDateTime) -> Result<(), Verdict> {
    if !passes_f1(csr, now) {
        let why = if csr.denied {
            "already denied or failed"
        } else {
            "already approved"
        };
        return Err(v(Decision::Ignore, "F1", why, None));
    }
    match csr.signer.as_str() {
        SERVING_SIGNER if !csr.groups.iter().any(|g| g == NODE_GROUP) => Err(v(
            Decision::Ignore,
            "F2",
            "kubelet-serving CSR from a requestor outside system:nodes",
            None,
        )),
        CLIENT_SIGNER if csr.username != BOOTSTRAPPER => Err(v(
            Decision::Ignore,
            "F2",
            "kubelet client CSR not from the node-bootstrapper",
            None,
        )),
        SERVING_SIGNER | CLIENT_SIGNER => Ok(()),
        other => Err(v(
            Decision::Ignore,
            "F2",
            format!("signer {other:?} is not a kubelet signer"),
            None,
        )),
    }
}

/// L1: the most pending CSRs the approver tolerates.
pub fn max_pending(machines: usize, nodes: usize) -> usize {
    machines.max(nodes) + PENDING_HEADROOM
}

/// L2: CSRs that count as recently pending.
pub fn recently_pending(csrs: &[Csr], now: OffsetDateTime) -> usize {
    let n = now.unix_timestamp();
    csrs.iter()
        .filter(|c| c.signer == SERVING_SIGNER || c.signer == CLIENT_SIGNER)
        .filter(|c| {
            let t = secs(c.created);
            n - MAX_PENDING_DELTA < t && t < n + MAX_SKEW
        })
        .filter(|c| prefilter(c, now).is_ok())
        .count()
}

/// The first InternalIP of a node (S6).
pub fn node_internal_ip(node: &Node) -> Result<String, String> {
    node.addresses
        .iter()
        .find(|a| a.kind == "InternalIP")
        .map(|a| a.address.clone())
        .ok_or_else(|| format!("node {} has no internal addresses", node.name))
}

/// Decides every CSR of a batch, applying the pending limit (L1-L3) first.
pub fn review(csrs: &[Csr], ctx: &Context) -> (usize, usize, Vec<Verdict>) {
    let limit = max_pending(ctx.machines.len(), ctx.nodes.len());
    let pending = recently_pending(csrs, ctx.now);
    let verdicts = csrs
        .iter()
        .map(|c| match prefilter(c, ctx.now) {
            Err(v) => v,
            Ok(()) if pending > limit => v(
                Decision::Pending,
                "L3",
                format!("{pending} recently pending CSRs exceed the limit of {limit}: nothing is approved"),
                None,
            ),
            Ok(()) if c.approved.is_some() => v(Decision::Ignore, "F1", "approved moments ago by someone else", None),
            Ok(()) => decide(c, ctx),
        })
        .collect();
    (pending, limit, verdicts)
}

/// Decides one CSR that passed the pre-filter.
pub fn decide(csr: &Csr, ctx: &Context) -> Verdict {
    let req = match request::parse(&csr.request) {
        Ok(r) => r,
        Err(e) => return v(Decision::Pending, "P1", e, None),
    };
    if is_client_cert(&req, &csr.usages) {
        client(csr, &req, ctx)
    } else {
        serving::serving(csr, &req, ctx)
    }
}

fn usage_set_matches(usages: &[String], set: &[&str]) -> bool {
    usages.len() == set.len() && usages.iter().all(|u| set.contains(&u.as_str()))
}

/// The one classifier of kubelet requests: the shape of a node's client certificate request
/// as the approver's `isNodeClientCert` sees it (D1): O=system:nodes alone, CN
/// system:node:<name>, no DNS, email or IP name. `csr review` and `csr sign` both use it.
pub fn client_shaped(req: &CsrInfo) -> bool {
    req.organizations == [NODE_GROUP]
        && req.dns_names.is_empty()
        && req.emails.is_empty()
        && req.ips.is_empty()
        && req.common_name.starts_with(NODE_PREFIX)
}

/// D1: a client-shaped request with a kubelet client's usages.
fn is_client_cert(req: &CsrInfo, usages: &[String]) -> bool {
    client_shaped(req)
        && (usage_set_matches(
            usages,
            &["key encipherment", "digital signature", "client auth"],
        ) || usage_set_matches(usages, &["digital signature", "client auth"]))
}

fn client(csr: &Csr, req: &CsrInfo, ctx: &Context) -> Verdict {
    let node = req.common_name.strip_prefix(NODE_PREFIX).unwrap_or("");
    let node_opt = (!node.is_empty()).then_some(node);
    if ctx.client_approval_disabled {
        return v(
            Decision::Pending,
            "C0",
            format!(
                "CSR {} for node client cert rejected as the flow is disabled",
                csr.name
            ),
            node_opt,
        );
    }
    let mut groups: Vec<&str> = csr.groups.iter().map(String::as_str).collect();
    groups.sort_unstable();
    groups.dedup();
    let mut want = BOOTSTRAPPER_GROUPS.to_vec();
    want.sort_unstable();
    if csr.username != BOOTSTRAPPER || groups != want {
        return v(
            Decision::Pending,
            "C1",
            "client CSR not from the node-bootstrapper with exactly its groups",
            node_opt,
        );
    }
    let Some(node) = node_opt else {
        return v(
            Decision::Pending,
            "C2",
            "empty node name in the CSR's common name",
            None,
        );
    };
    if ctx.node(node).is_some() {
        return v(
            Decision::Pending,
            "C3",
            format!("node {node} already exists: a client CSR is only for a new node"),
            Some(node),
        );
    }
    let machine = ctx.machine_by_dns(node);
    let Some(m) = machine else {
        return v(
            Decision::Pending,
            "C4",
            format!("failed to find machine for node {node}"),
            Some(node),
        );
    };
    if !m.inventory && m.node_ref.is_some() {
        return v(
            Decision::Pending,
            "C5",
            format!("machine {} already has a node", m.name),
            Some(node),
        );
    }
    if let Some(why) = outside_window(csr, m) {
        return v(Decision::Pending, "C6", why, Some(node));
    }
    let from = if m.inventory {
        "inventory host"
    } else {
        "machine"
    };
    v(
        Decision::Approve,
        "C6",
        format!("new node matches {from} {} by InternalDNS", display_name(m)),
        Some(node),
    )
}

/// Why the CSR was not created within the machine's window (the approver's C6): within 2 h
/// of the Machine, or within an inventory host's provisioning window.
fn outside_window(csr: &Csr, m: &Machine) -> Option<String> {
    let c = secs(csr.created);
    if m.inventory {
        if let (Some(start), end) = (m.created, m.window_end) {
            let s = start.unix_timestamp();
            let e = end.map_or(s + MAX_MACHINE_DELTA, |e| e.unix_timestamp());
            if !(s - MAX_SKEW < c && c < e) {
                return Some(format!(
                    "CSR created outside host {}'s provisioning window",
                    m.name
                ));
            }
        }
    } else {
        let mc = secs(m.created);
        if !(mc - MAX_SKEW < c && c < mc + MAX_MACHINE_DELTA) {
            return Some(format!(
                "CSR created more than 2h after (or before) machine {}",
                m.name
            ));
        }
    }
    None
}

fn display_name(m: &Machine) -> String {
    if m.name.is_empty() {
        "(unnamed)".into()
    } else {
        m.name.clone()
    }
}
