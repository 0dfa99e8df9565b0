//! What every step of the MCS CA's life shares (`ca create`, `import`, `rotate`, `promote`,
//! `retire`): writing the bundle and making every pointer config trust exactly it, the rows
//! of the files written, and the report of where the rotation stands.

use anyhow::Result;
use serde::Serialize;
use time::OffsetDateTime;

use crate::assets::{Change, Overwrite, PUBLIC_MODE, layout};
use crate::model::Snapshot;
use crate::model::cas::CaSet;
use crate::model::pointers::{self, PendingPointer, Target};
use crate::ops::report::FileKind;
use crate::ops::{Note, Outcome, Written, report};
use crate::pki::cert::CertInfo;
use crate::pki::rotation::{self, Phase};

/// What a `ca` step reports: the files written and where the rotation stands after it.
#[derive(Debug, Serialize)]
pub struct CaReport {
    /// The files written (none when there was nothing to do).
    pub files: Vec<Written>,
    /// Where the rotation stands.
    pub phase: &'static str,
    /// The next command, while a rotation is in progress.
    pub next: Option<&'static str>,
    /// The heading of the files' table.
    #[serde(skip)]
    pub heading: String,
}

pub(crate) type CaOutcome<'s> = Outcome<'s, CaReport>;

pub(crate) fn done<'s>(
    change: Change<'s>,
    heading: &str,
    files: Vec<Written>,
    phase: Phase,
    mut notes: Vec<Note>,
    now: OffsetDateTime,
) -> CaOutcome<'s> {
    notes.extend(report::short_lived(&files, now.unix_timestamp()));
    let (p, next) = phase.describe();
    Outcome {
        change: Some(change),
        report: CaReport {
            files,
            phase: p,
            next,
            heading: heading.into(),
        },
        notes,
    }
}

/// Nothing to do: says so and where the rotation stands.
pub(crate) fn nothing<'s>(cas: &CaSet, why: &str) -> CaOutcome<'s> {
    let (phase, next) = cas.phase().describe();
    Outcome {
        change: None,
        report: CaReport {
            files: Vec::new(),
            phase,
            next,
            heading: String::new(),
        },
        notes: vec![Note::Info(why.into())],
    }
}

/// Writes `bundle` and edits every pointer config to trust exactly it. `added`: CAs entering
/// the bundle now (they count as mcsctl's when finding its entry in a pointer config).
pub(crate) fn set_bundle(
    snap: &Snapshot,
    change: &mut Change<'_>,
    bundle: &[CertInfo],
    added: &[&CertInfo],
    now: OffsetDateTime,
) -> Result<Vec<PendingPointer>> {
    let pem = rotation::pem(bundle);
    change.write(
        layout::CA_BUNDLE,
        pem.as_bytes(),
        PUBLIC_MODE,
        Overwrite::Allow,
    );
    let mut ours = snap.cas.known();
    ours.extend(added.iter().map(|c| c.der.clone()));
    ours.extend(bundle.iter().map(|c| c.der.clone()));
    let target = Target {
        bundle: pem.as_bytes(),
        ours: &ours,
        tokens: snap.tokens.as_ref(),
        add_token: false,
    };
    let ptrs = pointers::edit_all(
        &snap.pointers,
        snap.config.as_ref(),
        &target,
        &snap.dir,
        now,
    )?;
    pointers::stage(change, &ptrs, Overwrite::Allow);
    Ok(ptrs)
}

/// The bundle's row and one row per rewritten pointer config.
pub(crate) fn bundle_and_pointers(bundle: &[CertInfo], ptrs: &[PendingPointer]) -> Vec<Written> {
    let n = if bundle.len() == 1 {
        "1 CA".to_string()
    } else {
        format!("{} CAs", bundle.len())
    };
    let mut files = vec![Written::file(
        layout::CA_BUNDLE,
        false,
        FileKind::CaBundle,
        Some(n.clone()),
    )];
    for p in ptrs {
        files.push(Written::file(
            &p.rel,
            p.has_token,
            FileKind::Pointer,
            Some(format!("now trusts {n}")),
        ));
    }
    files
}
