//! What workflows report: the files a change writes, and remarks for the user.

use serde::Serialize;

use crate::pki::cert::CertInfo;

/// A remark a workflow makes, printed to stderr by `cmd` once the change is committed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Note {
    /// Something the user should act on or know before relying on the result.
    Warn(String),
    /// What happened besides the files written, or what to do next.
    Info(String),
    /// What happened, and what a dry run says instead (it has not happened).
    Done {
        /// Said after a change.
        done: String,
        /// Said under `--dry-run`.
        would: String,
    },
}

/// What a file a command wrote is, as its summary and JSON name it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum FileKind {
    /// `cluster`.
    Cluster,
    /// `ca`.
    Ca,
    /// `ca-key`.
    CaKey,
    /// `ca-bundle`.
    CaBundle,
    /// `tokens`.
    Tokens,
    /// `pointer`.
    Pointer,
    /// `serving`.
    Serving,
    /// `serving-key`.
    ServingKey,
    /// `backup`.
    Backup,
    /// `removed`.
    Removed,
    /// `machines`.
    Machines,
    /// `ca-next`.
    CaNext,
    /// `ca-next-key`.
    CaNextKey,
    /// `ca-previous`.
    CaPrevious,
    /// `ca-retired`.
    CaRetired,
    /// `kept-key`: a CA key a command moved, kept where the row says (never deleted).
    KeptKey,
}

impl FileKind {
    /// The word in the summary.
    pub fn word(self) -> &'static str {
        match self {
            FileKind::Cluster => "cluster",
            FileKind::Ca => "ca",
            FileKind::CaKey => "ca-key",
            FileKind::CaBundle => "ca-bundle",
            FileKind::Tokens => "tokens",
            FileKind::Pointer => "pointer",
            FileKind::Serving => "serving",
            FileKind::ServingKey => "serving-key",
            FileKind::Backup => "backup",
            FileKind::Removed => "removed",
            FileKind::Machines => "machines",
            FileKind::CaNext => "ca-next",
            FileKind::CaNextKey => "ca-next-key",
            FileKind::CaPrevious => "ca-previous",
            FileKind::CaRetired => "ca-retired",
            FileKind::KeptKey => "kept-key",
        }
    }
}

/// Whether a workflow commits what it decided or only reports it (`--dry-run`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Run {
    /// Stage the change.
    Write,
    /// Report what would change; stage nothing.
    DryRun,
}

impl Run {
    /// `DryRun` with `--dry-run`, else `Write`.
    pub fn of(dry_run: bool) -> Run {
        if dry_run { Run::DryRun } else { Run::Write }
    }
}

/// A written file's mode, or that it was removed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Mode {
    /// 0600: it holds a secret.
    #[serde(rename = "0600")]
    Secret,
    /// 0644.
    #[serde(rename = "0644")]
    Public,
    /// Removed.
    #[serde(rename = "-")]
    Removed,
}

impl Mode {
    /// As printed.
    pub fn word(self) -> &'static str {
        match self {
            Mode::Secret => "0600",
            Mode::Public => "0644",
            Mode::Removed => "-",
        }
    }
}

/// A file a command wrote, as printed in its summary.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Written {
    /// Path relative to the asset directory.
    pub path: String,
    /// Octal mode.
    pub mode: Mode,
    /// What it is.
    pub kind: FileKind,
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
    /// Its facts in one line, as the table's DETAILS cell has them: subject, detail, expiry
    /// and fingerprint, each when it has one.
    pub fn facts(&self) -> String {
        let expires = self.not_after.as_ref().map(|n| format!("expires {n}"));
        let sha = self
            .fingerprint_sha256
            .as_ref()
            .map(|f| format!("sha256 {f}"));
        [self.subject.clone(), self.detail.clone(), expires, sha]
            .into_iter()
            .flatten()
            .collect::<Vec<_>>()
            .join("; ")
    }

    /// A file that is not a certificate.
    pub fn file(path: &str, secret: bool, kind: FileKind, detail: Option<String>) -> Written {
        Written {
            path: path.to_string(),
            mode: if secret { Mode::Secret } else { Mode::Public },
            kind,
            subject: None,
            fingerprint_sha256: None,
            not_after: None,
            detail,
            expires_at: None,
        }
    }

    /// A certificate.
    pub fn cert(path: &str, kind: FileKind, info: &CertInfo, detail: String) -> Written {
        Written {
            subject: Some(info.subject.clone()),
            fingerprint_sha256: Some(info.fingerprint.clone()),
            not_after: Some(crate::pki::cert::rfc3339(info.not_after)),
            expires_at: Some(info.not_after),
            ..Written::file(path, false, kind, Some(detail))
        }
    }
}

/// A warning for each certificate just written that is valid for less than inspect's default
/// window (30 days): machines booting after it lapses fail.
pub fn short_lived(files: &[Written], now: i64) -> Vec<Note> {
    let mut out = Vec::new();
    for w in files {
        let Some(at) = w.expires_at else { continue };
        let left = at - now;
        if left >= 30 * 86_400 {
            continue;
        }
        let fix = match w.kind {
            FileKind::Serving => {
                "`mcsctl cert renew --validity 1y` before then (a running serve picks it up)"
            }
            FileKind::Ca | FileKind::CaNext => {
                "rotate to a longer-lived CA before then: `mcsctl ca rotate --validity 10y`, `ca promote`, `ca retire`"
            }
            _ => "replace it before then",
        };
        out.push(Note::Warn(format!(
            "{} is valid for only {} (until {}): inspect reports it at once, and machines booting after that fail with \"x509: certificate has expired\"; {fix}",
            w.path,
            crate::duration::residual(left),
            crate::pki::cert::rfc3339(at)
        )));
    }
    out
}
