//! YAML as Kubernetes reads it. `oc` and the API server turn YAML into JSON with
//! sigs.k8s.io/yaml, which is go-yaml v2: a YAML 1.1 reader. A plain `mode: 0644` is the octal
//! 420 there (a string to a YAML 1.2 reader), `enabled: yes` is true, `0o644` and `0x1a4` are
//! numbers, and a quoted `"0644"` stays a string. This reader resolves plain scalars by go-yaml
//! v2's rules (resolve.go: the bool and null tables, `strconv.ParseInt(plain, 0, 64)` with
//! underscores removed, its float pattern) and keeps quoted and block scalars as strings, so
//! a MachineConfig means here what it means to the cluster. It also records the line of every
//! node, so an error can point into the file the user wrote.

use std::collections::HashMap;
use std::sync::Arc;

use crate::golang::yaml::resolve;
use anyhow::{Result, anyhow, bail};
use serde_json::{Map, Number, Value};
use yaml_rust2::parser::{Event, MarkedEventReceiver, Parser, Tag};
use yaml_rust2::scanner::{Marker, TScalarStyle};

/// One document, with the line (1-based) of each node by path (`spec.config.storage.files[0]`).
#[derive(Debug, Clone)]
pub struct Document {
    /// The JSON the API server would see.
    pub value: Value,
    /// Line of each node.
    pub lines: Arc<HashMap<String, usize>>,
}

/// Parses every document of `text`. `what` names the input in errors.
pub fn documents(text: &str, what: &str) -> Result<Vec<Document>> {
    let mut sink = Sink::default();
    Parser::new_from_str(text)
        .load(&mut sink, true)
        .map_err(|e| anyhow!("{what} is not valid YAML: {e}"))?;
    let mut out = Vec::new();
    let mut i = 0;
    while i < sink.events.len() {
        if sink.events[i].0 == Event::DocumentStart {
            let mut b = Builder {
                events: &sink.events,
                pos: i + 1,
                anchors: HashMap::new(),
                lines: HashMap::new(),
                what,
            };
            let value = b.node("")?;
            let next = b.pos;
            out.push(Document {
                value,
                lines: Arc::new(b.lines),
            });
            i = next;
        } else {
            i += 1;
        }
    }
    Ok(out)
}

#[derive(Default)]
struct Sink {
    events: Vec<(Event, Marker)>,
}

impl MarkedEventReceiver for Sink {
    fn on_event(&mut self, ev: Event, mark: Marker) {
        self.events.push((ev, mark));
    }
}

struct Builder<'a> {
    events: &'a [(Event, Marker)],
    pos: usize,
    anchors: HashMap<usize, Value>,
    lines: HashMap<String, usize>,
    what: &'a str,
}

