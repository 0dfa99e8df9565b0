//! `mcsctl render`: MachineConfigs (or, with --from-mcs, what a live config server serves; with
//! --from-cluster, what the in-cluster MCS would serve) to `rendered/<pool>.ign` and
//! `rendered/pre-approval/<pool>.ign`. The workflows are `ops::render`'s.

use anyhow::Result;
use time::OffsetDateTime;

use crate::assets::AssetDir;
use crate::assets::Overwrite;
use crate::cli::values;
use crate::exit::{self, usage};
use crate::ignition::SpecVersion;
use crate::ignition::fetch::{Fetch, Trust};
use crate::ignition::render::diff::PoolDiff;
use crate::ignition::render::machineconfig::Read;
use crate::ignition::render::{Flavour, cluster, controller, input};
use crate::model::Snapshot;
use crate::ops::render::{
    self, FirstBoot, Losses, NoKubeconfig, RenderInputs, RenderReport, report,
};
use crate::ops::{Note, Run};
use crate::ui::Ui;
use clap::Args;
use std::path::PathBuf;

use crate::cli::{DirArg, FormatArg};

/// Arguments of `render`.
#[derive(Debug, Args)]
#[command(after_long_help = "\
For the openshift flavour every pool's config gets, last and in this order, the files the MCS \
appends: /etc/machine-config-daemon/node-annotations.json, /etc/kubernetes/kubeconfig (the \
bootstrap kubeconfig), /etc/mcs-machine-config-content.json and \
/etc/ignition-machine-config-encapsulated.json. A cluster's rendered MachineConfig \
(`oc get mc rendered-worker-<hash> -o yaml`) is served as it is, under its own name.

--from-cluster renders each pool's current rendered MachineConfig as the in-cluster MCS serves \
it. Make the snapshot with:
  {
    oc get machineconfigpools,machineconfigs,controllerconfigs -o yaml
    echo ---
    oc -n openshift-machine-config-operator get secret/node-bootstrapper-token \\
      configmap/kubeconfig-data -o yaml
  } > cluster.yaml")]
