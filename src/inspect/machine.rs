//! A machine's pointer config as serve will answer it: its token's fetches, from the ledger
//! files (or the store the replicas share), sorted by the one rule serve admits them by
//! (`ledger::standing`). A single-use token that fetched whole has done its job: in the
//! directory's report that is fine; for a pointer config named to be booted, it is a failure.

use std::collections::{HashMap, HashSet};

use super::{Level, Report};
use crate::assets::AssetDir;
use crate::ledger::{Admit, DEFAULT_MAX_PARTIAL, LONGEST_FETCH, Record, Standing};
use crate::token::Token;

/// The fetch records of machine tokens, read once.
#[derive(Debug, Default)]
pub struct Fetches {
    /// The records, oldest first, by token id.
    by_token: HashMap<String, Vec<Record>>,
    /// The replicas whose serve holds its ledger file now (every replica, for the store).
    running: Option<HashSet<String>>,
    /// Where they were read: the ledger files, or the store's URL.
    pub from: String,
}

impl Fetches {
    /// The records of `dir`'s ledger files and `extra`, or of `store` when given; a failure is
    /// a failed row, and the report goes on without them.
    pub fn read(
        r: &mut Report,
        dir: &AssetDir,
        extra: &[std::path::PathBuf],
        store: Option<&crate::store::Options>,
    ) -> Option<Fetches> {
        let read = match store {
            Some(o) => from_store(dir, o, r.now),
            None => from_files(dir, extra),
        };
        match read {
            Ok(f) => Some(f),
            Err(e) => {
                r.check(
                    Level::Fail,
                    "fetches",
                    format!("{e:#}"),
                    Some("machine pointer configs are checked without their fetches; fix the ledger (or --store) and inspect again".to_string()),
                );
                None
            }
        }
    }

    fn of(running: Option<HashSet<String>>, records: Vec<Record>, from: String) -> Fetches {
        let mut by_token: HashMap<String, Vec<Record>> = HashMap::new();
        for rec in records {
            by_token.entry(rec.token.clone()).or_default().push(rec);
        }
        Fetches {
            by_token,
            running,
            from,
        }
    }

    /// Where `t` stands at `now`.
    fn standing(&self, t: &Token, now: time::OffsetDateTime) -> Standing {
        let records = self.by_token.get(&t.id).map_or(&[][..], Vec::as_slice);
        let mine: Vec<Record> = records
            .iter()
            .filter(|r| t.machine.as_deref() == Some(r.machine.as_str()))
            .cloned()
            .collect();
        let running = |replica: &str| self.running.as_ref().is_none_or(|r| r.contains(replica));
        crate::ledger::standing(&mine, t.uses, &running, now)
    }
}

fn from_files(dir: &AssetDir, extra: &[std::path::PathBuf]) -> anyhow::Result<Fetches> {
    let ledger = crate::ledger::Ledger::read_files(dir, extra)?;
    let from = match &ledger.backend {
        crate::ledger::Backend::Files(f) if f.is_empty() => "no ledger file".to_string(),
        crate::ledger::Backend::Files(f) => format!("{} ledger file(s)", f.len()),
        crate::ledger::Backend::Store(url) => format!("the store {url}"),
    };
    Ok(Fetches::of(ledger.running(), ledger.records, from))
}

fn from_store(
    dir: &AssetDir,
    o: &crate::store::Options,
    now: time::OffsetDateTime,
) -> anyhow::Result<Fetches> {
    let Some(cfg) = crate::model::config::load(dir)? else {
        anyhow::bail!(
            "{} knows no cluster: the store's keys are the cluster's (or give --store-prefix)",
            dir.root().display()
        );
    };
    let records = crate::store::blocking(async {
        crate::store::Store::connect(o, &cfg.cluster_domain())
            .await?
            .records(now.unix_timestamp())
            .await
    })?;
    Ok(Fetches::of(None, records, format!("the store {}", o.url)))
}

/// What the check of a machine's pointer config is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Purpose {
    /// The directory's report: a token that provisioned its machine is fine.
    Audit,
    /// A pointer config named on the command line, to boot a machine with.
    #[default]
    Boot,
}

