//! Spec 2.2, which Ignition 0.x boot images (clusters installed at OpenShift 4.5 or before)
//! read, and which MachineConfigs of such clusters still hold. Up to spec 3 as the MCO
//! converts it (`ign23.Translate` then ign-converter's `v23tov30` with only the root
//! filesystem mapped), down from spec 3.2 as the MCS serves a spec 2 client (`v32tov22`), and
//! the MCO's own clean-up of spec 2 MachineConfigs (`removeIgnDuplicateFilesUnitsUsers`).

use serde_json::{Map, Value, json};

use super::validate::clean;
use super::{Config, Spec, unit};
use crate::golang::url;

fn s<'a>(m: &'a Map<String, Value>, k: &str) -> &'a str {
    m.get(k).and_then(Value::as_str).unwrap_or("")
}

fn b(m: &Map<String, Value>, k: &str) -> bool {
    m.get(k).and_then(Value::as_bool).unwrap_or(false)
}

fn list<'a>(v: &'a Value, pointer: &str) -> Vec<&'a Map<String, Value>> {
    v.pointer(pointer)
        .and_then(Value::as_array)
        .map(|a| a.iter().filter_map(Value::as_object).collect())
        .unwrap_or_default()
}

/// `util.StrP`: unset when empty.
fn str_p(out: &mut Map<String, Value>, k: &str, v: &str) {
    if !v.is_empty() {
        out.insert(k.into(), json!(v));
    }
}

/// `util.BoolP`: unset when false.
fn bool_p(out: &mut Map<String, Value>, k: &str, v: bool) {
    if v {
        out.insert(k.into(), json!(true));
    }
}

fn copy(out: &mut Map<String, Value>, from: &Map<String, Value>, k: &str) {
    if let Some(v) = from.get(k) {
        out.insert(k.into(), v.clone());
    }
}

/// The MCO's `removeIgnDuplicateFilesUnitsUsers` on a spec 2.2 MachineConfig: files and units
/// kept last-wins, walking backwards (so the kept ones come out in reverse order), the
/// dropins of earlier duplicates added to the kept unit when their names are new, and the
/// users folded into the last one, which must be `core`, with every SSH key, de-duplicated.
pub fn mco_dedupe(cfg: &Config) -> Result<Config, String> {
    let mut out = cfg.clone();
    let files = list(&cfg.value, "/storage/files");
    let mut seen = std::collections::HashSet::new();
    let mut kept = Vec::new();
    for f in files.iter().rev() {
        if seen.insert(s(f, "path")) {
            kept.push(Value::Object((*f).clone()));
        }
    }
    set_list(&mut out.value, &["storage", "files"], kept);

    let units = list(&cfg.value, "/systemd/units");
    let mut kept: Vec<Map<String, Value>> = Vec::new();
    for u in units.iter().rev() {
        let name = s(u, "name");
        if let Some(k) = kept.iter_mut().find(|k| s(k, "name") == name) {
            let have: Vec<String> = k
                .get("dropins")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .map(|d| d["name"].as_str().unwrap_or("").to_string())
                .collect();
            for d in u
                .get("dropins")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                if !have.iter().any(|h| h == d["name"].as_str().unwrap_or("")) {
                    let ds = k.entry("dropins").or_insert_with(|| json!([]));
                    if let Some(a) = ds.as_array_mut() {
                        a.push(d.clone());
                    }
                }
            }
            continue;
        }
        kept.push((*u).clone());
    }
    set_list(
        &mut out.value,
        &["systemd", "units"],
        kept.into_iter().map(Value::Object).collect(),
    );

    let users = list(&cfg.value, "/passwd/users");
    if let Some(last) = users.last() {
        let mut user = (*last).clone();
        for u in users.iter().rev() {
            if s(u, "name") != "core" {
                return Err(format!(
                    "unexpected user with name: {}. Only core user is supported",
                    s(u, "name")
                ));
            }
        }
        let mut keys: Vec<Value> = Vec::new();
        let mut all: Vec<&Value> = Vec::new();
        all.extend(
            last.get("sshAuthorizedKeys")
                .and_then(Value::as_array)
                .into_iter()
                .flatten(),
        );
        for u in users.iter().rev().skip(1) {
            all.extend(
                u.get("sshAuthorizedKeys")
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten(),
            );
        }
        for k in all {
            if !keys.contains(k) {
                keys.push(k.clone());
            }
        }
        user.remove("sshAuthorizedKeys");
        if !keys.is_empty() {
            user.insert("sshAuthorizedKeys".into(), Value::Array(keys));
        }
        set_list(
            &mut out.value,
            &["passwd", "users"],
            vec![Value::Object(user)],
        );
    }
    out.normalize();
    Ok(out)
}

