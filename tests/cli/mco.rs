//! render as the MCO and MCS do it, through the command: the MachineConfig rules on the worker
//! fixture, each refusal naming its MachineConfig, spec 2.2 conversion, a cluster's rendered
//! MachineConfig served under its own name, the coreos flavour, the bootstrap kubeconfig's life
//! in the asset directory, `--from-mcs` against a running `mcsctl serve`, and what
//! `--from-cluster` refuses.

use std::path::Path;

use serde_json::{Value, json};

use crate::render::{APPENDED, encapsulated, file, paths, read, served_name};
use crate::support::{
    BOOTSTRAP_TOKEN, Serve, assert_ignition_valid, bootstrap_kubeconfig, demo, fixture, mode, ok,
    run, snapshot, tokens,
};

fn fixture_arg(name: &str) -> String {
    fixture(&format!("machineconfigs/{name}"))
        .display()
        .to_string()
}

fn rendered(d: &Path, rel: &str) -> Value {
    let p = d.join("mcs-assets/rendered").join(rel);
    assert_ignition_valid(&p);
    read(&p)
}

#[test]
fn the_worker_fixture_follows_the_mco_rules() {
    let d = demo(&[]);
    let kubeconfig = bootstrap_kubeconfig(d.path());
    let out = ok(
        d.path(),
        &[
            "render",
            "--machine-configs",
            &fixture_arg("worker.yaml"),
            "--bootstrap-kubeconfig",
            "kubeconfig",
        ],
    );
    assert!(
        out.contains("machine:      fips, kernelType realtime, kernelArguments nosmt mitigations=auto,nosmt audit=1, extensions usbguard sysstat, osImageURL quay.io/openshift-release-dev/ocp-v4.0-art-dev@sha256:2222"),
        "{out}"
    );
    assert!(
        out.contains("appended:     node annotations, bootstrap kubeconfig, MachineConfig content, encapsulated MachineConfig"),
        "{out}"
    );
    assert!(
        out.contains("credentials:  /etc/kubernetes/kubeconfig (bootstrap kubeconfig), /var/lib/kubelet/config.json (pull secret, from 00-worker) (expected before node approval)"),
        "{out}"
    );
    assert!(out.contains("pre-approval: 00-worker (1 of 5)"), "{out}");
    let w = rendered(d.path(), "worker.ign");
    let pre = rendered(d.path(), "pre-approval/worker.ign");
    let own: Vec<String> = paths(&w)
        .into_iter()
        .filter(|p| !APPENDED.contains(&p.as_str()))
        .collect();
    assert_eq!(
        own,
        [
            "/etc/kubernetes/kubelet-ca.crt",
            "/var/lib/kubelet/config.json",
            "/etc/kubernetes/kubelet.conf",
            "/etc/containers/registries.conf",
            "/etc/motd"
        ],
        "98-worker-unset's `storage: null` erased nothing"
    );
    assert_eq!(
        paths(&w)[5..],
        APPENDED,
        "appended last, in the MCS's order"
    );
    assert_eq!(file(&w, APPENDED[1]), kubeconfig.as_bytes());
    assert!(w.get("kernelArguments").is_none());
    let enc = encapsulated(&w);
    assert_eq!(enc["spec"]["fips"], true);
    assert_eq!(enc["spec"]["kernelType"], "realtime");
    assert_eq!(
        enc["spec"]["kernelArguments"],
        json!(["nosmt", "mitigations=auto,nosmt", "audit=1"])
    );
    assert_eq!(enc["spec"]["extensions"], json!(["usbguard", "sysstat"]));
    assert!(
        enc["spec"]["osImageURL"]
            .as_str()
            .unwrap()
            .ends_with("2222222222222222222222222222222222222222222222222222222222222222")
    );
    // The served MachineConfig is the merged one, its config the merged Ignition.
    let content: Value = serde_json::from_slice(&file(&w, APPENDED[2])).unwrap();
    assert_eq!(content["metadata"]["name"], served_name(&w).as_str());
    assert_eq!(
        paths(&content["spec"]["config"]),
        paths(&w)[..5],
        "the content holds the config without the appended files"
    );
    // The pre-approval subset carries the kubeconfig and the pull secret, nothing later.
    assert_eq!(file(&pre, APPENDED[1]), kubeconfig.as_bytes());
    assert!(paths(&pre).contains(&"/var/lib/kubelet/config.json".to_string()));
    assert!(!paths(&pre).contains(&"/etc/motd".to_string()));
    assert_eq!(encapsulated(&pre)["spec"]["fips"], false);
    assert_ne!(served_name(&pre), served_name(&w));
    // Same input, same names: the hash is of the content.
    let again = ok(
        d.path(),
        &["render", "--machine-configs", &fixture_arg("worker.yaml")],
    );
    assert!(again.contains(&served_name(&w)), "{again}");
}

