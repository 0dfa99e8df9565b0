//! Ignition spec 2.2 to spec 3.0, as the MCO's `ParseAndConvertConfig` does it for
//! MachineConfigs of clusters installed before OpenShift 4.6: first the MCO's own
//! de-duplication (`removeIgnDuplicateFilesUnitsUsers`: the last file or unit of a path or name
//! wins, dropins of earlier duplicates are kept, only the `core` user), then ign-converter's
//! `v23tov30` rules: only the `root` filesystem, files overwrite unless they `append`, `enable`
//! folded into `enabled`, no networkd. Whatever has no spec 3 form is an error naming the field.

use anyhow::{Result, anyhow, bail};
use serde_json::{Map, Value, json};

/// Converts a spec 2.2 config (already parsed JSON, nulls removed) to spec 3.0.0.
pub fn convert(v2: &Value) -> Result<Value> {
    let top = object(v2, "")?;
    allow(
        top,
        "",
        &["ignition", "storage", "systemd", "networkd", "passwd"],
    )?;
    let mut out = Map::new();
    out.insert("ignition".into(), ignition(&v2["ignition"])?);
    if let Some(n) = top.get("networkd") {
        allow(object(n, "networkd")?, "networkd", &["units"])?;
        if n["units"].as_array().is_some_and(|u| !u.is_empty()) {
            bail!(
                "networkd.units has no spec 3 form; write each unit as a file under /etc/systemd/network instead"
            );
        }
    }
    if let Some(s) = top.get("storage") {
        let storage = storage(s)?;
        if !storage.is_empty() {
            out.insert("storage".into(), Value::Object(storage));
        }
    }
    if let Some(s) = top.get("systemd") {
        allow(object(s, "systemd")?, "systemd", &["units"])?;
        let units = units(s["units"].as_array().map(Vec::as_slice).unwrap_or(&[]))?;
        if !units.is_empty() {
            out.insert("systemd".into(), json!({ "units": units }));
        }
    }
    if let Some(p) = top.get("passwd") {
        let passwd = passwd(p)?;
        if !passwd.is_empty() {
            out.insert("passwd".into(), Value::Object(passwd));
        }
    }
    Ok(Value::Object(out))
}

fn ignition(v: &Value) -> Result<Value> {
    let ign = object(v, "ignition")?;
    allow(
        ign,
        "ignition",
        &["version", "config", "security", "timeouts"],
    )?;
    let mut out = Map::new();
    out.insert("version".into(), "3.0.0".into());
    if let Some(c) = ign.get("config") {
        allow(
            object(c, "ignition.config")?,
            "ignition.config",
            &["append", "replace"],
        )?;
        let mut cfg = Map::new();
        if let Some(a) = c["append"].as_array().filter(|a| !a.is_empty()) {
            let merge: Result<Vec<Value>> = a
                .iter()
                .map(|r| reference(r, "ignition.config.append"))
                .collect();
            cfg.insert("merge".into(), Value::Array(merge?));
        }
        if c.get("replace").is_some() {
            cfg.insert(
                "replace".into(),
                reference(&c["replace"], "ignition.config.replace")?,
            );
        }
        if !cfg.is_empty() {
            out.insert("config".into(), Value::Object(cfg));
        }
    }
    if let Some(s) = ign.get("security") {
        allow(
            object(s, "ignition.security")?,
            "ignition.security",
            &["tls"],
        )?;
        let tls = &s["tls"];
        if !tls.is_null() {
            allow(
                object(tls, "ignition.security.tls")?,
                "ignition.security.tls",
                &["certificateAuthorities"],
            )?;
            let cas: Result<Vec<Value>> = tls["certificateAuthorities"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|r| reference(r, "ignition.security.tls.certificateAuthorities"))
                .collect();
            let cas = cas?;
            if !cas.is_empty() {
                out.insert(
                    "security".into(),
                    json!({"tls": {"certificateAuthorities": cas}}),
                );
            }
        }
    }
    if let Some(t) = ign.get("timeouts") {
        let t = object(t, "ignition.timeouts")?;
        allow(
            t,
            "ignition.timeouts",
            &["httpResponseHeaders", "httpTotal"],
        )?;
        if !t.is_empty() {
            out.insert("timeouts".into(), Value::Object(t.clone()));
        }
    }
    Ok(Value::Object(out))
}

