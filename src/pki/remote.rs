//! Looking at a live TLS endpoint: the chain it presents (even when nothing trusts it), and
//! whether that chain verifies against a given CA bundle, as Ignition would check it.

use std::io::{Read, Write};
use std::net::{TcpStream, ToSocketAddrs};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use anyhow::{Context, Result, anyhow, bail};
use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::crypto::CryptoProvider;
use rustls::pki_types::{CertificateDer, ServerName, UnixTime};
use rustls::{DigitallySignedStruct, SignatureScheme};

use super::cert::CertInfo;

/// The crypto provider every TLS use of mcsctl shares.
pub fn provider() -> Arc<CryptoProvider> {
    Arc::new(rustls::crypto::aws_lc_rs::default_provider())
}

/// Accepts any chain but records it, so `inspect --remote` can show an untrusted chain.
/// Handshake signatures are still verified: the peer must hold the key of what it presents.
#[derive(Debug)]
struct Recorder {
    seen: Mutex<Vec<CertificateDer<'static>>>,
    provider: Arc<CryptoProvider>,
}

impl ServerCertVerifier for Recorder {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        intermediates: &[CertificateDer<'_>],
        _server_name: &ServerName<'_>,
        _ocsp: &[u8],
        _now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        let mut seen = self.seen.lock().unwrap_or_else(|p| p.into_inner());
        seen.push(end_entity.clone().into_owned());
        seen.extend(intermediates.iter().map(|c| c.clone().into_owned()));
        Ok(ServerCertVerified::assertion())
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls12_signature(
            message,
            cert,
            dss,
            &self.provider.signature_verification_algorithms,
        )
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls13_signature(
            message,
            cert,
            dss,
            &self.provider.signature_verification_algorithms,
        )
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.provider
            .signature_verification_algorithms
            .supported_schemes()
    }
}

/// What a handshake with an endpoint showed.
#[derive(Debug)]
pub struct Presented {
    /// The chain, leaf first.
    pub chain: Vec<CertInfo>,
    /// The negotiated protocol version, e.g. `TLSv1_3`.
    pub protocol: String,
}

/// Connects to `addr` (HOST:PORT), sends `server_name` as SNI, completes a handshake and
/// returns the presented chain. Bounded by `timeout` for connect and for the handshake.
pub fn fetch_chain(addr: &str, server_name: &str, timeout: Duration) -> Result<Presented> {
    let sockaddrs: Vec<_> = addr
        .to_socket_addrs()
        .with_context(|| format!("resolving {addr}"))?
        .collect();
    let Some(first) = sockaddrs.first() else {
        bail!("resolving {addr}: no address")
    };
    let mut tcp = TcpStream::connect_timeout(first, timeout)
        .with_context(|| format!("connecting to {addr}"))?;
    tcp.set_read_timeout(Some(timeout))?;
    tcp.set_write_timeout(Some(timeout))?;
    let provider = provider();
    let recorder = Arc::new(Recorder {
        seen: Mutex::new(Vec::new()),
        provider: provider.clone(),
    });
    let config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| anyhow!("TLS setup: {e}"))?
        .dangerous()
        .with_custom_certificate_verifier(recorder.clone())
        .with_no_client_auth();
    let name = ServerName::try_from(server_name.to_string())
        .map_err(|_| anyhow!("invalid server name {server_name:?}"))?;
    let mut conn = rustls::ClientConnection::new(Arc::new(config), name)
        .map_err(|e| anyhow!("TLS setup: {e}"))?;
    while conn.is_handshaking() {
        conn.complete_io(&mut tcp)
            .with_context(|| format!("TLS handshake with {addr}"))?;
    }
    let protocol = conn
        .protocol_version()
        .map(|v| format!("{v:?}"))
        .unwrap_or_default();
    conn.send_close_notify();
    let _ = conn.complete_io(&mut tcp);
    let _ = tcp.flush();
    let mut sink = [0u8; 1];
    let _ = tcp.read(&mut sink);
    let seen = recorder
        .seen
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .clone();
    if seen.is_empty() {
        bail!("{addr} presented no certificate");
    }
    let chain = seen
        .iter()
        .enumerate()
        .map(|(i, der)| {
            CertInfo::from_der(der)
                .with_context(|| format!("{addr}: presented certificate {}", i + 1))
        })
        .collect::<Result<_>>()?;
    Ok(Presented { chain, protocol })
}

/// Verifies a presented chain for `server_name` against `roots` the way a TLS client that
/// trusts only those roots would (Ignition trusts only the pointer config's CAs), now.
pub fn verify_chain(
    chain: &[CertInfo],
    roots: &[CertInfo],
    server_name: &str,
) -> Result<(), super::verify::ChainError> {
    let ders: Vec<&[u8]> = chain.iter().map(|c| c.der.as_slice()).collect();
    let roots: Vec<&[u8]> = roots.iter().map(|c| c.der.as_slice()).collect();
    let now = UnixTime::now().as_secs() as i64;
    super::verify::chain(&ders, &roots, now, Some(server_name))
}
