//! Inspecting an asset directory: its certificates, keys, the chain, where a CA rotation
//! stands, the pointer configs against the serving certificate and the tokens, the bootstrap
//! kubeconfig (with [`super::hygiene`]: keys, modes).

use anyhow::Result;

use super::hygiene::{bootstrap, check_mode, dir_modes, kept, keys};
use super::{Level, Report, Role, pointer};
use crate::assets::{AssetDir, layout};
use crate::ignition::render::Flavour;
use crate::pki::cert::CertInfo;
use crate::pki::rotation::{ClusterBundle, Phase};
use crate::token::TokenStore;

/// Inspects `dir`, its machines' pointer configs by `fetches` (their tokens' fetch records).
pub fn inspect(
    r: &mut Report,
    dir: &AssetDir,
    fetches: Option<std::rc::Rc<super::machine::Fetches>>,
) -> Result<()> {
    dir.require()?;
    // A change a killed command committed is completed first: what inspect then checks is
    // what every reader sees.
    recovery(r, dir);
    // A broken mcsctl.json is reported, and the rest is inspected without it.
    let cfg = config(r, dir);
    dir_modes(r, dir);
    // The snapshot's reader: the same files read the same way.
    let certs = |rel: &str| crate::model::cas::certs(dir, rel);
    let cas = Cas {
        active: certs(layout::CA_CERT)?.map(|mut v| v.remove(0)),
        next: certs(layout::CA_NEXT_CERT)?.map(|mut v| v.remove(0)),
        previous: certs(layout::CA_PREVIOUS_CERT)?.map(|mut v| v.remove(0)),
        bundle: certs(layout::CA_BUNDLE)?.unwrap_or_default(),
    };
    let serving = certs(layout::SERVING_CERT)?;
    let cluster = cluster_bundle(r, dir);
    ca_rows(r, &cas);
    match &cluster {
        Some(c) => r.ok(
            "ca-rotation",
            format!(
                "the CA bundle is the cluster's (from {}, imported {}): {} CA(s); the MCO rotates it: after it does, `mcsctl ca import --bundle` the new one, and `mcsctl inspect --remote {}:22623 POINTER` checks a pointer config against what the cluster's MCS presents",
                c.source,
                c.imported_at,
                cas.bundle.len(),
                cfg.as_ref().map_or("HOST".to_string(), |c| c.api_int_host())
            ),
        ),
        None => rotation(r, &cas.active, &cas.next, &cas.previous, &cas.bundle),
    }
    let leaf = serving.as_ref().map(|v| v[0].clone());
    serving_rows(r, serving.as_deref(), cluster.is_some());
    keys(
        r,
        dir,
        [
            (layout::CA_KEY, cas.active.as_ref()),
            (layout::CA_NEXT_KEY, cas.next.as_ref()),
            (layout::SERVING_KEY, leaf.as_ref()),
        ],
    )?;
    kept(r, dir);
    if let (Some(leaf), Some(ca)) = (&leaf, &cas.active) {
        chain(r, leaf, ca, &cas.bundle);
    }
    let ctx = super::Context {
        leaf,
        store: tokens(r, dir)?,
        bundle: cas.bundle.clone(),
        next: cas.next.clone(),
        fetches,
        purpose: super::machine::Purpose::Audit,
        dir: Some(dir.root().to_path_buf()),
    };
    let bundle = cluster.is_some().then_some(cas.bundle.as_slice());
    pointers(r, dir, cfg.as_ref(), &ctx, bundle)?;
    bootstrap(
        r,
        dir,
        cfg.as_ref().map_or(Flavour::default(), |c| c.flavour),
    )
}

/// The CA certificates of the directory.
struct Cas {
    active: Option<CertInfo>,
    next: Option<CertInfo>,
    previous: Option<CertInfo>,
    bundle: Vec<CertInfo>,
}

