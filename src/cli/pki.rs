//! `init`, `ca` and `cert`: the CA and the serving certificate.

use std::path::PathBuf;

use clap::{Args, Subcommand};

use super::values;
use super::{DirArg, FormatArg};
use crate::duration::Duration;
use crate::ignition::SpecVersion;
use crate::ignition::pointer::Transport;
use crate::ignition::render::Flavour;
use crate::names::{McsAddress, San};
use crate::pki::keys::KeyAlgorithm;

/// Arguments of `init`.
#[derive(Debug, Args)]
pub struct InitArgs {
    /// Cluster name (a DNS label), as in the install-config.
    #[arg(long, value_name = "NAME", value_parser = values::dns_label)]
    pub cluster_name: Option<String>,

    /// Base domain (a DNS name); the MCS is reached at api-int.<cluster>.<base-domain>.
    #[arg(long, value_name = "DOMAIN", value_parser = values::dns_name)]
    pub base_domain: Option<String>,

    /// Where machines reach the MCS, if not at api-int (a load balancer): HOST, HOST:PORT or
    /// https://HOST:PORT; its host becomes a SAN.
    #[arg(long, value_name = "URL", value_parser = values::mcs_address)]
    pub url: Option<McsAddress>,

    /// Extra subject alternative name of the serving certificate (DNS name or IP); repeatable.
    #[arg(long = "san", value_name = "SAN", value_parser = values::san)]
    pub sans: Vec<San>,

    /// Machine pool to write a pointer config for; repeatable (default: worker and master).
    #[arg(long = "pool", value_name = "POOL", value_parser = values::dns_label)]
    pub pools: Vec<String>,

    /// Adopt this CA instead of creating one (openshift-install's tls/root-ca.crt; PEM or DER).
    #[arg(long, value_name = "FILE", requires = "ca_key")]
    pub ca_cert: Option<PathBuf>,

    /// The adopted CA's private key (PEM or DER; PKCS#1, PKCS#8 or SEC1).
    #[arg(long, value_name = "FILE", requires = "ca_cert")]
    pub ca_key: Option<PathBuf>,

    /// Key algorithm of the CA and serving keys (default ecdsa-p256).
    #[arg(long, value_enum, value_name = "ALGORITHM")]
    pub key_algorithm: Option<KeyAlgorithm>,

    /// Validity of the CA (e.g. 10y, 365d).
    #[arg(long, default_value = "10y", value_name = "DUR", value_parser = values::duration)]
    pub ca_validity: Duration,

    /// Validity of the serving certificate; never beyond the CA's.
    #[arg(long, default_value = "10y", value_name = "DUR", value_parser = values::duration)]
    pub cert_validity: Duration,

    /// Do not create a provisioning token; pointer configs carry no credential.
    #[arg(long)]
    pub no_token: bool,

    /// How pointer configs carry the token: header or query.
    #[arg(long, value_name = "TRANSPORT", default_value = "header", value_parser = values::init_transport)]
    pub token_transport: Transport,

    /// Ignition spec version of the pointer configs (3.0.0 to 3.4.0).
    #[arg(long, default_value = "3.2.0", value_name = "V", value_parser = values::pointer_spec)]
    pub spec_version: SpecVersion,

    /// What `render` renders for: OpenShift nodes (the MCS payload) or plain CoreOS.
    #[arg(long = "for", value_enum, default_value_t = Flavour::OpenShift, value_name = "FLAVOUR")]
    pub flavour: Flavour,

    /// Replace an existing, non-empty asset directory: the keys, tokens and pointer configs it
    /// replaces are kept under backup/<time>/ (and listed), pointer configs of pools no longer
    /// listed are removed; tls/retired/ is left as it is.
    #[arg(long)]
    pub force: bool,

    /// With --force: replace the CA key without asking (needed without a terminal; every
    /// pointer config made from the old CA stops working).
    #[arg(long, short = 'y')]
    pub yes: bool,

    /// `--dir` after the command.
    #[command(flatten)]
    pub dir: DirArg,

    /// `--format` after the command.
    #[command(flatten)]
    pub out: FormatArg,
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
    #[arg(long, value_enum, value_name = "ALGORITHM", default_value_t = KeyAlgorithm::EcdsaP256)]
    pub key_algorithm: KeyAlgorithm,

    /// Validity of the CA.
    #[arg(long, default_value = "10y", value_name = "DUR", value_parser = values::duration)]
    pub validity: Duration,

    /// Replace an existing CA: retire any previous CA, rotate to a new one and promote it in one
    /// step. Refused while pointer configs trust the CA (their copies would stop working) unless
    /// --yes; `ca rotate` keeps them working. No key is lost: the replaced CA's key is kept as
    /// tls/mcs-ca-previous.key, a previous one's under tls/retired/.
    #[arg(long)]
    pub force: bool,

    /// With --force: replace the CA even though copies of the pointer configs stop working.
    #[arg(long, short = 'y', requires = "force")]
    pub yes: bool,

    /// `--dir` after the command.
    #[command(flatten)]
    pub dir: DirArg,

    /// `--format` after the command.
    #[command(flatten)]
    pub out: FormatArg,
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

