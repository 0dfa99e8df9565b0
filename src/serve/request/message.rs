//! What one request is and what it is answered, as the request's modules share them: the
//! facts `route` and `handler` read ([`Request`]), the answer with what the access log records
//! ([`Response`]), and a machine token's fetch to account for before its config goes out
//! ([`MachineFetch`]). The answers themselves are made where they are decided (`route`,
//! `handler`, `refusals`).

use std::net::IpAddr;
use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use hyper::StatusCode;
use hyper::header::{CONNECTION, HeaderName};

use crate::ignition::chunks::Chunks;
use crate::serve::request::auth::Auth;

/// The request facts the handler needs.
#[derive(Debug)]
pub struct Request<'a> {
    /// Method, upper case.
    pub method: &'a str,
    /// Path without the query.
    pub path: &'a str,
    /// Raw query, if any.
    pub query: Option<&'a str>,
    /// `Authorization` header, when it is visible ASCII (and tabs).
    pub authorization: Option<&'a [u8]>,
    /// `Accept` header, when it is visible ASCII (and tabs).
    pub accept: Option<&'a [u8]>,
    /// The client's address (behind a PROXY-protocol balancer: the real client's).
    pub remote: IpAddr,
}

/// The response, plus what the access log records.
#[derive(Debug)]
pub struct Response {
    /// HTTP status.
    pub status: StatusCode,
    /// Body (a config's is in pieces shared with the other specs' bodies).
    pub body: Chunks,
    /// Content type.
    pub content_type: &'static str,
    /// Extra headers.
    pub headers: Vec<(HeaderName, String)>,
    /// Pool named in the path, when valid.
    pub pool: Option<Arc<str>>,
    /// Whether `pool` is one serve has a config for (full or pre-approval): then it is its own
    /// metrics label, without looking it up again (`metrics::pool_label`).
    pub served: bool,
    /// Who the request presented itself as.
    pub auth: Auth,
    /// Set when this request's guess blocked its client (for one event line).
    pub blocked_for: Option<Duration>,
    /// A full config about to go to a machine token: the fetch to record (and to refuse when
    /// the token's uses are spent) before the config is sent.
    pub machine: Option<MachineFetch>,
    /// The spec version of the config served.
    pub spec: Option<crate::ignition::spec::Spec>,
}

/// A full-config fetch made with a machine token.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MachineFetch {
    /// The token's id.
    pub token: Arc<str>,
    /// The machine it is bound to.
    pub machine: Arc<str>,
    /// How many fetches it allows.
    pub uses: Option<u32>,
}

impl Response {
    /// 431 for a request head over the limit; the connection is closed after it.
    pub fn too_large() -> Response {
        let mut r = Response::text(
            StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE,
            "request header fields too large",
        );
        r.headers.push((CONNECTION, "close".into()));
        r
    }

    /// 500: handling the request failed (a bug; see `respond::guarded`).
    pub fn internal_error() -> Response {
        Response::text(StatusCode::INTERNAL_SERVER_ERROR, "internal error")
    }

    pub(in crate::serve) fn text(status: StatusCode, msg: impl Into<String>) -> Response {
        let mut m = msg.into();
        m.push('\n');
        Response::new(status, Bytes::from(m).into(), "text/plain; charset=utf-8")
    }

    /// A response of `body`, nobody's, with no pool, spec or extra header yet.
    pub(in crate::serve) fn new(
        status: StatusCode,
        body: Chunks,
        content_type: &'static str,
    ) -> Response {
        Response {
            status,
            body,
            content_type,
            headers: Vec::new(),
            pool: None,
            served: false,
            auth: Auth::None,
            blocked_for: None,
            machine: None,
            spec: None,
        }
    }
}
