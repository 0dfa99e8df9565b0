//! `mcsctl doctor`.

use anyhow::Result;

use crate::assets::{AssetDir, layout};
use crate::cli::DoctorArgs;
use crate::doctor::{self, Options, Status};
use crate::exit;
use crate::ui::{Ui, table};

/// Runs `doctor`.
pub fn run(ui: &Ui, dir: &AssetDir, a: &DoctorArgs) -> Result<u8> {
    // A pointer config of a killed `token rotate` is read only once that change is complete.
    if dir.root().is_dir()
        && let Some(c) = dir.settle()?
    {
        ui.warn(format!("completed an interrupted `{c}` before reading"));
    }
    let opts = Options {
        pointer: a
            .pointer
            .clone()
            .unwrap_or_else(|| dir.path(&layout::pointer("worker"))),
        resolve: a.resolve.clone(),
        ignition_spec: a.ignition_spec.to_string(),
        timeout: a.timeout.to_std().max(std::time::Duration::from_secs(1)),
    };
    let report = doctor::run(&opts);
    let code = if report.passed() {
        exit::OK
    } else {
        exit::FAILED
    };
    if ui.json() {
        let mut v = serde_json::to_value(&report)?;
        v["exitCode"] = code.into();
        ui.out_json(&v)?;
        return Ok(code);
    }
    let rows: Vec<Vec<String>> = report
        .steps
        .iter()
        .map(|s| {
            vec![
                s.step.clone(),
                ui.status_word(if s.status == Status::Ok { "ok" } else { "fail" }),
                s.detail.clone(),
            ]
        })
        .collect();
    let mut out = format!(
        "doctor {} (as Ignition accepting spec {})\n",
        report.pointer, report.ignition_spec
    );
    out.push_str(&table(&["STEP", "RESULT", "DETAIL"], &rows));
    match report.steps.iter().find(|s| s.status == Status::Fail) {
        Some(f) => out.push_str(&format!(
            "\nfailed at step {}: {}\nfix: {}\n",
            f.step,
            f.detail,
            f.fix.as_deref().unwrap_or("")
        )),
        None => out.push_str(
            "\nevery step passed: a machine booting with this pointer config gets its config\n",
        ),
    }
    ui.out(out)?;
    Ok(code)
}
