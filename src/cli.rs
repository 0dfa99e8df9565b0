//! Every clap type of the command line. No logic lives here: handlers in `cmd/` take these
//! structs and call the domain modules, which never see clap.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

/// Installer and PKI toolkit for the Machine Config Server (MCS) trust chain.
///
/// mcsctl creates the MCS CA and serving certificate, writes Ignition pointer configs that carry
/// the CA and a bearer provisioning token, rotates tokens with a grace period, and inspects the
/// whole chain for the mismatches that make a booting machine fail with
/// "x509: certificate signed by unknown authority".
///
/// Exit codes: 0 success; 1 error; 2 usage error; 3 a check found something that needs attention
/// soon (e.g. a certificate inside --warn-within); 4 a check failed (expired, not yet valid,
/// broken chain, key mismatch, CA in a pointer config does not match the served certificate).
#[derive(Debug, Parser)]
#[command(
    name = "mcsctl",
    version,
    propagate_version = true,
    help_expected = true
)]
#[command(max_term_width = 100)]
pub struct Cli {
    /// Global options.
    #[command(flatten)]
    pub global: GlobalArgs,

    /// The command to run.
    #[command(subcommand)]
    pub command: Command,
}

/// Options every command accepts.
#[derive(Debug, Args)]
pub struct GlobalArgs {
    /// Asset directory (CA, serving certificate, tokens, pointer configs).
    #[arg(
        long,
        global = true,
        env = "MCSCTL_DIR",
        default_value = "mcs-assets",
        value_name = "DIR"
    )]
    pub dir: PathBuf,

    /// Output format of the data written to stdout.
    #[arg(long, global = true, value_enum, default_value_t = Format::Text)]
    pub format: Format,

    /// Print only data and errors; no progress or next steps.
    #[arg(short, long, global = true, conflicts_with = "verbose")]
    pub quiet: bool,

    /// Print more detail about what is done, on stderr.
    #[arg(short, long, global = true)]
    pub verbose: bool,

    /// Never prompt; fail naming missing values instead (implied when stdin is not a TTY).
    #[arg(long, global = true)]
    pub non_interactive: bool,
}

/// Output format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// Human-readable text, stable for golden tests.
    Text,
    /// One JSON document (schema in the README).
    Json,
}

/// The commands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Create the whole asset directory in one step: CA, serving certificate, token, pointer configs.
    Init(InitArgs),
    /// Create or import the MCS CA.
    #[command(subcommand)]
    Ca(CaCommand),
    /// Issue or renew the MCS serving certificate.
    #[command(subcommand)]
    Cert(CertCommand),
    /// Write an Ignition pointer config for a pool.
    Pointer(PointerArgs),
    /// Manage bearer provisioning tokens.
    #[command(subcommand)]
    Token(TokenCommand),
    /// Check expiry and consistency of certificates, pointer configs, the asset directory or a live endpoint.
    Inspect(InspectArgs),
    /// Render MachineConfigs into rendered/<pool>.ign and the pre-approval subset.
    Render(RenderArgs),
    /// Serve rendered configs over TLS to booting machines (the Machine Config Server).
    Serve(ServeArgs),
    /// Do what Ignition does with a pointer config, step by step, and say which step fails.
    Doctor(DoctorArgs),
    /// Review kubelet CSRs by the cluster-machine-approver's rules, or sign one.
    #[command(subcommand)]
    Csr(CsrCommand),
    /// Write Kubernetes objects for the cluster, and optionally a Deployment running `mcsctl serve`.
    Manifests(ManifestsArgs),
    /// Print a shell completion script to stdout.
    Completions(CompletionsArgs),
    /// Write one man page per command into a directory.
    Man(ManArgs),
}

/// Key algorithms for generated keys.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum KeyAlgorithm {
    /// ECDSA on NIST P-256 with SHA-256.
    #[value(name = "ecdsa-p256")]
    EcdsaP256,
    /// ECDSA on NIST P-384 with SHA-384.
    #[value(name = "ecdsa-p384")]
    EcdsaP384,
    /// Ed25519.
    Ed25519,
    /// RSA 2048-bit (what openshift-install uses).
    #[value(name = "rsa-2048")]
    Rsa2048,
    /// RSA 3072-bit.
    #[value(name = "rsa-3072")]
    Rsa3072,
    /// RSA 4096-bit.
    #[value(name = "rsa-4096")]
    Rsa4096,
}

