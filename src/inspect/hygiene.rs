//! What an inspection checks beside the chain: that keys belong to their certificates, the
//! modes of secrets and directories, and the bootstrap kubeconfig.

use std::os::unix::fs::PermissionsExt;

use anyhow::Result;
use serde_json::Value;

use super::{Level, Report, Role};
use crate::assets::layout::{PRE_APPROVAL, RENDERED};
use crate::assets::{AssetDir, layout};
use crate::ignition::render::{Flavour, payload};
use crate::kubeconfig;
use crate::pki::cert::CertInfo;
use crate::pki::keys::{key_matches_spki, load_key_pem};

/// Keys belong to their certificates; a CA key kept offline is fine.
pub(super) fn keys<const N: usize>(
    r: &mut Report,
    dir: &AssetDir,
    pairs: [(&str, Option<&CertInfo>); N],
) -> Result<()> {
    for (key_rel, cert) in pairs {
        let Some(cert) = cert else { continue };
        if !dir.exists(key_rel) {
            if key_rel == layout::SERVING_KEY {
                r.check(
                    Level::Fail,
                    "key-match",
                    format!("{key_rel} is missing"),
                    Some("`mcsctl cert issue --force`".to_string()),
                );
            } else {
                r.ok("key-match", format!("{key_rel} is not here (kept offline, or the cluster signs): fine until something must be signed"));
            }
            continue;
        }
        check_mode(r, dir, key_rel);
        match load_key_pem(&dir.read(key_rel)?, &dir.path(key_rel).display().to_string()) {
            Ok(k) if key_matches_spki(&k, &cert.spki) => r.ok("key-match", format!("{key_rel} matches its certificate")),
            Ok(_) => r.check(
                Level::Fail,
                "key-match",
                format!("{key_rel} does not match its certificate (the public keys differ)"),
                Some("restore the pair from a backup, or issue a new one (`mcsctl cert issue --force` for the serving certificate)".to_string()),
            ),
            Err(e) => r.check(Level::Fail, "key-match", format!("{e:#}"), Some("restore the key from a backup".to_string())),
        }
    }
    Ok(())
}

/// Directories others can write to let another local user swap a key or a token store.
pub(super) fn dir_modes(r: &mut Report, dir: &AssetDir) {
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
                    "{name} is mode {mode:04o}: another local user can replace the files in it"
                ),
                Some(format!("chmod go-w {}", p.display())),
            );
        }
    }
}

pub(super) fn check_mode(r: &mut Report, dir: &AssetDir, rel: &str) {
    if let Ok(m) = std::fs::metadata(dir.path(rel)) {
        let mode = m.permissions().mode() & 0o777;
        if mode & 0o077 != 0 {
            r.check(
                Level::Warn,
                "mode",
                format!("{rel} is mode {mode:04o}: a secret should be 0600"),
                Some(format!("chmod 600 {}", dir.path(rel).display())),
            );
        }
    }
}

/// The bootstrap kubeconfig, when kept, is checked and its certificates listed; for the
/// openshift flavour every rendered config must carry it, or nodes never join.
pub(super) fn bootstrap(r: &mut Report, dir: &AssetDir, flavour: Flavour) -> Result<()> {
    let kept = dir.exists(layout::BOOTSTRAP_KUBECONFIG);
    if kept {
        check_mode(r, dir, layout::BOOTSTRAP_KUBECONFIG);
        let what = dir.path(layout::BOOTSTRAP_KUBECONFIG).display().to_string();
        match kubeconfig::check(&dir.read(layout::BOOTSTRAP_KUBECONFIG)?, &what, r.now) {
            Ok(k) => {
                for (i, ca) in k.cas.iter().enumerate() {
                    r.cert(format!("{} CA[{}]", layout::BOOTSTRAP_KUBECONFIG, i + 1), ca, Role::Kubeconfig);
                }
                if let Some(c) = &k.client_cert {
                    r.cert(format!("{} client", layout::BOOTSTRAP_KUBECONFIG), c, Role::Kubeconfig);
                }
            }
            Err(e) => r.check(
                Level::Fail,
                "bootstrap-kubeconfig",
                format!("{e:#}"),
                Some("get a new bootstrap kubeconfig and run `mcsctl render --bootstrap-kubeconfig FILE --force`".to_string()),
            ),
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
            r.check(
                Level::Fail,
                "rendered",
                format!("{rel} is not JSON"),
                Some("`mcsctl render` again".to_string()),
            );
            continue;
        };
        if payload::writes(&v, payload::KUBECONFIG) {
            r.ok(
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
                    "{rel} has no {}: nodes booted from it cannot send their CSR and never join",
                    payload::KUBECONFIG
                ),
                Some(fix),
            );
        }
    }
    Ok(())
}

/// The keys kept out of use, each named, so an admin sees what the directory holds: retired
/// CAs' and serving keys under tls/retired/ (until `ca retire --purge`, the one deletion) and
/// each backup `init --force` made. A kept key of the wrong mode fails as any key does.
pub(super) fn kept(r: &mut Report, dir: &AssetDir) {
    let retired = dir.files_in(layout::RETIRED).unwrap_or_default();
    for rel in retired.iter().filter(|f| f.ends_with(".key")) {
        check_mode(r, dir, rel);
        let name = rel.rsplit('/').next().unwrap_or_default();
        let cert = rel.trim_end_matches(".key").to_string() + ".crt";
        let whose = crate::model::cas::certs(dir, &cert)
            .ok()
            .flatten()
            .and_then(|mut c| (!c.is_empty()).then(|| c.remove(0)))
            .map_or(String::new(), |c| {
                format!(" of {}", c.subject_with_key_id())
            });
        let what = if name.starts_with("mcs-") {
            "a retired serving key"
        } else {
            "a retired CA's key"
        };
        r.ok(
            "kept",
            format!("{rel}: {what}{whose}, kept until `mcsctl ca retire --purge`"),
        );
    }
    let Ok(backups) = std::fs::read_dir(dir.path("backup")) else {
        return;
    };
    let mut names: Vec<String> = backups
        .flatten()
        .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    for b in names {
        let keys = dir.files_in(&format!("backup/{b}/tls")).unwrap_or_default();
        let keys: Vec<&String> = keys.iter().filter(|f| f.ends_with(".key")).collect();
        for k in &keys {
            check_mode(r, dir, k);
        }
        r.ok(
            "kept",
            format!(
                "backup/{b}/: what `mcsctl init --force` replaced ({} key(s)), never read again",
                keys.len()
            ),
        );
    }
}
