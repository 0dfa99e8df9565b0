//! A MachineConfig object as the MCS holds it and writes it into
//! `/etc/mcs-machine-config-content.json` and `/etc/ignition-machine-config-encapsulated.json`:
//! the openshift/api Go types' fields in their order, empty ones left out as the MCO's
//! `clarketm/json` leaves them out (which drops `creationTimestamp` whatever it holds), and
//! `spec.config` kept as the raw JSON it was given, key order included.

use anyhow::{Result, anyhow, bail};
use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::{Map, Value};

use crate::golang::json;

/// The annotation the MCO's controllers put on the MachineConfigs they generate; their
/// `osImageURL` is ignored when merging.
pub const GENERATED_BY: &str = "machineconfiguration.openshift.io/generated-by-controller-version";
/// The release the cluster's ControllerConfig was rendered for.
pub const RELEASE_IMAGE_VERSION: &str = "machineconfiguration.openshift.io/release-image-version";
/// Set on a rendered MachineConfig whose `osImageURL` a user overrode.
pub const OS_IMAGE_URL_OVERRIDDEN: &str =
    "machineconfiguration.openshift.io/os-image-url-overridden";
/// An install-time pre-built (layered) image: the node starts on it.
pub const PRE_BUILT_IMAGE: &str = "machineconfiguration.openshift.io/pre-built-image";
/// `version.Hash` of an MCO built without its version stamped in, which is what its render
/// controller writes into [`GENERATED_BY`] then.
pub const UNSTAMPED_CONTROLLER: &str = "was-not-built-properly";

/// `MachineConfigSpec`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Spec {
    /// `osImageURL` (always written).
    pub os_image_url: String,
    /// `baseOSExtensionsContainerImage` (always written).
    pub extensions_image: String,
    /// `config`: the raw, compact JSON; `None` leaves the field out.
    pub config: Option<Vec<u8>>,
    /// `kernelArguments` (`null` when `None`).
    pub kernel_arguments: Option<Vec<String>>,
    /// `extensions` (`null` when `None`).
    pub extensions: Option<Vec<String>>,
    /// `fips`.
    pub fips: bool,
    /// `kernelType` (always written).
    pub kernel_type: String,
}

/// A `MachineConfig`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Object {
    /// `kind` (a cluster object's; empty for one the render controller made).
    pub kind: String,
    /// `apiVersion`, likewise.
    pub api_version: String,
    /// `metadata` (the `ObjectMeta` fields; anything else is dropped when written).
    pub metadata: Map<String, Value>,
    /// `spec`.
    pub spec: Spec,
}

/// The largest rendered MachineConfig the MCO creates (`MaxMachineConfigSize`, etcd's default
/// request limit of 1.5 MiB): its render controller refuses a larger one, and warns past 80%.
pub const MAX_MACHINE_CONFIG_SIZE: usize = 1_572_864;

impl Object {
    /// The MCO's size check of a rendered MachineConfig (`ValidateMachineConfigSize`): its
    /// `json.Marshal` over [`MAX_MACHINE_CONFIG_SIZE`] is an error in the MCO's words; over
    /// 80% of it, the MCO's warning.
    pub fn check_size(&self) -> Result<Option<String>> {
        let size = self.to_json().len();
        let max = MAX_MACHINE_CONFIG_SIZE;
        if size > max {
            bail!(
                "rendered MachineConfig {} is too large ({size} bytes, max {max} bytes). This will exceed etcd's size limit. Consider reducing the number or size of MachineConfigs, particularly large registry mirror configurations (ImageDigestMirrorSet/ImageContentSourcePolicy)",
                self.name()
            );
        }
        let percent = size as f64 / max as f64 * 100.0;
        Ok((size > max * 4 / 5).then(|| {
            format!(
                "MachineConfig {} is approaching size limit: {size} bytes ({percent:.2}% of {max} byte limit). Consider reducing MachineConfig size to avoid hitting the limit.",
                self.name()
            )
        }))
    }

    /// `metadata.name`.
    pub fn name(&self) -> &str {
        self.metadata
            .get("name")
            .and_then(Value::as_str)
            .unwrap_or("")
    }

