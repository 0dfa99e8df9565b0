//! One stored config ready for every client: the body for each spec the MCS serves (2.2 and
//! 3.0 to 3.5), made as the MCS makes it (see [`crate::ignition::render::payload`]), or the
//! reason a spec cannot be served.

use anyhow::{Result, anyhow};

use super::chunks::Chunks;
use super::render::payload::Stored;
use super::sharing::{GIVE_BACK, Hollowed};
use super::spec::Spec;

/// A stored config, ready in every spec.
#[derive(Debug, Clone)]
pub struct Variants {
    /// The rendered MachineConfig's name, for an MCS payload.
    pub name: Option<String>,
    /// Index = [`Spec::index`]: the body, or why that spec cannot be served.
    by_spec: Vec<Result<Chunks, String>>,
}

impl Variants {
    /// Reads `bytes` (any 3.x) and prepares every spec. `what` names the file in errors.
    pub fn new(bytes: Vec<u8>, what: &str) -> Result<Variants> {
        let doc = Stored::parse(&bytes, what)?;
        drop(bytes);
        Variants::from_json(doc, what)
    }

    /// [`Variants::new`] of a parsed document (see [`Stored::parse_reader`] for a file too
    /// large to hold twice).
    ///
    /// Memory: the config is converted in place to [`Spec::INTERNAL`]; its long sources move
    /// into the base body as it is written (see [`crate::ignition::sharing`]), and the other
    /// bodies share with it. A config of large files is held about once throughout; one of
    /// many small files about one and a half times (the pieces of heap pages its freed
    /// sources share with what lives on).
    pub fn from_json(doc: serde_json::Value, what: &str) -> Result<Variants> {
        let mut stored = Stored::from_json(doc, what)?;
        let cannot = |why: String| anyhow!("{what} cannot be served: {why}");
        let taken = Hollowed::take(stored.held_mut());
        let base = match &stored {
            Stored::Plain(c) => taken.encode(c),
            Stored::Mcs(s) => taken.encode(&s.config(Spec::INTERNAL).map_err(cannot)?),
        }
        .map_err(cannot)?;
        // A large config's conversion copies, freed, go back to the kernel at once (a config
        // of many small files lives inside the heap: see `crate::heap`).
        let large = base.body().len() >= GIVE_BACK;
        let by_spec = Spec::ALL
            .iter()
            .map(|&s| match s {
                Spec::INTERNAL => Ok(Chunks::whole(base.body().clone())),
                _ => {
                    let body = stored.config(s).map(|c| base.share(&c));
                    if large {
                        crate::heap::give_back();
                    }
                    body
                }
            })
            .collect();
        Ok(Variants {
            name: stored.name().map(str::to_string),
            by_spec,
        })
    }

