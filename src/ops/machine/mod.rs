//! Registered machines (`machine add`, `list`, `remove`): each an expected node with its own
//! pointer config (`machines/<name>.ign`, 0600) carrying a token bound to it, scoped to its
//! pool and single-use by default. The registry (`auth/machines.json`) keeps what the token
//! does not: the addresses a serving CSR may name.

pub mod list;
mod reports;
pub mod watch;

use std::collections::HashMap;
use std::net::IpAddr;

use anyhow::{Context as _, Result, bail};
use serde::Serialize;
use time::{Duration, OffsetDateTime};

use super::report::{FileKind, Mode};
use super::{Note, Outcome, Written, token};
use crate::assets::{AssetDir, Change, Overwrite, SECRET_MODE, layout};
use crate::model::{Snapshot, pointers};
use crate::token::Effective;
use crate::token::TokenStore;

pub use crate::model::machine::{Machine, Registry};

/// What `machine add` registers.
pub struct AddInputs {
    /// The node name.
    pub name: String,
    /// The pool.
    pub pool: String,
    /// Its expected addresses.
    pub addresses: Vec<IpAddr>,
    /// The token's lifetime.
    pub ttl: Option<Duration>,
    /// Full-config fetches allowed (`None`: any number).
    pub uses: Option<u32>,
    /// Replace a machine of that name (its old token is revoked).
    pub force: bool,
    /// `--new-pool`: a pool the directory does not know is meant.
    pub new_pool: crate::model::NewPool,
}

/// A machine as `machine add` and `machine list` report it (never the token's secret).
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct MachineRow {
    /// The node name.
    pub name: String,
    /// The pool.
    pub pool: String,
    /// Expected addresses.
    pub addresses: Vec<IpAddr>,
    /// The token's id.
    pub token: String,
    /// Its state: current, active, expired or revoked (or `missing`).
    pub token_state: Effective,
    /// Full-config fetches it allows; null for any number.
    pub uses: Option<u32>,
    /// When it expires; null for never.
    pub expires: Option<String>,
    /// Its pointer config.
    pub pointer: String,
    /// The full-config fetches its token made, from the ledgers, oldest first.
    pub fetches: Vec<crate::ledger::Record>,
    /// Fetches past those records, counted only (a token with unlimited uses in the store).
    #[serde(skip_serializing_if = "is_zero")]
    pub unrecorded_fetches: u64,
    /// Its way from its registration to a Ready node, as far as the ledger, its first-boot
    /// report and the cluster's CSRs and Nodes (when given) show it.
    pub trail: super::trail::Trail,
    /// Its first-boot report (`render --report`), when one matched it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub first_boot: Option<crate::firstboot::Record>,
}

/// The report of `machine add` and `machine remove`.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct MachineReport {
    /// The machines added or removed.
    pub machines: Vec<MachineRow>,
    /// Files written or removed.
    pub files: Vec<Written>,
}

