//! A registered machine's way from its first fetch to a Ready node (`machine list` with
//! `--csrs` and `--nodes`): each step seen or not, and for a machine that stopped on the way,
//! what to look at next.

use serde::Serialize;
use time::OffsetDateTime;

use crate::csr::{CLIENT_SIGNER, Csr, NODE_PREFIX, Node, SERVING_SIGNER};
use crate::ledger::Record;

/// One step of the trail.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Step {
    /// `fetched`, `client-csr`, `serving-csr` or `ready`.
    pub step: &'static str,
    /// What was seen (a CSR's name and state, a fetch's time and address).
    pub seen: String,
}

/// The trail of one machine.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Trail {
    /// The steps seen, in order.
    pub steps: Vec<Step>,
    /// For a machine that stopped on the way, what to do or check next; none once Ready.
    pub next: Option<String>,
}

/// What the cluster says of the machines: the CSRs and Nodes given, if any.
pub struct Cluster<'a> {
    /// `oc get csr -o json`, when given.
    pub csrs: Option<&'a [Csr]>,
    /// `oc get nodes -o json`, when given.
    pub nodes: Option<&'a [Node]>,
}

/// The trail of machine `name` from its `fetches` and what `cluster` holds, at `now`.
pub fn trail(name: &str, fetches: &[Record], cluster: &Cluster<'_>, now: OffsetDateTime) -> Trail {
    let mut steps = Vec::new();
    let Some(last) = fetches.iter().rev().find(|f| f.whole) else {
        return Trail {
            steps,
            next: Some(not_fetched(name, fetches)),
        };
    };
    steps.push(Step {
        step: "fetched",
        seen: format!("{} from {} (spec {})", last.time, last.client, last.spec),
    });
    let ago = crate::duration::residual(
        (now - parse(&last.time).unwrap_or(now))
            .whole_seconds()
            .max(0),
    );
    let Some(csrs) = cluster.csrs else {
        return Trail { steps, next: None };
    };
    // An approved CSR is the one that counts; else the latest.
    let of = |signer: &str| {
        csrs.iter()
            .filter(|c| c.signer == signer && requests_for(c, name))
            .max_by_key(|c| (c.approved.is_some(), c.created))
    };
    let Some(client) = of(CLIENT_SIGNER) else {
        return Trail {
            steps,
            next: Some(format!(
                "fetched {ago} ago, no client CSR: check the kubelet's bootstrap kubeconfig (journalctl -u kubelet on the machine)"
            )),
        };
    };
    steps.push(Step {
        step: "client-csr",
        seen: format!("{} {}", client.name, state(client)),
    });
    if client.approved.is_none() {
        return Trail {
            steps,
            next: Some(format!(
                "client CSR {} is {}: `mcsctl csr review --csrs FILE --nodes FILE` decides it from the evidence",
                client.name,
                state(client)
            )),
        };
    }
    let Some(serving) = of(SERVING_SIGNER) else {
        return Trail {
            steps,
            next: Some("client certificate approved; waiting for the kubelet's serving CSR".into()),
        };
    };
    steps.push(Step {
        step: "serving-csr",
        seen: format!("{} {}", serving.name, state(serving)),
    });
    if serving.approved.is_none() {
        return Trail {
            steps,
            next: Some(format!(
                "serving CSR {} is {}: `mcsctl csr review` decides it",
                serving.name,
                state(serving)
            )),
        };
    }
    ready(steps, name, cluster.nodes)
}

/// What to do for a machine none of whose `fetches` went out whole.
fn not_fetched(name: &str, fetches: &[Record]) -> String {
    if let Some(u) = fetches.iter().rev().find(|f| f.unknown) {
        return format!(
            "its fetch at {} from {} may have gone out whole (the replica sending it was lost after it began sending the config's end): the token counts as spent, and no CSR is approved on it; if {name} did not boot, `mcsctl machine add {name} --pool {} --force`",
            u.time, u.client, u.pool
        );
    }
    match fetches.last() {
        Some(cut) => format!(
            "{} fetch(es) cut off before their end (the last at {} from {}): nothing spent; boot it again (serve --max-partial-fetches bounds the tries)",
            fetches.len(),
            cut.time,
            cut.client
        ),
        None => format!("not fetched yet: boot it with machines/{name}.ign as its Ignition config"),
    }
}

/// The last step: the Node, Ready or not.
fn ready(mut steps: Vec<Step>, name: &str, nodes: Option<&[Node]>) -> Trail {
    let Some(nodes) = nodes else {
        return Trail { steps, next: None };
    };
    match nodes.iter().find(|n| n.name == name) {
        Some(n) if n.ready => {
            steps.push(Step {
                step: "ready",
                seen: format!("node {name} Ready"),
            });
            Trail { steps, next: None }
        }
        Some(_) => Trail {
            steps,
            next: Some(format!(
                "node {name} is not Ready yet: `oc describe node {name}`"
            )),
        },
        None => Trail {
            steps,
            next: Some(format!(
                "no node {name} yet: the kubelet registers it once its certificates work"
            )),
        },
    }
}

/// Whether a CSR asks for node `name`: a client CSR by its request's common name, a serving
/// CSR by its requestor.
fn requests_for(c: &Csr, name: &str) -> bool {
    if c.username.strip_prefix(NODE_PREFIX) == Some(name) {
        return true;
    }
    crate::csr::request::parse(&c.request)
        .is_ok_and(|r| r.common_name.strip_prefix(NODE_PREFIX) == Some(name))
}

fn state(c: &Csr) -> &'static str {
    match (&c.approved, c.denied) {
        (Some(_), _) => "approved",
        (None, true) => "denied",
        (None, false) => "pending",
    }
}

fn parse(t: &str) -> Option<OffsetDateTime> {
    OffsetDateTime::parse(t, &time::format_description::well_known::Rfc3339).ok()
}
