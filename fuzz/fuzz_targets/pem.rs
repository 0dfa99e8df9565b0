//! Certificates and private keys from untrusted PEM (or DER, or garbage): errors, never panics.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(certs) = mcsctl::pki::cert::parse_pem_certs(data, "fuzz.pem") {
        for c in &certs {
            let _ = c.sans();
            let _ = c.to_pem();
        }
    }
    let _ = mcsctl::pki::keys::load_key_pem(data, "fuzz.key");
});
