//! Prometheus metrics (`serve --metrics-listen ADDR`): counters kept as serve works, gauges
//! read from the state at scrape time, written in the text exposition format (version 0.0.4)
//! on a plain-HTTP listener of their own, loopback unless told otherwise.
//!
//! Names follow the Prometheus conventions: the `mcsctl_` prefix, `_total` for counters,
//! `_seconds` and `_bytes` for units, `_timestamp_seconds` for points in time.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::sync::Mutex;

use crate::serve::conn::handshakes::Reason;
use crate::serve::conn::shard::{Padded, SHARDS};
use crate::serve::state::live::State;

/// The counters, in shards ([`crate::serve::conn::shard`]): each thread counts in its own, and a scrape adds
/// them up.
#[derive(Debug, Default)]
pub struct Metrics {
    shards: [Padded<Mutex<Counters>>; SHARDS],
}

#[derive(Debug, Default)]
struct Counters {
    /// pool -> (status, auth outcome) -> requests (by pool first: a request names a pool
    /// already counted without allocating).
    requests: BTreeMap<String, BTreeMap<(u16, &'static str), u64>>,
    /// alert or reason -> failed handshakes.
    handshakes: BTreeMap<String, u64>,
    /// pool -> recorded machine-token fetches.
    machine_fetches: BTreeMap<String, u64>,
    /// (part, result) -> reloads.
    reloads: BTreeMap<(String, &'static str), u64>,
    /// (pool, result) -> first-boot reports.
    reports: BTreeMap<(String, &'static str), u64>,
}

impl Counters {
    /// Adds `other`'s counts to these.
    fn add(&mut self, other: &Counters) {
        for (pool, by) in &other.requests {
            let mine = self.requests.entry(pool.clone()).or_default();
            for (k, n) in by {
                *mine.entry(*k).or_default() += n;
            }
        }
        for (k, n) in &other.handshakes {
            *self.handshakes.entry(k.clone()).or_default() += n;
        }
        for (k, n) in &other.machine_fetches {
            *self.machine_fetches.entry(k.clone()).or_default() += n;
        }
        for (k, n) in &other.reloads {
            *self.reloads.entry(k.clone()).or_default() += n;
        }
        for (k, n) in &other.reports {
            *self.reports.entry(k.clone()).or_default() += n;
        }
    }
}

/// The `pool` label of a request for `pool`: the pool when serve has a config for it (full or
/// pre-approval), else `other`, so that a client naming pools cannot grow the series without
/// end; empty for a request that names none.
pub fn pool_label<'p>(state: &State, pool: Option<&'p str>) -> &'p str {
    match pool {
        None => "",
        Some(p) if state.full.contains_key(p) || state.pre.contains_key(p) => p,
        Some(_) => "other",
    }
}

/// How a part's reload went (`mcsctl_reloads_total{result}`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reloaded {
    /// The part was read and is served now.
    Success,
    /// The part could not be read; its last good state is kept.
    Failure,
}

impl Metrics {
    fn with<R>(&self, f: impl FnOnce(&mut Counters) -> R) -> R {
        let shard = &self.shards[crate::serve::conn::shard::mine()];
        f(&mut shard.0.lock().unwrap_or_else(|p| p.into_inner()))
    }

    /// One request answered. `pool` is a configured pool, `other` or empty: never what a
    /// client sent (see [`pool_label`]).
    pub fn request(&self, pool: &str, status: u16, auth: &'static str) {
        self.with(|c| {
            let by = match c.requests.get_mut(pool) {
                Some(by) => by,
                None => c.requests.entry(pool.to_string()).or_default(),
            };
            *by.entry((status, auth)).or_default() += 1;
        });
    }

    /// One failed TLS handshake.
    pub fn handshake_failed(&self, r: &Reason) {
        let label = match r {
            Reason::Alert(a) => crate::serve::conn::handshakes::alert_name(*a),
            Reason::NotTls => "not_tls".into(),
            Reason::NoCommonGround => "no_common_ground".into(),
            Reason::BadServerName => "bad_server_name".into(),
            Reason::Timeout => "timeout".into(),
            Reason::Other(_) => "other".into(),
        };
        self.with(|c| *c.handshakes.entry(label).or_default() += 1);
    }

    /// One machine-token fetch recorded in the ledger.
    pub fn machine_fetch(&self, pool: &str) {
        self.with(|c| match c.machine_fetches.get_mut(pool) {
            Some(n) => *n += 1,
            None => {
                c.machine_fetches.insert(pool.to_string(), 1);
            }
        });
    }

    /// One first-boot report answered. `pool` is a [`pool_label`]; `result` one of
    /// `Received`'s few words.
    pub fn report(&self, pool: &str, result: &'static str) {
        self.with(|c| *c.reports.entry((pool.to_string(), result)).or_default() += 1);
    }

    /// One reload of `part`, and how it went.
    pub fn reload(&self, part: &str, how: Reloaded) {
        let result = match how {
            Reloaded::Success => "success",
            Reloaded::Failure => "failure",
        };
        self.with(|c| *c.reloads.entry((part.to_string(), result)).or_default() += 1);
    }

    /// Every shard's counts added up.
    fn summed(&self) -> Counters {
        let mut all = Counters::default();
        for shard in &self.shards {
            all.add(&shard.0.lock().unwrap_or_else(|p| p.into_inner()));
        }
        all
    }