pub struct RenderArgs {
    /// MachineConfigs: a YAML or JSON file (multi-document or `kind: List`), a directory of them, or -.
    #[arg(
        long,
        value_name = "PATH",
        conflicts_with_all = ["from_mcs", "from_cluster"]
    )]
    pub machine_configs: Option<PathBuf>,

    /// Refuse what the MCO would drop (unknown spec fields, unknown Ignition keys) instead of
    /// dropping it with a warning.
    #[arg(long, conflicts_with_all = ["from_mcs", "from_cluster"])]
    pub strict: bool,

    /// The cluster's ControllerConfig (`oc get controllerconfig machine-config-controller -o
    /// yaml`), whose OS and extensions images controller-generated MachineConfigs take, as the
    /// MCO merges them (one among the --machine-configs inputs is taken too).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["from_mcs", "from_cluster"])]
    pub controller_config: Option<PathBuf>,

    /// What the in-cluster MCS would serve, from a snapshot of the cluster (`oc get -o yaml` of
    /// the MachineConfigPools, MachineConfigs, ControllerConfig, the node-bootstrapper-token
    /// Secret and the kubeconfig-data ConfigMap): a file, a YAML stream, a directory, or -.
    #[arg(long, value_name = "PATH", conflicts_with = "from_mcs")]
    pub from_cluster: Option<PathBuf>,

    /// What the configs are for (default: the flavour recorded in mcsctl.json, else openshift); recorded.
    #[arg(long = "for", value_enum, value_name = "FLAVOUR")]
    pub flavour: Option<Flavour>,

    /// The kubelet's bootstrap kubeconfig (kept as auth/bootstrap-kubeconfig, 0600, for later renders).
    #[arg(long, value_name = "FILE")]
    pub bootstrap_kubeconfig: Option<PathBuf>,

    /// OpenShift configs without a bootstrap kubeconfig are meant (nodes booted from them never
    /// join): without it, render refuses them.
    #[arg(long, conflicts_with = "bootstrap_kubeconfig")]
    pub no_bootstrap_kubeconfig: bool,

    /// Replace a different auth/bootstrap-kubeconfig.
    #[arg(long)]
    pub force: bool,

    /// Add the first-boot report to the full config of each pool rendered: once up after
    /// Ignition, a machine posts one report to serve (`machine list` shows it). Remembered in
    /// mcsctl.json for later renders; the pre-approval set never carries it.
    #[arg(long, conflicts_with_all = ["no_report", "from_mcs", "from_cluster"])]
    pub report: bool,

    /// Stop adding the first-boot report to the pools rendered (remembered).
    #[arg(long)]
    pub no_report: bool,

    /// Ignition spec of the coreos flavour's output, 3.0.0 to 3.5.0 (default: the newest input
    /// version, at least 3.2.0). The openshift flavour keeps the MCO's internal 3.5.0 and serve
    /// answers each client at its own spec, as the MCS does.
    #[arg(long, value_name = "V", value_parser = values::spec)]
    pub spec_version: Option<SpecVersion>,

    /// Replace a pool's config even when MachineConfigs, files or units it serves now would
    /// disappear (without it render refuses and names them).
    #[arg(long)]
    pub replace: bool,

    /// A file path (or systemd unit name) allowed to hold a secret in the pre-approval set; repeatable.
    #[arg(long = "allow-sensitive", value_name = "PATH")]
    pub allow_sensitive: Vec<String>,

    /// The cluster's current rendered MachineConfig of the pool (`oc get mc
    /// rendered-<pool>-<hash> -o yaml`): the new merge is checked against it by the MCO's
    /// reconcile rules, as on a running cluster. Without it, against the directory's
    /// rendered/<pool>.ign; a pool with neither is a first render, not checked.
    #[arg(long, value_name = "FILE", value_parser = values::current_machine_config)]
    pub current: Option<crate::ignition::render::reconcile::Rendered>,

    /// Storage sections a day-2 render may change although running nodes never apply them
    /// in place (the MCO's IrreconcilableValidationOverrides.storage): disks, filesystems,
    /// raid; comma-separated or repeated. Existing nodes keep their config; new machines get
    /// the new one.
    #[arg(long, value_enum, value_delimiter = ',', value_name = "SECTION")]
    pub allow_irreconcilable: Vec<IrreconcilableStorage>,

    /// Store what a live config server serves for --pool (the in-cluster MCS, or another mcsctl serve).
    #[arg(long, value_name = "URL", requires = "pool")]
    pub from_mcs: Option<String>,

    /// The pool to fetch with --from-mcs (appended to the URL as /config/POOL when it has no
    /// path); with --from-cluster, the one pool to take (default: every pool).
    #[arg(long, value_name = "POOL", value_parser = values::dns_label)]
    pub pool: Option<String>,

    /// CA bundle the server's certificate must chain to: PEM, or a pointer config that trusts it (default: tls/mcs-ca-bundle.crt).
    #[arg(long, value_name = "FILE", requires = "from_mcs")]
    pub ca: Option<PathBuf>,

    /// Bearer token for --from-mcs (or from the environment, so it stays out of `ps`).
    #[arg(
        long,
        value_name = "TOKEN",
        env = "MCSCTL_FROM_MCS_TOKEN",
        hide_env_values = true,
        requires = "from_mcs"
    )]
    pub token: Option<String>,

    /// `--dir` after the command.
    #[command(flatten)]
    pub dir: DirArg,

    /// `--format` after the command.
    #[command(flatten)]
    pub out: FormatArg,
}

/// A storage section `--allow-irreconcilable` exempts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum IrreconcilableStorage {
    /// storage.disks
    Disks,
    /// storage.filesystems
    Filesystems,
    /// storage.raid
    Raid,
}

impl From<IrreconcilableStorage> for crate::ignition::render::reconcile::Storage {
    fn from(s: IrreconcilableStorage) -> Self {
        use crate::ignition::render::reconcile::Storage;
        match s {
            IrreconcilableStorage::Disks => Storage::Disks,
            IrreconcilableStorage::Filesystems => Storage::Filesystems,
            IrreconcilableStorage::Raid => Storage::Raid,
        }
    }
}

/// Runs `render`: the flavour and the CA come from the snapshot, read under the lock; the
/// inputs are read and the workflow runs under it, except for `--from-mcs`, whose fetch goes
/// over the network between two snapshots rather than with the lock held.
pub fn run(ui: &Ui, dir: &AssetDir, a: &RenderArgs, now: OffsetDateTime) -> Result<u8> {
    dir.require()?;
    check_flags(a)?;
    if let Some(f) = a.flavour {
        check_flavour(a, f)?;
    }
    let (report, notes) = if a.from_mcs.is_some() {
        from_mcs(ui, dir, a)?
    } else {
        // The inputs are read and checked before the lock.
        let source = source(ui, a)?;
        let (lock, snap) = super::load(ui, dir)?;
        let flavour = flavour(ui, a, &snap)?;
        let mut inputs = inputs(ui, a, flavour)?;
        let out = match source {
            Source::Cluster(served, shown) => render::cluster(&snap, served, &shown, inputs, now)?,
            Source::MachineConfigs(read, controller) => {
                inputs.controller = controller;
                render::machine_configs(&snap, &read.read, inputs, now)?
            }
        };
        let (_, out) = super::commit(ui, &lock, out)?;
        (out.report, out.notes)
    };
    report.unserved.iter().for_each(|r| ui.error(r.to_string()));
    let code = if report.unserved.is_empty() {
        exit::OK
    } else {
        exit::ERROR
    };
    // A dry run warns as the real run would (a typo'd role, a pool nothing boots from).
    super::print_notes(ui, &notes);
    if let Some(diffs) = &report.dry_run {
        print_dry_run(ui, diffs)?;
        return Ok(code);
    }
    if ui.structured() {
        ui.out_json(&report)?;
    } else {
        ui.report(report::text(
            &report,
            if ui.verbose {
                report::Names::All
            } else {
                report::Names::Short
            },
        ))?;
    }
    Ok(code)
}

