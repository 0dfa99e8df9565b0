//! `render`: each pool's config (`rendered/<pool>.ign`) and its pre-approval subset
//! (`rendered/pre-approval/<pool>.ign`), from MachineConfigs ([`machine_configs`]), a
//! cluster snapshot ([`cluster`]) or what a live config server serves ([`mcs`], fetched by
//! [`fetch`]). Everything is rendered and checked in memory; the change replaces what the
//! pools serve only when nothing would disappear (or `--replace`), and records the flavour in
//! mcsctl.json.

pub mod compare;
mod day2;
mod firstboot;
pub mod kubeconfig;
mod pools;
pub mod report;
pub mod served;

use anyhow::{Context as _, Result, anyhow, bail};
use serde::Serialize;
use time::OffsetDateTime;

use super::{Note, Outcome, Run};
use crate::assets::Overwrite;
use crate::assets::layout;
use crate::ignition::SpecVersion;
use crate::ignition::render::cluster::Served;
use crate::ignition::render::diff::PoolDiff;
use crate::ignition::render::machineconfig::{Dropped, Read, Unselected};
use crate::ignition::render::secrets::Finding;
use crate::ignition::render::{self, Flavour, MachineConfig, Options, Rendered, payload};
use crate::ignition::spec::Spec;
use crate::model::Snapshot;
pub use compare::Losses;
use compare::{full_rel, pre_rel, stage_pool};
pub use firstboot::FirstBoot;
use firstboot::{Reporting, not_reporting};
use kubeconfig::KubeconfigReport;
pub use kubeconfig::NoKubeconfig;
use report::{Credential, MachineReport, PoolReport};

/// What `render` was asked for, besides its source.
pub struct RenderInputs<'a> {
    /// `--for`, else mcsctl.json's, else the default.
    pub flavour: Flavour,
    /// `--spec-version` (the coreos flavour's output spec).
    pub version: Option<SpecVersion>,
    /// `--bootstrap-kubeconfig`, read: its bytes and its name.
    pub bootstrap_kubeconfig: Option<(Vec<u8>, String)>,
    /// `--no-bootstrap-kubeconfig`: OpenShift configs without one are meant (a test, a lab);
    /// without it they are refused, since nodes booted from them never join.
    pub without_kubeconfig: NoKubeconfig,
    /// `--allow-sensitive`: paths the pre-approval set may carry.
    pub allow_sensitive: &'a [String],
    /// Replace a different kept bootstrap kubeconfig (`--force`).
    pub force: Overwrite,
    /// Only report the difference (`--dry-run`).
    pub run: Run,
    /// Render even when something the pools serve would disappear (`--replace`).
    pub replace: Losses,
    /// A ControllerConfig for `--machine-configs` (its images, CAs and release version) and
    /// the input it came from.
    pub controller: Option<(render::Cluster, String)>,
    /// `--current`: the cluster's current rendered MachineConfig of a pool.
    pub current: Option<render::reconcile::Rendered>,
    /// `--allow-irreconcilable`: storage sections exempt from the day-2 rules.
    pub allow_irreconcilable: Vec<render::reconcile::Storage>,
    /// `--report`, `--no-report` or neither: which pools' full configs carry the first-boot
    /// report.
    pub report: FirstBoot,
}

/// What `render` did (or, with `--dry-run`, would do).
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RenderReport {
    /// Each pool rendered.
    pub pools: Vec<PoolReport>,
    /// The bootstrap kubeconfig appended (`null`: none); absent for `--from-mcs`, whose
    /// configs carry the server's own.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bootstrap_kubeconfig: Option<Option<KubeconfigReport>>,
    /// With `--dry-run`: each pool's difference with what it serves now; nothing written.
    #[serde(skip)]
    pub dry_run: Option<Vec<PoolDiff>>,
    /// MachineConfigs no pool selects, left out unparsed (`--machine-configs` only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unselected: Option<Vec<Unselected>>,
    /// Fields the MCO drops, dropped (`--machine-configs` only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dropped: Option<Vec<Dropped>>,
    /// The input the ControllerConfig came from, when one was used.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub controller_config: Option<String>,
    /// Pools refused because serve would not serve their config (nothing written for them).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub unserved: Vec<served::Refused>,
}

/// One pool's new files.
struct NewPool {
    report: PoolReport,
    /// The config as served.
    full: Vec<u8>,
    /// The pre-approval subset; `None` removes an earlier one (a whole config cannot be split).
    pre: Option<Vec<u8>>,
    /// The MachineConfigs merged (`None`: the source is a server or a cluster).
    sources: Option<Vec<String>>,
}

