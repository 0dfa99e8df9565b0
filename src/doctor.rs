//! `mcsctl doctor`: does what Ignition does with a pointer config, one step at a time, and
//! says which step fails, why, and what fixes it. Blocking I/O with hard timeouts; nothing is
//! retried (Ignition would retry for ever, which is what makes a failed boot so opaque).

use std::io::{Read, Write};
use std::net::{IpAddr, SocketAddr, TcpStream, ToSocketAddrs};
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::Result;
use rustls::RootCertStore;
use rustls::pki_types::{CertificateDer, ServerName};
use serde::Serialize;
use serde_json::Value;

use crate::ignition::dataurl;
use crate::ignition::pointer::{self, url_host};
use crate::pki::cert::{CertInfo, parse_pem_certs};
use crate::pki::remote;

/// The largest response body read (Ignition itself has no limit; a config is rarely 10 MiB).
const MAX_BODY: usize = 64 * 1024 * 1024;
/// How deep merge/replace references are followed.
const MAX_DEPTH: usize = 3;

/// Inputs of a doctor run.
#[derive(Debug, Clone)]
pub struct Options {
    /// Path to the pointer config.
    pub pointer: std::path::PathBuf,
    /// Overrides of name resolution: (host, optional port, address).
    pub resolve: Vec<Resolve>,
    /// The spec version the simulated Ignition accepts, e.g. `3.3.0`.
    pub ignition_spec: String,
    /// Limit of each network step.
    pub timeout: Duration,
}

/// Result of one step.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// It worked.
    Ok,
    /// It failed; the steps after it were not run.
    Fail,
}

/// One step of the run.
#[derive(Debug, Clone, Serialize)]
pub struct Step {
    /// Step name (`parse`, `resolve`, `connect`, `tls`, `request`, `status`, `config`, `references`).
    pub step: String,
    /// Outcome.
    pub status: Status,
    /// What happened, in one line.
    pub detail: String,
    /// What to do about a failure.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fix: Option<String>,
}

/// The whole run.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Report {
    /// The pointer config checked.
    pub pointer: String,
    /// The spec version the simulated client accepts.
    pub ignition_spec: String,
    /// Steps in order, up to and including the first failure.
    pub steps: Vec<Step>,
}

impl Report {
    /// Whether every step passed.
    pub fn passed(&self) -> bool {
        self.steps.iter().all(|s| s.status == Status::Ok)
    }

    fn ok(&mut self, step: impl Into<String>, detail: impl Into<String>) {
        self.steps.push(Step {
            step: step.into(),
            status: Status::Ok,
            detail: detail.into(),
            fix: None,
        });
    }

    fn fail(&mut self, step: impl Into<String>, detail: impl Into<String>, fix: impl Into<String>) {
        self.steps.push(Step {
            step: step.into(),
            status: Status::Fail,
            detail: detail.into(),
            fix: Some(fix.into()),
        });
    }
}

/// A pointer's view of one remote resource: where, with which headers, trusting which CAs.
struct Fetch {
    url: String,
    headers: Vec<(String, String)>,
    cas: Vec<CertInfo>,
    token_id: Option<String>,
    pool: String,
}

/// Runs every step; stops at the first failure.
pub fn run(opts: &Options) -> Report {
    let name = opts.pointer.display().to_string();
    let mut r = Report {
        pointer: name.clone(),
        ignition_spec: opts.ignition_spec.clone(),
        steps: Vec::new(),
    };
    let Some(fetch) = parse_step(&mut r, opts) else {
        return r;
    };
    let _ = fetch_chain_of_steps(&mut r, opts, &fetch, "", 0);
    r
}

