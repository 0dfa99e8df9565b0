//! `render`, `serve` and `manifests`: the configs machines fetch and what serves them.

use std::net::SocketAddr;
use std::path::PathBuf;

use clap::Args;

use super::values;
use super::{DirArg, FormatArg};
use crate::cidr::Cidr;
use crate::duration::Duration;
use crate::ignition::SpecVersion;
use crate::ignition::render::Flavour;
use crate::manifests::ServiceType;
use crate::model::config::AuthMode;

/// Arguments of `render`.
#[derive(Debug, Args)]
#[command(after_long_help = "\
For the openshift flavour every pool's config gets, last and in this order, the files the MCS \
appends: /etc/machine-config-daemon/node-annotations.json, /etc/kubernetes/kubeconfig (the \
bootstrap kubeconfig), /etc/mcs-machine-config-content.json and \
/etc/ignition-machine-config-encapsulated.json. A cluster's rendered MachineConfig \
(`oc get mc rendered-worker-<hash> -o yaml`) is served as it is, under its own name.

--from-cluster renders each pool's current rendered MachineConfig as the in-cluster MCS serves \
it. Make the snapshot with:
  {
    oc get machineconfigpools,machineconfigs,controllerconfigs -o yaml
    echo ---
    oc -n openshift-machine-config-operator get secret/node-bootstrapper-token \\
      configmap/kubeconfig-data -o yaml
  } > cluster.yaml")]
pub struct RenderArgs {
    /// MachineConfigs: a YAML or JSON file (multi-document or `kind: List`), a directory of them, or -.
    #[arg(
        long,
        value_name = "PATH",
        conflicts_with_all = ["from_mcs", "from_cluster"]
    )]
    pub machine_configs: Option<PathBuf>,

    /// Refuse what the MCO would drop (unknown spec fields, unknown Ignition keys) instead of
    /// dropping it with a warning.
    #[arg(long, conflicts_with_all = ["from_mcs", "from_cluster"])]
    pub strict: bool,

    /// The cluster's ControllerConfig (`oc get controllerconfig machine-config-controller -o
    /// yaml`), whose OS and extensions images controller-generated MachineConfigs take, as the
    /// MCO merges them (one among the --machine-configs inputs is taken too).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["from_mcs", "from_cluster"])]
    pub controller_config: Option<PathBuf>,

    /// What the in-cluster MCS would serve, from a snapshot of the cluster (`oc get -o yaml` of
    /// the MachineConfigPools, MachineConfigs, ControllerConfig, the node-bootstrapper-token
    /// Secret and the kubeconfig-data ConfigMap): a file, a YAML stream, a directory, or -.
    #[arg(long, value_name = "PATH", conflicts_with = "from_mcs")]
    pub from_cluster: Option<PathBuf>,

    /// What the configs are for (default: the flavour recorded in mcsctl.json, else openshift); recorded.
    #[arg(long = "for", value_enum, value_name = "FLAVOUR")]
    pub flavour: Option<Flavour>,

    /// The kubelet's bootstrap kubeconfig (kept as auth/bootstrap-kubeconfig, 0600, for later renders).
    #[arg(long, value_name = "FILE")]
    pub bootstrap_kubeconfig: Option<PathBuf>,

    /// OpenShift configs without a bootstrap kubeconfig are meant (nodes booted from them never
    /// join): without it, render refuses them.
    #[arg(long, conflicts_with = "bootstrap_kubeconfig")]
    pub no_bootstrap_kubeconfig: bool,

    /// Replace a different auth/bootstrap-kubeconfig.
    #[arg(long)]
    pub force: bool,

    /// Ignition spec of the coreos flavour's output, 3.0.0 to 3.5.0 (default: the newest input
    /// version, at least 3.2.0). The openshift flavour keeps the MCO's internal 3.5.0 and serve
    /// answers each client at its own spec, as the MCS does.
    #[arg(long, value_name = "V", value_parser = values::spec)]
    pub spec_version: Option<SpecVersion>,

    /// Replace a pool's config even when MachineConfigs, files or units it serves now would
    /// disappear (without it render refuses and names them).
    #[arg(long)]
    pub replace: bool,

    /// A file path (or systemd unit name) allowed to hold a secret in the pre-approval set; repeatable.
    #[arg(long = "allow-sensitive", value_name = "PATH")]
    pub allow_sensitive: Vec<String>,

    /// The cluster's current rendered MachineConfig of the pool (`oc get mc
    /// rendered-<pool>-<hash> -o yaml`): the new merge is checked against it by the MCO's
    /// reconcile rules, as on a running cluster. Without it, against the directory's
    /// rendered/<pool>.ign; a pool with neither is a first render, not checked.
    #[arg(long, value_name = "FILE", value_parser = values::current_machine_config)]
    pub current: Option<crate::ignition::render::reconcile::Rendered>,

    /// Storage sections a day-2 render may change although running nodes never apply them
    /// in place (the MCO's IrreconcilableValidationOverrides.storage): disks, filesystems,
    /// raid; comma-separated or repeated. Existing nodes keep their config; new machines get
    /// the new one.
    #[arg(long, value_enum, value_delimiter = ',', value_name = "SECTION")]
    pub allow_irreconcilable: Vec<IrreconcilableStorage>,

    /// Store what a live config server serves for --pool (the in-cluster MCS, or another mcsctl serve).
    #[arg(long, value_name = "URL", requires = "pool")]
    pub from_mcs: Option<String>,

    /// The pool to fetch with --from-mcs (appended to the URL as /config/POOL when it has no
    /// path); with --from-cluster, the one pool to take (default: every pool).
    #[arg(long, value_name = "POOL", value_parser = values::dns_label)]
    pub pool: Option<String>,

    /// CA bundle the server's certificate must chain to: PEM, or a pointer config that trusts it (default: tls/mcs-ca-bundle.crt).
    #[arg(long, value_name = "FILE", requires = "from_mcs")]
    pub ca: Option<PathBuf>,

    /// Bearer token for --from-mcs (or from the environment, so it stays out of `ps`).
    #[arg(
        long,
        value_name = "TOKEN",
        env = "MCSCTL_FROM_MCS_TOKEN",
        hide_env_values = true,
        requires = "from_mcs"
    )]
    pub token: Option<String>,

    /// `--dir` after the command.
    #[command(flatten)]
    pub dir: DirArg,

    /// `--format` after the command.
    #[command(flatten)]
    pub out: FormatArg,
}

