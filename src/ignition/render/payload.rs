//! What the Machine Config Server serves for a pool, beyond the merged Ignition config. As
//! machine-config-operator `pkg/server` (`getAppenders`) does, four files are appended last, in
//! this order, each mode 0644 with overwrite true and contents as `data:,` with RFC 2396
//! escaping: the node annotations the daemon starts from, the bootstrap kubeconfig the kubelet
//! sends its CSR with, the served MachineConfig as JSON (indented four spaces), and the
//! MachineConfig with an empty Ignition config (compact), which
//! `machine-config-daemon-firstboot.service` applies: kernel arguments, FIPS, kernel type,
//! extensions, the OS image.

use anyhow::{Result, bail};
use serde::Serialize;
use serde_json::{Value, json};

use super::merge::Merged;
use crate::ignition::dataurl;

/// The daemon's first node annotations.
pub const NODE_ANNOTATIONS: &str = "/etc/machine-config-daemon/node-annotations.json";
/// The kubelet's bootstrap kubeconfig.
pub const KUBECONFIG: &str = "/etc/kubernetes/kubeconfig";
/// The served MachineConfig.
pub const CONTENT: &str = "/etc/mcs-machine-config-content.json";
/// The MachineConfig without its Ignition config, for the daemon's firstboot.
pub const ENCAPSULATED: &str = "/etc/ignition-machine-config-encapsulated.json";
/// Every path the MCS appends; a MachineConfig that writes one would make a duplicate entry.
pub const APPENDED: [&str; 4] = [NODE_ANNOTATIONS, KUBECONFIG, CONTENT, ENCAPSULATED];

/// The rendered MachineConfig object of a merge, as the MCO's render controller creates it.
pub fn machine_config(name: &str, merged: &Merged) -> Value {
    let mut spec = json!({
        "osImageURL": merged.os_image_url,
        "config": merged.config,
        "kernelArguments": merged.kernel_arguments,
        "extensions": merged.extensions,
        "fips": merged.fips,
        "kernelType": merged.kernel_type,
    });
    if let Some(image) = &merged.extensions_image {
        spec["baseOSExtensionsContainerImage"] = image.clone().into();
    }
    json!({
        "apiVersion": "machineconfiguration.openshift.io/v1",
        "kind": "MachineConfig",
        "metadata": { "name": name },
        "spec": spec,
    })
}

/// The MCS payload: `ignition` (the merged config) with the four files appended. `mc` is the
/// served MachineConfig; `kubeconfig`, when there is none yet, is left out (the MCS does the
/// same without a kubeconfig source) and the caller warns.
pub fn openshift(
    ignition: &Value,
    mc: &Value,
    name: &str,
    kubeconfig: Option<&[u8]>,
) -> Result<Value> {
    let mut out = ignition.clone();
    if let Some(p) = out["storage"]["files"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|f| f["path"].as_str())
        .find(|p| APPENDED.contains(p))
    {
        bail!("the config already writes {p}, which the MCS appends itself");
    }
    let version = out["ignition"]["version"].clone();
    append(&mut out, NODE_ANNOTATIONS, &node_annotations(name));
    if let Some(k) = kubeconfig {
        append(&mut out, KUBECONFIG, k);
    }
    append(&mut out, CONTENT, &indented(mc)?);
    let mut encapsulated = mc.clone();
    encapsulated["spec"]["config"] = json!({ "ignition": { "version": version } });
    append(&mut out, ENCAPSULATED, &serde_json::to_vec(&encapsulated)?);
    Ok(out)
}

/// `{"…/currentConfig": name, "…/desiredConfig": name, "…/state": "Done"}`, compact, keys
/// sorted as Go's json.Marshal sorts a map.
pub fn node_annotations(name: &str) -> Vec<u8> {
    let v = json!({
        "machineconfiguration.openshift.io/currentConfig": name,
        "machineconfiguration.openshift.io/desiredConfig": name,
        "machineconfiguration.openshift.io/state": "Done",
    });
    serde_json::to_vec(&v).unwrap_or_default()
}

/// JSON indented with four spaces, as Go's `json.MarshalIndent(mc, "", "    ")`.
fn indented(v: &Value) -> Result<Vec<u8>> {
    let mut out = Vec::new();
    let fmt = serde_json::ser::PrettyFormatter::with_indent(b"    ");
    let mut ser = serde_json::Serializer::with_formatter(&mut out, fmt);
    v.serialize(&mut ser)?;
    Ok(out)
}