/// How a pointer config carries the provisioning token.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum TokenTransport {
    /// `Authorization: Bearer` in httpHeaders (spec 3.1.0 and later).
    Header,
    /// `?token=` in the merge URL (the only way for spec 3.0.0).
    Query,
    /// No token in the pointer config.
    None,
}

/// How `init` puts the token into pointer configs (`--no-token` for none).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum InitTransport {
    /// `Authorization: Bearer` in httpHeaders (spec 3.1.0 and later).
    Header,
    /// `?token=` in the merge URL (the only way for spec 3.0.0).
    Query,
}

/// Arguments of `init`.
#[derive(Debug, Args)]
pub struct InitArgs {
    /// Cluster name (a DNS label), as in the install-config.
    #[arg(long, value_name = "NAME")]
    pub cluster_name: Option<String>,

    /// Base domain (a DNS name); the MCS is reached at api-int.<cluster>.<base-domain>.
    #[arg(long, value_name = "DOMAIN")]
    pub base_domain: Option<String>,

    /// Extra subject alternative name of the serving certificate (DNS name or IP); repeatable.
    #[arg(long = "san", value_name = "SAN")]
    pub sans: Vec<String>,

    /// Where machines reach the MCS, if not at api-int (a load balancer): HOST, HOST:PORT or https://HOST:PORT; its host becomes a SAN.
    #[arg(long, value_name = "URL")]
    pub url: Option<String>,

    /// Adopt this CA instead of creating one (openshift-install's tls/root-ca.crt; PEM or DER).
    #[arg(long, value_name = "FILE", requires = "ca_key")]
    pub ca_cert: Option<PathBuf>,

    /// The adopted CA's private key (PEM or DER; PKCS#1, PKCS#8 or SEC1).
    #[arg(long, value_name = "FILE", requires = "ca_cert")]
    pub ca_key: Option<PathBuf>,

    /// Machine pool to write a pointer config for; repeatable (default: worker and master).
    #[arg(long = "pool", value_name = "POOL")]
    pub pools: Vec<String>,

    /// Key algorithm of the CA and serving keys.
    #[arg(long, value_enum, default_value_t = KeyAlgorithm::EcdsaP256)]
    pub key_algorithm: KeyAlgorithm,

    /// Validity of the CA (e.g. 10y, 365d).
    #[arg(long, default_value = "10y", value_name = "DUR")]
    pub ca_validity: String,

    /// Validity of the serving certificate; never beyond the CA's.
    #[arg(long, default_value = "10y", value_name = "DUR")]
    pub cert_validity: String,

    /// Do not create a provisioning token; pointer configs carry no credential.
    #[arg(long)]
    pub no_token: bool,

    /// How pointer configs carry the token.
    #[arg(long, value_enum, value_name = "TRANSPORT", default_value_t = InitTransport::Header)]
    pub token_transport: InitTransport,

    /// Ignition spec version of the pointer configs (3.0.0 to 3.4.0).
    #[arg(long, default_value = "3.2.0", value_name = "V")]
    pub spec_version: String,

    /// What `render` renders for: OpenShift nodes (the MCS payload) or plain CoreOS.
    #[arg(long = "for", value_enum, default_value_t = RenderFor::Openshift, value_name = "FLAVOUR")]
    pub flavour: RenderFor,

    /// Replace an existing, non-empty asset directory.
    #[arg(long)]
    pub force: bool,
}

/// `ca` subcommands.
#[derive(Debug, Subcommand)]
pub enum CaCommand {
    /// Create the MCS CA; with --force over an existing one, rotate to a new CA and promote it at once.
    Create(CaCreateArgs),
    /// Adopt an existing CA (openshift-install's tls/root-ca.{crt,key}), or trust a cluster's CA bundle.
    Import(CaImportArgs),
    /// Phase 1 of 3: introduce a new CA beside the active one; pointer configs trust both.
    Rotate(CaRotateArgs),
    /// Phase 2 of 3: re-issue the serving certificate from the new CA, which becomes the active one.
    Promote(CaPromoteArgs),
    /// Phase 3 of 3: drop the previous CA from the bundle and every pointer config.
    Retire(CaRetireArgs),
}

