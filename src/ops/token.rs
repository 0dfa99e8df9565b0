//! Token workflows: `token create`, `rotate`, `revoke` and `prune`, each one change of
//! `auth/tokens.json` and the pointer configs that carry the tokens.

use anyhow::{Result, bail};
use time::{Duration, OffsetDateTime};

use super::{Note, Outcome, Run};
use crate::assets::{Change, Overwrite, SECRET_MODE, layout};
use crate::model::Snapshot;
use crate::model::pointers::{self, PendingPointer, Target};
use crate::token::{Rotated, Token, TokenStore, TokenSummary};

/// Adds `auth/tokens.json` (0600) to a change.
pub fn stage(change: &mut Change<'_>, store: &TokenStore) -> Result<()> {
    change.write(
        layout::TOKENS,
        &store.to_bytes()?,
        SECRET_MODE,
        Overwrite::Allow,
    );
    Ok(())
}

/// The pointer edits of a token change: the bundle stays, each pointer config gets its pool's
/// current token from `store`; tokenless ones get one when `add_token`.
pub fn retoken(
    snap: &Snapshot,
    store: &TokenStore,
    add_token: bool,
    now: OffsetDateTime,
) -> Result<Vec<PendingPointer>> {
    if snap.pointers.is_empty() {
        return Ok(Vec::new());
    }
    let bundle = snap.bundle()?;
    let ours = snap.cas.known();
    let target = Target {
        bundle,
        ours: &ours,
        tokens: Some(store),
        add_token,
    };
    pointers::edit_all(
        &snap.pointers,
        snap.config.as_ref(),
        &target,
        &snap.dir,
        now,
    )
}

/// The pools of the directory: those of mcsctl.json, those with a pointer config, and those a
/// current token is scoped to, in name order.
pub fn pools_of(snap: &Snapshot, store: &TokenStore) -> Vec<String> {
    let mut pools: Vec<String> = snap
        .config
        .as_ref()
        .map(|c| c.pools.clone())
        .unwrap_or_default();
    pools.extend(
        snap.pointers
            .iter()
            .filter(|p| p.machine.is_none())
            .map(|p| p.pool().to_string()),
    );
    for t in &store.tokens {
        if t.state == crate::token::State::Current
            && let Some(ps) = &t.pools
        {
            pools.extend(ps.iter().cloned());
        }
    }
    pools.retain(|p| crate::names::is_dns_label(p));
    pools.sort();
    pools.dedup();
    pools
}

/// A token's lifetime, said when it is short enough to surprise: a token that lapses before
/// a machine can be booted with it.
fn short_life(what: &str, ttl: Option<Duration>) -> Option<Note> {
    let ttl = ttl.filter(|t| *t < Duration::hours(1))?;
    Some(Note::Warn(format!(
        "{what} expires in {}: machines booting after that get 401, and a pointer config carrying it goes stale",
        crate::duration::Duration(ttl.whole_seconds())
    )))
}

/// What `token create` is asked for.
pub struct CreateInputs {
    /// `--pool` (empty: mcsctl.json's pools, else worker).
    pub pools: Vec<String>,
    /// `--ttl`.
    pub ttl: Option<Duration>,
    /// `--description`.
    pub description: Option<String>,
    /// `--print-pointer`: also build the first pool's pointer config carrying the token.
    pub print_pointer: bool,
    /// `--new-pool`: a `--pool` the directory does not know is meant.
    pub new_pool: crate::model::NewPool,
}

/// What `token create` made.
pub struct Created {
    /// The token (its secret is the command's output).
    pub token: Token,
    /// Its summary, as `token list` shows it.
    pub summary: TokenSummary,
    /// The pools it is scoped to.
    pub pools: Vec<String>,
    /// The pointer config carrying it, for `--print-pointer`.
    pub printed: Option<Vec<u8>>,
    /// The pointer configs rewritten (the directory's first current token).
    pub rewritten: Vec<String>,
}

/// `token create`.
pub fn create<'s>(
    snap: &'s Snapshot,
    i: CreateInputs,
    now: OffsetDateTime,
) -> Result<Outcome<'s, Created>> {
    let mut store = snap.tokens.clone().unwrap_or_default();
    let pools = if i.pools.is_empty() {
        match &snap.config {
            Some(c) if !c.pools.is_empty() => c.pools.clone(),
            _ => vec!["worker".to_string()],
        }
    } else {
        let mut p = i.pools;
        p.dedup();
        for pool in &p {
            snap.check_pool(pool, i.new_pool)?;
        }
        p
    };
    let grown = snap
        .config
        .as_ref()
        .filter(|_| i.new_pool == crate::model::NewPool::Allow)
        .and_then(|c| c.with_pools(&pools));
    let (id, became_current) = store.create(now, i.ttl, i.description, pools.clone())?;
    let token = store
        .tokens
        .iter()
        .find(|x| x.id == id)
        .cloned()
        .expect("create added the token it names");
    // Built before anything is written: a directory that cannot make one changes nothing.
    let printed = if i.print_pointer {
        Some(pointer_for(snap, &pools[0], &token)?)
    } else {
        None
    };
    // The directory's first current token (after `init --no-token`, or every earlier one
    // expired): it goes into the pointer configs, which had none to replace.
    let ptrs = if became_current {
        retoken(snap, &store, true, now)?
    } else {
        Vec::new()
    };
    let mut change = snap.change("token create");
    stage(&mut change, &store)?;
    if let Some(c) = grown {
        c.stage(&mut change)?;
    }
    pointers::stage(&mut change, &ptrs, Overwrite::Allow);
    let summary = store
        .summaries(now)
        .into_iter()
        .find(|s| s.id == id)
        .expect("create added the token it names");
    Ok(Outcome {
        change: Some(change),
        notes: short_life(&format!("token {id}"), i.ttl)
            .into_iter()
            .collect(),
        report: Created {
            token,
            summary,
            pools,
            printed,
            rewritten: rels(&ptrs),
        },
    })
}

