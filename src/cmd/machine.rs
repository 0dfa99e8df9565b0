//! `mcsctl machine add`, `list` and `remove`.

use anyhow::Result;
use time::OffsetDateTime;

use crate::assets::AssetDir;

use crate::cli::values;
use crate::exit;
use crate::ops::machine::list::{self, Listed};
use crate::ops::machine::{self, AddInputs, MachineReport, MachineRow};
use crate::ops::trail::Cluster;
use crate::ui::{Ui, table};
use clap::{Args, Subcommand};
use std::net::IpAddr;

use crate::cli::{DirArg, FormatArg};
use crate::duration::Duration;

/// `machine` subcommands.
#[derive(Debug, Subcommand)]
pub enum MachineCommand {
    /// Register a machine: its own pointer config (machines/NAME.ign) with a token bound to
    /// it, scoped to its pool, single-use by default.
    Add(MachineAddArgs),
    /// List the registered machines (tokens by id, never secrets).
    List(MachineListArgs),
    /// Unregister a machine: its token is revoked, its pointer config removed.
    Remove(MachineRemoveArgs),
    /// Follow the machines' timelines until each is done or stopped (a table on a terminal,
    /// a JSON line per change otherwise).
    Watch(MachineWatchArgs),
}

/// Arguments of `machine add`.
#[derive(Debug, Args)]
pub struct MachineAddArgs {
    /// The machine's node name (its kubelet asks as system:node:NAME).
    #[arg(
        value_name = "NAME",
        value_parser = values::dns_name,
        required_unless_present = "from",
        conflicts_with = "from"
    )]
    pub name: Option<String>,

    /// The pool whose config it fetches.
    #[arg(
        long,
        value_name = "POOL",
        value_parser = values::dns_label,
        required_unless_present = "from",
        conflicts_with = "from"
    )]
    pub pool: Option<String>,

    /// An address the machine is expected at (repeatable): a serving CSR may name it.
    #[arg(long = "ip", value_name = "ADDR", conflicts_with = "from")]
    pub ips: Vec<IpAddr>,

    /// Register every machine of a list: CSV lines `name,pool,addresses` (addresses separated
    /// by spaces or ';'), or YAML (a list of {name, pool, addresses}); - for stdin.
    #[arg(long, value_name = "FILE")]
    pub from: Option<std::path::PathBuf>,

    /// Lifetime of its token (e.g. 24h); default: no expiry.
    #[arg(long, value_name = "DUR", value_parser = values::duration)]
    pub ttl: Option<Duration>,

    /// How many full-config fetches its token allows (0: any number).
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub uses: u32,

    /// Replace a machine of that name (its old token is revoked).
    #[arg(long)]
    pub force: bool,

    /// `--new-pool`.
    #[command(flatten)]
    pub new_pool: crate::cli::NewPoolArg,

    /// Publish the tokens to the store serve replicas share, once changed.
    #[command(flatten)]
    pub store: crate::cli::StoreArgs,

    /// `--dir` after the command.
    #[command(flatten)]
    pub dir: DirArg,

    /// `--format` after the command.
    #[command(flatten)]
    pub out: FormatArg,
}

/// Arguments of `machine list`.
#[derive(Debug, Args)]
pub struct MachineListArgs {
    /// Another replica's ledger to merge (repeatable); every <dir>/auth/ledger/*.jsonl is read.
    #[arg(long = "ledger", value_name = "FILE")]
    pub ledgers: Vec<std::path::PathBuf>,

    /// The cluster's CSRs (`oc get csr -o json`): each machine's trail goes on to its CSRs.
    #[arg(long, value_name = "FILE")]
    pub csrs: Option<std::path::PathBuf>,

    /// The cluster's Nodes (`oc get nodes -o json`): the trail ends at a Ready node.
    #[arg(long, value_name = "FILE")]
    pub nodes: Option<std::path::PathBuf>,

    /// The fetch records from the store serve replicas share, instead of ledger files.
    #[command(flatten)]
    pub store: crate::cli::StoreArgs,

    /// `--dir` after the command.
    #[command(flatten)]
    pub dir: DirArg,

    /// `--format` after the command.
    #[command(flatten)]
    pub out: FormatArg,
}

/// Arguments of `machine watch`.
#[derive(Debug, Args)]
pub struct MachineWatchArgs {
    /// `machine list`'s inputs, read again at every poll.
    #[command(flatten)]
    pub list: MachineListArgs,

    /// How long to watch before giving up (exit 1).
    #[arg(long, value_name = "DUR", default_value = "1h", value_parser = values::duration)]
    pub timeout: Duration,

    /// How often to look again.
    #[arg(long, value_name = "DUR", default_value = "5s", value_parser = values::duration)]
    pub interval: Duration,
}

/// Arguments of `machine remove`.
#[derive(Debug, Args)]
pub struct MachineRemoveArgs {
    /// The machine's node name.
    #[arg(value_name = "NAME", value_parser = values::dns_name)]
    pub name: String,

    /// Publish the tokens to the store serve replicas share, once changed.
    #[command(flatten)]
    pub store: crate::cli::StoreArgs,

