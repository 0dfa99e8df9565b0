//! Spec 2.x validation as Ignition 0.35 does it (`ValidateWithoutSource`), errors only.

use serde_json::{Map, Value, json};

use super::{b, list, s};
use crate::golang::url;
use crate::ignition::spec::{Config, unit};

/// Spec 2.x validation (Ignition 0.35's `ValidateWithoutSource`), errors only.
pub(super) fn validate_v2(cfg: &Config) -> Result<(), String> {
    let v = &cfg.value;
    for (kind, ptr) in [
        ("files", "/storage/files"),
        ("directories", "/storage/directories"),
        ("links", "/storage/links"),
    ] {
        for (i, n) in list(v, ptr).iter().enumerate() {
            node(n, kind, &format!("storage.{kind}[{i}]"))?;
        }
    }
    for (i, u) in list(v, "/systemd/units").iter().enumerate() {
        unit_v2(u, &format!("systemd.units[{i}]"))?;
    }
    for (i, u) in list(v, "/passwd/users").iter().enumerate() {
        if u.contains_key("create") {
            return Err(format!(
                "passwd.users[{i}].create: the create object has been deprecated in favor of user-level options"
            ));
        }
    }
    for (i, c) in list(v, "/ignition/config/append").iter().enumerate() {
        if let Some(e) = check_url_v2(s(c, "source")) {
            return Err(format!("ignition.config.append[{i}].source: {e}"));
        }
    }
    Ok(())
}

/// A file, directory or link (`kind`) at `at`.
fn node(n: &Map<String, Value>, kind: &str, at: &str) -> Result<(), String> {
    if s(n, "filesystem").is_empty() {
        return Err(format!("{at}: no filesystem specified"));
    }
    if !s(n, "path").starts_with('/') {
        return Err(format!("{at}.path: path not absolute"));
    }
    for who in ["user", "group"] {
        if let Some(o) = n.get(who).and_then(Value::as_object)
            && o.contains_key("id")
            && !s(o, "name").is_empty()
        {
            return Err(format!("{at}.{who}: cannot set both id and name"));
        }
    }
    if let Some(mode) = n.get("mode").and_then(Value::as_i64)
        && !(0..=0o7777).contains(&mode)
    {
        return Err(format!("{at}.mode: illegal file mode"));
    }
    if kind == "files" {
        if b(n, "append") && n.get("overwrite") == Some(&json!(true)) {
            return Err(format!(
                "{at}: cannot set both append and overwrite to true"
            ));
        }
        let empty = Map::new();
        let c = n
            .get("contents")
            .and_then(Value::as_object)
            .unwrap_or(&empty);
        if !matches!(s(c, "compression"), "" | "gzip") {
            return Err(format!(
                "{at}.contents.compression: invalid compression method"
            ));
        }
        if let Some(e) = check_url_v2(s(c, "source")) {
            return Err(format!("{at}.contents.source: {e}"));
        }
    }
    Ok(())
}

/// A unit at `at`: its extension, contents and drop-ins.
fn unit_v2(u: &Map<String, Value>, at: &str) -> Result<(), String> {
    let name = s(u, "name");
    let ext = name.rfind('.').map_or("", |p| &name[p..]);
    if !unit::EXTENSIONS.contains(&ext) {
        return Err(format!("{at}.name: invalid systemd unit extension"));
    }
    if let Err(e) = unit::deserialize(s(u, "contents")) {
        return Err(format!("{at}.contents: invalid unit content: {e}"));
    }
    for (j, d) in u
        .get("dropins")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .enumerate()
    {
        let d = d.as_object().cloned().unwrap_or_default();
        if let Err(e) = unit::deserialize(s(&d, "contents")) {
            return Err(format!(
                "{at}.dropins[{j}].contents: invalid unit content: {e}"
            ));
        }
        if !s(&d, "name").ends_with(".conf") {
            return Err(format!(
                "{at}.dropins[{j}].name: invalid systemd drop-in extension"
            ));
        }
    }
    Ok(())
}

/// Spec 2.x's `validateURL`: empty, or http(s), oem, tftp, s3 or a decodable data URL.
pub(super) fn check_url_v2(u: &str) -> Option<String> {
    if u.is_empty() {
        return None;
    }
    let Ok(parsed) = url::parse(u) else {
        return Some("unable to parse url".into());
    };
    match parsed.scheme.as_str() {
        "http" | "https" | "oem" | "tftp" | "s3" => None,
        "data" => crate::ignition::dataurl::decode_strict(u).err(),
        _ => Some("invalid url scheme".into()),
    }
}
