//! Spec 3.2 down to 2.2 as the MCS serves a spec 2 client (ign-converter's `v32tov22`).

use serde_json::{Map, Value, json};

use super::validate::validate_v2;
use super::{b, bool_p, copy, copy_hash, directories, dropins, list, s, str_p};
use crate::ignition::spec::{Config, Spec};

/// Spec 3.2 to 2.2 (`v32tov22`): what spec 2 cannot say is refused naming it; files without
/// contents are left out, each appended piece becomes a file with `append: true`, paths are
/// split by the filesystems that declare a path (else `root`).
pub fn from_v3_2(cfg: &Config) -> Result<Config, String> {
    let r = crate::ignition::spec::validate::validate(cfg);
    if let Some(e) = r.errors.first() {
        return Err(format!(
            "the config is not a valid Ignition 3.2.0 config: {e}"
        ));
    }
    let v = &cfg.value;
    refuse_what_v2_lacks(v)?;
    let fss: Vec<&str> = list(v, "/storage/filesystems")
        .iter()
        .filter_map(|f| f.get("path").and_then(Value::as_str))
        .collect();
    let node = |n: &Map<String, Value>| place(&fss, n);
    let mut out = Config {
        spec: Spec::V2_2,
        value: json!({
            "ignition": ignition(v),
            "passwd": {"users": users(v), "groups": groups(v)},
            "systemd": {"units": units(v)},
            "storage": {
                "files": files(v, &node),
                "directories": directories(v, &node),
                "links": super::links(v, &node),
            },
        }),
    };
    out.value["storage"]["disks"] = Value::Array(disks(v));
    out.value["storage"]["raid"] = Value::Array(raid(v));
    out.value["storage"]["filesystems"] = Value::Array(filesystems(v));
    out.normalize();
    validate_v2(&out).map_err(|e| format!("the converted spec 2.2.0 config is not valid: {e}"))?;
    Ok(out)
}

/// Refuses what spec 2.2 cannot say, naming it.
fn refuse_what_v2_lacks(v: &Value) -> Result<(), String> {
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
    Ok(())
}

/// A node (file, directory, link) placed on the filesystem whose path holds it (the longest),
/// else on `root`, with its owner.
fn place(fss: &[&str], n: &Map<String, Value>) -> Map<String, Value> {
    let p = s(n, "path");
    let mut fsname = "";
    let mut path = p.to_string();
    for fs in fss {
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
}

/// Files with contents, each appended piece a file of its own with `append: true`.
fn files(v: &Value, node: &impl Fn(&Map<String, Value>) -> Map<String, Value>) -> Vec<Value> {
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
    files
}

fn units(v: &Value) -> Vec<Value> {
    list(v, "/systemd/units")
        .into_iter()
        .map(|u| {
            let mut o = Map::new();
            copy(&mut o, u, "name");
            copy(&mut o, u, "enabled");
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

fn users(v: &Value) -> Vec<Value> {
    list(v, "/passwd/users")
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
        .collect()
}

fn groups(v: &Value) -> Vec<Value> {
    list(v, "/passwd/groups")
        .into_iter()
        .map(|g| {
            let mut o = Map::new();
            for k in ["name", "gid", "passwordHash", "system"] {
                copy(&mut o, g, k);
            }
            Value::Object(o)
        })
        .collect()
}

/// The `ignition` section: config references, CAs and timeouts.
fn ignition(v: &Value) -> Value {
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
    ign
}

fn disks(v: &Value) -> Vec<Value> {
    list(v, "/storage/disks")
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
        .collect()
}

fn raid(v: &Value) -> Vec<Value> {
    list(v, "/storage/raid")
        .into_iter()
        .map(|r| {
            let mut o = Map::new();
            for k in ["name", "level", "devices", "spares", "options"] {
                copy(&mut o, r, k);
            }
            Value::Object(o)
        })
        .collect()
}

/// Filesystems, named after their path (else a number), as `mount`s.
fn filesystems(v: &Value) -> Vec<Value> {
    let mut n = 0;
    list(v, "/storage/filesystems")
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
        .collect()
}

fn reference_v2(r: &Map<String, Value>) -> Value {
    let mut o = Map::new();
    str_p(&mut o, "source", s(r, "source"));
    copy_hash(&mut o, r);
    Value::Object(o)
}
