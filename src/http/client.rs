//! One GET as Ignition makes it (or the HEAD that answers what that GET would, without its
//! body: a check that spends nothing), recorded step by step: resolve, connect, TLS (verified against
//! the given CAs only, never the system's roots: Ignition trusts only its configs' CAs), the
//! response head, then the body. Each step has its own time limit. The body is judged as Go's
//! HTTP client judges it: a `Content-Length` body that ends early, a chunked body without its
//! last chunk, or a reset is a failure (Go returns "unexpected EOF" and Ignition retries), and
//! it is read up to a size limit.

use std::io;
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::{Duration, Instant};

use http_body_util::{BodyExt, Empty};
use hyper::body::Incoming;
use hyper::header::HeaderMap;
use hyper_util::rt::TokioIo;
use rustls::RootCertStore;
use rustls::pki_types::{CertificateDer, ServerName};

use super::HttpUrl;

/// GET, or HEAD: the same answer without the body (mcsctl serve never spends a single-use
/// token on one).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Method {
    /// What Ignition sends.
    #[default]
    Get,
    /// A check.
    Head,
}

impl Method {
    /// As HTTP writes it.
    pub fn as_str(self) -> &'static str {
        match self {
            Method::Get => "GET",
            Method::Head => "HEAD",
        }
    }
}

/// One fetch.
pub struct Request<'a> {
    /// GET or HEAD.
    pub method: Method,
    /// What to fetch.
    pub url: &'a HttpUrl,
    /// An address to use instead of resolving the host (`doctor --resolve`).
    pub resolve: Option<IpAddr>,
    /// The CAs the server's certificate must chain to (https only).
    pub roots: &'a [CertificateDer<'static>],
    /// The spec version put in Ignition's Accept header, e.g. `3.3.0`.
    pub accept_spec: &'a str,
    /// The User-Agent header.
    pub user_agent: &'a str,
    /// More headers (a pointer's `httpHeaders`, a bearer token). Values are secrets: never
    /// printed, never in an error.
    pub headers: &'a [(String, String)],
    /// Limit of each step (connecting, the handshake, the head, the body).
    pub timeout: Duration,
    /// The largest body read.
    pub max_body: u64,
}

/// What happened, as far as it got.
#[derive(Debug, Default)]
pub struct Exchange {
    /// The addresses tried, and whether they came from `resolve`.
    pub resolved: Option<(Vec<SocketAddr>, bool)>,
    /// The address connected to and how long it took.
    pub connected: Option<(SocketAddr, Duration)>,
    /// For https: the protocol version and the chain the server presented.
    pub tls: Option<(String, Vec<CertificateDer<'static>>)>,
    /// The status and headers of the answer.
    pub head: Option<(hyper::StatusCode, HeaderMap)>,
    /// The whole body.
    pub body: Option<Vec<u8>>,
    /// The step that failed, when one did.
    pub failure: Option<Failure>,
}

/// Where and why a fetch stopped.
#[derive(Debug)]
pub enum Failure {
    /// The host did not resolve.
    Resolve(String),
    /// No address accepted a connection.
    Connect(String),
    /// The handshake failed: the rustls error when there is one (a certificate refused), else
    /// the I/O error.
    Tls(Option<rustls::Error>, String),
    /// The URL's host is no valid TLS server name, or a header cannot be sent.
    Setup(String),
    /// The request could not be sent, or no valid HTTP/1.1 answer came.
    Request(String),
    /// The answer is not HTTP/1.1.
    NotHttp(String),
    /// The body did not arrive whole; `received` bytes came first.
    Body {
        /// Bytes received before it stopped.
        received: u64,
        /// Why.
        why: BodyFailure,
    },
    /// A step took longer than the limit.
    Timeout(&'static str),
}

/// How a body failed to arrive whole.
#[derive(Debug, PartialEq, Eq)]
pub enum BodyFailure {
    /// The connection ended before the length the head announced, or before the last chunk.
    CutOff,
    /// The connection was reset.
    Reset,
    /// It is larger than the limit.
    TooLarge(u64),
    /// Anything else (a malformed chunk).
    Other(String),
}

/// Fetches `req.url`; never fails as a whole: the returned [`Exchange`] says how far it got.
pub fn get(req: &Request<'_>) -> Exchange {
    let mut ex = Exchange::default();
    let rt = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            ex.failure = Some(Failure::Setup(format!("starting the I/O runtime: {e}")));
            return ex;
        }
    };
    if let Err(f) = rt.block_on(fetch(req, &mut ex)) {
        ex.failure = Some(f);
    }
    ex
}

/// Runs `fut` within `limit`, naming `step` when it does not finish.
async fn within<T>(
    limit: Duration,
    step: &'static str,
    fut: impl Future<Output = Result<T, Failure>>,
) -> Result<T, Failure> {
    tokio::time::timeout(limit, fut)
        .await
        .map_err(|_| Failure::Timeout(step))?
}