    /// `--dir` after the command.
    #[command(flatten)]
    pub dir: DirArg,

    /// `--format` after the command.
    #[command(flatten)]
    pub out: FormatArg,
}

/// Runs `machine add`.
pub fn add(ui: &Ui, dir: &AssetDir, a: &MachineAddArgs, now: OffsetDateTime) -> Result<u8> {
    let listed = match (&a.from, &a.name, &a.pool) {
        (Some(p), _, _) => {
            let (text, what) = crate::assets::read_input_text(p)?;
            list::parse(&text, &what)?
        }
        (None, Some(name), Some(pool)) => vec![Listed {
            name: name.clone(),
            pool: pool.clone(),
            addresses: a.ips.clone(),
        }],
        // clap requires NAME and --pool unless --from is given.
        _ => return Err(crate::exit::usage("NAME and --pool, or --from FILE")),
    };
    let inputs: Vec<AddInputs> = listed
        .into_iter()
        .map(|l| AddInputs {
            name: l.name,
            pool: l.pool,
            addresses: l.addresses,
            ttl: a.ttl.map(|d| d.to_time()),
            uses: (a.uses > 0).then_some(a.uses),
            force: a.force,
            new_pool: a.new_pool.get(),
        })
        .collect();
    let (lock, snap) = super::load(ui, dir)?;
    let out = machine::add(&snap, &inputs, now)?;
    let (_, out) = super::commit_and_publish(ui, &lock, &snap, out, &a.store, now)?;
    super::print_notes(ui, &out.notes);
    let heading = match inputs.as_slice() {
        [one] => format!("Registered machine {}:", one.name),
        many => format!("Registered {} machines:", many.len()),
    };
    print(ui, &heading, &out.report)
}

/// Runs `machine remove`.
pub fn remove(ui: &Ui, dir: &AssetDir, a: &MachineRemoveArgs, now: OffsetDateTime) -> Result<u8> {
    let (lock, snap) = super::load(ui, dir)?;
    let out = machine::remove(&snap, &a.name, now)?;
    let (_, out) = super::commit_and_publish(ui, &lock, &snap, out, &a.store, now)?;
    print(ui, &format!("Removed machine {}:", a.name), &out.report)
}

fn print(ui: &Ui, heading: &str, r: &MachineReport) -> Result<u8> {
    if ui.structured() {
        ui.out_json(r)?;
    } else {
        super::print_written(ui, heading, &r.files)?;
    }
    Ok(exit::OK)
}

/// Runs `machine list`.
pub fn list(ui: &Ui, dir: &AssetDir, a: &MachineListArgs, now: OffsetDateTime) -> Result<u8> {
    let listing = listing(ui, dir, a, now)?;
    if ui.structured() {
        ui.out_json(&listing)?;
        return Ok(exit::OK);
    }
    let rows = &listing.machines;
    if rows.is_empty() {
        ui.info("no machine registered; `mcsctl machine add NAME --pool POOL` registers one");
        unmatched(ui, listing.unmatched_reports.as_deref().unwrap_or_default())?;
        return Ok(exit::OK);
    }
    let cells: Vec<Vec<String>> = rows.iter().map(cells).collect();
    ui.out(table(
        &[
            "NAME",
            "POOL",
            "ADDRESSES",
            "TOKEN",
            "STATE",
            "USES",
            "EXPIRES",
            "FETCHED",
            "TRAIL",
        ],
        &cells,
    ))?;
    for r in rows {
        if let Some(next) = &r.trail.next {
            ui.info(format!("{}: {next}", r.name));
        }
    }
    unmatched(ui, listing.unmatched_reports.as_deref().unwrap_or_default())?;
    Ok(exit::OK)
}

/// Runs `machine watch`: `machine list` at every `--interval`, each change said, until no
/// machine waits (exit 0, or 3 when some stopped) or `--timeout` (exit 1).
pub fn watch(
    ui: &Ui,
    dir: &AssetDir,
    a: &MachineWatchArgs,
    clock: &crate::clock::Clock,
) -> Result<u8> {
    use crate::ops::machine::watch::{self as w, End};
    let deadline = std::time::Instant::now() + a.timeout.to_std();
    let live = !ui.structured() && std::io::IsTerminal::is_terminal(&std::io::stdout());
    let mut before = std::collections::HashMap::new();
    loop {
        let now = clock.now();
        let states = w::states(&listing(ui, dir, &a.list, now)?);
        if states.is_empty() {
            return Err(crate::exit::usage(
                "no machine registered: `mcsctl machine add NAME --pool POOL` registers one",
            ));
        }
        say(ui, live, now, &states, w::changes(&before, &states))?;
        before = states
            .iter()
            .map(|s| (s.machine.clone(), s.clone()))
            .collect();
        match w::ended(&states) {
            Some(End::Done) => return Ok(exit::OK),
            Some(End::Stopped(n)) => {
                ui.warn(format!(
                    "{n} machine(s) stopped on the way: `mcsctl machine list` says where"
                ));
                return Ok(exit::ATTENTION);
            }
            None => {}
        }
        let left = deadline.saturating_duration_since(std::time::Instant::now());
        if left.is_zero() {
            let waiting = states
                .iter()
                .filter(|s| s.progress == crate::ops::trail::Progress::Waiting)
                .count();
            anyhow::bail!(
                "gave up after --timeout {}: {waiting} machine(s) still waiting",
                a.timeout
            );
        }
        std::thread::sleep(left.min(a.interval.to_std()));
    }
}