/// Renders the pools of the MachineConfigs `read` selects: every role and rendered pool found,
/// and the directory's pools.
pub fn machine_configs<'s>(
    snap: &'s Snapshot,
    read: &Read,
    mut inputs: RenderInputs<'_>,
    now: OffsetDateTime,
) -> Result<Outcome<'s, RenderReport>> {
    let flavour = inputs.flavour;
    let mcs = read.mcs.as_slice();
    let controller = inputs.controller.take();
    let kubeconfig = match flavour {
        Flavour::OpenShift => {
            kubeconfig::choose(snap, inputs.bootstrap_kubeconfig.clone(), inputs.force, now)?
        }
        Flavour::CoreOs => None,
    };
    let mut notes: Vec<Note> = pools::images(mcs, flavour, controller.as_ref())
        .into_iter()
        .collect();
    let (cluster, controller_config) = match (controller, flavour) {
        (Some((c, from)), Flavour::OpenShift) => (c, Some(from)),
        _ => (render::Cluster::default(), None),
    };
    let opts = Options {
        flavour,
        version: inputs.version,
        kubeconfig: kubeconfig.as_ref().map(|k| k.bytes.as_slice()),
        cluster: &cluster,
        first_boot: None,
    };
    let mut refused: Vec<Finding> = Vec::new();
    let mut reporting = Reporting::new(snap, inputs.report);
    let (new, unserved) = render_pools(
        snap,
        mcs,
        opts,
        (&inputs, &mut reporting),
        &mut notes,
        &mut refused,
    )?;
    if new.is_empty() && !unserved.is_empty() {
        let why: Vec<String> = unserved.iter().map(|u| u.to_string()).collect();
        bail!("{}", why.join("\n"));
    }
    if new.is_empty() {
        return Err(pools::nothing_selected(read));
    }
    if !refused.is_empty() {
        let list: Vec<String> = refused.iter().map(|f| f.to_string()).collect();
        bail!(
            "the pre-approval set, served without a token, would leak secrets: {}; move them out of neededBeforeNodeApproved configs, or pass --allow-sensitive PATH",
            list.join("; ")
        );
    }
    if flavour == Flavour::OpenShift && kubeconfig.is_none() {
        notes.push(kubeconfig::missing(inputs.without_kubeconfig)?);
    }
    let kube_report = kubeconfig.as_ref().map(|k| KubeconfigReport {
        path: layout::BOOTSTRAP_KUBECONFIG,
        server: k.info.server.clone(),
        credential: Some(k.info.credential),
        ca_from: None,
    });
    let store = kubeconfig.filter(|k| k.store).map(|k| k.bytes);
    let done = Done {
        command: "render",
        flavour,
        kubeconfig: store,
        kube_report: Some(kube_report),
        notes,
        read: Some(read),
        controller_config,
        unserved,
        reporting: Some(reporting),
    };
    finish(snap, new, done, &inputs)
}

