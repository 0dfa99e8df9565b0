//! `mcsctl render`: MachineConfigs (or, with --from-mcs, what a live config server serves) to
//! `rendered/<pool>.ign` and `rendered/pre-approval/<pool>.ign`. Everything is rendered and
//! checked in memory first; nothing is written when any pool fails.

mod changes;
mod from_cluster;
mod from_mcs;
mod report;

use std::path::Path;

use anyhow::{Context as _, Result, bail};

use crate::assets::{AssetDir, Change, DirLock, Overwrite, SECRET_MODE, layout};
use crate::cli::RenderArgs;
use crate::exit::{self, usage};
use crate::ignition::SpecVersion;
use crate::ignition::render::secrets::{self, Finding};
use crate::ignition::render::{self, Flavour, MachineConfig, Options, Rendered, payload};
use crate::kubeconfig::{self, BootstrapKubeconfig};
use crate::serve::state::{PRE_APPROVAL, RENDERED};
use crate::ui::Ui;
use report::{Credential, MachineReport, PoolReport};

/// Runs `render`.
pub fn run(ui: &Ui, dir: &AssetDir, a: &RenderArgs) -> Result<u8> {
    let version = a.spec_version;
    dir.require()?;
    // Inputs before state: with --for, mcsctl.json is read only to record the flavour.
    let recorded = match a.flavour {
        Some(_) => None,
        None => crate::state::config::load(dir)?.map(|c| c.flavour),
    };
    let flavour = a.flavour.or(recorded).unwrap_or_default();
    ui.detail(format!(
        "flavour {} ({})",
        flavour.name(),
        match (a.flavour, recorded) {
            (Some(_), _) => "from --for",
            (None, Some(_)) => "from mcsctl.json",
            (None, None) => "default",
        }
    ));
    if flavour == Flavour::CoreOs && a.bootstrap_kubeconfig.is_some() {
        return Err(usage(
            "--bootstrap-kubeconfig is for --for openshift: coreos configs get no appended files",
        ));
    }
    if flavour == Flavour::OpenShift
        && let Some(v) = version
        && v.minor != SpecVersion::MAX_MINOR
    {
        return Err(usage(format!(
            "--spec-version {v}: the openshift flavour keeps the MCO's internal spec 3.5.0, and serve answers each client at its own spec as the MCS does; --spec-version chooses the spec of --for coreos"
        )));
    }
    if a.pool.is_some() && a.from_mcs.is_none() && a.from_cluster.is_none() {
        return Err(usage("--pool goes with --from-mcs or --from-cluster"));
    }
    if a.from_mcs.is_some() {
        return from_mcs::run(ui, dir, a, flavour, version);
    }
    if a.from_cluster.is_some() {
        return from_cluster::run(ui, dir, a, flavour);
    }
    let Some(input) = &a.machine_configs else {
        // clap requires --machine-configs unless --from-mcs is given.
        return Err(usage("--machine-configs is required"));
    };
    let mcs = read_all(input)?;
    let kubeconfig = match flavour {
        Flavour::OpenShift => bootstrap_kubeconfig(dir, a, ui.now)?,
        Flavour::CoreOs => None,
    };
    let cluster = render::Cluster::default();
    let opts = Options {
        flavour,
        version,
        kubeconfig: kubeconfig.as_ref().map(|k| k.bytes.as_slice()),
        cluster: &cluster,
    };

    let mut rendered: Vec<Rendered> = Vec::new();
    let mut refused: Vec<Finding> = Vec::new();
    let mut expected: Vec<Vec<Credential>> = Vec::new();
    let mut skipped: Vec<String> = Vec::new();
    for p in pools(&mcs, dir)? {
        let order = render::pool_order(&mcs, &p)?;
        if order.is_empty() {
            skipped.push(p);
            continue;
        }
        let r = render::render(&mcs, &p, opts).with_context(|| format!("rendering pool {p}"))?;
        let pre: Vec<&MachineConfig> = order.into_iter().filter(|m| m.pre_approval).collect();
        let mut creds = Vec::new();
        if r.pre.appended.contains(&payload::KUBECONFIG) {
            creds.push(Credential {
                path: payload::KUBECONFIG.into(),
                kind: "bootstrap kubeconfig".into(),
                machine_config: None,
            });
        }
        for f in secrets::scan(&pre, &a.allow_sensitive) {
            if f.expected() {
                creds.push(Credential {
                    path: f.path.clone(),
                    kind: f.kind.into(),
                    machine_config: Some(f.machine_config.clone()),
                });
            } else if !refused.contains(&f) {
                refused.push(f);
            }
        }
        expected.push(creds);
        rendered.push(r);
    }
    if rendered.is_empty() {
        bail!(
            "no MachineConfig has a role label ({}) naming a pool, and none is a rendered-<pool>-<hash> config",
            render::ROLE_LABEL
        );
    }
    if !refused.is_empty() {
        let list: Vec<String> = refused.iter().map(|f| f.to_string()).collect();
        bail!(
            "the pre-approval set, served without a token, would leak secrets: {}; move them out of neededBeforeNodeApproved configs, or pass --allow-sensitive PATH",
            list.join("; ")
        );
    }

    // Everything rendered and checked: compare with what the pools serve, then write as one
    // change.
    let lock = super::lock(ui, dir)?;
    let new: Vec<changes::New<'_>> = rendered
        .iter()
        .map(|r| changes::New {
            pool: &r.pool,
            bytes: &r.full.bytes,
            sources: (!r.from_cluster).then_some(r.full.order.as_slice()),
        })
        .collect();
    if let changes::Verdict::DryRun = changes::check(ui, dir, a, &new)? {
        return Ok(exit::OK);
    }
    let mut change = dir.change("render");
    if let Some(k) = &kubeconfig
        && k.store
    {
        change.write(
            layout::BOOTSTRAP_KUBECONFIG,
            &k.bytes,
            SECRET_MODE,
            Overwrite::Allow,
        );
    }
    let mut reports = Vec::new();
    for (r, creds) in rendered.iter().zip(expected) {
        let full_rel = format!("{RENDERED}/{}.ign", r.pool);
        let pre_rel = format!("{PRE_APPROVAL}/{}.ign", r.pool);
        // Rendered configs hold pull secrets and kubeconfigs: owner-only, like keys.
        change.write(
            &full_rel,
            &line(&r.full.bytes),
            SECRET_MODE,
            Overwrite::Allow,
        );
        change.write(&pre_rel, &line(&r.pre.bytes), SECRET_MODE, Overwrite::Allow);
        changes::record(
            &mut change,
            dir,
            &r.pool,
            (!r.from_cluster).then_some(r.full.order.as_slice()),
        );
        reports.push(PoolReport {
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
            files: vec![full_rel, pre_rel],
            removed: Vec::new(),
            warnings: r.full.warnings.clone(),
        });
    }
    commit_recording_flavour(ui, dir, change, &lock, flavour)?;
    report::warn(ui, &reports);
    for p in skipped {
        ui.info(format!(
            "pool {p} (from {}): no MachineConfig applies; not rendered",
            layout::CONFIG
        ));
    }
    if flavour == Flavour::OpenShift && kubeconfig.is_none() {
        ui.warn(format!(
            "no bootstrap kubeconfig: nodes booted from these configs cannot send their CSR and will never join the cluster. Pass --bootstrap-kubeconfig FILE ({})",
            kubeconfig::HOW_TO_GET
        ));
    }
    if ui.json() {
        ui.out_json(&serde_json::json!({
            "pools": reports,
            "bootstrapKubeconfig": kubeconfig.as_ref().map(|k| serde_json::json!({
                "path": layout::BOOTSTRAP_KUBECONFIG,
                "server": k.info.server,
                "credential": k.info.credential,
            })),
        }))?;
    } else {
        ui.out(report::text(&reports, ui.verbose))?;
    }
    Ok(exit::OK)
}

