//! One stored config ready for every client: the body for each spec the MCS serves (2.2 and
//! 3.0 to 3.5), made as the MCS makes it (see [`crate::ignition::render::payload`]), or the
//! reason a spec cannot be served.

use anyhow::{Result, bail};
use bytes::Bytes;

use super::render::payload::Stored;
use super::spec::Spec;

/// A stored config, ready in every spec.
#[derive(Debug, Clone)]
pub struct Variants {
    /// The rendered MachineConfig's name, for an MCS payload.
    pub name: Option<String>,
    /// Index = [`Spec::index`]: the body, or why that spec cannot be served.
    by_spec: Vec<Result<Bytes, String>>,
}

impl Variants {
    /// Reads `bytes` (any 3.x) and prepares every spec. `what` names the file in errors.
    pub fn new(bytes: &[u8], what: &str) -> Result<Variants> {
        let stored = Stored::read(bytes, what)?;
        let by_spec: Vec<Result<Bytes, String>> = Spec::ALL
            .iter()
            .map(|s| stored.serve(*s).map(Bytes::from))
            .collect();
        if let Err(why) = &by_spec[Spec::INTERNAL.index()] {
            bail!("{what} cannot be served: {why}");
        }
        Ok(Variants {
            name: stored.name().map(str::to_string),
            by_spec,
        })
    }

    /// The body for a client of `spec`, or the reason it cannot have one.
    pub fn get(&self, spec: Spec) -> Result<&Bytes, &str> {
        match &self.by_spec[spec.index()] {
            Ok(b) => Ok(b),
            Err(e) => Err(e),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    #[test]
    fn every_spec_of_a_plain_config() {
        let plain = br#"{"ignition":{"version":"3.4.0"},"storage":{"files":[{"path":"/etc/x","contents":{"source":"data:,x"}}]}}"#;
        let v = Variants::new(plain, "plain").unwrap();
        for spec in Spec::ALL {
            let j: Value = serde_json::from_slice(v.get(spec).unwrap()).unwrap();
            assert_eq!(j["ignition"]["version"], spec.to_string());
        }
        let kargs =
            br#"{"ignition":{"version":"3.3.0"},"kernelArguments":{"shouldExist":["quiet"]}}"#;
        let v = Variants::new(kargs, "kargs").unwrap();
        assert!(v.get(Spec::V3(3)).is_ok() && v.get(Spec::V3(5)).is_ok());
        let e = v.get(Spec::V3(2)).unwrap_err();
        assert!(e.contains("kernelArguments") && e.contains("3.2.0"), "{e}");
    }

    #[test]
    fn invalid_config_is_an_error() {
        assert!(Variants::new(b"{}", "x").is_err());
        assert!(Variants::new(br#"{"ignition":{"version":"2.2.0"}}"#, "x").is_err());
    }
}
