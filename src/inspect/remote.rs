//! A live endpoint: the chain it presents, whether it verifies against the CA bundle, and for
//! every pointer config named beside it whether a machine booting with that config would
//! trust it, with the command that fixes it when not.

use std::path::Path;
use std::time::Duration;

use anyhow::Result;

use super::pointer::Trusts;
use super::{Level, Report, Role};
use crate::assets::{AssetDir, layout};
use crate::pki::cert::parse_pem_certs;
use crate::pki::remote;
use crate::pki::verify::ChainError;

/// For a cluster whose MCO rotates the CA (4.19 and later): how to follow it.
const FOLLOW_THE_CLUSTER: &str = "if the cluster rotated its MCS CA: `oc -n openshift-machine-config-operator get configmap machine-config-server-ca -o yaml > mcs-ca.yaml && mcsctl ca import --bundle mcs-ca.yaml`, then copy the rewritten pointer configs to where machines boot from";

/// Inspects `endpoint` (`HOST:PORT`).
pub fn inspect(
    r: &mut Report,
    dir: &AssetDir,
    endpoint: &str,
    sni: Option<&str>,
    ca: Option<&Path>,
    pointers: &[Trusts],
) -> Result<()> {
    let host = match endpoint.rsplit_once(':') {
        Some((h, p)) if p.parse::<u16>().is_ok() && !h.is_empty() => {
            h.trim_start_matches('[').trim_end_matches(']')
        }
        _ => {
            return Err(crate::exit::usage(format!(
                "--remote {endpoint:?}: expected HOST:PORT"
            )));
        }
    };
    let server_name = sni.unwrap_or(host);
    let presented = match remote::fetch_chain(endpoint, server_name, Duration::from_secs(10)) {
        Ok(p) => p,
        Err(e) => {
            r.check(
                Level::Fail,
                "remote",
                format!("{endpoint}: {e:#}"),
                Some(
                    "check that the server runs and the address is reachable from here".to_string(),
                ),
            );
            return Ok(());
        }
    };
    for (i, c) in presented.chain.iter().enumerate() {
        r.cert(format!("{endpoint}[{i}]"), c, Role::Remote);
    }
    let Some(last) = presented.chain.last() else {
        return Ok(());
    };
    let seen = Seen {
        endpoint,
        server_name,
        presented: &presented,
        last,
    };
    check_pointers(r, dir, &seen, pointers);
    let (roots, source) = match ca {
        Some(p) => {
            let n = p.display().to_string();
            let bytes = crate::assets::read_file(p)?;
            (crate::pki::load::certs(&bytes, &n)?, n)
        }
        None if dir.exists(layout::CA_BUNDLE) => (
            parse_pem_certs(
                &dir.read(layout::CA_BUNDLE)?,
                &dir.path(layout::CA_BUNDLE).display().to_string(),
            )?,
            dir.path(layout::CA_BUNDLE).display().to_string(),
        ),
        None if !pointers.is_empty() => return Ok(()),
        None => {
            r.check(
                Level::Warn,
                "remote",
                format!("{endpoint}: chain not verified: no CA bundle"),
                Some("pass --ca FILE, --dir with an asset directory, or a pointer config to check against".to_string()),
            );
            return Ok(());
        }
    };
    check_chain(r, &seen, &roots, &source);
    Ok(())
}

/// What the endpoint presented, for the checks.
struct Seen<'a> {
    endpoint: &'a str,
    server_name: &'a str,
    presented: &'a remote::Presented,
    /// The chain's last certificate (whose issuer a client must trust).
    last: &'a crate::pki::cert::CertInfo,
}

/// Each named pointer config against what the server presents; when the directory's bundle
/// trusts the server, its pointer configs are the fix.
fn check_pointers(r: &mut Report, dir: &AssetDir, seen: &Seen<'_>, pointers: &[Trusts]) {
    let Seen {
        endpoint,
        server_name,
        presented,
        last,
    } = *seen;
    let dir_bundle = if dir.exists(layout::CA_BUNDLE) {
        dir.read(layout::CA_BUNDLE)
            .ok()
            .and_then(|b| parse_pem_certs(&b, layout::CA_BUNDLE).ok())
    } else {
        None
    };
    let dir_trusts =
        dir_bundle.is_some_and(|b| remote::verify_chain(&presented.chain, &b, server_name).is_ok());
    // Each named pointer config against what the server presents.
    for p in pointers {
        match remote::verify_chain(&presented.chain, &p.cas, server_name) {
            Ok(()) => r.ok(
                "remote",
                format!("{} trusts what {endpoint} presents", p.name),
            ),
            Err(e) => {
                let why = if e == ChainError::UnknownIssuer {
                    format!(
                        "it does not trust the CA {} that signed it: a machine booting with it fails with \"x509: certificate signed by unknown authority\"",
                        last.issuer_with_key_id()
                    )
                } else {
                    e.to_string()
                };
                let fix = if dir_trusts {
                    format!(
                        "the pointer configs of {} trust it: copy {} there again to where machines boot from (or write it with `mcsctl pointer --pool {} --output FILE --force`)",
                        dir.root().display(),
                        layout::pointer(&p.pool),
                        p.pool
                    )
                } else {
                    FOLLOW_THE_CLUSTER.to_string()
                };
                r.check(
                    Level::Fail,
                    "remote",
                    format!("{} does not trust what {endpoint} presents: {why}", p.name),
                    Some(fix),
                );
            }
        }
    }
}

/// The chain against the CAs of `--ca` or the directory (`source` names them).
fn check_chain(
    r: &mut Report,
    seen: &Seen<'_>,
    roots: &[crate::pki::cert::CertInfo],
    source: &str,
) {
    let Seen {
        endpoint,
        server_name,
        presented,
        last,
    } = *seen;
    match remote::verify_chain(&presented.chain, roots, server_name) {
        Ok(()) => r.ok(
            "remote",
            format!(
                "{endpoint} ({}) presents a chain that verifies against {source} for {server_name}",
                presented.protocol
            ),
        ),
        Err(e) => {
            let reason = if e == ChainError::UnknownIssuer {
                format!(
                    "it is not signed by any CA of {source} (a client would need the CA {}) and will fail with \"x509: certificate signed by unknown authority\"",
                    last.issuer_with_key_id()
                )
            } else {
                e.to_string()
            };
            r.check(
                Level::Fail,
                "remote",
                format!(
                    "{endpoint} presents a chain that does not verify for {server_name}: {reason}"
                ),
                Some(FOLLOW_THE_CLUSTER.to_string()),
            );
        }
    }
}
