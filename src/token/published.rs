//! The live auth state as serve replicas share it through the store (`--store`): each token's
//! id, the SHA-256 of its bearer string, its state, expiry, pools and machine. Never a secret:
//! serve compares the digest of what a client presents, and a digest of a 256-bit secret
//! fetches nothing.

use serde::{Deserialize, Serialize};
use time::OffsetDateTime;

use super::{State, TokenStore};

/// The published form of a token store.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Published {
    /// The format version.
    pub format_version: u32,
    /// Every token, live or not (a dead one is refused as stale, not as a guess).
    pub tokens: Vec<PublishedToken>,
    /// The asset directory that published it (`store.id` of its `mcsctl.json`): a store that
    /// holds another directory's tokens is refused, naming both. Absent in states published
    /// before directories had one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub owner: Option<String>,
    /// How many times that directory, or a copy of it, has published: one more each time.
    #[serde(default)]
    pub generation: u64,
    /// Ids of tokens published once and pruned since: a copy of the directory made before
    /// cannot publish them again (revocation only moves one way). The newest [`MAX_GONE`].
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub gone: Vec<String>,
}

/// Pruned token ids a published state remembers, at most (6 bytes each and quotes: under 1 MiB).
pub const MAX_GONE: usize = 100_000;

/// One token, without its secret.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PublishedToken {
    /// Public id.
    pub id: String,
    /// SHA-256 of the bearer string (`<id>.<secret>`), hex.
    pub sha256: String,
    /// Stored state.
    pub state: State,
    /// When it stops being accepted.
    #[serde(default, with = "time::serde::rfc3339::option")]
    pub expires: Option<OffsetDateTime>,
    /// The pools it may fetch (`None`: every pool).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pools: Option<Vec<String>>,
    /// The machine it is bound to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub machine: Option<String>,
    /// Full-config fetches it allows (`None`: any number).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub uses: Option<u32>,
}

impl Published {
    /// The current format version.
    pub const FORMAT_VERSION: u32 = 1;

    /// The published form of `store`.
    pub fn of(store: &TokenStore) -> Published {
        Published {
            format_version: Self::FORMAT_VERSION,
            tokens: store
                .tokens
                .iter()
                .map(|t| PublishedToken {
                    id: t.id.clone(),
                    sha256: crate::hex::encode(&digest(t.bearer())),
                    state: t.state,
                    expires: t.expires,
                    pools: t.pools.clone(),
                    machine: t.machine.clone(),
                    uses: t.uses,
                })
                .collect(),
            owner: None,
            generation: 0,
            gone: Vec::new(),
        }
    }

    /// Reads a published state; `what` names it in errors.
    pub fn parse(bytes: &[u8], what: &str) -> anyhow::Result<Published> {
        let p: Published = serde_json::from_slice(bytes)
            .map_err(|e| anyhow::anyhow!("{what} is not a published token state: {e}"))?;
        if p.format_version != Self::FORMAT_VERSION {
            anyhow::bail!(
                "{what} has format version {}, this mcsctl reads version {}",
                p.format_version,
                Self::FORMAT_VERSION
            );
        }
        if p.owner.as_deref().is_some_and(|o| !is_directory_id(o)) {
            anyhow::bail!("{what}: its owner is not a directory id (32 hex digits)");
        }
        if p.gone.len() > MAX_GONE || !p.gone.iter().all(|g| super::is_token_id(g)) {
            anyhow::bail!("{what}: its pruned token ids are malformed or too many");
        }
        // Names come back into logs, events and hints: what no mcsctl publishes is refused,
        // named only by what is safe to print.
        for (i, t) in p.tokens.iter().enumerate() {
            if !super::is_token_id(&t.id) {
                anyhow::bail!("{what}: token {} has a malformed id (6 of [a-z0-9])", i + 1);
            }
            if crate::hex::decode32(&t.sha256).is_none() {
                anyhow::bail!("{what}: token {} has no SHA-256", t.id);
            }
            let pools_ok = t.pools.as_ref().is_none_or(|ps| {
                !ps.is_empty() && ps.iter().all(|p| crate::names::is_dns_label(p))
            });
            let machine_ok = t.machine.as_deref().is_none_or(crate::names::is_dns_name);
            if !pools_ok || !machine_ok {
                anyhow::bail!(
                    "{what}: token {} has a malformed pool or machine name (pools are DNS labels, machines DNS names)",
                    t.id
                );
            }
        }
        Ok(p)
    }
}

impl PublishedToken {
    /// The digest, as bytes.
    pub fn digest(&self) -> [u8; 32] {
        // `parse` refused any other: a value built in code that is not hex matches nothing.
        crate::hex::decode32(&self.sha256).unwrap_or_default()
    }

    /// Whether it is accepted at `now`.
    pub fn is_live(&self, now: OffsetDateTime) -> bool {
        self.state != State::Revoked && self.expires.is_none_or(|e| now < e)
    }
}

/// Whether `s` is an asset directory's id in the store: 32 lowercase hex digits.
pub fn is_directory_id(s: &str) -> bool {
    s.len() == 32
        && s.bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

/// A new asset directory id: 128 random bits, hex.
pub fn new_directory_id() -> anyhow::Result<String> {
    let mut b = [0u8; 16];
    aws_lc_rs::rand::fill(&mut b).map_err(|_| anyhow::anyhow!("the OS random source failed"))?;
    Ok(crate::hex::encode(&b))
}

/// SHA-256 of a bearer string.
pub fn digest(bearer: impl AsRef<[u8]>) -> [u8; 32] {
    let d = aws_lc_rs::digest::digest(&aws_lc_rs::digest::SHA256, bearer.as_ref());
    let mut out = [0u8; 32];
    out.copy_from_slice(d.as_ref());
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::datetime;

    #[test]
    fn no_secret_goes_out_and_the_digest_comes_back() {
        let mut s = TokenStore::new();
        let t0 = datetime!(2026-01-01 00:00 UTC);
        s.create(t0, None, None, vec!["worker".into()]).unwrap();
        let p = Published::of(&s);
        let text = serde_json::to_string(&p).unwrap();
        assert!(!text.contains(&s.tokens[0].secret), "{text}");
        let back = Published::parse(text.as_bytes(), "p").unwrap();
        assert_eq!(back, p);
        assert_eq!(back.tokens[0].digest(), digest(s.tokens[0].bearer()));
        assert!(back.tokens[0].is_live(t0));
        assert!(
            Published::parse(
                br#"{"formatVersion":1,"tokens":[{"id":"a","sha256":"zz","state":"active"}]}"#,
                "p"
            )
            .is_err()
        );
        // A name that would forge a log line (a newline) or a field is refused, not printed.
        let mut forged = serde_json::to_value(&p).unwrap();
        forged["tokens"][0]["machine"] = "w0\n2026-01-01T00:00:00Z reload: ok".into();
        let e = Published::parse(forged.to_string().as_bytes(), "p")
            .unwrap_err()
            .to_string();
        assert_eq!(
            e,
            format!(
                "p: token {} has a malformed pool or machine name (pools are DNS labels, machines DNS names)",
                s.tokens[0].id
            )
        );
        forged["tokens"][0]["machine"] = serde_json::Value::Null;
        forged["tokens"][0]["pools"] = serde_json::json!(["worker pool=master"]);
        assert!(Published::parse(forged.to_string().as_bytes(), "p").is_err());
    }
}
