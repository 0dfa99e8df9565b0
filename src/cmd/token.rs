//! `mcsctl token create | rotate | list | revoke | prune`: load, call `ops::token`,
//! commit, print.

use anyhow::{Result, bail};
use serde::Serialize;
use time::OffsetDateTime;

use super::print_notes;
use crate::assets::{AssetDir, layout};

use crate::cli::values::{self};
use crate::cli::{DirArg, FormatArg};
use crate::duration::Duration;
use crate::exit;
use crate::ops::Run;
use crate::ops::token::{self, CreateInputs};
use crate::token::{TokenStore, TokenSummary, is_token_id};
use crate::ui::{Ui, table};
use clap::{Args, Subcommand};

/// `token` subcommands.
#[derive(Debug, Subcommand)]
pub enum TokenCommand {
    /// Create a new token, the current one (carried by pointer configs) of each pool without one.
    Create(TokenCreateArgs),
    /// Make a new current token, keep the old one valid for --grace, rewrite every pointer config.
    Rotate(TokenRotateArgs),
    /// List tokens (ids, states, expiry; never secrets).
    List(TokenListArgs),
    /// Revoke a token by id.
    Revoke(TokenRevokeArgs),
    /// Remove expired and revoked tokens from auth/tokens.json.
    Prune(TokenPruneArgs),
    /// Publish the directory's tokens to the store serve replicas share (again, after a
    /// publish failed, or to move the directory to another store).
    #[command(
        long_about = "Publish the directory's tokens to the store serve replicas share: the store mcsctl.json remembers (the first --store command's), or --store, which moves the directory there. What the store holds is reconciled first: a token revoked there (by another copy of this directory) is revoked here too, and a live token there that this directory lacks is refused, naming it, as is a store holding another asset directory's tokens. Digests only, never a secret."
    )]
    Publish(TokenPublishArgs),
}

/// Arguments of `token create`.
#[derive(Debug, Args)]
pub struct TokenCreateArgs {
    /// Lifetime of the token (e.g. 24h, 30d); default: no expiry.
    #[arg(long, value_name = "DUR", value_parser = values::duration)]
    pub ttl: Option<Duration>,

    /// Free-text description shown by `token list`.
    #[arg(long, value_name = "TEXT")]
    pub description: Option<String>,

    /// Print a ready pointer config carrying the new token on stdout, as `kubeadm token create
    /// --print-join-command` prints a join command.
    #[arg(long)]
    pub print_pointer: bool,

    /// A pool whose config the token may fetch; repeatable (default: every pool of
    /// mcsctl.json). With --print-pointer, the pointer config printed is the first pool's.
    #[arg(long = "pool", value_name = "POOL", value_parser = values::dns_label)]
    pub pools: Vec<String>,

    /// `--new-pool`.
    #[command(flatten)]
    pub new_pool: crate::cli::NewPoolArg,

    /// Publish the tokens to the store serve replicas share, once changed.
    #[command(flatten)]
    pub store: crate::cli::StoreArgs,

    /// `--dir` after the command.
    #[command(flatten)]
    pub dir: DirArg,

    /// `--format` after the command.
    #[command(flatten)]
    pub out: FormatArg,
}

/// Arguments of `token rotate`.
#[derive(Debug, Args)]
pub struct TokenRotateArgs {
    /// How long the previous current token stays valid.
    #[arg(long, default_value = "1h", value_name = "DUR", value_parser = values::grace)]
    pub grace: Duration,

    /// Lifetime of the new token; default: no expiry.
    #[arg(long, value_name = "DUR", value_parser = values::duration)]
    pub ttl: Option<Duration>,

    /// Free-text description of the new token.
    #[arg(long, value_name = "TEXT")]
    pub description: Option<String>,

    /// Publish the tokens to the store serve replicas share, once changed.
    #[command(flatten)]
    pub store: crate::cli::StoreArgs,

    /// `--dir` after the command.
    #[command(flatten)]
    pub dir: DirArg,

    /// `--format` after the command.
    #[command(flatten)]
    pub out: FormatArg,
}

/// Arguments of `token list`.
#[derive(Debug, Args)]
pub struct TokenListArgs {
    /// `--dir` after the command.
    #[command(flatten)]
    pub dir: DirArg,

    /// `--format` after the command.
    #[command(flatten)]
    pub out: FormatArg,
}

