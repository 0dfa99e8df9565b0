//! `mcsctl doctor`: does what Ignition does with a pointer config, one step at a time, and
//! says which step fails, why, and what fixes it. Blocking I/O with hard timeouts; nothing is
//! retried (Ignition would retry for ever, which is what makes a failed boot so opaque).
//!
//! A check never spends what the machine needs: a pointer carrying a token is first asked
//! with HEAD, which mcsctl serve answers as the GET (status, reason, length) without claiming
//! anything. When the answer (or the asset directory) says the token has limited uses (a
//! machine's single-use token), the config is not fetched, and the report says so; `--fetch`
//! fetches it anyway, after saying what that spends.

mod check;
mod exchange;
mod explain;
pub mod history;
mod judge;
mod steps;

use std::time::Duration;

use serde::Serialize;

use crate::ignition::pointer::{self, PointerInfo};
use crate::pki::cert::{CertInfo, parse_pem_certs};

pub use judge::MAX_NESTING;

/// How deep merge/replace references are followed.
const MAX_DEPTH: usize = 3;

/// Inputs of a doctor run.
#[derive(Debug, Clone)]
pub struct Options {
    /// Path to the pointer config.
    pub pointer: std::path::PathBuf,
    /// Overrides of name resolution: (host, optional port, address).
    pub resolve: Vec<crate::http::resolve::Resolve>,
    /// The spec version the simulated Ignition accepts, e.g. `3.3.0`.
    pub ignition_spec: String,
    /// Limit of each network step.
    pub timeout: Duration,
    /// Fetch the config even with a token of limited uses (spending one).
    pub fetch: bool,
    /// The asset directory's machine tokens of limited uses (a pointer carrying one is not
    /// spent without `fetch`, whatever the server says).
    pub known: Vec<KnownToken>,
    /// The asset directory's CAs, current and past: a pointer trusting one it replaced is
    /// named as a stale copy.
    pub history: history::History,
}

/// A machine token of the asset directory.
#[derive(Debug, Clone)]
pub struct KnownToken {
    /// Its id.
    pub id: String,
    /// The machine it is bound to.
    pub machine: String,
    /// The whole fetches it allows.
    pub uses: u32,
}

/// Result of one step.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// It worked.
    Ok,
    /// It failed; the steps after it were not run.
    Fail,
    /// Not run on purpose (it would spend a single-use token); the steps after it neither.
    Skipped,
}

impl Status {
    /// The word printed in tables.
    pub fn word(self) -> &'static str {
        match self {
            Status::Ok => "ok",
            Status::Fail => "fail",
            Status::Skipped => "skipped",
        }
    }

    /// The colour of its word.
    pub fn tone(self) -> crate::ui::Tone {
        match self {
            Status::Ok => crate::ui::Tone::Good,
            Status::Skipped => crate::ui::Tone::Caution,
            Status::Fail => crate::ui::Tone::Bad,
        }
    }
}

/// One step of the run.
#[derive(Debug, Clone, Serialize)]
pub struct Step {
    /// Step name (`parse`, `resolve`, `connect`, `tls`, `request`, `status`, `config`, `references`).
    pub step: String,
    /// Outcome.
    pub status: Status,
    /// What happened, in one line.
    pub detail: String,
    /// What to do about a failure.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fix: Option<String>,
}

/// The whole run.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Report {
    /// The pointer config checked.
    pub pointer: String,
    /// The spec version the simulated client accepts.
    pub ignition_spec: String,
    /// Steps in order, up to and including the first failure.
    pub steps: Vec<Step>,
}

impl Report {
    /// Whether every step run passed.
    pub fn passed(&self) -> bool {
        self.steps.iter().all(|s| s.status != Status::Fail)
    }

    /// The step not run on purpose, if one was.
    pub fn skipped(&self) -> Option<&Step> {
        self.steps.iter().find(|s| s.status == Status::Skipped)
    }

    fn push(&mut self, step: String, status: Status, detail: String, fix: Option<String>) {
        self.steps.push(Step {
            step,
            status,
            detail,
            fix,
        });
    }

    pub(crate) fn ok(&mut self, step: impl Into<String>, detail: impl Into<String>) {
        self.push(step.into(), Status::Ok, detail.into(), None);
    }

    pub(crate) fn fail(
        &mut self,
        step: impl Into<String>,
        detail: impl Into<String>,
        fix: impl Into<String>,
    ) {
        self.push(step.into(), Status::Fail, detail.into(), Some(fix.into()));
    }

    /// A step not run on purpose; `how` says how to run it.
    pub(crate) fn skip(
        &mut self,
        step: impl Into<String>,
        detail: impl Into<String>,
        how: impl Into<String>,
    ) {
        self.push(
            step.into(),
            Status::Skipped,
            detail.into(),
            Some(how.into()),
        );
    }
}

