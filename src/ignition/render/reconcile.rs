//! Whether a new rendered config can be applied to a running node, by the MCO's rules
//! (`pkg/controller/common/reconcile.go` at the pinned commit, `isConfigReconcilable`): the
//! machine-config daemon updates files, units and core's SSH keys and password in place, and
//! nothing else. The render controller refuses a new rendered config that breaks a rule
//! (the pool goes RenderDegraded), and names the one source MachineConfig responsible
//! (`generateAndValidateRenderedMachineConfig`). It skips the check when the pool has no
//! configuration yet and at bootstrap.
//!
//! Configs are compared at spec 3.5.0 (the MCO's `ParseAndConvertConfig`), section by section
//! as Go's `reflect.DeepEqual` compares them; an absent section and an empty one count as
//! equal here (Go tells a nil slice from an empty one, which only the raw JSON a user wrote
//! can show).

use serde_json::Value;

use super::MachineConfig;
use crate::ignition::spec::{Config, Spec, convert};

/// The file whose presence makes the daemon skip its checks: never written by Ignition.
pub const DAEMON_FORCE_FILE: &str = "/run/machine-config-daemon-force";

/// The storage sections the MCO lets an admin exempt from the rules
/// (`IrreconcilableValidationOverrides.storage`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Storage {
    /// `storage.disks`.
    Disks,
    /// `storage.filesystems`.
    Filesystems,
    /// `storage.raid`.
    Raid,
}

/// A rendered MachineConfig's part the rules read: its config and FIPS flag.
#[derive(Debug, Clone)]
pub struct Rendered {
    /// Its name.
    pub name: String,
    /// Its Ignition config, any spec 3.
    pub config: Config,
    /// `spec.fips`.
    pub fips: bool,
}

impl Rendered {
    /// The rendered MachineConfig `o` (`what` names it in errors).
    pub fn of_object(o: &super::object::Object, what: &str) -> Result<Rendered, String> {
        let raw = o
            .spec
            .config
            .as_deref()
            .unwrap_or(b"{\"ignition\":{\"version\":\"3.5.0\"}}");
        let v: Value = serde_json::from_slice(raw)
            .map_err(|e| format!("{what}: spec.config is not JSON: {e}"))?;
        let (config, _) = Config::decode(v).map_err(|e| format!("{what}: spec.config: {e}"))?;
        Ok(Rendered {
            name: o.name().to_string(),
            config,
            fips: o.spec.fips,
        })
    }

    /// The cluster's current rendered MachineConfig in `path` (`oc get mc
    /// rendered-<pool>-<hash> -o yaml`, or JSON).
    pub fn read(path: &std::path::Path) -> Result<Rendered, String> {
        let what = path.display().to_string();
        let objects = crate::kube::files::read_objects(path).map_err(|e| format!("{e:#}"))?;
        let [v] = objects.as_slice() else {
            return Err(format!(
                "{what}: expected one rendered MachineConfig (`oc get mc rendered-<pool>-<hash> -o yaml`), found {} object(s)",
                objects.len()
            ));
        };
        let o = super::object::Object::from_value(v)
            .map_err(|e| format!("{what} is not a MachineConfig: {e:#}"))?;
        if !o.name().starts_with("rendered-") {
            return Err(format!(
                "{what}: {} is not a rendered MachineConfig (rendered-<pool>-<hash>)",
                o.name()
            ));
        }
        Rendered::of_object(&o, &what)
    }
}

/// Checks `new` (the config the merge made, and its FIPS flag) against `current`, the pool's
/// rendered config, with `allowed` sections exempt. On failure, the error the render
/// controller gives: the one source of `sources` responsible, else every component's reason.
pub fn check(
    current: &Rendered,
    new: (&Config, bool),
    sources: &[&MachineConfig],
    allowed: &[Storage],
) -> Result<(), String> {
    let old = at_35(&current.config)?;
    let Err(full) = reconcilable(&old, (&at_35(new.0)?, new.1), current.fips, allowed) else {
        return Ok(());
    };
    let mut components = Vec::new();
    for mc in sources {
        let cfg = match &mc.config {
            Some(c) => at_35(c)?,
            None => Config::empty(Spec::INTERNAL),
        };
        if let Err(reason) = reconcilable(&old, (&cfg, mc.fips), current.fips, allowed) {
            if full.contains(&reason) {
                return Err(format!(
                    "reconciliation failed between current config {:?} and base config {:?}: {reason}",
                    current.name, mc.name
                ));
            }
            components.push(format!("{}: {reason}", mc.name));
        }
    }
    Err(format!(
        "render reconciliation error: {full}; component errors: {}",
        components.join("; ")
    ))
}

fn at_35(c: &Config) -> Result<Config, String> {
    convert::to_spec(c.clone(), Spec::INTERNAL)
}

