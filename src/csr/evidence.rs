//! Approval from evidence (`csr review --evidence`), the UPI stand-in for the Machine API: a
//! registered machine (`machine add`) whose token fetched its full config whole (the ledger)
//! vouches for its node as a Machine vouches for one on IPI.
//!
//! The approver's rules run unchanged on the evidence: each registered machine that fetched is
//! an inventory host named after its node, at its registered and fetch addresses, whose
//! window opens at its first whole fetch (less the clock-skew tolerance) and lasts `window`
//! (plus the tolerance). On top of them:
//! - E1: a client CSR for a node no machine is registered as stays pending;
//! - E2: so does one for a registered machine whose token never fetched the full config whole
//!   (a fetch cut off before its end proves nothing: a thief can abort one);
//! - E3: one created before that fetch, or more than `window` after it, beyond the tolerance;
//! - E4: one for a node that has a client CSR approved since its fetch;
//! - E6: every one for a node that has more than one client CSR since its fetch, whatever their
//!   order or names: each full config carries the node-bootstrapper's credentials, so a second
//!   CSR may be a rogue's, and no rule can tell which is the machine's;
//! - E5: what is left is approved, naming the fetch that vouches for it.
//!
//! Times in the ledger are serve's clock; a CSR's creation time is the API server's. When the
//! CSRs' own times say the two disagree (a node's CSR made long before its fetch, or hours
//! after it), [`clock_warnings`] says so.
//!
//! A serving CSR is the approver's (S1-S9) against the same hosts: its IP names must be among
//! the fetch addresses and the registered ones.

use std::collections::HashMap;
use std::net::IpAddr;

use time::{Duration, OffsetDateTime};

use super::{
    Address, BOOTSTRAPPER, CLIENT_SIGNER, Context, Csr, Decision, Machine, NODE_PREFIX, Verdict, v,
};

/// One registered machine and what its token fetched.
#[derive(Debug, Clone)]
pub struct Registered {
    /// Its node name.
    pub name: String,
    /// Its registered addresses.
    pub addresses: Vec<IpAddr>,
    /// Each full-config fetch that went out whole: when (serve's clock), from where.
    pub fetches: Vec<(OffsetDateTime, IpAddr)>,
    /// Fetches cut off before their end (no evidence).
    pub cut: usize,
}

/// The registered machines, how long after its first fetch a machine's client CSR may come,
/// and how far serve's clock and the API server's may disagree.
#[derive(Debug, Clone)]
pub struct Evidence {
    /// The machines.
    pub machines: Vec<Registered>,
    /// The window after the first whole fetch.
    pub window: Duration,
    /// The clock-skew tolerance on either side of the window.
    pub skew: Duration,
}

impl Evidence {
    /// The hosts the approver's rules see: each machine that fetched whole.
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
                    created: Some(first.saturating_sub(self.skew)),
                    window_end: Some(first.saturating_add(self.window).saturating_add(self.skew)),
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
    let by_node = by_node(csrs);
    // The first registered machine of each name, as a scan finds it.
    let mut machines: HashMap<&str, &Registered> = HashMap::with_capacity(ev.machines.len());
    for m in &ev.machines {
        machines.entry(m.name.as_str()).or_insert(m);
    }
    for (c, verdict) in csrs.iter().zip(verdicts.iter_mut()) {
        if c.signer != CLIENT_SIGNER || verdict.decision == Decision::Ignore {
            continue;
        }
        let Some(node) = node_of(c) else { continue };
        let others = by_node.get(&node).map_or(&[][..], Vec::as_slice);
        let machine = machines.get(node.as_str()).copied();
        if let Some(e) = judge(c, &node, verdict, ev, machine, others) {
            *verdict = e;
        }
    }
    (pending, limit, verdicts)
}

/// The client CSRs the node-bootstrapper made, by the node they ask for: each request parsed
/// once, however many CSRs and machines there are.
fn by_node(csrs: &[Csr]) -> HashMap<String, Vec<&Csr>> {
    let mut out: HashMap<String, Vec<&Csr>> = HashMap::new();
    for c in csrs {
        if c.signer == CLIENT_SIGNER
            && c.username == BOOTSTRAPPER
            && let Some(node) = node_of(c)
        {
            out.entry(node).or_default().push(c);
        }
    }
    out
}

/// The node a client CSR asks for, from its request's common name.
fn node_of(c: &Csr) -> Option<String> {
    let req = super::request::parse(&c.request).ok()?;
    let n = req.common_name.strip_prefix(NODE_PREFIX)?;
    (!n.is_empty()).then(|| n.to_string())
}

