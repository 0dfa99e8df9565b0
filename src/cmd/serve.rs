//! `mcsctl serve`.

use anyhow::Result;

use crate::assets::AssetDir;
use crate::cli::values;
use crate::serve::{Banner, Options};
use clap::Args;
use std::net::SocketAddr;

use crate::cidr::Cidr;
use crate::cli::DirArg;
use crate::duration::Duration;
use crate::model::config::AuthMode;
use crate::ui::Ui;

/// Arguments of `serve`.
#[derive(Debug, Args)]
#[command(after_long_help = "\
Requests are answered as the MCS answers them: GET or HEAD /config/<pool> (the pool is the last \
path segment; an unclean path is redirected with 301) returns rendered/<pool>.ign converted to \
the Ignition spec of the Accept header (application/vnd.coreos.ignition+json;version=X): no or \
an unparsable header gets spec 2.2.0, 2.2 to 2.x gets 2.2.0, 3.0.0 to 3.5.0 get their own \
version, anything newer gets 3.5.0; 2.0 and 2.1 get 400, a config that cannot be written in the \
asked spec 406. GET /healthz answers 200. Other methods get 405.")]
pub struct ServeArgs {
    /// How the access log (stdout) and events (stderr) are written: readable lines (text), JSON
    /// lines (json), or auto: text on a terminal, JSON otherwise, for each stream.
    #[arg(long, value_enum, value_name = "FORMAT", default_value_t = crate::json_line::LogFormat::Auto)]
    pub log_format: crate::json_line::LogFormat,

    /// Answer Prometheus scrapes at http://ADDR/metrics (plain HTTP; 127.0.0.1:9623 when
    /// given without ADDR): requests by pool, status and auth outcome, failed handshakes,
    /// machine fetches, token and certificate expiry, reloads, config sizes, connections.
    #[arg(
        long,
        value_name = "ADDR",
        num_args = 0..=1,
        default_missing_value = "127.0.0.1:9623",
        value_parser = values::listen
    )]
    pub metrics_listen: Option<SocketAddr>,

    /// Where this replica records each fetch of a machine token (default
    /// <dir>/auth/ledger/<hostname>.jsonl), locked while serve writes it; every ledger under
    /// <dir>/auth/ledger counts, read on at each reload poll.
    #[arg(long, value_name = "FILE")]
    pub ledger: Option<std::path::PathBuf>,

    /// The store replicas share, instead of ledger files.
    #[command(flatten)]
    pub store: crate::cli::StoreArgs,

    /// With --store: how long pool tokens keep being served from the last state the store
    /// published while it does not answer (machine tokens wait for it at once: 503); then
    /// they get 503 too, until it answers.
    #[arg(long, default_value = "5m", value_name = "DUR", value_parser = values::duration, requires = "store")]
    pub store_grace: Duration,

    /// With --store: the lease this replica holds its fetches under, renewed every third of it.
    /// A replica that stops renewing it (killed, paused, cut off from the members) is taken for
    /// gone once it ends, by the store's clock: its fetches that had not begun sending their
    /// end are given back. Shorter frees a dead replica's machines sooner; at least 2s.
    #[arg(long, default_value = "10s", value_name = "DUR", value_parser = values::lease, requires = "store")]
    pub store_lease: Duration,

    /// How many fetches of a machine token with limited uses may be cut off before their end
    /// (a network that drops, a client that stops reading): each gives the use back and the
    /// machine may fetch again; past this many, the token is refused (401) until `mcsctl
    /// machine add NAME --force` gives it a new one.
    #[arg(long, default_value_t = crate::ledger::DEFAULT_MAX_PARTIAL, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub max_partial_fetches: u32,

    /// HTTPS listen address.
    #[arg(long, default_value = "0.0.0.0:22623", value_name = "ADDR", value_parser = values::listen)]
    pub listen: SocketAddr,

    /// Also listen for plain HTTP (the MCS historically used port 22624). Off by default.
    #[arg(long, value_name = "ADDR", value_parser = values::listen)]
    pub insecure_listen: Option<SocketAddr>,

    /// Auth mode (default: serveAuth of mcsctl.json, else token; never chosen by how many tokens are live).
    #[arg(long, value_enum, value_name = "MODE")]
    pub auth: Option<AuthMode>,

    /// Time allowed to send a request's headers; also the idle keep-alive timeout.
    #[arg(long, default_value = "10s", value_name = "DUR", value_parser = values::duration)]
    pub header_timeout: Duration,

    /// Time allowed for a TLS handshake (and a PROXY protocol header).
    #[arg(long, default_value = "10s", value_name = "DUR", value_parser = values::duration)]
    pub handshake_timeout: Duration,

    /// How long a response may stay unsent because the client does not read; then the connection is cut.
    #[arg(long, default_value = "30s", value_name = "DUR", value_parser = values::duration)]
    pub write_timeout: Duration,

    /// Average bytes per second a response must be read at once it has taken longer than
    /// --write-timeout; a slower reader is cut off (a `slow-client` event).
    #[arg(long, default_value = "8KiB", value_name = "SIZE", value_parser = values::size)]
    pub min_send_rate: u64,

    /// How long one connection may stay open; then it is closed after the request in flight
    /// (which gets --write-timeout more to finish).
    #[arg(long, default_value = "10m", value_name = "DUR", value_parser = values::duration)]
    pub connection_deadline: Duration,

    /// Load balancer (address or CIDR) whose connections start with a PROXY protocol v1/v2 header; repeatable (default: proxyProtocolFrom of mcsctl.json).
    #[arg(long = "proxy-protocol-from", value_name = "CIDR", value_parser = values::cidr)]
    pub proxy_protocol_from: Vec<Cidr>,

    /// Most connections open at once; past it, an idle connection of the client holding the
    /// most is closed to let a newcomer in (none idle: the newcomer is closed).
    #[arg(long, default_value_t = 4096, value_name = "N")]
    pub max_connections: usize,

    /// Most connections one client (address; IPv6 /64; behind a PROXY-protocol balancer, the
    /// client it names) may hold (default: an eighth of --max-connections).
    #[arg(long, value_name = "N")]
    pub max_connections_per_client: Option<usize>,

    /// Largest request head in bytes; larger requests get 431.
    #[arg(long, default_value_t = 16384, value_name = "BYTES")]
    pub max_header_bytes: usize,

    /// How often to look for changed certificates, tokens and rendered configs (SIGHUP reloads at once).
    #[arg(long, default_value = "2s", value_name = "DUR", value_parser = values::duration)]
    pub reload_interval: Duration,

    /// How long SIGTERM waits for in-flight requests before exiting.
    #[arg(long, default_value = "30s", value_name = "DUR", value_parser = values::duration)]
    pub drain_timeout: Duration,

    /// Unknown tokens per client (address; IPv6 /64) per minute before it gets 429; valid tokens are always served.
    #[arg(long, default_value_t = 20, value_name = "N")]
    pub max_failures: u32,

    /// How long a client that exceeded --max-failures gets 429.
    #[arg(long, default_value = "5m", value_name = "DUR", value_parser = values::duration)]
    pub block_for: Duration,

    /// Do not serve: send SIGHUP to the serve(s) of --dir, found by the run/serve-PID.pid
    /// files each writes there, and exit (1 when none is running).
    #[arg(long)]
    pub reload: bool,

    /// `--dir` after the command.
    #[command(flatten)]
    pub dir: DirArg,
}

