//! What `render` prints: per pool, what was merged, what a node gets beyond Ignition, the
//! pre-approval set and the credentials it is expected to carry, and the files written.

use serde::Serialize;

use crate::ignition::render::merge::Merged;
use crate::ignition::render::payload;

/// One pool, as text or JSON.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PoolReport {
    /// Pool name.
    pub pool: String,
    /// `openshift` or `coreos`.
    pub flavour: &'static str,
    /// The rendered MachineConfig's name (node annotations), if known.
    pub rendered_name: Option<String>,
    /// Output spec version.
    pub spec_version: String,
    /// Where the config came from: `machine-configs`, `cluster` (a rendered MachineConfig
    /// taken as it is) or the URL of a live server.
    pub source: String,
    /// MachineConfigs merged, in order.
    pub merge_order: Vec<String>,
    /// What only the machine-config daemon applies (openshift flavour).
    pub machine: Option<MachineReport>,
    /// Files appended after the merged config.
    pub appended: Vec<&'static str>,
    /// MachineConfigs of the pre-approval subset.
    pub pre_approval: Vec<String>,
    /// The pre-approval config's rendered name.
    pub pre_approval_name: Option<String>,
    /// Credentials the pre-approval set carries, as the "Securing the Machine Config Server" enhancement (openshift/enhancements) expects.
    pub pre_approval_credentials: Vec<Credential>,
    /// Files written, relative to the asset directory.
    pub files: Vec<String>,
    /// Files removed, relative to the asset directory.
    pub removed: Vec<String>,
    /// What Ignition's validation warned about in the MachineConfigs (also printed on
    /// stderr); the configs are still rendered, as the MCO renders them.
    pub warnings: Vec<String>,
    /// Where the full config's first-boot report goes (`render --report`); absent when the
    /// pool does not report.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub first_boot_report: Option<String>,
}

impl PoolReport {
    /// The report of a pool taken whole from a server or a cluster, before its source's
    /// details: nothing merged, no pre-approval subset.
    pub fn whole(pool: &str, flavour: crate::ignition::render::Flavour) -> PoolReport {
        PoolReport {
            pool: pool.to_string(),
            flavour: flavour.name(),
            rendered_name: None,
            spec_version: String::new(),
            source: String::new(),
            merge_order: Vec::new(),
            machine: None,
            appended: Vec::new(),
            pre_approval: Vec::new(),
            pre_approval_name: None,
            pre_approval_credentials: Vec::new(),
            files: Vec::new(),
            removed: Vec::new(),
            warnings: Vec::new(),
            first_boot_report: None,
        }
    }
}

/// The MachineConfig fields of a render.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct MachineReport {
    /// FIPS mode.
    pub fips: bool,
    /// Kernel type.
    pub kernel_type: String,
    /// Kernel arguments.
    pub kernel_arguments: Vec<String>,
    /// Extensions.
    pub extensions: Vec<String>,
    /// OS image (empty: the one the node booted).
    #[serde(rename = "osImageURL")]
    pub os_image_url: String,
}

impl MachineReport {
    /// The report of a merge.
    pub fn of(m: &Merged) -> MachineReport {
        MachineReport {
            fips: m.fips,
            kernel_type: m.kernel_type.clone(),
            kernel_arguments: m.kernel_arguments.clone(),
            extensions: m.extensions.clone(),
            os_image_url: m.os_image_url.clone(),
        }
    }

    fn line(&self) -> String {
        let mut parts = Vec::new();
        if self.fips {
            parts.push("fips".to_string());
        }
        if self.kernel_type != "default" {
            parts.push(format!("kernelType {}", self.kernel_type));
        }
        if !self.kernel_arguments.is_empty() {
            parts.push(format!(
                "kernelArguments {}",
                self.kernel_arguments.join(" ")
            ));
        }
        if !self.extensions.is_empty() {
            parts.push(format!("extensions {}", self.extensions.join(" ")));
        }
        if !self.os_image_url.is_empty() {
            parts.push(format!("osImageURL {}", self.os_image_url));
        }
        if parts.is_empty() {
            "defaults".into()
        } else {
            parts.join(", ")
        }
    }
}

/// A credential in the pre-approval set.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Credential {
    /// Path on the node.
    pub path: String,
    /// What it is.
    pub kind: String,
    /// The MachineConfig it comes from; none for the appended bootstrap kubeconfig.
    pub machine_config: Option<String>,
}

/// A short name for an appended file.
fn label(path: &str) -> &'static str {
    match path {
        payload::NODE_ANNOTATIONS => "node annotations",
        payload::KUBECONFIG => "bootstrap kubeconfig",
        payload::CONTENT => "MachineConfig content",
        payload::ENCAPSULATED => "encapsulated MachineConfig",
        _ => "file",
    }
}