#[test]
fn each_refusal_names_its_machine_config_and_writes_nothing() {
    let d = demo(&[]);
    let mc = |name: &str, spec: &str| {
        format!(
            "apiVersion: machineconfiguration.openshift.io/v1\nkind: MachineConfig\nmetadata:\n  name: {name}\n  labels: {{machineconfiguration.openshift.io/role: worker}}\nspec:\n{spec}\n"
        )
    };
    let cases = [
        (
            mc("50-worker-ext", "  extensions: [vim]"),
            "mc.yaml:7: MachineConfig 50-worker-ext: spec.extensions[0]: \"vim\" is not an extension the MCO supports",
        ),
        (
            mc("50-worker-kernel", "  kernelType: lowlatency"),
            "mc.yaml:7: MachineConfig 50-worker-kernel: spec.kernelType: \"lowlatency\" is not one of default, realtime, 64k-pages",
        ),
        (
            format!(
                "{}---\n{}",
                mc("10-worker-rt", "  kernelType: 64k-pages"),
                mc("20-worker-devel", "  extensions: [kernel-devel]")
            ),
            "MachineConfig 20-worker-devel asks for the kernel-devel extension, which the MCO does not support with kernelType 64k-pages (set by MachineConfig 10-worker-rt)",
        ),
        (
            mc(
                "60-worker-networkd",
                "  config:\n    ignition: {version: 2.2.0}\n    networkd:\n      units: [{name: 10-eth0.network, contents: x}]",
            ),
            "mc.yaml:7: MachineConfig 60-worker-networkd: spec.config: (Ignition 2.2.0) config includes deprecated networkd section - use Files instead",
        ),
        (
            mc(
                "60-worker-var",
                "  config:\n    ignition: {version: 2.2.0}\n    storage:\n      filesystems: [{name: var, mount: {device: /dev/sdb, format: xfs}}]\n      files: [{filesystem: var, path: /log/x, contents: {source: 'data:,x'}}]",
            ),
            "mc.yaml:7: MachineConfig 60-worker-var: spec.config: (Ignition 2.2.0) Config defined filesystem \"var\" but no mapping was defined",
        ),
        (
            mc(
                "70-worker-kubeconfig",
                "  config:\n    ignition: {version: 3.2.0}\n    storage:\n      files: [{path: /etc/kubernetes/kubeconfig, contents: {source: 'data:,x'}}]",
            ),
            "MachineConfig 70-worker-kubeconfig writes /etc/kubernetes/kubeconfig, which the MCS appends to every config itself, so Ignition would find it twice and refuse the config; pass the kubeconfig with --bootstrap-kubeconfig instead",
        ),
    ];
    let before = snapshot(d.path());
    for (yaml, expect) in cases {
        std::fs::write(d.path().join("mc.yaml"), &yaml).unwrap();
        let (code, _, err) = run(d.path(), &["render", "--machine-configs", "mc.yaml"]);
        assert_eq!(code, 1, "{expect}\n{err}");
        assert!(err.contains(expect), "expected {expect:?} in:\n{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        std::fs::remove_file(d.path().join("mc.yaml")).unwrap();
        assert_eq!(snapshot(d.path()), before, "nothing written: {expect}");
    }
}

#[test]
fn what_the_mco_drops_is_dropped_and_named_and_strict_refuses_it() {
    let d = demo(&["--for", "coreos"]);
    // A MachineConfig `oc get mc -o yaml` gives from a real cluster: spec 3 with keys left over
    // from spec 2 (the MCO's own e2e tests and openshift-docs' journald example carry them), and
    // a spec field with a typo.
    std::fs::write(
        d.path().join("mc.yaml"),
        "apiVersion: machineconfiguration.openshift.io/v1\nkind: MachineConfig\nmetadata:\n  name: 40-worker-journald\n  labels: {machineconfiguration.openshift.io/role: worker}\nspec:\n  kernelArgs: [nosmt]\n  config:\n    ignition: {version: 3.1.0}\n    networkd: {}\n    storage:\n      files:\n      - path: /etc/systemd/journald.conf\n        filesystem: root\n        mode: 0644\n        contents: {source: 'data:,Storage%3Dpersistent'}\n",
    )
    .unwrap();
    let before = snapshot(d.path());
    let (code, _, err) = run(
        d.path(),
        &["render", "--strict", "--machine-configs", "mc.yaml"],
    );
    assert_eq!(code, 1, "{err}");
    assert_eq!(
        err,
        "error: mc.yaml:7: MachineConfig 40-worker-journald: spec.kernelArgs: not a MachineConfig field (did you mean kernelArguments?); the fields are config, kernelArguments, extensions, fips, kernelType, osImageURL, baseOSExtensionsContainerImage, neededBeforeNodeApproved (--strict refuses what the MCO would drop)\n"
    );
    assert_eq!(snapshot(d.path()), before, "--strict wrote nothing");
    let (code, out, err) = run(
        d.path(),
        &["render", "--machine-configs", "mc.yaml", "--format", "json"],
    );
    assert_eq!(code, 0, "{err}");
    let warnings: Vec<&str> = err.lines().filter(|l| l.starts_with("warning:")).collect();
    assert_eq!(
        warnings,
        [
            "warning: mc.yaml:7: MachineConfig 40-worker-journald: spec.kernelArgs: not a MachineConfig field (did you mean kernelArguments?); the fields are config, kernelArguments, extensions, fips, kernelType, osImageURL, baseOSExtensionsContainerImage, neededBeforeNodeApproved; dropped, as the MCO drops it (--strict refuses it)",
            "warning: mc.yaml:10: MachineConfig 40-worker-journald: spec.config.networkd: Ignition spec 3.1.0 has no such field (spec 2's networkd; spec 3 writes .network files under storage.files); dropped, as the MCO drops it (--strict refuses it)",
            "warning: mc.yaml:14: MachineConfig 40-worker-journald: spec.config.storage.files[0].filesystem: Ignition spec 3.1.0 has no such field (spec 2's filesystem; spec 3 writes every file to the root filesystem); dropped, as the MCO drops it (--strict refuses it)",
        ]
    );
    let report: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(report["dropped"].as_array().unwrap().len(), 3, "{report}");
    assert_eq!(
        report["dropped"][0],
        serde_json::json!({"file": "mc.yaml", "line": 7, "machineConfig": "40-worker-journald",
            "field": "spec.kernelArgs", "meant": "kernelArguments",
            "problem": "not a MachineConfig field (did you mean kernelArguments?); the fields are config, kernelArguments, extensions, fips, kernelType, osImageURL, baseOSExtensionsContainerImage, neededBeforeNodeApproved"})
    );
    // Served as the MCS serves it: the file, without the keys, and valid Ignition.
    let rendered = d.path().join("mcs-assets/rendered/worker.ign");
    let r: serde_json::Value = serde_json::from_slice(&std::fs::read(&rendered).unwrap()).unwrap();
    assert_eq!(
        r["storage"]["files"][0]["path"],
        "/etc/systemd/journald.conf"
    );
    assert_eq!(r["storage"]["files"][0]["mode"], 420);
    assert!(r.get("networkd").is_none() && r["storage"]["files"][0].get("filesystem").is_none());
    assert_ignition_valid(&rendered);
}

#[test]
fn a_spec_22_machine_config_is_converted_as_the_mco_converts_it() {
    let d = demo(&[]);
    std::fs::create_dir(d.path().join("mcs")).unwrap();
    std::fs::copy(
        fixture("machineconfigs/worker.yaml"),
        d.path().join("mcs/worker.yaml"),
    )
    .unwrap();
    std::fs::copy(
        fixture("machineconfigs/legacy-2.2.yaml"),
        d.path().join("mcs/legacy.yaml"),
    )
    .unwrap();
    let out = ok(
        d.path(),
        &[
            "render",
            "--machine-configs",
            "mcs",
            "--no-bootstrap-kubeconfig",
        ],
    );
    assert!(out.contains("60-worker-legacy"), "{out}");
    let w = rendered(d.path(), "worker.ign");
    let files = w["storage"]["files"].as_array().unwrap();
    let by_path = |p: &str| files.iter().find(|f| f["path"] == p).unwrap().clone();
    let conf = by_path("/etc/legacy.conf");
    assert_eq!(conf["overwrite"], true, "2.x files overwrite");
    assert_eq!(conf["contents"]["source"], "data:,legacy%0A");
    let log = by_path("/etc/legacy.log");
    assert_eq!(log["overwrite"], false, "an appended file cannot overwrite");
    assert_eq!(log["append"], json!([{"source": "data:,appended%0A"}]));
    assert!(log.get("contents").is_none());
    let unit = w["systemd"]["units"]
        .as_array()
        .unwrap()
        .iter()
        .find(|u| u["name"] == "legacy.service")
        .unwrap()
        .clone();
    assert_eq!(unit["enabled"], true, "deprecated enable becomes enabled");
}

#[test]
fn a_clusters_rendered_machine_config_is_served_under_its_own_name() {
    let d = demo(&[]);
    bootstrap_kubeconfig(d.path());
    let out = ok(
        d.path(),
        &[
            "render",
            "--machine-configs",
            &fixture_arg("rendered-worker.yaml"),
            "--bootstrap-kubeconfig",
            "kubeconfig",
        ],
    );
    let name = "rendered-worker-6c5bbab7fa89e7d2c3a4e6a0f5b1c2d3";
    assert!(
        out.starts_with(&format!("worker  {name}  spec 3.5.0  openshift\n")),
        "{out}"
    );
    assert!(out.contains("source:       cluster"), "{out}");
    let w = rendered(d.path(), "worker.ign");
    assert_eq!(
        served_name(&w),
        name,
        "the daemon finds it in the cluster by name"
    );
    let content: Value = serde_json::from_slice(&file(&w, APPENDED[2])).unwrap();
    assert_eq!(
        content["metadata"]["uid"], "3f1d2c3b-4a5e-6f70-8192-a3b4c5d6e7f8",
        "served as the cluster holds it"
    );
    assert_eq!(content["metadata"]["ownerReferences"][0]["name"], "worker");
    // The stored answer is a spec 3.5.0 client's; the content file keeps the cluster's own
    // config (3.4.0 here) as the MCS does.
    let enc = encapsulated(&w);
    assert_eq!(
        enc["spec"]["config"],
        json!({"ignition": {"version": "3.5.0"}})
    );
    assert_eq!(content["spec"]["config"]["ignition"]["version"], "3.4.0");
    assert_eq!(
        enc["spec"]["kernelArguments"],
        json!([
            "systemd.unified_cgroup_hierarchy=1",
            "cgroup_no_v1=\"all\"",
            "psi=0"
        ])
    );
    assert_eq!(enc["metadata"]["name"], name);
    // A pool is a cluster's rendered config or source MachineConfigs, not both.
    std::fs::create_dir(d.path().join("both")).unwrap();
    for f in ["worker.yaml", "rendered-worker.yaml"] {
        std::fs::copy(
            fixture(&format!("machineconfigs/{f}")),
            d.path().join("both").join(f),
        )
        .unwrap();
    }
    let (code, _, err) = run(d.path(), &["render", "--machine-configs", "both"]);
    assert_eq!(code, 1);
    assert!(
        err.contains(name)
            && err.contains("00-worker, 01-worker-container-runtime")
            && err.contains("give one or the other"),
        "{err}"
    );
}

#[test]
fn the_coreos_flavour_appends_nothing_and_refuses_what_only_the_daemon_applies() {
    let d = demo(&["--for", "coreos"]);
    let cfg: Value = read(&d.path().join("mcs-assets/mcsctl.json"));
    assert_eq!(cfg["flavour"], "coreos");
    std::fs::write(
        d.path().join("plain.yaml"),
        "kind: MachineConfig\nmetadata: {name: 00-worker, labels: {machineconfiguration.openshift.io/role: worker}}\nspec:\n  kernelArguments: [nosmt]\n  config:\n    ignition: {version: 3.3.0}\n    storage: {files: [{path: /etc/motd, contents: {source: 'data:,fcos'}}]}\n",
    )
    .unwrap();
    let (code, out, err) = run(d.path(), &["render", "--machine-configs", "plain.yaml"]);
    assert_eq!(code, 0, "{err}");
    assert!(!err.contains("bootstrap kubeconfig"), "{err}");
    assert!(
        out.starts_with("worker  rendered-worker-") && out.contains("coreos"),
        "{out}"
    );
    let w = rendered(d.path(), "worker.ign");
    assert_eq!(paths(&w), ["/etc/motd"], "nothing appended");
    assert_eq!(w["kernelArguments"]["shouldExist"], json!(["nosmt"]));
    // fips, kernelType, extensions, osImageURL: nothing on a plain CoreOS node applies them.
    let (code, _, err) = run(
        d.path(),
        &["render", "--machine-configs", &fixture_arg("worker.yaml")],
    );
    assert_eq!(code, 1);
    assert!(
        err.contains("MachineConfig 00-worker sets osImageURL") && err.contains("--for openshift"),
        "{err}"
    );
    bootstrap_kubeconfig(d.path());
    let plain = |extra: &[&str]| {
        let mut args = vec!["render", "--machine-configs", "plain.yaml"];
        args.extend_from_slice(extra);
        run(d.path(), &args)
    };
    let (code, _, err) = plain(&["--bootstrap-kubeconfig", "kubeconfig"]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("--bootstrap-kubeconfig is for --for openshift"),
        "{err}"
    );
    // --for switches and is recorded for the next render.
    let (code, _, err) = plain(&["--for", "openshift", "--no-bootstrap-kubeconfig"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("recorded flavour openshift in mcsctl.json"),
        "{err}"
    );
    assert_eq!(
        read(&d.path().join("mcs-assets/mcsctl.json"))["flavour"],
        "openshift"
    );
    assert!(paths(&rendered(d.path(), "worker.ign")).len() > 1);
}

#[test]
fn the_bootstrap_kubeconfig_is_checked_kept_reused_and_inspected() {
    let d = demo(&[]);
    let worker = fixture_arg("worker.yaml");
    let render = |extra: &[&str]| {
        let mut args = vec!["render", "--machine-configs", worker.as_str()];
        args.extend_from_slice(extra);
        run(d.path(), &args)
    };
    // Without one: render refuses (a pipeline must not ship configs that cannot join)...
    let (code, _, err) = render(&[]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("error: no bootstrap kubeconfig: nodes booted from these configs cannot send their CSR and will never join the cluster. Pass --bootstrap-kubeconfig FILE (")
            && err.contains("or --no-bootstrap-kubeconfig if configs that cannot join are meant"),
        "{err}"
    );
    assert!(!d.path().join("mcs-assets/rendered/worker.ign").exists());
    // ...unless that is meant: then it warns, and inspect says so (exit 3) until one is given.
    let (code, _, err) = render(&["--no-bootstrap-kubeconfig"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("warning: no bootstrap kubeconfig")
            && err.contains("(--no-bootstrap-kubeconfig)"),
        "{err}"
    );
    let (code, out, _) = run(d.path(), &["inspect"]);
    assert_eq!(code, 3, "{out}");
    assert!(
        out.contains("rendered/worker.ign has no /etc/kubernetes/kubeconfig: nodes booted from it cannot send their CSR and never join\n")
            && out.contains("fix: run `mcsctl render --bootstrap-kubeconfig FILE`"),
        "{out}"
    );
    // A kubeconfig the node could not use is refused, naming the file and never its token.
    let kubeconfig = bootstrap_kubeconfig(d.path());
    let no_ca = kubeconfig
        .lines()
        .filter(|l| !l.contains("certificate-authority-data"))
        .collect::<Vec<_>>()
        .join("\n");
    std::fs::write(d.path().join("no-ca"), no_ca).unwrap();
    let before = snapshot(d.path());
    let (code, _, err) = render(&["--bootstrap-kubeconfig", "no-ca"]);
    assert_eq!(code, 1);
    assert!(
        err.contains("no-ca: cluster \"local\" has no certificate-authority-data")
            && !err.contains(BOOTSTRAP_TOKEN),
        "{err}"
    );
    assert_eq!(snapshot(d.path()), before);
    // Given once: kept 0600, appended, and inspect is content.
    let (code, _, err) = render(&["--bootstrap-kubeconfig", "kubeconfig"]);
    assert_eq!(code, 0, "{err}");
    assert!(!err.contains("warning"), "{err}");
    let kept = d.path().join("mcs-assets/auth/bootstrap-kubeconfig");
    assert_eq!(mode(&kept), 0o600);
    assert_eq!(std::fs::read_to_string(&kept).unwrap(), kubeconfig);
    let (code, out, _) = run(d.path(), &["inspect"]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("rendered/worker.ign carries /etc/kubernetes/kubeconfig")
            && out.contains("auth/bootstrap-kubeconfig CA[1]"),
        "{out}"
    );
    // Reused by later renders without the flag.
    std::fs::remove_file(d.path().join("kubeconfig")).unwrap();
    assert_eq!(render(&["-q"]).0, 0);
    assert_eq!(
        file(&rendered(d.path(), "worker.ign"), APPENDED[1]),
        kubeconfig.as_bytes()
    );
    // Another one replaces it only with --force.
    let other = kubeconfig.replace(BOOTSTRAP_TOKEN, "another.bootstrap.token");
    std::fs::write(d.path().join("other"), &other).unwrap();
    let (code, _, err) = render(&["--bootstrap-kubeconfig", "other"]);
    assert_eq!(code, 1);
    assert!(
        err.contains("holds a different bootstrap kubeconfig; pass --force"),
        "{err}"
    );
    assert_eq!(std::fs::read_to_string(&kept).unwrap(), kubeconfig);
    assert_eq!(
        render(&["--bootstrap-kubeconfig", "other", "--force", "-q"]).0,
        0
    );
    assert_eq!(std::fs::read_to_string(&kept).unwrap(), other);
}

#[test]
fn from_mcs_stores_what_a_live_server_serves() {
    // The "cluster": an asset directory whose serve has the worker pool.
    let cluster = demo(&["--san", "127.0.0.1"]);
    bootstrap_kubeconfig(cluster.path());
    ok(
        cluster.path(),
        &[
            "render",
            "--machine-configs",
            &fixture_arg("worker.yaml"),
            "--bootstrap-kubeconfig",
            "kubeconfig",
            "-q",
        ],
    );
    let s = Serve::start(cluster.path(), &[]);
    let url = format!("https://127.0.0.1:{}", s.addr.port());
    let token = tokens(&cluster.path().join("mcs-assets")).remove(0);
    let their_ca = cluster.path().join("mcs-assets/tls/mcs-ca.crt");
    let their_ca = their_ca.to_str().unwrap();

    // The mirror: another asset directory, with a stale pre-approval config of its own.
    let d = demo(&[]);
    ok(
        d.path(),
        &[
            "render",
            "--machine-configs",
            &fixture_arg("worker.yaml"),
            "--no-bootstrap-kubeconfig",
            "-q",
        ],
    );
    let before = snapshot(d.path());
    let from = |extra: &[&str]| {
        let mut args = vec!["render", "--from-mcs", url.as_str(), "--pool", "worker"];
        args.extend_from_slice(extra);
        run(d.path(), &args)
    };
    // Its own CA does not trust the other server: the words a booting machine would log.
    let (code, _, err) = from(&[]);
    assert_eq!(code, 1);
    assert!(
        err.contains("x509: certificate signed by unknown authority") && err.contains("--ca"),
        "{err}"
    );
    // No token: 401, said plainly.
    let (code, _, err) = from(&["--ca", their_ca]);
    assert_eq!(code, 1);
    assert!(
        err.contains("401 Unauthorized") && err.contains("--token"),
        "{err}"
    );
    assert_eq!(snapshot(d.path()), before, "nothing written on failure");
    // With the token (from the environment, so it stays out of ps), and the CA taken from the
    // other cluster's pointer config.
    let pointer = cluster.path().join("mcs-assets/worker.ign");
    let out = crate::support::mcsctl(d.path())
        .args([
            "render",
            "--from-mcs",
            url.as_str(),
            "--pool",
            "worker",
            "--ca",
            pointer.to_str().unwrap(),
        ])
        .env("MCSCTL_FROM_MCS_TOKEN", &token)
        .output()
        .unwrap();
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    assert!(out.status.success(), "{stdout}{stderr}");
    let secret = token.split_once('.').unwrap().1;
    assert!(!stdout.contains(secret) && !stderr.contains(secret));
    assert!(
        stdout.contains("removed:      rendered/pre-approval/worker.ign"),
        "{stdout}"
    );
    assert!(
        stderr.contains("fetched ") && stderr.contains("file(s)"),
        "{stderr}"
    );
    let theirs = read(&cluster.path().join("mcs-assets/rendered/worker.ign"));
    let ours = rendered(d.path(), "worker.ign");
    // Asked for the newest spec, a server hands its config as stored (no version bump).
    assert!(
        stdout.starts_with(&format!(
            "worker  {}  spec {}",
            served_name(&theirs),
            theirs["ignition"]["version"].as_str().unwrap()
        )),
        "{stdout}"
    );
    assert_eq!(served_name(&ours), served_name(&theirs));
    assert_eq!(paths(&ours), paths(&theirs));
    assert_eq!(file(&ours, APPENDED[1]), file(&theirs, APPENDED[1]));
    assert_eq!(
        mode(&d.path().join("mcs-assets/rendered/worker.ign")),
        0o600
    );
    assert!(
        !d.path()
            .join("mcs-assets/rendered/pre-approval/worker.ign")
            .exists()
    );
    // A plain --token works too; a server whose config has no bootstrap kubeconfig is refused
    // for the openshift flavour (a node booted from it could never join).
    let plain = demo(&["--san", "127.0.0.1", "--for", "coreos"]);
    std::fs::write(
        plain.path().join("plain.yaml"),
        "kind: MachineConfig\nmetadata: {name: 00-worker, labels: {machineconfiguration.openshift.io/role: worker}}\nspec: {config: {ignition: {version: 3.2.0}}}\n",
    )
    .unwrap();
    ok(
        plain.path(),
        &["render", "--machine-configs", "plain.yaml", "-q"],
    );
    let s2 = Serve::start(plain.path(), &[]);
    let plain_ca = plain.path().join("mcs-assets/tls/mcs-ca.crt");
    let plain_token = tokens(&plain.path().join("mcs-assets")).remove(0);
    let url2 = format!("https://127.0.0.1:{}/config/worker", s2.addr.port());
    let before = snapshot(d.path());
    let args = [
        "render",
        "--from-mcs",
        url2.as_str(),
        "--pool",
        "worker",
        "--ca",
        plain_ca.to_str().unwrap(),
        "--token",
        plain_token.as_str(),
    ];
    let (code, _, err) = run(d.path(), &args);
    assert_eq!(code, 1);
    assert!(
        err.contains("has no /etc/kubernetes/kubeconfig") && err.contains("--for coreos"),
        "{err}"
    );
    assert_eq!(snapshot(d.path()), before);
    let mut coreos = args.to_vec();
    coreos.extend(["--for", "coreos", "-q"]);
    // It would take every file and unit the pool serves now: refused, then asked for.
    let (code, _, err) = run(d.path(), &coreos);
    assert_eq!(code, 1);
    assert!(
        err.contains("files /etc/containers/registries.conf") && err.contains("--replace"),
        "{err}"
    );
    assert_eq!(snapshot(d.path()), before);
    coreos.push("--replace");
    ok(d.path(), &coreos);
    assert_eq!(
        paths(&rendered(d.path(), "worker.ign")),
        Vec::<String>::new()
    );
}

/// A snapshot as `oc get -o yaml` gives it, of a cluster whose worker pool runs the worker
/// fixture's rendered MachineConfig (taken from a render's content file).
fn cluster_snapshot(d: &Path) -> Value {
    bootstrap_kubeconfig(d);
    ok(
        d,
        &[
            "render",
            "--machine-configs",
            &fixture_arg("worker.yaml"),
            "--bootstrap-kubeconfig",
            "kubeconfig",
            "-q",
        ],
    );
    let w = read(&d.join("mcs-assets/rendered/worker.ign"));
    let mut mc: Value =
        serde_json::from_slice(&file(&w, "/etc/mcs-machine-config-content.json")).unwrap();
    mc["apiVersion"] = json!("machineconfiguration.openshift.io/v1");
    mc["kind"] = json!("MachineConfig");
    let name = mc["metadata"]["name"].clone();
    let b64 = |b: &[u8]| base64::Engine::encode(&base64::engine::general_purpose::STANDARD, b);
    let ca = std::fs::read(d.join("mcs-assets/tls/mcs-ca.crt")).unwrap();
    json!({"apiVersion": "v1", "kind": "List", "items": [
        {"apiVersion": "machineconfiguration.openshift.io/v1", "kind": "MachineConfigPool",
         "metadata": {"name": "worker"},
         "spec": {"configuration": {"name": name}},
         "status": {"configuration": {"name": name}, "updatedMachineCount": 0}},
        mc,
        {"apiVersion": "machineconfiguration.openshift.io/v1", "kind": "ControllerConfig",
         "metadata": {"name": "machine-config-controller"},
         "spec": {"kubeAPIServerServingCAData": b64(&ca),
                  "infra": {"status": {"apiServerInternalURI": "https://api-int.demo.example.com:6443"}}}},
        {"apiVersion": "v1", "kind": "Secret",
         "metadata": {"name": "node-bootstrapper-token", "namespace": "openshift-machine-config-operator"},
         "data": {"token": b64(BOOTSTRAP_TOKEN.as_bytes()), "ca.crt": b64(&ca)}},
    ]})
}

#[test]
fn from_cluster_refusals_name_what_is_missing_and_write_nothing() {
    let d = demo(&[]);
    let full = cluster_snapshot(d.path());
    let without = |kind: &str| {
        let mut s = full.clone();
        s["items"]
            .as_array_mut()
            .unwrap()
            .retain(|o| o["kind"] != kind);
        s
    };
    let try_it = |cluster: &Value, extra: &[&str]| {
        std::fs::write(d.path().join("cluster.yaml"), cluster.to_string()).unwrap();
        let before = snapshot(&d.path().join("mcs-assets"));
        let mut args = vec!["render", "--from-cluster", "cluster.yaml"];
        args.extend_from_slice(extra);
        let (code, _, err) = run(d.path(), &args);
        assert_eq!(code, 1, "{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert_eq!(
            before,
            snapshot(&d.path().join("mcs-assets")),
            "nothing written: {err}"
        );
        err
    };
    // The wrong file: a kubeconfig is no snapshot, and the error says how to make one.
    std::fs::copy(d.path().join("kubeconfig"), d.path().join("kc.yaml")).unwrap();
    let (code, _, err) = run(d.path(), &["render", "--from-cluster", "kc.yaml"]);
    assert_eq!(code, 1);
    assert!(
        err.starts_with("error: kc.yaml is no cluster snapshot: it has no MachineConfigPool (it holds Config); make the snapshot with: { oc get machineconfigpools,machineconfigs,controllerconfigs -o yaml;"),
        "{err}"
    );
    let err = try_it(&without("ControllerConfig"), &[]);
    assert!(
        err.contains("cluster.yaml has no ControllerConfig"),
        "{err}"
    );
    let err = try_it(&without("Secret"), &[]);
    assert!(
        err.contains(
            "cluster.yaml has no Secret node-bootstrapper-token (openshift-machine-config-operator)"
        ),
        "{err}"
    );
    let err = try_it(&without("MachineConfig"), &[]);
    assert!(
        err.contains("has no MachineConfig rendered-worker-")
            && err.contains("which pool worker's status.configuration names"),
        "{err}"
    );
    let err = try_it(&full, &["--pool", "infra"]);
    assert!(
        err.contains("cluster.yaml has no MachineConfigPool infra (it has worker)"),
        "{err}"
    );
    // The kubeconfig the token gives differs from the one kept: replaced only with --force.
    let err = try_it(&full, &[]);
    assert!(
        err.contains(
            "holds a different bootstrap kubeconfig than the one the snapshot gives; pass --force"
        ),
        "{err}"
    );
    let out = ok(
        d.path(),
        &["render", "--from-cluster", "cluster.yaml", "--force"],
    );
    assert!(out.contains("(the pool's status.configuration)"), "{out}");
    let kept =
        std::fs::read_to_string(d.path().join("mcs-assets/auth/bootstrap-kubeconfig")).unwrap();
    assert!(
        kept.contains(&format!("token: {BOOTSTRAP_TOKEN}")),
        "{kept}"
    );
    assert_eq!(
        mode(&d.path().join("mcs-assets/auth/bootstrap-kubeconfig")),
        0o600
    );
    assert!(
        !d.path()
            .join("mcs-assets/rendered/pre-approval/worker.ign")
            .exists()
    );
    assert_ignition_valid(&d.path().join("mcs-assets/rendered/worker.ign"));
}
