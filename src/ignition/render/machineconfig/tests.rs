use super::*;
use serde_json::json;

fn one(spec: Value) -> Result<MachineConfig> {
    let o = json!({"kind": "MachineConfig", "metadata": {"name": "50-worker-x",
        "labels": {ROLE_LABEL: "worker"}}, "spec": spec});
    machine_configs(vec![o], "in.yaml").map(|mut v| v.remove(0))
}

#[test]
fn unknown_spec_field_is_named_with_a_suggestion() {
    let e = one(json!({"kernelArgs": ["nosmt"]}))
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("MachineConfig 50-worker-x")
            && e.contains("spec.kernelArgs: not a MachineConfig field")
            && e.contains("did you mean kernelArguments?"),
        "{e}"
    );
    let e = one(json!({"fisp": true})).unwrap_err().to_string();
    assert!(e.contains("did you mean fips?"), "{e}");
    let e = one(json!({"colour": "blue"})).unwrap_err().to_string();
    assert!(
        e.contains("spec.colour") && !e.contains("did you mean"),
        "{e}"
    );
}

#[test]
fn null_means_not_set() {
    let m = one(
        json!({"config": null, "kernelArguments": null, "fips": null,
        "kernelType": null, "extensions": null, "osImageURL": null}),
    )
    .unwrap();
    assert_eq!(m.config, None);
    assert!(m.kernel_arguments.is_empty() && !m.fips && m.kernel_type.is_none());
    let m = one(
        json!({"config": {"ignition": {"version": "3.2.0"}, "storage": null,
        "systemd": {"units": [{"name": "a.service", "contents": null, "enabled": true}]}}}),
    )
    .unwrap();
    assert_eq!(
        m.config.unwrap().value,
        json!({"ignition": {"version": "3.5.0"}, "systemd": {"units": [{"name": "a.service", "enabled": true}]}}),
        "read as the MCO reads it: up to 3.5.0, nulls unset"
    );
    assert_eq!(m.written_in, Some(Spec::V3(2)));
}

#[test]
fn kernel_types_extensions_and_modes_are_checked() {
    assert_eq!(
        one(json!({"kernelType": "64k-pages"}))
            .unwrap()
            .kernel_type
            .as_deref(),
        Some("64k-pages")
    );
    assert_eq!(
        one(json!({"kernelType": "default"})).unwrap().kernel_type,
        None
    );
    let e = one(json!({"kernelType": "rt"})).unwrap_err().to_string();
    assert!(
        e.contains("\"rt\" is not one of default, realtime, 64k-pages"),
        "{e}"
    );
    let e = one(json!({"extensions": ["usbguard", "vim"]}))
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("\"vim\" is not an extension the MCO supports"),
        "{e}"
    );
    let e = one(
        json!({"config": {"ignition": {"version": "3.2.0"}, "storage": {"files": [
        {"path": "/usr/local/bin/x", "mode": 2541, "contents": {"source": "data:,x"}}]}}}),
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("/usr/local/bin/x has mode 0o4755"), "{e}");
    let e = one(json!({"fips": "yes"})).unwrap_err().to_string();
    assert!(e.contains("spec.fips: must be true or false"), "{e}");
    let e = one(json!({"kernelArguments": "nosmt"}))
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("spec.kernelArguments: must be a list of strings"),
        "{e}"
    );
}

#[test]
fn ignition_typos_are_named() {
    let e = one(json!({"config": {"ignition": {"version": "3.2.0"}, "storage": {"file": []}}}))
        .unwrap_err()
        .to_string();
    assert!(
        e.ends_with("spec.config.storage.file: Ignition spec 3.2.0 has no such field"),
        "{e}"
    );
    let e = one(json!({"config": {"ignition": {"version": "2.1.0"}}}))
        .unwrap_err()
        .to_string();
    assert!(e.contains("only as 2.2.0"), "{e}");
    let e = one(json!({"config": {"ignition": {"version": "3.6.0"}}}))
        .unwrap_err()
        .to_string();
    assert!(e.contains("3.6.0 is not one the MCO reads"), "{e}");
}

#[test]
fn modes_are_numbers_and_a_string_is_named_at_its_line() {
    // What kube::yaml made of `mode: 0644` (plain) arrives as the number 420.
    let m = one(
        json!({"config": {"ignition": {"version": "3.2.0"}, "storage": {
        "files": [{"path": "/etc/a", "mode": 420, "contents": {"source": "data:,a"}}],
        "directories": [{"path": "/etc/d", "mode": 488}]}}}),
    )
    .unwrap();
    assert_eq!(m.config.unwrap().value["storage"]["files"][0]["mode"], 420);
    // A quoted one stays a string, as it does for Kubernetes: named, with the line.
    let yaml = "kind: MachineConfig\nmetadata:\n  name: 50-worker-x\nspec:\n  config:\n    ignition:\n      version: 3.2.0\n    storage:\n      directories:\n      - path: /etc/d\n        mode: \"0750\"\n";
    let objects = crate::kube::located(yaml, "in.yaml").unwrap();
    let e = parse_all(&objects, "in.yaml").unwrap_err().to_string();
    assert_eq!(
        e,
        "in.yaml:11: MachineConfig 50-worker-x: spec.config.storage.directories[0].mode: expected an integer, got the string \"0750\": a quoted mode is a string to Kubernetes too; write it unquoted (0644, read as octal) or in decimal (420)"
    );
    let e = one(
        json!({"config": {"ignition": {"version": "3.2.0"}, "storage": {
        "files": [{"path": "/etc/a", "mode": "rw-r--r--"}]}}}),
    )
    .unwrap_err()
    .to_string();
    assert!(
        e.ends_with("a file mode is a number, 0644 in YAML (octal) or 420"),
        "{e}"
    );
}

#[test]
fn rendered_names() {
    assert_eq!(
        rendered_pool("rendered-worker-5f9c1d3b0a4e8c7f6d2b1a0e9c8d7f6a"),
        Some("worker")
    );
    assert_eq!(
        rendered_pool("rendered-infra-gpu-0123abcd"),
        Some("infra-gpu")
    );
    assert_eq!(rendered_pool("rendered-worker"), None);
    assert_eq!(rendered_pool("rendered-worker-notahash"), None);
    assert_eq!(rendered_pool("99-worker-ssh"), None);
}
