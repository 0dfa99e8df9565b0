//! Inspecting a file named on the command line: PEM (or DER) certificates, a pointer config,
//! or Kubernetes objects: every object `mcsctl manifests` writes (root-ca and
//! machine-config-server-ca ConfigMaps, the machine-config-server-tls and -ca Secrets,
//! machineconfig-auth, the `<pool>-user-data` Secrets with their pointer configs, the serve
//! Deployment and Service) and the cluster's own. Each is checked against the asset directory
//! when there is one.

use std::path::Path;

use anyhow::{Result, anyhow, bail};
use serde_json::Value;

use super::pointer::{self, Trusts};
use super::{Context, Level, Report, Role, short_name};
use crate::ignition::pointer as ptr;
use crate::pki::cert::CertInfo;
use crate::pki::keys::{key_matches_spki, load_key_pem};

/// Inspects one file; pointer configs found (directly or in user-data Secrets) are added to
/// `pointers` for a `--remote` check.
pub fn inspect(
    r: &mut Report,
    path: &Path,
    ctx: &Context,
    pointers: &mut Vec<Trusts>,
) -> Result<()> {
    let name = path.display().to_string();
    let bytes = crate::assets::read_file(path)?;
    let text = String::from_utf8_lossy(&bytes);
    let trimmed = text.trim_start();
    let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
    if ext == "ign" || trimmed.starts_with('{') {
        let v: Value = serde_json::from_slice(&bytes).map_err(|e| {
            anyhow!("{name} is not JSON (line {}, column {}); expected a pointer config or a Kubernetes object", e.line(), e.column())
        })?;
        if v.get("ignition").is_some() {
            // Named as given (`pxe/worker.ign`): two copies of one pool's pointer config in
            // two places are told apart.
            pointers.push(pointer_config(r, &name, &bytes, &name, ctx)?);
            return Ok(());
        }
        return kube(r, &name, vec![v], ctx, pointers);
    }
    // PEM or DER; a Kubernetes object quotes PEM inside, so "contains BEGIN" alone decides
    // nothing until the text turns out not to be YAML objects.
    if crate::pki::starts_with_pem(&bytes) || !bytes.is_ascii() {
        return certificates(r, &name, &bytes);
    }
    let docs = crate::kube::yaml::documents(&text, &name)
        .map(|d| d.into_iter().map(|d| d.value).collect::<Vec<Value>>());
    match docs {
        Ok(docs) if docs.iter().any(|d| d.get("kind").is_some()) => {
            kube(r, &name, docs, ctx, pointers)
        }
        _ if crate::pki::is_pem(&bytes) => certificates(r, &name, &bytes),
        Err(e) => bail!("{name}: not a certificate, pointer config or Kubernetes object ({e:#})"),
        Ok(_) => bail!("{name}: not a certificate, pointer config or Kubernetes object"),
    }
}

/// A PEM (or DER) file of certificates; a chain's links are checked.
fn certificates(r: &mut Report, name: &str, bytes: &[u8]) -> Result<()> {
    let certs = crate::pki::load::certs(bytes, name)?;
    let many = certs.len() > 1;
    for (i, c) in certs.iter().enumerate() {
        let row = if many {
            format!("{name}[{}]", i + 1)
        } else {
            name.to_string()
        };
        r.cert(row, c, Role::File);
    }
    for pair in certs.windows(2) {
        if !pair[0].is_self_issued() && pair[0].is_issued_by(&pair[1]) {
            r.ok(
                "chain",
                format!(
                    "{name}: {} is signed by {}",
                    short_name(&pair[0].subject),
                    short_name(&pair[1].subject)
                ),
            );
        }
    }
    Ok(())
}

fn pointer_config(
    r: &mut Report,
    file: &str,
    bytes: &[u8],
    what: &str,
    ctx: &Context,
) -> Result<Trusts> {
    let info = ptr::parse(bytes, what)?;
    Ok(pointer::check(r, file, &info, ctx))
}

fn kube(
    r: &mut Report,
    name: &str,
    docs: Vec<Value>,
    ctx: &Context,
    pointers: &mut Vec<Trusts>,
) -> Result<()> {
    let mut objects = Vec::new();
    for d in docs {
        if d["kind"] == "List" {
            objects.extend(d["items"].as_array().cloned().unwrap_or_default());
        } else if !d.is_null() {
            objects.push(d);
        }
    }
    let mut understood = 0;
    for o in &objects {
        let kind = o["kind"].as_str().unwrap_or("");
        let obj = format!(
            "{}/{}",
            o["metadata"]["namespace"].as_str().unwrap_or("default"),
            o["metadata"]["name"].as_str().unwrap_or("?")
        );
        match kind {
            "Secret" | "ConfigMap" => {
                understood += 1;
                if let Err(e) = data_object(r, name, o, &obj, ctx, pointers) {
                    r.check(
                        Level::Fail,
                        "object",
                        format!("{e:#}"),
                        Some(format!("check {obj} in {name}")),
                    );
                }
            }
            // What runs serve (`manifests --serve-deployment`): nothing to check against the
            // directory, but each one is named, so a file of them is a report, not an error.
            "Deployment" | "DaemonSet" | "Service" | "PersistentVolumeClaim" => {
                understood += 1;
                r.ok("object", format!("{kind} {obj}: holds no certificate"));
            }
            _ => r.ok(
                "object",
                format!("{kind} {obj}: not an object mcsctl writes or checks; skipped"),
            ),
        }
    }
    if understood == 0 {
        bail!(
            "{name}: no Secret, ConfigMap, Deployment, DaemonSet, Service or PersistentVolumeClaim found"
        );
    }
    Ok(())
}

