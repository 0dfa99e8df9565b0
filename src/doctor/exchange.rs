//! An HTTP exchange reported as doctor's steps: resolve → connect → tls as far as the
//! connection went, then request → status → body, each with what happened and, for a failure,
//! what fixes it. Used for the HEAD that checks a token and for the GET that fetches.

use super::{Fetch, Options, Report, explain};
use crate::http::{self, BodyFailure, Exchange, Failure, HttpUrl, Method};
use crate::pki::cert::CertInfo;

/// Reports the network steps of `ex`; the 200 body when every one passed.
pub(super) fn report_exchange<'a>(
    r: &mut Report,
    opts: &Options,
    f: &Fetch,
    url: &HttpUrl,
    ex: &'a Exchange,
    step: &dyn Fn(&str) -> String,
    method: Method,
) -> Option<&'a [u8]> {
    connection_steps(r, opts, f, url, ex, step)?;
    answer_steps(r, opts, f, url, ex, step, method)
}

/// resolve → connect → tls, as far as the connection went.
pub(super) fn connection_steps(
    r: &mut Report,
    opts: &Options,
    f: &Fetch,
    url: &HttpUrl,
    ex: &Exchange,
    step: &dyn Fn(&str) -> String,
) -> Option<()> {
    let failure = ex.failure.as_ref();
    let Some((addrs, overridden)) = &ex.resolved else {
        let why = failure.map_or_else(String::new, Failure::describe);
        r.fail(
            step("resolve"),
            format!("cannot resolve {}: {why}", url.host()),
            format!(
                "add a DNS record for {host} (api-int must resolve from the machine's network), or test with --resolve {host}:ADDR",
                host = url.host()
            ),
        );
        return None;
    };
    let shown: Vec<String> = addrs.iter().map(|a| a.ip().to_string()).collect();
    r.ok(
        step("resolve"),
        format!(
            "{} -> {}{}",
            url.host(),
            shown.join(", "),
            if *overridden { " (from --resolve)" } else { "" }
        ),
    );
    let Some((addr, took)) = &ex.connected else {
        r.fail(
            step("connect"),
            failure.map_or_else(String::new, Failure::describe),
            format!(
                "start the config server (`mcsctl serve`) or open port {} between the machine and the server",
                url.port()
            ),
        );
        return None;
    };
    r.ok(
        step("connect"),
        format!("{addr} in {:.1} ms", took.as_secs_f64() * 1000.0),
    );
    if !url.is_https() {
        r.ok(
            step("tls"),
            "plain http: no TLS (Ignition does not check any CA for http URLs)",
        );
    } else if let Some((version, chain)) = &ex.tls {
        let leaf = chain
            .first()
            .and_then(|d| CertInfo::from_der(d).ok())
            .map(|c| format!("{} (issuer {})", c.subject, c.issuer))
            .unwrap_or_default();
        r.ok(
            step("tls"),
            format!(
                "{version}; {leaf} verifies against the pointer's CA(s) for {}",
                url.host()
            ),
        );
    } else {
        let (detail, fix) = match failure {
            Some(Failure::Tls(e, io)) => {
                explain::tls_failure(e.as_ref(), io, addr, url.host(), opts, f)
            }
            other => (
                other.map_or_else(String::new, Failure::describe),
                "use a DNS name or IP address in the URL".into(),
            ),
        };
        r.fail(step("tls"), detail, fix);
        return None;
    }
    Some(())
}

