//! A JSON document read into an Ignition spec's Go types and written back as Go writes them.
//!
//! [`decode`] does what `json.Unmarshal` into the spec's `Config` does: a value of the wrong
//! JSON type is an error naming the field, `null` leaves a field unset, unknown keys are
//! collected (Ignition warns about them). The result is normalized: a pointer field is present
//! when set, a plain string, number or bool only when not zero, a list only when not empty,
//! a nested struct only when something in it is set (the MCO's `clarketm/json` leaves empty
//! structs out), a pointer to a struct whenever it is set.
//!
//! [`encode`] writes a normalized value with the fields in the Go structs' order, the
//! `omitempty` ones left out when empty and the others written even when zero (`"path":""`,
//! `"source":null`), strings escaped as [`crate::golang::json`] does.

use serde_json::{Map, Value};

use super::FieldError;
use super::schema::{Field, Kind, Schema, Type};

/// A key the spec's types have no field for: Go's `json.Unmarshal` drops it and Ignition warns
/// ("unused key"); so does the MCO.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unknown {
    /// Its path (`storage.files[0].filesystem`).
    pub path: String,
    /// The field of the same struct it most likely meant (a typo, another case), if any.
    pub meant: Option<&'static str>,
    /// The field it was read as: Go's `json.Unmarshal` matches a key to a field regardless of
    /// case when no key matches exactly (`Mode` is read as `mode`), though Ignition still
    /// warns that the key is unused. `None`: dropped.
    pub read_as: Option<&'static str>,
}

impl Unknown {
    fn of(path: &str, key: &str, ty: &Type, m: &Map<String, Value>) -> Unknown {
        let names: Vec<&'static str> = ty.fields.iter().map(|f| f.name).collect();
        let meant = names
            .iter()
            .find(|n| n.eq_ignore_ascii_case(key))
            .copied()
            .or_else(|| crate::names::closest(key, &names).copied());
        let read_as = ty
            .fields
            .iter()
            .find(|f| f.name.eq_ignore_ascii_case(key) && !m.contains_key(f.name))
            .map(|f| f.name);
        Unknown {
            path: join(path, key),
            meant,
            read_as,
        }
    }
}

/// Reads `v` as the spec's `Config`; the second value lists the unknown keys. The strings
/// are moved, not copied: a large config is held once.
pub fn decode(v: Value, schema: &Schema) -> Result<(Value, Vec<Unknown>), FieldError> {
    let mut unknown = Vec::new();
    let out = decode_struct(v, schema.root(), schema, "", &mut unknown)?;
    Ok((Value::Object(out), unknown))
}

fn join(path: &str, name: &str) -> String {
    if path.is_empty() {
        name.to_string()
    } else {
        format!("{path}.{name}")
    }
}

fn decode_struct(
    v: Value,
    ty: &Type,
    schema: &Schema,
    path: &str,
    unknown: &mut Vec<Unknown>,
) -> Result<Map<String, Value>, FieldError> {
    let Value::Object(mut m) = v else {
        return Err(type_error(path, "a mapping", &v));
    };
    let mut strangers = false;
    for (k, val) in &m {
        if ty.field(k).is_none() {
            strangers = true;
            if !val.is_null() {
                unknown.push(Unknown::of(path, k, ty, &m));
            }
        }
    }
    let mut out = Map::new();
    for f in &ty.fields {
        // An exact key first; else (only when some key matched no field) one that differs in
        // case only, as encoding/json takes it.
        let val = match m.remove(f.name) {
            Some(v) => Some(v),
            None if !strangers => None,
            None => m
                .keys()
                .find(|k| k.eq_ignore_ascii_case(f.name))
                .cloned()
                .and_then(|k| m.remove(&k)),
        };
        let Some(val) = val.filter(|v| !v.is_null()) else {
            continue;
        };
        let at = join(path, f.name);
        if let Some(decoded) = decode_field(val, f, schema, &at, unknown)? {
            out.insert(f.name.to_string(), decoded);
        }
    }
    Ok(out)
}

