//! Command handlers: each resolves its arguments, loads the asset directory under its lock
//! ([`load`]), calls a workflow of `crate::ops`, commits its change ([`commit`]) and prints
//! its report. No command module calls another; what they share is here.

pub mod ca;
pub mod cert;
pub mod csr;
pub mod docs;
pub mod doctor;
pub mod init;
pub mod inspect;
pub mod ledger;
pub mod machine;
pub mod manifests;
pub mod pointer;
pub mod render;
pub mod serve;
pub mod token;
pub mod version;

use std::path::PathBuf;

use anyhow::Result;
use rcgen::KeyPair;

use crate::assets::{AssetDir, DirLock, Recovered};
use crate::cli;
use crate::exit::usage;
use crate::model::Snapshot;
use crate::ops::{Note, Outcome};
use crate::pki::keys::KeyAlgorithm;
use crate::ui::Ui;
use clap::{Parser, Subcommand};

/// The command definition as the binary parses, documents and completes it: the derived one
/// with each command's examples ([`examples::attach`]), its help wrapped at the terminal's
/// width (at most 120 columns; 80 when stdout is not a terminal).
pub fn command() -> clap::Command {
    let width = crate::cli::help::width();
    crate::cli::examples::attach(<Cli as clap::CommandFactory>::command(), width).term_width(width)
}

/// Parses the process's arguments (exiting with clap's usage error, or printing help).
pub fn parse() -> Cli {
    let m = command().get_matches();
    <Cli as clap::FromArgMatches>::from_arg_matches(&m).unwrap_or_else(|e| e.exit())
}

/// Installer and PKI toolkit for the Machine Config Server (MCS) trust chain.
///
/// mcsctl creates the MCS CA and serving certificate, writes Ignition pointer configs that carry
/// the CA and a bearer provisioning token, rotates tokens with a grace period, and inspects the
/// whole chain for the mismatches that make a booting machine fail with
/// "x509: certificate signed by unknown authority".
///
/// Exit codes: 0 success; 1 error; 2 usage error; 3 a check found something that needs attention
/// soon (e.g. a certificate inside --warn-within or past 80% of its life); 4 a check failed
/// (expired, not yet valid, broken chain, key mismatch, CA in a pointer config does not match
/// the served certificate).
#[derive(Debug, Parser)]
#[command(
    name = "mcsctl",
    version,
    propagate_version = true,
    help_expected = true
)]
pub struct Cli {
    /// Global options.
    #[command(flatten)]
    pub global: crate::cli::GlobalArgs,

    /// The command to run.
    #[command(subcommand)]
    pub command: Command,
}

impl Command {
    /// What the command needs of its `--dir`. A command added later needs an asset directory
    /// unless it is listed here.
    pub fn dir_use(&self) -> crate::assets::DirUse {
        use crate::assets::DirUse;
        match self {
            Command::Init(_) => DirUse::Creates,
            Command::Ca(ca::CaCommand::Create(_) | ca::CaCommand::Import(_)) => {
                DirUse::StartsStepByStep
            }
            Command::Inspect(_) | Command::Doctor(_) | Command::Csr(_) => DirUse::WhenThere,
            Command::Completions(_) | Command::Man(_) | Command::Version(_) => DirUse::None,
            _ => DirUse::Assets,
        }
    }
}

/// The commands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Create the whole asset directory in one step: CA, serving certificate, token, pointer configs.
    Init(init::InitArgs),
    /// Create, import or rotate the MCS CA.
    #[command(subcommand)]
    Ca(ca::CaCommand),
    /// Issue or renew the MCS serving certificate.
    #[command(subcommand)]
    Cert(cert::CertCommand),
    /// Write an Ignition pointer config for a pool.
    Pointer(pointer::PointerArgs),
    /// Manage bearer provisioning tokens.
    #[command(subcommand)]
    Token(token::TokenCommand),
    /// Register the machines a UPI cluster expects, each with its own single-use pointer config.
    #[command(subcommand)]
    Machine(machine::MachineCommand),
    /// Check expiry and consistency of certificates, pointer configs, the asset directory or a live endpoint.
    Inspect(inspect::InspectArgs),
    /// Render MachineConfigs into rendered/<pool>.ign and the pre-approval subset.
    Render(render::RenderArgs),
    /// Serve rendered configs over TLS to booting machines (the Machine Config Server).
    Serve(serve::ServeArgs),
    /// Do what Ignition does with a pointer config, step by step, and say which step fails.
    Doctor(doctor::DoctorArgs),
    /// Review kubelet CSRs by the cluster-machine-approver's rules, or sign one.
    #[command(subcommand)]
    Csr(csr::CsrCommand),
    /// Write Kubernetes objects for the cluster, and optionally a Deployment running `mcsctl serve`.
    Manifests(manifests::ManifestsArgs),
    /// Move the provisioning ledger files into the store serve replicas share.
    #[command(subcommand)]
    Ledger(ledger::LedgerCommand),
    /// Print a static shell completion script to stdout (commands and flags). For completions
    /// that also offer the asset directory's pools, token ids and machines, have the shell ask
    /// mcsctl: `source <(COMPLETE=bash mcsctl)` in ~/.bashrc (zsh alike; fish: `COMPLETE=fish
    /// mcsctl | source`).
    Completions(docs::CompletionsArgs),
    /// Write one man page per command into a directory.
    Man(docs::ManArgs),
    /// Print mcsctl's version, the commit and target it was built for, and the TLS and Ignition
    /// spec versions it speaks.
    Version(version::VersionArgs),
}

