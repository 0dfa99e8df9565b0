//! Pointer configs: the small Ignition config a machine boots with. It carries the MCS CA
//! bundle in `ignition.security.tls.certificateAuthorities`, one `ignition.config.merge`
//! source on the MCS, and optionally the provisioning token.

use anyhow::{Result, anyhow, bail};
use serde_json::{Value, json};

use super::spec::{Config, DecodeError, Spec};
use super::{SpecVersion, dataurl};

/// How the token travels.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Transport {
    /// `httpHeaders: [{name: Authorization, value: Bearer <token>}]` (spec 3.1+).
    Header,
    /// `?token=<token>` on the merge URL.
    Query,
    /// No token.
    None,
}

impl Transport {
    /// The name used on the command line and in `mcsctl.json`.
    pub fn name(self) -> &'static str {
        match self {
            Transport::Header => "header",
            Transport::Query => "query",
            Transport::None => "none",
        }
    }

    /// Parses the name.
    pub fn parse(s: &str) -> Result<Transport> {
        match s {
            "header" => Ok(Transport::Header),
            "query" => Ok(Transport::Query),
            "none" => Ok(Transport::None),
            _ => bail!("unknown token transport {s:?} (header, query or none)"),
        }
    }
}

/// What goes into a pointer config.
#[derive(Debug, Clone)]
pub struct PointerSpec<'a> {
    /// Spec version.
    pub version: SpecVersion,
    /// Merge source URL, without the token.
    pub url: &'a str,
    /// PEM CA bundle to trust.
    pub ca_bundle_pem: &'a [u8],
    /// Bearer token (`<id>.<secret>`), if any.
    pub token: Option<&'a str>,
    /// How the token travels.
    pub transport: Transport,
}

/// Builds the pointer config in mcsctl's one Ignition model ([`super::spec`]): the spec's Go
/// types, written as Go writes them (fields in declaration order, empty ones left out, `&`
/// `<` `>` escaped), so the bytes are those `openshift-install` would write for the same
/// inputs, and the same inputs always give the same bytes. A newline ends it.
pub fn build(spec: &PointerSpec<'_>) -> Result<Vec<u8>> {
    let (url, header) = match (spec.token, spec.transport) {
        (None, _) | (_, Transport::None) => (spec.url.to_string(), None),
        (Some(t), Transport::Query) => (with_query_token(spec.url, t), None),
        (Some(t), Transport::Header) => {
            if !spec.version.has_http_headers() {
                bail!(
                    "Ignition spec 3.0.0 has no httpHeaders; use --token-transport query or spec 3.1.0 or later"
                );
            }
            (spec.url.to_string(), Some(format!("Bearer {t}")))
        }
    };
    let mut merge = json!({"source": url});
    if let Some(h) = header {
        merge["httpHeaders"] = json!([{"name": "Authorization", "value": h}]);
    }
    let ca = dataurl::encode_text(spec.ca_bundle_pem);
    let doc = json!({"ignition": {
        "version": Spec::from(spec.version).to_string(),
        "config": {"merge": [merge]},
        "security": {"tls": {"certificateAuthorities": [{"source": ca}]}},
    }});
    // Every key above is a field of every spec 3 (httpHeaders from 3.1, checked above).
    let (cfg, _) = Config::decode(doc)?;
    let mut out = cfg.to_json();
    out.push(b'\n');
    Ok(out)
}

fn with_query_token(url: &str, token: &str) -> String {
    // Tokens are [a-z0-9] . base64url, so they need no escaping in a query.
    let sep = if url.contains('?') { '&' } else { '?' };
    format!("{url}{sep}token={token}")
}

/// Reads a spec 3 config (3.0.0 to 3.5.0) into the model, as Ignition's parser does: the
/// error says why it is refused without quoting a value (a config may hold a token), and the
/// warnings are Ignition's "unused key" ones.
pub fn decode_v3(value: Value) -> Result<(Config, Vec<String>), String> {
    let (cfg, unknown) = Config::decode(value).map_err(|e| match e {
        DecodeError::InvalidVersion => "ignition.version is missing or not a version".to_string(),
        DecodeError::UnknownVersion(v) => format!("unsupported spec version {v}"),
        DecodeError::Field(f) => f.without_value(),
    })?;
    if cfg.spec == Spec::V2_2 {
        return Err("unsupported spec version 2.2.0 (spec 3.0.0 to 3.5.0 here)".into());
    }
    let warnings = unknown
        .iter()
        .map(|u| match u.meant {
            Some(m) => format!("unused key: {} (did you mean {m}?)", u.path),
            None => format!("unused key: {}", u.path),
        })
        .collect();
    Ok((cfg, warnings))
}