/// Arguments of `token revoke`.
#[derive(Debug, Args)]
pub struct TokenRevokeArgs {
    /// Token id (the 6 characters before the dot). Checked by the command, not by the parser:
    /// a whole token pasted by mistake must not be echoed in the error.
    #[arg(value_name = "ID")]
    pub id: String,

    /// Publish the tokens to the store serve replicas share, once changed.
    #[command(flatten)]
    pub store: crate::cli::StoreArgs,

    /// `--dir` after the command.
    #[command(flatten)]
    pub dir: DirArg,

    /// `--format` after the command.
    #[command(flatten)]
    pub out: FormatArg,
}

/// Arguments of `token publish`.
#[derive(Debug, Args)]
pub struct TokenPublishArgs {
    /// The store to publish to (default: the one mcsctl.json remembers).
    #[command(flatten)]
    pub store: crate::cli::StoreArgs,

    /// `--dir` after the command.
    #[command(flatten)]
    pub dir: DirArg,

    /// `--format` after the command.
    #[command(flatten)]
    pub out: FormatArg,
}

/// Arguments of `token prune`.
#[derive(Debug, Args)]
pub struct TokenPruneArgs {
    /// Publish the tokens to the store serve replicas share, once changed.
    #[command(flatten)]
    pub store: crate::cli::StoreArgs,

    /// `--dir` after the command.
    #[command(flatten)]
    pub dir: DirArg,

    /// `--format` after the command.
    #[command(flatten)]
    pub out: FormatArg,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ChangeReport<'a> {
    token: &'a TokenSummary,
    /// `<id>.<secret>`: only `token create` prints it, as its output (never for a dry run).
    #[serde(skip_serializing_if = "Option::is_none")]
    bearer: Option<String>,
    rewritten: &'a [String],
}

/// Runs `token create`.
pub fn create(ui: &Ui, dir: &AssetDir, a: &TokenCreateArgs, now: OffsetDateTime) -> Result<u8> {
    let (lock, snap) = super::load(ui, dir)?;
    let inputs = CreateInputs {
        pools: a.pools.clone(),
        ttl: a.ttl.map(|d| d.to_time()),
        description: a.description.clone(),
        print_pointer: a.print_pointer,
        new_pool: a.new_pool.get(),
    };
    let out = token::create(&snap, inputs, now)?;
    let (_, out) = super::commit_and_publish(ui, &lock, &snap, out, &a.store, now)?;
    print_notes(ui, &out.notes);
    let c = &out.report;
    let about = format!(
        "{} token {} for pool(s) {} ({}{}).",
        ui.did("Created", "Would create"),
        c.token.id,
        c.pools.join(", "),
        c.summary.state,
        c.summary
            .expires
            .as_deref()
            .map(|e| format!(", expires {e}"))
            .unwrap_or_default()
    );
    if ui.structured() && (ui.dry_run || c.printed.is_none()) {
        // No secret of a token that does not exist, in any format.
        ui.out_json(&ChangeReport {
            token: &c.summary,
            bearer: (!ui.dry_run).then(|| c.token.bearer()),
            rewritten: &c.rewritten,
        })?;
    } else if ui.dry_run {
        ui.warn(format!("dry run: {about} Its secret is not printed."));
    } else if let Some(bytes) = &c.printed {
        // The pointer config is the output, whatever --format says: it is JSON already.
        ui.out(String::from_utf8_lossy(bytes))?;
        ui.info(format!(
            "{about} On stdout: a {} pointer config carrying it (0600 it, as a password).",
            c.pools[0]
        ));
        report_rewritten(ui, &c.rewritten);
    } else {
        // Like `kubeadm token create`: the one place the whole token is printed, on request.
        ui.out(format!("{}\n", c.token.bearer()))?;
        ui.info(about);
        report_rewritten(ui, &c.rewritten);
    }
    Ok(exit::OK)
}

/// Runs `token rotate`.
pub fn rotate(ui: &Ui, dir: &AssetDir, a: &TokenRotateArgs, now: OffsetDateTime) -> Result<u8> {
    let (grace, ttl) = (a.grace.to_time(), a.ttl.map(|d| d.to_time()));
    let (lock, snap) = super::load(ui, dir)?;
    let out = token::rotate(&snap, grace, ttl, a.description.clone(), now)?;
    let (_, out) = super::commit_and_publish(ui, &lock, &snap, out, &a.store, now)?;
    let report = &out.report;
    if ui.structured() {
        print_notes(ui, &out.notes);
        ui.out_json(report)?;
        return Ok(exit::OK);
    }
    let mut text = String::new();
    for r in &report.tokens {
        let current = ui.did("current token", "would make current token");
        text.push_str(&format!("{}: {current} {}", r.pool, r.token.id));
        if let Some(p) = &r.previous {
            text.push_str(&format!(
                " (replaces {}, valid until {})",
                p.id,
                p.expires.as_deref().unwrap_or("no expiry")
            ));
        }
        text.push('\n');
    }
    for r in &report.rewritten {
        text.push_str(&format!("{}: {r}\n", ui.did("rewrote", "would rewrite")));
    }
    ui.report(text)?;
    print_notes(ui, &out.notes);
    Ok(exit::OK)
}

