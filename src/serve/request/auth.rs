//! Who a request presented itself as: what the access log records (`auth`) and what the
//! requests metric counts (`auth` label), one type from the handler to both.

use std::sync::Arc;

use crate::token::Dead;

/// What a request's bearer turned out to be.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Auth {
    /// No token (or a request that needs none).
    #[default]
    None,
    /// A live token, by id.
    Live(Arc<str>),
    /// A token the server knows and refuses, by id.
    Stale(Dead, Arc<str>),
    /// Something that matches no token: a guess (logged `invalid`).
    Unknown,
}

impl Auth {
    /// The access log's field: `token:<id>`, `expired:<id>`, `revoked:<id>`, `invalid` or
    /// `none`, in three pieces that the line joins as it is written.
    pub fn logged_parts(&self) -> [&str; 3] {
        match self {
            Auth::None => ["none", "", ""],
            Auth::Live(id) => ["token", ":", id],
            Auth::Stale(why, id) => [why.word(), ":", id],
            Auth::Unknown => ["invalid", "", ""],
        }
    }

    /// The requests metric's label: `token`, `machine` (a live machine token), `expired`,
    /// `revoked`, `invalid` or `none`; never an id.
    pub fn outcome(&self, machine: bool) -> &'static str {
        match self {
            Auth::None => "none",
            Auth::Live(_) if machine => "machine",
            Auth::Live(_) => "token",
            Auth::Stale(why, _) => why.word(),
            Auth::Unknown => "invalid",
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
            (Auth::Live(id.clone()), "token:abc123", "token"),
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
            (Auth::Unknown, "invalid", "invalid"),
        ];
        for (a, logged, label) in cases {
            assert_eq!(a.logged_parts().concat(), logged);
            assert_eq!(a.outcome(false), label);
        }
        assert_eq!(Auth::Live(id).outcome(true), "machine");
    }
}