/// A config or CA reference: `source` and `verification.hash`.
fn reference(r: &Value, at: &str) -> Result<Value> {
    let m = object(r, at)?;
    allow(m, at, &["source", "verification"])?;
    let mut out = Map::new();
    out.insert(
        "source".into(),
        m.get("source")
            .cloned()
            .ok_or_else(|| anyhow!("{at}: an entry has no source"))?,
    );
    if let Some(h) = verification(m.get("verification"), at)? {
        out.insert("verification".into(), h);
    }
    Ok(Value::Object(out))
}

fn verification(v: Option<&Value>, at: &str) -> Result<Option<Value>> {
    let Some(v) = v else { return Ok(None) };
    let m = object(v, &format!("{at}.verification"))?;
    allow(m, &format!("{at}.verification"), &["hash"])?;
    Ok(m.get("hash").map(|h| json!({ "hash": h })))
}

fn storage(s: &Value) -> Result<Map<String, Value>> {
    let m = object(s, "storage")?;
    allow(
        m,
        "storage",
        &[
            "disks",
            "raid",
            "filesystems",
            "files",
            "directories",
            "links",
        ],
    )?;
    for field in ["disks", "raid"] {
        if m.get(field)
            .and_then(Value::as_array)
            .is_some_and(|a| !a.is_empty())
        {
            bail!(
                "storage.{field} cannot be converted: the MCO manages no disks after install; partition in the installer's config instead"
            );
        }
    }
    for fs in m
        .get("filesystems")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let name = fs["name"].as_str().unwrap_or("?");
        if name != "root" {
            bail!(
                "storage.filesystems: filesystem {name:?} cannot be converted; the MCO converts only the root filesystem"
            );
        }
    }
    let mut out = Map::new();
    let files = dedupe_last(array(m.get("files"), "storage.files")?, "path");
    let files: Result<Vec<Value>> = files.iter().map(file).collect();
    let files = files?;
    if !files.is_empty() {
        out.insert("files".into(), Value::Array(files));
    }
    let dirs: Result<Vec<Value>> = array(m.get("directories"), "storage.directories")?
        .iter()
        .map(|d| {
            let dm = object(d, "storage.directories")?;
            allow(
                dm,
                "storage.directories",
                &["filesystem", "path", "user", "group", "overwrite", "mode"],
            )?;
            let mut o = node(dm, "storage.directories")?;
            if let Some(mode) = dm.get("mode") {
                o.insert("mode".into(), mode.clone());
            }
            Ok(Value::Object(o))
        })
        .collect();
    let dirs = dirs?;
    if !dirs.is_empty() {
        out.insert("directories".into(), Value::Array(dirs));
    }
    let links: Result<Vec<Value>> = array(m.get("links"), "storage.links")?
        .iter()
        .map(|l| {
            let lm = object(l, "storage.links")?;
            allow(
                lm,
                "storage.links",
                &[
                    "filesystem",
                    "path",
                    "user",
                    "group",
                    "overwrite",
                    "target",
                    "hard",
                ],
            )?;
            let mut o = node(lm, "storage.links")?;
            o.insert(
                "target".into(),
                lm.get("target")
                    .cloned()
                    .ok_or_else(|| anyhow!("storage.links: a link has no target"))?,
            );
            if lm.get("hard") == Some(&Value::Bool(true)) {
                o.insert("hard".into(), true.into());
            }
            Ok(Value::Object(o))
        })
        .collect();
    let links = links?;
    if !links.is_empty() {
        out.insert("links".into(), Value::Array(links));
    }
    Ok(out)
}

/// A spec 2 file: 2.x files overwrite unless told otherwise; `append: true` becomes a spec 3
/// `append` list with overwrite false.
fn file(f: &Value) -> Result<Value> {
    let m = object(f, "storage.files")?;
    allow(
        m,
        "storage.files",
        &[
            "filesystem",
            "path",
            "user",
            "group",
            "overwrite",
            "contents",
            "mode",
            "append",
        ],
    )?;
    let mut o = node(m, "storage.files")?;
    let append = m.get("append") == Some(&Value::Bool(true));
    let overwrite = if append {
        false
    } else {
        m.get("overwrite").and_then(Value::as_bool).unwrap_or(true)
    };
    o.insert("overwrite".into(), overwrite.into());
    if let Some(mode) = m.get("mode") {
        o.insert("mode".into(), mode.clone());
    }
    if let Some(c) = m.get("contents") {
        let at = format!("storage.files {}: contents", o["path"]);
        let cm = object(c, &at)?;
        allow(cm, &at, &["source", "compression", "verification"])?;
        let mut contents = Map::new();
        contents.insert(
            "source".into(),
            cm.get("source").cloned().unwrap_or_else(|| "".into()),
        );
        if let Some(comp) = cm
            .get("compression")
            .and_then(Value::as_str)
            .filter(|c| !c.is_empty())
        {
            contents.insert("compression".into(), comp.into());
        }
        if let Some(h) = verification(cm.get("verification"), &at)? {
            contents.insert("verification".into(), h);
        }
        if append {
            o.insert("append".into(), json!([contents]));
        } else {
            o.insert("contents".into(), Value::Object(contents));
        }
    }
    Ok(Value::Object(o))
}