/// Registers machines: for each a token bound to it, its pointer config and its record; all
/// in one change (one bad entry registers none).
pub fn add<'s>(
    snap: &'s Snapshot,
    ms: &[AddInputs],
    now: OffsetDateTime,
) -> Result<Outcome<'s, MachineReport>> {
    let cfg = snap.config()?;
    let mut registry = snap.machines.clone().unwrap_or(Registry {
        format_version: Registry::FORMAT_VERSION,
        machines: Vec::new(),
    });
    let mut store = snap.tokens.clone().unwrap_or_default();
    let mut change = snap.change("machine add");
    let mut report = MachineReport {
        machines: Vec::new(),
        files: Vec::new(),
    };
    let mut notes = Vec::new();
    // Sets, not scans: a list of 10,000 machines is checked in linear time.
    let registered: std::collections::HashSet<String> =
        registry.machines.iter().map(|x| x.name.clone()).collect();
    let mut listed = std::collections::HashSet::new();
    let mut ids = store.ids();
    for m in ms {
        if !listed.insert(m.name.as_str()) {
            bail!("machine {} is listed twice", m.name);
        }
        if registered.contains(&m.name) {
            notes.extend(replace_old(&mut registry, &mut store, m)?);
        }
        let (row, file) = add_one(snap, cfg, (&mut store, &mut ids), &mut change, m, now)?;
        registry.machines.push(Machine {
            name: m.name.clone(),
            pool: m.pool.clone(),
            addresses: m.addresses.clone(),
            token: row.token.clone(),
            added: crate::pki::cert::rfc3339(now.unix_timestamp()),
        });
        report.machines.push(row);
        report.files.push(file);
    }
    token::stage(&mut change, &store)?;
    registry.stage(&mut change)?;
    let new: Vec<&String> = ms
        .iter()
        .filter(|m| m.new_pool == crate::model::NewPool::Allow)
        .map(|m| &m.pool)
        .collect();
    if let Some(c) = cfg.with_pools(new) {
        c.stage(&mut change)?;
    }
    let names: Vec<&str> = ms.iter().map(|m| m.name.as_str()).collect();
    report.files.extend([
        Written::file(
            layout::TOKENS,
            true,
            FileKind::Tokens,
            Some(format!("+ {}", ms.len())),
        ),
        Written::file(
            layout::MACHINES,
            false,
            FileKind::Machines,
            Some(names.join(", ")),
        ),
    ]);
    Ok(Outcome {
        change: Some(change),
        report,
        notes,
    })
}

/// One machine: its token in `store`, its pointer config in `change`.
fn add_one(
    snap: &Snapshot,
    cfg: &crate::model::ClusterConfig,
    (store, ids): (&mut TokenStore, &mut std::collections::HashSet<String>),
    change: &mut Change<'_>,
    m: &AddInputs,
    now: OffsetDateTime,
) -> Result<(MachineRow, Written)> {
    snap.check_pool(&m.pool, m.new_pool)
        .with_context(|| format!("machine {}", m.name))?;
    let id = store.create_machine_among(ids, now, m.ttl, &m.name, &m.pool, m.uses)?;
    // Invariant of `create_machine`: the token it made is the last one.
    let token = store.tokens.last().expect("create_machine just added it");
    debug_assert_eq!(token.id, id);
    let version = cfg.spec_version;
    let transport = crate::model::config::token_transport(Some(cfg), version);
    let fresh = pointers::fresh(
        &snap.dir,
        cfg,
        &m.pool,
        snap.bundle()?,
        Some(token),
        transport,
    )?;
    let rel = layout::machine_pointer(&m.name);
    change.write(&rel, &fresh.bytes, SECRET_MODE, Overwrite::Allow);
    let record = Machine {
        name: m.name.clone(),
        pool: m.pool.clone(),
        addresses: m.addresses.clone(),
        token: id.clone(),
        added: String::new(),
    };
    let file = Written::file(
        &rel,
        true,
        FileKind::Pointer,
        Some(format!("{version} {}; token {id}", fresh.url)),
    );
    // Invariant of `create_machine_among`: the token it made is the last one.
    Ok((row(&record, store.tokens.last(), &snap.dir, now), file))
}

/// With --force, a machine of the same name leaves the registry and its token is revoked;
/// without, it is refused.
fn replace_old(
    registry: &mut Registry,
    store: &mut TokenStore,
    m: &AddInputs,
) -> Result<Vec<Note>> {
    let mut notes = Vec::new();
    if let Some(old) = registry.get(&m.name).cloned() {
        if !m.force {
            bail!(
                "machine {} is registered (token {}); pass --force to replace it (its token is revoked)",
                m.name,
                old.token
            );
        }
        revoke_quietly(store, &old.token);
        registry.machines.retain(|x| x.name != m.name);
        notes.push(Note::Info(format!(
            "replaced machine {}: its token {} is revoked",
            m.name, old.token
        )));
    }
    Ok(notes)
}

