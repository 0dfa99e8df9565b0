//! What `serve` holds in memory, in parts that load and reload on their own: the TLS pair, the
//! tokens, the auth mode, and each pool's config. A part whose new files are bad keeps its last
//! good state and nothing else does: a truncated `rendered/infra.ign` keeps infra's old config
//! while a rotated token takes effect at once. Failed parts are retried at every poll.

use std::collections::BTreeMap;

// The tables serve looks up on every request, keyed by our own names (token ids, pools):
// foldhash's (a presented id is only looked up, never inserted).
use foldhash::HashMap;
use std::sync::Arc;

use anyhow::{Result, bail};
use time::OffsetDateTime;

use crate::assets::{AssetDir, layout};
use crate::ignition::render::payload::Stored;
use crate::ignition::translate::Variants;
use crate::model::config::AuthMode;
pub use crate::serve::conn::tls::Tls;
use crate::serve::state::watched::{FileId, Fingerprint, Outcome, file_id};
use crate::token::{Published, State as TokenState};

use crate::assets::layout::{PRE_APPROVAL, RENDERED};

/// A token the server accepts: the id (public) and a SHA-256 digest of `<id>.<secret>`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TokenDigest {
    /// Public id (shared with each fetch that records it).
    pub id: Arc<str>,
    /// SHA-256 of the bearer string.
    pub digest: [u8; 32],
    /// Expiry, if any.
    pub expires: Option<OffsetDateTime>,
    /// The pools it may fetch; `None` for a token without a scope.
    pub pools: Option<Vec<String>>,
    /// For a machine token, the machine and how many full-config fetches it allows.
    pub machine: Option<(Arc<str>, Option<u32>)>,
}

impl TokenDigest {
    /// Whether it may fetch `pool`.
    pub fn covers(&self, pool: &str) -> bool {
        self.pools
            .as_ref()
            .is_none_or(|ps| ps.iter().any(|p| p == pool))
    }
}

/// A token the server knows and refuses: a stale pointer config, not a guess.
#[derive(Debug, Clone)]
pub struct DeadToken {
    /// Public id.
    pub id: Arc<str>,
    /// SHA-256 of the bearer string.
    pub digest: [u8; 32],
    /// Why it is refused.
    pub why: crate::token::Dead,
}

/// The tokens part.
#[derive(Debug, Clone, Default)]
pub struct Tokens {
    /// Tokens accepted (each checked for expiry per request).
    pub live: Vec<TokenDigest>,
    /// Tokens known and refused.
    pub dead: Vec<DeadToken>,
    /// Whether `auth/tokens.json` was read at all.
    pub present: bool,
    /// Whether a live token is a machine's (its fetches are recorded in the ledger).
    pub machines: bool,
    /// Where each id is, in `live` or `dead` ([`Tokens::indexed`]): a request finds its
    /// token's one candidate by id, whatever the number of tokens. Keyed by the id's bytes (a
    /// token presented is found without reading it as text), shared with the token's `id`.
    pub index: HashMap<Arc<[u8]>, Slot>,
    /// The identity of the `auth/tokens.json` they were read from (`None`: published by the
    /// store): a reload whose file has the same identity keeps them as they are, so a pool's
    /// change never re-reads and re-hashes 100,000 tokens.
    pub ident: Option<FileId>,
}

/// Where a token is in [`Tokens`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Slot {
    /// `live[i]`.
    Live(usize),
    /// `dead[i]`.
    Dead(usize),
}

impl Tokens {
    /// With [`Tokens::index`] built from `live` and `dead` (an id is in one of them).
    pub fn indexed(mut self) -> Tokens {
        let live = self
            .live
            .iter()
            .enumerate()
            .map(|(i, t)| (Arc::<[u8]>::from(t.id.clone()), Slot::Live(i)));
        let dead = self
            .dead
            .iter()
            .enumerate()
            .map(|(i, t)| (Arc::<[u8]>::from(t.id.clone()), Slot::Dead(i)));
        self.index = dead.chain(live).collect();
        self
    }