/// The common part of files, directories and links: path on the root filesystem, owner.
fn node(m: &Map<String, Value>, at: &str) -> Result<Map<String, Value>> {
    let path = m
        .get("path")
        .and_then(Value::as_str)
        .ok_or_else(|| anyhow!("{at}: an entry has no path"))?;
    match m.get("filesystem").and_then(Value::as_str) {
        Some("root") => {}
        Some(other) => bail!(
            "{at} {path}: filesystem {other:?} cannot be converted; the MCO converts only the root filesystem"
        ),
        None => bail!("{at} {path}: spec 2 needs a filesystem (\"root\")"),
    }
    let mut o = Map::new();
    o.insert("path".into(), clean_path(path).into());
    for who in ["user", "group"] {
        if let Some(u) = m.get(who) {
            let um = object(u, &format!("{at} {path}: {who}"))?;
            allow(um, &format!("{at} {path}: {who}"), &["id", "name"])?;
            let mut owner = Map::new();
            if let Some(id) = um.get("id") {
                owner.insert("id".into(), id.clone());
            }
            if let Some(name) = um
                .get("name")
                .and_then(Value::as_str)
                .filter(|n| !n.is_empty())
            {
                owner.insert("name".into(), name.into());
            }
            if !owner.is_empty() {
                o.insert(who.into(), Value::Object(owner));
            }
        }
    }
    if let Some(ow) = m.get("overwrite") {
        o.insert("overwrite".into(), ow.clone());
    }
    Ok(o)
}

