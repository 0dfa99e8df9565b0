//! One request's access-log line: the facts read of the request ([`Facts`]), the line
//! ([`Line`]), and a connection's memo of the part of its lines that repeats ([`LineMemo`]).

use std::net::SocketAddr;
use std::sync::Mutex;
use std::time::Instant;

use hyper::body::Incoming;

use crate::json_line::Object;
use crate::serve::conn::peer::Peer;
use crate::serve::log::Stamp;
use crate::serve::request::auth::Auth;
use crate::serve::request::message::{self, Request};

/// What the handler and the access log read of a request, gathered in one pass over its
/// headers.
pub(in crate::serve) struct Facts<'a> {
    pub(in crate::serve) req: Request<'a>,
    peer: Peer,
    /// The `User-Agent` header, for the log.
    ua: Option<&'a str>,
    /// Whether it is a HEAD (whose body is not sent).
    head: bool,
    /// The size of the request's head, counted without allocating: the request line's
    /// target plus every header line.
    pub(in crate::serve) head_size: usize,
}

impl<'a> Facts<'a> {
    pub(in crate::serve) fn of(req: &'a hyper::Request<Incoming>, peer: Peer) -> Facts<'a> {
        use hyper::header::{ACCEPT, AUTHORIZATION, USER_AGENT};
        let mut head_size = req.uri().path_and_query().map_or(0, |p| p.as_str().len());
        // The first value of each, as `HeaderMap::get` gives it.
        let (mut authorization, mut accept, mut ua) = (None, None, None);
        for (k, v) in req.headers() {
            head_size += k.as_str().len() + v.len() + 4;
            let slot = if k == AUTHORIZATION {
                &mut authorization
            } else if k == ACCEPT {
                &mut accept
            } else if k == USER_AGENT {
                &mut ua
            } else {
                continue;
            };
            if slot.is_none() {
                *slot = Some(text(v));
            }
        }
        // Read as `str` for the log only.
        let ua = ua.flatten().and_then(|u| std::str::from_utf8(u).ok());
        Facts {
            req: Request {
                method: req.method().as_str(),
                path: req.uri().path(),
                query: req.uri().query(),
                authorization: authorization.flatten(),
                accept: accept.flatten(),
                remote: peer.client.ip(),
            },
            peer,
            ua,
            head: req.method() == hyper::Method::HEAD,
            head_size,
        }
    }

    /// A request whose body was read, a first-boot report: the facts its line needs.
    pub(in crate::serve) fn posted(path: &'a str, ua: Option<&'a str>, peer: Peer) -> Facts<'a> {
        Facts {
            req: Request {
                method: "POST",
                path,
                query: None,
                authorization: None,
                accept: None,
                remote: peer.client.ip(),
            },
            peer,
            ua,
            head: false,
            head_size: 0,
        }
    }

    /// The access-log line of the answer `r`.
    pub(in crate::serve) fn line<'s>(
        &'s self,
        r: &'s message::Response,
        start: Instant,
        time: &'s Stamp,
    ) -> Line<'s> {
        Line {
            method: cut(self.req.method, 16),
            path: cut(self.req.path, 256),
            peer: self.peer,
            r,
            bytes: if self.head { 0 } else { r.body.len() },
            micros: micros(start.elapsed()),
            ua: self.ua.map(|u| cut(u, 256)),
            time,
        }
    }
}

/// A header value that `HeaderValue::to_str` reads as text (visible ASCII and tabs), else
/// `None`; checked a word at a time, without reading it as `str` (72 and 60 bytes a request,
/// for a machine's `Authorization` and `Accept`). A value hyper parsed holds no control
/// character but the tab (httparse refuses the request), so being ASCII is all there is left
/// to check.
fn text(v: &hyper::header::HeaderValue) -> Option<&[u8]> {
    let b = v.as_bytes();
    debug_assert!(!b.iter().any(|&c| (c < 0x20 && c != b'\t') || c == 0x7f));
    b.is_ascii().then_some(b)
}

/// `d` in whole microseconds, rounded half up; without dividing a `u128` (this runs per
/// request).
fn micros(d: std::time::Duration) -> u64 {
    d.as_secs()
        .saturating_mul(1_000_000)
        .saturating_add(u64::from((d.subsec_nanos() + 500) / 1000))
}

/// At most `n` characters of a client-controlled value.
fn cut(s: &str, n: usize) -> &str {
    if s.len() <= n {
        return s;
    }
    s.char_indices().nth(n).map_or(s, |(i, _)| &s[..i])
}

/// The facts of one access-log line, client-controlled values already cut.
pub(in crate::serve) struct Line<'a> {
    method: &'a str,
    path: &'a str,
    peer: Peer,
    r: &'a message::Response,
    bytes: usize,
    /// Since the request came, in microseconds (rounded).
    micros: u64,
    ua: Option<&'a str>,
    time: &'a Stamp,
}

/// The longest a connection's remembered line part (with what it is remembered by) may be: a
/// machine's is about 250 bytes; one past this is written afresh each time, so what a client
/// makes serve keep per connection is bounded.
const MEMO_MAX: usize = 1024;