/// Of a node's bootstrapper client CSRs (`of_node`), those made since `since` and not denied:
/// those a rogue holding the bootstrap credentials could have made too.
fn since<'c>(of_node: &[&'c Csr], since: OffsetDateTime) -> Vec<&'c Csr> {
    of_node
        .iter()
        .filter(|c| !c.denied && c.created.is_some_and(|t| t >= since))
        .copied()
        .collect()
}

fn rfc3339(t: OffsetDateTime) -> String {
    crate::pki::cert::rfc3339(t.unix_timestamp())
}

/// The evidence verdict on a client CSR the approver's rules judged `verdict`; `None` keeps it.
/// `others`: the bootstrapper's client CSRs for `node` ([`by_node`]), this one among them.
fn judge(
    c: &Csr,
    node: &str,
    verdict: &Verdict,
    ev: &Evidence,
    machine: Option<&Registered>,
    others: &[&Csr],
) -> Option<Verdict> {
    // Only the machine rules are the evidence's: the others (the bootstrapper's identity, a
    // node that exists, the flow disabled) keep the approver's verdict.
    if verdict.decision != Decision::Approve && !matches!(verdict.rule, "C4" | "C5" | "C6") {
        return None;
    }
    let n = Some(node);
    let Some(m) = machine else {
        return Some(v(
            Decision::Pending,
            "E1",
            format!(
                "node {node} is not a registered machine: nobody expects it (`mcsctl machine add {node} --pool POOL` registers it)"
            ),
            n,
        ));
    };
    let Some(&(first, from)) = m.fetches.first() else {
        let cut = if m.cut > 0 {
            format!(
                " ({} fetch(es) were cut off before their end, which proves nothing)",
                m.cut
            )
        } else {
            String::new()
        };
        return Some(v(
            Decision::Pending,
            "E2",
            format!(
                "machine {node} is registered but its token never fetched the full config whole{cut}: this CSR is not from the machine that booted with its pointer config"
            ),
            n,
        ));
    };
    let at = rfc3339(first);
    if verdict.rule == "C6" && verdict.decision == Decision::Pending {
        return Some(v(
            Decision::Pending,
            "E3",
            format!(
                "created {}, not within {} after machine {node} fetched its config ({at} from {from}), give or take the clock-skew tolerance of {}",
                c.created.map_or("at an unknown time".into(), rfc3339),
                crate::duration::residual(ev.window.whole_seconds()),
                crate::duration::residual(ev.skew.whole_seconds())
            ),
            n,
        ));
    }
    if verdict.decision != Decision::Approve {
        return None;
    }
    crowded(c, node, ev, others, first).or_else(|| {
        Some(v(
            Decision::Approve,
            "E5",
            format!("registered machine {node} fetched its config at {at} from {from}"),
            n,
        ))
    })
}

/// E4 and E6: another client CSR for `node` since its first whole fetch at `first`.
fn crowded(
    c: &Csr,
    node: &str,
    ev: &Evidence,
    others: &[&Csr],
    first: OffsetDateTime,
) -> Option<Verdict> {
    let all = since(others, first.saturating_sub(ev.skew));
    let n = Some(node);
    if let Some(done) = all
        .iter()
        .find(|o| o.approved.is_some() && o.name != c.name)
    {
        return Some(v(
            Decision::Pending,
            "E4",
            format!(
                "a client CSR for {node} was already approved since its fetch ({}): one machine, one client certificate; a second one is suspect",
                done.name
            ),
            n,
        ));
    }
    if all.len() < 2 {
        return None;
    }
    let names: Vec<&str> = all.iter().map(|o| o.name.as_str()).collect();
    Some(v(
        Decision::Pending,
        "E6",
        format!(
            "{} client CSRs for {node} since its fetch at {} ({}): one machine makes one, and every full config carries the bootstrap credentials a rogue could use, so none is approved; deny the ones the machine did not make (`oc adm certificate deny NAME`) and review again",
            all.len(),
            rfc3339(first),
            names.join(", ")
        ),
        n,
    ))
}

