//! Ignition's validation of a spec 3 config (`validate.ValidateWithContext` with each type's
//! `Validate`), whose errors make Ignition, and so the MCO, refuse a config: duplicate keys
//! (files, directories and links share one path namespace; units, dropins, users, groups by
//! name), paths, modes, URLs and data URLs, compression and hashes, systemd unit and dropin
//! names and contents, links, disks, partitions, filesystems, RAID, LUKS and Tang. Warnings
//! (special mode bits, a missing `[Install]`, an insecure proxy) are kept apart: upstream
//! carries on after them.

use serde_json::{Map, Value};

use super::schema::{self, Kind, Type};
use super::{Config, Spec, unit};
use crate::golang::url;

/// One finding, at a field path (`storage.files[1]`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Issue {
    /// Where.
    pub path: String,
    /// Ignition's words.
    pub message: String,
}

impl std::fmt::Display for Issue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.path.is_empty() {
            f.write_str(&self.message)
        } else {
            write!(f, "{}: {}", self.path, self.message)
        }
    }
}

/// What validation found.
#[derive(Debug, Clone, Default)]
pub struct Report {
    /// Fatal findings.
    pub errors: Vec<Issue>,
    /// Findings Ignition reports and carries on after.
    pub warnings: Vec<Issue>,
}

impl Report {
    fn error(&mut self, path: &str, message: impl Into<String>) {
        self.errors.push(Issue {
            path: path.to_string(),
            message: message.into(),
        });
    }

    fn warn(&mut self, path: &str, message: impl Into<String>) {
        self.warnings.push(Issue {
            path: path.to_string(),
            message: message.into(),
        });
    }

    /// Whether Ignition would refuse the config.
    pub fn is_fatal(&self) -> bool {
        !self.errors.is_empty()
    }
}

/// Validates a spec 3 config at its own version.
pub fn validate(cfg: &Config) -> Report {
    let mut r = Report::default();
    let schema = schema::of(cfg.spec);
    let root = schema.root();
    let empty = Map::new();
    let m = cfg.value.as_object().unwrap_or(&empty);
    let spec = cfg.spec;
    super::typed::visit(&cfg.value, root, schema, "", &mut |ty, m, path| {
        dups(m, ty, path, &mut r);
        rules(m, ty, path, spec, &mut r);
    });
    // Ignition.Validate runs on the (always present) ignition struct.
    if !m.contains_key("ignition") {
        version(&Map::new(), cfg.spec, "ignition", &mut r);
    }
    config_paths(m, &mut r);
    r
}

fn at(path: &str, name: &str) -> String {
    if path.is_empty() {
        name.to_string()
    } else {
        format!("{path}.{name}")
    }
}

fn s<'a>(m: &'a Map<String, Value>, k: &str) -> Option<&'a str> {
    m.get(k).and_then(Value::as_str)
}

fn non_empty<'a>(m: &'a Map<String, Value>, k: &str) -> Option<&'a str> {
    s(m, k).filter(|v| !v.is_empty())
}

fn is_true(m: &Map<String, Value>, k: &str) -> bool {
    m.get(k).and_then(Value::as_bool) == Some(true)
}

fn obj<'a>(m: &'a Map<String, Value>, k: &str) -> Option<&'a Map<String, Value>> {
    m.get(k).and_then(Value::as_object)
}

fn list<'a>(m: &'a Map<String, Value>, k: &str) -> &'a [Value] {
    m.get(k)
        .and_then(Value::as_array)
        .map_or(&[], Vec::as_slice)
}

/// The key Ignition merges and de-duplicates a list item by (`Key()`).
pub fn key(type_name: &str, item: &Value) -> String {
    let m = item.as_object();
    let get = |k: &str| {
        m.and_then(|m| m.get(k))
            .and_then(Value::as_str)
            .unwrap_or("")
    };
    match type_name {
        "File" | "Directory" | "Link" => get("path").into(),
        "Disk" | "Filesystem" => get("device").into(),
        "Tang" => get("url").into(),
        "Resource" | "ConfigReference" | "CaReference" => get("source").into(),
        "Partition" => {
            let number = m
                .and_then(|m| m.get("number"))
                .and_then(Value::as_i64)
                .unwrap_or(0);
            if number != 0 {
                format!("number:{number}")
            } else if let Some(l) = m.and_then(|m| m.get("label")).and_then(Value::as_str) {
                format!("label:{l}")
            } else {
                String::new()
            }
        }
        // Units, dropins, users, groups, headers, LUKS and RAID devices: by name.
        _ => get("name").into(),
    }
}

