//! Reading Kubernetes objects as `oc get -o json|yaml` prints them: a List, one object, an
//! array, or several YAML documents.

use anyhow::{Result, anyhow, bail};
use serde_json::Value;
use time::OffsetDateTime;

pub mod files;
pub mod yaml;

/// The entries of a Secret (`data` base64-decoded, `stringData`) or a ConfigMap (`data`),
/// sorted by key. `what` names the object in errors ("secret.yaml: ns/name").
pub fn data_entries(o: &Value, what: &str) -> Result<Vec<(String, Vec<u8>)>> {
    use base64::Engine;
    let secret = o["kind"] == "Secret";
    let mut out = Vec::new();
    if let Some(m) = o["data"].as_object() {
        for (k, v) in m {
            let Some(s) = v.as_str() else { continue };
            let val = if secret {
                base64::engine::general_purpose::STANDARD
                    .decode(s.trim())
                    .map_err(|_| anyhow!("{what} data.{k} is not base64"))?
            } else {
                s.as_bytes().to_vec()
            };
            out.push((k.clone(), val));
        }
    }
    if let Some(m) = o["stringData"].as_object() {
        for (k, v) in m {
            if let Some(s) = v.as_str() {
                out.push((k.clone(), s.as_bytes().to_vec()));
            }
        }
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(out)
}

/// Every object of a JSON or YAML text: `kind: List` items are flattened, YAML documents
/// concatenated. YAML is read as Kubernetes reads it (YAML 1.1 scalars, see [`yaml`]). `what`
/// names the input in errors.
pub fn objects(text: &str, what: &str) -> Result<Vec<Value>> {
    Ok(located(text, what)?.into_iter().map(|o| o.value).collect())
}

/// One object and where its nodes are in the input (YAML only: JSON has no line map).
#[derive(Debug, Clone)]
pub struct Located {
    /// The object.
    pub value: Value,
    lines: Option<std::sync::Arc<std::collections::HashMap<String, usize>>>,
    prefix: String,
}

impl Located {
    /// An object with no line map (built in code, or read from JSON).
    pub fn bare(value: Value) -> Located {
        Located {
            value,
            lines: None,
            prefix: String::new(),
        }
    }

    /// The line of the node at `path` inside the object (`spec.config.storage.files[0]`).
    pub fn line_of(&self, path: &str) -> Option<usize> {
        let lines = self.lines.as_ref()?;
        let full = match (self.prefix.is_empty(), path.is_empty()) {
            (true, _) => path.to_string(),
            (false, true) => self.prefix.clone(),
            (false, false) if path.starts_with('[') => format!("{}{path}", self.prefix),
            (false, false) => format!("{}.{path}", self.prefix),
        };
        lines.get(&full).copied()
    }
}

/// [`objects`], each with its line map. A text that is not one JSON value (JSON documents
/// joined by `---`, as some tools write `oc get -o json` output) is read as the YAML stream it
/// is, as the API server reads it; only when YAML cannot read it either is the JSON error the
/// answer.
pub fn located(text: &str, what: &str) -> Result<Vec<Located>> {
    let yaml_docs = |docs: Vec<yaml::Document>| -> Vec<(Value, Option<_>)> {
        docs.into_iter().map(|d| (d.value, Some(d.lines))).collect()
    };
    let docs: Vec<(Value, Option<_>)> =
        if text.trim_start().starts_with('{') || text.trim_start().starts_with('[') {
            match serde_json::from_str(text) {
                Ok(v) => vec![(v, None)],
                Err(e) => match yaml::documents(text, what) {
                    Ok(docs) => yaml_docs(docs),
                    Err(_) => bail!("{what} is not valid JSON: {e}"),
                },
            }
        } else {
            yaml_docs(yaml::documents(text, what)?)
        };
    let mut out = Vec::new();
    for (d, lines) in docs {
        let items = |key: &str, v: Vec<Value>, out: &mut Vec<Located>| {
            for (i, item) in v.into_iter().enumerate() {
                out.push(Located {
                    value: item,
                    lines: lines.clone(),
                    prefix: format!("{key}[{i}]"),
                });
            }
        };
        match d {
            Value::Null => {}
            Value::Array(v) => items("", v, &mut out),
            Value::Object(mut m) if m.get("items").is_some_and(Value::is_array) => {
                let v = m
                    .remove("items")
                    .and_then(|v| match v {
                        Value::Array(a) => Some(a),
                        _ => None,
                    })
                    .unwrap_or_default();
                items("items", v, &mut out);
            }
            d => out.push(Located {
                value: d,
                lines: lines.clone(),
                prefix: String::new(),
            }),
        }
    }
    Ok(out)
}

/// Parses an RFC 3339 timestamp; Go's zero time (`0001-01-01T00:00:00Z`) and absence are `None`.
pub fn timestamp(v: &Value) -> Result<Option<OffsetDateTime>> {
    let Some(s) = v.as_str() else { return Ok(None) };
    if s.is_empty() || s.starts_with("0001-01-01T00:00:00") {
        return Ok(None);
    }
    OffsetDateTime::parse(s, &time::format_description::well_known::Rfc3339)
        .map(Some)
        .map_err(|_| anyhow!("invalid timestamp {s:?} (RFC 3339 expected)"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_documents_joined_as_a_yaml_stream_are_read_as_yaml_reads_them() {
        let one = r#"{"kind": "ConfigMap", "metadata": {"name": "a"}}"#;
        let two =
            r#"{"kind": "List", "items": [{"kind": "ConfigMap", "metadata": {"name": "b"}}]}"#;
        let names = |text: &str| -> Vec<String> {
            objects(text, "in.json")
                .unwrap()
                .iter()
                .map(|o| o["metadata"]["name"].as_str().unwrap().to_string())
                .collect()
        };
        assert_eq!(names(one), ["a"]);
        assert_eq!(names(&format!("{one}\n---\n{two}\n")), ["a", "b"]);
        assert_eq!(names(&format!("---\n{one}\n---\n{two}")), ["a", "b"]);
        // A JSON text that YAML cannot read either keeps the JSON error.
        let e = objects(r#"{"kind": "ConfigMap", "metadata": {"#, "in.json")
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("in.json is not valid JSON: EOF while parsing"),
            "{e}"
        );
    }
}
