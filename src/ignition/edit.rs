//! Editing a pointer config in place of regenerating it: a rotation changes the CA bundle and
//! the token and nothing else, so what an admin added (a proxy, timeouts, extra CAs, a
//! `replace` source, other headers) survives every `token rotate` and `ca create`.
//!
//! - The CA entry: every `certificateAuthorities` entry whose certificates are all CAs mcsctl
//!   has written (`Edit::ours`) is mcsctl's. The first is replaced by the new bundle, any
//!   others dropped; other entries stay. With none, the bundle is put first.
//! - The token: where it travels now (an `Authorization: Bearer` header or `?token=` on a
//!   merge or replace source) it is replaced, or removed when there is none to give. A pointer
//!   without a token gets one only when asked (`Edit::add_token`): the first token of a
//!   directory made with `init --no-token`.

use anyhow::{Result, anyhow, bail};
use serde_json::{Value, json};

use super::pointer::{self, Transport};
use super::{SpecVersion, dataurl};
use crate::pki::cert::parse_pem_certs;

/// What to change.
#[derive(Debug, Clone)]
pub struct Edit<'a> {
    /// The CA bundle to trust, PEM.
    pub ca_bundle_pem: &'a [u8],
    /// DER of every CA mcsctl put into pointer configs (the bundle before and after).
    pub ours: &'a [Vec<u8>],
    /// The bearer token (`<id>.<secret>`), or none.
    pub token: Option<&'a str>,
    /// Whether a pointer without a token gets one.
    pub add_token: bool,
    /// How an added token travels (header needs spec 3.1.0; 3.0.0 always uses the query).
    pub transport: Transport,
}

/// Applies `e` to a pointer config; `what` names the file in errors (which never quote it).
pub fn edit(bytes: &[u8], what: &str, e: &Edit<'_>) -> Result<Vec<u8>> {
    // Validates and gives errors that never quote a token.
    let info = pointer::parse(bytes, what)?;
    let version = SpecVersion::parse(&info.version).map_err(|err| anyhow!("{what}: {err}"))?;
    let mut v: Value = serde_json::from_slice(bytes)?;
    replace_ca(&mut v, e);
    set_token(&mut v, e, version, what)?;
    let mut out = serde_json::to_vec(&v)?;
    out.push(b'\n');
    pointer::parse(&out, what)?;
    Ok(out)
}

