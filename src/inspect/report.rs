//! The report `inspect` builds: certificate rows, pointer rows and check rows. Every finding
//! that is not ok is a check row with a fix, so text and JSON say the same and the exit code
//! always has a row to show for it.

use serde::Serialize;

use crate::pki::cert::{CertInfo, Status, rfc3339};

/// Result level of a check.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    /// Fine.
    Ok,
    /// Needs attention soon (exit 3).
    Warn,
    /// Broken (exit 4).
    Fail,
}

impl Level {
    /// The colour of its word.
    pub fn tone(self) -> crate::ui::Tone {
        match self {
            Level::Ok => crate::ui::Tone::Good,
            Level::Warn => crate::ui::Tone::Caution,
            Level::Fail => crate::ui::Tone::Bad,
        }
    }

    /// The word printed in tables.
    pub fn word(self) -> &'static str {
        match self {
            Level::Ok => "ok",
            Level::Warn => "warn",
            Level::Fail => "fail",
        }
    }
}

/// What a certificate is, which decides the fix for it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// The asset directory's active CA.
    Ca,
    /// Another CA of the asset directory (next, previous, bundle).
    OtherCa,
    /// The serving certificate.
    Serving,
    /// A certificate of the bootstrap kubeconfig.
    Kubeconfig,
    /// A CA inside a pointer config.
    PointerCa,
    /// A certificate in a Kubernetes object.
    Kube,
    /// What a live server presents.
    Remote,
    /// A PEM file named on the command line.
    File,
}

/// One certificate.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CertRow {
    /// Where it was found.
    pub name: String,
    /// Subject.
    pub subject: String,
    /// Issuer (`self` for a self-issued one).
    pub issuer: String,
    /// Serial.
    pub serial: String,
    /// RFC 3339.
    pub not_before: String,
    /// RFC 3339.
    pub not_after: String,
    /// Key type.
    pub key: String,
    /// CA:true.
    pub is_ca: bool,
    /// Subject alternative names.
    pub sans: Vec<String>,
    /// SHA-256 fingerprint.
    pub fingerprint_sha256: String,
    /// ok, expiring, expired, not-yet-valid.
    pub status: String,
    /// Time left, for the table.
    #[serde(skip)]
    pub residual: String,
    /// Level of the status.
    #[serde(skip)]
    pub level: Level,
}

/// One pointer config.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PointerRow {
    /// File name.
    pub name: String,
    /// Ignition version.
    pub spec_version: String,
    /// Merge and replace sources, without any token.
    pub merge_sources: Vec<String>,
    /// How many CAs it trusts.
    pub certificate_authorities: usize,
    /// Its token, if any (never the secret).
    pub token: Option<TokenRef>,
}

/// A pointer config's token.
#[derive(Debug, Serialize)]
pub struct TokenRef {
    /// `header` or `query`.
    pub transport: &'static str,
    /// The public id.
    pub id: Option<String>,
}

/// One finding.
#[derive(Debug, Serialize)]
pub struct Check {
    /// ok, warn or fail.
    pub status: Level,
    /// What was checked.
    pub check: &'static str,
    /// What was found.
    pub message: String,
    /// What to do, on every check that is not ok.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fix: Option<String>,
}

/// The whole report.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Report {
    /// Certificates.
    pub certificates: Vec<CertRow>,
    /// Pointer configs.
    pub pointers: Vec<PointerRow>,
    /// Findings.
    pub checks: Vec<Check>,
    /// 0, 3 or 4.
    pub exit_code: u8,
    /// The time the report is for.
    #[serde(skip)]
    pub now: time::OffsetDateTime,
    /// The warning window in seconds.
    #[serde(skip)]
    pub warn_within: i64,
}

impl Report {
    /// An empty report for `now`.
    pub fn new(now: time::OffsetDateTime, warn_within: i64) -> Report {
        Report {
            certificates: Vec::new(),
            pointers: Vec::new(),
            checks: Vec::new(),
            exit_code: 0,
            now,
            warn_within,
        }
    }

