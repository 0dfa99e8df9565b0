//! `mcsctl cert issue` and `mcsctl cert renew`.

use anyhow::{Result, bail};
use serde::Serialize;

use super::steps::{reissue, stage_serving};
use super::{Written, generate_key, load_ca, lock, print_written};
use crate::assets::{AssetDir, ClusterConfig, DirLock, layout};
use crate::cli::{CertIssueArgs, CertRenewArgs};
use crate::exit::{self, usage};
use crate::names::San;
use crate::pki::cert::parse_pem_certs;
use crate::pki::issue::{Issued, issue_serving};
use crate::pki::keys::KeyAlgorithm;
use crate::ui::Ui;

#[derive(Serialize)]
struct CertReport<'a> {
    files: &'a [Written],
}

/// Runs `cert issue`.
pub fn issue(ui: &Ui, dir: &AssetDir, args: &CertIssueArgs) -> Result<u8> {
    let validity = args.validity.to_time();
    let extra = args.sans.clone();
    // Without mcsctl.json (a directory made step by step with `ca create`) there is no cluster
    // name to derive api-int.<cluster>.<domain> from: the SANs must be given.
    let cfg = if dir.exists(layout::CONFIG) {
        Some(dir.config()?)
    } else {
        None
    };
    if cfg.is_none() && extra.is_empty() {
        return Err(usage(format!(
            "{} has no mcsctl.json to take the cluster's api-int name from; pass --san HOST (or run `mcsctl init`)",
            dir.root().display()
        )));
    }
    let alg = match (args.key_algorithm, &cfg) {
        (Some(a), _) => a,
        (None, Some(c)) => c.key_algorithm.parse()?,
        (None, None) => KeyAlgorithm::EcdsaP256,
    };
    let lock = lock(ui, dir)?;
    if !args.force && (dir.exists(layout::SERVING_CERT) || dir.exists(layout::SERVING_KEY)) {
        bail!(
            "{} exists; use --force to replace it, or `mcsctl cert renew` to keep its SANs",
            dir.path(layout::SERVING_CERT).display()
        );
    }
    let ca = load_ca(dir)?;
    let sans = must_cover(dir, cfg.as_ref(), args.replace_sans, extra)?;
    ui.detail(format!(
        "names {} (api-int and the URLs from mcsctl.json, {}then --san); key {} ({})",
        sans.iter()
            .map(San::to_string)
            .collect::<Vec<_>>()
            .join(", "),
        if args.replace_sans {
            ""
        } else {
            "the current certificate's, "
        },
        alg.name(),
        if args.key_algorithm.is_some() {
            "from --key-algorithm"
        } else {
            "from mcsctl.json"
        }
    ));
    let key = generate_key(ui, alg, "serving")?;
    let issued = issue_serving(&ca, &key, &sans, validity, ui.now)?;
    write(
        ui,
        dir,
        &lock,
        "cert issue",
        &issued,
        "Issued the serving certificate:",
    )
}

/// The names a new serving certificate must cover, in order and once each: api-int and the
/// hosts of every URL recorded for the pointer configs first and always (machines reach the
/// server by them), then the current certificate's names unless `replace_sans` (a reissue
/// must not drop what pointers or balancers use), then `extra` (--san).
fn must_cover(
    dir: &AssetDir,
    cfg: Option<&ClusterConfig>,
    replace_sans: bool,
    extra: Vec<San>,
) -> Result<Vec<San>> {
    let mut wanted: Vec<San> = Vec::new();
    if let Some(c) = cfg {
        wanted.push(San::Dns(c.api_int_host()));
        for u in c.url.iter().chain(c.urls.values()) {
            if let Some(url) = crate::http::HttpUrl::parse(u)
                && let Ok(san) = San::parse(url.host())
            {
                wanted.push(san);
            }
        }
    }
    if !replace_sans && dir.exists(layout::SERVING_CERT) {
        let name = dir.path(layout::SERVING_CERT).display().to_string();
        let current = dir
            .read(layout::SERVING_CERT)
            .and_then(|b| parse_pem_certs(&b, &name))
            .map_err(|e| {
                anyhow::anyhow!(
                    "cannot read the names of the current serving certificate ({e:#}); pass --replace-sans to issue with api-int, the recorded URLs and --san only"
                )
            })?;
        wanted.extend(
            current
                .into_iter()
                .next()
                .map(|c| c.san_entries)
                .unwrap_or_default(),
        );
    }
    wanted.extend(extra);
    let mut sans = Vec::with_capacity(wanted.len());
    for s in wanted {
        if !sans.contains(&s) {
            sans.push(s);
        }
    }
    Ok(sans)
}

/// Runs `cert renew`: same CA, same SANs, new key.
pub fn renew(ui: &Ui, dir: &AssetDir, args: &CertRenewArgs) -> Result<u8> {
    let validity = args.validity.to_time();
    let lock = lock(ui, dir)?;
    let ca = load_ca(dir)?;
    let issued = reissue(ui, dir, &ca, validity, args.key_algorithm)?;
    write(
        ui,
        dir,
        &lock,
        "cert renew",
        &issued,
        "Renewed the serving certificate:",
    )
}

pub(crate) fn write(
    ui: &Ui,
    dir: &AssetDir,
    lock: &DirLock,
    command: &str,
    issued: &Issued,
    heading: &str,
) -> Result<u8> {
    let mut change = dir.change(command);
    let files = stage_serving(&mut change, issued);
    change.commit(lock)?;
    super::warn_short_lived(ui, &files);
    if ui.json() {
        ui.out_json(&CertReport { files: &files })?;
    } else {
        print_written(ui, heading, &files)?;
    }
    Ok(exit::OK)
}
