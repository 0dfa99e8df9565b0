use super::*;
use serde_json::json;

fn mc(name: &str, role: &str, config: Value) -> MachineConfig {
    let config = (!config.as_object().is_some_and(Map::is_empty)).then(|| {
        let (c, _) = Config::decode(config).unwrap();
        convert::to_spec(c, Spec::INTERNAL).unwrap()
    });
    MachineConfig {
        name: name.into(),
        role: Some(role.into()),
        written_in: config.as_ref().map(|_| Spec::V3(2)),
        config,
        ..MachineConfig::default()
    }
}

fn opts(flavour: Flavour) -> Options<'static> {
    Options {
        flavour,
        version: None,
        kubeconfig: (flavour == Flavour::OpenShift).then_some(b"kubeconfig".as_slice()),
        cluster: Box::leak(Box::new(Cluster::default())),
        first_boot: None,
    }
}

#[test]
fn pool_order_by_role_and_custom_pools_inherit_worker() {
    let all = vec![
        mc("10-worker", "worker", json!({})),
        mc("05-infra", "infra", json!({})),
        mc("00-worker", "worker", json!({})),
        mc("00-master", "master", json!({})),
        mc("00-arbiter", "arbiter", json!({})),
    ];
    let names = |p: &str| -> Vec<String> {
        pool_order(&all, p)
            .unwrap()
            .iter()
            .map(|m| m.name.clone())
            .collect()
    };
    assert_eq!(names("worker"), ["00-worker", "10-worker"]);
    assert_eq!(names("infra"), ["00-worker", "10-worker", "05-infra"]);
    assert_eq!(names("master"), ["00-master"]);
    // The MCO's arbiter pool selects role arbiter alone, as master does.
    assert_eq!(names("arbiter"), ["00-arbiter"]);
}

#[test]
fn a_clusters_rendered_config_keeps_its_name_and_cannot_be_mixed() {
    let name = "rendered-worker-5f9c1d3b0a4e8c7f6d2b1a0e9c8d7f6a";
    let object = json!({"apiVersion": "machineconfiguration.openshift.io/v1", "kind": "MachineConfig",
        "metadata": {"name": name, "uid": "1234"},
        "spec": {"config": {"ignition": {"version": "3.4.0"}}, "kernelArguments": ["nosmt"], "fips": true}});
    let mut rendered = mc(name, "", json!({"ignition": {"version": "3.4.0"}}));
    rendered.role = None;
    rendered.rendered_pool = Some("worker".into());
    rendered.object = object;
    let r = render(
        std::slice::from_ref(&rendered),
        "worker",
        opts(Flavour::OpenShift),
    )
    .unwrap();
    assert_eq!(r.full.name, name);
    assert!(r.from_cluster);
    assert_eq!(
        payload::served_name(&r.full.config()).as_deref(),
        Some(name),
        "the daemon finds it in the cluster by this name"
    );
    let content = payload::Stored::read(&r.full.bytes, "x").unwrap();
    let payload::Stored::Mcs(s) = content else {
        panic!()
    };
    assert_eq!(
        s.mc.kind, "MachineConfig",
        "a cluster object keeps its TypeMeta"
    );
    assert!(s.mc.spec.fips);
    let mixed = vec![rendered, mc("00-worker", "worker", json!({}))];
    let e = render(&mixed, "worker", opts(Flavour::OpenShift))
        .unwrap_err()
        .to_string();
    assert!(
        e.contains(name) && e.contains("00-worker") && e.contains("give one or the other"),
        "{e}"
    );
}

#[test]
fn source_configs_get_the_mcos_hash_name() {
    let a = mc(
        "00-worker",
        "worker",
        json!({"ignition": {"version": "3.2.0"}}),
    );
    let r1 = render(std::slice::from_ref(&a), "worker", opts(Flavour::OpenShift)).unwrap();
    let mut b = a.clone();
    b.fips = true;
    let r2 = render(&[b], "worker", opts(Flavour::OpenShift)).unwrap();
    assert!(r1.full.name.starts_with("rendered-worker-") && r1.full.name.len() == 16 + 32);
    assert_ne!(r1.full.name, r2.full.name, "fips is part of the content");
    assert_eq!(r1.version, Spec::INTERNAL, "the MCO's internal spec");
    assert_eq!(r1.full.config()["ignition"]["version"], "3.5.0");
}

#[test]
fn coreos_appends_nothing_and_refuses_daemon_fields() {
    let mut a = mc(
        "00-worker",
        "worker",
        json!({"ignition": {"version": "3.2.0"}}),
    );
    let r = render(std::slice::from_ref(&a), "worker", opts(Flavour::CoreOs)).unwrap();
    assert!(r.full.appended.is_empty());
    assert_eq!(r.full.config(), json!({"ignition": {"version": "3.2.0"}}));
    a.fips = true;
    a.os_image_url = Some("quay.io/x".into());
    let e = render(&[a], "worker", opts(Flavour::CoreOs))
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("MachineConfig 00-worker sets fips, osImageURL")
            && e.contains("--for openshift"),
        "{e}"
    );
}

#[test]
fn coreos_kernel_arguments_need_spec_3_3() {
    let mut a = mc(
        "00-worker",
        "worker",
        json!({"ignition": {"version": "3.2.0"}}),
    );
    a.kernel_arguments = vec!["quiet".into()];
    let e = render(std::slice::from_ref(&a), "worker", opts(Flavour::CoreOs))
        .unwrap_err()
        .to_string();
    assert!(e.contains("00-worker") && e.contains("3.3.0"), "{e}");
    let o = Options {
        version: Some(SpecVersion { minor: 3 }),
        ..opts(Flavour::CoreOs)
    };
    let r = render(&[a], "worker", o).unwrap();
    assert_eq!(
        r.full.config()["kernelArguments"]["shouldExist"],
        json!(["quiet"])
    );
}

#[test]
fn a_machine_config_writing_an_appended_path_is_named() {
    let a = mc(
        "50-worker-kubeconfig",
        "worker",
        json!({"ignition": {"version": "3.2.0"}, "storage": {"files": [
            {"path": "/etc/kubernetes/kubeconfig", "contents": {"source": "data:,x"}}]}}),
    );
    let e = render(&[a], "worker", opts(Flavour::OpenShift))
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("MachineConfig 50-worker-kubeconfig writes /etc/kubernetes/kubeconfig")
            && e.contains("--bootstrap-kubeconfig"),
        "{e}"
    );
}
