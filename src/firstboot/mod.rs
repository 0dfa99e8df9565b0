//! The first-boot report (`render --report`): a small oneshot unit and script in a pool's full
//! config that, once the machine is up after Ignition, posts one bounded JSON report to serve
//! (`POST /report/<pool>`) with the pool's report credential. It is what the MCO's provisioning
//! enhancement wished Ignition did ("this scenario would be easier to debug if Ignition could
//! report failures to the MCS", coreos/ignition#585): without it "fetched at 10:02, never heard
//! of again" looks the same as "joined at 10:06".
//!
//! A report is information, never evidence: it is not signed by anything the machine could
//! not have copied from its config, and `csr review` never reads it. What it says is shown by
//! `machine list` next to what serve saw itself (the fetch, its address).
//!
//! Here: the report as sent (read with every field bounded), as recorded, the files and unit
//! the config carries, and the pools' credentials. No I/O.

mod script;

use std::collections::BTreeMap;
use std::net::IpAddr;

use anyhow::{Result, anyhow, bail};
use serde::{Deserialize, Serialize};

pub use script::{Addition, UNIT, added, additions, report_url};

pub use crate::assets::layout::{REPORT_CREDENTIALS as CREDENTIALS, REPORTS as DIR};

/// The largest report body serve reads; a larger one is refused with 413.
pub const MAX_BODY: usize = 32 << 10;

/// The script's own bounds on what it sends, and serve's on what it keeps (a report past them
/// is refused: the script never sends one).
pub mod bounds {
    /// Ignition's result file, as read.
    pub const RESULT: usize = 4096;
    /// The first boot's Ignition journal lines.
    pub const JOURNAL: usize = 8192;
    /// Addresses reported.
    pub const ADDRESSES: usize = 32;
    /// A hostname (a DNS name's longest).
    pub const HOSTNAME: usize = 253;
    /// A boot or machine id (32 hex digits, or a UUID's 36 characters).
    pub const ID: usize = 64;
    /// kubelet's unit state (`systemctl is-active`).
    pub const KUBELET: usize = 32;
}

/// A report as the machine sends it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Submitted {
    /// `/proc/sys/kernel/random/boot_id`.
    pub boot_id: String,
    /// `/etc/machine-id`.
    pub machine_id: String,
    /// The hostname.
    pub hostname: String,
    /// The machine's global addresses.
    #[serde(default)]
    pub addresses: Vec<IpAddr>,
    /// `/etc/.ignition-result.json` as read (Ignition writes it when the files stage is done);
    /// empty when there is none.
    #[serde(default)]
    pub ignition_result: String,
    /// The last lines Ignition logged in the first boot's journal.
    #[serde(default)]
    pub ignition_journal: String,
    /// `systemctl is-active kubelet.service`.
    #[serde(default)]
    pub kubelet: String,
}

/// Why a report body is refused (serve answers 400 with the text).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refused(pub String);

impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl Submitted {
    /// Reads a report body: JSON of the fields above, each within its bound. The error says
    /// which field, never quoting the body.
    pub fn parse(body: &[u8]) -> Result<Submitted, Refused> {
        if body.len() > MAX_BODY {
            return Err(Refused(format!("a report is at most {MAX_BODY} bytes")));
        }
        let s: Submitted = serde_json::from_slice(body).map_err(|e| {
            Refused(format!(
                "not a first-boot report (line {}, column {}: {})",
                e.line(),
                e.column(),
                match e.classify() {
                    serde_json::error::Category::Data => "a field is missing or of another type",
                    serde_json::error::Category::Eof => "truncated",
                    _ => "not JSON",
                }
            ))
        })?;
        let id = |v: &str, what: &str| {
            if v.is_empty()
                || v.len() > bounds::ID
                || !v.bytes().all(|b| b.is_ascii_hexdigit() || b == b'-')
            {
                return Err(Refused(format!(
                    "{what}: 1 to {} hex digits and dashes",
                    bounds::ID
                )));
            }
            Ok(())
        };
        id(&s.boot_id, "bootId")?;
        id(&s.machine_id, "machineId")?;
        let text = |v: &str, what: &str, max: usize, lines: bool| {
            if v.len() > max {
                return Err(Refused(format!("{what}: at most {max} bytes")));
            }
            if v.chars().any(|c| c.is_control() && !(lines && c == '\n')) {
                return Err(Refused(format!("{what}: control characters")));
            }
            Ok(())
        };
        text(&s.hostname, "hostname", bounds::HOSTNAME, false)?;
        text(&s.ignition_result, "ignitionResult", bounds::RESULT, true)?;
        text(
            &s.ignition_journal,
            "ignitionJournal",
            bounds::JOURNAL,
            true,
        )?;
        text(&s.kubelet, "kubelet", bounds::KUBELET, false)?;
        if s.addresses.len() > bounds::ADDRESSES {
            return Err(Refused(format!("addresses: at most {}", bounds::ADDRESSES)));
        }
        Ok(s)
    }

    /// What Ignition's result file says, in a few words: `provisioned <date>`, or why there
    /// is nothing to say.
    pub fn ignition(&self) -> IgnitionResult {
        if self.ignition_result.trim().is_empty() {
            return IgnitionResult::Missing;
        }
        match serde_json::from_str::<serde_json::Value>(&self.ignition_result) {
            Ok(v) => IgnitionResult::Done {
                date: v["provisioningDate"].as_str().map(str::to_string),
            },
            Err(_) => IgnitionResult::Unreadable,
        }
    }
}