/// Arguments of `ca create`.
#[derive(Debug, Args)]
pub struct CaCreateArgs {
    /// Key algorithm of the CA key.
    #[arg(long, value_enum, default_value_t = KeyAlgorithm::EcdsaP256)]
    pub key_algorithm: KeyAlgorithm,

    /// Validity of the CA.
    #[arg(long, default_value = "10y", value_name = "DUR")]
    pub validity: String,

    /// Replace an existing CA: retire any previous CA, rotate to a new one and promote it in one step.
    #[arg(long)]
    pub force: bool,
}

/// Arguments of `ca import`.
#[derive(Debug, Args)]
pub struct CaImportArgs {
    /// CA certificate, PEM or DER.
    #[arg(long, value_name = "FILE", requires = "key", conflicts_with = "bundle")]
    pub cert: Option<PathBuf>,

    /// CA private key, PEM or DER (PKCS#1, PKCS#8 or SEC1).
    #[arg(long, value_name = "FILE")]
    pub key: Option<PathBuf>,

    /// A cluster's CA bundle to trust exactly: the machine-config-server-ca or root-ca ConfigMap (oc get -o json|yaml), or PEM.
    #[arg(long, value_name = "FILE", required_unless_present = "cert")]
    pub bundle: Option<PathBuf>,

    /// Replace an existing CA (rotate to the imported one and promote it in one step).
    #[arg(long)]
    pub force: bool,
}

/// Arguments of `ca rotate`.
#[derive(Debug, Args)]
pub struct CaRotateArgs {
    /// Key algorithm of the new CA key (default: the active CA's).
    #[arg(long, value_enum)]
    pub key_algorithm: Option<KeyAlgorithm>,

    /// Validity of the new CA.
    #[arg(long, default_value = "10y", value_name = "DUR")]
    pub validity: String,

    /// Rotate to an existing CA instead of a new one: its certificate (PEM or DER).
    #[arg(long, value_name = "FILE", requires = "key")]
    pub cert: Option<PathBuf>,

    /// The existing CA's private key (PEM or DER).
    #[arg(long, value_name = "FILE", requires = "cert")]
    pub key: Option<PathBuf>,
}

/// Arguments of `ca promote`.
#[derive(Debug, Args)]
pub struct CaPromoteArgs {
    /// Validity of the re-issued serving certificate (never beyond the new CA's).
    #[arg(long, default_value = "10y", value_name = "DUR")]
    pub validity: String,

    /// Promote even though some pointer configs here do not trust the new CA (they are named).
    #[arg(long)]
    pub force: bool,
}

/// Arguments of `ca retire`.
#[derive(Debug, Args)]
pub struct CaRetireArgs {
    /// Also delete the keys of retired CAs kept under tls/retired/.
    #[arg(long)]
    pub purge: bool,
}

/// `cert` subcommands.
#[derive(Debug, Subcommand)]
pub enum CertCommand {
    /// Issue the serving certificate (tls/mcs.crt, tls/mcs.key), signed by the CA.
    Issue(CertIssueArgs),
    /// Renew the serving certificate: same CA, same SANs, new key.
    Renew(CertRenewArgs),
}

/// Arguments of `cert issue`.
#[derive(Debug, Args)]
pub struct CertIssueArgs {
    /// Extra subject alternative name (DNS name or IP); repeatable.
    #[arg(long = "san", value_name = "SAN")]
    pub sans: Vec<String>,

    /// Key algorithm of the serving key (default: the one recorded in mcsctl.json).
    #[arg(long, value_enum)]
    pub key_algorithm: Option<KeyAlgorithm>,

    /// Validity; never beyond the CA's notAfter.
    #[arg(long, default_value = "10y", value_name = "DUR")]
    pub validity: String,

    /// Replace an existing serving certificate.
    #[arg(long)]
    pub force: bool,
}

/// Arguments of `cert renew`.
#[derive(Debug, Args)]
pub struct CertRenewArgs {
    /// Key algorithm of the new key (default: the one of the current key).
    #[arg(long, value_enum)]
    pub key_algorithm: Option<KeyAlgorithm>,

    /// Validity; never beyond the CA's notAfter.
    #[arg(long, default_value = "10y", value_name = "DUR")]
    pub validity: String,
}

/// Arguments of `pointer`.
#[derive(Debug, Args)]
pub struct PointerArgs {
    /// Machine pool (a DNS label, e.g. worker or master).
    #[arg(long, value_name = "POOL")]
    pub pool: String,

