//! `mcsctl pointer`: one pointer config.

use anyhow::{Result, bail};
use time::OffsetDateTime;

use crate::assets::{AssetDir, Overwrite, PUBLIC_MODE, SECRET_MODE, write_atomic};
use crate::cli::values::{self, UrlArg};
use crate::cli::{DirArg, FormatArg};
use crate::exit;
use crate::ignition::SpecVersion;
use crate::ignition::pointer::Transport;
use crate::ops::pointer::{Dest, PointerInputs, PointerReport, pointer};
use crate::ui::Ui;
use clap::Args;
use std::path::PathBuf;

/// Arguments of `pointer`.
#[derive(Debug, Args)]
pub struct PointerArgs {
    /// Machine pool (a DNS label, e.g. worker or master).
    #[arg(long, value_name = "POOL", value_parser = values::dns_label)]
    pub pool: String,

    /// Merge source URL, or the MCS address (HOST[:PORT], completed with /config/<pool>);
    /// remembered for the pool in mcsctl.json (default: init --url, else
    /// https://api-int.<cluster>.<base-domain>:22623/config/<pool>).
    #[arg(long, value_name = "URL", value_parser = values::merge_url)]
    pub url: Option<UrlArg>,

    /// Ignition spec version (3.0.0 to 3.4.0; default from mcsctl.json).
    #[arg(long, value_name = "V", value_parser = values::pointer_spec)]
    pub spec_version: Option<SpecVersion>,

    /// How the token is carried (default from mcsctl.json; none for no token).
    #[arg(long, value_enum, value_name = "TRANSPORT")]
    pub token_transport: Option<Transport>,

    /// Where to write: a file, or - for stdout (default <dir>/<pool>.ign).
    #[arg(long, value_name = "FILE")]
    pub output: Option<PathBuf>,

    /// Write the config base64-encoded, as cloud user-data fields expect.
    #[arg(long)]
    pub base64: bool,

    /// Replace an existing file.
    #[arg(long)]
    pub force: bool,

    /// `--new-pool`.
    #[command(flatten)]
    pub new_pool: crate::cli::NewPoolArg,

    /// `--dir` after the command.
    #[command(flatten)]
    pub dir: DirArg,

    /// `--format` after the command.
    #[command(flatten)]
    pub out: FormatArg,
}

/// Runs `pointer`.
pub fn run(ui: &Ui, dir: &AssetDir, args: &PointerArgs, now: OffsetDateTime) -> Result<u8> {
    let inputs = PointerInputs {
        pool: args.pool.clone(),
        url: args.url.as_ref().map(|u| u.for_pool(&args.pool)),
        spec_version: args.spec_version,
        transport: args.token_transport,
        base64: args.base64,
        force: args.force,
        new_pool: args.new_pool.get(),
        dest: dest(args)?,
    };
    // Held from reading mcsctl.json and the token to writing the file, so a concurrent
    // `token rotate` cannot leave this pointer with the old token, nor another `pointer`
    // lose this pool from mcsctl.json.
    let (lock, snap) = super::load(ui, dir)?;
    let out = pointer(&snap, &inputs, now)?;
    ui.detail(&out.report.sources);
    // A token made here is saved before the pointer config carrying it leaves the command.
    let (_, out) = super::commit(ui, &lock, out)?;
    let r = &out.report;
    if let Dest::Stdout = inputs.dest {
        super::print_notes(ui, &out.notes);
        if ui.dry_run && r.token_made {
            ui.warn("dry run: no pointer config printed: its token, made here, is not saved");
            return Ok(exit::OK);
        }
        ui.out(String::from_utf8_lossy(&r.bytes))?;
        return Ok(exit::OK);
    }
    if let Dest::File(p) = &inputs.dest {
        write_out(ui, p, r, Overwrite::when(args.force))?;
    }
    drop(lock);
    super::print_notes(ui, &out.notes);
    if ui.structured() {
        ui.out_json(r)?;
    } else {
        let tok = token_text(ui, r);
        ui.report(format!(
            "{} {} ({}, spec {}, {tok}, mode {})\n  merge source: {}\n",
            ui.did("Wrote", "Would write"),
            r.path,
            if r.base64 { "base64" } else { "json" },
            r.spec_version,
            r.mode,
            r.source
        ))?;
    }
    Ok(exit::OK)
}

/// Where `--output` sends the pointer config: stdout, a file (refused over a key, or over a
/// file without --force), or the asset directory.
fn dest(args: &PointerArgs) -> Result<Dest> {
    Ok(match args.output.as_deref() {
        Some(p) if p.as_os_str() == "-" => Dest::Stdout,
        Some(p) => {
            crate::pki::refuse_output_over_key(p, crate::assets::read_file(p).ok().as_deref())?;
            if p.exists() && !args.force {
                bail!("{} exists; pass --force to replace it", p.display());
            }
            Dest::File(p.to_path_buf())
        }
        None => Dest::Dir,
    })
}

/// Writes the pointer config to `--output FILE` (0600 when it carries a token).
fn write_out(ui: &Ui, p: &std::path::Path, r: &PointerReport, ow: Overwrite) -> Result<()> {
    let mode = if r.token_id.is_some() {
        SECRET_MODE
    } else {
        PUBLIC_MODE
    };
    if ui.dry_run {
        crate::assets::check_write(p, ow)?;
        ui.info(format!("dry run: {} not written", p.display()));
    } else {
        write_atomic(p, &r.bytes, mode, ow)?;
    }
    Ok(())
}

/// The summary's word on the token: under --dry-run a token made here has an id no token will
/// have.
fn token_text(ui: &Ui, r: &PointerReport) -> String {
    match &r.token_id {
        Some(_) if ui.dry_run && r.token_made => format!("a new token in {}", r.token_transport),
        Some(id) => format!("token {id} in {}", r.token_transport),
        None => "no token".into(),
    }
}