/// Renders each pool of `mcs`: the pools to write, and those serve would refuse (not
/// written). Pre-approval credentials that are not expected go to `refused`.
fn render_pools(
    snap: &Snapshot,
    mcs: &[MachineConfig],
    opts: Options<'_>,
    (inputs, reporting): (&RenderInputs<'_>, &mut Reporting),
    notes: &mut Vec<Note>,
    refused: &mut Vec<Finding>,
) -> Result<(Vec<NewPool>, Vec<served::Refused>)> {
    let mut new = Vec::new();
    let mut unserved = Vec::new();
    for p in pools::pools(mcs, snap)? {
        let order = render::pool_order(mcs, &p)?;
        if order.is_empty() {
            notes.push(Note::Info(format!(
                "pool {p} (from {}): no MachineConfig applies; not rendered",
                layout::CONFIG
            )));
            continue;
        }
        notes.extend(pools::untargeted(snap, mcs, &p));
        let report = reporting.additions(snap, &p)?;
        let opts = Options {
            first_boot: report.as_ref().map(|(a, _)| a.as_slice()),
            ..opts
        };
        let r = render::render(mcs, &p, opts).with_context(|| format!("rendering pool {p}"))?;
        if let Some(x) = served::refusal(&p, &full_rel(&p), &r.full.bytes, &order)
            .or_else(|| served::refusal(&p, &pre_rel(&p), &r.pre.bytes, &order))
        {
            unserved.push(x);
            continue;
        }
        if opts.flavour == Flavour::OpenShift {
            let new = (&r.full.merged.config, r.full.merged.fips);
            let allowed = &inputs.allow_irreconcilable;
            notes.extend(day2::check(
                snap,
                &p,
                inputs.current.as_ref(),
                new,
                &order,
                allowed,
            )?);
        }
        let pre: Vec<&MachineConfig> = order.into_iter().filter(|m| m.pre_approval).collect();
        let creds = report::credentials(&r, &pre, inputs.allow_sensitive, refused);
        let mut pool = split_pool(r, creds, opts.flavour);
        pool.report.first_boot_report = report.map(|(_, url)| url);
        new.push(pool);
    }
    Ok((new, unserved))
}

/// A pool rendered from MachineConfigs: its config, its subset and its report.
fn split_pool(r: Rendered, creds: Vec<Credential>, flavour: Flavour) -> NewPool {
    let sources = (!r.from_cluster).then(|| r.full.order.clone());
    let report = PoolReport {
        pool: r.pool.clone(),
        flavour: flavour.name(),
        rendered_name: Some(r.full.name.clone()),
        spec_version: r.version.to_string(),
        source: if r.from_cluster {
            "cluster (a rendered MachineConfig, taken as it is)".into()
        } else {
            "machine-configs".into()
        },
        merge_order: r.full.order.clone(),
        machine: (flavour == Flavour::OpenShift).then(|| MachineReport::of(&r.full.merged)),
        appended: r.full.appended.clone(),
        pre_approval: r.pre.order.clone(),
        pre_approval_name: Some(r.pre.name.clone()),
        pre_approval_credentials: creds,
        files: vec![full_rel(&r.pool), pre_rel(&r.pool)],
        removed: Vec::new(),
        warnings: r.full.warnings.clone(),
        first_boot_report: None,
    };
    NewPool {
        report,
        full: r.full.bytes,
        pre: Some(r.pre.bytes),
        sources,
    }
}

/// The pools of a cluster snapshot, each as the in-cluster MCS picks and serves it, with the
/// bootstrap kubeconfig it builds. `shown` names the snapshot.
pub fn cluster<'s>(
    snap: &'s Snapshot,
    served: Served,
    shown: &str,
    inputs: RenderInputs<'_>,
    now: OffsetDateTime,
) -> Result<Outcome<'s, RenderReport>> {
    let info = crate::kubeconfig::check(
        &served.kubeconfig,
        "the bootstrap kubeconfig built from the snapshot",
        now,
    )?;
    let mut new = Vec::new();
    for p in &served.pools {
        let body = p.source.serve(Spec::INTERNAL).map_err(|e| {
            anyhow!(
                "pool {}: the MCS could not serve {}: {e}",
                p.pool,
                p.source.name()
            )
        })?;
        let mc = &p.source.mc.spec;
        let report = PoolReport {
            source: format!("cluster snapshot {shown} (the pool's {})", p.chosen_by),
            rendered_name: Some(p.source.name().to_string()),
            spec_version: Spec::INTERNAL.to_string(),
            machine: Some(MachineReport {
                fips: mc.fips,
                kernel_type: mc.kernel_type.clone(),
                kernel_arguments: mc.kernel_arguments.clone().unwrap_or_default(),
                extensions: mc.extensions.clone().unwrap_or_default(),
                os_image_url: mc.os_image_url.clone(),
            }),
            appended: payload::APPENDED.to_vec(),
            ..PoolReport::whole(&p.pool, Flavour::OpenShift)
        };
        new.push(whole_pool(report, body));
    }
    // Checked only when there is something to write: --dry-run reports the difference alone.
    let store = if inputs.run == Run::DryRun {
        false
    } else {
        kubeconfig::store_built(snap, &served.kubeconfig, inputs.force)?
    };
    let mut notes: Vec<Note> = served.notes.iter().cloned().map(Note::Warn).collect();
    notes.push(Note::Info(format!(
        "bootstrap kubeconfig for {} built from the node-bootstrapper token ({} CA from the {}); kept as {}",
        served.server,
        info.cas.len(),
        served.ca_from,
        layout::BOOTSTRAP_KUBECONFIG
    )));
    let done = Done {
        command: "render --from-cluster",
        flavour: Flavour::OpenShift,
        kube_report: Some(Some(KubeconfigReport {
            path: layout::BOOTSTRAP_KUBECONFIG,
            server: served.server.clone(),
            credential: None,
            ca_from: Some(served.ca_from),
        })),
        kubeconfig: store.then_some(served.kubeconfig),
        notes,
        read: None,
        controller_config: None,
        unserved: Vec::new(),
        reporting: None,
    };
    finish(snap, new, done, &inputs)
}

