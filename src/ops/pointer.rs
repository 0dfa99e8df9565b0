//! `pointer`: one pointer config for one pool, with the pool's current token (a pool without
//! one gets its own, scoped to it alone), into the asset directory, a file or stdout.

use anyhow::{Result, bail};
use base64::Engine;
use serde::Serialize;
use time::OffsetDateTime;

use super::{Note, Outcome};
use crate::assets::{Overwrite, PUBLIC_MODE, SECRET_MODE, layout};
use crate::exit::usage;
use crate::ignition::SpecVersion;
use crate::ignition::pointer::{self, PointerSpec, Transport};
use crate::model::{ClusterConfig, Snapshot};
use crate::token::{Token, TokenStore};

/// Where the pointer config goes.
pub enum Dest {
    /// `<dir>/<pool>.ign`, and the pool into mcsctl.json.
    Dir,
    /// Another file (written by the caller once the change is committed).
    File(std::path::PathBuf),
    /// Standard output.
    Stdout,
}

/// What `pointer` was asked for; `None` takes mcsctl.json's value.
pub struct PointerInputs {
    /// The pool.
    pub pool: String,
    /// `--url`, resolved for the pool.
    pub url: Option<String>,
    /// `--spec-version`.
    pub spec_version: Option<SpecVersion>,
    /// `--token-transport`.
    pub transport: Option<Transport>,
    /// Write the config base64-encoded (for a cloud's user data).
    pub base64: bool,
    /// `--new-pool`: a pool the directory does not know is meant.
    pub new_pool: crate::model::NewPool,
    /// Replace the pool's pointer config.
    pub force: bool,
    /// Where it goes.
    pub dest: Dest,
}

/// What `pointer` wrote.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PointerReport {
    /// Where it went (`-` for stdout).
    pub path: String,
    /// The pool.
    pub pool: String,
    /// The merge source.
    pub source: String,
    /// The spec version.
    pub spec_version: String,
    /// How the token travels (`none` without one).
    pub token_transport: &'static str,
    /// The token's id.
    pub token_id: Option<String>,
    /// The file's mode.
    pub mode: &'static str,
    /// Whether base64-encoded.
    pub base64: bool,
    /// Where each setting came from, for `--verbose`.
    #[serde(skip)]
    pub sources: String,
    /// The config's bytes, for `Dest::File` and `Dest::Stdout`.
    #[serde(skip)]
    pub bytes: Vec<u8>,
    /// Whether its token is one this call made (saved only by committing the change): the
    /// pool had none of its own.
    #[serde(skip)]
    pub token_made: bool,
}

/// Decides the pointer config. The change (for `Dest::Dir`, the file; for any destination, a
/// token made here) must be committed before the bytes leave the command.
pub fn pointer<'s>(
    snap: &'s Snapshot,
    inputs: &PointerInputs,
    now: OffsetDateTime,
) -> Result<Outcome<'s, PointerReport>> {
    let cfg = snap.config.as_ref();
    let pool = &inputs.pool;
    snap.check_pool(pool, inputs.new_pool)?;
    let (version, transport, url, sources) = settings(snap, inputs)?;
    if !inputs.force {
        covered(snap, &url)?;
    }
    let mut notes = Vec::new();
    if url.starts_with("http://") {
        notes.push(Note::Warn("the merge URL is plain http: Ignition will not check the CA and the token travels in clear text".into()));
    }
    let bundle = snap.bundle()?;
    let mut store = snap.tokens.clone();
    let (token, created) = pool_token(&mut store, pool, transport, now)?;
    let bearer = token.as_ref().map(Token::bearer);
    let mut bytes = pointer::build(&PointerSpec {
        version,
        url: &url,
        ca_bundle_pem: bundle,
        token: bearer.as_deref(),
        transport,
    })?;
    if inputs.base64 {
        bytes = base64::engine::general_purpose::STANDARD
            .encode(&bytes)
            .into_bytes();
        bytes.push(b'\n');
    }
    let secret = bearer.is_some();
    let mut change = snap.change("pointer");
    if let (Some(id), Some(s)) = (&created, &store) {
        super::token::stage(&mut change, s)?;
        notes.push(token_made_note(id, pool));
    }
    let path = match &inputs.dest {
        Dest::Dir => {
            let rel = layout::pointer(pool);
            let mode = if secret { SECRET_MODE } else { PUBLIC_MODE };
            let ow = Overwrite::when(inputs.force);
            change.write(&rel, &bytes, mode, ow);
            if let Some(c) = remember(cfg, pool, inputs.url.is_some(), &url) {
                c.stage(&mut change)?;
            }
            snap.dir.path(&rel).display().to_string()
        }
        Dest::File(p) => p.display().to_string(),
        Dest::Stdout => "-".into(),
    };
    let report = PointerReport {
        path,
        pool: pool.clone(),
        source: url,
        spec_version: version.to_string(),
        token_transport: if secret { transport.name() } else { "none" },
        token_id: token.map(|t| t.id),
        mode: if secret { "0600" } else { "0644" },
        base64: inputs.base64,
        sources,
        bytes,
        token_made: created.is_some(),
    };
    let change = (!change.is_empty()).then_some(change);
    Ok(Outcome {
        change,
        report,
        notes,
    })
}

