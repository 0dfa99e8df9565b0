//! Publishing a directory's tokens to the store (`--store`, `token publish`): what the store
//! holds is reconciled with what the directory has before anything is written, so a copy of
//! the directory made before another publish can neither undo a revocation nor take away a
//! token it never knew.
//!
//! The rules:
//! - a state another asset directory published (its `owner` is not this one's id) is refused,
//!   naming both: two directories must not share a prefix;
//! - a token revoked in the store, or published once and pruned since (`gone`), is revoked
//!   here too: revocation only moves one way;
//! - a token live in the store that this directory lacks (made by another copy: a new machine,
//!   a rotation) is refused, naming it: publishing would take it from every replica;
//! - what is published carries this directory's id and the next generation, and lists every
//!   token id the store knew that this directory no longer has (pruned) in `gone`.

use std::collections::HashSet;

use anyhow::{Result, bail};
use time::OffsetDateTime;

use super::Note;
use crate::assets::{Change, layout};
use crate::model::Snapshot;
use crate::model::config::{ClusterConfig, StoreRecord};
use crate::store::auth::Held;
use crate::token::{MAX_GONE, Published, State, TokenStore};

/// The store a command publishes to: how to reach it, the directory's record of it, and what
/// it held when read (before the change was made).
pub struct Target {
    /// How to reach it.
    pub options: crate::store::Options,
    /// The directory's record of it (as it will be remembered).
    pub record: StoreRecord,
    /// What it held.
    pub held: Held,
}

impl Target {
    /// Reads what the store at `options` holds now (a store that cannot be read: an error
    /// saying nothing changed). Like [`Snapshot`]'s loading, the one read of the store.
    pub fn read(options: crate::store::Options, record: StoreRecord) -> Result<Target> {
        let held = crate::store::auth::read(&options, &record.id)?;
        Ok(Target {
            options,
            record,
            held,
        })
    }

    /// Writes `r`'s state to the store if it still holds what it held when read; like a
    /// change's commit, the one write. `again` is the command that publishes again, for the
    /// error when this fails (the directory has the change by then).
    pub fn send(&self, r: &Reconciled, dir: &std::path::Path, again: &str) -> Result<()> {
        let url = &r.record.url;
        let advice = format!(
            "the change is in {} but not in the store {url}, so serve replicas keep the tokens they had; publish it with `{again}`",
            dir.display()
        );
        match crate::store::auth::write(&self.options, &r.published, self.held.revision) {
            Ok(crate::store::Swap::Done) => Ok(()),
            Ok(_) => bail!("the store {url} was published to while this command ran: {advice}"),
            Err(e) => bail!("{e:#}: {advice}"),
        }
    }
}

/// What publishing does.
#[derive(Debug)]
pub struct Reconciled {
    /// The directory's tokens with the store's revocations.
    pub tokens: TokenStore,
    /// Tokens revoked here because the store says they are.
    pub adopted: Vec<String>,
    /// What goes to the store.
    pub published: Published,
    /// The directory's store record after it.
    pub record: StoreRecord,
    /// The store was last published by another copy of the directory: its generation.
    pub elsewhere: Option<u64>,
    /// What an admin should know: revocations taken from the store, a publish from elsewhere.
    pub notes: Vec<Note>,
}

/// Stages a publish in `change` (a new one when the command's workflow made none): the tokens
/// the change writes (else the snapshot's) reconciled with what `t` held, the store's
/// revocations written to `auth/tokens.json` when they add any, and `mcsctl.json` remembering
/// the store and the generation published.
pub fn stage<'s>(
    snap: &'s Snapshot,
    change: Option<Change<'s>>,
    t: &Target,
    now: OffsetDateTime,
) -> Result<(Change<'s>, Reconciled)> {
    let Some(cfg) = &snap.config else {
        bail!("publishing to a store needs mcsctl.json (`mcsctl init`)");
    };
    let ours = match change.as_ref().and_then(|c| c.written(layout::TOKENS)) {
        Some(b) => TokenStore::parse(b, "the token store just written")?,
        None => snap.tokens.clone().unwrap_or_default(),
    };
    let r = reconcile(&ours, t.held.published.as_ref(), &t.record, now)
        .map_err(|e| anyhow::anyhow!("{e:#}; nothing changed"))?;
    let mut change = change.unwrap_or_else(|| snap.change("token publish"));
    if !r.adopted.is_empty() {
        super::token::stage(&mut change, &r.tokens)?;
    }
    ClusterConfig {
        store: Some(r.record.clone()),
        ..cfg.clone()
    }
    .stage(&mut change)?;
    Ok((change, r))
}

