//! Any bytes given where a certificate, key or request is expected: the file-kind detection
//! and its messages, and the PEM/DER loaders behind them: errors, never panics.
#![no_main]
use libfuzzer_sys::fuzz_target;
use mcsctl::pki::kind::{self, Wanted};

fuzz_target!(|data: &[u8]| {
    let _ = kind::of(data).describe();
    for w in [Wanted::Certificate, Wanted::PrivateKey, Wanted::Request] {
        let _ = kind::mismatch("fuzz", data, w);
    }
    let _ = kind::not_pem("fuzz", data);
    let _ = mcsctl::pki::load::certs(data, "fuzz");
    let _ = mcsctl::pki::load::key(data, "fuzz");
});
