//! Converting a config between specs as the MCO's converter chain does
//! (`ignition_converter.go`): up with Ignition's own translators (3.0 → … → 3.5, and 2.2 → 3.0
//! with ign-converter's `v23tov30`), down with ign-converter's (3.5 → 3.4 → 3.3 → 3.2, then
//! 3.2 → 3.1 or 3.2 → 2.2). Each step down validates its input and output as Ignition does and
//! refuses what the older spec cannot say, naming the field; what it can drop it drops, as
//! upstream does. 3.1 → 3.0 is mcsctl's own step (the MCO has none): it refuses every field
//! spec 3.0 lacks.

use serde_json::{Map, Value, json};

use super::schema::{self, Type};
use super::typed::visit;
use super::validate::validate;
use super::{Config, Spec, v2};
use crate::golang::url;

/// The config at `target`, or why it cannot be expressed there. Converted in place: every
/// step but those to and from 2.2 edits the config it is given, so a large one is not copied.
pub fn to_spec(mut cfg: Config, target: Spec) -> Result<Config, String> {
    while cfg.spec != target {
        cfg = if target > cfg.spec {
            up(cfg)?
        } else {
            down(cfg, target)?
        };
    }
    Ok(cfg)
}

fn retag(cfg: &mut Config, spec: Spec) {
    cfg.spec = spec;
    cfg.value["ignition"]["version"] = json!(spec.to_string());
}

/// One step up, as Ignition's `translate.Translate` of the next spec.
fn up(cfg: Config) -> Result<Config, String> {
    let mut out = match cfg.spec {
        Spec::V2_2 => return v2::to_v3_0(&cfg),
        Spec::V3(m) => {
            let mut c = cfg;
            retag(&mut c, Spec::V3(m + 1));
            c
        }
    };
    match out.spec {
        // CA references' plain string sources become pointers: always set.
        Spec::V3(1) => {
            for ca in items_mut(
                &mut out.value,
                &["ignition", "security", "tls", "certificateAuthorities"],
            ) {
                if ca.get("source").is_none() {
                    ca.insert("source".into(), json!(""));
                }
            }
        }
        // RAID levels, link targets and custom clevis settings become pointers: always set.
        Spec::V3(3) => {
            for r in items_mut(&mut out.value, &["storage", "raid"]) {
                r.entry("level").or_insert(json!(""));
            }
            for l in items_mut(&mut out.value, &["storage", "links"]) {
                l.entry("target").or_insert(json!(""));
            }
            for l in items_mut(&mut out.value, &["storage", "luks"]) {
                if let Some(custom) = l
                    .get_mut("clevis")
                    .and_then(|c| c.get_mut("custom"))
                    .and_then(Value::as_object_mut)
                {
                    custom.entry("config").or_insert(json!(""));
                    custom.entry("pin").or_insert(json!(""));
                }
            }
        }
        _ => {}
    }
    out.normalize();
    Ok(out)
}

fn items_mut<'a>(v: &'a mut Value, path: &[&str]) -> Vec<&'a mut Map<String, Value>> {
    let mut cur = v;
    for p in path {
        match cur.get_mut(*p) {
            Some(next) => cur = next,
            None => return Vec::new(),
        }
    }
    cur.as_array_mut()
        .map(|a| a.iter_mut().filter_map(Value::as_object_mut).collect())
        .unwrap_or_default()
}

/// Every struct of type `type_name` in the config, with its path.
fn each<'a>(cfg: &'a Config, type_name: &str) -> Vec<(String, &'a Map<String, Value>)> {
    let schema = schema::of(cfg.spec);
    let mut out = Vec::new();
    visit(
        &cfg.value,
        schema.root(),
        schema,
        "",
        &mut |ty: &Type, m, path| {
            if ty.name == type_name {
                out.push((path.to_string(), m));
            }
        },
    );
    out
}

fn at(path: &str, name: &str) -> String {
    if path.is_empty() {
        name.to_string()
    } else {
        format!("{path}.{name}")
    }
}

/// Ignition validation of a step's input or output.
fn check(cfg: &Config, what: &str) -> Result<(), String> {
    let r = validate(cfg);
    match r.errors.first() {
        None => Ok(()),
        Some(e) => Err(format!(
            "{what} is not a valid Ignition {} config: {e}",
            cfg.spec
        )),
    }
}

