//! JSON as Go's encoding/json writes it, in the `clarketm/json` fork the MCO marshals with:
//! strings escaped with HTML safety (`<`, `>`, `&` as `\u003c`…), U+2028 and U+2029 escaped,
//! control characters other than `\n`, `\r` and `\t` as `\u00XX`; `MarshalIndent`'s layout;
//! and maps with their keys in byte order. Which fields an object has, and in which order, is
//! the caller's business (a Go struct's declaration order).

use serde_json::Value;

const HEX: &[u8; 16] = b"0123456789abcdef";

/// Appends `s` as a JSON string, as clarketm/json's `encodeState.string(s, escapeHTML=true)`.
pub fn push_str(out: &mut Vec<u8>, s: &str) {
    out.push(b'"');
    let bytes = s.as_bytes();
    let mut start = 0;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if b < 0x80 {
            if b >= 0x20 && b != b'"' && b != b'\\' && b != b'<' && b != b'>' && b != b'&' {
                i += 1;
                continue;
            }
            out.extend_from_slice(&bytes[start..i]);
            out.push(b'\\');
            match b {
                b'\\' | b'"' => out.push(b),
                b'\n' => out.push(b'n'),
                b'\r' => out.push(b'r'),
                b'\t' => out.push(b't'),
                _ => {
                    out.extend_from_slice(b"u00");
                    out.push(HEX[usize::from(b >> 4)]);
                    out.push(HEX[usize::from(b & 0xf)]);
                }
            }
            i += 1;
            start = i;
            continue;
        }
        // U+2028 and U+2029 are E2 80 A8 and E2 80 A9.
        if b == 0xE2
            && bytes.get(i + 1) == Some(&0x80)
            && matches!(bytes.get(i + 2), Some(0xA8 | 0xA9))
        {
            out.extend_from_slice(&bytes[start..i]);
            out.extend_from_slice(b"\\u202");
            out.push(HEX[usize::from(bytes[i + 2] & 0xf)]);
            i += 3;
            start = i;
            continue;
        }
        i += 1;
    }
    out.extend_from_slice(&bytes[start..]);
    out.push(b'"');
}

/// Appends a JSON number as Go writes an `int` or a `float64` (`strconv.FormatFloat(f, 'f' or
/// 'e', -1, 64)` in encoding/json's float encoder).
pub fn push_number(out: &mut Vec<u8>, n: &serde_json::Number) {
    if let Some(i) = n.as_i64() {
        out.extend_from_slice(i.to_string().as_bytes());
    } else if let Some(u) = n.as_u64() {
        out.extend_from_slice(u.to_string().as_bytes());
    } else {
        let f = n.as_f64().unwrap_or(0.0);
        let abs = f.abs();
        // encoding/json: 'e' format outside [1e-6, 1e21), with a two-digit exponent.
        if abs != 0.0 && !(1e-6..1e21).contains(&abs) {
            // strconv's shortest 'e' (two exponent digits), then encoding/json's clean-up
            // of "e-09" to "e-9".
            let s = format!("{f:e}");
            let (mant, exp) = s.split_once('e').unwrap_or((&s, "0"));
            let exp: i32 = exp.parse().unwrap_or(0);
            let text = if exp < 0 {
                format!("{mant}e-{}", exp.abs())
            } else {
                format!("{mant}e+{exp:02}")
            };
            out.extend_from_slice(text.as_bytes());
        } else {
            out.extend_from_slice(format!("{f}").as_bytes());
        }
    }
}

/// A value as Go marshals a `map[string]interface{}` tree: object keys in byte order.
pub fn to_vec(v: &Value) -> Vec<u8> {
    let mut out = Vec::new();
    push_value(&mut out, v);
    out
}

/// Appends `v` (see [`to_vec`]).
pub fn push_value(out: &mut Vec<u8>, v: &Value) {
    match v {
        Value::Null => out.extend_from_slice(b"null"),
        Value::Bool(b) => out.extend_from_slice(if *b { b"true" } else { b"false" }),
        Value::Number(n) => push_number(out, n),
        Value::String(s) => push_str(out, s),
        Value::Array(a) => {
            out.push(b'[');
            for (i, item) in a.iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                push_value(out, item);
            }
            out.push(b']');
        }
        Value::Object(m) => {
            // serde_json's map is a BTreeMap: byte order, as Go sorts map keys.
            out.push(b'{');
            for (i, (k, item)) in m.iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                push_str(out, k);
                out.push(b':');
                push_value(out, item);
            }
            out.push(b'}');
        }
    }
}