    /// What serve accepts of a published token state (the directory's, or the store's), at
    /// `now`.
    pub fn of(p: &Published, now: OffsetDateTime) -> Tokens {
        let mut t = Tokens {
            present: true,
            ..Tokens::default()
        };
        for tok in &p.tokens {
            let d = tok.digest();
            if tok.is_live(now) {
                t.machines |= tok.machine.is_some();
                t.live.push(TokenDigest {
                    id: tok.id.as_str().into(),
                    digest: d,
                    expires: tok.expires,
                    pools: tok.pools.clone(),
                    machine: tok.machine.as_deref().map(|m| (m.into(), tok.uses)),
                });
            } else {
                t.dead.push(DeadToken {
                    id: tok.id.as_str().into(),
                    digest: d,
                    why: if tok.state == TokenState::Revoked {
                        crate::token::Dead::Revoked
                    } else {
                        crate::token::Dead::Expired
                    },
                });
            }
        }
        t.indexed()
    }

    /// How many are live at `now`.
    pub fn live_at(&self, now: OffsetDateTime) -> usize {
        self.live
            .iter()
            .filter(|t| t.expires.is_none_or(|e| now < e))
            .count()
    }
}

/// One pool's config, with the identity of the file it came from.
pub struct Pool {
    /// Its name, shared by every response that names it (not copied per request).
    pub name: Arc<str>,
    /// Every spec version of it.
    pub variants: Variants,
    ident: FileId,
}

/// One loaded generation. Parts are shared between generations that did not change them.
pub struct State {
    /// The TLS part.
    pub tls: Arc<Tls>,
    /// The tokens part.
    pub tokens: Arc<Tokens>,
    /// The auth mode in force.
    pub auth: AuthMode,
    /// Full configs by pool.
    pub full: HashMap<String, Arc<Pool>>,
    /// Pre-approval configs by pool.
    pub pre: HashMap<String, Arc<Pool>>,
}

impl std::fmt::Debug for State {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("State")
            .field("cert", &self.tls.cert_fingerprint)
            .field("auth", &self.auth.name())
            .field(
                "tokens",
                &self.tokens.live.iter().map(|t| &t.id).collect::<Vec<_>>(),
            )
            .field("pools", &self.pools())
            .finish()
    }
}

impl State {
    /// Pool names with a full config, sorted.
    pub fn pools(&self) -> Vec<String> {
        let mut p: Vec<String> = self.full.keys().cloned().collect();
        p.sort();
        p
    }
}

pub use crate::token::digest;

/// Loads and reloads the parts.
pub struct Loader {
    dir: AssetDir,
    provider: Arc<rustls::crypto::CryptoProvider>,
    /// `--auth`, which fixes the mode; else `mcsctl.json` decides at every reload.
    fixed_auth: Option<AuthMode>,
}

impl Loader {
    /// A loader for `dir`.
    pub fn new(
        dir: AssetDir,
        provider: Arc<rustls::crypto::CryptoProvider>,
        fixed_auth: Option<AuthMode>,
    ) -> Loader {
        Loader {
            dir,
            provider,
            fixed_auth,
        }
    }

    /// Identities of every file the server reads.
    pub fn fingerprint(&self) -> Fingerprint {
        let mut m = BTreeMap::new();
        for rel in [
            layout::SERVING_CERT,
            layout::SERVING_KEY,
            layout::TOKENS,
            layout::CA_CERT,
            layout::CONFIG,
        ] {
            let p = self.dir.path(rel);
            if let Some(id) = file_id(&p) {
                m.insert(p, id);
            }
        }
        for sub in [RENDERED, PRE_APPROVAL] {
            for (_, p) in crate::assets::pool_files(&self.dir.path(sub)) {
                if let Some(id) = file_id(&p) {
                    m.insert(p, id);
                }
            }
        }
        m
    }

    /// The first load. The TLS pair must load, and a token store that exists must parse (a
    /// server that cannot tell which tokens are valid does not start); a missing store is no
    /// token (with token auth, every config request gets 401). A bad pool file is left out
    /// and reported; the others are served.
    pub fn initial(&self, now: OffsetDateTime) -> Result<(State, Outcome)> {
        self.dir.require()?;
        let tls = Tls::load(&self.dir, &self.provider)?;
        // Every machine would refuse the handshake: say so now rather than serve nothing.
        if let Some(why) = tls.unusable_at(now.unix_timestamp()) {
            bail!("{why}: every booting machine would refuse it; run `mcsctl cert renew` first");
        }
        let tokens = Arc::new(if self.dir.exists(layout::TOKENS) {
            self.tokens(now)?
        } else {
            Tokens::default()
        });
        let auth = self.auth(None)?;
        let mut outcome = Outcome::default();
        let full = self.pools(RENDERED, &HashMap::default(), &mut outcome);
        let pre = self.pools(PRE_APPROVAL, &HashMap::default(), &mut outcome);
        Ok((
            State {
                tls,
                tokens,
                auth,
                full,
                pre,
            },
            outcome,
        ))
    }

