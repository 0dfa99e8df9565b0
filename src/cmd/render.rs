//! `mcsctl render`.

use std::io::Read;
use std::path::Path;

use anyhow::{Context as _, Result, bail};
use serde::Serialize;

use super::spec_flag;
use crate::assets::{AssetDir, Overwrite, SECRET_MODE};
use crate::cli::RenderArgs;
use crate::exit;
use crate::ignition::render::{self, MachineConfig, Rendered};
use crate::serve::state::{PRE_APPROVAL, RENDERED};
use crate::ui::Ui;

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct PoolReport {
    pool: String,
    rendered_name: String,
    spec_version: String,
    merge_order: Vec<String>,
    pre_approval: Vec<String>,
    files: Vec<String>,
}

/// Reads every MachineConfig from a file, a directory (*.yaml, *.yml, *.json, by name) or stdin.
fn read_all(p: &Path) -> Result<Vec<MachineConfig>> {
    let mut objects = Vec::new();
    let name = p.display().to_string();
    if p.as_os_str() == "-" {
        let mut s = String::new();
        std::io::stdin()
            .read_to_string(&mut s)
            .context("reading stdin")?;
        objects.extend(crate::kube::objects(&s, "stdin")?);
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
        for f in files {
            let t =
                std::fs::read_to_string(&f).with_context(|| format!("reading {}", f.display()))?;
            objects.extend(crate::kube::objects(&t, &f.display().to_string())?);
        }
    } else {
        let t = std::fs::read_to_string(p).with_context(|| format!("reading {name}"))?;
        objects.extend(crate::kube::objects(&t, &name)?);
    }
    render::machine_configs(objects, &name)
}

/// Runs `render`.
pub fn run(ui: &Ui, dir: &AssetDir, a: &RenderArgs) -> Result<u8> {
    let version = a.spec_version.as_deref().map(spec_flag).transpose()?;
    let mcs = read_all(&a.machine_configs)?;
    dir.require()?;
    let cfg = dir.config().ok();
    // Pools: every role found, and the asset directory's pools that inherit worker configs.
    let mut pools: Vec<String> = mcs.iter().filter_map(|m| m.role.clone()).collect();
    for p in cfg.iter().flat_map(|c| c.pools.iter()) {
        pools.push(p.clone());
    }
    pools.sort();
    pools.dedup();
    for p in &pools {
        if !crate::names::is_dns_label(p) {
            bail!("role {p:?} is not a pool name (a DNS label)");
        }
    }
    let mut rendered: Vec<Rendered> = Vec::new();
    let mut findings = Vec::new();
    for p in &pools {
        let order = render::pool_order(&mcs, p);
        if order.is_empty() {
            continue;
        }
        let r = render::render(&mcs, p, version).with_context(|| format!("rendering pool {p}"))?;
        let pre: Vec<&MachineConfig> = order.into_iter().filter(|m| m.pre_approval).collect();
        for f in render::scan(&pre, &a.allow_sensitive) {
            if !findings.contains(&f) {
                findings.push(f);
            }
        }
        rendered.push(r);
    }
    if rendered.is_empty() {
        bail!(
            "no MachineConfig has a role label ({}) naming a pool",
            render::ROLE_LABEL
        );
    }
    if !findings.is_empty() {
        let list: Vec<String> = findings.iter().map(|f| f.to_string()).collect();
        bail!(
            "the pre-approval set, served without a token, would leak secrets: {}; move them out of neededBeforeNodeApproved configs, or pass --allow-sensitive PATH",
            list.join("; ")
        );
    }
    // Everything rendered and checked: now write.
    let _lock = dir.lock()?;
    let mut reports = Vec::new();
    for r in &rendered {
        let full_rel = format!("{RENDERED}/{}.ign", r.pool);
        let pre_rel = format!("{PRE_APPROVAL}/{}.ign", r.pool);
        let mut full = serde_json::to_vec(&r.full)?;
        full.push(b'\n');
        let mut pre = serde_json::to_vec(&r.pre)?;
        pre.push(b'\n');
        // Rendered configs hold pull secrets and kubeconfigs: owner-only, like keys.
        dir.write(&full_rel, &full, SECRET_MODE, Overwrite::Allow)?;
        dir.write(&pre_rel, &pre, SECRET_MODE, Overwrite::Allow)?;
        reports.push(PoolReport {
            pool: r.pool.clone(),
            rendered_name: r.name.clone(),
            spec_version: r.version.to_string(),
            merge_order: r.order.clone(),
            pre_approval: r.pre_order.clone(),
            files: vec![full_rel, pre_rel],
        });
    }
    if ui.json() {
        ui.out_json(&serde_json::json!({ "pools": reports }))?;
    } else {
        let mut out = String::new();
        for r in &reports {
            out.push_str(&format!(
                "{}  {}  spec {}\n",
                r.pool, r.rendered_name, r.spec_version
            ));
            out.push_str(&format!("  merge order:  {}\n", r.merge_order.join(", ")));
            let pre = if r.pre_approval.is_empty() {
                "none".to_string()
            } else {
                r.pre_approval.join(", ")
            };
            out.push_str(&format!(
                "  pre-approval: {pre} ({} of {})\n",
                r.pre_approval.len(),
                r.merge_order.len()
            ));
            out.push_str(&format!("  wrote:        {}\n", r.files.join(", ")));
        }
        ui.out(out)?;
    }
    Ok(exit::OK)
}