/// Completes a change a killed command committed, and says so.
fn recovery(r: &mut Report, dir: &AssetDir) {
    match dir.settle() {
        Ok(Some(c)) => r.ok(
            "recovery",
            format!("completed an interrupted `{c}` (it was stopped after deciding its change)"),
        ),
        Ok(None) => {}
        Err(e) => r.check(
            Level::Fail,
            "recovery",
            format!("an interrupted change is pending and could not be completed: {e:#}"),
            Some(
                "run any mcsctl command that changes the directory, as a user who may write it"
                    .to_string(),
            ),
        ),
    }
    let root = dir.root();
    for p in crate::assets::leftovers(dir) {
        let rel = p.strip_prefix(root).unwrap_or(&p).display().to_string();
        r.check(
            Level::Warn,
            "leftover",
            format!("{rel} was left by a command stopped before its change landed; it may hold a private key"),
            Some(format!(
                "the next mcsctl command that takes the directory's lock removes it, overwritten first (`mcsctl --dir {} token list -v` names it)",
                root.display()
            )),
        );
    }
}

/// mcsctl.json, or a failed row saying why it cannot be read.
fn config(r: &mut Report, dir: &AssetDir) -> Option<crate::model::ClusterConfig> {
    match crate::model::config::load(dir) {
        Ok(c) => c,
        Err(e) => {
            r.check(
                Level::Fail,
                "config",
                format!("{e:#}"),
                Some(format!(
                    "fix {} by hand, or recreate it with `mcsctl init --force`",
                    layout::CONFIG
                )),
            );
            None
        }
    }
}

/// A row for each CA: the active one (which must be a CA), next, previous, and the bundle's
/// others.
fn ca_rows(r: &mut Report, cas: &Cas) {
    let (ca, next, previous, bundle) = (&cas.active, &cas.next, &cas.previous, &cas.bundle);
    match &ca {
        Some(ca) => {
            r.cert(layout::CA_CERT, ca, Role::Ca);
            if !ca.is_ca {
                r.check(
                    Level::Fail,
                    "ca",
                    format!("{} is not a CA certificate", layout::CA_CERT),
                    Some("`mcsctl ca create` or `mcsctl ca import` a CA".to_string()),
                );
            }
        }
        None => r.check(
            Level::Fail,
            "missing",
            format!("{} is missing", layout::CA_CERT),
            Some("`mcsctl ca create`, or `mcsctl ca import` an existing CA".to_string()),
        ),
    }
    for (rel, c) in [
        (layout::CA_NEXT_CERT, &next),
        (layout::CA_PREVIOUS_CERT, &previous),
    ] {
        if let Some(c) = c {
            r.cert(rel, c, Role::OtherCa);
        }
    }
    for (i, b) in bundle.iter().enumerate() {
        let known = [&ca, &next, &previous]
            .iter()
            .any(|x| x.as_ref().is_some_and(|x| x.der == b.der));
        if !known {
            r.cert(
                format!("{}[{}]", layout::CA_BUNDLE, i + 1),
                b,
                Role::OtherCa,
            );
        }
    }
}

/// A row for each certificate of the serving chain, or why there is none.
fn serving_rows(r: &mut Report, serving: Option<&[CertInfo]>, cluster: bool) {
    match serving {
        Some(chain) => {
            for (i, c) in chain.iter().enumerate() {
                let name = if i == 0 {
                    layout::SERVING_CERT.to_string()
                } else {
                    format!("{}[{}]", layout::SERVING_CERT, i + 1)
                };
                r.cert(name, c, Role::Serving);
            }
        }
        None if cluster => r.ok(
            "missing",
            format!(
                "no {} here: the cluster's MCS serves with its own (Secret {}/machine-config-server-tls)",
                layout::SERVING_CERT,
                crate::manifests::MCO_NAMESPACE
            ),
        ),
        None => r.check(
            Level::Fail,
            "missing",
            format!("{} is missing", layout::SERVING_CERT),
            Some("`mcsctl cert issue`".to_string()),
        ),
    }
}