/// `isConfigReconcilable`, in the MCO's words.
fn reconcilable(
    old: &Config,
    new: (&Config, bool),
    old_fips: bool,
    allowed: &[Storage],
) -> Result<(), String> {
    let (new, new_fips) = new;
    let at = |c: &Config, p: &str| normal(c.value.pointer(p).cloned().unwrap_or(Value::Null));
    if at(old, "/passwd") != at(new, "/passwd") {
        passwd(old, new).map_err(|e| format!("invalid passwd change(s): {e}"))?;
    }
    if at(old, "/kernelArguments") != at(new, "/kernelArguments") {
        return Err("ignition kargs section contains changes".into());
    }
    for (section, exempt) in [
        ("disks", Storage::Disks),
        ("filesystems", Storage::Filesystems),
        ("raid", Storage::Raid),
    ] {
        let p = format!("/storage/{section}");
        if !allowed.contains(&exempt) && at(old, &p) != at(new, &p) {
            return Err(format!("ignition {section} section contains changes"));
        }
    }
    if at(old, "/storage/directories") != at(new, "/storage/directories") {
        return Err("ignition directories section contains changes".into());
    }
    if at(old, "/storage/links") != at(new, "/storage/links")
        && !new.list("/storage/links").is_empty()
    {
        return Err("ignition links section contains changes".into());
    }
    for f in new.list("/storage/files") {
        let path = f["path"].as_str().unwrap_or_default();
        if f["append"].as_array().is_some_and(|a| !a.is_empty()) {
            return Err(format!("ignition file {path} includes append"));
        }
        if path == DAEMON_FORCE_FILE {
            return Err(format!("cannot create {path} via Ignition"));
        }
    }
    if old_fips != new_fips {
        return Err(
            "detected change to FIPS flag; refusing to modify FIPS on a running cluster".into(),
        );
    }
    Ok(())
}

/// `validatePasswdChanges`: groups never change; users only as core's SSH keys and
/// password hash (the last user listed is the one checked, as the MCO checks it).
fn passwd(old: &Config, new: &Config) -> Result<(), String> {
    let at = |c: &Config, p: &str| normal(c.value.pointer(p).cloned().unwrap_or(Value::Null));
    if at(old, "/passwd/groups") != at(new, "/passwd/groups") {
        return Err("ignition Passwd Groups section contains changes".into());
    }
    if at(old, "/passwd/users") == at(new, "/passwd/users") {
        return Ok(());
    }
    let users = new.list("/passwd/users");
    if users.iter().any(|u| u["name"] != "core") {
        return Err(
            "ignition passwd user section contains unsupported changes: non-core user".into(),
        );
    }
    let Some(last) = users.last() else {
        return Ok(());
    };
    let keys = last["sshAuthorizedKeys"]
        .as_array()
        .is_some_and(|k| !k.is_empty());
    if !(last["passwordHash"].is_string() || keys) {
        return Err("ignition passwd user section contains unsupported changes: user must be core and have 1 or more sshKeys".into());
    }
    let mut rest = last.clone();
    if let Some(m) = rest.as_object_mut() {
        for k in ["name", "sshAuthorizedKeys", "passwordHash"] {
            m.remove(k);
        }
    }
    if normal(rest) != Value::Null {
        return Err("SSH keys and password hash are not reconcilable".into());
    }
    Ok(())
}

