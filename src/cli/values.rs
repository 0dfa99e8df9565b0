//! Typed values of the command line: each structured flag is parsed here, by clap, so a bad
//! value is a usage error (exit 2) that names the flag before any handler runs, and handlers
//! receive domain types. The domain enums get their command-line names here too (clap stays
//! out of the domain modules).

use std::net::SocketAddr;

use clap::ValueEnum;
use clap::builder::PossibleValue;
use time::OffsetDateTime;

use crate::cidr::Cidr;
use crate::duration::Duration;
use crate::ignition::SpecVersion;
use crate::ignition::pointer::Transport;
use crate::ignition::render::Flavour;
use crate::manifests::ServiceType;
use crate::model::config::AuthMode;
use crate::names::{McsAddress, San, is_dns_label, is_dns_name};
use crate::pki::keys::KeyAlgorithm;
use crate::ui::Format;

/// A byte size (`64MiB`, `500K`, `1048576`).
pub fn size(s: &str) -> Result<u64, String> {
    crate::size::parse(s)
}

/// A duration of more than zero: `90s`, `30m`, `1h`, `7d`, `10y`.
pub fn duration(s: &str) -> Result<Duration, String> {
    let d = Duration::parse(s).map_err(|e| e.reason())?;
    if d.seconds() <= 0 {
        return Err("a duration must be more than zero".to_string());
    }
    Ok(d)
}

/// `serve --store-lease`: a lease etcd grants (at least 2s, its shortest with its default
/// election timeout) and that a dead replica's machines can wait out (at most 10m).
pub fn lease(s: &str) -> Result<Duration, String> {
    let d = duration(s)?;
    let min = crate::store::holders::MIN_LEASE.as_secs() as i64;
    if !(min..=600).contains(&d.seconds()) {
        return Err(format!(
            "a lease of {s} is outside 2s..10m: etcd grants no shorter one, and a longer one keeps a dead replica's machines waiting"
        ));
    }
    Ok(d)
}

/// `token rotate --grace`: a duration of more than zero, saying how to end a token at once.
pub fn grace(s: &str) -> Result<Duration, String> {
    duration(s).map_err(|e| {
        if e.ends_with("more than zero") {
            format!(
                "{e}; to end the previous token at once, rotate and then `mcsctl token revoke ID`"
            )
        } else {
            e
        }
    })
}

/// A pointer config's spec version: 3.0.0 to 3.4.0.
pub fn pointer_spec(s: &str) -> Result<SpecVersion, String> {
    let v = SpecVersion::parse(s).map_err(|e| e.to_string())?;
    if v.minor > SpecVersion::POINTER_MAX_MINOR {
        return Err(format!(
            "pointer configs are written at 3.0.0 to 3.4.0 (Ignition before 2.20 rejects {s}; a pointer config needs no newer field)"
        ));
    }
    Ok(v)
}

/// A rendered config's spec version, or what an Ignition client accepts: 3.0.0 to 3.5.0.
pub fn spec(s: &str) -> Result<SpecVersion, String> {
    SpecVersion::parse(s).map_err(|e| e.to_string())
}

/// A subject alternative name: a DNS name (a leading `*.` allowed) or an IP address.
pub fn san(s: &str) -> Result<San, String> {
    San::parse(s)
}

/// A cluster name or pool: a DNS label.
pub fn dns_label(s: &str) -> Result<String, String> {
    if is_dns_label(s) {
        Ok(s.to_string())
    } else {
        Err(
            "not a DNS label: use 1 to 63 lower-case letters, digits and '-', not at either end"
                .to_string(),
        )
    }
}

/// A base domain: a DNS name, kept in lower case.
pub fn dns_name(s: &str) -> Result<String, String> {
    if is_dns_name(s) {
        Ok(s.to_ascii_lowercase())
    } else {
        Err("not a DNS name: labels of letters, digits and '-', separated by dots".to_string())
    }
}

/// `init --url`: the MCS address, `HOST`, `HOST:PORT` or `https://HOST:PORT`.
pub fn mcs_address(s: &str) -> Result<McsAddress, String> {
    McsAddress::parse(s)
}

/// `pointer --url`: a whole merge URL, or an MCS address completed with `/config/<pool>`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum UrlArg {
    /// `https://HOST[:PORT]/PATH`, used as it is.
    Merge(String),
    /// An MCS address; the pool's path is added.
    Address(McsAddress),
}

impl UrlArg {
    /// The merge URL for `pool`.
    pub fn for_pool(&self, pool: &str) -> String {
        match self {
            UrlArg::Merge(u) => u.clone(),
            UrlArg::Address(a) => a.config_url(pool),
        }
    }
}

/// Parses `pointer --url`.
pub fn merge_url(s: &str) -> Result<UrlArg, String> {
    let rest = s
        .strip_prefix("https://")
        .or_else(|| s.strip_prefix("http://"));
    match rest {
        Some(r) if r.trim_end_matches('/').contains('/') => {
            if crate::http::HttpUrl::parse(s).is_none() {
                return Err(
                    "expected https://HOST[:PORT]/PATH, or the MCS address HOST[:PORT]".to_string(),
                );
            }
            Ok(UrlArg::Merge(s.to_string()))
        }
        _ => McsAddress::parse(s).map(UrlArg::Address),
    }
}

/// A listen address, `IP:PORT`.
pub fn listen(s: &str) -> Result<SocketAddr, String> {
    s.parse()
        .map_err(|_| "expected IP:PORT, e.g. 0.0.0.0:22623".to_string())
}

/// `HOST:PORT` of a live endpoint.
pub fn host_port(s: &str) -> Result<String, String> {
    match s.rsplit_once(':') {
        Some((h, p)) if p.parse::<u16>().is_ok() && !h.is_empty() => Ok(s.to_string()),
        _ => Err("expected HOST:PORT".to_string()),
    }
}

