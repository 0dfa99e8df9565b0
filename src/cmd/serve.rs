//! `mcsctl serve`.

use anyhow::Result;

use crate::assets::AssetDir;
use crate::cli::ServeArgs;
use crate::serve::Options;

/// Runs `serve`.
pub fn run(dir: &AssetDir, a: &ServeArgs, clock: &crate::clock::Clock) -> Result<u8> {
    let opts = Options {
        dir: dir.clone(),
        metrics_listen: a.metrics_listen,
        ledger: a
            .ledger
            .clone()
            .unwrap_or_else(|| crate::ledger::default_path(dir, &crate::ledger::hostname())),
        max_partial_fetches: a.max_partial_fetches,
        store: a.store.options()?,
        store_grace: a.store_grace.to_std(),
        store_lease: a.store_lease.to_std(),
        clock: clock.clone(),
        log_format: a.log_format,
        listen: a.listen,
        insecure_listen: a.insecure_listen,
        auth: a.auth,
        header_timeout: a.header_timeout.to_std(),
        handshake_timeout: a.handshake_timeout.to_std(),
        max_connections: a.max_connections.max(1),
        max_connections_per_client: a
            .max_connections_per_client
            .unwrap_or(a.max_connections / 8)
            .clamp(1, a.max_connections.max(1)),
        reload_interval: a
            .reload_interval
            .to_std()
            .max(std::time::Duration::from_millis(200)),
        max_header_bytes: a.max_header_bytes,
        drain_timeout: a.drain_timeout.to_std(),
        max_failures: a.max_failures,
        block_for: a.block_for.to_std(),
        write_timeout: a.write_timeout.to_std(),
        min_send_rate: a.min_send_rate,
        connection_deadline: a.connection_deadline.to_std(),
        proxy_from: a.proxy_protocol_from.clone(),
    };
    crate::serve::run(opts)
}
