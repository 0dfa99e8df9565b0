//! render's workflow: which pools it makes of which MachineConfigs, what it leaves out and
//! drops and says, and when it refuses to take something away.

use serde_json::{Value, json};

use super::{Lab, said, t0};
use crate::assets::Overwrite;
use crate::ignition::render::machineconfig::{Read, Strictness, read};
use crate::ignition::render::{Cluster, Flavour, controller};
use crate::kube::Located;
use crate::ops::Run;
use crate::ops::render::{Losses, NoKubeconfig, RenderInputs, RenderReport, machine_configs};

fn mc(name: &str, role: Option<&str>, spec: Value) -> Value {
    let mut o = json!({"apiVersion": "machineconfiguration.openshift.io/v1", "kind": "MachineConfig",
        "metadata": {"name": name}, "spec": spec});
    if let Some(r) = role {
        o["metadata"]["labels"] = json!({"machineconfiguration.openshift.io/role": r});
    }
    o
}

fn file(path: &str) -> Value {
    json!({"config": {"ignition": {"version": "3.2.0"}, "storage": {"files": [
        {"path": path, "contents": {"source": "data:,x"}}]}}})
}

fn parsed(objects: Vec<Value>) -> Read {
    let located: Vec<Located> = objects.into_iter().map(Located::bare).collect();
    read(&located, "in.yaml", Strictness::AsTheMco).unwrap()
}

fn inputs(flavour: Flavour) -> RenderInputs<'static> {
    RenderInputs {
        flavour,
        version: None,
        bootstrap_kubeconfig: None,
        without_kubeconfig: NoKubeconfig::Meant,
        allow_sensitive: &[],
        force: Overwrite::Never,
        run: Run::Write,
        replace: Losses::Refuse,
        controller: None,
        current: None,
        allow_irreconcilable: Vec::new(),
        report: crate::ops::render::FirstBoot::Keep,
    }
}

fn render(
    lab: &Lab,
    r: &Read,
    i: RenderInputs<'static>,
) -> Result<(RenderReport, Vec<String>), String> {
    lab.apply(|s| machine_configs(s, r, i, t0()))
        .map(|(r, n)| (r, said(&n)))
}

fn pools(r: &RenderReport) -> Vec<(String, Vec<String>)> {
    r.pools
        .iter()
        .map(|p| (p.pool.clone(), p.merge_order.clone()))
        .collect()
}

#[test]
fn every_role_is_a_pool_and_custom_pools_take_the_worker_configs_first() {
    let lab = Lab::new();
    let r = parsed(vec![
        mc("50-worker-a", Some("worker"), file("/etc/a")),
        mc("10-infra-b", Some("infra"), file("/etc/b")),
        mc("60-master-c", Some("master"), file("/etc/c")),
    ]);
    let (report, _) = render(&lab, &r, inputs(Flavour::CoreOs)).unwrap();
    assert_eq!(
        pools(&report),
        [
            (
                "infra".into(),
                vec!["50-worker-a".into(), "10-infra-b".into()]
            ),
            ("master".into(), vec!["60-master-c".into()]),
            ("worker".into(), vec!["50-worker-a".into()]),
        ]
    );
    assert!(
        lab.dir.exists("rendered/infra.ign") && lab.dir.exists("rendered/pre-approval/infra.ign")
    );
}

#[test]
fn what_no_pool_selects_is_listed_not_parsed_and_the_pools_render() {
    let lab = Lab::new();
    let broken = json!({"config": {"ignition": {"version": "9.9.9"}}});
    let r = parsed(vec![
        mc("50-worker-a", Some("worker"), file("/etc/a")),
        mc("99-loose", None, broken.clone()),
    ]);
    let (report, _) = render(&lab, &r, inputs(Flavour::CoreOs)).unwrap();
    assert_eq!(
        pools(&report),
        [("worker".into(), vec!["50-worker-a".into()])]
    );
    let left: Vec<&str> = report
        .unselected
        .as_ref()
        .unwrap()
        .iter()
        .map(|u| u.name.as_str())
        .collect();
    assert_eq!(left, ["99-loose"]);
    // Nothing selected at all: the error names what was left out and why.
    let r = parsed(vec![mc("99-loose", None, broken)]);
    let e = render(&lab, &r, inputs(Flavour::CoreOs))
        .map(|_| ())
        .unwrap_err();
    assert!(e.ends_with("; selected by no pool: 99-loose (in.yaml: no machineconfiguration.openshift.io/role label)"), "{e}");
}

#[test]
fn a_new_pool_nothing_targets_is_said_with_the_pool_it_may_mean() {
    let lab = Lab::new();
    let r = parsed(vec![
        mc("50-worker-a", Some("worker"), file("/etc/a")),
        mc("60-typo", Some("wroker"), file("/etc/t")),
    ]);
    let (_, notes) = render(&lab, &r, inputs(Flavour::CoreOs)).unwrap();
    assert!(
        notes
            .iter()
            .any(|n| n.starts_with("warning: pool wroker is new (did you mean worker?)")),
        "{notes:?}"
    );
    assert!(
        !notes.iter().any(|n| n.contains("pool worker is new")),
        "{notes:?}"
    );
    assert!(
        notes
            .iter()
            .any(|n| n == "pool master (from mcsctl.json): no MachineConfig applies; not rendered"),
        "{notes:?}"
    );
}

