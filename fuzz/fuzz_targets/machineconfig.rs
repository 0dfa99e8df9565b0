//! MachineConfigs (YAML or JSON) through parsing, conversion, both flavours of render and the
//! secret scan of the pre-approval set: errors, never panics.
#![no_main]
use libfuzzer_sys::fuzz_target;
use mcsctl::ignition::render::{self, Flavour, Options};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(objects) = mcsctl::kube::objects(text, "fuzz.yaml") else {
        return;
    };
    let Ok(mcs) = render::machine_configs(objects, "fuzz.yaml") else {
        return;
    };
    let mut pools: Vec<String> = mcs
        .iter()
        .filter_map(|m| m.rendered_pool.clone().or_else(|| m.role.clone()))
        .collect();
    pools.sort();
    pools.dedup();
    for pool in pools.iter().take(4) {
        for flavour in [Flavour::OpenShift, Flavour::CoreOs] {
            let cluster = render::Cluster::default();
            let opts = Options {
                flavour,
                version: None,
                kubeconfig: Some(b"kubeconfig"),
                cluster: &cluster,
            };
            let _ = render::render(&mcs, pool, opts);
        }
        if let Ok(order) = render::pool_order(&mcs, pool) {
            let _ = render::secrets::scan(&order, &[]);
        }
    }
});