/// What a pointer config says, as `inspect` and `doctor` read it.
#[derive(Debug, Clone)]
pub struct PointerInfo {
    /// The `ignition.version`.
    pub version: String,
    /// Merge (or replace) sources, with any `token=` query value removed.
    pub sources: Vec<String>,
    /// The CA bundles, decoded (PEM text). Non-data sources are listed in `remote_cas`.
    pub ca_pems: Vec<Vec<u8>>,
    /// CA sources that are not data URLs (fetched at boot; not checked here).
    pub remote_cas: Vec<String>,
    /// Whether a token is present, and where (`header` or `query`).
    pub token_transport: Option<&'static str>,
    /// The token id, when one is present (the secret is never kept).
    pub token_id: Option<String>,
    /// Unknown keys Ignition would warn about.
    pub warnings: Vec<String>,
    /// The secret-bearing credential, kept only in memory for cross-checks; never printed.
    token: Option<Redacted>,
}

impl PointerInfo {
    /// The full bearer token, for comparing with the store. Never print it.
    pub fn token_secret(&self) -> Option<&str> {
        self.token.as_ref().map(|t| t.0.as_str())
    }
}

/// A credential that `Debug` never prints.
#[derive(Clone)]
struct Redacted(String);

impl std::fmt::Debug for Redacted {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("<redacted>")
    }
}

