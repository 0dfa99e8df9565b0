//! `mcsctl.json`, typed: every field that names a choice is an enum, parsed once when the
//! file is read, so a bad value fails the command that reads it, naming the file, instead of
//! being swallowed in one place and defaulted in another.
//!
//! One error policy: an absent file is `None` ([`load`]) or an error for the commands that
//! need it ([`require`]); a present file that cannot be read or parsed is always an error.

use anyhow::{Context, Result, bail};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::assets::{AssetDir, Change, Overwrite, PUBLIC_MODE, layout};
use crate::cidr::Cidr;
use crate::ignition::SpecVersion;
use crate::ignition::pointer::Transport;
use crate::ignition::render::Flavour;
use crate::pki::keys::KeyAlgorithm;

/// Who may fetch what from `serve`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AuthMode {
    /// A valid token is required.
    Token,
    /// Without a valid token the pre-approval config is served; with one, the full config.
    Split,
    /// Full configs to anyone.
    None,
}

impl AuthMode {
    /// The name used on the command line, in `mcsctl.json` and in logs.
    pub fn name(self) -> &'static str {
        match self {
            AuthMode::Token => "token",
            AuthMode::Split => "split",
            AuthMode::None => "none",
        }
    }

    /// Parses the name.
    pub fn parse(s: &str) -> Option<AuthMode> {
        match s {
            "token" => Some(AuthMode::Token),
            "split" => Some(AuthMode::Split),
            "none" => Some(AuthMode::None),
            _ => None,
        }
    }
}

/// `mcsctl.json`: what the later commands need to know about the cluster.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ClusterConfig {
    /// Version of this file's layout.
    pub format_version: u32,
    /// Cluster name.
    pub cluster_name: String,
    /// Base domain.
    pub base_domain: String,
    /// Pools with a pointer config.
    pub pools: Vec<String>,
    /// Ignition spec version of the pointer configs.
    #[serde(with = "named")]
    pub spec_version: SpecVersion,
    /// How pointer configs carry the token.
    #[serde(with = "named")]
    pub token_transport: Transport,
    /// Key algorithm of generated keys.
    #[serde(with = "named")]
    pub key_algorithm: KeyAlgorithm,
    /// What `render` renders for (absent in files written before flavours: openshift).
    #[serde(default)]
    pub flavour: Flavour,
    /// `serve`'s auth mode when `--auth` is not given (absent: token).
    #[serde(default, with = "named_opt", skip_serializing_if = "Option::is_none")]
    pub serve_auth: Option<AuthMode>,
    /// Load balancers (addresses or CIDR blocks) whose connections to `serve` start with a
    /// PROXY protocol header.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub proxy_protocol_from: Vec<Cidr>,
    /// Where machines reach the MCS when not at api-int (`init --url`), e.g. a load balancer:
    /// `https://HOST:PORT`; each pool's config is at `<url>/config/<pool>`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// A pool's own merge URL (`pointer --url`), kept by every rewrite.
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub urls: std::collections::BTreeMap<String, String>,
    /// The store this directory publishes its tokens to, once a command has.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub store: Option<StoreRecord>,
    /// The pools whose full config carries the first-boot report (`render --report`, until
    /// `--no-report`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub report_pools: Vec<String>,
}

/// Where a directory publishes its tokens (`--store`, remembered by the first command that
/// published): its token and machine commands publish there without `--store`, and refuse
/// another store (`token publish --store` moves it). Paths, never what is in the files.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct StoreRecord {
    /// The members (`etcd://HOST:PORT,...`).
    pub url: String,
    /// The key prefix, as resolved (ends in `/`).
    pub prefix: String,
    /// `--store-ca`, absolute.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ca: Option<std::path::PathBuf>,
    /// `--store-cert`, absolute.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cert: Option<std::path::PathBuf>,
    /// `--store-key`, absolute.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub key: Option<std::path::PathBuf>,
    /// `--store-insecure`.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub insecure: bool,
    /// This directory's id in the store (32 hex digits): every state it publishes carries it,
    /// and a store holding another directory's is refused.
    pub id: String,
    /// The generation this directory last published (the store's is one more per publish).
    pub generation: u64,
}

impl ClusterConfig {
    /// The current format version.
    pub const FORMAT_VERSION: u32 = 1;

    /// `<cluster>.<base domain>`: the cluster's name, as the store's key prefix has it.
    pub fn cluster_domain(&self) -> String {
        format!("{}.{}", self.cluster_name, self.base_domain)
    }

    /// `api-int.<cluster>.<base-domain>`, where machines reach the MCS.
    pub fn api_int_host(&self) -> String {
        format!("api-int.{}.{}", self.cluster_name, self.base_domain)
    }