fn replace_ca(v: &mut Value, e: &Edit<'_>) {
    let new = json!({ "source": dataurl::encode_text(e.ca_bundle_pem) });
    let ours = |entry: &Value| {
        entry["source"]
            .as_str()
            .filter(|s| s.starts_with("data:"))
            .and_then(|s| dataurl::decode(s).ok())
            .and_then(|pem| parse_pem_certs(&pem, "").ok())
            .is_some_and(|certs| !certs.is_empty() && certs.iter().all(|c| e.ours.contains(&c.der)))
    };
    let list = v["ignition"]["security"]["tls"]["certificateAuthorities"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let mut out: Vec<Value> = Vec::new();
    let mut placed = false;
    for entry in list {
        if ours(&entry) {
            if !placed {
                out.push(new.clone());
                placed = true;
            }
        } else {
            out.push(entry);
        }
    }
    if !placed {
        out.insert(0, new);
    }
    v["ignition"]["security"]["tls"]["certificateAuthorities"] = Value::Array(out);
}

/// The merge and replace resources, mutably.
fn sources(v: &mut Value) -> Vec<&mut Value> {
    let mut out = Vec::new();
    let Some(cfg) = v
        .pointer_mut("/ignition/config")
        .and_then(Value::as_object_mut)
    else {
        return out;
    };
    for (k, r) in cfg.iter_mut() {
        match (k.as_str(), r) {
            ("merge", Value::Array(a)) => out.extend(a.iter_mut()),
            ("replace", r @ Value::Object(_)) => out.push(r),
            _ => {}
        }
    }
    out
}

fn set_token(v: &mut Value, e: &Edit<'_>, version: SpecVersion, what: &str) -> Result<()> {
    let mut carried = false;
    for r in sources(v) {
        if let Some(headers) = r.get_mut("httpHeaders").and_then(Value::as_array_mut) {
            let before = headers.len();
            let is_ours = |h: &Value| {
                h["name"]
                    .as_str()
                    .is_some_and(|n| n.eq_ignore_ascii_case("authorization"))
                    && h["value"]
                        .as_str()
                        .is_some_and(|v| v.starts_with("Bearer "))
            };
            if headers.iter().any(is_ours) {
                carried = true;
                match e.token {
                    Some(t) => {
                        for h in headers.iter_mut().filter(|h| is_ours(h)) {
                            h["value"] = format!("Bearer {t}").into();
                        }
                    }
                    None => headers.retain(|h| !is_ours(h)),
                }
            }
            if before > 0 && headers.is_empty() {
                r.as_object_mut().map(|o| o.remove("httpHeaders"));
            }
        }
        if let Some(src) = r["source"].as_str() {
            let (base, query) = src.split_once('?').unwrap_or((src, ""));
            if query.split('&').any(|p| p.starts_with("token=")) {
                carried = true;
                let mut params: Vec<String> = query
                    .split('&')
                    .filter(|p| !p.is_empty() && !p.starts_with("token="))
                    .map(str::to_string)
                    .collect();
                if let Some(t) = e.token {
                    params.push(format!("token={t}"));
                }
                r["source"] = if params.is_empty() {
                    base.to_string()
                } else {
                    format!("{base}?{}", params.join("&"))
                }
                .into();
            }
        }
    }
    if carried || !e.add_token {
        return Ok(());
    }
    let Some(t) = e.token else { return Ok(()) };
    if e.transport == Transport::None {
        return Ok(());
    }
    let header = e.transport == Transport::Header && version.has_http_headers();
    let Some(first) = sources(v).into_iter().next() else {
        bail!("{what} has no ignition.config.merge source to put the token on");
    };
    if header {
        let h = json!({ "name": "Authorization", "value": format!("Bearer {t}") });
        match first.get_mut("httpHeaders").and_then(Value::as_array_mut) {
            Some(a) => a.push(h),
            None => first["httpHeaders"] = json!([h]),
        }
    } else {
        let src = first["source"].as_str().unwrap_or_default().to_string();
        let sep = if src.contains('?') { '&' } else { '?' };
        first["source"] = format!("{src}{sep}token={t}").into();
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ignition::pointer::{PointerSpec, build};

    fn ca(cn: &str) -> (Vec<u8>, Vec<u8>) {
        let key = rcgen::KeyPair::generate().unwrap();
        let mut p = rcgen::CertificateParams::new(Vec::<String>::new()).unwrap();
        p.is_ca = rcgen::IsCa::Ca(rcgen::BasicConstraints::Unconstrained);
        p.distinguished_name
            .push(rcgen::DnType::CommonName, cn.to_string());
        let c = p.self_signed(&key).unwrap();
        (c.pem().into_bytes(), c.der().to_vec())
    }

    fn pointer(ca_pem: &[u8], token: Option<&str>, transport: Transport, minor: u8) -> Value {
        let b = build(&PointerSpec {
            version: SpecVersion { minor },
            url: "https://api-int.demo.example.com:22623/config/worker",
            ca_bundle_pem: ca_pem,
            token,
            transport,
        })
        .unwrap();
        serde_json::from_slice(&b).unwrap()
    }

    fn apply(v: &Value, e: &Edit<'_>) -> Value {
        serde_json::from_slice(&edit(&serde_json::to_vec(v).unwrap(), "p.ign", e).unwrap()).unwrap()
    }

    #[test]
    fn rotation_changes_the_token_and_bundle_and_keeps_an_admins_edits() {
        let (old_pem, old_der) = ca("root-ca");
        let (new_pem, new_der) = ca("root-ca");
        let (extra_pem, _) = ca("corporate proxy CA");
        let mut v = pointer(&old_pem, Some("aaaaaa.old"), Transport::Header, 2);
        // The admin's edits: a proxy, timeouts, an extra CA after ours, another header.
        v["ignition"]["proxy"] = json!({"httpsProxy": "http://proxy.example.com:3128"});
        v["ignition"]["timeouts"] = json!({"httpTotal": 600});
        v["ignition"]["security"]["tls"]["certificateAuthorities"]
            .as_array_mut()
            .unwrap()
            .push(json!({"source": dataurl::encode_text(&extra_pem)}));
        v["ignition"]["config"]["merge"][0]["httpHeaders"]
            .as_array_mut()
            .unwrap()
            .push(json!({"name": "X-Site", "value": "lab"}));
        let bundle = [new_pem.clone(), old_pem.clone()].concat();
        let ours = vec![old_der, new_der];
        let e = Edit {
            ca_bundle_pem: &bundle,
            ours: &ours,
            token: Some("bbbbbb.new"),
            add_token: false,
            transport: Transport::Header,
        };
        let out = apply(&v, &e);
        assert_eq!(out["ignition"]["proxy"], v["ignition"]["proxy"]);
        assert_eq!(out["ignition"]["timeouts"], json!({"httpTotal": 600}));
        let cas = out["ignition"]["security"]["tls"]["certificateAuthorities"]
            .as_array()
            .unwrap();
        assert_eq!(cas.len(), 2, "ours replaced, the extra CA kept");
        assert_eq!(
            dataurl::decode(cas[0]["source"].as_str().unwrap()).unwrap(),
            bundle
        );
        assert_eq!(
            dataurl::decode(cas[1]["source"].as_str().unwrap()).unwrap(),
            extra_pem
        );
        let headers = &out["ignition"]["config"]["merge"][0]["httpHeaders"];
        assert_eq!(
            headers,
            &json!([{"name": "Authorization", "value": "Bearer bbbbbb.new"}, {"name": "X-Site", "value": "lab"}])
        );
        // Unchanged input, unchanged output (no churn).
        let again = apply(&out, &e);
        assert_eq!(again, out);
    }

    #[test]
    fn query_tokens_are_replaced_in_place() {
        let (pem, der) = ca("root-ca");
        let mut v = pointer(&pem, Some("aaaaaa.old"), Transport::Query, 0);
        let src = v["ignition"]["config"]["merge"][0]["source"]
            .as_str()
            .unwrap()
            .to_string();
        v["ignition"]["config"]["merge"][0]["source"] = format!("{src}&site=lab").into();
        let ours = vec![der];
        let e = Edit {
            ca_bundle_pem: &pem,
            ours: &ours,
            token: Some("bbbbbb.new"),
            add_token: false,
            transport: Transport::Query,
        };
        let out = apply(&v, &e);
        assert_eq!(
            out["ignition"]["config"]["merge"][0]["source"],
            "https://api-int.demo.example.com:22623/config/worker?site=lab&token=bbbbbb.new"
        );
    }

    #[test]
    fn a_token_is_added_only_when_asked() {
        let (pem, der) = ca("root-ca");
        let v = pointer(&pem, None, Transport::None, 2);
        let ours = vec![der];
        let mut e = Edit {
            ca_bundle_pem: &pem,
            ours: &ours,
            token: Some("cccccc.first"),
            add_token: false,
            transport: Transport::Header,
        };
        assert_eq!(
            apply(&v, &e),
            v,
            "a tokenless pointer stays tokenless on rotation"
        );
        e.add_token = true;
        let out = apply(&v, &e);
        assert_eq!(
            out["ignition"]["config"]["merge"][0]["httpHeaders"],
            json!([{"name": "Authorization", "value": "Bearer cccccc.first"}])
        );
        // Spec 3.0 has no headers: the query.
        let v30 = pointer(&pem, None, Transport::None, 0);
        let out = apply(&v30, &e);
        assert!(
            out["ignition"]["config"]["merge"][0]["source"]
                .as_str()
                .unwrap()
                .ends_with("?token=cccccc.first")
        );
    }

    #[test]
    fn a_foreign_ca_alone_gets_ours_put_first() {
        let (foreign_pem, _) = ca("someone else");
        let (pem, der) = ca("root-ca");
        let v = pointer(&foreign_pem, None, Transport::None, 2);
        let ours = vec![der];
        let out = apply(
            &v,
            &Edit {
                ca_bundle_pem: &pem,
                ours: &ours,
                token: None,
                add_token: false,
                transport: Transport::Header,
            },
        );
        let cas = out["ignition"]["security"]["tls"]["certificateAuthorities"]
            .as_array()
            .unwrap();
        assert_eq!(cas.len(), 2);
        assert_eq!(
            dataurl::decode(cas[0]["source"].as_str().unwrap()).unwrap(),
            pem
        );
    }
}
