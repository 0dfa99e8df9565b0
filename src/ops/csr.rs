//! `csr review` and `csr sign` as workflows: functions of the snapshot (the registered machines
//! and their ledger, the CAs, pointer configs and names the MCS answers to), the inputs `cmd`
//! read (CSRs, Nodes, Machines, certificates) and the time, returning a typed report. Nothing
//! here reads a file or dials a kubelet; `cmd/csr.rs` does, before.
//!
//! Without an asset directory (`snap` is `None`) review decides as the approver does, and sign
//! cannot check that its signer is not a CA machines trust for the MCS (`cmd` says so).

use anyhow::{Result, anyhow, bail};
use serde::Serialize;
use time::{Duration, OffsetDateTime};

use crate::assets::layout;
use crate::csr::{self, Context, Csr, Decision, Verdict};
use crate::model::Snapshot;
use crate::names::San;
use crate::pki::issue::{Ca, Issued, KubeletUsage, sign_csr};

/// When review decides from the asset directory's evidence (registered machines and the
/// fetches their tokens made).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EvidenceUse {
    /// `--evidence`: required; a directory without registered machines is an error.
    Required,
    /// By default: when machines are registered, unless Machines or an inventory were given.
    IfRegistered {
        /// `--machines` or `--inventory` was given.
        other_machines: bool,
    },
}

impl EvidenceUse {
    /// `--evidence`, and whether `--machines` or `--inventory` was given.
    pub fn of(required: bool, other_machines: bool) -> EvidenceUse {
        if required {
            EvidenceUse::Required
        } else {
            EvidenceUse::IfRegistered { other_machines }
        }
    }
}

/// What `csr review` decides from, besides the snapshot.
pub struct ReviewInputs {
    /// The CertificateSigningRequests.
    pub csrs: Vec<Csr>,
    /// What the approver knows besides them.
    pub context: Context,
    /// Whether Nodes were given (an empty list is a new cluster; none given is not knowing).
    pub nodes_given: bool,
    /// Whether to decide from the directory's evidence.
    pub evidence: EvidenceUse,
    /// `--window`: how long after a machine's first fetch its CSRs count.
    pub window: Duration,
    /// `--clock-skew`.
    pub clock_skew: Duration,
    /// The asset directory, as messages name it (there may be none).
    pub dir: String,
}

/// One CSR's verdict, as printed.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Row {
    /// The CSR's name.
    pub name: String,
    /// How old it is (`-` without a creation time).
    pub age: String,
    /// Who asked (`node-bootstrapper` for the bootstrapper service account).
    pub requestor: String,
    /// The signer, without `kubernetes.io/`.
    pub signer: String,
    /// The node it is for, when known.
    pub node: Option<String>,
    /// The decision.
    pub decision: Decision,
    /// The rule that made it.
    pub rule: &'static str,
    /// Why.
    pub reason: String,
}

impl Row {
    /// The table's headings.
    pub const HEADINGS: [&'static str; 8] = [
        "NAME",
        "AGE",
        "REQUESTOR",
        "SIGNER",
        "NODE",
        "DECISION",
        "RULE",
        "REASON",
    ];

    /// Its cells, under [`Row::HEADINGS`].
    pub fn cells(&self) -> Vec<String> {
        vec![
            self.name.clone(),
            self.age.clone(),
            self.requestor.clone(),
            self.signer.clone(),
            self.node.clone().unwrap_or_else(|| "-".into()),
            self.decision.word().to_string(),
            self.rule.to_string(),
            self.reason.clone(),
        ]
    }
}

/// What `csr review` decided.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ReviewReport {
    /// The time decided at, RFC 3339.
    pub now: String,
    /// Client CSRs pending from the last hour (the approver's count).
    pub recently_pending: usize,
    /// The most it lets pend before it stops approving.
    pub max_pending: usize,
    /// Each CSR, in input order.
    pub csrs: Vec<Row>,
    /// What the CSRs' times say of the clocks (also on stderr).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
    /// With evidence: the registered machines and the fetches in the ledgers.
    #[serde(skip)]
    pub evidence: Option<(usize, usize)>,
}

impl ReviewReport {
    /// The names of the CSRs to approve, a line each (`--approve-names`).
    pub fn approved_names(&self) -> String {
        self.csrs
            .iter()
            .filter(|c| c.decision == Decision::Approve)
            .map(|c| format!("{}\n", c.name))
            .collect()
    }

    /// The count of each decision, in a line.
    pub fn summary(&self) -> String {
        let count = |d: Decision| self.csrs.iter().filter(|c| c.decision == d).count();
        format!(
            "{} to approve, {} pending, {} ignored ({} recently pending of at most {})",
            count(Decision::Approve),
            count(Decision::Pending),
            count(Decision::Ignore),
            self.recently_pending,
            self.max_pending
        )
    }
}

