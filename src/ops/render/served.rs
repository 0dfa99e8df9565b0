//! What serve will make of a pool's rendered config, decided before it is written: a config
//! serve would refuse (`rendered/<pool>.ign not served: …`) means no machine of the pool ever
//! boots. The MCO renders such a pool too (it validates each source MachineConfig, then sets
//! `overwrite` on files that lack it, and never validates the merge) and the MCS answers 500
//! to every machine; mcsctl refuses the pool at render instead, naming the field and the
//! MachineConfigs that contributed it.

use crate::ignition::render::MachineConfig;
use crate::ignition::spec::Config;
use crate::ignition::spec::validate::validate;
use crate::ignition::translate::Variants;

/// A pool refused at render.
#[derive(Debug, Clone, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Refused {
    /// The pool.
    pub pool: String,
    /// The file serve would refuse (`rendered/<pool>.ign`, or the pre-approval one).
    pub file: String,
    /// Serve's reason, with the field path.
    pub reason: String,
    /// The source MachineConfigs that contributed the offending entry (empty: not one entry).
    pub contributed_by: Vec<String>,
}

impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "pool {}: {} would not be served: {}",
            self.pool, self.file, self.reason
        )?;
        if !self.contributed_by.is_empty() {
            write!(
                f,
                "; from MachineConfig(s) {}",
                self.contributed_by.join(", ")
            )?;
        }
        write!(
            f,
            ". The MCS would render it and answer 500 to every machine of the pool; nothing was written for it"
        )
    }
}

/// Why serve would refuse `bytes`, the config of `pool` written at `file` and merged from
/// `sources` (in merge order); `None` when serve serves it.
pub fn refusal(
    pool: &str,
    file: &str,
    bytes: &[u8],
    sources: &[&MachineConfig],
) -> Option<Refused> {
    let e = Variants::new(bytes.to_vec(), file).err()?;
    // The field, when Ignition's validation names one: its entry and who wrote it.
    let issue = serde_json::from_slice(bytes)
        .ok()
        .and_then(|v| Config::decode(v).ok())
        .and_then(|(cfg, _)| {
            let issue = validate(&cfg).errors.into_iter().next()?;
            Some((cfg, issue))
        });
    let (reason, contributed_by) = match issue {
        Some((cfg, issue)) => (issue.to_string(), contributors(&cfg, &issue.path, sources)),
        None => (
            format!("{e:#}")
                .trim_start_matches(&format!("{file} cannot be served: "))
                .to_string(),
            Vec::new(),
        ),
    };
    Some(Refused {
        pool: pool.to_string(),
        file: file.to_string(),
        reason,
        contributed_by,
    })
}

/// The sources whose config has the entry at `path` (`storage.files[4].overwrite`: the file
/// at index 4, by its path; a unit by its name; a disk by its device; a filesystem by its
/// device; a user or group by its name).
fn contributors(merged: &Config, path: &str, sources: &[&MachineConfig]) -> Vec<String> {
    let Some((list, index)) = entry(path) else {
        return Vec::new();
    };
    let pointer = format!("/{}", list.replace('.', "/"));
    let Some(item) = merged.list(&pointer).get(index) else {
        return Vec::new();
    };
    let id = |v: &serde_json::Value| {
        ["path", "name", "device", "label"]
            .iter()
            .find_map(|k| v[k].as_str().map(|s| (*k, s.to_string())))
    };
    let Some(wanted) = id(item) else {
        return Vec::new();
    };
    sources
        .iter()
        .filter(|mc| {
            mc.config.as_ref().is_some_and(|c| {
                c.list(&pointer)
                    .iter()
                    .any(|x| id(x) == Some(wanted.clone()))
            })
        })
        .map(|mc| mc.name.clone())
        .collect()
}

/// `storage.files[4].overwrite` → (`storage.files`, 4).
fn entry(path: &str) -> Option<(&str, usize)> {
    let open = path.find('[')?;
    let close = open + path[open..].find(']')?;
    let index = path[open + 1..close].parse().ok()?;
    Some((&path[..open], index))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_entry_of_a_field_path() {
        assert_eq!(
            entry("storage.files[4].overwrite"),
            Some(("storage.files", 4))
        );
        assert_eq!(entry("systemd.units[0]"), Some(("systemd.units", 0)));
        assert_eq!(entry("ignition.version"), None);
    }
}
