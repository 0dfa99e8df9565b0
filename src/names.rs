//! Validation of the names users type: cluster names and pools (DNS labels), base domains and
//! SANs (DNS names), IP addresses.

use std::net::IpAddr;

/// A DNS label as RFC 1123 defines it: 1 to 63 of `[a-z0-9-]`, not starting or ending with `-`.
/// Lower case only, as Kubernetes object names and OpenShift cluster names are.
pub fn is_dns_label(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 63
        && s.bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
        && !s.starts_with('-')
        && !s.ends_with('-')
}

/// A DNS name: dot-separated labels (case-insensitive), at most 253 characters, no trailing dot.
pub fn is_dns_name(s: &str) -> bool {
    s.len() <= 253 && s.split('.').all(|l| is_dns_label(&l.to_ascii_lowercase()))
}

/// A subject alternative name from the command line.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum San {
    /// A DNS name, possibly with a left-most `*.` wildcard.
    Dns(String),
    /// An IPv4 or IPv6 address.
    Ip(IpAddr),
}

impl San {
    /// Parses a DNS name or IP address; `DNS:` and `IP:` prefixes (openssl's notation) are accepted.
    pub fn parse(s: &str) -> Result<San, String> {
        let raw = s.trim();
        if let Some(ip) = raw.strip_prefix("IP:") {
            return ip
                .parse()
                .map(San::Ip)
                .map_err(|_| format!("invalid IP address in SAN {s:?}"));
        }
        let raw = raw.strip_prefix("DNS:").unwrap_or(raw);
        if let Ok(ip) = raw
            .trim_start_matches('[')
            .trim_end_matches(']')
            .parse::<IpAddr>()
        {
            return Ok(San::Ip(ip));
        }
        let name = raw.to_ascii_lowercase();
        let base = name.strip_prefix("*.").unwrap_or(&name);
        // No DNS name ends in an all-digit label: 10.0.0.300 is a mistyped address.
        if base
            .rsplit('.')
            .next()
            .is_some_and(|l| !l.is_empty() && l.bytes().all(|b| b.is_ascii_digit()))
        {
            return Err(format!("invalid IP address in SAN {s:?}"));
        }
        if is_dns_name(base) {
            Ok(San::Dns(name))
        } else {
            Err(format!("invalid SAN {s:?}: not a DNS name or IP address"))
        }
    }
}

impl std::fmt::Display for San {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            San::Dns(d) => write!(f, "DNS:{d}"),
            San::Ip(ip) => write!(f, "IP:{ip}"),
        }
    }
}

/// How many single-character edits turn `a` into `b` (Levenshtein).
pub fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            let sub = prev[j] + usize::from(ca != *cb);
            cur.push(sub.min(prev[j + 1] + 1).min(cur[j] + 1));
        }
        prev = cur;
    }
    prev[b.len()]
}

/// The one of `known` that `name` most likely meant: at most two edits away (`wroker`).
pub fn closest<'k, S: AsRef<str>>(name: &str, known: &'k [S]) -> Option<&'k S> {
    known
        .iter()
        .map(|k| (edit_distance(name, k.as_ref()), k))
        .filter(|(d, _)| *d <= 2)
        .min_by_key(|(d, _)| *d)
        .map(|(_, k)| k)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels() {
        assert!(is_dns_label("demo"));
        assert!(is_dns_label("a-1"));
        for bad in ["", "Bad_Name", "-a", "a-", "UPPER", "a.b", &"x".repeat(64)] {
            assert!(!is_dns_label(bad), "{bad}");
        }
    }

    #[test]
    fn names_and_sans() {
        assert!(is_dns_name("example.com"));
        assert!(!is_dns_name("example..com"));
        assert!(!is_dns_name("example.com."));
        assert_eq!(
            San::parse("10.0.0.1").unwrap(),
            San::Ip("10.0.0.1".parse().unwrap())
        );
        assert_eq!(
            San::parse("IP:::1").unwrap(),
            San::Ip("::1".parse().unwrap())
        );
        assert_eq!(
            San::parse("*.apps.Example.com").unwrap(),
            San::Dns("*.apps.example.com".into())
        );
        assert!(San::parse("a b").is_err());
        assert!(San::parse("*.*.x").is_err());
    }
}

/// Where machines reach the MCS when not at api-int (a load balancer): `https://HOST:PORT`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct McsAddress {
    /// `https://HOST:PORT` (or `http://`), no path.
    pub url: String,
    /// The host, for the serving certificate.
    pub host: San,
}

impl McsAddress {
    /// Parses `HOST`, `HOST:PORT` or `https://HOST:PORT` (port 22623 by default).
    pub fn parse(s: &str) -> Result<McsAddress, String> {
        let bad = || {
            "expected the MCS address, HOST, HOST:PORT or https://HOST:PORT (mcsctl adds /config/<pool>)"
                .to_string()
        };
        let rest = s
            .strip_prefix("https://")
            .or_else(|| s.strip_prefix("http://"))
            .unwrap_or(s)
            .trim_end_matches('/');
        if rest.is_empty() || rest.contains(['/', '?', '@']) {
            return Err(bad());
        }
        let scheme = if s.starts_with("http://") {
            "http"
        } else {
            "https"
        };
        let (host, port) = match rest.rsplit_once(':') {
            Some((h, p)) if !rest.starts_with('[') || h.ends_with(']') => {
                (h, p.parse::<u16>().map_err(|_| bad())?)
            }
            _ => (rest, 22623),
        };
        let san = San::parse(host.trim_start_matches('[').trim_end_matches(']'))?;
        Ok(McsAddress {
            url: format!("{scheme}://{host}:{port}"),
            host: san,
        })
    }

    /// The merge URL of `pool`'s config.
    pub fn config_url(&self, pool: &str) -> String {
        format!("{}/config/{pool}", self.url)
    }
}