/// A load balancer's address or CIDR block.
pub fn cidr(s: &str) -> Result<Cidr, String> {
    Cidr::parse(s)
}

/// `doctor --resolve`: `HOST:ADDR` or `HOST:PORT:ADDR`.
pub fn resolve(s: &str) -> Result<crate::http::resolve::Resolve, String> {
    crate::http::resolve::parse_resolve(s)
}

/// A time in RFC 3339.
pub fn rfc3339(s: &str) -> Result<OffsetDateTime, String> {
    OffsetDateTime::parse(s, &time::format_description::well_known::Rfc3339)
        .map_err(|_| "expected an RFC 3339 time, e.g. 2026-01-31T12:00:00Z".to_string())
}

/// `init --token-transport`: header or query (`--no-token` for none).
pub fn init_transport(s: &str) -> Result<Transport, String> {
    match Transport::parse(s) {
        Ok(Transport::None) => Err("none is written --no-token".to_string()),
        Ok(t) => Ok(t),
        Err(_) => Err("expected header or query".to_string()),
    }
}

/// Every variant with its command-line name and help, for a domain enum.
macro_rules! value_enum {
    ($ty:ty, $($variant:path => $help:literal),+ $(,)?) => {
        impl ValueEnum for $ty {
            fn value_variants<'a>() -> &'a [Self] {
                &[$($variant),+]
            }

            fn to_possible_value(&self) -> Option<PossibleValue> {
                Some(PossibleValue::new(self.name()).help(match self {
                    $($variant => $help),+
                }))
            }
        }
    };
}

value_enum!(KeyAlgorithm,
    KeyAlgorithm::EcdsaP256 => "ECDSA on NIST P-256 with SHA-256",
    KeyAlgorithm::EcdsaP384 => "ECDSA on NIST P-384 with SHA-384",
    KeyAlgorithm::Ed25519 => "Ed25519",
    KeyAlgorithm::Rsa2048 => "RSA 2048-bit (what openshift-install uses)",
    KeyAlgorithm::Rsa3072 => "RSA 3072-bit",
    KeyAlgorithm::Rsa4096 => "RSA 4096-bit",
);

value_enum!(Transport,
    Transport::Header => "`Authorization: Bearer` in httpHeaders (spec 3.1.0 and later)",
    Transport::Query => "`?token=` in the merge URL (the only way for spec 3.0.0)",
    Transport::None => "No token in the pointer config",
);

value_enum!(Flavour,
    Flavour::OpenShift => "OpenShift / OKD nodes: what the MCS serves (MCO merge rules, node annotations, bootstrap kubeconfig, the MachineConfig for the machine-config daemon's firstboot)",
    Flavour::CoreOs => "Fedora CoreOS fleets with no machine-config daemon: plain Ignition, kernel arguments as Ignition kernelArguments; fips, kernelType, extensions and osImageURL are refused",
);

value_enum!(AuthMode,
    AuthMode::Token => "A valid provisioning token is required (401 otherwise)",
    AuthMode::Split => "Without a valid token, serve rendered/pre-approval/<pool>.ign; with one, the full config",
    AuthMode::None => "Full configs to anyone (a loud warning at start)",
);

value_enum!(Format,
    Format::Text => "Text for people: tables and summaries",
    Format::Json => "One JSON document (schemas in docs/scripting.md), for scripts",
    Format::Yaml => "The same document in YAML (keys sorted, as `oc -o yaml` writes)",
);

value_enum!(crate::json_line::LogFormat,
    crate::json_line::LogFormat::Auto => "Text on a terminal, JSON lines otherwise (each of stdout and stderr decides)",
    crate::json_line::LogFormat::Json => "JSON lines: one object a line, for log collectors",
    crate::json_line::LogFormat::Text => "Readable lines: time, what, fields",
);

value_enum!(ServiceType,
    ServiceType::NodePort => "Port 32623 on every node (reachable by booting machines with no load-balancer integration)",
    ServiceType::LoadBalancer => "A load balancer from the platform (cloud, MetalLB)",
    ServiceType::ClusterIP => "Inside the cluster only: booting machines cannot reach it",
);

/// `--current FILE`: the rendered MachineConfig in it, read and checked.
pub fn current_machine_config(
    s: &str,
) -> Result<crate::ignition::render::reconcile::Rendered, String> {
    crate::ignition::render::reconcile::Rendered::read(std::path::Path::new(s))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typed_values_and_their_errors() {
        assert_eq!(duration("90s").unwrap().seconds(), 90);
        assert_eq!(
            duration("0s").unwrap_err(),
            "a duration must be more than zero"
        );
        assert_eq!(
            duration("ten years").unwrap_err(),
            "missing number (use a number and a unit: 90s, 30m, 1h, 7d, 10y)"
        );
        assert!(grace("0m").unwrap_err().contains("mcsctl token revoke ID"));
        assert_eq!(pointer_spec("3.4.0").unwrap().minor, 4);
        assert!(
            pointer_spec("3.5.0")
                .unwrap_err()
                .contains("3.0.0 to 3.4.0")
        );
        assert_eq!(spec("3.5.0").unwrap().minor, 5);
        assert_eq!(
            merge_url("lb.example.com").unwrap().for_pool("infra"),
            "https://lb.example.com:22623/config/infra"
        );
        assert_eq!(
            merge_url("https://x:1/a").unwrap(),
            UrlArg::Merge("https://x:1/a".into())
        );
        assert!(init_transport("none").is_err());
        assert_eq!(dns_name("Example.COM").unwrap(), "example.com");
        assert!(host_port("api:22623").is_ok() && host_port("api").is_err());
    }
}
