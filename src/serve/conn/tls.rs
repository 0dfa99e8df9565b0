//! The TLS part of serve's state: the serving pair as a rustls configuration, built from
//! tls/mcs.crt and tls/mcs.key (and the CA's fingerprint for the banner), kept across reloads
//! that do not touch those files.

use std::sync::Arc;

use anyhow::{Context, Result, anyhow, bail};
use rustls::crypto::CryptoProvider;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};
use time::OffsetDateTime;

use crate::assets::{AssetDir, layout};
use crate::pki::cert::CertInfo;
use crate::serve::state::watched::{FileId, Outcome, file_id};

/// serve's crypto provider: aws-lc-rs's, with its TLS 1.3 suites in the order that costs a
/// handshake least on the server, whose clients are Ignition (Go's crypto/tls) and curl: AES-128-GCM
/// with SHA-256 first (its key schedule hashes with SHA-256, which CPUs do in hardware; the
/// SHA-384 of AES-256-GCM is done in software by aws-lc on many of them, and was a quarter of
/// serve's CPU time per handshake), then ChaCha20-Poly1305 (SHA-256 too), AES-256-GCM last.
/// The TLS 1.2 suites follow in the provider's own order. Every suite here is one rustls
/// ships by default; only the order changes, and serve's order wins over the client's
/// (`ignore_client_order`). Key exchange stays the provider's: a post-quantum hybrid when the
/// client offers one (the config can carry secrets worth recording now and breaking later),
/// else X25519.
pub fn provider() -> Arc<CryptoProvider> {
    use rustls::CipherSuite as C;
    let rank = |s: C| match s {
        C::TLS13_AES_128_GCM_SHA256 => 0,
        C::TLS13_CHACHA20_POLY1305_SHA256 => 1,
        C::TLS13_AES_256_GCM_SHA384 => 2,
        _ => 3,
    };
    let mut p = rustls::crypto::aws_lc_rs::default_provider();
    p.cipher_suites.sort_by_key(|s| rank(s.suite()));
    Arc::new(p)
}

/// The TLS part.
pub struct Tls {
    /// Configuration for new connections.
    pub config: Arc<rustls::ServerConfig>,
    /// SHA-256 fingerprint of the serving certificate.
    pub cert_fingerprint: String,
    /// SHA-256 fingerprint of tls/mcs-ca.crt, when present.
    pub ca_fingerprint: Option<String>,
    /// The serving certificate, for its validity.
    pub leaf: CertInfo,
    /// Identities of the certificate, key and CA files it was built from: while they stay
    /// the same, a reload keeps this configuration (and its session tickets) as it is.
    source: [Option<FileId>; 3],
}

impl Tls {
    /// The TLS part after a reload: `prev` itself while its files are unchanged (a token
    /// rotation or a render keeps the configuration, its session cache and ticket keys, so
    /// clients keep resuming); never a new certificate no client would accept in place of one
    /// they still do; `prev` when the files fail to load.
    pub(in crate::serve) fn reloaded(
        dir: &AssetDir,
        provider: &Arc<CryptoProvider>,
        prev: &Arc<Tls>,
        now: OffsetDateTime,
        o: &mut Outcome,
    ) -> Arc<Tls> {
        if Tls::source_of(dir) == prev.source {
            return prev.clone();
        }
        let now = now.unix_timestamp();
        match Tls::load(dir, provider) {
            Ok(t)
                if t.cert_fingerprint != prev.cert_fingerprint
                    && prev.unusable_at(now).is_none()
                    && let Some(why) = t.unusable_at(now) =>
            {
                o.failed.push((
                    "tls".into(),
                    format!(
                        "{why} (the one being served is valid until {}); run `mcsctl cert renew`",
                        crate::pki::cert::rfc3339(prev.leaf.not_after)
                    ),
                ));
                prev.clone()
            }
            Ok(t) => {
                if t.cert_fingerprint != prev.cert_fingerprint
                    || t.ca_fingerprint != prev.ca_fingerprint
                {
                    o.changed
                        .push(format!("certificate sha256 {}", t.cert_fingerprint));
                }
                t
            }
            Err(e) => {
                o.failed.push(("tls".into(), format!("{e:#}")));
                prev.clone()
            }
        }
    }

    /// Identities of the files [`Tls`] is built from.
    fn source_of(dir: &AssetDir) -> [Option<FileId>; 3] {
        [layout::SERVING_CERT, layout::SERVING_KEY, layout::CA_CERT].map(|r| file_id(&dir.path(r)))
    }