/// One step down towards `target`: what spec `next` lacks is refused before anything is
/// dropped.
fn down(mut cfg: Config, target: Spec) -> Result<Config, String> {
    let Spec::V3(m) = cfg.spec else {
        return Err(format!("no conversion from spec {} down", cfg.spec));
    };
    if m == 2 && target == Spec::V2_2 {
        return v2::from_v3_2(&cfg);
    }
    if m == 0 {
        return Err("no conversion below spec 3.0.0 but to 2.2.0 from 3.2.0".into());
    }
    check(&cfg, "the config")?;
    let next = Spec::V3(m - 1);
    match m {
        5 => from_3_5(&mut cfg),
        4 => from_3_4(&mut cfg, next)?,
        3 => from_3_3(&mut cfg, next)?,
        2 => from_3_2(&mut cfg, next)?,
        1 => from_3_1(&cfg, next)?,
        _ => {}
    }
    retag(&mut cfg, next);
    cfg.normalize();
    check(&cfg, "the converted config")?;
    Ok(cfg)
}

/// Refuses what spec `next` does not have.
fn refuse(next: Spec, path: &str, what: &str) -> Result<(), String> {
    Err(format!(
        "{path}: {what}, which Ignition spec {next} does not have"
    ))
}

/// v35tov34 drops LUKS cex settings (its check for them never runs).
fn from_3_5(cfg: &mut Config) {
    for l in items_mut(&mut cfg.value, &["storage", "luks"]) {
        l.remove("cex");
    }
}

/// v34tov33: no offline Tang, LUKS discard or open options, special mode bits or S3 `arn:` sources.
fn from_3_4(cfg: &mut Config, next: Spec) -> Result<(), String> {
    for (p, t) in each(cfg, "Tang") {
        if t.get("advertisement")
            .and_then(Value::as_str)
            .is_some_and(|a| !a.is_empty())
        {
            return refuse(next, &at(&p, "advertisement"), "offline Tang provisioning");
        }
    }
    for (p, l) in each(cfg, "Luks") {
        if l.get("discard") == Some(&Value::Bool(true)) {
            return refuse(next, &at(&p, "discard"), "LUKS discard");
        }
        if l.get("openOptions")
            .and_then(Value::as_array)
            .is_some_and(|a| !a.is_empty())
        {
            return refuse(next, &at(&p, "openOptions"), "LUKS openOptions");
        }
    }
    for ty in ["File", "Directory"] {
        for (p, n) in each(cfg, ty) {
            if n.get("mode")
                .and_then(Value::as_i64)
                .is_some_and(|mode| mode & 0o7000 != 0)
            {
                return refuse(
                    next,
                    &at(&p, "mode"),
                    "special mode bits (setuid, setgid, sticky)",
                );
            }
        }
    }
    for (p, r) in each(cfg, "Resource") {
        if let Some(src) = r
            .get("source")
            .and_then(Value::as_str)
            .filter(|s| !s.is_empty())
        {
            match url::parse(src) {
                Err(e) => return Err(format!("{}: invalid URL: {e}", at(&p, "source"))),
                Ok(u) if u.scheme == "arn" => {
                    return refuse(next, &at(&p, "source"), "arn: sources for S3");
                }
                Ok(_) => {}
            }
        }
    }
    for l in items_mut(&mut cfg.value, &["storage", "luks"]) {
        l.remove("discard");
        l.remove("openOptions");
        if let Some(tang) = l
            .get_mut("clevis")
            .and_then(|c| c.get_mut("tang"))
            .and_then(Value::as_array_mut)
        {
            for t in tang.iter_mut().filter_map(Value::as_object_mut) {
                t.remove("advertisement");
            }
        }
    }
    Ok(())
}

/// v33tov32: no kernel arguments; empty RAID levels and link targets are unset.
fn from_3_3(cfg: &mut Config, next: Spec) -> Result<(), String> {
    if cfg.value.get("kernelArguments").is_some() {
        return refuse(next, "kernelArguments", "kernel arguments");
    }
    // Pointers become plain strings: an empty one is unset.
    for r in items_mut(&mut cfg.value, &["storage", "raid"]) {
        if r.get("level") == Some(&json!("")) {
            r.remove("level");
        }
    }
    for l in items_mut(&mut cfg.value, &["storage", "links"]) {
        if l.get("target") == Some(&json!("")) {
            l.remove("target");
        }
    }
    Ok(())
}

