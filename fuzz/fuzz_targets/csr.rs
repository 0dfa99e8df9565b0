//! Certificate signing requests, PEM and DER, as `csr review` and `csr sign` read them.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = mcsctl::csr::request::parse(data);
    let _ = mcsctl::csr::request::parse_der(data);
});
