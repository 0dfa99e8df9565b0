//! Repairing this replica's ledger when it was truncated, replaced or removed under serve
//! (`logrotate`, a hand at the shell): a new file with every record at its path now and every
//! record serve keeps, each once, a confirmation in memory winning over a stale `false`. A
//! spent token stays spent: memory holds every record of a token with limited uses.

use std::collections::HashMap;
use std::path::Path;

use time::OffsetDateTime;

use super::tally::Inner;
use crate::ledger::{self, Health, Record, Scanner, Writer};

/// A record of the new file: its identity, whether it is whole, its line.
type Entry = (u64, bool, Vec<u8>);

/// Rewrites the ledger `w` writes at `path` when it was damaged; says what it did, for the
/// log. With `w` held alone no write is in flight: every fetch sending has its record written
/// (`at` known) or not begun (it will be written to the new file).
pub(super) fn repair(
    w: &mut Writer,
    inner: &mut Inner,
    path: &Path,
    now: OffsetDateTime,
) -> Result<Option<String>, String> {
    let health = w.health().map_err(|e| format!("{e:#}"))?;
    let what = match health {
        Health::Intact => return Ok(None),
        Health::Truncated { at, end } => {
            format!("was truncated under serve (what was written from byte {at} of {end} is gone)")
        }
        Health::Appended { len, end } => {
            format!("was written to by another hand ({len} bytes, where serve wrote {end})")
        }
        Health::Replaced => "was replaced under serve".to_string(),
        Health::Removed => "was removed under serve".to_string(),
    };
    let (mut found, aside) = if health == Health::Removed {
        (Vec::new(), None)
    } else {
        at_path(path, now)?
    };
    let in_file = found.len();
    let mut merged = Merged::new(&mut found);
    for line in &inner.kept {
        merged.add(line);
    }
    let mut places = Vec::new();
    for (id, own) in &inner.sending {
        if own.at.is_some()
            && let Some(i) = merged.add(&own.line)
        {
            places.push((*id, i));
        }
    }
    let lines: Vec<&[u8]> = found.iter().map(|(_, _, l)| l.as_slice()).collect();
    let starts = w.rewrite(&lines).map_err(|e| format!("{e:#}"))?;
    for (id, i) in places {
        if let Some(own) = inner.sending.get_mut(&id) {
            own.at = Some((starts[i], w.generation()));
        }
    }
    Ok(Some(format!(
        "the ledger {} {what}: rewrote it with {} record(s) ({in_file} found in the file, the rest from memory); no spent token was given another fetch{}",
        path.display(),
        found.len(),
        aside.unwrap_or_default()
    )))
}

/// The records at `path` now, in its order. A file there that is no ledger is moved aside,
/// not overwritten (what it says is returned too).
fn at_path(path: &Path, now: OffsetDateTime) -> Result<(Vec<Entry>, Option<String>), String> {
    let mut found = Vec::new();
    let read = Scanner::new(path).scan(|l| {
        found.push((
            ledger::identity(&l.record),
            l.record.whole,
            format!("{}\n", l.text).into_bytes(),
        ));
    });
    let Err(e) = read else {
        return Ok((found, None));
    };
    let to = path.with_extension(format!("jsonl.displaced-{}", now.unix_timestamp()));
    std::fs::rename(path, &to)
        .map_err(|e| format!("moving the file at {} aside: {e}", path.display()))?;
    Ok((
        Vec::new(),
        Some(format!(
            "; the file found there is no ledger ({e:#}) and was moved to {}",
            to.display()
        )),
    ))
}

/// The new file's records, each once by identity.
struct Merged<'a> {
    found: &'a mut Vec<Entry>,
    index: HashMap<u64, usize>,
}

impl<'a> Merged<'a> {
    fn new(found: &'a mut Vec<Entry>) -> Merged<'a> {
        let index = found.iter().enumerate().map(|(i, e)| (e.0, i)).collect();
        Merged { found, index }
    }

    /// Adds `line` (a record and its newline) unless the file has it; a whole one replaces
    /// the file's `false`. Returns where it is.
    fn add(&mut self, line: &[u8]) -> Option<usize> {
        let r: Record = serde_json::from_slice(line.strip_suffix(b"\n").unwrap_or(line)).ok()?;
        let key = ledger::identity(&r);
        if let Some(&i) = self.index.get(&key) {
            if r.whole && !self.found[i].1 {
                self.found[i] = (key, true, line.to_vec());
            }
            return Some(i);
        }
        self.found.push((key, r.whole, line.to_vec()));
        self.index.insert(key, self.found.len() - 1);
        Some(self.found.len() - 1)
    }
}