/// What the CSRs' creation times (the API server's clock) say of serve's clock (the ledger's
/// times): a registered machine's client CSRs all made well before its first whole fetch, or
/// only long after it, point at clocks that disagree by about that much. `now` is the
/// review's time: a fetch after it is a clock ahead too.
pub fn clock_warnings(csrs: &[Csr], ev: &Evidence, now: OffsetDateTime) -> Vec<String> {
    // Per kind: (machine, how far apart). Said per machine for a few, once for a fleet.
    let (mut ahead, mut before, mut after) = (Vec::new(), Vec::new(), Vec::new());
    let by_node = by_node(csrs);
    let apart = |a: OffsetDateTime, b: OffsetDateTime| {
        crate::duration::residual((a - b).whole_seconds().abs())
    };
    for m in &ev.machines {
        let Some(&(first, _)) = m.fetches.first() else {
            continue;
        };
        if first > now.saturating_add(ev.skew) {
            ahead.push((m.name.as_str(), rfc3339(first), apart(first, now)));
        }
        let times: Vec<OffsetDateTime> = by_node
            .get(&m.name)
            .into_iter()
            .flatten()
            .filter_map(|c| c.created)
            .collect();
        let (Some(&earliest), Some(&latest)) = (times.iter().min(), times.iter().max()) else {
            continue;
        };
        if latest < first.saturating_sub(ev.skew) {
            before.push((m.name.as_str(), String::new(), apart(first, latest)));
        } else if earliest > first.saturating_add(ev.window).saturating_add(ev.skew) {
            after.push((m.name.as_str(), String::new(), apart(earliest, first)));
        }
    }
    let skew = crate::duration::residual(ev.skew.whole_seconds());
    let mut out = Vec::new();
    said(
        &mut out,
        &ahead,
        |(m, at, by)| {
            format!(
                "machine {m}'s fetch is dated {at}, {by} after this review's time: serve's clock may be ahead (check both with `timedatectl`)"
            )
        },
        |n, some| {
            format!(
                "{n} machines' fetches are dated after this review's time ({some}): serve's clock may be ahead (check both with `timedatectl`)"
            )
        },
    );
    said(
        &mut out,
        &before,
        |(m, _, by)| {
            format!(
                "every client CSR for {m} was created before its fetch (the latest {by} before it, by the API server's clock against serve's): serve's clock may be ahead of the API server's by about that much, or the CSRs are not the machine's; check both clocks (`timedatectl`), and --clock-skew widens the tolerance ({skew} now)"
            )
        },
        |n, some| {
            format!(
                "for {n} machines every client CSR was created before the machine's fetch ({some}; by the API server's clock against serve's): serve's clock may be ahead of the API server's by about that much, or the CSRs are not the machines'; check both clocks (`timedatectl`), and --clock-skew widens the tolerance ({skew} now)"
            )
        },
    );
    said(
        &mut out,
        &after,
        |(m, _, by)| {
            format!(
                "the first client CSR for {m} came {by} after its fetch, longer than a boot takes: serve's clock may be behind the API server's; check both clocks (`timedatectl`)"
            )
        },
        |n, some| {
            format!(
                "for {n} machines the first client CSR came long after the fetch ({some}), longer than a boot takes: serve's clock may be behind the API server's; check both clocks (`timedatectl`)"
            )
        },
    );
    out
}

/// Machines whose clocks disagree in the same way: one line each for up to three, else one
/// line for all, naming three with how far apart (`w1: 2h, w3: 2h, w5: 2h and 497 more`).
type Apart<'a> = (&'a str, String, String);
fn said(
    out: &mut Vec<String>,
    found: &[Apart<'_>],
    one: impl Fn(&Apart<'_>) -> String,
    many: impl Fn(usize, String) -> String,
) {
    if found.len() <= 3 {
        out.extend(found.iter().map(one));
        return;
    }
    let named: Vec<String> = found[..3]
        .iter()
        .map(|(m, _, by)| format!("{m}: {by}"))
        .collect();
    let some = format!("{} and {} more", named.join(", "), found.len() - 3);
    out.push(many(found.len(), some));
}

#[cfg(test)]
mod tests {
    use super::said;

    #[test]
    fn a_few_machines_are_named_one_by_one_and_a_fleet_once() {
        let found = |n: usize| -> Vec<(&'static str, String, String)> {
            ["w0", "w1", "w2", "w3", "w4"][..n]
                .iter()
                .map(|m| (*m, String::new(), "2h".to_string()))
                .collect()
        };
        let run = |n: usize| {
            let mut out = Vec::new();
            said(
                &mut out,
                &found(n),
                |(m, _, by)| format!("{m} {by}"),
                |n, some| format!("{n}: {some}"),
            );
            out
        };
        assert_eq!(run(3), ["w0 2h", "w1 2h", "w2 2h"]);
        assert_eq!(run(5), ["5: w0: 2h, w1: 2h, w2: 2h and 2 more"]);
        assert!(run(0).is_empty());
    }
}