    /// Merge source URL, or the MCS address (HOST[:PORT], completed with /config/<pool>);
    /// remembered for the pool in mcsctl.json (default: init --url, else
    /// https://api-int.<cluster>.<base-domain>:22623/config/<pool>).
    #[arg(long, value_name = "URL")]
    pub url: Option<String>,

    /// Ignition spec version (3.0.0 to 3.4.0; default from mcsctl.json).
    #[arg(long, value_name = "V")]
    pub spec_version: Option<String>,

    /// How the token is carried (default from mcsctl.json; none for no token).
    #[arg(long, value_enum, value_name = "TRANSPORT")]
    pub token_transport: Option<TokenTransport>,

    /// Where to write: a file, or - for stdout (default <dir>/<pool>.ign).
    #[arg(long, short, value_name = "FILE")]
    pub output: Option<PathBuf>,

    /// Write the config base64-encoded, as cloud user-data fields expect.
    #[arg(long)]
    pub base64: bool,

    /// Replace an existing file.
    #[arg(long)]
    pub force: bool,
}

/// `token` subcommands.
#[derive(Debug, Subcommand)]
pub enum TokenCommand {
    /// Create a new token; it becomes current (and goes into pointer configs) when none is.
    Create(TokenCreateArgs),
    /// Make a new current token, keep the old one valid for --grace, rewrite every pointer config.
    Rotate(TokenRotateArgs),
    /// List tokens (ids, states, expiry; never secrets).
    List,
    /// Revoke a token by id.
    Revoke(TokenRevokeArgs),
}

/// Arguments of `token create`.
#[derive(Debug, Args)]
pub struct TokenCreateArgs {
    /// Lifetime of the token (e.g. 24h, 30d); default: no expiry.
    #[arg(long, value_name = "DUR")]
    pub ttl: Option<String>,

    /// Free-text description shown by `token list`.
    #[arg(long, value_name = "TEXT")]
    pub description: Option<String>,
}

/// Arguments of `token rotate`.
#[derive(Debug, Args)]
pub struct TokenRotateArgs {
    /// How long the previous current token stays valid.
    #[arg(long, default_value = "1h", value_name = "DUR")]
    pub grace: String,

    /// Lifetime of the new token; default: no expiry.
    #[arg(long, value_name = "DUR")]
    pub ttl: Option<String>,

    /// Free-text description of the new token.
    #[arg(long, value_name = "TEXT")]
    pub description: Option<String>,
}

/// Arguments of `token revoke`.
#[derive(Debug, Args)]
pub struct TokenRevokeArgs {
    /// Token id (the 6 characters before the dot).
    #[arg(value_name = "ID")]
    pub id: String,
}

/// Arguments of `inspect`.
#[derive(Debug, Args)]
pub struct InspectArgs {
    /// PEM files, pointer configs, Kubernetes Secret/ConfigMap YAML or JSON, or an asset
    /// directory (default: the --dir asset directory).
    #[arg(value_name = "TARGET")]
    pub targets: Vec<PathBuf>,

    /// Connect to a live TLS endpoint and show the chain it presents.
    #[arg(long, value_name = "HOST:PORT")]
    pub remote: Option<String>,

    /// Server name to send (SNI) with --remote (default: the host of HOST:PORT).
    #[arg(long, value_name = "NAME", requires = "remote")]
    pub server_name: Option<String>,

    /// CA bundle to verify --remote against (default: the asset CA bundle when present).
    #[arg(long, value_name = "FILE", requires = "remote")]
    pub ca: Option<PathBuf>,

    /// Warn (exit 3) about certificates expiring within this duration.
    #[arg(long, default_value = "30d", value_name = "DUR")]
    pub warn_within: String,
}

/// Arguments of `completions`.
#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// The shell to generate for.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

/// Arguments of `man`.
#[derive(Debug, Args)]
pub struct ManArgs {
    /// Directory to write the pages into (created when missing).
    #[arg(long, short, value_name = "DIR")]
    pub output: PathBuf,
}

/// Who may fetch configs from `serve`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ServeAuth {
    /// A valid provisioning token is required (401 otherwise).
    Token,
    /// Without a valid token, serve rendered/pre-approval/<pool>.ign; with one, the full config.
    Split,
    /// Full configs to anyone (a loud warning at start).
    None,
}

