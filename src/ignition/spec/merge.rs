//! Ignition's `config/merge.MergeStruct`, which the MCO's `MergeMachineConfigs` calls for each
//! MachineConfig in turn: a child's plain field always replaces the parent's, a set pointer
//! replaces it, nested structs merge, lists of keyed items merge item by item (files,
//! directories and links share one key space, so a child's directory replaces a parent's file
//! at the same path; so do `shouldExist` and `shouldNotExist` kernel arguments), lists that
//! allow repeats are concatenated, and a child's HTTP header without a value removes the
//! parent's.

use std::collections::{HashMap, HashSet};

use serde_json::{Map, Value};

use super::schema::{self, Kind, Schema, Type};
use super::validate::{ignores_duplicates, key, merged_key};
use super::{Config, Spec};

/// Merges `child` into `parent` (both at the MCO's internal spec).
pub fn merge(parent: &Config, child: &Config) -> Config {
    debug_assert!(parent.spec == Spec::INTERNAL && child.spec == Spec::INTERNAL);
    let schema = schema::of(Spec::INTERNAL);
    let empty = Map::new();
    let out = merge_struct(
        parent.value.as_object().unwrap_or(&empty),
        child.value.as_object().unwrap_or(&empty),
        schema.root(),
        schema,
    );
    let mut cfg = Config {
        spec: Spec::INTERNAL,
        value: Value::Object(out),
    };
    cfg.normalize();
    cfg
}

fn item_key(kind: Kind, item: &Value) -> String {
    match kind {
        Kind::List(t) => key(t, item),
        _ => item.as_str().unwrap_or_default().to_string(),
    }
}

fn merge_struct(
    parent: &Map<String, Value>,
    child: &Map<String, Value>,
    ty: &Type,
    schema: &Schema,
) -> Map<String, Value> {
    // The child's keyed items, by (key space, key): which list holds each, and the item (a
    // key repeated within the child counts as its last occurrence).
    let mut child_items: HashMap<(String, String), (&str, &Value)> = HashMap::new();
    for f in &ty.fields {
        if !matches!(f.kind, Kind::List(_) | Kind::ListStr) || ignores_duplicates(ty.name, f.name) {
            continue;
        }
        let handle = merged_key(ty.name, f.name);
        for item in child
            .get(f.name)
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            child_items.insert((handle.clone(), item_key(f.kind, item)), (f.name, item));
        }
    }
    let mut out = Map::new();
    for f in &ty.fields {
        let (p, c) = (parent.get(f.name), child.get(f.name));
        let merged = match f.kind {
            Kind::Str | Kind::Int | Kind::Bool => c.cloned(),
            Kind::PtrStr | Kind::PtrInt | Kind::PtrBool => c.or(p).cloned(),
            Kind::PtrStruct(t) | Kind::Struct(t) => match (p, c) {
                (Some(Value::Object(pm)), Some(Value::Object(cm))) => {
                    Some(Value::Object(merge_struct(pm, cm, schema.ty(t), schema)))
                }
                (p, c) => c.or(p).cloned(),
            },
            Kind::List(_) | Kind::ListStr => {
                let pl = p.and_then(Value::as_array).map_or(&[][..], Vec::as_slice);
                let cl = c.and_then(Value::as_array).map_or(&[][..], Vec::as_slice);
                let items = if ignores_duplicates(ty.name, f.name) {
                    pl.iter().chain(cl).cloned().collect()
                } else {
                    keyed(pl, cl, f.name, f.kind, ty, schema, &child_items)
                };
                (!items.is_empty()).then_some(Value::Array(items))
            }
        };
        if let Some(v) = merged {
            out.insert(f.name.to_string(), v);
        }
    }
    out
}

fn keyed(
    parent: &[Value],
    child: &[Value],
    field: &str,
    kind: Kind,
    ty: &Type,
    schema: &Schema,
    child_items: &HashMap<(String, String), (&str, &Value)>,
) -> Vec<Value> {
    let handle = merged_key(ty.name, field);
    let mut out = Vec::with_capacity(parent.len() + child.len());
    for p in parent {
        match child_items.get(&(handle.clone(), item_key(kind, p))) {
            // The same key in another list of the space: the parent's item goes.
            Some((list, _)) if *list != field => {}
            Some((_, c)) => match kind {
                Kind::List(t) => {
                    if field == "httpHeaders" && c.get("value").is_none() {
                        continue;
                    }
                    let empty = Map::new();
                    out.push(Value::Object(merge_struct(
                        p.as_object().unwrap_or(&empty),
                        c.as_object().unwrap_or(&empty),
                        schema.ty(t),
                        schema,
                    )));
                }
                _ => out.push((*c).clone()),
            },
            None => out.push(p.clone()),
        }
    }
    let parent_keys: HashSet<String> = parent.iter().map(|p| item_key(kind, p)).collect();
    for c in child {
        if !parent_keys.contains(&item_key(kind, c)) {
            out.push(c.clone());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn cfg(v: Value) -> Config {
        let mut v = v;
        v["ignition"]["version"] = json!("3.5.0");
        Config::decode(v).unwrap().0
    }

    #[test]
    fn keyed_items_merge_and_a_directory_replaces_a_file() {
        let p = cfg(json!({"storage": {
            "files": [{"path": "/a", "mode": 420, "contents": {"source": "data:,1", "compression": "gzip"}},
                      {"path": "/b", "contents": {"source": "data:,b"}}]},
            "passwd": {"users": [{"name": "core", "sshAuthorizedKeys": ["k1"]}]},
            "kernelArguments": {"shouldExist": ["quiet"]}}));
        let c = cfg(json!({"storage": {
            "files": [{"path": "/a", "contents": {"source": "data:,2"}}],
            "directories": [{"path": "/b"}]},
            "passwd": {"users": [{"name": "core", "sshAuthorizedKeys": ["k2", "k1"]}]},
            "kernelArguments": {"shouldNotExist": ["quiet"]}}));
        let m = merge(&p, &c);
        assert_eq!(
            m.value["storage"],
            json!({"files": [{"path": "/a", "mode": 420, "contents": {"source": "data:,2", "compression": "gzip"}}],
                   "directories": [{"path": "/b"}]})
        );
        assert_eq!(
            m.value["passwd"]["users"][0]["sshAuthorizedKeys"],
            json!(["k1", "k2"])
        );
        assert_eq!(
            m.value["kernelArguments"],
            json!({"shouldNotExist": ["quiet"]})
        );
    }

    #[test]
    fn appends_concatenate_and_a_header_without_value_goes() {
        let p = cfg(
            json!({"ignition": {"config": {"merge": [{"source": "https://x",
            "httpHeaders": [{"name": "A", "value": "1"}, {"name": "B", "value": "2"}]}]}},
            "storage": {"files": [{"path": "/l", "append": [{"source": "data:,1"}]}]}}),
        );
        let c = cfg(
            json!({"ignition": {"config": {"merge": [{"source": "https://x",
            "httpHeaders": [{"name": "A"}]}]}},
            "storage": {"files": [{"path": "/l", "append": [{"source": "data:,1"}]}]}}),
        );
        let m = merge(&p, &c);
        assert_eq!(
            m.value["ignition"]["config"]["merge"][0]["httpHeaders"],
            json!([{"name": "B", "value": "2"}])
        );
        assert_eq!(
            m.value["storage"]["files"][0]["append"],
            json!([{"source": "data:,1"}, {"source": "data:,1"}])
        );
    }
}