/// The fields of the last line a connection wrote that repeat on a keep-alive connection (who
/// the request presented itself as, method, path, pool, client, user agent, balancer, and the
/// answer's status and size), as they were written, and what they were written from. A line
/// whose fields are those is written from the memo with only its own duration and time; any
/// other is written afresh and remembered. The bytes are the same either way (tested).
///
/// Invariant relied on: a `LineMemo` belongs to one connection, whose requests hyper answers
/// one at a time, so its lock is never contended.
#[derive(Default)]
pub(in crate::serve) struct LineMemo(Mutex<Option<Repeating>>);

struct Repeating {
    auth: Auth,
    method: Box<str>,
    path: Box<str>,
    pool: Option<Box<str>>,
    ua: Option<Box<str>>,
    client: SocketAddr,
    status: hyper::StatusCode,
    bytes: usize,
    /// The line around its two values that change: from `{` through `"durationMs":`, then
    /// (at `cuts[0]`) from the comma after the duration through `"time":"`, then (at
    /// `cuts[1]`) from the time's closing quote through `}`.
    text: Vec<u8>,
    cuts: [usize; 2],
}

impl Repeating {
    fn holds(&self, l: &Line<'_>) -> bool {
        self.bytes == l.bytes
            && self.status == l.r.status
            && self.auth == l.r.auth
            && *self.method == *l.method
            && *self.path == *l.path
            && self.pool.as_deref() == l.r.pool.as_deref()
            && self.ua.as_deref() == l.ua
            && self.client == l.peer.client
    }

    fn size(&self) -> usize {
        self.text.len()
            + self.method.len()
            + self.path.len()
            + self.pool.as_ref().map_or(0, |p| p.len())
            + self.ua.as_ref().map_or(0, |u| u.len())
    }
}

impl std::fmt::Debug for LineMemo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("LineMemo")
    }
}