async fn fetch(req: &Request<'_>, ex: &mut Exchange) -> Result<(), Failure> {
    let (host, port) = (req.url.host(), req.url.port());
    let addrs: Vec<SocketAddr> = match req.resolve {
        Some(ip) => vec![SocketAddr::new(ip, port)],
        None => {
            within(req.timeout, "resolve", async {
                tokio::net::lookup_host((host, port))
                    .await
                    .map(Iterator::collect)
                    .map_err(|e| Failure::Resolve(e.to_string()))
            })
            .await?
        }
    };
    ex.resolved = Some((addrs.clone(), req.resolve.is_some()));

    let start = Instant::now();
    let mut last = String::from("no address");
    let mut tcp = None;
    for a in &addrs {
        match tokio::time::timeout(req.timeout, tokio::net::TcpStream::connect(a)).await {
            Ok(Ok(s)) => {
                tcp = Some((s, *a));
                break;
            }
            Ok(Err(e)) => last = format!("{a}: {e}"),
            Err(_) => last = format!("{a}: no answer within {:?}", req.timeout),
        }
    }
    let (tcp, addr) = tcp.ok_or(Failure::Connect(last))?;
    ex.connected = Some((addr, start.elapsed()));

    let request = build(req)?;
    if !req.url.is_https() {
        return exchange(TokioIo::new(tcp), request, req, ex).await;
    }
    let mut roots = RootCertStore::empty();
    for ca in req.roots {
        // A CA that cannot be a trust anchor simply verifies nothing, as in Go.
        let _ = roots.add(ca.clone());
    }
    let config = rustls::ClientConfig::builder_with_provider(crate::pki::remote::provider())
        .with_safe_default_protocol_versions()
        .map_err(|e| Failure::Setup(format!("TLS setup: {e}")))?
        .with_root_certificates(roots)
        .with_no_client_auth();
    let name = ServerName::try_from(host.to_string())
        .map_err(|_| Failure::Setup(format!("{host} is not a valid TLS server name")))?;
    let tls = within(req.timeout, "tls", async {
        tokio_rustls::TlsConnector::from(Arc::new(config))
            .connect(name, tcp)
            .await
            .map_err(|e| {
                let inner = e
                    .get_ref()
                    .and_then(|i| i.downcast_ref::<rustls::Error>())
                    .cloned();
                Failure::Tls(inner, e.to_string())
            })
    })
    .await?;
    let (_, conn) = tls.get_ref();
    let version = conn
        .protocol_version()
        .map(|v| format!("{v:?}"))
        .unwrap_or_default();
    let chain = conn
        .peer_certificates()
        .map(|c| c.iter().map(|d| d.clone().into_owned()).collect())
        .unwrap_or_default();
    ex.tls = Some((version, chain));
    exchange(TokioIo::new(tls), request, req, ex).await
}

/// The request Ignition sends: GET (or HEAD), Host as written in the URL, its User-Agent and Accept,
/// identity encoding, then the extra headers in order.
fn build(req: &Request<'_>) -> Result<hyper::Request<Empty<bytes::Bytes>>, Failure> {
    let method = match req.method {
        Method::Get => hyper::Method::GET,
        Method::Head => hyper::Method::HEAD,
    };
    let mut b = hyper::Request::builder()
        .method(method)
        .uri(req.url.path_and_query())
        .header(hyper::header::HOST, req.url.authority())
        .header(hyper::header::USER_AGENT, req.user_agent)
        .header(
            hyper::header::ACCEPT,
            format!(
                "application/vnd.coreos.ignition+json;version={}, */*;q=0.1",
                req.accept_spec
            ),
        )
        .header(hyper::header::ACCEPT_ENCODING, "identity");
    for (k, v) in req.headers {
        b = b.header(k.as_str(), v.as_str());
    }
    b.body(Empty::new()).map_err(|_| {
        let names: Vec<&str> = req.headers.iter().map(|(k, _)| k.as_str()).collect();
        Failure::Setup(format!(
            "a header ({}) or the URL holds characters not allowed in an HTTP request",
            names.join(", ")
        ))
    })
}

async fn exchange<T>(
    io: T,
    request: hyper::Request<Empty<bytes::Bytes>>,
    req: &Request<'_>,
    ex: &mut Exchange,
) -> Result<(), Failure>
where
    T: hyper::rt::Read + hyper::rt::Write + Unpin + Send + 'static,
{
    let (mut sender, conn) = hyper::client::conn::http1::handshake(io)
        .await
        .map_err(|e| Failure::Request(e.to_string()))?;
    let driver = tokio::spawn(conn);
    let result = async {
        let resp = within(req.timeout, "response", async {
            sender.send_request(request).await.map_err(|e| {
                if e.is_parse() || e.is_parse_status() {
                    Failure::NotHttp(e.to_string())
                } else if e.is_incomplete_message() {
                    Failure::Request("the server closed the connection without answering".into())
                } else {
                    Failure::Request(describe(&e))
                }
            })
        })
        .await?;
        let (parts, body) = resp.into_parts();
        ex.head = Some((parts.status, parts.headers));
        let body = within(req.timeout, "body", read_body(body, req.max_body)).await?;
        ex.body = Some(body);
        Ok(())
    }
    .await;
    driver.abort();
    result
}

