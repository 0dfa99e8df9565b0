//! Command handlers: each resolves its arguments, loads the asset directory under its lock
//! ([`load`]), calls a workflow of `crate::state`, commits its change ([`commit`]) and prints
//! its report. No command module calls another; what they share is here.

pub mod ca;
pub mod cert;
pub mod csr;
pub mod docs;
pub mod doctor;
pub mod init;
pub mod inspect;
pub mod machine;
pub mod manifests;
pub mod pointer;
pub mod render;
pub mod serve;
pub mod token;

use std::path::PathBuf;

use anyhow::Result;
use rcgen::KeyPair;

use crate::assets::{AssetDir, DirLock, Recovered};
use crate::cli::{self, Cli, Command};
use crate::exit::usage;
use crate::ops::{Note, Outcome, Snapshot};
use crate::pki::keys::KeyAlgorithm;
use crate::ui::Ui;

pub(crate) use crate::ops::Written;

/// Runs the parsed command line at the time `clock` gives; returns the exit code.
pub fn run(cli: Cli, clock: &crate::clock::Clock) -> Result<u8> {
    let g = &cli.global;
    let (dir_arg, format_arg) = cli.command.common();
    let name = cli.command.name();
    if g.dir.is_some() && dir_arg.is_none() {
        return Err(usage(format!(
            "{name} does not use an asset directory: --dir does not apply"
        )));
    }
    if g.format.is_some() && format_arg.is_none() {
        let writes = match &cli.command {
            Command::Completions(_) => "a shell script",
            Command::Man(_) => "man pages",
            Command::Serve(_) => "its access log as JSON lines",
            _ => "a PEM certificate",
        };
        return Err(usage(format!(
            "{name} writes {writes}: --format does not apply"
        )));
    }
    let dir = dir_arg
        .and_then(|d| d.dir.clone())
        .or_else(|| g.dir.clone())
        .or_else(|| {
            std::env::var_os("MCSCTL_DIR")
                .filter(|v| !v.is_empty())
                .map(PathBuf::from)
        })
        .unwrap_or_else(|| PathBuf::from("mcs-assets"));
    let format = format_arg
        .and_then(|f| f.format)
        .or(g.format)
        .unwrap_or_default();
    if let Some(n) = g.max_input_size {
        crate::assets::set_max_input(n);
    }
    let ui = Ui::new(format, g.quiet, g.verbose, g.non_interactive, clock.now());
    if g.verbose {
        crate::ui::enable_verbose_log();
    }
    if dir_arg.is_some() {
        ui.detail(format!("asset directory {}", dir.display()));
    }
    let dir = AssetDir::new(&dir);
    match &cli.command {
        Command::Init(a) => init::run(&ui, &dir, a),
        Command::Ca(cli::CaCommand::Create(a)) => ca::create(&ui, &dir, a),
        Command::Ca(cli::CaCommand::Import(a)) => ca::import(&ui, &dir, a),
        Command::Ca(cli::CaCommand::Rotate(a)) => ca::rotate(&ui, &dir, a),
        Command::Ca(cli::CaCommand::Promote(a)) => ca::promote(&ui, &dir, a),
        Command::Ca(cli::CaCommand::Retire(a)) => ca::retire(&ui, &dir, a),
        Command::Cert(cli::CertCommand::Issue(a)) => cert::issue(&ui, &dir, a),
        Command::Cert(cli::CertCommand::Renew(a)) => cert::renew(&ui, &dir, a),
        Command::Pointer(a) => pointer::run(&ui, &dir, a),
        Command::Token(t) => token::run(&ui, &dir, t),
        Command::Machine(m) => machine::run(&ui, &dir, m),
        Command::Inspect(a) => inspect::run(&ui, &dir, a),
        Command::Render(a) => render::run(&ui, &dir, a),
        Command::Serve(a) => serve::run(&dir, a, clock),
        Command::Doctor(a) => doctor::run(&ui, &dir, a),
        Command::Csr(cli::CsrCommand::Review(a)) => csr::review(&ui, &dir, a),
        Command::Csr(cli::CsrCommand::Sign(a)) => csr::sign(&ui, &dir, a),
        Command::Manifests(a) => manifests::run(&ui, &dir, a),
        Command::Completions(a) => docs::completions(a),
        Command::Man(a) => docs::man(&ui, a),
    }
}

