//! The HEAD doctor sends first with a pointer's token: mcsctl serve answers it as the GET
//! (status, reason, length) without claiming anything, and says how many whole fetches a
//! token of limited uses has left. Such a token (a machine's) is not spent by a check.

use super::exchange::{answer_steps, connection_steps, report_exchange, request_detail};
use super::{Fetch, KnownToken, Options, Report};
use crate::http::{self, Exchange, HttpUrl, Method};

/// What a HEAD with the pointer's token said. `None`: its rows are reported and nothing more
/// is done (it failed, or the GET would spend a use the machine needs). `Some(warning)`: go
/// on with the GET, first saying what it spends, if anything.
pub(super) fn checked(
    r: &mut Report,
    opts: &Options,
    f: &Fetch,
    url: &HttpUrl,
    head: &Exchange,
    step: &dyn Fn(&str) -> String,
) -> Option<Option<String>> {
    let Some((status, headers)) = &head.head else {
        // No answer: the steps as far as they went are the report.
        report_exchange(r, opts, f, url, head, step, Method::Head);
        return None;
    };
    let code = status.as_u16();
    if code == 405 || code == 501 {
        // A server without HEAD is not mcsctl serve: it holds no token of limited uses.
        return Some(None);
    }
    let left = headers
        .get(http::FETCHES_LEFT)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u32>().ok());
    let known = opts
        .known
        .iter()
        .find(|k| f.token_id.as_deref() == Some(k.id.as_str()));
    let limited = Limited { left, known };
    if code == 200 && (left.is_none() && known.is_none()) {
        return Some(None);
    }
    if code == 200 && opts.fetch {
        return Some(Some(limited.warning(f, url)));
    }
    connection_steps(r, opts, f, url, head, step)?;
    if code != 200 {
        answer_steps(r, opts, f, url, head, step, Method::Head);
        return None;
    }
    r.ok(step("request"), request_detail(url, opts, f, Method::Head));
    let header = |n: &str| {
        headers
            .get(n)
            .map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned())
    };
    r.ok(
        step("status"),
        format!(
            "{code} {}, {}, {} bytes: the answer a GET would get, nothing spent",
            status.canonical_reason().unwrap_or_default(),
            header("content-type").unwrap_or_else(|| "no Content-Type".into()),
            header("content-length").unwrap_or_else(|| "?".into()),
        ),
    );
    r.skip(
        step("body"),
        format!(
            "not fetched: token {} is {}; the machine needs it (a GET would spend it, and the machine would then get 401)",
            f.token_id.as_deref().unwrap_or_default(),
            limited.describe()
        ),
        format!(
            "`mcsctl doctor --fetch {}` fetches the config and spends the fetch",
            opts.pointer.display()
        ),
    );
    None
}

/// What is known of a token of limited uses: from the server, from the asset directory.
struct Limited<'a> {
    left: Option<u32>,
    known: Option<&'a KnownToken>,
}

impl Limited<'_> {
    /// "machine w0's token, allowed 1 whole fetch(es), 1 left".
    fn describe(&self) -> String {
        let whose = self.known.map_or_else(
            || "a token of limited uses (a machine's)".to_string(),
            |k| {
                format!(
                    "machine {}'s token, allowed {} whole fetch(es)",
                    k.machine, k.uses
                )
            },
        );
        let left = self
            .left
            .map_or_else(String::new, |n| format!(", {n} left"));
        format!("{whose}{left}")
    }

    /// What `--fetch` says before it spends.
    fn warning(&self, f: &Fetch, url: &HttpUrl) -> String {
        let again = self.known.map_or_else(
            || "`mcsctl machine add NAME --pool POOL --force` gives it a new token".to_string(),
            |k| {
                format!(
                    "`mcsctl machine add {} --pool {} --force` gives it a new token",
                    k.machine, f.pool
                )
            },
        );
        format!(
            "doctor --fetch: fetching {} with token {} ({}) spends one of its fetches; if it is the last, the machine gets 401 when it boots ({again})",
            http::url::redact(&url.path_and_query()),
            f.token_id.as_deref().unwrap_or_default(),
            self.describe()
        )
    }
}
