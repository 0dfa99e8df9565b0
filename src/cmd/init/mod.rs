//! `mcsctl init`: the whole asset directory in one step.

mod ask;
mod replace;

use anyhow::{Result, bail};
use serde::Serialize;

use super::{Written, generate_key};
use crate::assets::{AssetDir, Overwrite, PUBLIC_MODE, SECRET_MODE, layout};
use crate::cli::InitArgs;
use crate::exit::{self, usage};
use crate::ignition::pointer::Transport;
use crate::names::San;
use crate::pki::issue::{create_ca, issue_serving};
use crate::state::ClusterConfig;
use crate::state::pointers;
use crate::state::serving::NewCa;
use crate::token::TokenStore;
use crate::ui::Ui;

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct InitReport<'a> {
    dir: String,
    cluster_name: &'a str,
    base_domain: &'a str,
    pools: &'a [String],
    /// Each pool's token id.
    tokens: std::collections::BTreeMap<String, String>,
    files: &'a [Written],
}

/// Runs `init`.
pub fn run(ui: &Ui, dir: &AssetDir, args: &InitArgs) -> Result<u8> {
    // What can be refused from the flags alone is refused before any question is asked.
    if let Ok(m) = std::fs::metadata(dir.root())
        && !m.is_dir()
    {
        bail!(
            "{} exists and is not a directory; choose another --dir",
            dir.root().display()
        );
    }
    if !args.force && !dir.is_empty()? {
        bail!(
            "{} is not empty; use --force to overwrite the assets in it",
            dir.root().display()
        );
    }
    let version = args.spec_version;
    let transport = match (args.no_token, args.token_transport) {
        (true, _) => Transport::None,
        (false, Transport::Header) if !version.has_http_headers() => {
            return Err(usage(
                "Ignition spec 3.0.0 has no httpHeaders: use --token-transport query, --no-token, or --spec-version 3.1.0 or later",
            ));
        }
        (false, t) => t,
    };
    let plan = ask::plan(ui, args)?;
    let ask::Plan {
        cluster_name,
        base_domain,
        url,
        sans,
        pools,
        alg,
    } = plan;
    ui.detail(format!(
        "pools {}; key algorithm {}; {}",
        pools.join(", "),
        alg.name(),
        if args.ca_cert.is_some() {
            "adopting the given CA"
        } else {
            "creating a CA"
        }
    ));
    let ca_validity = args.ca_validity.to_time();
    let cert_validity = args.cert_validity.to_time();

    if args.force {
        replace::confirm(ui, dir, args.yes)?;
    }

    // Everything is generated in memory first: a failure here leaves the disk untouched.
    let cfg = ClusterConfig {
        format_version: ClusterConfig::FORMAT_VERSION,
        cluster_name: cluster_name.clone(),
        base_domain: base_domain.clone(),
        pools: pools.clone(),
        spec_version: version,
        token_transport: transport,
        key_algorithm: alg,
        flavour: args.flavour,
        serve_auth: None,
        proxy_protocol_from: Vec::new(),
        url: url.as_ref().map(|a| a.url.clone()),
        urls: Default::default(),
    };
    let t = ui.now;
    // An adopted CA (openshift-install's) is used as it is: no throwaway CA is ever made.
    let (ca, ca_issued) = match (&args.ca_cert, &args.ca_key) {
        (Some(c), Some(k)) => {
            let (cn, kn) = (c.display().to_string(), k.display().to_string());
            let new = NewCa::from_files(
                &crate::assets::read_file(c)?,
                &cn,
                &crate::assets::read_file(k)?,
                &kn,
            )?;
            new.adopt(&cn, &kn, t.unix_timestamp())?
        }
        _ => create_ca(generate_key(ui, alg, "CA")?, ca_validity, t)?,
    };
    let serving_key = generate_key(ui, alg, "serving")?;
    let mut all_sans = vec![San::Dns(cfg.api_int_host())];
    if let Some(a) = &url
        && !all_sans.contains(&a.host)
    {
        all_sans.push(a.host.clone());
    }
    for s in sans {
        if !all_sans.contains(&s) {
            all_sans.push(s);
        }
    }
    let serving = issue_serving(&ca, &serving_key, &all_sans, cert_validity, t)?;
    // One token per pool, scoped to it: a pointer config fetches its own pool only.
    let store = if args.no_token {
        None
    } else {
        let mut s = TokenStore::new();
        for p in &pools {
            s.create(
                t,
                None,
                Some(format!("{p} pool, created by mcsctl init")),
                vec![p.clone()],
            )?;
        }
        Some(s)
    };
    let bundle = ca_issued.cert_pem.as_bytes();
    let pointers = pools
        .iter()
        .map(|p| {
            let token = store.as_ref().and_then(|s| s.current_for(p, t));
            pointers::fresh(dir, &cfg, p, bundle, token, transport)
        })
        .collect::<Result<Vec<_>>>()?;

    dir.create()?;
    let lock = super::lock(ui, dir)?;
    // Re-check under the lock: another init may have filled the directory meanwhile.
    if !args.force && !dir.is_empty()? {
        bail!(
            "{} is not empty; use --force to overwrite the assets in it",
            dir.root().display()
        );
    }
    let ow = if args.force {
        Overwrite::Allow
    } else {
        Overwrite::Never
    };
    let mut files = Vec::new();
    let mut change = dir.change("init");
    let replaced = if args.force && !dir.is_empty()? {
        let stamp = t
            .format(time::macros::format_description!(
                "[year][month][day]T[hour][minute][second]Z"
            ))
            .unwrap_or_default();
        replace::stage(dir, &mut change, &stamp, &pools)?
    } else {
        Vec::new()
    };
    change.write(
        layout::CA_KEY,
        ca_issued.key_pem.as_bytes(),
        SECRET_MODE,
        ow,
    );
    change.write(
        layout::CA_CERT,
        ca_issued.cert_pem.as_bytes(),
        PUBLIC_MODE,
        ow,
    );
    change.write(layout::CA_BUNDLE, bundle, PUBLIC_MODE, ow);
    let serving_files = crate::state::serving::stage(&mut change, &serving);
    files.push(Written::file(
        layout::CONFIG,
        false,
        "cluster",
        Some(format!("{cluster_name}.{base_domain}")),
    ));
    files.push(Written::cert(
        layout::CA_CERT,
        "ca",
        &ca_issued.info,
        ca_issued.info.key.clone(),
    ));
    files.push(Written::file(
        layout::CA_KEY,
        true,
        "ca-key",
        Some("keep offline after install".into()),
    ));
    files.push(Written::file(
        layout::CA_BUNDLE,
        false,
        "ca-bundle",
        Some("1 CA".into()),
    ));
    files.extend(serving_files);
    if let Some(s) = &store {
        change.write(layout::TOKENS, &s.to_bytes()?, SECRET_MODE, ow);
        files.push(Written::file(
            layout::TOKENS,
            true,
            "tokens",
            Some(
                pools
                    .iter()
                    .filter_map(|p| s.current_for(p, t).map(|k| format!("{p} {}", k.id)))
                    .collect::<Vec<_>>()
                    .join(", "),
            ),
        ));
    }
    pointers::stage(&mut change, &pointers, ow);
    for p in &pointers {
        files.push(Written::file(
            &p.rel,
            p.has_token,
            "pointer",
            Some(format!("{} {}", version, p.url)),
        ));
    }
    cfg.stage(&mut change)?;
    change.commit(&lock)?;
    files.extend(replaced);

    // Each pool's token id.
    let tokens: std::collections::BTreeMap<String, String> = pools
        .iter()
        .filter_map(|p| {
            store
                .as_ref()
                .and_then(|s| s.current_for(p, t))
                .map(|k| (p.clone(), k.id.clone()))
        })
        .collect();
    super::print_notes(
        ui,
        &crate::state::report::short_lived(&files, t.unix_timestamp()),
    );
    if ui.json() {
        ui.out_json(&InitReport {
            dir: dir.root().display().to_string(),
            cluster_name: &cluster_name,
            base_domain: &base_domain,
            pools: &pools,
            tokens,
            files: &files,
        })?;
    } else {
        super::print_written(
            ui,
            &format!(
                "Wrote {} for cluster {cluster_name}.{base_domain}:",
                dir.root().display()
            ),
            &files,
        )?;
    }
    next_steps(ui, dir, &cfg, &pools, transport);
    Ok(exit::OK)
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
