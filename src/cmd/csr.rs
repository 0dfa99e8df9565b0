//! `mcsctl csr review` and `mcsctl csr sign`: read the inputs, load the directory (with its
//! ledger), call the workflows of `ops::csr`, print.

use std::path::PathBuf;
use time::OffsetDateTime;

use anyhow::Result;

use crate::assets::{AssetDir, Overwrite, PUBLIC_MODE, read_file, read_input, read_input_text};
use crate::cli::{CsrReviewArgs, CsrSignArgs};
use crate::csr::{self, Context, Csr, kube};
use crate::exit;
use crate::ops::csr::{EvidenceUse, Named, ReviewInputs, ReviewReport, Row, SignInputs};
use crate::ui::{Ui, table};

/// Runs `csr review`.
pub fn review(ui: &Ui, dir: &AssetDir, a: &CsrReviewArgs, now: OffsetDateTime) -> Result<u8> {
    let now = a.now.unwrap_or(now);
    let (bytes, name) = read_input(&a.csrs)?;
    let csrs = kube::csrs_of(&bytes, &name)?;
    let context = context(ui, a, &csrs, now)?;
    let inputs = ReviewInputs {
        csrs,
        context,
        nodes_given: a.nodes.is_some(),
        evidence: EvidenceUse::of(a.evidence, a.machines.is_some() || a.inventory.is_some()),
        window: a.window.to_time(),
        clock_skew: a.clock_skew.to_time(),
        dir: dir.root().display().to_string(),
    };
    let (_lock, snap) = super::load_if_there(ui, dir, &a.ledgers, &a.store, now)?;
    let r = crate::ops::csr::review(snap.as_ref(), inputs, now)?;
    if let Some((machines, fetches)) = r.evidence {
        ui.detail(format!(
            "deciding from evidence: {machines} registered machine(s), {fetches} fetch(es) in the ledgers"
        ));
    }
    for w in &r.warnings {
        ui.warn(w);
    }
    if a.approve_names {
        ui.out(r.approved_names())?;
    } else if ui.structured() {
        ui.out_json(&r)?;
    } else {
        print_review(ui, &r)?;
    }
    Ok(exit::OK)
}

/// What the approver knows besides the CSRs: Machines (or an inventory), Nodes, host subnets,
/// its own configuration, the kubelet CA and the serving certificates now in use.
fn context(ui: &Ui, a: &CsrReviewArgs, csrs: &[Csr], now: OffsetDateTime) -> Result<Context> {
    let text = |p: &Option<PathBuf>| p.as_deref().map(read_input_text).transpose();
    let serving_certs = match &a.serving_certs {
        Some(d) => crate::assets::input_files(d, &["pem", "crt"], false)?
            .into_iter()
            .map(|f| read_file(&f).map(|b| (f, b)))
            .collect::<Result<_>>()?,
        None => Vec::new(),
    };
    let kubelet_ca = match &a.kubelet_ca {
        Some(p) => Some((read_file(p)?, p.display().to_string())),
        None => None,
    };
    let mut ctx = kube::context(
        kube::ContextInputs {
            machines: text(&a.machines)?,
            inventory: text(&a.inventory)?,
            nodes: text(&a.nodes)?,
            host_subnets: text(&a.host_subnets)?,
            approver_config: text(&a.approver_config)?,
            kubelet_ca,
            serving_certs,
            network_type: a.network_type.clone(),
        },
        now,
    )?;
    if a.fetch_serving_certs && ctx.kubelet_ca.is_none() {
        ui.warn("--fetch-serving-certs without --kubelet-ca: renewals cannot be checked");
    } else if a.fetch_serving_certs {
        let timeout = a
            .fetch_timeout
            .to_std()
            .max(std::time::Duration::from_secs(1));
        let (certs, failed) = csr::current::fetch(csrs, &ctx, timeout);
        failed.iter().for_each(|f| ui.detail(f));
        ctx.serving_certs = certs;
    }
    Ok(ctx)
}

/// Prints the verdicts as a table, and a count on stderr.
fn print_review(ui: &Ui, r: &ReviewReport) -> Result<()> {
    let cells: Vec<Vec<String>> = r.csrs.iter().map(|c| c.cells()).collect();
    ui.out(table(&Row::HEADINGS, &cells))?;
    ui.info(r.summary());
    Ok(())
}

/// Runs `csr sign`.
pub fn sign(ui: &Ui, dir: &AssetDir, a: &CsrSignArgs, now: OffsetDateTime) -> Result<u8> {
    let (request, name) = read_input(&a.csr)?;
    let req = crate::ops::csr::request(Named {
        bytes: &request,
        name,
    })?;
    let (cert, key) = (read_file(&a.ca_cert)?, read_file(&a.ca_key)?);
    let inputs = SignInputs {
        ca_cert: Named::of(&cert, &a.ca_cert),
        ca_key: Named::of(&key, &a.ca_key),
        addresses: &a.addresses,
        validity: a.validity.to_time(),
    };
    let (_lock, snap) = super::load_if_there(ui, dir, &[], &Default::default(), now)?;
    if snap.is_none() {
        ui.warn(format!(
            "no asset directory at {}: cannot check that the signer is not a CA machines trust for the MCS",
            dir.root().display()
        ));
    }
    let s = crate::ops::csr::sign(snap.as_ref(), &req, inputs, now)?;
    let Some(p) = &a.output else {
        return ui.out(&s.issued.cert_pem).map(|_| exit::OK);
    };
    crate::pki::refuse_output_over_key(p, crate::assets::read_file(p).ok().as_deref())?;
    let ow = Overwrite::when(a.force);
    if ui.dry_run {
        crate::assets::check_write(p, ow)?;
        ui.info(format!("dry run: {} not written", p.display()));
        return Ok(exit::OK);
    }
    crate::assets::write_atomic(p, s.issued.cert_pem.as_bytes(), PUBLIC_MODE, ow)?;
    ui.info(format!(
        "wrote {} ({:?} certificate for {}, expires {}, sha256 {})",
        p.display(),
        s.kind,
        s.issued.info.subject,
        crate::pki::cert::rfc3339(s.issued.info.not_after),
        s.issued.info.fingerprint
    ));
    Ok(exit::OK)
}
