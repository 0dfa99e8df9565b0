//! `mcsctl manifests`.

use anyhow::{Result, bail};
use serde::Serialize;

use crate::assets::{AssetDir, Overwrite, PUBLIC_MODE, SECRET_MODE, layout};
use crate::cli::ManifestsArgs;
use crate::exit;
use crate::manifests::{Deployment, Inputs, build};
use crate::ui::Ui;

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Written {
    file: String,
    kind: String,
    namespace: String,
    name: String,
    mode: &'static str,
}

/// Runs `manifests`.
pub fn run(ui: &Ui, dir: &AssetDir, a: &ManifestsArgs) -> Result<u8> {
    // Held while reading, so the objects describe one state of the directory, and while
    // writing, so the files land together.
    let (lock, snap) = super::load(ui, dir)?;
    let cfg = snap.config()?;
    let mut i = Inputs {
        ca_cert: dir.read(layout::CA_CERT)?,
        ca_bundle: dir.read(layout::CA_BUNDLE)?,
        ca_key: if !a.include_ca_key {
            None
        } else if dir.exists(layout::CA_KEY) {
            Some(dir.read(layout::CA_KEY)?)
        } else {
            bail!(
                "--include-ca-key: {} holds no CA key (kept offline?)",
                dir.path(layout::CA_KEY).display()
            );
        },
        root_ca: a.include_root_ca,
        serving_cert: dir.read(layout::SERVING_CERT)?,
        serving_key: dir.read(layout::SERVING_KEY)?,
        ..Inputs::default()
    };
    if let Some(mut store) = snap.tokens.clone() {
        // Revoked and expired tokens never leave the asset directory: a cluster's copy holds
        // only what may still fetch.
        let dropped = store.prune(ui.now);
        if !dropped.is_empty() {
            ui.info(format!(
                "left out {} revoked or expired token(s): {}",
                dropped.len(),
                dropped.join(", ")
            ));
        }
        if !store.tokens.is_empty() {
            i.tokens_json = Some(store.to_bytes()?);
        }
        // Seed 004's single `token` key: the worker pool's token (else the first pool's).
        let pool = cfg
            .pools
            .iter()
            .find(|p| *p == "worker")
            .or(cfg.pools.first())
            .cloned()
            .unwrap_or_else(|| "worker".into());
        i.current_token = store.current_for(&pool, ui.now).map(|t| t.bearer());
    }
    for pool in &cfg.pools {
        let rel = layout::pointer(pool);
        if dir.exists(&rel) {
            i.pointers.insert(pool.clone(), dir.read(&rel)?);
        }
    }
    let deploy = if a.serve_deployment {
        for pool in &cfg.pools {
            let full = format!("rendered/{pool}.ign");
            if dir.exists(&full) {
                let pre = format!("rendered/pre-approval/{pool}.ign");
                let pre = if dir.exists(&pre) {
                    Some(dir.read(&pre)?)
                } else {
                    None
                };
                i.rendered.insert(pool.clone(), (dir.read(&full)?, pre));
            }
        }
        if i.rendered.is_empty() {
            bail!("--serve-deployment needs rendered configs: run `mcsctl render` first");
        }
        Some(Deployment {
            image: a.image.clone().unwrap_or_default(),
            namespace: a.namespace.clone(),
            service_type: a.service_type,
            host_network: a.host_network,
            auth: a.auth.name().into(),
        })
    } else {
        None
    };
    let manifests = build(&i, deploy.as_ref());
    let out_dir = a.output.clone().unwrap_or_else(|| dir.path("manifests"));
    // Build every file first; then write: a refusal to overwrite changes nothing.
    let mut files = Vec::new();
    for m in &manifests {
        let text = serde_yaml_ng::to_string(&m.object)?;
        let path = out_dir.join(&m.file);
        if !a.force && path.exists() {
            bail!("{} exists; use --force to overwrite", path.display());
        }
        files.push((path, text, m));
    }
    let ow = if a.force {
        Overwrite::Allow
    } else {
        Overwrite::Never
    };
    let mut report = Vec::new();
    let mut change = dir.change("manifests");
    for (path, text, m) in &files {
        change.write_path(
            path,
            text.as_bytes(),
            if m.secret { SECRET_MODE } else { PUBLIC_MODE },
            ow,
        );
        report.push(Written {
            file: path.display().to_string(),
            kind: m.object["kind"].as_str().unwrap_or("").into(),
            namespace: m.object["metadata"]["namespace"]
                .as_str()
                .unwrap_or("")
                .into(),
            name: m.object["metadata"]["name"].as_str().unwrap_or("").into(),
            mode: if m.secret { "0600" } else { "0644" },
        });
    }
    change.commit(&lock)?;
    if ui.json() {
        ui.out_json(&serde_json::json!({ "files": report }))?;
    } else {
        let rows: Vec<Vec<String>> = report
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
        ui.info(format!("apply with `oc apply -f {}` (Secrets hold keys and tokens: keep the directory private)", out_dir.display()));
    }
    Ok(exit::OK)
}