/// What changed: on a terminal every machine's place again, else a JSON line per change.
fn say(
    ui: &Ui,
    live: bool,
    now: OffsetDateTime,
    states: &[crate::ops::machine::watch::Seen],
    changed: Vec<crate::ops::machine::watch::Seen>,
) -> Result<()> {
    let time = crate::pki::cert::rfc3339(now.unix_timestamp());
    if live {
        if !changed.is_empty() {
            ui.out(format!("{time}\n{}", progress_table(states)))?;
        }
        return Ok(());
    }
    for change in changed {
        let line = crate::ops::machine::watch::Line {
            time: &time,
            change,
        };
        ui.out(format!("{}\n", serde_json::to_string(&line)?))?;
    }
    Ok(())
}

/// The machines as `machine watch` shows them on a terminal.
fn progress_table(states: &[crate::ops::machine::watch::Seen]) -> String {
    let cells: Vec<Vec<String>> = states
        .iter()
        .map(|s| {
            vec![
                s.machine.clone(),
                s.pool.clone(),
                serde_json::to_value(s.progress)
                    .ok()
                    .and_then(|v| v.as_str().map(str::to_string))
                    .unwrap_or_default(),
                s.step.to_string(),
                s.next.clone().unwrap_or_else(|| s.seen.clone()),
            ]
        })
        .collect();
    table(&["NAME", "POOL", "PROGRESS", "STEP", "SEEN / NEXT"], &cells)
}

/// What `machine list` shows, read now (under the lock, released at once).
fn listing(
    ui: &Ui,
    dir: &AssetDir,
    a: &MachineListArgs,
    now: OffsetDateTime,
) -> Result<crate::ops::machine::Listing> {
    let text = |p: &std::path::Path| crate::assets::read_input_text(p);
    let csrs = match &a.csrs {
        Some(p) => {
            let (t, n) = text(p)?;
            Some(crate::csr::kube::csrs(&t, &n)?)
        }
        None => None,
    };
    let nodes = match &a.nodes {
        Some(p) => {
            let (t, n) = text(p)?;
            Some(crate::csr::kube::nodes(&t, &n)?)
        }
        None => None,
    };
    let cluster = Cluster {
        csrs: csrs.as_deref(),
        nodes: nodes.as_deref(),
    };
    let (_lock, snap) = super::load(ui, dir)?;
    let store = a.store.options()?;
    let snap = snap
        .with_evidence(&a.ledgers, store.clone(), now)?
        .with_reports(store)?;
    Ok(machine::list(&snap, &cluster, now))
}

/// The first-boot reports no registered machine matches, apart: something with a pool's
/// report credential that nobody registered.
fn unmatched(ui: &Ui, reports: &[crate::firstboot::Record]) -> Result<()> {
    if reports.is_empty() {
        return Ok(());
    }
    let cells: Vec<Vec<String>> = reports
        .iter()
        .map(|r| {
            let addresses: Vec<String> = r.report.addresses.iter().map(|a| a.to_string()).collect();
            vec![
                r.time.get(..19).unwrap_or(&r.time).to_string(),
                r.pool.clone(),
                r.client.clone(),
                r.report.hostname.clone(),
                if addresses.is_empty() {
                    "-".into()
                } else {
                    addresses.join(",")
                },
                r.report.ignition().to_string(),
            ]
        })
        .collect();
    ui.out(format!(
        "\nFirst-boot reports from no registered machine ({}): a pool's report credential used by a machine nobody registered\n{}",
        reports.len(),
        table(
            &["TIME", "POOL", "FROM", "HOSTNAME", "ADDRESSES", "IGNITION"],
            &cells
        )
    ))
}

fn cells(r: &MachineRow) -> Vec<String> {
    let addresses: Vec<String> = r.addresses.iter().map(|a| a.to_string()).collect();
    let dash = |s: String| if s.is_empty() { "-".into() } else { s };
    vec![
        r.name.clone(),
        r.pool.clone(),
        dash(addresses.join(",")),
        r.token.clone(),
        r.token_state.to_string(),
        r.uses.map_or("any".into(), |u| u.to_string()),
        r.expires.clone().unwrap_or_else(|| "never".into()),
        match r.fetches.last() {
            None => "not yet".into(),
            Some(f) => format!(
                "{}x{}, last {} from {} (spec {})",
                r.fetches.len() as u64 + r.unrecorded_fetches,
                match r.fetches.iter().filter(|f| f.unknown).count() {
                    0 => String::new(),
                    n => format!(" ({n} of unknown outcome)"),
                },
                f.time.get(..19).unwrap_or(&f.time),
                f.client,
                f.spec
            ),
        },
        dash(
            r.trail
                .steps
                .iter()
                .map(|s| s.step)
                .collect::<Vec<_>>()
                .join(" > "),
        ),
    ]
}
