//! Provisioning tokens: `<id>.<secret>`, their store (`auth/tokens.json`) and rotation.
//!
//! The id (6 characters of `[a-z0-9]`) is public: lists and logs show it. The secret (32 bytes
//! from the OS, base64url without padding) never leaves the store except inside a pointer config.
//!
//! A token has a pool scope: the pools whose configs it fetches. Each pool has at most one
//! current token (the one its pointer config carries), normally scoped to that pool alone, so
//! a worker's pointer config cannot fetch the master's config. Tokens made before scopes
//! existed (format version 1) have none and fetch every pool; `inspect` warns about them and
//! `token rotate` replaces them.

mod machine;
mod published;
mod state;

pub use published::{
    MAX_GONE, Published, PublishedToken, digest, is_directory_id, new_directory_id,
};
pub use state::{Dead, Effective, State};

use std::fmt;

use anyhow::{Result, anyhow, bail};
use base64::Engine;
use serde::{Deserialize, Serialize};
use time::OffsetDateTime;

/// One token, secret included. `Debug` never prints the secret.
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Token {
    /// Public id.
    pub id: String,
    /// Secret part.
    pub secret: String,
    /// Free text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// When it was made.
    #[serde(with = "time::serde::rfc3339")]
    pub created: OffsetDateTime,
    /// When it stops being accepted; `None` for never.
    #[serde(default, with = "time::serde::rfc3339::option")]
    pub expires: Option<OffsetDateTime>,
    /// Stored state.
    pub state: State,
    /// The pools it may fetch; `None` for a token made before scopes existed (every pool).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pools: Option<Vec<String>>,
    /// The node name of the one machine it is bound to (`machine add`); such a token is
    /// never current and never goes into a pool's pointer config.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub machine: Option<String>,
    /// How many full-config fetches it allows (`machine add --uses`); `None` for any number.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub uses: Option<u32>,
}

impl fmt::Debug for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Token")
            .field("id", &self.id)
            .field("secret", &"<redacted>")
            .field("expires", &self.expires)
            .field("state", &self.state)
            .field("pools", &self.pools)
            .field("machine", &self.machine)
            .field("uses", &self.uses)
            .finish()
    }
}

impl Token {
    /// `<id>.<secret>`, the bearer credential.
    pub fn bearer(&self) -> String {
        format!("{}.{}", self.id, self.secret)
    }

    /// Whether it may fetch `pool`'s config.
    pub fn covers(&self, pool: &str) -> bool {
        self.pools
            .as_ref()
            .is_none_or(|ps| ps.iter().any(|p| p == pool))
    }

    /// Whether the server accepts it at `now`.
    pub fn is_live(&self, now: OffsetDateTime) -> bool {
        self.state != State::Revoked && self.expires.is_none_or(|e| now < e)
    }

    /// The state `token list` shows: `current`, `active`, `expired` or `revoked`.
    pub fn effective_state(&self, now: OffsetDateTime) -> Effective {
        match self.state {
            State::Revoked => Effective::Revoked,
            _ if !self.is_live(now) => Effective::Expired,
            State::Current => Effective::Current,
            State::Active => Effective::Active,
        }
    }
}

/// What `token list` and `--format json` may show of a token: never the secret.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TokenSummary {
    /// Public id.
    pub id: String,
    /// Free text.
    pub description: Option<String>,
    /// RFC 3339.
    pub created: String,
    /// RFC 3339, or null for never.
    pub expires: Option<String>,
    /// current, active, expired or revoked.
    pub state: Effective,
    /// The pools it may fetch; null for a token without a scope (every pool).
    pub pools: Option<Vec<String>>,
    /// The machine it is bound to, for a machine token.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub machine: Option<String>,
}

/// One pool's token change in a rotation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rotated {
    /// The pool.
    pub pool: String,
    /// Its new current token.
    pub id: String,
    /// The token it replaces, now in its grace period.
    pub previous: Option<String>,
}

/// `auth/tokens.json`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TokenStore {
    /// Layout version.
    pub format_version: u32,
    /// Every token, oldest first.
    pub tokens: Vec<Token>,
}

impl Default for TokenStore {
    fn default() -> Self {
        TokenStore::new()
    }
}

impl TokenStore {
    /// The current layout version (2: tokens have a pool scope).
    pub const FORMAT_VERSION: u32 = 2;

    /// An empty store (of the current format version, as [`Default`] gives too).
    pub fn new() -> Self {
        TokenStore {
            format_version: Self::FORMAT_VERSION,
            tokens: Vec::new(),
        }
    }