/// A config as written: the bytes and a newline.
fn line(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(bytes.len() + 1);
    out.extend_from_slice(bytes);
    out.push(b'\n');
    out
}

/// The pools to render: every role and rendered pool found, and the asset directory's pools
/// (which inherit worker configs). Each must be a DNS label: it becomes a file name and a URL.
fn pools(mcs: &[MachineConfig], dir: &AssetDir) -> Result<Vec<String>> {
    let mut pools: Vec<String> = mcs
        .iter()
        .filter_map(|m| m.rendered_pool.clone().or_else(|| m.role.clone()))
        .collect();
    if let Some(cfg) = crate::state::config::load(dir)? {
        pools.extend(cfg.pools);
    }
    pools.sort();
    pools.dedup();
    for p in &pools {
        if !crate::names::is_dns_label(p) {
            bail!("role {p:?} is not a pool name (a DNS label)");
        }
    }
    Ok(pools)
}

/// Commits `change`, with the flavour added to `mcsctl.json` when it changed (read under the
/// caller's lock), and says so.
fn commit_recording_flavour(
    ui: &Ui,
    dir: &AssetDir,
    mut change: Change<'_>,
    lock: &DirLock,
    flavour: Flavour,
) -> Result<()> {
    let mut recorded = false;
    if let Some(mut cfg) = crate::state::config::load(dir)?
        && cfg.flavour != flavour
    {
        cfg.flavour = flavour;
        cfg.stage(&mut change)?;
        recorded = true;
    }
    change.commit(lock)?;
    if recorded {
        ui.info(format!(
            "recorded flavour {} in {}",
            flavour.name(),
            layout::CONFIG
        ));
    }
    Ok(())
}