/// Reads the whole body, at most `limit` bytes.
async fn read_body(mut body: Incoming, limit: u64) -> Result<Vec<u8>, Failure> {
    let mut out = Vec::new();
    while let Some(frame) = body.frame().await {
        let frame = frame.map_err(|e| Failure::Body {
            received: out.len() as u64,
            why: body_failure(&e),
        })?;
        if let Some(data) = frame.data_ref() {
            if (out.len() + data.len()) as u64 > limit {
                return Err(Failure::Body {
                    received: out.len() as u64,
                    why: BodyFailure::TooLarge(limit),
                });
            }
            out.extend_from_slice(data);
        }
    }
    Ok(out)
}

/// What hyper's body error means, found by the I/O error under it.
fn body_failure(e: &hyper::Error) -> BodyFailure {
    match io_kind(e) {
        Some(io::ErrorKind::UnexpectedEof) => BodyFailure::CutOff,
        Some(io::ErrorKind::ConnectionReset | io::ErrorKind::ConnectionAborted) => {
            BodyFailure::Reset
        }
        _ if e.is_incomplete_message() => BodyFailure::CutOff,
        _ => BodyFailure::Other(describe(e)),
    }
}

fn io_kind(e: &hyper::Error) -> Option<io::ErrorKind> {
    let mut src: Option<&(dyn std::error::Error + 'static)> = std::error::Error::source(e);
    while let Some(s) = src {
        if let Some(io) = s.downcast_ref::<io::Error>() {
            return Some(io.kind());
        }
        src = s.source();
    }
    None
}

/// hyper's error with its causes, in one line.
fn describe(e: &hyper::Error) -> String {
    let mut out = e.to_string();
    let mut src = std::error::Error::source(e);
    while let Some(s) = src {
        out.push_str(": ");
        out.push_str(&s.to_string());
        src = s.source();
    }
    out
}

impl Failure {
    /// The failure in one line, as the step that failed would say it.
    pub fn describe(&self) -> String {
        match self {
            Failure::Resolve(e) => format!("cannot resolve the host: {e}"),
            Failure::Connect(e) => format!("cannot connect: {e}"),
            Failure::Tls(Some(e), _) => explain_tls(e),
            Failure::Tls(None, e) => format!("TLS handshake failed: {e}"),
            Failure::Setup(e) | Failure::Request(e) => e.clone(),
            Failure::NotHttp(e) => format!("the answer is not a valid HTTP/1.1 response ({e})"),
            Failure::Body { received, why } => match why {
                BodyFailure::CutOff => format!(
                    "the body was cut off after {received} bytes: the connection ended before the length the server announced or before the last chunk (Ignition gets \"unexpected EOF\" and retries)"
                ),
                BodyFailure::Reset => format!(
                    "the connection was reset after {received} bytes of the body (Ignition retries)"
                ),
                BodyFailure::TooLarge(limit) => format!(
                    "the body is larger than {} (raise it with --max-input-size)",
                    crate::size::human(*limit)
                ),
                BodyFailure::Other(e) => format!("reading the body after {received} bytes: {e}"),
            },
            Failure::Timeout(step) => format!("no answer within the time limit ({step})"),
        }
    }
}

/// The first line of a response body, for a message about a refusal (at most 200 characters:
/// a server's reason, never a whole page).
pub fn first_line(body: &[u8]) -> String {
    String::from_utf8_lossy(body)
        .lines()
        .next()
        .unwrap_or_default()
        .chars()
        .take(200)
        .collect()
}

/// The words Go's crypto/tls (so a booting machine's Ignition) would log for a refused
/// certificate.
pub fn explain_tls(e: &rustls::Error) -> String {
    use rustls::CertificateError as C;
    match e {
        rustls::Error::InvalidCertificate(C::UnknownIssuer) => {
            "x509: certificate signed by unknown authority".into()
        }
        // A CA of the same name that did not sign it (another cluster's `CN=root-ca`): Go says
        // "unknown authority" here too.
        rustls::Error::InvalidCertificate(C::BadSignature) => {
            "x509: certificate signed by unknown authority (a CA of the bundle has the issuer's name but did not sign it: another cluster's CA?)".into()
        }
        rustls::Error::InvalidCertificate(C::NotValidForName | C::NotValidForNameContext { .. }) => {
            "the server's certificate does not name this host".into()
        }
        rustls::Error::InvalidCertificate(C::Expired | C::ExpiredContext { .. }) => {
            "the server's certificate has expired".into()
        }
        rustls::Error::InvalidCertificate(C::NotValidYet | C::NotValidYetContext { .. }) => {
            "the server's certificate is not valid yet".into()
        }
        other => format!("TLS handshake failed: {other}"),
    }
}
