//! go-yaml v2's `Marshal` of a JSON document, as `ghodss/yaml.Marshal` and
//! `sigs.k8s.io/yaml.Marshal` produce it: the JSON is read back as YAML (so numbers are
//! integers or floats, strings stay strings), maps are written with their keys in go-yaml's
//! "natural" order, and every scalar gets the style go-yaml's encoder asks for (plain when it
//! would read back as the same string, double-quoted otherwise, literal when it holds a
//! newline), adjusted by the libyaml emitter's own rules. The MCO hashes this text into a
//! rendered MachineConfig's name, and the MCS writes the bootstrap kubeconfig with it.

mod emit;
pub mod resolve;

use serde_json::Value;

pub use resolve::is_plain_string;

/// A scalar's requested style (go-yaml's encoder picks one; the emitter may change it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Style {
    Plain,
    DoubleQuoted,
    Literal,
}

/// One node of the document to emit.
#[derive(Debug)]
enum Node {
    Scalar(String, Style),
    Sequence(Vec<Node>),
    Mapping(Vec<(Node, Node)>),
}

/// The YAML text of `v`, as `yaml.Marshal` writes the value `yaml.Unmarshal` makes of `v`'s
/// JSON.
pub fn marshal(v: &Value) -> String {
    emit::document(&node(v))
}

fn node(v: &Value) -> Node {
    match v {
        Value::Null => Node::Scalar("null".into(), Style::Plain),
        Value::Bool(b) => Node::Scalar(b.to_string(), Style::Plain),
        Value::Number(n) => Node::Scalar(number(n), Style::Plain),
        Value::String(s) => string(s),
        Value::Array(a) => Node::Sequence(a.iter().map(node).collect()),
        Value::Object(m) => {
            let mut keys: Vec<&String> = m.keys().collect();
            // go-yaml's keyList is no total order for every key (Rust's sort may panic then).
            crate::golang::sort::slice_stable(&mut keys, |a, b| less(a, b));
            Node::Mapping(keys.into_iter().map(|k| (string(k), node(&m[k]))).collect())
        }
    }
}

/// go-yaml's `stringv`: literal when the string has a newline, plain when it reads back as
/// the same string, double-quoted otherwise.
fn string(s: &str) -> Node {
    let style = if s.contains('\n') {
        Style::Literal
    } else if is_plain_string(s) {
        Style::Plain
    } else {
        Style::DoubleQuoted
    };
    Node::Scalar(s.to_string(), style)
}

