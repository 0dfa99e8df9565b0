//! `mcsctl manifests`.

use anyhow::Result;
use time::OffsetDateTime;

use crate::assets::AssetDir;
use crate::cli::ManifestsArgs;
use crate::exit;
use crate::manifests::Deployment;
use crate::ops::manifests::{ManifestsInputs, manifests};
use crate::ui::Ui;

/// Runs `manifests`.
pub fn run(ui: &Ui, dir: &AssetDir, a: &ManifestsArgs, now: OffsetDateTime) -> Result<u8> {
    if a.store.store.is_some() && !a.serve_deployment {
        return Err(exit::usage(
            "--store is for --serve-deployment: the store its replicas share",
        ));
    }
    let store = a.store.options()?;
    let inputs = ManifestsInputs {
        include_ca_key: a.include_ca_key,
        include_root_ca: a.include_root_ca,
        deployment: a.serve_deployment.then(|| Deployment {
            image: a.image.clone().unwrap_or_default(),
            namespace: a.namespace.clone(),
            service_type: a.service_type,
            host_network: a.host_network,
            auth: a.auth.name().into(),
            replicas: a.replicas,
            store,
        }),
        output: a.output.clone().unwrap_or_else(|| dir.path("manifests")),
        force: a.force,
    };
    // Held while reading, so the objects describe one state of the directory, and while
    // writing, so the files land together.
    let (lock, snap) = super::load(ui, dir)?;
    let out = manifests(&snap, &inputs, now)?;
    let (_, out) = super::commit(ui, &lock, out)?;
    super::print_notes(ui, &out.notes);
    if ui.structured() {
        ui.out_json(&serde_json::json!({ "files": out.report }))?;
    } else {
        let rows: Vec<Vec<String>> = out
            .report
            .iter()
            .map(|w| {
                vec![
                    w.file.clone(),
                    w.mode.into(),
                    w.kind.clone(),
                    format!("{}/{}", w.namespace, w.name),
                ]
            })
            .collect();
        ui.out(crate::ui::table(&["FILE", "MODE", "KIND", "OBJECT"], &rows))?;
        if !ui.dry_run {
            ui.info(format!("apply with `oc apply -f {}` (Secrets hold keys and tokens: keep the directory private)", inputs.output.display()));
        }
    }
    Ok(exit::OK)
}
