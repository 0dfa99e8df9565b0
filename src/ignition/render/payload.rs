//! What the Machine Config Server serves for a pool (`pkg/server`): the rendered config at
//! spec 3.5.0 with the kubelet CA from the ControllerConfig, then, for each request, the
//! kernel arguments moved into the MachineConfig when the client is older than spec 3.3
//! (`MigrateKernelArgsIfNecessary`), four files appended in this order, each mode 0644 with
//! overwrite true and contents as `data:,` with RFC 2396 escaping (node annotations, the
//! bootstrap kubeconfig, the MachineConfig indented four spaces, and the MachineConfig with an
//! empty Ignition config of the client's version, which `machine-config-daemon-firstboot`
//! applies), and the whole converted to the client's spec.
//!
//! `rendered/<pool>.ign` holds that answer for a spec 3.5.0 client. Everything the other
//! versions need is in it, so [`Stored::read`] takes it apart again and [`Source::serve`] runs
//! the same steps for any version.

use anyhow::{Context as _, Result, anyhow, bail};
use serde_json::{Map, Value, json};

use super::object::{Object, PRE_BUILT_IMAGE};
use crate::ignition::dataurl;
use crate::ignition::spec::validate::validate;
use crate::ignition::spec::{Config, Spec, convert};

/// The daemon's first node annotations.
pub const NODE_ANNOTATIONS: &str = "/etc/machine-config-daemon/node-annotations.json";
/// The kubelet's bootstrap kubeconfig.
pub const KUBECONFIG: &str = "/etc/kubernetes/kubeconfig";
/// The served MachineConfig.
pub const CONTENT: &str = "/etc/mcs-machine-config-content.json";
/// The MachineConfig without its Ignition config, for the daemon's firstboot.
pub const ENCAPSULATED: &str = "/etc/ignition-machine-config-encapsulated.json";
/// Every path the MCS appends.
pub const APPENDED: [&str; 4] = [NODE_ANNOTATIONS, KUBECONFIG, CONTENT, ENCAPSULATED];
/// The kube-apiserver serving CA bundle, from the ControllerConfig.
pub const KUBELET_CA: &str = "/etc/kubernetes/kubelet-ca.crt";
/// The cloud provider's CA, from the ControllerConfig.
pub const CLOUD_CA: &str =
    "/etc/kubernetes/static-pod-resources/configmaps/cloud-config/ca-bundle.pem";

/// What the MCS serves for one pool, before a client's version is known.
#[derive(Debug, Clone, PartialEq)]
pub struct Source {
    /// The rendered config (spec 3.5.0) the appended files follow.
    pub base: Config,
    /// The served MachineConfig.
    pub mc: Object,
    /// The node annotations file.
    pub annotations: Vec<u8>,
    /// The bootstrap kubeconfig, when there is one.
    pub kubeconfig: Option<Vec<u8>>,
}

/// The ControllerConfig's data the MCS adds to every config.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ControllerData {
    /// `spec.kubeAPIServerServingCAData`.
    pub kubelet_ca: Vec<u8>,
    /// `spec.cloudProviderCAData`.
    pub cloud_ca: Vec<u8>,
}

impl Source {
    /// The cluster MCS's `GetConfig` for a rendered MachineConfig whose config is `config`
    /// (already at spec 3.5.0): the ControllerConfig's CAs written in, node annotations for it
    /// (with `image` as the node's image unless the MachineConfig names a pre-built one).
    pub fn new(
        mc: Object,
        config: Config,
        ca: &ControllerData,
        kubeconfig: Option<Vec<u8>>,
        image: &str,
    ) -> Source {
        let mut base = config;
        add_data(&mut base, KUBELET_CA, &ca.kubelet_ca);
        add_data(&mut base, CLOUD_CA, &ca.cloud_ca);
        let annotations = node_annotations(&mc, image);
        Source {
            base,
            mc,
            annotations,
            kubeconfig,
        }
    }

    /// The rendered MachineConfig's name.
    pub fn name(&self) -> &str {
        self.mc.name()
    }

    /// The body for a client of `spec`, or why it cannot be served at that spec.
    pub fn serve(&self, spec: Spec) -> std::result::Result<Vec<u8>, String> {
        Ok(self.config(spec)?.to_json())
    }

    /// The config [`Source::serve`] writes for `spec`.
    pub fn config(&self, spec: Spec) -> std::result::Result<Config, String> {
        let mut config = self.base.clone();
        let mut mc = self.mc.clone();
        if spec < Spec::V3(3) {
            migrate_kernel_arguments(&mut config, &mut mc, spec)?;
        }
        append(&mut config, NODE_ANNOTATIONS, &self.annotations);
        if let Some(k) = &self.kubeconfig {
            append(&mut config, KUBECONFIG, k);
        }
        append(&mut config, CONTENT, &mc.to_indented());
        let empty = convert::to_spec(Config::empty(Spec::INTERNAL), spec)?;
        let mut encapsulated = mc;
        encapsulated.spec.config = Some(empty.to_json());
        append(&mut config, ENCAPSULATED, &encapsulated.to_json());
        convert::to_spec(config, spec)
    }
}