/// The pointer config of `pool` carrying `token`, with the directory's CA bundle, URL and spec
/// version; the token in a header (a query for spec 3.0.0) even where the directory's own
/// pointer configs carry none.
fn pointer_for(snap: &Snapshot, pool: &str, token: &Token) -> Result<Vec<u8>> {
    let cfg = snap.config()?;
    let transport = crate::model::config::token_transport(Some(cfg), cfg.spec_version);
    let bundle = snap.bundle()?;
    Ok(pointers::fresh(&snap.dir, cfg, pool, bundle, Some(token), transport)?.bytes)
}

/// One pool's rotation.
#[derive(Debug, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PoolRotation {
    /// The pool.
    pub pool: String,
    /// Its new current token.
    pub token: TokenSummary,
    /// The token it replaces, valid until its grace ends.
    pub previous: Option<TokenSummary>,
}

/// What `token rotate` did.
#[derive(Debug, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RotateReport {
    /// Each pool's new token and the one it replaces.
    pub tokens: Vec<PoolRotation>,
    /// The pointer configs rewritten.
    pub rewritten: Vec<String>,
}

/// `token rotate`: a new current token per pool; the old ones stay valid for `grace`.
pub fn rotate(
    snap: &Snapshot,
    grace: Duration,
    ttl: Option<Duration>,
    description: Option<String>,
    now: OffsetDateTime,
) -> Result<Outcome<'_, RotateReport>> {
    let mut store = snap.tokens.clone().unwrap_or_default();
    let pools = pools_of(snap, &store);
    if pools.is_empty() {
        bail!(
            "{} has no pools (no mcsctl.json, no pointer config): nothing to rotate; `mcsctl token create --pool POOL` makes a token",
            snap.dir.root().display()
        );
    }
    let rotated: Vec<Rotated> = store.rotate(now, grace, ttl, description, &pools)?;
    // Every pointer config is edited before anything is written: a bad one aborts the
    // rotation. Tokenless ones get a token only when there was no current token to replace.
    let first = rotated.iter().all(|r| r.previous.is_none());
    let ptrs = retoken(snap, &store, first, now)?;
    let mut change = snap.change("token rotate");
    stage(&mut change, &store)?;
    pointers::stage(&mut change, &ptrs, Overwrite::Allow);
    let summaries = store.summaries(now);
    let find = |id: &str| summaries.iter().find(|s| s.id == id).cloned();
    let mut notes: Vec<Note> = short_life("the new current tokens", ttl)
        .into_iter()
        .collect();
    if snap.pointers.is_empty() {
        notes.push(Note::Warn(format!(
            "no pointer config in {} to rewrite",
            snap.dir.root().display()
        )));
    }
    let report = RotateReport {
        tokens: rotated
            .iter()
            .map(|r| PoolRotation {
                pool: r.pool.clone(),
                token: find(&r.id).expect("rotate added the token it names"),
                previous: r.previous.as_deref().and_then(find),
            })
            .collect(),
        rewritten: rels(&ptrs),
    };
    Ok(Outcome {
        change: Some(change),
        report,
        notes,
    })
}

/// `token revoke ID`: the token is refused from now on.
pub fn revoke<'s>(
    snap: &'s Snapshot,
    id: &str,
    now: OffsetDateTime,
) -> Result<Outcome<'s, TokenSummary>> {
    let Some(mut store) = snap.tokens.clone() else {
        bail!(
            "{} does not exist: there is no token to revoke",
            snap.dir.path(layout::TOKENS).display()
        );
    };
    store.revoke(id)?;
    let mut change = snap.change("token revoke");
    stage(&mut change, &store)?;
    let summary = store
        .summaries(now)
        .into_iter()
        .find(|s| s.id == id)
        .expect("revoke found the token it names");
    Ok(Outcome {
        change: Some(change),
        report: summary,
        notes: Vec::new(),
    })
}

/// What `token prune` removed.
pub struct Pruned {
    /// The tokens removed (or that would be).
    pub gone: Vec<TokenSummary>,
    /// How many stay.
    pub kept: usize,
}

/// `token prune`: expired and revoked tokens leave the store (no change with [`Run::DryRun`]).
pub fn prune(snap: &Snapshot, run: Run, now: OffsetDateTime) -> Result<Outcome<'_, Pruned>> {
    let Some(mut store) = snap.tokens.clone() else {
        bail!(
            "{} does not exist: there is no token to prune",
            snap.dir.path(layout::TOKENS).display()
        );
    };
    let summaries = store.summaries(now);
    let removed = store.prune(now);
    let change = if run == Run::Write && !removed.is_empty() {
        let mut change = snap.change("token prune");
        stage(&mut change, &store)?;
        Some(change)
    } else {
        None
    };
    let gone = summaries
        .into_iter()
        .filter(|s| removed.contains(&s.id))
        .collect();
    Ok(Outcome {
        change,
        report: Pruned {
            gone,
            kept: store.tokens.len(),
        },
        notes: Vec::new(),
    })
}

fn rels(ptrs: &[PendingPointer]) -> Vec<String> {
    ptrs.iter().map(|p| p.rel.clone()).collect()
}
