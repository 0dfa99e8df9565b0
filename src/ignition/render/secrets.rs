//! The secret scan of the pre-approval set, which `serve --auth split` gives to anyone. Seed 002
//! says what may be there: "just enough to configure new nodes to submit a CSR", where "the CSR
//! bootstrap token and pull secret are not considered sensitive". So a kubeconfig at the
//! bootstrap kubeconfig's path and a pull secret at the kubelet's are expected credentials,
//! listed, not refused; every other secret stops the render.

use std::io::Read;

use serde_json::Value;

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
    /// The file path or unit name.
    pub path: String,
    /// What kind of secret.
    pub kind: &'static str,
}

impl Finding {
    /// Whether seed 002 expects this credential in the pre-approval set: the pull secret at
    /// the kubelet's path, or a kubeconfig at the bootstrap kubeconfig's path.
    pub fn expected(&self) -> bool {
        (self.path == PULL_SECRET_PATH && self.kind == PULL_SECRET)
            || (self.path == KUBECONFIG_PATH && self.kind == KUBECONFIG)
    }
}

/// The kind of a pull secret finding.
pub const PULL_SECRET: &str = "pull secret";
/// The kind of a kubeconfig finding.
pub const KUBECONFIG: &str = "kubeconfig with credentials";

impl std::fmt::Display for Finding {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "MachineConfig {} puts a {} in {}",
            self.machine_config, self.kind, self.path
        )
    }
}

/// Largest decompressed content scanned (a gzip bomb stops here).
const MAX_SCAN: u64 = 64 * 1024 * 1024;

/// Scans the configs of the pre-approval MachineConfigs for secrets: file contents (plain,
/// percent-encoded and base64 data URLs, gzip-compressed or not), systemd units and dropins.
/// Paths in `allowed` are skipped. Never returns the secret itself.
pub fn scan(mcs: &[&MachineConfig], allowed: &[String]) -> Vec<Finding> {
    let mut out = Vec::new();
    for m in mcs {
        let c = &m.config;
        for f in c["storage"]["files"].as_array().into_iter().flatten() {
            let path = f["path"].as_str().unwrap_or("?").to_string();
            if allowed.contains(&path) {
                continue;
            }
            let mut resources: Vec<&Value> = vec![&f["contents"]];
            resources.extend(f["append"].as_array().into_iter().flatten());
            for r in resources {
                let Some(src) = r["source"].as_str() else {
                    continue;
                };
                let Ok(mut data) = dataurl::decode(src) else {
                    continue;
                };
                if r["compression"].as_str() == Some("gzip") {
                    let mut dec = Vec::new();
                    let gz = flate2::read::GzDecoder::new(data.as_slice());
                    if gz.take(MAX_SCAN).read_to_end(&mut dec).is_err() {
                        out.push(Finding {
                            machine_config: m.name.clone(),
                            path: path.clone(),
                            kind: "content that does not decompress (cannot be checked)",
                        });
                        continue;
                    }
                    data = dec;
                }
                for kind in detect(&data) {
                    out.push(Finding {
                        machine_config: m.name.clone(),
                        path: path.clone(),
                        kind,
                    });
                }
            }
        }
        for u in c["systemd"]["units"].as_array().into_iter().flatten() {
            let unit = u["name"].as_str().unwrap_or("?").to_string();
            let upath = format!("systemd unit {unit}");
            if allowed.contains(&unit) || allowed.contains(&upath) {
                continue;
            }
            if let Some(body) = u["contents"].as_str() {
                for kind in detect(body.as_bytes()) {
                    out.push(Finding {
                        machine_config: m.name.clone(),
                        path: upath.clone(),
                        kind,
                    });
                }
            }
            for d in u["dropins"].as_array().into_iter().flatten() {
                if let Some(body) = d["contents"].as_str() {
                    let dpath = format!("{upath} dropin {}", d["name"].as_str().unwrap_or("?"));
                    for kind in detect(body.as_bytes()) {
                        out.push(Finding {
                            machine_config: m.name.clone(),
                            path: dpath.clone(),
                            kind,
                        });
                    }
                }
            }
        }
    }
    out
}

/// The kinds of secret in a blob.
fn detect(data: &[u8]) -> Vec<&'static str> {
    let text = String::from_utf8_lossy(data);
    let mut kinds = Vec::new();
    if text.contains("-----BEGIN ") && text.contains("PRIVATE KEY-----") {
        kinds.push("PEM private key");
    }
    if is_kubeconfig_with_credentials(&text) {
        kinds.push(KUBECONFIG);
    }
    if is_pull_secret(&text) {
        kinds.push(PULL_SECRET);
    }
    if has_bearer_token(&text) {
        kinds.push("bearer token");
    }
    kinds
}

fn is_kubeconfig_with_credentials(text: &str) -> bool {
    let shaped = text.contains("clusters") && text.contains("users") && text.contains("contexts");
    if !shaped {
        return false;
    }
    let cred = |k: &str| {
        text.lines().any(|l| {
            let t = l.trim_start().trim_start_matches("- ");
            t.strip_prefix(&format!("{k}:"))
                .is_some_and(|v| !v.trim().is_empty())
                || t.strip_prefix(&format!("\"{k}\":"))
                    .is_some_and(|v| !v.trim().trim_matches(',').trim_matches('"').is_empty())
        }) || text.contains(&format!("\"{k}\":\"")) && !text.contains(&format!("\"{k}\":\"\""))
    };
    cred("token") || cred("client-key-data") || cred("password")
}

fn is_pull_secret(text: &str) -> bool {
    let Ok(v) = serde_json::from_str::<Value>(text.trim()) else {
        return false;
    };
    v["auths"].as_object().is_some_and(|a| {
        a.values()
            .any(|e| e["auth"].as_str().is_some_and(|s| !s.is_empty()))
    })
}

fn has_bearer_token(text: &str) -> bool {
    let mut rest = text;
    while let Some(i) = rest.find("Bearer ") {
        let after = &rest[i + 7..];
        let tok: String = after
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || "-._~+/=".contains(*c))
            .collect();
        if tok.len() >= 16 && !tok.starts_with('$') {
            return true;
        }
        rest = after;
    }
    // mcsctl's own provisioning tokens: 6 of [a-z0-9], a dot, 43 of base64url.
    text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '.' || c == '-' || c == '_'))
        .any(|w| {
            w.split_once('.').is_some_and(|(id, s)| {
                crate::token::is_token_id(id)
                    && s.len() == 43
                    && s.bytes()
                        .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
            })
        })
}
