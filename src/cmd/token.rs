//! `mcsctl token create | rotate | list | revoke`.

use anyhow::{Result, bail};
use serde::Serialize;

use super::{
    PendingPointer, duration_flag, load_tokens, lock, now, retoken_pointers, save_tokens,
    write_pointers,
};
use crate::assets::{AssetDir, Overwrite, layout};
use crate::cli::TokenCommand;
use crate::exit;
use crate::token::{TokenStore, TokenSummary, is_token_id};
use crate::ui::{Ui, table};

/// Runs a token subcommand.
pub fn run(ui: &Ui, dir: &AssetDir, cmd: &TokenCommand) -> Result<u8> {
    match cmd {
        TokenCommand::Create(a) => create(ui, dir, a.ttl.as_deref(), a.description.clone()),
        TokenCommand::Rotate(a) => {
            rotate(ui, dir, &a.grace, a.ttl.as_deref(), a.description.clone())
        }
        TokenCommand::List => list(ui, dir),
        TokenCommand::Revoke(a) => revoke(ui, dir, &a.id),
    }
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ChangeReport {
    token: TokenSummary,
    #[serde(skip_serializing_if = "Option::is_none")]
    previous: Option<TokenSummary>,
    rewritten: Vec<String>,
}

fn create(ui: &Ui, dir: &AssetDir, ttl: Option<&str>, description: Option<String>) -> Result<u8> {
    let ttl = ttl.map(|t| duration_flag("ttl", t)).transpose()?;
    let lock = lock(ui, dir)?;
    let mut store = load_tokens(dir)?.unwrap_or_else(TokenStore::new);
    let t = now();
    let (id, became_current) = store.create(t, ttl, description)?;
    let token = store
        .tokens
        .iter()
        .find(|x| x.id == id)
        .cloned()
        .expect("just created");
    // The directory's first current token (after `init --no-token`, or every earlier one
    // expired): it goes into the pointer configs, which had none to replace.
    let pointers = if became_current {
        retoken_pointers(dir, Some(&token), true)?
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
    if ui.json() {
        ui.out_json(&ChangeReport {
            token: summary,
            previous: None,
            rewritten: rels(&pointers),
        })?;
    } else {
        // Like `kubeadm token create`: the one place the whole token is printed, on request.
        ui.out(format!("{}\n", token.bearer()))?;
        ui.info(format!(
            "Created token {id} ({}{}).",
            summary.state,
            summary
                .expires
                .as_deref()
                .map(|e| format!(", expires {e}"))
                .unwrap_or_default()
        ));
        report_rewritten(ui, &pointers);
    }
    Ok(exit::OK)
}

fn rotate(
    ui: &Ui,
    dir: &AssetDir,
    grace: &str,
    ttl: Option<&str>,
    description: Option<String>,
) -> Result<u8> {
    let grace = duration_flag("grace", grace)?;
    let ttl = ttl.map(|t| duration_flag("ttl", t)).transpose()?;
    let lock = lock(ui, dir)?;
    let mut store = load_tokens(dir)?.unwrap_or_else(TokenStore::new);
    let t = now();
    let (id, previous) = store.rotate(t, grace, ttl, description)?;
    let current = store
        .current(t)
        .cloned()
        .expect("rotate makes a current token");
    // Every pointer config is edited before anything is written: a bad one aborts the
    // rotation. Tokenless ones get the token only when there was no current token to replace.
    let pointers = retoken_pointers(dir, Some(&current), previous.is_none())?;
    let mut change = dir.change("token rotate");
    save_tokens(&mut change, &store)?;
    write_pointers(&mut change, &pointers, Overwrite::Allow);
    change.commit(&lock)?;
    let summaries = store.summaries(t);
    let find = |id: &str| summaries.iter().find(|s| s.id == id).cloned();
    let report = ChangeReport {
        token: find(&id).expect("just created"),
        previous: previous.as_deref().and_then(find),
        rewritten: rels(&pointers),
    };
    if ui.json() {
        ui.out_json(&report)?;
    } else {
        let mut out = format!("current token: {id}\n");
        if let Some(p) = &report.previous {
            out.push_str(&format!(
                "previous token: {} (valid until {})\n",
                p.id,
                p.expires.as_deref().unwrap_or("no expiry")
            ));
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
    let summaries = store.summaries(now());
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
                    s.created.clone(),
                    s.expires.clone().unwrap_or_else(|| "never".into()),
                    s.description.clone().unwrap_or_default(),
                ]
            })
            .collect();
        ui.out(table(
            &["ID", "STATE", "CREATED", "EXPIRES", "DESCRIPTION"],
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
        .summaries(now())
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

fn rels(pointers: &[PendingPointer]) -> Vec<String> {
    pointers.iter().map(|p| p.rel.clone()).collect()
}

fn report_rewritten(ui: &Ui, pointers: &[PendingPointer]) {
    for p in pointers {
        ui.info(format!("rewrote {}", p.rel));
    }
}
