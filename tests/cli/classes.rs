//! One fixture per class of real MachineConfigs (tests/fixtures/machineconfigs/classes, written
//! for these tests): what the MCO renders, render renders, serve serves and the real Ignition
//! client writes to the node's disk; what the MCO refuses, render refuses naming the file, line
//! and field; what no pool selects is listed and cannot fail the render; a ControllerConfig's
//! images go into the merge and the rendered name as `MergeMachineConfigs` puts them.

use std::path::Path;

use serde_json::Value;

use crate::ignition_client::ignition_boot;
use crate::render::{encapsulated, file, read, served_name};
use crate::support::{
    Serve, assert_ignition_valid, bootstrap_kubeconfig, demo, fixture, ok, run, snapshot,
};

const OS_IMAGE: &str = "quay.io/example/rhel-coreos@sha256:1111111111111111111111111111111111111111111111111111111111111111";
const EXTENSIONS_IMAGE: &str = "quay.io/example/rhel-coreos-extensions@sha256:2222222222222222222222222222222222222222222222222222222222222222";
const DROPPED: &str = "dropped, as the MCO drops it (--strict refuses it)";

/// Copies the class fixtures `names` into `d/mcs`, a directory render reads by name.
fn inputs(d: &Path, names: &[&str]) {
    let dir = d.join("mcs");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir(&dir).unwrap();
    for n in names {
        let from = fixture(&format!("machineconfigs/classes/{n}"));
        std::fs::copy(from, dir.join(n)).unwrap();
    }
}

fn report(out: &str) -> Value {
    serde_json::from_str(out).unwrap_or_else(|e| panic!("{e}: {out}"))
}

fn pool<'a>(r: &'a Value, name: &str) -> &'a Value {
    r["pools"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["pool"] == name)
        .unwrap_or_else(|| panic!("no pool {name} in {r}"))
}

#[test]
fn every_class_the_mco_renders_renders_serves_and_boots() {
    let d = demo(&["--san", "127.0.0.1"]);
    bootstrap_kubeconfig(d.path());
    inputs(
        d.path(),
        &[
            "base.yaml",
            "spec2-leftovers.yaml",
            "spec-field-typo.yaml",
            "unlabelled.yaml",
            "json-stream.json",
            "arbiter.yaml",
            "controller-config.yaml",
        ],
    );
    let (code, out, err) = run(
        d.path(),
        &[
            "render",
            "--machine-configs",
            "mcs",
            "--bootstrap-kubeconfig",
            "kubeconfig",
            "--format",
            "json",
        ],
    );
    assert_eq!(code, 0, "{err}");
    let warnings: Vec<&str> = err.lines().filter(|l| l.starts_with("warning:")).collect();
    let expected = [
        format!(
            "warning: mcs/spec-field-typo.yaml:9: MachineConfig 05-worker-kargs: spec.kernelArgs: not a MachineConfig field (did you mean kernelArguments?); the fields are config, kernelArguments, extensions, fips, kernelType, osImageURL, baseOSExtensionsContainerImage, neededBeforeNodeApproved; {DROPPED}"
        ),
        format!(
            "warning: mcs/spec2-leftovers.yaml:13: MachineConfig 40-worker-journald: spec.config.networkd: Ignition spec 3.1.0 has no such field (spec 2's networkd; spec 3 writes .network files under storage.files); {DROPPED}"
        ),
        format!(
            "warning: mcs/spec2-leftovers.yaml:17: MachineConfig 40-worker-journald: spec.config.storage.files[0].filesystem: Ignition spec 3.1.0 has no such field (spec 2's filesystem; spec 3 writes every file to the root filesystem); {DROPPED}"
        ),
    ];
    assert_eq!(warnings, expected, "{err}");
    let r = report(&out);
    assert_eq!(r["controllerConfig"], "mcs/controller-config.yaml");
    assert_eq!(
        r["unselected"],
        serde_json::json!([{"name": "99-unlabelled-scratch", "file": "mcs/unlabelled.yaml",
            "line": 6, "why": "noRoleLabel"}])
    );
    // The worker pool: every labelled worker config, in the MCO's order, with the
    // ControllerConfig's images; the arbiter pool: its own config alone.
    let worker = pool(&r, "worker");
    assert_eq!(
        worker["mergeOrder"],
        serde_json::json!([
            "00-worker",
            "01-worker-container-runtime",
            "05-worker-kargs",
            "40-worker-journald",
            "60-worker-motd",
            "61-worker-issue"
        ])
    );
    assert_eq!(worker["machine"]["osImageURL"], OS_IMAGE);
    assert_eq!(
        pool(&r, "arbiter")["mergeOrder"],
        serde_json::json!(["50-arbiter-scheduler"])
    );
    let rendered = d.path().join("mcs-assets/rendered/worker.ign");
    assert_ignition_valid(&rendered);
    assert_ignition_valid(&d.path().join("mcs-assets/rendered/arbiter.ign"));
    let config = read(&rendered);
    assert!(config.get("networkd").is_none(), "dropped: {config}");
    let enc = encapsulated(&config);
    assert_eq!(enc["spec"]["osImageURL"], OS_IMAGE);
    assert_eq!(
        enc["spec"]["baseOSExtensionsContainerImage"],
        EXTENSIONS_IMAGE
    );
    assert_eq!(
        enc["metadata"]["annotations"]["machineconfiguration.openshift.io/release-image-version"],
        "4.20.0-example"
    );
    assert_eq!(
        file(&config, "/etc/kubernetes/kubelet-ca.crt"),
        b"kubelet ca from the controller config\n"
    );
    // A node booted by the real Ignition client through serve gets every file.
    let s = Serve::start(d.path(), &[]);
    let url = format!("https://127.0.0.1:{}/config/worker", s.addr.port());
    ok(
        d.path(),
        &[
            "pointer", "--pool", "worker", "--url", &url, "--output", "node.ign", "--force", "-q",
        ],
    );
    let Some(node) = ignition_boot(&d.path().join("node.ign")) else {
        return;
    };
    assert!(node.success, "{}", node.log);
    assert_eq!(
        node.read("/etc/systemd/journald.conf.d/50-retention.conf"),
        b"[Journal]\nMaxRetentionSec=7day\n"
    );
    assert_eq!(
        node.mode("/etc/systemd/journald.conf.d/50-retention.conf"),
        0o644
    );
    assert_eq!(node.read("/etc/motd.d/60-cluster"), b"welcome\n");
    assert_eq!(node.read("/etc/issue.d/61-cluster.issue"), b"node\n");
    assert!(!node.has("/etc/scratch") && !node.has("/etc/udev/rules.d/60-arbiter-scheduler.rules"));
    let anno = node.json("/etc/machine-config-daemon/node-annotations.json");
    assert_eq!(
        anno["machineconfiguration.openshift.io/currentConfig"],
        served_name(&config).as_str()
    );
}

