//! Approval from evidence (`csr review --evidence`), the UPI stand-in for the Machine API: a
//! registered machine (`machine add`) whose token fetched its full config (the ledger) vouches
//! for its node as a Machine vouches for one on IPI.
//!
//! The approver's rules run unchanged on the evidence: each registered machine that fetched is
//! an inventory host named after its node, at its registered and fetch addresses, whose
//! window opens at its first fetch and lasts `window`. On top of them:
//! - E1: a client CSR for a node no machine is registered as stays pending;
//! - E2: so does one for a registered machine whose token never fetched the full config;
//! - E3: one created before that fetch, or more than `window` after it;
//! - E4: a second client CSR for a node, once one was approved (in the cluster or above it in
//!   this batch);
//! - E5: what is left is approved, naming the fetch that vouches for it.
//!
//! A serving CSR is the approver's (S1-S9) against the same hosts: its IP names must be among
//! the fetch addresses and the registered ones.

use std::net::IpAddr;

use time::OffsetDateTime;

use super::{Address, Context, Csr, Decision, Machine, NODE_PREFIX, Verdict, v};

/// One registered machine and what its token fetched.
#[derive(Debug, Clone)]
pub struct Registered {
    /// Its node name.
    pub name: String,
    /// Its registered addresses.
    pub addresses: Vec<IpAddr>,
    /// Each full-config fetch: when, from where.
    pub fetches: Vec<(OffsetDateTime, IpAddr)>,
}

/// The registered machines and how long after its first fetch a machine's client CSR may come.
#[derive(Debug, Clone)]
pub struct Evidence {
    /// The machines.
    pub machines: Vec<Registered>,
    /// The window after the first fetch.
    pub window: time::Duration,
}

impl Evidence {
    /// The hosts the approver's rules see: each machine that fetched.
    pub fn hosts(&self) -> Vec<Machine> {
        self.machines
            .iter()
            .filter_map(|m| {
                let first = m.fetches.first()?.0;
                let mut addresses = vec![Address {
                    kind: "InternalDNS".into(),
                    address: m.name.clone(),
                }];
                let ips = m.addresses.iter().chain(m.fetches.iter().map(|f| &f.1));
                for ip in ips {
                    if !addresses.iter().any(|a| a.address == ip.to_string()) {
                        addresses.push(Address {
                            kind: "InternalIP".into(),
                            address: ip.to_string(),
                        });
                    }
                }
                Some(Machine {
                    name: m.name.clone(),
                    created: Some(first),
                    window_end: Some(first + self.window),
                    addresses,
                    node_ref: None,
                    inventory: true,
                })
            })
            .collect()
    }
}

/// Reviews `csrs` with the evidence: the approver's rules on [`Evidence::hosts`] (which
/// replace `ctx.machines`), then the evidence rules on the client CSRs.
pub fn review(csrs: &[Csr], ctx: &Context, ev: &Evidence) -> (usize, usize, Vec<Verdict>) {
    let ctx = Context {
        machines: ev.hosts(),
        ..ctx.clone()
    };
    let (pending, limit, mut verdicts) = super::review(csrs, &ctx);
    let mut approved: Vec<(String, String)> = csrs
        .iter()
        .filter(|c| c.approved.is_some() && c.signer == super::CLIENT_SIGNER)
        .filter_map(|c| Some((node_of(c)?, c.name.clone())))
        .collect();
    for (c, verdict) in csrs.iter().zip(verdicts.iter_mut()) {
        if c.signer != super::CLIENT_SIGNER || verdict.decision == Decision::Ignore {
            continue;
        }
        let Some(node) = node_of(c) else { continue };
        if let Some(e) = judge(c, &node, verdict, ev, &approved) {
            *verdict = e;
        }
        if verdict.decision == Decision::Approve {
            approved.push((node, c.name.clone()));
        }
    }
    (pending, limit, verdicts)
}

/// The node a client CSR asks for, from its request's common name.
fn node_of(c: &Csr) -> Option<String> {
    let req = super::request::parse(&c.request).ok()?;
    let n = req.common_name.strip_prefix(NODE_PREFIX)?;
    (!n.is_empty()).then(|| n.to_string())
}

/// The evidence verdict on a client CSR the approver's rules judged `verdict`; `None` keeps it.
fn judge(
    c: &Csr,
    node: &str,
    verdict: &Verdict,
    ev: &Evidence,
    approved: &[(String, String)],
) -> Option<Verdict> {
    // Only the machine rules are the evidence's: the others (the bootstrapper's identity, a
    // node that exists, the flow disabled) keep the approver's verdict.
    if verdict.decision != Decision::Approve && !matches!(verdict.rule, "C4" | "C5" | "C6") {
        return None;
    }
    let n = Some(node);
    let Some(m) = ev.machines.iter().find(|m| m.name == node) else {
        return Some(v(
            Decision::Pending,
            "E1",
            format!(
                "node {node} is not a registered machine: nobody expects it (`mcsctl machine add {node} --pool POOL` registers it)"
            ),
            n,
        ));
    };
    let Some((first, from)) = m.fetches.first() else {
        return Some(v(
            Decision::Pending,
            "E2",
            format!(
                "machine {node} is registered but its token never fetched the full config: this CSR is not from the machine that booted with its pointer config"
            ),
            n,
        ));
    };
    let at = crate::pki::cert::rfc3339(first.unix_timestamp());
    if verdict.rule == "C6" && verdict.decision == Decision::Pending {
        return Some(v(
            Decision::Pending,
            "E3",
            format!(
                "created {}, not within {} after machine {node} fetched its config ({at} from {from})",
                c.created
                    .map_or("at an unknown time".into(), |t| crate::pki::cert::rfc3339(
                        t.unix_timestamp()
                    )),
                crate::duration::residual(ev.window.whole_seconds())
            ),
            n,
        ));
    }
    if verdict.decision != Decision::Approve {
        return None;
    }
    if let Some((_, first_csr)) = approved.iter().find(|(a, _)| a == node) {
        return Some(v(
            Decision::Pending,
            "E4",
            format!(
                "a client CSR for {node} was already approved ({first_csr}): one machine, one client certificate; a second one is suspect"
            ),
            n,
        ));
    }
    Some(v(
        Decision::Approve,
        "E5",
        format!("registered machine {node} fetched its config at {at} from {from}"),
        n,
    ))
}
