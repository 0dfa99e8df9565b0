//! Data URLs: decoding anything never panics, and both encoders round-trip every byte string.
#![no_main]
use libfuzzer_sys::fuzz_target;
use mcsctl::ignition::dataurl::{decode, encode_escaped, encode_text};

fuzz_target!(|data: &[u8]| {
    let _ = decode(&String::from_utf8_lossy(data));
    assert_eq!(decode(&encode_escaped(data)).unwrap(), data);
    assert_eq!(decode(&encode_text(data)).unwrap(), data);
});
