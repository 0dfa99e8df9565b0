//! Failed TLS handshakes, said once per client address and reason, then counted: a machine whose
//! pointer config trusts another CA (a stale pointer after `ca promote`) refuses the serving
//! certificate and retries for ever, and that is worth one line a minute, not one per retry.
//!
//! A failure is classified by what the client said (its TLS alert: Go's crypto/tls, which is
//! Ignition's, sends `bad_certificate` for any certificate it cannot verify) or by what went
//! wrong. A connection closed before its first TLS byte (a balancer's TCP health check) is not a
//! failure and is not counted.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use rustls::AlertDescription;

/// How often one (address, reason) is said again while failures continue.
pub const REPEAT: Duration = Duration::from_secs(60);

/// Most (address, reason) pairs tracked; beyond that the ones quiet longest are forgotten.
const MAX_TRACKED: usize = 4096;

/// Why a handshake failed.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Reason {
    /// The client sent this alert.
    Alert(String),
    /// The bytes were not TLS (plain HTTP to the TLS port, a scanner).
    NotTls,
    /// No protocol version or cipher suite in common.
    NoCommonGround,
    /// Its server name (SNI) was not a host name (`host:port`, say), which rustls refuses with
    /// `illegal_parameter` where Go's server, the MCS's, ignores it.
    BadServerName,
    /// It did not finish within `--handshake-timeout`.
    Timeout,
    /// Anything else rustls refused.
    Other(String),
}

impl Reason {
    /// Classifies the error of a failed accept; `None` for a connection that simply closed.
    pub fn of(e: &std::io::Error) -> Option<Reason> {
        let tls = e.get_ref()?.downcast_ref::<rustls::Error>()?;
        Some(match tls {
            rustls::Error::AlertReceived(a) => Reason::Alert(alert_name(*a)),
            rustls::Error::InvalidMessage(_)
            | rustls::Error::InappropriateHandshakeMessage { .. }
            | rustls::Error::InappropriateMessage { .. } => Reason::NotTls,
            rustls::Error::PeerIncompatible(_) => Reason::NoCommonGround,
            rustls::Error::PeerMisbehaved(
                rustls::PeerMisbehaved::ServerNameMustContainOneHostName,
            ) => Reason::BadServerName,
            other => Reason::Other(other.to_string()),
        })
    }

    /// "refused with bad_certificate", for the log line about `n` handshakes.
    fn verb(&self, n: u64) -> String {
        match self {
            Reason::Alert(a) => format!("refused with {a}"),
            Reason::NotTls if n == 1 => "was not TLS".into(),
            Reason::NotTls => "were not TLS".into(),
            Reason::NoCommonGround => "found no TLS version or cipher in common".into(),
            Reason::BadServerName => {
                "carried a TLS server name (SNI) that is not a host name".into()
            }
            Reason::Timeout => "timed out".into(),
            Reason::Other(e) => format!("failed: {e}"),
        }
    }

    /// What probably causes it.
    fn hint(&self) -> &'static str {
        match self {
            Reason::Alert(a) => match a.as_str() {
                "unknown_ca" | "bad_certificate" | "certificate_unknown" => {
                    "a pointer config trusting another CA (stale after `ca promote`?), or a URL host the certificate does not name? `mcsctl inspect` checks both"
                }
                "certificate_expired" => {
                    "the client finds the serving certificate expired: check `mcsctl inspect` and the machine's clock"
                }
                "unsupported_certificate" | "illegal_parameter" | "handshake_failure" => {
                    "the client cannot use this certificate or these parameters: an old TLS client?"
                }
                _ => "the client gave up on the handshake",
            },
            Reason::NotTls => "plain HTTP to the TLS port (the URL must be https), or a scanner",
            Reason::NoCommonGround => "an old TLS client (serve speaks TLS 1.2 and 1.3)",
            Reason::BadServerName => {
                "a client putting host:port or another non-name in SNI (hey 0.1.4 does); Ignition sends the URL's host name, or none for an IP address"
            }
            Reason::Timeout => "a slow network or a client that stalls",
            Reason::Other(_) => "see the reason",
        }
    }
}

