//! The one integration test binary of mcsctl.

mod ignition_client;
mod support;
