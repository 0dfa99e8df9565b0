//! What a token is: its state in the store, and what it is at a given time.

use serde::{Deserialize, Serialize};

/// State of a token in the store.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum State {
    /// The token written into pointer configs. At most one.
    Current,
    /// Valid until it expires, but not in pointer configs (a rotated-out token in its grace
    /// period, or an extra token from `token create`).
    Active,
    /// Refused by the server.
    Revoked,
}

/// What a token is at a given time: its stored [`State`], or expired. Written in lower case
/// (`token list`, JSON), as the word is printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Effective {
    /// The pool's token in pointer configs, and live.
    Current,
    /// Live, not in pointer configs.
    Active,
    /// Past its expiry.
    Expired,
    /// Revoked.
    Revoked,
    /// Not in the store at all (a machine's token removed by hand).
    Missing,
}

impl Effective {
    /// Why a token in this state is refused, when it is.
    pub fn dead(self) -> Option<Dead> {
        match self {
            Effective::Expired => Some(Dead::Expired),
            Effective::Revoked => Some(Dead::Revoked),
            Effective::Current | Effective::Active | Effective::Missing => None,
        }
    }

    /// The word.
    pub fn word(self) -> &'static str {
        match self {
            Effective::Current => "current",
            Effective::Active => "active",
            Effective::Expired => "expired",
            Effective::Revoked => "revoked",
            Effective::Missing => "missing",
        }
    }
}

impl std::fmt::Display for Effective {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.word())
    }
}

/// Why serve refuses a token it knows (a stale pointer config, not a guess): the two
/// [`Effective`] states of a token that can no longer fetch.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dead {
    /// Past its expiry.
    Expired,
    /// Revoked.
    Revoked,
}

impl Dead {
    /// The word, as messages, the log and the metric say it.
    pub fn word(self) -> &'static str {
        match self {
            Dead::Expired => "expired",
            Dead::Revoked => "revoked",
        }
    }
}
