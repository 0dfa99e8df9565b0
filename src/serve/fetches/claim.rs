//! A claim on one of a token's uses: what is sent ([`Sent`]), what a granted claim is
//! ([`Claimed`]), why one is refused ([`Refusal`]), and the rules that judge it ([`Rules`]).

use std::time::Duration;

use crate::ledger::Record;

/// Why a fetch is refused.
pub(in crate::serve) enum Refusal {
    /// The token's whole fetches are spent: the first one.
    Spent(Box<Record>),
    /// Its last use is held by a fetch whose outcome is unknown ([`ledger::Admit::Unknown`]):
    /// that one.
    Unknown(Box<Record>),
    /// Too many of its fetches were cut off: how many, and the last one.
    CutOff(u32, Box<Record>),
    /// Its last use is held by a fetch being sent now (here or on another replica): that one.
    Busy(Box<Record>),
    /// The ledger cannot be read or written.
    Unrecorded(String),
}

impl From<String> for Refusal {
    /// The store could not be asked or changed: the fetch waits (503).
    fn from(why: String) -> Refusal {
        Refusal::Unrecorded(why)
    }
}

/// A fetch claimed and written to the ledger.
pub(in crate::serve) struct Claimed {
    /// The record as written (JSON and its newline), for the access log.
    pub line: Vec<u8>,
    /// Where its `"whole"` flag is in `line`.
    pub at: usize,
    /// The claim, for [`super::Fetches::confirm`] or [`super::Fetches::cut`].
    pub id: u64,
    /// The token's whole fetches left before this one (`None`: any number).
    pub left: Option<u32>,
}

/// What a fetch is: the config of `pool` at `spec`, `bytes` long, sent to `client` (through
/// the balancer `via`) at `time`.
pub(in crate::serve) struct Sent<'a> {
    pub pool: &'a str,
    pub spec: &'a str,
    pub bytes: u64,
    pub client: &'a str,
    pub via: Option<&'a str>,
    pub time: &'a str,
}

/// How the fetches are judged.
#[derive(Debug, Clone, Copy)]
pub(in crate::serve) struct Rules {
    /// Fetches of a token with limited uses that may be cut off before it is refused.
    pub max_partial: u32,
    /// How long another replica's record may stay unconfirmed before it counts as cut: the
    /// longest a connection lives (`--connection-deadline` and `--write-timeout`).
    pub settle: Duration,
}
