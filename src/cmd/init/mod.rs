//! `mcsctl init`: the whole asset directory in one step.

mod ask;
mod replace;

use anyhow::{Result, bail};
use time::OffsetDateTime;

use crate::assets::AssetDir;
use crate::cli::values;
use crate::exit::{self, usage};
use crate::ignition::pointer::Transport;
use crate::model::ClusterConfig;
use crate::ops::{
    self,
    init::{AdoptedCa, InitInputs},
};
use crate::ui::Ui;
use clap::Args;
use std::path::PathBuf;

use crate::cli::{DirArg, FormatArg};
use crate::duration::Duration;
use crate::ignition::SpecVersion;
use crate::ignition::render::Flavour;
use crate::names::{McsAddress, San};
use crate::pki::keys::KeyAlgorithm;

/// Arguments of `init`.
#[derive(Debug, Args)]
pub struct InitArgs {
    /// Cluster name (a DNS label), as in the install-config.
    #[arg(long, value_name = "NAME", value_parser = values::dns_label)]
    pub cluster_name: Option<String>,

    /// Base domain (a DNS name); the MCS is reached at api-int.<cluster>.<base-domain>.
    #[arg(long, value_name = "DOMAIN", value_parser = values::dns_name)]
    pub base_domain: Option<String>,

    /// Where machines reach the MCS, if not at api-int (a load balancer): HOST, HOST:PORT or
    /// https://HOST:PORT; its host becomes a SAN.
    #[arg(long, value_name = "URL", value_parser = values::mcs_address)]
    pub url: Option<McsAddress>,

    /// Extra subject alternative name of the serving certificate (DNS name or IP); repeatable.
    #[arg(long = "san", value_name = "SAN", value_parser = values::san)]
    pub sans: Vec<San>,

    /// Machine pool to write a pointer config for; repeatable (default: worker and master).
    #[arg(long = "pool", value_name = "POOL", value_parser = values::dns_label)]
    pub pools: Vec<String>,

    /// Adopt this CA instead of creating one (openshift-install's tls/root-ca.crt; PEM or DER).
    #[arg(long, value_name = "FILE", requires = "ca_key")]
    pub ca_cert: Option<PathBuf>,

    /// The adopted CA's private key (PEM or DER; PKCS#1, PKCS#8 or SEC1).
    #[arg(long, value_name = "FILE", requires = "ca_cert")]
    pub ca_key: Option<PathBuf>,

    /// Key algorithm of the CA and serving keys (default ecdsa-p256).
    #[arg(long, value_enum, value_name = "ALGORITHM")]
    pub key_algorithm: Option<KeyAlgorithm>,

    /// Validity of the CA (e.g. 10y, 365d).
    #[arg(long, default_value = "10y", value_name = "DUR", value_parser = values::duration)]
    pub ca_validity: Duration,

    /// Validity of the serving certificate; never beyond the CA's.
    #[arg(long, default_value = "10y", value_name = "DUR", value_parser = values::duration)]
    pub cert_validity: Duration,

    /// Do not create a provisioning token; pointer configs carry no credential.
    #[arg(long)]
    pub no_token: bool,

    /// How pointer configs carry the token: header or query.
    #[arg(long, value_name = "TRANSPORT", default_value = "header", value_parser = values::init_transport)]
    pub token_transport: Transport,

    /// Ignition spec version of the pointer configs (3.0.0 to 3.4.0).
    #[arg(long, default_value = "3.2.0", value_name = "V", value_parser = values::pointer_spec)]
    pub spec_version: SpecVersion,

    /// What `render` renders for: OpenShift nodes (the MCS payload) or plain CoreOS.
    #[arg(long = "for", value_enum, default_value_t = Flavour::OpenShift, value_name = "FLAVOUR")]
    pub flavour: Flavour,

    /// Replace an existing, non-empty asset directory: the keys, tokens and pointer configs it
    /// replaces are kept under backup/<time>/ (and listed), pointer configs of pools no longer
    /// listed are removed; tls/retired/ is left as it is.
    #[arg(long)]
    pub force: bool,

    /// With --force: replace the CA key without asking (needed without a terminal; every
    /// pointer config made from the old CA stops working).
    #[arg(long, short = 'y')]
    pub yes: bool,

    /// `--dir` after the command.
    #[command(flatten)]
    pub dir: DirArg,

    /// `--format` after the command.
    #[command(flatten)]
    pub out: FormatArg,
}

/// Runs `init`.
pub fn run(ui: &Ui, dir: &AssetDir, args: &InitArgs, now: OffsetDateTime) -> Result<u8> {
    // What can be refused from the flags alone is refused before any question is asked.
    dir.refuse_non_directory()?;
    refuse_filled(ui, dir, args.force)?;
    let transport = transport(args)?;
    let plan = ask::plan(ui, args)?;
    ui.detail(format!(
        "pools {}; key algorithm {}; {}",
        plan.pools.join(", "),
        plan.alg.name(),
        if args.ca_cert.is_some() {
            "adopting the given CA"
        } else {
            "creating a CA"
        }
    ));
    if args.force {
        replace::confirm(ui, dir, args.yes)?;
    }
    let inputs = inputs(args, plan, transport)?;
    let cfg = inputs.config.clone();
    let keygen = super::keygen(ui);
    let out = dir.creating(|| {
        let lock = super::lock(ui, dir)?;
        // Checked again under the lock: another init may have filled the directory meanwhile.
        refuse_filled(ui, dir, args.force)?;
        let out = ops::init::init(dir, inputs, &keygen, now)?;
        super::commit(ui, &lock, out).map(|(_, out)| out)
    });
    let out = out?;
    super::print_notes(ui, &out.notes);
    let r = &out.report;
    if ui.structured() {
        ui.out_json(r)?;
    } else {
        super::print_written(
            ui,
            &format!(
                "Wrote {} for cluster {}.{}:",
                r.dir, r.cluster_name, r.base_domain
            ),
            &r.files,
        )?;
    }
    next_steps(ui, dir, &cfg, &cfg.pools, transport);
    Ok(exit::OK)
}

