//! The asset directory as typed state: what every command, and serve, inspect and doctor,
//! read. [`Snapshot::lock`] takes the directory lock, reads every file the snapshot is made of
//! in one pass (`assets::Image`), then parses them: `mcsctl.json` (typed, [`config`]), every
//! CA file ([`cas::CaSet`]), the token store, the pointer configs ([`pointers`]) and the
//! machine registry ([`machines`]), each with one error policy (absent is `None`, present but
//! unreadable is an error naming the file).
//!
//! The workflows that change this state live in `crate::ops`, above; the readers (`serve`,
//! `inspect`, `doctor`) may use this module and not those (cargo's `core` beside `ops`).

pub mod cas;
pub mod config;
pub mod machine;
pub mod pointers;

use anyhow::Result;

use crate::assets::{AssetDir, Change, DirLock, Image, layout};
use crate::token::TokenStore;

pub use cas::CaSet;
pub use config::ClusterConfig;
pub use pointers::PointerFile;

/// Everything a workflow decides from, read once under the directory lock.
#[derive(Debug)]
pub struct Snapshot {
    /// The directory (for paths in messages and for the change).
    pub dir: AssetDir,
    /// `mcsctl.json`, when the directory has one.
    pub config: Option<ClusterConfig>,
    /// The CAs and the serving pair.
    pub cas: CaSet,
    /// `auth/tokens.json`, when the directory has one.
    pub tokens: Option<TokenStore>,
    /// The pointer configs at the top of the directory (`*.ign`), in name order, then the
    /// machines' (`machines/*.ign`).
    pub pointers: Vec<PointerFile>,
    /// `auth/machines.json`, when a machine was ever registered.
    pub machines: Option<machine::Registry>,
    /// `auth/report-credentials.json`, when a pool ever reported (`render --report`).
    pub report_credentials: Option<crate::firstboot::Credentials>,
    /// The pools with a rendered config (`rendered/<pool>.ign`), in name order.
    pub rendered: Vec<String>,
    /// The fetch evidence, for the workflows that decide from it ([`Snapshot::with_ledger`]).
    pub ledger: Option<crate::ledger::Ledger>,
    /// Whether `mcsctl.json` is there (with a cluster, or started step by step): the mark of
    /// an asset directory.
    pub marked: bool,
    /// The first-boot reports serve recorded ([`Snapshot::with_reports`]), oldest first.
    pub reports: Option<Vec<crate::firstboot::Record>>,
}

/// The pools a directory knows: the MCO's built-in ones, those of its `mcsctl.json` and those
/// with a rendered config, sorted, each once.
pub fn known_pools(config: Option<&ClusterConfig>, rendered: &[String]) -> Vec<String> {
    let mut pools = rendered.to_vec();
    pools.extend(crate::ignition::render::BUILT_IN_POOLS.map(String::from));
    if let Some(c) = config {
        pools.extend(c.pools.iter().cloned());
    }
    pools.sort();
    pools.dedup();
    pools
}

/// Whether a pool the directory does not know may be named (`--new-pool`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NewPool {
    /// Refused with the closest known pool: a typo makes a pool nothing serves.
    Refuse,
    /// `--new-pool`: the pool is meant, and is remembered in mcsctl.json.
    Allow,
}

impl NewPool {
    /// `Allow` with `--new-pool`, else `Refuse`.
    pub fn of(new_pool: bool) -> NewPool {
        if new_pool {
            NewPool::Allow
        } else {
            NewPool::Refuse
        }
    }
}

impl Snapshot {
    /// Takes the directory's lock (completing what a killed command left) and reads the
    /// directory under it: every state-changing command starts here. The lock is proof that no
    /// command changes the directory until it is dropped.
    pub fn lock(dir: &AssetDir) -> Result<(DirLock, Snapshot)> {
        let lock = dir.lock()?;
        let snap = Snapshot::parse(dir, dir.image()?)?;
        Ok((lock, snap))
    }

    /// Reads the directory without the lock: for readers, after `AssetDir::settle`.
    pub fn read(dir: &AssetDir) -> Result<Snapshot> {
        Snapshot::parse(dir, dir.image()?)
    }

    /// The snapshot of the files read, parsed in one pass: `mcsctl.json`, the machines, the
    /// pointer configs, the CAs, the token store (the first bad one is the error).
    fn parse(dir: &AssetDir, mut image: Image) -> Result<Snapshot> {
        let name = |rel: &str| dir.path(rel).display().to_string();
        let (config, marked) = match image.take(layout::CONFIG)? {
            Some(b) => (config::parse(&b, &name(layout::CONFIG))?, true),
            None => (None, false),
        };
        let machines = match image.take(layout::MACHINES)? {
            Some(b) => Some(machine::Registry::parse(&b, &name(layout::MACHINES))?),
            None => None,
        };
        let pointers = image.take_pointers()?;
        let cas = CaSet::parse(&mut image, dir)?;
        let tokens = match image.take(layout::TOKENS)? {
            Some(b) => Some(TokenStore::parse(&b, &name(layout::TOKENS))?),
            None => None,
        };
        let report_credentials = match image.take(layout::REPORT_CREDENTIALS)? {
            Some(b) => Some(crate::firstboot::Credentials::parse(
                &b,
                &name(layout::REPORT_CREDENTIALS),
            )?),
            None => None,
        };
        Ok(Snapshot {
            dir: dir.clone(),
            config,
            cas,
            tokens,
            pointers,
            machines,
            report_credentials,
            rendered: image.rendered,
            ledger: None,
            marked,
            reports: None,
        })
    }