/// The row of pointer config `name` (pool `pool`) carrying machine token `t`, live and
/// covering its pool.
pub fn check(r: &mut Report, name: &str, pool: &str, t: &Token, f: &Fetches, why: Purpose) {
    let m = t.machine.as_deref().unwrap_or_default();
    let s = f.standing(t, r.now);
    let again = format!(
        "`mcsctl machine add {m} --pool {pool} --force` gives {m} a new token and pointer config"
    );
    let at = |rec: &Record| format!("at {} from {}", rec.time, rec.client);
    let who = format!("{name}: token {} of machine {m}", t.id);
    match s.admit {
        Admit::Spent => {
            let first = s.whole.first().map(at).unwrap_or_default();
            let said = format!(
                "{who} was spent by a whole fetch {first} ({}): serve answers 401 to it now",
                f.from
            );
            match why {
                Purpose::Audit => {
                    r.ok("machine", format!("{said}; it has provisioned its machine"))
                }
                Purpose::Boot => r.check(
                    Level::Fail,
                    "machine",
                    said,
                    Some(format!("to provision {m} again: {again}")),
                ),
            }
        }
        Admit::Unknown => {
            let which = s.unknown.last().map(at).unwrap_or_default();
            let level = match why {
                Purpose::Audit => Level::Warn,
                Purpose::Boot => Level::Fail,
            };
            r.check(
                level,
                "machine",
                format!(
                    "{who}: its fetch {which} may have gone out whole (the replica sending it was lost after it began sending the config's end; {}), so it counts as spent: serve answers 401 to it",
                    f.from
                ),
                Some(format!("if {m} did not boot: {again}")),
            );
        }
        Admit::CutOff => {
            let last = s.cut.last().map(at).unwrap_or_default();
            r.check(
                Level::Fail,
                "machine",
                format!(
                    "{who}: {} fetches were cut off before their end (the last {last}), and serve allows {DEFAULT_MAX_PARTIAL} by default (--max-partial-fetches): it answers 401",
                    s.cut.len()
                ),
                Some(format!("check the network between {m} and serve; then {again}")),
            );
        }
        Admit::Busy => {
            let since = s
                .sending
                .last()
                .map(|rec| format!(" (since {} from {})", rec.time, rec.client))
                .unwrap_or_default();
            r.check(
                Level::Warn,
                "machine",
                format!(
                    "{who} is being fetched now{since}: serve answers 503 to another fetch until it ends, and once it goes out whole the token is spent"
                ),
                Some(format!(
                    "inspect again once it ends (within {} of its start)",
                    crate::duration::Duration(LONGEST_FETCH.as_secs() as i64)
                )),
            );
        }
        Admit::Left(left) => left_row(r, &who, &s, left, at),
    }
}

/// A token with fetches left: not fetched yet, fetched whole with uses to spare, or cut off
/// (nothing spent) and allowed to try again.
fn left_row(
    r: &mut Report,
    who: &str,
    s: &Standing,
    left: Option<u32>,
    at: impl Fn(&Record) -> String,
) {
    let left = left.map_or("any number of fetches".to_string(), |n| {
        format!("{n} whole fetch(es) left")
    });
    if let Some(last) = s.cut.last() {
        let more = DEFAULT_MAX_PARTIAL.saturating_sub(s.cut.len() as u32);
        r.check(
            Level::Warn,
            "machine",
            format!(
                "{who}: {} fetch(es) cut off before their end (the last {}): nothing spent, {left}; serve refuses it after {more} more by default",
                s.cut.len(),
                at(last)
            ),
            Some("boot the machine again; if fetches keep being cut, check the network between it and serve".to_string()),
        );
    } else if let Some(last) = s.whole.last() {
        r.ok(
            "machine",
            format!(
                "{who} fetched whole {} time(s), the last {}; {left}",
                s.whole.len(),
                at(last)
            ),
        );
    } else {
        r.ok("machine", format!("{who} has not fetched yet; {left}"));
    }
}
