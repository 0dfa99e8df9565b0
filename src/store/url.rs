//! `--store etcd://HOST:PORT[,HOST:PORT...]`: the etcd members serve replicas share.

use std::fmt;

/// The members of an etcd cluster, as `--store` names them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoreUrl {
    /// `HOST:PORT` of each member, in the order given.
    pub members: Vec<String>,
}

impl StoreUrl {
    /// Parses `etcd://HOST:PORT[,HOST:PORT...]`; the error says what is expected.
    pub fn parse(s: &str) -> Result<StoreUrl, String> {
        const FORM: &str = "expected etcd://HOST:PORT[,HOST:PORT...], e.g. etcd://10.0.0.5:2379,10.0.0.6:2379,10.0.0.7:2379";
        let Some(rest) = s.strip_prefix("etcd://") else {
            return Err(format!("{s:?}: {FORM}"));
        };
        let members: Vec<String> = rest.split(',').map(str::to_string).collect();
        for m in &members {
            let ok = match m.rsplit_once(':') {
                Some((host, port)) => {
                    let host = host
                        .strip_prefix('[')
                        .and_then(|h| h.strip_suffix(']'))
                        .unwrap_or(host);
                    (crate::names::is_dns_name(host) || host.parse::<std::net::IpAddr>().is_ok())
                        && port.parse::<u16>().is_ok_and(|p| p > 0)
                }
                None => false,
            };
            if !ok {
                return Err(format!("{s:?}: member {m:?} is not HOST:PORT; {FORM}"));
            }
        }
        Ok(StoreUrl { members })
    }

    /// The members as gRPC endpoints: `https://` when the store is reached over TLS.
    pub fn endpoints(&self, tls: bool) -> Vec<String> {
        let scheme = if tls { "https" } else { "http" };
        self.members
            .iter()
            .map(|m| format!("{scheme}://{m}"))
            .collect()
    }
}

impl fmt::Display for StoreUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "etcd://{}", self.members.join(","))
    }
}

impl std::str::FromStr for StoreUrl {
    type Err = String;

    fn from_str(s: &str) -> Result<StoreUrl, String> {
        StoreUrl::parse(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn members_and_errors() {
        let u =
            StoreUrl::parse("etcd://127.0.0.1:2379,etcd-1.example.com:2379,[::1]:2379").unwrap();
        assert_eq!(u.members.len(), 3);
        assert_eq!(u.endpoints(true)[2], "https://[::1]:2379");
        assert_eq!(
            u.to_string(),
            "etcd://127.0.0.1:2379,etcd-1.example.com:2379,[::1]:2379"
        );
        for bad in [
            "http://h:2379",
            "etcd://h",
            "etcd://h:0",
            "etcd://h:2379,",
            "etcd://a b:1",
        ] {
            assert!(StoreUrl::parse(bad).is_err(), "{bad}");
        }
    }
}