    /// Parses and checks the store; `what` names the file in errors. The error never quotes
    /// the file's content, which holds secrets.
    pub fn parse(bytes: &[u8], what: &str) -> Result<Self> {
        let mut store: TokenStore = serde_json::from_slice(bytes).map_err(|e| {
            anyhow!(
                "{what} is not a valid token store (line {}, column {}: {}); restore it from a backup or remove it and run `mcsctl token rotate`",
                e.line(),
                e.column(),
                classify(&e)
            )
        })?;
        match store.format_version {
            Self::FORMAT_VERSION => {}
            // Before scopes: every token fetches every pool.
            1 if store.tokens.iter().all(|t| t.pools.is_none()) => {}
            v => bail!(
                "{what} has format version {v}, this mcsctl reads versions 1 and {}",
                Self::FORMAT_VERSION
            ),
        }
        let mut ids = std::collections::HashSet::new();
        for t in &store.tokens {
            if !is_token_id(&t.id) || !is_token_secret(&t.secret) {
                bail!(
                    "{what}: token {:?} is malformed (id must be 6 of [a-z0-9], secret 43 base64url characters)",
                    t.id
                );
            }
            if !ids.insert(&t.id) {
                bail!("{what}: token id {} appears twice", t.id);
            }
            if let Some(ps) = &t.pools
                && (ps.is_empty() || ps.iter().any(|p| !crate::names::is_dns_label(p)))
            {
                bail!(
                    "{what}: token {} has a malformed pool scope (pool names are DNS labels, at least one)",
                    t.id
                );
            }
        }
        for t in store.tokens.iter().filter(|t| t.machine.is_some()) {
            let one_pool = t.pools.as_ref().is_some_and(|p| p.len() == 1);
            let name_ok = t.machine.as_deref().is_some_and(crate::names::is_dns_name);
            if !one_pool || !name_ok || t.state == State::Current || t.uses == Some(0) {
                bail!(
                    "{what}: machine token {} is malformed (one machine name, one pool, never current, at least one use)",
                    t.id
                );
            }
        }
        // At most one current token without a scope, and one scoped current token per pool.
        let current: Vec<&Token> = store
            .tokens
            .iter()
            .filter(|t| t.state == State::Current)
            .collect();
        if current.iter().filter(|t| t.pools.is_none()).count() > 1 {
            bail!("{what}: more than one token without a pool scope is marked current");
        }
        let mut seen = std::collections::HashSet::new();
        for p in current.iter().filter_map(|t| t.pools.as_ref()).flatten() {
            if !seen.insert(p) {
                bail!("{what}: more than one token is marked current for pool {p}");
            }
        }
        store.format_version = Self::FORMAT_VERSION;
        Ok(store)
    }

