//! `csr review` and `csr sign`: kubelet certificates on user-provisioned clusters.

use std::path::PathBuf;

use clap::{Args, Subcommand};
use time::OffsetDateTime;

use super::values;
use super::{DirArg, FormatArg};
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
    pub store: super::StoreArgs,

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