    /// The merge source of a pool: its own URL (`pointer --url`), else `<url>/config/<pool>`
    /// (`init --url`), else api-int on port 22623.
    pub fn default_url(&self, pool: &str) -> String {
        if let Some(u) = self.urls.get(pool) {
            return u.clone();
        }
        match &self.url {
            Some(base) => format!("{}/config/{pool}", base.trim_end_matches('/')),
            None => format!("https://{}:22623/config/{pool}", self.api_int_host()),
        }
    }

    /// `mcsctl.json` as written: pretty JSON and a newline.
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        let mut text = serde_json::to_vec_pretty(self).context("encoding mcsctl.json")?;
        text.push(b'\n');
        Ok(text)
    }

    /// Adds `mcsctl.json` to a change.
    /// mcsctl.json with `pools` added (`--new-pool`); `None` when it has them all.
    pub fn with_pools<'p>(&self, pools: impl IntoIterator<Item = &'p String>) -> Option<Self> {
        let mut c = self.clone();
        for p in pools {
            if !c.pools.contains(p) {
                c.pools.push(p.clone());
            }
        }
        (c.pools.len() != self.pools.len()).then_some(c)
    }

    /// Writes mcsctl.json in `change`.
    pub fn stage(&self, change: &mut Change<'_>) -> Result<()> {
        change.write(
            layout::CONFIG,
            &self.to_bytes()?,
            PUBLIC_MODE,
            Overwrite::Allow,
        );
        Ok(())
    }
}

/// How a token travels in a pointer config of spec `version` that carries one: as mcsctl.json
/// says, and for a directory made without tokens (`none`) or without mcsctl.json, in a header
/// where the spec has them (3.1.0 and later), else in the query. The one resolution that
/// `pointer`, the token workflows and the pointer rewrites use.
pub fn token_transport(cfg: Option<&ClusterConfig>, version: SpecVersion) -> Transport {
    match cfg.map(|c| c.token_transport) {
        Some(Transport::Query) => Transport::Query,
        _ if version.has_http_headers() => Transport::Header,
        _ => Transport::Query,
    }
}

/// `mcsctl.json` of `dir`, or `None` when the directory (or the file) does not exist, or the
/// directory was started step by step. A file
/// that is there but unreadable, not JSON, of another format version or with an unknown value
/// is an error naming it.
pub fn load(dir: &AssetDir) -> Result<Option<ClusterConfig>> {
    if !dir.exists(layout::CONFIG) {
        return Ok(None);
    }
    parse(
        &dir.read(layout::CONFIG)?,
        &dir.path(layout::CONFIG).display().to_string(),
    )
}

/// `mcsctl.json` of a directory started step by step (`ca create` or `ca import` in an empty
/// directory): the directory is mcsctl's, and knows no cluster yet.
#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct StepByStep {
    format_version: u32,
}

/// The bytes of the `mcsctl.json` of a directory started step by step: no cluster yet.
pub fn step_by_step() -> Vec<u8> {
    let mut b = serde_json::to_vec_pretty(&StepByStep {
        format_version: ClusterConfig::FORMAT_VERSION,
    })
    .unwrap_or_default();
    b.push(b'\n');
    b
}

/// Reads `mcsctl.json` from its bytes; `name` names it in errors. `None`: a directory started
/// step by step, with no cluster.
pub fn parse(bytes: &[u8], name: &str) -> Result<Option<ClusterConfig>> {
    let (version, cfg) = match serde_json::from_slice::<StepByStep>(bytes) {
        Ok(s) => (s.format_version, None),
        Err(_) => {
            let cfg: ClusterConfig = serde_json::from_slice(bytes)
                .with_context(|| format!("{name} is not a valid mcsctl.json"))?;
            (cfg.format_version, Some(cfg))
        }
    };
    if version != ClusterConfig::FORMAT_VERSION {
        bail!(
            "{name} has format version {version}, this mcsctl reads version {}",
            ClusterConfig::FORMAT_VERSION
        );
    }
    // Pools name files (`<pool>.ign`), URLs and shell completions: DNS labels only.
    if let Some(c) = &cfg
        && let Some(p) = c
            .pools
            .iter()
            .chain(c.urls.keys())
            .find(|p| !crate::names::is_dns_label(p))
    {
        bail!(
            "{name}: pool {p:?} is not a DNS label (a pool is named like a Kubernetes pool: lowercase letters, digits and '-')"
        );
    }
    if let Some(r) = cfg.as_ref().and_then(|c| c.store.as_ref())
        && (!crate::token::is_directory_id(&r.id)
            || r.url.parse::<crate::store::StoreUrl>().is_err())
    {
        bail!("{name}: its store record is malformed (an etcd:// URL and a 32-hex-digit id)");
    }
    Ok(cfg)
}

