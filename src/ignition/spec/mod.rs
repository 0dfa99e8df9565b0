//! Ignition configs as the Machine Config Server's Go code handles them, spec by spec: read
//! into each spec's types ([`typed`]), validated as Ignition validates them ([`validate`]),
//! merged as Ignition merges them ([`merge`]), converted between specs by the MCO's converter
//! chain ([`convert`], [`v2`]) and written back byte for byte as the MCS writes them.

pub mod convert;
pub mod merge;
pub mod schema;
pub mod typed;
pub mod unit;
pub mod v2;
pub mod validate;

use std::fmt;

use serde_json::{Value, json};

use crate::golang::semver::Version;

/// A spec the MCS reads or serves: 2.2 (Ignition 0.x) or 3.0 to 3.5.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Spec {
    /// Spec 2.2.0.
    V2_2,
    /// Spec 3.N.0.
    V3(u8),
}

impl Spec {
    /// Every spec, oldest first.
    pub const ALL: [Spec; 7] = [
        Spec::V2_2,
        Spec::V3(0),
        Spec::V3(1),
        Spec::V3(2),
        Spec::V3(3),
        Spec::V3(4),
        Spec::V3(5),
    ];

    /// The MCO's internal version (`InternalMCOIgnitionVersion`): rendered MachineConfigs hold
    /// it, and it is `MaxVersion` of the Ignition types the MCS serves from.
    pub const INTERNAL: Spec = Spec::V3(5);

    /// The spec a version string names exactly (`X.Y.0`, no pre-release or metadata), as
    /// Ignition's `ParseCompatibleVersion` compares it.
    pub fn of_version(v: &Version) -> Option<Spec> {
        if v.patch != 0 || !v.pre_release.is_empty() {
            return None;
        }
        match (v.major, v.minor) {
            (2, 2) => Some(Spec::V2_2),
            (3, m @ 0..=5) => Some(Spec::V3(m as u8)),
            _ => None,
        }
    }

    /// Parses a version string naming a spec exactly.
    pub fn parse(s: &str) -> Option<Spec> {
        // go-semver keeps metadata apart; a spec version has none.
        if s.contains('+') {
            return None;
        }
        Version::parse(s).as_ref().and_then(Spec::of_version)
    }

    /// Its place in [`Spec::ALL`].
    pub fn index(self) -> usize {
        match self {
            Spec::V2_2 => 0,
            Spec::V3(m) => 1 + usize::from(m),
        }
    }
}

impl fmt::Display for Spec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Spec::V2_2 => f.write_str("2.2.0"),
            Spec::V3(m) => write!(f, "3.{m}.0"),
        }
    }
}

impl From<super::SpecVersion> for Spec {
    fn from(v: super::SpecVersion) -> Spec {
        Spec::V3(v.minor)
    }
}

/// A field of the wrong type, at its path (`storage.files[0].mode`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{path}: expected {expected}, got {got}")]
pub struct FieldError {
    /// Where.
    pub path: String,
    /// What the field holds (`an integer`).
    pub expected: &'static str,
    /// What it was given, quoting a string (`the string "rw"`).
    pub got: String,
}

impl FieldError {
    /// The error without the value given, for a document that may hold a secret.
    pub fn without_value(&self) -> String {
        format!("{}: expected {}", self.path, self.expected)
    }
}

/// Why a document is not a config of a spec mcsctl reads.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DecodeError {
    /// `ignition.version` is missing or not a version (Ignition's `ErrInvalidVersion`).
    #[error(
        "ignition.version is missing or not a version; the specs read are 2.2.0 and 3.0.0 to 3.5.0"
    )]
    InvalidVersion,
    /// A version no spec here has (`ErrUnknownVersion`).
    #[error("Ignition spec {0} is not supported; the specs read are 2.2.0 and 3.0.0 to 3.5.0")]
    UnknownVersion(String),
    /// A field of the wrong type.
    #[error(transparent)]
    Field(#[from] FieldError),
}

/// A config in one spec, held as its Go types hold it (see [`typed`]).
#[derive(Debug, Clone, PartialEq)]
pub struct Config {
    /// Its spec.
    pub spec: Spec,
    /// Its fields, normalized.
    pub value: Value,
}

impl Config {
    /// An empty config (`{"ignition":{"version":...}}`), as `NewIgnConfig` at `spec`.
    pub fn empty(spec: Spec) -> Config {
        Config {
            spec,
            value: json!({"ignition": {"version": spec.to_string()}}),
        }
    }

    /// Reads `v` at the spec its `ignition.version` names, as Go's `json.Unmarshal` into that
    /// spec's types does; the second value lists unknown keys, which Go drops (and Ignition
    /// warns about). No validation. `v`'s strings are moved into the config.
    pub fn decode(v: Value) -> Result<(Config, Vec<typed::Unknown>), DecodeError> {
        let version = match &v["ignition"]["version"] {
            Value::String(s) => s.clone(),
            _ => return Err(DecodeError::InvalidVersion),
        };
        let parsed = Version::parse(&version).ok_or(DecodeError::InvalidVersion)?;
        let spec = Spec::of_version(&parsed)
            .filter(|_| !version.contains('+'))
            .ok_or(DecodeError::UnknownVersion(version))?;
        let (value, unknown) = typed::decode(v, schema::of(spec))?;
        Ok((Config { spec, value }, unknown))
    }

    /// The config as the MCS writes it (clarketm/json's `Marshal`).
    pub fn to_json(&self) -> Vec<u8> {
        typed::encode(&self.value, schema::of(self.spec))
    }

    /// [`Config::to_json`], into `out`.
    pub fn encode_into(&self, out: &mut impl typed::Sink) {
        typed::encode_into(out, &self.value, schema::of(self.spec));
    }

    /// Restores the normal form after an edit.
    pub fn normalize(&mut self) {
        let schema = schema::of(self.spec);
        typed::normalize(&mut self.value, schema.root(), schema);
    }

    /// The list at a JSON pointer (`/storage/files`), empty when unset.
    pub fn list(&self, pointer: &str) -> &[Value] {
        self.value
            .pointer(pointer)
            .and_then(Value::as_array)
            .map_or(&[], Vec::as_slice)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_by_exact_version() {
        assert_eq!(Spec::parse("3.2.0"), Some(Spec::V3(2)));
        assert_eq!(Spec::parse("2.2.0"), Some(Spec::V2_2));
        assert_eq!(Spec::parse("3.4.0-experimental"), None);
        assert_eq!(Spec::parse("3.6.0"), None);
        assert_eq!(Spec::parse("3.2.0+meta"), None);
        assert!(Spec::V2_2 < Spec::V3(0) && Spec::V3(2) < Spec::V3(3));
        assert_eq!(Spec::V3(3).index(), 4);
    }

    #[test]
    fn decode_names_what_is_wrong() {
        assert_eq!(
            Config::decode(json!({"passwd": {}})).unwrap_err(),
            DecodeError::InvalidVersion
        );
        assert!(matches!(
            Config::decode(json!({"ignition": {"version": "2.1.0"}})).unwrap_err(),
            DecodeError::UnknownVersion(v) if v == "2.1.0"
        ));
        let (c, _) = Config::decode(json!({"ignition": {"version": "2.2.0"}})).unwrap();
        assert_eq!(c.spec, Spec::V2_2);
    }
}
