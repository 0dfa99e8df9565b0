//! The checks that catch what a booting machine would hit with a pointer config: its CAs must
//! include the serving certificate's issuer, the serving certificate must name the URL's host,
//! and its token must be live.

use super::{Context, Level, PointerRow, Report, Role, TokenRef};
use crate::ignition::pointer::PointerInfo;
use crate::pki::cert::{CertInfo, parse_pem_certs, rfc3339};
use crate::token::TokenStore;

/// A pointer config's CAs, kept for checking a live endpoint against it.
#[derive(Debug)]
pub struct Trusts {
    /// File name.
    pub name: String,
    /// The pool it fetches (from its merge URL's `/config/<pool>`, else its file name).
    pub pool: String,
    /// The CAs it trusts.
    pub cas: Vec<CertInfo>,
}

/// The pool a pointer config is for: the last segment of a `/config/<pool>` merge URL, else
/// the file name without `.ign` (a copy named `lab.ign` still says which pool it fetches).
fn pool_of(name: &str, info: &PointerInfo) -> String {
    info.sources
        .iter()
        .find_map(|s| {
            let path = s.split(['?', '#']).next()?;
            let (_, pool) = path.rsplit_once("/config/")?;
            (!pool.is_empty() && !pool.contains('/')).then(|| pool.to_string())
        })
        .unwrap_or_else(|| {
            let base = name.rsplit('/').next().unwrap_or(name);
            base.trim_end_matches(".ign").to_string()
        })
}

/// Checks one pointer config against what `ctx` knows of the asset directory: its serving
/// certificate, its tokens, and a CA being rotated in.
pub fn check(r: &mut Report, name: &str, info: &PointerInfo, ctx: &Context) -> Trusts {
    let (leaf, store) = (ctx.leaf.as_ref(), ctx.store.as_ref());
    let pool_name = pool_of(name, info);
    let pool = pool_name.as_str();
    let cas = cas(r, name, pool, info);
    for w in &info.warnings {
        r.check(
            Level::Warn,
            "pointer",
            format!("{name}: Ignition would warn: {w}"),
            Some("remove or correct the field Ignition does not know".to_string()),
        );
    }
    for remote in &info.remote_cas {
        r.check(
            Level::Warn,
            "pointer-ca",
            format!("{name}: CA fetched from {remote} at boot; not checked"),
            Some(
                "embed the CA (mcsctl pointer writes it as a data URL) so it can be checked"
                    .to_string(),
            ),
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
            Some(format!(
                "rewrite it: `mcsctl pointer --pool {pool} --force`"
            )),
        );
    }
    if let Some(next) = &ctx.next
        && !cas.is_empty()
        && !cas.iter().any(|c| c.der == next.der)
    {
        r.check(
            Level::Warn,
            "pointer-ca",
            format!(
                "{name} does not trust the new CA {} (`ca rotate`): machines booting with it fail once `mcsctl ca promote` runs",
                next.subject_with_key_id()
            ),
            Some(format!(
                "replace it with the directory's {pool}.ign, which trusts both (or `mcsctl pointer --pool {pool} --output FILE --force`)"
            )),
        );
    }
    if let Some(leaf) = leaf {
        trust(r, name, pool, &cas, leaf);
        sans(r, name, pool, &info.sources, leaf);
    }
    if let (Some(token), Some(id), Some(store)) =
        (info.token_secret(), info.token_id.as_deref(), store)
    {
        token_check(r, (name, pool), token, id, store, ctx);
    }
    Trusts {
        name: name.to_string(),
        pool: pool_name.clone(),
        cas,
    }
}

/// The pointer's inline CAs, each unreadable one a failed row; a row for each CA not yet
/// listed.
fn cas(r: &mut Report, name: &str, pool: &str, info: &PointerInfo) -> Vec<CertInfo> {
    let mut cas: Vec<CertInfo> = Vec::new();
    for (i, pem) in info.ca_pems.iter().enumerate() {
        match parse_pem_certs(pem, &format!("{name} certificateAuthorities[{i}]")) {
            Ok(v) => cas.extend(v),
            Err(e) => r.check(
                Level::Fail,
                "pointer-ca",
                format!("{e:#}"),
                Some(format!(
                    "rewrite it: `mcsctl pointer --pool {pool} --force`"
                )),
            ),
        }
    }
    for (i, c) in cas.iter().enumerate() {
        if !r
            .certificates
            .iter()
            .any(|row| row.fingerprint_sha256 == c.fingerprint)
        {
            r.cert(format!("{name} ca[{}]", i + 1), c, Role::PointerCa);
        }
    }
    cas
}

/// The serving certificate must cover the host of each merge source.
fn sans(r: &mut Report, name: &str, pool: &str, sources: &[String], leaf: &CertInfo) {
    for src in sources {
        match crate::http::HttpUrl::parse(src).map(|u| u.host().to_string()) {
            Some(host) if leaf.covers_host(&host) => {
                r.ok("san", format!("tls/mcs.crt covers {host} ({name})"))
            }
            Some(host) => r.check(
                Level::Fail,
                "san",
                format!(
                    "tls/mcs.crt does not cover {host}, the host of {name}'s merge source (SANs: {})",
                    leaf.sans().join(", ")
                ),
                Some(format!("`mcsctl cert issue --force --san {host}`")),
            ),
            None => r.check(
                Level::Fail,
                "pointer",
                format!("{name}: merge source {src:?} has no host"),
                Some(format!("rewrite it: `mcsctl pointer --pool {pool} --force --url https://HOST:22623/config/{pool}`")),
            ),
        }
    }
}

