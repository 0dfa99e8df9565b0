//! What Ignition does with a fetched config before it uses it, as rules on the bytes: an empty
//! answer is no config, JSON nested deeper than Ignition's parser allows is refused, and the
//! rest must parse and validate as an Ignition config. Then the parts doctor reports and
//! follows, read without building the whole document (a config may be large and deep in
//! fields Ignition ignores).

use serde::Deserialize;
use serde::de::IgnoredAny;

use crate::ignition::pointer;

/// The nesting limit of Ignition's JSON parser: coreos/go-json's scanner (a fork of Go's
/// encoding/json) refuses the 10,001st level with "exceeded max depth".
pub const MAX_NESTING: usize = 10_000;

/// The parts of a config doctor reports and follows.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct Summary {
    /// `ignition`.
    pub ignition: Ignition,
    /// `storage`.
    pub storage: Storage,
    /// `systemd`.
    pub systemd: Systemd,
    /// `passwd`.
    pub passwd: Passwd,
}

/// `ignition`.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct Ignition {
    /// `version`.
    pub version: String,
    /// `config`.
    pub config: ConfigRefs,
    /// `security`.
    pub security: Security,
}

/// `ignition.config`.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct ConfigRefs {
    /// `merge`.
    pub merge: Vec<Resource>,
    /// `replace`.
    pub replace: Option<Resource>,
}

/// An Ignition resource: where, and with which headers.
#[derive(Debug, Default, Clone, Deserialize)]
#[serde(default)]
pub struct Resource {
    /// `source`.
    pub source: Option<String>,
    /// `httpHeaders`.
    #[serde(rename = "httpHeaders")]
    pub http_headers: Vec<Header>,
}

/// One of a resource's `httpHeaders`. The value may be a secret: only names are printed.
#[derive(Debug, Default, Clone, Deserialize)]
#[serde(default)]
pub struct Header {
    /// `name`.
    pub name: String,
    /// `value`.
    pub value: Option<String>,
}

/// `ignition.security`.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct Security {
    /// `tls`.
    pub tls: Tls,
}

/// `ignition.security.tls`.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct Tls {
    /// `certificateAuthorities`.
    #[serde(rename = "certificateAuthorities")]
    pub certificate_authorities: Vec<Resource>,
}

/// `storage`, counted.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct Storage {
    /// `files`.
    pub files: Vec<IgnoredAny>,
}

/// `systemd`, counted.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct Systemd {
    /// `units`.
    pub units: Vec<IgnoredAny>,
}

/// `passwd`, counted.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct Passwd {
    /// `users`.
    pub users: Vec<IgnoredAny>,
}

impl Resource {
    /// The headers as (name, value) pairs, for a fetch.
    pub fn headers(&self) -> Vec<(String, String)> {
        self.http_headers
            .iter()
            .map(|h| (h.name.clone(), h.value.clone().unwrap_or_default()))
            .collect()
    }

    /// The references of a config: `merge` in order, then `replace`.
    pub fn references(c: &ConfigRefs) -> Vec<Resource> {
        let mut refs: Vec<Resource> = c.merge.clone();
        refs.extend(c.replace.iter().filter(|r| r.source.is_some()).cloned());
        refs
    }
}

/// A config that Ignition accepts, with what it would warn about.
#[derive(Debug)]
pub struct Accepted {
    /// The parts doctor uses.
    pub summary: Summary,
    /// Ignition's warnings.
    pub warnings: Vec<String>,
}

/// Judges `body` as Ignition would; the error is what Ignition would say.
pub fn config(body: &[u8]) -> Result<Accepted, String> {
    if body.iter().all(u8::is_ascii_whitespace) {
        return Err("the body is empty: Ignition says \"not a config (empty)\"".into());
    }
    if let Some(offset) = too_deep(body, MAX_NESTING) {
        return Err(format!(
            "JSON nested more than {MAX_NESTING} levels (at byte {offset}): Ignition's parser stops with \"exceeded max depth\""
        ));
    }
    let value = crate::golang::unmarshal::from_slice(body).map_err(|e| {
        format!(
            "not a valid config: line {}, column {}: not JSON",
            e.line(),
            e.column()
        )
    })?;
    let (cfg, warnings) =
        pointer::decode_v3(value).map_err(|e| format!("not a valid config: {e}"))?;
    let summary: Summary =
        serde_json::from_value(cfg.value).map_err(|e| format!("not a valid config: {e}"))?;
    Ok(Accepted { summary, warnings })
}

/// The offset of the first `[` or `{` that opens level `limit + 1`, outside strings.
fn too_deep(json: &[u8], limit: usize) -> Option<usize> {
    let (mut depth, mut in_string, mut escaped) = (0usize, false, false);
    for (i, &b) in json.iter().enumerate() {
        if in_string {
            match (escaped, b) {
                (true, _) => escaped = false,
                (false, b'\\') => escaped = true,
                (false, b'"') => in_string = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => in_string = true,
            b'[' | b'{' => {
                depth += 1;
                if depth > limit {
                    return Some(i);
                }
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn depth_counts_brackets_outside_strings() {
        assert_eq!(too_deep(br#"{"a":[1]}"#, 2), None);
        assert_eq!(too_deep(br#"{"a":[[1]]}"#, 2), Some(6));
        assert_eq!(too_deep(br#"{"a":"[[[[\"[["}"#, 1), None);
        let deep = format!(
            r#"{{"ignition":{{"version":"3.2.0"}},"x":{}{}}}"#,
            "[".repeat(10_000),
            "]".repeat(10_000)
        );
        assert!(
            config(deep.as_bytes()).is_err(),
            "10,001 levels with the outer object"
        );
        let ok = format!(
            r#"{{"ignition":{{"version":"3.2.0"}},"x":{}{}}}"#,
            "[".repeat(9_999),
            "]".repeat(9_999)
        );
        let a = config(ok.as_bytes()).unwrap();
        assert_eq!(a.summary.ignition.version, "3.2.0");
        assert!(config(b"  \n").unwrap_err().contains("empty"));
    }
}