    /// The body for a client of `spec`, or the reason it cannot have one.
    pub fn get(&self, spec: Spec) -> Result<&Chunks, &str> {
        match &self.by_spec[spec.index()] {
            Ok(b) => Ok(b),
            Err(e) => Err(e),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Value, json};

    #[test]
    fn every_spec_of_a_plain_config() {
        let plain = br#"{"ignition":{"version":"3.4.0"},"storage":{"files":[{"path":"/etc/x","contents":{"source":"data:,x"}}]}}"#;
        let v = Variants::new(plain.to_vec(), "plain").unwrap();
        for spec in Spec::ALL {
            let j: Value = serde_json::from_slice(&v.get(spec).unwrap().to_vec()).unwrap();
            assert_eq!(j["ignition"]["version"], spec.to_string());
        }
        let kargs =
            br#"{"ignition":{"version":"3.3.0"},"kernelArguments":{"shouldExist":["quiet"]}}"#;
        let v = Variants::new(kargs.to_vec(), "kargs").unwrap();
        assert!(v.get(Spec::V3(3)).is_ok() && v.get(Spec::V3(5)).is_ok());
        let e = v.get(Spec::V3(2)).unwrap_err();
        assert!(e.contains("kernelArguments") && e.contains("3.2.0"), "{e}");
    }

    /// How many bytes of `spec`'s body are its own, not slices of the 3.5.0 body.
    fn own_bytes(v: &Variants, spec: Spec) -> usize {
        let base = v.get(Spec::INTERNAL).unwrap().parts()[0].as_ptr_range();
        v.get(spec)
            .unwrap()
            .parts()
            .iter()
            .filter(|p| !base.contains(&p.as_ptr()))
            .map(|p| p.len())
            .sum()
    }

    /// A config whose files are long data URLs, one of them twice and one under `append`.
    fn long_files() -> Vec<u8> {
        let data = |c: char| {
            format!(
                "data:,{}",
                c.to_string().repeat(3 * crate::ignition::sharing::LONG)
            )
        };
        serde_json::to_vec(&json!({"ignition": {"version": "3.2.0"}, "storage": {"files": [
            {"path": "/etc/a", "mode": 420, "contents": {"source": data('a')}},
            {"path": "/etc/b", "contents": {"source": data('b'), "compression": ""}},
            {"path": "/etc/c", "append": [{"source": data('c')}], "contents": {"source": data('a')}},
            {"path": "/etc/d", "contents": {"source": "data:,short%20one"}}]},
            "systemd": {"units": [{"name": "x.service", "contents": "[Unit]\nDescription=x\n"}]}}))
        .unwrap()
    }

    #[test]
    fn variants_are_the_bytes_the_mcs_writes_and_share_their_long_strings() {
        for (bytes, name) in [
            (long_files(), "long"),
            (br#"{"ignition":{"version":"3.2.0"},"storage":{"files":[{"path":"/etc/x","contents":{"source":"data:,a%20long%20enough%20file%20to%20share"}}]}}"#.to_vec(), "short"),
        ] {
            let v = Variants::new(bytes.clone(), name).unwrap();
            let stored = Stored::read(&bytes, name).unwrap();
            assert_eq!(v.get(Spec::INTERNAL).unwrap().parts().len(), 1);
            for spec in Spec::ALL {
                let body = v.get(spec).unwrap();
                assert_eq!(body.to_vec(), stored.serve(spec).unwrap(), "{name} {spec}");
                assert_eq!(body.len(), body.to_vec().len());
                let own = own_bytes(&v, spec);
                if body.len() <= crate::ignition::sharing::JOINED {
                    // Short: one piece of its own.
                    assert_eq!(body.parts().len(), 1, "{name} {spec}");
                    assert!(spec == Spec::INTERNAL || own == body.len(), "{name} {spec}");
                } else if spec == Spec::V2_2 {
                    // Another shape: the long strings are shared, what is between them not.
                    assert!(own < 1000, "{name} {spec}: {own} bytes of its own");
                } else if spec != Spec::INTERNAL {
                    assert!(own <= 2, "{name} {spec}: {own} bytes of its own, not only the version");
                    assert!(body.parts().len() <= 3, "{name} {spec}: {} pieces", body.parts().len());
                }
            }
        }
    }

    #[test]
    fn an_mcs_payload_shares_its_files_and_machine_config() {
        use crate::ignition::render::object::Object;
        use crate::ignition::render::payload::{ControllerData, Source};
        use crate::ignition::spec::Config;
        let long = format!("data:,{}", "f".repeat(3 * crate::ignition::sharing::LONG));
        let config = json!({"ignition": {"version": "3.5.0"}, "storage": {"files": [
            {"path": "/etc/f", "contents": {"source": long}, "mode": 420}]}});
        let mc = json!({"metadata": {"name": "rendered-worker-1"}, "spec": {"osImageURL": "",
            "config": config, "kernelArguments": [], "extensions": [], "fips": false,
            "kernelType": "default"}});
        let mc = Object::from_json(&serde_json::to_vec(&mc).unwrap()).unwrap();
        let config = Config::decode(config).unwrap().0;
        let s = Source::new(mc, config, &ControllerData::default(), None, "");
        let body = s.serve(Spec::INTERNAL).unwrap();
        let v = Variants::new(body.clone(), "worker").unwrap();
        assert_eq!(v.name.as_deref(), Some("rendered-worker-1"));
        for spec in Spec::ALL {
            let got = v.get(spec).unwrap();
            assert_eq!(got.to_vec(), s.serve(spec).unwrap(), "{spec}");
            let own = own_bytes(&v, spec);
            // The file and the MachineConfig holding it again are shared; the encapsulated
            // MachineConfig names the client's version.
            assert!(own < 2000, "{spec}: {own} of {} bytes its own", got.len());
        }
    }

    #[test]
    fn invalid_config_is_an_error() {
        assert!(Variants::new(b"{}".to_vec(), "x").is_err());
        assert!(Variants::new(br#"{"ignition":{"version":"2.2.0"}}"#.to_vec(), "x").is_err());
    }
}
