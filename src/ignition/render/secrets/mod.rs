//! The secret scan of the pre-approval set, which `serve --auth split` gives to anyone. The
//! "Securing the Machine Config Server" enhancement (openshift/enhancements) says what may be
//! there: "just enough to configure new nodes to submit a CSR", where "the CSR
//! bootstrap token and pull secret are not considered sensitive". So a kubeconfig at the
//! bootstrap kubeconfig's path and a pull secret at the kubelet's are expected credentials,
//! listed, not refused; every other secret stops the render.
//!
//! Every string of each pre-approval config is looked at: file contents in every encoding
//! (data URLs, percent or base64, gzip), every resource's source (credentials in URLs), every
//! `httpHeaders` value, systemd units and dropins, inline LUKS key files, password hashes, and
//! whatever other string a config holds. Content that cannot be decoded is reported, not
//! skipped: what cannot be checked cannot be served without a token.

mod detect;

use std::io::Read;

use serde_json::Value;

pub use detect::{KUBECONFIG, PULL_SECRET, detect};

use super::MachineConfig;
use crate::ignition::dataurl;

/// Where the install pull secret lives on a node.
pub const PULL_SECRET_PATH: &str = "/var/lib/kubelet/config.json";
/// Where the kubelet's bootstrap kubeconfig lives on a node.
pub const KUBECONFIG_PATH: &str = super::payload::KUBECONFIG;

/// A secret found in the pre-approval set.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    /// The MachineConfig.
    pub machine_config: String,
    /// Where: a file path, a unit, or the field's path in the config.
    pub path: String,
    /// What kind of secret.
    pub kind: &'static str,
}

impl Finding {
    /// Whether the "Securing the Machine Config Server" enhancement (openshift/enhancements) expects this credential in the pre-approval set: the pull secret at
    /// the kubelet's path, or a kubeconfig at the bootstrap kubeconfig's path.
    pub fn expected(&self) -> bool {
        (self.path == PULL_SECRET_PATH && self.kind == PULL_SECRET)
            || (self.path == KUBECONFIG_PATH && self.kind == KUBECONFIG)
    }
}

impl std::fmt::Display for Finding {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "MachineConfig {} puts a {} in {}",
            self.machine_config, self.kind, self.path
        )
    }
}

/// Largest decompressed content scanned (a gzip bomb stops here, and is reported).
const MAX_SCAN: u64 = 64 * 1024 * 1024;

/// What could not be checked.
const UNDECODABLE: &str = "content that cannot be decoded (so cannot be checked)";

/// Scans the configs of the pre-approval MachineConfigs. A finding at a path (file path, unit
/// name, or field path) in `allowed` is left out. Never returns the secret itself.
pub fn scan(mcs: &[&MachineConfig], allowed: &[String]) -> Vec<Finding> {
    let mut out = Vec::new();
    for m in mcs {
        let mut s = Scan {
            mc: &m.name,
            allowed,
            out: &mut out,
        };
        if let Some(c) = &m.config {
            s.value(&c.value, "", None);
        }
    }
    out
}

struct Scan<'a> {
    mc: &'a str,
    allowed: &'a [String],
    out: &'a mut Vec<Finding>,
}