/// One field's value, or `None` when Go would hold its zero value.
fn decode_field(
    v: Value,
    f: &Field,
    schema: &Schema,
    at: &str,
    unknown: &mut Vec<Unknown>,
) -> Result<Option<Value>, FieldError> {
    Ok(match f.kind {
        Kind::Str => Some(string(v, at)?)
            .filter(|s| !s.is_empty())
            .map(Value::from),
        Kind::PtrStr => Some(Value::from(string(v, at)?)),
        Kind::Int => Some(int(&v, at)?).filter(|i| *i != 0).map(Value::from),
        Kind::PtrInt => Some(Value::from(int(&v, at)?)),
        Kind::Bool => Some(boolean(&v, at)?).filter(|b| *b).map(Value::from),
        Kind::PtrBool => Some(Value::from(boolean(&v, at)?)),
        Kind::Struct(t) => {
            let m = decode_struct(v, schema.ty(t), schema, at, unknown)?;
            (!m.is_empty()).then_some(Value::Object(m))
        }
        Kind::PtrStruct(t) => Some(Value::Object(decode_struct(
            v,
            schema.ty(t),
            schema,
            at,
            unknown,
        )?)),
        Kind::ListStr => {
            let items = list(v, at)?;
            let mut out = Vec::with_capacity(items.len());
            for (i, item) in items.into_iter().enumerate() {
                // `null` in a []string is the zero string.
                out.push(Value::from(match item {
                    Value::Null => String::new(),
                    other => string(other, &format!("{at}[{i}]"))?,
                }));
            }
            (!out.is_empty()).then_some(Value::Array(out))
        }
        Kind::List(t) => {
            let items = list(v, at)?;
            let mut out = Vec::with_capacity(items.len());
            for (i, item) in items.into_iter().enumerate() {
                let m = match item {
                    Value::Null => Map::new(),
                    other => {
                        decode_struct(other, schema.ty(t), schema, &format!("{at}[{i}]"), unknown)?
                    }
                };
                out.push(Value::Object(m));
            }
            (!out.is_empty()).then_some(Value::Array(out))
        }
    })
}

fn list(v: Value, at: &str) -> Result<Vec<Value>, FieldError> {
    match v {
        Value::Array(a) => Ok(a),
        other => Err(type_error(at, "a list", &other)),
    }
}

fn string(v: Value, at: &str) -> Result<String, FieldError> {
    match v {
        Value::String(s) => Ok(s),
        other => Err(type_error(at, "a string", &other)),
    }
}

fn boolean(v: &Value, at: &str) -> Result<bool, FieldError> {
    v.as_bool()
        .ok_or_else(|| type_error(at, "true or false", v))
}

/// A Go `int` (64 bits): a JSON number with no fraction or exponent, in range.
fn int(v: &Value, at: &str) -> Result<i64, FieldError> {
    match v {
        Value::Number(n) => n.as_i64().ok_or_else(|| FieldError {
            path: at.to_string(),
            expected: "an integer",
            got: format!("the number {n}"),
        }),
        _ => Err(type_error(at, "an integer", v)),
    }
}

