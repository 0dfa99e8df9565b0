//! The one integration test binary of mcsctl.

mod architecture;
mod bad_input;
mod bounds;
mod conformance;
mod crash;
mod csr;
mod docs;
mod doctor;
mod first_day;
mod golden;
mod ignition_client;
mod inspect;
mod machine;
mod manifests;
mod mco;
mod mco_conformance;
mod pki;
mod pointer;
mod render;
mod rotation;
mod serve;
mod serve_faults;
mod support;
mod token;
mod tty;
mod walkthrough;
