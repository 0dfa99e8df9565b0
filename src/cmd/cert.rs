//! `mcsctl cert issue` and `mcsctl cert renew`: load, call `ops::serving`, commit, print.

use anyhow::Result;
use time::OffsetDateTime;

use super::{commit, keygen, print_notes, print_written};
use crate::assets::AssetDir;

use crate::cli::values;
use crate::exit::{self, usage};
use crate::ops::Outcome;
use crate::ops::serving::{self, CertReport, IssueInputs};
use crate::ui::Ui;
use clap::{Args, Subcommand};

use crate::cli::{DirArg, FormatArg};
use crate::duration::Duration;
use crate::names::San;
use crate::pki::keys::KeyAlgorithm;

/// `cert` subcommands.
#[derive(Debug, Subcommand)]
pub enum CertCommand {
    /// Issue the serving certificate (tls/mcs.crt, tls/mcs.key), signed by the CA.
    Issue(CertIssueArgs),
    /// Renew the serving certificate: same CA, same SANs, new key.
    Renew(CertRenewArgs),
}

/// Arguments of `cert issue`.
#[derive(Debug, Args)]
pub struct CertIssueArgs {
    /// A subject alternative name (DNS name or IP) to add; repeatable. The certificate always
    /// names api-int and the hosts of the URLs in mcsctl.json, and keeps the current
    /// certificate's names unless --replace-sans.
    #[arg(long = "san", value_name = "SAN", value_parser = values::san)]
    pub sans: Vec<San>,

    /// Leave out the current certificate's names: the new one names api-int, the recorded
    /// URL hosts and --san only.
    #[arg(long)]
    pub replace_sans: bool,

    /// Key algorithm of the serving key (default: the one recorded in mcsctl.json, else the CA's).
    #[arg(long, value_enum, value_name = "ALGORITHM")]
    pub key_algorithm: Option<KeyAlgorithm>,

    /// Validity; never beyond the CA's notAfter.
    #[arg(long, default_value = "10y", value_name = "DUR", value_parser = values::duration)]
    pub validity: Duration,

    /// Replace an existing serving certificate.
    #[arg(long)]
    pub force: bool,

    /// `--dir` after the command.
    #[command(flatten)]
    pub dir: DirArg,

    /// `--format` after the command.
    #[command(flatten)]
    pub out: FormatArg,
}

/// Arguments of `cert renew`.
#[derive(Debug, Args)]
pub struct CertRenewArgs {
    /// Key algorithm of the new key (default: the one of the current key).
    #[arg(long, value_enum, value_name = "ALGORITHM")]
    pub key_algorithm: Option<KeyAlgorithm>,

    /// Validity; never beyond the CA's notAfter.
    #[arg(long, default_value = "10y", value_name = "DUR", value_parser = values::duration)]
    pub validity: Duration,

    /// `--dir` after the command.
    #[command(flatten)]
    pub dir: DirArg,

    /// `--format` after the command.
    #[command(flatten)]
    pub out: FormatArg,
}

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