/// The spec version, token transport and merge URL: the flag, else mcsctl.json, else the
/// defaults; and a line saying where each came from.
fn settings(
    snap: &Snapshot,
    inputs: &PointerInputs,
) -> Result<(SpecVersion, Transport, String, String)> {
    let cfg = snap.config.as_ref();
    let pool = &inputs.pool;
    // Without mcsctl.json (a directory made with `ca import` and `cert issue`), --url says
    // where the MCS is.
    let url = match (&inputs.url, cfg) {
        (Some(u), _) => u.clone(),
        (None, Some(c)) => c.default_url(pool),
        (None, None) => {
            return Err(usage(format!(
                "{} has no mcsctl.json to take the MCS address from; pass --url https://HOST:22623/config/{pool} (or run `mcsctl init`)",
                snap.dir.root().display(),
            )));
        }
    };
    let version = inputs
        .spec_version
        .or(cfg.map(|c| c.spec_version))
        .unwrap_or(SpecVersion::DEFAULT);
    let transport = match (inputs.transport, cfg) {
        (Some(t), _) => t,
        (None, Some(c)) => c.token_transport,
        // A directory built step by step (`ca create`, `cert issue`) gets a token as one made
        // by `init` does: serve asks for one unless told `--auth none`.
        (None, None) => crate::model::config::token_transport(None, version),
    };
    if transport == Transport::Header && !version.has_http_headers() {
        return Err(usage(
            "Ignition spec 3.0.0 has no httpHeaders: use --token-transport query or --spec-version 3.1.0 or later",
        ));
    }
    let from = |flag: bool| match (flag, cfg.is_some()) {
        (true, _) => "from the flag",
        (false, true) => "from mcsctl.json",
        (false, false) => "default",
    };
    let url_from = match (&inputs.url, cfg) {
        (Some(_), _) => "from --url",
        (None, Some(c)) if c.urls.contains_key(pool) => "the pool's URL in mcsctl.json",
        (None, Some(c)) if c.url.is_some() => "init --url in mcsctl.json",
        _ => "api-int of the cluster",
    };
    let sources = format!(
        "spec {version} ({}); token {} ({}); merge URL {url} ({url_from})",
        from(inputs.spec_version.is_some()),
        transport.name(),
        from(inputs.transport.is_some()),
    );
    Ok((version, transport, url, sources))
}

/// The pool's current token; a pool without one gets its own, scoped to it alone (its id is
/// the second value).
fn pool_token(
    store: &mut Option<TokenStore>,
    pool: &str,
    transport: Transport,
    now: OffsetDateTime,
) -> Result<(Option<Token>, Option<String>)> {
    if transport == Transport::None {
        return Ok((None, None));
    }
    let s = store.get_or_insert_with(TokenStore::new);
    if let Some(t) = s.current_for(pool, now) {
        return Ok((Some(t.clone()), None));
    }
    let (id, _) = s.create(
        now,
        None,
        Some(format!("{pool} pool, created by mcsctl pointer")),
        vec![pool.to_string()],
    )?;
    let t = s.tokens.iter().find(|t| t.id == id).cloned();
    Ok((t, Some(id)))
}

/// Refuses a merge URL whose host the serving certificate does not name: every machine booting
/// from the pointer config would refuse the server (`x509: certificate is valid for ..., not
/// HOST`). Nothing to check before a serving certificate exists, or for plain http.
fn covered(snap: &Snapshot, url: &str) -> Result<()> {
    let Ok(Some(serving)) = snap.cas.serving() else {
        return Ok(());
    };
    let Some(u) = crate::http::HttpUrl::parse(url) else {
        return Ok(());
    };
    if !u.is_https() || serving.info.covers_host(u.host()) {
        return Ok(());
    }
    let host = u.host();
    bail!(
        "{} does not cover {host}, the host of {url} (its names: {}): machines booting from this pointer config would refuse the server. `mcsctl cert issue --force --san {host}` adds it (same CA: pointer configs keep working); --force writes the pointer config anyway",
        snap.dir.path(layout::SERVING_CERT).display(),
        serving.info.sans().join(", ")
    )
}

/// mcsctl.json with the pool added and, when --url named a URL of its own, that URL
/// remembered (so `pointer --force` and every rewrite keep it); `None` when unchanged.
fn remember(
    cfg: Option<&ClusterConfig>,
    pool: &str,
    url_given: bool,
    url: &str,
) -> Option<ClusterConfig> {
    let mut c = cfg?.clone();
    let mut changed = false;
    if !c.pools.iter().any(|p| p == pool) {
        c.pools.push(pool.to_string());
        changed = true;
    }
    if url_given && c.default_url(pool) != url {
        c.urls.insert(pool.to_string(), url.to_string());
        changed = true;
    }
    changed.then_some(c)
}

/// The note for a token made because the pool had none. Under --dry-run its id is one no token
/// will have: not said.
fn token_made_note(id: &str, pool: &str) -> Note {
    Note::Done {
        done: format!(
            "a new token {id} for pool {pool}: the pool had no token of its own (a running serve takes it at its next reload)"
        ),
        would: format!(
            "dry run: would make a new token for pool {pool}: the pool has no token of its own"
        ),
    }
}
