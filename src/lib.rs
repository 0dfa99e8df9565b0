//! mcsctl: installer and PKI toolkit for the Machine Config Server trust chain of
//! user-provisioned CoreOS / OpenShift / OKD clusters.
#![deny(unsafe_code)] // allowed in one module only: heap (see there)
#![warn(missing_docs)]

pub mod assets;
pub mod cidr;
pub mod cli;
pub mod clock;
pub mod cmd;
pub mod completion;
pub mod csr;
pub mod doctor;
pub mod duration;
pub mod escape;
pub mod exit;
pub mod firstboot;
pub mod golang;
pub mod heap;
pub mod hex;
pub mod http;
pub mod ignition;
pub mod inspect;
pub mod json_line;
pub mod kube;
pub mod kubeconfig;
pub mod ledger;
pub mod manifests;
pub mod model;
pub mod names;
pub mod ops;
pub mod percent;
pub mod pki;
pub mod serve;
pub mod size;
pub mod store;
pub mod token;
pub mod ui;
