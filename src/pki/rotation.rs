//! The MCS CA over its life, in three phases, each one command:
//!
//! 1. `ca rotate`: a new CA is introduced beside the active one; the bundle (and every pointer
//!    config) trusts both; the serving certificate stays. Machines booting now work either way.
//! 2. `ca promote`: the serving certificate is re-issued by the new CA, which becomes the
//!    active one; the old one is kept as "previous", still trusted. Only machines whose pointer
//!    config trusts the new CA can boot now.
//! 3. `ca retire`: the previous CA leaves the bundle and the pointer configs.
//!
//! The bundle never holds more than these two, nor an expired CA.

use super::cert::CertInfo;

/// Where a rotation stands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Phase {
    /// One CA; nothing in progress.
    Steady,
    /// A new CA is trusted but does not sign yet: next is `ca promote`.
    Introduced,
    /// The new CA signs; the old one is still trusted: next is `ca retire`.
    Promoted,
}

impl Phase {
    /// Decides the phase from which files exist.
    pub fn of(next: bool, previous: bool) -> Phase {
        match (next, previous) {
            (true, _) => Phase::Introduced,
            (false, true) => Phase::Promoted,
            (false, false) => Phase::Steady,
        }
    }

    /// One line for inspect and the commands: where the rotation stands and what comes next.
    pub fn describe(&self) -> (&'static str, Option<&'static str>) {
        match self {
            Phase::Steady => ("no CA rotation in progress", None),
            Phase::Introduced => (
                "CA rotation, phase 1 of 3 (rotate): the new CA is trusted by the bundle and the pointer configs here, the old one still signs",
                Some(
                    "copy the rewritten pointer configs to where machines boot from, then run `mcsctl ca promote`",
                ),
            ),
            Phase::Promoted => (
                "CA rotation, phase 2 of 3 (promote): the new CA signs, the old one is still trusted",
                Some(
                    "once no machine boots with a pointer config that trusts only the old CA, run `mcsctl ca retire`",
                ),
            ),
        }
    }
}

/// A bundle of `cas` (in order), without duplicates and without CAs expired at `now`.
pub fn bundle<'a>(cas: impl IntoIterator<Item = &'a CertInfo>, now: i64) -> Vec<CertInfo> {
    let mut out: Vec<CertInfo> = Vec::new();
    for c in cas {
        if c.not_after > now && !out.iter().any(|o| o.der == c.der) {
            out.push(c.clone());
        }
    }
    out
}

/// The PEM of a bundle.
pub fn pem(cas: &[CertInfo]) -> String {
    cas.iter().map(CertInfo::to_pem).collect()
}

/// `tls/cluster-ca.json`: the bundle is the cluster's own (`ca import --bundle`), which the
/// MCO rotates (OpenShift 4.19 and later); mcsctl's own rotation steps stand aside.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ClusterBundle {
    /// Version of this file's layout.
    pub format_version: u32,
    /// The object (or file) the bundle came from, e.g.
    /// `ConfigMap openshift-machine-config-operator/machine-config-server-ca`.
    pub source: String,
    /// When it was imported (RFC 3339).
    pub imported_at: String,
    /// Whether the signing key came with it (the Secret, or --key).
    pub signing_key: bool,
}

impl ClusterBundle {
    /// The current format version.
    pub const FORMAT_VERSION: u32 = 1;

    /// Parses the file; `name` is used in errors.
    pub fn parse(bytes: &[u8], name: &str) -> anyhow::Result<ClusterBundle> {
        let b: ClusterBundle = serde_json::from_slice(bytes)
            .map_err(|e| anyhow::anyhow!("{name} is not a valid cluster CA record: {e}"))?;
        if b.format_version != Self::FORMAT_VERSION {
            anyhow::bail!(
                "{name} has format version {}; this mcsctl reads {}",
                b.format_version,
                Self::FORMAT_VERSION
            );
        }
        Ok(b)
    }

    /// Why mcsctl's own rotation steps refuse, and what to do instead.
    pub fn refusal(&self, step: &str) -> String {
        format!(
            "the CA bundle here is the cluster's (from {}): the MCO rotates it, not `ca {step}`; after it does, run `mcsctl ca import --bundle` with the new one again (`mcsctl ca create --force --yes` takes the CA over, and every pointer config trusting the cluster's bundle stops working)",
            self.source
        )
    }
}