fn parse_step(r: &mut Report, opts: &Options) -> Option<Fetch> {
    let name = opts.pointer.display().to_string();
    let bytes = match crate::assets::read_file(&opts.pointer) {
        Ok(b) => b,
        Err(e) => {
            r.fail(
                "parse",
                format!("cannot read {name}: {:#}", e.root_cause()),
                "pass the path of a pointer config (default <dir>/worker.ign)",
            );
            return None;
        }
    };
    let info = match pointer::parse(&bytes, &name) {
        Ok(i) => i,
        Err(e) => {
            r.fail(
                "parse",
                format!("{e:#}"),
                "regenerate it with `mcsctl pointer --pool <pool> --force`",
            );
            return None;
        }
    };
    // Ignition refuses a config newer than the spec it was built with, before any fetch.
    if let (Ok(have), Ok(reads)) = (
        crate::ignition::SpecVersion::parse(&info.version),
        crate::ignition::SpecVersion::parse(&opts.ignition_spec),
    ) && have > reads
    {
        r.fail(
            "parse",
            format!(
                "{name} is Ignition spec {}, newer than the {} this Ignition reads: it stops at \"unsupported config version\" before fetching anything",
                info.version, opts.ignition_spec
            ),
            format!(
                "write it at the spec the boot image reads: `mcsctl pointer --pool <pool> --spec-version {} --force` (a pointer config needs nothing newer)",
                opts.ignition_spec
            ),
        );
        return None;
    }
    let value: Value = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
    let merge = &value["ignition"]["config"]["merge"];
    let resource = merge
        .get(0)
        .or_else(|| value["ignition"]["config"].get("replace"))
        .cloned()
        .unwrap_or(Value::Null);
    let Some(url) = resource["source"].as_str().map(str::to_string) else {
        r.fail(
            "parse",
            format!("{name} has no ignition.config merge or replace source"),
            "a pointer config needs ignition.config.merge[0].source",
        );
        return None;
    };
    let headers: Vec<(String, String)> = http_headers(&resource);
    let mut cas = Vec::new();
    for (i, pem) in info.ca_pems.iter().enumerate() {
        match parse_pem_certs(pem, &format!("{name}: certificateAuthorities[{i}]")) {
            Ok(v) => cas.extend(v),
            Err(e) => {
                r.fail(
                    "parse",
                    format!("{e:#}"),
                    "regenerate the pointer config with `mcsctl pointer --force`",
                );
                return None;
            }
        }
    }
    let token = match (info.token_transport, &info.token_id) {
        (Some(t), Some(id)) => format!("; token {id} in {t}"),
        (Some(t), None) => format!("; a token in {t}"),
        _ => "; no token".into(),
    };
    let ca_names: Vec<String> = cas.iter().map(|c| c.subject.clone()).collect();
    r.ok(
        "parse",
        format!(
            "Ignition {} pointer config; source {}; {} CA(s) ({}){token}{}",
            info.version,
            info.sources.first().cloned().unwrap_or_default(),
            cas.len(),
            ca_names.join("; "),
            if info.warnings.is_empty() {
                String::new()
            } else {
                format!("; warnings: {}", info.warnings.join(", "))
            }
        ),
    );
    let pool = info
        .sources
        .first()
        .and_then(|s| s.rsplit('/').next())
        .unwrap_or("")
        .split('?')
        .next()
        .unwrap_or("")
        .to_string();
    Some(Fetch {
        url,
        headers,
        cas,
        token_id: info.token_id,
        pool,
    })
}