/// Decides every CSR of `inputs`: by the approver's rules, and from the directory's evidence
/// when [`EvidenceUse`] says so.
pub fn review(
    snap: Option<&Snapshot>,
    inputs: ReviewInputs,
    now: OffsetDateTime,
) -> Result<ReviewReport> {
    // The approver never gives a client certificate for a name a Node already has (that
    // would let a machine impersonate it): without the Nodes that cannot be checked.
    let pending_client = inputs
        .csrs
        .iter()
        .any(|c| c.signer == csr::CLIENT_SIGNER && c.approved.is_none() && !c.denied);
    if pending_client && !inputs.nodes_given {
        return Err(crate::exit::usage(
            "--nodes is required to decide client CSRs: a client certificate is approved only for a name no Node has yet (the approver's check against impersonation); pass `oc get nodes -o json` (an empty List on a new cluster)",
        ));
    }
    let registry = snap
        .and_then(|s| s.machines.as_ref())
        .filter(|r| !r.machines.is_empty());
    let use_evidence = match (registry, inputs.evidence) {
        (None, EvidenceUse::Required) => {
            return Err(crate::exit::usage(format!(
                "--evidence: {} has no registered machine (`mcsctl machine add NAME --pool POOL`)",
                inputs.dir
            )));
        }
        (None, _) => None,
        (
            Some(_),
            EvidenceUse::IfRegistered {
                other_machines: true,
            },
        ) => None,
        (Some(r), _) => Some(r),
    };
    let csrs = &inputs.csrs;
    let mut warnings = Vec::new();
    let mut evidence = None;
    let (pending, limit, verdicts) = match (use_evidence, snap) {
        (Some(registry), Some(snap)) => {
            let records = snap.ledger.as_ref().map_or(&[][..], |l| &l.records[..]);
            let ev = super::machine::evidence(registry, records, inputs.window, inputs.clock_skew);
            evidence = Some((ev.machines.len(), records.len()));
            warnings = csr::evidence::clock_warnings(csrs, &ev, now);
            csr::evidence::review(csrs, &inputs.context, &ev)
        }
        _ => csr::review(csrs, &inputs.context),
    };
    let rows = csrs
        .iter()
        .zip(verdicts)
        .map(|(c, v)| row(c, v, now))
        .collect();
    Ok(ReviewReport {
        now: crate::pki::cert::rfc3339(now.unix_timestamp()),
        recently_pending: pending,
        max_pending: limit,
        csrs: rows,
        warnings,
        evidence,
    })
}

fn row(c: &Csr, v: Verdict, now: OffsetDateTime) -> Row {
    let age = match c.created {
        Some(t) => crate::duration::residual((now - t).whole_seconds()),
        None => "-".into(),
    };
    let signer = c
        .signer
        .strip_prefix("kubernetes.io/")
        .unwrap_or(&c.signer)
        .to_string();
    let requestor = if c.username == csr::BOOTSTRAPPER {
        "node-bootstrapper".to_string()
    } else {
        c.username.clone()
    };
    Row {
        name: c.name.clone(),
        age,
        requestor,
        signer: if signer.is_empty() {
            "-".into()
        } else {
            signer
        },
        node: v.node,
        decision: v.decision,
        rule: v.rule,
        reason: v.reason,
    }
}

/// One input of `csr sign`: its bytes and its name for messages.
pub struct Named<'a> {
    /// The bytes.
    pub bytes: &'a [u8],
    /// Where they came from.
    pub name: String,
}

