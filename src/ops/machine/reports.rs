//! Which registered machine each first-boot report is from. A report is the machine's own word
//! (its hostname, its addresses) next to what serve saw (the address it came from), so it is
//! matched by the node name first, then by address: its hostname is the machine's name (or,
//! unique among the machines, its first label); else the address serve saw is the one whose
//! last whole fetch before the report was that machine's; else one of the addresses it reports is a single
//! machine's `--ip`. A report that matches none is listed apart: a pool credential used by
//! something no one registered.

use std::collections::HashMap;
use std::net::IpAddr;

use crate::firstboot::Record;
use crate::model::machine::Machine;

/// For each machine (by index), its latest report; and the reports no machine matched.
pub fn matched<'r>(
    machines: &[&Machine],
    fetches: &[Vec<crate::ledger::Record>],
    reports: &'r [Record],
) -> (Vec<Option<&'r Record>>, Vec<&'r Record>) {
    let mut by_name: HashMap<String, usize> = HashMap::new();
    let mut by_short: HashMap<String, Vec<usize>> = HashMap::new();
    // Address -> (time, machine) of each whole fetch from it.
    let mut by_fetch: HashMap<IpAddr, Vec<(&str, usize)>> = HashMap::new();
    let mut by_address: HashMap<IpAddr, Vec<usize>> = HashMap::new();
    for (i, m) in machines.iter().enumerate() {
        let name = m.name.to_ascii_lowercase();
        by_short
            .entry(short(&name).to_string())
            .or_default()
            .push(i);
        by_name.insert(name, i);
        for a in &m.addresses {
            by_address.entry(*a).or_default().push(i);
        }
        for f in fetches[i].iter().filter(|f| f.whole) {
            if let Some(ip) = crate::ledger::client_ip(&f.client) {
                by_fetch.entry(ip).or_default().push((f.time.as_str(), i));
            }
        }
    }
    let one = |v: Option<&Vec<usize>>| match v.map(Vec::as_slice) {
        Some([i]) => Some(*i),
        _ => None,
    };
    let mut latest: Vec<Option<&Record>> = vec![None; machines.len()];
    let mut unmatched = Vec::new();
    for r in reports {
        let host = r.report.hostname.to_ascii_lowercase();
        let found = by_name
            .get(&host)
            .copied()
            .or_else(|| one(by_short.get(short(&host))))
            .or_else(|| {
                r.client_ip()
                    .and_then(|ip| fetched_last(by_fetch.get(&ip)?, &r.time))
            })
            .or_else(|| {
                r.report
                    .addresses
                    .iter()
                    .find_map(|a| one(by_address.get(a)))
            });
        match found {
            // Reports are oldest first: the last one is the machine's latest boot.
            Some(i) => latest[i] = Some(r),
            None => unmatched.push(r),
        }
    }
    (latest, unmatched)
}

/// The machine whose whole fetch from an address was the last before `time` (RFC 3339 times
/// of one clock compare as text): behind one address (a NAT, a proxy), the machine that booted
/// from there last.
fn fetched_last(fetches: &[(&str, usize)], time: &str) -> Option<usize> {
    fetches
        .iter()
        .filter(|(t, _)| *t <= time)
        .max_by_key(|(t, _)| *t)
        .map(|(_, i)| *i)
}

fn short(name: &str) -> &str {
    name.split('.').next().unwrap_or(name)
}