/// resolve → connect → tls → request → status → config → references, for one URL.
fn fetch_chain_of_steps(
    r: &mut Report,
    opts: &Options,
    f: &Fetch,
    prefix: &str,
    depth: usize,
) -> Option<()> {
    let step = |s: &str| format!("{prefix}{s}");
    let Some(parsed) = Url::parse(&f.url) else {
        r.fail(
            step("resolve"),
            format!(
                "{} is not an http(s) URL Ignition can fetch",
                redact_url(&f.url)
            ),
            "use https://HOST:PORT/config/<pool>",
        );
        return None;
    };
    // resolve
    let addrs: Vec<SocketAddr> = match opts.resolve.iter().find(|(h, p, _)| {
        h.eq_ignore_ascii_case(&parsed.host) && p.is_none_or(|p| p == parsed.port)
    }) {
        Some((_, _, ip)) => {
            r.ok(
                step("resolve"),
                format!("{} -> {ip} (from --resolve)", parsed.host),
            );
            vec![SocketAddr::new(*ip, parsed.port)]
        }
        None => match (parsed.host.as_str(), parsed.port).to_socket_addrs() {
            Ok(it) => {
                let v: Vec<SocketAddr> = it.collect();
                let shown: Vec<String> = v.iter().map(|a| a.ip().to_string()).collect();
                r.ok(
                    step("resolve"),
                    format!("{} -> {}", parsed.host, shown.join(", ")),
                );
                v
            }
            Err(e) => {
                r.fail(
                    step("resolve"),
                    format!("cannot resolve {}: {e}", parsed.host),
                    format!("add a DNS record for {} (api-int must resolve from the machine's network), or test with --resolve {}:ADDR", parsed.host, parsed.host),
                );
                return None;
            }
        },
    };
    // connect
    let start = Instant::now();
    let mut last_err = None;
    let mut tcp = None;
    for a in &addrs {
        match TcpStream::connect_timeout(a, opts.timeout) {
            Ok(s) => {
                tcp = Some((s, *a));
                break;
            }
            Err(e) => last_err = Some(format!("{a}: {e}")),
        }
    }
    let Some((tcp, addr)) = tcp else {
        r.fail(
            step("connect"),
            format!("cannot connect: {}", last_err.unwrap_or_else(|| "no address".into())),
            format!("start the config server (`mcsctl serve`) or open port {} between the machine and the server", parsed.port),
        );
        return None;
    };
    r.ok(
        step("connect"),
        format!("{addr} in {:.1} ms", start.elapsed().as_secs_f64() * 1000.0),
    );
    let _ = tcp.set_read_timeout(Some(opts.timeout));
    let _ = tcp.set_write_timeout(Some(opts.timeout));
    if parsed.scheme == "http" {
        r.ok(
            step("tls"),
            "plain http: no TLS (Ignition does not check any CA for http URLs)",
        );
        return http_steps(r, opts, f, &parsed, Box::new(tcp), prefix, depth);
    }
    // tls
    let mut roots = RootCertStore::empty();
    for ca in &f.cas {
        let _ = roots.add(CertificateDer::from(ca.der.clone()));
    }
    let provider = remote::provider();
    let config = match rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map(|b| b.with_root_certificates(roots).with_no_client_auth())
    {
        Ok(c) => Arc::new(c),
        Err(e) => {
            r.fail(
                step("tls"),
                format!("TLS setup: {e}"),
                "report this as a bug",
            );
            return None;
        }
    };
    let Ok(name) = ServerName::try_from(parsed.host.clone()) else {
        r.fail(
            step("tls"),
            format!("{} is not a valid TLS server name", parsed.host),
            "use a DNS name or IP address in the URL",
        );
        return None;
    };
    let mut conn = match rustls::ClientConnection::new(config, name) {
        Ok(c) => c,
        Err(e) => {
            r.fail(
                step("tls"),
                format!("TLS setup: {e}"),
                "report this as a bug",
            );
            return None;
        }
    };
    let mut tcp = tcp;
    let mut handshake = Ok(());
    while conn.is_handshaking() {
        if let Err(e) = conn.complete_io(&mut tcp) {
            handshake = Err(e);
            break;
        }
    }
    if let Err(e) = handshake {
        let (detail, fix) = explain_tls_failure(&e, &addr, &parsed.host, &f.cas, opts.timeout, f);
        r.fail(step("tls"), detail, fix);
        return None;
    }
    let version = conn
        .protocol_version()
        .map(|v| format!("{v:?}"))
        .unwrap_or_default();
    let leaf = conn
        .peer_certificates()
        .and_then(|c| c.first())
        .and_then(|d| CertInfo::from_der(d).ok())
        .map(|c| format!("{} (issuer {})", c.subject, c.issuer))
        .unwrap_or_default();
    r.ok(
        step("tls"),
        format!(
            "{version}; {leaf} verifies against the pointer's CA(s) for {}",
            parsed.host
        ),
    );
    http_steps(
        r,
        opts,
        f,
        &parsed,
        Box::new(rustls::StreamOwned::new(conn, tcp)),
        prefix,
        depth,
    )
}

trait Stream: Read + Write {}
impl<T: Read + Write> Stream for T {}