impl<'a> Named<'a> {
    /// `bytes`, read from `path`.
    pub fn of(bytes: &'a [u8], path: &std::path::Path) -> Named<'a> {
        Named {
            bytes,
            name: path.display().to_string(),
        }
    }
}

/// A kubelet request, read and checked: what `csr sign` signs.
pub struct Request {
    /// Where it came from.
    pub name: String,
    /// The PKCS#10 request, PEM.
    pem: String,
    /// What it asks for.
    info: csr::request::CsrInfo,
    /// Client or serving.
    purpose: KubeletUsage,
    /// The key usages to grant.
    usages: Vec<String>,
}

/// Reads a kubelet request (PEM, or a CertificateSigningRequest object): its subject must be a
/// node's, and its usages a kubelet client's or server's.
pub fn request(input: Named<'_>) -> Result<Request> {
    let name = input.name;
    let (pem, object_usages, signer_name) = csr::sign::read_request(input.bytes, &name)?;
    let info = csr::request::parse(pem.as_bytes()).map_err(|e| anyhow!("{name}: {e}"))?;
    if !info.common_name.starts_with(csr::NODE_PREFIX)
        || !info.organizations.iter().any(|o| o == csr::NODE_GROUP)
    {
        bail!(
            "{name}: not a kubelet request (subject must be CN=system:node:<name>, O=system:nodes)"
        );
    }
    let (purpose, usages) =
        csr::sign::usage(&info, object_usages.as_deref(), signer_name.as_deref())
            .map_err(|e| anyhow!("{name}: {e}"))?;
    Ok(Request {
        name,
        pem,
        info,
        purpose,
        usages,
    })
}

/// With what `csr sign` signs a [`Request`].
pub struct SignInputs<'a> {
    /// The kubelet signer's certificate.
    pub ca_cert: Named<'a>,
    /// Its key.
    pub ca_key: Named<'a>,
    /// `--address`: the names a serving certificate may carry.
    pub addresses: &'a [San],
    /// `--validity`.
    pub validity: Duration,
}

/// What `csr sign` made.
pub struct Signed {
    /// The certificate.
    pub issued: Issued,
    /// Client or serving.
    pub kind: KubeletUsage,
}

/// Signs a kubelet request with the kubelet signer, refusing a signer machines trust for the
/// MCS and a serving certificate for a name the MCS answers to.
pub fn sign(
    snap: Option<&Snapshot>,
    req: &Request,
    inputs: SignInputs<'_>,
    now: OffsetDateTime,
) -> Result<Signed> {
    let name = &req.name;
    let protected = match snap {
        Some(s) => protected(s)?,
        None => csr::sign::Protected::default(),
    };
    if req.purpose == KubeletUsage::Serving {
        csr::sign::check_serving_names(&req.info, inputs.addresses, &protected)
            .map_err(|e| anyhow!("{name}: {e}"))?;
    }
    let ca = Ca::load(
        inputs.ca_cert.bytes,
        &inputs.ca_cert.name,
        inputs.ca_key.bytes,
        &inputs.ca_key.name,
    )?;
    csr::sign::check_signer(&ca.cert, &protected)
        .map_err(|e| anyhow!("{}: {e}", inputs.ca_cert.name))?;
    let (issued, kind) = sign_csr(&ca, &req.pem, &req.usages, inputs.validity, now)
        .map_err(|e| anyhow!("{name}: {e:#}"))?;
    Ok(Signed { issued, kind })
}

/// What the kubelet signer must not be and the names it must not certify: every CA of the
/// asset directory machines trust for the MCS (its bundle, the CA, the rotation's next and
/// previous CAs, and each pointer config's CAs) and every name the MCS answers to.
fn protected(snap: &Snapshot) -> Result<csr::sign::Protected> {
    let mut p = csr::sign::Protected::default();
    let shown = |rel: &str| snap.dir.path(rel).display().to_string();
    for c in &snap.cas.bundle {
        p.cas.push((shown(layout::CA_BUNDLE), c.clone()));
    }
    let cas = [
        (layout::CA_CERT, &snap.cas.active),
        (layout::CA_NEXT_CERT, &snap.cas.next),
        (layout::CA_PREVIOUS_CERT, &snap.cas.previous),
    ];
    for (rel, loaded) in cas {
        if let Some(l) = loaded {
            p.cas.push((shown(rel), l.info.clone()));
        }
    }
    for ptr in &snap.pointers {
        let what = snap.dir.path(&ptr.rel).display().to_string();
        // A pointer config that cannot be read trusts nothing here; inspect reports it.
        let Ok(info) = crate::ignition::pointer::parse(&ptr.bytes, &what) else {
            continue;
        };
        for pem in &info.ca_pems {
            for c in crate::pki::cert::parse_pem_certs(pem, &what).unwrap_or_default() {
                p.cas.push((format!("trusted by {what}"), c));
            }
        }
        for src in &info.sources {
            if let Some(u) = crate::http::HttpUrl::parse(src)
                && let Ok(san) = San::parse(u.host())
            {
                p.names.push(san);
            }
        }
    }
    match &snap.cas.serving {
        Some(Ok(s)) => {
            p.names
                .extend(s.info.dns_names.iter().map(|d| San::Dns(d.clone())));
            p.names
                .extend(s.info.ip_addresses.iter().map(|i| San::Ip(*i)));
        }
        Some(Err(e)) => bail!("{e}"),
        None => {}
    }
    if let Some(cfg) = &snap.config {
        p.names.push(San::Dns(cfg.api_int_host()));
    }
    Ok(p)
}
