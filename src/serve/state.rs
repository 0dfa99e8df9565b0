//! What `serve` holds in memory, loaded from the asset directory as one unit: the TLS
//! configuration, digests of the live tokens, and every rendered config in every spec version.
//! A reload builds a new `State` and swaps it in only when the whole of it loaded.

use std::collections::{BTreeMap, HashMap};
use std::os::unix::fs::MetadataExt;
use std::path::Path;
use std::sync::Arc;

use anyhow::{Context, Result, anyhow, bail};
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};
use time::OffsetDateTime;

use crate::assets::{AssetDir, layout};
use crate::ignition::translate::Variants;
use crate::names::is_dns_label;
use crate::pki::cert::CertInfo;
use crate::token::TokenStore;

/// The rendered configs directory, relative to the asset directory.
pub const RENDERED: &str = "rendered";
/// The pre-approval subset, relative to the asset directory.
pub const PRE_APPROVAL: &str = "rendered/pre-approval";

/// A live token as the server keeps it: the id (public) and a SHA-256 digest of `<id>.<secret>`.
#[derive(Debug, Clone)]
pub struct TokenDigest {
    /// Public id.
    pub id: String,
    /// SHA-256 of the bearer string.
    pub digest: [u8; 32],
    /// Expiry, if any.
    pub expires: Option<OffsetDateTime>,
}

/// One loaded generation of the asset directory.
pub struct State {
    /// TLS configuration for new connections.
    pub tls: Arc<rustls::ServerConfig>,
    /// SHA-256 fingerprint of the serving certificate.
    pub cert_fingerprint: String,
    /// SHA-256 fingerprint of the CA that issued it, when tls/mcs-ca.crt is present.
    pub ca_fingerprint: Option<String>,
    /// Live tokens (current and in-grace), as digests.
    pub tokens: Vec<TokenDigest>,
    /// Full rendered configs by pool.
    pub full: HashMap<String, Variants>,
    /// Pre-approval configs by pool.
    pub pre: HashMap<String, Variants>,
}

impl std::fmt::Debug for State {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("State")
            .field("cert", &self.cert_fingerprint)
            .field(
                "tokens",
                &self.tokens.iter().map(|t| &t.id).collect::<Vec<_>>(),
            )
            .field("pools", &self.full.keys().collect::<Vec<_>>())
            .finish()
    }
}

/// SHA-256 of a bearer string.
pub fn digest(bearer: &str) -> [u8; 32] {
    let d = aws_lc_rs::digest::digest(&aws_lc_rs::digest::SHA256, bearer.as_bytes());
    let mut out = [0u8; 32];
    out.copy_from_slice(d.as_ref());
    out
}