/// A value without what an absent field and a nil list hold alike: nulls, empty lists and
/// empty objects go, and a value left empty is null. (`false`, `0` and `""` stay: Ignition's
/// optional fields are pointers, and Go's `DeepEqual` tells a nil one from a zero one.)
fn normal(v: Value) -> Value {
    match v {
        Value::Object(m) => {
            let m: serde_json::Map<String, Value> = m
                .into_iter()
                .map(|(k, v)| (k, normal(v)))
                .filter(|(_, v)| !v.is_null())
                .collect();
            if m.is_empty() {
                Value::Null
            } else {
                Value::Object(m)
            }
        }
        Value::Array(a) if a.is_empty() => Value::Null,
        Value::Array(a) => Value::Array(a.into_iter().map(normal).collect()),
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn cfg(v: Value) -> Config {
        let mut v = v;
        v["ignition"] = json!({"version": "3.3.0"});
        Config::decode(v).unwrap().0
    }

    fn rendered(v: Value, fips: bool) -> Rendered {
        Rendered {
            name: "rendered-worker-1".into(),
            config: cfg(v),
            fips,
        }
    }

    fn ok(old: Value, new: Value) -> Result<(), String> {
        reconcilable(
            &at_35(&cfg(old)).unwrap(),
            (&at_35(&cfg(new)).unwrap(), false),
            false,
            &[],
        )
    }

    /// Changes the daemon cannot apply, each with the MCO's reason.
    fn refused() -> Vec<(Value, Value, &'static str)> {
        vec![
            (
                json!({}),
                json!({"passwd": {"users": [{"name": "alice"}]}}),
                "invalid passwd change(s): ignition passwd user section contains unsupported changes: non-core user",
            ),
            (
                json!({}),
                json!({"passwd": {"groups": [{"name": "g"}]}}),
                "invalid passwd change(s): ignition Passwd Groups section contains changes",
            ),
            (
                json!({}),
                json!({"passwd": {"users": [{"name": "core", "sshAuthorizedKeys": ["k"], "shell": "/bin/zsh"}]}}),
                "invalid passwd change(s): SSH keys and password hash are not reconcilable",
            ),
            (
                json!({}),
                json!({"passwd": {"users": [{"name": "core"}]}}),
                "invalid passwd change(s): ignition passwd user section contains unsupported changes: user must be core and have 1 or more sshKeys",
            ),
            (
                json!({}),
                json!({"kernelArguments": {"shouldExist": ["nosmt"]}}),
                "ignition kargs section contains changes",
            ),
            (
                json!({}),
                json!({"storage": {"disks": [{"device": "/dev/vdb"}]}}),
                "ignition disks section contains changes",
            ),
            (
                json!({}),
                json!({"storage": {"filesystems": [{"device": "/dev/vdb1", "format": "xfs"}]}}),
                "ignition filesystems section contains changes",
            ),
            (
                json!({}),
                json!({"storage": {"raid": [{"name": "md0", "level": "raid1", "devices": ["/dev/a", "/dev/b"]}]}}),
                "ignition raid section contains changes",
            ),
            (
                json!({}),
                json!({"storage": {"directories": [{"path": "/var/x"}]}}),
                "ignition directories section contains changes",
            ),
            (
                json!({}),
                json!({"storage": {"links": [{"path": "/etc/l", "target": "/etc/a"}]}}),
                "ignition links section contains changes",
            ),
            (
                json!({}),
                json!({"storage": {"files": [{"path": "/etc/a", "append": [{"source": "data:,x"}]}]}}),
                "ignition file /etc/a includes append",
            ),
            (
                json!({}),
                json!({"storage": {"files": [{"path": DAEMON_FORCE_FILE}]}}),
                "cannot create /run/machine-config-daemon-force via Ignition",
            ),
        ]
    }

    #[test]
    fn each_rule_refuses_what_the_daemon_cannot_apply_and_passes_what_it_can() {
        let core = |keys: Value| json!({"passwd": {"users": [{"name": "core", "sshAuthorizedKeys": keys}]}});
        // Files and units change in place; core's keys too.
        let file = |p: &str| json!({"storage": {"files": [{"path": p, "contents": {"source": "data:,x"}}]}});
        assert_eq!(ok(file("/etc/a"), file("/etc/b")), Ok(()));
        assert_eq!(
            ok(
                core(json!(["ssh-ed25519 A"])),
                core(json!(["ssh-ed25519 B"]))
            ),
            Ok(())
        );
        // Everything else, in the MCO's words.
        let cases = refused();
        for (old, new, why) in cases {
            assert_eq!(ok(old, new.clone()), Err(why.to_string()), "{new}");
        }
        // Links may go away (an old MachineConfig removing them on upgrade).
        let link = json!({"storage": {"links": [{"path": "/etc/l", "target": "/etc/a"}]}});
        assert_eq!(ok(link, json!({})), Ok(()));
    }

    #[test]
    fn fips_the_override_and_the_one_machine_config_responsible() {
        let cur = rendered(json!({}), false);
        let mk = |name: &str, fips: bool, v: Value| MachineConfig {
            name: name.into(),
            fips,
            config: Some(cfg(v)),
            ..MachineConfig::default()
        };
        let a = mk("00-a", false, json!({}));
        let b = mk("50-fips", true, json!({}));
        let new = cfg(json!({}));
        let e = check(&cur, (&new, true), &[&a, &b], &[]).unwrap_err();
        assert_eq!(
            e,
            "reconciliation failed between current config \"rendered-worker-1\" and base config \"50-fips\": detected change to FIPS flag; refusing to modify FIPS on a running cluster"
        );
        let disks = mk(
            "60-disk",
            false,
            json!({"storage": {"disks": [{"device": "/dev/vdb"}]}}),
        );
        let merged = cfg(json!({"storage": {"disks": [{"device": "/dev/vdb"}]}}));
        assert!(
            check(&cur, (&merged, false), &[&a, &disks], &[])
                .unwrap_err()
                .contains("base config \"60-disk\": ignition disks section contains changes")
        );
        assert_eq!(
            check(&cur, (&merged, false), &[&a, &disks], &[Storage::Disks]),
            Ok(())
        );
    }
}