fn set_list(v: &mut Value, path: &[&str], items: Vec<Value>) {
    let mut cur = v;
    for p in &path[..path.len() - 1] {
        if cur.get(*p).is_none() {
            if items.is_empty() {
                return;
            }
            cur[*p] = json!({});
        }
        cur = &mut cur[*p];
    }
    let last = path[path.len() - 1];
    match cur.as_object_mut() {
        Some(m) if items.is_empty() => {
            m.remove(last);
        }
        Some(m) => {
            m.insert(last.into(), Value::Array(items));
        }
        None => {}
    }
}

/// Spec 2.x validation (Ignition 0.35's `ValidateWithoutSource`), errors only.
fn validate_v2(cfg: &Config) -> Result<(), String> {
    let v = &cfg.value;
    for (kind, ptr) in [
        ("files", "/storage/files"),
        ("directories", "/storage/directories"),
        ("links", "/storage/links"),
    ] {
        for (i, n) in list(v, ptr).iter().enumerate() {
            let at = format!("storage.{kind}[{i}]");
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
        }
    }
    for (i, u) in list(v, "/systemd/units").iter().enumerate() {
        let at = format!("systemd.units[{i}]");
        let name = s(u, "name");
        let ext = name.rfind('.').map_or("", |p| &name[p..]);
        if !matches!(
            ext,
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

/// Spec 2.x's `validateURL`: empty, or http(s), oem, tftp, s3 or a decodable data URL.
fn check_url_v2(u: &str) -> Option<String> {
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

/// Spec 2.2 to 3.0, as the MCO's converter does it (`ign23.Translate`, then `v23tov30` with
/// the root filesystem mapped to `/`), checks included.
pub fn to_v3_0(cfg: &Config) -> Result<Config, String> {
    validate_v2(cfg)?;
    let v = &cfg.value;
    if !list(v, "/networkd/units").is_empty() {
        return Err("config includes deprecated networkd section - use Files instead".into());
    }
    for f in list(v, "/storage/filesystems") {
        if s(f, "name") != "root" {
            return Err(format!(
                "Config defined filesystem {:?} but no mapping was defined.Please specify a path to be used as the filesystem mountpoint.",
                s(f, "name")
            ));
        }
    }
    for d in list(v, "/storage/disks") {
        if d.get("partitions").is_some() {
            return Err(
                "storage.disks: partition size and start are deprecated in spec 2.3, so spec 2 partitions cannot be converted"
                    .into(),
            );
        }
    }
    let root = |fs: &str, p: &str| -> String {
        let base = if fs == "root" { "/" } else { "" };
        clean(&format!("{base}/{p}"))
    };
    // Every path once across files, directories and links; none under a link.
    let links: Vec<String> = list(v, "/storage/links")
        .iter()
        .map(|l| root(s(l, "filesystem"), s(l, "path")))
        .collect();
    let mut entries: Vec<(String, String)> = Vec::new();
    for (kind, ptr) in [
        ("File", "/storage/files"),
        ("Directory", "/storage/directories"),
        ("Link", "/storage/links"),
    ] {
        for n in list(v, ptr) {
            let p = root(s(n, "filesystem"), s(n, "path"));
            let name = format!("{kind}: {p}");
            if let Some((_, old)) = entries.iter().find(|(q, _)| *q == p) {
                return Err(format!(
                    "Config has conflicting inodes: {old:?} and {name:?}.  All files, directories and links must specify a unique `path`."
                ));
            }
            if let Some(l) = links.iter().find(|l| p.starts_with(l.as_str()) && p != **l) {
                return Err(format!(
                    "{name} uses link defined in config {l:?}. Please use a link not defined in Storage:Links"
                ));
            }
            entries.push((p, name));
        }
    }
    let mut units = std::collections::HashSet::new();
    for u in list(v, "/systemd/units") {
        if !units.insert(s(u, "name")) {
            return Err(format!(
                "Config has duplicate unit name {:?}.  All units must specify a unique `name`.",
                s(u, "name")
            ));
        }
        let mut dropins = std::collections::HashSet::new();
        for d in u
            .get("dropins")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let dn = d["name"].as_str().unwrap_or("");
            if !dropins.insert(dn) {
                return Err(format!(
                    "Config has duplicate dropin name {dn:?} in unit {:?}.  All dropins must specify a unique `name`.",
                    s(u, "name")
                ));
            }
        }
    }

    let mut out = Map::new();
    let mut ign = Map::new();
    let mut config = Map::new();
    if let Some(r) = v
        .pointer("/ignition/config/replace")
        .and_then(Value::as_object)
    {
        config.insert("replace".into(), reference_v3(r));
    }
    let merge: Vec<Value> = list(v, "/ignition/config/append")
        .into_iter()
        .map(reference_v3)
        .collect();
    if !merge.is_empty() {
        config.insert("merge".into(), Value::Array(merge));
    }
    ign.insert("config".into(), Value::Object(config));
    let cas: Vec<Value> = list(v, "/ignition/security/tls/certificateAuthorities")
        .into_iter()
        .map(|c| {
            let mut o = Map::new();
            str_p(&mut o, "source", s(c, "source"));
            copy_hash(&mut o, c);
            Value::Object(o)
        })
        .collect();
    if !cas.is_empty() {
        ign.insert(
            "security".into(),
            json!({"tls": {"certificateAuthorities": cas}}),
        );
    }
    if let Some(t) = v.pointer("/ignition/timeouts") {
        ign.insert("timeouts".into(), t.clone());
    }
    ign.insert("version".into(), json!("3.0.0"));
    out.insert("ignition".into(), Value::Object(ign));

    let users: Vec<Value> = list(v, "/passwd/users")
        .into_iter()
        .map(|u| {
            let mut o = Map::new();
            for k in ["name", "passwordHash", "sshAuthorizedKeys", "uid", "groups"] {
                copy(&mut o, u, k);
            }
            for k in ["gecos", "homeDir", "primaryGroup", "shell"] {
                str_p(&mut o, k, s(u, k));
            }
            for k in ["noCreateHome", "noUserGroup", "noLogInit", "system"] {
                bool_p(&mut o, k, b(u, k));
            }
            Value::Object(o)
        })
        .collect();
    let groups: Vec<Value> = list(v, "/passwd/groups")
        .into_iter()
        .map(|g| {
            let mut o = Map::new();
            copy(&mut o, g, "name");
            copy(&mut o, g, "gid");
            str_p(&mut o, "passwordHash", s(g, "passwordHash"));
            bool_p(&mut o, "system", b(g, "system"));
            Value::Object(o)
        })
        .collect();
    out.insert("passwd".into(), json!({"users": users, "groups": groups}));

    let units: Vec<Value> = list(v, "/systemd/units")
        .into_iter()
        .map(|u| {
            let mut o = Map::new();
            copy(&mut o, u, "name");
            let enabled = u.get("enabled").and_then(Value::as_bool);
            if enabled == Some(true) || b(u, "enable") {
                o.insert("enabled".into(), json!(true));
            }
            if enabled == Some(false) {
                o.insert("enabled".into(), json!(false));
            }
            bool_p(&mut o, "mask", b(u, "mask"));
            str_p(&mut o, "contents", s(u, "contents"));
            let dropins: Vec<Value> = u
                .get("dropins")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(Value::as_object)
                .map(|d| {
                    let mut x = Map::new();
                    copy(&mut x, d, "name");
                    str_p(&mut x, "contents", s(d, "contents"));
                    Value::Object(x)
                })
                .collect();
            if !dropins.is_empty() {
                o.insert("dropins".into(), Value::Array(dropins));
            }
            Value::Object(o)
        })
        .collect();
    out.insert("systemd".into(), json!({"units": units}));

    let node = |n: &Map<String, Value>| -> Map<String, Value> {
        let mut o = Map::new();
        o.insert("path".into(), json!(root(s(n, "filesystem"), s(n, "path"))));
        for who in ["user", "group"] {
            let empty = Map::new();
            let x = n.get(who).and_then(Value::as_object).unwrap_or(&empty);
            let mut w = Map::new();
            copy(&mut w, x, "id");
            str_p(&mut w, "name", s(x, "name"));
            o.insert(who.into(), Value::Object(w));
        }
        copy(&mut o, n, "overwrite");
        o
    };
    let files: Vec<Value> = list(v, "/storage/files")
        .into_iter()
        .map(|f| {
            let mut o = node(f);
            let append = b(f, "append");
            if !o.contains_key("overwrite") {
                o.insert("overwrite".into(), json!(true));
            }
            if append {
                o.insert("overwrite".into(), json!(false));
            }
            copy(&mut o, f, "mode");
            let empty = Map::new();
            let c = f
                .get("contents")
                .and_then(Value::as_object)
                .unwrap_or(&empty);
            let mut contents = Map::new();
            str_p(&mut contents, "compression", s(c, "compression"));
            contents.insert("source".into(), json!(s(c, "source")));
            copy_hash(&mut contents, c);
            if append {
                o.insert("append".into(), json!([contents]));
            } else {
                o.insert("contents".into(), Value::Object(contents));
            }
            Value::Object(o)
        })
        .collect();
    let dirs: Vec<Value> = list(v, "/storage/directories")
        .into_iter()
        .map(|d| {
            let mut o = node(d);
            copy(&mut o, d, "mode");
            Value::Object(o)
        })
        .collect();
    let links: Vec<Value> = list(v, "/storage/links")
        .into_iter()
        .map(|l| {
            let mut o = node(l);
            bool_p(&mut o, "hard", b(l, "hard"));
            copy(&mut o, l, "target");
            Value::Object(o)
        })
        .collect();
    let disks: Vec<Value> = list(v, "/storage/disks")
        .into_iter()
        .map(|d| {
            let mut o = Map::new();
            copy(&mut o, d, "device");
            bool_p(&mut o, "wipeTable", b(d, "wipeTable"));
            Value::Object(o)
        })
        .collect();
    let raid: Vec<Value> = list(v, "/storage/raid")
        .into_iter()
        .map(|r| {
            let mut o = Map::new();
            for k in ["name", "level", "devices", "options"] {
                copy(&mut o, r, k);
            }
            if let Some(sp) = r.get("spares").and_then(Value::as_i64).filter(|x| *x != 0) {
                o.insert("spares".into(), json!(sp));
            }
            Value::Object(o)
        })
        .collect();
    out.insert(
        "storage".into(),
        json!({"files": files, "directories": dirs, "links": links, "disks": disks, "raid": raid}),
    );
    let mut cfg3 = Config {
        spec: Spec::V3(0),
        value: Value::Object(out),
    };
    cfg3.normalize();
    let r = super::validate::validate(&cfg3);
    if let Some(e) = r.errors.first() {
        return Err(format!("the converted spec 3.0.0 config is not valid: {e}"));
    }
    Ok(cfg3)
}

fn reference_v3(r: &Map<String, Value>) -> Value {
    let mut o = Map::new();
    o.insert("source".into(), json!(s(r, "source")));
    copy_hash(&mut o, r);
    Value::Object(o)
}

fn copy_hash(o: &mut Map<String, Value>, from: &Map<String, Value>) {
    if let Some(h) = from.get("verification").and_then(|v| v.get("hash")) {
        o.insert("verification".into(), json!({ "hash": h }));
    }
}

/// Spec 3.2 to 2.2 (`v32tov22`): what spec 2 cannot say is refused naming it; files without
/// contents are left out, each appended piece becomes a file with `append: true`, paths are
/// split by the filesystems that declare a path (else `root`).
pub fn from_v3_2(cfg: &Config) -> Result<Config, String> {
    let r = super::validate::validate(cfg);
    if let Some(e) = r.errors.first() {
        return Err(format!(
            "the config is not a valid Ignition 3.2.0 config: {e}"
        ));
    }
    let v = &cfg.value;
    let refuse = |what: &str| Err(format!("{what}, which Ignition spec 2.2.0 does not have"));
    let config_refs = list(v, "/ignition/config/merge")
        .into_iter()
        .map(|r| ("ignition.config.merge", r))
        .chain(
            v.pointer("/ignition/config/replace")
                .and_then(Value::as_object)
                .map(|r| ("ignition.config.replace", r)),
        )
        .chain(
            list(v, "/ignition/security/tls/certificateAuthorities")
                .into_iter()
                .map(|r| ("ignition.security.tls.certificateAuthorities", r)),
        );
    for (at, r) in config_refs {
        if r.contains_key("compression") {
            return refuse(&format!("{at}: compression"));
        }
        if r.contains_key("httpHeaders") {
            return refuse(&format!("{at}: HTTP headers"));
        }
    }
    if v.pointer("/ignition/proxy").is_some() {
        return refuse("ignition.proxy: an HTTP proxy");
    }
    if v.pointer("/storage/luks").is_some() {
        return refuse("storage.luks: LUKS");
    }
    for key in ["users", "groups"] {
        if list(v, &format!("/passwd/{key}"))
            .iter()
            .any(|u| u.get("shouldExist") == Some(&json!(false)))
        {
            return refuse(&format!("passwd.{key}: shouldExist false"));
        }
    }
    for d in list(v, "/storage/disks") {
        for p in d
            .get("partitions")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            if p.get("sizeMiB").is_some() || p.get("startMiB").is_some() {
                return refuse("storage.disks.partitions: sizeMiB and startMiB");
            }
            if p.get("resize") == Some(&json!(true)) {
                return refuse("storage.disks.partitions: resize");
            }
        }
    }
    for f in list(v, "/storage/filesystems") {
        if f.contains_key("mountOptions") {
            return refuse("storage.filesystems: mountOptions");
        }
    }
    for (i, f) in list(v, "/storage/files").iter().enumerate() {
        let has = |r: &Value| r.get("httpHeaders").is_some();
        if f.get("contents").is_some_and(has)
            || f.get("append")
                .and_then(Value::as_array)
                .is_some_and(|a| a.iter().any(has))
        {
            return refuse(&format!("storage.files[{i}]: HTTP headers"));
        }
    }

    let fss: Vec<&str> = list(v, "/storage/filesystems")
        .iter()
        .filter_map(|f| f.get("path").and_then(Value::as_str))
        .collect();
    let node = |n: &Map<String, Value>| -> Map<String, Value> {
        let p = s(n, "path");
        let mut fsname = "";
        let mut path = p.to_string();
        for fs in &fss {
            if p.starts_with(fs) && fs.len() > fsname.len() {
                fsname = fs;
                path = p[fs.len()..].to_string();
            }
        }
        let mut o = Map::new();
        o.insert(
            "filesystem".into(),
            json!(if fsname.is_empty() { "root" } else { fsname }),
        );
        copy(&mut o, n, "overwrite");
        o.insert("path".into(), json!(path));
        for who in ["user", "group"] {
            if let Some(x) = n
                .get(who)
                .and_then(Value::as_object)
                .filter(|x| !x.is_empty())
            {
                let mut w = Map::new();
                copy(&mut w, x, "id");
                str_p(&mut w, "name", s(x, "name"));
                o.insert(who.into(), Value::Object(w));
            }
        }
        o
    };
    let mut files = Vec::new();
    for f in list(v, "/storage/files") {
        let mut base = node(f);
        copy(&mut base, f, "mode");
        if !base.contains_key("overwrite") {
            base.insert("overwrite".into(), json!(false));
        }
        let contents = |c: &Map<String, Value>| {
            let mut o = Map::new();
            str_p(&mut o, "compression", s(c, "compression"));
            str_p(&mut o, "source", s(c, "source"));
            copy_hash(&mut o, c);
            Value::Object(o)
        };
        if let Some(c) = f
            .get("contents")
            .and_then(Value::as_object)
            .filter(|c| c.contains_key("source"))
        {
            let mut file = base.clone();
            file.insert("contents".into(), contents(c));
            files.push(Value::Object(file));
        }
        for a in f
            .get("append")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(Value::as_object)
        {
            let mut file = base.clone();
            file.insert("contents".into(), contents(a));
            file.insert("append".into(), json!(true));
            file.insert("overwrite".into(), json!(false));
            files.push(Value::Object(file));
        }
    }
    let dirs: Vec<Value> = list(v, "/storage/directories")
        .into_iter()
        .map(|d| {
            let mut o = node(d);
            copy(&mut o, d, "mode");
            Value::Object(o)
        })
        .collect();
    let links: Vec<Value> = list(v, "/storage/links")
        .into_iter()
        .map(|l| {
            let mut o = node(l);
            bool_p(&mut o, "hard", b(l, "hard"));
            copy(&mut o, l, "target");
            Value::Object(o)
        })
        .collect();
    let units: Vec<Value> = list(v, "/systemd/units")
        .into_iter()
        .map(|u| {
            let mut o = Map::new();
            copy(&mut o, u, "name");
            copy(&mut o, u, "enabled");
            bool_p(&mut o, "mask", b(u, "mask"));
            str_p(&mut o, "contents", s(u, "contents"));
            let dropins: Vec<Value> = u
                .get("dropins")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(Value::as_object)
                .map(|d| {
                    let mut x = Map::new();
                    copy(&mut x, d, "name");
                    str_p(&mut x, "contents", s(d, "contents"));
                    Value::Object(x)
                })
                .collect();
            if !dropins.is_empty() {
                o.insert("dropins".into(), Value::Array(dropins));
            }
            Value::Object(o)
        })
        .collect();
    let users: Vec<Value> = list(v, "/passwd/users")
        .into_iter()
        .map(|u| {
            let mut o = Map::new();
            for k in [
                "name",
                "passwordHash",
                "sshAuthorizedKeys",
                "uid",
                "gecos",
                "homeDir",
                "noCreateHome",
                "primaryGroup",
                "groups",
                "noUserGroup",
                "noLogInit",
                "shell",
                "system",
            ] {
                copy(&mut o, u, k);
            }
            Value::Object(o)
        })
        .collect();
    let groups: Vec<Value> = list(v, "/passwd/groups")
        .into_iter()
        .map(|g| {
            let mut o = Map::new();
            for k in ["name", "gid", "passwordHash", "system"] {
                copy(&mut o, g, k);
            }
            Value::Object(o)
        })
        .collect();
    let mut ign = json!({"version": "2.2.0"});
    let merge: Vec<Value> = list(v, "/ignition/config/merge")
        .into_iter()
        .map(reference_v2)
        .collect();
    if !merge.is_empty() {
        ign["config"]["append"] = Value::Array(merge);
    }
    if let Some(r) = v
        .pointer("/ignition/config/replace")
        .and_then(Value::as_object)
        && r.contains_key("source")
    {
        ign["config"]["replace"] = reference_v2(r);
    }
    let cas: Vec<Value> = list(v, "/ignition/security/tls/certificateAuthorities")
        .into_iter()
        .map(reference_v2)
        .collect();
    if !cas.is_empty() {
        ign["security"] = json!({"tls": {"certificateAuthorities": cas}});
    }
    if let Some(t) = v.pointer("/ignition/timeouts") {
        ign["timeouts"] = t.clone();
    }
    let mut out = Config {
        spec: Spec::V2_2,
        value: json!({
            "ignition": ign,
            "passwd": {"users": users, "groups": groups},
            "systemd": {"units": units},
            "storage": {"files": files, "directories": dirs, "links": links},
        }),
    };
    let disks: Vec<Value> = list(v, "/storage/disks")
        .into_iter()
        .map(|d| {
            let mut o = Map::new();
            copy(&mut o, d, "device");
            copy(&mut o, d, "wipeTable");
            let parts: Vec<Value> = d
                .get("partitions")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(Value::as_object)
                .map(|p| {
                    let mut x = Map::new();
                    for k in ["label", "number", "typeGuid", "guid"] {
                        copy(&mut x, p, k);
                    }
                    Value::Object(x)
                })
                .collect();
            o.insert("partitions".into(), Value::Array(parts));
            Value::Object(o)
        })
        .collect();
    let raid: Vec<Value> = list(v, "/storage/raid")
        .into_iter()
        .map(|r| {
            let mut o = Map::new();
            for k in ["name", "level", "devices", "spares", "options"] {
                copy(&mut o, r, k);
            }
            Value::Object(o)
        })
        .collect();
    let mut n = 0;
    let filesystems: Vec<Value> = list(v, "/storage/filesystems")
        .into_iter()
        .map(|f| {
            let name = match f.get("path").and_then(Value::as_str) {
                Some(p) => p.to_string(),
                None => {
                    n += 1;
                    n.to_string()
                }
            };
            let mut mount = Map::new();
            for k in [
                "device",
                "format",
                "wipeFilesystem",
                "label",
                "uuid",
                "options",
            ] {
                copy(&mut mount, f, k);
            }
            json!({"name": name, "mount": mount})
        })
        .collect();
    out.value["storage"]["disks"] = Value::Array(disks);
    out.value["storage"]["raid"] = Value::Array(raid);
    out.value["storage"]["filesystems"] = Value::Array(filesystems);
    out.normalize();
    validate_v2(&out).map_err(|e| format!("the converted spec 2.2.0 config is not valid: {e}"))?;
    Ok(out)
}

fn reference_v2(r: &Map<String, Value>) -> Value {
    let mut o = Map::new();
    str_p(&mut o, "source", s(r, "source"));
    copy_hash(&mut o, r);
    Value::Object(o)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cfg(v: Value) -> Config {
        Config::decode(&v).unwrap().0
    }

    #[test]
    fn the_mco_keeps_the_last_file_and_unit_in_reverse_order() {
        let c = cfg(
            json!({"ignition": {"version": "2.2.0"}, "storage": {"files": [
            {"filesystem": "root", "path": "/a", "contents": {"source": "data:,1"}},
            {"filesystem": "root", "path": "/b", "contents": {"source": "data:,b"}},
            {"filesystem": "root", "path": "/a", "contents": {"source": "data:,2"}}]},
            "systemd": {"units": [{"name": "x.service", "dropins": [{"name": "1.conf"}]},
                                  {"name": "x.service", "enabled": true}]},
            "passwd": {"users": [{"name": "core", "sshAuthorizedKeys": ["5678", "abc"]},
                                 {"name": "core", "sshAuthorizedKeys": ["5678"]}]}}),
        );
        let d = mco_dedupe(&c).unwrap();
        let paths: Vec<&str> = d
            .list("/storage/files")
            .iter()
            .map(|f| f["path"].as_str().unwrap())
            .collect();
        assert_eq!(paths, ["/a", "/b"]);
        assert_eq!(
            d.value["storage"]["files"][0]["contents"]["source"],
            "data:,2"
        );
        assert_eq!(
            d.value["systemd"]["units"],
            json!([{"name": "x.service", "enabled": true, "dropins": [{"name": "1.conf"}]}])
        );
        assert_eq!(
            d.value["passwd"]["users"],
            json!([{"name": "core", "sshAuthorizedKeys": ["5678", "abc"]}])
        );
        let bad = cfg(
            json!({"ignition": {"version": "2.2.0"}, "passwd": {"users": [{"name": "admin"}]}}),
        );
        assert!(
            mco_dedupe(&bad)
                .unwrap_err()
                .contains("Only core user is supported")
        );
    }

    #[test]
    fn up_to_3_0_as_v23tov30() {
        let c = cfg(
            json!({"ignition": {"version": "2.2.0"}, "storage": {"files": [
            {"filesystem": "root", "path": "/etc/log", "append": true, "contents": {"source": "data:,x"}},
            {"filesystem": "root", "path": "etc/y", "mode": 420}]},
            "systemd": {"units": [{"name": "a.service", "enable": true}]}}),
        );
        let e = to_v3_0(&c).unwrap_err();
        assert!(e.contains("path not absolute"), "{e}");
        let c = cfg(
            json!({"ignition": {"version": "2.2.0"}, "storage": {"files": [
            {"filesystem": "root", "path": "/etc/log", "append": true, "contents": {"source": "data:,x"}},
            {"filesystem": "root", "path": "/etc/y", "mode": 420}]},
            "systemd": {"units": [{"name": "a.service", "enable": true}]}}),
        );
        let v3 = to_v3_0(&c).unwrap();
        assert_eq!(
            v3.value["storage"]["files"],
            json!([{"path": "/etc/log", "overwrite": false, "append": [{"source": "data:,x"}]},
                   {"path": "/etc/y", "overwrite": true, "mode": 420, "contents": {"source": ""}}])
        );
        assert_eq!(
            v3.value["systemd"]["units"],
            json!([{"name": "a.service", "enabled": true}])
        );
        let n = cfg(
            json!({"ignition": {"version": "2.2.0"}, "networkd": {"units": [{"name": "a.network"}]}}),
        );
        assert!(to_v3_0(&n).unwrap_err().contains("networkd"));
    }

    #[test]
    fn down_to_2_2_as_v32tov22() {
        let c = cfg(
            json!({"ignition": {"version": "3.2.0"}, "storage": {"files": [
            {"path": "/etc/a", "contents": {"source": "data:,a"}, "mode": 420, "overwrite": true},
            {"path": "/etc/log", "append": [{"source": "data:,1"}, {"source": "data:,2"}]},
            {"path": "/etc/empty", "mode": 420}]}}),
        );
        let v2 = from_v3_2(&c).unwrap();
        assert_eq!(
            String::from_utf8(v2.to_json()).unwrap(),
            r#"{"ignition":{"version":"2.2.0"},"storage":{"files":[{"filesystem":"root","overwrite":true,"path":"/etc/a","contents":{"source":"data:,a"},"mode":420},{"filesystem":"root","overwrite":false,"path":"/etc/log","append":true,"contents":{"source":"data:,1"}},{"filesystem":"root","overwrite":false,"path":"/etc/log","append":true,"contents":{"source":"data:,2"}}]}}"#
        );
        let h =
            cfg(json!({"ignition": {"version": "3.2.0", "proxy": {"httpsProxy": "https://p"}}}));
        assert!(from_v3_2(&h).unwrap_err().contains("ignition.proxy"));
    }
}