/// `path.Join("/", p)`: absolute, no `.` or `..` segments, no doubled or trailing slash.
fn clean_path(p: &str) -> String {
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

/// Units: the last of a name wins, keeping dropins of earlier ones it does not define.
fn units(list: &[Value]) -> Result<Vec<Value>> {
    let mut out: Vec<Value> = Vec::new();
    for u in list.iter().rev() {
        let m = object(u, "systemd.units")?;
        allow(
            m,
            "systemd.units",
            &["name", "enable", "enabled", "mask", "contents", "dropins"],
        )?;
        let name = m
            .get("name")
            .and_then(Value::as_str)
            .ok_or_else(|| anyhow!("systemd.units: a unit has no name"))?;
        let dropins: Result<Vec<Value>> = array(m.get("dropins"), "systemd.units dropins")?
            .iter()
            .map(|d| {
                let dm = object(d, "systemd.units dropins")?;
                allow(dm, "systemd.units dropins", &["name", "contents"])?;
                let mut o = Map::new();
                o.insert(
                    "name".into(),
                    dm.get("name")
                        .cloned()
                        .ok_or_else(|| anyhow!("systemd.units {name}: a dropin has no name"))?,
                );
                if let Some(c) = dm
                    .get("contents")
                    .and_then(Value::as_str)
                    .filter(|c| !c.is_empty())
                {
                    o.insert("contents".into(), c.into());
                }
                Ok(Value::Object(o))
            })
            .collect();
        let dropins = dropins?;
        if let Some(later) = out.iter_mut().find(|o| o["name"] == name) {
            // An earlier duplicate only contributes dropins the later one lacks.
            let have = later["dropins"].as_array().cloned().unwrap_or_default();
            let mut merged = have.clone();
            for d in dropins {
                if !have.iter().any(|h| h["name"] == d["name"]) {
                    merged.push(d);
                }
            }
            if !merged.is_empty() {
                later["dropins"] = Value::Array(merged);
            }
            continue;
        }
        let mut o = Map::new();
        o.insert("name".into(), name.into());
        // `enabled` wins over the deprecated `enable` (ign-converter's translateUnits).
        let enabled = match m.get("enabled").and_then(Value::as_bool) {
            Some(false) => Some(false),
            Some(true) => Some(true),
            None => (m.get("enable") == Some(&Value::Bool(true))).then_some(true),
        };
        if let Some(e) = enabled {
            o.insert("enabled".into(), e.into());
        }
        if m.get("mask") == Some(&Value::Bool(true)) {
            o.insert("mask".into(), true.into());
        }
        if let Some(c) = m
            .get("contents")
            .and_then(Value::as_str)
            .filter(|c| !c.is_empty())
        {
            o.insert("contents".into(), c.into());
        }
        if !dropins.is_empty() {
            o.insert("dropins".into(), Value::Array(dropins));
        }
        out.push(Value::Object(o));
    }
    out.reverse();
    Ok(out)
}

fn passwd(p: &Value) -> Result<Map<String, Value>> {
    let m = object(p, "passwd")?;
    allow(m, "passwd", &["users", "groups"])?;
    let mut out = Map::new();
    let users = array(m.get("users"), "passwd.users")?;
    if !users.is_empty() {
        // Only `core` (the MCO's removeIgnDuplicateFilesUnitsUsers): its keys are merged.
        let mut keys: Vec<Value> = Vec::new();
        let mut last = Map::new();
        for u in &users {
            let um = object(u, "passwd.users")?;
            let name = um.get("name").and_then(Value::as_str).unwrap_or("?");
            if name != "core" {
                bail!("passwd.users: user {name:?}; the MCO supports only the core user");
            }
            if um.contains_key("create") {
                bail!(
                    "passwd.users core: the deprecated create field cannot be converted; use the user's own fields"
                );
            }
            allow(
                um,
                "passwd.users core",
                &[
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
                ],
            )?;
            for k in array(
                um.get("sshAuthorizedKeys"),
                "passwd.users core: sshAuthorizedKeys",
            )? {
                if !keys.contains(&k) {
                    keys.push(k);
                }
            }
            last = um.clone();
        }
        last.retain(|k, v| {
            k != "sshAuthorizedKeys"
                && !matches!(v, Value::Bool(false))
                && !v.as_str().is_some_and(str::is_empty)
                && !v.as_array().is_some_and(Vec::is_empty)
        });
        if !keys.is_empty() {
            last.insert("sshAuthorizedKeys".into(), Value::Array(keys));
        }
        out.insert("users".into(), json!([last]));
    }
    let groups: Result<Vec<Value>> = array(m.get("groups"), "passwd.groups")?
        .iter()
        .map(|g| {
            let gm = object(g, "passwd.groups")?;
            allow(
                gm,
                "passwd.groups",
                &["name", "gid", "passwordHash", "system"],
            )?;
            let mut o = gm.clone();
            o.retain(|_, v| {
                !matches!(v, Value::Bool(false)) && !v.as_str().is_some_and(str::is_empty)
            });
            Ok(Value::Object(o))
        })
        .collect();
    let groups = groups?;
    if !groups.is_empty() {
        out.insert("groups".into(), Value::Array(groups));
    }
    Ok(out)
}

/// Keeps the last entry of each `key` value, in the order of those last entries.
fn dedupe_last(list: Vec<Value>, key: &str) -> Vec<Value> {
    let mut out: Vec<Value> = Vec::new();
    for item in list.into_iter().rev() {
        if item.get(key).is_some() && out.iter().any(|o| o.get(key) == item.get(key)) {
            continue;
        }
        out.push(item);
    }
    out.reverse();
    out
}

fn object<'a>(v: &'a Value, at: &str) -> Result<&'a Map<String, Value>> {
    v.as_object().ok_or_else(|| {
        if at.is_empty() {
            anyhow!("the config is not an object")
        } else {
            anyhow!("{at} is not an object")
        }
    })
}

fn array(v: Option<&Value>, at: &str) -> Result<Vec<Value>> {
    match v {
        None => Ok(Vec::new()),
        Some(Value::Array(a)) => Ok(a.clone()),
        Some(_) => bail!("{at} is not a list"),
    }
}