    /// A reload: each part tried on its own; a part that fails keeps `prev`'s.
    pub fn reload(&self, prev: &State, now: OffsetDateTime) -> (State, Outcome) {
        let mut o = Outcome::default();
        let tls = Tls::reloaded(&self.dir, &self.provider, &prev.tls, now, &mut o);
        // Live tokens that expire meanwhile are refused per request (classify checks each
        // one's expiry), so the unchanged file's tokens need no new derivation.
        let same_file = prev.tokens.ident.is_some()
            && prev.tokens.ident == file_id(&self.dir.path(layout::TOKENS));
        let tokens = if same_file {
            Ok(prev.tokens.clone())
        } else {
            self.tokens(now).map(Arc::new)
        };
        let tokens = match tokens {
            Ok(t) => {
                let ids = |t: &Tokens| {
                    let mut v: Vec<(String, [u8; 32])> = t
                        .live
                        .iter()
                        .map(|x| (x.id.to_string(), x.digest))
                        .collect();
                    v.sort();
                    v
                };
                if !Arc::ptr_eq(&t, &prev.tokens)
                    && (ids(&t) != ids(&prev.tokens) || t.dead.len() != prev.tokens.dead.len())
                {
                    o.changed.push(format!("{} live token(s)", t.live_at(now)));
                    o.tokens_changed = true;
                }
                t
            }
            // Never an empty token set in place of a missing file: a store that vanished
            // for a moment (a Secret swap, an admin's mistake) keeps the last good tokens.
            Err(e) => {
                if prev.tokens.present || self.dir.exists(layout::TOKENS) {
                    o.failed.push(("tokens".into(), format!("{e:#}")));
                }
                prev.tokens.clone()
            }
        };
        let auth = match self.auth(Some(prev.auth)) {
            // Opening a running server to everyone takes a restart with `--auth none`: a file
            // edit (or a writer of the asset directory that is not the admin) cannot do it.
            Ok(AuthMode::None) if prev.auth != AuthMode::None => {
                o.failed.push((
                    "auth".into(),
                    format!(
                        "{} asks for serveAuth none; keeping {}: auth is weakened to none only by starting serve with --auth none",
                        self.dir.path(layout::CONFIG).display(),
                        prev.auth.name()
                    ),
                ));
                prev.auth
            }
            Ok(a) => {
                if a != prev.auth {
                    o.changed.push(format!("auth {}", a.name()));
                }
                a
            }
            Err(e) => {
                o.failed.push(("auth".into(), format!("{e:#}")));
                prev.auth
            }
        };
        let full = self.pools(RENDERED, &prev.full, &mut o);
        let pre = self.pools(PRE_APPROVAL, &prev.pre, &mut o);
        (
            State {
                tls,
                tokens,
                auth,
                full,
                pre,
            },
            o,
        )
    }

    fn tokens(&self, now: OffsetDateTime) -> Result<Tokens> {
        // Taken before the read: a write between the two makes the next poll read again.
        let ident = file_id(&self.dir.path(layout::TOKENS));
        // The snapshot's reader; a missing store keeps the tokens last read.
        let Some(store) = crate::model::read_tokens(&self.dir)? else {
            bail!(
                "{} is missing; keeping the tokens last read",
                self.dir.path(layout::TOKENS).display()
            );
        };
        Ok(Tokens {
            ident,
            ..Tokens::of(&Published::of(&store), now)
        })
    }

    /// `--auth` if given; else `serveAuth` of `mcsctl.json`; else token. Never derived from
    /// how many tokens are live.
    fn auth(&self, prev: Option<AuthMode>) -> Result<AuthMode> {
        if let Some(a) = self.fixed_auth {
            return Ok(a);
        }
        // No mcsctl.json (a read-only mount of Secrets), or one of a directory started step by
        // step: no cluster says otherwise.
        match crate::model::config::load(&self.dir)? {
            Some(cfg) => Ok(cfg.serve_auth.unwrap_or(AuthMode::Token)),
            None => Ok(prev.unwrap_or(AuthMode::Token)),
        }
    }

