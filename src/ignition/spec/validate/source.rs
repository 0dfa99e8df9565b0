//! Where a config fetches from: compression, verification, HTTP headers, and the URL schemes
//! Ignition fetches from at each spec (`validateURL`), data URLs that must decode.

use serde_json::{Map, Value};

use super::{Report, at, list, non_empty, obj, s};
use crate::golang::url;
use crate::ignition::spec::Spec;

pub(super) fn resource(m: &Map<String, Value>, path: &str, spec: Spec, r: &mut Report) {
    let p = |name: &str| at(path, name);
    if let Some(c) = s(m, "compression")
        && !c.is_empty()
        && c != "gzip"
    {
        r.error(&p("compression"), "invalid compression method");
    }
    if obj(m, "verification").is_some_and(|v| v.contains_key("hash")) && !m.contains_key("source") {
        r.error(
            &p("verification.hash"),
            "source must be specified if verification is specified",
        );
    }
    if let Some(src) = non_empty(m, "source")
        && let Some(e) = check_url(src, spec)
    {
        r.error(&p("source"), e);
    }
    if !list(m, "httpHeaders").is_empty() {
        let ok = non_empty(m, "source")
            .and_then(|u| url::parse(u).ok())
            .map(|u| u.scheme);
        match ok.as_deref() {
            None => r.error(&p("httpHeaders"), "unable to parse url"),
            Some("http" | "https") => {}
            Some(_) => r.error(
                &p("httpHeaders"),
                "cannot use HTTP headers with this source scheme",
            ),
        }
    }
}

/// Ignition's `validateURL` for `spec`: the schemes it fetches from, and a data URL that
/// decodes.
pub fn check_url(u: &str, spec: Spec) -> Option<String> {
    let Ok(parsed) = url::parse(u) else {
        return Some("unable to parse url".into());
    };
    let gs = spec >= Spec::V3(2);
    let arn = spec >= Spec::V3(4);
    match parsed.scheme.as_str() {
        "http" | "https" | "tftp" => None,
        "gs" if gs => None,
        "s3" => versioned_object(&parsed),
        "arn" if arn => check_arn(u, &parsed),
        "data" => crate::ignition::dataurl::decode_strict(u).err(),
        _ => Some("invalid url scheme".into()),
    }
}

fn versioned_object(u: &url::Url) -> Option<String> {
    let has_empty = u
        .raw_query
        .split('&')
        .filter_map(|kv| kv.split_once('=').or(Some((kv, ""))))
        .find(|(k, _)| *k == "versionId")
        .is_some_and(|(_, v)| v.is_empty());
    has_empty.then(|| "s3 object version id cannot be empty".into())
}

/// An `arn:` source must be an S3 object ARN.
fn check_arn(full: &str, u: &url::Url) -> Option<String> {
    let base = full.split('?').next().unwrap_or(full);
    let parts: Vec<&str> = base.splitn(6, ':').collect();
    if parts.len() < 6 || parts[2] != "s3" {
        return Some("invalid S3 ARN format".into());
    }
    let resource = parts[5];
    let slashes = base.split('/').count();
    if (resource.starts_with("accesspoint/") && slashes < 3) || slashes < 2 {
        return Some("invalid S3 ARN format".into());
    }
    versioned_object(u)
}