/// request → status → body, as far as the answer went; the 200 body when all passed.
pub(super) fn answer_steps<'a>(
    r: &mut Report,
    opts: &Options,
    f: &Fetch,
    url: &HttpUrl,
    ex: &'a Exchange,
    step: &dyn Fn(&str) -> String,
    method: Method,
) -> Option<&'a [u8]> {
    let failure = ex.failure.as_ref();
    let Some((status, headers)) = &ex.head else {
        match failure {
            Some(e @ (Failure::NotHttp(_) | Failure::Timeout(_))) => {
                r.ok(step("request"), request_detail(url, opts, f, method));
                r.fail(
                    step("status"),
                    e.describe(),
                    "is this port the config server? Check its logs",
                );
            }
            other => r.fail(
                step("request"),
                other.map_or_else(String::new, Failure::describe),
                "check the server's logs; the connection was closed",
            ),
        }
        return None;
    };
    r.ok(step("request"), request_detail(url, opts, f, method));
    let header = |n: &str| {
        headers
            .get(n)
            .map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned())
    };
    let reason = status.canonical_reason().unwrap_or_default();
    let code = status.as_u16();
    if code != 200 {
        // A HEAD has no body: a 401's reason is in WWW-Authenticate (RFC 6750).
        let first_line = ex
            .body
            .as_deref()
            .map(http::first_line)
            .filter(|l| !l.is_empty())
            .or_else(|| header("www-authenticate").and_then(|h| error_description(&h)))
            .unwrap_or_default();
        let (detail, fix) =
            status_failure(code, reason, &first_line, f, opts, header("retry-after"));
        r.fail(step("status"), detail, fix);
        return None;
    }
    r.ok(
        step("status"),
        format!(
            "{code} {reason}, {}",
            header("content-type").unwrap_or_else(|| "no Content-Type".into())
        ),
    );
    match (&ex.body, failure) {
        (Some(body), _) => {
            r.ok(step("body"), format!("{} bytes, whole", body.len()));
            Some(body)
        }
        (None, Some(e)) => {
            let fix = match e {
                Failure::Body {
                    why: BodyFailure::TooLarge(_),
                    ..
                } => "check what the server serves, or raise --max-input-size",
                _ => {
                    "the server or a proxy on the way ended the response early: check the server's log (mcsctl serve logs every cut with its reason) and the time limits of any load balancer in between"
                }
            };
            r.fail(step("body"), e.describe(), fix);
            None
        }
        (None, None) => None,
    }
}

/// The `error_description` of a `WWW-Authenticate: Bearer` header.
fn error_description(h: &str) -> Option<String> {
    let rest = h.split_once("error_description=\"")?.1;
    Some(rest.split('"').next()?.chars().take(400).collect())
}

pub(super) fn request_detail(url: &HttpUrl, opts: &Options, f: &Fetch, method: Method) -> String {
    let names: Vec<&str> = f.headers.iter().map(|(k, _)| k.as_str()).collect();
    format!(
        "{} {} with User-Agent, Accept (spec {}){}",
        method.as_str(),
        http::url::redact(&url.path_and_query()),
        opts.ignition_spec,
        if names.is_empty() {
            String::new()
        } else {
            format!(", {}", names.join(", "))
        }
    )
}

/// (detail, fix) for an answer other than 200.
fn status_failure(
    code: u16,
    reason: &str,
    first_line: &str,
    f: &Fetch,
    opts: &Options,
    retry_after: Option<String>,
) -> (String, String) {
    let detail = format!("{code} {reason}: {first_line}");
    let fix = match code {
        401 => match &f.token_id {
            Some(id) if let Some(k) = opts.known.iter().find(|k| k.id == *id) => format!(
                "token {id} is machine {m}'s, and the server refuses it (the reason above: spent by an earlier fetch, or too many fetches cut off); if that fetch was not the machine's, the token may be stolen. `mcsctl machine add {m} --pool {} --force` gives the machine a new token and pointer config",
                f.pool,
                m = k.machine
            ),
            Some(id) => format!(
                "the server does not accept token {id}: it is stale (rotated out, expired or revoked) or from another asset directory; write a new pointer config with `mcsctl pointer --pool {} --force` from the server's assets, or compare with `mcsctl token list` there",
                f.pool
            ),
            None => format!(
                "the server requires a token and the pointer carries none: `mcsctl pointer --pool {} --token-transport header --force`",
                f.pool
            ),
        },
        403 => format!(
            "the token is not scoped to pool {:?}: write the pointer config from the server's assets (`mcsctl pointer --pool {} --force`), which gives it a token of its pool",
            f.pool, f.pool
        ),
        404 => format!(
            "the server has no config for pool {:?}: check the pool name in the URL, or render it (rendered/{}.ign)",
            f.pool, f.pool
        ),
        406 => format!(
            "the server cannot give this config to an Ignition that accepts spec {}: use a newer Ignition (boot image) or keep the config to fields that spec has",
            opts.ignition_spec
        ),
        503 => format!(
            "the server cannot serve this now (the reason above, or in its log); a booting machine's Ignition retries a 503 by itself{}",
            retry_after
                .as_deref()
                .map_or_else(String::new, |s| format!(" (the server asks for {s} s)"))
        ),
        429 => format!(
            "too many failed token attempts from this address; wait {} s or fix the token",
            retry_after.unwrap_or_else(|| "a few minutes".into())
        ),
        _ => "check the server's logs".into(),
    };
    (detail, fix)
}
