//! A registered machine's way from its registration to a Ready node (`machine list`, with
//! `--csrs` and `--nodes`): registered, pointer written, fetched (from the ledger), first boot
//! reported (when its pool reports, `render --report`), client and serving CSRs, node Ready;
//! each step seen or not, and for a machine that stopped on the way, where and what to look at
//! next.

use serde::Serialize;
use time::OffsetDateTime;

use crate::csr::{CLIENT_SIGNER, Csr, NODE_PREFIX, Node, SERVING_SIGNER};
use crate::ledger::Record;

/// One step of the trail.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Step {
    /// `registered`, `pointer`, `fetched`, `first-boot`, `client-csr`, `serving-csr` or
    /// `ready`.
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
    /// Whether it stopped: it will not go on by itself (no first-boot report long after its
    /// fetch, a denied CSR, a fetch of unknown outcome), as against waiting for a next step.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub stopped: bool,
}

/// Where a machine is, for `machine watch`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Progress {
    /// It has a next step to take.
    Waiting,
    /// It stopped on the way ([`Trail::stopped`]).
    Stopped,
    /// Its node is Ready, or it took the last step what was given shows (no `--csrs`, no
    /// `--nodes`).
    Done,
}

impl Trail {
    /// Where the machine is.
    pub fn progress(&self) -> Progress {
        match (self.stopped, &self.next) {
            (true, _) => Progress::Stopped,
            (false, Some(_)) => Progress::Waiting,
            (false, None) => Progress::Done,
        }
    }

    /// A trail that ends at `steps`, going on with `next` (`None`: nothing more to see).
    fn going(steps: Vec<Step>, next: Option<String>) -> Trail {
        Trail {
            steps,
            next,
            stopped: false,
        }
    }

    /// A trail that stopped at `steps`: `why`, and what to look at.
    fn stopped(steps: Vec<Step>, why: String) -> Trail {
        Trail {
            steps,
            next: Some(why),
            stopped: true,
        }
    }
}

/// What the cluster says of the machines: the CSRs and Nodes given, if any.
pub struct Cluster<'a> {
    /// `oc get csr -o json`, when given.
    pub csrs: Option<&'a [Csr]>,
    /// `oc get nodes -o json`, when given.
    pub nodes: Option<&'a [Node]>,
}

/// How long after its fetch a machine of a reporting pool is expected to have reported its
/// first boot: Ignition's stages and the first boot take minutes; past this, it stopped.
pub const REPORT_WITHIN: time::Duration = time::Duration::minutes(15);

/// What the trail is drawn from besides the fetches: the machine's registration, whether its
/// pointer config is there, and its first-boot report (when its pool reports).
pub struct Known<'a> {
    /// When it was registered (RFC 3339).
    pub registered: &'a str,
    /// Its pointer config, when the directory has it.
    pub pointer: Option<&'a str>,
    /// `Some` when its pool reports first boots (`render --report`): its report, if any.
    pub report: Option<Option<&'a crate::firstboot::Record>>,
}

/// The trail of machine `name` from what is `known`, its `fetches` and what `cluster` holds,
/// at `now`.
pub fn trail(
    name: &str,
    known: &Known<'_>,
    fetches: &[Record],
    cluster: &Cluster<'_>,
    now: OffsetDateTime,
) -> Trail {
    let mut steps = vec![Step {
        step: "registered",
        seen: known.registered.to_string(),
    }];
    if let Some(p) = known.pointer {
        steps.push(Step {
            step: "pointer",
            seen: p.to_string(),
        });
    }
    let Some(last) = fetches.iter().rev().find(|f| f.whole) else {
        if let Some(Some(r)) = known.report {
            // It booted, but not from a fetch of its own token.
            steps.push(reported(r));
            return Trail::stopped(
                steps,
                format!(
                    "reported its first boot at {} without a fetch of its own token: it booted from another pointer config (its pool's?), not machines/{name}.ign, so no CSR is approved on its evidence",
                    r.time
                ),
            );
        }
        let why = not_fetched(name, fetches);
        return if fetches.iter().any(|f| f.unknown) {
            Trail::stopped(steps, why)
        } else {
            Trail::going(steps, Some(why))
        };
    };
    steps.push(Step {
        step: "fetched",
        seen: format!("{} from {} (spec {})", last.time, last.client, last.spec),
    });
    let since = now - parse(&last.time).unwrap_or(now);
    let ago = crate::duration::residual(since.whole_seconds().max(0));
    let client_csr = cluster.csrs.and_then(|csrs| of(csrs, CLIENT_SIGNER, name));
    match known.report {
        Some(Some(r)) => steps.push(reported(r)),
        // A machine whose kubelet asked for its certificate booted, report or not.
        Some(None) if client_csr.is_none() => {
            let when = last.time.get(..16).unwrap_or(&last.time).replace('T', " ");
            let from = last
                .client
                .rsplit_once(':')
                .map_or(&*last.client, |(ip, _)| ip);
            let next = if since >= REPORT_WITHIN {
                format!(
                    "fetched {when} from {from}, no first-boot report after {}: Ignition or the first boot failed after the fetch; look at the console for ignition's stage errors",
                    crate::duration::residual(REPORT_WITHIN.whole_seconds())
                )
            } else {
                format!("fetched {ago} ago; waiting for its first-boot report")
            };
            return if since >= REPORT_WITHIN {
                Trail::stopped(steps, next)
            } else {
                Trail::going(steps, Some(next))
            };
        }
        _ => {}
    }
    csr_steps(steps, name, cluster, client_csr, &ago)
}

