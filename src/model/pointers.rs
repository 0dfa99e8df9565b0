//! The pointer configs of an asset directory: reading them once, building a pool's fresh one,
//! and editing all of them to a new CA bundle or token, all before anything is written.

use std::path::PathBuf;

use anyhow::Result;
use time::OffsetDateTime;

use super::ClusterConfig;
use crate::assets::{AssetDir, Change, Overwrite, PUBLIC_MODE, SECRET_MODE, layout};
use crate::ignition::edit as ptr_edit;
use crate::ignition::pointer::{self as ptr, PointerSpec, Transport};
use crate::pki::cert::CertInfo;
use crate::token::{Token, TokenStore};

pub use crate::assets::PointerFile;

impl PointerFile {
    /// The pool it is for: its file name, `<pool>.ign`.
    pub fn pool(&self) -> &str {
        self.rel.strip_suffix(".ign").unwrap_or(&self.rel)
    }

    /// Whether it trusts `ca` (false when it cannot be read as a pointer config).
    pub fn trusts(&self, ca: &CertInfo) -> bool {
        ptr::parse(&self.bytes, &self.rel).is_ok_and(|info| {
            info.ca_pems.iter().any(|pem| {
                crate::pki::cert::parse_pem_certs(pem, &self.rel)
                    .is_ok_and(|certs| certs.iter().any(|c| c.der == ca.der))
            })
        })
    }
}

/// A pointer config, ready to go into a change.
#[derive(Debug, Clone)]
pub struct PendingPointer {
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
pub fn fresh(
    dir: &AssetDir,
    cfg: &ClusterConfig,
    pool: &str,
    ca_bundle: &[u8],
    token: Option<&Token>,
    transport: Transport,
) -> Result<PendingPointer> {
    let url = cfg.default_url(pool);
    let bearer = token.map(Token::bearer);
    let bytes = ptr::build(&PointerSpec {
        version: cfg.spec_version,
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

/// What every pointer config is edited to.
pub struct Target<'a> {
    /// The CA bundle to trust (PEM).
    pub bundle: &'a [u8],
    /// The CAs whose entry in a pointer config is mcsctl's (replaced; others kept).
    pub ours: &'a [Vec<u8>],
    /// Each pool's current token comes from here.
    pub tokens: Option<&'a TokenStore>,
    /// Tokenless pointer configs get the token (the first token of a directory).
    pub add_token: bool,
}

/// Edits every pointer config of `files` to `target`, keeping everything else (see
/// [`ptr_edit`]). Unchanged files are left out. All are built before any is written, so one
/// bad file changes nothing.
pub fn edit_all(
    files: &[PointerFile],
    cfg: Option<&ClusterConfig>,
    target: &Target<'_>,
    dir: &AssetDir,
    now: OffsetDateTime,
) -> Result<Vec<PendingPointer>> {
    // Each file keeps its own spec version: the edit puts the token in the query of a 3.0.0
    // file whatever this says.
    let latest = crate::ignition::SpecVersion {
        minor: crate::ignition::SpecVersion::MAX_MINOR,
    };
    let transport = super::config::token_transport(cfg, latest);
    let mut out = Vec::new();
    for f in files {
        // A machine's pointer config keeps its own token, never the pool's.
        let bearer = target
            .tokens
            .and_then(|s| match &f.machine {
                Some(m) => s.machine_token(m),
                None => s.current_for(f.pool(), now),
            })
            .map(Token::bearer);
        let name = dir.path(&f.rel).display().to_string();
        let bytes = ptr_edit::edit(
            &f.bytes,
            &name,
            &ptr_edit::Edit {
                ca_bundle_pem: target.bundle,
                ours: target.ours,
                token: bearer.as_deref(),
                add_token: target.add_token,
                transport,
            },
        )?;
        if bytes == f.bytes {
            continue;
        }
        let info = ptr::parse(&bytes, &name)?;
        out.push(PendingPointer {
            rel: f.rel.clone(),
            path: f.path.clone(),
            has_token: info.token_secret().is_some(),
            url: info.sources.first().cloned().unwrap_or_default(),
            bytes,
        });
    }
    Ok(out)
}

/// Adds pointer configs to a change: 0600 when they hold a token, else 0644.
pub fn stage(change: &mut Change<'_>, pointers: &[PendingPointer], overwrite: Overwrite) {
    for p in pointers {
        let mode = if p.has_token {
            SECRET_MODE
        } else {
            PUBLIC_MODE
        };
        change.write_path(&p.path, &p.bytes, mode, overwrite);
    }
}
