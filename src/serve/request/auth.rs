//! Who a request presented itself as: what the access log records (`auth`) and what the
//! requests metric counts (`auth` label), one type from the handler to both.

use std::sync::Arc;

/// Why the server refuses a token it knows: a stale pointer config, not a guess.
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

/// What a request's bearer turned out to be.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Auth {
    /// No token (or a request that needs none).
    #[default]
    None,
    /// A live token, by id.
    Token(Arc<str>),
    /// A token the server knows and refuses, by id.
    Stale(Dead, Arc<str>),
    /// Something that matches no token: a guess.
    Invalid,
}

impl Auth {
    /// The access log's field: `token:<id>`, `expired:<id>`, `revoked:<id>`, `invalid` or
    /// `none`, in three pieces that the line joins as it is written.
    pub fn logged_parts(&self) -> [&str; 3] {
        match self {
            Auth::None => ["none", "", ""],
            Auth::Token(id) => ["token", ":", id],
            Auth::Stale(why, id) => [why.word(), ":", id],
            Auth::Invalid => ["invalid", "", ""],
        }
    }

    /// The requests metric's label: `token`, `machine` (a live machine token), `expired`,
    /// `revoked`, `invalid` or `none`; never an id.
    pub fn outcome(&self, machine: bool) -> &'static str {
        match self {
            Auth::None => "none",
            Auth::Token(_) if machine => "machine",
            Auth::Token(_) => "token",
            Auth::Stale(why, _) => why.word(),
            Auth::Invalid => "invalid",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn logged_and_counted_from_one_value() {
        let id: Arc<str> = "abc123".into();
        let cases = [
            (Auth::None, "none", "none"),
            (Auth::Token(id.clone()), "token:abc123", "token"),
            (
                Auth::Stale(Dead::Expired, id.clone()),
                "expired:abc123",
                "expired",
            ),
            (
                Auth::Stale(Dead::Revoked, id.clone()),
                "revoked:abc123",
                "revoked",
            ),
            (Auth::Invalid, "invalid", "invalid"),
        ];
        for (a, logged, label) in cases {
            assert_eq!(a.logged_parts().concat(), logged);
            assert_eq!(a.outcome(false), label);
        }
        assert_eq!(Auth::Token(id).outcome(true), "machine");
    }
}
