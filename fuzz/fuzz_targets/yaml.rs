//! The YAML reader on any text: an error or the documents, never a panic, a stack overflow, or
//! memory out of proportion to the input (the seeds are alias bombs, merge-key bombs and deep
//! nesting; libFuzzer's -rss_limit_mb stops a run whose expansion escapes the bounds).
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(docs) = mcsctl::kube::yaml::documents(text, "fuzz.yaml") {
        // What was accepted is within the node bound, aliases expanded.
        fn nodes(v: &serde_json::Value) -> u64 {
            1 + match v {
                serde_json::Value::Array(a) => a.iter().map(nodes).sum(),
                serde_json::Value::Object(m) => m.values().map(nodes).sum(),
                _ => 0,
            }
        }
        let total: u64 = docs.iter().map(|d| nodes(&d.value)).sum();
        assert!(total <= mcsctl::kube::yaml::MAX_NODES, "{total} nodes");
    }
});