/// What a report says of Ignition's run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum IgnitionResult {
    /// Ignition wrote its result file: it finished.
    Done {
        /// `provisioningDate`, when given.
        date: Option<String>,
    },
    /// No result file: Ignition did not finish its files stage in this root.
    Missing,
    /// A result file that is not JSON.
    Unreadable,
}

impl std::fmt::Display for IgnitionResult {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            IgnitionResult::Done { date: Some(d) } => write!(f, "Ignition done {d}"),
            IgnitionResult::Done { date: None } => f.write_str("Ignition done"),
            IgnitionResult::Missing => f.write_str("no Ignition result file"),
            IgnitionResult::Unreadable => f.write_str("an unreadable Ignition result file"),
        }
    }
}

/// A report as serve records it: when, from where, which pool, and what was sent.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Record {
    /// When serve received it, RFC 3339 (UTC).
    pub time: String,
    /// The pool named in the path.
    pub pool: String,
    /// The client, after the PROXY protocol (`IP:PORT`).
    pub client: String,
    /// The balancer it came through, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub via: Option<String>,
    /// The serve replica that recorded it.
    pub replica: String,
    /// What the machine sent.
    #[serde(flatten)]
    pub report: Submitted,
}

impl Record {
    /// The client's address without its port.
    pub fn client_ip(&self) -> Option<IpAddr> {
        crate::ledger::client_ip(&self.client)
    }

    /// One JSON line (with its newline).
    pub fn line(&self) -> Vec<u8> {
        let mut out = serde_json::to_vec(self).unwrap_or_default();
        out.push(b'\n');
        out
    }
}

/// The report credentials of the pools that report (`auth/report-credentials.json`): a random
/// secret per pool, written into its full config; serve keeps only their SHA-256.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Credentials {
    /// The format of the file.
    #[serde(rename = "formatVersion")]
    pub format_version: u32,
    /// Secret by pool.
    pub pools: BTreeMap<String, String>,
}

impl Credentials {
    /// The file format written.
    pub const FORMAT_VERSION: u32 = 1;

    /// Reads the file; `what` names it in errors (which never quote a secret).
    pub fn parse(bytes: &[u8], what: &str) -> Result<Credentials> {
        let c: Credentials = serde_json::from_slice(bytes)
            .map_err(|e| anyhow!("{what}: not a report-credentials file (line {})", e.line()))?;
        if c.format_version != Self::FORMAT_VERSION {
            bail!(
                "{what}: formatVersion {} (this mcsctl reads {})",
                c.format_version,
                Self::FORMAT_VERSION
            );
        }
        if let Some(p) = c.pools.keys().find(|p| !crate::names::is_dns_label(p)) {
            bail!("{what}: pool {p:?} is not a DNS label");
        }
        Ok(c)
    }

    /// The file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = serde_json::to_vec_pretty(self).unwrap_or_default();
        out.push(b'\n');
        out
    }

    /// Pool `pool`'s secret, made when it has none; whether it was made.
    pub fn ensure(&mut self, pool: &str) -> Result<(&str, bool)> {
        self.format_version = Self::FORMAT_VERSION;
        let made = !self.pools.contains_key(pool);
        if made {
            let mut b = [0u8; 32];
            aws_lc_rs::rand::fill(&mut b).map_err(|_| anyhow!("the OS random source failed"))?;
            use base64::Engine as _;
            let secret = base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(b);
            self.pools.insert(pool.to_string(), secret);
        }
        Ok((self.pools[pool].as_str(), made))
    }

    /// Whether `presented` is pool `pool`'s credential: SHA-256 of both compared in constant
    /// time (a pool without one matches nothing, at the same cost).
    pub fn accepts(&self, pool: &str, presented: &str) -> bool {
        let want = self
            .pools
            .get(pool)
            .map_or([0xff; 32], crate::token::digest);
        aws_lc_rs::constant_time::verify_slices_are_equal(&want, &crate::token::digest(presented))
            .is_ok()
    }
}

/// Every report in the directory's files (`auth/reports/*.jsonl`), oldest first. Read a line
/// at a time, each line bounded (a report is at most [`MAX_BODY`] and its record little more);
/// a torn line (a kill mid-write) or a line that is no report is skipped.
pub fn read_files(dir: &crate::assets::AssetDir) -> Result<Vec<Record>> {
    use std::io::{BufRead as _, Read as _};
    const LIMIT: u64 = 2 * MAX_BODY as u64;
    let mut out = Vec::new();
    for rel in dir.files_in(DIR).unwrap_or_default() {
        if !rel.ends_with(".jsonl") {
            continue;
        }
        let path = dir.path(&rel);
        let failed = |e: std::io::Error| anyhow!("reading {}: {e}", path.display());
        let mut reader = std::io::BufReader::new(std::fs::File::open(&path).map_err(failed)?);
        let mut line = Vec::new();
        loop {
            line.clear();
            let n = reader
                .by_ref()
                .take(LIMIT)
                .read_until(b'\n', &mut line)
                .map_err(failed)?;
            if n == 0 {
                break;
            }
            if line.last() != Some(&b'\n') && n as u64 == LIMIT {
                // Longer than any record: skipped to its end, a bounded piece at a time.
                while line.last() != Some(&b'\n') {
                    line.clear();
                    if reader
                        .by_ref()
                        .take(LIMIT)
                        .read_until(b'\n', &mut line)
                        .map_err(failed)?
                        == 0
                    {
                        break;
                    }
                }
                continue;
            }
            if let Ok(r) = serde_json::from_slice::<Record>(&line) {
                out.push(r);
            }
        }
    }
    out.sort_by(|a, b| a.time.cmp(&b.time));
    Ok(out)
}

#[cfg(test)]
mod tests;
