//! Reading Kubernetes objects as `oc get -o json|yaml` prints them: a List, one object, an
//! array, or several YAML documents.

use anyhow::{Result, anyhow};
use serde::Deserialize;
use serde_json::Value;
use time::OffsetDateTime;

/// Every object of a JSON or YAML text: `kind: List` items are flattened, YAML documents
/// concatenated. `what` names the input in errors.
pub fn objects(text: &str, what: &str) -> Result<Vec<Value>> {
    let docs: Vec<Value> =
        if text.trim_start().starts_with('{') || text.trim_start().starts_with('[') {
            vec![serde_json::from_str(text).map_err(|e| anyhow!("{what} is not valid JSON: {e}"))?]
        } else {
            serde_yaml_ng::Deserializer::from_str(text)
                .map(Value::deserialize)
                .collect::<Result<Vec<Value>, _>>()
                .map_err(|e| anyhow!("{what} is not valid YAML or JSON: {e}"))?
        };
    let mut out = Vec::new();
    for d in docs {
        match d {
            Value::Null => {}
            Value::Array(items) => out.extend(items),
            d if d.get("items").is_some_and(Value::is_array) => {
                out.extend(d["items"].as_array().cloned().unwrap_or_default())
            }
            d => out.push(d),
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