/// Arguments of `serve`.
#[derive(Debug, Args)]
#[command(after_long_help = "\
Requests are answered as the MCS answers them: GET or HEAD /config/<pool> (the pool is the last \
path segment; an unclean path is redirected with 301) returns rendered/<pool>.ign converted to \
the Ignition spec of the Accept header (application/vnd.coreos.ignition+json;version=X): no or \
an unparsable header gets spec 2.2.0, 2.2 to 2.x gets 2.2.0, 3.0.0 to 3.5.0 get their own \
version, anything newer gets 3.5.0; 2.0 and 2.1 get 400, a config that cannot be written in the \
asked spec 406. GET /healthz answers 200. Other methods get 405.")]
pub struct ServeArgs {
    /// How the access log (stdout) and events (stderr) are written: readable lines (text), JSON
    /// lines (json), or auto: text on a terminal, JSON otherwise, for each stream.
    #[arg(long, value_enum, value_name = "FORMAT", default_value_t = crate::json_line::LogFormat::Auto)]
    pub log_format: crate::json_line::LogFormat,

    /// Answer Prometheus scrapes at http://ADDR/metrics (plain HTTP; 127.0.0.1:9623 when
    /// given without ADDR): requests by pool, status and auth outcome, failed handshakes,
    /// machine fetches, token and certificate expiry, reloads, config sizes, connections.
    #[arg(
        long,
        value_name = "ADDR",
        num_args = 0..=1,
        default_missing_value = "127.0.0.1:9623",
        value_parser = values::listen
    )]
    pub metrics_listen: Option<SocketAddr>,

    /// Where this replica records each fetch of a machine token (default
    /// <dir>/auth/ledger/<hostname>.jsonl), locked while serve writes it; every ledger under
    /// <dir>/auth/ledger counts, read on at each reload poll.
    #[arg(long, value_name = "FILE")]
    pub ledger: Option<std::path::PathBuf>,

    /// The store replicas share, instead of ledger files.
    #[command(flatten)]
    pub store: super::StoreArgs,

    /// With --store: how long pool tokens keep being served from the last state the store
    /// published while it does not answer (machine tokens wait for it at once: 503); then
    /// they get 503 too, until it answers.
    #[arg(long, default_value = "5m", value_name = "DUR", value_parser = values::duration, requires = "store")]
    pub store_grace: Duration,

    /// With --store: the lease this replica holds its fetches under, renewed every third of it.
    /// A replica that stops renewing it (killed, paused, cut off from the members) is taken for
    /// gone once it ends, by the store's clock: its fetches that had not begun sending their
    /// end are given back. Shorter frees a dead replica's machines sooner; at least 2s.
    #[arg(long, default_value = "10s", value_name = "DUR", value_parser = values::lease, requires = "store")]
    pub store_lease: Duration,

    /// How many fetches of a machine token with limited uses may be cut off before their end
    /// (a network that drops, a client that stops reading): each gives the use back and the
    /// machine may fetch again; past this many, the token is refused (401) until `mcsctl
    /// machine add NAME --force` gives it a new one.
    #[arg(long, default_value_t = crate::ledger::DEFAULT_MAX_PARTIAL, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub max_partial_fetches: u32,

    /// HTTPS listen address.
    #[arg(long, default_value = "0.0.0.0:22623", value_name = "ADDR", value_parser = values::listen)]
    pub listen: SocketAddr,

    /// Also listen for plain HTTP (the MCS historically used port 22624). Off by default.
    #[arg(long, value_name = "ADDR", value_parser = values::listen)]
    pub insecure_listen: Option<SocketAddr>,

    /// Auth mode (default: serveAuth of mcsctl.json, else token; never chosen by how many tokens are live).
    #[arg(long, value_enum, value_name = "MODE")]
    pub auth: Option<AuthMode>,

    /// Time allowed to send a request's headers; also the idle keep-alive timeout.
    #[arg(long, default_value = "10s", value_name = "DUR", value_parser = values::duration)]
    pub header_timeout: Duration,

    /// Time allowed for a TLS handshake (and a PROXY protocol header).
    #[arg(long, default_value = "10s", value_name = "DUR", value_parser = values::duration)]
    pub handshake_timeout: Duration,

    /// How long a response may stay unsent because the client does not read; then the connection is cut.
    #[arg(long, default_value = "30s", value_name = "DUR", value_parser = values::duration)]
    pub write_timeout: Duration,

    /// Average bytes per second a response must be read at once it has taken longer than
    /// --write-timeout; a slower reader is cut off (a `slow-client` event).
    #[arg(long, default_value = "8KiB", value_name = "SIZE", value_parser = values::size)]
    pub min_send_rate: u64,

    /// How long one connection may stay open; then it is closed after the request in flight
    /// (which gets --write-timeout more to finish).
    #[arg(long, default_value = "10m", value_name = "DUR", value_parser = values::duration)]
    pub connection_deadline: Duration,

    /// Load balancer (address or CIDR) whose connections start with a PROXY protocol v1/v2 header; repeatable (default: proxyProtocolFrom of mcsctl.json).
    #[arg(long = "proxy-protocol-from", value_name = "CIDR", value_parser = values::cidr)]
    pub proxy_protocol_from: Vec<Cidr>,

    /// Most connections open at once; past it, an idle connection of the client holding the
    /// most is closed to let a newcomer in (none idle: the newcomer is closed).
    #[arg(long, default_value_t = 4096, value_name = "N")]
    pub max_connections: usize,

    /// Most connections one client (address; IPv6 /64; behind a PROXY-protocol balancer, the
    /// client it names) may hold (default: an eighth of --max-connections).
    #[arg(long, value_name = "N")]
    pub max_connections_per_client: Option<usize>,

    /// Largest request head in bytes; larger requests get 431.
    #[arg(long, default_value_t = 16384, value_name = "BYTES")]
    pub max_header_bytes: usize,

    /// How often to look for changed certificates, tokens and rendered configs (SIGHUP reloads at once).
    #[arg(long, default_value = "2s", value_name = "DUR", value_parser = values::duration)]
    pub reload_interval: Duration,

    /// How long SIGTERM waits for in-flight requests before exiting.
    #[arg(long, default_value = "30s", value_name = "DUR", value_parser = values::duration)]
    pub drain_timeout: Duration,

    /// Unknown tokens per client (address; IPv6 /64) per minute before it gets 429; valid tokens are always served.
    #[arg(long, default_value_t = 20, value_name = "N")]
    pub max_failures: u32,

    /// How long a client that exceeded --max-failures gets 429.
    #[arg(long, default_value = "5m", value_name = "DUR", value_parser = values::duration)]
    pub block_for: Duration,

    /// `--dir` after the command.
    #[command(flatten)]
    pub dir: DirArg,
}

