//! `mcsctl inspect`: builds the report (`crate::inspect`) and prints it: three tables
//! (certificates, pointer configs, checks with a fix under each one that is not ok) or one
//! JSON document.

use anyhow::Result;
use time::OffsetDateTime;

use crate::assets::AssetDir;
use crate::cli::values;
use crate::inspect::{self, Level, Options, Report};
use crate::ui::{Ui, table};
use clap::Args;
use std::path::PathBuf;

use crate::cli::{DirArg, FormatArg};
use crate::duration::Duration;

/// Arguments of `inspect`.
#[derive(Debug, Args)]
pub struct InspectArgs {
    /// PEM or DER certificates, pointer configs, Kubernetes Secret/ConfigMap YAML or JSON, or
    /// an asset directory (default: the --dir asset directory).
    #[arg(value_name = "TARGET")]
    pub targets: Vec<PathBuf>,

    /// Connect to a live TLS endpoint, show the chain it presents and check each named pointer
    /// config against it.
    #[arg(long, value_name = "HOST:PORT", value_parser = values::host_port)]
    pub remote: Option<String>,

    /// Server name to send (SNI) with --remote (default: the host of HOST:PORT).
    #[arg(long, value_name = "NAME", requires = "remote")]
    pub server_name: Option<String>,

    /// CA bundle to verify --remote against (default: the asset CA bundle when present).
    #[arg(long, value_name = "FILE", requires = "remote")]
    pub ca: Option<PathBuf>,

    /// Warn (exit 3) about certificates expiring within this duration.
    #[arg(long, default_value = "30d", value_name = "DUR", value_parser = values::duration)]
    pub warn_within: Duration,

    /// Another replica's ledger to read machine tokens' fetches from (repeatable); every
    /// <dir>/auth/ledger/*.jsonl is read.
    #[arg(long = "ledger", value_name = "FILE", conflicts_with = "store")]
    pub ledgers: Vec<PathBuf>,

    /// Where serve replicas keep machine tokens' fetches, read instead of the ledger files.
    #[command(flatten)]
    pub store: crate::cli::StoreArgs,

    /// `--dir` after the command.
    #[command(flatten)]
    pub dir: DirArg,

    /// `--format` after the command.
    #[command(flatten)]
    pub out: FormatArg,
}

/// Runs `inspect`.
pub fn run(ui: &Ui, dir: &AssetDir, args: &InspectArgs, now: OffsetDateTime) -> Result<u8> {
    let warn_within = args.warn_within.seconds();
    let report = inspect::run(&Options {
        dir,
        targets: &args.targets,
        remote: args.remote.as_deref(),
        server_name: args.server_name.as_deref(),
        ca: args.ca.as_deref(),
        now,
        warn_within,
        ledgers: &args.ledgers,
        store: args.store.options()?.as_ref(),
    })?;
    if ui.structured() {
        ui.out_json(&report)?;
    } else {
        ui.out(text(ui, &report))?;
    }
    Ok(report.exit_code)
}

fn text(ui: &Ui, r: &Report) -> String {
    let mut out = certificates(ui, r);
    if !r.pointers.is_empty() {
        out.push('\n');
        out.push_str(&pointers(r));
    }
    if !r.checks.is_empty() {
        let mut rows: Vec<Vec<String>> = Vec::new();
        for c in &r.checks {
            rows.push(vec![
                ui.status_word(c.status.word(), c.status.tone()),
                c.check.to_string(),
                c.message.clone(),
            ]);
            if let Some(fix) = &c.fix {
                rows.push(vec![String::new(), String::new(), format!("fix: {fix}")]);
            }
        }
        out.push('\n');
        out.push_str(&table(&["CHECK", "NAME", "DETAIL"], &rows));
    }
    let count = |l: Level| r.checks.iter().filter(|c| c.status == l).count();
    out.push_str(&format!(
        "\n{} ok, {} warning(s), {} failure(s) (warning window {}; certificates past 80% of their life need attention too)\n",
        count(Level::Ok),
        count(Level::Warn),
        count(Level::Fail),
        crate::duration::Duration(r.warn_within)
    ));
    out
}

/// The certificates' table, or nothing.
fn certificates(ui: &Ui, r: &Report) -> String {
    let mut out = String::new();
    if !r.certificates.is_empty() {
        let rows: Vec<Vec<String>> = r
            .certificates
            .iter()
            .map(|c| {
                vec![
                    c.name.clone(),
                    c.subject.clone(),
                    c.not_after.clone(),
                    c.residual.clone(),
                    c.issuer.clone(),
                    c.key.clone(),
                    ui.status_word(&c.status, c.level.tone()),
                ]
            })
            .collect();
        out.push_str(&table(
            &[
                "NAME",
                "SUBJECT",
                "NOT AFTER",
                "RESIDUAL",
                "ISSUER",
                "KEY",
                "STATUS",
            ],
            &rows,
        ));
    }
    out
}

/// The pointer configs' table.
fn pointers(r: &Report) -> String {
    let rows: Vec<Vec<String>> = r
        .pointers
        .iter()
        .map(|p| {
            let token = match &p.token {
                Some(t) => format!("{} {}", t.transport, t.id.as_deref().unwrap_or("?")),
                None => "none".into(),
            };
            vec![
                p.name.clone(),
                p.spec_version.clone(),
                p.merge_sources.join(" "),
                token,
                p.certificate_authorities.to_string(),
            ]
        })
        .collect();
    table(&["POINTER", "SPEC", "MERGE SOURCE", "TOKEN", "CAS"], &rows)
}