/// The steps from the CSRs and the Node on, after a fetch `ago`.
fn csr_steps(
    mut steps: Vec<Step>,
    name: &str,
    cluster: &Cluster<'_>,
    client_csr: Option<&Csr>,
    ago: &str,
) -> Trail {
    let Some(csrs) = cluster.csrs else {
        return Trail::going(steps, None);
    };
    let Some(client) = client_csr else {
        return Trail::going(
            steps,
            Some(format!(
                "fetched {ago} ago, no client CSR: check the kubelet's bootstrap kubeconfig (journalctl -u kubelet on the machine)"
            )),
        );
    };
    steps.push(Step {
        step: "client-csr",
        seen: format!("{} {}", client.name, state(client)),
    });
    if client.approved.is_none() {
        let going = if client.denied {
            |steps, why| Trail::stopped(steps, why)
        } else {
            |steps, why| Trail::going(steps, Some(why))
        };
        return going(
            steps,
            format!(
                "client CSR {} is {}: `mcsctl csr review --csrs FILE --nodes FILE` decides it from the evidence",
                client.name,
                state(client)
            ),
        );
    }
    let Some(serving) = of(csrs, SERVING_SIGNER, name) else {
        return Trail::going(
            steps,
            Some("client certificate approved; waiting for the kubelet's serving CSR".into()),
        );
    };
    steps.push(Step {
        step: "serving-csr",
        seen: format!("{} {}", serving.name, state(serving)),
    });
    if serving.approved.is_none() {
        let going = if serving.denied {
            |steps, why| Trail::stopped(steps, why)
        } else {
            |steps, why| Trail::going(steps, Some(why))
        };
        return going(
            steps,
            format!(
                "serving CSR {} is {}: `mcsctl csr review` decides it",
                serving.name,
                state(serving)
            ),
        );
    }
    ready(steps, name, cluster.nodes)
}

/// The first-boot step of report `r`.
fn reported(r: &crate::firstboot::Record) -> Step {
    Step {
        step: "first-boot",
        seen: format!(
            "{} from {}: {}, kubelet {}",
            r.time,
            r.client_ip().map_or(r.client.clone(), |ip| ip.to_string()),
            r.report.ignition(),
            if r.report.kubelet.is_empty() {
                "unknown"
            } else {
                &r.report.kubelet
            }
        ),
    }
}

/// The CSR of `signer` for node `name` that counts: an approved one, else the latest.
fn of<'c>(csrs: &'c [Csr], signer: &str, name: &str) -> Option<&'c Csr> {
    csrs.iter()
        .filter(|c| c.signer == signer && requests_for(c, name))
        .max_by_key(|c| (c.approved.is_some(), c.created))
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
        return Trail::going(steps, None);
    };
    match nodes.iter().find(|n| n.name == name) {
        Some(n) if n.ready => {
            steps.push(Step {
                step: "ready",
                seen: format!("node {name} Ready"),
            });
            Trail::going(steps, None)
        }
        Some(_) => Trail::going(
            steps,
            Some(format!(
                "node {name} is not Ready yet: `oc describe node {name}`"
            )),
        ),
        None => Trail::going(
            steps,
            Some(format!(
                "no node {name} yet: the kubelet registers it once its certificates work"
            )),
        ),
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