/// What a value is, in the words errors use.
pub fn describe(v: &Value) -> String {
    match v {
        Value::Null => "null".into(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => format!("the number {n}"),
        Value::String(s) => format!("the string {s:?}"),
        Value::Array(_) => "a list".into(),
        Value::Object(_) => "a mapping".into(),
    }
}

fn type_error(at: &str, want: &'static str, got: &Value) -> FieldError {
    FieldError {
        path: at.to_string(),
        expected: want,
        got: describe(got),
    }
}

/// Where [`encode_into`] writes: a buffer, or a writer that keeps long strings apart (see
/// [`crate::ignition::sharing`]).
pub trait Sink {
    /// The buffer everything but field strings goes to.
    fn buf(&mut self) -> &mut Vec<u8>;

    /// A string field's value (not a key, not an item of a list of strings), written as
    /// [`crate::golang::json::push_str`] writes it.
    fn string(&mut self, s: &str) {
        crate::golang::json::push_str(self.buf(), s);
    }
}

impl Sink for Vec<u8> {
    fn buf(&mut self) -> &mut Vec<u8> {
        self
    }
}

/// Writes a normalized `Config` as Go marshals it.
pub fn encode(v: &Value, schema: &Schema) -> Vec<u8> {
    let mut out = Vec::new();
    encode_into(&mut out, v, schema);
    out
}

/// [`encode`], into `out`.
pub fn encode_into(out: &mut impl Sink, v: &Value, schema: &Schema) {
    encode_struct(out, v.as_object(), schema.root(), schema);
}

fn encode_struct(out: &mut impl Sink, m: Option<&Map<String, Value>>, ty: &Type, schema: &Schema) {
    out.buf().push(b'{');
    let mut first = true;
    for f in &ty.fields {
        let val = m.and_then(|m| m.get(f.name));
        if f.omitempty && val.is_none_or(|v| is_empty(v, f.kind, schema)) {
            continue;
        }
        let buf = out.buf();
        if !first {
            buf.push(b',');
        }
        first = false;
        crate::golang::json::push_str(buf, f.name);
        buf.push(b':');
        encode_field(out, val, f.kind, schema);
    }
    out.buf().push(b'}');
}

fn encode_field(out: &mut impl Sink, v: Option<&Value>, kind: Kind, schema: &Schema) {
    use crate::golang::json;
    match (kind, v) {
        (Kind::Str, None) => out.buf().extend_from_slice(b"\"\""),
        (Kind::Int, None) => out.buf().push(b'0'),
        (Kind::Bool, None) => out.buf().extend_from_slice(b"false"),
        (Kind::Struct(t), v) => {
            encode_struct(out, v.and_then(Value::as_object), schema.ty(t), schema)
        }
        (_, None | Some(Value::Null)) => out.buf().extend_from_slice(b"null"),
        (Kind::PtrStruct(t), Some(v)) => encode_struct(out, v.as_object(), schema.ty(t), schema),
        (Kind::List(t), Some(Value::Array(items))) => {
            out.buf().push(b'[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.buf().push(b',');
                }
                encode_struct(out, item.as_object(), schema.ty(t), schema);
            }
            out.buf().push(b']');
        }
        (_, Some(Value::String(s))) => out.string(s),
        (_, Some(v)) => json::push_value(out.buf(), v),
    }
}

/// clarketm/json's `isEmptyValue`: "", 0, false, nil, an empty list, or a struct all of whose
/// fields are empty.
pub fn is_empty(v: &Value, kind: Kind, schema: &Schema) -> bool {
    match kind {
        Kind::Str => v.as_str().is_none_or(str::is_empty),
        Kind::Int => v.as_i64().is_none_or(|i| i == 0),
        Kind::Bool => !v.as_bool().unwrap_or(false),
        Kind::PtrStr | Kind::PtrInt | Kind::PtrBool | Kind::PtrStruct(_) => v.is_null(),
        Kind::ListStr | Kind::List(_) => v.as_array().is_none_or(Vec::is_empty),
        Kind::Struct(t) => struct_is_empty(v, schema.ty(t), schema),
    }
}

/// Whether no field of a struct value is set.
pub fn struct_is_empty(v: &Value, ty: &Type, schema: &Schema) -> bool {
    let Some(m) = v.as_object() else { return true };
    ty.fields
        .iter()
        .all(|f| m.get(f.name).is_none_or(|x| is_empty(x, f.kind, schema)))
}

/// Restores the normal form after an edit: unset zero plain fields, empty lists and empty
/// nested structs are removed, recursively.
pub fn normalize(v: &mut Value, ty: &Type, schema: &Schema) {
    let Some(m) = v.as_object_mut() else { return };
    for f in &ty.fields {
        let remove = match m.get_mut(f.name) {
            None => false,
            Some(x) if x.is_null() => true,
            Some(x) => match f.kind {
                Kind::Struct(t) => {
                    normalize(x, schema.ty(t), schema);
                    struct_is_empty(x, schema.ty(t), schema)
                }
                Kind::PtrStruct(t) => {
                    normalize(x, schema.ty(t), schema);
                    false
                }
                Kind::List(t) => {
                    for item in x.as_array_mut().into_iter().flatten() {
                        normalize(item, schema.ty(t), schema);
                    }
                    is_empty(x, f.kind, schema)
                }
                Kind::Str | Kind::Int | Kind::Bool | Kind::ListStr => is_empty(x, f.kind, schema),
                _ => false,
            },
        };
        if remove {
            m.remove(f.name);
        }
    }
}

