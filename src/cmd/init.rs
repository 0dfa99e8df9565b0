//! `mcsctl init`: the whole asset directory in one step.

use anyhow::{Result, bail};
use serde::Serialize;

use super::{Written, duration_flag, fresh_pointer, generate_key, key_algorithm, now, spec_flag};
use crate::assets::{AssetDir, ClusterConfig, Overwrite, PUBLIC_MODE, SECRET_MODE, layout};
use crate::cli::{InitArgs, InitTransport};
use crate::exit::{self, usage};
use crate::ignition::pointer::Transport;
use crate::names::{San, is_dns_label, is_dns_name};
use crate::pki::issue::{create_ca, issue_serving};
use crate::token::TokenStore;
use crate::ui::Ui;

/// The default pools of an OpenShift cluster.
const DEFAULT_POOLS: [&str; 2] = ["worker", "master"];

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct InitReport<'a> {
    dir: String,
    cluster_name: &'a str,
    base_domain: &'a str,
    pools: &'a [String],
    token_id: Option<String>,
    files: &'a [Written],
}

/// Runs `init`.
pub fn run(ui: &Ui, dir: &AssetDir, args: &InitArgs) -> Result<u8> {
    let (cluster_name, base_domain) = names(ui, args)?;
    let mut sans = Vec::new();
    for s in &args.sans {
        sans.push(San::parse(s).map_err(|e| usage(format!("--san: {e}")))?);
    }
    let mut pools: Vec<String> = Vec::new();
    let requested: Vec<&str> = if args.pools.is_empty() {
        DEFAULT_POOLS.to_vec()
    } else {
        args.pools.iter().map(String::as_str).collect()
    };
    for p in requested {
        if !is_dns_label(p) {
            return Err(usage(format!(
                "--pool {p:?}: a pool name must be a DNS label (lower-case letters, digits and '-')"
            )));
        }
        if !pools.iter().any(|x| x == p) {
            pools.push(p.to_string());
        }
    }
    let url = args.url.as_deref().map(super::mcs_address).transpose()?;
    let version = spec_flag(&args.spec_version)?;
    let transport = match (args.no_token, args.token_transport) {
        (true, _) => Transport::None,
        (false, InitTransport::Query) => Transport::Query,
        (false, InitTransport::Header) if !version.has_http_headers() => {
            return Err(usage(
                "Ignition spec 3.0.0 has no httpHeaders: use --token-transport query, --no-token, or --spec-version 3.1.0 or later",
            ));
        }
        (false, InitTransport::Header) => Transport::Header,
    };
    let ca_validity = duration_flag("ca-validity", &args.ca_validity)?;
    let cert_validity = duration_flag("cert-validity", &args.cert_validity)?;
    let alg = key_algorithm(args.key_algorithm);

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

    // Everything is generated in memory first: a failure here leaves the disk untouched.
    let cfg = ClusterConfig {
        format_version: ClusterConfig::FORMAT_VERSION,
        cluster_name: cluster_name.clone(),
        base_domain: base_domain.clone(),
        pools: pools.clone(),
        spec_version: version.to_string(),
        token_transport: transport.name().to_string(),
        key_algorithm: alg.name().to_string(),
        flavour: super::flavour(args.flavour),
        serve_auth: None,
        proxy_protocol_from: Vec::new(),
        url: url.as_ref().map(|(u, _)| u.clone()),
        urls: Default::default(),
    };
    let t = now();
    // An adopted CA (openshift-install's) is used as it is: no throwaway CA is ever made.
    let (ca, ca_issued) = match (&args.ca_cert, &args.ca_key) {
        (Some(c), Some(k)) => super::ca::adopt(c, k, t.unix_timestamp())?,
        _ => create_ca(generate_key(ui, alg, "CA")?, ca_validity, t)?,
    };
    let serving_key = generate_key(ui, alg, "serving")?;
    let mut all_sans = vec![San::Dns(cfg.api_int_host())];
    if let Some((_, host)) = &url
        && !all_sans.contains(host)
    {
        all_sans.push(host.clone());
    }
    for s in sans {
        if !all_sans.contains(&s) {
            all_sans.push(s);
        }
    }
    let serving = issue_serving(&ca, &serving_key, &all_sans, cert_validity, t)?;
    let store = if args.no_token {
        None
    } else {
        let mut s = TokenStore::new();
        s.create(t, None, Some("created by mcsctl init".into()))?;
        Some(s)
    };
    let token = store.as_ref().and_then(|s| s.current(t));
    let bundle = ca_issued.cert_pem.as_bytes();
    let pointers = pools
        .iter()
        .map(|p| fresh_pointer(dir, &cfg, p, bundle, token))
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
    change.write(
        layout::SERVING_KEY,
        serving.key_pem.as_bytes(),
        SECRET_MODE,
        ow,
    );
    change.write(
        layout::SERVING_CERT,
        serving.cert_pem.as_bytes(),
        PUBLIC_MODE,
        ow,
    );
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
    files.push(Written::cert(
        layout::SERVING_CERT,
        "serving",
        &serving.info,
        format!("{}; {}", serving.info.key, serving.info.sans().join(", ")),
    ));
    files.push(Written::file(
        layout::SERVING_KEY,
        true,
        "serving-key",
        None,
    ));
    if let Some(s) = &store {
        change.write(layout::TOKENS, &s.to_bytes()?, SECRET_MODE, ow);
        files.push(Written::file(
            layout::TOKENS,
            true,
            "tokens",
            token.map(|t| format!("current token {}", t.id)),
        ));
    }
    super::write_pointers(&mut change, &pointers, ow);
    for p in &pointers {
        files.push(Written::file(
            &p.rel,
            p.has_token,
            "pointer",
            Some(format!("{} {}", version, p.url)),
        ));
    }
    dir.save_config(&mut change, &cfg)?;
    change.commit(&lock)?;

    let token_id = token.map(|t| t.id.clone());
    if ui.json() {
        ui.out_json(&InitReport {
            dir: dir.root().display().to_string(),
            cluster_name: &cluster_name,
            base_domain: &base_domain,
            pools: &pools,
            token_id,
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

/// `--url`: `HOST`, `HOST:PORT` or `http(s)://HOST[:PORT]`, as `https://HOST:PORT` (port 22623
/// unless given), and the host as a SAN.
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
    ui.info(format!(
        "\nNext steps:\n  1. Give each machine its pointer config ({}) as its Ignition config;\n     {secret_note}.\n  2. Put full configs in {d}/rendered/<pool>.ign and run `mcsctl serve --dir {d}` where\n     https://{}:22623 reaches it (in a cluster instead: Secret\n     openshift-machine-config-operator/machine-config-server-tls holds tls/mcs.crt and key).\n  3. Check the chain before booting anything: `mcsctl inspect --dir {d}`, then from the\n     machines' network `mcsctl doctor --dir {d}` does what Ignition will do.\n  4. {d}/tls/mcs-ca.key signs new serving certificates: after the install, move it\n     offline and bring it back for `mcsctl cert renew`.",
        ptrs.join(", "),
        cfg.api_int_host(),
    ));
}

/// The cluster name and base domain: from flags, from prompts on a terminal, or a usage error
/// naming every missing flag.
fn names(ui: &Ui, args: &InitArgs) -> Result<(String, String)> {
    let mut missing = Vec::new();
    if args.cluster_name.is_none() {
        missing.push("--cluster-name");
    }
    if args.base_domain.is_none() {
        missing.push("--base-domain");
    }
    if !missing.is_empty() && !ui.interactive {
        return Err(usage(format!(
            "missing {} (not prompting: {})",
            missing.join(" and "),
            "stdin is not a terminal or --non-interactive was given"
        )));
    }
    let cluster = match &args.cluster_name {
        Some(c) => c.clone(),
        None => dialoguer::Input::<String>::new()
            .with_prompt("Cluster name")
            .validate_with(|s: &String| check_cluster(s))
            .interact_text()?,
    };
    check_cluster(&cluster).map_err(|e| usage(format!("--cluster-name: {e}")))?;
    let domain = match &args.base_domain {
        Some(d) => d.clone(),
        None => dialoguer::Input::<String>::new()
            .with_prompt("Base domain")
            .validate_with(|s: &String| check_domain(s))
            .interact_text()?,
    };
    check_domain(&domain).map_err(|e| usage(format!("--base-domain: {e}")))?;
    Ok((cluster, domain.to_ascii_lowercase()))
}

fn check_cluster(s: &str) -> Result<(), String> {
    if is_dns_label(s) {
        Ok(())
    } else {
        Err(format!(
            "{s:?} is not a DNS label: use 1 to 63 lower-case letters, digits and '-', not at either end"
        ))
    }
}

fn check_domain(s: &str) -> Result<(), String> {
    if is_dns_name(s) {
        Ok(())
    } else {
        Err(format!(
            "{s:?} is not a DNS name (labels of letters, digits and '-', separated by dots)"
        ))
    }
}
