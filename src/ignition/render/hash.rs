//! The rendered MachineConfig's name, as the MCO's render controller computes it
//! (`pkg/controller/render/hash.go`): `rendered-<pool>-` and the hex MD5 of an 80-byte salt
//! followed by the spec marshalled by `ghodss/yaml` (encoding/json, then go-yaml v2 with its
//! sorted keys). A node annotates itself with this name and its daemon looks the
//! MachineConfig up by it, so it has to be the cluster's byte for byte.

use md5::{Digest, Md5};
use serde_json::{Value, json};

use super::object::Spec;

/// hash.go's salt. Do not change it (neither does the MCO).
const SALT: [u8; 80] = [
    16, 124, 206, 228, 139, 56, 175, 175, 79, 229, 134, 118, 157, 154, 211, 110, 25, 93, 47, 253,
    172, 106, 37, 7, 174, 13, 160, 185, 110, 17, 87, 52, 219, 131, 12, 206, 218, 141, 116, 135,
    188, 181, 192, 151, 233, 62, 126, 165, 64, 83, 179, 119, 15, 168, 208, 197, 146, 107, 58, 227,
    133, 188, 238, 26, 33, 26, 235, 202, 32, 173, 31, 234, 41, 144, 148, 79, 6, 206, 23, 22,
];

/// `rendered-<pool>-<hash>` for a merged spec.
pub fn rendered_name(pool: &str, spec: &Spec) -> String {
    let yaml = crate::golang::yaml::marshal(&spec_value(spec));
    let mut h = Md5::new();
    h.update(SALT);
    h.update(yaml.as_bytes());
    let digest = h.finalize();
    let hex = crate::hex::encode(digest.as_ref());
    format!("rendered-{pool}-{hex}")
}

/// The spec as encoding/json marshals `MachineConfigSpec` (a missing config is `null`).
fn spec_value(spec: &Spec) -> Value {
    let config = spec
        .config
        .as_deref()
        .and_then(|raw| serde_json::from_slice(raw).ok())
        .unwrap_or(Value::Null);
    json!({
        "osImageURL": spec.os_image_url,
        "baseOSExtensionsContainerImage": spec.extensions_image,
        "config": config,
        "kernelArguments": spec.kernel_arguments,
        "extensions": spec.extensions,
        "fips": spec.fips,
        "kernelType": spec.kernel_type,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_name_of_a_recorded_upstream_render() {
        // The conformance corpus's accept-3.2 case: one file, one kernel argument.
        let spec = Spec {
            os_image_url: String::new(),
            extensions_image: String::new(),
            config: Some(
                br#"{"ignition":{"version":"3.5.0"},"storage":{"files":[{"overwrite":true,"path":"/etc/x","contents":{"source":"data:,x"},"mode":420}]}}"#
                    .to_vec(),
            ),
            kernel_arguments: Some(vec!["foo=bar".into()]),
            extensions: Some(vec![]),
            fips: false,
            kernel_type: "default".into(),
        };
        assert_eq!(
            rendered_name("worker", &spec),
            "rendered-worker-60430d76e243603a52959554ff2a306d"
        );
    }
}
