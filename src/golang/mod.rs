//! Byte-for-byte behaviour of the Go libraries the Machine Config Server is built on, where
//! what it serves or names depends on them: encoding/json as the MCO's `clarketm/json` fork
//! writes it, go-yaml v2's `Marshal` (the rendered-name hash and the bootstrap kubeconfig),
//! coreos/go-semver (the Accept header and Ignition versions), sort.SliceStable (the Accept
//! header's q order), net/url's `Parse` (mcsctl's one URL parser) and what `json.Unmarshal`
//! reads of a deep document. Each is a port of the parts the MCS uses, tested against its
//! recorded output.

pub mod json;
pub mod semver;
pub mod sort;
pub mod unmarshal;
pub mod url;
pub mod yaml;
