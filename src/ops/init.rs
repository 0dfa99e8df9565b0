//! `init`: the whole asset directory in one change: `mcsctl.json`, the CA (new or adopted),
//! the serving pair, one token per pool and each pool's pointer config; with `--force`, the
//! backup of what it replaces ([`backup`](super::backup)).

use std::collections::BTreeMap;

use anyhow::Result;
use serde::Serialize;
use time::{Duration, OffsetDateTime};

use super::report::FileKind;
use super::serving::NewCa;
use super::{KeyGen, Outcome, Written, backup, report};
use crate::assets::{AssetDir, Change, Overwrite, PUBLIC_MODE, SECRET_MODE, layout};
use crate::model::ClusterConfig;
use crate::model::pointers::{self, PendingPointer};
use crate::names::San;
use crate::pki::issue::{Issued, create_ca, issue_serving};
use crate::token::TokenStore;

/// A CA `init --ca-cert --ca-key` adopts, as read from its files.
pub struct AdoptedCa {
    /// The certificate's bytes and its name for errors.
    pub cert: (Vec<u8>, String),
    /// The key's bytes and its name for errors.
    pub key: (Vec<u8>, String),
}

/// What `init` makes, decided from the flags and the interview.
pub struct InitInputs {
    /// `mcsctl.json` as it will be written.
    pub config: ClusterConfig,
    /// Extra names for the serving certificate (beyond api-int and the --url host).
    pub sans: Vec<San>,
    /// The host of `--url`, when given.
    pub url_host: Option<San>,
    /// The CA to adopt instead of creating one.
    pub adopt: Option<AdoptedCa>,
    /// Lifetime of a created CA.
    pub ca_validity: Duration,
    /// Lifetime of the serving certificate.
    pub cert_validity: Duration,
    /// No token store, tokenless pointer configs.
    pub no_token: bool,
    /// Replace what the directory holds (kept under `backup/`).
    pub force: bool,
}

/// What `init` wrote.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct InitReport {
    /// The asset directory.
    pub dir: String,
    /// The cluster's name.
    pub cluster_name: String,
    /// The cluster's base domain.
    pub base_domain: String,
    /// The pools, each with a pointer config.
    pub pools: Vec<String>,
    /// Each pool's token id.
    pub tokens: BTreeMap<String, String>,
    /// Every file written, backed up or removed.
    pub files: Vec<Written>,
}

/// Decides the whole directory. Everything is made in memory: nothing is on disk until the
/// change is committed. `dir` must be locked (the backup reads what it replaces).
pub fn init<'d>(
    dir: &'d AssetDir,
    inputs: InitInputs,
    keygen: KeyGen,
    now: OffsetDateTime,
) -> Result<Outcome<'d, InitReport>> {
    let cfg = &inputs.config;
    let ca = make_ca(&inputs, keygen, now)?;
    let serving_key = keygen(cfg.key_algorithm, "serving")?;
    let serving = issue_serving(
        &ca.0,
        &serving_key,
        &serving_names(&inputs),
        inputs.cert_validity,
        now,
    )?;
    let store = (!inputs.no_token)
        .then(|| pool_tokens(&cfg.pools, now))
        .transpose()?;
    let bundle = ca.1.cert_pem.as_bytes();
    let pointers = cfg
        .pools
        .iter()
        .map(|p| {
            let token = store.as_ref().and_then(|s| s.current_for(p, now));
            pointers::fresh(dir, cfg, p, bundle, token, cfg.token_transport)
        })
        .collect::<Result<Vec<_>>>()?;

    let mut change = dir.change("init");
    let replaced = if inputs.force && !dir.is_empty()? {
        backup::stage(dir, &mut change, &stamp(now), &cfg.pools)?
    } else {
        Vec::new()
    };
    let ow = Overwrite::when(inputs.force);
    let mut files = stage_pki(&mut change, &ca.1, &serving, ow, cfg);
    if let Some(s) = &store {
        change.write(layout::TOKENS, &s.to_bytes()?, SECRET_MODE, ow);
        files.push(tokens_row(s, &cfg.pools, now));
    }
    pointers::stage(&mut change, &pointers, ow);
    files.extend(pointer_rows(&pointers, cfg));
    cfg.stage(&mut change)?;
    files.extend(replaced);

    let notes = report::short_lived(&files, now.unix_timestamp());
    let tokens = cfg
        .pools
        .iter()
        .filter_map(|p| {
            let t = store.as_ref()?.current_for(p, now)?;
            Some((p.clone(), t.id.clone()))
        })
        .collect();
    Ok(Outcome {
        change: Some(change),
        report: InitReport {
            dir: dir.root().display().to_string(),
            cluster_name: cfg.cluster_name.clone(),
            base_domain: cfg.base_domain.clone(),
            pools: cfg.pools.clone(),
            tokens,
            files,
        },
        notes,
    })
}

