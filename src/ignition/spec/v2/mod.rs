//! Spec 2.2, which Ignition 0.x boot images (clusters installed at OpenShift 4.5 or before)
//! read, and which MachineConfigs of such clusters still hold. Up to spec 3 as the MCO
//! converts it (`ign23.Translate` then ign-converter's `v23tov30` with only the root
//! filesystem mapped), down from spec 3.2 as the MCS serves a spec 2 client (`v32tov22`), and
//! the MCO's own clean-up of spec 2 MachineConfigs (`removeIgnDuplicateFilesUnitsUsers`).

use serde_json::{Map, Value, json};

use super::Config;

mod down;
mod up;
mod validate;

pub use down::from_v3_2;
pub use up::to_v3_0;

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

    let units = dedupe_units(&list(&cfg.value, "/systemd/units"));
    set_list(&mut out.value, &["systemd", "units"], units);
    if let Some(user) = fold_users(&list(&cfg.value, "/passwd/users"))? {
        set_list(&mut out.value, &["passwd", "users"], vec![user]);
    }
    out.normalize();
    Ok(out)
}

/// Units kept last-wins, walking backwards; an earlier duplicate's dropins with new names
/// are added to the kept unit.
fn dedupe_units(units: &[&Map<String, Value>]) -> Vec<Value> {
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
    kept.into_iter().map(Value::Object).collect()
}

/// The users folded into the last one, which must be `core`, with every SSH key once.
fn fold_users(users: &[&Map<String, Value>]) -> Result<Option<Value>, String> {
    let Some(last) = users.last() else {
        return Ok(None);
    };
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
    Ok(Some(Value::Object(user)))
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

/// A unit's dropins, name and contents: the same in spec 2.2 and 3.x.
fn dropins(u: &Map<String, Value>) -> Vec<Value> {
    u.get("dropins")
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
        .collect()
}

/// Directories, their node as `node` writes it for the target spec, and their mode.
fn directories(v: &Value, node: &impl Fn(&Map<String, Value>) -> Map<String, Value>) -> Vec<Value> {
    list(v, "/storage/directories")
        .into_iter()
        .map(|d| {
            let mut o = node(d);
            copy(&mut o, d, "mode");
            Value::Object(o)
        })
        .collect()
}

/// Links, their node as `node` writes it for the target spec, hard and target.
fn links(v: &Value, node: &impl Fn(&Map<String, Value>) -> Map<String, Value>) -> Vec<Value> {
    list(v, "/storage/links")
        .into_iter()
        .map(|l| {
            let mut o = node(l);
            bool_p(&mut o, "hard", b(l, "hard"));
            copy(&mut o, l, "target");
            Value::Object(o)
        })
        .collect()
}

fn copy_hash(o: &mut Map<String, Value>, from: &Map<String, Value>) {
    if let Some(h) = from.get("verification").and_then(|v| v.get("hash")) {
        o.insert("verification".into(), json!({ "hash": h }));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cfg(v: Value) -> Config {
        Config::decode(v).unwrap().0
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