fn http_steps(
    r: &mut Report,
    opts: &Options,
    f: &Fetch,
    url: &Url,
    mut io: Box<dyn Stream>,
    prefix: &str,
    depth: usize,
) -> Option<()> {
    let step = |s: &str| format!("{prefix}{s}");
    let host_header =
        if (url.scheme == "https" && url.port == 443) || (url.scheme == "http" && url.port == 80) {
            url.host_for_header()
        } else {
            format!("{}:{}", url.host_for_header(), url.port)
        };
    let accept = format!(
        "application/vnd.coreos.ignition+json;version={}, */*;q=0.1",
        opts.ignition_spec
    );
    let mut req = format!(
        "GET {} HTTP/1.1\r\nHost: {host_header}\r\nUser-Agent: Ignition/2.14.0 (mcsctl doctor)\r\nAccept: {accept}\r\nAccept-Encoding: identity\r\nConnection: close\r\n",
        url.path_and_query
    );
    for (k, v) in &f.headers {
        req.push_str(&format!("{k}: {v}\r\n"));
    }
    req.push_str("\r\n");
    if let Err(e) = io.write_all(req.as_bytes()).and_then(|_| io.flush()) {
        r.fail(
            step("request"),
            format!("sending the request: {e}"),
            "check the server's logs; the connection was closed",
        );
        return None;
    }
    let names: Vec<&str> = f.headers.iter().map(|(k, _)| k.as_str()).collect();
    r.ok(
        step("request"),
        format!(
            "GET {} with User-Agent, Accept (spec {}){}",
            redact_url(&url.path_and_query),
            opts.ignition_spec,
            if names.is_empty() {
                String::new()
            } else {
                format!(", {}", names.join(", "))
            }
        ),
    );
    // response
    let mut raw = Vec::new();
    let mut buf = [0u8; 16 * 1024];
    loop {
        match io.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => {
                raw.extend_from_slice(&buf[..n]);
                if raw.len() > MAX_BODY {
                    r.fail(
                        step("status"),
                        format!("the response is larger than {} MiB", MAX_BODY >> 20),
                        "check what the server serves",
                    );
                    return None;
                }
            }
            // A peer that closes without close_notify after a complete response is common.
            Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof && !raw.is_empty() => break,
            Err(e) => {
                r.fail(
                    step("status"),
                    format!("reading the response: {e}"),
                    "check the server's logs",
                );
                return None;
            }
        }
    }
    let mut hdrs = [httparse::EMPTY_HEADER; 64];
    let mut resp = httparse::Response::new(&mut hdrs);
    let head_len = match resp.parse(&raw) {
        Ok(httparse::Status::Complete(n)) => n,
        _ => {
            r.fail(
                step("status"),
                "the server's answer is not a valid HTTP/1.1 response",
                "is this port the config server?",
            );
            return None;
        }
    };
    let code = resp.code.unwrap_or(0);
    let reason = resp.reason.unwrap_or("").to_string();
    let header = |n: &str| {
        resp.headers
            .iter()
            .find(|h| h.name.eq_ignore_ascii_case(n))
            .map(|h| String::from_utf8_lossy(h.value).to_string())
    };
    let chunked =
        header("transfer-encoding").is_some_and(|v| v.to_ascii_lowercase().contains("chunked"));
    let body_raw = &raw[head_len..];
    let body = if chunked {
        dechunk(body_raw)?
    } else {
        body_raw.to_vec()
    };
    let first_line = String::from_utf8_lossy(&body)
        .lines()
        .next()
        .unwrap_or("")
        .chars()
        .take(200)
        .collect::<String>();
    match code {
        200 => r.ok(
            step("status"),
            format!(
                "{code} {reason}, {} bytes, {}",
                body.len(),
                header("content-type").unwrap_or_default()
            ),
        ),
        401 => {
            let fix = match &f.token_id {
                Some(id) => format!(
                    "the server does not accept token {id}: it is stale (rotated out, expired or revoked) or from another asset directory; write a new pointer config with `mcsctl pointer --pool {} --force` from the server's assets, or compare with `mcsctl token list` there",
                    f.pool
                ),
                None => format!(
                    "the server requires a token and the pointer carries none: `mcsctl pointer --pool {} --token-transport header --force`",
                    f.pool
                ),
            };
            r.fail(step("status"), format!("401 {reason}: {first_line}"), fix);
            return None;
        }
        404 => {
            r.fail(step("status"), format!("404 {reason}: {first_line}"), format!("the server has no config for pool {:?}: check the pool name in the URL, or render it (rendered/{}.ign)", f.pool, f.pool));
            return None;
        }
        406 => {
            r.fail(step("status"), format!("406 {reason}: {first_line}"), format!("the server cannot give this config to an Ignition that accepts spec {}: use a newer Ignition (boot image) or keep the config to fields that spec has", opts.ignition_spec));
            return None;
        }
        429 => {
            r.fail(
                step("status"),
                format!("429 {reason}: {first_line}"),
                format!(
                    "too many failed token attempts from this address; wait {} s or fix the token",
                    header("retry-after").unwrap_or_else(|| "a few minutes".into())
                ),
            );
            return None;
        }
        _ => {
            r.fail(
                step("status"),
                format!("{code} {reason}: {first_line}"),
                "check the server's logs",
            );
            return None;
        }
    }
    // config
    let cfg: Value = match ignition_config::Config::parse_slice(&body) {
        Ok((_, warnings)) => {
            let v: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
            let version = v["ignition"]["version"].as_str().unwrap_or("").to_string();
            if crate::ignition::SpecVersion::parse(&version).is_ok_and(|sv| {
                crate::ignition::SpecVersion::parse(&opts.ignition_spec).is_ok_and(|want| sv > want)
            }) {
                r.fail(
                    step("config"),
                    format!(
                        "the server sent spec {version}, newer than the {} this Ignition accepts",
                        opts.ignition_spec
                    ),
                    "the server must honour the Accept header (mcsctl serve does)",
                );
                return None;
            }
            let count = |a: &Value| a.as_array().map_or(0, Vec::len);
            r.ok(
                step("config"),
                format!(
                    "Ignition {version} config: {} file(s), {} systemd unit(s), {} user(s){}",
                    count(&v["storage"]["files"]),
                    count(&v["systemd"]["units"]),
                    count(&v["passwd"]["users"]),
                    if warnings.is_empty() {
                        String::new()
                    } else {
                        format!(
                            "; Ignition would warn: {}",
                            warnings
                                .iter()
                                .map(|w| w.to_string())
                                .collect::<Vec<_>>()
                                .join(", ")
                        )
                    }
                ),
            );
            v
        }
        Err(e) => {
            r.fail(
                step("config"),
                format!(
                    "the returned config is not valid: {}",
                    pointer::describe_error(&e)
                ),
                "fix the rendered config on the server",
            );
            return None;
        }
    };
    references(r, opts, f, &cfg, prefix, depth)
}

