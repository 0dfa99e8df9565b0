//! MachineConfigs (YAML or JSON) through selection, parsing (as the MCO and strictly), conversion, both flavours of render and the
//! secret scan of the pre-approval set: errors, never panics.
#![no_main]
use libfuzzer_sys::fuzz_target;
use mcsctl::ignition::render::{self, Flavour, Options, Strictness};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(objects) = mcsctl::kube::located(text, "fuzz.yaml") else {
        return;
    };
    // Strictly too: the same input, refused where the MCO would drop a field.
    let _ = render::machineconfig::read(&objects, "fuzz.yaml", Strictness::Strict);
    let Ok(read) = render::machineconfig::read(&objects, "fuzz.yaml", Strictness::AsTheMco) else {
        return;
    };
    let mcs = read.mcs;
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
                first_boot: None,
            };
            let _ = render::render(&mcs, pool, opts);
        }
        if let Ok(order) = render::pool_order(&mcs, pool) {
            let _ = render::secrets::scan(&order, &[]);
        }
    }
});