#[test]
fn a_controller_configs_images_are_merged_and_named_as_the_mco_names_them() {
    let d = demo(&[]);
    bootstrap_kubeconfig(d.path());
    let render = |extra: &[&str]| {
        let mut args = vec![
            "render",
            "--machine-configs",
            "mcs",
            "--bootstrap-kubeconfig",
            "kubeconfig",
            "--format",
            "json",
            "--replace",
        ];
        args.extend_from_slice(extra);
        run(d.path(), &args)
    };
    // Without one: said, with where to get it; the image stays empty.
    inputs(d.path(), &["base.yaml"]);
    let (code, out, err) = render(&[]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("warning: 2 MachineConfig(s) generated by the controller (00-worker, 01-worker-container-runtime) take the OS image from the ControllerConfig, and none was given: osImageURL stays empty (firstboot will not pivot to the cluster's OS) and the rendered names are not the cluster's. Add the ControllerConfig (`oc get controllerconfig machine-config-controller -o yaml`) to the inputs or pass --controller-config FILE, or render --from-cluster\n"),
        "{err}"
    );
    let without = report(&out);
    assert_eq!(pool(&without, "worker")["machine"]["osImageURL"], "");
    // With one, from the flag.
    let cc = fixture("machineconfigs/classes/controller-config.yaml");
    let (code, out, err) = render(&["--controller-config", cc.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(!err.contains("generated by the controller"), "{err}");
    let with = report(&out);
    let named = pool(&with, "worker")["renderedName"]
        .as_str()
        .unwrap()
        .to_string();
    assert_ne!(
        named,
        pool(&without, "worker")["renderedName"].as_str().unwrap()
    );
    assert_eq!(pool(&with, "worker")["machine"]["osImageURL"], OS_IMAGE);
    // The name is the hash of the merged spec, images included: the same MachineConfigs made by
    // hand (not generated) with the images set by a last MachineConfig hash to the same name.
    let by_hand = std::fs::read_to_string(fixture("machineconfigs/classes/base.yaml"))
        .unwrap()
        .replace(
            "annotations: {machineconfiguration.openshift.io/generated-by-controller-version: 0123456789abcdef0123456789abcdef01234567}",
            "annotations: {}",
        );
    inputs(d.path(), &[]);
    std::fs::write(d.path().join("mcs/base.yaml"), by_hand).unwrap();
    std::fs::write(
        d.path().join("mcs/zz-images.yaml"),
        format!("apiVersion: machineconfiguration.openshift.io/v1\nkind: MachineConfig\nmetadata:\n  name: 99-worker-images\n  labels: {{machineconfiguration.openshift.io/role: worker}}\nspec:\n  osImageURL: {OS_IMAGE}\n  baseOSExtensionsContainerImage: {EXTENSIONS_IMAGE}\n"),
    )
    .unwrap();
    let (code, out, err) = render(&[]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        pool(&report(&out), "worker")["renderedName"],
        named.as_str()
    );
    // A MachineConfig the controller did not generate overrides the ControllerConfig's image.
    inputs(d.path(), &["base.yaml", "controller-config.yaml"]);
    std::fs::write(
        d.path().join("mcs/zz-images.yaml"),
        "apiVersion: machineconfiguration.openshift.io/v1\nkind: MachineConfig\nmetadata:\n  name: 99-worker-image\n  labels: {machineconfiguration.openshift.io/role: worker}\nspec:\n  osImageURL: quay.io/example/custom@sha256:3333333333333333333333333333333333333333333333333333333333333333\n",
    )
    .unwrap();
    let (code, out, err) = render(&[]);
    assert_eq!(code, 0, "{err}");
    let r = report(&out);
    assert_eq!(
        pool(&r, "worker")["machine"]["osImageURL"],
        "quay.io/example/custom@sha256:3333333333333333333333333333333333333333333333333333333333333333"
    );
}

#[test]
fn a_controller_config_is_given_once_and_only_for_openshift() {
    let d = demo(&[]);
    inputs(d.path(), &["base.yaml", "controller-config.yaml"]);
    let cc = fixture("machineconfigs/classes/controller-config.yaml");
    let cc = cc.to_str().unwrap();
    let before = snapshot(&d.path().join("mcs-assets"));
    let cases: [(&[&str], i32, &str); 3] = [
        (
            &["--controller-config", cc],
            2,
            "--controller-config CC and a ControllerConfig in mcs/controller-config.yaml: give one",
        ),
        (
            &["--controller-config", "mcs/base.yaml"],
            1,
            "mcs/base.yaml holds no ControllerConfig; `oc get controllerconfig machine-config-controller -o yaml` prints it",
        ),
        (
            &["--controller-config", cc, "--for", "coreos"],
            2,
            "--controller-config is for --for openshift: a coreos node has no machine-config daemon to pivot to its OS image",
        ),
    ];
    for (extra, want, msg) in cases {
        if extra[1] == "mcs/base.yaml" {
            inputs(d.path(), &["base.yaml"]);
        }
        let mut args = vec!["render", "--machine-configs", "mcs"];
        args.extend_from_slice(extra);
        let (code, _, err) = run(d.path(), &args);
        assert_eq!(code, want, "{err}");
        assert_eq!(err, format!("error: {}\n", msg.replace("CC", cc)));
        assert_eq!(
            snapshot(&d.path().join("mcs-assets")),
            before,
            "nothing written"
        );
    }
    // Both are about MachineConfig inputs; a cluster snapshot or a live server has none.
    for flag in [&["--strict"][..], &["--controller-config", cc]] {
        let mut args = vec!["render", "--from-cluster", "snapshot.yaml"];
        args.extend_from_slice(flag);
        let (code, _, err) = run(d.path(), &args);
        assert_eq!(code, 2, "{err}");
        assert!(
            err.starts_with("error: the argument '--from-cluster <PATH>' cannot be used with ")
                && err.contains(flag[0]),
            "{err}"
        );
    }
}

#[test]
fn what_the_mco_refuses_is_refused_naming_the_field() {
    let d = demo(&["--for", "coreos"]);
    let cases = [
        (
            "invalid-mode-decimal.yaml",
            "mcs/invalid-mode-decimal.yaml:15: MachineConfig 90-worker-mode: spec.config.storage.files[0].mode: file /etc/example.txt has mode 0o1204 (decimal 644: did you mean 0644, which YAML reads as octal?); the MCO allows at most 0o777 (no setuid, setgid or sticky bit)",
        ),
        (
            "invalid-string-number.yaml",
            "mcs/invalid-string-number.yaml:17: MachineConfig 98-worker-var: spec.config.storage.disks[0].partitions[0].sizeMiB: expected an integer, got the string \"<size>\"",
        ),
        (
            "invalid-no-version.yaml",
            "mcs/invalid-no-version.yaml:9: MachineConfig 99-worker-keys: spec.config.ignition.version: missing or not a version: an Ignition config starts with ignition.version (3.0.0 to 3.5.0, or 2.2.0); the MCO refuses it too (\"invalid version\")",
        ),
        (
            "invalid-v22-not-root.yaml",
            "mcs/invalid-v22-not-root.yaml:9: MachineConfig 50-worker-data: spec.config: (Ignition 2.2.0) Config defined filesystem \"data\" but no mapping was defined.Please specify a path to be used as the filesystem mountpoint.",
        ),
        (
            "invalid-path-under-contents.yaml",
            "mcs/invalid-path-under-contents.yaml:15: MachineConfig 99-worker-rules: spec.config.storage.files[0].path: path not specified (path is at spec.config.storage.files[0].contents.path, where Ignition has no such field: indented one level too deep?)",
        ),
    ];
    for (name, want) in cases {
        inputs(d.path(), &["base.yaml", name]);
        let before = snapshot(&d.path().join("mcs-assets"));
        let (code, _, err) = run(d.path(), &["render", "--machine-configs", "mcs"]);
        assert_eq!(code, 1, "{name}: {err}");
        assert_eq!(err, format!("error: {want}\n"), "{name}");
        assert_eq!(
            snapshot(&d.path().join("mcs-assets")),
            before,
            "{name}: nothing written"
        );
    }
}