fn data_object(
    r: &mut Report,
    name: &str,
    o: &Value,
    obj: &str,
    ctx: &Context,
    pointers: &mut Vec<Trusts>,
) -> Result<()> {
    let entries = crate::kube::data_entries(o, &format!("{name}: {obj}"))?;
    let get = |k: &str| {
        entries
            .iter()
            .find(|(n, _)| n == k)
            .map(|(_, v)| v.as_slice())
    };
    // A user-data Secret: its pointer config, checked like one on disk.
    if let Some(user_data) = get("userData") {
        let file = format!("{obj} userData");
        let mut t = pointer_config(r, &file, user_data, &format!("{name}: {obj} userData"), ctx)?;
        t.name = file;
        pointers.push(t);
        return Ok(());
    }
    // machineconfig-auth: the token store, never its secrets.
    if let Some(tokens) = get("tokens.json") {
        return token_rows(r, name, obj, tokens);
    }
    let mut tls_crt: Option<CertInfo> = None;
    let mut found = 0;
    for (k, v) in &entries {
        if !(k.ends_with(".crt") || k.ends_with(".pem")) {
            continue;
        }
        let certs = crate::pki::cert::parse_pem_certs(v, &format!("{name}: {obj} {k}"))?;
        found += certs.len();
        let many = certs.len() > 1;
        for (i, c) in certs.iter().enumerate() {
            let row = if many {
                format!("{obj} {k}[{}]", i + 1)
            } else {
                format!("{obj} {k}")
            };
            r.cert(row, c, Role::Kube);
        }
        // Against the asset directory: a CA ConfigMap should hold the directory's CAs.
        if !ctx.bundle.is_empty() && (k == "ca.crt" || k == "ca-bundle.crt") {
            bundle_row(r, obj, k, &certs, &ctx.bundle);
        }
        if k == "tls.crt" {
            tls_crt = certs.into_iter().next();
        }
    }
    if let (Some(cert), Some(key)) = (&tls_crt, get("tls.key")) {
        key_row(r, obj, cert, key);
    }
    if let Some(cert) = &tls_crt
        && !cert.is_ca
        && !ctx.bundle.is_empty()
        && !ctx.bundle.iter().any(|b| cert.is_issued_by(b))
    {
        r.check(
            Level::Fail,
            "chain",
            format!("{obj} tls.crt is signed by {}, which the asset directory's pointer configs do not trust", cert.issuer_with_key_id()),
            Some("write the objects again with `mcsctl manifests --force`, or follow the cluster's CA with `mcsctl ca import --bundle FILE`".to_string()),
        );
    }
    if found == 0 {
        r.ok("object", format!("{obj}: holds no certificate"));
    }
    Ok(())
}

/// The machineconfig-auth Secret's token store: how many tokens are live (never the secrets).
fn token_rows(r: &mut Report, name: &str, obj: &str, tokens: &[u8]) -> Result<()> {
    let store = crate::token::TokenStore::parse(tokens, &format!("{name}: {obj} tokens.json"))?;
    let now = r.now;
    let live = store.live(now).count();
    if live == 0 {
        r.check(
            Level::Fail,
            "tokens",
            format!("{obj}: no live token: a serve reading it refuses every full config"),
            Some("`mcsctl token rotate`, then `mcsctl manifests --force`".to_string()),
        );
    } else {
        r.ok("tokens", format!("{obj}: {live} live token(s)"));
    }
    Ok(())
}

/// Whether a Secret's tls.key matches its tls.crt.
fn key_row(r: &mut Report, obj: &str, cert: &CertInfo, key: &[u8]) {
    match load_key_pem(key, &format!("{obj} tls.key")) {
        Ok(k) if key_matches_spki(&k, &cert.spki) => {
            r.ok("key-match", format!("{obj}: tls.key matches tls.crt"))
        }
        Ok(_) => r.check(
            Level::Fail,
            "key-match",
            format!("{obj}: tls.key does not match tls.crt"),
            Some(
                "write the Secret again from a matching pair (`mcsctl manifests --force`)"
                    .to_string(),
            ),
        ),
        Err(e) => r.check(
            Level::Fail,
            "key-match",
            format!("{e:#}"),
            Some(format!("check {obj}")),
        ),
    }
}

/// Whether a CA ConfigMap's certificates include one of the asset directory's CAs.
fn bundle_row(r: &mut Report, obj: &str, k: &str, certs: &[CertInfo], bundle: &[CertInfo]) {
    if certs.iter().any(|c| bundle.iter().any(|b| b.der == c.der)) {
        r.ok(
            "object",
            format!("{obj} {k} holds a CA of the asset directory's bundle"),
        );
    } else {
        r.check(
            Level::Warn,
            "object",
            format!("{obj} {k} holds none of the asset directory's CAs"),
            Some("if the cluster rotated its CA, follow it: `mcsctl ca import --bundle FILE`; else write the objects again with `mcsctl manifests --force`".to_string()),
        );
    }
}
