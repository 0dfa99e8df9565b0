//! What a new render of a pool changes against the config the pool serves now: MachineConfigs
//! (from the record render keeps beside the config), files by path and systemd units by name.
//! Something that would disappear is a loss: render refuses it unless told to replace.

use std::collections::BTreeMap;

use serde::Serialize;
use serde_json::Value;

/// Added, removed and changed names of one kind.
#[derive(Debug, Default, Clone, PartialEq, Eq, Serialize)]
pub struct Delta {
    /// Only in the new config.
    pub added: Vec<String>,
    /// Only in the current config: these disappear.
    pub removed: Vec<String>,
    /// In both, with other content.
    pub changed: Vec<String>,
}

impl Delta {
    fn of(old: &BTreeMap<String, String>, new: &BTreeMap<String, String>) -> Delta {
        let mut d = Delta::default();
        for (k, v) in new {
            match old.get(k) {
                None => d.added.push(k.clone()),
                Some(o) if o != v => d.changed.push(k.clone()),
                Some(_) => {}
            }
        }
        d.removed = old
            .keys()
            .filter(|k| !new.contains_key(*k))
            .cloned()
            .collect();
        d
    }

    fn names(old: &[String], new: &[String]) -> Delta {
        let as_map = |v: &[String]| -> BTreeMap<String, String> {
            v.iter().map(|n| (n.clone(), String::new())).collect()
        };
        Delta::of(&as_map(old), &as_map(new))
    }

    /// Whether nothing differs.
    pub fn is_empty(&self) -> bool {
        self.added.is_empty() && self.removed.is_empty() && self.changed.is_empty()
    }
}

/// The difference for one pool.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PoolDiff {
    /// The pool.
    pub pool: String,
    /// Whether the pool had a config before.
    pub existed: bool,
    /// MachineConfigs merged (only when the current config's record exists).
    pub machine_configs: Option<Delta>,
    /// Files, by path.
    pub files: Delta,
    /// systemd units, by name.
    pub units: Delta,
}

impl PoolDiff {
    /// Compares the current config (and its record of MachineConfigs, when kept) with the new
    /// one. A current config that is not JSON counts as nothing (it cannot be served either).
    pub fn new(
        pool: &str,
        current: Option<(&[u8], Option<&[String]>)>,
        new: &[u8],
        new_sources: &[String],
    ) -> PoolDiff {
        let parse = |b: &[u8]| serde_json::from_slice::<Value>(b).unwrap_or(Value::Null);
        let new_v = parse(new);
        let (old_v, old_sources) = match current {
            Some((bytes, sources)) => (parse(bytes), sources),
            None => (Value::Null, None),
        };
        PoolDiff {
            pool: pool.to_string(),
            existed: current.is_some(),
            machine_configs: old_sources.map(|old| Delta::names(old, new_sources)),
            files: Delta::of(
                &entries(&old_v["storage"]["files"], "path"),
                &entries(&new_v["storage"]["files"], "path"),
            ),
            units: Delta::of(
                &entries(&old_v["systemd"]["units"], "name"),
                &entries(&new_v["systemd"]["units"], "name"),
            ),
        }
    }

    /// What would disappear, one phrase per kind ("MachineConfigs 99-worker-ssh"). The
    /// first-boot report's files and unit are render's own (`--no-report` removes them), not
    /// a loss.
    pub fn losses(&self) -> Vec<String> {
        let mut out = Vec::new();
        let mut add = |what: &str, v: &[String]| {
            let v: Vec<&str> = v
                .iter()
                .map(String::as_str)
                .filter(|n| !crate::firstboot::added(n))
                .collect();
            if !v.is_empty() {
                out.push(format!("{what} {}", v.join(", ")));
            }
        };
        if let Some(m) = &self.machine_configs {
            add("MachineConfigs", &m.removed);
        }
        add("files", &self.files.removed);
        add("units", &self.units.removed);
        out
    }

    /// The difference as text, one line per change (`- file /etc/x`, `+ unit a.service`,
    /// `~ file /etc/y`), or a line saying there is none.
    pub fn text(&self) -> String {
        let mut out = format!(
            "pool {}{}:\n",
            self.pool,
            if self.existed { "" } else { " (new)" }
        );
        let mut lines = 0;
        let mut put = |sign: char, what: &str, v: &[String]| {
            for n in v {
                out.push_str(&format!("  {sign} {what} {n}\n"));
                lines += 1;
            }
        };
        let empty = Delta::default();
        for (what, d) in [
            (
                "MachineConfig",
                self.machine_configs.as_ref().unwrap_or(&empty),
            ),
            ("file", &self.files),
            ("unit", &self.units),
        ] {
            put('-', what, &d.removed);
            put('+', what, &d.added);
            put('~', what, &d.changed);
        }
        if lines == 0 {
            out.push_str("  no change in MachineConfigs, files or units\n");
        }
        out
    }
}

/// The entries of a config's array by their key field, each with its whole JSON text.
fn entries(list: &Value, key: &str) -> BTreeMap<String, String> {
    list.as_array()
        .into_iter()
        .flatten()
        .filter_map(|e| Some((e[key].as_str()?.to_string(), e.to_string())))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn losses_and_changes() {
        let old = br#"{"storage":{"files":[{"path":"/a","mode":420},{"path":"/b"}]},"systemd":{"units":[{"name":"x.service"}]}}"#;
        let new = br#"{"storage":{"files":[{"path":"/a","mode":384},{"path":"/c"}]}}"#;
        let old_src = vec!["00-worker".to_string(), "99-ssh".to_string()];
        let d = PoolDiff::new(
            "worker",
            Some((old, Some(&old_src))),
            new,
            &["00-worker".into()],
        );
        assert_eq!(
            d.losses(),
            ["MachineConfigs 99-ssh", "files /b", "units x.service"]
        );
        assert_eq!(
            d.text(),
            "pool worker:\n  - MachineConfig 99-ssh\n  - file /b\n  + file /c\n  ~ file /a\n  - unit x.service\n"
        );
        let same = PoolDiff::new("w", Some((new, None)), new, &[]);
        assert!(same.losses().is_empty() && same.machine_configs.is_none());
        assert!(
            same.text()
                .ends_with("no change in MachineConfigs, files or units\n")
        );
        assert!(PoolDiff::new("w", None, new, &[]).losses().is_empty());
    }
}