fn references(
    r: &mut Report,
    opts: &Options,
    f: &Fetch,
    cfg: &Value,
    prefix: &str,
    depth: usize,
) -> Option<()> {
    let step = format!("{prefix}references");
    let c = &cfg["ignition"]["config"];
    let mut refs: Vec<Value> = c["merge"].as_array().cloned().unwrap_or_default();
    if c["replace"]["source"].is_string() {
        refs.push(c["replace"].clone());
    }
    if refs.is_empty() {
        r.ok(step, "none");
        return Some(());
    }
    if depth >= MAX_DEPTH {
        r.fail(
            step,
            format!("references nested deeper than {MAX_DEPTH} levels"),
            "flatten the configs",
        );
        return None;
    }
    // Ignition trusts the CAs of every config on the way.
    let mut cas = f.cas.clone();
    for ca in cfg["ignition"]["security"]["tls"]["certificateAuthorities"]
        .as_array()
        .into_iter()
        .flatten()
    {
        if let Some(pem) = ca["source"].as_str().and_then(|s| dataurl::decode(s).ok()) {
            cas.extend(parse_pem_certs(&pem, "certificateAuthorities").unwrap_or_default());
        }
    }
    for (i, res) in refs.iter().enumerate() {
        let Some(src) = res["source"].as_str() else {
            continue;
        };
        let label = format!("{prefix}ref[{}] ", i + 1);
        if src.starts_with("data:") {
            match dataurl::decode(src)
                .map_err(|e| e.to_string())
                .and_then(|b| {
                    ignition_config::Config::parse_slice(&b)
                        .map_err(|e| pointer::describe_error(&e))
                }) {
                Ok(_) => r.ok(format!("{label}config"), "inline data URL config is valid"),
                Err(e) => {
                    r.fail(
                        format!("{label}config"),
                        format!("inline config is not valid: {e}"),
                        "fix the referenced config",
                    );
                    return None;
                }
            }
            continue;
        }
        let headers = http_headers(res);
        let next = Fetch {
            url: src.to_string(),
            headers,
            cas: cas.clone(),
            token_id: None,
            pool: f.pool.clone(),
        };
        fetch_chain_of_steps(r, opts, &next, &label, depth + 1)?;
    }
    Some(())
}

