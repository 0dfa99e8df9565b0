//! Pointer configs as inspect, doctor and token rotate read them; an edit of a valid one is a
//! valid one again, carrying the new token.
#![no_main]
use libfuzzer_sys::fuzz_target;
use mcsctl::ignition::edit::{Edit, edit};
use mcsctl::ignition::pointer::{Transport, parse};

const CA: &[u8] = b"-----BEGIN CERTIFICATE-----\nMIIBAAAA\n-----END CERTIFICATE-----\n";

fuzz_target!(|data: &[u8]| {
    if parse(data, "fuzz.ign").is_err() {
        return;
    }
    let e = Edit {
        ca_bundle_pem: CA,
        ours: &[],
        token: Some("abcdef.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"),
        add_token: true,
        transport: Transport::Header,
    };
    if let Ok(out) = edit(data, "fuzz.ign", &e) {
        let info = parse(&out, "edited.ign").expect("an edited pointer config parses");
        if info.token_transport.is_some() {
            assert_eq!(info.token_id.as_deref(), Some("abcdef"));
        }
    }
});