/// Reconciles `ours` (the tokens the directory will have) with `theirs` (what the store
/// holds, if anything) for the directory whose store record is `record`.
pub fn reconcile(
    ours: &TokenStore,
    theirs: Option<&Published>,
    record: &StoreRecord,
    now: OffsetDateTime,
) -> Result<Reconciled> {
    let mut tokens = ours.clone();
    let mut adopted = Vec::new();
    let mut gone: Vec<String> = Vec::new();
    let mut generation = record.generation;
    let mut elsewhere = None;
    let mut behind = None;
    if let Some(p) = theirs {
        if let Some(owner) = p.owner.as_deref().filter(|o| *o != record.id) {
            bail!(
                "the store {} (prefix {}) holds the tokens of another asset directory (id {owner}), not this one's (id {}): two directories must not share a prefix. Give this one its own --store-prefix",
                record.url,
                record.prefix,
                record.id
            );
        }
        let revoked: HashSet<&str> = p
            .tokens
            .iter()
            .filter(|t| t.state == State::Revoked)
            .map(|t| t.id.as_str())
            .chain(p.gone.iter().map(String::as_str))
            .collect();
        for t in &mut tokens.tokens {
            if revoked.contains(t.id.as_str()) && t.state != State::Revoked {
                t.state = State::Revoked;
                adopted.push(t.id.clone());
            }
        }
        let ids: HashSet<&str> = tokens.tokens.iter().map(|t| t.id.as_str()).collect();
        refuse_missing(p, &ids, record, now)?;
        gone = self::gone(p, &ids);
        if p.generation > record.generation {
            elsewhere = Some(p.generation);
        }
        behind = (p.generation < record.generation).then_some(p.generation);
        generation = generation.max(p.generation);
    }
    let mut notes = notes(&adopted, elsewhere, record);
    if let Some(g) = behind {
        notes.push(Note::Info(format!("the store {} still holds generation {g}: this directory's last publish (generation {}) did not reach it, and this one carries it", record.url, record.generation)));
    }
    let record = StoreRecord {
        generation: generation + 1,
        ..record.clone()
    };
    let published = Published {
        owner: Some(record.id.clone()),
        generation: record.generation,
        gone,
        ..Published::of(&tokens)
    };
    Ok(Reconciled {
        tokens,
        adopted,
        published,
        record,
        elsewhere,
        notes,
    })
}

/// Refuses when `theirs` holds a live token the directory (`ours`: its ids) lacks: another
/// copy made it, and publishing would take it from every replica.
fn refuse_missing(
    p: &Published,
    ids: &HashSet<&str>,
    record: &StoreRecord,
    now: OffsetDateTime,
) -> Result<()> {
    let missing: Vec<String> = p
        .tokens
        .iter()
        .filter(|t| t.is_live(now) && !ids.contains(t.id.as_str()))
        .map(|t| match &t.machine {
            Some(m) => format!("{} (machine {m})", t.id),
            None => t.id.clone(),
        })
        .collect();
    if !missing.is_empty() {
        bail!(
            "the store {} holds {} live token(s) this directory does not have: {}. They were published from another copy of this asset directory (generation {}; this one last published {}); publishing from here would take them from every serve replica. Run the command in that copy, or copy its auth/tokens.json and auth/machines.json here first",
            record.url,
            missing.len(),
            missing.join(", "),
            p.generation,
            record.generation
        );
    }
    Ok(())
}