    /// An annotation's value.
    pub fn annotation(&self, key: &str) -> Option<&str> {
        self.metadata
            .get("annotations")
            .and_then(|a| a.get(key))
            .and_then(Value::as_str)
    }

    /// Reads an object given as a JSON value (a cluster's, from `oc get -o yaml|json`):
    /// `spec.config` is written back with its keys sorted, as the API server's YAML-to-JSON
    /// conversion leaves them.
    pub fn from_value(v: &Value) -> Result<Object> {
        let raw = serde_json::to_string(v)?;
        let mut o = Object::from_json(raw.as_bytes())?;
        if let Some(c) = v
            .get("spec")
            .and_then(|s| s.get("config"))
            .filter(|c| !c.is_null())
        {
            o.spec.config = Some(json::to_vec(c));
        }
        Ok(o)
    }

    /// Reads an object from JSON (the MCS's own content file), keeping `spec.config` as
    /// written.
    pub fn from_json(bytes: &[u8]) -> Result<Object> {
        #[derive(Deserialize, Default)]
        #[serde(default, rename_all = "camelCase")]
        struct RawSpec<'a> {
            #[serde(rename = "osImageURL")]
            os_image_url: Option<String>,
            #[serde(rename = "baseOSExtensionsContainerImage")]
            extensions_image: Option<String>,
            #[serde(borrow)]
            config: Option<&'a RawValue>,
            kernel_arguments: Option<Vec<String>>,
            extensions: Option<Vec<String>>,
            fips: Option<bool>,
            kernel_type: Option<String>,
        }
        #[derive(Deserialize)]
        #[serde(rename_all = "camelCase")]
        struct RawObject<'a> {
            #[serde(default)]
            kind: Option<String>,
            #[serde(default)]
            api_version: Option<String>,
            #[serde(default)]
            metadata: Option<Map<String, Value>>,
            #[serde(borrow, default)]
            spec: Option<RawSpec<'a>>,
        }
        let o: RawObject<'_> = serde_json::from_slice(bytes)
            .map_err(|e| anyhow!("not a MachineConfig object: {e}"))?;
        let spec = o.spec.unwrap_or_default();
        let config = match spec.config {
            Some(r) if r.get() != "null" => Some(json::compact(r.get().as_bytes())),
            _ => None,
        };
        Ok(Object {
            kind: o.kind.unwrap_or_default(),
            api_version: o.api_version.unwrap_or_default(),
            metadata: o.metadata.unwrap_or_default(),
            spec: Spec {
                os_image_url: spec.os_image_url.unwrap_or_default(),
                extensions_image: spec.extensions_image.unwrap_or_default(),
                config,
                kernel_arguments: spec.kernel_arguments,
                extensions: spec.extensions,
                fips: spec.fips.unwrap_or(false),
                kernel_type: spec.kernel_type.unwrap_or_default(),
            },
        })
    }

    /// The object as `json.Marshal` writes it.
    pub fn to_json(&self) -> Vec<u8> {
        let mut out = Vec::new();
        out.push(b'{');
        let mut fields = Fields::new(&mut out);
        if !self.kind.is_empty() {
            fields.str("kind", &self.kind);
        }
        if !self.api_version.is_empty() {
            fields.str("apiVersion", &self.api_version);
        }
        let mut meta = Vec::new();
        if metadata(&self.metadata, &mut meta) {
            fields.raw("metadata", &meta);
        }
        let mut spec = Vec::new();
        self.spec.write(&mut spec);
        fields.raw("spec", &spec);
        out.push(b'}');
        out
    }

    /// The object as `json.MarshalIndent(mc, "", "    ")` writes it.
    pub fn to_indented(&self) -> Vec<u8> {
        json::indent(&self.to_json(), "", "    ")
    }

    /// Checks that an object read from a file is what it should be.
    pub fn check(&self, what: &str) -> Result<()> {
        if self.name().is_empty() {
            bail!("{what}: the MachineConfig has no metadata.name");
        }
        Ok(())
    }
}

