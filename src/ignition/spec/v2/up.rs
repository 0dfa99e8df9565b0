//! Spec 2.2 up to 3.0 as the MCO converts it: `ign23.Translate`, then ign-converter's
//! `v23tov30` with only the root filesystem mapped.

use serde_json::{Map, Value, json};

use super::validate::validate_v2;
use super::{b, bool_p, copy, copy_hash, directories, dropins, list, s, str_p};
use crate::ignition::spec::validate::clean;
use crate::ignition::spec::{Config, Spec};

/// Spec 2.2 to 3.0, as the MCO's converter does it (`ign23.Translate`, then `v23tov30` with
/// the root filesystem mapped to `/`), checks included.
pub fn to_v3_0(cfg: &Config) -> Result<Config, String> {
    validate_v2(cfg)?;
    let v = &cfg.value;
    refuse_unmapped(v)?;
    unique_paths(v)?;
    unique_units(v)?;
    let mut out = Map::new();
    out.insert("ignition".into(), ignition(v));
    out.insert(
        "passwd".into(),
        json!({"users": users(v), "groups": groups(v)}),
    );
    out.insert("systemd".into(), json!({"units": units(v)}));
    let node = place;
    out.insert(
        "storage".into(),
        json!({
            "files": files(v),
            "directories": directories(v, &node),
            "links": super::links(v, &node),
            "disks": disks(v),
            "raid": raid(v),
        }),
    );
    let mut cfg3 = Config {
        spec: Spec::V3(0),
        value: Value::Object(out),
    };
    cfg3.normalize();
    let r = crate::ignition::spec::validate::validate(&cfg3);
    if let Some(e) = r.errors.first() {
        return Err(format!("the converted spec 3.0.0 config is not valid: {e}"));
    }
    Ok(cfg3)
}

/// What the MCO's converter refuses: networkd units, filesystems other than root (only root
/// is mapped), partitions.
fn refuse_unmapped(v: &Value) -> Result<(), String> {
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
    Ok(())
}

/// A spec 2 path on its filesystem as a spec 3 path (only `root`, at `/`, is mapped).
fn rooted(fs: &str, p: &str) -> String {
    let base = if fs == "root" { "/" } else { "" };
    clean(&format!("{base}/{p}"))
}

/// Every path once across files, directories and links; none under a link.
fn unique_paths(v: &Value) -> Result<(), String> {
    let links: Vec<String> = list(v, "/storage/links")
        .iter()
        .map(|l| rooted(s(l, "filesystem"), s(l, "path")))
        .collect();
    let mut entries: Vec<(String, String)> = Vec::new();
    for (kind, ptr) in [
        ("File", "/storage/files"),
        ("Directory", "/storage/directories"),
        ("Link", "/storage/links"),
    ] {
        for n in list(v, ptr) {
            let p = rooted(s(n, "filesystem"), s(n, "path"));
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
    Ok(())
}

/// Every unit name once, and every dropin name once in its unit.
fn unique_units(v: &Value) -> Result<(), String> {
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
    Ok(())
}

/// The `ignition` section: config references, CAs, timeouts and the version.
fn ignition(v: &Value) -> Value {
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
    Value::Object(ign)
}

fn users(v: &Value) -> Vec<Value> {
    list(v, "/passwd/users")
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
        .collect()
}

fn groups(v: &Value) -> Vec<Value> {
    list(v, "/passwd/groups")
        .into_iter()
        .map(|g| {
            let mut o = Map::new();
            copy(&mut o, g, "name");
            copy(&mut o, g, "gid");
            str_p(&mut o, "passwordHash", s(g, "passwordHash"));
            bool_p(&mut o, "system", b(g, "system"));
            Value::Object(o)
        })
        .collect()
}

fn units(v: &Value) -> Vec<Value> {
    list(v, "/systemd/units")
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
            let dropins = dropins(u);
            if !dropins.is_empty() {
                o.insert("dropins".into(), Value::Array(dropins));
            }
            Value::Object(o)
        })
        .collect()
}

/// A node (file, directory, link) with its spec 3 path and owner.
fn place(n: &Map<String, Value>) -> Map<String, Value> {
    let mut o = Map::new();
    o.insert(
        "path".into(),
        json!(rooted(s(n, "filesystem"), s(n, "path"))),
    );
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
}

/// Files: an appending file's contents become its one `append` entry.
fn files(v: &Value) -> Vec<Value> {
    list(v, "/storage/files")
        .into_iter()
        .map(|f| {
            let mut o = place(f);
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
        .collect()
}

fn disks(v: &Value) -> Vec<Value> {
    list(v, "/storage/disks")
        .into_iter()
        .map(|d| {
            let mut o = Map::new();
            copy(&mut o, d, "device");
            bool_p(&mut o, "wipeTable", b(d, "wipeTable"));
            Value::Object(o)
        })
        .collect()
}

fn raid(v: &Value) -> Vec<Value> {
    list(v, "/storage/raid")
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
        .collect()
}

fn reference_v3(r: &Map<String, Value>) -> Value {
    let mut o = Map::new();
    o.insert("source".into(), json!(s(r, "source")));
    copy_hash(&mut o, r);
    Value::Object(o)
}