/// Appends a file as the MCS's `appendFileToIgnition` does.
fn append(config: &mut Value, path: &str, contents: &[u8]) {
    let file = json!({
        "path": path,
        "contents": { "source": dataurl::encode_escaped(contents) },
        "mode": 420,
        "overwrite": true,
    });
    match config
        .pointer_mut("/storage/files")
        .and_then(Value::as_array_mut)
    {
        Some(files) => files.push(file),
        None => config["storage"]["files"] = json!([file]),
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

    fn file(payload: &Value, path: &str) -> (Vec<u8>, Value) {
        let f = payload["storage"]["files"]
            .as_array()
            .unwrap()
            .iter()
            .find(|f| f["path"] == path)
            .unwrap()
            .clone();
        (
            dataurl::decode(f["contents"]["source"].as_str().unwrap()).unwrap(),
            f,
        )
    }

    #[test]
    fn four_files_appended_last_in_the_mcs_order() {
        let merged = Merged {
            config: json!({"ignition": {"version": "3.2.0"}, "storage": {"files": [
                {"path": "/etc/motd", "contents": {"source": "data:,hi"}, "overwrite": true}]}}),
            fips: true,
            kernel_type: "realtime".into(),
            kernel_arguments: vec!["nosmt".into()],
            extensions: vec!["usbguard".into()],
            os_image_url: "quay.io/os@sha256:1".into(),
            extensions_image: None,
        };
        let mc = machine_config("rendered-worker-abc", &merged);
        let out = openshift(&merged.config, &mc, "rendered-worker-abc", Some(b"kc\n")).unwrap();
        let paths: Vec<&str> = out["storage"]["files"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f["path"].as_str().unwrap())
            .collect();
        assert_eq!(
            paths,
            [
                "/etc/motd",
                NODE_ANNOTATIONS,
                KUBECONFIG,
                CONTENT,
                ENCAPSULATED
            ]
        );
        let (anno, f) = file(&out, NODE_ANNOTATIONS);
        assert_eq!(
            String::from_utf8(anno).unwrap(),
            r#"{"machineconfiguration.openshift.io/currentConfig":"rendered-worker-abc","machineconfiguration.openshift.io/desiredConfig":"rendered-worker-abc","machineconfiguration.openshift.io/state":"Done"}"#
        );
        assert_eq!(
            (f["mode"].as_u64(), f["overwrite"].as_bool()),
            (Some(420), Some(true))
        );
        assert!(
            f["contents"]["source"]
                .as_str()
                .unwrap()
                .starts_with("data:,%7B%22machine")
        );
        assert_eq!(file(&out, KUBECONFIG).0, b"kc\n");
        let (content, _) = file(&out, CONTENT);
        let content_text = String::from_utf8(content).unwrap();
        assert!(
            content_text.starts_with("{\n    \"apiVersion\""),
            "{content_text}"
        );
        let content: Value = serde_json::from_str(&content_text).unwrap();
        assert_eq!(content["spec"]["config"], merged.config);
        let (enc, _) = file(&out, ENCAPSULATED);
        let enc: Value = serde_json::from_slice(&enc).unwrap();
        assert_eq!(
            enc["spec"]["config"],
            json!({"ignition": {"version": "3.2.0"}})
        );
        assert_eq!(enc["spec"]["fips"], true);
        assert_eq!(enc["spec"]["kernelType"], "realtime");
        assert_eq!(enc["spec"]["kernelArguments"], json!(["nosmt"]));
        assert_eq!(enc["spec"]["extensions"], json!(["usbguard"]));
        assert_eq!(enc["spec"]["osImageURL"], "quay.io/os@sha256:1");
        assert_eq!(served_name(&out).as_deref(), Some("rendered-worker-abc"));
        // Without a kubeconfig, three files.
        let out = openshift(&merged.config, &mc, "rendered-worker-abc", None).unwrap();
        assert!(!writes(&out, KUBECONFIG) && writes(&out, ENCAPSULATED));
    }

    #[test]
    fn a_config_that_writes_an_appended_path_is_refused() {
        let config = json!({"ignition": {"version": "3.2.0"}, "storage": {"files": [
            {"path": KUBECONFIG, "contents": {"source": "data:,x"}}]}});
        let e = openshift(&config, &json!({}), "n", None)
            .unwrap_err()
            .to_string();
        assert!(e.contains(KUBECONFIG), "{e}");
    }
}