#[test]
fn a_render_that_would_take_a_file_away_is_refused_unless_replace() {
    let lab = Lab::new();
    let both = parsed(vec![
        mc("50-worker-a", Some("worker"), file("/etc/a")),
        mc("60-worker-b", Some("worker"), file("/etc/b")),
    ]);
    render(&lab, &both, inputs(Flavour::CoreOs)).unwrap();
    let one = parsed(vec![mc("50-worker-a", Some("worker"), file("/etc/a"))]);
    let before = lab.read("rendered/worker.ign");
    let e = render(&lab, &one, inputs(Flavour::CoreOs))
        .map(|_| ())
        .unwrap_err();
    assert!(
        e.starts_with("render would take away what the pool serves now: pool worker:")
            && e.contains("/etc/b"),
        "{e}"
    );
    assert_eq!(lab.read("rendered/worker.ign"), before, "nothing written");
    // A dry run reports the difference and writes nothing either.
    let mut dry = inputs(Flavour::CoreOs);
    dry.run = Run::DryRun;
    let (report, _) = render(&lab, &one, dry).unwrap();
    assert!(report.dry_run.is_some() && report.pools.is_empty());
    assert_eq!(lab.read("rendered/worker.ign"), before);
    let mut replace = inputs(Flavour::CoreOs);
    replace.replace = Losses::Accept;
    render(&lab, &one, replace).unwrap();
    assert_ne!(lab.read("rendered/worker.ign"), before);
}

#[test]
fn generated_machine_configs_take_the_controller_configs_images() {
    let lab = Lab::new();
    let generated = |name: &str| {
        let mut o = mc(name, Some("worker"), file(&format!("/etc/{name}")));
        o["metadata"]["annotations"] =
            json!({"machineconfiguration.openshift.io/generated-by-controller-version": "abc"});
        o["spec"]["osImageURL"] = json!("quay.io/example/ignored");
        o
    };
    let r = parsed(vec![generated("00-worker")]);
    let (report, notes) = render(&lab, &r, inputs(Flavour::OpenShift)).unwrap();
    assert_eq!(report.pools[0].machine.as_ref().unwrap().os_image_url, "");
    assert!(notes.iter().any(|n| n.starts_with("warning: 1 MachineConfig(s) generated by the controller (00-worker) take the OS image from the ControllerConfig")), "{notes:?}");
    let cc = json!({"kind": "ControllerConfig", "metadata": {"name": "machine-config-controller"},
        "spec": {"baseOSContainerImage": "quay.io/example/os@sha256:1", "baseOSExtensionsContainerImage": "quay.io/example/ext@sha256:2"}});
    let cluster: Cluster = controller::cluster(&cc, "cc.yaml").unwrap();
    let mut with = inputs(Flavour::OpenShift);
    with.controller = Some((cluster, "cc.yaml".into()));
    with.replace = Losses::Accept;
    let (report, notes) = render(&lab, &r, with).unwrap();
    assert_eq!(
        report.pools[0].machine.as_ref().unwrap().os_image_url,
        "quay.io/example/os@sha256:1"
    );
    assert_eq!(report.controller_config.as_deref(), Some("cc.yaml"));
    assert!(
        !notes
            .iter()
            .any(|n| n.contains("generated by the controller")),
        "{notes:?}"
    );
}

#[test]
fn a_controller_config_is_not_used_for_coreos_and_says_so() {
    let lab = Lab::new();
    let r = parsed(vec![mc("50-worker-a", Some("worker"), file("/etc/a"))]);
    let mut i = inputs(Flavour::CoreOs);
    i.controller = Some((Cluster::default(), "cc.yaml".into()));
    let (report, notes) = render(&lab, &r, i).unwrap();
    assert_eq!(report.controller_config, None);
    assert!(
        notes
            .iter()
            .any(|n| n.starts_with("the ControllerConfig in cc.yaml is not used: --for coreos")),
        "{notes:?}"
    );
}

#[test]
fn what_the_mco_drops_is_in_the_report() {
    let lab = Lab::new();
    let mut spec = file("/etc/a");
    spec["kernelArgs"] = json!(["nosmt"]);
    let r = parsed(vec![mc("50-worker-a", Some("worker"), spec)]);
    let (report, _) = render(&lab, &r, inputs(Flavour::CoreOs)).unwrap();
    let dropped = report.dropped.unwrap();
    assert_eq!(dropped.len(), 1);
    assert_eq!(dropped[0].field, "spec.kernelArgs");
    assert_eq!(dropped[0].meant.as_deref(), Some("kernelArguments"));
}
