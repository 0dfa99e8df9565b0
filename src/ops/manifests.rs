//! `manifests`: the MCS's CA, serving pair, tokens and pointer configs as Kubernetes objects
//! (and, with `--serve-deployment`, a Deployment serving the rendered configs), written
//! together under `manifests/` (or `--output`).

use std::path::PathBuf;

use anyhow::{Result, bail};
use serde::Serialize;
use time::OffsetDateTime;

use super::{Note, Outcome};
use crate::assets::layout::{PRE_APPROVAL, RENDERED};
use crate::assets::{Overwrite, PUBLIC_MODE, SECRET_MODE, layout};
use crate::manifests::{Deployment, Inputs, build};
use crate::model::Snapshot;

/// What `manifests` was asked for.
pub struct ManifestsInputs {
    /// Put the CA key in the CA Secret.
    pub include_ca_key: bool,
    /// Add the root CA ConfigMap.
    pub include_root_ca: bool,
    /// The Deployment serving the rendered configs, with `--serve-deployment`.
    pub deployment: Option<Deployment>,
    /// Where the files go.
    pub output: PathBuf,
    /// Replace files that exist.
    pub force: bool,
}

/// One file written.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ManifestFile {
    /// Its path.
    pub file: String,
    /// The object's kind.
    pub kind: String,
    /// The object's namespace.
    pub namespace: String,
    /// The object's name.
    pub name: String,
    /// The file's mode.
    pub mode: &'static str,
}

/// Builds every object from the snapshot; the files are written only when none exists that
/// may not be replaced.
pub fn manifests<'s>(
    snap: &'s Snapshot,
    m: &ManifestsInputs,
    now: OffsetDateTime,
) -> Result<Outcome<'s, Vec<ManifestFile>>> {
    let dir = &snap.dir;
    let cfg = snap.config()?;
    let mut notes = Vec::new();
    let mut i = Inputs {
        ca_cert: dir.read(layout::CA_CERT)?,
        ca_bundle: snap.bundle()?.to_vec(),
        ca_key: if !m.include_ca_key {
            None
        } else if dir.exists(layout::CA_KEY) {
            Some(dir.read(layout::CA_KEY)?)
        } else {
            bail!(
                "--include-ca-key: {} holds no CA key (kept offline?)",
                dir.path(layout::CA_KEY).display()
            );
        },
        root_ca: m.include_root_ca,
        serving_cert: dir.read(layout::SERVING_CERT)?,
        serving_key: dir.read(layout::SERVING_KEY)?,
        config_json: cfg.to_bytes()?,
        ..Inputs::default()
    };
    tokens(snap, &mut i, &mut notes, now)?;
    if let Some(d) = &m.deployment {
        one_ledger(snap, d, now)?;
    }
    for p in &snap.pointers {
        if cfg.pools.iter().any(|c| c == p.pool()) {
            i.pointers.insert(p.pool().to_string(), p.bytes.clone());
        }
    }
    if m.deployment.is_some() {
        rendered(snap, &mut i)?;
    }
    let objects = build(&i, m.deployment.as_ref());
    let ow = Overwrite::when(m.force);
    // Every file is decided first: a refusal to overwrite changes nothing.
    let mut report = Vec::new();
    let mut change = snap.change("manifests");
    for o in &objects {
        let text = crate::golang::yaml::marshal(&o.object);
        let path = m.output.join(&o.file);
        if !m.force && path.exists() {
            bail!("{} exists; use --force to overwrite", path.display());
        }
        let mode = if o.secret { SECRET_MODE } else { PUBLIC_MODE };
        change.write_path(&path, text.as_bytes(), mode, ow);
        let field = |v: &serde_json::Value| v.as_str().unwrap_or("").to_string();
        report.push(ManifestFile {
            file: path.display().to_string(),
            kind: field(&o.object["kind"]),
            namespace: field(&o.object["metadata"]["namespace"]),
            name: field(&o.object["metadata"]["name"]),
            mode: if o.secret { "0600" } else { "0644" },
        });
    }
    Ok(Outcome {
        change: Some(change),
        report,
        notes,
    })
}

/// With machine tokens, one replica: each replica keeps its own ledger, so a single-use token
/// spent on one would fetch again on another, and the evidence would be split.
fn one_ledger(snap: &Snapshot, d: &Deployment, now: OffsetDateTime) -> Result<()> {
    let machines = snap
        .tokens
        .iter()
        .flat_map(|s| &s.tokens)
        .filter(|t| t.machine.is_some() && t.is_live(now))
        .count();
    if machines == 0 || d.keeps_ledger() || d.store.is_some() {
        return Ok(());
    }
    let how = if d.host_network {
        "--host-network runs one serve per control plane node; leave it out and pass --replicas 1"
            .to_string()
    } else {
        format!("pass --replicas 1 (not {})", d.replicas)
    };
    bail!(
        "the asset directory holds {machines} live machine token(s), and replicas of serve would each keep a ledger of their own: a single-use token spent on one would fetch again on another, and csr review would lack the evidence the others hold. {how}: one replica keeps its ledger on a PersistentVolumeClaim (or give every replica the store they share: --store etcd://...)"
    )
}

/// The tokens that may still fetch (revoked and expired ones never leave the asset
/// directory), and the single `token` key of the "mco-auth-token" enhancement (openshift/enhancements): the worker pool's token, else the first
/// pool's.
fn tokens(
    snap: &Snapshot,
    i: &mut Inputs,
    notes: &mut Vec<Note>,
    now: OffsetDateTime,
) -> Result<()> {
    let Some(mut store) = snap.tokens.clone() else {
        return Ok(());
    };
    let dropped = store.prune(now);
    if !dropped.is_empty() {
        notes.push(Note::Info(format!(
            "left out {} revoked or expired token(s): {}",
            dropped.len(),
            dropped.join(", ")
        )));
    }
    if !store.tokens.is_empty() {
        i.tokens_json = Some(store.to_bytes()?);
    }
    let cfg = snap.config()?;
    let pool = cfg
        .pools
        .iter()
        .find(|p| *p == "worker")
        .or(cfg.pools.first())
        .cloned()
        .unwrap_or_else(|| "worker".into());
    i.current_token = store.current_for(&pool, now).map(|t| t.bearer());
    Ok(())
}

/// Each pool's rendered config and pre-approval subset, for the Deployment.
fn rendered(snap: &Snapshot, i: &mut Inputs) -> Result<()> {
    let dir = &snap.dir;
    for pool in &snap.config()?.pools {
        let full = format!("{RENDERED}/{pool}.ign");
        if dir.exists(&full) {
            let pre = format!("{PRE_APPROVAL}/{pool}.ign");
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
    Ok(())
}
