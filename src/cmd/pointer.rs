//! `mcsctl pointer`: one pointer config.

use anyhow::{Result, bail};
use base64::Engine;
use serde::Serialize;

use crate::assets::{AssetDir, Overwrite, PUBLIC_MODE, SECRET_MODE, layout, write_atomic};
use crate::cli::PointerArgs;
use crate::exit::{self, usage};
use crate::ignition::pointer::{self, PointerSpec, Transport};
use crate::ui::Ui;

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct PointerReport {
    path: String,
    pool: String,
    source: String,
    spec_version: String,
    token_transport: &'static str,
    token_id: Option<String>,
    mode: &'static str,
    base64: bool,
}

/// Runs `pointer`.
pub fn run(ui: &Ui, dir: &AssetDir, args: &PointerArgs) -> Result<u8> {
    // Held from reading mcsctl.json and the token to writing the file, so a concurrent
    // `token rotate` cannot leave this pointer with the old token, nor another `pointer`
    // lose this pool from mcsctl.json.
    let lock = super::lock(ui, dir)?;
    // Without mcsctl.json (a directory made with `ca import` and `cert issue`), --url says
    // where the MCS is.
    dir.require()?;
    let mut cfg = crate::state::config::load(dir)?;
    if cfg.is_none() && args.url.is_none() {
        return Err(usage(format!(
            "{} has no mcsctl.json to take the MCS address from; pass --url https://HOST:22623/config/{} (or run `mcsctl init`)",
            dir.root().display(),
            args.pool
        )));
    }
    let version = match (&args.spec_version, &cfg) {
        (Some(v), _) => *v,
        (None, Some(c)) => c.spec_version,
        (None, None) => crate::ignition::SpecVersion::DEFAULT,
    };
    let transport = match (args.token_transport, &cfg) {
        (Some(t), _) => t,
        (None, Some(c)) => c.token_transport,
        (None, None) if dir.exists(layout::TOKENS) => Transport::Header,
        (None, None) => Transport::None,
    };
    if transport == Transport::Header && !version.has_http_headers() {
        return Err(usage(
            "Ignition spec 3.0.0 has no httpHeaders: use --token-transport query or --spec-version 3.1.0 or later",
        ));
    }
    let url = match (&args.url, &cfg) {
        (Some(u), _) => u.for_pool(&args.pool),
        (None, Some(c)) => c.default_url(&args.pool),
        (None, None) => return Err(usage("--url is required without mcsctl.json")),
    };
    let from = |flag: bool, cfg_has: bool| match (flag, cfg_has) {
        (true, _) => "from the flag",
        (false, true) => "from mcsctl.json",
        (false, false) => "default",
    };
    ui.detail(format!(
        "spec {version} ({}); token {} ({}); merge URL {url} ({})",
        from(args.spec_version.is_some(), cfg.is_some()),
        transport.name(),
        from(args.token_transport.is_some(), cfg.is_some()),
        match (&args.url, &cfg) {
            (Some(_), _) => "from --url",
            (None, Some(c)) if c.urls.contains_key(&args.pool) => "the pool's URL in mcsctl.json",
            (None, Some(c)) if c.url.is_some() => "init --url in mcsctl.json",
            _ => "api-int of the cluster",
        }
    ));
    if url.starts_with("http://") {
        ui.warn("the merge URL is plain http: Ignition will not check the CA and the token travels in clear text");
    }
    let bundle = dir.read(layout::CA_BUNDLE)?;
    let mut store = if transport == Transport::None {
        None
    } else {
        crate::state::read_tokens(dir)?
    };
    // The pool's current token; a pool without one gets its own, scoped to it alone.
    let mut created = None;
    let token = match (transport, &mut store) {
        (Transport::None, _) => None,
        (_, Some(s)) => match s.current_for(&args.pool, ui.now) {
            Some(t) => Some(t.clone()),
            None => {
                let (id, _) = s.create(
                    ui.now,
                    None,
                    Some(format!("{} pool, created by mcsctl pointer", args.pool)),
                    vec![args.pool.clone()],
                )?;
                created = Some(id.clone());
                s.tokens.iter().find(|t| t.id == id).cloned()
            }
        },
        (_, None) => bail!(
            "{} does not exist; run `mcsctl token create` or pass --token-transport none",
            dir.path(layout::TOKENS).display()
        ),
    };
    let token = token.as_ref();
    let bearer = token.map(|t| t.bearer());
    let mut bytes = pointer::build(&PointerSpec {
        version,
        url: &url,
        ca_bundle_pem: &bundle,
        token: bearer.as_deref(),
        transport,
    })?;
    if args.base64 {
        bytes = base64::engine::general_purpose::STANDARD
            .encode(&bytes)
            .into_bytes();
        bytes.push(b'\n');
    }
    let secret = bearer.is_some();
    let mode = if secret { SECRET_MODE } else { PUBLIC_MODE };
    let overwrite = if args.force {
        Overwrite::Allow
    } else {
        Overwrite::Never
    };
    // A token made here is saved before the pointer config carrying it leaves the command.
    let save_created = |lock: &crate::assets::DirLock| -> Result<()> {
        if let (Some(_), Some(s)) = (&created, &store) {
            let mut change = dir.change("pointer");
            crate::state::tokens::stage(&mut change, s)?;
            change.commit(lock)?;
        }
        Ok(())
    };
    let path = match args.output.as_deref() {
        Some(p) if p.as_os_str() == "-" => {
            save_created(&lock)?;
            ui.out(String::from_utf8_lossy(&bytes))?;
            return Ok(exit::OK);
        }
        Some(p) => {
            if p.exists() && !args.force {
                bail!("{} exists; pass --force to replace it", p.display());
            }
            save_created(&lock)?;
            write_atomic(p, &bytes, mode, overwrite)?;
            p.to_path_buf()
        }
        None => {
            let rel = layout::pointer(&args.pool);
            let mut change = dir.change("pointer");
            if let (Some(_), Some(s)) = (&created, &store) {
                crate::state::tokens::stage(&mut change, s)?;
            }
            change.write(&rel, &bytes, mode, overwrite);
            if let Some(cfg) = &mut cfg {
                let mut changed = false;
                if !cfg.pools.contains(&args.pool) {
                    cfg.pools.push(args.pool.clone());
                    changed = true;
                }
                // The pool's own URL is remembered, so `pointer --force` and every rewrite
                // keep it.
                if args.url.is_some() && cfg.default_url(&args.pool) != url {
                    cfg.urls.insert(args.pool.clone(), url.clone());
                    changed = true;
                }
                if changed {
                    cfg.stage(&mut change)?;
                }
            }
            change.commit(&lock)?;
            dir.path(&rel)
        }
    };
    if let Some(id) = &created {
        ui.info(format!(
            "created token {id} for pool {}: the pool had no token of its own (a running serve takes it at its next reload)",
            args.pool
        ));
    }
    let report = PointerReport {
        path: path.display().to_string(),
        pool: args.pool.clone(),
        source: url,
        spec_version: version.to_string(),
        token_transport: if secret { transport.name() } else { "none" },
        token_id: token.map(|t| t.id.clone()),
        mode: if secret { "0600" } else { "0644" },
        base64: args.base64,
    };
    if ui.json() {
        ui.out_json(&report)?;
    } else {
        let tok = match &report.token_id {
            Some(id) => format!("token {id} in {}", report.token_transport),
            None => "no token".into(),
        };
        ui.out(format!(
            "Wrote {} ({}, spec {}, {tok}, mode {})\n  merge source: {}\n",
            report.path,
            if args.base64 { "base64" } else { "json" },
            report.spec_version,
            report.mode,
            report.source
        ))?;
    }
    Ok(exit::OK)
}
