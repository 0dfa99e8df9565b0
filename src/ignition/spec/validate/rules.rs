//! Each type's own `Validate`, as Ignition's config types define it, and the path checks they
//! share.

use serde_json::{Map, Value};

use super::path::check_path;
use super::source::{check_url, resource};
use super::storage::{disk, filesystem, luks, partition, storage};
use super::{Report, at, is_true, list, non_empty, obj, s};
use crate::golang::url;
use crate::ignition::spec::schema::Type;
use crate::ignition::spec::{Spec, unit};

/// Each type's own `Validate`.
pub(super) fn rules(m: &Map<String, Value>, ty: &Type, path: &str, spec: Spec, r: &mut Report) {
    let p = |name: &str| at(path, name);
    match ty.name {
        "Ignition" => version(m, spec, path, r),
        "IgnitionConfig" => config_refs(m, path, spec, r),
        "TLS" => tls(m, path, spec, r),
        "Proxy" => proxy(m, path, r),
        "Resource" | "FileContents" | "ConfigReference" => resource(m, path, spec, r),
        "CaReference" => {
            if let Some(e) = check_url(s(m, "source").unwrap_or(""), spec) {
                r.error(&p("source"), e);
            }
        }
        "HTTPHeader" => http_header(m, path, r),
        "Verification" => verification(m, path, r),
        "File" | "Directory" | "Link" => node(m, path, ty, r),
        "NodeUser" | "NodeGroup" if m.contains_key("id") && non_empty(m, "name").is_some() => {
            r.error(path, "cannot set both id and name");
        }
        "Unit" => unit_rule(m, path, r),
        "Dropin" => dropin(m, path, r),
        "Storage" => storage(m, path, r),
        "Disk" => disk(m, path, r),
        "Partition" => partition(m, path, r),
        "Filesystem" => filesystem(m, path, r),
        "Raid" => raid(m, path, r),
        "Luks" => luks(m, path, spec, r),
        "Tang" => tang(m, path, r),
        "ClevisCustom" | "Custom" => clevis_custom(m, path, r),
        "Systemd" => instance_units(m, path, r),
        _ => {}
    }
}

/// Config references: each needs a source (not in spec 3.0), a URL Ignition can fetch.
fn config_refs(m: &Map<String, Value>, path: &str, spec: Spec, r: &mut Report) {
    let p = |name: &str| at(path, name);
    for (i, res) in list(m, "merge").iter().enumerate() {
        let res = res.as_object();
        let src = res.and_then(|x| non_empty(x, "source"));
        // Spec 3.0's config references may leave their source empty.
        if spec == Spec::V3(0) {
            if let Some(e) = src.and_then(|u| check_url(u, spec)) {
                r.error(&format!("{}[{i}].source", p("merge")), e);
            }
            continue;
        }
        match src {
            None => r.error(&format!("{}[{i}]", p("merge")), "source is required"),
            Some(u) => {
                if let Some(e) = check_url(u, spec) {
                    r.error(&format!("{}[{i}]", p("merge")), e);
                }
            }
        }
    }
}

/// CA references: each needs a source (not in spec 3.0).
fn tls(m: &Map<String, Value>, path: &str, spec: Spec, r: &mut Report) {
    let p = |name: &str| at(path, name);
    for (i, res) in list(m, "certificateAuthorities").iter().enumerate() {
        let here = format!("{}[{i}]", p("certificateAuthorities"));
        let src = res.as_object().and_then(|x| s(x, "source")).unwrap_or("");
        if spec != Spec::V3(0) && src.is_empty() {
            r.error(&here, "source is required");
        } else if let Some(e) = check_url(src, spec) {
            r.error(&here, e);
        }
    }
}

/// Proxies must be http(s) URLs; plain http for HTTPS resources is a warning.
fn proxy(m: &Map<String, Value>, path: &str, r: &mut Report) {
    let p = |name: &str| at(path, name);
    for (k, http_ok) in [("httpProxy", true), ("httpsProxy", false)] {
        let Some(u) = s(m, k) else { continue };
        match url::parse(u) {
            Err(_) => r.error(&p(k), "unable to parse url"),
            Ok(u) if u.scheme != "http" && u.scheme != "https" => {
                r.error(&p(k), "proxies must be http(s)")
            }
            Ok(u) if u.scheme == "http" && !http_ok => r.warn(
                &p(k),
                "insecure plaintext HTTP proxy specified for HTTPS resources",
            ),
            Ok(_) => {}
        }
    }
}