/// An unknown field is an error naming it: spec 2 fields without a spec 3 form must not vanish.
fn allow(m: &Map<String, Value>, at: &str, known: &[&str]) -> Result<()> {
    if let Some(k) = m.keys().find(|k| !known.contains(&k.as_str())) {
        let field = if at.is_empty() {
            k.clone()
        } else {
            format!("{at}.{k}")
        };
        bail!("{field} is not a spec 2.2 field this conversion knows; it cannot be converted");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_units_and_users_as_ign_converter_does() {
        let v2 = json!({
            "ignition": {"version": "2.2.0"},
            "storage": {
                "filesystems": [{"name": "root"}],
                "files": [
                    {"filesystem": "root", "path": "/etc/a", "mode": 420, "contents": {"source": "data:,one"}},
                    {"filesystem": "root", "path": "/etc/./b//x", "mode": 384, "user": {"name": "core"},
                     "contents": {"source": "data:,b", "compression": ""}},
                    {"filesystem": "root", "path": "/etc/a", "contents": {"source": "data:,two"}},
                    {"filesystem": "root", "path": "/etc/log", "append": true, "contents": {"source": "data:,more"}}
                ],
                "links": [{"filesystem": "root", "path": "/etc/l", "target": "/etc/a"}]
            },
            "systemd": {"units": [
                {"name": "a.service", "enable": true, "contents": "[Unit]\n",
                 "dropins": [{"name": "10.conf", "contents": "x"}]},
                {"name": "b.service", "enabled": false, "enable": true, "mask": false},
                {"name": "a.service", "enabled": true, "contents": "[Unit]\nDescription=a\n",
                 "dropins": [{"name": "20.conf", "contents": "y"}]}
            ]},
            "passwd": {"users": [
                {"name": "core", "sshAuthorizedKeys": ["k1"]},
                {"name": "core", "sshAuthorizedKeys": ["k2", "k1"]}
            ]}
        });
        let v3 = convert(&v2).unwrap();
        assert_eq!(v3["ignition"], json!({"version": "3.0.0"}));
        let files = v3["storage"]["files"].as_array().unwrap();
        let paths: Vec<&str> = files.iter().map(|f| f["path"].as_str().unwrap()).collect();
        assert_eq!(
            paths,
            ["/etc/b/x", "/etc/a", "/etc/log"],
            "last /etc/a wins"
        );
        assert_eq!(files[1]["contents"]["source"], "data:,two");
        assert_eq!(
            files[1]["overwrite"], true,
            "2.x files overwrite by default"
        );
        assert_eq!(files[0]["user"], json!({"name": "core"}));
        assert!(files[0]["contents"].get("compression").is_none());
        assert_eq!(files[2]["overwrite"], false);
        assert_eq!(files[2]["append"], json!([{"source": "data:,more"}]));
        assert!(files[2].get("contents").is_none());
        assert_eq!(v3["storage"]["links"][0]["target"], "/etc/a");
        let units = v3["systemd"]["units"].as_array().unwrap();
        assert_eq!(units.len(), 2);
        assert_eq!(units[0]["name"], "b.service");
        assert_eq!(units[0]["enabled"], false, "enabled wins over enable");
        assert!(units[0].get("mask").is_none());
        assert_eq!(units[1]["enabled"], true);
        assert_eq!(units[1]["contents"], "[Unit]\nDescription=a\n");
        let dropins: Vec<&str> = units[1]["dropins"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| d["name"].as_str().unwrap())
            .collect();
        assert_eq!(dropins, ["20.conf", "10.conf"]);
        assert_eq!(
            v3["passwd"]["users"],
            json!([{"name": "core", "sshAuthorizedKeys": ["k1", "k2"]}])
        );
        let bytes = serde_json::to_vec(&v3).unwrap();
        let (_, warnings) = ignition_config::Config::parse_slice(&bytes).unwrap();
        assert!(warnings.is_empty(), "{warnings:?}");
    }

    #[test]
    fn what_cannot_be_converted_is_named() {
        let cases = [
            (
                json!({"ignition": {"version": "2.2.0"}, "networkd": {"units": [{"name": "a.network", "contents": "x"}]}}),
                "networkd.units",
            ),
            (
                json!({"ignition": {"version": "2.2.0"}, "storage": {"files": [{"filesystem": "var", "path": "/x"}]}}),
                "filesystem \"var\"",
            ),
            (
                json!({"ignition": {"version": "2.2.0"}, "storage": {"disks": [{"device": "/dev/sdb"}]}}),
                "storage.disks",
            ),
            (
                json!({"ignition": {"version": "2.2.0"}, "passwd": {"users": [{"name": "admin"}]}}),
                "only the core user",
            ),
            (
                json!({"ignition": {"version": "2.2.0"}, "passwd": {"users": [{"name": "core", "create": {}}]}}),
                "create",
            ),
            (
                json!({"ignition": {"version": "2.2.0"}, "storage": {"files": [{"filesystem": "root", "path": "/x", "frobnicate": 1}]}}),
                "storage.files.frobnicate",
            ),
        ];
        for (v2, expect) in cases {
            let e = convert(&v2).unwrap_err().to_string();
            assert!(e.contains(expect), "{expect}: {e}");
        }
    }
}