/// The lists of a type whose items may repeat (`IgnoreDuplicates`).
pub fn ignores_duplicates(type_name: &str, field: &str) -> bool {
    matches!(
        (type_name, field),
        ("File" | "FileEmbedded1", "append")
            | ("Filesystem", "options" | "mountOptions")
            | ("Luks" | "Raid", "options")
    )
}

/// The key namespace a list shares with its siblings (`MergedKeys`).
pub fn merged_key(type_name: &str, field: &str) -> String {
    match (type_name, field) {
        ("Storage", "files" | "directories" | "links") => "Node".into(),
        ("KernelArguments", "shouldExist" | "shouldNotExist") => "KernelArgument".into(),
        _ => field.into(),
    }
}

fn dups(m: &Map<String, Value>, ty: &Type, path: &str, r: &mut Report) {
    let mut seen: std::collections::HashMap<String, std::collections::HashSet<String>> =
        std::collections::HashMap::new();
    for f in &ty.fields {
        let (Kind::List(_) | Kind::ListStr) = f.kind else {
            continue;
        };
        if ignores_duplicates(ty.name, f.name) {
            continue;
        }
        let set = seen.entry(merged_key(ty.name, f.name)).or_default();
        for (i, item) in list(m, f.name).iter().enumerate() {
            let k = match (f.kind, item) {
                (Kind::List(t), _) => key(t, item),
                (_, Value::String(s)) => s.clone(),
                _ => String::new(),
            };
            if !set.insert(k) {
                r.error(
                    &format!("{}[{i}]", at(path, f.name)),
                    "duplicate entry defined",
                );
            }
        }
    }
}