/// A header needs a name and a value.
fn http_header(m: &Map<String, Value>, path: &str, r: &mut Report) {
    let p = |name: &str| at(path, name);
    if s(m, "name").unwrap_or("").is_empty() {
        r.error(&p("name"), "HTTP header name can't be empty");
    }
    if s(m, "value") == Some("") {
        r.error(&p("value"), "unable to parse HTTP header");
    }
}

/// A hash is `sha512-<128 hex>` or `sha256-<64 hex>`.
fn verification(m: &Map<String, Value>, path: &str, r: &mut Report) {
    let p = |name: &str| at(path, name);
    if let Some(h) = s(m, "hash") {
        let here = p("hash");
        match h.split_once('-') {
            None => r.error(&here, "malformed hash specifier"),
            Some(("sha512", sum)) if sum.len() != 128 => {
                r.error(&here, "incorrect size for hash sum")
            }
            Some(("sha256", sum)) if sum.len() != 64 => {
                r.error(&here, "incorrect size for hash sum")
            }
            Some(("sha512" | "sha256", _)) => {}
            Some(_) => r.error(&here, "unrecognized hash function"),
        }
    }
}

/// A node's path, mode, and overwrite only with a source.
fn node(m: &Map<String, Value>, path: &str, ty: &Type, r: &mut Report) {
    let p = |name: &str| at(path, name);
    if let Some(e) = check_path(s(m, "path").unwrap_or("")) {
        r.error(&p("path"), e);
    }
    if ty.name != "Link"
        && let Some(mode) = m.get("mode").and_then(Value::as_i64)
    {
        if !(0..=0o7777).contains(&mode) {
            r.error(&p("mode"), "illegal file mode");
        } else if mode & 0o7000 != 0 {
            r.warn(
                &p("mode"),
                "setuid/setgid/sticky bits are not supported or functional in spec versions older than 3.6.0",
            );
        }
    }
    if ty.name == "File"
        && is_true(m, "overwrite")
        && obj(m, "contents").and_then(|c| c.get("source")).is_none()
    {
        r.error(
            &p("overwrite"),
            "overwrite must be false if source is unspecified",
        );
    }
}

/// A unit's extension and contents; enabled without [Install] is a warning.
fn unit_rule(m: &Map<String, Value>, path: &str, r: &mut Report) {
    let p = |name: &str| at(path, name);
    let name = s(m, "name").unwrap_or("");
    if !unit::EXTENSIONS.contains(&extension(name)) {
        r.error(&p("name"), "invalid systemd unit extension");
    }
    let contents = s(m, "contents");
    match contents.map(unit::deserialize) {
        Some(Err(e)) => r.error(&p("contents"), format!("invalid unit content: {e}")),
        Some(Ok(opts))
            if is_true(m, "enabled")
                && contents.is_some_and(|c| !c.is_empty())
                && !opts.iter().any(|o| o.section == "Install") =>
        {
            r.warn(
                &p("contents"),
                format!(
                    "unit {name:?} is enabled, but has no install section so enable does nothing"
                ),
            )
        }
        _ => {}
    }
}

/// A drop-in's contents, and its `.conf` extension.
fn dropin(m: &Map<String, Value>, path: &str, r: &mut Report) {
    let p = |name: &str| at(path, name);
    if let Some(Err(e)) = s(m, "contents").map(unit::deserialize) {
        r.error(&p("contents"), format!("invalid unit content: {e}"));
    }
    if extension(s(m, "name").unwrap_or("")) != ".conf" {
        r.error(&p("name"), "invalid systemd drop-in extension");
    }
}