    /// Reads the serving pair (and the CA's fingerprint) and builds the configuration.
    pub(in crate::serve) fn load(
        dir: &AssetDir,
        provider: &Arc<CryptoProvider>,
    ) -> Result<Arc<Tls>> {
        // Taken before reading: a file replaced meanwhile differs at the next reload.
        let source = Tls::source_of(dir);
        let cert_path = dir.path(layout::SERVING_CERT);
        let key_path = dir.path(layout::SERVING_KEY);
        let cert_bytes = crate::assets::read_file(&cert_path)?;
        let key_bytes = crate::assets::read_file(&key_path)?;
        // The PEM readers' own messages ("no items found") say nothing of what the file is.
        let unlike = |path: &std::path::Path, bytes: &[u8], wanted| {
            let shown = path.display().to_string();
            match crate::pki::kind::of(bytes) {
                crate::pki::kind::Kind::DerCertificate | crate::pki::kind::Kind::DerPrivateKey => {
                    anyhow!("{}", crate::pki::kind::not_pem(&shown, bytes))
                }
                _ => anyhow!("{}", crate::pki::kind::mismatch(&shown, bytes, wanted)),
            }
        };
        // One PEM codec (pki's), the same that reads these files everywhere else.
        let chain: Vec<CertificateDer<'static>> =
            crate::pki::cert_ders(&cert_bytes, &cert_path.display().to_string())
                .map_err(|_| {
                    unlike(
                        &cert_path,
                        &cert_bytes,
                        crate::pki::kind::Wanted::Certificate,
                    )
                })?
                .into_iter()
                .map(CertificateDer::from)
                .collect();
        if chain.is_empty() {
            bail!(
                "{}",
                crate::pki::kind::not_pem(&cert_path.display().to_string(), &cert_bytes)
            );
        }
        let key = crate::pki::private_key_der(&key_bytes, &key_path.display().to_string())
            .map_err(|_| unlike(&key_path, &key_bytes, crate::pki::kind::Wanted::PrivateKey))?;
        let leaf = CertInfo::from_der(&chain[0])
            .with_context(|| format!("reading {}", cert_path.display()))?;
        let pair = format!("{} and {}", cert_path.display(), key_path.display());
        let tls = server_config(provider, chain, key, &pair)?;
        // The snapshot's reader; an unreadable CA certificate only leaves its fingerprint out.
        let ca_fingerprint = crate::model::cas::certs(dir, layout::CA_CERT)
            .ok()
            .flatten()
            .and_then(|v| v.into_iter().next())
            .map(|c| c.fingerprint);
        Ok(Arc::new(Tls {
            config: Arc::new(tls),
            cert_fingerprint: leaf.fingerprint.clone(),
            ca_fingerprint,
            leaf,
            source,
        }))
    }

    /// Why every client would refuse this certificate at `now` (expired, not yet valid), as
    /// inspect says it.
    pub fn unusable_at(&self, now: i64) -> Option<String> {
        use crate::pki::cert::Status;
        if Status::of(&self.leaf, now, 0) != Status::Invalid {
            return None;
        }
        Status::reason(&self.leaf, now, 0).map(|why| format!("{} {why}", layout::SERVING_CERT))
    }
}

/// serve's rustls configuration for the serving `chain` and `key` (`pair` names them in an
/// error): TLS 1.3 and 1.2 with `provider`'s suites in its order, HTTP/1.1 by ALPN, resumption.
/// bench/serve.sh's floors (examples/) take it too, so they measure what serve configures.
pub fn server_config(
    provider: &Arc<CryptoProvider>,
    chain: Vec<CertificateDer<'static>>,
    key: PrivateKeyDer<'static>,
    pair: &str,
) -> Result<rustls::ServerConfig> {
    let mut tls = rustls::ServerConfig::builder_with_provider(provider.clone())
        .with_protocol_versions(&[&rustls::version::TLS13, &rustls::version::TLS12])
        .map_err(|e| anyhow!("TLS setup: {e}"))?
        .with_no_client_auth()
        .with_single_cert(chain, key)
        .map_err(|e| anyhow!("{pair} do not form a usable pair: {e}"))?;
    tls.alpn_protocols = vec![b"http/1.1".to_vec()];
    // The suites in serve's order (see [`provider`]).
    tls.ignore_client_order = true;
    // Resumption: a session cache for TLS 1.2 and stateless tickets for both versions.
    tls.session_storage = rustls::server::ServerSessionMemoryCache::new(4096);
    tls.ticketer =
        rustls::crypto::aws_lc_rs::Ticketer::new().map_err(|e| anyhow!("TLS ticketer: {e}"))?;
    // One TLS 1.3 ticket per handshake, not rustls' two: a client resuming takes one per
    // connection (OpenSSL and Go keep the newest), and each costs both sides an
    // encryption and a parse. A client that offers no resumption gets none: Ignition
    // (Go with no session cache) sends no psk_key_exchange_modes, and rustls then sends no
    // ticket (server/tls13.rs).
    tls.send_tls13_tickets = 1;
    Ok(tls)
}