impl Scan<'_> {
    fn report(&mut self, at: &str, kind: &'static str) {
        if self.allowed.iter().any(|a| a == at) {
            return;
        }
        let f = Finding {
            machine_config: self.mc.to_string(),
            path: at.to_string(),
            kind,
        };
        if !self.out.contains(&f) {
            self.out.push(f);
        }
    }

    /// Walks `v`; `path` is the JSON path, `label` what findings below are reported as (a
    /// file path, a unit), when known.
    fn value(&mut self, v: &Value, path: &str, label: Option<&str>) {
        match v {
            Value::Object(m) => {
                for (k, child) in m {
                    let sub = if path.is_empty() {
                        k.clone()
                    } else {
                        format!("{path}.{k}")
                    };
                    self.field(v, k, child, &sub, label);
                }
            }
            Value::Array(a) => {
                for (i, child) in a.iter().enumerate() {
                    self.entry(child, &format!("{path}[{i}]"), path, label);
                }
            }
            Value::String(s) => self.text(s.as_bytes(), label.unwrap_or(path)),
            _ => {}
        }
    }

    /// An element of a list: files, units, users and LUKS devices name what is inside them.
    fn entry(&mut self, v: &Value, path: &str, list: &str, label: Option<&str>) {
        let name = |k: &str| v[k].as_str().unwrap_or("?").to_string();
        match list {
            "storage.files" | "storage.directories" | "storage.links" => {
                let p = name("path");
                self.value(v, path, Some(&p));
            }
            "systemd.units" => {
                let u = name("name");
                if self.allowed.contains(&u) {
                    return;
                }
                self.value(v, path, Some(&format!("systemd unit {u}")));
            }
            l if l.ends_with("dropins") => {
                let d = format!("{} dropin {}", label.unwrap_or(l), name("name"));
                self.value(v, path, Some(&d));
            }
            "passwd.users" => {
                let u = format!("passwd user {}", name("name"));
                self.value(v, path, Some(&u));
            }
            "storage.luks" => {
                let l = format!("luks device {}", name("name"));
                self.value(v, path, Some(&l));
            }
            _ => self.value(v, path, label),
        }
    }

    fn field(&mut self, parent: &Value, key: &str, v: &Value, path: &str, label: Option<&str>) {
        let at = label.unwrap_or(path).to_string();
        match (key, v) {
            // A resource: its source is content (data URL) or a location (URL).
            ("source", Value::String(src)) => self.source(parent, src, &at),
            ("httpHeaders", Value::Array(headers)) => {
                for h in headers {
                    let name = h["name"].as_str().unwrap_or_default().to_ascii_lowercase();
                    let value = h["value"].as_str().unwrap_or_default();
                    let credential_name = ["authorization", "proxy-authorization", "cookie"]
                        .contains(&name.as_str())
                        || name.contains("token")
                        || name.contains("secret")
                        || name.contains("key");
                    if (credential_name && !value.is_empty())
                        || !detect(value.as_bytes()).is_empty()
                    {
                        self.report(&at, "HTTP header credential");
                    }
                }
            }
            ("keyFile", Value::Object(_)) => {
                // An inline key file is the LUKS key itself.
                if v["source"].as_str().is_some_and(|s| s.starts_with("data:")) {
                    self.report(&at, "LUKS key file");
                } else {
                    self.value(v, path, label);
                }
            }
            ("passwordHash", Value::String(h)) if !h.is_empty() => {
                self.report(&at, "password hash");
            }
            _ => self.value(v, path, label),
        }
    }

    fn source(&mut self, resource: &Value, src: &str, at: &str) {
        if !src.starts_with("data:") {
            // A location: secret only if it carries credentials (or a token in its query).
            self.text(src.as_bytes(), at);
            return;
        }
        let Ok(mut data) = dataurl::decode(src) else {
            self.report(at, UNDECODABLE);
            return;
        };
        match resource["compression"].as_str() {
            None | Some("") => {}
            Some("gzip") => {
                let mut dec = Vec::new();
                let gz = flate2::read::GzDecoder::new(data.as_slice());
                let limited = gz.take(MAX_SCAN).read_to_end(&mut dec);
                if limited.is_err() || dec.len() as u64 >= MAX_SCAN {
                    self.report(at, UNDECODABLE);
                    return;
                }
                data = dec;
            }
            Some(_) => {
                self.report(at, UNDECODABLE);
                return;
            }
        }
        self.text(&data, at);
    }

    fn text(&mut self, data: &[u8], at: &str) {
        for kind in detect(data) {
            self.report(at, kind);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn kinds(config: Value) -> Vec<(String, &'static str)> {
        let mc = MachineConfig {
            name: "05-pre".into(),
            config: Some(crate::ignition::spec::Config {
                spec: crate::ignition::spec::Spec::INTERNAL,
                value: config,
            }),
            ..MachineConfig::default()
        };
        scan(&[&mc], &[])
            .into_iter()
            .map(|f| (f.path, f.kind))
            .collect()
    }

    #[test]
    fn every_string_of_the_config_is_looked_at() {
        let found = kinds(json!({
            "ignition": {"version": "3.2.0",
                "config": {"merge": [{"source": "https://user:hunter2@mirror.example.com/extra.ign",
                    "httpHeaders": [{"name": "Authorization", "value": "Basic dXNlcjpwYXNz"}]}]}},
            "storage": {
                "files": [
                    {"path": "/etc/ok", "contents": {"source": "data:,nothing%20secret"}},
                    {"path": "/etc/bad-url", "contents": {"source": "data:;base64,%%%"}},
                    {"path": "/etc/odd", "contents": {"source": "data:,x", "compression": "xz"}},
                    {"path": "/etc/remote", "contents": {"source": "https://example.com/f",
                        "httpHeaders": [{"name": "X-Api-Key", "value": "k3y"}]}}
                ],
                "luks": [{"name": "root", "device": "/dev/sda4",
                    "keyFile": {"source": "data:;base64,c2VjcmV0IGtleQ=="}}]
            },
            "passwd": {"users": [{"name": "core", "passwordHash": "$6$salt$hash"}]}
        }));
        let has = |p: &str, k: &str| found.iter().any(|(fp, fk)| fp == p && *fk == k);
        assert!(
            has("ignition.config.merge[0].source", detect::URL_CREDENTIALS),
            "{found:?}"
        );
        assert!(
            has(
                "ignition.config.merge[0].httpHeaders",
                "HTTP header credential"
            ),
            "{found:?}"
        );
        assert!(has("/etc/bad-url", UNDECODABLE), "{found:?}");
        assert!(has("/etc/odd", UNDECODABLE), "{found:?}");
        assert!(has("/etc/remote", "HTTP header credential"), "{found:?}");
        assert!(has("luks device root", "LUKS key file"), "{found:?}");
        assert!(has("passwd user core", "password hash"), "{found:?}");
        assert!(!found.iter().any(|(p, _)| p == "/etc/ok"), "{found:?}");
    }

    #[test]
    fn a_gzip_bomb_is_reported_not_scanned_forever() {
        use base64::Engine;
        use std::io::Write;
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
        let zeros = vec![0u8; 1 << 20];
        for _ in 0..70 {
            e.write_all(&zeros).unwrap();
        }
        let gz = e.finish().unwrap();
        let src = format!(
            "data:;base64,{}",
            base64::engine::general_purpose::STANDARD.encode(gz)
        );
        let found = kinds(
            json!({"ignition": {"version": "3.2.0"}, "storage": {"files": [
            {"path": "/etc/bomb", "contents": {"source": src, "compression": "gzip"}}]}}),
        );
        assert_eq!(found, vec![("/etc/bomb".to_string(), UNDECODABLE)]);
    }
}
