//! Completions that know the asset directory: `source <(COMPLETE=bash mcsctl)` (zsh and fish
//! alike) makes the shell ask mcsctl itself, which offers the directory's pools, token ids and
//! machine names where a command takes one (clap_complete's environment protocol). The
//! directory is `$MCSCTL_DIR`, else `mcs-assets`; one that cannot be read offers nothing.

use clap_complete::engine::{ArgValueCandidates, CompletionCandidate};

use crate::assets::AssetDir;
use crate::ops::Snapshot;

/// Answers the shell and exits when it asked (`COMPLETE` is set); returns otherwise.
pub fn answer_if_asked() {
    clap_complete::CompleteEnv::with_factory(command).complete();
}

/// The command definition with the directory's values where commands take them.
pub fn command() -> clap::Command {
    let pools = || ArgValueCandidates::new(pools);
    crate::cli::command()
        .mut_subcommand("pointer", |c| c.mut_arg("pool", |a| a.add(pools())))
        .mut_subcommand("render", |c| c.mut_arg("pool", |a| a.add(pools())))
        .mut_subcommand("token", |t| {
            t.mut_subcommand("create", |c| c.mut_arg("pools", |a| a.add(pools())))
                .mut_subcommand("revoke", |c| {
                    c.mut_arg("id", |a| a.add(ArgValueCandidates::new(token_ids)))
                })
        })
        .mut_subcommand("machine", |m| {
            m.mut_subcommand("add", |c| c.mut_arg("pool", |a| a.add(pools())))
                .mut_subcommand("remove", |c| {
                    c.mut_arg("name", |a| a.add(ArgValueCandidates::new(machines)))
                })
        })
}

fn snapshot() -> Option<Snapshot> {
    let dir = std::env::var_os("MCSCTL_DIR").unwrap_or_else(|| "mcs-assets".into());
    Snapshot::read(&AssetDir::new(dir)).ok()
}

/// mcsctl.json's pools and the rendered ones.
fn pools() -> Vec<CompletionCandidate> {
    let Some(s) = snapshot() else {
        return Vec::new();
    };
    let mut names: Vec<String> = s.config.map(|c| c.pools).unwrap_or_default();
    names.extend(s.rendered);
    names.sort();
    names.dedup();
    names.into_iter().map(CompletionCandidate::new).collect()
}

/// The ids of the tokens not revoked, with what each is (never a secret).
fn token_ids() -> Vec<CompletionCandidate> {
    let Some(store) = snapshot().and_then(|s| s.tokens) else {
        return Vec::new();
    };
    store
        .tokens
        .iter()
        .filter(|t| t.state != crate::token::State::Revoked)
        .map(|t| {
            let what = match (&t.machine, &t.description) {
                (Some(m), _) => format!("machine {m}"),
                (None, Some(d)) => d.clone(),
                (None, None) => t
                    .pools
                    .as_ref()
                    .map_or("every pool".into(), |p| p.join(", ")),
            };
            CompletionCandidate::new(t.id.clone()).help(Some(what.into()))
        })
        .collect()
}

/// The registered machines' names.
fn machines() -> Vec<CompletionCandidate> {
    let Some(reg) = snapshot().and_then(|s| s.machines) else {
        return Vec::new();
    };
    reg.machines
        .iter()
        .map(|m| {
            CompletionCandidate::new(m.name.clone()).help(Some(format!("pool {}", m.pool).into()))
        })
        .collect()
}