impl Builder<'_> {
    fn next(&mut self) -> Result<&(Event, Marker)> {
        let e = self
            .events
            .get(self.pos)
            .ok_or_else(|| anyhow!("{}: the YAML ends in the middle of a node", self.what))?;
        self.pos += 1;
        Ok(e)
    }

    /// The node starting at the next event; `path` is where it sits.
    fn node(&mut self, path: &str) -> Result<Value> {
        let (ev, mark) = self.next()?.clone();
        self.lines.insert(path.to_string(), mark.line());
        let (value, anchor) = match ev {
            Event::Scalar(s, style, anchor, tag) => {
                (scalar(&s, style, tag.as_ref(), self.what, mark)?, anchor)
            }
            Event::Alias(id) => {
                let v = self.anchors.get(&id).cloned().ok_or_else(|| {
                    anyhow!(
                        "{}: line {}: an alias to an anchor not defined before it",
                        self.what,
                        mark.line()
                    )
                })?;
                (v, 0)
            }
            Event::SequenceStart(anchor, _) => {
                let mut items = Vec::new();
                loop {
                    if self.peek_is(&Event::SequenceEnd) {
                        self.pos += 1;
                        break;
                    }
                    let p = format!("{path}[{}]", items.len());
                    items.push(self.node(&p)?);
                }
                (Value::Array(items), anchor)
            }
            Event::MappingStart(anchor, _) => (self.mapping(path)?, anchor),
            other => bail!(
                "{}: line {}: unexpected YAML event {other:?}",
                self.what,
                mark.line()
            ),
        };
        if anchor > 0 {
            self.anchors.insert(anchor, value.clone());
        }
        Ok(value)
    }

    fn peek_is(&self, ev: &Event) -> bool {
        self.events.get(self.pos).is_some_and(|(e, _)| e == ev)
    }

    /// A mapping: keys as sigs.k8s.io/yaml writes them (a bool key becomes "true"), `<<`
    /// merges (explicit keys win), a repeated key is an error as in go-yaml.
    fn mapping(&mut self, path: &str) -> Result<Value> {
        let mut m = Map::new();
        let mut merged: Vec<Map<String, Value>> = Vec::new();
        loop {
            if self.peek_is(&Event::MappingEnd) {
                self.pos += 1;
                break;
            }
            let (kev, kmark) = self.next()?.clone();
            let key = match kev {
                Event::Scalar(s, TScalarStyle::Plain, _, None) if s == "<<" => None,
                Event::Scalar(s, style, _, tag) => Some(key_string(&scalar(
                    &s,
                    style,
                    tag.as_ref(),
                    self.what,
                    kmark,
                )?)),
                Event::Alias(id) => Some(key_string(self.anchors.get(&id).ok_or_else(|| {
                    anyhow!(
                        "{}: line {}: an alias to an anchor not defined before it",
                        self.what,
                        kmark.line()
                    )
                })?)),
                _ => bail!(
                    "{}: line {}: a mapping key must be a scalar",
                    self.what,
                    kmark.line()
                ),
            };
            match key {
                None => match self.node(&format!("{path}.<<"))? {
                    Value::Object(o) => merged.push(o),
                    Value::Array(items) => {
                        for it in items {
                            match it {
                                Value::Object(o) => merged.push(o),
                                _ => bail!(
                                    "{}: line {}: `<<` merges mappings only",
                                    self.what,
                                    kmark.line()
                                ),
                            }
                        }
                    }
                    _ => bail!(
                        "{}: line {}: `<<` merges mappings only",
                        self.what,
                        kmark.line()
                    ),
                },
                Some(k) => {
                    let p = if path.is_empty() {
                        k.clone()
                    } else {
                        format!("{path}.{k}")
                    };
                    if m.contains_key(&k) {
                        bail!(
                            "{}: line {}: key {k:?} is already set in this mapping",
                            self.what,
                            kmark.line()
                        );
                    }
                    let v = self.node(&p)?;
                    // A field is where its key is written (a block value starts below it).
                    self.lines.insert(p, kmark.line());
                    m.insert(k, v);
                }
            }
        }
        for o in merged {
            for (k, v) in o {
                m.entry(k).or_insert(v);
            }
        }
        Ok(Value::Object(m))
    }
}

/// A mapping key as JSON wants it: a string, or how sigs.k8s.io/yaml prints a non-string one.
fn key_string(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Null => "null".into(),
        other => other.to_string(),
    }
}

/// A scalar: quoted and block scalars are strings; plain ones are resolved as go-yaml v2 does;
/// an explicit standard tag decides.
fn scalar(
    s: &str,
    style: TScalarStyle,
    tag: Option<&Tag>,
    what: &str,
    mark: Marker,
) -> Result<Value> {
    if let Some(t) = tag {
        let name = if t.handle == "!!" || t.handle == "tag:yaml.org,2002:" {
            t.suffix.as_str()
        } else {
            ""
        };
        return match name {
            "str" | "binary" => Ok(Value::String(s.to_string())),
            "int" | "float" | "bool" | "null" => {
                let v = plain(s);
                let ok = matches!(
                    (name, &v),
                    ("int", Value::Number(_))
                        | ("float", Value::Number(_))
                        | ("bool", Value::Bool(_))
                        | ("null", Value::Null)
                );
                if ok {
                    Ok(v)
                } else {
                    bail!(
                        "{what}: line {}: {s:?} is not a valid !!{name}",
                        mark.line()
                    )
                }
            }
            // A local tag (`!foo`) says nothing JSON can keep: the value as if untagged.
            _ => Ok(if style == TScalarStyle::Plain {
                plain(s)
            } else {
                Value::String(s.to_string())
            }),
        };
    }
    if style != TScalarStyle::Plain {
        return Ok(Value::String(s.to_string()));
    }
    Ok(plain(s))
}

