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
mod steps;
pub mod token;

use std::path::PathBuf;

use anyhow::{Context, Result, bail};
use rcgen::KeyPair;
use serde::Serialize;
use time::OffsetDateTime;

use crate::assets::{
    AssetDir, Change, ClusterConfig, DirLock, Overwrite, PUBLIC_MODE, Recovered, SECRET_MODE,
    layout,
};
use crate::cli::{self, Cli, Command};
use crate::exit::usage;
use crate::ignition::SpecVersion;
use crate::ignition::edit as ptr_edit;
use crate::ignition::pointer::{self as ptr, PointerSpec, Transport};
use crate::pki::issue::Ca;
use crate::pki::keys::KeyAlgorithm;
use crate::token::{Token, TokenStore};
use crate::ui::Ui;

/// Runs the parsed command line at the time `clock` gives; returns the exit code.
pub fn run(cli: Cli, clock: &crate::clock::Clock) -> Result<u8> {
    let g = &cli.global;
    let (dir_arg, format_arg) = cli.command.common();
    let name = cli.command.name();
    if g.dir.is_some() && dir_arg.is_none() {
        return Err(usage(format!(
            "{name} does not use an asset directory: --dir does not apply"
        )));
    }
    if g.format.is_some() && format_arg.is_none() {
        let writes = match &cli.command {
            Command::Completions(_) => "a shell script",
            Command::Man(_) => "man pages",
            Command::Serve(_) => "its access log as JSON lines",
            _ => "a PEM certificate",
        };
        return Err(usage(format!(
            "{name} writes {writes}: --format does not apply"
        )));
    }
    let dir = dir_arg
        .and_then(|d| d.dir.clone())
        .or_else(|| g.dir.clone())
        .or_else(|| {
            std::env::var_os("MCSCTL_DIR")
                .filter(|v| !v.is_empty())
                .map(PathBuf::from)
        })
        .unwrap_or_else(|| PathBuf::from("mcs-assets"));
    let format = format_arg
        .and_then(|f| f.format)
        .or(g.format)
        .unwrap_or_default();
    if let Some(n) = g.max_input_size {
        crate::assets::set_max_input(n);
    }
    let ui = Ui::new(format, g.quiet, g.verbose, g.non_interactive, clock.now());
    if g.verbose {
        crate::ui::enable_verbose_log();
    }
    if dir_arg.is_some() {
        ui.detail(format!("asset directory {}", dir.display()));
    }
    let dir = AssetDir::new(&dir);
    match &cli.command {
        Command::Init(a) => init::run(&ui, &dir, a),
        Command::Ca(cli::CaCommand::Create(a)) => ca::create(&ui, &dir, a),
        Command::Ca(cli::CaCommand::Import(a)) => ca::import(&ui, &dir, a),
        Command::Ca(cli::CaCommand::Rotate(a)) => ca::rotate(&ui, &dir, a),
        Command::Ca(cli::CaCommand::Promote(a)) => ca::promote(&ui, &dir, a),
        Command::Ca(cli::CaCommand::Retire(a)) => ca::retire(&ui, &dir, a),
        Command::Cert(cli::CertCommand::Issue(a)) => cert::issue(&ui, &dir, a),
        Command::Cert(cli::CertCommand::Renew(a)) => cert::renew(&ui, &dir, a),
        Command::Pointer(a) => pointer::run(&ui, &dir, a),
        Command::Token(t) => token::run(&ui, &dir, t),
        Command::Inspect(a) => inspect::run(&ui, &dir, a),
        Command::Render(a) => render::run(&ui, &dir, a),
        Command::Serve(a) => serve::run(&dir, a, clock),
        Command::Doctor(a) => doctor::run(&ui, &dir, a),
        Command::Csr(cli::CsrCommand::Review(a)) => csr::review(&ui, a),
        Command::Csr(cli::CsrCommand::Sign(a)) => csr::sign(&ui, &dir, a),
        Command::Manifests(a) => manifests::run(&ui, &dir, a),
        Command::Completions(a) => docs::completions(a),
        Command::Man(a) => docs::man(&ui, a),
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

/// The record of a bundle taken from the cluster (`ca import --bundle`), if any.
pub(crate) fn cluster_ca(dir: &AssetDir) -> Result<Option<crate::pki::rotation::ClusterBundle>> {
    if !dir.exists(layout::CLUSTER_CA) {
        return Ok(None);
    }
    let name = dir.path(layout::CLUSTER_CA).display().to_string();
    crate::pki::rotation::ClusterBundle::parse(&dir.read(layout::CLUSTER_CA)?, &name).map(Some)
}

/// Loads the asset directory's CA (certificate and key, checked to match).
pub(crate) fn load_ca(dir: &AssetDir) -> Result<Ca> {
    dir.require()?;
    if !dir.exists(layout::CA_KEY)
        && let Some(c) = cluster_ca(dir)?
    {
        bail!(
            "{} is not here: the CA is the cluster's (from {}) and the cluster signs the MCS's serving certificate (Secret {}/machine-config-server-tls); to sign here, import the signing Secret: `oc -n {} get secret machine-config-server-ca -o yaml > ca.yaml` and `mcsctl ca import --bundle ca.yaml`",
            dir.path(layout::CA_KEY).display(),
            c.source,
            crate::manifests::MCO_NAMESPACE,
            crate::manifests::MCO_NAMESPACE,
        );
    }
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

/// Adds `auth/tokens.json` (0600) to a change.
pub(crate) fn save_tokens(change: &mut Change<'_>, store: &TokenStore) -> Result<()> {
    change.write(
        layout::TOKENS,
        &store.to_bytes()?,
        SECRET_MODE,
        Overwrite::Allow,
    );
    Ok(())
}

/// Takes the directory lock, saying when it completed a change an earlier, killed command had
/// committed, or removed its leftovers.
pub(crate) fn lock(ui: &Ui, dir: &AssetDir) -> Result<DirLock> {
    let l = dir.lock()?;
    report_recovered(ui, l.recovered());
    Ok(l)
}

/// Says what recovery did, if anything.
pub(crate) fn report_recovered(ui: &Ui, r: &Recovered) {
    if let Some(c) = &r.completed {
        ui.warn(format!(
            "completed an interrupted `{c}`: it was stopped after deciding its change, before finishing it"
        ));
    }
    if r.removed_leftovers > 0 {
        ui.info(format!(
            "removed {} leftover temporary file(s) of an interrupted command",
            r.removed_leftovers
        ));
    }
}

/// A pointer config, ready to go into a change.
pub(crate) struct PendingPointer {
    /// Name relative to the asset directory (or the --output path), for reports.
    pub rel: String,
    /// Where the bytes go: for a symlinked pointer config, the file it links to.
    pub path: PathBuf,
    /// New contents.
    pub bytes: Vec<u8>,
    /// Whether it holds a token (then 0600).
    pub has_token: bool,
    /// Merge source (without token).
    pub url: String,
}

/// Builds the pointer config of a pool with the directory's defaults (URL, spec version), the
/// token carried by `transport`.
pub(crate) fn fresh_pointer(
    dir: &AssetDir,
    cfg: &ClusterConfig,
    pool: &str,
    ca_bundle: &[u8],
    token: Option<&Token>,
    transport: Transport,
) -> Result<PendingPointer> {
    let url = cfg.default_url(pool);
    let version = SpecVersion::parse(&cfg.spec_version)?;
    let bearer = token.map(Token::bearer);
    let bytes = ptr::build(&PointerSpec {
        version,
        url: &url,
        ca_bundle_pem: ca_bundle,
        token: bearer.as_deref(),
        transport,
    })?;
    let rel = layout::pointer(pool);
    Ok(PendingPointer {
        path: dir.path(&rel),
        rel,
        bytes,
        has_token: bearer.is_some() && transport != Transport::None,
        url,
    })
}

/// DER of every CA the directory has put into pointer configs: tls/mcs-ca.crt and the bundle.
pub(crate) fn known_cas(dir: &AssetDir) -> Result<Vec<Vec<u8>>> {
    let mut out = Vec::new();
    for rel in [layout::CA_CERT, layout::CA_BUNDLE] {
        if dir.exists(rel) {
            let name = dir.path(rel).display().to_string();
            for c in crate::pki::cert::parse_pem_certs(&dir.read(rel)?, &name)? {
                if !out.contains(&c.der) {
                    out.push(c.der);
                }
            }
        }
    }
    Ok(out)
}

/// The pool a pointer config of the asset directory is for: its file name, `<pool>.ign`.
pub(crate) fn pointer_pool(rel: &str) -> &str {
    rel.strip_suffix(".ign").unwrap_or(rel)
}

/// Edits every pointer config of the asset directory (`*.ign` at its top, symlinks followed)
/// to trust `bundle` and carry its pool's current token from `tokens`, keeping everything else
/// (see [`ptr_edit`]). `ours`: the CAs whose entry is mcsctl's. `add_token`: tokenless
/// pointers get the token (the first token of a directory). Unchanged files are left out. All
/// are built before any is written, so one bad file changes nothing.
pub(crate) fn edit_pointers(
    dir: &AssetDir,
    bundle: &[u8],
    ours: &[Vec<u8>],
    tokens: Option<&TokenStore>,
    add_token: bool,
    now: OffsetDateTime,
) -> Result<Vec<PendingPointer>> {
    let names = dir.pointer_files()?;
    let transport = match dir.config().map(|c| c.token_transport) {
        Ok(t) if t == "query" => Transport::Query,
        _ => Transport::Header,
    };
    let t = now;
    let mut out = Vec::new();
    for rel in names {
        let bearer = tokens
            .and_then(|s| s.current_for(pointer_pool(&rel), t))
            .map(Token::bearer);
        let link = dir.path(&rel);
        let path = std::fs::canonicalize(&link)
            .with_context(|| format!("following {}", link.display()))?;
        let before = crate::assets::read_file(&path)?;
        let bytes = ptr_edit::edit(
            &before,
            &link.display().to_string(),
            &ptr_edit::Edit {
                ca_bundle_pem: bundle,
                ours,
                token: bearer.as_deref(),
                add_token,
                transport,
            },
        )?;
        if bytes == before {
            continue;
        }
        let info = ptr::parse(&bytes, &link.display().to_string())?;
        out.push(PendingPointer {
            rel,
            path,
            has_token: info.token_secret().is_some(),
            url: info.sources.first().cloned().unwrap_or_default(),
            bytes,
        });
    }
    Ok(out)
}

/// The pointer edits of a token change: the bundle stays, each pointer config gets its pool's
/// current token from `tokens`.
pub(crate) fn retoken_pointers(
    dir: &AssetDir,
    tokens: &TokenStore,
    add_token: bool,
    now: OffsetDateTime,
) -> Result<Vec<PendingPointer>> {
    if dir.pointer_files()?.is_empty() {
        return Ok(Vec::new());
    }
    let bundle = dir.read(layout::CA_BUNDLE)?;
    edit_pointers(dir, &bundle, &known_cas(dir)?, Some(tokens), add_token, now)
}

/// Adds pointer configs to a change: 0600 when they hold a token, else 0644.
pub(crate) fn write_pointers(
    change: &mut Change<'_>,
    pointers: &[PendingPointer],
    overwrite: Overwrite,
) {
    for p in pointers {
        let mode = if p.has_token {
            SECRET_MODE
        } else {
            PUBLIC_MODE
        };
        change.write_path(&p.path, &p.bytes, mode, overwrite);
    }
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
    /// notAfter as Unix seconds, for the short-life warning.
    #[serde(skip)]
    pub expires_at: Option<i64>,
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
            expires_at: None,
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
            expires_at: Some(info.not_after),
            ..Written::file(path, false, kind, Some(detail))
        }
    }
}

/// Warns about each certificate just written that needs attention at once: one valid for less
/// than inspect's default window (30 days), so that machines booting after it lapses fail.
pub(crate) fn warn_short_lived(ui: &Ui, files: &[Written]) {
    let now = ui.now.unix_timestamp();
    for w in files {
        let Some(at) = w.expires_at else { continue };
        let left = at - now;
        if left >= 30 * 86_400 {
            continue;
        }
        let fix = match w.kind.as_str() {
            "serving" => {
                "`mcsctl cert renew --validity 1y` before then (a running serve picks it up)"
            }
            "ca" | "ca-next" => {
                "rotate to a longer-lived CA before then: `mcsctl ca rotate --validity 10y`, `ca promote`, `ca retire`"
            }
            _ => "replace it before then",
        };
        ui.warn(format!(
            "{} is valid for only {} (until {}): inspect reports it at once, and machines booting after that fail with \"x509: certificate has expired\"; {fix}",
            w.path,
            crate::duration::residual(left),
            crate::pki::cert::rfc3339(at)
        ));
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