/// What [`visit`] calls: the struct's type, its fields and its path.
pub type Visitor<'a, 'f> = dyn FnMut(&Type, &'a Map<String, Value>, &str) + 'f;

/// Calls `f` with every struct that is set in `v` (whose type is `ty`), parents before
/// children, with its path (`storage.files[0]`).
pub fn visit<'a>(v: &'a Value, ty: &Type, schema: &Schema, path: &str, f: &mut Visitor<'a, '_>) {
    let Some(m) = v.as_object() else { return };
    f(ty, m, path);
    for field in &ty.fields {
        let Some(x) = m.get(field.name) else { continue };
        let here = join(path, field.name);
        match field.kind {
            Kind::Struct(t) | Kind::PtrStruct(t) => visit(x, schema.ty(t), schema, &here, f),
            Kind::List(t) => {
                for (i, item) in x.as_array().into_iter().flatten().enumerate() {
                    visit(item, schema.ty(t), schema, &format!("{here}[{i}]"), f);
                }
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ignition::spec::{Spec, schema};
    use serde_json::json;

    fn round(v: Value, spec: Spec) -> (String, Vec<String>) {
        let s = schema::of(spec);
        let (n, unknown) = decode(v, s).unwrap();
        let paths = unknown.into_iter().map(|u| u.path).collect();
        (String::from_utf8(encode(&n, s)).unwrap(), paths)
    }

    #[test]
    fn fields_in_go_order_and_empty_ones_left_out() {
        let (out, unknown) = round(
            json!({"ignition": {"version": "3.5.0", "config": {}}, "storage": {"files": [
                {"path": "/etc/x", "mode": 420, "contents": {"source": "data:,x", "compression": null},
                 "overwrite": true, "user": {}}],
                "directories": []},
             "kernelArguments": {"shouldExist": []}, "frob": 1}),
            Spec::V3(5),
        );
        assert_eq!(
            out,
            r#"{"ignition":{"version":"3.5.0"},"storage":{"files":[{"overwrite":true,"path":"/etc/x","contents":{"source":"data:,x"},"mode":420}]}}"#
        );
        assert_eq!(unknown, ["frob"]);
    }

    #[test]
    fn fields_without_omitempty_are_written_zero() {
        // Spec 3.2 links always carry a target; 2.2 files a filesystem only when set.
        let (out, _) = round(
            json!({"ignition": {"version": "3.2.0"}, "storage": {"links": [{"path": "/a"}]}}),
            Spec::V3(2),
        );
        assert_eq!(
            out,
            r#"{"ignition":{"version":"3.2.0"},"storage":{"links":[{"path":"/a","target":""}]}}"#
        );
        let (out, _) = round(
            json!({"ignition": {"version": "3.0.0", "config": {"merge": [{}]}}}),
            Spec::V3(0),
        );
        assert_eq!(
            out,
            r#"{"ignition":{"config":{"merge":[{"source":null}]},"version":"3.0.0"}}"#
        );
    }

    #[test]
    fn type_errors_name_the_field() {
        let s = schema::of(Spec::V3(2));
        let e = decode(
            json!({"ignition": {"version": "3.2.0"}, "storage": {"files": [{"path": "/a", "mode": "rw"}]}}),
            s,
        )
        .unwrap_err();
        assert_eq!(e.path, "storage.files[0].mode");
        assert_eq!(
            e.to_string(),
            "storage.files[0].mode: expected an integer, got the string \"rw\""
        );
        assert_eq!(
            e.without_value(),
            "storage.files[0].mode: expected an integer"
        );
        let e = decode(json!({"ignition": {"version": "3.2.0"}, "storage": {"files": [{"path": "/a", "mode": 4.5}]}}), s)
            .unwrap_err();
        assert_eq!(e.got, "the number 4.5");
    }
}
