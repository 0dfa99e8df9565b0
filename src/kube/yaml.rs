//! YAML as Kubernetes reads it. `oc` and the API server turn YAML into JSON with
//! sigs.k8s.io/yaml, which is go-yaml v2: a YAML 1.1 reader. A plain `mode: 0644` is the octal
//! 420 there (a string to a YAML 1.2 reader), `enabled: yes` is true, `0o644` and `0x1a4` are
//! numbers, and a quoted `"0644"` stays a string. This reader resolves plain scalars by go-yaml
//! v2's rules (resolve.go: the bool and null tables, `strconv.ParseInt(plain, 0, 64)` with
//! underscores removed, its float pattern) and keeps quoted and block scalars as strings, so
//! a MachineConfig means here what it means to the cluster. It also records the line of every
//! node, so an error can point into the file the user wrote.
//!
//! Bounded as go-yaml v2 bounds it, so a small file cannot cost gigabytes: aliases may not
//! expand a document past go-yaml's ratio (`allowedAliasRatio`: once past 1,000 nodes and 100
//! aliased ones, at most 99% of the nodes may come from aliases, falling to 10% at 4 million
//! nodes), a text yields at most [`MAX_NODES`] nodes, and nesting stops at [`MAX_DEPTH`].

use std::collections::HashMap;
use std::sync::Arc;

use crate::golang::yaml::resolve;
use anyhow::{Result, anyhow, bail};
use serde_json::{Map, Number, Value};
use yaml_rust2::parser::{Event, Parser, Tag};
use yaml_rust2::scanner::{Marker, TScalarStyle};

/// One document, with the line (1-based) of each node by path (`spec.config.storage.files[0]`).
#[derive(Debug, Clone)]
pub struct Document {
    /// The JSON the API server would see.
    pub value: Value,
    /// Line of each node.
    pub lines: Arc<HashMap<String, usize>>,
}

/// The most nodes one text may yield, aliases expanded.
pub const MAX_NODES: u64 = 4_000_000;
/// The deepest nesting of mappings and sequences.
pub const MAX_DEPTH: usize = 200;

/// Parses every document of `text`. `what` names the input in errors.
pub fn documents(text: &str, what: &str) -> Result<Vec<Document>> {
    let events = events(text, what)?;
    let mut out = Vec::new();
    let mut i = 0;
    let mut count = Count::default();
    while i < events.len() {
        if events[i].0 == Event::DocumentStart {
            let mut b = Builder {
                events: &events,
                pos: i + 1,
                anchors: HashMap::new(),
                lines: HashMap::new(),
                what,
                count,
            };
            let value = b.node("")?;
            count = b.count;
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

/// The parser's events, pulled one at a time (its own `load` recurses once per nesting level,
/// so a deep enough text would overflow the stack before anything could refuse it).
fn events(text: &str, what: &str) -> Result<Vec<(Event, Marker)>> {
    let mut parser = Parser::new_from_str(text);
    let mut out = Vec::new();
    let mut depth = 0usize;
    loop {
        let (ev, mark) = parser
            .next_token()
            .map_err(|e| hint::scan_error(what, text, &e))?;
        match ev {
            Event::SequenceStart(..) | Event::MappingStart(..) => {
                depth += 1;
                if depth > MAX_DEPTH {
                    bail!(
                        "{what}: line {}: nested deeper than {MAX_DEPTH} levels: refused",
                        mark.line()
                    );
                }
            }
            Event::SequenceEnd | Event::MappingEnd => depth = depth.saturating_sub(1),
            _ => {}
        }
        let end = ev == Event::StreamEnd;
        out.push((ev, mark));
        if end {
            return Ok(out);
        }
    }
}

/// Nodes built so far, and how many of them came from aliases (go-yaml's `decodeCount` and
/// `aliasCount`).
#[derive(Debug, Default, Clone, Copy)]
struct Count {
    nodes: u64,
    aliased: u64,
}

/// go-yaml v2's `allowedAliasRatio`.
fn allowed_alias_ratio(nodes: u64) -> f64 {
    const LOW: u64 = 400_000;
    const HIGH: u64 = 4_000_000;
    match nodes {
        n if n <= LOW => 0.99,
        n if n >= HIGH => 0.10,
        n => 0.99 - 0.89 * ((n - LOW) as f64 / (HIGH - LOW) as f64),
    }
}

struct Builder<'a> {
    events: &'a [(Event, Marker)],
    pos: usize,
    /// Each anchor's value and how many nodes it holds.
    anchors: HashMap<usize, (Value, u64)>,
    lines: HashMap<String, usize>,
    what: &'a str,
    count: Count,
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

    /// Counts `n` more nodes, `aliased` of them from an alias, and refuses a text past the
    /// bounds (see the module).
    fn add(&mut self, n: u64, aliased: u64, mark: Marker) -> Result<()> {
        self.count.nodes += n;
        self.count.aliased += aliased;
        let c = self.count;
        if c.nodes > MAX_NODES {
            bail!(
                "{}: line {}: more than {MAX_NODES} YAML nodes (aliases expanded): refused",
                self.what,
                mark.line()
            );
        }
        if c.aliased > 100
            && c.nodes > 1000
            && c.aliased as f64 / c.nodes as f64 > allowed_alias_ratio(c.nodes)
        {
            bail!(
                "{}: line {}: the document contains excessive aliasing ({} of {} nodes come from aliases): refused as go-yaml refuses it",
                self.what,
                mark.line(),
                c.aliased,
                c.nodes
            );
        }
        Ok(())
    }

    /// The node starting at the next event; `path` is where it sits.
    fn node(&mut self, path: &str) -> Result<Value> {
        let (ev, mark) = self.next()?.clone();
        self.lines.insert(path.to_string(), mark.line());
        let before = self.count.nodes;
        let (value, anchor) = match ev {
            Event::Scalar(s, style, anchor, tag) => {
                self.add(1, 0, mark)?;
                (scalar(&s, style, tag.as_ref(), self.what, mark)?, anchor)
            }
            Event::Alias(id) => {
                let n = self.anchor(id, mark)?.1;
                // Counted before the copy is made: a bomb stops here, not after.
                self.add(n, n, mark)?;
                (self.anchor(id, mark)?.0.clone(), 0)
            }
            Event::SequenceStart(anchor, _) => {
                self.add(1, 0, mark)?;
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
            Event::MappingStart(anchor, _) => {
                self.add(1, 0, mark)?;
                (self.mapping(path)?, anchor)
            }
            other => bail!(
                "{}: line {}: unexpected YAML event {other:?}",
                self.what,
                mark.line()
            ),
        };
        if anchor > 0 {
            let n = self.count.nodes - before;
            self.anchors.insert(anchor, (value.clone(), n));
        }
        Ok(value)
    }

    fn anchor(&self, id: usize, mark: Marker) -> Result<&(Value, u64)> {
        self.anchors.get(&id).ok_or_else(|| {
            anyhow!(
                "{}: line {}: an alias to an anchor not defined before it",
                self.what,
                mark.line()
            )
        })
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
                Event::Alias(id) => {
                    let n = self.anchor(id, kmark)?.1;
                    self.add(n, n, kmark)?;
                    Some(key_string(&self.anchor(id, kmark)?.0))
                }
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
                        let hint = hint::second_object(path, &k);
                        bail!(
                            "{}: line {}, column {}: key {k:?} is already set in this mapping{hint}",
                            self.what,
                            kmark.line(),
                            kmark.col() + 1
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

mod hint;
#[cfg(test)]
mod tests;
