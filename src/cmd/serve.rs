//! `mcsctl serve`.

use std::net::SocketAddr;

use anyhow::Result;

use super::duration_flag;
use crate::assets::AssetDir;
use crate::cli::{ServeArgs, ServeAuth};
use crate::exit::usage;
use crate::serve::proxy::Cidr;
use crate::serve::{AuthMode, Options};

fn addr(flag: &str, s: &str) -> Result<SocketAddr> {
    s.parse().map_err(|_| {
        usage(format!(
            "--{flag} {s:?}: expected IP:PORT, e.g. 0.0.0.0:22623"
        ))
    })
}

fn std_duration(flag: &str, s: &str) -> Result<std::time::Duration> {
    let d = duration_flag(flag, s)?;
    Ok(std::time::Duration::from_secs(
        d.whole_seconds().max(0) as u64
    ))
}

/// The balancers: --proxy-protocol-from, else proxyProtocolFrom of mcsctl.json.
fn proxies(dir: &AssetDir, flags: &[String]) -> Result<Vec<Cidr>> {
    if !flags.is_empty() {
        return flags
            .iter()
            .map(|c| Cidr::parse(c).map_err(|e| usage(format!("--proxy-protocol-from: {e}"))))
            .collect();
    }
    let Ok(cfg) = dir.config() else {
        return Ok(Vec::new());
    };
    cfg.proxy_protocol_from
        .iter()
        .map(|c| {
            Cidr::parse(c).map_err(|e| {
                anyhow::anyhow!(
                    "{}: proxyProtocolFrom: {e}",
                    dir.path(crate::assets::layout::CONFIG).display()
                )
            })
        })
        .collect()
}

/// Runs `serve`.
pub fn run(dir: &AssetDir, a: &ServeArgs) -> Result<u8> {
    let opts = Options {
        dir: dir.clone(),
        listen: addr("listen", &a.listen)?,
        insecure_listen: a
            .insecure_listen
            .as_deref()
            .map(|s| addr("insecure-listen", s))
            .transpose()?,
        auth: a.auth.map(|m| match m {
            ServeAuth::Token => AuthMode::Token,
            ServeAuth::Split => AuthMode::Split,
            ServeAuth::None => AuthMode::None,
        }),
        header_timeout: std_duration("header-timeout", &a.header_timeout)?,
        handshake_timeout: std_duration("handshake-timeout", &a.handshake_timeout)?,
        max_connections: a.max_connections.max(1),
        reload_interval: std_duration("reload-interval", &a.reload_interval)?
            .max(std::time::Duration::from_millis(200)),
        max_header_bytes: a.max_header_bytes,
        drain_timeout: std_duration("drain-timeout", &a.drain_timeout)?,
        max_failures: a.max_failures,
        block_for: std_duration("block-for", &a.block_for)?,
        write_timeout: std_duration("write-timeout", &a.write_timeout)?,
        connection_deadline: std_duration("connection-deadline", &a.connection_deadline)?,
        proxy_from: proxies(dir, &a.proxy_protocol_from)?,
    };
    crate::serve::run(opts)
}