/// Each type's own `Validate`.
fn rules(m: &Map<String, Value>, ty: &Type, path: &str, spec: Spec, r: &mut Report) {
    let p = |name: &str| at(path, name);
    match ty.name {
        "Ignition" => version(m, spec, path, r),
        "IgnitionConfig" => {
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
        "TLS" => {
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
        "Proxy" => {
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
        "Resource" | "FileContents" | "ConfigReference" => resource(m, path, spec, r),
        "CaReference" => {
            if let Some(e) = check_url(s(m, "source").unwrap_or(""), spec) {
                r.error(&p("source"), e);
            }
        }
        "HTTPHeader" => {
            if s(m, "name").unwrap_or("").is_empty() {
                r.error(&p("name"), "HTTP header name can't be empty");
            }
            if s(m, "value") == Some("") {
                r.error(&p("value"), "unable to parse HTTP header");
            }
        }
        "Verification" => {
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
        "File" | "Directory" | "Link" => {
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
        "NodeUser" | "NodeGroup" if m.contains_key("id") && non_empty(m, "name").is_some() => {
            r.error(path, "cannot set both id and name");
        }
        "Unit" => {
            let name = s(m, "name").unwrap_or("");
            if !matches!(
                extension(name),
                ".service"
                    | ".socket"
                    | ".device"
                    | ".mount"
                    | ".automount"
                    | ".swap"
                    | ".target"
                    | ".path"
                    | ".timer"
                    | ".snapshot"
                    | ".slice"
                    | ".scope"
            ) {
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
        "Dropin" => {
            if let Some(Err(e)) = s(m, "contents").map(unit::deserialize) {
                r.error(&p("contents"), format!("invalid unit content: {e}"));
            }
            if extension(s(m, "name").unwrap_or("")) != ".conf" {
                r.error(&p("name"), "invalid systemd drop-in extension");
            }
        }
        "Storage" => storage(m, path, r),
        "Disk" => disk(m, path, r),
        "Partition" => partition(m, path, r),
        "Filesystem" => filesystem(m, path, r),
        "Raid" => {
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
        "Luks" => luks(m, path, spec, r),
        "Tang" => {
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
        "ClevisCustom" | "Custom" => {
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
        "Systemd" => instance_units(m, path, r),
        _ => {}
    }
}

fn version(m: &Map<String, Value>, spec: Spec, path: &str, r: &mut Report) {
    let here = at(path, "version");
    match crate::golang::semver::Version::parse(s(m, "version").unwrap_or("")) {
        None => r.error(&here, "invalid config version (couldn't parse)"),
        Some(v) if Spec::of_version(&v) != Some(spec) => {
            r.error(&here, "unsupported config version")
        }
        Some(_) => {}
    }
}

fn resource(m: &Map<String, Value>, path: &str, spec: Spec, r: &mut Report) {
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

/// `validatePath`: absolute and clean.
fn check_path(p: &str) -> Option<&'static str> {
    if p.is_empty() {
        Some("path not specified")
    } else if !p.starts_with('/') {
        Some("path not absolute")
    } else if clean(p) != p {
        Some("path is not fully simplified")
    } else {
        None
    }
}

/// Go's `path.Clean` for an absolute path.
pub fn clean(p: &str) -> String {
    let mut parts: Vec<&str> = Vec::new();
    for seg in p.split('/') {
        match seg {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            s => parts.push(s),
        }
    }
    format!("/{}", parts.join("/"))
}

/// Go's `path.Ext`.
fn extension(name: &str) -> &str {
    let last = name.rsplit('/').next().unwrap_or(name);
    last.rfind('.').map_or("", |i| &last[i..])
}

fn storage(m: &Map<String, Value>, path: &str, r: &mut Report) {
    let links: Vec<&Map<String, Value>> = list(m, "links")
        .iter()
        .filter_map(Value::as_object)
        .collect();
    for (field, msg) in [
        ("directories", "directory path includes link in config"),
        ("files", "file path includes link in config"),
    ] {
        for (i, d) in list(m, field).iter().enumerate() {
            let dp = d.as_object().and_then(|d| s(d, "path")).unwrap_or("");
            for _ in links
                .iter()
                .filter(|l| dp.starts_with(&format!("{}/", s(l, "path").unwrap_or(""))))
            {
                r.error(&format!("{}[{i}]", at(path, field)), msg);
            }
        }
    }
    let dirs: Vec<&str> = list(m, "directories")
        .iter()
        .filter_map(|d| d.as_object().and_then(|d| s(d, "path")))
        .collect();
    for (i, l) in links.iter().enumerate() {
        let here = format!("{}[{i}]", at(path, "links"));
        let lp = s(l, "path").unwrap_or("");
        for l2 in &links {
            if lp.starts_with(&format!("{}/", s(l2, "path").unwrap_or(""))) {
                r.error(&here, "link path includes link in config");
            }
        }
        let Some(target) = non_empty(l, "target") else {
            r.error(&format!("{here}.target"), "link target is required");
            continue;
        };
        if !is_true(l, "hard") {
            continue;
        }
        let mut t = clean(&format!("/{target}"));
        if !target.starts_with('/') {
            t = clean(&format!("{lp}/{target}"));
        }
        if dirs.contains(&t.as_str()) {
            r.error(&here, "hard link target is a directory");
        }
        for (who, field) in [
            ("user", "id"),
            ("user", "name"),
            ("group", "id"),
            ("group", "name"),
        ] {
            if obj(l, who).is_some_and(|o| o.contains_key(field)) {
                r.warn(
                    &format!("{here}.{who}.{field}"),
                    "user/group ignored for hard link",
                );
            }
        }
    }
    let disks: Vec<&Map<String, Value>> = list(m, "disks")
        .iter()
        .filter_map(Value::as_object)
        .collect();
    for (i, f) in list(m, "filesystems")
        .iter()
        .filter_map(Value::as_object)
        .enumerate()
    {
        let dev = s(f, "device").unwrap_or("");
        if let Some(d) = disks.iter().find(|d| s(d, "device").unwrap_or("") == dev) {
            let here = format!("{}[{i}].device", at(path, "filesystems"));
            if !list(d, "partitions").is_empty() {
                r.warn(&here, "filesystem overwrites partitioned device");
            } else if !is_true(f, "wipeFilesystem") && is_true(d, "wipeTable") {
                r.warn(
                    &here,
                    "device matches disk with wipeTable enabled; filesystem will be wiped",
                );
            }
        }
    }
}

/// Files, directories and links may not sit where a unit or dropin with contents is written.
fn config_paths(m: &Map<String, Value>, r: &mut Report) {
    let mut unit_paths = std::collections::HashSet::new();
    for u in list(obj(m, "systemd").unwrap_or(&Map::new()), "units")
        .iter()
        .filter_map(Value::as_object)
    {
        let name = s(u, "name").unwrap_or("");
        if non_empty(u, "contents").is_some() {
            unit_paths.insert(format!("/etc/systemd/system/{name}"));
        }
        for d in list(u, "dropins").iter().filter_map(Value::as_object) {
            if non_empty(d, "contents").is_some() {
                unit_paths.insert(format!(
                    "/etc/systemd/system/{name}.d/{}",
                    s(d, "name").unwrap_or("")
                ));
            }
        }
    }
    let empty = Map::new();
    let st = obj(m, "storage").unwrap_or(&empty);
    for field in ["files", "directories", "links"] {
        for (i, n) in list(st, field).iter().enumerate() {
            if unit_paths.contains(n.as_object().and_then(|n| s(n, "path")).unwrap_or("")) {
                r.error(
                    &format!("storage.{field}[{i}].path"),
                    "path conflicts with systemd unit or dropin",
                );
            }
        }
    }
}

fn instance_units(m: &Map<String, Value>, path: &str, r: &mut Report) {
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

fn disk(m: &Map<String, Value>, path: &str, r: &mut Report) {
    let dev = s(m, "device").unwrap_or("");
    let p = |n: &str| at(path, n);
    if dev.is_empty() {
        r.error(&p("device"), "disk device is required");
        return;
    }
    if let Some(e) = check_path(dev) {
        r.error(&p("device"), e);
    }
    let parts: Vec<&Map<String, Value>> = list(m, "partitions")
        .iter()
        .filter_map(Value::as_object)
        .collect();
    let int = |m: &Map<String, Value>, k: &str| m.get(k).and_then(Value::as_i64);
    let mut numbers: Vec<(i64, Vec<usize>)> = Vec::new();
    for (i, part) in parts.iter().enumerate() {
        let n = int(part, "number").unwrap_or(0);
        if n != 0 {
            match numbers.iter_mut().find(|(k, _)| *k == n) {
                Some((_, v)) => v.push(i),
                None => numbers.push((n, vec![i])),
            }
        }
    }
    if let Some((_, v)) = numbers.iter().find(|(_, v)| v.len() > 1) {
        r.error(
            &format!("{}[{}]", p("partitions"), v[1]),
            "partition numbers collide",
        );
    }
    let end = |x: &Map<String, Value>| {
        let (start, size) = (
            int(x, "startMiB").unwrap_or(0),
            int(x, "sizeMiB").unwrap_or(0),
        );
        if size == 0 { start } else { start + size - 1 }
    };
    'outer: for (ai, a) in parts.iter().enumerate() {
        let (Some(sa), Some(_)) = (int(a, "startMiB"), int(a, "sizeMiB")) else {
            continue;
        };
        if sa == 0 {
            continue;
        }
        for (i, o) in parts.iter().enumerate() {
            let (Some(so), Some(_)) = (int(o, "startMiB"), int(o, "sizeMiB")) else {
                continue;
            };
            // Go compares the structs, pointers included: only an item equals itself.
            if ai == i || so == 0 {
                continue;
            }
            let (ea, eo) = (end(a), end(o));
            if (sa >= so && sa <= eo) || (ea >= so && ea <= eo) || (sa < so && ea > eo) {
                r.error(&format!("{}[{i}]", p("partitions")), "partitions overlap");
                break 'outer;
            }
        }
    }
    let has_zero = parts.iter().any(|x| int(x, "number").unwrap_or(0) == 0);
    let has_gone = parts
        .iter()
        .any(|x| x.get("shouldExist") == Some(&Value::Bool(false)));
    if has_zero && has_gone {
        r.error(
            &p("partitions"),
            "shouldExist is false for a partition and other partition(s) has start or size 0",
        );
    }
    let mut labels = std::collections::HashSet::new();
    for (i, part) in parts.iter().enumerate() {
        if let Some(l) = s(part, "label")
            && !labels.insert(l)
        {
            r.error(
                &format!("{}[{i}]", p("partitions")),
                "cannot use the same partition label twice",
            );
            break;
        }
    }
}

fn partition(m: &Map<String, Value>, path: &str, r: &mut Report) {
    let p = |n: &str| at(path, n);
    if m.get("shouldExist") == Some(&Value::Bool(false))
        && (m.contains_key("label")
            || non_empty(m, "typeGuid").is_some()
            || non_empty(m, "guid").is_some()
            || m.contains_key("startMiB")
            || m.contains_key("sizeMiB"))
    {
        r.error(
            path,
            "shouldExist specified false with other options also specified",
        );
    }
    if m.get("number").and_then(Value::as_i64).unwrap_or(0) == 0 && !m.contains_key("label") {
        r.error(path, "a partition number >= 1 or a label must be specified");
    }
    if let Some(l) = s(m, "label") {
        if l.len() > 36 {
            r.error(&p("label"), "partition labels may not exceed 36 characters");
        } else if l.contains(':') {
            r.error(
                &p("label"),
                "partition label will be truncated to text before the colon",
            );
        }
    }
    for k in ["guid", "typeGuid"] {
        if let Some(g) = s(m, k)
            && !guid(g)
        {
            r.error(
                &p(k),
                "doesn't match the form \"01234567-89AB-CDEF-EDCB-A98765432101\"",
            );
        }
    }
}

fn guid(g: &str) -> bool {
    let parts: Vec<&str> = g.split('-').collect();
    g.is_empty()
        || (parts.iter().map(|x| x.len()).collect::<Vec<_>>() == [8, 4, 4, 4, 12]
            && parts
                .iter()
                .all(|x| x.bytes().all(|b| b.is_ascii_hexdigit())))
}

fn filesystem(m: &Map<String, Value>, path: &str, r: &mut Report) {
    let p = |n: &str| at(path, n);
    if let Some(fp) = non_empty(m, "path")
        && let Some(e) = check_path(fp)
    {
        r.error(&p("path"), e);
    }
    if let Some(e) = check_path(s(m, "device").unwrap_or("")) {
        r.error(&p("device"), e);
    }
    let format = non_empty(m, "format");
    match format {
        None => {
            if non_empty(m, "path").is_some()
                || non_empty(m, "label").is_some()
                || non_empty(m, "uuid").is_some()
                || is_true(m, "wipeFilesystem")
                || !list(m, "mountOptions").is_empty()
                || !list(m, "options").is_empty()
            {
                r.error(
                    &p("format"),
                    "format cannot be empty when path, label, uuid, wipeFilesystem, options, or mountOptions is specified",
                );
            }
        }
        Some("ext4" | "btrfs" | "xfs" | "swap" | "vfat" | "none") => {}
        Some(_) => r.error(&p("format"), "invalid filesystem format"),
    }
    if let Some(label) = non_empty(m, "label") {
        let limit = match format {
            None => {
                r.error(
                    &p("label"),
                    "filesystem must specify format if label is specified",
                );
                return;
            }
            Some("ext4") => Some((16, "ext4", 16)),
            Some("btrfs") => Some((256, "btrfs", 256)),
            Some("xfs") => Some((12, "xfs", 12)),
            Some("swap") => Some((15, "swap", 15)),
            Some("vfat") => Some((11, "vfat", 11)),
            _ => None,
        };
        if let Some((max, fs, n)) = limit
            && label.len() > max
        {
            r.error(
                &p("label"),
                format!("filesystem labels cannot be longer than {n} characters when using {fs}"),
            );
        }
    }
}

fn luks(m: &Map<String, Value>, path: &str, spec: Spec, r: &mut Report) {
    let p = |n: &str| at(path, n);
    if s(m, "name").unwrap_or("").contains('/') {
        r.error(&p("name"), "device names cannot contain slashes");
    }
    if non_empty(m, "label").is_some_and(|l| l.len() > 47) {
        r.error(
            &p("label"),
            "luks device labels cannot be longer than 47 characters",
        );
    }
    match non_empty(m, "device") {
        None => r.error(&p("device"), "disk device is required"),
        Some(d) => {
            if let Some(e) = check_path(d) {
                r.error(&p("device"), e);
            }
        }
    }
    let empty = Map::new();
    let clevis = obj(m, "clevis").unwrap_or(&empty);
    let custom_pin = obj(clevis, "custom")
        .and_then(|c| non_empty(c, "pin"))
        .is_some();
    let threshold = clevis.get("threshold").and_then(Value::as_i64).unwrap_or(0);
    let others = !list(clevis, "tang").is_empty() || is_true(clevis, "tpm2") || threshold != 0;
    if custom_pin && others {
        r.error(
            &p("clevis"),
            "cannot use custom clevis config with tpm2, tang, or threshold",
        );
    }
    let key_source = obj(m, "keyFile").and_then(|k| non_empty(k, "source"));
    if key_source.is_some_and(|u| check_url(u, spec).is_some()) {
        r.error(&p("keys"), "invalid key-file source");
    }
    let clevis_present = custom_pin || others;
    let cex = obj(m, "cex").is_some_and(|c| is_true(c, "enabled"));
    if clevis_present && cex {
        r.error(&p("cex"), "cannot use cex with clevis");
    }
    if cex && key_source.is_some() {
        r.error(&p("cex"), "cannot use key file with cex");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ignition::spec::Config;
    use serde_json::json;

    fn report(v: Value) -> Report {
        let cfg = Config::decode(&v).unwrap().0;
        validate(&cfg)
    }

    #[test]
    fn duplicates_and_shared_paths() {
        let r = report(json!({"ignition": {"version": "3.2.0"}, "storage": {
            "files": [{"path": "/etc/d", "contents": {"source": "data:,1"}}, {"path": "/etc/d"}],
            "directories": [{"path": "/etc/d"}]}}));
        let paths: Vec<String> = r.errors.iter().map(|e| e.to_string()).collect();
        // Directories come first in Go's Storage, so both files collide with it.
        assert_eq!(
            paths,
            [
                "storage.files[0]: duplicate entry defined",
                "storage.files[1]: duplicate entry defined"
            ]
        );
    }

    #[test]
    fn units_files_and_urls() {
        let r = report(json!({"ignition": {"version": "3.5.0"},
            "systemd": {"units": [{"name": "a.service", "contents": "[Unit"},
                                  {"name": "b", "enabled": true},
                                  {"name": "c.service", "enabled": true, "contents": "[Service]\nExecStart=/x\n",
                                   "dropins": [{"name": "x.txt"}]}]},
            "storage": {"files": [
                {"path": "etc/x", "overwrite": true},
                {"path": "/etc/y/../z", "mode": 4095, "contents": {"source": "ftp://x", "compression": "xz"}},
                {"path": "/etc/system", "contents": {"source": "data:,x", "verification": {"hash": "md5-1"}}},
                {"path": "/etc/systemd/system/c.service", "contents": {"source": "data:,x"}}]}}));
        let all: Vec<String> = r.errors.iter().map(|e| e.to_string()).collect();
        for want in [
            "systemd.units[0].contents: invalid unit content: unable to find end of section",
            "systemd.units[1].name: invalid systemd unit extension",
            "systemd.units[2].dropins[0].name: invalid systemd drop-in extension",
            "storage.files[0].path: path not absolute",
            "storage.files[0].overwrite: overwrite must be false if source is unspecified",
            "storage.files[1].path: path is not fully simplified",
            "storage.files[1].contents.compression: invalid compression method",
            "storage.files[1].contents.source: invalid url scheme",
            "storage.files[2].contents.verification.hash: unrecognized hash function",
            "storage.files[3].path: path conflicts with systemd unit or dropin",
        ] {
            assert!(
                all.contains(&want.to_string()),
                "missing {want} in {all:#?}"
            );
        }
        let warnings: Vec<String> = r.warnings.iter().map(|e| e.to_string()).collect();
        assert!(
            warnings.iter().any(|w| w.contains("storage.files[1].mode")),
            "{warnings:?}"
        );
        assert!(
            warnings.iter().any(|w| w.contains("no install section")),
            "{warnings:?}"
        );
    }

    #[test]
    fn schemes_follow_the_spec_version() {
        assert!(check_url("gs://b/o", Spec::V3(1)).is_some());
        assert!(check_url("gs://b/o", Spec::V3(2)).is_none());
        assert!(check_url("arn:aws:s3:::bucket/key", Spec::V3(3)).is_some());
        assert!(check_url("arn:aws:s3:::bucket/key", Spec::V3(4)).is_none());
        assert!(check_url("data:,ok", Spec::V3(0)).is_none());
        assert!(check_url("data:;base64,!!", Spec::V3(0)).is_some());
        assert!(check_url("s3://b/k?versionId=", Spec::V3(0)).is_some());
    }
}
