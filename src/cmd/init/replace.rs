//! `init --force` over an existing asset directory: on a terminal, replacing a CA key is
//! confirmed first (what is replaced is kept: `ops::backup`).

use anyhow::{Result, bail};

use crate::assets::{AssetDir, layout};
use crate::pki::cert::parse_pem_certs;
use crate::ui::Ui;

/// On a terminal, asks before a CA key is replaced (unless --yes). Without a terminal,
/// --force is the consent.
pub(super) fn confirm(ui: &Ui, dir: &AssetDir, yes: bool) -> Result<()> {
    if yes || !ui.interactive || !dir.exists(layout::CA_KEY) {
        return Ok(());
    }
    let what = dir
        .read(layout::CA_CERT)
        .ok()
        .and_then(|b| parse_pem_certs(&b, layout::CA_CERT).ok())
        .and_then(|v| v.into_iter().next())
        .map(|c| {
            format!(
                "{}, expires {}",
                c.subject_with_key_id(),
                crate::pki::cert::rfc3339(c.not_after)
            )
        })
        .unwrap_or_else(|| "unreadable certificate".to_string());
    let msg = format!(
        "{} holds a CA key ({what}).\nEvery pointer config made from it stops working once machines fetch from the new serving certificate. A copy is kept under {}/backup/.",
        dir.path(layout::CA_KEY).display(),
        dir.root().display()
    );
    eprintln!("{}", crate::escape::text(&msg, false));
    let go = dialoguer::Confirm::new()
        .with_prompt("Replace it with a new CA?")
        .default(false)
        .interact()?;
    if !go {
        bail!(
            "kept {} as it was (`mcsctl ca rotate` replaces a CA without breaking machines)",
            dir.root().display()
        );
    }
    Ok(())
}
