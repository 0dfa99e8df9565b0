//! `mcsctl csr review` and `mcsctl csr sign`.

use std::collections::HashMap;
use std::path::Path;

use anyhow::{Context as _, Result, anyhow, bail};
use serde::Serialize;

use crate::assets::{AssetDir, Overwrite, PUBLIC_MODE, layout, write_atomic};
use crate::cli::{CsrReviewArgs, CsrSignArgs};
use crate::csr::{self, Context, Csr, Verdict, kube};
use crate::exit::{self, usage};
use crate::names::San;
use crate::pki::cert::parse_pem_certs;
use crate::pki::issue::{Ca, KubeletUsage, sign_csr};
use crate::pki::kind::{self, Kind};
use crate::ui::{Ui, table};

/// A file (or - for stdin) as bytes, and its name for messages.
fn read_input(p: &Path) -> Result<(Vec<u8>, String)> {
    if p.as_os_str() == "-" {
        return Ok((crate::assets::read_stdin()?, "stdin".into()));
    }
    Ok((crate::assets::read_file(p)?, p.display().to_string()))
}

/// A text input (Kubernetes objects, an inventory), or - for stdin.
fn read_text_input(p: &Path) -> Result<(String, String)> {
    let (bytes, name) = read_input(p)?;
    let text = String::from_utf8(bytes).map_err(|_| {
        anyhow!("{name} is not UTF-8 text: expected Kubernetes objects (JSON or YAML)")
    })?;
    Ok((text, name))
}