pub(crate) use crate::ops::Written;

/// Runs the parsed command line at the time `clock` gives; returns the exit code.
pub fn run(cli: Cli, clock: &crate::clock::Clock) -> Result<u8> {
    let g = &cli.global;
    let Entry {
        name,
        dir: dir_arg,
        format: format_arg,
        run,
    } = entry(&cli.command);
    if g.dir.is_some() && dir_arg.is_none() {
        return Err(usage(format!(
            "{name} does not use an asset directory: --dir does not apply"
        )));
    }
    if let (Some(_), Err(writes)) = (g.format, format_arg) {
        return Err(usage(format!(
            "{name} writes {writes}: --format does not apply"
        )));
    }
    let named = cli::DirArg::named(dir_arg, g.dir.as_ref());
    let dir = AssetDir::new(named.clone().unwrap_or_else(|| PathBuf::from("mcs-assets")));
    dir.check_use(cli.command.dir_use(), named.is_some())?;
    if name != "serve" {
        let d = dir_arg.map(|_| dir.root());
        crate::assets::interrupt::install(name, d, crate::ui::stopped)?;
    }
    let format = format_arg
        .ok()
        .and_then(|f| f.format)
        .or(g.format)
        .unwrap_or_default();
    if let Some(n) = g.max_input_size {
        crate::assets::set_max_input(n);
    }
    let talk = match (g.quiet, g.verbose) {
        (true, _) => crate::ui::Verbosity::Quiet,
        (false, true) => crate::ui::Verbosity::Verbose,
        (false, false) => crate::ui::Verbosity::Normal,
    };
    let prompts = if g.non_interactive {
        crate::ui::Prompts::Never
    } else {
        crate::ui::Prompts::WhenATerminal
    };
    let mut ui = Ui::new(format, talk, prompts);
    ui.dry_run = g.dry_run;
    if g.verbose {
        crate::ui::enable_verbose_log();
    }
    if dir_arg.is_some() {
        ui.detail(format!("asset directory {}", dir.root().display()));
    }
    run(&ui, &dir, clock)
}

/// A command's handler, given the output, the asset directory and the clock.
type Handler<'a> = Box<dyn FnOnce(&Ui, &AssetDir, &crate::clock::Clock) -> Result<u8> + 'a>;

/// One command of the table.
struct Entry<'a> {
    /// Its name as typed (`token rotate`).
    name: &'static str,
    /// Its `--dir`, when it uses an asset directory.
    dir: Option<&'a cli::DirArg>,
    /// Its `--format`, or what it writes instead of a report.
    format: std::result::Result<&'a cli::FormatArg, &'static str>,
    /// What runs it.
    run: Handler<'a>,
}

/// A command with an asset directory and a report; `$h(ui, dir, args, now)` runs it, `now`
/// the clock's time, read here once for the whole command.
macro_rules! e {
    ($name:literal, $a:expr, $h:path) => {
        Entry {
            name: $name,
            dir: Some(&$a.dir),
            format: Ok(&$a.out),
            run: Box::new(move |ui, dir, clock| $h(ui, dir, $a, clock.now())),
        }
    };
    // One that takes no decision by the time.
    ($name:literal, $a:expr, $h:path, timeless) => {
        Entry {
            name: $name,
            dir: Some(&$a.dir),
            format: Ok(&$a.out),
            run: Box::new(move |ui, dir, _| $h(ui, dir, $a)),
        }
    };
    // One that writes `$what` instead of a report (`dir`: whether it has a `--dir`).
    ($name:literal, $dir:expr, writes $what:literal, $run:expr) => {
        Entry {
            name: $name,
            dir: $dir,
            format: Err($what),
            run: Box::new($run),
        }
    };
}