/// Runs `serve`.
pub fn run(ui: &Ui, dir: &AssetDir, a: &ServeArgs, clock: &crate::clock::Clock) -> Result<u8> {
    if a.reload {
        return reload(ui, dir);
    }
    let opts = Options {
        banner: if ui.quiet {
            Banner::Quiet
        } else {
            Banner::Full
        },
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

/// `serve --reload`: SIGHUP to each serve of `dir` its pid files name, and to nothing else.
fn reload(ui: &Ui, dir: &AssetDir) -> Result<u8> {
    use crate::serve::state::pidfile::{Found, RUN, reload_all};
    let mut reloaded = 0;
    for f in reload_all(dir)? {
        match f {
            Found::Reloaded { pid, listen } => {
                reloaded += 1;
                ui.report(format!("reloaded serve {pid} (listening on {listen})\n"))?;
            }
            Found::Gone { pid } => ui.warn(format!(
                "removed {RUN}/serve-{pid}.pid: serve {pid} is gone (killed without its shutdown)"
            )),
            Found::Reused { pid } => ui.warn(format!(
                "removed {RUN}/serve-{pid}.pid: PID {pid} is another process now; not signalled"
            )),
            Found::Unreadable { file, why } => ui.warn(format!("{file}: {why}; left alone")),
        }
    }
    if reloaded == 0 {
        anyhow::bail!(
            "no serve of {} is running: no {} names a live serve (a serve that cannot write there, in a pod say, reloads on SIGHUP and every --reload-interval)",
            dir.root().display(),
            dir.path(&format!("{RUN}/serve-*.pid")).display()
        );
    }
    Ok(crate::exit::OK)
}
