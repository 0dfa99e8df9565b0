//! The start-up banner on stderr: addresses, fingerprints, pools, the auth mode and where it
//! came from, limits and warnings; its last line is `ready`.

use tokio::net::TcpListener;

use crate::model::config::AuthMode;
use crate::serve::Options;
use crate::serve::conn::proxy::Cidr;
use crate::serve::state::live::State;
use crate::serve::state::watched::Outcome;

/// How much of the banner goes to stderr.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Banner {
    /// Everything: addresses, fingerprints, pools, auth, limits, warnings, `ready`.
    Full,
    /// `-q`: the warnings and `ready` (the line scripts wait for).
    Quiet,
}

impl Banner {
    /// The part of the whole banner `full` this setting prints.
    pub(in crate::serve) fn shown(self, full: String) -> String {
        match self {
            Banner::Full => full,
            Banner::Quiet => full
                .lines()
                .filter(|l| l.starts_with("WARNING: ") || *l == "ready")
                .map(|l| format!("{l}\n"))
                .collect(),
        }
    }
}

/// The whole banner.
pub(in crate::serve) fn banner(
    opts: &Options,
    state: &State,
    outcome: &Outcome,
    tls: &TcpListener,
    plain: Option<&TcpListener>,
    metrics: Option<&TcpListener>,
) -> String {
    let addr = |l: &TcpListener| l.local_addr().map(|a| a.to_string()).unwrap_or_default();
    let mut b = format!("mcsctl serve {}\n", env!("CARGO_PKG_VERSION"));
    b.push_str(&format!("  listening: https://{}", addr(tls)));
    if let Some(p) = plain {
        b.push_str(&format!(" and http://{} (plain HTTP)", addr(p)));
    }
    b.push('\n');
    if let Some(m) = metrics {
        b.push_str(&format!("  metrics: http://{}/metrics\n", addr(m)));
    }
    b.push_str(&format!(
        "  asset directory: {}\n",
        opts.dir.root().display()
    ));
    b.push_str(&format!(
        "  serving certificate sha256: {} (expires {})\n",
        state.tls.cert_fingerprint,
        crate::pki::cert::rfc3339(state.tls.leaf.not_after)
    ));
    b.push_str(&format!(
        "  CA sha256: {}\n",
        state
            .tls
            .ca_fingerprint
            .as_deref()
            .unwrap_or("(tls/mcs-ca.crt not present)")
    ));
    pool_lines(&mut b, state);
    let live = state.tokens.live_at(opts.clock.now());
    b.push_str(&format!(
        "  auth: {} ({live} live token(s)){}\n",
        state.auth.name(),
        if opts.auth.is_some() {
            " from --auth"
        } else {
            ""
        }
    ));
    if let Some(o) = &opts.store {
        b.push_str(&format!("  store: {} ({})\n", o.url, o.transport()));
    }
    if !opts.proxy_from.is_empty() {
        let list: Vec<String> = opts.proxy_from.iter().map(Cidr::to_string).collect();
        b.push_str(&format!(
            "  PROXY protocol from: {} (their connections must start with a header)\n",
            list.join(", ")
        ));
    }
    b.push_str(&format!(
        "  limits: write timeout {}s, min send rate {}/s, connection deadline {}s, {} connections ({} per client)\n",
        opts.write_timeout.as_secs(),
        crate::size::human(opts.min_send_rate),
        opts.connection_deadline.as_secs(),
        opts.max_connections,
        opts.max_connections_per_client
    ));
    warnings(&mut b, opts, state, outcome, &addr(tls), plain.is_some());
    b.push_str("ready\n");
    b
}

/// What an admin should act on: no auth, no live token, a certificate near its end, parts not
/// served, a plain listener.
fn warnings(
    b: &mut String,
    opts: &Options,
    state: &State,
    outcome: &Outcome,
    addr: &str,
    plain: bool,
) {
    if state.auth == AuthMode::None {
        b.push_str(&format!(
            "WARNING: auth none: anyone who reaches {} can read every machine's full configuration, secrets included.\n",
            addr
        ));
    }
    if state.auth != AuthMode::None && state.tokens.live_at(opts.clock.now()) == 0 {
        b.push_str(&format!(
            "WARNING: auth {} but no live token in auth/tokens.json: every request for a full config gets 401 until `mcsctl token create` or `mcsctl token rotate`.\n",
            state.auth.name()
        ));
    }
    let left = state.tls.leaf.not_after - opts.clock.now().unix_timestamp();
    if left < 30 * 86_400 {
        b.push_str(&format!(
            "WARNING: the serving certificate expires in {} ({}): machines booting after that fail; `mcsctl cert renew` (picked up without a restart).\n",
            crate::duration::residual(left),
            crate::pki::cert::rfc3339(state.tls.leaf.not_after)
        ));
    }
    for (part, why) in &outcome.failed {
        b.push_str(&format!("WARNING: {part} not served: {why}\n"));
    }
    if plain {
        b.push_str("WARNING: the plain HTTP listener sends configs and tokens in clear text.\n");
    }
}

/// The pools served, and with split auth those with a pre-approval config.
fn pool_lines(b: &mut String, state: &State) {
    let pools = state.pools();
    let mut pre: Vec<&String> = state.pre.keys().collect();
    pre.sort();
    b.push_str(&format!(
        "  pools: {}\n",
        if pools.is_empty() {
            "none (no rendered/<pool>.ign yet)".into()
        } else {
            pools.join(", ")
        }
    ));
    if state.auth == AuthMode::Split {
        b.push_str(&format!(
            "  pre-approval pools: {}\n",
            if pre.is_empty() {
                "none".into()
            } else {
                pre.iter()
                    .map(|s| s.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            }
        ));
    }
}
