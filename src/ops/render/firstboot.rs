//! `render --report` and `--no-report`: which pools' full configs carry the first-boot report
//! (remembered in mcsctl.json's `reportPools`), and each pool's report credential
//! (`auth/report-credentials.json`, 0600, made once and kept, so a render of the same inputs
//! gives the same bytes).

use std::collections::BTreeSet;

use anyhow::{Result, anyhow};

use super::super::Note;
use super::NewPool;
use crate::assets::layout::{CA_BUNDLE, CONFIG, REPORT_CREDENTIALS};
use crate::assets::{Change, Overwrite, SECRET_MODE};
use crate::firstboot::{Addition, Credentials, additions, report_url};
use crate::model::Snapshot;

/// `--report`, `--no-report`, or neither (what mcsctl.json remembers).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FirstBoot {
    /// The pools in `reportPools` report.
    Keep,
    /// The pools rendered report, from now on.
    On,
    /// The pools rendered stop reporting.
    Off,
}

impl FirstBoot {
    /// From `--report` and `--no-report` (clap keeps them apart).
    pub fn of(report: bool, no_report: bool) -> FirstBoot {
        match (report, no_report) {
            (true, _) => FirstBoot::On,
            (false, true) => FirstBoot::Off,
            (false, false) => FirstBoot::Keep,
        }
    }
}

/// The report state of one render: the pools that report once it is done and their
/// credentials.
pub(super) struct Reporting {
    choice: FirstBoot,
    pools: BTreeSet<String>,
    before: BTreeSet<String>,
    credentials: Credentials,
    made: bool,
}

impl Reporting {
    pub(super) fn new(snap: &Snapshot, choice: FirstBoot) -> Reporting {
        let before: BTreeSet<String> = snap
            .config
            .as_ref()
            .map(|c| c.report_pools.iter().cloned().collect())
            .unwrap_or_default();
        Reporting {
            choice,
            pools: before.clone(),
            before,
            credentials: snap.report_credentials.clone().unwrap_or_default(),
            made: false,
        }
    }

    /// What `pool`'s full config gets, and where its reports go; `None` when it does not
    /// report.
    pub(super) fn additions(
        &mut self,
        snap: &Snapshot,
        pool: &str,
    ) -> Result<Option<(Vec<Addition>, String)>> {
        match self.choice {
            FirstBoot::On => {
                self.pools.insert(pool.to_string());
            }
            FirstBoot::Off => {
                self.pools.remove(pool);
            }
            FirstBoot::Keep => {}
        }
        if !self.pools.contains(pool) {
            return Ok(None);
        }
        let cfg = snap.config.as_ref().ok_or_else(|| {
            anyhow!(
                "render --report needs {CONFIG} (the config server's URL): run mcsctl init first"
            )
        })?;
        let config_url = cfg.default_url(pool);
        let url = report_url(&config_url, pool).ok_or_else(|| {
            anyhow!(
                "pool {pool}: its config URL {config_url} is not an https URL the report can go to; render with --no-report"
            )
        })?;
        let ca = snap.cas.bundle_pem.as_deref().ok_or_else(|| {
            anyhow!("render --report needs the MCS CA bundle ({CA_BUNDLE}): run mcsctl init or ca create first")
        })?;
        let (secret, made) = self.credentials.ensure(pool)?;
        let adds = additions(&url, ca, secret);
        self.made |= made;
        Ok(Some((adds, url)))
    }

    /// Records what changed: `reportPools` in `cfg` (when it moved) and new credentials.
    /// Whether `cfg` changed.
    pub(super) fn stage(
        &self,
        change: &mut Change<'_>,
        cfg: Option<&mut crate::model::config::ClusterConfig>,
    ) -> bool {
        if self.made {
            change.write(
                REPORT_CREDENTIALS,
                &self.credentials.to_bytes(),
                SECRET_MODE,
                Overwrite::Allow,
            );
        }
        match cfg {
            Some(cfg) if self.pools != self.before => {
                cfg.report_pools = self.pools.iter().cloned().collect();
                true
            }
            _ => false,
        }
    }

    /// Pools that report and were not rendered now (a `--from-mcs` or `--from-cluster`
    /// render takes configs whole and adds nothing): said, not refused.
    pub(super) fn not_added<'p>(&self, rendered: impl IntoIterator<Item = &'p str>) -> Vec<String> {
        rendered
            .into_iter()
            .filter(|p| self.pools.contains(*p))
            .map(str::to_string)
            .collect()
    }
}

/// A render that takes configs whole adds no first-boot report: said for each such pool
/// mcsctl.json says reports.
pub(super) fn not_reporting(snap: &Snapshot, new: &[NewPool]) -> Vec<Note> {
    let reporting = Reporting::new(snap, FirstBoot::Keep);
    reporting
        .not_added(new.iter().map(|n| n.report.pool.as_str()))
        .into_iter()
        .map(|p| {
            Note::Warn(format!(
                "pool {p} reports its first boots (render --report), but a config taken whole carries no report: machines booted from it send none"
            ))
        })
        .collect()
}