/// A long list for one line: the first few, a count, the last few (`--verbose` or
/// `--format json` give all of them).
pub(super) fn shorten(names: &[String], all: bool) -> String {
    const HEAD: usize = 6;
    const TAIL: usize = 2;
    if all || names.len() <= HEAD + TAIL + 1 {
        return names.join(", ");
    }
    format!(
        "{}, … {} more …, {} ({} in all; -v lists every one)",
        names[..HEAD].join(", "),
        names.len() - HEAD - TAIL,
        names[names.len() - TAIL..].join(", "),
        names.len()
    )
}

/// How many MachineConfig names the text form lists.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Names {
    /// The first few, a count, the last few.
    Short,
    /// `-v`: every one.
    All,
}

/// Each pool's warnings, named by the pool.
pub(super) fn warnings<'a>(pools: impl Iterator<Item = &'a PoolReport>) -> Vec<crate::ops::Note> {
    pools
        .flat_map(|r| {
            r.warnings
                .iter()
                .map(|w| crate::ops::Note::Warn(format!("pool {}: {w}", r.pool)))
        })
        .collect()
}

/// The text form; [`Names::All`] lists every MachineConfig name (`-v`).
pub fn text(report: &super::RenderReport, names: Names) -> String {
    let all = names == Names::All;
    let mut out = String::new();
    for r in &report.pools {
        out.push_str(&format!(
            "{}  {}  spec {}  {}\n",
            r.pool,
            r.rendered_name.as_deref().unwrap_or("-"),
            r.spec_version,
            r.flavour
        ));
        if r.source != "machine-configs" {
            out.push_str(&format!("  source:       {}\n", r.source));
        }
        if !r.merge_order.is_empty() {
            out.push_str(&format!(
                "  merge order:  {}\n",
                shorten(&r.merge_order, all)
            ));
        }
        if let Some(m) = &r.machine {
            out.push_str(&format!("  machine:      {}\n", m.line()));
        }
        if !r.appended.is_empty() {
            let names: Vec<&str> = r.appended.iter().map(|p| label(p)).collect();
            out.push_str(&format!("  appended:     {}\n", names.join(", ")));
        }
        let pre = if r.pre_approval.is_empty() {
            "none".to_string()
        } else {
            shorten(&r.pre_approval, all)
        };
        if r.source.contains("://") || r.source.starts_with("cluster snapshot") {
            out.push_str(
                "  pre-approval: none (a cluster's rendered config cannot be split; serve --auth split answers 404 without a token)\n",
            );
        } else {
            out.push_str(&format!(
                "  pre-approval: {pre} ({} of {})\n",
                r.pre_approval.len(),
                r.merge_order.len()
            ));
        }
        if !r.pre_approval_credentials.is_empty() {
            let list: Vec<String> = r
                .pre_approval_credentials
                .iter()
                .map(|c| match &c.machine_config {
                    Some(m) => format!("{} ({}, from {m})", c.path, c.kind),
                    None => format!("{} ({})", c.path, c.kind),
                })
                .collect();
            out.push_str(&format!(
                "  credentials:  {} (expected before node approval)\n",
                list.join(", ")
            ));
        }
        if let Some(url) = &r.first_boot_report {
            out.push_str(&format!(
                "  first boot:   reported to {url} (full config only)\n"
            ));
        }
        out.push_str(&format!("  wrote:        {}\n", r.files.join(", ")));
        if !r.removed.is_empty() {
            out.push_str(&format!("  removed:      {}\n", r.removed.join(", ")));
        }
    }
    if let Some(left) = report.unselected.as_ref().filter(|l| !l.is_empty()) {
        let names: Vec<String> = left.iter().map(|u| u.to_string()).collect();
        out.push_str(&format!(
            "selected by no pool, left out as the MCO leaves them: {}\n",
            shorten(&names, all)
        ));
    }
    out
}

/// The credentials the pre-approval set carries as expected (the "Securing the Machine Config Server" enhancement (openshift/enhancements)); the findings that
/// are not expected go to `refused`.
pub(super) fn credentials(
    r: &crate::ignition::render::Rendered,
    pre: &[&crate::ignition::render::MachineConfig],
    allow: &[String],
    refused: &mut Vec<crate::ignition::render::secrets::Finding>,
) -> Vec<Credential> {
    let mut creds = Vec::new();
    if r.pre
        .appended
        .contains(&crate::ignition::render::payload::KUBECONFIG)
    {
        creds.push(Credential {
            path: crate::ignition::render::payload::KUBECONFIG.into(),
            kind: "bootstrap kubeconfig".into(),
            machine_config: None,
        });
    }
    for f in crate::ignition::render::secrets::scan(pre, allow) {
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
    creds
}

#[cfg(test)]
mod tests {
    #[test]
    fn long_lists_are_shortened() {
        let names: Vec<String> = (0..334).map(|i| format!("{i:03}-worker")).collect();
        assert_eq!(
            super::shorten(&names, false),
            "000-worker, 001-worker, 002-worker, 003-worker, 004-worker, 005-worker, … 326 more …, 332-worker, 333-worker (334 in all; -v lists every one)"
        );
        assert_eq!(super::shorten(&names[..9], false).matches(", ").count(), 8);
        assert_eq!(super::shorten(&names, true).matches(", ").count(), 333);
    }
}
