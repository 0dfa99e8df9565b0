//! Completions that know the asset directory: `source <(COMPLETE=bash mcsctl)` (zsh and fish
//! alike) makes the shell ask mcsctl itself, which offers the directory's pools, token ids and
//! machine names where a command takes one (clap_complete's environment protocol). The
//! directory is the line's `--dir`, else `$MCSCTL_DIR`, else `mcs-assets`; each offer reads
//! the one file it needs (a registry of 10,000 machines, not their pointer configs), and a
//! file that cannot be read offers nothing.

use clap_complete::engine::{ArgValueCandidates, CompletionCandidate};

use std::ffi::{OsStr, OsString};
use std::path::PathBuf;

use crate::assets::{AssetDir, layout};
use crate::model::machine::Registry;
use crate::token::TokenStore;

/// Answers the shell and exits when it asked (`COMPLETE` is set); returns otherwise.
pub fn answer_if_asked() {
    clap_complete::CompleteEnv::with_factory(command).complete();
}

/// The command definition with the directory's values where commands take them.
pub fn command() -> clap::Command {
    let pools = || ArgValueCandidates::new(pools);
    crate::cmd::command()
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

/// The directory of the line being completed: its last `--dir DIR` (or `--dir=DIR`), else
/// `$MCSCTL_DIR`, else `mcs-assets`.
fn dir() -> AssetDir {
    // The shell runs `mcsctl -- mcsctl WORDS...`: the words of the line follow the `--`.
    let words: Vec<OsString> = std::env::args_os()
        .skip_while(|a| a != "--")
        .skip(1)
        .collect();
    let dir = dir_on_line(&words, std::env::var_os("HOME"))
        .or_else(|| std::env::var_os("MCSCTL_DIR").map(PathBuf::from))
        .unwrap_or_else(|| PathBuf::from("mcs-assets"));
    AssetDir::new(dir)
}

/// The last `--dir` of `words`, with a leading `~/` read as the shell would (the shell hands
/// the words over as typed).
fn dir_on_line(words: &[OsString], home: Option<OsString>) -> Option<PathBuf> {
    let mut found: Option<&OsStr> = None;
    let mut words = words.iter();
    while let Some(w) = words.next() {
        if w == "--dir" {
            found = words.next().map(OsString::as_os_str).or(found);
        } else if let Some(v) = w.to_str().and_then(|w| w.strip_prefix("--dir=")) {
            found = Some(OsStr::new(v));
        }
    }
    let found = found?;
    match (found.to_str().and_then(|f| f.strip_prefix("~/")), home) {
        (Some(rest), Some(home)) => Some(PathBuf::from(home).join(rest)),
        _ => Some(PathBuf::from(found)),
    }
}

/// The one file `rel` of `dir`, parsed by its format's reader; `None` when either fails.
fn read<T>(
    dir: &AssetDir,
    rel: &str,
    parse: impl Fn(&[u8], &str) -> anyhow::Result<T>,
) -> Option<T> {
    parse(&dir.read(rel).ok()?, rel).ok()
}

/// The pools the directory knows, as the commands do: built in, in mcsctl.json, rendered.
fn pools() -> Vec<CompletionCandidate> {
    let dir = dir();
    let config = read(&dir, layout::CONFIG, crate::model::config::parse).flatten();
    let rendered: Vec<String> = crate::assets::pool_files(&dir.path(layout::RENDERED))
        .into_iter()
        .map(|(pool, _)| pool)
        .collect();
    crate::model::known_pools(config.as_ref(), &rendered)
        .into_iter()
        .map(CompletionCandidate::new)
        .collect()
}

/// The ids of the tokens not revoked, with what each is (never a secret).
fn token_ids() -> Vec<CompletionCandidate> {
    let Some(store) = read(&dir(), layout::TOKENS, TokenStore::parse) else {
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
    let Some(reg) = read(&dir(), layout::MACHINES, Registry::parse) else {
        return Vec::new();
    };
    reg.machines
        .iter()
        .map(|m| {
            CompletionCandidate::new(m.name.clone()).help(Some(format!("pool {}", m.pool).into()))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(line: &str) -> Vec<OsString> {
        line.split(' ').map(OsString::from).collect()
    }

    #[test]
    fn the_last_dir_on_the_line_wins_and_a_tilde_is_home() {
        let home = Some(OsString::from("/home/ada"));
        let on = |line: &str| dir_on_line(&words(line), home.clone());
        assert_eq!(on("mcsctl token revoke "), None);
        assert_eq!(
            on("mcsctl --dir a token revoke --dir=b "),
            Some(PathBuf::from("b"))
        );
        assert_eq!(
            on("mcsctl --dir ~/lab machine remove "),
            Some(PathBuf::from("/home/ada/lab"))
        );
        assert_eq!(
            on("mcsctl --dir=~x pointer --pool "),
            Some(PathBuf::from("~x"))
        );
        // `--dir` as the last word (its value being typed): no directory from the line.
        assert_eq!(on("mcsctl --dir"), None);
    }
}