    /// The `<pool>.ign` files of `sub`: unchanged files keep their loaded config, changed ones
    /// are loaded, a bad one keeps its last good config (or stays out) and is reported.
    fn pools(
        &self,
        sub: &str,
        prev: &HashMap<String, Arc<Pool>>,
        o: &mut Outcome,
    ) -> HashMap<String, Arc<Pool>> {
        let mut out = HashMap::default();
        for (pool, p) in crate::assets::pool_files(&self.dir.path(sub)) {
            let Some(ident) = file_id(&p) else { continue };
            if let Some(old) = prev.get(&pool)
                && old.ident == ident
            {
                out.insert(pool, old.clone());
                continue;
            }
            // Parsed as it is read: a large config is never held as bytes beside its document.
            let what = p.display().to_string();
            let loaded = crate::assets::parse_file(&p, |r| Stored::parse_reader(r, &what))
                .and_then(|doc| Variants::from_json(doc, &what));
            match loaded {
                Ok(variants) => {
                    o.changed.push(format!("{sub}/{pool}.ign"));
                    let name = pool.as_str().into();
                    out.insert(
                        pool,
                        Arc::new(Pool {
                            name,
                            variants,
                            ident,
                        }),
                    );
                }
                Err(e) => {
                    o.failed
                        .push((format!("{sub}/{pool}.ign"), format!("{e:#}")));
                    if let Some(old) = prev.get(&pool) {
                        out.insert(pool, old.clone());
                    }
                }
            }
        }
        // A pool no longer listed: gone, or something that is not a file in its place (never
        // opened: a FIFO would block the reload), which keeps the last good state and says so.
        for (pool, old) in prev {
            if out.contains_key(pool) {
                continue;
            }
            let p = self.dir.path(sub).join(format!("{pool}.ign"));
            match std::fs::metadata(&p) {
                Err(_) => o.changed.push(format!("{sub}/{pool}.ign removed")),
                Ok(m) => {
                    if !m.is_file() {
                        let why = format!("{} is not a regular file", p.display());
                        o.failed.push((format!("{sub}/{pool}.ign"), why));
                    }
                    out.insert(pool.clone(), old.clone());
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ops::tests::{Lab, t0};
    use crate::ops::token::{self, CreateInputs};

    #[test]
    fn a_reload_keeps_the_tokens_of_an_unchanged_file_and_reads_a_changed_one() {
        let lab = Lab::new();
        let provider = Arc::new(rustls::crypto::aws_lc_rs::default_provider());
        let loader = Loader::new(lab.dir.clone(), provider, None);
        let (first, _) = loader.initial(t0()).unwrap();
        let n = first.tokens.live.len();
        assert!(n > 0);
        // A pool's config changes, the token store does not: the same tokens, not a copy.
        std::fs::create_dir_all(lab.dir.path(RENDERED)).unwrap();
        std::fs::write(
            lab.dir.path(RENDERED).join("worker.ign"),
            br#"{"ignition":{"version":"3.2.0"}}"#,
        )
        .unwrap();
        let (second, o) = loader.reload(&first, t0());
        assert_eq!(o.changed, ["rendered/worker.ign"]);
        assert!(Arc::ptr_eq(&first.tokens, &second.tokens));
        // A token is created: the store is read again.
        let inputs = CreateInputs {
            pools: vec!["worker".into()],
            ttl: None,
            description: None,
            print_pointer: false,
            new_pool: crate::model::NewPool::Refuse,
        };
        lab.apply(|s| token::create(s, inputs, t0())).unwrap();
        let (third, o) = loader.reload(&second, t0());
        assert_eq!(o.changed, [format!("{} live token(s)", n + 1)]);
        assert!(!Arc::ptr_eq(&second.tokens, &third.tokens));
        assert_eq!(third.tokens.live.len(), n + 1);
        // Nothing changed since: kept again.
        let (fourth, o) = loader.reload(&third, t0());
        assert!(o.changed.is_empty(), "{:?}", o.changed);
        assert!(Arc::ptr_eq(&third.tokens, &fourth.tokens));
    }
}
