//! Ignition's validation of a spec 3 config (`validate.ValidateWithContext` with each type's
//! `Validate`), whose errors make Ignition, and so the MCO, refuse a config: duplicate keys
//! (files, directories and links share one path namespace; units, dropins, users, groups by
//! name), paths, modes, URLs and data URLs, compression and hashes, systemd unit and dropin
//! names and contents, links, disks, partitions, filesystems, RAID, LUKS and Tang. Warnings
//! (special mode bits, a missing `[Install]`, an insecure proxy) are kept apart: upstream
//! carries on after them.

use serde_json::{Map, Value};

use super::Config;
use super::schema::{self, Kind, Type};

mod path;
mod rules;
mod source;
mod storage;

pub use path::clean;
use rules::{rules, version};
pub use source::check_url;
use storage::config_paths;

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ignition::spec::{Config, Spec};
    use serde_json::json;

    fn report(v: Value) -> Report {
        let cfg = Config::decode(v).unwrap().0;
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