impl Spec {
    fn write(&self, out: &mut Vec<u8>) {
        out.push(b'{');
        let mut f = Fields::new(out);
        f.str("osImageURL", &self.os_image_url);
        f.str("baseOSExtensionsContainerImage", &self.extensions_image);
        if let Some(c) = &self.config {
            f.raw("config", c);
        }
        f.strings("kernelArguments", self.kernel_arguments.as_deref());
        f.strings("extensions", self.extensions.as_deref());
        f.raw("fips", if self.fips { b"true" } else { b"false" });
        f.str("kernelType", &self.kernel_type);
        out.push(b'}');
    }
}

/// Writes `"key":value` pairs with commas between them.
struct Fields<'a> {
    out: &'a mut Vec<u8>,
    first: bool,
}

impl<'a> Fields<'a> {
    fn new(out: &'a mut Vec<u8>) -> Fields<'a> {
        Fields { out, first: true }
    }

    fn key(&mut self, k: &str) {
        if !self.first {
            self.out.push(b',');
        }
        self.first = false;
        json::push_str(self.out, k);
        self.out.push(b':');
    }

    fn str(&mut self, k: &str, v: &str) {
        self.key(k);
        json::push_str(self.out, v);
    }

    fn raw(&mut self, k: &str, v: &[u8]) {
        self.key(k);
        self.out.extend_from_slice(v);
    }

    fn value(&mut self, k: &str, v: &Value) {
        self.key(k);
        json::push_value(self.out, v);
    }

    fn strings(&mut self, k: &str, v: Option<&[String]>) {
        self.key(k);
        match v {
            None => self.out.extend_from_slice(b"null"),
            Some(items) => {
                self.out.push(b'[');
                for (i, s) in items.iter().enumerate() {
                    if i > 0 {
                        self.out.push(b',');
                    }
                    json::push_str(self.out, s);
                }
                self.out.push(b']');
            }
        }
    }
}

fn empty(v: &Value) -> bool {
    match v {
        Value::Null => true,
        Value::String(s) => s.is_empty(),
        Value::Number(n) => n.as_f64() == Some(0.0),
        Value::Bool(b) => !b,
        Value::Array(a) => a.is_empty(),
        Value::Object(m) => m.is_empty(),
    }
}

/// `ObjectMeta` in Go's field order, every field `omitempty`; `creationTimestamp` never
/// appears (clarketm/json finds no exported field in `metav1.Time`, so it counts as empty).
/// Returns whether anything was written.
fn metadata(m: &Map<String, Value>, out: &mut Vec<u8>) -> bool {
    out.push(b'{');
    let mut f = Fields::new(out);
    for k in [
        "name",
        "generateName",
        "namespace",
        "selfLink",
        "uid",
        "resourceVersion",
        "generation",
        "deletionTimestamp",
        "deletionGracePeriodSeconds",
        "labels",
        "annotations",
    ] {
        if let Some(v) = m
            .get(k)
            .filter(|v| !empty(v) || k == "deletionTimestamp" && !v.is_null())
        {
            f.value(k, v);
        }
    }
    if let Some(refs) = m
        .get("ownerReferences")
        .and_then(Value::as_array)
        .filter(|a| !a.is_empty())
    {
        let buf = owner_references(refs);
        f.raw("ownerReferences", &buf);
    }
    if let Some(v) = m.get("finalizers").filter(|v| !empty(v)) {
        f.value("finalizers", v);
    }
    if let Some(entries) = m
        .get("managedFields")
        .and_then(Value::as_array)
        .filter(|a| !a.is_empty())
    {
        let buf = managed_fields(entries);
        f.raw("managedFields", &buf);
    }
    let wrote = !f.first;
    out.push(b'}');
    wrote
}

/// `[]OwnerReference` in Go's field order.
fn owner_references(refs: &[Value]) -> Vec<u8> {
    let mut buf = Vec::new();
    buf.push(b'[');
    for (i, r) in refs.iter().enumerate() {
        if i > 0 {
            buf.push(b',');
        }
        buf.push(b'{');
        let mut g = Fields::new(&mut buf);
        for k in ["apiVersion", "kind", "name", "uid"] {
            g.str(k, r.get(k).and_then(Value::as_str).unwrap_or(""));
        }
        for k in ["controller", "blockOwnerDeletion"] {
            if let Some(b) = r.get(k).filter(|v| v.is_boolean()) {
                g.value(k, b);
            }
        }
        buf.push(b'}');
    }
    buf.push(b']');
    buf
}

/// `[]ManagedFieldsEntry` in Go's field order, `omitempty` but for fieldsV1.
fn managed_fields(entries: &[Value]) -> Vec<u8> {
    let mut buf = Vec::new();
    buf.push(b'[');
    for (i, e) in entries.iter().enumerate() {
        if i > 0 {
            buf.push(b',');
        }
        buf.push(b'{');
        let mut g = Fields::new(&mut buf);
        for k in [
            "manager",
            "operation",
            "apiVersion",
            "time",
            "fieldsType",
            "fieldsV1",
            "subresource",
        ] {
            if let Some(v) = e
                .get(k)
                .filter(|v| !v.is_null() && (k == "fieldsV1" || !empty(v)))
            {
                g.value(k, v);
            }
        }
        buf.push(b'}');
    }
    buf.push(b']');
    buf
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn written_in_go_order_with_the_raw_config_as_given() {
        let content = br#"{
    "metadata": {
        "name": "rendered-worker-1",
        "annotations": {"b": "2", "a": "1"},
        "ownerReferences": [{"apiVersion": "v1", "kind": "MachineConfigPool", "name": "worker", "uid": "", "controller": true, "blockOwnerDeletion": true}],
        "creationTimestamp": "2026-01-01T00:00:00Z"
    },
    "spec": {"osImageURL": "", "config": {"ignition": {"version": "3.5.0"}, "storage": {"files": [{"path": "/a", "contents": {"source": "data:,<"}}]}},
             "kernelArguments": ["x"], "extensions": [], "fips": false, "kernelType": "default"}
}"#;
        let o = Object::from_json(content).unwrap();
        assert_eq!(o.name(), "rendered-worker-1");
        assert_eq!(
            String::from_utf8(o.to_json()).unwrap(),
            r#"{"metadata":{"name":"rendered-worker-1","annotations":{"a":"1","b":"2"},"ownerReferences":[{"apiVersion":"v1","kind":"MachineConfigPool","name":"worker","uid":"","controller":true,"blockOwnerDeletion":true}]},"spec":{"osImageURL":"","baseOSExtensionsContainerImage":"","config":{"ignition":{"version":"3.5.0"},"storage":{"files":[{"path":"/a","contents":{"source":"data:,\u003c"}}]}},"kernelArguments":["x"],"extensions":[],"fips":false,"kernelType":"default"}}"#
        );
        let indented = String::from_utf8(o.to_indented()).unwrap();
        assert!(
            indented.starts_with("{\n    \"metadata\": {\n        \"name\""),
            "{indented}"
        );
    }

    #[test]
    fn a_cluster_object_keeps_kind_and_sorts_its_config() {
        let v = json!({"apiVersion": "machineconfiguration.openshift.io/v1", "kind": "MachineConfig",
            "metadata": {"name": "rendered-worker-2", "uid": "u"},
            "spec": {"config": {"storage": {"files": [{"path": "/a", "mode": 420}]}, "ignition": {"version": "3.4.0"}}}});
        let o = Object::from_value(&v).unwrap();
        assert_eq!(
            String::from_utf8(o.to_json()).unwrap(),
            r#"{"kind":"MachineConfig","apiVersion":"machineconfiguration.openshift.io/v1","metadata":{"name":"rendered-worker-2","uid":"u"},"spec":{"osImageURL":"","baseOSExtensionsContainerImage":"","config":{"ignition":{"version":"3.4.0"},"storage":{"files":[{"mode":420,"path":"/a"}]}},"kernelArguments":null,"extensions":null,"fips":false,"kernelType":""}}"#
        );
    }
}