/// `mcsctl.json` of `dir`, for the commands that need an initialised directory.
pub fn require(dir: &AssetDir) -> Result<ClusterConfig> {
    dir.require()?;
    match load(dir)? {
        Some(c) => Ok(c),
        None => bail!(
            "{} knows no cluster (it has no {} of one); run `mcsctl init` to create an asset directory",
            dir.root().display(),
            layout::CONFIG
        ),
    }
}

/// A value stored in `mcsctl.json` by its command-line name.
pub trait Named: Sized {
    /// The name.
    fn name(&self) -> String;
    /// Parses the name, saying what is accepted when it is not.
    fn from_name(s: &str) -> Result<Self, String>;
}

impl Named for SpecVersion {
    fn name(&self) -> String {
        self.to_string()
    }
    fn from_name(s: &str) -> Result<Self, String> {
        SpecVersion::parse(s).map_err(|e| e.to_string())
    }
}

impl Named for Transport {
    fn name(&self) -> String {
        Transport::name(*self).into()
    }
    fn from_name(s: &str) -> Result<Self, String> {
        Transport::parse(s).map_err(|e| e.to_string())
    }
}

impl Named for KeyAlgorithm {
    fn name(&self) -> String {
        KeyAlgorithm::name(*self).into()
    }
    fn from_name(s: &str) -> Result<Self, String> {
        s.parse().map_err(|e: anyhow::Error| e.to_string())
    }
}

impl Named for AuthMode {
    fn name(&self) -> String {
        AuthMode::name(*self).into()
    }
    fn from_name(s: &str) -> Result<Self, String> {
        AuthMode::parse(s).ok_or_else(|| format!("{s:?} is not token, split or none"))
    }
}

mod named {
    use super::*;

    pub fn serialize<T: Named, S: Serializer>(v: &T, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&v.name())
    }

    pub fn deserialize<'de, T: Named, D: Deserializer<'de>>(d: D) -> Result<T, D::Error> {
        let s = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        T::from_name(&s).map_err(serde::de::Error::custom)
    }
}

mod named_opt {
    use super::*;

    pub fn serialize<T: Named, S: Serializer>(v: &Option<T>, s: S) -> Result<S::Ok, S::Error> {
        match v {
            Some(v) => s.serialize_str(&v.name()),
            None => s.serialize_none(),
        }
    }

    pub fn deserialize<'de, T: Named, D: Deserializer<'de>>(d: D) -> Result<Option<T>, D::Error> {
        match <Option<std::borrow::Cow<'de, str>>>::deserialize(d)? {
            Some(s) => T::from_name(&s).map(Some).map_err(serde::de::Error::custom),
            None => Ok(None),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const FILE: &str = r#"{
  "formatVersion": 1,
  "clusterName": "demo",
  "baseDomain": "example.com",
  "pools": ["worker"],
  "specVersion": "3.2.0",
  "tokenTransport": "header",
  "keyAlgorithm": "ecdsa-p256",
  "serveAuth": "split",
  "proxyProtocolFrom": ["10.0.0.0/24"]
}
"#;

    #[test]
    fn reads_typed_and_writes_the_same_names() {
        let c: ClusterConfig = serde_json::from_str(FILE).unwrap();
        assert_eq!(c.spec_version, SpecVersion { minor: 2 });
        assert_eq!(c.token_transport, Transport::Header);
        assert_eq!(c.serve_auth, Some(AuthMode::Split));
        assert_eq!(c.proxy_protocol_from[0].to_string(), "10.0.0.0/24");
        let back: serde_json::Value = serde_json::from_slice(&c.to_bytes().unwrap()).unwrap();
        let orig: serde_json::Value = serde_json::from_str(FILE).unwrap();
        let mut orig = orig;
        orig["flavour"] = "openshift".into();
        assert_eq!(back, orig);
    }

    #[test]
    fn a_bad_value_is_an_error_naming_it() {
        for (from, to, says) in [
            ("\"header\"", "\"carrier-pigeon\"", "header, query or none"),
            ("\"split\"", "\"open\"", "token, split or none"),
            ("\"3.2.0\"", "\"2.2.0\"", "spec 2 configs"),
            ("\"ecdsa-p256\"", "\"dsa\"", "dsa"),
            ("\"10.0.0.0/24\"", "\"lb.example.com\"", "not an IP address"),
        ] {
            let bad = FILE.replacen(from, to, 1);
            let e = serde_json::from_str::<ClusterConfig>(&bad).unwrap_err();
            assert!(e.to_string().contains(says), "{e}");
        }
    }
}
