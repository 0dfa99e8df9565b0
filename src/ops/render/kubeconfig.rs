//! The bootstrap kubeconfig `render` appends for the openshift flavour, kept in the asset
//! directory as `auth/bootstrap-kubeconfig`: a credential, so a different one replaces the
//! kept one only with `--force` (nodes already booted used the old one).

use anyhow::{Result, bail};
use serde::Serialize;
use time::OffsetDateTime;

use super::super::Snapshot;
use crate::assets::{Change, Overwrite, SECRET_MODE, layout};
use crate::kubeconfig::{self, BootstrapKubeconfig};

/// The bootstrap kubeconfig to append, checked.
pub struct Kubeconfig {
    /// Its bytes.
    pub bytes: Vec<u8>,
    /// What it says.
    pub info: BootstrapKubeconfig,
    /// Whether it is new to the asset directory (to be stored).
    pub store: bool,
}

/// The kubeconfig in a render's JSON report.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct KubeconfigReport {
    /// Where it is kept.
    pub path: &'static str,
    /// The API server it names.
    pub server: String,
    /// `token` or `client certificate` (`--machine-configs`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub credential: Option<&'static str>,
    /// Where its CA came from (`--from-cluster`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ca_from: Option<&'static str>,
}

fn kept(snap: &Snapshot) -> Result<Option<Vec<u8>>> {
    if snap.dir.exists(layout::BOOTSTRAP_KUBECONFIG) {
        Ok(Some(snap.dir.read(layout::BOOTSTRAP_KUBECONFIG)?))
    } else {
        Ok(None)
    }
}

/// `--bootstrap-kubeconfig` (bytes and name), or the one kept from an earlier render.
pub fn choose(
    snap: &Snapshot,
    given: Option<(Vec<u8>, String)>,
    force: Overwrite,
    now: OffsetDateTime,
) -> Result<Option<Kubeconfig>> {
    let kept_path = snap.dir.path(layout::BOOTSTRAP_KUBECONFIG);
    let kept = kept(snap)?;
    match given {
        Some((bytes, name)) => {
            let info = kubeconfig::check(&bytes, &name, now)?;
            let store = match &kept {
                Some(k) if *k == bytes => false,
                Some(_) if force == Overwrite::Never => bail!(
                    "{} holds a different bootstrap kubeconfig; pass --force to replace it",
                    kept_path.display()
                ),
                _ => true,
            };
            Ok(Some(Kubeconfig { bytes, info, store }))
        }
        None => match kept {
            Some(bytes) => {
                let info = kubeconfig::check(&bytes, &kept_path.display().to_string(), now)?;
                Ok(Some(Kubeconfig {
                    bytes,
                    info,
                    store: false,
                }))
            }
            None => Ok(None),
        },
    }
}

/// Whether the kubeconfig a cluster snapshot gives must be stored: not when it is the kept
/// one; refused when a different one is kept, unless `force` allows it.
pub fn store_built(snap: &Snapshot, built: &[u8], force: Overwrite) -> Result<bool> {
    match kept(snap)? {
        Some(k) if k == built => Ok(false),
        Some(_) if force == Overwrite::Never => bail!(
            "{} holds a different bootstrap kubeconfig than the one the snapshot gives; pass --force to replace it",
            snap.dir.path(layout::BOOTSTRAP_KUBECONFIG).display()
        ),
        _ => Ok(true),
    }
}

/// Stages the kubeconfig (0600).
pub fn stage(change: &mut Change<'_>, bytes: &[u8]) {
    change.write(
        layout::BOOTSTRAP_KUBECONFIG,
        bytes,
        SECRET_MODE,
        Overwrite::Allow,
    );
}

/// OpenShift configs without a bootstrap kubeconfig: refused, since nodes booted from them
/// never join (a pipeline must not go green on them), unless `--no-bootstrap-kubeconfig`
/// says they are meant; then a warning.
pub(super) fn missing(meant: NoKubeconfig) -> anyhow::Result<super::Note> {
    let why = "no bootstrap kubeconfig: nodes booted from these configs cannot send their CSR and will never join the cluster";
    if meant == NoKubeconfig::Refuse {
        anyhow::bail!(
            "{why}. Pass --bootstrap-kubeconfig FILE ({}), or --no-bootstrap-kubeconfig if configs that cannot join are meant",
            crate::kubeconfig::HOW_TO_GET
        );
    }
    Ok(super::Note::Warn(format!(
        "{why} (--no-bootstrap-kubeconfig); a later `mcsctl render --bootstrap-kubeconfig FILE` adds it"
    )))
}

/// Whether OpenShift configs without a bootstrap kubeconfig are refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NoKubeconfig {
    /// Refused: nodes booted from them never join.
    Refuse,
    /// `--no-bootstrap-kubeconfig`: meant (a test, a lab); a warning.
    Meant,
}

impl NoKubeconfig {
    /// `Meant` with `--no-bootstrap-kubeconfig`, else `Refuse`.
    pub fn of(no_bootstrap_kubeconfig: bool) -> NoKubeconfig {
        if no_bootstrap_kubeconfig {
            NoKubeconfig::Meant
        } else {
            NoKubeconfig::Refuse
        }
    }
}
