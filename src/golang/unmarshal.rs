//! A JSON document as Go's `json.Unmarshal` into typed structs sees it: any depth is read
//! (Ignition's scanner stops at 10,000 levels; the caller checks that), but a value deeper
//! than any field of the types can be is skipped, never built, so it costs no stack.
//!
//! serde_json refuses a document nested more than 128 levels when building a `Value`; Go
//! skips an unknown key's value whatever its depth. Reading into a `Value` only down to
//! [`KEPT_DEPTH`] and skipping below it (serde_json skips iteratively) reads every config Go
//! reads, and keeps every field Ignition's types have (the deepest is 7 levels down).

use std::fmt;

use serde::Deserialize;
use serde::de::{DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};

/// Levels kept: a value below is read as `null` (it can only be under a key no type has).
pub const KEPT_DEPTH: usize = 64;

/// Parses `bytes` as JSON, keeping [`KEPT_DEPTH`] levels. A syntax error anywhere, even in
/// what is skipped, is an error.
pub fn from_slice(bytes: &[u8]) -> serde_json::Result<Value> {
    let mut d = serde_json::Deserializer::from_slice(bytes);
    let v = Kept(KEPT_DEPTH).deserialize(&mut d)?;
    d.end()?;
    Ok(v)
}

/// A value with this many levels still kept.
struct Kept(usize);

impl<'de> DeserializeSeed<'de> for Kept {
    type Value = Value;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        if self.0 == 0 {
            IgnoredAny::deserialize(d)?;
            return Ok(Value::Null);
        }
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Kept {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E>(self, b: bool) -> Result<Value, E> {
        Ok(Value::Bool(b))
    }

    fn visit_i64<E>(self, n: i64) -> Result<Value, E> {
        Ok(Value::from(n))
    }

    fn visit_u64<E>(self, n: u64) -> Result<Value, E> {
        Ok(Value::from(n))
    }

    fn visit_f64<E>(self, n: f64) -> Result<Value, E> {
        Ok(serde_json::Number::from_f64(n).map_or(Value::Null, Value::Number))
    }

    fn visit_str<E>(self, s: &str) -> Result<Value, E> {
        Ok(Value::String(s.to_string()))
    }

    fn visit_string<E>(self, s: String) -> Result<Value, E> {
        Ok(Value::String(s))
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut out = Vec::new();
        while let Some(v) = seq.next_element_seed(Kept(self.0 - 1))? {
            out.push(v);
        }
        Ok(Value::Array(out))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut out = Map::new();
        while let Some(k) = map.next_key::<String>()? {
            // A key given twice: the last one wins, as in Go.
            let v = map.next_value_seed(Kept(self.0 - 1))?;
            out.insert(k, v);
        }
        Ok(Value::Object(out))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shallow_documents_read_as_serde_json_reads_them() {
        let doc = br#"{"a":[1,-2,3.5,"x\u00e9",true,null,{"b":{}}],"a":{"c":[]}}"#;
        assert_eq!(
            from_slice(doc).unwrap(),
            serde_json::from_slice::<Value>(doc).unwrap()
        );
    }

    #[test]
    fn deep_values_are_skipped_but_checked() {
        let deep = |n: usize, tail: &str| {
            format!(
                r#"{{"ignition":{{"version":"3.2.0"}},"x":{}{tail}{}}}"#,
                "[".repeat(n),
                "]".repeat(n)
            )
        };
        assert!(serde_json::from_slice::<Value>(deep(5_000, "").as_bytes()).is_err());
        let v = from_slice(deep(5_000, "").as_bytes()).unwrap();
        assert_eq!(v["ignition"]["version"], "3.2.0");
        // The document is level 1 and "x" level 2: the array at level KEPT_DEPTH holds what
        // is skipped.
        let mut x = &v["x"];
        for _ in 2..KEPT_DEPTH {
            x = &x[0];
        }
        assert_eq!(x, &Value::Array(vec![Value::Null]));
        assert!(
            from_slice(deep(5_000, "1,").as_bytes()).is_err(),
            "bad syntax deep down"
        );
        assert!(from_slice(br#"{"a":1} x"#).is_err(), "trailing characters");
    }
}
