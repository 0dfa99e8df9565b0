//! Failed TLS handshakes, said once per client address and reason, then counted: a machine whose
//! pointer config trusts another CA (a stale pointer after `ca promote`) refuses the serving
//! certificate and retries for ever, and that is worth one line a minute, not one per retry.
//!
//! A failure is classified by what the client said (its TLS alert: Go's crypto/tls, which is
//! Ignition's, sends `bad_certificate` for any certificate it cannot verify) or by what went
//! wrong. A connection closed before its first TLS byte (a balancer's TCP health check) is not a
//! failure and is not counted.

use std::net::IpAddr;
use std::time::Instant;

use rustls::AlertDescription;

/// Why a handshake failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reason {
    /// The client sent this alert.
    Alert(AlertDescription),
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

// By hand: rustls's AlertDescription is not Hash; its wire byte is.
impl std::hash::Hash for Reason {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        std::mem::discriminant(self).hash(state);
        match self {
            Reason::Alert(a) => u8::from(*a).hash(state),
            Reason::Other(e) => e.hash(state),
            Reason::NotTls | Reason::NoCommonGround | Reason::BadServerName | Reason::Timeout => {}
        }
    }
}

impl Reason {
    /// Classifies the error of a failed accept; `None` for a connection that simply closed.
    pub fn of(e: &std::io::Error) -> Option<Reason> {
        let tls = e.get_ref()?.downcast_ref::<rustls::Error>()?;
        Some(match tls {
            rustls::Error::AlertReceived(a) => Reason::Alert(*a),
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
            Reason::Alert(a) => format!("refused with {}", alert_name(*a)),
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
            Reason::Alert(a) => match a {
                AlertDescription::UnknownCA
                | AlertDescription::BadCertificate
                | AlertDescription::CertificateUnknown => {
                    "a pointer config trusting another CA (stale after `ca promote`?), or a URL host the certificate does not name? `mcsctl inspect` checks both"
                }
                AlertDescription::CertificateExpired => {
                    "the client finds the serving certificate expired: check `mcsctl inspect` and the machine's clock"
                }
                AlertDescription::UnsupportedCertificate
                | AlertDescription::IllegalParameter
                | AlertDescription::HandshakeFailure => {
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

/// The alert's name as TLS writes it (`bad_certificate`), for the log and the metric's label.
pub fn alert_name(a: AlertDescription) -> String {
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

use crate::serve::log::repeats::Repeats;
pub use crate::serve::log::repeats::{REPEAT, clock_time};

/// The failures seen, per (client address, reason).
#[derive(Default)]
pub struct Handshakes {
    seen: Repeats<(IpAddr, Reason)>,
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
        let said = self.seen.record(&(client, reason.clone()), now, wall)?;
        let n = said.count;
        Some(format!(
            "{client}: {n} handshake{} {} since {}: {}",
            if n == 1 { "" } else { "s" },
            reason.verb(n),
            said.since,
            reason.hint()
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn said_once_then_counted_per_address_and_reason() {
        let h = Handshakes::default();
        let t0 = Instant::now();
        let a: IpAddr = "10.0.0.7".parse().unwrap();
        let b: IpAddr = "10.0.0.8".parse().unwrap();
        let bad = Reason::Alert(AlertDescription::BadCertificate);
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
}