/// `MigrateKernelArgsIfNecessary`: Ignition kernel arguments go into the MachineConfig for a
/// client older than spec 3.3; arguments to remove have nowhere to go.
fn migrate_kernel_arguments(
    config: &mut Config,
    mc: &mut Object,
    spec: Spec,
) -> std::result::Result<(), String> {
    let Some(kargs) = config
        .value
        .as_object_mut()
        .and_then(|m| m.remove("kernelArguments"))
    else {
        return Ok(());
    };
    if kargs.get("shouldNotExist").is_some() {
        return Err(format!(
            "kernelArguments.shouldNotExist: an Ignition spec {spec} client cannot be served kernel arguments to remove, and a MachineConfig has no place for them (the MCS refuses this too: \"can't serve version {spec} with ignition KernelArguments.ShouldNotExist populated\"); clients of spec 3.3.0 and later are served"
        ));
    }
    for k in kargs["shouldExist"].as_array().into_iter().flatten() {
        mc.spec
            .kernel_arguments
            .get_or_insert_with(Vec::new)
            .push(k.as_str().unwrap_or_default().to_string());
    }
    Ok(())
}

/// `getNodeAnnotation`, as Go marshals the map (keys sorted).
fn node_annotations(mc: &Object, image: &str) -> Vec<u8> {
    let name = mc.name();
    let mut m = Map::new();
    for k in ["currentConfig", "desiredConfig", "firstPivotConfig"] {
        m.insert(
            format!("machineconfiguration.openshift.io/{k}"),
            json!(name),
        );
    }
    m.insert(
        "machineconfiguration.openshift.io/state".into(),
        json!("Done"),
    );
    let image = mc
        .annotation(PRE_BUILT_IMAGE)
        .filter(|i| !i.is_empty())
        .unwrap_or(image);
    if !image.is_empty() {
        for k in ["currentImage", "desiredImage"] {
            m.insert(
                format!("machineconfiguration.openshift.io/{k}"),
                json!(image),
            );
        }
    }
    crate::golang::json::to_vec(&Value::Object(m))
}

/// `appendFileToIgnition`.
fn append(config: &mut Config, path: &str, contents: &[u8]) {
    let file = json!({
        "overwrite": true,
        "path": path,
        "contents": { "source": dataurl::encode_escaped(contents) },
        "mode": 420,
    });
    let Some(root) = config.value.as_object_mut() else {
        return;
    };
    let storage = root.entry("storage").or_insert_with(|| json!({}));
    if let Some(files) = storage
        .as_object_mut()
        .map(|s| s.entry("files").or_insert_with(|| json!([])))
        .and_then(Value::as_array_mut)
    {
        files.push(file);
    }
}

/// `addDataAndMaybeAppendToIgnition`: the data replaces an existing file's contents, or is
/// appended when it is not empty.
fn add_data(config: &mut Config, path: &str, data: &[u8]) {
    if let Some(files) = config
        .value
        .pointer_mut("/storage/files")
        .and_then(Value::as_array_mut)
        && let Some(f) = files.iter_mut().find(|f| f["path"] == path)
    {
        if !data.is_empty() {
            f["contents"]["source"] = json!(dataurl::encode_escaped(data));
        }
        return;
    }
    if !data.is_empty() {
        append(config, path, data);
    }
}

/// A stored config, as `serve` reads it back.
#[derive(Debug, Clone)]
pub enum Stored {
    /// An MCS payload: served per version as the MCS serves it.
    Mcs(Box<Source>),
    /// Plain Ignition (the coreos flavour): converted per version.
    Plain(Config),
}

impl Stored {
    /// Reads a stored config (what this server wrote, or what a live MCS served): any spec 3
    /// version, validated as Ignition validates it. An MCS payload (its last file the
    /// encapsulated MachineConfig) is taken apart into what [`Source::serve`] needs. `what`
    /// names the file in errors.
    pub fn read(bytes: &[u8], what: &str) -> Result<Stored> {
        Stored::from_json(Stored::parse(bytes, what)?, what)
    }

    /// The JSON document in `bytes` (the first step of [`Stored::read`]).
    pub fn parse(bytes: &[u8], what: &str) -> Result<Value> {
        serde_json::from_slice(bytes).map_err(|e| anyhow!("{what} is not JSON: {e}"))
    }

