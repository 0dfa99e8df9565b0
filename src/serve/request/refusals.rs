//! The answers to a token serve knows and refuses, and to a readiness probe it cannot pass:
//! each says why, in the body and, for a 401, in `WWW-Authenticate`'s `error_description`
//! (RFC 6750), so that a HEAD (no body) carries the reason too.

use hyper::StatusCode;
use hyper::header::WWW_AUTHENTICATE;

use crate::serve::request::message::{MachineFetch, Response};

impl Response {
    /// 401 for a machine token whose fetches are spent, naming the first whole one.
    pub fn spent(f: &MachineFetch, first: &crate::ledger::Record) -> Response {
        let n = f.uses.unwrap_or(1);
        refusal(
            StatusCode::UNAUTHORIZED,
            format!(
                "token {} of machine {} was used at {} from {}: it fetches the config {n} time(s). If that was not the machine, the token may be stolen: `mcsctl machine add {} --pool {} --force` gives the machine a new one",
                f.token, f.machine, first.time, first.client, f.machine, first.pool
            ),
        )
    }

    /// 401 for a machine token whose last use is held by a fetch of unknown outcome.
    pub fn unknown(f: &MachineFetch, which: &crate::ledger::Record) -> Response {
        refusal(
            StatusCode::UNAUTHORIZED,
            format!(
                "token {} of machine {}: its fetch at {} from {} may have gone out whole (the replica sending it was lost after it began sending the config's end, and no replica can tell), so it counts as spent. If the machine did not boot, `mcsctl machine add {} --pool {} --force` gives it a new token",
                f.token, f.machine, which.time, which.client, f.machine, which.pool
            ),
        )
    }

    /// 401 for a machine token with too many fetches cut off before their end.
    pub fn cut_off(f: &MachineFetch, cuts: u32, last: &crate::ledger::Record) -> Response {
        refusal(
            StatusCode::UNAUTHORIZED,
            format!(
                "token {} of machine {}: {cuts} fetches were cut off before their end (the last at {} from {}), and no more are allowed (serve --max-partial-fetches). If that was the machine, check the network between it and this server; `mcsctl machine add {} --pool {} --force` gives it a new token",
                f.token, f.machine, last.time, last.client, f.machine, last.pool
            ),
        )
    }

    /// 503 (which Ignition retries) for a machine token whose last use is held by a fetch
    /// being sent now.
    pub fn busy(f: &MachineFetch, other: &crate::ledger::Record) -> Response {
        let mut r = refusal(
            StatusCode::SERVICE_UNAVAILABLE,
            format!(
                "another fetch with token {} of machine {} (at {} from {}) is being sent: a fetch spends the token only once it went out whole; try again when it ends",
                f.token, f.machine, other.time, other.client
            ),
        );
        r.headers.push((hyper::header::RETRY_AFTER, "5".into()));
        r
    }

    /// 503 for `/healthz`: serve holds machine tokens it cannot serve.
    pub fn not_ready(why: &str) -> Response {
        Response::text(
            StatusCode::SERVICE_UNAVAILABLE,
            format!("not ready: machine tokens are live but cannot be served: {why}"),
        )
    }

    /// 503: the store has been silent past its grace; no token is served until it answers.
    pub fn store_stale(why: &str) -> Response {
        Response::text(StatusCode::SERVICE_UNAVAILABLE, why)
    }

    /// 503: the fetch of a machine token cannot be recorded, so the config is not sent.
    pub fn unrecorded() -> Response {
        Response::text(
            StatusCode::SERVICE_UNAVAILABLE,
            "the fetch cannot be recorded (in the ledger, or the store serve shares), so no machine token is served now; see the server's log",
        )
    }
}

/// What serve logs when a machine token's fetch `r` was cut off before its end: its `cuts`
/// so far against `max` (`--max-partial-fetches`), and whether the token (with `limited`
/// uses) is refused from now on. The file ledger and the store say it alike.
pub(in crate::serve) fn cut_said(
    r: &crate::ledger::Record,
    cuts: u32,
    max: u32,
    limited: bool,
) -> String {
    let then = if limited && cuts >= max {
        format!(
            "not spent, but that was the last cut fetch allowed (--max-partial-fetches): its next fetch is refused (401) until `mcsctl machine add {} --pool {} --force`",
            r.machine, r.pool
        )
    } else {
        "not spent; it may fetch again".to_string()
    };
    format!(
        "machine {}'s fetch with token {} from {} was cut off before its end ({cuts} of {max} cut fetches allowed): {then}",
        r.machine, r.token, r.client
    )
}

/// A refusal whose reason a HEAD (no body) carries too: in `WWW-Authenticate`'s
/// `error_description` (RFC 6750) for a 401.
pub(in crate::serve) fn refusal(status: StatusCode, msg: String) -> Response {
    let mut r = Response::text(status, msg.clone());
    if status == StatusCode::UNAUTHORIZED {
        r.headers.push((
            WWW_AUTHENTICATE,
            format!(
                "Bearer error=\"invalid_token\", error_description=\"{}\"",
                quoted(&msg)
            ),
        ));
    }
    r
}

/// `s` as the content of an RFC 6750 quoted string: printable ASCII without `"` or `\`.
fn quoted(s: &str) -> String {
    s.chars()
        .map(|c| match c {
            '"' => '\'',
            '\\' => '/',
            c if (' '..='~').contains(&c) => c,
            _ => '?',
        })
        .collect()
}
