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
    token: Option<&[u8]>,
    memo: &Memo,
    now: OffsetDateTime,
) -> Presented<'s> {
    let Some(token) = token else {
        return Presented::None;
    };
    let d = memo.digest(token);
    let id = token
        .iter()
        .position(|&b| b == b'.')
        .map_or(token, |dot| &token[..dot]);
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

/// The last token one connection presented and its digest: a keep-alive client (Ignition
/// retrying, a load balancer's health check with a token) sends the same token on every
/// request, and hashing it again would be most of serve's own work per request. Only the
/// digest is reused, never a verdict: each request is classified against the tokens served
/// now. The token is compared in constant time with the one remembered; a token longer than
/// [`Memo::MAX`] is hashed each time and not kept.
///
/// Invariant relied on: a `Memo` belongs to one connection, whose requests hyper answers one
/// at a time, so its lock is never contended.
#[derive(Default)]
pub(in crate::serve) struct Memo(std::sync::Mutex<Option<Remembered>>);

/// A token as presented, and its SHA-256.
type Remembered = (Box<[u8]>, [u8; 32]);

impl Memo {
    /// The longest token remembered: far above a real one (`<6-char id>.<43-char secret>`).
    const MAX: usize = 256;

    /// SHA-256 of `token`, from the memo when it is the token remembered.
    pub(in crate::serve) fn digest(&self, token: &[u8]) -> [u8; 32] {
        let mut last = self.0.lock().unwrap_or_else(|p| p.into_inner());
        if let Some((t, d)) = &*last
            && aws_lc_rs::constant_time::verify_slices_are_equal(t, token).is_ok()
        {
            return *d;
        }
        let d = digest(token);
        if token.len() <= Self::MAX {
            *last = Some((token.into(), d));
        }
        d
    }
}

impl std::fmt::Debug for Memo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Never the token.
        f.write_str("Memo")
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
        let memo = Memo::default();
        assert_eq!(classify(&t, None, &memo, now), Presented::None);
        assert_eq!(
            classify(&t, Some(&b"aaaaaa.live"[..]), &memo, now),
            Presented::Live(&t.live[0])
        );
        assert_eq!(
            classify(&t, Some(&b"bbbbbb.lapsed"[..]), &memo, now),
            Presented::Stale(Dead::Expired, &"bbbbbb".into()),
            "expired since the last reload"
        );
        assert_eq!(
            classify(&t, Some(&b"cccccc.gone"[..]), &memo, now),
            Presented::Stale(Dead::Revoked, &"cccccc".into())
        );
        assert_eq!(
            classify(&t, Some(&b"aaaaaa.wrongsecret"[..]), &memo, now),
            Presented::Unknown,
            "a known id with another secret is a guess"
        );
        for guess in ["zzzzzz.live", "aaaaaa", "", ".", "cccccc.live"] {
            assert_eq!(
                classify(&t, Some(guess.as_bytes()), &memo, now),
                Presented::Unknown,
                "{guess}"
            );
        }
        // One candidate per request, found by id, whatever the number of tokens.
        let mut many = t.clone();
        for i in 0..10_000 {
            many.live.push(TokenDigest {
                id: format!("m{i:05}").into(),
                digest: digest(format!("m{i:05}.secret")),
                expires: None,
                pools: None,
                machine: None,
            });
        }
        let many = many.indexed();
        assert_eq!(
            classify(&many, Some(&b"m09999.secret"[..]), &memo, now),
            Presented::Live(&many.live[many.live.len() - 1])
        );
        assert_eq!(
            classify(&many, Some(&b"aaaaaa.live"[..]), &memo, now),
            Presented::Live(&many.live[0])
        );
    }

    #[test]
    fn a_remembered_digest_is_the_tokens_and_never_a_verdict() {
        let memo = Memo::default();
        for t in [
            "aaaaaa.live",
            "aaaaaa.live",
            "aaaaaa.livf",
            "aaaaaa.liv",
            "aaaaaa.live",
        ] {
            assert_eq!(memo.digest(t.as_bytes()), digest(t), "{t}");
        }
        // A token too long to keep is hashed each time and leaves the memo as it was.
        let long = format!("aaaaaa.{}", "x".repeat(Memo::MAX));
        assert_eq!(memo.digest(long.as_bytes()), digest(&long));
        let kept = memo.0.lock().unwrap().clone().map(|(t, _)| t);
        assert_eq!(kept.as_deref(), Some(&b"aaaaaa.live"[..]));
        // The same token, remembered, is classified against the tokens served now: revoked
        // since the last request, it is refused.
        let now = OffsetDateTime::now_utc();
        let tokens = |dead: bool| {
            let mut t = Tokens {
                present: true,
                ..Default::default()
            };
            if dead {
                t.dead.push(DeadToken {
                    id: "aaaaaa".into(),
                    digest: digest("aaaaaa.live"),
                    why: Dead::Revoked,
                });
            } else {
                t.live.push(TokenDigest {
                    id: "aaaaaa".into(),
                    digest: digest("aaaaaa.live"),
                    expires: None,
                    pools: None,
                    machine: None,
                });
            }
            t.indexed()
        };
        let (live, revoked) = (tokens(false), tokens(true));
        assert_eq!(
            classify(&live, Some(&b"aaaaaa.live"[..]), &memo, now),
            Presented::Live(&live.live[0])
        );
        assert_eq!(
            classify(&revoked, Some(&b"aaaaaa.live"[..]), &memo, now),
            Presented::Stale(Dead::Revoked, &"aaaaaa".into())
        );
    }
}