/// Parses and validates a pointer config (any Ignition 3.x the crate knows). `what` names the
/// file in errors; errors never quote the file's content (it may hold a token).
pub fn parse(bytes: &[u8], what: &str) -> Result<PointerInfo> {
    let value = crate::golang::unmarshal::from_slice(bytes).map_err(|e| {
        anyhow!("{what} is not JSON (line {}, column {}); a pointer config is an Ignition JSON document", e.line(), e.column())
    })?;
    let (cfg, warnings) =
        decode_v3(value).map_err(|e| anyhow!("{what} is not a valid Ignition 3 config: {e}"))?;
    let value = cfg.value;
    let version = value["ignition"]["version"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    let cfg = &value["ignition"]["config"];
    let mut resources: Vec<&Value> = cfg["merge"]
        .as_array()
        .map(|a| a.iter().collect())
        .unwrap_or_default();
    if cfg["replace"].is_object() {
        resources.push(&cfg["replace"]);
    }
    let mut sources = Vec::new();
    let mut token = None;
    let mut token_transport = None;
    for r in resources {
        let Some(src) = r["source"].as_str() else {
            continue;
        };
        let (clean, q) = split_query_token(src);
        if let Some(q) = q {
            token = Some(q);
            token_transport = Some("query");
        }
        sources.push(clean);
        for h in r["httpHeaders"].as_array().into_iter().flatten() {
            if h["name"]
                .as_str()
                .is_some_and(|n| n.eq_ignore_ascii_case("authorization"))
                && let Some(t) = h["value"].as_str().and_then(|v| v.strip_prefix("Bearer "))
            {
                token = Some(t.trim().to_string());
                token_transport = Some("header");
            }
        }
    }
    let mut ca_pems = Vec::new();
    let mut remote_cas = Vec::new();
    for ca in value["ignition"]["security"]["tls"]["certificateAuthorities"]
        .as_array()
        .into_iter()
        .flatten()
    {
        let Some(src) = ca["source"].as_str() else {
            continue;
        };
        if src.starts_with("data:") {
            ca_pems.push(
                dataurl::decode(src).map_err(|e| anyhow!("{what}: certificateAuthorities: {e}"))?,
            );
        } else {
            remote_cas.push(src.to_string());
        }
    }
    let token_id = token
        .as_deref()
        .and_then(|t| t.split_once('.'))
        .map(|(id, _)| id.to_string());
    Ok(PointerInfo {
        version,
        sources,
        ca_pems,
        remote_cas,
        token_transport,
        token_id,
        warnings,
        token: token.map(Redacted),
    })
}

/// Removes a `token=` parameter from a URL's query, returning the clean URL and the token.
fn split_query_token(url: &str) -> (String, Option<String>) {
    let Some((base, query)) = url.split_once('?') else {
        return (url.to_string(), None);
    };
    let mut token = None;
    let kept: Vec<&str> = query
        .split('&')
        .filter(|p| match p.strip_prefix("token=") {
            Some(t) => {
                token = Some(t.to_string());
                false
            }
            None => true,
        })
        .collect();
    let clean = if kept.is_empty() {
        base.to_string()
    } else {
        format!("{base}?{}", kept.join("&"))
    };
    (clean, token)
}

#[cfg(test)]
mod tests {
    use super::*;

    const CA: &[u8] = b"-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n";

    fn spec(minor: u8, transport: Transport) -> PointerSpec<'static> {
        PointerSpec {
            version: SpecVersion { minor },
            url: "https://api-int.demo.example.com:22623/config/worker",
            ca_bundle_pem: CA,
            token: Some("abc123.secret"),
            transport,
        }
    }

    #[test]
    fn header_pointer_round_trips() {
        for minor in 1..=4 {
            let bytes = build(&spec(minor, Transport::Header)).unwrap();
            assert_eq!(bytes, build(&spec(minor, Transport::Header)).unwrap());
            let info = parse(&bytes, "p").unwrap();
            assert_eq!(info.version, format!("3.{minor}.0"));
            assert_eq!(
                info.sources,
                vec!["https://api-int.demo.example.com:22623/config/worker"]
            );
            assert_eq!(info.ca_pems, vec![CA.to_vec()]);
            assert_eq!(info.token_transport, Some("header"));
            assert_eq!(info.token_id.as_deref(), Some("abc123"));
            assert!(!String::from_utf8(bytes).unwrap().contains("null"));
        }
    }

    #[test]
    fn the_bytes_are_what_go_writes() {
        // As Go's encoding/json writes the spec's types: declaration order, `&` escaped.
        let mut s = spec(2, Transport::Query);
        s.url = "https://[::1]:22623/config/worker?x=1";
        assert_eq!(
            String::from_utf8(build(&s).unwrap()).unwrap(),
            "{\"ignition\":{\"config\":{\"merge\":[{\"source\":\"https://[::1]:22623/config/worker?x=1\\u0026token=abc123.secret\"}]},\"security\":{\"tls\":{\"certificateAuthorities\":[{\"source\":\"data:text/plain;charset=utf-8;base64,LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCkFBQUEKLS0tLS1FTkQgQ0VSVElGSUNBVEUtLS0tLQo=\"}]}},\"version\":\"3.2.0\"}}\n"
        );
        let info = parse(&build(&s).unwrap(), "p").unwrap();
        assert_eq!(info.sources, ["https://[::1]:22623/config/worker?x=1"]);
        assert_eq!(info.token_secret(), Some("abc123.secret"));
    }

    #[test]
    fn spec_2_and_unknown_keys() {
        let e = parse(br#"{"ignition":{"version":"2.2.0"}}"#, "p.ign").unwrap_err();
        assert!(
            e.to_string().contains("unsupported spec version 2.2.0"),
            "{e}"
        );
        let info = parse(br#"{"ignition":{"version":"3.4.0","secrity":{}}}"#, "p").unwrap();
        assert_eq!(
            info.warnings,
            ["unused key: ignition.secrity (did you mean security?)"]
        );
    }

    #[test]
    fn spec_30_needs_query() {
        assert!(build(&spec(0, Transport::Header)).is_err());
        let info = parse(&build(&spec(0, Transport::Query)).unwrap(), "p").unwrap();
        assert_eq!(info.token_transport, Some("query"));
        assert_eq!(info.token_secret(), Some("abc123.secret"));
        assert!(!info.sources[0].contains("token"));
    }

    #[test]
    fn errors_and_debug_never_show_the_token() {
        let bad =
            br#"{"ignition":{"version":"3.2.0","timeouts":{"httpTotal":"abc123.topsecret"}}}"#;
        let e = parse(bad, "p.ign").unwrap_err().to_string();
        assert!(
            e.contains("p.ign")
                && e.contains("ignition.timeouts.httpTotal: expected an integer")
                && !e.contains("topsecret"),
            "{e}"
        );
        let info = parse(&build(&spec(2, Transport::Header)).unwrap(), "p").unwrap();
        assert!(!format!("{info:?}").contains("secret"));
    }

    #[test]
    fn not_json_is_named() {
        let e = parse(b"hello secret", "worker.ign")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("worker.ign is not JSON") && !e.contains("secret"),
            "{e}"
        );
    }
}