/// A RAID level Ignition knows (no spares for linear and raid0), and its devices.
fn raid(m: &Map<String, Value>, path: &str, r: &mut Report) {
    let p = |name: &str| at(path, name);
    let level = non_empty(m, "level");
    let spares = m.get("spares").and_then(Value::as_i64).unwrap_or(0);
    match level {
        None => r.error(&p("level"), "raid level is required"),
        Some("linear" | "raid0" | "0" | "stripe") if spares != 0 => r.error(
            &p("level"),
            "spares unsupported for linear and raid0 arrays",
        ),
        Some(
            "linear" | "raid0" | "0" | "stripe" | "raid1" | "1" | "mirror" | "raid4" | "4"
            | "raid5" | "5" | "raid6" | "6" | "raid10" | "10",
        ) => {}
        Some(_) => r.error(&p("level"), "unrecognized raid level"),
    }
    if list(m, "devices").is_empty() {
        r.error(&p("devices"), "raid devices required");
    }
    for (i, d) in list(m, "devices").iter().enumerate() {
        if let Some(e) = check_path(d.as_str().unwrap_or("")) {
            r.error(&format!("{}[{i}]", p("devices")), e);
        }
    }
}

/// A Tang server: an http(s) URL, a thumbprint, an advertisement that is JSON.
fn tang(m: &Map<String, Value>, path: &str, r: &mut Report) {
    let p = |name: &str| at(path, name);
    match url::parse(s(m, "url").unwrap_or("")) {
        Err(_) => r.error(&p("url"), "unable to parse url"),
        Ok(u) if u.scheme != "http" && u.scheme != "https" => {
            r.error(&p("url"), "invalid url scheme")
        }
        Ok(_) => {}
    }
    if non_empty(m, "thumbprint").is_none() {
        r.error(&p("thumbprint"), "thumbprint is required");
    }
    if let Some(a) = non_empty(m, "advertisement")
        && serde_json::from_str::<Value>(a).is_err()
    {
        r.error(&p("advertisement"), "advertisement is not valid JSON");
    }
}

/// A custom Clevis pin: tpm2, tang or sss, with its config.
fn clevis_custom(m: &Map<String, Value>, path: &str, r: &mut Report) {
    let p = |name: &str| at(path, name);
    let pin = non_empty(m, "pin");
    if pin.is_none() && non_empty(m, "config").is_none() && !is_true(m, "needsNetwork") {
        return;
    }
    match pin {
        Some("tpm2" | "tang" | "sss") => {}
        Some(_) => r.error(&p("pin"), "unsupported clevis pin"),
        None => r.error(&p("pin"), "missing required custom clevis pin"),
    }
    if non_empty(m, "config").is_none() {
        r.error(&p("config"), "missing required custom clevis config");
    }
}

pub(super) fn version(m: &Map<String, Value>, spec: Spec, path: &str, r: &mut Report) {
    let here = at(path, "version");
    match crate::golang::semver::Version::parse(s(m, "version").unwrap_or("")) {
        None => r.error(&here, "invalid config version (couldn't parse)"),
        Some(v) if Spec::of_version(&v) != Some(spec) => {
            r.error(&here, "unsupported config version")
        }
        Some(_) => {}
    }
}

/// Go's `path.Ext`.
pub(super) fn extension(name: &str) -> &str {
    let last = name.rsplit('/').next().unwrap_or(name);
    last.rfind('.').map_or("", |i| &last[i..])
}

pub(super) fn instance_units(m: &Map<String, Value>, path: &str, r: &mut Report) {
    let units: Vec<&Map<String, Value>> = list(m, "units")
        .iter()
        .filter_map(Value::as_object)
        .collect();
    for (i, u) in units.iter().enumerate() {
        let name = s(u, "name").unwrap_or("");
        if !is_true(u, "enabled") {
            continue;
        }
        let Some(base) = name.strip_suffix(".service") else {
            continue;
        };
        let Some((prefix, instance)) = base.split_once('@') else {
            continue;
        };
        if prefix.is_empty() || instance.is_empty() {
            continue;
        }
        let template = format!("{prefix}@.service");
        let Some(t) = units
            .iter()
            .rev()
            .find(|u| s(u, "name") == Some(template.as_str()))
        else {
            continue;
        };
        let Some(contents) = non_empty(t, "contents") else {
            continue;
        };
        let Ok(opts) = unit::deserialize(contents) else {
            continue;
        };
        if !opts.iter().any(|o| o.section == "Install") {
            r.warn(
                &format!("{}[{i}].contents", at(path, "units")),
                format!("unit {template:?} is enabled, but has no install section so enable does nothing"),
            );
        }
    }
}