/// An integer as `strconv.FormatInt`, a float as `strconv.FormatFloat(f, 'g', -1, 64)`.
fn number(n: &serde_json::Number) -> String {
    if let Some(i) = n.as_i64() {
        return i.to_string();
    }
    if let Some(u) = n.as_u64() {
        return u.to_string();
    }
    let f = n.as_f64().unwrap_or(0.0);
    if f.is_nan() {
        return ".nan".into();
    }
    if f.is_infinite() {
        return if f > 0.0 { ".inf" } else { "-.inf" }.into();
    }
    // strconv's shortest 'g': the %e form when the decimal exponent is below -4 or at least
    // 6, with at least two exponent digits.
    let e = format!("{f:e}");
    let (mant, exp) = e.split_once('e').unwrap_or((&e, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    if !(-4..6).contains(&exp) {
        let sign = if exp < 0 { '-' } else { '+' };
        format!("{mant}e{sign}{:02}", exp.abs())
    } else {
        format!("{f}")
    }
}

/// go-yaml v2's `keyList.Less` for string keys: rune by rune; where they differ, letters
/// compare as runes, a letter sorts after a non-letter, and runs of digits compare as numbers.
fn less(a: &str, b: &str) -> bool {
    let ar: Vec<char> = a.chars().collect();
    let br: Vec<char> = b.chars().collect();
    let digit = |c: char| c.is_ascii_digit();
    let mut i = 0;
    while i < ar.len() && i < br.len() {
        if ar[i] == br[i] {
            i += 1;
            continue;
        }
        let al = ar[i].is_alphabetic();
        let bl = br[i].is_alphabetic();
        if al && bl {
            return ar[i] < br[i];
        }
        if al || bl {
            return bl;
        }
        let (mut an, mut bn) = (0i64, 0i64);
        if ar[i] == '0' || br[i] == '0' {
            let mut j = i;
            while j > 0 && digit(ar[j - 1]) {
                j -= 1;
                if ar[j] != '0' {
                    an = 1;
                    bn = 1;
                    break;
                }
            }
        }
        let mut ai = i;
        while ai < ar.len() && digit(ar[ai]) {
            an = an
                .wrapping_mul(10)
                .wrapping_add(i64::from(ar[ai] as u8 - b'0'));
            ai += 1;
        }
        let mut bi = i;
        while bi < br.len() && digit(br[bi]) {
            bn = bn
                .wrapping_mul(10)
                .wrapping_add(i64::from(br[bi] as u8 - b'0'));
            bi += 1;
        }
        if an != bn {
            return an < bn;
        }
        if ai != bi {
            return ai < bi;
        }
        return ar[i] < br[i];
    }
    ar.len() < br.len()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn keys_in_natural_order() {
        let mut keys = vec!["b", "a10", "a2", "A", "_x", "a02", "z"];
        crate::golang::sort::slice_stable(&mut keys, |a, b| less(a, b));
        assert_eq!(keys, ["_x", "A", "a2", "a02", "a10", "b", "z"]);
    }

    #[test]
    fn a_spec_as_the_mco_hashes_it() {
        // The spec of a rendered MachineConfig, as hash.go marshals it (checked against the
        // recorded upstream name in the conformance tests).
        let v = json!({
            "osImageURL": "", "baseOSExtensionsContainerImage": "",
            "config": {"ignition": {"version": "3.5.0"}, "storage": {"files": [
                {"overwrite": true, "path": "/etc/x", "contents": {"source": "data:,x"}, "mode": 420}]}},
            "kernelArguments": ["foo=bar"], "extensions": [], "fips": false, "kernelType": "default"
        });
        assert_eq!(
            marshal(&v),
            "baseOSExtensionsContainerImage: \"\"\nconfig:\n  ignition:\n    version: 3.5.0\n  storage:\n    files:\n    - contents:\n        source: data:,x\n      mode: 420\n      overwrite: true\n      path: /etc/x\nextensions: []\nfips: false\nkernelArguments:\n- foo=bar\nkernelType: default\nosImageURL: \"\"\n"
        );
    }

    #[test]
    fn scalars_get_go_yamls_styles() {
        let y = |v: Value| marshal(&json!({ "k": v }));
        assert_eq!(y(json!("yes")), "k: \"yes\"\n");
        assert_eq!(y(json!("123")), "k: \"123\"\n");
        assert_eq!(y(json!("1.5")), "k: \"1.5\"\n");
        assert_eq!(y(json!("0x1f")), "k: \"0x1f\"\n");
        assert_eq!(y(json!("1:20")), "k: \"1:20\"\n");
        assert_eq!(y(json!("2024-01-02")), "k: \"2024-01-02\"\n");
        assert_eq!(y(json!("3.5.0")), "k: 3.5.0\n");
        assert_eq!(y(json!("a: b")), "k: 'a: b'\n");
        assert_eq!(y(json!("- x")), "k: '- x'\n");
        assert_eq!(y(json!(" lead")), "k: ' lead'\n");
        assert_eq!(y(json!("tab\there")), "k: \"tab\\there\"\n");
        assert_eq!(y(json!("a\nb\n")), "k: |\n  a\n  b\n");
        assert_eq!(y(json!("a\nb")), "k: |-\n  a\n  b\n");
        assert_eq!(y(json!("a\n\n")), "k: |+\n  a\n\n");
        assert_eq!(y(json!(" a\nb")), "k: |2-\n   a\n  b\n");
        assert_eq!(y(json!({})), "k: {}\n");
        assert_eq!(y(json!(null)), "k: null\n");
        assert_eq!(y(json!(1.5)), "k: 1.5\n");
        assert_eq!(y(json!(["a", ["b"], {"c": 1}])), "k:\n- a\n- - b\n- c: 1\n");
    }

    #[test]
    fn long_plain_scalars_fold_at_80_columns() {
        let words = vec!["word"; 30].join(" ");
        let out = marshal(&json!({ "k": words }));
        let lines: Vec<&str> = out.lines().collect();
        assert!(lines.len() > 1, "{out}");
        assert!(lines[0].len() <= 84, "{out}");
        assert!(lines[1].starts_with("  word"), "{out}");
        // A string with no spaces never folds.
        let long = "x".repeat(200);
        assert_eq!(marshal(&json!({ "k": long })), format!("k: {long}\n"));
    }
}