/// The token store, checked: a token without a pool scope is a warning.
fn tokens(r: &mut Report, dir: &AssetDir) -> Result<Option<TokenStore>> {
    if dir.exists(layout::TOKENS) {
        check_mode(r, dir, layout::TOKENS);
    }
    // The snapshot's reader; a store that cannot be read is a failed row, not the end.
    Ok(match crate::model::read_tokens(dir) {
        Ok(Some(s)) => {
            let now = r.now;
            for t in s.live(now).filter(|t| t.pools.is_none()) {
                r.check(
                    Level::Warn,
                    "tokens",
                    format!(
                        "token {} has no pool scope (made before scopes existed): it fetches every pool's config, so a worker's pointer config can fetch the master's",
                        t.id
                    ),
                    Some("`mcsctl token rotate` gives each pool its own token (the old one stays valid for --grace), then `mcsctl token revoke` it".to_string()),
                );
            }
            Some(s)
        }
        Ok(None) => None,
        Err(e) => {
            r.check(Level::Fail, "tokens", format!("{e:#}"), Some("restore auth/tokens.json from a backup, or start a new one with `mcsctl token rotate`".to_string()));
            None
        }
    })
}

/// Each pointer config against the serving certificate, the bundle and the tokens; with
/// `cluster_bundle`, against the cluster's bundle too.
fn pointers(
    r: &mut Report,
    dir: &AssetDir,
    cfg: Option<&crate::model::ClusterConfig>,
    ctx: &super::Context,
    cluster_bundle: Option<&[CertInfo]>,
) -> Result<()> {
    let names = dir.pointer_files()?;
    if names.is_empty() {
        r.check(
            Level::Warn,
            "pointer",
            "no pointer config (*.ign) in the asset directory",
            Some("`mcsctl pointer --pool worker`".to_string()),
        );
    }
    if let Some(cfg) = cfg {
        for pool in &cfg.pools {
            if !names.contains(&layout::pointer(pool)) {
                r.check(
                    Level::Warn,
                    "pointer",
                    format!("pool {pool} has no {}", layout::pointer(pool)),
                    Some(format!("`mcsctl pointer --pool {pool}`")),
                );
            }
        }
    }
    // The machines' own pointer configs (`machine add`), checked the same way.
    let machines = dir.machine_pointer_files()?.into_iter().map(|(rel, _)| rel);
    for name in names.into_iter().chain(machines) {
        let path = dir.path(&name);
        let bytes = match dir.read(&name) {
            Ok(b) => b,
            Err(e) => {
                r.check(
                    Level::Fail,
                    "pointer",
                    format!("{e:#}"),
                    Some(format!("check the permissions of {}", path.display())),
                );
                continue;
            }
        };
        let info = match crate::ignition::pointer::parse(&bytes, &path.display().to_string()) {
            Ok(i) => i,
            Err(e) => {
                r.check(
                    Level::Fail,
                    "pointer",
                    format!("{e:#}"),
                    Some(format!(
                        "rewrite it: `mcsctl pointer --pool {} --force`",
                        name.trim_end_matches(".ign")
                    )),
                );
                continue;
            }
        };
        let trusts = pointer::check(r, &name, &info, ctx);
        if let Some(bundle) = cluster_bundle {
            trusts_bundle(r, &name, &trusts.cas, bundle);
        }
        if info.token_secret().is_some() {
            check_mode(r, dir, &name);
        }
    }
    Ok(())
}

/// The record of a cluster's bundle (`ca import --bundle`); an unreadable one is a failed row.
fn cluster_bundle(r: &mut Report, dir: &AssetDir) -> Option<ClusterBundle> {
    if !dir.exists(layout::CLUSTER_CA) {
        return None;
    }
    let name = dir.path(layout::CLUSTER_CA).display().to_string();
    match dir
        .read(layout::CLUSTER_CA)
        .and_then(|b| ClusterBundle::parse(&b, &name))
    {
        Ok(c) => Some(c),
        Err(e) => {
            r.check(
                Level::Fail,
                "ca-bundle",
                format!("{e:#}"),
                Some(
                    "import the cluster's bundle again: `mcsctl ca import --bundle FILE`"
                        .to_string(),
                ),
            );
            None
        }
    }
}

