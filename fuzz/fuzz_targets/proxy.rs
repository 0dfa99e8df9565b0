//! PROXY protocol headers from a balancer: never a panic, never more consumed than the header.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .unwrap();
    let mut r = data;
    let before = r.len();
    let out = rt.block_on(mcsctl::serve::conn::proxy::read_header(
        &mut r,
        std::time::Duration::from_millis(50),
    ));
    if out.is_ok() {
        assert!(before - r.len() <= 16 + 65535);
    }
});
