//! Durations (`90s`, `10y`): never a panic or an overflow, and what parses is not negative.
#![no_main]
use libfuzzer_sys::fuzz_target;
use mcsctl::duration::Duration;

fuzz_target!(|data: &[u8]| {
    if let Ok(d) = Duration::parse(&String::from_utf8_lossy(data)) {
        assert!(d.to_time() >= time::Duration::ZERO);
    }
});
