//! Render as the cluster judges it (issue 46): a pool whose merged config serve would refuse is
//! refused at render, naming the field and the MachineConfigs that contributed it, and nothing
//! is written for it while the other pools render. The MachineConfigs here are written for
//! these tests.

use crate::support::machine_config as mc;
use crate::support::{demo, run, snapshot};

/// `mcsctl render --machine-configs FILE --no-bootstrap-kubeconfig EXTRA` in `cwd`.
fn render_mcs(cwd: &std::path::Path, file: &str, extra: &[&str]) -> (i32, String, String) {
    let mut args = vec![
        "render",
        "--machine-configs",
        file,
        "--no-bootstrap-kubeconfig",
    ];
    args.extend_from_slice(extra);
    run(cwd, &args)
}

#[test]
fn a_pool_serve_would_refuse_is_refused_at_render_naming_its_machine_config() {
    let d = demo(&[]);
    // Written for Butane (`contents.inline`): Ignition 3.2.0 has no such field, so the file
    // has no source, the MCO sets `overwrite` on it, and the merge is not valid Ignition.
    let butane = mc(
        "50-worker-motd",
        "worker",
        "{files: [{path: /etc/motd, mode: 420, contents: {inline: hello}}]}",
    );
    let fine = mc(
        "50-master-banner",
        "master",
        "{files: [{path: /etc/banner, mode: 420, contents: {source: 'data:,hi'}}]}",
    );
    let other = mc(
        "40-worker-issue",
        "worker",
        "{files: [{path: /etc/issue, mode: 420, contents: {source: 'data:,x'}}]}",
    );
    std::fs::write(
        d.path().join("mcs.yaml"),
        [butane, fine, other].join("---\n"),
    )
    .unwrap();
    let before = snapshot(&d.path().join("mcs-assets"));
    let (code, out, err) = render_mcs(d.path(), "mcs.yaml", &[]);
    assert_eq!(code, 1, "{out}{err}");
    let refusal = "error: pool worker: rendered/worker.ign would not be served: storage.files[1].overwrite: overwrite must be false if source is unspecified; from MachineConfig(s) 50-worker-motd. The MCS would render it and answer 500 to every machine of the pool; nothing was written for it";
    assert!(err.lines().any(|l| l == refusal), "{err}");
    // docs/render.md quotes it word for word.
    let page = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/render.md"),
    )
    .unwrap();
    assert!(
        page.lines().any(|l| l == refusal),
        "docs/render.md lacks:\n{refusal}"
    );
    // Master renders; nothing of worker is written.
    let a = d.path().join("mcs-assets");
    assert!(a.join("rendered/master.ign").exists());
    assert!(!a.join("rendered/worker.ign").exists());
    assert!(!before.keys().any(|k| k.ends_with("rendered/worker.ign")));
    // As JSON, the refusal is data too.
    let (code, out, _) = render_mcs(d.path(), "mcs.yaml", &["-o", "json"]);
    assert_eq!(code, 1);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["unserved"][0]["pool"], "worker", "{v}");
    assert_eq!(
        v["unserved"][0]["contributedBy"][0], "50-worker-motd",
        "{v}"
    );
    // Only that pool in the input: refused, nothing written.
    std::fs::write(
        d.path().join("worker.yaml"),
        mc(
            "50-worker-motd",
            "worker",
            "{files: [{path: /etc/motd, mode: 420, contents: {inline: hello}}]}",
        ),
    )
    .unwrap();
    let before = snapshot(&a);
    let (code, _, err) = render_mcs(d.path(), "worker.yaml", &[]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("error: pool worker: rendered/worker.ign would not be served"),
        "{err}"
    );
    assert_eq!(before, snapshot(&a));
}

#[test]
fn a_rendered_machine_config_over_etcd_s_limit_is_refused_and_one_near_it_warned() {
    let d = demo(&[]);
    let a = d.path().join("mcs-assets");
    let big = |kib: usize| {
        mc(
            "50-worker-big",
            "worker",
            &format!(
                "{{files: [{{path: /etc/big, mode: 420, contents: {{source: 'data:,{}'}}}}]}}",
                "x".repeat(kib * 1024)
            ),
        )
    };
    // Past 80% of 1,572,864 bytes: rendered, with the MCO's warning.
    std::fs::write(d.path().join("near.yaml"), big(1300)).unwrap();
    let (code, out, err) = render_mcs(d.path(), "near.yaml", &[]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        err.contains("MachineConfig rendered-worker-")
            && err.contains("is approaching size limit: ")
            && err.contains("% of 1572864 byte limit). Consider reducing MachineConfig size to avoid hitting the limit."),
        "{err}"
    );
    // Past it: refused in the MCO's words, nothing written.
    std::fs::write(d.path().join("over.yaml"), big(1600)).unwrap();
    let before = snapshot(&a);
    let (code, _, err) = render_mcs(d.path(), "over.yaml", &[]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("rendered MachineConfig rendered-worker-")
            && err.contains("bytes, max 1572864 bytes). This will exceed etcd's size limit."),
        "{err}"
    );
    assert_eq!(before, snapshot(&a));
}