/// The command table: every command once, with its name, its `--dir` and `--format`, and its
/// handler. A new command is one line here.
fn entry(c: &Command) -> Entry<'_> {
    use ca::CaCommand as Ca;
    use cert::CertCommand as Cert;
    use csr::CsrCommand as Csr;
    use machine::MachineCommand as Machine;
    use token::TokenCommand as Token;
    match c {
        Command::Init(a) => e!("init", a, init::run),
        Command::Ca(Ca::Create(a)) => e!("ca create", a, ca::create),
        Command::Ca(Ca::Import(a)) => e!("ca import", a, ca::import),
        Command::Ca(Ca::Rotate(a)) => e!("ca rotate", a, ca::rotate),
        Command::Ca(Ca::Promote(a)) => e!("ca promote", a, ca::promote),
        Command::Ca(Ca::Retire(a)) => e!("ca retire", a, ca::retire),
        Command::Cert(Cert::Issue(a)) => e!("cert issue", a, cert::issue),
        Command::Cert(Cert::Renew(a)) => e!("cert renew", a, cert::renew),
        Command::Pointer(a) => e!("pointer", a, pointer::run),
        Command::Token(Token::Create(a)) => e!("token create", a, token::create),
        Command::Token(Token::Rotate(a)) => e!("token rotate", a, token::rotate),
        Command::Token(Token::List(a)) => e!("token list", a, token::list),
        Command::Token(Token::Revoke(a)) => e!("token revoke", a, token::revoke),
        Command::Token(Token::Prune(a)) => e!("token prune", a, token::prune),
        Command::Token(Token::Publish(a)) => e!("token publish", a, token::publish),
        Command::Machine(Machine::Add(a)) => e!("machine add", a, machine::add),
        Command::Machine(Machine::List(a)) => e!("machine list", a, machine::list),
        Command::Machine(Machine::Remove(a)) => e!("machine remove", a, machine::remove),
        Command::Machine(Machine::Watch(a)) => Entry {
            name: "machine watch",
            dir: Some(&a.list.dir),
            format: Ok(&a.list.out),
            run: Box::new(move |ui, dir, clock| machine::watch(ui, dir, a, clock)),
        },
        Command::Inspect(a) => e!("inspect", a, inspect::run),
        Command::Render(a) => e!("render", a, render::run),
        Command::Doctor(a) => e!("doctor", a, doctor::run, timeless),
        Command::Csr(Csr::Review(a)) => e!("csr review", a, csr::review),
        Command::Manifests(a) => e!("manifests", a, manifests::run),
        Command::Ledger(ledger::LedgerCommand::Import(a)) => {
            e!("ledger import", a, ledger::import)
        }
        Command::Serve(a) => e!("serve", Some(&a.dir), writes "its access log as JSON lines",
            move |ui, dir, clock| serve::run(ui, dir, a, clock)),
        Command::Csr(Csr::Sign(a)) => e!("csr sign", Some(&a.dir), writes "a PEM certificate",
            move |ui, dir, clock| csr::sign(ui, dir, a, clock.now())),
        Command::Completions(a) => e!("completions", None, writes "a shell script",
            move |_, _, _| docs::completions(a)),
        Command::Man(a) => e!("man", None, writes "man pages", move |ui, _, _| docs::man(ui, a)),
        Command::Version(a) => version::entry(a),
    }
}

/// `--store` (or the store `mcsctl.json` remembers; `repoint`: `--store` may move it), read
/// before the change is made, so a store that cannot be read changes nothing.
pub(crate) fn store_target(
    snap: &Snapshot,
    args: &cli::StoreArgs,
    repoint: bool,
) -> Result<Option<crate::ops::publish::Target>> {
    let Some(cfg) = &snap.config else {
        return Ok(None);
    };
    (args.target(cfg.store.as_ref(), &cfg.cluster_domain(), repoint)?)
        .map(|(o, record)| crate::ops::publish::Target::read(o, record))
        .transpose()
}