/// Removes insignificant whitespace from valid JSON, keeping everything else (key order
/// included) as it is, and escapes `<`, `>`, `&`, U+2028 and U+2029: what Go's encoder does
/// to a `json.RawMessage` it embeds (`compact(dst, src, escapeHTML=true)`).
pub fn compact(src: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(src.len());
    let mut in_string = false;
    let mut escaped = false;
    let mut i = 0;
    while i < src.len() {
        let c = src[i];
        i += 1;
        if matches!(c, b'<' | b'>' | b'&') {
            out.extend_from_slice(b"\\u00");
            out.push(HEX[usize::from(c >> 4)]);
            out.push(HEX[usize::from(c & 0xf)]);
            continue;
        }
        if c == 0xE2 && src.get(i) == Some(&0x80) && matches!(src.get(i + 1), Some(0xA8 | 0xA9)) {
            out.extend_from_slice(b"\\u202");
            out.push(HEX[usize::from(src[i + 1] & 0xf)]);
            i += 2;
            continue;
        }
        if in_string {
            out.push(c);
            if escaped {
                escaped = false;
            } else if c == b'\\' {
                escaped = true;
            } else if c == b'"' {
                in_string = false;
            }
        } else if c == b'"' {
            in_string = true;
            out.push(c);
        } else if !matches!(c, b' ' | b'\t' | b'\n' | b'\r') {
            out.push(c);
        }
    }
    out
}

/// Go's `json.Indent(dst, src, prefix, indent)` on compact, valid JSON: a newline and the
/// indent after `{`, `[` and `,`, `": "` between key and value, and empty objects and arrays
/// left as `{}` and `[]`.
pub fn indent(src: &[u8], prefix: &str, indent: &str) -> Vec<u8> {
    let mut out = Vec::with_capacity(src.len() * 2);
    let mut depth = 0usize;
    let mut need_indent = false;
    let mut in_string = false;
    let mut escaped = false;
    let newline = |out: &mut Vec<u8>, depth: usize| {
        out.push(b'\n');
        out.extend_from_slice(prefix.as_bytes());
        for _ in 0..depth {
            out.extend_from_slice(indent.as_bytes());
        }
    };
    for &c in src {
        if in_string {
            out.push(c);
            if escaped {
                escaped = false;
            } else if c == b'\\' {
                escaped = true;
            } else if c == b'"' {
                in_string = false;
            }
            continue;
        }
        if matches!(c, b' ' | b'\t' | b'\n' | b'\r') {
            continue;
        }
        if need_indent && c != b']' && c != b'}' {
            need_indent = false;
            depth += 1;
            newline(&mut out, depth);
        }
        match c {
            b'"' => {
                in_string = true;
                out.push(c);
            }
            b'{' | b'[' => {
                need_indent = true;
                out.push(c);
            }
            b',' => {
                out.push(c);
                newline(&mut out, depth);
            }
            b':' => {
                out.push(c);
                out.push(b' ');
            }
            b'}' | b']' => {
                if need_indent {
                    // An empty object or array stays on its line.
                    need_indent = false;
                } else {
                    depth = depth.saturating_sub(1);
                    newline(&mut out, depth);
                }
                out.push(c);
            }
            _ => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn s(v: &str) -> String {
        let mut out = Vec::new();
        push_str(&mut out, v);
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn strings_are_escaped_as_go_escapes_them() {
        assert_eq!(s("a<b>&c"), r#""a\u003cb\u003e\u0026c""#);
        assert_eq!(s("q\"\\\n\r\t"), r#""q\"\\\n\r\t""#);
        assert_eq!(s("\u{8}\u{c}\u{1}"), r#""\u0008\u000c\u0001""#);
        assert_eq!(s("x\u{2028}y\u{2029}é"), "\"x\\u2028y\\u2029é\"");
    }

    #[test]
    fn maps_sort_and_indent_like_marshal_indent() {
        let v = json!({"b": [], "a": {"x": [1, "s"], "e": {}}});
        let compact = to_vec(&v);
        assert_eq!(
            String::from_utf8(compact.clone()).unwrap(),
            r#"{"a":{"e":{},"x":[1,"s"]},"b":[]}"#
        );
        let pretty = String::from_utf8(indent(&compact, "", "    ")).unwrap();
        assert_eq!(
            pretty,
            "{\n    \"a\": {\n        \"e\": {},\n        \"x\": [\n            1,\n            \"s\"\n        ]\n    },\n    \"b\": []\n}"
        );
        assert_eq!(
            compact_roundtrip(&pretty),
            String::from_utf8(compact).unwrap()
        );
    }

    fn compact_roundtrip(s: &str) -> String {
        String::from_utf8(compact(s.as_bytes())).unwrap()
    }

    #[test]
    fn strings_keep_their_spaces_through_compact_and_indent() {
        let raw = br#"{"a": "x, y: {z}", "b" : [ 1 ,2 ]}"#;
        let c = compact(raw);
        assert_eq!(c, br#"{"a":"x, y: {z}","b":[1,2]}"#);
        let i = indent(&c, "", "  ");
        assert_eq!(
            String::from_utf8(i).unwrap(),
            "{\n  \"a\": \"x, y: {z}\",\n  \"b\": [\n    1,\n    2\n  ]\n}"
        );
    }
}
