//! `mcsctl csr review` and `mcsctl csr sign`: read the inputs, load the directory (with its
//! ledger), call the workflows of `ops::csr`, print.

use std::path::PathBuf;
use time::OffsetDateTime;

use anyhow::Result;

use crate::assets::{AssetDir, Overwrite, PUBLIC_MODE, read_file, read_input, read_input_text};

use crate::cli::values;
use crate::csr::{self, Context, Csr, kube};
use crate::exit;
use crate::ops::csr::{EvidenceUse, Named, ReviewInputs, ReviewReport, Row, SignInputs};
use crate::ui::{Ui, table};
use clap::{Args, Subcommand};

use crate::cli::{DirArg, FormatArg};
use crate::duration::Duration;
use crate::names::San;

/// `csr` subcommands.
#[derive(Debug, Subcommand)]
pub enum CsrCommand {
    /// Decide, for each pending kubelet CSR, approve / leave pending / ignore, and why.
    Review(Box<CsrReviewArgs>),
    /// Issue a kubelet client or serving certificate for a CSR from a CA.
    Sign(CsrSignArgs),
}

/// Arguments of `csr review`.
#[derive(Debug, Args)]
pub struct CsrReviewArgs {
    /// CSRs: `oc get csr -o json` output (a List or one object, JSON or YAML), or - for stdin.
    #[arg(long, value_name = "FILE")]
    pub csrs: PathBuf,

    /// Machines: `oc get machines -A -o json` (Machine API clusters).
    #[arg(long, value_name = "FILE")]
    pub machines: Option<PathBuf>,

    /// Nodes: `oc get nodes -o json`.
    #[arg(long, value_name = "FILE")]
    pub nodes: Option<PathBuf>,

    /// UPI inventory of expected hosts (format in docs/node-admission.md), instead of or besides --machines.
    #[arg(long, value_name = "FILE")]
    pub inventory: Option<PathBuf>,

    /// The time to decide at (RFC 3339); default: now. Makes decisions reproducible.
    #[arg(long, value_name = "TIME", value_parser = values::rfc3339)]
    pub now: Option<OffsetDateTime>,

    /// Kubelet CA bundle (ConfigMap openshift-config-managed/csr-controller-ca, ca-bundle.crt); enables renewals.
    #[arg(long, value_name = "FILE")]
    pub kubelet_ca: Option<PathBuf>,

    /// Directory of the serving certificates nodes present now, one PEM per node: <node>.pem or <node>.crt.
    #[arg(long, value_name = "DIR")]
    pub serving_certs: Option<PathBuf>,

    /// Fetch each node's current serving certificate from its kubelet (first InternalIP, kubelet port).
    #[arg(long, conflicts_with = "serving_certs")]
    pub fetch_serving_certs: bool,

    /// Time allowed for each kubelet connection with --fetch-serving-certs.
    #[arg(long, default_value = "5s", value_name = "DUR", value_parser = values::duration)]
    pub fetch_timeout: Duration,

    /// The cluster's network type (networks.config.openshift.io/cluster status.networkType).
    #[arg(long, default_value = "OVNKubernetes", value_name = "TYPE")]
    pub network_type: String,

    /// OpenShiftSDN HostSubnets (`oc get hostsubnets -o json`) for the egress-IP fallback.
    #[arg(long, value_name = "FILE")]
    pub host_subnets: Option<PathBuf>,

    /// cluster-machine-approver config file (YAML); honours nodeClientCert.disabled.
    #[arg(long, value_name = "FILE")]
    pub approver_config: Option<PathBuf>,

    /// Print only the names of CSRs to approve, one a line (for `xargs oc adm certificate approve`).
    #[arg(long)]
    pub approve_names: bool,

    /// Decide from evidence: a client CSR only for a machine registered with `machine add`
    /// whose token fetched its config (the ledger) within --window before it; a serving CSR only
    /// for the fetch and registered addresses. The default when the asset directory has
    /// registered machines and neither --machines nor --inventory is given.
    #[arg(long, conflicts_with_all = ["machines", "inventory"])]
    pub evidence: bool,

    /// With evidence: how long after a machine's first fetch its client CSR may come.
    #[arg(long, default_value = "2h", value_name = "DUR", value_parser = values::duration)]
    pub window: Duration,

    /// With evidence: how far serve's clock (the ledger's times) and the API server's (the
    /// CSRs') may disagree; a client CSR is judged against the window widened by this much
    /// on either side.
    #[arg(long, default_value = "5m", value_name = "DUR", value_parser = values::duration)]
    pub clock_skew: Duration,

    /// With evidence: another replica's ledger to merge (repeatable).
    #[arg(long = "ledger", value_name = "FILE")]
    pub ledgers: Vec<PathBuf>,

    /// With evidence: the fetch records from the store serve replicas share.
    #[command(flatten)]
    pub store: crate::cli::StoreArgs,

    /// `--dir` after the command: the asset directory with the registered machines.
    #[command(flatten)]
    pub dir: DirArg,

    /// `--format` after the command.
    #[command(flatten)]
    pub out: FormatArg,
}

/// Arguments of `csr sign`.
#[derive(Debug, Args)]
pub struct CsrSignArgs {
    /// The request: a PEM CERTIFICATE REQUEST, or a CertificateSigningRequest object (JSON or YAML).
    #[arg(long, value_name = "FILE")]
    pub csr: PathBuf,

    /// The kubelet signer's CA certificate (the cluster's csr-signer). Never the MCS CA: a
    /// signer that pointer configs or the MCS bundle trust is refused.
    #[arg(long, value_name = "FILE")]
    pub ca_cert: PathBuf,

    /// The kubelet signer's private key.
    #[arg(long, value_name = "FILE")]
    pub ca_key: PathBuf,

    /// An address of the node a serving certificate may name besides the node name (its
    /// InternalIP, ExternalIP or a hostname, as `oc get node NAME -o wide` shows); repeatable.
    #[arg(long = "address", value_name = "ADDR", value_parser = values::san)]
    pub addresses: Vec<San>,

    /// Validity of the certificate; never beyond the CA's.
    #[arg(long, default_value = "365d", value_name = "DUR", value_parser = values::duration)]
    pub validity: Duration,

    /// Where to write the certificate PEM (default: stdout).
    #[arg(long, value_name = "FILE")]
    pub output: Option<PathBuf>,

    /// Replace an existing output file.
    #[arg(long)]
    pub force: bool,

    /// `--dir` after the command.
    #[command(flatten)]
    pub dir: DirArg,
}

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
        Some(d) => crate::assets::input_files(d, &["pem", "crt"], crate::assets::Depth::Top)?
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