    /// [`Stored::parse`] of a stream (a file too large to hold as bytes beside its document).
    pub fn parse_reader(r: impl std::io::Read, what: &str) -> Result<Value> {
        serde_json::from_reader(std::io::BufReader::with_capacity(1 << 16, r))
            .map_err(|e| anyhow!("{what} is not JSON: {e}"))
    }

    /// [`Stored::read`] of a parsed document, whose strings are moved, not copied.
    pub fn from_json(v: Value, what: &str) -> Result<Stored> {
        let (cfg, unknown) = Config::decode(v).map_err(|e| anyhow!("{what}: {e}"))?;
        if cfg.spec == Spec::V2_2 {
            bail!("{what} is a spec 2.2 config; stored configs are spec 3 (render again)");
        }
        if let Some(k) = unknown.first() {
            bail!("{what}: Ignition spec {} has no field {}", cfg.spec, k.path);
        }
        if let Some(e) = validate(&cfg).errors.first() {
            bail!("{what} is not a valid Ignition {} config: {e}", cfg.spec);
        }
        let cfg = convert::to_spec(cfg, Spec::INTERNAL).map_err(|e| anyhow!("{what}: {e}"))?;
        let files = cfg.list("/storage/files");
        let path = |f: &Value| f["path"].as_str().unwrap_or("").to_string();
        if files.last().map(path).as_deref() != Some(ENCAPSULATED) {
            return Ok(Stored::Plain(cfg));
        }
        let mut start = files.len();
        while start > 0 && APPENDED.contains(&path(&files[start - 1]).as_str()) {
            start -= 1;
        }
        let tail = &files[start..];
        let data = |p: &str| -> Result<Option<Vec<u8>>> {
            tail.iter()
                .find(|f| f["path"] == p)
                .map(|f| {
                    dataurl::decode(f["contents"]["source"].as_str().unwrap_or(""))
                        .with_context(|| format!("{what}: reading {p}"))
                })
                .transpose()
        };
        let content = data(CONTENT)?
            .ok_or_else(|| anyhow!("{what} ends in {ENCAPSULATED} but has no {CONTENT}"))?;
        let mc = Object::from_json(&content).with_context(|| format!("{what}: {CONTENT}"))?;
        mc.check(&format!("{what}: {CONTENT}"))?;
        let annotations =
            data(NODE_ANNOTATIONS)?.ok_or_else(|| anyhow!("{what} has no {NODE_ANNOTATIONS}"))?;
        let kubeconfig = data(KUBECONFIG)?;
        let mut base = cfg;
        if let Some(list) = base
            .value
            .pointer_mut("/storage/files")
            .and_then(Value::as_array_mut)
        {
            list.truncate(start);
        }
        base.normalize();
        Ok(Stored::Mcs(Box::new(Source {
            base,
            mc,
            annotations,
            kubeconfig,
        })))
    }

    /// The body for a client of `spec`, or why it cannot be served.
    pub fn serve(&self, spec: Spec) -> std::result::Result<Vec<u8>, String> {
        Ok(self.config(spec)?.to_json())
    }

    /// The config [`Stored::serve`] writes for `spec`.
    pub fn config(&self, spec: Spec) -> std::result::Result<Config, String> {
        match self {
            Stored::Mcs(s) => s.config(spec),
            Stored::Plain(c) => convert::to_spec(c.clone(), spec),
        }
    }

    /// The config every answer is made from: the plain config, or the MCS payload's base.
    pub fn held_mut(&mut self) -> &mut Config {
        match self {
            Stored::Mcs(s) => &mut s.base,
            Stored::Plain(c) => c,
        }
    }

    /// The rendered MachineConfig's name, for an MCS payload.
    pub fn name(&self) -> Option<&str> {
        match self {
            Stored::Mcs(s) => Some(s.name()),
            Stored::Plain(_) => None,
        }
    }

    /// Whether the served config writes `path` (appended files included).
    pub fn writes(&self, path: &str) -> bool {
        let in_config = |c: &Config| c.list("/storage/files").iter().any(|f| f["path"] == path);
        match self {
            Stored::Mcs(s) => match path {
                KUBECONFIG => s.kubeconfig.is_some(),
                NODE_ANNOTATIONS | CONTENT | ENCAPSULATED => true,
                _ => in_config(&s.base),
            },
            Stored::Plain(c) => in_config(c),
        }
    }
}

/// The name a payload's node annotations give, if it has them (what a live MCS served).
pub fn served_name(payload: &Value) -> Option<String> {
    let f = payload["storage"]["files"]
        .as_array()?
        .iter()
        .find(|f| f["path"] == NODE_ANNOTATIONS)?;
    let data = dataurl::decode(f["contents"]["source"].as_str()?).ok()?;
    let v: Value = serde_json::from_slice(&data).ok()?;
    v["machineconfiguration.openshift.io/currentConfig"]
        .as_str()
        .map(str::to_string)
}

