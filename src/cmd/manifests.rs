//! `mcsctl manifests`.

use anyhow::Result;
use time::OffsetDateTime;

use crate::assets::AssetDir;
use crate::exit;
use crate::manifests::Deployment;
use crate::ops::manifests::{ManifestsInputs, manifests};
use crate::ui::Ui;
use clap::Args;
use std::path::PathBuf;

use crate::cli::{DirArg, FormatArg};
use crate::manifests::ServiceType;
use crate::model::config::AuthMode;

/// Arguments of `manifests`.
#[derive(Debug, Args)]
pub struct ManifestsArgs {
    /// Directory to write into (default: <dir>/manifests).
    #[arg(long, value_name = "DIR")]
    pub output: Option<PathBuf>,

    /// Also write what runs `mcsctl serve` from Secrets: a Deployment (--replicas, 2) and a
    /// Service, or with --host-network a DaemonSet on the control plane nodes. A single
    /// replica records machine-token fetches on a PersistentVolumeClaim.
    #[arg(long, requires = "image")]
    pub serve_deployment: bool,

    /// Container image with mcsctl, for --serve-deployment.
    #[arg(long, value_name = "IMAGE")]
    pub image: Option<String>,

    /// Namespace of the serve Deployment, Service and their Secrets.
    #[arg(
        long,
        default_value = "openshift-machine-config-operator",
        value_name = "NS"
    )]
    pub namespace: String,

    /// How booting machines reach the serve Service (with --host-network: the nodes' port 22623
    /// instead).
    #[arg(long, value_enum, default_value_t = ServiceType::NodePort, value_name = "TYPE", conflicts_with = "host_network")]
    pub service_type: ServiceType,

    /// Run serve on the control plane nodes' host network, port 22623 (where a UPI load
    /// balancer already points, as the real MCS runs), tolerating their taints.
    #[arg(long, requires = "serve_deployment")]
    pub host_network: bool,

    /// Auth mode of the deployed serve.
    #[arg(long, value_enum, default_value_t = AuthMode::Token, value_name = "MODE")]
    pub auth: AuthMode,

    /// Replicas of the serve Deployment. With machine tokens in the asset directory and no
    /// --store it must be 1: each replica would keep a ledger of its own, and a single-use
    /// token spent on one would fetch again on another.
    #[arg(long, default_value_t = 2, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=100), requires = "serve_deployment")]
    pub replicas: u32,

    /// With --serve-deployment: the store the replicas share (its TLS files go into Secret
    /// mcsctl-serve-store); then any number of replicas, and no ledger volume.
    #[command(flatten)]
    pub store: crate::cli::StoreArgs,

    /// Also write the MCS CA's private key (Secret openshift-machine-config-operator/
    /// machine-config-server-ca), for a cluster whose MCO rotates the CA itself (4.19+). Without
    /// it the key stays offline in the asset directory.
    #[arg(long)]
    pub include_ca_key: bool,

    /// Also write ConfigMap kube-system/root-ca with the MCS CA: only for a cluster whose
    /// root-ca was made by this asset directory (openshift-install writes it at install; it
    /// serves more than the MCS).
    #[arg(long)]
    pub include_root_ca: bool,

    /// Replace existing files.
    #[arg(long)]
    pub force: bool,

    /// `--dir` after the command.
    #[command(flatten)]
    pub dir: DirArg,

    /// `--format` after the command.
    #[command(flatten)]
    pub out: FormatArg,
}

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
        ui.report(crate::ui::table(&["FILE", "MODE", "KIND", "OBJECT"], &rows))?;
        if !ui.dry_run {
            ui.info(format!("apply with `oc apply -f {}` (Secrets hold keys and tokens: keep the directory private)", inputs.output.display()));
        }
    }
    Ok(exit::OK)
}