/// Arguments of `manifests`.
#[derive(Debug, Args)]
pub struct ManifestsArgs {
    /// Directory to write into (default: <dir>/manifests).
    #[arg(long, value_name = "DIR")]
    pub output: Option<PathBuf>,

    /// Also write what runs `mcsctl serve` from Secrets: a Deployment (--replicas, 2) and a
    /// Service, or with --host-network a DaemonSet on the control plane nodes. A single
    /// replica records machine-token fetches on a PersistentVolumeClaim.
    #[arg(long, requires = "image")]
    pub serve_deployment: bool,

    /// Container image with mcsctl, for --serve-deployment.
    #[arg(long, value_name = "IMAGE")]
    pub image: Option<String>,

    /// Namespace of the serve Deployment, Service and their Secrets.
    #[arg(
        long,
        default_value = "openshift-machine-config-operator",
        value_name = "NS"
    )]
    pub namespace: String,

    /// How booting machines reach the serve Service (with --host-network: the nodes' port 22623
    /// instead).
    #[arg(long, value_enum, default_value_t = ServiceType::NodePort, value_name = "TYPE", conflicts_with = "host_network")]
    pub service_type: ServiceType,

    /// Run serve on the control plane nodes' host network, port 22623 (where a UPI load
    /// balancer already points, as the real MCS runs), tolerating their taints.
    #[arg(long, requires = "serve_deployment")]
    pub host_network: bool,

    /// Auth mode of the deployed serve.
    #[arg(long, value_enum, default_value_t = AuthMode::Token, value_name = "MODE")]
    pub auth: AuthMode,

    /// Replicas of the serve Deployment. With machine tokens in the asset directory and no
    /// --store it must be 1: each replica would keep a ledger of its own, and a single-use
    /// token spent on one would fetch again on another.
    #[arg(long, default_value_t = 2, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=100), requires = "serve_deployment")]
    pub replicas: u32,

    /// With --serve-deployment: the store the replicas share (its TLS files go into Secret
    /// mcsctl-serve-store); then any number of replicas, and no ledger volume.
    #[command(flatten)]
    pub store: super::StoreArgs,

    /// Also write the MCS CA's private key (Secret openshift-machine-config-operator/
    /// machine-config-server-ca), for a cluster whose MCO rotates the CA itself (4.19+). Without
    /// it the key stays offline in the asset directory.
    #[arg(long)]
    pub include_ca_key: bool,

    /// Also write ConfigMap kube-system/root-ca with the MCS CA: only for a cluster whose
    /// root-ca was made by this asset directory (openshift-install writes it at install; it
    /// serves more than the MCS).
    #[arg(long)]
    pub include_root_ca: bool,

    /// Replace existing files.
    #[arg(long)]
    pub force: bool,

    /// `--dir` after the command.
    #[command(flatten)]
    pub dir: DirArg,

    /// `--format` after the command.
    #[command(flatten)]
    pub out: FormatArg,
}

/// A storage section `--allow-irreconcilable` exempts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum IrreconcilableStorage {
    /// storage.disks
    Disks,
    /// storage.filesystems
    Filesystems,
    /// storage.raid
    Raid,
}

impl From<IrreconcilableStorage> for crate::ignition::render::reconcile::Storage {
    fn from(s: IrreconcilableStorage) -> Self {
        use crate::ignition::render::reconcile::Storage;
        match s {
            IrreconcilableStorage::Disks => Storage::Disks,
            IrreconcilableStorage::Filesystems => Storage::Filesystems,
            IrreconcilableStorage::Raid => Storage::Raid,
        }
    }
}