/// Unregisters a machine: its token revoked, its pointer config and record removed.
pub fn remove<'s>(
    snap: &'s Snapshot,
    name: &str,
    now: OffsetDateTime,
) -> Result<Outcome<'s, MachineReport>> {
    let Some(mut registry) = snap.machines.clone() else {
        bail!("no machine is registered in {}", snap.dir.root().display());
    };
    let Some(old) = registry.get(name).cloned() else {
        bail!("machine {name} is not registered (`mcsctl machine list` shows those that are)");
    };
    let mut store = snap.tokens.clone().unwrap_or_default();
    revoke_quietly(&mut store, &old.token);
    registry.machines.retain(|x| x.name != name);
    let rel = layout::machine_pointer(name);
    let mut change = snap.change("machine remove");
    token::stage(&mut change, &store)?;
    registry.stage(&mut change)?;
    let mut files = vec![Written::file(
        layout::TOKENS,
        true,
        FileKind::Tokens,
        Some(format!("{} revoked", old.token)),
    )];
    if snap.dir.exists(&rel) {
        change.remove(&rel);
        files.push(Written {
            mode: Mode::Removed,
            ..Written::file(
                &rel,
                false,
                FileKind::Removed,
                Some("its pointer config".into()),
            )
        });
    }
    Ok(Outcome {
        change: Some(change),
        report: MachineReport {
            machines: vec![row(
                &old,
                store.tokens.iter().find(|t| t.id == old.token),
                &snap.dir,
                now,
            )],
            files,
        },
        notes: Vec::new(),
    })
}

/// `machine list`: every registered machine, and the first-boot reports no registered machine
/// matches (a pool's credential used by something unexpected), listed apart.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Listing {
    /// The machines, in the order registered.
    pub machines: Vec<MachineRow>,
    /// Reports that match no registered machine (absent when no report was read).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unmatched_reports: Option<Vec<crate::firstboot::Record>>,
}

/// Every registered machine, in the order registered, with its fetches from the snapshot's
/// ledger (the merged records of every replica's file; none when it was not read) and its
/// first-boot report (from the snapshot's reports, when read).
pub fn list(snap: &Snapshot, cluster: &super::trail::Cluster<'_>, now: OffsetDateTime) -> Listing {
    let ledger = snap.ledger.as_ref().map_or(&[][..], |l| &l.records[..]);
    let none = Default::default();
    let unrecorded = snap.ledger.as_ref().map_or(&none, |l| &l.unrecorded);
    // Indexes, not scans: 100,000 machines are listed in linear time.
    let tokens: std::collections::HashMap<&str, &crate::token::Token> = snap
        .tokens
        .iter()
        .flat_map(|s| &s.tokens)
        .map(|t| (t.id.as_str(), t))
        .collect();
    let by_token = by_token(ledger);
    let machines: Vec<&Machine> = snap.machines.iter().flat_map(|r| &r.machines).collect();
    let fetches: Vec<Vec<crate::ledger::Record>> = machines
        .iter()
        .map(|m| fetches_of(m, &by_token).cloned().collect())
        .collect();
    let reports = snap.reports.as_deref().unwrap_or_default();
    let (matched, unmatched) = reports::matched(&machines, &fetches, reports);
    let reporting = snap.config.as_ref().map(|c| &c.report_pools);
    let pointers: std::collections::HashSet<&str> =
        snap.pointers.iter().map(|p| p.rel.as_str()).collect();
    let rows = machines
        .iter()
        .zip(fetches)
        .enumerate()
        .map(|(i, (m, fetches))| {
            let mut r = row(m, tokens.get(m.token.as_str()).copied(), &snap.dir, now);
            let pointer = layout::machine_pointer(&m.name);
            let known = super::trail::Known {
                registered: &m.added,
                pointer: pointers
                    .contains(pointer.as_str())
                    .then_some(pointer.as_str()),
                report: (snap.reports.is_some() && reporting.is_some_and(|p| p.contains(&m.pool)))
                    .then(|| matched[i]),
            };
            r.trail = super::trail::trail(&m.name, &known, &fetches, cluster, now);
            r.first_boot = matched[i].cloned();
            r.fetches = fetches;
            r.unrecorded_fetches = unrecorded.get(&m.token).copied().unwrap_or(0);
            r
        })
        .collect();
    Listing {
        machines: rows,
        unmatched_reports: snap
            .reports
            .as_ref()
            .map(|_| unmatched.into_iter().cloned().collect()),
    }
}

