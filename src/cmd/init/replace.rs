//! `init --force` over an existing asset directory: replacing a CA key is confirmed first, on
//! a terminal by a question, elsewhere by --yes (what is replaced is kept: `ops::backup`).

use anyhow::{Result, bail};

use crate::assets::{AssetDir, layout};
use crate::pki::cert::parse_pem_certs;
use crate::ui::Ui;

/// Asks before a CA key is replaced, unless --yes; without a terminal to ask, refuses: a
/// pipeline rerunning `init --force` must not replace the CA every pointer config trusts
/// without saying so.
pub(super) fn confirm(ui: &Ui, dir: &AssetDir, yes: bool) -> Result<()> {
    if yes || !dir.exists(layout::CA_KEY) {
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
    if !ui.interactive {
        bail!(
            "{} holds a CA key ({what}): `init --force` would replace it, and every pointer config made from it would stop working once machines fetch from the new serving certificate. `mcsctl ca rotate` replaces a CA without breaking machines; with no terminal to ask, add --yes to replace it anyway (the key is kept under backup/<time>/)",
            dir.path(layout::CA_KEY).display()
        );
    }
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
