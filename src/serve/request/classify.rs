//! Who a presented bearer token is: a live token, a stale one (expired or revoked: the server
//! knows it and refuses it), or a guess. Found by its id, compared in constant time.

use std::sync::Arc;

use time::OffsetDateTime;

use crate::serve::state::live::{Slot, TokenDigest, Tokens, digest};
use crate::token::Dead;

/// What a presented token is.
#[derive(Debug, PartialEq, Eq)]
pub(in crate::serve) enum Presented<'s> {
    /// No token.
    None,
    /// A live token.
    Live(&'s TokenDigest),
    /// A token the server knows and refuses, with its id.
    Stale(Dead, &'s Arc<str>),
    /// A token that matches nothing: a guess.
    Unknown,
}

/// Classifies a token: its one candidate is found by its id (the part before the dot, which is
/// public), then the digest of the whole token is compared with the candidate's in constant
/// time. The cost is the same whatever the number of tokens, and the timing tells nothing the
/// id does not: an unknown id is compared against a digest nothing matches.
pub(in crate::serve) fn classify<'s>(
    tokens: &'s Tokens,
    token: Option<&str>,
    now: OffsetDateTime,
) -> Presented<'s> {
    let Some(token) = token else {
        return Presented::None;
    };
    let d = digest(token);
    let id = token.split_once('.').map_or(token, |(id, _)| id);
    let slot = tokens.index.get(id).copied();
    let stored = match slot {
        Some(Slot::Live(i)) => &tokens.live[i].digest,
        Some(Slot::Dead(i)) => &tokens.dead[i].digest,
        None => &NO_TOKEN,
    };
    if aws_lc_rs::constant_time::verify_slices_are_equal(stored, &d).is_err() {
        return Presented::Unknown;
    }
    match slot {
        Some(Slot::Live(i)) => {
            let t = &tokens.live[i];
            if t.expires.is_none_or(|e| now < e) {
                Presented::Live(t)
            } else {
                Presented::Stale(Dead::Expired, &t.id)
            }
        }
        Some(Slot::Dead(i)) => Presented::Stale(tokens.dead[i].why, &tokens.dead[i].id),
        None => Presented::Unknown,
    }
}

/// What an unknown id is compared against: no SHA-256 of a token is all ones.
const NO_TOKEN: [u8; 32] = [0xff; 32];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::serve::state::live::DeadToken;

    #[test]
    fn tokens_are_valid_stale_or_guesses() {
        let now = OffsetDateTime::now_utc();
        let t = Tokens {
            live: vec![
                TokenDigest {
                    id: "aaaaaa".into(),
                    digest: digest("aaaaaa.live"),
                    expires: None,
                    pools: None,
                    machine: None,
                },
                TokenDigest {
                    id: "bbbbbb".into(),
                    digest: digest("bbbbbb.lapsed"),
                    expires: Some(now - time::Duration::seconds(1)),
                    pools: Some(vec!["worker".into()]),
                    machine: None,
                },
            ],
            dead: vec![DeadToken {
                id: "cccccc".into(),
                digest: digest("cccccc.gone"),
                why: Dead::Revoked,
            }],
            present: true,
            machines: false,
            index: Default::default(),
            ident: None,
        }
        .indexed();
        assert_eq!(classify(&t, None, now), Presented::None);
        assert_eq!(
            classify(&t, Some("aaaaaa.live"), now),
            Presented::Live(&t.live[0])
        );
        assert_eq!(
            classify(&t, Some("bbbbbb.lapsed"), now),
            Presented::Stale(Dead::Expired, &"bbbbbb".into()),
            "expired since the last reload"
        );
        assert_eq!(
            classify(&t, Some("cccccc.gone"), now),
            Presented::Stale(Dead::Revoked, &"cccccc".into())
        );
        assert_eq!(
            classify(&t, Some("aaaaaa.wrongsecret"), now),
            Presented::Unknown,
            "a known id with another secret is a guess"
        );
        for guess in ["zzzzzz.live", "aaaaaa", "", ".", "cccccc.live"] {
            assert_eq!(
                classify(&t, Some(guess), now),
                Presented::Unknown,
                "{guess}"
            );
        }
        // One candidate per request, found by id, whatever the number of tokens.
        let mut many = t.clone();
        for i in 0..10_000 {
            many.live.push(TokenDigest {
                id: format!("m{i:05}").into(),
                digest: digest(&format!("m{i:05}.secret")),
                expires: None,
                pools: None,
                machine: None,
            });
        }
        let many = many.indexed();
        assert_eq!(
            classify(&many, Some("m09999.secret"), now),
            Presented::Live(&many.live[many.live.len() - 1])
        );
        assert_eq!(
            classify(&many, Some("aaaaaa.live"), now),
            Presented::Live(&many.live[0])
        );
    }
}