/// One pool's config as a live server serves it.
pub fn mcs<'s>(
    snap: &'s Snapshot,
    pool: &str,
    fetched: crate::ignition::fetch::Fetched,
    inputs: RenderInputs<'_>,
) -> Result<Outcome<'s, RenderReport>> {
    let config = &fetched.config;
    let files = config["storage"]["files"].as_array().map_or(0, Vec::len);
    let units = config["systemd"]["units"].as_array().map_or(0, Vec::len);
    let note = Note::Info(format!(
        "fetched {} bytes from {}: {files} file(s), {units} unit(s)",
        fetched.body.len(),
        fetched.shown
    ));
    let report = PoolReport {
        rendered_name: payload::served_name(config),
        spec_version: config["ignition"]["version"]
            .as_str()
            .unwrap_or_default()
            .to_string(),
        source: fetched.shown.clone(),
        appended: payload::APPENDED
            .into_iter()
            .filter(|p| payload::writes(config, p))
            .collect(),
        ..PoolReport::whole(pool, inputs.flavour)
    };
    let done = Done {
        command: "render --from-mcs",
        flavour: inputs.flavour,
        kubeconfig: None,
        kube_report: None,
        notes: vec![note],
        read: None,
        controller_config: None,
        unserved: Vec::new(),
        reporting: None,
    };
    finish(snap, vec![whole_pool(report, fetched.body)], done, &inputs)
}

/// A pool taken whole from a server or a cluster: the bytes as served (serve takes them apart
/// again for each client version), no record of MachineConfigs, and no pre-approval subset
/// (such a config cannot be split; an earlier subset would no longer describe the pool).
fn whole_pool(mut report: PoolReport, body: Vec<u8>) -> NewPool {
    report.files = vec![full_rel(&report.pool)];
    NewPool {
        report,
        full: body,
        pre: None,
        sources: None,
    }
}

/// What a source adds to the change and the report, besides its pools.
struct Done<'r> {
    command: &'static str,
    flavour: Flavour,
    /// A bootstrap kubeconfig to store.
    kubeconfig: Option<Vec<u8>>,
    kube_report: Option<Option<KubeconfigReport>>,
    /// Said after the change is committed, in order.
    notes: Vec<Note>,
    /// What the MachineConfig inputs held (`--machine-configs`).
    read: Option<&'r Read>,
    /// Where the ControllerConfig came from.
    controller_config: Option<String>,
    /// Pools refused: serve would not serve them.
    unserved: Vec<served::Refused>,
    /// The first-boot report state (`--machine-configs`; the other sources add nothing).
    reporting: Option<Reporting>,
}

/// Compares with what the pools serve now and decides the change: the pools' files, the
/// kubeconfig, and the flavour recorded in mcsctl.json.
fn finish<'s>(
    snap: &'s Snapshot,
    mut new: Vec<NewPool>,
    done: Done<'_>,
    inputs: &RenderInputs<'_>,
) -> Result<Outcome<'s, RenderReport>> {
    let compared: Vec<compare::New<'_>> = new
        .iter()
        .map(|n| compare::New {
            pool: &n.report.pool,
            bytes: &n.full,
            sources: n.sources.as_deref(),
        })
        .collect();
    let diffs = compare::diffs(&snap.dir, &compared)?;
    let report = |pools, dry_run| RenderReport {
        pools,
        bootstrap_kubeconfig: done.kube_report,
        dry_run,
        unselected: done.read.map(|r| r.unselected.clone()),
        dropped: done.read.map(|r| r.dropped.clone()),
        controller_config: done.controller_config,
        unserved: done.unserved,
    };
    let pool_warnings = report::warnings(new.iter().map(|n| &n.report));
    let losses = compare::losses(&diffs, inputs.replace);
    if inputs.run == Run::DryRun {
        let notes = compare::as_dry_run(losses, pool_warnings, done.notes);
        return Ok(Outcome {
            change: None,
            report: report(Vec::new(), Some(diffs)),
            notes,
        });
    }
    let mut notes = losses?;
    let mut change = snap.change(done.command);
    if let Some(k) = &done.kubeconfig {
        kubeconfig::stage(&mut change, k);
    }
    for n in &mut new {
        stage_pool(&mut change, snap, n);
    }
    let mut cfg = snap.config.clone();
    let mut cfg_changed = false;
    if let Some(c) = cfg.as_mut()
        && c.flavour != done.flavour
    {
        c.flavour = done.flavour;
        cfg_changed = true;
        notes.push(Note::Info(format!(
            "recorded flavour {} in {}",
            done.flavour.name(),
            layout::CONFIG
        )));
    }
    match &done.reporting {
        Some(r) => cfg_changed |= r.stage(&mut change, cfg.as_mut()),
        None => notes.extend(not_reporting(snap, &new)),
    }
    if let Some(c) = cfg.filter(|_| cfg_changed) {
        c.stage(&mut change)?;
    }
    notes.extend(pool_warnings);
    notes.extend(done.notes);
    let pools = new.into_iter().map(|n| n.report).collect();
    Ok(Outcome {
        change: Some(change),
        report: report(pools, None),
        notes,
    })
}
