//! `render --from-cluster PATH`: what the in-cluster MCS would serve, from a snapshot of the
//! cluster's objects (one file of `oc get -o yaml` output, a YAML stream, or a directory of
//! them such as `oc adm inspect` writes): each pool's rendered MachineConfig as the MCS picks
//! it, the bootstrap kubeconfig as the MCS builds it. Everything is worked out and checked in
//! memory first; nothing is written when any pool fails.

use std::path::{Path, PathBuf};

use anyhow::{Context as _, Result, anyhow, bail};
use serde_json::Value;

use super::report::{PoolReport, text};
use super::{changes, commit_recording_flavour};
use crate::assets::{AssetDir, Overwrite, SECRET_MODE, layout};
use crate::cli::RenderArgs;
use crate::exit::{self, usage};
use crate::ignition::render::{Flavour, cluster, payload};
use crate::ignition::spec::Spec;
use crate::ui::Ui;

/// Runs `render --from-cluster`.
pub fn run(ui: &Ui, dir: &AssetDir, a: &RenderArgs, flavour: Flavour) -> Result<u8> {
    let Some(path) = &a.from_cluster else {
        return Err(usage("--from-cluster needs a path"));
    };
    if flavour == Flavour::CoreOs {
        return Err(usage(
            "--from-cluster serves what the in-cluster MCS serves, which is --for openshift",
        ));
    }
    if a.bootstrap_kubeconfig.is_some() {
        return Err(usage(
            "--from-cluster builds the bootstrap kubeconfig from the snapshot's node-bootstrapper token, as the MCS does; leave out --bootstrap-kubeconfig",
        ));
    }
    let shown = path.display().to_string();
    let objects = read_objects(path)?;
    ui.detail(format!("{shown}: {} objects", objects.len()));
    let served = cluster::serve(&objects, a.pool.as_deref(), &shown)?;
    let now = ui.now.unix_timestamp();
    let info = crate::kubeconfig::check(
        &served.kubeconfig,
        "the bootstrap kubeconfig built from the snapshot",
        now,
    )?;
    let mut bodies = Vec::new();
    for p in &served.pools {
        let body = p.source.serve(Spec::INTERNAL).map_err(|e| {
            anyhow!(
                "pool {}: the MCS could not serve {}: {e}",
                p.pool,
                p.source.name()
            )
        })?;
        ui.detail(format!(
            "pool {}: {} (its {}, {} node(s) updated){}",
            p.pool,
            p.source.name(),
            p.chosen_by,
            p.updated,
            p.image
                .as_deref()
                .map(|i| format!("; layered image {i}"))
                .unwrap_or_default()
        ));
        bodies.push(body);
    }

    let lock = crate::cmd::lock(ui, dir)?;
    let new: Vec<changes::New<'_>> = served
        .pools
        .iter()
        .zip(&bodies)
        .map(|(p, body)| changes::New {
            pool: &p.pool,
            bytes: body,
            sources: None,
        })
        .collect();
    if let changes::Verdict::DryRun = changes::check(ui, dir, a, &new)? {
        return Ok(exit::OK);
    }
    let kept_path = dir.path(layout::BOOTSTRAP_KUBECONFIG);
    let kept = if dir.exists(layout::BOOTSTRAP_KUBECONFIG) {
        Some(dir.read(layout::BOOTSTRAP_KUBECONFIG)?)
    } else {
        None
    };
    let mut change = dir.change("render --from-cluster");
    match &kept {
        Some(k) if *k == served.kubeconfig => {}
        Some(_) if !a.force => bail!(
            "{} holds a different bootstrap kubeconfig than the one the snapshot gives; pass --force to replace it",
            kept_path.display()
        ),
        _ => change.write(
            layout::BOOTSTRAP_KUBECONFIG,
            &served.kubeconfig,
            SECRET_MODE,
            Overwrite::Allow,
        ),
    }
    let mut reports = Vec::new();
    for (p, body) in served.pools.iter().zip(&bodies) {
        let (full_rel, removed) = changes::stage_whole(&mut change, dir, &p.pool, body);
        let mc = &p.source.mc.spec;
        reports.push(PoolReport {
            pool: p.pool.clone(),
            flavour: Flavour::OpenShift.name(),
            rendered_name: Some(p.source.name().to_string()),
            spec_version: Spec::INTERNAL.to_string(),
            source: format!("cluster snapshot {shown} (the pool's {})", p.chosen_by),
            merge_order: Vec::new(),
            machine: Some(super::report::MachineReport {
                fips: mc.fips,
                kernel_type: mc.kernel_type.clone(),
                kernel_arguments: mc.kernel_arguments.clone().unwrap_or_default(),
                extensions: mc.extensions.clone().unwrap_or_default(),
                os_image_url: mc.os_image_url.clone(),
            }),
            appended: payload::APPENDED.to_vec(),
            pre_approval: Vec::new(),
            pre_approval_name: None,
            pre_approval_credentials: Vec::new(),
            files: vec![full_rel],
            removed,
            warnings: Vec::new(),
        });
    }
    commit_recording_flavour(ui, dir, change, &lock, Flavour::OpenShift)?;
    for n in &served.notes {
        ui.warn(n.clone());
    }
    ui.info(format!(
        "bootstrap kubeconfig for {} built from the node-bootstrapper token ({} CA from the {}); kept as {}",
        served.server,
        info.cas.len(),
        served.ca_from,
        layout::BOOTSTRAP_KUBECONFIG
    ));
    if ui.json() {
        ui.out_json(&serde_json::json!({
            "pools": reports,
            "bootstrapKubeconfig": {
                "path": layout::BOOTSTRAP_KUBECONFIG,
                "server": served.server,
                "caFrom": served.ca_from,
            },
        }))?;
    } else {
        ui.out(text(&reports, ui.verbose))?;
    }
    Ok(exit::OK)
}

/// Every object of a file, of stdin (`-`), or of every `*.yaml`, `*.yml` and `*.json` under a
/// directory (recursively, in name order), Lists flattened.
fn read_objects(path: &Path) -> Result<Vec<Value>> {
    if path.as_os_str() == "-" {
        let s = String::from_utf8(crate::assets::read_stdin()?)
            .map_err(|_| anyhow!("stdin is not UTF-8 text"))?;
        return crate::kube::objects(&s, "stdin");
    }
    if !path.is_dir() {
        let text = crate::assets::read_text(path)?;
        return crate::kube::objects(&text, &path.display().to_string());
    }
    let mut files = Vec::new();
    walk(path, &mut files)?;
    if files.is_empty() {
        bail!("{} holds no *.yaml, *.yml or *.json file", path.display());
    }
    let mut out = Vec::new();
    for (f, text) in crate::assets::read_texts(&files, &path.display().to_string())? {
        out.extend(crate::kube::objects(&text, &f.display().to_string())?);
    }
    Ok(out)
}

fn walk(d: &Path, out: &mut Vec<PathBuf>) -> Result<()> {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(d)
        .with_context(|| format!("reading {}", d.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    entries.sort();
    for p in entries {
        // Symlinked directories are not followed: a snapshot is a plain tree.
        let meta = std::fs::symlink_metadata(&p)?;
        if meta.is_dir() {
            walk(&p, out)?;
        } else if p
            .extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| ["yaml", "yml", "json"].contains(&e))
        {
            out.push(p);
        }
    }
    Ok(())
}