/// The `httpHeaders` of an Ignition resource as (name, value) pairs. Values may be secrets:
/// only names are ever printed.
fn http_headers(resource: &Value) -> Vec<(String, String)> {
    resource["httpHeaders"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|h| {
            Some((
                h["name"].as_str()?.to_string(),
                h["value"].as_str().unwrap_or("").to_string(),
            ))
        })
        .collect()
}

fn explain_tls_failure(
    e: &std::io::Error,
    addr: &SocketAddr,
    host: &str,
    cas: &[CertInfo],
    timeout: Duration,
    f: &Fetch,
) -> (String, String) {
    let inner = e.get_ref().and_then(|x| x.downcast_ref::<rustls::Error>());
    let presented = remote::fetch_chain(&addr.to_string(), host, timeout).ok();
    let chain_desc = presented
        .as_ref()
        .map(|p| {
            p.chain
                .iter()
                .map(|c| format!("{} issued by {}", c.subject, c.issuer_with_key_id()))
                .collect::<Vec<_>>()
                .join(" / ")
        })
        .unwrap_or_else(|| "(the chain could not be read)".into());
    let trusted: Vec<String> = cas.iter().map(CertInfo::subject_with_key_id).collect();
    match inner {
        Some(rustls::Error::InvalidCertificate(c)) => {
            let kind = format!("{c:?}");
            if kind.contains("UnknownIssuer") || kind.contains("BadSignature") {
                let needed = presented
                    .as_ref()
                    .and_then(|p| p.chain.last())
                    .map(|c| c.issuer_with_key_id())
                    .unwrap_or_else(|| "the server's CA".into());
                (
                    format!(
                        "x509: certificate signed by unknown authority: the server presents {chain_desc}; the pointer trusts only {}",
                        if trusted.is_empty() { "(no CA)".into() } else { trusted.join(", ") }
                    ),
                    format!("the pointer would need the CA {needed}: write it from the asset directory the server uses (`mcsctl pointer --pool {} --force`), or install the serving certificate signed by the pointer's CA (`mcsctl cert issue --force`)", f.pool),
                )
            } else if kind.contains("NotValidForName") {
                let sans = presented.as_ref().and_then(|p| p.chain.first()).map(|c| c.sans().join(", ")).unwrap_or_default();
                (
                    format!("the serving certificate does not cover {host} (its SANs: {sans})"),
                    format!("reissue it with the name: `mcsctl cert issue --force --san {host}`"),
                )
            } else if kind.contains("Expired") {
                (format!("the serving certificate has expired ({chain_desc})"), "renew it: `mcsctl cert renew`, and check the machine's clock".into())
            } else if kind.contains("NotValidYet") {
                (format!("the serving certificate is not valid yet ({chain_desc})"), "check the clocks of the machine and the server".into())
            } else {
                (format!("certificate rejected: {kind} ({chain_desc})"), "inspect the server with `mcsctl inspect --remote HOST:PORT`".into())
            }
        }
        Some(other) => (format!("TLS handshake failed: {other}"), "check that the port serves TLS (mcsctl serve) and supports TLS 1.2 or 1.3".into()),
        None => (format!("TLS handshake failed: {e}"), "check that the port serves TLS (mcsctl serve) and is not behind a proxy that resets it".into()),
    }
}

fn dechunk(mut b: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    loop {
        let pos = b.windows(2).position(|w| w == b"\r\n")?;
        let size_str = std::str::from_utf8(&b[..pos])
            .ok()?
            .split(';')
            .next()?
            .trim()
            .to_string();
        let size = usize::from_str_radix(&size_str, 16).ok()?;
        b = &b[pos + 2..];
        if size == 0 {
            return Some(out);
        }
        if b.len() < size + 2 {
            return None;
        }
        out.extend_from_slice(&b[..size]);
        b = &b[size + 2..];
    }
}