/// [`commit`], then with a store the token state as committed published for every serve
/// replica to take at once (digests, never a secret), reconciled first with what the store
/// holds ([`crate::ops::publish`]). The caller still holds the lock.
pub(crate) fn commit_and_publish<'s, R>(
    ui: &Ui,
    lock: &DirLock,
    snap: &'s Snapshot,
    out: Outcome<'s, R>,
    store: &cli::StoreArgs,
    now: time::OffsetDateTime,
) -> Result<(bool, Outcome<'s, R>)> {
    let target = store_target(snap, store, false)?;
    let (changed, out, _) = commit_and_publish_to(ui, lock, snap, out, target, now)?;
    Ok((changed, out))
}

/// [`commit_and_publish`] to `target`; what was published, if anything.
pub(crate) fn commit_and_publish_to<'s, R>(
    ui: &Ui,
    lock: &DirLock,
    snap: &'s Snapshot,
    mut out: Outcome<'s, R>,
    target: Option<crate::ops::publish::Target>,
    now: time::OffsetDateTime,
) -> Result<(bool, Outcome<'s, R>, Option<crate::token::Published>)> {
    let Some(t) = target else {
        let (changed, out) = commit(ui, lock, out)?;
        return Ok((changed, out, None));
    };
    let (change, r) = crate::ops::publish::stage(snap, out.change.take(), &t, now)?;
    out.change = Some(change);
    let (changed, out) = commit(ui, lock, out)?;
    print_notes(ui, &r.notes);
    let url = &r.record.url;
    if ui.dry_run {
        ui.info(format!("dry run: nothing was published to the store {url}"));
        return Ok((changed, out, None));
    }
    let root = snap.dir.root();
    let again = format!(
        "mcsctl --dir {} token publish {}",
        root.display(),
        cli::store_flags(&r.record)
    );
    t.send(&r, root, &again)?;
    ui.info(format!(
        "published {} token(s) to the store {url} (generation {})",
        r.published.tokens.len(),
        r.published.generation
    ));
    Ok((changed, out, Some(r.published)))
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
    let (l, snap) = Snapshot::lock(dir)?;
    report_recovered(ui, l.recovered());
    Ok((l, snap))
}

/// The directory's snapshot with its ledger (`auth/ledger/*.jsonl` and `ledgers`), under the
/// lock; `None` for both when there is no directory (for commands that work without one).
pub(crate) fn load_if_there(
    ui: &Ui,
    dir: &AssetDir,
    ledgers: &[std::path::PathBuf],
    store: &cli::StoreArgs,
    now: time::OffsetDateTime,
) -> Result<(Option<DirLock>, Option<Snapshot>)> {
    if !dir.root().is_dir() {
        return Ok((None, None));
    }
    let (lock, snap) = load(ui, dir)?;
    Ok((
        Some(lock),
        Some(snap.with_evidence(ledgers, store.options()?, now)?),
    ))
}

/// Commits a workflow's change, if it has one; says whether it did.
pub(crate) fn commit<'s, R>(
    ui: &Ui,
    lock: &DirLock,
    mut out: Outcome<'s, R>,
) -> Result<(bool, Outcome<'s, R>)> {
    let changed = match out.change.take() {
        // --dry-run: the change is dropped unwritten, and said.
        Some(c) if ui.dry_run => {
            c.verify()?;
            for (path, write) in c.paths() {
                let verb = if write { "write" } else { "remove" };
                ui.info(format!("dry run: would {verb} {}", path.display()));
            }
            ui.info("dry run: nothing was written");
            false
        }
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
            Note::Done { done, would } => ui.info(if ui.dry_run { would } else { done }),
        }
    }
}

/// The key generator workflows get: a spinner for the slow (RSA) algorithms.
pub(crate) fn keygen(ui: &Ui) -> impl Fn(KeyAlgorithm, &str) -> Result<KeyPair> + '_ {
    move |alg, what| generate_key(ui, alg, what)
}

/// Prints the "wrote" table of a command; nothing with `-q` (the files are a report, not data:
/// `--format json` gives them to scripts).
pub(crate) fn print_written(ui: &Ui, heading: &str, files: &[Written]) -> Result<()> {
    let heading = if ui.dry_run {
        "Dry run, nothing was written. It would write:"
    } else {
        heading
    };
    let rows: Vec<Vec<String>> = files
        .iter()
        .map(|w| {
            let (mode, kind) = (w.mode.word().to_string(), w.kind.word().to_string());
            vec![w.path.clone(), mode, kind, w.facts()]
        })
        .collect();
    ui.report(format!(
        "{heading}\n{}",
        crate::ui::table(&["FILE", "MODE", "KIND", "DETAILS"], &rows)
    ))
}