impl State {
    /// Loads everything; any bad file fails the whole load (the caller keeps the last good
    /// state). `now` filters out expired tokens at load; expiry is checked again per request.
    pub fn load(
        dir: &AssetDir,
        provider: Arc<rustls::crypto::CryptoProvider>,
        now: OffsetDateTime,
    ) -> Result<State> {
        dir.require()?;
        let cert_path = dir.path(layout::SERVING_CERT);
        let key_path = dir.path(layout::SERVING_KEY);
        let chain: Vec<CertificateDer<'static>> = CertificateDer::pem_file_iter(&cert_path)
            .and_then(|it| it.collect::<Result<Vec<_>, _>>())
            .map_err(|e| anyhow!("reading {}: {e}", cert_path.display()))?;
        if chain.is_empty() {
            bail!("{} holds no certificate", cert_path.display());
        }
        let key = PrivateKeyDer::from_pem_file(&key_path)
            .map_err(|e| anyhow!("reading {}: {e}", key_path.display()))?;
        let leaf = CertInfo::from_der(&chain[0])
            .with_context(|| format!("reading {}", cert_path.display()))?;
        let mut tls = rustls::ServerConfig::builder_with_provider(provider.clone())
            .with_protocol_versions(&[&rustls::version::TLS13, &rustls::version::TLS12])
            .map_err(|e| anyhow!("TLS setup: {e}"))?
            .with_no_client_auth()
            .with_single_cert(chain, key)
            .map_err(|e| {
                anyhow!(
                    "{} and {} do not form a usable pair: {e}",
                    cert_path.display(),
                    key_path.display()
                )
            })?;
        tls.alpn_protocols = vec![b"http/1.1".to_vec()];
        // Resumption: a session cache for TLS 1.2 and stateless tickets for both versions.
        tls.session_storage = rustls::server::ServerSessionMemoryCache::new(4096);
        tls.ticketer =
            rustls::crypto::aws_lc_rs::Ticketer::new().map_err(|e| anyhow!("TLS ticketer: {e}"))?;
        let ca_fingerprint = if dir.exists(layout::CA_CERT) {
            crate::pki::cert::parse_pem_certs(
                &dir.read(layout::CA_CERT)?,
                &dir.path(layout::CA_CERT).display().to_string(),
            )
            .ok()
            .and_then(|v| v.into_iter().next())
            .map(|c| c.fingerprint)
        } else {
            None
        };

        let tokens = if dir.exists(layout::TOKENS) {
            let store = TokenStore::parse(
                &dir.read(layout::TOKENS)?,
                &dir.path(layout::TOKENS).display().to_string(),
            )?;
            store
                .live(now)
                .map(|t| TokenDigest {
                    id: t.id.clone(),
                    digest: digest(&t.bearer()),
                    expires: t.expires,
                })
                .collect()
        } else {
            Vec::new()
        };

        Ok(State {
            tls: Arc::new(tls),
            cert_fingerprint: leaf.fingerprint,
            ca_fingerprint,
            tokens,
            full: load_configs(&dir.path(RENDERED))?,
            pre: load_configs(&dir.path(PRE_APPROVAL))?,
        })
    }
}

/// `<pool>.ign` files of a directory (missing directory: none). Names that are not DNS labels
/// are skipped: they could never be requested.
fn load_configs(d: &Path) -> Result<HashMap<String, Variants>> {
    let mut out = HashMap::new();
    let rd = match std::fs::read_dir(d) {
        Ok(rd) => rd,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(out),
        Err(e) => return Err(e).with_context(|| format!("reading {}", d.display())),
    };
    for e in rd {
        let e = e.with_context(|| format!("reading {}", d.display()))?;
        let name = e.file_name().to_string_lossy().into_owned();
        let Some(pool) = name.strip_suffix(".ign") else {
            continue;
        };
        if !is_dns_label(pool) {
            continue;
        }
        let p = e.path();
        // Follows symlinks (Kubernetes mounts are symlinks into ..data).
        if !std::fs::metadata(&p).is_ok_and(|m| m.is_file()) {
            continue;
        }
        let bytes = std::fs::read(&p).with_context(|| format!("reading {}", p.display()))?;
        out.insert(
            pool.to_string(),
            Variants::new(&bytes, &p.display().to_string())?,
        );
    }
    Ok(out)
}

/// File identities by path: (device, inode, size, mtime seconds, mtime nanoseconds).
pub type Fingerprint = BTreeMap<String, (u64, u64, u64, i64, i64)>;

/// What the poller compares to notice a change: for every file the server reads, its
/// identity after following symlinks (device, inode, size, mtime). A Kubernetes Secret update
/// swaps the `..data` symlink, which changes the inode behind every name.
pub fn fingerprint(dir: &AssetDir) -> Fingerprint {
    let mut m = BTreeMap::new();
    let mut add = |p: &Path| {
        if let Ok(md) = std::fs::metadata(p) {
            m.insert(
                p.display().to_string(),
                (md.dev(), md.ino(), md.size(), md.mtime(), md.mtime_nsec()),
            );
        }
    };
    for rel in [
        layout::SERVING_CERT,
        layout::SERVING_KEY,
        layout::TOKENS,
        layout::CA_CERT,
    ] {
        add(&dir.path(rel));
    }
    for sub in [RENDERED, PRE_APPROVAL] {
        if let Ok(rd) = std::fs::read_dir(dir.path(sub)) {
            for e in rd.flatten() {
                if e.file_name().to_string_lossy().ends_with(".ign") {
                    add(&e.path());
                }
            }
        }
    }
    m
}
