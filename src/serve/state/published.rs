//! With `--store`: the live auth state the token and machine commands publish in the store
//! (`auth/tokens`: ids, digests, states, expiries, pools, machines; never a secret) stands in
//! for the directory's tokens, and is watched: a `machine add` or a `token revoke` reaches
//! every replica as soon as the store tells it, not at a reload poll or a manual re-apply.
//!
//! Until the store has published anything, the directory's `auth/tokens.json` serves (a
//! cluster moving to the store keeps working). A watch that ends (a member gone, the leader
//! lost) is started again from the last revision seen; a revision compacted away is read
//! again whole. The last state known keeps serving while the store is away, for as long as
//! `--store-grace` allows (see [`crate::serve::fetches`]).

use crate::serve::log::event::Event;
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::watch;

use crate::serve::state::live::Tokens;
use crate::serve::state::shared::Shared;
use crate::store::{self, Change, Store};
use crate::token::Published;

/// Reads the published state now, if the store has one, and puts it in place (before the
/// banner, which counts the live tokens). Returns the revision to watch from.
pub(in crate::serve) async fn initial(shared: &Shared, store: &Store, owner: Option<&str>) -> i64 {
    match store.get(store::AUTH_TOKENS).await {
        Ok(v) if v.revision > 0 => {
            apply(shared, &v.value, v.revision, false, owner);
            v.revision
        }
        Ok(_) => 0,
        Err(e) => {
            shared.log.event(
                Event::StoreUnavailable,
                &format!("{e}: serving the directory's tokens until the store answers"),
            );
            0
        }
    }
}

/// Follows the published state until `stop`.
pub(in crate::serve) async fn follow(
    shared: Arc<Shared>,
    store: Store,
    (mut revision, owner): (i64, Option<String>),
    mut stop: watch::Receiver<bool>,
) {
    let owner = owner.as_deref();
    let mut wait = Duration::from_millis(100);
    loop {
        let watched = tokio::select! {
            r = store.watch(store::AUTH_TOKENS, revision + 1) => r,
            _ = stop.changed() => return,
        };
        let ended = match watched {
            Ok(mut w) => loop {
                let next = tokio::select! {
                    n = w.next() => n,
                    _ = stop.changed() => return,
                };
                match next {
                    Ok(changes) => {
                        wait = Duration::from_millis(100);
                        for c in changes {
                            match c {
                                Change::Put(value, rev) => {
                                    apply(&shared, &value, rev, true, owner);
                                    revision = rev;
                                }
                                Change::Deleted(rev) => revision = rev,
                                Change::Compacted => {
                                    revision =
                                        reread(&shared, &store, owner).await.unwrap_or(revision);
                                }
                            }
                        }
                    }
                    Err(e) => break e,
                }
            },
            Err(e) => e,
        };
        ::log::debug!("{ended}; watching the published tokens again");
        // The revision may have been compacted while away: read the key once more.
        if let Some(r) = reread(&shared, &store, owner).await {
            revision = r;
        }
        tokio::select! {
            _ = tokio::time::sleep(wait) => {}
            _ = stop.changed() => return,
        }
        wait = (wait * 2).min(Duration::from_secs(2));
    }
}

/// Reads the key again and applies it when it changed; its revision.
async fn reread(shared: &Shared, store: &Store, owner: Option<&str>) -> Option<i64> {
    let v = store.get(store::AUTH_TOKENS).await.ok()?;
    if v.revision > 0 {
        apply(shared, &v.value, v.revision, true, owner);
    }
    Some(v.revision)
}

/// Puts a published state in place (unless it is the one in place already); one published
/// by another asset directory than `owner` (this directory's id, `mcsctl.json`) is refused.
fn apply(shared: &Shared, value: &[u8], revision: i64, say: bool, owner: Option<&str>) {
    let p = match Published::parse(value, "the store's published tokens") {
        Ok(p) => match (p.owner.as_deref(), owner) {
            (Some(theirs), Some(ours)) if theirs != ours => {
                shared.log.event(
                    Event::StoreTokensRefused,
                    &format!("the tokens in the store (revision {revision}) were published by another asset directory (id {theirs}), not this one (id {ours}, mcsctl.json): keeping the tokens in place; give each directory its own --store-prefix"),
                );
                return;
            }
            _ => p,
        },
        Err(e) => {
            shared.log.event(
                Event::StoreTokensRefused,
                &format!("{e:#}; keeping the tokens in place"),
            );
            return;
        }
    };
    if shared.published_revision() == Some(revision) {
        return;
    }
    let now = shared.clock.now();
    let tokens = Tokens::of(&p, now);
    let live = tokens.live_at(now);
    shared.set_published(tokens, revision);
    if say {
        shared.log.event(
            Event::TokensPublished,
            &format!(
                "the store published {} token(s), {live} live (revision {revision}): served from now on",
                p.tokens.len()
            ),
        );
    }
}