/// The CertificateSigningRequests of `--csrs`. Only input that does not read as such is looked
/// at more closely (a PEM or DER request, a key, is named): a List of thousands is parsed once.
fn csr_objects(bytes: &[u8], name: &str) -> Result<Vec<Csr>> {
    std::str::from_utf8(bytes)
        .map_err(|_| anyhow!("{name} is not UTF-8 text: expected `oc get csr -o json` output"))
        .and_then(|text| kube::csrs(text, name))
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

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Row {
    name: String,
    age: String,
    requestor: String,
    signer: String,
    node: Option<String>,
    decision: &'static str,
    rule: &'static str,
    reason: String,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ReviewReport {
    now: String,
    recently_pending: usize,
    max_pending: usize,
    csrs: Vec<Row>,
    /// What the CSRs' times say of the clocks (also on stderr).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    warnings: Vec<String>,
}

/// Runs `csr review`.
pub fn review(ui: &Ui, dir: &AssetDir, a: &CsrReviewArgs) -> Result<u8> {
    let now = Some(a.now.unwrap_or(ui.now));
    let (bytes, name) = read_input(&a.csrs)?;
    let csrs = csr_objects(&bytes, &name)?;
    // The approver never gives a client certificate for a name a Node already has (that
    // would let a machine impersonate it): without the Nodes that cannot be checked.
    let pending_client = csrs
        .iter()
        .any(|c| c.signer == crate::csr::CLIENT_SIGNER && c.approved.is_none() && !c.denied);
    if pending_client && a.nodes.is_none() {
        return Err(usage(
            "--nodes is required to decide client CSRs: a client certificate is approved only for a name no Node has yet (the approver's check against impersonation); pass `oc get nodes -o json` (an empty List on a new cluster)",
        ));
    }
    let ctx = context(ui, a, &csrs, now)?;
    let mut warnings = Vec::new();
    let (pending, limit, verdicts) = match evidence(ui, dir, a)? {
        Some(ev) => {
            warnings = csr::evidence::clock_warnings(&csrs, &ev, now);
            csr::evidence::review(&csrs, &ctx, &ev)
        }
        None => csr::review(&csrs, &ctx),
    };
    for w in &warnings {
        ui.warn(w);
    }
    if a.approve_names {
        let names: String = csrs
            .iter()
            .zip(&verdicts)
            .filter(|(_, v)| v.decision == csr::Decision::Approve)
            .map(|(c, _)| format!("{}\n", c.name))
            .collect();
        ui.out(names)?;
        return Ok(exit::OK);
    }
    let rows: Vec<Row> = csrs
        .iter()
        .zip(verdicts)
        .map(|(c, v)| row(c, v, now))
        .collect();
    print_review(ui, rows, (pending, limit), now, warnings)?;
    Ok(exit::OK)
}

/// The evidence of the asset directory's registered machines and ledgers, when review
/// decides from it: with --evidence, or by default when machines are registered and neither
/// --machines nor --inventory is given.
fn evidence(ui: &Ui, dir: &AssetDir, a: &CsrReviewArgs) -> Result<Option<csr::evidence::Evidence>> {
    let registry = if dir.root().is_dir() {
        crate::state::machines::read(dir)?.filter(|r| !r.machines.is_empty())
    } else {
        None
    };
    let Some(registry) = registry else {
        if a.evidence {
            return Err(usage(format!(
                "--evidence: {} has no registered machine (`mcsctl machine add NAME --pool POOL`)",
                dir.root().display()
            )));
        }
        return Ok(None);
    };
    if !a.evidence && (a.machines.is_some() || a.inventory.is_some()) {
        return Ok(None);
    }
    let records = crate::ledger::read(&crate::ledger::files(dir, &a.ledgers))?;
    let ev = crate::state::machines::evidence(
        &registry,
        &records,
        a.window.to_time(),
        a.clock_skew.to_time(),
    );
    ui.detail(format!(
        "deciding from evidence: {} registered machine(s), {} fetch(es) in the ledgers",
        ev.machines.len(),
        records.len()
    ));
    Ok(Some(ev))
}

/// What the approver knows besides the CSRs: Machines (or an inventory), Nodes, host subnets,
/// its own configuration, the kubelet CA and the serving certificates now in use.
fn context(
    ui: &Ui,
    a: &CsrReviewArgs,
    csrs: &[Csr],
    now: Option<time::OffsetDateTime>,
) -> Result<Context> {
    let mut ctx = Context {
        now,
        network_type: a.network_type.clone(),
        ..Context::default()
    };
    if let Some(p) = &a.machines {
        let (t, n) = read_text_input(p)?;
        ctx.machines.extend(kube::machines(&t, &n)?);
    }
    if let Some(p) = &a.inventory {
        let (t, n) = read_text_input(p)?;
        ctx.machines.extend(kube::inventory(&t, &n)?);
    }
    if let Some(p) = &a.nodes {
        let (t, n) = read_text_input(p)?;
        ctx.nodes = kube::nodes(&t, &n)?;
    }
    if let Some(p) = &a.host_subnets {
        let (t, n) = read_text_input(p)?;
        ctx.host_subnets = kube::host_subnets(&t, &n)?;
    }
    if let Some(p) = &a.approver_config {
        let (t, n) = read_text_input(p)?;
        let v = crate::kube::yaml::documents(&t, &n)?
            .into_iter()
            .next()
            .map(|d| d.value)
            .unwrap_or_default();
        ctx.client_approval_disabled = v["nodeClientCert"]["disabled"].as_bool().unwrap_or(false);
    }
    if let Some(p) = &a.kubelet_ca {
        let bytes = crate::assets::read_file(p)?;
        // An empty bundle gives no CA pool, as in the controller: renewal is skipped.
        if !String::from_utf8_lossy(&bytes).trim().is_empty() {
            let certs = crate::pki::load::certs(&bytes, &p.display().to_string())?;
            ctx.kubelet_ca = Some(certs.into_iter().map(|c| c.der).collect());
        }
    }
    if let Some(d) = &a.serving_certs {
        ctx.serving_certs = serving_certs_dir(d)?;
    }
    if a.fetch_serving_certs {
        ctx.serving_certs = fetch_serving_certs(
            ui,
            csrs,
            &ctx,
            a.fetch_timeout
                .to_std()
                .max(std::time::Duration::from_secs(1)),
        );
    }
    Ok(ctx)
}

/// Prints the verdicts as a table (and a count on stderr) or as JSON.
fn print_review(
    ui: &Ui,
    rows: Vec<Row>,
    (pending, limit): (usize, usize),
    now: Option<time::OffsetDateTime>,
    warnings: Vec<String>,
) -> Result<()> {
    if ui.json() {
        ui.out_json(&ReviewReport {
            now: crate::pki::cert::rfc3339(now.map(|t| t.unix_timestamp()).unwrap_or(0)),
            recently_pending: pending,
            max_pending: limit,
            csrs: rows,
            warnings,
        })?;
    } else {
        let t: Vec<Vec<String>> = rows
            .iter()
            .map(|r| {
                vec![
                    r.name.clone(),
                    r.age.clone(),
                    r.requestor.clone(),
                    r.signer.clone(),
                    r.node.clone().unwrap_or_else(|| "-".into()),
                    r.decision.to_string(),
                    r.rule.to_string(),
                    r.reason.clone(),
                ]
            })
            .collect();
        ui.out(table(
            &[
                "NAME",
                "AGE",
                "REQUESTOR",
                "SIGNER",
                "NODE",
                "DECISION",
                "RULE",
                "REASON",
            ],
            &t,
        ))?;
        let approve = rows.iter().filter(|r| r.decision == "approve").count();
        ui.info(format!(
            "{approve} to approve, {} pending, {} ignored ({pending} recently pending of at most {limit})",
            rows.iter().filter(|r| r.decision == "pending").count(),
            rows.iter().filter(|r| r.decision == "ignore").count()
        ));
    }
    Ok(())
}

fn row(c: &Csr, v: Verdict, now: Option<time::OffsetDateTime>) -> Row {
    let age = match (c.created, now) {
        (Some(t), Some(n)) => crate::duration::residual((n - t).whole_seconds()),
        _ => "-".into(),
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
        decision: v.decision.word(),
        rule: v.rule,
        reason: v.reason,
    }
}

fn serving_certs_dir(d: &Path) -> Result<HashMap<String, Vec<u8>>> {
    let mut out = HashMap::new();
    for e in std::fs::read_dir(d).with_context(|| format!("reading {}", d.display()))? {
        let p = e?.path();
        let Some(name) = p.file_name().and_then(|n| n.to_str()) else {
            continue;
        };
        let Some(node) = name
            .strip_suffix(".pem")
            .or_else(|| name.strip_suffix(".crt"))
        else {
            continue;
        };
        let certs = parse_pem_certs(&crate::assets::read_file(&p)?, &p.display().to_string())?;
        out.insert(node.to_string(), certs[0].der.clone());
    }
    Ok(out)
}

/// Dials the kubelet of every node that asks for a serving certificate, as the approver does:
/// its first InternalIP, the kubelet port, bounded by `timeout`. Failures only mean no renewal.
fn fetch_serving_certs(
    ui: &Ui,
    csrs: &[Csr],
    ctx: &Context,
    timeout: std::time::Duration,
) -> HashMap<String, Vec<u8>> {
    let mut out = HashMap::new();
    if ctx.kubelet_ca.is_none() {
        ui.warn("--fetch-serving-certs without --kubelet-ca: renewals cannot be checked");
        return out;
    }
    for c in csrs.iter().filter(|c| c.signer == csr::SERVING_SIGNER) {
        let Some(node) = c.username.strip_prefix(csr::NODE_PREFIX) else {
            continue;
        };
        if out.contains_key(node) {
            continue;
        }
        let Some(n) = ctx.nodes.iter().find(|n| n.name == node) else {
            continue;
        };
        let Ok(ip) = csr::node_internal_ip(n) else {
            continue;
        };
        let addr = std::net::SocketAddr::new(
            match ip.parse() {
                Ok(i) => i,
                Err(_) => continue,
            },
            n.kubelet_port,
        );
        match crate::pki::remote::fetch_chain(&addr.to_string(), &ip, timeout) {
            Ok(p) => {
                out.insert(node.to_string(), p.chain[0].der.clone());
            }
            Err(e) => ui.detail(format!(
                "node {node}: no current serving certificate from {addr}: {e:#}"
            )),
        }
    }
    out
}

/// Runs `csr sign`.
pub fn sign(ui: &Ui, dir: &AssetDir, a: &CsrSignArgs) -> Result<u8> {
    let validity = a.validity.to_time();
    let (bytes, name) = read_input(&a.csr)?;
    let (pem, object_usages, signer_name) = csr::sign::read_request(&bytes, &name)?;
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
    let protected = protected(ui, dir)?;
    if purpose == KubeletUsage::Serving {
        csr::sign::check_serving_names(&info, &a.addresses, &protected)
            .map_err(|e| anyhow!("{name}: {e}"))?;
    }
    let ca = Ca::load(
        &crate::assets::read_file(&a.ca_cert)?,
        &a.ca_cert.display().to_string(),
        &crate::assets::read_file(&a.ca_key)?,
        &a.ca_key.display().to_string(),
    )?;
    csr::sign::check_signer(&ca.cert, &protected)
        .map_err(|e| anyhow!("{}: {e}", a.ca_cert.display()))?;
    let (issued, kind) =
        sign_csr(&ca, &pem, &usages, validity, ui.now).map_err(|e| anyhow!("{name}: {e:#}"))?;
    match &a.output {
        Some(p) => {
            let ow = if a.force {
                Overwrite::Allow
            } else {
                Overwrite::Never
            };
            write_atomic(p, issued.cert_pem.as_bytes(), PUBLIC_MODE, ow)?;
            ui.info(format!(
                "wrote {} ({:?} certificate for {}, expires {}, sha256 {})",
                p.display(),
                kind,
                issued.info.subject,
                crate::pki::cert::rfc3339(issued.info.not_after),
                issued.info.fingerprint
            ));
        }
        None => ui.out(&issued.cert_pem)?,
    }
    Ok(exit::OK)
}

/// What the kubelet signer must not be and the names it must not certify: every CA of the
/// asset directory machines trust for the MCS (its bundle, the CA, the rotation's next and
/// previous CAs, and each pointer config's CAs) and every name the MCS answers to.
fn protected(ui: &Ui, dir: &AssetDir) -> Result<csr::sign::Protected> {
    let mut p = csr::sign::Protected::default();
    if dir.require().is_err() {
        ui.warn(format!(
            "no asset directory at {}: cannot check that the signer is not a CA machines trust for the MCS",
            dir.root().display()
        ));
        return Ok(p);
    }
    for rel in [
        layout::CA_BUNDLE,
        layout::CA_CERT,
        layout::CA_NEXT_CERT,
        layout::CA_PREVIOUS_CERT,
    ] {
        if dir.exists(rel) {
            let what = dir.path(rel).display().to_string();
            for c in parse_pem_certs(&dir.read(rel)?, &what)? {
                p.cas.push((what.clone(), c));
            }
        }
    }
    for rel in dir.pointer_files()? {
        let what = dir.path(&rel).display().to_string();
        // A pointer config that cannot be read trusts nothing here; inspect reports it.
        let Ok(info) = crate::ignition::pointer::parse(&dir.read(&rel)?, &what) else {
            continue;
        };
        for pem in &info.ca_pems {
            for c in parse_pem_certs(pem, &what).unwrap_or_default() {
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
    if dir.exists(layout::SERVING_CERT) {
        let what = dir.path(layout::SERVING_CERT).display().to_string();
        for c in parse_pem_certs(&dir.read(layout::SERVING_CERT)?, &what)?
            .iter()
            .take(1)
        {
            p.names
                .extend(c.dns_names.iter().map(|d| San::Dns(d.clone())));
            p.names.extend(c.ip_addresses.iter().map(|i| San::Ip(*i)));
        }
    }
    if let Some(cfg) = crate::state::config::load(dir)? {
        p.names.push(San::Dns(cfg.api_int_host()));
    }
    Ok(p)
}