/// A MachineConfig of the worker pool named `name` with `spec` lines (YAML, two-space indent
/// under `spec:`).
fn worker(name: &str, spec: &str) -> String {
    format!(
        "apiVersion: machineconfiguration.openshift.io/v1\nkind: MachineConfig\nmetadata:\n  name: {name}\n  labels:\n    machineconfiguration.openshift.io/role: worker\nspec:\n{spec}"
    )
}

const BASE: &str = "  config:\n    ignition:\n      version: 3.2.0\n    storage: {files: [{path: /etc/base, mode: 420, contents: {source: 'data:,base'}}]}\n";

#[test]
fn a_day_2_render_follows_the_mco_s_reconcile_rules() {
    let d = demo(&[]);
    let a = d.path().join("mcs-assets");
    let render = |files: &[&str], extra: &[&str]| {
        let docs: Vec<String> = files.iter().map(|f| f.to_string()).collect();
        std::fs::write(d.path().join("mcs.yaml"), docs.join("---\n")).unwrap();
        let mut args = vec![
            "render",
            "--machine-configs",
            "mcs.yaml",
            "--no-bootstrap-kubeconfig",
        ];
        args.extend_from_slice(extra);
        run(d.path(), &args)
    };
    let base = worker("00-base", BASE);
    // The first render of a pool is not checked: FIPS from the start is fine.
    let fips = worker(
        "99-fips",
        "  fips: true\n  config:\n    ignition:\n      version: 3.2.0\n",
    );
    let (code, out, err) = render(&[&base], &["-o", "json"]);
    assert_eq!(code, 0, "{out}{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let current = v["pools"][0]["renderedName"].as_str().unwrap().to_string();
    assert!(current.starts_with("rendered-worker-"), "{v}");
    // Day 2: FIPS, the daemon's force file, and a disk are refused, each naming its source.
    let force = worker(
        "50-force",
        "  config:\n    ignition:\n      version: 3.2.0\n    storage: {files: [{path: /run/machine-config-daemon-force, mode: 420, contents: {source: 'data:,'}}]}\n",
    );
    let disk = worker(
        "60-disk",
        "  config:\n    ignition:\n      version: 3.2.0\n    storage: {disks: [{device: /dev/vdb, wipeTable: true}]}\n",
    );
    for (mc, why) in [
        (
            &fips,
            "and base config \"99-fips\": detected change to FIPS flag; refusing to modify FIPS on a running cluster",
        ),
        (
            &force,
            "and base config \"50-force\": cannot create /run/machine-config-daemon-force via Ignition",
        ),
        (
            &disk,
            "and base config \"60-disk\": ignition disks section contains changes",
        ),
    ] {
        let before = snapshot(&a);
        let (code, _, err) = render(&[&base, mc], &[]);
        assert_eq!(code, 1, "{err}");
        assert!(
            err.contains(&format!("error: pool worker: reconciliation failed between current config \"{current}\" {why}. The MCO refuses this on a running cluster (the pool goes RenderDegraded)")),
            "{err}"
        );
        assert_eq!(before, snapshot(&a), "{why}: something was written");
    }
    // The MCO's override for storage: rendered, and the report says who gets it.
    let (code, _, err) = render(&[&base, &disk], &["--allow-irreconcilable", "disks"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains(&format!("pool worker: rendered with --allow-irreconcilable: nodes running {current} keep their current config")),
        "{err}"
    );
    // --force is not an override.
    let (code, _, _) = render(&[&base, &fips], &["--force"]);
    assert_eq!(code, 1);
}

#[test]
fn current_from_a_file_is_what_a_day_2_render_is_checked_against() {
    let d = demo(&[]);
    std::fs::write(
        d.path().join("current.yaml"),
        "apiVersion: machineconfiguration.openshift.io/v1\nkind: MachineConfig\nmetadata:\n  name: rendered-worker-0123456789abcdef\nspec:\n  fips: true\n  config:\n    ignition:\n      version: 3.2.0\n",
    )
    .unwrap();
    std::fs::write(d.path().join("mcs.yaml"), worker("00-base", BASE)).unwrap();
    let (code, _, err) = render_mcs(d.path(), "mcs.yaml", &["--current", "current.yaml"]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("reconciliation failed between current config \"rendered-worker-0123456789abcdef\" and base config \"00-base\": detected change to FIPS flag"),
        "{err}"
    );
    // docs/render.md quotes this refusal word for word.
    let refusal = err.lines().find(|l| l.starts_with("error: ")).unwrap();
    let page = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/render.md"),
    )
    .unwrap();
    assert!(
        page.lines().any(|l| l == refusal),
        "docs/render.md does not quote, word for word:\n{refusal}"
    );
    // Not a rendered MachineConfig: refused as a bad value.
    let (code, _, err) = render_mcs(d.path(), "mcs.yaml", &["--current", "mcs.yaml"]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("00-base is not a rendered MachineConfig (rendered-<pool>-<hash>)"),
        "{err}"
    );
}