/// The bootstrap kubeconfig to append, checked.
struct Kubeconfig {
    bytes: Vec<u8>,
    info: BootstrapKubeconfig,
    /// Whether it is new to the asset directory (to be stored).
    store: bool,
}

/// `--bootstrap-kubeconfig`, or the one kept from an earlier render. A different one replaces
/// the kept one only with --force: it is a credential, and nodes already booted used the old.
fn bootstrap_kubeconfig(
    dir: &AssetDir,
    a: &RenderArgs,
    now: time::OffsetDateTime,
) -> Result<Option<Kubeconfig>> {
    let now = now.unix_timestamp();
    let kept_path = dir.path(layout::BOOTSTRAP_KUBECONFIG);
    let kept = if dir.exists(layout::BOOTSTRAP_KUBECONFIG) {
        Some(dir.read(layout::BOOTSTRAP_KUBECONFIG)?)
    } else {
        None
    };
    match &a.bootstrap_kubeconfig {
        Some(p) => {
            let bytes = crate::assets::read_file(p)?;
            let info = kubeconfig::check(&bytes, &p.display().to_string(), now)?;
            let store = match &kept {
                Some(k) if *k == bytes => false,
                Some(_) if !a.force => bail!(
                    "{} holds a different bootstrap kubeconfig; pass --force to replace it",
                    kept_path.display()
                ),
                _ => true,
            };
            Ok(Some(Kubeconfig { bytes, info, store }))
        }
        None => match kept {
            Some(bytes) => {
                let info = kubeconfig::check(&bytes, &kept_path.display().to_string(), now)?;
                Ok(Some(Kubeconfig {
                    bytes,
                    info,
                    store: false,
                }))
            }
            None => Ok(None),
        },
    }
}

/// Reads every MachineConfig from a file, a directory (*.yaml, *.yml, *.json, by name) or
/// stdin; errors name the file that holds the problem.
fn read_all(p: &Path) -> Result<Vec<MachineConfig>> {
    let name = p.display().to_string();
    let mut kinds = std::collections::BTreeSet::new();
    let mut parse = |text: &str, what: &str| {
        let objects = crate::kube::located(text, what)?;
        kinds.extend(
            objects
                .iter()
                .filter_map(|o| o.value["kind"].as_str().map(str::to_string)),
        );
        render::machineconfig::parse_all(&objects, what)
    };
    let mcs = if p.as_os_str() == "-" {
        let s = String::from_utf8(crate::assets::read_stdin()?)
            .map_err(|_| anyhow::anyhow!("stdin is not UTF-8 text"))?;
        parse(&s, "stdin")?
    } else if p.is_dir() {
        let mut files: Vec<_> = std::fs::read_dir(p)
            .with_context(|| format!("reading {name}"))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|f| {
                f.extension()
                    .and_then(|e| e.to_str())
                    .is_some_and(|e| ["yaml", "yml", "json"].contains(&e))
            })
            .collect();
        files.sort();
        if files.is_empty() {
            bail!("{name} holds no *.yaml, *.yml or *.json file");
        }
        let mut all = Vec::new();
        for (f, t) in crate::assets::read_texts(&files, &name)? {
            all.extend(parse(&t, &f.display().to_string())?);
        }
        all
    } else {
        let t = crate::assets::read_text(p)?;
        parse(&t, &name)?
    };
    kinds.remove("MachineConfig");
    if mcs.is_empty() && !kinds.is_empty() {
        let kinds: Vec<String> = kinds.into_iter().collect();
        bail!(
            "{name}: no MachineConfig objects found (it holds {}); `oc get mc -o yaml` prints MachineConfigs",
            kinds.join(", ")
        );
    }
    render::machineconfig::check_set(mcs, &name)
}
