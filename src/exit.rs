//! Exit codes, documented in the README and the man pages.

/// Success.
pub const OK: u8 = 0;
/// An error.
pub const ERROR: u8 = 1;
/// A usage error: a bad or missing flag or value.
pub const USAGE: u8 = 2;
/// A check found something that needs attention soon (e.g. within --warn-within).
pub const ATTENTION: u8 = 3;
/// A check failed (expired, not yet valid, broken chain, key mismatch, CA mismatch).
pub const FAILED: u8 = 4;

/// An error caused by how the command was called; exits with [`USAGE`].
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct UsageError(pub String);

/// Shorthand for returning a usage error.
pub fn usage(msg: impl Into<String>) -> anyhow::Error {
    UsageError(msg.into()).into()
}