/// Refuses a directory that holds something, unless --force. What an interrupted command
/// left is nothing: a change it committed is completed first (then the directory holds it),
/// files it staged before its commit point do not count (the lock removes them).
fn refuse_filled(ui: &Ui, dir: &AssetDir, force: bool) -> Result<()> {
    if let Some(c) = dir
        .root()
        .is_dir()
        .then(|| dir.settle())
        .transpose()?
        .flatten()
    {
        ui.warn(format!(
            "completed an interrupted `{c}` in {}",
            dir.root().display()
        ));
    }
    if !force && !dir.is_empty()? {
        bail!(
            "{} is not empty; --force overwrites the assets in it (what it replaces is kept under backup/), and a new CA means every pointer config made from the old one stops working: `mcsctl ca rotate` replaces a CA without breaking machines",
            dir.root().display()
        );
    }
    Ok(())
}

/// The pointer configs' token transport: none with --no-token; headers need spec 3.1.0.
fn transport(args: &InitArgs) -> Result<Transport> {
    match (args.no_token, args.token_transport) {
        (true, _) => Ok(Transport::None),
        (false, Transport::Header) if !args.spec_version.has_http_headers() => Err(usage(
            "Ignition spec 3.0.0 has no httpHeaders: use --token-transport query, --no-token, or --spec-version 3.1.0 or later",
        )),
        (false, t) => Ok(t),
    }
}

/// The workflow's inputs: mcsctl.json as it will be, and the CA files to adopt, read.
fn inputs(args: &InitArgs, plan: ask::Plan, transport: Transport) -> Result<InitInputs> {
    let ask::Plan {
        cluster_name,
        base_domain,
        url,
        sans,
        pools,
        alg,
    } = plan;
    let adopt = match (&args.ca_cert, &args.ca_key) {
        (Some(c), Some(k)) => Some(AdoptedCa {
            cert: (crate::assets::read_file(c)?, c.display().to_string()),
            key: (crate::assets::read_file(k)?, k.display().to_string()),
        }),
        _ => None,
    };
    Ok(InitInputs {
        config: ClusterConfig {
            format_version: ClusterConfig::FORMAT_VERSION,
            cluster_name,
            base_domain,
            pools,
            spec_version: args.spec_version,
            token_transport: transport,
            key_algorithm: alg,
            flavour: args.flavour,
            serve_auth: None,
            proxy_protocol_from: Vec::new(),
            url: url.as_ref().map(|a| a.url.clone()),
            urls: Default::default(),
            store: None,
            report_pools: Vec::new(),
        },
        sans,
        url_host: url.map(|a| a.host),
        adopt,
        ca_validity: args.ca_validity.to_time(),
        cert_validity: args.cert_validity.to_time(),
        no_token: args.no_token,
        force: args.force,
    })
}

fn next_steps(
    ui: &Ui,
    dir: &AssetDir,
    cfg: &ClusterConfig,
    pools: &[String],
    transport: Transport,
) {
    let d = dir.root().display();
    let ptrs: Vec<String> = pools.iter().map(|p| format!("{d}/{p}.ign")).collect();
    let secret_note = if transport == Transport::None {
        "they hold no credential".to_string()
    } else {
        "they hold a bearer token: keep them as private as a password".to_string()
    };
    let render = match cfg.flavour {
        crate::ignition::render::Flavour::OpenShift => format!(
            "`mcsctl render --dir {d} --machine-configs <dir of MachineConfigs> --bootstrap-kubeconfig <kubeconfig>`"
        ),
        crate::ignition::render::Flavour::CoreOs => {
            format!("`mcsctl render --dir {d} --machine-configs <dir of MachineConfigs>`")
        }
    };
    let mcs = cfg
        .url
        .clone()
        .unwrap_or_else(|| format!("https://{}:22623", cfg.api_int_host()));
    ui.info(format!(
        "\nNext steps:\n  1. Render the full configs: {render}\n     writes {d}/rendered/<pool>.ign (and the pre-approval subset).\n  2. Serve them: `mcsctl serve --dir {d}` where {mcs} reaches it.\n  3. Check the chain before booting anything: `mcsctl inspect --dir {d}`, then from the\n     machines' network `mcsctl doctor --dir {d}` does what Ignition will do.\n  4. Give each machine its pointer config ({}) as its Ignition config;\n     {secret_note}.\n  5. {d}/tls/mcs-ca.key signs new serving certificates: after the install, move it\n     offline and bring it back for `mcsctl cert renew`.",
        ptrs.join(", "),
    ));
}
