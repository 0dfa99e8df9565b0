//! `machine watch`: the machines' timelines, polled, as a stream of changes; and when to stop
//! (every machine done or stopped).

use std::collections::HashMap;

use serde::Serialize;

use super::Listing;
use crate::ops::trail::Progress;

/// Where one machine is.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Seen {
    /// The machine.
    pub machine: String,
    /// Its pool.
    pub pool: String,
    /// Waiting, stopped or done.
    pub progress: Progress,
    /// Its last step (`registered` … `ready`).
    pub step: &'static str,
    /// What that step saw.
    pub seen: String,
    /// What it waits for, or why it stopped.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next: Option<String>,
}

/// One line of `machine watch`'s JSON output: when, and the machine's new place.
#[derive(Debug, Serialize)]
pub struct Line<'a> {
    /// When it was seen (RFC 3339).
    pub time: &'a str,
    /// The machine, where it is now.
    #[serde(flatten)]
    pub change: Seen,
}

/// Every machine of `listing`, where it is.
pub fn states(listing: &Listing) -> Vec<Seen> {
    listing
        .machines
        .iter()
        .map(|m| {
            let last = m.trail.steps.last();
            Seen {
                machine: m.name.clone(),
                pool: m.pool.clone(),
                progress: m.trail.progress(),
                step: last.map_or("registered", |s| s.step),
                seen: last.map(|s| s.seen.clone()).unwrap_or_default(),
                next: m.trail.next.clone(),
            }
        })
        .collect()
}

/// What changed since `before` (by machine): every machine the first time.
pub fn changes(before: &HashMap<String, Seen>, now: &[Seen]) -> Vec<Seen> {
    now.iter()
        .filter(|s| before.get(&s.machine) != Some(*s))
        .cloned()
        .collect()
}

/// How a watch ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum End {
    /// Every machine is done.
    Done,
    /// Every machine is done or stopped, and some stopped.
    Stopped(usize),
}

/// Whether the watch is over: no machine waits any more.
pub fn ended(now: &[Seen]) -> Option<End> {
    if now.iter().any(|s| s.progress == Progress::Waiting) {
        return None;
    }
    match now
        .iter()
        .filter(|s| s.progress == Progress::Stopped)
        .count()
    {
        0 => Some(End::Done),
        n => Some(End::Stopped(n)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seen(m: &str, progress: Progress, step: &'static str) -> Seen {
        Seen {
            machine: m.into(),
            pool: "worker".into(),
            progress,
            step,
            seen: String::new(),
            next: None,
        }
    }

    #[test]
    fn a_change_is_said_once_and_the_watch_ends_when_nothing_waits() {
        let first = vec![
            seen("a", Progress::Waiting, "fetched"),
            seen("b", Progress::Waiting, "pointer"),
        ];
        assert_eq!(changes(&HashMap::new(), &first).len(), 2);
        let before: HashMap<String, Seen> = first
            .iter()
            .map(|s| (s.machine.clone(), s.clone()))
            .collect();
        let later = vec![
            seen("a", Progress::Done, "first-boot"),
            seen("b", Progress::Waiting, "pointer"),
        ];
        assert_eq!(changes(&before, &later), vec![later[0].clone()]);
        assert_eq!(ended(&later), None);
        let end = vec![
            seen("a", Progress::Done, "first-boot"),
            seen("b", Progress::Stopped, "fetched"),
        ];
        assert_eq!(ended(&end), Some(End::Stopped(1)));
        assert_eq!(ended(&end[..1]), Some(End::Done));
    }
}
