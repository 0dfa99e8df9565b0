//! `render --from-mcs URL --pool POOL`: what a live config server serves for a pool, so
//! `mcsctl serve` can put token auth in front of the in-cluster MCS, or a disconnected site can
//! mirror it. The answer is checked as a booting machine would need it (valid Ignition, and for
//! the openshift flavour the bootstrap kubeconfig) before anything is written.

use std::time::Duration;

use anyhow::{Result, bail};
use rustls::pki_types::CertificateDer;
use serde_json::Value;

use crate::exit::usage;
use crate::http::{self, HttpUrl};
use crate::ignition::render::{Flavour, payload};
use crate::ignition::{SpecVersion, pointer};

/// How long a fetch may take in all.
const TIMEOUT: Duration = Duration::from_secs(30);

/// What to fetch.
pub struct Fetch<'a> {
    /// `--from-mcs`, as given.
    pub url: &'a str,
    /// The pool.
    pub pool: &'a str,
    /// `--token`.
    pub token: Option<&'a str>,
    /// The CAs the server's certificate must chain to.
    pub trust: &'a Trust,
    /// The spec version to ask for (the newest when `None`).
    pub version: Option<SpecVersion>,
}

/// A fetched config: the URL shown in messages, the body, and the body as JSON.
pub struct Fetched {
    /// The URL, as shown.
    pub shown: String,
    /// The config as served.
    pub body: Vec<u8>,
    /// The config, parsed.
    pub config: Value,
}

/// The CAs to trust, and where they came from.
pub struct Trust {
    pems: Vec<Vec<u8>>,
    what: String,
}

impl Trust {
    /// `--ca`: PEM, or a pointer config whose `certificateAuthorities` say whom to trust.
    pub fn from_file(bytes: Vec<u8>, what: String) -> Result<Trust> {
        if !bytes.trim_ascii_start().starts_with(b"{") {
            return Ok(Trust {
                pems: vec![bytes],
                what,
            });
        }
        let info = pointer::parse(&bytes, &what)?;
        if info.ca_pems.is_empty() {
            bail!("{what} is a pointer config without an inline CA (certificateAuthorities)");
        }
        Ok(Trust {
            pems: info.ca_pems,
            what,
        })
    }

    /// The asset directory's CA (its bundle, else its CA), as the snapshot holds it; `dir`
    /// names it in messages.
    pub fn of_directory(bundle: Option<(&[u8], String)>, dir: &str) -> Result<Trust> {
        let Some((pem, what)) = bundle else {
            return Err(usage(format!(
                "{dir} has no CA to check the server with; pass --ca FILE (the MCS CA, or the installer's worker.ign)"
            )));
        };
        Ok(Trust {
            pems: vec![pem.to_vec()],
            what,
        })
    }

    fn roots(&self) -> Result<Vec<CertificateDer<'static>>> {
        let mut out = Vec::new();
        for pem in &self.pems {
            for c in crate::pki::load::certs(pem, &self.what)? {
                out.push(CertificateDer::from(c.der));
            }
        }
        Ok(out)
    }
}

/// Fetches the pool's config, trusting `f.trust`, and checks it.
pub fn fetch(f: &Fetch<'_>, flavour: Flavour) -> Result<Fetched> {
    let pool = f.pool;
    if !crate::names::is_dns_label(pool) {
        return Err(usage(format!(
            "--pool {pool:?}: a pool name is a DNS label"
        )));
    }
    let url = config_url(f.url, pool)?;
    if !url.is_https() && f.token.is_some() {
        return Err(usage(
            "refusing to send the token over plain http; use https",
        ));
    }
    let roots = if url.is_https() {
        f.trust.roots()?
    } else {
        Vec::new()
    };
    let asked = f.version.unwrap_or(SpecVersion {
        minor: SpecVersion::MAX_MINOR,
    });
    let shown = url.to_string();
    let headers: Vec<(String, String)> = f
        .token
        .iter()
        .map(|t| ("Authorization".to_string(), format!("Bearer {t}")))
        .collect();
    let ex = http::get(&http::Request {
        method: http::Method::Get,
        url: &url,
        resolve: None,
        roots: &roots,
        accept_spec: &asked.to_string(),
        user_agent: concat!("mcsctl/", env!("CARGO_PKG_VERSION"), " (render --from-mcs)"),
        headers: &headers,
        timeout: TIMEOUT,
        max_body: crate::assets::max_input(),
    });
    let resp = answer(ex, &shown)?;
    match resp.status {
        200 => {}
        401 => bail!(
            "{shown} answered 401 Unauthorized: it wants a provisioning token (--token or MCSCTL_FROM_MCS_TOKEN)"
        ),
        403 => bail!(
            "{shown} answered 403 Forbidden: {}",
            http::first_line(&resp.body)
        ),
        404 => bail!("{shown} answered 404: the server has no config for pool {pool}"),
        406 => bail!(
            "{shown} answered 406: it cannot serve Ignition {asked}: {}",
            http::first_line(&resp.body)
        ),
        s => bail!("{shown} answered HTTP {s}"),
    }
    let config = check(&resp.body, &shown, flavour)?;
    Ok(Fetched {
        shown,
        body: resp.body,
        config,
    })
}

/// The URL to fetch: as given when it has a path, else with `/config/<pool>`.
fn config_url(raw: &str, pool: &str) -> Result<HttpUrl> {
    let url = HttpUrl::parse(raw).ok_or_else(|| {
        usage(format!(
            "--from-mcs {:?}: use https://HOST:22623 (or a full /config/<pool> URL)",
            crate::http::url::redact(raw)
        ))
    })?;
    if url.path_and_query() == "/" {
        return url
            .with_path(&format!("/config/{pool}"))
            .ok_or_else(|| usage(format!("--from-mcs {url} is not a URL")));
    }
    Ok(url)
}

/// The status and whole body, or why there is none.
struct Answer {
    status: u16,
    body: Vec<u8>,
}

fn answer(ex: http::Exchange, shown: &str) -> Result<Answer> {
    if let Some(f) = &ex.failure {
        let hint = match f {
            http::Failure::Tls(
                Some(rustls::Error::InvalidCertificate(
                    rustls::CertificateError::UnknownIssuer
                    | rustls::CertificateError::BadSignature,
                )),
                _,
            ) => {
                "; pass the server's CA with --ca (a PEM file, or a pointer config that trusts it)"
            }
            _ => "",
        };
        bail!("fetching {shown}: {}{hint}", f.describe());
    }
    match (ex.head, ex.body) {
        (Some((status, _)), Some(body)) => Ok(Answer {
            status: status.as_u16(),
            body,
        }),
        _ => bail!("fetching {shown}: no answer"),
    }
}

/// The answer must be a valid Ignition 3 config mcsctl can serve (read back as `serve` will
/// read it), and for the openshift flavour carry the bootstrap kubeconfig a node needs to join.
fn check(body: &[u8], shown: &str, flavour: Flavour) -> Result<Value> {
    let stored = payload::Stored::read(body, &format!("{shown}'s answer"))?;
    if flavour == Flavour::OpenShift && !stored.writes(payload::KUBECONFIG) {
        bail!(
            "{shown} answered with a config that has no {}: a node booted from it could never send its CSR. If the server is not an MCS, use --for coreos",
            payload::KUBECONFIG
        );
    }
    Ok(serde_json::from_slice(body)?)
}
