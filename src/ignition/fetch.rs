//! Fetching a config from a live config server as Ignition does (`render --from-mcs`): one GET
//! with Ignition's Accept header and an optional bearer token, TLS verified against a given CA
//! bundle only (never the system's roots, as Ignition trusts only its pointer config's CAs).
//! HTTP/1.1 through hyper's client connection over tokio-rustls.

use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context as _, Result, anyhow, bail};
use http_body_util::{BodyExt, Empty, Limited};
use hyper::Uri;
use hyper_util::rt::TokioIo;
use rustls::RootCertStore;
use rustls::pki_types::{CertificateDer, ServerName};

use super::SpecVersion;

/// Largest config accepted (the MCS's payloads are a few MiB at most).
pub const MAX_BODY: usize = 64 << 20;

/// One fetch.
pub struct Request<'a> {
    /// `https://HOST[:PORT]/config/<pool>` (http only without a token).
    pub url: &'a Uri,
    /// The CAs the server's certificate must chain to.
    pub roots: &'a [CertificateDer<'static>],
    /// A bearer token, sent as `Authorization: Bearer`. Never logged or printed.
    pub token: Option<&'a str>,
    /// The spec version asked for in Accept.
    pub version: SpecVersion,
    /// Bound on connecting, the handshake and the whole response.
    pub timeout: Duration,
}

/// What the server answered: the status and, for 200, the body.
#[derive(Debug)]
pub struct Response {
    /// HTTP status.
    pub status: u16,
    /// The body (limited to [`MAX_BODY`]).
    pub body: Vec<u8>,
}

/// Fetches `req.url`. Errors say which step failed (connect, TLS with the reason a booting
/// machine would log, the response).
pub fn get(req: &Request<'_>) -> Result<Response> {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("starting the fetch runtime")?;
    rt.block_on(async {
        tokio::time::timeout(req.timeout, fetch(req))
            .await
            .map_err(|_| {
                anyhow!(
                    "no complete answer from {} within {:?}",
                    req.url,
                    req.timeout
                )
            })?
    })
}

async fn fetch(req: &Request<'_>) -> Result<Response> {
    let url = req.url;
    let https = match url.scheme_str() {
        Some("https") => true,
        Some("http") => false,
        _ => bail!("{url} is not an http(s) URL"),
    };
    if !https && req.token.is_some() {
        bail!("refusing to send the token over plain http; use https");
    }
    let host = url
        .host()
        .ok_or_else(|| anyhow!("{url} has no host"))?
        .trim_start_matches('[')
        .trim_end_matches(']')
        .to_string();
    let port = url.port_u16().unwrap_or(if https { 443 } else { 80 });
    let tcp = tokio::net::TcpStream::connect((host.as_str(), port))
        .await
        .with_context(|| format!("connecting to {host}:{port}"))?;
    let request = build(req)?;
    if https {
        let mut roots = RootCertStore::empty();
        for ca in req.roots {
            roots
                .add(ca.clone())
                .map_err(|e| anyhow!("a CA of the bundle is unusable: {e}"))?;
        }
        let config = rustls::ClientConfig::builder_with_provider(crate::pki::remote::provider())
            .with_safe_default_protocol_versions()
            .map_err(|e| anyhow!("TLS setup: {e}"))?
            .with_root_certificates(roots)
            .with_no_client_auth();
        let name = ServerName::try_from(host.clone())
            .map_err(|_| anyhow!("{host} is not a valid TLS server name"))?;
        let tls = tokio_rustls::TlsConnector::from(Arc::new(config))
            .connect(name, tcp)
            .await
            .map_err(|e| anyhow!("TLS with {host}:{port}: {}", explain_tls(&e)))?;
        exchange(TokioIo::new(tls), request).await
    } else {
        exchange(TokioIo::new(tcp), request).await
    }
}

fn build(req: &Request<'_>) -> Result<hyper::Request<Empty<bytes::Bytes>>> {
    let authority = req
        .url
        .authority()
        .ok_or_else(|| anyhow!("{} has no host", req.url))?
        .as_str()
        .to_string();
    let path = req
        .url
        .path_and_query()
        .map_or("/".to_string(), |p| p.as_str().to_string());
    let mut b = hyper::Request::get(path)
        .header(hyper::header::HOST, authority)
        .header(
            hyper::header::ACCEPT,
            format!(
                "application/vnd.coreos.ignition+json;version={}, */*;q=0.1",
                req.version
            ),
        )
        .header(
            hyper::header::USER_AGENT,
            concat!("mcsctl/", env!("CARGO_PKG_VERSION"), " (render --from-mcs)"),
        );
    if let Some(t) = req.token {
        b = b.header(hyper::header::AUTHORIZATION, format!("Bearer {t}"));
    }
    b.body(Empty::new())
        .map_err(|_| anyhow!("the token or URL holds characters not allowed in an HTTP request"))
}

async fn exchange<T>(io: T, request: hyper::Request<Empty<bytes::Bytes>>) -> Result<Response>
where
    T: hyper::rt::Read + hyper::rt::Write + Unpin + Send + 'static,
{
    let (mut sender, conn) = hyper::client::conn::http1::handshake(io)
        .await
        .context("starting HTTP/1.1")?;
    let driver = tokio::spawn(conn);
    let resp = sender
        .send_request(request)
        .await
        .context("sending the request")?;
    let status = resp.status().as_u16();
    let body = Limited::new(resp.into_body(), MAX_BODY)
        .collect()
        .await
        .map_err(|e| anyhow!("reading the response: {e}"))?
        .to_bytes()
        .to_vec();
    driver.abort();
    Ok(Response { status, body })
}

/// The words a booting machine's Ignition would log for a TLS failure, with what to do.
fn explain_tls(e: &std::io::Error) -> String {
    let inner = e.get_ref().and_then(|i| i.downcast_ref::<rustls::Error>());
    match inner {
        Some(rustls::Error::InvalidCertificate(rustls::CertificateError::UnknownIssuer)) => {
            "x509: certificate signed by unknown authority; pass the server's CA with --ca (a PEM file, or a pointer config that trusts it)".into()
        }
        // A CA of the same name that did not sign it (another cluster's `CN=root-ca`): Go says
        // "unknown authority" here too.
        Some(rustls::Error::InvalidCertificate(rustls::CertificateError::BadSignature)) => {
            "x509: certificate signed by unknown authority (a CA of the bundle has the issuer's name but did not sign it: another cluster's CA?); pass the server's CA with --ca (a PEM file, or a pointer config that trusts it)".into()
        }
        Some(rustls::Error::InvalidCertificate(rustls::CertificateError::NotValidForName))
        | Some(rustls::Error::InvalidCertificate(
            rustls::CertificateError::NotValidForNameContext { .. },
        )) => "the server's certificate does not name this host".into(),
        Some(rustls::Error::InvalidCertificate(rustls::CertificateError::Expired))
        | Some(rustls::Error::InvalidCertificate(rustls::CertificateError::ExpiredContext {
            ..
        })) => "the server's certificate has expired".into(),
        Some(other) => other.to_string(),
        None => e.to_string(),
    }
}