/// With a cluster's bundle (and no serving certificate of ours to judge by), a pointer config
/// must trust every CA of it: any may sign what the cluster's MCS presents.
fn trusts_bundle(r: &mut Report, name: &str, cas: &[CertInfo], bundle: &[CertInfo]) {
    let pool = name.trim_end_matches(".ign");
    let missing: Vec<String> = bundle
        .iter()
        .filter(|b| !cas.iter().any(|c| c.der == b.der))
        .map(CertInfo::subject_with_key_id)
        .collect();
    if missing.is_empty() {
        r.ok(
            "pointer-ca",
            format!("{name} trusts every CA of the cluster's bundle"),
        );
    } else {
        r.check(
            Level::Fail,
            "pointer-ca",
            format!(
                "{name} does not trust {} of the cluster's bundle: machines fail once it signs what the MCS presents",
                missing.join(", ")
            ),
            Some(format!("`mcsctl pointer --pool {pool} --force`")),
        );
    }
}

/// Where a CA rotation stands, and what comes next.
fn rotation(
    r: &mut Report,
    ca: &Option<CertInfo>,
    next: &Option<CertInfo>,
    previous: &Option<CertInfo>,
    bundle: &[CertInfo],
) {
    let phase = Phase::of(
        next.is_some(),
        previous.is_some()
            || bundle
                .iter()
                .any(|b| ca.as_ref().is_some_and(|c| c.der != b.der)),
    );
    let (what, then) = phase.describe();
    match then {
        None => r.ok("ca-rotation", what),
        Some(next_step) => r.check(
            Level::Warn,
            "ca-rotation",
            what,
            Some(next_step.to_string()),
        ),
    }
    if let Some(ca) = ca
        && !bundle.is_empty()
        && !bundle.iter().any(|b| b.der == ca.der)
    {
        r.check(
            Level::Fail,
            "bundle",
            format!(
                "{} does not contain {}: pointer configs will not trust the serving certificate",
                layout::CA_BUNDLE,
                layout::CA_CERT
            ),
            Some(
                "`mcsctl ca retire` rebuilds the bundle, or `mcsctl ca import --bundle FILE`"
                    .to_string(),
            ),
        );
    }
}

fn chain(r: &mut Report, leaf: &CertInfo, ca: &CertInfo, bundle: &[CertInfo]) {
    if leaf.is_issued_by(ca) {
        r.ok(
            "chain",
            format!("{} is signed by {}", layout::SERVING_CERT, layout::CA_CERT),
        );
    } else if bundle.iter().any(|b| leaf.is_issued_by(b)) {
        r.check(
            Level::Warn,
            "chain",
            format!("{} is signed by another CA of the bundle, not {}", layout::SERVING_CERT, layout::CA_CERT),
            Some("`mcsctl cert issue --force` once every machine's pointer config trusts the active CA".to_string()),
        );
    } else {
        r.check(
            Level::Fail,
            "chain",
            format!(
                "{} is not signed by {} (it names issuer {}; the CA is {})",
                layout::SERVING_CERT,
                layout::CA_CERT,
                leaf.issuer_with_key_id(),
                ca.subject_with_key_id()
            ),
            Some("issue it again: `mcsctl cert issue --force`".to_string()),
        );
    }
    if !leaf.server_auth {
        r.check(
            Level::Fail,
            "eku",
            format!(
                "{} lacks extended key usage serverAuth",
                layout::SERVING_CERT
            ),
            Some("issue it again: `mcsctl cert issue --force`".to_string()),
        );
    }
}