/// What render renders from, read.
enum Source {
    /// `--from-cluster`: what the MCS serves, and the snapshot's name.
    Cluster(cluster::Served, String),
    /// `--machine-configs`, and the ControllerConfig found or given.
    MachineConfigs(
        input::Inputs,
        Option<(crate::ignition::render::Cluster, String)>,
    ),
}

/// Reads `--from-cluster` or `--machine-configs`.
fn source(ui: &Ui, a: &RenderArgs) -> Result<Source> {
    if let Some(path) = &a.from_cluster {
        let shown = path.display().to_string();
        let objects = crate::kube::files::read_objects(path)?;
        ui.detail(format!("{shown}: {} objects", objects.len()));
        let served = cluster::serve(&objects, a.pool.as_deref(), &shown)?;
        show_picks(ui, &served);
        return Ok(Source::Cluster(served, shown));
    }
    let Some(p) = &a.machine_configs else {
        return Err(usage(
            "render needs a source: --machine-configs PATH (MachineConfigs, as `oc get machineconfigs -o yaml` prints them), --from-cluster PATH (a snapshot of the cluster: what the in-cluster MCS serves), or --from-mcs URL --pool POOL (what a live config server serves)",
        ));
    };
    let read = input::read_all(p, a.strict.into())?;
    show_selection(ui, &read.read);
    let controller = controller_config(a, &read.controller_configs)?;
    Ok(Source::MachineConfigs(read, controller))
}

/// `--from-mcs`: the flavour and the CA from one snapshot, the fetch without the lock, the
/// workflow on a second snapshot.
fn from_mcs(ui: &Ui, dir: &AssetDir, a: &RenderArgs) -> Result<(RenderReport, Vec<Note>)> {
    let (Some(url), Some(pool)) = (&a.from_mcs, &a.pool) else {
        return Err(usage("--from-mcs needs --pool"));
    };
    let (flavour, trust) = {
        let (_lock, snap) = super::load(ui, dir)?;
        let trust = match &a.ca {
            Some(p) => Trust::from_file(crate::assets::read_file(p)?, p.display().to_string())?,
            None => Trust::of_directory(snap.trusted_pem(), &dir.root().display().to_string())?,
        };
        (flavour(ui, a, &snap)?, trust)
    };
    let inputs = inputs(ui, a, flavour)?;
    let f = Fetch {
        url,
        pool,
        token: a.token.as_deref(),
        trust: &trust,
        version: a.spec_version,
    };
    let fetched = crate::ignition::fetch::fetch(&f, flavour)?;
    let (lock, snap) = super::load(ui, dir)?;
    let (_, out) = super::commit(ui, &lock, render::mcs(&snap, pool, fetched, inputs)?)?;
    Ok((out.report, out.notes))
}

/// `--for`, else the flavour recorded in mcsctl.json, else the default; checked against the
/// flags that go with it.
fn flavour(ui: &Ui, a: &RenderArgs, snap: &Snapshot) -> Result<Flavour> {
    let recorded = snap.config.as_ref().map(|c| c.flavour);
    let flavour = a.flavour.or(recorded).unwrap_or_default();
    let from = match (a.flavour, recorded) {
        (Some(_), _) => "from --for",
        (None, Some(_)) => "from mcsctl.json",
        (None, None) => "default",
    };
    ui.detail(format!("flavour {} ({from})", flavour.name()));
    check_flavour(a, flavour)?;
    Ok(flavour)
}

/// What render was asked for besides its source.
fn inputs<'a>(ui: &Ui, a: &'a RenderArgs, flavour: Flavour) -> Result<RenderInputs<'a>> {
    Ok(RenderInputs {
        flavour,
        version: a.spec_version,
        bootstrap_kubeconfig: match &a.bootstrap_kubeconfig {
            Some(p) => Some((crate::assets::read_file(p)?, p.display().to_string())),
            None => None,
        },
        without_kubeconfig: NoKubeconfig::of(a.no_bootstrap_kubeconfig),
        allow_sensitive: &a.allow_sensitive,
        force: Overwrite::when(a.force),
        run: Run::of(ui.dry_run),
        replace: Losses::of(a.replace),
        controller: None,
        current: a.current.clone(),
        allow_irreconcilable: a.allow_irreconcilable.iter().map(|&s| s.into()).collect(),
        report: FirstBoot::of(a.report, a.no_report),
    })
}

