//! Command handlers: turn parsed arguments into calls of the domain modules and print results.
//! Shared steps (loading the CA, rewriting pointer configs) live here so every command does
//! them the same way.

pub mod ca;
pub mod cert;
pub mod csr;
pub mod docs;
pub mod doctor;
pub mod init;
pub mod inspect;
pub mod manifests;
pub mod pointer;
pub mod render;
pub mod serve;
pub mod token;

use std::path::PathBuf;

use anyhow::{Context, Result, bail};
use rcgen::KeyPair;
use serde::Serialize;
use time::OffsetDateTime;

use crate::assets::{AssetDir, ClusterConfig, Overwrite, PUBLIC_MODE, SECRET_MODE, layout};
use crate::cli::{self, Cli, Command};
use crate::duration::Duration;
use crate::exit::usage;
use crate::ignition::SpecVersion;
use crate::ignition::pointer::{self as ptr, PointerSpec, Transport};
use crate::ignition::render::Flavour;
use crate::pki::issue::Ca;
use crate::pki::keys::KeyAlgorithm;
use crate::token::{Token, TokenStore};
use crate::ui::{Format, Ui};

/// Runs the parsed command line; returns the exit code.
pub fn run(cli: Cli) -> Result<u8> {
    let g = &cli.global;
    let format = match g.format {
        cli::Format::Text => Format::Text,
        cli::Format::Json => Format::Json,
    };
    let ui = Ui::new(format, g.quiet, g.verbose, g.non_interactive);
    let dir = AssetDir::new(&g.dir);
    match &cli.command {
        Command::Init(a) => init::run(&ui, &dir, a),
        Command::Ca(cli::CaCommand::Create(a)) => ca::create(&ui, &dir, a),
        Command::Ca(cli::CaCommand::Import(a)) => ca::import(&ui, &dir, a),
        Command::Cert(cli::CertCommand::Issue(a)) => cert::issue(&ui, &dir, a),
        Command::Cert(cli::CertCommand::Renew(a)) => cert::renew(&ui, &dir, a),
        Command::Pointer(a) => pointer::run(&ui, &dir, a),
        Command::Token(t) => token::run(&ui, &dir, t),
        Command::Inspect(a) => inspect::run(&ui, &dir, a),
        Command::Render(a) => render::run(&ui, &dir, a),
        Command::Serve(a) => serve::run(&dir, a),
        Command::Doctor(a) => doctor::run(&ui, &dir, a),
        Command::Csr(cli::CsrCommand::Review(a)) => csr::review(&ui, a),
        Command::Csr(cli::CsrCommand::Sign(a)) => csr::sign(&ui, &dir, a),
        Command::Manifests(a) => manifests::run(&ui, &dir, a),
        Command::Completions(a) => docs::completions(a),
        Command::Man(a) => docs::man(&ui, a),
    }
}

/// The clock. One place, so a future `--now` has one thing to change.
pub(crate) fn now() -> OffsetDateTime {
    let t = OffsetDateTime::now_utc();
    t.replace_nanosecond(0).unwrap_or(t)
}

/// Parses a duration flag; a bad value is a usage error naming the flag.
pub(crate) fn duration_flag(flag: &str, value: &str) -> Result<time::Duration> {
    Duration::parse(value)
        .map(Duration::to_time)
        .map_err(|e| usage(format!("--{flag}: {e}")))
}

/// Parses a spec version flag; a bad value is a usage error.
pub(crate) fn spec_flag(value: &str) -> Result<SpecVersion> {
    SpecVersion::parse(value).map_err(|e| usage(format!("--spec-version: {e}")))
}