/// Generates a key, with a spinner for the slow (RSA) algorithms.
pub(crate) fn generate_key(ui: &Ui, alg: KeyAlgorithm, what: &str) -> Result<KeyPair> {
    if alg.is_slow() {
        ui.with_spinner(&format!("generating {alg} {what} key"), || alg.generate())
    } else {
        alg.generate()
    }
}

/// Takes the directory lock, saying when it completed a change an earlier, killed command had
/// committed, or removed its leftovers.
pub(crate) fn lock(ui: &Ui, dir: &AssetDir) -> Result<DirLock> {
    let l = dir.lock()?;
    report_recovered(ui, l.recovered());
    Ok(l)
}

/// Says what recovery did, if anything.
pub(crate) fn report_recovered(ui: &Ui, r: &Recovered) {
    if let Some(c) = &r.completed {
        ui.warn(format!(
            "completed an interrupted `{c}`: it was stopped after deciding its change, before finishing it"
        ));
    }
    if r.removed_leftovers > 0 {
        ui.info(format!(
            "removed {} leftover temporary file(s) of an interrupted command",
            r.removed_leftovers
        ));
    }
}

/// Takes the lock and reads the directory: every state-changing command starts here.
pub(crate) fn load(ui: &Ui, dir: &AssetDir) -> Result<(DirLock, Snapshot)> {
    let l = lock(ui, dir)?;
    let snap = Snapshot::load(dir, &l)?;
    Ok((l, snap))
}

/// The directory's snapshot with its ledger (`auth/ledger/*.jsonl` and `ledgers`), under the
/// lock; `None` for both when there is no directory (for commands that work without one).
pub(crate) fn load_if_there(
    ui: &Ui,
    dir: &AssetDir,
    ledgers: &[std::path::PathBuf],
) -> Result<(Option<DirLock>, Option<Snapshot>)> {
    if !dir.root().is_dir() {
        return Ok((None, None));
    }
    let (lock, snap) = load(ui, dir)?;
    Ok((Some(lock), Some(snap.with_ledger(ledgers)?)))
}

/// Commits a workflow's change, if it has one; says whether it did.
pub(crate) fn commit<'s, R>(
    lock: &DirLock,
    mut out: Outcome<'s, R>,
) -> Result<(bool, Outcome<'s, R>)> {
    let changed = match out.change.take() {
        Some(c) => {
            c.commit(lock)?;
            true
        }
        None => false,
    };
    Ok((changed, out))
}

/// Prints a workflow's notes to stderr, in order.
pub(crate) fn print_notes(ui: &Ui, notes: &[Note]) {
    for n in notes {
        match n {
            Note::Warn(w) => ui.warn(w),
            Note::Info(i) => ui.info(i),
        }
    }
}

/// The key generator workflows get: a spinner for the slow (RSA) algorithms.
pub(crate) fn keygen(ui: &Ui) -> impl Fn(KeyAlgorithm, &str) -> Result<KeyPair> + '_ {
    move |alg, what| generate_key(ui, alg, what)
}

/// [`AssetDir::creating`].
pub(crate) fn creating<T>(dir: &AssetDir, f: impl FnOnce() -> Result<T>) -> Result<T> {
    dir.creating(f)
}

/// Prints the "wrote" table of a command.
pub(crate) fn print_written(ui: &Ui, heading: &str, files: &[Written]) -> Result<()> {
    let rows: Vec<Vec<String>> = files
        .iter()
        .map(|w| {
            let mut facts = Vec::new();
            if let Some(s) = &w.subject {
                facts.push(s.clone());
            }
            if let Some(d) = &w.detail {
                facts.push(d.clone());
            }
            if let Some(n) = &w.not_after {
                facts.push(format!("expires {n}"));
            }
            if let Some(f) = &w.fingerprint_sha256 {
                facts.push(format!("sha256 {f}"));
            }
            vec![
                w.path.clone(),
                w.mode.word().to_string(),
                w.kind.word().to_string(),
                facts.join("; "),
            ]
        })
        .collect();
    ui.out(format!(
        "{heading}\n{}",
        crate::ui::table(&["FILE", "MODE", "KIND", "DETAILS"], &rows)
    ))
}