/// Runs `token list`.
pub fn list(ui: &Ui, dir: &AssetDir, _: &TokenListArgs, now: OffsetDateTime) -> Result<u8> {
    let (_lock, snap) = super::load(ui, dir)?;
    let store = snap.tokens.unwrap_or_else(TokenStore::new);
    let summaries = store.summaries(now);
    if ui.structured() {
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
                    s.state.to_string(),
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

/// Runs `token revoke`.
pub fn revoke(ui: &Ui, dir: &AssetDir, a: &TokenRevokeArgs, now: OffsetDateTime) -> Result<u8> {
    let id = a.id.as_str();
    if !is_token_id(id) {
        // The argument may be a whole token pasted by mistake: never echo it.
        bail!("not a token id: ids are 6 characters of [a-z0-9] (see `mcsctl token list`)");
    }
    let (lock, snap) = super::load(ui, dir)?;
    let out = token::revoke(&snap, id, now)?;
    let (_, out) = super::commit_and_publish(ui, &lock, &snap, out, &a.store, now)?;
    if ui.structured() {
        ui.out_json(&out.report)?;
    } else {
        ui.report(format!("revoked token {id}\n"))?;
    }
    Ok(exit::OK)
}

/// Runs `token prune`.
pub fn prune(ui: &Ui, dir: &AssetDir, a: &TokenPruneArgs, now: OffsetDateTime) -> Result<u8> {
    let dry_run = ui.dry_run;
    let (lock, snap) = super::load(ui, dir)?;
    let out = token::prune(&snap, Run::of(dry_run), now)?;
    let (_, out) = super::commit_and_publish(ui, &lock, &snap, out, &a.store, now)?;
    let p = &out.report;
    if ui.structured() {
        ui.out_json(&serde_json::json!({
            "removed": p.gone,
            "kept": p.kept,
            "dryRun": dry_run,
        }))?;
    } else {
        let verb = if dry_run { "would remove" } else { "removed" };
        let mut text = String::new();
        for s in &p.gone {
            text.push_str(&format!("{verb} {} ({})\n", s.id, s.state));
        }
        ui.report(text)?;
        ui.info(format!(
            "{} token(s) {}, {} kept{}",
            p.gone.len(),
            if dry_run { "would be removed (dry run)" } else { "removed" },
            p.kept,
            if p.gone.is_empty() {
                ""
            } else {
                "; machines still holding one now get \"unknown token\" instead of \"expired\" or \"revoked\""
            }
        ));
    }
    Ok(exit::OK)
}

/// Runs `token publish`.
pub fn publish(ui: &Ui, dir: &AssetDir, a: &TokenPublishArgs, now: OffsetDateTime) -> Result<u8> {
    let (lock, snap) = super::load(ui, dir)?;
    let Some(target) = super::store_target(&snap, &a.store, true)? else {
        return Err(exit::usage(
            "token publish needs --store etcd://HOST:PORT[,HOST:PORT...]: this directory has not published to a store yet",
        ));
    };
    let out = crate::ops::Outcome::unchanged(());
    let (_, _, p) = super::commit_and_publish_to(ui, &lock, &snap, out, Some(target), now)?;
    let Some(p) = p else { return Ok(exit::OK) };
    let live = p.tokens.iter().filter(|t| t.is_live(now)).count();
    let (all, generation) = (p.tokens.len(), p.generation);
    if ui.structured() {
        ui.out_json(&serde_json::json!({"tokens": all, "live": live, "generation": generation}))?;
    } else {
        ui.report(format!(
            "published {all} token(s), {live} live, generation {generation}\n"
        ))?;
    }
    Ok(exit::OK)
}

fn report_rewritten(ui: &Ui, rewritten: &[String]) {
    for r in rewritten {
        ui.info(format!("rewrote {r}"));
    }
}
