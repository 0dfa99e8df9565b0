//! `mcsctl version`: what this binary is and what it speaks.

use anyhow::Result;
use serde::Serialize;

use crate::cli::FormatArg;
use crate::exit;
use crate::ignition::spec::Spec;
use crate::ui::Ui;
use clap::Args;

/// Arguments of `version`.
#[derive(Debug, Args)]
pub struct VersionArgs {
    /// `--format` after the command.
    #[command(flatten)]
    pub out: FormatArg,
}

/// The report of `version`.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct Version {
    /// mcsctl's version.
    version: &'static str,
    /// The commit it was built from (12 hex digits), or "unknown".
    commit: &'static str,
    /// The target triple it was built for.
    target: &'static str,
    /// TLS versions serve and the HTTP client accept, newest first.
    tls_versions: [&'static str; 2],
    /// The Ignition spec versions read from MachineConfigs and pointer configs, and served to
    /// clients that ask for them, oldest first.
    ignition_specs: Vec<String>,
    /// The spec rendered configs are stored at (the MCO's internal version).
    internal_spec: String,
}

/// Its line of the command table: no asset directory, a report.
pub(super) fn entry(a: &crate::cmd::version::VersionArgs) -> super::Entry<'_> {
    super::Entry {
        name: "version",
        dir: None,
        format: Ok(&a.out),
        run: Box::new(move |ui, _, _| run(ui)),
    }
}

/// Runs `version`.
pub fn run(ui: &Ui) -> Result<u8> {
    let v = Version {
        version: env!("CARGO_PKG_VERSION"),
        commit: env!("MCSCTL_COMMIT"),
        target: env!("MCSCTL_TARGET"),
        tls_versions: ["1.3", "1.2"],
        ignition_specs: Spec::ALL.iter().map(ToString::to_string).collect(),
        internal_spec: Spec::INTERNAL.to_string(),
    };
    if ui.structured() {
        ui.out_json(&v)?;
    } else {
        ui.out(format!(
            "mcsctl {}\ncommit: {}\ntarget: {}\nTLS: {}\nIgnition specs: {} (stored at {})\n",
            v.version,
            v.commit,
            v.target,
            v.tls_versions.join(", "),
            v.ignition_specs.join(", "),
            v.internal_spec
        ))?;
    }
    Ok(exit::OK)
}