/// go-yaml v2's resolution of a plain scalar.
fn plain(s: &str) -> Value {
    match s {
        "" | "~" | "null" | "Null" | "NULL" => return Value::Null,
        "y" | "Y" | "yes" | "Yes" | "YES" | "true" | "True" | "TRUE" | "on" | "On" | "ON" => {
            return Value::Bool(true);
        }
        "n" | "N" | "no" | "No" | "NO" | "false" | "False" | "FALSE" | "off" | "Off" | "OFF" => {
            return Value::Bool(false);
        }
        _ => {}
    }
    let first = s.as_bytes()[0];
    if first.is_ascii_digit() || first == b'+' || first == b'-' || first == b'.' {
        let cleaned: String = s.chars().filter(|c| *c != '_').collect();
        if let Some(n) = resolve::parse_int(&cleaned) {
            return Value::Number(n);
        }
        if resolve::is_yaml_style_float(&cleaned)
            && let Ok(f) = cleaned.parse::<f64>()
        {
            // encoding/json writes a whole float64 as an integer (8, not 8.0).
            if f.fract() == 0.0 && f.abs() < 9.0e15 {
                return Value::Number(Number::from(f as i64));
            }
            if let Some(n) = Number::from_f64(f) {
                return Value::Number(n);
            }
        }
    }
    Value::String(s.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn one(text: &str) -> Value {
        documents(text, "t").unwrap().remove(0).value
    }

    #[test]
    fn scalars_resolve_as_go_yaml_v2() {
        let v = one(
            "a: 0644\nb: \"0644\"\nc: 0o644\nd: 0x1a4\ne: 420\nf: yes\ng: Off\nh: ~\ni: 1_000\nj: 1.5\nk: 08\nl: '1'\nm: -0b101\nlit: |\n  0644\no: 0\np: 9223372036854775808\nq: .5\nr: 1e3\ns: 0.1.2\n",
        );
        assert_eq!(
            v,
            json!({"a": 420, "b": "0644", "c": 420, "d": 420, "e": 420, "f": true, "g": false,
                   "h": null, "i": 1000, "j": 1.5, "k": 8, "l": "1", "m": -5, "lit": "0644\n",
                   "o": 0, "p": 9223372036854775808u64, "q": 0.5, "r": 1000, "s": "0.1.2"})
        );
    }

    #[test]
    fn anchors_merges_tags_keys_and_lines() {
        let docs = documents(
            "base: &b {x: 1, z: 2}\nother:\n  <<: *b\n  z: 3\nyes: 1\nt: !!str 0644\n---\nkind: List\nitems:\n- kind: Secret\n",
            "t",
        )
        .unwrap();
        assert_eq!(
            docs[0].value,
            json!({"base": {"x": 1, "z": 2}, "other": {"x": 1, "z": 3}, "true": 1, "t": "0644"})
        );
        assert_eq!(docs[1].lines.get("items[0].kind"), Some(&10));
        assert_eq!(docs[0].lines.get("other.z"), Some(&4));
        // As go-yaml v2 (and so kubectl) reads it: a key `y` is the bool true.
        assert_eq!(one("y: 1\n"), json!({"true": 1}));
        let e = documents("a: 1\na: 2\n", "f.yaml").unwrap_err().to_string();
        assert_eq!(
            e,
            "f.yaml: line 2: key \"a\" is already set in this mapping"
        );
        let e = documents("a: [1\n", "f.yaml").unwrap_err().to_string();
        assert!(e.starts_with("f.yaml is not valid YAML"), "{e}");
    }
}
