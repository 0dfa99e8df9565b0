//! The asset directory as typed state, and the workflows that change it.
//!
//! A state-changing command flows through here in four steps:
//!
//! 1. `cmd` calls [`Snapshot::lock`]: it takes the directory lock, reads every file the
//!    snapshot is made of in one pass (`assets::Image`), then parses them: `mcsctl.json`
//!    (typed, [`config`]), every CA file ([`cas::CaSet`]), the token store, the pointer configs
//!    and the machines, each with one error policy (absent is `None`, present but unreadable
//!    is an error naming the file).
//! 2. `cmd` calls a workflow ([`ca`], [`bundle`], [`serving`], [`tokens`], [`pointers`]): a
//!    function of the snapshot, the command's inputs and the time, which decides everything
//!    and returns an [`Outcome`]: the [`Change`] to commit (nothing written yet) and a typed
//!    report, with the warnings to show.
//! 3. `cmd` commits the change (all files land together, or none: `assets::change`).
//! 4. `cmd` prints the report, as text or JSON.
//!
//! Readers (`inspect`, `doctor`, `serve`) read the same parts through the same readers, after
//! completing any change a killed command left committed.

pub mod backup;
pub mod bundle;
pub mod ca;
pub mod csr;
pub mod init;
pub mod machine;
pub mod manifests;
pub mod pointer;
pub mod publish;
pub mod render;
pub mod report;
pub mod serving;
pub mod token;
pub mod trail;

#[cfg(test)]
pub(crate) mod tests;

use anyhow::Result;
use rcgen::KeyPair;

use crate::assets::{Change, layout};
use crate::model::Snapshot;
use crate::pki::keys::KeyAlgorithm;

pub use report::{FileKind, Mode, Note, Run, Written};

/// Makes keys for a workflow: `cmd` passes one that shows a spinner for the slow algorithms.
pub type KeyGen<'k> = &'k dyn Fn(KeyAlgorithm, &str) -> Result<KeyPair>;

/// What a workflow decided: the change to commit (`None`: nothing to do), what to report,
/// and what to tell the user once it is committed.
#[must_use = "a workflow's change is only made when it is committed"]
pub struct Outcome<'a, R> {
    /// The files to write and remove, together.
    pub change: Option<Change<'a>>,
    /// The typed report.
    pub report: R,
    /// Warnings and remarks, in order.
    pub notes: Vec<Note>,
}

impl<R> Outcome<'_, R> {
    /// Nothing to change, nothing to say: only `report`.
    pub fn unchanged(report: R) -> Self {
        Outcome {
            change: None,
            report,
            notes: Vec::new(),
        }
    }
}

/// Marks a directory a CA is being started in step by step as mcsctl's: `mcsctl.json` with
/// no cluster, and its row; nothing when the directory has its `mcsctl.json`.
pub(crate) fn mark(snap: &Snapshot, change: &mut Change<'_>) -> Option<Written> {
    if snap.marked {
        return None;
    }
    let b = crate::model::config::step_by_step();
    change.write(
        layout::CONFIG,
        &b,
        crate::assets::PUBLIC_MODE,
        crate::assets::Overwrite::Never,
    );
    Some(Written::file(
        layout::CONFIG,
        false,
        FileKind::Cluster,
        Some("started step by step: no cluster yet".into()),
    ))
}
