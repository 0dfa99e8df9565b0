//! `mcsctl inspect`: builds the report (`crate::inspect`) and prints it: three tables
//! (certificates, pointer configs, checks with a fix under each one that is not ok) or one
//! JSON document.

use anyhow::Result;
use time::OffsetDateTime;

use crate::assets::AssetDir;
use crate::cli::InspectArgs;
use crate::inspect::{self, Level, Options, Report};
use crate::ui::{Ui, table};

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