/// v32tov31: no LUKS, users or groups that should not exist, or partition resizing.
fn from_3_2(cfg: &mut Config, next: Spec) -> Result<(), String> {
    if !cfg.list("/storage/luks").is_empty() {
        return refuse(next, "storage.luks", "LUKS");
    }
    for (list, what) in [("users", "a user"), ("groups", "a group")] {
        for (i, u) in cfg.list(&format!("/passwd/{list}")).iter().enumerate() {
            if u.get("shouldExist") == Some(&Value::Bool(false)) {
                return refuse(
                    next,
                    &format!("passwd.{list}[{i}].shouldExist"),
                    &format!("{what} that should not exist"),
                );
            }
        }
    }
    for (p, part) in each(cfg, "Partition") {
        if part.get("resize") == Some(&Value::Bool(true)) {
            return refuse(next, &at(&p, "resize"), "partition resizing");
        }
    }
    for key in ["users", "groups"] {
        for u in items_mut(&mut cfg.value, &["passwd", key]) {
            u.remove("shouldExist");
        }
    }
    for d in items_mut(&mut cfg.value, &["storage", "disks"]) {
        if let Some(parts) = d.get_mut("partitions").and_then(Value::as_array_mut) {
            for part in parts.iter_mut().filter_map(Value::as_object_mut) {
                part.remove("resize");
            }
        }
    }
    Ok(())
}

/// mcsctl's step: spec 3.0 has no headers, proxy, mount options or compressed config and CA references.
fn from_3_1(cfg: &Config, next: Spec) -> Result<(), String> {
    // mcsctl's step: spec 3.0 has no headers, proxy, mount options or compressed
    // config and CA references.
    for (p, r) in each(cfg, "Resource") {
        if r.get("httpHeaders").is_some() {
            return refuse(next, &at(&p, "httpHeaders"), "HTTP headers");
        }
        let reference = p.starts_with("ignition.config") || p.starts_with("ignition.security");
        if reference && r.get("compression").is_some() {
            return refuse(
                next,
                &at(&p, "compression"),
                "compressed config and CA references",
            );
        }
    }
    if cfg.value["ignition"].get("proxy").is_some() {
        return refuse(next, "ignition.proxy", "a proxy");
    }
    for (p, f) in each(cfg, "Filesystem") {
        if f.get("mountOptions").is_some() {
            return refuse(next, &at(&p, "mountOptions"), "mount options");
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cfg(v: Value) -> Config {
        Config::decode(v).unwrap().0
    }

    #[test]
    fn down_refuses_what_the_older_spec_lacks() {
        let k = cfg(
            json!({"ignition": {"version": "3.5.0"}, "kernelArguments": {"shouldExist": ["a"]}}),
        );
        assert!(to_spec(k.clone(), Spec::V3(3)).is_ok());
        let e = to_spec(k.clone(), Spec::V3(2)).unwrap_err();
        assert_eq!(
            e,
            "kernelArguments: kernel arguments, which Ignition spec 3.2.0 does not have"
        );
        let h = cfg(
            json!({"ignition": {"version": "3.5.0"}, "storage": {"files": [{"path": "/a",
            "contents": {"source": "https://x/a", "httpHeaders": [{"name": "A", "value": "b"}]}}]}}),
        );
        assert!(to_spec(h.clone(), Spec::V3(1)).is_ok());
        let e = to_spec(h.clone(), Spec::V3(0)).unwrap_err();
        assert!(
            e.starts_with("storage.files[0].contents.httpHeaders: HTTP headers"),
            "{e}"
        );
    }

    #[test]
    fn up_and_down_keep_a_plain_config() {
        let c = cfg(json!({"ignition": {"version": "3.0.0"}, "storage": {
            "files": [{"path": "/a", "contents": {"source": "data:,a"}, "mode": 420}],
            "links": [{"path": "/l", "target": "/a"}]}}));
        let up = to_spec(c.clone(), Spec::V3(5)).unwrap();
        assert_eq!(up.value["storage"]["links"][0]["target"], "/a");
        let back = to_spec(up.clone(), Spec::V3(0)).unwrap();
        assert_eq!(back, c);
        assert_eq!(
            String::from_utf8(back.to_json()).unwrap(),
            r#"{"ignition":{"version":"3.0.0"},"storage":{"files":[{"path":"/a","contents":{"source":"data:,a"},"mode":420}],"links":[{"path":"/l","target":"/a"}]}}"#
        );
    }

    #[test]
    fn a_step_validates_its_input() {
        let dup = cfg(
            json!({"ignition": {"version": "3.5.0"}, "storage": {"files": [
            {"path": "/k", "contents": {"source": "data:,1"}}, {"path": "/k", "contents": {"source": "data:,2"}}]}}),
        );
        let e = to_spec(dup, Spec::V3(4)).unwrap_err();
        assert!(
            e.contains("storage.files[1]: duplicate entry defined"),
            "{e}"
        );
    }
}
