//! Serving one stored config to clients of every 3.x spec: up is a version bump (each 3.x spec
//! is a superset of the one before), down is allowed only when the config uses nothing the
//! older spec lacks, as the typed structs of the `ignition-config` crate decide.

use anyhow::{Result, anyhow};
use bytes::Bytes;
use serde_json::Value;

use super::SpecVersion;

/// A stored config, ready in every version from 3.0.0 to 3.<MAX_MINOR>.0.
#[derive(Debug, Clone)]
pub struct Variants {
    /// The version the file is written in.
    pub stored_version: String,
    /// Its minor, when it is a 3.x mcsctl knows.
    pub stored_minor: Option<u8>,
    /// The file as stored.
    pub stored: Bytes,
    /// Index = minor: the config at 3.<minor>.0, or why it cannot be (a 406 message).
    pub by_minor: Vec<Result<Bytes, String>>,
}

impl Variants {
    /// Parses and validates `bytes` (any 3.x the crate knows) and prepares every version.
    /// `what` names the file in errors.
    pub fn new(bytes: &[u8], what: &str) -> Result<Variants> {
        let (_, own_warnings) = ignition_config::Config::parse_slice(bytes).map_err(|e| {
            anyhow!(
                "{what} is not a valid Ignition 3 config: {}",
                super::pointer::describe_error(&e)
            )
        })?;
        let value: Value = serde_json::from_slice(bytes).map_err(|e| anyhow!("{what}: {e}"))?;
        let stored_version = value["ignition"]["version"]
            .as_str()
            .unwrap_or_default()
            .to_string();
        let own: Vec<String> = own_warnings.iter().map(|w| w.to_string()).collect();
        let by_minor = (0..=SpecVersion::MAX_MINOR)
            .map(|minor| {
                let target = SpecVersion { minor }.to_string();
                if target == stored_version {
                    return Ok(Bytes::copy_from_slice(bytes));
                }
                let mut v = value.clone();
                v["ignition"]["version"] = Value::String(target.clone());
                let out = serde_json::to_vec(&v).map_err(|e| e.to_string())?;
                match ignition_config::Config::parse_slice(&out) {
                    Ok((_, warnings)) => {
                        let newer: Vec<String> = warnings
                            .iter()
                            .map(|w| w.to_string())
                            .filter(|w| !own.contains(w))
                            .map(|w| w.trim_start_matches("unused key: ").trim_start_matches("$.").to_string())
                            .collect();
                        if newer.is_empty() {
                            Ok(Bytes::from(out))
                        } else {
                            Err(format!(
                                "the config ({stored_version}) uses {}, which Ignition spec {target} does not have",
                                newer.join(", ")
                            ))
                        }
                    }
                    Err(e) => Err(format!(
                        "the config ({stored_version}) cannot be expressed in Ignition spec {target}: {}",
                        super::pointer::describe_error(&e)
                    )),
                }
            })
            .collect();
        Ok(Variants {
            stored_minor: SpecVersion::parse(&stored_version).ok().map(|v| v.minor),
            stored_version,
            stored: Bytes::copy_from_slice(bytes),
            by_minor,
        })
    }

    /// The bytes for a client that wants `3.<minor>.0`, or the 406 reason.
    pub fn get(&self, minor: u8) -> Result<&Bytes, &str> {
        match self.by_minor.get(usize::from(minor)) {
            Some(Ok(b)) => Ok(b),
            Some(Err(e)) => Err(e),
            None => Err("unsupported spec version"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn down_only_when_nothing_newer_is_used() {
        let plain = br#"{"ignition":{"version":"3.4.0"},"storage":{"files":[{"path":"/etc/x","contents":{"source":"data:,x"}}]}}"#;
        let v = Variants::new(plain, "plain").unwrap();
        for minor in 0..=4 {
            let b = v.get(minor).unwrap();
            let j: Value = serde_json::from_slice(b).unwrap();
            assert_eq!(j["ignition"]["version"], format!("3.{minor}.0"));
            assert_eq!(j["storage"]["files"][0]["path"], "/etc/x");
        }
        // kernelArguments arrived in 3.3.0.
        let kargs =
            br#"{"ignition":{"version":"3.3.0"},"kernelArguments":{"shouldExist":["quiet"]}}"#;
        let v = Variants::new(kargs, "kargs").unwrap();
        assert!(v.get(3).is_ok() && v.get(4).is_ok());
        let e = v.get(2).unwrap_err();
        assert!(e.contains("kernelArguments") && e.contains("3.2.0"), "{e}");
    }

    #[test]
    fn invalid_config_is_an_error() {
        assert!(Variants::new(b"{}", "x").is_err());
        assert!(Variants::new(br#"{"ignition":{"version":"2.2.0"}}"#, "x").is_err());
    }
}