/// The domain key algorithm of a CLI value.
pub(crate) fn key_algorithm(a: cli::KeyAlgorithm) -> KeyAlgorithm {
    match a {
        cli::KeyAlgorithm::EcdsaP256 => KeyAlgorithm::EcdsaP256,
        cli::KeyAlgorithm::EcdsaP384 => KeyAlgorithm::EcdsaP384,
        cli::KeyAlgorithm::Ed25519 => KeyAlgorithm::Ed25519,
        cli::KeyAlgorithm::Rsa2048 => KeyAlgorithm::Rsa2048,
        cli::KeyAlgorithm::Rsa3072 => KeyAlgorithm::Rsa3072,
        cli::KeyAlgorithm::Rsa4096 => KeyAlgorithm::Rsa4096,
    }
}

/// The domain flavour of a CLI value.
pub(crate) fn flavour(f: cli::RenderFor) -> Flavour {
    match f {
        cli::RenderFor::Openshift => Flavour::OpenShift,
        cli::RenderFor::Coreos => Flavour::CoreOs,
    }
}

/// Generates a key, with a spinner for the slow (RSA) algorithms.
pub(crate) fn generate_key(ui: &Ui, alg: KeyAlgorithm, what: &str) -> Result<KeyPair> {
    if alg.is_slow() {
        ui.with_spinner(&format!("generating {alg} {what} key"), || alg.generate())
    } else {
        alg.generate()
    }
}

/// Loads the asset directory's CA (certificate and key, checked to match).
pub(crate) fn load_ca(dir: &AssetDir) -> Result<Ca> {
    dir.require()?;
    for f in [layout::CA_CERT, layout::CA_KEY] {
        if !dir.exists(f) {
            bail!(
                "{} is missing; run `mcsctl ca create` or `mcsctl ca import` first",
                dir.path(f).display()
            );
        }
    }
    Ca::load(
        &dir.read(layout::CA_CERT)?,
        &dir.path(layout::CA_CERT).display().to_string(),
        &dir.read(layout::CA_KEY)?,
        &dir.path(layout::CA_KEY).display().to_string(),
    )
}

/// Loads `auth/tokens.json`, or `None` when the directory has no token store.
pub(crate) fn load_tokens(dir: &AssetDir) -> Result<Option<TokenStore>> {
    if !dir.exists(layout::TOKENS) {
        return Ok(None);
    }
    let bytes = dir.read(layout::TOKENS)?;
    TokenStore::parse(&bytes, &dir.path(layout::TOKENS).display().to_string()).map(Some)
}

/// Saves `auth/tokens.json` (0600, atomic).
pub(crate) fn save_tokens(dir: &AssetDir, store: &TokenStore) -> Result<PathBuf> {
    dir.write(
        layout::TOKENS,
        &store.to_bytes()?,
        SECRET_MODE,
        Overwrite::Allow,
    )
}

/// A pointer config file of the asset directory, ready to write.
pub(crate) struct PendingPointer {
    /// Path relative to the asset directory.
    pub rel: String,
    /// New contents.
    pub bytes: Vec<u8>,
    /// Whether it holds a token (then 0600).
    pub has_token: bool,
    /// Merge source (without token).
    pub url: String,
}

/// Builds the pointer config of a pool with the directory's defaults.
pub(crate) fn fresh_pointer(
    cfg: &ClusterConfig,
    pool: &str,
    ca_bundle: &[u8],
    token: Option<&Token>,
) -> Result<PendingPointer> {
    let url = cfg.default_url(pool);
    let transport = Transport::parse(&cfg.token_transport)?;
    let version = SpecVersion::parse(&cfg.spec_version)?;
    let bearer = token.map(Token::bearer);
    let bytes = ptr::build(&PointerSpec {
        version,
        url: &url,
        ca_bundle_pem: ca_bundle,
        token: bearer.as_deref(),
        transport,
    })?;
    Ok(PendingPointer {
        rel: layout::pointer(pool),
        bytes,
        has_token: bearer.is_some() && transport != Transport::None,
        url,
    })
}

