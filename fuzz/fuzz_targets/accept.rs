//! The Accept header as the MCS parses it: never a panic, never a version above the maximum.
#![no_main]
use libfuzzer_sys::fuzz_target;
use mcsctl::ignition::accept::{Wanted, negotiate};

fuzz_target!(|data: &[u8]| {
    let header = String::from_utf8_lossy(data);
    for max in 0..=4u8 {
        if let Ok(Wanted::Minor(m)) = negotiate(Some(&header), max) {
            assert!(m <= max, "negotiated 3.{m} above 3.{max} for {header:?}");
        }
    }
});
