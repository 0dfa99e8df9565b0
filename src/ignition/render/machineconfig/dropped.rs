//! Fields the MCO drops: a `spec` field `MachineConfigSpec` does not have (the API server prunes
//! it, Go's `json.Unmarshal` skips it) and a key the config's Ignition spec does not have
//! (Ignition's `ValidateUnusedKeys` warns "unused key", spec 2's validator "unrecognized key";
//! neither is fatal in `IgnParseWrapper`). `render --strict` refuses them instead.

use anyhow::Result;

use super::{SPEC_FIELDS, field};
use crate::ignition::spec::Spec;
use crate::ignition::spec::typed::Unknown;
use crate::ignition::spec::validate::Issue;

/// What to do with a field the MCO does not know.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Strictness {
    /// Drop it and say so, as the MCO drops it.
    #[default]
    AsTheMco,
    /// Refuse it (`render --strict`).
    Strict,
}

impl From<bool> for Strictness {
    /// `--strict`.
    fn from(strict: bool) -> Strictness {
        if strict {
            Strictness::Strict
        } else {
            Strictness::AsTheMco
        }
    }
}

/// A field the MCO drops: a `spec` field `MachineConfigSpec` does not have, or a key the
/// config's Ignition spec does not have.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DroppedField {
    /// Its path in the object (`spec.config.networkd`, `spec.kernelArgs`).
    pub path: String,
    /// The field it most likely meant.
    pub meant: Option<String>,
    /// `None`: a `spec` field; else the Ignition spec the config was written in.
    pub ignition: Option<Spec>,
}

impl DroppedField {
    /// What is wrong with it, without the verdict (dropped or refused).
    pub fn problem(&self) -> String {
        let meant = self
            .meant
            .as_ref()
            .map(|m| format!(" (did you mean {m}?)"))
            .unwrap_or_default();
        match self.ignition {
            None => format!(
                "not a MachineConfig field{meant}; the fields are {}",
                SPEC_FIELDS.join(", ")
            ),
            Some(spec) => format!(
                "Ignition spec {spec} has no such field{meant}{}",
                spec2_leftover(spec, &self.path)
            ),
        }
    }
}

/// Why a spec 3 config holds a key spec 2 had, and where its content goes now.
fn spec2_leftover(spec: Spec, path: &str) -> &'static str {
    if spec == Spec::V2_2 {
        return "";
    }
    if path == "spec.config.networkd" {
        " (spec 2's networkd; spec 3 writes .network files under storage.files)"
    } else if path.starts_with("spec.config.storage.files[") && path.ends_with("].filesystem") {
        " (spec 2's filesystem; spec 3 writes every file to the root filesystem)"
    } else {
        ""
    }
}

/// With [`Strictness::Strict`], the first field the MCO would drop is an error.
pub(super) fn refuse_if_strict(dropped: &[DroppedField], strict: Strictness) -> Result<()> {
    match dropped.first() {
        Some(d) if strict == Strictness::Strict => Err(field(
            d.path.clone(),
            format!("{} (--strict refuses what the MCO would drop)", d.problem()),
        )),
        _ => Ok(()),
    }
}

/// When a field Ignition needs is missing at `at` (`...files[0].path`) and a key of that name
/// was dropped deeper in the same entry (`...files[0].contents.path`): the likely cause, an
/// indentation one level too deep.
pub(super) fn misplaced(at: &str, dropped: &[DroppedField]) -> String {
    let Some((entry, key)) = at.rsplit_once('.') else {
        return String::new();
    };
    dropped
        .iter()
        .find(|d| {
            d.path.starts_with(&format!("{entry}."))
                && d.path.rsplit_once('.').is_some_and(|(_, k)| k == key)
        })
        .map(|d| {
            format!(
                " ({key} is at {}, where Ignition has no such field: indented one level too deep?)",
                d.path
            )
        })
        .unwrap_or_default()
}

/// The unknown keys of a config written in `spec`: each one Go read as a field of another case
/// is a warning (returned), as Ignition warns of it; the others are dropped (added to
/// `dropped`), as the MCO drops them.
pub(super) fn sort_unknown(
    unknown: Vec<Unknown>,
    spec: Spec,
    dropped: &mut Vec<DroppedField>,
) -> Vec<Issue> {
    let mut warnings = Vec::new();
    for u in unknown {
        let at = format!("spec.config.{}", u.path);
        match u.read_as {
            Some(field) => warnings.push(Issue {
                message: format!(
                    "unused key {} (read as {field}, as Go matches a field name regardless of case; the MCO keeps the value and Ignition warns)",
                    u.path.rsplit('.').next().unwrap_or(&u.path)
                ),
                path: at,
            }),
            None => dropped.push(DroppedField {
                path: at,
                meant: u.meant.map(str::to_string),
                ignition: Some(spec),
            }),
        }
    }
    warnings
}
