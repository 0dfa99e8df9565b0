//! Bootstrap kubeconfigs as render checks them: errors, never panics.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = mcsctl::kubeconfig::check(
        data,
        "fuzz-kubeconfig",
        time::OffsetDateTime::from_unix_timestamp(1_800_000_000).unwrap(),
    );
    let _ = mcsctl::ignition::render::secrets::detect(data);
});