    /// Serialises the store (pretty JSON, trailing newline).
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        let mut v = serde_json::to_vec_pretty(self)?;
        v.push(b'\n');
        Ok(v)
    }

    /// The live current token of `pool`: the one scoped to it, else one without a scope.
    pub fn current_for(&self, pool: &str, now: OffsetDateTime) -> Option<&Token> {
        let live = |t: &&Token| t.state == State::Current && t.is_live(now) && t.covers(pool);
        self.tokens
            .iter()
            .filter(live)
            .find(|t| t.pools.is_some())
            .or_else(|| self.tokens.iter().filter(live).find(|t| t.pools.is_none()))
    }

    /// Tokens the server accepts at `now`.
    pub fn live(&self, now: OffsetDateTime) -> impl Iterator<Item = &Token> {
        self.tokens.iter().filter(move |t| t.is_live(now))
    }

    /// Adds a new token scoped to `pools` (at least one). It becomes current when none of its
    /// pools has a live current token (a dead current one is demoted); returns its id and
    /// whether it became current.
    pub fn create(
        &mut self,
        now: OffsetDateTime,
        ttl: Option<time::Duration>,
        description: Option<String>,
        pools: Vec<String>,
    ) -> Result<(String, bool)> {
        if pools.is_empty() {
            bail!("a token needs at least one pool");
        }
        let make_current = pools.iter().all(|p| self.current_for(p, now).is_none());
        if make_current {
            for t in &mut self.tokens {
                if t.state == State::Current && pools.iter().any(|p| t.covers(p)) {
                    t.state = State::Active;
                }
            }
        }
        let token = self.generate(
            now,
            ttl,
            description,
            if make_current {
                State::Current
            } else {
                State::Active
            },
            pools,
        )?;
        let id = token.id.clone();
        self.tokens.push(token);
        Ok((id, make_current))
    }

    /// Makes a new current token for each of `pools`, scoped to that pool alone. Each token it
    /// replaces (the pool's current one, and any current token without a scope) stays valid
    /// for `grace` (or until its own expiry, whichever is sooner).
    pub fn rotate(
        &mut self,
        now: OffsetDateTime,
        grace: time::Duration,
        ttl: Option<time::Duration>,
        description: Option<String>,
        pools: &[String],
    ) -> Result<Vec<Rotated>> {
        // Each pool's predecessor, as it was before anything moved.
        let previous: Vec<Option<String>> = pools
            .iter()
            .map(|p| {
                self.tokens
                    .iter()
                    .filter(|t| t.state == State::Current && t.covers(p))
                    .find(|t| t.pools.is_some())
                    .or_else(|| {
                        self.tokens
                            .iter()
                            .find(|t| t.state == State::Current && t.pools.is_none())
                    })
                    .map(|t| t.id.clone())
            })
            .collect();
        let end = now.saturating_add(grace);
        for t in &mut self.tokens {
            let replaced = t.pools.is_none() || pools.iter().any(|p| t.covers(p));
            if t.state == State::Current && replaced {
                t.state = State::Active;
                t.expires = Some(t.expires.map_or(end, |e| e.min(end)));
            }
        }
        let mut out = Vec::new();
        for (pool, previous) in pools.iter().zip(previous) {
            let token = self.generate(
                now,
                ttl,
                description.clone(),
                State::Current,
                vec![pool.clone()],
            )?;
            out.push(Rotated {
                pool: pool.clone(),
                id: token.id.clone(),
                previous,
            });
            self.tokens.push(token);
        }
        Ok(out)
    }

    /// Revokes a token. The current token cannot be revoked: the pointer configs carry it, so
    /// `token rotate` then `token revoke` of the previous id replaces it everywhere at once.
    pub fn revoke(&mut self, id: &str) -> Result<()> {
        let t =
            self.tokens.iter_mut().find(|t| t.id == id).ok_or_else(|| {
                anyhow!("no token with id {id:?}; `mcsctl token list` shows the ids")
            })?;
        if t.state == State::Current {
            bail!(
                "token {id} is the current token written in the pointer configs; run `mcsctl token rotate` to replace it there, then `mcsctl token revoke {id}`"
            );
        }
        t.state = State::Revoked;
        Ok(())
    }

    /// Removes every token that can no longer be used (expired or revoked) and returns their
    /// ids. A machine still holding one then gets "unknown token" from serve instead of
    /// "expired" or "revoked".
    pub fn prune(&mut self, now: OffsetDateTime) -> Vec<String> {
        let mut removed = Vec::new();
        self.tokens.retain(|t| {
            let keep = t.is_live(now);
            if !keep {
                removed.push(t.id.clone());
            }
            keep
        });
        removed
    }

    /// Summaries for listing, oldest first.
    pub fn summaries(&self, now: OffsetDateTime) -> Vec<TokenSummary> {
        self.tokens
            .iter()
            .map(|t| TokenSummary {
                id: t.id.clone(),
                description: t.description.clone(),
                created: crate::pki::cert::rfc3339(t.created.unix_timestamp()),
                expires: t
                    .expires
                    .map(|e| crate::pki::cert::rfc3339(e.unix_timestamp())),
                state: t.effective_state(now),
                pools: t.pools.clone(),
                machine: t.machine.clone(),
            })
            .collect()
    }

    fn generate(
        &self,
        now: OffsetDateTime,
        ttl: Option<time::Duration>,
        description: Option<String>,
        state: State,
        pools: Vec<String>,
    ) -> Result<Token> {
        self.generate_unlike(now, ttl, description, state, pools, &|id| {
            self.tokens.iter().any(|t| t.id == id)
        })
    }

    /// [`TokenStore::generate`] with an id `taken` does not know.
    fn generate_unlike(
        &self,
        now: OffsetDateTime,
        ttl: Option<time::Duration>,
        description: Option<String>,
        state: State,
        pools: Vec<String>,
        taken: &dyn Fn(&str) -> bool,
    ) -> Result<Token> {
        let id = loop {
            let id = random_id()?;
            if !taken(&id) {
                break id;
            }
        };
        let mut secret = [0u8; 32];
        aws_lc_rs::rand::fill(&mut secret).map_err(|_| anyhow!("the OS random source failed"))?;
        let now = now.replace_nanosecond(0).unwrap_or(now);
        Ok(Token {
            id,
            secret: base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(secret),
            description,
            created: now,
            expires: ttl.map(|d| now.saturating_add(d)),
            state,
            pools: Some(pools),
            machine: None,
            uses: None,
        })
    }
}

/// The kind of JSON error, without serde's message (which can quote input).
fn classify(e: &serde_json::Error) -> &'static str {
    use serde_json::error::Category;
    match e.classify() {
        Category::Io => "read error",
        Category::Syntax => "not JSON",
        Category::Data => "unexpected structure",
        Category::Eof => "truncated",
    }
}

fn random_id() -> Result<String> {
    const ALPHABET: &[u8] = b"abcdefghijklmnopqrstuvwxyz0123456789";
    let mut id = String::with_capacity(6);
    while id.len() < 6 {
        let mut b = [0u8; 16];
        aws_lc_rs::rand::fill(&mut b).map_err(|_| anyhow!("the OS random source failed"))?;
        // Rejection sampling: 252 = 7 * 36, so accepted bytes map uniformly.
        for x in b.into_iter().filter(|x| *x < 252) {
            if id.len() < 6 {
                id.push(ALPHABET[(x % 36) as usize] as char);
            }
        }
    }
    Ok(id)
}

/// Whether `s` has the form of a token id.
pub fn is_token_id(s: &str) -> bool {
    s.len() == 6
        && s.bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
}

fn is_token_secret(s: &str) -> bool {
    s.len() == 43
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

#[cfg(test)]
mod tests;
