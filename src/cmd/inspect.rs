//! `mcsctl inspect`: expiry and consistency of everything on the trust chain.

use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::time::Duration as StdDuration;

use anyhow::{Context, Result, bail};
use base64::Engine;
use serde::Serialize;
use serde_json::Value;

use super::{duration_flag, now};
use crate::assets::{AssetDir, layout};
use crate::cli::InspectArgs;
use crate::duration::residual;
use crate::exit;
use crate::ignition::pointer::{self, PointerInfo, url_host};
use crate::ignition::render::{Flavour, payload};
use crate::kubeconfig;
use crate::pki::cert::{CertInfo, Status, parse_pem_certs, rfc3339};
use crate::pki::keys::{key_matches_spki, load_key_pem};
use crate::pki::remote;
use crate::serve::state::{PRE_APPROVAL, RENDERED};
use crate::token::TokenStore;
use crate::ui::{Ui, table};

/// Result level of one check.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
enum Level {
    Ok,
    Warn,
    Fail,
}

impl Level {
    fn word(self) -> &'static str {
        match self {
            Level::Ok => "ok",
            Level::Warn => "warn",
            Level::Fail => "fail",
        }
    }
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct CertRow {
    name: String,
    subject: String,
    issuer: String,
    serial: String,
    not_before: String,
    not_after: String,
    key: String,
    is_ca: bool,
    sans: Vec<String>,
    fingerprint_sha256: String,
    status: String,
    #[serde(skip)]
    residual: String,
    #[serde(skip)]
    level: Level,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct PointerRow {
    name: String,
    spec_version: String,
    merge_sources: Vec<String>,
    certificate_authorities: usize,
    token: Option<TokenRef>,
}

#[derive(Debug, Serialize)]
struct TokenRef {
    transport: &'static str,
    id: Option<String>,
}

#[derive(Debug, Serialize)]
struct Check {
    status: Level,
    check: &'static str,
    message: String,
}

#[derive(Debug, Default, Serialize)]
#[serde(rename_all = "camelCase")]
struct Report {
    certificates: Vec<CertRow>,
    pointers: Vec<PointerRow>,
    checks: Vec<Check>,
    exit_code: u8,
    #[serde(skip)]
    now: i64,
    #[serde(skip)]
    warn_within: i64,
}

impl Report {
    fn cert(&mut self, name: impl Into<String>, c: &CertInfo) {
        let status = Status::of(c, self.now, self.warn_within);
        let level = match status {
            Status::Ok => Level::Ok,
            Status::ExpiringSoon => Level::Warn,
            Status::Invalid => Level::Fail,
        };
        let name = name.into();
        if self
            .certificates
            .iter()
            .any(|r| r.name == name && r.fingerprint_sha256 == c.fingerprint)
        {
            return;
        }
        self.certificates.push(CertRow {
            name,
            subject: c.subject.clone(),
            issuer: if c.is_self_issued() {
                "self".into()
            } else {
                short_name(&c.issuer)
            },
            serial: c.serial.clone(),
            not_before: rfc3339(c.not_before),
            not_after: rfc3339(c.not_after),
            key: c.key.clone(),
            is_ca: c.is_ca,
            sans: c.sans(),
            fingerprint_sha256: c.fingerprint.clone(),
            status: status.label(c, self.now).to_string(),
            residual: residual(c.not_after - self.now),
            level,
        });
    }

    fn check(&mut self, status: Level, check: &'static str, message: impl Into<String>) {
        self.checks.push(Check {
            status,
            check,
            message: message.into(),
        });
    }

    fn worst(&self) -> Level {
        self.certificates
            .iter()
            .map(|c| c.level)
            .chain(self.checks.iter().map(|c| c.status))
            .max()
            .unwrap_or(Level::Ok)
    }
}

/// Runs `inspect`.
pub fn run(ui: &Ui, dir: &AssetDir, args: &InspectArgs) -> Result<u8> {
    let warn_within = duration_flag("warn-within", &args.warn_within)?.whole_seconds();
    let mut r = Report {
        now: now().unix_timestamp(),
        warn_within,
        ..Report::default()
    };
    if args.targets.is_empty() && args.remote.is_none() {
        inspect_dir(&mut r, dir)?;
    }
    for t in &args.targets {
        if t.is_dir() {
            inspect_dir(&mut r, &AssetDir::new(t))?;
        } else {
            inspect_file(&mut r, t)?;
        }
    }
    if let Some(remote) = &args.remote {
        inspect_remote(
            &mut r,
            dir,
            remote,
            args.server_name.as_deref(),
            args.ca.as_deref(),
        )?;
    }
    r.exit_code = match r.worst() {
        Level::Ok => exit::OK,
        Level::Warn => exit::ATTENTION,
        Level::Fail => exit::FAILED,
    };
    if ui.json() {
        ui.out_json(&r)?;
    } else {
        ui.out(render(ui, &r))?;
    }
    Ok(r.exit_code)
}

fn render(ui: &Ui, r: &Report) -> String {
    let mut out = String::new();
    if !r.certificates.is_empty() {
        let rows: Vec<Vec<String>> = r
            .certificates
            .iter()
            .map(|c| {
                vec![
                    c.name.clone(),
                    c.subject.clone(),
                    c.not_after.clone(),
                    c.residual.clone(),
                    c.issuer.clone(),
                    c.key.clone(),
                    ui.status_word(&c.status),
                ]
            })
            .collect();
        out.push_str(&table(
            &[
                "NAME",
                "SUBJECT",
                "NOT AFTER",
                "RESIDUAL",
                "ISSUER",
                "KEY",
                "STATUS",
            ],
            &rows,
        ));
    }
    if !r.pointers.is_empty() {
        let rows: Vec<Vec<String>> = r
            .pointers
            .iter()
            .map(|p| {
                let token = match &p.token {
                    Some(t) => format!("{} {}", t.transport, t.id.as_deref().unwrap_or("?")),
                    None => "none".into(),
                };
                vec![
                    p.name.clone(),
                    p.spec_version.clone(),
                    p.merge_sources.join(" "),
                    token,
                    p.certificate_authorities.to_string(),
                ]
            })
            .collect();
        out.push('\n');
        out.push_str(&table(
            &["POINTER", "SPEC", "MERGE SOURCE", "TOKEN", "CAS"],
            &rows,
        ));
    }
    if !r.checks.is_empty() {
        let rows: Vec<Vec<String>> = r
            .checks
            .iter()
            .map(|c| {
                vec![
                    ui.status_word(c.status.word()),
                    c.check.to_string(),
                    c.message.clone(),
                ]
            })
            .collect();
        out.push('\n');
        out.push_str(&table(&["CHECK", "NAME", "DETAIL"], &rows));
    }
    let count = |l: Level| {
        r.certificates.iter().filter(|c| c.level == l).count()
            + r.checks.iter().filter(|c| c.status == l).count()
    };
    out.push_str(&format!(
        "\n{} ok, {} warning(s), {} failure(s) (warning window {})\n",
        count(Level::Ok),
        count(Level::Warn),
        count(Level::Fail),
        crate::duration::Duration(r.warn_within)
    ));
    out
}

/// `OU=openshift, CN=root-ca` → `root-ca`: the CN when there is one.
fn short_name(dn: &str) -> String {
    dn.split(", ")
        .find_map(|p| p.strip_prefix("CN="))
        .map(str::to_string)
        .unwrap_or_else(|| dn.to_string())
}

fn read_certs(dir: &AssetDir, rel: &str) -> Result<Option<Vec<CertInfo>>> {
    if !dir.exists(rel) {
        return Ok(None);
    }
    parse_pem_certs(&dir.read(rel)?, &dir.path(rel).display().to_string()).map(Some)
}

fn inspect_dir(r: &mut Report, dir: &AssetDir) -> Result<()> {
    dir.require()?;
    // A change a killed command committed is completed first: what inspect then checks is
    // what every reader sees.
    match dir.settle() {
        Ok(Some(c)) => r.check(
            Level::Ok,
            "recovery",
            format!("completed an interrupted `{c}` (it was stopped after deciding its change)"),
        ),
        Ok(None) => {}
        Err(e) => r.check(
            Level::Fail,
            "recovery",
            format!("an interrupted change is pending and could not be completed: {e:#}"),
        ),
    }
    let cfg = dir.config().ok();
    dir_modes(r, dir);
    let ca = read_certs(dir, layout::CA_CERT)?.map(|mut v| v.remove(0));
    let bundle = read_certs(dir, layout::CA_BUNDLE)?.unwrap_or_default();
    let serving = read_certs(dir, layout::SERVING_CERT)?;

    if let Some(ca) = &ca {
        r.cert(layout::CA_CERT, ca);
        if !ca.is_ca {
            r.check(
                Level::Fail,
                "ca",
                format!("{} is not a CA certificate", layout::CA_CERT),
            );
        }
    } else {
        r.check(
            Level::Fail,
            "missing",
            format!("{} is missing", layout::CA_CERT),
        );
    }
    for (i, b) in bundle.iter().enumerate() {
        if ca.as_ref().is_none_or(|c| c.der != b.der) {
            r.cert(format!("{}[{}]", layout::CA_BUNDLE, i + 1), b);
        }
    }
    if let Some(ca) = &ca
        && !bundle.is_empty()
        && !bundle.iter().any(|b| b.der == ca.der)
    {
        r.check(
            Level::Warn,
            "bundle",
            format!(
                "{} does not contain {}: new pointer configs will not trust it",
                layout::CA_BUNDLE,
                layout::CA_CERT
            ),
        );
    }
    let leaf = serving.as_ref().map(|v| v[0].clone());
    match &serving {
        Some(chain) => {
            for (i, c) in chain.iter().enumerate() {
                let name = if i == 0 {
                    layout::SERVING_CERT.to_string()
                } else {
                    format!("{}[{}]", layout::SERVING_CERT, i + 1)
                };
                r.cert(name, c);
            }
        }
        None => r.check(
            Level::Fail,
            "missing",
            format!("{} is missing", layout::SERVING_CERT),
        ),
    }

    // Keys belong to their certificates.
    for (key_rel, cert) in [
        (layout::CA_KEY, ca.as_ref()),
        (layout::SERVING_KEY, leaf.as_ref()),
    ] {
        let Some(cert) = cert else { continue };
        if !dir.exists(key_rel) {
            let level = if key_rel == layout::CA_KEY {
                Level::Ok
            } else {
                Level::Fail
            };
            let msg = if key_rel == layout::CA_KEY {
                format!("{key_rel} is not here (kept offline): fine until the next `cert renew`")
            } else {
                format!("{key_rel} is missing")
            };
            r.check(level, "key-match", msg);
            continue;
        }
        check_mode(r, dir, key_rel);
        match load_key_pem(
            &dir.read(key_rel)?,
            &dir.path(key_rel).display().to_string(),
        ) {
            Ok(k) if key_matches_spki(&k, &cert.spki) => r.check(
                Level::Ok,
                "key-match",
                format!("{key_rel} matches its certificate"),
            ),
            Ok(_) => r.check(
                Level::Fail,
                "key-match",
                format!("{key_rel} does not match its certificate (the public keys differ)"),
            ),
            Err(e) => r.check(Level::Fail, "key-match", format!("{e:#}")),
        }
    }

    // The serving certificate chains to the CA.
    if let (Some(leaf), Some(ca)) = (&leaf, &ca) {
        if leaf.is_issued_by(ca) {
            r.check(
                Level::Ok,
                "chain",
                format!("{} is signed by {}", layout::SERVING_CERT, layout::CA_CERT),
            );
        } else if bundle.iter().any(|b| leaf.is_issued_by(b)) {
            r.check(Level::Warn, "chain", format!("{} is signed by an older CA of the bundle, not {}: run `mcsctl cert issue --force` once every machine trusts the new CA", layout::SERVING_CERT, layout::CA_CERT));
        } else {
            r.check(Level::Fail, "chain", format!("{} is not signed by {} (it names issuer {}; the CA is {}): issue it again with `mcsctl cert issue --force`", layout::SERVING_CERT, layout::CA_CERT, leaf.issuer_with_key_id(), ca.subject_with_key_id()));
        }
        if !leaf.server_auth {
            r.check(
                Level::Fail,
                "eku",
                format!(
                    "{} lacks extended key usage serverAuth",
                    layout::SERVING_CERT
                ),
            );
        }
    }

    // Pointer configs.
    let store = if dir.exists(layout::TOKENS) {
        check_mode(r, dir, layout::TOKENS);
        match TokenStore::parse(
            &dir.read(layout::TOKENS)?,
            &dir.path(layout::TOKENS).display().to_string(),
        ) {
            Ok(s) => Some(s),
            Err(e) => {
                r.check(Level::Fail, "tokens", format!("{e:#}"));
                None
            }
        }
    } else {
        None
    };
    let names = dir.pointer_files()?;
    if names.is_empty() {
        r.check(
            Level::Warn,
            "pointer",
            "no pointer config (*.ign) in the asset directory",
        );
    }
    if let Some(cfg) = &cfg {
        for pool in &cfg.pools {
            if !names.contains(&layout::pointer(pool)) {
                r.check(
                    Level::Warn,
                    "pointer",
                    format!("pool {pool} has no {}", layout::pointer(pool)),
                );
            }
        }
    }
    for name in names {
        let path = dir.path(&name);
        let info = match pointer::parse(&dir.read(&name)?, &path.display().to_string()) {
            Ok(i) => i,
            Err(e) => {
                r.check(Level::Fail, "pointer", format!("{e:#}"));
                continue;
            }
        };
        pointer_checks(r, &name, &info, leaf.as_ref(), store.as_ref());
        if info.token_secret().is_some() {
            check_mode(r, dir, &name);
        }
    }
    bootstrap_checks(
        r,
        dir,
        cfg.as_ref().map_or(Flavour::default(), |c| c.flavour),
    )
}

/// The bootstrap kubeconfig, when kept, is checked and its certificates listed; for the
/// openshift flavour every rendered config must carry it, or nodes never join.
fn bootstrap_checks(r: &mut Report, dir: &AssetDir, flavour: Flavour) -> Result<()> {
    let kept = dir.exists(layout::BOOTSTRAP_KUBECONFIG);
    if kept {
        check_mode(r, dir, layout::BOOTSTRAP_KUBECONFIG);
        let what = dir.path(layout::BOOTSTRAP_KUBECONFIG).display().to_string();
        match kubeconfig::check(&dir.read(layout::BOOTSTRAP_KUBECONFIG)?, &what, r.now) {
            Ok(k) => {
                for (i, ca) in k.cas.iter().enumerate() {
                    r.cert(
                        format!("{} CA[{}]", layout::BOOTSTRAP_KUBECONFIG, i + 1),
                        ca,
                    );
                }
                if let Some(c) = &k.client_cert {
                    r.cert(format!("{} client", layout::BOOTSTRAP_KUBECONFIG), c);
                }
            }
            Err(e) => r.check(Level::Fail, "bootstrap-kubeconfig", format!("{e:#}")),
        }
    }
    if flavour != Flavour::OpenShift {
        return Ok(());
    }
    let rendered = dir.path(RENDERED);
    let mut names: Vec<String> = match std::fs::read_dir(&rendered) {
        Ok(rd) => rd
            .filter_map(|e| e.ok()?.file_name().into_string().ok())
            .filter(|n| n.ends_with(".ign"))
            .collect(),
        Err(_) => return Ok(()),
    };
    names.sort();
    for n in names {
        let rel = format!("{RENDERED}/{n}");
        let Ok(v) = serde_json::from_slice::<Value>(&dir.read(&rel)?) else {
            r.check(Level::Fail, "rendered", format!("{rel} is not JSON"));
            continue;
        };
        if payload::writes(&v, payload::KUBECONFIG) {
            r.check(
                Level::Ok,
                "bootstrap-kubeconfig",
                format!("{rel} carries {}", payload::KUBECONFIG),
            );
        } else {
            let fix = if kept {
                format!(
                    "run `mcsctl render` again ({} is there; this render predates it)",
                    layout::BOOTSTRAP_KUBECONFIG
                )
            } else {
                format!(
                    "run `mcsctl render --bootstrap-kubeconfig FILE` ({})",
                    kubeconfig::HOW_TO_GET
                )
            };
            r.check(
                Level::Warn,
                "bootstrap-kubeconfig",
                format!(
                    "{rel} has no {}: nodes booted from it cannot send their CSR and never join; {fix}",
                    payload::KUBECONFIG
                ),
            );
        }
    }
    Ok(())
}

/// The checks that catch what a booting machine would hit: its CA bundle must contain the
/// serving certificate's issuer, the serving certificate must name the URL's host, and its
/// token must be live.
fn pointer_checks(
    r: &mut Report,
    name: &str,
    info: &PointerInfo,
    leaf: Option<&CertInfo>,
    store: Option<&TokenStore>,
) {
    let mut cas = Vec::new();
    for (i, pem) in info.ca_pems.iter().enumerate() {
        match parse_pem_certs(pem, &format!("{name} certificateAuthorities[{i}]")) {
            Ok(v) => cas.extend(v),
            Err(e) => r.check(Level::Fail, "pointer-ca", format!("{e:#}")),
        }
    }
    for (i, c) in cas.iter().enumerate() {
        if !r
            .certificates
            .iter()
            .any(|row| row.fingerprint_sha256 == c.fingerprint)
        {
            r.cert(format!("{name} ca[{}]", i + 1), c);
        }
    }
    for w in &info.warnings {
        r.check(
            Level::Warn,
            "pointer",
            format!("{name}: Ignition would warn: {w}"),
        );
    }
    for remote in &info.remote_cas {
        r.check(
            Level::Warn,
            "pointer-ca",
            format!("{name}: CA fetched from {remote} at boot; not checked"),
        );
    }
    r.pointers.push(PointerRow {
        name: name.to_string(),
        spec_version: info.version.clone(),
        merge_sources: info.sources.clone(),
        certificate_authorities: cas.len(),
        token: info.token_transport.map(|t| TokenRef {
            transport: t,
            id: info.token_id.clone(),
        }),
    });
    if info.sources.is_empty() {
        r.check(
            Level::Fail,
            "pointer",
            format!("{name} has no ignition.config merge or replace source"),
        );
    }
    let Some(leaf) = leaf else { return };
    if cas.iter().any(|c| leaf.is_issued_by(c)) {
        r.check(
            Level::Ok,
            "pointer-ca",
            format!("{name} trusts the issuer of {}", layout::SERVING_CERT),
        );
    } else if cas.is_empty() {
        r.check(Level::Fail, "pointer-ca", format!("{name} carries no CA: Ignition will check the serving certificate against the system roots and fail"));
    } else {
        let trusted: Vec<String> = cas.iter().map(CertInfo::subject_with_key_id).collect();
        r.check(
            Level::Fail,
            "pointer-ca",
            format!(
                "{name} trusts {} but {} was signed by {}: machines will fail with \"x509: certificate signed by unknown authority\"; rewrite it with `mcsctl pointer --pool {} --force` or reissue the serving certificate",
                trusted.join(", "),
                layout::SERVING_CERT,
                leaf.issuer_with_key_id(),
                name.trim_end_matches(".ign")
            ),
        );
    }
    for src in &info.sources {
        match url_host(src) {
            Some(host) if leaf.covers_host(&host) => {
                r.check(Level::Ok, "san", format!("{} covers {host} ({name})", layout::SERVING_CERT))
            }
            Some(host) => r.check(
                Level::Fail,
                "san",
                format!("{} does not cover {host}, the host of {name}'s merge source (SANs: {}); add it with `mcsctl cert issue --force --san {host}`", layout::SERVING_CERT, leaf.sans().join(", ")),
            ),
            None => r.check(Level::Fail, "pointer", format!("{name}: merge source {src:?} has no host")),
        }
    }
    if let (Some(token), Some(id)) = (info.token_secret(), info.token_id.as_deref()) {
        let now = time::OffsetDateTime::from_unix_timestamp(r.now)
            .unwrap_or_else(|_| time::OffsetDateTime::now_utc());
        let found = store.and_then(|s| {
            s.tokens.iter().find(|t| {
                aws_lc_rs::constant_time::verify_slices_are_equal(
                    t.bearer().as_bytes(),
                    token.as_bytes(),
                )
                .is_ok()
            })
        });
        match found {
            None => r.check(Level::Fail, "token", format!("{name}: token {id} is not in {}: the server will answer 401", layout::TOKENS)),
            Some(t) if !t.is_live(now) => r.check(
                Level::Fail,
                "token",
                format!("{name}: token {id} is {}: the server will answer 401; run `mcsctl token rotate`", t.effective_state(now)),
            ),
            Some(t) => match t.expires {
                Some(e) if (e.unix_timestamp() - r.now) <= r.warn_within => r.check(
                    Level::Warn,
                    "token",
                    format!("{name}: token {id} expires {}", rfc3339(e.unix_timestamp())),
                ),
                _ => r.check(Level::Ok, "token", format!("{name}: token {id} is {}", t.effective_state(now))),
            },
        }
    }
}

/// Directories others can write to let another local user swap a key or a token store.
fn dir_modes(r: &mut Report, dir: &AssetDir) {
    for rel in ["", "tls", "auth", RENDERED, PRE_APPROVAL] {
        let p = dir.path(rel);
        let Ok(m) = std::fs::metadata(&p) else {
            continue;
        };
        let mode = m.permissions().mode() & 0o7777;
        if m.is_dir() && mode & 0o022 != 0 && mode & 0o1000 == 0 {
            let name = if rel.is_empty() {
                dir.root().display().to_string()
            } else {
                rel.to_string()
            };
            r.check(
                Level::Fail,
                "mode",
                format!(
                    "{name} is mode {mode:04o}: another local user can replace the files in it (chmod go-w {})",
                    p.display()
                ),
            );
        }
    }
}

fn check_mode(r: &mut Report, dir: &AssetDir, rel: &str) {
    if let Ok(m) = std::fs::metadata(dir.path(rel)) {
        let mode = m.permissions().mode() & 0o777;
        if mode & 0o077 != 0 {
            r.check(
                Level::Warn,
                "mode",
                format!(
                    "{rel} is mode {mode:04o}: a secret should be 0600 (chmod 600 {})",
                    dir.path(rel).display()
                ),
            );
        }
    }
}

fn inspect_file(r: &mut Report, path: &Path) -> Result<()> {
    let name = path.display().to_string();
    let bytes = std::fs::read(path).with_context(|| format!("reading {name}"))?;
    let text = String::from_utf8_lossy(&bytes);
    let trimmed = text.trim_start();
    let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
    if ext == "ign" || trimmed.starts_with('{') {
        let v: Value = serde_json::from_slice(&bytes).map_err(|e| {
            anyhow::anyhow!("{name} is not JSON (line {}, column {}); expected a pointer config or a Kubernetes object", e.line(), e.column())
        })?;
        if v.get("ignition").is_some() {
            let info = pointer::parse(&bytes, &name)?;
            let file = path
                .file_name()
                .map(|f| f.to_string_lossy().to_string())
                .unwrap_or(name.clone());
            pointer_checks(r, &file, &info, None, None);
            return Ok(());
        }
        return inspect_kube(r, &name, vec![v]);
    }
    if text.contains("-----BEGIN ") {
        let certs = parse_pem_certs(&bytes, &name)?;
        let many = certs.len() > 1;
        for (i, c) in certs.iter().enumerate() {
            r.cert(
                if many {
                    format!("{name}[{}]", i + 1)
                } else {
                    name.clone()
                },
                c,
            );
        }
        if many {
            for pair in certs.windows(2) {
                if !pair[0].is_self_issued() && pair[0].is_issued_by(&pair[1]) {
                    r.check(
                        Level::Ok,
                        "chain",
                        format!(
                            "{name}: {} is signed by {}",
                            short_name(&pair[0].subject),
                            short_name(&pair[1].subject)
                        ),
                    );
                }
            }
        }
        return Ok(());
    }
    let docs: Vec<Value> = serde_yaml_ng::Deserializer::from_str(&text)
        .map(serde::Deserialize::deserialize)
        .collect::<Result<Vec<Value>, _>>()
        .map_err(|e| {
            anyhow::anyhow!("{name}: not a PEM file, pointer config or Kubernetes object ({e})")
        })?;
    if docs.iter().all(|d| d.get("kind").is_none()) {
        bail!("{name}: not a PEM file, pointer config or Kubernetes object");
    }
    inspect_kube(r, &name, docs)
}

/// Kubernetes Secrets (base64 `data`, plain `stringData`) and ConfigMaps (plain `data`) that
/// hold certificates under `tls.crt`, `ca.crt` or any `*.crt` / `*.pem` key; `kind: List`
/// items too. A `tls.key` next to `tls.crt` is checked to match it.
fn inspect_kube(r: &mut Report, name: &str, docs: Vec<Value>) -> Result<()> {
    let mut objects = Vec::new();
    for d in docs {
        if d["kind"] == "List" {
            objects.extend(d["items"].as_array().cloned().unwrap_or_default());
        } else if !d.is_null() {
            objects.push(d);
        }
    }
    let mut found = 0;
    for o in &objects {
        let kind = o["kind"].as_str().unwrap_or("");
        if kind != "Secret" && kind != "ConfigMap" {
            continue;
        }
        let obj = format!(
            "{}/{}",
            o["metadata"]["namespace"].as_str().unwrap_or("default"),
            o["metadata"]["name"].as_str().unwrap_or("?")
        );
        let mut entries: Vec<(String, Vec<u8>)> = Vec::new();
        if let Some(m) = o["data"].as_object() {
            for (k, v) in m {
                let Some(s) = v.as_str() else { continue };
                let val = if kind == "Secret" {
                    base64::engine::general_purpose::STANDARD
                        .decode(s.trim())
                        .with_context(|| format!("{name}: {obj} data.{k} is not base64"))?
                } else {
                    s.as_bytes().to_vec()
                };
                entries.push((k.clone(), val));
            }
        }
        if let Some(m) = o["stringData"].as_object() {
            for (k, v) in m {
                if let Some(s) = v.as_str() {
                    entries.push((k.clone(), s.as_bytes().to_vec()));
                }
            }
        }
        entries.sort_by(|a, b| a.0.cmp(&b.0));
        let mut tls_crt = None;
        for (k, v) in &entries {
            if !(k.ends_with(".crt") || k.ends_with(".pem")) || k.ends_with(".key") {
                continue;
            }
            let certs = parse_pem_certs(v, &format!("{name}: {obj} {k}"))?;
            found += certs.len();
            let many = certs.len() > 1;
            for (i, c) in certs.iter().enumerate() {
                r.cert(
                    if many {
                        format!("{obj} {k}[{}]", i + 1)
                    } else {
                        format!("{obj} {k}")
                    },
                    c,
                );
            }
            if k == "tls.crt" {
                tls_crt = certs.into_iter().next();
            }
        }
        if let (Some(cert), Some((_, key))) =
            (tls_crt, entries.iter().find(|(k, _)| k == "tls.key"))
        {
            match load_key_pem(key, &format!("{obj} tls.key")) {
                Ok(k) if key_matches_spki(&k, &cert.spki) => r.check(
                    Level::Ok,
                    "key-match",
                    format!("{obj}: tls.key matches tls.crt"),
                ),
                Ok(_) => r.check(
                    Level::Fail,
                    "key-match",
                    format!("{obj}: tls.key does not match tls.crt"),
                ),
                Err(e) => r.check(Level::Fail, "key-match", format!("{e:#}")),
            }
        }
    }
    if found == 0 {
        bail!(
            "{name}: no Secret or ConfigMap with a certificate (tls.crt, ca.crt, *.crt, *.pem) found"
        );
    }
    Ok(())
}

fn inspect_remote(
    r: &mut Report,
    dir: &AssetDir,
    remote: &str,
    sni: Option<&str>,
    ca: Option<&Path>,
) -> Result<()> {
    let host = match remote.rsplit_once(':') {
        Some((h, p)) if p.parse::<u16>().is_ok() && !h.is_empty() => {
            h.trim_start_matches('[').trim_end_matches(']')
        }
        _ => {
            return Err(crate::exit::usage(format!(
                "--remote {remote:?}: expected HOST:PORT"
            )));
        }
    };
    let server_name = sni.unwrap_or(host);
    let presented = remote::fetch_chain(remote, server_name, StdDuration::from_secs(10))?;
    for (i, c) in presented.chain.iter().enumerate() {
        r.cert(format!("{remote}[{i}]"), c);
    }
    let (roots, source) = match ca {
        Some(p) => {
            let n = p.display().to_string();
            (
                parse_pem_certs(
                    &std::fs::read(p).with_context(|| format!("reading {n}"))?,
                    &n,
                )?,
                n,
            )
        }
        None if dir.exists(layout::CA_BUNDLE) => (
            parse_pem_certs(
                &dir.read(layout::CA_BUNDLE)?,
                &dir.path(layout::CA_BUNDLE).display().to_string(),
            )?,
            dir.path(layout::CA_BUNDLE).display().to_string(),
        ),
        None => {
            r.check(
                Level::Warn,
                "remote",
                format!("{remote}: chain not verified: no CA bundle (pass --ca FILE or --dir)"),
            );
            return Ok(());
        }
    };
    match remote::verify_chain(&presented.chain, &roots, server_name) {
        Ok(()) => r.check(
            Level::Ok,
            "remote",
            format!(
                "{remote} ({}) presents a chain that verifies against {source} for {server_name}",
                presented.protocol
            ),
        ),
        Err(e) => {
            let last = presented
                .chain
                .last()
                .expect("fetch_chain returns at least one");
            let reason = if e == "BadSignature" || e == "UnknownIssuer" {
                format!(
                    "it is not signed by any CA of {source} (a client would need the CA {}) and will fail with \"x509: certificate signed by unknown authority\"",
                    last.issuer_with_key_id()
                )
            } else {
                e
            };
            r.check(
                Level::Fail,
                "remote",
                format!(
                    "{remote} presents a chain that does not verify for {server_name}: {reason}"
                ),
            )
        }
    }
    Ok(())
}
