//! Ignition: spec versions, data URLs and pointer configs.

pub mod accept;
pub mod chunks;
pub mod dataurl;
pub mod edit;
pub mod fetch;
pub mod pointer;
pub mod render;
pub mod sharing;
pub mod spec;
pub mod translate;

use std::fmt;

use anyhow::{Result, bail};

/// An Ignition 3 spec version mcsctl writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct SpecVersion {
    /// The minor version (0 to 5); the major is always 3 and the patch 0.
    pub minor: u8,
}

impl SpecVersion {
    /// The version pointer configs use unless told otherwise (what openshift-install writes).
    pub const DEFAULT: SpecVersion = SpecVersion { minor: 2 };
    /// The newest version read and rendered (CoreOS ships spec 3.5.0 with Ignition 2.20).
    pub const MAX_MINOR: u8 = 5;
    /// The newest version of pointer configs: what Ignition 2.14 (RHCOS 4.12 to 4.15 boot
    /// images) still reads, and a pointer config needs no newer field.
    pub const POINTER_MAX_MINOR: u8 = 4;

    /// Parses `3.N.0` for N in 0..=5.
    pub fn parse(s: &str) -> Result<SpecVersion> {
        let parts: Vec<&str> = s.trim().split('.').collect();
        let num = |p: &str| p.parse::<u8>().ok();
        match parts.as_slice() {
            [maj, min, patch] if num(maj) == Some(3) && num(patch) == Some(0) => match num(min) {
                Some(minor) if minor <= Self::MAX_MINOR => Ok(SpecVersion { minor }),
                _ => bail!("Ignition spec {s} is not supported; use 3.0.0 to 3.5.0"),
            },
            [maj, ..] if num(maj).is_some_and(|m| m < 3) => bail!(
                "Ignition spec {s} is not supported: spec 2 configs are for Ignition 0.x (RHCOS before OpenShift 4.6); use 3.0.0 to 3.5.0"
            ),
            _ => bail!("invalid Ignition spec version {s:?}; use 3.0.0 to 3.5.0"),
        }
    }

    /// Whether resources can carry httpHeaders (spec 3.1.0 and later).
    pub fn has_http_headers(self) -> bool {
        self.minor >= 1
    }
}

impl fmt::Display for SpecVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "3.{}.0", self.minor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions() {
        for m in 0..=4 {
            assert_eq!(SpecVersion::parse(&format!("3.{m}.0")).unwrap().minor, m);
        }
        assert!(
            SpecVersion::parse("2.2.0")
                .unwrap_err()
                .to_string()
                .contains("spec 2")
        );
        assert_eq!(SpecVersion::parse("3.5.0").unwrap().minor, 5);
        assert!(SpecVersion::parse("3.6.0").is_err());
        assert!(SpecVersion::parse("3.2").is_err());
        assert!(SpecVersion::parse("4.0.0").is_err());
    }
}
