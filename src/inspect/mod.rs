//! `inspect`: one report of everything on the MCS trust chain, like `kubeadm certs
//! check-expiration` but with the cross-checks a booting machine depends on. Targets: the
//! asset directory (the default), PEM files, pointer configs, Kubernetes objects (everything
//! `mcsctl manifests` writes, and the cluster's own), and a live endpoint. Every target named
//! on the command line is checked against the asset directory when there is one; an unreadable
//! target is a failed row, never the end of the report.

mod dir;
mod files;
mod hygiene;
mod machine;
mod pointer;
mod remote;
mod report;

use std::path::{Path, PathBuf};
use std::rc::Rc;

use anyhow::Result;

use machine::{Fetches, Purpose};
pub use report::{CertRow, Check, Level, PointerRow, Report, Role, TokenRef, short_name};

use crate::assets::{AssetDir, layout};
use crate::pki::cert::{CertInfo, parse_pem_certs};
use crate::token::TokenStore;

/// What to inspect.
#[derive(Debug)]
pub struct Options<'a> {
    /// The asset directory (inspected when nothing else is named; the context otherwise).
    pub dir: &'a AssetDir,
    /// Files or directories named on the command line.
    pub targets: &'a [PathBuf],
    /// `HOST:PORT` of a live endpoint.
    pub remote: Option<&'a str>,
    /// SNI for the endpoint.
    pub server_name: Option<&'a str>,
    /// CA bundle to verify the endpoint with.
    pub ca: Option<&'a Path>,
    /// The time the report is for.
    pub now: time::OffsetDateTime,
    /// Seconds.
    pub warn_within: i64,
    /// Other replicas' ledgers to read machine tokens' fetches from (`--ledger`).
    pub ledgers: &'a [PathBuf],
    /// The store the replicas share, to read them from instead (`--store`).
    pub store: Option<&'a crate::store::Options>,
}

/// What the asset directory says, for checking named targets against it.
#[derive(Debug, Default)]
pub struct Context {
    /// The serving certificate.
    pub leaf: Option<CertInfo>,
    /// The token store.
    pub store: Option<TokenStore>,
    /// The CAs pointer configs should trust.
    pub bundle: Vec<CertInfo>,
    /// The CA `ca rotate` introduced, which signs after `ca promote`.
    pub next: Option<CertInfo>,
    /// Machine tokens' fetches, when read.
    pub fetches: Option<Rc<Fetches>>,
    /// What a machine's pointer config is checked for.
    pub purpose: Purpose,
    /// The asset directory, naming its pointer configs in fixes.
    pub dir: Option<PathBuf>,
}

impl Context {
    /// Where the asset directory's pointer config of `pool` is, for a fix.
    pub fn pointer_of(&self, pool: &str) -> String {
        match &self.dir {
            Some(d) => d.join(layout::pointer(pool)).display().to_string(),
            None => format!("the asset directory's {}", layout::pointer(pool)),
        }
    }
}

impl Context {
    /// Reads what it can of `dir`; what is missing or unreadable is left out (the directory's
    /// own inspection reports it).
    pub fn of(dir: &AssetDir) -> Context {
        let certs = |rel: &str| -> Vec<CertInfo> {
            dir.read(rel)
                .ok()
                .and_then(|b| parse_pem_certs(&b, rel).ok())
                .unwrap_or_default()
        };
        Context {
            leaf: certs(layout::SERVING_CERT).into_iter().next(),
            store: dir
                .read(layout::TOKENS)
                .ok()
                .and_then(|b| TokenStore::parse(&b, layout::TOKENS).ok()),
            bundle: certs(layout::CA_BUNDLE),
            next: certs(layout::CA_NEXT_CERT).into_iter().next(),
            fetches: None,
            purpose: Purpose::Boot,
            dir: Some(dir.root().to_path_buf()),
        }
    }
}

/// Builds the report. Errors only for bad options (a malformed --remote).
pub fn run(o: &Options<'_>) -> Result<Report> {
    let mut r = Report::new(o.now, o.warn_within);
    let mut ctx = if o.dir.root().is_dir() {
        Context::of(o.dir)
    } else {
        Context::default()
    };
    if o.dir.exists(layout::CONFIG) {
        ctx.fetches = Fetches::read(&mut r, o.dir, o.ledgers, o.store).map(Rc::new);
    }
    if o.targets.is_empty()
        && o.remote.is_none()
        && let Err(e) = dir::inspect(&mut r, o.dir, ctx.fetches.clone())
    {
        r.check(
            Level::Fail,
            "target",
            format!("{e:#}"),
            Some("pass --dir with an asset directory, or name the files to inspect".to_string()),
        );
    }
    let mut pointers = Vec::new();
    for t in o.targets {
        let result = if t.is_dir() {
            dir::inspect(&mut r, &AssetDir::new(t), None)
        } else {
            files::inspect(&mut r, t, &ctx, &mut pointers)
        };
        if let Err(e) = result {
            r.check(
                Level::Fail,
                "target",
                format!("{e:#}"),
                Some(format!("check {}: inspect reads PEM (or DER) certificates, pointer configs and Kubernetes Secrets and ConfigMaps", t.display())),
            );
        }
    }
    if let Some(endpoint) = o.remote {
        remote::inspect(&mut r, o.dir, endpoint, o.server_name, o.ca, &pointers)?;
    }
    Ok(r.finish())
}
