//! `mcsctl machine add`, `list` and `remove`.

use anyhow::Result;
use time::OffsetDateTime;

use crate::assets::AssetDir;
use crate::cli::{MachineAddArgs, MachineListArgs, MachineRemoveArgs};
use crate::exit;
use crate::ops::machine::list::{self, Listed};
use crate::ops::machine::{self, AddInputs, MachineReport, MachineRow};
use crate::ops::trail::Cluster;
use crate::ui::{Ui, table};

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
            new_pool: a.new_pool,
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
    let snap = snap.with_evidence(&a.ledgers, a.store.options()?, now)?;
    let rows = machine::list(&snap, &cluster, now);
    if ui.structured() {
        ui.out_json(&serde_json::json!({ "machines": rows }))?;
        return Ok(exit::OK);
    }
    if rows.is_empty() {
        ui.info("no machine registered; `mcsctl machine add NAME --pool POOL` registers one");
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
    for r in &rows {
        if let Some(next) = &r.trail.next {
            ui.info(format!("{}: {next}", r.name));
        }
    }
    Ok(exit::OK)
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