    /// The exposition: the counters, and the gauges of `state` and `open` connections.
    pub fn render(&self, state: &State, open: usize) -> String {
        let mut out = String::new();
        counters(&mut out, &self.summed());
        gauges(&mut out, state, open);
        out
    }
}

/// A label value, escaped as the format asks (backslash, quote, newline).
fn esc(v: &str) -> String {
    v.replace('\\', "\\\\")
        .replace('"', "\\\"")
        .replace('\n', "\\n")
}

fn head(out: &mut String, name: &str, kind: &str, help: &str) {
    let _ = writeln!(out, "# HELP {name} {help}\n# TYPE {name} {kind}");
}

fn counters(out: &mut String, c: &Counters) {
    head(
        out,
        "mcsctl_requests_total",
        "counter",
        "Requests answered, by pool, status and auth outcome.",
    );
    let requests = c.requests.iter().flat_map(|(pool, by)| {
        by.iter()
            .map(move |((status, auth), n)| (pool, status, auth, n))
    });
    for (pool, status, auth, n) in requests {
        let _ = writeln!(
            out,
            "mcsctl_requests_total{{pool=\"{}\",status=\"{status}\",auth=\"{auth}\"}} {n}",
            esc(pool)
        );
    }
    head(
        out,
        "mcsctl_handshake_failures_total",
        "counter",
        "Failed TLS handshakes, by the client's alert or the reason.",
    );
    for (alert, n) in &c.handshakes {
        let _ = writeln!(
            out,
            "mcsctl_handshake_failures_total{{alert=\"{}\"}} {n}",
            esc(alert)
        );
    }
    head(
        out,
        "mcsctl_machine_fetches_total",
        "counter",
        "Full-config fetches of machine tokens recorded in the ledger, by pool.",
    );
    for (pool, n) in &c.machine_fetches {
        let _ = writeln!(
            out,
            "mcsctl_machine_fetches_total{{pool=\"{}\"}} {n}",
            esc(pool)
        );
    }
    head(
        out,
        "mcsctl_reports_total",
        "counter",
        "First-boot reports (render --report) answered, by pool and result.",
    );
    for ((pool, result), n) in &c.reports {
        let _ = writeln!(
            out,
            "mcsctl_reports_total{{pool=\"{}\",result=\"{result}\"}} {n}",
            esc(pool)
        );
    }
    head(
        out,
        "mcsctl_reloads_total",
        "counter",
        "Reloads of each part of the asset directory, by result.",
    );
    for ((part, result), n) in &c.reloads {
        let _ = writeln!(
            out,
            "mcsctl_reloads_total{{part=\"{}\",result=\"{result}\"}} {n}",
            esc(part)
        );
    }
}

fn gauges(out: &mut String, state: &State, open: usize) {
    head(
        out,
        "mcsctl_token_expiry_timestamp_seconds",
        "gauge",
        "When each live token stops being accepted (Unix time); tokens without expiry are left out.",
    );
    for t in &state.tokens.live {
        if let Some(e) = t.expires {
            let _ = writeln!(
                out,
                "mcsctl_token_expiry_timestamp_seconds{{token=\"{}\"}} {}",
                esc(&t.id),
                e.unix_timestamp()
            );
        }
    }
    head(
        out,
        "mcsctl_certificate_expiry_timestamp_seconds",
        "gauge",
        "When the serving certificate expires (Unix time).",
    );
    let _ = writeln!(
        out,
        "mcsctl_certificate_expiry_timestamp_seconds{{certificate=\"serving\"}} {}",
        state.tls.leaf.not_after
    );
    head(
        out,
        "mcsctl_config_bytes",
        "gauge",
        "Size of the config served, by pool, set (full or pre-approval) and Ignition spec version.",
    );
    for (set, pools) in [("full", &state.full), ("pre-approval", &state.pre)] {
        let mut names: Vec<&String> = pools.keys().collect();
        names.sort();
        for p in names {
            for spec in crate::ignition::spec::Spec::ALL {
                if let Ok(body) = pools[p].variants.get(spec) {
                    let _ = writeln!(
                        out,
                        "mcsctl_config_bytes{{pool=\"{}\",set=\"{set}\",spec=\"{spec}\"}} {}",
                        esc(p),
                        body.len()
                    );
                }
            }
        }
    }
    head(
        out,
        "mcsctl_connections_open",
        "gauge",
        "Connections open now.",
    );
    let _ = writeln!(out, "mcsctl_connections_open {open}");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_from_many_threads_add_up() {
        let m = Metrics::default();
        std::thread::scope(|s| {
            for _ in 0..SHARDS + 3 {
                s.spawn(|| {
                    for _ in 0..1000 {
                        m.request("worker", 200, "token");
                    }
                    m.request("master", 404, "none");
                    m.machine_fetch("worker");
                    m.reload("tokens", Reloaded::Success);
                });
            }
        });
        let all = m.summed();
        let n = (SHARDS + 3) as u64;
        assert_eq!(all.requests["worker"][&(200, "token")], 1000 * n);
        assert_eq!(all.requests["master"][&(404, "none")], n);
        assert_eq!(all.machine_fetches["worker"], n);
        assert_eq!(all.reloads[&("tokens".to_string(), "success")], n);
    }
}