/// The alert's name as TLS writes it (`bad_certificate`).
fn alert_name(a: AlertDescription) -> String {
    let camel = format!("{a:?}");
    let mut out = String::new();
    let mut prev_lower = false;
    for c in camel.chars() {
        // Acronyms stay together: UnknownCA -> unknown_ca.
        if c.is_ascii_uppercase() && prev_lower {
            out.push('_');
        }
        prev_lower = c.is_ascii_lowercase();
        out.push(c.to_ascii_lowercase());
    }
    out
}

/// `10:02:11Z`: the time of day a log line's "since" names.
pub fn clock_time(t: time::OffsetDateTime) -> String {
    format!("{:02}:{:02}:{:02}Z", t.hour(), t.minute(), t.second())
}

struct Entry {
    count: u64,
    since: String,
    said_at: Instant,
    said_count: u64,
    last: Instant,
}

/// The failures seen, per (client address, reason).
#[derive(Default)]
pub struct Handshakes {
    seen: Mutex<HashMap<(IpAddr, Reason), Entry>>,
}

impl Handshakes {
    /// Counts a failure of `client` at `now` (wall clock `wall`, for the "since"); returns the
    /// line to log when this pair is new or was last said [`REPEAT`] ago.
    pub fn record(
        &self,
        client: IpAddr,
        reason: Reason,
        now: Instant,
        wall: &str,
    ) -> Option<String> {
        let mut seen = self.seen.lock().unwrap_or_else(|p| p.into_inner());
        if seen.len() >= MAX_TRACKED && !seen.contains_key(&(client, reason.clone())) {
            let quiet = seen.values().map(|e| e.last).min()?;
            seen.retain(|_, e| e.last > quiet);
        }
        let e = seen
            .entry((client, reason.clone()))
            .or_insert_with(|| Entry {
                count: 0,
                since: wall.to_string(),
                said_at: now,
                said_count: 0,
                last: now,
            });
        e.count += 1;
        e.last = now;
        let due = e.said_count == 0 || now.duration_since(e.said_at) >= REPEAT;
        if !due {
            return None;
        }
        e.said_at = now;
        e.said_count = e.count;
        let n = e.count;
        Some(format!(
            "{client}: {n} handshake{} {} since {}: {}",
            if n == 1 { "" } else { "s" },
            reason.verb(n),
            e.since,
            reason.hint()
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn said_once_then_counted_per_address_and_reason() {
        let h = Handshakes::default();
        let t0 = Instant::now();
        let a: IpAddr = "10.0.0.7".parse().unwrap();
        let b: IpAddr = "10.0.0.8".parse().unwrap();
        let bad = Reason::Alert(alert_name(AlertDescription::BadCertificate));
        let first = h.record(a, bad.clone(), t0, "10:02:00").unwrap();
        assert_eq!(
            first,
            "10.0.0.7: 1 handshake refused with bad_certificate since 10:02:00: a pointer config trusting another CA (stale after `ca promote`?), or a URL host the certificate does not name? `mcsctl inspect` checks both"
        );
        for i in 1..11 {
            assert!(
                h.record(a, bad.clone(), t0 + Duration::from_secs(i), "x")
                    .is_none()
            );
        }
        // Another address and another reason are said at once.
        assert!(h.record(b, bad.clone(), t0, "10:02:01").is_some());
        assert!(
            h.record(a, Reason::NotTls, t0, "10:02:01")
                .unwrap()
                .starts_with("10.0.0.7: 1 handshake was not TLS since 10:02:01:")
        );
        let again = h.record(a, bad, t0 + REPEAT, "x").unwrap();
        assert!(
            again.starts_with(
                "10.0.0.7: 12 handshakes refused with bad_certificate since 10:02:00:"
            ),
            "{again}"
        );
        assert_eq!(alert_name(AlertDescription::UnknownCA), "unknown_ca");
        assert_eq!(
            alert_name(AlertDescription::CertificateExpired),
            "certificate_expired"
        );
    }

    #[test]
    fn tracking_is_bounded() {
        let h = Handshakes::default();
        let t0 = Instant::now();
        for i in 0..(MAX_TRACKED as u32 + 100) {
            let ip = IpAddr::from(i.to_be_bytes());
            h.record(
                ip,
                Reason::Timeout,
                t0 + Duration::from_millis(i.into()),
                "t",
            );
        }
        assert!(h.seen.lock().unwrap().len() <= MAX_TRACKED);
    }
}