/// The ControllerConfig of `--controller-config`, else one among the inputs (not both).
fn controller_config(
    a: &RenderArgs,
    in_inputs: &[(serde_json::Value, String)],
) -> Result<Option<(crate::ignition::render::Cluster, String)>> {
    let from_flag;
    let found = match &a.controller_config {
        Some(p) => {
            if let Some((_, w)) = in_inputs.first() {
                return Err(usage(format!(
                    "--controller-config {} and a ControllerConfig in {w}: give one",
                    p.display()
                )));
            }
            let shown = p.display().to_string();
            from_flag = crate::kube::files::read_objects(p)?
                .into_iter()
                .filter(|o| o["kind"] == "ControllerConfig")
                .map(|o| (o, shown.clone()))
                .collect::<Vec<_>>();
            if from_flag.is_empty() {
                anyhow::bail!(
                    "{shown} holds no ControllerConfig; `oc get controllerconfig {} -o yaml` prints it",
                    controller::NAME
                );
            }
            &from_flag[..]
        }
        None => in_inputs,
    };
    match controller::choose(found)? {
        Some((cc, from)) => Ok(Some((controller::cluster(cc, from)?, from.clone()))),
        None => Ok(None),
    }
}

/// What the MCO would drop, said before anything else can fail (a loss it causes, say); with
/// -v, which MachineConfigs no pool selects (not parsed).
fn show_selection(ui: &Ui, read: &Read) {
    for d in &read.dropped {
        ui.warn(d.to_string());
    }
    ui.detail(format!(
        "{} MachineConfig(s) selected by a pool, {} by none",
        read.mcs.len(),
        read.unselected.len()
    ));
    for u in &read.unselected {
        ui.detail(format!("selected by no pool, not parsed: {u}"));
    }
}

/// With -v: which rendered MachineConfig the MCS would serve for each pool, and why.
fn show_picks(ui: &Ui, served: &cluster::Served) {
    for p in &served.pools {
        ui.detail(format!(
            "pool {}: {} (its {}, {} node(s) updated){}",
            p.pool,
            p.source.name(),
            p.chosen_by,
            p.updated,
            p.image
                .as_deref()
                .map(|i| format!("; layered image {i}"))
                .unwrap_or_default()
        ));
    }
}

/// `--dry-run`: each pool's difference with what it serves now.
fn print_dry_run(ui: &Ui, diffs: &[PoolDiff]) -> Result<()> {
    if ui.structured() {
        ui.out_json(&serde_json::json!({ "dryRun": true, "pools": diffs }))?;
    } else {
        let text: String = diffs.iter().map(|d| d.text()).collect();
        ui.out(format!("{text}dry run: nothing written\n"))?;
    }
    Ok(())
}

/// Refuses flag combinations that do not go together.
fn check_flags(a: &RenderArgs) -> Result<()> {
    if a.pool.is_some() && a.from_mcs.is_none() && a.from_cluster.is_none() {
        return Err(usage("--pool goes with --from-mcs or --from-cluster"));
    }
    if a.from_mcs.is_some() && a.pool.is_none() {
        return Err(usage("--from-mcs needs --pool"));
    }
    Ok(())
}

/// Refuses flags the flavour has no use for.
fn check_flavour(a: &RenderArgs, flavour: Flavour) -> Result<()> {
    if flavour == Flavour::CoreOs && a.controller_config.is_some() {
        return Err(usage(
            "--controller-config is for --for openshift: a coreos node has no machine-config daemon to pivot to its OS image",
        ));
    }
    if flavour == Flavour::CoreOs && a.bootstrap_kubeconfig.is_some() {
        return Err(usage(
            "--bootstrap-kubeconfig is for --for openshift: coreos configs get no appended files",
        ));
    }
    if flavour == Flavour::OpenShift
        && let Some(v) = a.spec_version
        && v.minor != SpecVersion::MAX_MINOR
    {
        return Err(usage(format!(
            "--spec-version {v}: the openshift flavour keeps the MCO's internal spec 3.5.0, and serve answers each client at its own spec as the MCS does; --spec-version chooses the spec of --for coreos"
        )));
    }
    if a.from_cluster.is_some() {
        if flavour == Flavour::CoreOs {
            return Err(usage(
                "--from-cluster serves what the in-cluster MCS serves, which is --for openshift",
            ));
        }
        if a.bootstrap_kubeconfig.is_some() {
            return Err(usage(
                "--from-cluster builds the bootstrap kubeconfig from the snapshot's node-bootstrapper token, as the MCS does; leave out --bootstrap-kubeconfig",
            ));
        }
    }
    Ok(())
}