/// Whether a payload writes `path`.
pub fn writes(payload: &Value, path: &str) -> bool {
    payload["storage"]["files"]
        .as_array()
        .is_some_and(|files| files.iter().any(|f| f["path"] == path))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn source(kargs: Value) -> Source {
        let mut v = json!({"ignition": {"version": "3.5.0"}, "storage": {"files": [
            {"path": "/etc/x", "overwrite": true, "contents": {"source": "data:,x"}, "mode": 420}]}});
        if !kargs.is_null() {
            v["kernelArguments"] = kargs;
        }
        let config = Config::decode(v).unwrap().0;
        let mc = Object::from_json(
            br#"{"metadata":{"name":"rendered-worker-abc"},"spec":{"osImageURL":"","baseOSExtensionsContainerImage":"","config":{"ignition":{"version":"3.5.0"}},"kernelArguments":["a"],"extensions":[],"fips":false,"kernelType":"default"}}"#,
        )
        .unwrap();
        Source::new(
            mc,
            config,
            &ControllerData {
                kubelet_ca: b"CA".to_vec(),
                cloud_ca: Vec::new(),
            },
            Some(b"kc\n".to_vec()),
            "",
        )
    }

    fn files(body: &[u8]) -> Vec<(String, Vec<u8>)> {
        let v: Value = serde_json::from_slice(body).unwrap();
        v["storage"]["files"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| {
                (
                    f["path"].as_str().unwrap().to_string(),
                    dataurl::decode(f["contents"]["source"].as_str().unwrap()).unwrap(),
                )
            })
            .collect()
    }

    #[test]
    fn appended_last_in_the_mcs_order_and_read_back_whole() {
        let s = source(Value::Null);
        let body = s.serve(Spec::V3(5)).unwrap();
        let got = files(&body);
        let paths: Vec<&str> = got.iter().map(|(p, _)| p.as_str()).collect();
        assert_eq!(
            paths,
            [
                "/etc/x",
                KUBELET_CA,
                NODE_ANNOTATIONS,
                KUBECONFIG,
                CONTENT,
                ENCAPSULATED
            ]
        );
        assert_eq!(
            String::from_utf8(got[2].1.clone()).unwrap(),
            r#"{"machineconfiguration.openshift.io/currentConfig":"rendered-worker-abc","machineconfiguration.openshift.io/desiredConfig":"rendered-worker-abc","machineconfiguration.openshift.io/firstPivotConfig":"rendered-worker-abc","machineconfiguration.openshift.io/state":"Done"}"#
        );
        let Stored::Mcs(back) = Stored::read(&body, "worker.ign").unwrap() else {
            panic!("an MCS payload");
        };
        assert_eq!(*back, s, "what serve reads back is what render wrote");
        for spec in Spec::ALL {
            assert_eq!(back.serve(spec), s.serve(spec), "{spec}");
        }
    }

    #[test]
    fn kernel_arguments_move_into_the_machine_config_below_3_3() {
        let s = source(json!({"shouldExist": ["nosmt"]}));
        let body = s.serve(Spec::V3(2)).unwrap();
        let v: Value = serde_json::from_slice(&body).unwrap();
        assert!(v.get("kernelArguments").is_none());
        let enc: Value = serde_json::from_slice(&files(&body).last().unwrap().1).unwrap();
        assert_eq!(enc["spec"]["kernelArguments"], json!(["a", "nosmt"]));
        assert_eq!(
            enc["spec"]["config"],
            json!({"ignition": {"version": "3.2.0"}})
        );
        let body = s.serve(Spec::V3(4)).unwrap();
        let v: Value = serde_json::from_slice(&body).unwrap();
        assert_eq!(v["kernelArguments"], json!({"shouldExist": ["nosmt"]}));
        let gone = source(json!({"shouldNotExist": ["quiet"]}));
        assert!(gone.serve(Spec::V3(4)).is_ok());
        let e = gone.serve(Spec::V3(2)).unwrap_err();
        assert!(e.starts_with("kernelArguments.shouldNotExist"), "{e}");
    }

    #[test]
    fn spec_2_clients_get_spec_2_2() {
        let body = source(Value::Null).serve(Spec::V2_2).unwrap();
        let v: Value = serde_json::from_slice(&body).unwrap();
        assert_eq!(v["ignition"]["version"], "2.2.0");
        assert_eq!(v["storage"]["files"][0]["filesystem"], "root");
        let enc: Value = serde_json::from_slice(&files(&body).last().unwrap().1).unwrap();
        assert_eq!(
            enc["spec"]["config"],
            json!({"ignition": {"version": "2.2.0"}})
        );
    }
}