    /// Adds the ledger: the directory's (`auth/ledger/*.jsonl`) and the `extra` files given,
    /// read once, here, under the same lock as the rest.
    pub fn with_ledger(mut self, extra: &[std::path::PathBuf]) -> Result<Snapshot> {
        self.ledger = Some(crate::ledger::Ledger::read_files(&self.dir, extra)?);
        Ok(self)
    }

    /// Adds the fetch evidence: the store's records with `store` (`--store`), else the
    /// directory's ledger files and `ledgers`.
    pub fn with_evidence(
        mut self,
        ledgers: &[std::path::PathBuf],
        store: Option<crate::store::Options>,
        now: time::OffsetDateTime,
    ) -> Result<Snapshot> {
        let Some(o) = store else {
            return self.with_ledger(ledgers);
        };
        if !ledgers.is_empty() {
            return Err(crate::exit::usage(
                "--ledger and --store: with the store, the records are there".to_string(),
            ));
        }
        let Some(cluster) = self.config.as_ref().map(|c| c.cluster_domain()) else {
            anyhow::bail!(
                "{} has no mcsctl.json: the store's keys are the cluster's (or give --store-prefix)",
                self.dir.root().display()
            );
        };
        let (records, unrecorded) = crate::store::blocking(async {
            let s = crate::store::Store::connect(&o, &cluster).await?;
            let unrecorded = s.unrecorded().await.map_err(anyhow::Error::msg)?;
            Ok((s.records(now.unix_timestamp()).await?, unrecorded))
        })?;
        let url = o.url.to_string();
        self.ledger = Some(crate::ledger::Ledger::of_store(url, records, unrecorded));
        Ok(self)
    }

    /// Adds the first-boot reports: the directory's files (`auth/reports/*.jsonl`, a line at a
    /// time, a torn or foreign line skipped), or the store's.
    pub fn with_reports(mut self, store: Option<crate::store::Options>) -> Result<Snapshot> {
        let reports = match store {
            Some(o) => {
                let Some(cluster) = self.config.as_ref().map(|c| c.cluster_domain()) else {
                    anyhow::bail!(
                        "{} has no mcsctl.json: the store's keys are the cluster's",
                        self.dir.root().display()
                    );
                };
                crate::store::blocking(async {
                    let s = crate::store::Store::connect(&o, &cluster).await?;
                    s.reports().await
                })?
            }
            None => crate::firstboot::read_files(&self.dir)?,
        };
        self.reports = Some(reports);
        Ok(self)
    }

    /// The pools of the directory: the MCO's built-in ones, those of mcsctl.json and those with
    /// a rendered config.
    pub fn known_pools(&self) -> Vec<String> {
        known_pools(self.config.as_ref(), &self.rendered)
    }

    /// Refuses a `--pool` this directory does not know (a typo makes a pool nothing serves),
    /// unless `new` (`--new-pool`) says it is meant.
    pub fn check_pool(&self, pool: &str, new: NewPool) -> Result<()> {
        let known = self.known_pools();
        if new == NewPool::Allow || known.iter().any(|p| p == pool) {
            return Ok(());
        }
        let meant = crate::names::closest(pool, &known)
            .map(|k| format!(" (did you mean {k}?)"))
            .unwrap_or_default();
        anyhow::bail!(
            "pool {pool} is not a pool of {}{meant}: it has no rendered config ({}/{pool}.ign), is not in {} and is not one of the MCO's built-in pools (known here: {}). Pass --new-pool if {pool} is new",
            self.dir.root().display(),
            layout::RENDERED,
            layout::CONFIG,
            known.join(", ")
        )
    }

    /// The directory's `mcsctl.json`, or an error saying to run `init`.
    pub fn config(&self) -> Result<&ClusterConfig> {
        match &self.config {
            Some(c) => Ok(c),
            None => anyhow::bail!(
                "{} has no {}; run `mcsctl init` to create an asset directory",
                self.dir.root().display(),
                layout::CONFIG
            ),
        }
    }

    /// tls/mcs-ca-bundle.crt, byte for byte, or an error saying how to make one.
    pub fn bundle(&self) -> Result<&[u8]> {
        match &self.cas.bundle_pem {
            Some(b) => Ok(b),
            None => anyhow::bail!(
                "{} does not exist; run `mcsctl ca create` or `mcsctl ca import` first",
                self.dir.path(layout::CA_BUNDLE).display()
            ),
        }
    }

    /// The PEM machines trust for the MCS, and where it is: the bundle, else the CA.
    pub fn trusted_pem(&self) -> Option<(&[u8], String)> {
        let shown = |rel: &str| self.dir.path(rel).display().to_string();
        match (&self.cas.bundle_pem, &self.cas.active) {
            (Some(b), _) => Some((b.as_slice(), shown(layout::CA_BUNDLE))),
            (None, Some(ca)) => Some((ca.cert_pem.as_slice(), shown(layout::CA_CERT))),
            (None, None) => None,
        }
    }

    /// A change to this directory, named after the command making it.
    pub fn change(&self, command: &str) -> Change<'_> {
        self.dir.change(command)
    }
}

/// `auth/tokens.json`, or `None` when the directory has no token store.
pub fn read_tokens(dir: &AssetDir) -> Result<Option<TokenStore>> {
    if !dir.exists(layout::TOKENS) {
        return Ok(None);
    }
    let bytes = dir.read(layout::TOKENS)?;
    TokenStore::parse(&bytes, &dir.path(layout::TOKENS).display().to_string()).map(Some)
}
