//! The Accept header as the MCS parses it: never a panic, always a spec the server has.
#![no_main]
use libfuzzer_sys::fuzz_target;
use mcsctl::ignition::accept::negotiate;
use mcsctl::ignition::spec::Spec;

fuzz_target!(|data: &[u8]| {
    let header = String::from_utf8_lossy(data);
    if let Ok(spec) = negotiate(Some(&header)) {
        assert!(Spec::ALL.contains(&spec), "{spec} for {header:?}");
    }
});