impl Line<'_> {
    /// One JSON line per request, fields in alphabetical order. The query is never logged (it
    /// may carry `?token=`), nor any header but the user agent; long client-controlled values
    /// are cut. A machine token's fetch gains its ledger `record` (as written to the ledger,
    /// with the place of its `"whole"` flag) as the last field, `ledger`; the place of that
    /// flag in the line (counted from the start of `out`) is returned. Written at the end of
    /// `out`.
    pub(in crate::serve) fn write(
        &self,
        out: &mut Vec<u8>,
        record: Option<(&[u8], usize)>,
    ) -> usize {
        let mut o = Object::new(out);
        self.first(&mut o);
        self.measured(&mut o);
        self.middle(&mut o);
        self.answered(&mut o);
        self.last(&mut o);
        let mut at = 0;
        if let Some((record, flag)) = record {
            let record = record.strip_suffix(b"\n").unwrap_or(record);
            o.raw("ledger", record);
            at = o.offset() - record.len() + flag;
        }
        o.end();
        at
    }

    /// The line (without a ledger record), from `memo` when its repeating fields are the ones
    /// remembered: three copies around the duration and the time. Else written and remembered.
    pub(in crate::serve) fn write_remembering(&self, out: &mut Vec<u8>, memo: &LineMemo) {
        let mut m = memo.0.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(m) = m.as_ref().filter(|m| m.holds(self)) {
            let (a, rest) = m.text.split_at(m.cuts[0]);
            let (b, c) = rest.split_at(m.cuts[1] - m.cuts[0]);
            // 24: the longest duration; the time is at most 32.
            out.reserve(m.text.len() + 24 + 32);
            out.extend_from_slice(a);
            crate::json_line::millis(out, self.micros);
            out.extend_from_slice(b);
            out.extend_from_slice(self.time.as_bytes());
            out.extend_from_slice(c);
            return;
        }
        let from = out.len();
        let mut o = Object::new(out);
        self.first(&mut o);
        o.u64("bytes", self.bytes as u64);
        let a = o.offset();
        o.millis("durationMs", self.micros);
        let b = o.offset();
        self.middle(&mut o);
        self.answered(&mut o);
        // The time is the last thing `answered` wrote, then its closing quote.
        let c = o.offset() - 1;
        self.last(&mut o);
        o.end();
        let (head, key) = (&out[from..a], b",\"durationMs\":");
        let (mid, tail) = (&out[b..c - self.time.as_bytes().len()], &out[c..]);
        let mut text = Vec::with_capacity(head.len() + key.len() + mid.len() + tail.len());
        text.extend_from_slice(head);
        text.extend_from_slice(key);
        let first = text.len();
        text.extend_from_slice(mid);
        let cuts = [first, text.len()];
        text.extend_from_slice(tail);
        let kept = Repeating {
            auth: self.r.auth.clone(),
            method: self.method.into(),
            path: self.path.into(),
            pool: self.r.pool.as_deref().map(Into::into),
            ua: self.ua.map(Into::into),
            client: self.peer.client,
            status: self.r.status,
            bytes: self.bytes,
            text,
            cuts,
        };
        *m = (kept.size() <= MEMO_MAX).then_some(kept);
    }

    /// `auth`: the line's first field.
    fn first(&self, o: &mut Object<'_>) {
        o.str_cat("auth", &self.r.auth.logged_parts());
    }

    /// `bytes` and `durationMs`.
    fn measured(&self, o: &mut Object<'_>) {
        o.u64("bytes", self.bytes as u64);
        o.millis("durationMs", self.micros);
    }

    /// `method`, `path`, `pool` and `remote`.
    fn middle(&self, o: &mut Object<'_>) {
        o.str("method", self.method);
        o.str("path", self.path);
        o.opt_str("pool", self.r.pool.as_deref());
        o.plain("remote", self.peer.client_str());
    }

    /// `status` and `time`.
    fn answered(&self, o: &mut Object<'_>) {
        o.u64("status", u64::from(self.r.status.as_u16()));
        o.plain("time", self.time.as_str());
    }

    /// `userAgent` and `via`.
    fn last(&self, o: &mut Object<'_>) {
        o.opt_str("userAgent", self.ua);
        if let Some(v) = self.peer.via_str() {
            o.plain("via", v);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::token::Dead;
    use hyper::StatusCode;

    /// Writes `line` afresh and through `memo`, checks both are the same, valid JSON; whether
    /// it came from the memo.
    fn written_both_ways(line: &Line<'_>, memo: &LineMemo) -> bool {
        let was = memo
            .0
            .lock()
            .unwrap()
            .as_ref()
            .is_some_and(|m| m.holds(line));
        let (mut fresh, mut kept) = (Vec::new(), b"x".to_vec());
        line.write(&mut fresh, None);
        line.write_remembering(&mut kept, memo);
        assert_eq!(
            String::from_utf8_lossy(&kept[1..]),
            String::from_utf8_lossy(&fresh)
        );
        let v: serde_json::Value = serde_json::from_slice(&fresh).unwrap();
        assert_eq!(v["path"], line.path);
        assert_eq!(v["userAgent"].as_str(), line.ua);
        assert_eq!(v["time"], line.time.as_str());
        was
    }

    fn peers() -> [Peer; 2] {
        [
            Peer::new("10.0.0.7:4000".parse().unwrap(), None),
            Peer::new(
                "[fe80::1]:4000".parse().unwrap(),
                Some("10.1.1.1:9".parse().unwrap()),
            ),
        ]
    }

    #[test]
    fn a_line_from_the_memo_is_the_line_written_afresh() {
        let memo = LineMemo::default();
        let auths = [
            Auth::None,
            Auth::Live("abc123".into()),
            Auth::Live("abc124".into()),
            Auth::Stale(Dead::Revoked, "abc123".into()),
            Auth::Unknown,
        ];
        let at = |nanos: i64| {
            Stamp::at(time::OffsetDateTime::UNIX_EPOCH + time::Duration::nanoseconds(nanos))
        };
        let times = [
            at(0),
            at(1_500_000_001),
            at(86_400 * 365 * 57 * 1_000_000_000),
        ];
        let (mut lines, mut remembered) = (0, 0);
        for peer in peers() {
            for auth in &auths {
                for (method, path) in ["GET", "HEAD"]
                    .into_iter()
                    .flat_map(|m| ["/config/worker", "/config/master", "/we\"ird"].map(|p| (m, p)))
                {
                    for pool in [None, Some("worker"), Some("")] {
                        for ua in [None, Some("Ignition/2.14.0"), Some("a\nb"), Some("")] {
                            for (status, bytes) in [StatusCode::OK, StatusCode::NOT_FOUND]
                                .into_iter()
                                .flat_map(|s| [0, 2661].map(|b| (s, b)))
                            {
                                let mut r = message::Response::text(status, "body");
                                r.pool = pool.map(Into::into);
                                r.auth = auth.clone();
                                // Written afresh, then from the memo, with other durations
                                // and times.
                                for (micros, time) in [0, 1234, 999_999_999].into_iter().zip(&times)
                                {
                                    let line = Line {
                                        method,
                                        path,
                                        peer,
                                        r: &r,
                                        bytes,
                                        micros,
                                        ua,
                                        time,
                                    };
                                    remembered += usize::from(written_both_ways(&line, &memo));
                                    lines += 1;
                                }
                            }
                        }
                    }
                }
            }
        }
        let combinations = 2 * 5 * 2 * 3 * 3 * 4 * 2 * 2;
        assert_eq!(lines, combinations * 3);
        // Each combination's second and third lines came from the memo.
        assert_eq!(remembered, combinations * 2);
    }

    #[test]
    fn a_line_past_the_memos_bound_is_written_afresh_and_not_kept() {
        let memo = LineMemo::default();
        let time = Stamp::at(time::OffsetDateTime::UNIX_EPOCH);
        let long = "u".repeat(MEMO_MAX);
        let r = message::Response::text(StatusCode::OK, "body");
        let line = Line {
            method: "GET",
            path: "/config/worker",
            peer: peers()[0],
            r: &r,
            bytes: 5,
            micros: 1,
            ua: Some(&long),
            time: &time,
        };
        for _ in 0..2 {
            assert!(!written_both_ways(&line, &memo));
            assert!(memo.0.lock().unwrap().is_none());
        }
    }
}