/// The pointer's CAs must include the serving certificate's issuer.
fn trust(r: &mut Report, name: &str, pool: &str, cas: &[CertInfo], leaf: &CertInfo) {
    if cas.iter().any(|c| leaf.is_issued_by(c)) {
        r.ok(
            "pointer-ca",
            format!("{name} trusts the issuer of tls/mcs.crt"),
        );
    } else if cas.is_empty() {
        r.check(
            Level::Fail,
            "pointer-ca",
            format!("{name} carries no CA: Ignition will check the serving certificate against the system roots and fail"),
            Some(format!("rewrite it: `mcsctl pointer --pool {pool} --force`")),
        );
    } else {
        let trusted: Vec<String> = cas.iter().map(CertInfo::subject_with_key_id).collect();
        r.check(
            Level::Fail,
            "pointer-ca",
            format!(
                "{name} trusts {} but tls/mcs.crt was signed by {}: machines will fail with \"x509: certificate signed by unknown authority\"",
                trusted.join(", "),
                leaf.issuer_with_key_id()
            ),
            Some(format!(
                "rewrite it with `mcsctl pointer --pool {pool} --force` (or, for a copy of one, copy the asset directory's again)"
            )),
        );
    }
}

/// The pointer's token against the directory's tokens: a machine's by its fetches
/// ([`super::machine`]), a pool's by whether it is still the pool's current one.
fn token_check(
    r: &mut Report,
    (name, pool): (&str, &str),
    token: &str,
    id: &str,
    store: &TokenStore,
    ctx: &Context,
) {
    let now = r.now;
    let found = store.tokens.iter().find(|t| {
        aws_lc_rs::constant_time::verify_slices_are_equal(t.bearer().as_bytes(), token.as_bytes())
            .is_ok()
    });
    let current = store.current_for(pool, now);
    let fix = || match (found.and_then(|t| t.machine.as_deref()), current) {
        (Some(m), _) => Some(format!(
            "`mcsctl machine add {m} --pool {pool} --force` gives {m} a new token and pointer config"
        )),
        (None, Some(c)) => Some(format!(
            "replace it wherever machines boot from it with {}, which carries the current token {}",
            ctx.pointer_of(pool),
            c.id
        )),
        (None, None) => Some(format!(
            "`mcsctl token rotate` gives pool {pool} a current token and writes it into {}; copies elsewhere must be copied again",
            ctx.pointer_of(pool)
        )),
    };
    match found {
        None => r.check(
            Level::Fail,
            "token",
            format!("{name}: token {id} is not in auth/tokens.json: the server will answer 401"),
            fix(),
        ),
        Some(t) if !t.is_live(now) => r.check(
            Level::Fail,
            "token",
            format!(
                "{name}: token {id} is {}: the server will answer 401",
                t.effective_state(now)
            ),
            fix(),
        ),
        Some(t) if !t.covers(pool) => r.check(
            Level::Fail,
            "token",
            format!(
                "{name}: token {id} may fetch pool {} only, but this pointer config fetches pool {pool}: the server will answer 403",
                t.pools.as_deref().unwrap_or_default().join(", ")
            ),
            Some(format!(
                "write it again: `mcsctl pointer --pool {pool} --force` carries the pool's own token"
            )),
        ),
        Some(t) if t.machine.is_some() => match &ctx.fetches {
            Some(f) => super::machine::check(r, name, pool, t, f, ctx.purpose),
            None => r.ok(
                "token",
                format!("{name}: token {id} is {} (its fetches were not read)", t.effective_state(now)),
            ),
        },
        Some(t) => pool_token(r, name, pool, t, current, ctx),
    }
}

/// A live pool token: still the pool's current one (warned before it expires), or replaced
/// by a rotation and working until its grace ends.
fn pool_token(
    r: &mut Report,
    name: &str,
    pool: &str,
    t: &crate::token::Token,
    current: Option<&crate::token::Token>,
    ctx: &Context,
) {
    let until = t.expires.map_or("until it is revoked".to_string(), |e| {
        format!("until {}", rfc3339(e.unix_timestamp()))
    });
    if let Some(c) = current.filter(|c| c.id != t.id) {
        r.check(
            Level::Warn,
            "token",
            format!(
                "{name}: token {} was replaced by {} (`mcsctl token rotate`): the server accepts it {until}, then answers 401",
                t.id, c.id
            ),
            Some(format!(
                "replace this copy wherever machines boot from it with {}, which carries {}",
                ctx.pointer_of(pool),
                c.id
            )),
        );
        return;
    }
    match t.expires {
        Some(e) if (e - r.now).whole_seconds() <= r.warn_within => r.check(
            Level::Warn,
            "token",
            format!(
                "{name}: token {} expires {}",
                t.id,
                rfc3339(e.unix_timestamp())
            ),
            Some("`mcsctl token rotate --grace 1h` before it expires".to_string()),
        ),
        _ => r.ok(
            "token",
            format!("{name}: token {} is {}", t.id, t.effective_state(r.now)),
        ),
    }
}
