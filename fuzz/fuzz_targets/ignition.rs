//! An Ignition config as serve reads a stored one: decoded into each spec's types, validated
//! (unit contents, URLs, data URLs included), converted to every spec the MCS serves, and
//! written back as Go writes it; the bodies serve holds for each spec (sharing with the 3.5.0
//! one) equal to those; and the same bytes through go-yaml's emitter. Errors, never panics,
//! and what one step writes the next reads. serve's streaming parse (`Stored::parse_reader`)
//! holds the same bodies as the parse of bytes.
#![no_main]
use libfuzzer_sys::fuzz_target;
use mcsctl::ignition::render::payload::Stored;
use mcsctl::ignition::spec::{Config, Spec, convert, validate};
use mcsctl::ignition::translate::Variants;

fuzz_target!(|data: &[u8]| {
    let _ = mcsctl::golang::url::parse(&String::from_utf8_lossy(data));
    let _ = mcsctl::ignition::dataurl::decode_strict(&String::from_utf8_lossy(data));
    let _ = mcsctl::ignition::spec::unit::deserialize(&String::from_utf8_lossy(data));
    let Ok(v) = serde_json::from_slice::<serde_json::Value>(data) else {
        return;
    };
    let _ = mcsctl::golang::yaml::marshal(&v);
    if let Ok((cfg, _)) = Config::decode(v.clone()) {
        let _ = validate::validate(&cfg);
        for spec in Spec::ALL {
            if let Ok(out) = convert::to_spec(cfg.clone(), spec) {
                let bytes = out.to_json();
                let back: serde_json::Value =
                    serde_json::from_slice(&bytes).expect("Go JSON is JSON");
                let (again, _) = Config::decode(back).expect("what was written reads back");
                assert_eq!(again, out, "{spec}: written and read back");
            }
        }
    }
    if let Ok(stored) = Stored::read(data, "fuzz.ign") {
        // What serve holds (bodies sharing with the 3.5.0 one) is what the MCS steps write.
        let variants = Variants::new(data.to_vec(), "fuzz.ign").expect("a stored config loads");
        // serve's own path: the file parsed as it is read, then prepared.
        let doc = Stored::parse_reader(data, "fuzz.ign").expect("JSON from bytes is JSON streamed");
        let streamed = Variants::from_json(doc, "fuzz.ign").expect("a streamed config loads");
        for spec in Spec::ALL {
            let want = stored.serve(spec);
            let got = variants
                .get(spec)
                .map(|c| c.to_vec())
                .map_err(str::to_string);
            assert_eq!(got, want, "{spec}: held body");
            let got = streamed
                .get(spec)
                .map(|c| c.to_vec())
                .map_err(str::to_string);
            assert_eq!(got, want, "{spec}: held body, streamed");
        }
    }
});