/// The CA: the adopted one as it is (no throwaway CA is ever made), or a new one.
fn make_ca(
    inputs: &InitInputs,
    keygen: KeyGen,
    now: OffsetDateTime,
) -> Result<(crate::pki::issue::Ca, Issued)> {
    match &inputs.adopt {
        Some(AdoptedCa {
            cert: (c, cn),
            key: (k, kn),
        }) => NewCa::from_files(c, cn, k, kn)?.adopt(cn, kn, now.unix_timestamp()),
        None => create_ca(
            keygen(inputs.config.key_algorithm, "CA")?,
            inputs.ca_validity,
            now,
        ),
    }
}

/// The serving certificate's names: api-int first, then the --url host, then --san, once each.
fn serving_names(inputs: &InitInputs) -> Vec<San> {
    let mut all = vec![San::Dns(inputs.config.api_int_host())];
    for s in inputs.url_host.iter().chain(&inputs.sans) {
        if !all.contains(s) {
            all.push(s.clone());
        }
    }
    all
}

/// One token per pool, scoped to it: a pointer config fetches its own pool only.
fn pool_tokens(pools: &[String], now: OffsetDateTime) -> Result<TokenStore> {
    let mut s = TokenStore::new();
    for p in pools {
        s.create(
            now,
            None,
            Some(format!("{p} pool, created by mcsctl init")),
            vec![p.clone()],
        )?;
    }
    Ok(s)
}

/// Names a backup after the time, UTC: `20261121T192755Z`.
fn stamp(now: OffsetDateTime) -> String {
    now.format(time::macros::format_description!(
        "[year][month][day]T[hour][minute][second]Z"
    ))
    .unwrap_or_default()
}

/// Stages the CA, its bundle and the serving pair; returns their rows (mcsctl.json first).
fn stage_pki(
    change: &mut Change<'_>,
    ca: &Issued,
    serving: &Issued,
    ow: Overwrite,
    cfg: &ClusterConfig,
) -> Vec<Written> {
    change.write(layout::CA_KEY, ca.key_pem.as_bytes(), SECRET_MODE, ow);
    change.write(layout::CA_CERT, ca.cert_pem.as_bytes(), PUBLIC_MODE, ow);
    change.write(layout::CA_BUNDLE, ca.cert_pem.as_bytes(), PUBLIC_MODE, ow);
    let serving_files = super::serving::stage(change, serving);
    let mut files = vec![
        Written::file(
            layout::CONFIG,
            false,
            FileKind::Cluster,
            Some(format!("{}.{}", cfg.cluster_name, cfg.base_domain)),
        ),
        Written::cert(layout::CA_CERT, FileKind::Ca, &ca.info, ca.info.key.clone()),
        Written::file(
            layout::CA_KEY,
            true,
            FileKind::CaKey,
            Some("keep offline after install".into()),
        ),
        Written::file(
            layout::CA_BUNDLE,
            false,
            FileKind::CaBundle,
            Some("1 CA".into()),
        ),
    ];
    files.extend(serving_files);
    files
}

fn tokens_row(store: &TokenStore, pools: &[String], now: OffsetDateTime) -> Written {
    let ids = pools
        .iter()
        .filter_map(|p| store.current_for(p, now).map(|k| format!("{p} {}", k.id)))
        .collect::<Vec<_>>()
        .join(", ");
    Written::file(layout::TOKENS, true, FileKind::Tokens, Some(ids))
}

fn pointer_rows<'p>(
    pointers: &'p [PendingPointer],
    cfg: &'p ClusterConfig,
) -> impl Iterator<Item = Written> + 'p {
    pointers.iter().map(|p| {
        Written::file(
            &p.rel,
            p.has_token,
            FileKind::Pointer,
            Some(format!("{} {}", cfg.spec_version, p.url)),
        )
    })
}