/// The URL without any `token=` value, for printing.
pub fn redact_url(u: &str) -> String {
    match u.split_once('?') {
        Some((base, q)) => {
            let q: Vec<String> = q
                .split('&')
                .map(|p| {
                    if p.starts_with("token=") {
                        "token=<redacted>".to_string()
                    } else {
                        p.to_string()
                    }
                })
                .collect();
            format!("{base}?{}", q.join("&"))
        }
        None => u.to_string(),
    }
}

/// The parts of an http(s) URL doctor needs.
struct Url {
    scheme: String,
    host: String,
    port: u16,
    path_and_query: String,
}

impl Url {
    fn parse(u: &str) -> Option<Url> {
        let (scheme, rest) = u.split_once("://")?;
        let scheme = scheme.to_ascii_lowercase();
        let default_port = match scheme.as_str() {
            "https" => 443,
            "http" => 80,
            _ => return None,
        };
        let host = url_host(u)?;
        let authority = rest.split(['/', '?', '#']).next()?;
        let port = match authority.rsplit_once(':') {
            Some((h, p)) if !h.ends_with(']') || authority.starts_with('[') => p
                .parse()
                .ok()
                .filter(|_| !p.contains(']'))
                .unwrap_or(default_port),
            _ => default_port,
        };
        let after = &rest[authority.len()..];
        let path_and_query = after.split('#').next().unwrap_or("");
        let path_and_query = if path_and_query.is_empty() {
            "/".to_string()
        } else if path_and_query.starts_with('?') {
            format!("/{path_and_query}")
        } else {
            path_and_query.to_string()
        };
        Some(Url {
            scheme,
            host,
            port,
            path_and_query,
        })
    }

    fn host_for_header(&self) -> String {
        if self.host.contains(':') {
            format!("[{}]", self.host)
        } else {
            self.host.clone()
        }
    }
}

/// A `--resolve` entry: host, optional port, address.
pub type Resolve = (String, Option<u16>, IpAddr);

/// Parses a `--resolve` value: `HOST:ADDR` or `HOST:PORT:ADDR` (IPv6 addresses in brackets).
pub fn parse_resolve(s: &str) -> Result<Resolve, String> {
    let err = || format!("{s:?}: expected HOST:ADDR or HOST:PORT:ADDR");
    let (host, rest) = s.split_once(':').ok_or_else(err)?;
    let addr_of = |a: &str| {
        a.trim_start_matches('[')
            .trim_end_matches(']')
            .parse::<IpAddr>()
            .map_err(|_| err())
    };
    if let Ok(ip) = addr_of(rest) {
        return Ok((host.to_string(), None, ip));
    }
    let (port, addr) = rest.split_once(':').ok_or_else(err)?;
    Ok((
        host.to_string(),
        Some(port.parse().map_err(|_| err())?),
        addr_of(addr)?,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_and_resolve() {
        let u = Url::parse("https://api-int.x.example.com:22623/config/worker?token=a.b").unwrap();
        assert_eq!(
            (u.host.as_str(), u.port, u.path_and_query.as_str()),
            ("api-int.x.example.com", 22623, "/config/worker?token=a.b")
        );
        let u = Url::parse("https://[::1]/c").unwrap();
        assert_eq!((u.host.as_str(), u.port), ("::1", 443));
        let u = Url::parse("http://10.0.0.1:8080").unwrap();
        assert_eq!((u.port, u.path_and_query.as_str()), (8080, "/"));
        assert!(Url::parse("tftp://x/y").is_none());
        assert_eq!(
            parse_resolve("h.example:127.0.0.1").unwrap(),
            ("h.example".into(), None, "127.0.0.1".parse().unwrap())
        );
        assert_eq!(
            parse_resolve("h:22623:[::1]").unwrap(),
            ("h".into(), Some(22623), "::1".parse().unwrap())
        );
        assert!(parse_resolve("nonsense").is_err());
        assert_eq!(
            redact_url("/config/w?token=abc.def&x=1"),
            "/config/w?token=<redacted>&x=1"
        );
        assert_eq!(dechunk(b"3\r\nabc\r\n0\r\n\r\n").unwrap(), b"abc");
    }
}