    /// A cluster's CA bundle to trust exactly: the machine-config-server-ca or root-ca ConfigMap
    /// (oc get -o json|yaml), or PEM; with the Secret of the same name (or --key), its signing
    /// key. The directory's own bundle again changes nothing; a bundle without the CA whose key
    /// is here needs --force, and that key is kept under tls/retired/.
    #[arg(long, value_name = "FILE", required_unless_present = "cert")]
    pub bundle: Option<PathBuf>,

    /// Replace an existing CA (rotate to the imported one and promote it in one step). Refused
    /// while pointer configs trust the CA unless --yes; `ca rotate --cert --key` keeps them
    /// working. Not needed to put the active CA's own key back. No key is lost: a replaced one
    /// is kept as tls/mcs-ca-previous.key or under tls/retired/ (and listed).
    #[arg(long)]
    pub force: bool,

    /// With --force: replace the CA even though copies of the pointer configs stop working.
    #[arg(long, short = 'y', requires = "force")]
    pub yes: bool,

    /// `--dir` after the command.
    #[command(flatten)]
    pub dir: DirArg,

    /// `--format` after the command.
    #[command(flatten)]
    pub out: FormatArg,
}

/// Arguments of `ca rotate`.
#[derive(Debug, Args)]
pub struct CaRotateArgs {
    /// Key algorithm of the new CA key (default: the active CA's).
    #[arg(long, value_enum, value_name = "ALGORITHM")]
    pub key_algorithm: Option<KeyAlgorithm>,

    /// Validity of the new CA.
    #[arg(long, default_value = "10y", value_name = "DUR", value_parser = values::duration)]
    pub validity: Duration,

    /// Rotate to an existing CA instead of a new one: its certificate (PEM or DER).
    #[arg(long, value_name = "FILE", requires = "key")]
    pub cert: Option<PathBuf>,

    /// The existing CA's private key (PEM or DER).
    #[arg(long, value_name = "FILE", requires = "cert")]
    pub key: Option<PathBuf>,

    /// `--dir` after the command.
    #[command(flatten)]
    pub dir: DirArg,

    /// `--format` after the command.
    #[command(flatten)]
    pub out: FormatArg,
}

/// Arguments of `ca promote`.
#[derive(Debug, Args)]
pub struct CaPromoteArgs {
    /// Validity of the re-issued serving certificate (never beyond the new CA's).
    #[arg(long, default_value = "10y", value_name = "DUR", value_parser = values::duration)]
    pub validity: Duration,

    /// Promote even though some pointer configs here do not trust the new CA (they are named).
    #[arg(long)]
    pub force: bool,

    /// `--dir` after the command.
    #[command(flatten)]
    pub dir: DirArg,

    /// `--format` after the command.
    #[command(flatten)]
    pub out: FormatArg,
}

/// Arguments of `ca retire`.
#[derive(Debug, Args)]
pub struct CaRetireArgs {
    /// Also delete the keys of retired CAs kept under tls/retired/: the one way mcsctl deletes
    /// a CA key. Without it, the retired CA's key is kept there (and listed).
    #[arg(long)]
    pub purge: bool,

    /// `--dir` after the command.
    #[command(flatten)]
    pub dir: DirArg,

    /// `--format` after the command.
    #[command(flatten)]
    pub out: FormatArg,
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
    /// A subject alternative name (DNS name or IP) to add; repeatable. The certificate always
    /// names api-int and the hosts of the URLs in mcsctl.json, and keeps the current
    /// certificate's names unless --replace-sans.
    #[arg(long = "san", value_name = "SAN", value_parser = values::san)]
    pub sans: Vec<San>,

    /// Leave out the current certificate's names: the new one names api-int, the recorded
    /// URL hosts and --san only.
    #[arg(long)]
    pub replace_sans: bool,

    /// Key algorithm of the serving key (default: the one recorded in mcsctl.json).
    #[arg(long, value_enum, value_name = "ALGORITHM")]
    pub key_algorithm: Option<KeyAlgorithm>,

    /// Validity; never beyond the CA's notAfter.
    #[arg(long, default_value = "10y", value_name = "DUR", value_parser = values::duration)]
    pub validity: Duration,

    /// Replace an existing serving certificate.
    #[arg(long)]
    pub force: bool,

    /// `--dir` after the command.
    #[command(flatten)]
    pub dir: DirArg,

    /// `--format` after the command.
    #[command(flatten)]
    pub out: FormatArg,
}

/// Arguments of `cert renew`.
#[derive(Debug, Args)]
pub struct CertRenewArgs {
    /// Key algorithm of the new key (default: the one of the current key).
    #[arg(long, value_enum, value_name = "ALGORITHM")]
    pub key_algorithm: Option<KeyAlgorithm>,

    /// Validity; never beyond the CA's notAfter.
    #[arg(long, default_value = "10y", value_name = "DUR", value_parser = values::duration)]
    pub validity: Duration,

    /// `--dir` after the command.
    #[command(flatten)]
    pub dir: DirArg,

    /// `--format` after the command.
    #[command(flatten)]
    pub out: FormatArg,
}
