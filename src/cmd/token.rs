//! `mcsctl token create | rotate | list | revoke | prune`.

use anyhow::{Result, bail};
use serde::Serialize;

use super::{PendingPointer, load_tokens, lock, retoken_pointers, save_tokens, write_pointers};
use crate::assets::{AssetDir, Overwrite, layout};
use crate::cli::{TokenCommand, TokenCreateArgs};
use crate::exit;
use crate::ignition::SpecVersion;
use crate::ignition::pointer::Transport;
use crate::token::{Token, TokenStore, TokenSummary, is_token_id};
use crate::ui::{Ui, table};

/// Runs a token subcommand.
pub fn run(ui: &Ui, dir: &AssetDir, cmd: &TokenCommand) -> Result<u8> {
    match cmd {
        TokenCommand::Create(a) => create(ui, dir, a),
        TokenCommand::Rotate(a) => rotate(
            ui,
            dir,
            a.grace.to_time(),
            a.ttl.map(|d| d.to_time()),
            a.description.clone(),
        ),
        TokenCommand::List(_) => list(ui, dir),
        TokenCommand::Revoke(a) => revoke(ui, dir, &a.id),
        TokenCommand::Prune(a) => prune(ui, dir, a.dry_run),
    }
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ChangeReport {
    token: TokenSummary,
    /// `<id>.<secret>`: only `token create` prints it, as its output.
    bearer: String,
    rewritten: Vec<String>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct RotateReport {
    /// Each pool's new token and the one it replaces.
    tokens: Vec<PoolRotation>,
    rewritten: Vec<String>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct PoolRotation {
    pool: String,
    token: TokenSummary,
    previous: Option<TokenSummary>,
}

/// The pools of the directory: those of mcsctl.json, those with a pointer config, and those a
/// current token is scoped to, in name order.
fn pools_of(dir: &AssetDir, store: &TokenStore) -> Result<Vec<String>> {
    let mut pools: Vec<String> = dir.config().map(|c| c.pools).unwrap_or_default();
    for rel in dir.pointer_files()? {
        pools.push(super::pointer_pool(&rel).to_string());
    }
    for t in &store.tokens {
        if t.state == crate::token::State::Current
            && let Some(ps) = &t.pools
        {
            pools.extend(ps.iter().cloned());
        }
    }
    pools.retain(|p| crate::names::is_dns_label(p));
    pools.sort();
    pools.dedup();
    Ok(pools)
}

/// A token's lifetime, said when it is short enough to surprise: a token that lapses before
/// a machine can be booted with it.
fn short_life_warning(ui: &Ui, what: &str, ttl: Option<time::Duration>) {
    if let Some(ttl) = ttl
        && ttl < time::Duration::hours(1)
    {
        ui.warn(format!(
            "{what} expires in {}: machines booting after that get 401, and a pointer config carrying it goes stale",
            crate::duration::Duration(ttl.whole_seconds())
        ));
    }
}

fn create(ui: &Ui, dir: &AssetDir, a: &TokenCreateArgs) -> Result<u8> {
    let ttl = a.ttl.map(|d| d.to_time());
    let lock = lock(ui, dir)?;
    let mut store = load_tokens(dir)?.unwrap_or_else(TokenStore::new);
    let t = ui.now;
    let pools = if a.pools.is_empty() {
        match dir.config() {
            Ok(c) if !c.pools.is_empty() => c.pools,
            _ => vec!["worker".to_string()],
        }
    } else {
        let mut p = a.pools.clone();
        p.dedup();
        p
    };
    let (id, became_current) = store.create(t, ttl, a.description.clone(), pools.clone())?;
    let token = store
        .tokens
        .iter()
        .find(|x| x.id == id)
        .cloned()
        .expect("just created");
    // Built before anything is written: a directory that cannot make one changes nothing.
    let printed = if a.print_pointer {
        Some(pointer_for(dir, &pools[0], &token)?)
    } else {
        None
    };
    // The directory's first current token (after `init --no-token`, or every earlier one
    // expired): it goes into the pointer configs, which had none to replace.
    let pointers = if became_current {
        retoken_pointers(dir, &store, true, ui.now)?
    } else {
        Vec::new()
    };
    let mut change = dir.change("token create");
    save_tokens(&mut change, &store)?;
    write_pointers(&mut change, &pointers, Overwrite::Allow);
    change.commit(&lock)?;
    let summary = store
        .summaries(t)
        .into_iter()
        .find(|s| s.id == id)
        .expect("just created");
    short_life_warning(ui, &format!("token {id}"), ttl);
    let about = format!(
        "Created token {id} for pool(s) {} ({}{}).",
        pools.join(", "),
        summary.state,
        summary
            .expires
            .as_deref()
            .map(|e| format!(", expires {e}"))
            .unwrap_or_default()
    );
    if let Some(bytes) = printed {
        // The pointer config is the output, whatever --format says: it is JSON already.
        ui.out(String::from_utf8_lossy(&bytes))?;
        ui.info(format!(
            "{about} On stdout: a {} pointer config carrying it (0600 it, as a password).",
            pools[0]
        ));
        report_rewritten(ui, &pointers);
    } else if ui.json() {
        ui.out_json(&ChangeReport {
            token: summary,
            bearer: token.bearer(),
            rewritten: rels(&pointers),
        })?;
    } else {
        // Like `kubeadm token create`: the one place the whole token is printed, on request.
        ui.out(format!("{}\n", token.bearer()))?;
        ui.info(about);
        report_rewritten(ui, &pointers);
    }
    Ok(exit::OK)
}

/// The pointer config of `pool` carrying `token`, with the directory's CA bundle, URL and spec
/// version; the token in a header (a query for spec 3.0.0) even where the directory's own
/// pointer configs carry none.
fn pointer_for(dir: &AssetDir, pool: &str, token: &Token) -> Result<Vec<u8>> {
    let cfg = dir.config()?;
    let version = SpecVersion::parse(&cfg.spec_version)?;
    let transport = match Transport::parse(&cfg.token_transport)? {
        Transport::None if version.has_http_headers() => Transport::Header,
        Transport::None => Transport::Query,
        t => t,
    };
    let bundle = dir.read(layout::CA_BUNDLE)?;
    Ok(super::fresh_pointer(dir, &cfg, pool, &bundle, Some(token), transport)?.bytes)
}

fn rotate(
    ui: &Ui,
    dir: &AssetDir,
    grace: time::Duration,
    ttl: Option<time::Duration>,
    description: Option<String>,
) -> Result<u8> {
    let lock = lock(ui, dir)?;
    let mut store = load_tokens(dir)?.unwrap_or_else(TokenStore::new);
    let t = ui.now;
    let pools = pools_of(dir, &store)?;
    if pools.is_empty() {
        bail!(
            "{} has no pools (no mcsctl.json, no pointer config): nothing to rotate; `mcsctl token create --pool POOL` makes a token",
            dir.root().display()
        );
    }
    let rotated = store.rotate(t, grace, ttl, description, &pools)?;
    // Every pointer config is edited before anything is written: a bad one aborts the
    // rotation. Tokenless ones get a token only when there was no current token to replace.
    let first = rotated.iter().all(|r| r.previous.is_none());
    let pointers = retoken_pointers(dir, &store, first, ui.now)?;
    let mut change = dir.change("token rotate");
    save_tokens(&mut change, &store)?;
    write_pointers(&mut change, &pointers, Overwrite::Allow);
    change.commit(&lock)?;
    let summaries = store.summaries(t);
    let find = |id: &str| summaries.iter().find(|s| s.id == id).cloned();
    short_life_warning(ui, "the new current tokens", ttl);
    let report = RotateReport {
        tokens: rotated
            .iter()
            .map(|r| PoolRotation {
                pool: r.pool.clone(),
                token: find(&r.id).expect("just created"),
                previous: r.previous.as_deref().and_then(find),
            })
            .collect(),
        rewritten: rels(&pointers),
    };
    if ui.json() {
        ui.out_json(&report)?;
    } else {
        let mut out = String::new();
        for r in &report.tokens {
            out.push_str(&format!("{}: current token {}", r.pool, r.token.id));
            if let Some(p) = &r.previous {
                out.push_str(&format!(
                    " (replaces {}, valid until {})",
                    p.id,
                    p.expires.as_deref().unwrap_or("no expiry")
                ));
            }
            out.push('\n');
        }
        for r in &report.rewritten {
            out.push_str(&format!("rewrote: {r}\n"));
        }
        ui.out(out)?;
        if dir.pointer_files()?.is_empty() {
            ui.warn(format!(
                "no pointer config in {} to rewrite",
                dir.root().display()
            ));
        }
    }
    Ok(exit::OK)
}

fn list(ui: &Ui, dir: &AssetDir) -> Result<u8> {
    dir.require()?;
    let store = load_tokens(dir)?.unwrap_or_else(TokenStore::new);
    let summaries = store.summaries(ui.now);
    if ui.json() {
        ui.out_json(&serde_json::json!({ "tokens": summaries }))?;
    } else if summaries.is_empty() {
        ui.info(format!(
            "no tokens in {}",
            dir.path(layout::TOKENS).display()
        ));
    } else {
        let rows: Vec<Vec<String>> = summaries
            .iter()
            .map(|s| {
                vec![
                    s.id.clone(),
                    s.state.clone(),
                    s.pools
                        .as_ref()
                        .map(|p| p.join(","))
                        .unwrap_or_else(|| "*".into()),
                    s.created.clone(),
                    s.expires.clone().unwrap_or_else(|| "never".into()),
                    s.description.clone().unwrap_or_default(),
                ]
            })
            .collect();
        ui.out(table(
            &["ID", "STATE", "POOLS", "CREATED", "EXPIRES", "DESCRIPTION"],
            &rows,
        ))?;
    }
    Ok(exit::OK)
}

fn revoke(ui: &Ui, dir: &AssetDir, id: &str) -> Result<u8> {
    if !is_token_id(id) {
        // The argument may be a whole token pasted by mistake: never echo it.
        bail!("not a token id: ids are 6 characters of [a-z0-9] (see `mcsctl token list`)");
    }
    let lock = lock(ui, dir)?;
    let Some(mut store) = load_tokens(dir)? else {
        bail!(
            "{} does not exist: there is no token to revoke",
            dir.path(layout::TOKENS).display()
        );
    };
    store.revoke(id)?;
    let mut change = dir.change("token revoke");
    save_tokens(&mut change, &store)?;
    change.commit(&lock)?;
    let summary = store
        .summaries(ui.now)
        .into_iter()
        .find(|s| s.id == id)
        .expect("exists");
    if ui.json() {
        ui.out_json(&summary)?;
    } else {
        ui.out(format!("revoked token {id}\n"))?;
    }
    Ok(exit::OK)
}

fn prune(ui: &Ui, dir: &AssetDir, dry_run: bool) -> Result<u8> {
    let lock = lock(ui, dir)?;
    let Some(mut store) = load_tokens(dir)? else {
        bail!(
            "{} does not exist: there is no token to prune",
            dir.path(layout::TOKENS).display()
        );
    };
    let t = ui.now;
    let summaries = store.summaries(t);
    let removed = store.prune(t);
    if !dry_run && !removed.is_empty() {
        let mut change = dir.change("token prune");
        save_tokens(&mut change, &store)?;
        change.commit(&lock)?;
    }
    let gone: Vec<&TokenSummary> = summaries
        .iter()
        .filter(|s| removed.contains(&s.id))
        .collect();
    if ui.json() {
        ui.out_json(&serde_json::json!({
            "removed": gone,
            "kept": store.tokens.len(),
            "dryRun": dry_run,
        }))?;
    } else {
        let verb = if dry_run { "would remove" } else { "removed" };
        let mut out = String::new();
        for s in &gone {
            out.push_str(&format!("{verb} {} ({})\n", s.id, s.state));
        }
        ui.out(out)?;
        ui.info(format!(
            "{} token(s) {verb}, {} kept{}",
            gone.len(),
            store.tokens.len(),
            if gone.is_empty() {
                ""
            } else {
                "; machines still holding one now get \"unknown token\" instead of \"expired\" or \"revoked\""
            }
        ));
    }
    Ok(exit::OK)
}

fn rels(pointers: &[PendingPointer]) -> Vec<String> {
    pointers.iter().map(|p| p.rel.clone()).collect()
}

fn report_rewritten(ui: &Ui, pointers: &[PendingPointer]) {
    for p in pointers {
        ui.info(format!("rewrote {}", p.rel));
    }
}