/// What an admin should know of a reconciliation.
fn notes(adopted: &[String], elsewhere: Option<u64>, record: &StoreRecord) -> Vec<Note> {
    let url = &record.url;
    let mut notes: Vec<Note> = adopted
        .iter()
        .map(|id| Note::Warn(format!("token {id} is revoked in the store {url} (by another copy of this directory): revoked here too; revocation only moves one way")))
        .collect();
    if let Some(g) = elsewhere {
        notes.push(Note::Info(format!("the store {url} was last published by another copy of this directory (generation {g}, this one's {}): reconciled", record.generation)));
    }
    notes
}

/// The ids a publish lists as `gone`: those the store listed or held that `ours` no longer
/// has, each once, the newest [`MAX_GONE`].
fn gone(theirs: &Published, ours: &HashSet<&str>) -> Vec<String> {
    let mut seen = HashSet::new();
    let mut gone: Vec<String> = theirs
        .gone
        .iter()
        .cloned()
        .chain(theirs.tokens.iter().map(|t| t.id.clone()))
        .filter(|id| !ours.contains(id.as_str()) && seen.insert(id.clone()))
        .collect();
    if gone.len() > MAX_GONE {
        gone.drain(..gone.len() - MAX_GONE);
    }
    gone
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::datetime;

    const T0: OffsetDateTime = datetime!(2026-01-01 00:00 UTC);

    fn record() -> StoreRecord {
        StoreRecord {
            url: "etcd://127.0.0.1:2379".into(),
            prefix: "/mcsctl/demo.example.com/".into(),
            ca: None,
            cert: None,
            key: None,
            insecure: true,
            id: "0123456789abcdef0123456789abcdef".into(),
            generation: 0,
        }
    }

    fn tokens(n: usize) -> TokenStore {
        let mut s = TokenStore::new();
        for _ in 0..n {
            s.create(T0, None, None, vec!["worker".into()]).unwrap();
        }
        s
    }

    #[test]
    fn an_older_copy_takes_the_store_s_revocations_and_cannot_undo_them() {
        let older = tokens(2);
        let first = reconcile(&older, None, &record(), T0).unwrap();
        assert_eq!(first.published.generation, 1);
        // Another copy revokes token 0 and publishes.
        let mut newer = older.clone();
        newer.tokens[0].state = State::Revoked;
        let second = reconcile(&newer, Some(&first.published), &first.record, T0).unwrap();
        assert_eq!(second.published.generation, 2);
        // The older copy publishes: token 0 is revoked here too.
        let third = reconcile(&older, Some(&second.published), &first.record, T0).unwrap();
        assert_eq!(third.adopted, vec![older.tokens[0].id.clone()]);
        assert_eq!(third.elsewhere, Some(2));
        assert_eq!(third.published.generation, 3);
        assert_eq!(third.published.tokens[0].state, State::Revoked);
        // Pruned in the newer copy: still revoked for the older one.
        let mut pruned = newer.clone();
        pruned.tokens.remove(0);
        let fourth = reconcile(&pruned, Some(&third.published), &second.record, T0).unwrap();
        assert_eq!(fourth.published.gone, vec![older.tokens[0].id.clone()]);
        let fifth = reconcile(&older, Some(&fourth.published), &first.record, T0).unwrap();
        assert_eq!(fifth.adopted, vec![older.tokens[0].id.clone()]);
    }

    #[test]
    fn a_live_token_the_directory_lacks_or_another_directory_s_state_is_refused() {
        let older = tokens(1);
        let first = reconcile(&older, None, &record(), T0).unwrap();
        let mut newer = older.clone();
        newer.create(T0, None, None, vec!["worker".into()]).unwrap();
        let second = reconcile(&newer, Some(&first.published), &first.record, T0).unwrap();
        let e = reconcile(&older, Some(&second.published), &first.record, T0).unwrap_err();
        let e = e.to_string();
        assert!(
            e.contains("holds 1 live token(s) this directory does not have")
                && e.contains(&newer.tokens[1].id),
            "{e}"
        );
        let other = StoreRecord {
            id: "fedcba9876543210fedcba9876543210".into(),
            ..record()
        };
        let e = reconcile(&older, Some(&first.published), &other, T0).unwrap_err();
        assert!(
            e.to_string()
                .contains("another asset directory (id 0123456789abcdef0123456789abcdef)"),
            "{e}"
        );
    }
}
