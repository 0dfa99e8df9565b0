//! One URL, step by step: resolve → connect → tls → request → status → body → config →
//! references, through the one HTTP client (`crate::http`), each step reported as it went.

use rustls::pki_types::CertificateDer;

use super::judge::{self, Resource};
use super::{Fetch, MAX_DEPTH, Options, Report};
use crate::http::{self, HttpUrl, Method};
use crate::ignition::dataurl;
use crate::pki::cert::parse_pem_certs;

/// The User-Agent doctor sends: Ignition's, marked as doctor's.
const USER_AGENT: &str = "Ignition/2.14.0 (mcsctl doctor)";

/// Fetches `f` and reports each step under `prefix`; `None` once a step failed (or was
/// skipped: a token of limited uses is checked with HEAD and not spent without `--fetch`).
pub fn fetch(
    r: &mut Report,
    opts: &Options,
    f: &Fetch,
    prefix: &str,
    depth: usize,
    spending: &dyn Fn(&str),
) -> Option<()> {
    let step = |s: &str| format!("{prefix}{s}");
    let Some(url) = HttpUrl::parse(&f.url) else {
        r.fail(
            step("resolve"),
            format!(
                "{} is not an http(s) URL Ignition can fetch",
                http::url::redact(&f.url)
            ),
            "use https://HOST:PORT/config/<pool>",
        );
        return None;
    };
    let resolve = opts
        .resolve
        .iter()
        .find(|(h, p, _)| h.eq_ignore_ascii_case(url.host()) && p.is_none_or(|p| p == url.port()))
        .map(|(_, _, ip)| *ip);
    let roots: Vec<CertificateDer<'static>> = f
        .cas
        .iter()
        .map(|c| CertificateDer::from(c.der.clone()))
        .collect();
    let send = |method| {
        http::get(&http::Request {
            method,
            url: &url,
            resolve,
            roots: &roots,
            accept_spec: &opts.ignition_spec,
            user_agent: USER_AGENT,
            headers: &f.headers,
            timeout: opts.timeout,
            max_body: crate::assets::max_input(),
        })
    };
    if f.token_id.is_some() {
        let head = send(Method::Head);
        if let Some(warning) = super::check::checked(r, opts, f, &url, &head, &step)? {
            spending(&warning);
        }
    }
    let ex = send(Method::Get);
    let body = super::exchange::report_exchange(r, opts, f, &url, &ex, &step, Method::Get)?;
    let summary = config_step(r, opts, body, &step)?;
    references(r, opts, f, &summary, prefix, depth, spending)
}

/// The config step: Ignition's rules on the body, then what doctor reports of it.
fn config_step(
    r: &mut Report,
    opts: &Options,
    body: &[u8],
    step: &dyn Fn(&str) -> String,
) -> Option<judge::Summary> {
    let accepted = match judge::config(body) {
        Ok(a) => a,
        Err(e) => {
            r.fail(
                step("config"),
                format!("Ignition would refuse the config: {e}"),
                "fix the rendered config on the server",
            );
            return None;
        }
    };
    let s = accepted.summary;
    let version = s.ignition.version.clone();
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
    r.ok(
        step("config"),
        format!(
            "Ignition {version} config: {} file(s), {} systemd unit(s), {} user(s){}",
            s.storage.files.len(),
            s.systemd.units.len(),
            s.passwd.users.len(),
            if accepted.warnings.is_empty() {
                String::new()
            } else {
                format!("; Ignition would warn: {}", accepted.warnings.join(", "))
            }
        ),
    );
    Some(s)
}

/// Follows the config's merge and replace references, trusting the CAs of every config on the
/// way, as Ignition does.
fn references(
    r: &mut Report,
    opts: &Options,
    f: &Fetch,
    cfg: &judge::Summary,
    prefix: &str,
    depth: usize,
    spending: &dyn Fn(&str),
) -> Option<()> {
    let step = format!("{prefix}references");
    let refs = Resource::references(&cfg.ignition.config);
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
    let mut cas = f.cas.clone();
    for ca in &cfg.ignition.security.tls.certificate_authorities {
        if let Some(pem) = ca.source.as_deref().and_then(|s| dataurl::decode(s).ok()) {
            cas.extend(parse_pem_certs(&pem, "certificateAuthorities").unwrap_or_default());
        }
    }
    for (i, res) in refs.iter().enumerate() {
        let Some(src) = res.source.as_deref() else {
            continue;
        };
        let label = format!("{prefix}ref[{}] ", i + 1);
        if src.starts_with("data:") {
            let judged = dataurl::decode(src)
                .map_err(|e| e.to_string())
                .and_then(|b| judge::config(&b).map(|_| ()));
            match judged {
                Ok(()) => r.ok(format!("{label}config"), "inline data URL config is valid"),
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
        let next = Fetch {
            url: src.to_string(),
            headers: res.headers(),
            cas: cas.clone(),
            token_id: None,
            pool: f.pool.clone(),
        };
        fetch(r, opts, &next, &label, depth + 1, spending)?;
    }
    Some(())
}