/// A pointer's view of one remote resource: where, with which headers, trusting which CAs.
pub(crate) struct Fetch {
    url: String,
    headers: Vec<(String, String)>,
    cas: Vec<CertInfo>,
    token_id: Option<String>,
    pool: String,
}

/// Runs every step; stops at the first failure. `spending` is told, before the request, when
/// a GET is about to spend a use of a token with limited uses (`--fetch`).
pub fn run(opts: &Options, spending: &dyn Fn(&str)) -> Report {
    let name = opts.pointer.display().to_string();
    let mut r = Report {
        pointer: name.clone(),
        ignition_spec: opts.ignition_spec.clone(),
        steps: Vec::new(),
    };
    let Some(fetch) = parse_step(&mut r, opts) else {
        return r;
    };
    let _ = steps::fetch(&mut r, opts, &fetch, "", 0, spending);
    r
}

fn parse_step(r: &mut Report, opts: &Options) -> Option<Fetch> {
    let name = opts.pointer.display().to_string();
    let (bytes, info) = read_pointer(r, opts, &name)?;
    let summary: judge::Summary = serde_json::from_slice(&bytes).unwrap_or_default();
    let resource = judge::Resource::references(&summary.ignition.config)
        .into_iter()
        .next()
        .unwrap_or_default();
    let Some(url) = resource.source.clone() else {
        r.fail(
            "parse",
            format!("{name} has no ignition.config merge or replace source"),
            "a pointer config needs ignition.config.merge[0].source",
        );
        return None;
    };
    let headers = resource.headers();
    let mut cas = Vec::new();
    for (i, pem) in info.ca_pems.iter().enumerate() {
        match parse_pem_certs(pem, &format!("{name}: certificateAuthorities[{i}]")) {
            Ok(v) => cas.extend(v),
            Err(e) => {
                r.fail(
                    "parse",
                    format!("{e:#}"),
                    "regenerate the pointer config with `mcsctl pointer --force`",
                );
                return None;
            }
        }
    }
    say_parsed(r, &info, &cas);
    let pool = info
        .sources
        .first()
        .and_then(|s| s.rsplit('/').next())
        .unwrap_or("")
        .split('?')
        .next()
        .unwrap_or("")
        .to_string();
    Some(Fetch {
        url,
        headers,
        cas,
        token_id: info.token_id,
        pool,
    })
}

/// The pointer config, read and parsed as Ignition would; `None` after a failed row (one
/// that Ignition would stop at before fetching anything).
fn read_pointer(r: &mut Report, opts: &Options, name: &str) -> Option<(Vec<u8>, PointerInfo)> {
    let bytes = match crate::assets::read_file(&opts.pointer) {
        Ok(b) => b,
        Err(e) => {
            r.fail(
                "parse",
                format!("cannot read {name}: {:#}", e.root_cause()),
                "pass the path of a pointer config (default <dir>/worker.ign)",
            );
            return None;
        }
    };
    let info = match pointer::parse(&bytes, name) {
        Ok(i) => i,
        Err(e) => {
            r.fail(
                "parse",
                format!("{e:#}"),
                "regenerate it with `mcsctl pointer --pool <pool> --force`",
            );
            return None;
        }
    };
    // Ignition refuses a config newer than the spec it was built with, before any fetch.
    if let (Ok(have), Ok(reads)) = (
        crate::ignition::SpecVersion::parse(&info.version),
        crate::ignition::SpecVersion::parse(&opts.ignition_spec),
    ) && have > reads
    {
        r.fail(
            "parse",
            format!(
                "{name} is Ignition spec {}, newer than the {} this Ignition reads: it stops at \"unsupported config version\" before fetching anything",
                info.version, opts.ignition_spec
            ),
            format!(
                "write it at the spec the boot image reads: `mcsctl pointer --pool <pool> --spec-version {} --force` (a pointer config needs nothing newer)",
                opts.ignition_spec
            ),
        );
        return None;
    }
    Some((bytes, info))
}

/// The row saying what the pointer config holds.
fn say_parsed(r: &mut Report, info: &PointerInfo, cas: &[CertInfo]) {
    let token = match (info.token_transport, &info.token_id) {
        (Some(t), Some(id)) => format!("; token {id} in {t}"),
        (Some(t), None) => format!("; a token in {t}"),
        _ => "; no token".into(),
    };
    let ca_names: Vec<String> = cas.iter().map(|c| c.subject.clone()).collect();
    r.ok(
        "parse",
        format!(
            "Ignition {} pointer config; source {}; {} CA(s) ({}){token}{}",
            info.version,
            info.sources.first().cloned().unwrap_or_default(),
            cas.len(),
            ca_names.join("; "),
            if info.warnings.is_empty() {
                String::new()
            } else {
                format!("; warnings: {}", info.warnings.join(", "))
            }
        ),
    );
}