/// Arguments of `serve`.
#[derive(Debug, Args)]
pub struct ServeArgs {
    /// HTTPS listen address.
    #[arg(long, default_value = "0.0.0.0:22623", value_name = "ADDR")]
    pub listen: String,

    /// Also listen for plain HTTP (the MCS historically used port 22624). Off by default.
    #[arg(long, value_name = "ADDR")]
    pub insecure_listen: Option<String>,

    /// Auth mode (default: serveAuth of mcsctl.json, else token; never chosen by how many tokens are live).
    #[arg(long, value_enum)]
    pub auth: Option<ServeAuth>,

    /// Time allowed to send a request's headers; also the idle keep-alive timeout.
    #[arg(long, default_value = "10s", value_name = "DUR")]
    pub header_timeout: String,

    /// Time allowed for a TLS handshake (and a PROXY protocol header).
    #[arg(long, default_value = "10s", value_name = "DUR")]
    pub handshake_timeout: String,

    /// How long a response may stay unsent because the client does not read; then the connection is cut.
    #[arg(long, default_value = "30s", value_name = "DUR")]
    pub write_timeout: String,

    /// How long one connection may stay open; then it is closed after the request in flight.
    #[arg(long, default_value = "10m", value_name = "DUR")]
    pub connection_deadline: String,

    /// Load balancer (address or CIDR) whose connections start with a PROXY protocol v1/v2 header; repeatable (default: proxyProtocolFrom of mcsctl.json).
    #[arg(long = "proxy-protocol-from", value_name = "CIDR")]
    pub proxy_protocol_from: Vec<String>,

    /// Most connections open at once; further connections are closed at once.
    #[arg(long, default_value_t = 4096, value_name = "N")]
    pub max_connections: usize,

    /// Largest request head in bytes; larger requests get 431.
    #[arg(long, default_value_t = 16384, value_name = "BYTES")]
    pub max_header_bytes: usize,

    /// How often to look for changed certificates, tokens and rendered configs (SIGHUP reloads at once).
    #[arg(long, default_value = "2s", value_name = "DUR")]
    pub reload_interval: String,

    /// How long SIGTERM waits for in-flight requests before exiting.
    #[arg(long, default_value = "30s", value_name = "DUR")]
    pub drain_timeout: String,

    /// Unknown tokens per client (address; IPv6 /64) per minute before it gets 429; valid tokens are always served.
    #[arg(long, default_value_t = 20, value_name = "N")]
    pub max_failures: u32,

    /// How long a client that exceeded --max-failures gets 429.
    #[arg(long, default_value = "5m", value_name = "DUR")]
    pub block_for: String,
}

/// Arguments of `doctor`.
#[derive(Debug, Args)]
pub struct DoctorArgs {
    /// The pointer config to check (default: <dir>/worker.ign).
    #[arg(value_name = "POINTER")]
    pub pointer: Option<PathBuf>,

    /// Use ADDR for HOST instead of DNS, like curl: HOST:ADDR or HOST:PORT:ADDR; repeatable.
    #[arg(long, value_name = "HOST:ADDR")]
    pub resolve: Vec<String>,

    /// The Ignition spec version the simulated client accepts (Ignition 2.14 sends 3.3.0).
    #[arg(long, default_value = "3.3.0", value_name = "V")]
    pub ignition_spec: String,

    /// Time allowed for each network step.
    #[arg(long, default_value = "10s", value_name = "DUR")]
    pub timeout: String,
}

/// `csr` subcommands.
#[derive(Debug, Subcommand)]
pub enum CsrCommand {
    /// Decide, for each pending kubelet CSR, approve / leave pending / ignore, and why.
    Review(CsrReviewArgs),
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

    /// UPI inventory of expected hosts (format in the README), instead of or besides --machines.
    #[arg(long, value_name = "FILE")]
    pub inventory: Option<PathBuf>,

    /// The time to decide at (RFC 3339); default: now. Makes decisions reproducible.
    #[arg(long, value_name = "TIME")]
    pub now: Option<String>,

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
    #[arg(long, default_value = "5s", value_name = "DUR")]
    pub fetch_timeout: String,

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
}

/// Arguments of `csr sign`.
#[derive(Debug, Args)]
pub struct CsrSignArgs {
    /// The request: a PEM CERTIFICATE REQUEST, or a CertificateSigningRequest object (JSON or YAML).
    #[arg(long, value_name = "FILE")]
    pub csr: PathBuf,

