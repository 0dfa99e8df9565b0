//! A `--resolve` entry (`HOST:ADDR` or `HOST:PORT:ADDR`, as curl's): where the HTTP client
//! connects for a host instead of asking DNS. doctor takes it on the command line.

use std::net::IpAddr;

/// A `--resolve` entry: host, optional port, address.
pub type Resolve = (String, Option<u16>, IpAddr);

/// Parses a `--resolve` value: `HOST:ADDR` or `HOST:PORT:ADDR` (IPv6 addresses in brackets).
pub fn parse_resolve(s: &str) -> Result<Resolve, String> {
    let err = || format!("{s:?}: expected HOST:ADDR or HOST:PORT:ADDR");
    let (host, rest) = s.split_once(':').ok_or_else(err)?;
    let addr_of = |a: &str| {
        a.trim_start_matches('[')
            .trim_end_matches(']')
            .parse::<IpAddr>()
            .map_err(|_| err())
    };
    if let Ok(ip) = addr_of(rest) {
        return Ok((host.to_string(), None, ip));
    }
    let (port, addr) = rest.split_once(':').ok_or_else(err)?;
    Ok((
        host.to_string(),
        Some(port.parse().map_err(|_| err())?),
        addr_of(addr)?,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resolve_entries() {
        assert_eq!(
            parse_resolve("h.example:127.0.0.1").unwrap(),
            ("h.example".into(), None, "127.0.0.1".parse().unwrap())
        );
        assert_eq!(
            parse_resolve("h:22623:[::1]").unwrap(),
            ("h".into(), Some(22623), "::1".parse().unwrap())
        );
        assert!(parse_resolve("nonsense").is_err());
    }
}