/// Rebuilds every pointer config of the asset directory (`*.ign` at its top) with the current
/// CA bundle and token, keeping each file's own URL, spec version and token transport. All are
/// built before any is written, so one bad file changes nothing.
pub(crate) fn rebuild_pointers(
    dir: &AssetDir,
    token: Option<&Token>,
) -> Result<Vec<PendingPointer>> {
    let names = dir.pointer_files()?;
    if names.is_empty() {
        return Ok(Vec::new());
    }
    let bundle = dir.read(layout::CA_BUNDLE)?;
    let bearer = token.map(Token::bearer);
    names
        .into_iter()
        .map(|rel| {
            let path = dir.path(&rel);
            let info = ptr::parse(&dir.read(&rel)?, &path.display().to_string())?;
            let version = SpecVersion::parse(&info.version)
                .with_context(|| format!("rewriting {}", path.display()))?;
            let url = info.sources.first().cloned().with_context(|| {
                format!(
                    "{} has no ignition.config.merge source to keep",
                    path.display()
                )
            })?;
            let transport = match info.token_transport {
                Some("query") => Transport::Query,
                Some(_) => Transport::Header,
                None => Transport::None,
            };
            let bytes = ptr::build(&PointerSpec {
                version,
                url: &url,
                ca_bundle_pem: &bundle,
                token: bearer.as_deref(),
                transport,
            })?;
            Ok(PendingPointer {
                rel,
                bytes,
                has_token: bearer.is_some() && transport != Transport::None,
                url,
            })
        })
        .collect()
}

/// Writes pointer configs built by [`fresh_pointer`] or [`rebuild_pointers`].
pub(crate) fn write_pointers(
    dir: &AssetDir,
    pointers: &[PendingPointer],
    overwrite: Overwrite,
) -> Result<()> {
    for p in pointers {
        let mode = if p.has_token {
            SECRET_MODE
        } else {
            PUBLIC_MODE
        };
        dir.write(&p.rel, &p.bytes, mode, overwrite)?;
    }
    Ok(())
}

/// A file a command wrote, as printed in its summary.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Written {
    /// Path relative to the asset directory.
    pub path: String,
    /// Octal mode.
    pub mode: String,
    /// What it is.
    pub kind: String,
    /// Certificate subject, for certificates.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub subject: Option<String>,
    /// SHA-256 fingerprint, for certificates.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fingerprint_sha256: Option<String>,
    /// notAfter (RFC 3339), for certificates.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub not_after: Option<String>,
    /// Extra fact: key type, SANs, URL, token id.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
}

impl Written {
    pub(crate) fn file(path: &str, secret: bool, kind: &str, detail: Option<String>) -> Written {
        Written {
            path: path.to_string(),
            mode: if secret { "0600" } else { "0644" }.into(),
            kind: kind.into(),
            subject: None,
            fingerprint_sha256: None,
            not_after: None,
            detail,
        }
    }

    pub(crate) fn cert(
        path: &str,
        kind: &str,
        info: &crate::pki::cert::CertInfo,
        detail: String,
    ) -> Written {
        Written {
            subject: Some(info.subject.clone()),
            fingerprint_sha256: Some(info.fingerprint.clone()),
            not_after: Some(crate::pki::cert::rfc3339(info.not_after)),
            ..Written::file(path, false, kind, Some(detail))
        }
    }
}

/// Prints the "wrote" table of a command.
pub(crate) fn print_written(ui: &Ui, heading: &str, files: &[Written]) -> Result<()> {
    let rows: Vec<Vec<String>> = files
        .iter()
        .map(|w| {
            let mut facts = Vec::new();
            if let Some(s) = &w.subject {
                facts.push(s.clone());
            }
            if let Some(d) = &w.detail {
                facts.push(d.clone());
            }
            if let Some(n) = &w.not_after {
                facts.push(format!("expires {n}"));
            }
            if let Some(f) = &w.fingerprint_sha256 {
                facts.push(format!("sha256 {f}"));
            }
            vec![
                w.path.clone(),
                w.mode.clone(),
                w.kind.clone(),
                facts.join("; "),
            ]
        })
        .collect();
    ui.out(format!(
        "{heading}\n{}",
        crate::ui::table(&["FILE", "MODE", "KIND", "DETAILS"], &rows)
    ))
}
