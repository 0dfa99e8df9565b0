//! What the `ca` commands print: the files written, then where a rotation stands and the next
//! command.

use anyhow::Result;
use serde::Serialize;

use super::CaFiles;
use crate::assets::{AssetDir, layout};
use crate::cmd::{PendingPointer, Written, print_written};
use crate::exit;
use crate::pki::cert::CertInfo;
use crate::ui::Ui;

#[derive(Serialize)]
struct Report<'a> {
    files: &'a [Written],
    phase: &'static str,
    next: Option<&'static str>,
}

/// The bundle's row and one row per rewritten pointer config.
pub(super) fn bundle_and_pointers(
    bundle: &[CertInfo],
    pointers: &[PendingPointer],
) -> Vec<Written> {
    let mut files = vec![Written::file(
        layout::CA_BUNDLE,
        false,
        "ca-bundle",
        Some(cas(bundle.len())),
    )];
    for p in pointers {
        files.push(Written::file(
            &p.rel,
            p.has_token,
            "pointer",
            Some(format!("now trusts {}", cas(bundle.len()))),
        ));
    }
    files
}

/// Prints the files and the phase.
pub(super) fn done(ui: &Ui, dir: &AssetDir, heading: &str, files: &[Written]) -> Result<u8> {
    let (phase, next) = CaFiles::read(dir)?.phase().describe();
    crate::cmd::warn_short_lived(ui, files);
    if ui.json() {
        ui.out_json(&Report { files, phase, next })?;
    } else {
        print_written(ui, heading, files)?;
        // Only a rotation in progress is news.
        if let Some(n) = next {
            ui.info(format!("\n{phase}.\nNext: {n}."));
        }
    }
    Ok(exit::OK)
}

/// Prints only the phase (for a step that had nothing to do).
pub(super) fn phase(ui: &Ui, dir: &AssetDir) -> Result<()> {
    let (phase, next) = CaFiles::read(dir)?.phase().describe();
    if ui.json() {
        ui.out_json(&Report {
            files: &[],
            phase,
            next,
        })?;
    } else {
        ui.info(format!("{phase}."));
        if let Some(n) = next {
            ui.info(format!("Next: {n}."));
        }
    }
    Ok(())
}

fn cas(n: usize) -> String {
    if n == 1 {
        "1 CA".into()
    } else {
        format!("{n} CAs")
    }
}
