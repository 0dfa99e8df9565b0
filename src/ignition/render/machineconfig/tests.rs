use super::*;
use crate::kube::Located;
use serde_json::json;

fn read_as(spec: Value, strict: Strictness) -> Result<Read> {
    let o = json!({"kind": "MachineConfig", "metadata": {"name": "50-worker-x",
        "labels": {ROLE_LABEL: "worker"}}, "spec": spec});
    read(&[Located::bare(o)], "in.yaml", strict)
}

fn one(spec: Value) -> Result<MachineConfig> {
    read_as(spec, Strictness::AsTheMco).map(|mut r| r.mcs.remove(0))
}

fn strict(spec: Value) -> String {
    read_as(spec, Strictness::Strict).unwrap_err().to_string()
}

fn dropped(spec: Value) -> Vec<String> {
    let r = read_as(spec, Strictness::AsTheMco).unwrap();
    r.dropped.iter().map(|d| d.to_string()).collect()
}

#[test]
fn unknown_spec_fields_are_dropped_and_named_with_a_suggestion() {
    assert_eq!(
        dropped(json!({"kernelArgs": ["nosmt"], "fips": true})),
        [
            "in.yaml: MachineConfig 50-worker-x: spec.kernelArgs: not a MachineConfig field (did you mean kernelArguments?); the fields are config, kernelArguments, extensions, fips, kernelType, osImageURL, baseOSExtensionsContainerImage, neededBeforeNodeApproved; dropped, as the MCO drops it (--strict refuses it)"
        ]
    );
    let m = one(json!({"kernelArgs": ["nosmt"], "fips": true})).unwrap();
    assert!(m.kernel_arguments.is_empty() && m.fips);
    assert_eq!(
        strict(json!({"kernelArgs": ["nosmt"]})),
        "in.yaml: MachineConfig 50-worker-x: spec.kernelArgs: not a MachineConfig field (did you mean kernelArguments?); the fields are config, kernelArguments, extensions, fips, kernelType, osImageURL, baseOSExtensionsContainerImage, neededBeforeNodeApproved (--strict refuses what the MCO would drop)"
    );
    assert!(strict(json!({"fisp": true})).contains("did you mean fips?"));
    let e = strict(json!({"colour": "blue"}));
    assert!(
        e.contains("spec.colour") && !e.contains("did you mean"),
        "{e}"
    );
    // `null` is "not set", known field or not: nothing to drop.
    assert!(dropped(json!({"colour": null})).is_empty());
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
fn unknown_ignition_keys_are_dropped_as_ignition_drops_them() {
    let cfg = json!({"config": {"ignition": {"version": "3.2.0"}, "storage": {"file": [],
        "files": [{"path": "/etc/a", "Mode": 420}]}}});
    assert_eq!(
        dropped(cfg.clone()),
        [
            "in.yaml: MachineConfig 50-worker-x: spec.config.storage.file: Ignition spec 3.2.0 has no such field (did you mean files?); dropped, as the MCO drops it (--strict refuses it)"
        ]
    );
    // Go's encoding/json reads `Mode` as `mode` (no exact key): kept, and warned of as
    // Ignition warns of it.
    let m = one(cfg.clone()).unwrap();
    assert_eq!(
        m.config.unwrap().value["storage"]["files"],
        json!([{"path": "/etc/a", "mode": 420}])
    );
    assert_eq!(m.warnings.len(), 1, "{:?}", m.warnings);
    assert_eq!(m.warnings[0].path, "spec.config.storage.files[0].Mode");
    assert!(
        m.warnings[0]
            .message
            .starts_with("unused key Mode (read as mode"),
        "{:?}",
        m.warnings
    );
    assert!(
        strict(cfg).ends_with(
            "spec.config.storage.file: Ignition spec 3.2.0 has no such field (did you mean files?) (--strict refuses what the MCO would drop)"
        )
    );
    // An exact key wins over one that differs in case, which is then dropped.
    let both = one(
        json!({"config": {"ignition": {"version": "3.2.0"}, "storage": {
        "files": [{"path": "/etc/a", "mode": 384, "Mode": 420}]}}}),
    )
    .unwrap();
    assert_eq!(
        both.config.unwrap().value["storage"]["files"][0]["mode"],
        384
    );
    assert_eq!(both.dropped.len(), 1);
    // Spec 2 keys left in a spec 3 config say where their content went.
    let d = dropped(
        json!({"config": {"ignition": {"version": "3.1.0"}, "networkd": {},
        "storage": {"files": [{"path": "/etc/a", "filesystem": "root"}]}}}),
    );
    assert!(
        d[0].contains("spec.config.networkd: Ignition spec 3.1.0 has no such field (spec 2's networkd; spec 3 writes .network files under storage.files)")
            && d[1].contains("spec.config.storage.files[0].filesystem: Ignition spec 3.1.0 has no such field (spec 2's filesystem; spec 3 writes every file to the root filesystem)"),
        "{d:?}"
    );
    // A spec 2.2 config's unknown keys are dropped too (Ignition 0.x: "unrecognized key").
    let d = dropped(
        json!({"config": {"ignition": {"version": "2.2.0"}, "storage": {
        "filesystems": [{"name": "root", "mount": {"device": "/dev/sda", "format": "xfs", "wipe_filesystem": true}}]}}}),
    );
    assert_eq!(d.len(), 1, "{d:?}");
    assert!(d[0].contains("spec.config.storage.filesystems[0].mount.wipe_filesystem: Ignition spec 2.2.0 has no such field"), "{d:?}");
}

#[test]
fn only_what_a_pool_selects_is_parsed() {
    let bad_spec = json!({"config": {"ignition": {"version": "9.9.9"}}});
    let objects: Vec<Located> = [
        json!({"kind": "MachineConfig", "metadata": {"name": "99-loose"}, "spec": bad_spec}),
        json!({"kind": "MachineConfig", "metadata": {"name": "98-upper",
            "labels": {ROLE_LABEL: "Worker"}}, "spec": bad_spec}),
        json!({"kind": "MachineConfig", "metadata": {"name": "97-empty",
            "labels": {ROLE_LABEL: ""}}, "spec": bad_spec}),
        json!({"kind": "MachineConfig", "metadata": {"name": "rendered-worker-0123abcd"}, "spec": {}}),
        json!({"kind": "MachineConfig", "metadata": {"name": "50-worker",
            "labels": {ROLE_LABEL: "worker"}}, "spec": {}}),
    ]
    .into_iter()
    .map(Located::bare)
    .collect();
    let r = read(&objects, "in.yaml", Strictness::Strict).unwrap();
    let parsed: Vec<&str> = r.mcs.iter().map(|m| m.name.as_str()).collect();
    assert_eq!(parsed, ["rendered-worker-0123abcd", "50-worker"]);
    let left: Vec<String> = r.unselected.iter().map(|u| u.to_string()).collect();
    assert_eq!(
        left,
        [
            "99-loose (in.yaml: no machineconfiguration.openshift.io/role label)",
            "98-upper (in.yaml: role \"Worker\" is not a pool name, a DNS label; did you mean worker?)",
            "97-empty (in.yaml: no machineconfiguration.openshift.io/role label)",
        ]
    );
    assert_eq!(
        serde_json::to_value(&r.unselected[1]).unwrap(),
        json!({"name": "98-upper", "file": "in.yaml", "line": null, "why": "notAPoolName", "role": "Worker", "meant": "worker"})
    );
    // Names are one per object, selected or not.
    let mut twice = r.clone();
    twice.unselected.push(r.unselected[0].clone());
    let e = twice.check("in.yaml").unwrap_err().to_string();
    assert_eq!(e, "in.yaml: two MachineConfigs are named 99-loose");
}

#[test]
fn versions_the_mco_does_not_read_are_named() {
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
    let yaml = "kind: MachineConfig\nmetadata:\n  name: 50-worker-x\n  labels:\n    machineconfiguration.openshift.io/role: worker\nspec:\n  config:\n    ignition:\n      version: 3.2.0\n    storage:\n      directories:\n      - path: /etc/d\n        mode: \"0750\"\n";
    let objects = crate::kube::located(yaml, "in.yaml").unwrap();
    let e = read(&objects, "in.yaml", Strictness::AsTheMco)
        .unwrap_err()
        .to_string();
    assert_eq!(
        e,
        "in.yaml:13: MachineConfig 50-worker-x: spec.config.storage.directories[0].mode: expected an integer, got the string \"0750\": a quoted mode is a string to Kubernetes too; write it unquoted (0644, read as octal) or in decimal (420)"
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