/// The ledger's records by token id, in their order: each machine's fetches are then found
/// without a scan of the whole ledger.
fn by_token(ledger: &[crate::ledger::Record]) -> HashMap<&str, Vec<&crate::ledger::Record>> {
    let mut out: HashMap<&str, Vec<&crate::ledger::Record>> = HashMap::new();
    for f in ledger {
        out.entry(f.token.as_str()).or_default().push(f);
    }
    out
}

/// The fetches of machine `m`'s own token.
fn fetches_of<'l>(
    m: &'l Machine,
    by_token: &'l HashMap<&str, Vec<&'l crate::ledger::Record>>,
) -> impl Iterator<Item = &'l crate::ledger::Record> {
    by_token
        .get(m.token.as_str())
        .into_iter()
        .flatten()
        .copied()
        .filter(move |f| f.machine == m.name)
}

/// Machine `m`'s row, with its token (`None`: pruned from the store).
fn row(
    m: &Machine,
    token: Option<&crate::token::Token>,
    dir: &AssetDir,
    now: OffsetDateTime,
) -> MachineRow {
    MachineRow {
        name: m.name.clone(),
        pool: m.pool.clone(),
        addresses: m.addresses.clone(),
        token: m.token.clone(),
        token_state: token.map_or(Effective::Missing, |t| t.effective_state(now)),
        uses: token.and_then(|t| t.uses),
        expires: token
            .and_then(|t| t.expires)
            .map(|e| crate::pki::cert::rfc3339(e.unix_timestamp())),
        pointer: dir
            .path(&layout::machine_pointer(&m.name))
            .display()
            .to_string(),
        fetches: Vec::new(),
        unrecorded_fetches: 0,
        trail: super::trail::Trail {
            steps: Vec::new(),
            next: None,
            stopped: false,
        },
        first_boot: None,
    }
}

/// Revokes a token if the store has it (a registry may outlive a pruned token).
fn revoke_quietly(store: &mut TokenStore, id: &str) {
    if store.tokens.iter().any(|t| t.id == id) {
        let _ = store.revoke(id);
    }
}

/// The evidence `csr review` decides from: each registered machine with the fetches its token
/// made whole (from `ledger`, the merged records of every replica), and how many were cut.
pub fn evidence(
    registry: &Registry,
    ledger: &[crate::ledger::Record],
    window: Duration,
    skew: Duration,
) -> crate::csr::evidence::Evidence {
    let by_token = by_token(ledger);
    let machines = registry
        .machines
        .iter()
        .map(|m| {
            let (whole, cut): (Vec<_>, Vec<_>) = fetches_of(m, &by_token).partition(|f| f.whole);
            crate::csr::evidence::Registered {
                name: m.name.clone(),
                addresses: m.addresses.clone(),
                cut: cut.len(),
                fetches: whole.into_iter().filter_map(fetch_of).collect(),
            }
        })
        .collect();
    crate::csr::evidence::Evidence {
        machines,
        window,
        skew,
    }
}

/// When and from where a fetch was made, if its record says so readably.
fn fetch_of(f: &crate::ledger::Record) -> Option<(OffsetDateTime, IpAddr)> {
    let at = OffsetDateTime::parse(&f.time, &time::format_description::well_known::Rfc3339).ok()?;
    let from = f.client.parse::<std::net::SocketAddr>().ok()?.ip();
    Some((at, from))
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}