    /// CA certificate (default: the asset directory's tls/mcs-ca.crt).
    #[arg(long, value_name = "FILE", requires = "ca_key")]
    pub ca_cert: Option<PathBuf>,

    /// CA key (default: the asset directory's tls/mcs-ca.key).
    #[arg(long, value_name = "FILE", requires = "ca_cert")]
    pub ca_key: Option<PathBuf>,

    /// Validity of the certificate; never beyond the CA's.
    #[arg(long, default_value = "365d", value_name = "DUR")]
    pub validity: String,

    /// Where to write the certificate PEM (default: stdout).
    #[arg(long, short, value_name = "FILE")]
    pub output: Option<PathBuf>,

    /// Replace an existing output file.
    #[arg(long)]
    pub force: bool,
}

/// What rendered configs are for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum RenderFor {
    /// OpenShift / OKD nodes: what the MCS serves (MCO merge rules, node annotations, bootstrap
    /// kubeconfig, the MachineConfig for the machine-config daemon's firstboot).
    Openshift,
    /// Fedora CoreOS fleets with no machine-config daemon: plain Ignition, kernel arguments as
    /// Ignition kernelArguments; fips, kernelType, extensions and osImageURL are refused.
    Coreos,
}

/// Arguments of `render`.
#[derive(Debug, Args)]
#[command(after_long_help = "\
For the openshift flavour every pool's config gets, last and in this order, the files the MCS \
appends: /etc/machine-config-daemon/node-annotations.json, /etc/kubernetes/kubeconfig (the \
bootstrap kubeconfig), /etc/mcs-machine-config-content.json and \
/etc/ignition-machine-config-encapsulated.json. A cluster's rendered MachineConfig \
(`oc get mc rendered-worker-<hash> -o yaml`) is served as it is, under its own name.")]
pub struct RenderArgs {
    /// MachineConfigs: a YAML or JSON file (multi-document or `kind: List`), a directory of them, or -.
    #[arg(
        long,
        value_name = "PATH",
        required_unless_present = "from_mcs",
        conflicts_with = "from_mcs"
    )]
    pub machine_configs: Option<PathBuf>,

    /// What the configs are for (default: the flavour recorded in mcsctl.json, else openshift); recorded.
    #[arg(long = "for", value_enum, value_name = "FLAVOUR")]
    pub flavour: Option<RenderFor>,

    /// The kubelet's bootstrap kubeconfig (kept as auth/bootstrap-kubeconfig, 0600, for later renders).
    #[arg(long, value_name = "FILE")]
    pub bootstrap_kubeconfig: Option<PathBuf>,

    /// Replace a different auth/bootstrap-kubeconfig.
    #[arg(long)]
    pub force: bool,

    /// Ignition spec version of the output (default: the newest input version, at least 3.2.0).
    #[arg(long, value_name = "V")]
    pub spec_version: Option<String>,

    /// A file path (or systemd unit name) allowed to hold a secret in the pre-approval set; repeatable.
    #[arg(long = "allow-sensitive", value_name = "PATH")]
    pub allow_sensitive: Vec<String>,

    /// Store what a live config server serves for --pool (the in-cluster MCS, or another mcsctl serve).
    #[arg(long, value_name = "URL", requires = "pool")]
    pub from_mcs: Option<String>,

    /// The pool to fetch with --from-mcs (appended to the URL as /config/POOL when it has no path).
    #[arg(long, value_name = "POOL", requires = "from_mcs")]
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
}

/// Arguments of `manifests`.
#[derive(Debug, Args)]
pub struct ManifestsArgs {
    /// Directory to write into (default: <dir>/manifests).
    #[arg(long, short, value_name = "DIR")]
    pub output: Option<PathBuf>,

    /// Also write a Deployment (2 replicas) and Service running `mcsctl serve` from Secrets.
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

    /// Service type of the serve Service.
    #[arg(long, default_value = "ClusterIP", value_parser = ["ClusterIP", "NodePort", "LoadBalancer"], value_name = "TYPE")]
    pub service_type: String,

    /// Auth mode of the deployed serve.
    #[arg(long, value_enum, default_value_t = ServeAuth::Token)]
    pub auth: ServeAuth,

    /// Replace existing files.
    #[arg(long)]
    pub force: bool,
}
