//! `mcsctl cert issue` and `mcsctl cert renew`: load, call `ops::serving`, commit, print.

use anyhow::Result;
use time::OffsetDateTime;

use super::{commit, keygen, print_notes, print_written};
use crate::assets::AssetDir;
use crate::cli::{CertIssueArgs, CertRenewArgs};
use crate::exit::{self, usage};
use crate::ops::Outcome;
use crate::ops::serving::{self, CertReport, IssueInputs};
use crate::ui::Ui;

/// Runs `cert issue`.
pub fn issue(ui: &Ui, dir: &AssetDir, args: &CertIssueArgs, now: OffsetDateTime) -> Result<u8> {
    // Without mcsctl.json (a directory made step by step with `ca create`) there is no cluster
    // name to derive api-int.<cluster>.<domain> from: the SANs must be given.
    let (lock, snap) = super::load(ui, dir)?;
    if snap.config.is_none() && args.sans.is_empty() {
        return Err(usage(format!(
            "{} has no mcsctl.json to take the cluster's api-int name from; pass --san HOST (or run `mcsctl init`)",
            dir.root().display()
        )));
    }
    let inputs = IssueInputs {
        extra: args.sans.clone(),
        replace_sans: args.replace_sans,
        force: args.force,
        key_algorithm: args.key_algorithm,
        validity: args.validity.to_time(),
    };
    let keys = keygen(ui);
    let out = serving::issue(&snap, &inputs, &keys, now)?;
    ui.detail(&out.report.why);
    finish(
        ui,
        commit(ui, &lock, out)?.1,
        "Issued the serving certificate:",
    )
}

/// Runs `cert renew`: same CA, same SANs, new key.
pub fn renew(ui: &Ui, dir: &AssetDir, args: &CertRenewArgs, now: OffsetDateTime) -> Result<u8> {
    let (lock, snap) = super::load(ui, dir)?;
    let keys = keygen(ui);
    let out = serving::renew(
        &snap,
        args.validity.to_time(),
        args.key_algorithm,
        &keys,
        now,
    )?;
    finish(
        ui,
        commit(ui, &lock, out)?.1,
        "Renewed the serving certificate:",
    )
}

fn finish(ui: &Ui, out: Outcome<'_, CertReport>, heading: &str) -> Result<u8> {
    print_notes(ui, &out.notes);
    if ui.structured() {
        ui.out_json(&out.report)?;
    } else {
        print_written(ui, heading, &out.report.files)?;
    }
    Ok(exit::OK)
}