    /// Adds a certificate row (once per name and fingerprint) and, when it is not ok, an
    /// `expiry` check saying why and what to do for a certificate of this role.
    pub fn cert(&mut self, name: impl Into<String>, c: &CertInfo, role: Role) {
        let name = name.into();
        if self
            .certificates
            .iter()
            .any(|r| r.name == name && r.fingerprint_sha256 == c.fingerprint)
        {
            return;
        }
        let now = self.now.unix_timestamp();
        let status = Status::of(c, now, self.warn_within);
        let level = match status {
            Status::Ok => Level::Ok,
            Status::ExpiringSoon => Level::Warn,
            Status::Invalid => Level::Fail,
        };
        if let Some(why) = Status::reason(c, now, self.warn_within) {
            self.check(
                level,
                "expiry",
                format!("{name} {why}"),
                fix_for(role, &name),
            );
        }
        self.certificates.push(CertRow {
            name,
            subject: c.subject.clone(),
            issuer: if c.is_self_issued() {
                "self".into()
            } else {
                short_name(&c.issuer)
            },
            serial: c.serial.clone(),
            not_before: rfc3339(c.not_before),
            not_after: rfc3339(c.not_after),
            key: c.key.clone(),
            is_ca: c.is_ca,
            sans: c.sans(),
            fingerprint_sha256: c.fingerprint.clone(),
            status: status.label(c, now).to_string(),
            residual: crate::duration::residual(c.not_after - now),
            level,
        });
    }

    /// Adds a check; `fix` is required in spirit for anything not ok.
    pub fn check(
        &mut self,
        status: Level,
        check: &'static str,
        message: impl Into<String>,
        fix: impl Into<Option<String>>,
    ) {
        self.checks.push(Check {
            status,
            check,
            message: message.into(),
            fix: fix.into(),
        });
    }

    /// An ok check.
    pub fn ok(&mut self, check: &'static str, message: impl Into<String>) {
        self.check(Level::Ok, check, message, None);
    }

    /// The worst level found.
    pub fn worst(&self) -> Level {
        self.checks
            .iter()
            .map(|c| c.status)
            .max()
            .unwrap_or(Level::Ok)
    }

    /// Sets the exit code from the worst finding.
    pub fn finish(mut self) -> Report {
        self.exit_code = match self.worst() {
            Level::Ok => crate::exit::OK,
            Level::Warn => crate::exit::ATTENTION,
            Level::Fail => crate::exit::FAILED,
        };
        self
    }
}

/// What to do about a certificate of `role` that is expiring or invalid.
fn fix_for(role: Role, name: &str) -> String {
    match role {
        Role::Ca => "replace the CA in three steps: `mcsctl ca rotate`, then `mcsctl ca promote`, then `mcsctl ca retire` (see docs/rotate-the-ca.md)".into(),
        Role::OtherCa => "finish or redo the rotation: `mcsctl ca retire` drops a CA that is no longer needed".into(),
        Role::Serving => "`mcsctl cert renew` (same CA, same SANs, new key); a running serve picks it up".into(),
        Role::Kubeconfig => "get a new bootstrap kubeconfig and run `mcsctl render --bootstrap-kubeconfig FILE --force`".into(),
        Role::PointerCa => format!(
            "{} trusts this CA: rotate it (`mcsctl ca rotate`) and copy the rewritten pointer configs to where machines boot from",
            name.split_whitespace().next().unwrap_or(name)
        ),
        Role::Kube => "renew it in the cluster, or write the objects again with `mcsctl manifests --force`".into(),
        Role::Remote => "renew the certificate the server presents (for mcsctl serve: `mcsctl cert renew`)".into(),
        Role::File => "renew or replace it".into(),
    }
}

/// `OU=openshift, CN=root-ca` → `root-ca`: the CN when there is one.
pub fn short_name(dn: &str) -> String {
    dn.split(", ")
        .find_map(|p| p.strip_prefix("CN="))
        .map(str::to_string)
        .unwrap_or_else(|| dn.to_string())
}
