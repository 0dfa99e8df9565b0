//! `mcsctl doctor`.

use anyhow::Result;

use crate::assets::{AssetDir, layout};
use crate::cli::values;
use crate::doctor::{self, Options, Status};
use crate::exit;
use crate::ui::{Ui, table};
use clap::Args;
use std::path::PathBuf;

use crate::cli::{DirArg, FormatArg};
use crate::duration::Duration;
use crate::http::resolve::Resolve;
use crate::ignition::SpecVersion;

/// Arguments of `doctor`.
#[derive(Debug, Args)]
pub struct DoctorArgs {
    /// The pointer config to check (default: <dir>/worker.ign).
    #[arg(value_name = "POINTER")]
    pub pointer: Option<PathBuf>,

    /// Use ADDR for HOST instead of DNS, like curl: HOST:ADDR or HOST:PORT:ADDR; repeatable.
    #[arg(long, value_name = "HOST:ADDR", value_parser = values::resolve)]
    pub resolve: Vec<Resolve>,

    /// The newest Ignition spec the simulated client reads (Ignition 2.14 reads 3.3.0, 2.20
    /// reads 3.5.0); a newer pointer config fails at step parse.
    #[arg(long, default_value = "3.3.0", value_name = "V", value_parser = values::spec)]
    pub ignition_spec: SpecVersion,

    /// Time allowed for each network step.
    #[arg(long, default_value = "10s", value_name = "DUR", value_parser = values::duration)]
    pub timeout: Duration,

    /// Fetch the config even when the pointer's token has limited uses (a machine's
    /// single-use token): that spends one, and the machine then gets 401. Without it such a
    /// token is checked with HEAD (TLS, auth, its state), which spends nothing.
    #[arg(long)]
    pub fetch: bool,

    /// `--dir` after the command.
    #[command(flatten)]
    pub dir: DirArg,

    /// `--format` after the command.
    #[command(flatten)]
    pub out: FormatArg,
}

/// Runs `doctor`.
pub fn run(ui: &Ui, dir: &AssetDir, a: &DoctorArgs) -> Result<u8> {
    // A pointer config of a killed `token rotate` is read only once that change is complete.
    if dir.root().is_dir()
        && let Some(c) = dir.settle()?
    {
        ui.warn(format!("completed an interrupted `{c}` before reading"));
    }
    // Read as the other readers read it (inspect), without the lock: doctor changes nothing.
    // A directory that cannot be read gives no tokens and no history: the server's answers
    // still say what is wrong.
    let snap = crate::model::Snapshot::read(dir).ok();
    let report = doctor::run(&options(dir, a, snap.as_ref()), &|warning| ui.warn(warning));
    let code = if report.passed() {
        exit::OK
    } else {
        exit::FAILED
    };
    if ui.structured() {
        let mut v = serde_json::to_value(&report)?;
        v["exitCode"] = code.into();
        ui.out_json(&v)?;
        return Ok(code);
    }
    ui.out(text(ui, &report))?;
    Ok(code)
}

/// doctor's options from its arguments and what the directory holds.
fn options(dir: &AssetDir, a: &DoctorArgs, snap: Option<&crate::model::Snapshot>) -> Options {
    Options {
        pointer: a
            .pointer
            .clone()
            .unwrap_or_else(|| dir.path(&layout::pointer("worker"))),
        resolve: a.resolve.clone(),
        ignition_spec: a.ignition_spec.to_string(),
        timeout: a.timeout.to_std().max(std::time::Duration::from_secs(1)),
        fetch: a.fetch,
        known: known_tokens(snap),
        history: doctor::history::History {
            dir: dir.root().display().to_string(),
            cas: snap.map(|s| s.cas.history(dir)).unwrap_or_default(),
        },
    }
}

/// The report as a table, and the one line that says what it means.
fn text(ui: &Ui, report: &doctor::Report) -> String {
    let rows: Vec<Vec<String>> = report
        .steps
        .iter()
        .map(|s| {
            vec![
                s.step.clone(),
                ui.status_word(s.status.word(), s.status.tone()),
                s.detail.clone(),
            ]
        })
        .collect();
    let mut out = format!(
        "doctor {} (as Ignition accepting spec {})\n",
        report.pointer, report.ignition_spec
    );
    out.push_str(&table(&["STEP", "RESULT", "DETAIL"], &rows));
    match (
        report.steps.iter().find(|s| s.status == Status::Fail),
        report.skipped(),
    ) {
        (Some(f), _) => out.push_str(&format!(
            "\nfailed at step {}: {}\nfix: {}\n",
            f.step,
            f.detail,
            f.fix.as_deref().unwrap_or("")
        )),
        (None, Some(s)) => out.push_str(&format!(
            "\nevery step run passed: a machine booting with this pointer config reaches the server, trusts its certificate and is authorized; its config was not fetched (step {}: a GET would spend the machine's token)\nto fetch it anyway: {}\n",
            s.step,
            s.fix.as_deref().unwrap_or("")
        )),
        (None, None) => out.push_str(
            "\nevery step passed: a machine booting with this pointer config gets its config\n",
        ),
    }
    out
}

/// The machine tokens of limited uses the asset directory holds (none when it has no token
/// store, or a directory that cannot be read: the server's answer to the HEAD still says).
fn known_tokens(snap: Option<&crate::model::Snapshot>) -> Vec<doctor::KnownToken> {
    let Some(store) = snap.and_then(|s| s.tokens.as_ref()) else {
        return Vec::new();
    };
    store
        .tokens
        .iter()
        .filter_map(|t| {
            Some(doctor::KnownToken {
                id: t.id.clone(),
                machine: t.machine.clone()?,
                uses: t.uses?,
            })
        })
        .collect()
}
