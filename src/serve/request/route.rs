//! Where a request goes: the pool of `/config/<pool>`, or the answer to any other path, as
//! Go's `ServeMux` and the MCS decide it (the path percent-decoded, a path that is not clean
//! redirected to its clean form, the pool the last segment).

use std::borrow::Cow;

use hyper::StatusCode;
use hyper::header::{ALLOW, LOCATION};

use crate::names::is_dns_label;
use crate::serve::request::message::{Request, Response};

/// The pool a request asks for (`/config/<pool>`), or the answer for any other request: a
/// redirect to the clean path, /healthz, 404, 405.
pub(in crate::serve) fn route<'a>(req: &Request<'a>) -> Route<'a> {
    let get_or_head = req.method == "GET" || req.method == "HEAD";
    // What every machine asks for, `/config/<pool>` with a DNS label: no escape, clean, its
    // last segment the label, so the steps below would give the label (tested).
    if get_or_head
        && let Some(name) = req.path.strip_prefix("/config/")
        && is_dns_label(name)
    {
        return Route::Pool(Cow::Borrowed(name));
    }
    routed(req, get_or_head)
}

/// [`route`] for any path.
fn routed<'a>(req: &Request<'a>, get_or_head: bool) -> Route<'a> {
    // As Go's ServeMux: the path is percent-decoded, and a path that is not clean is
    // redirected to its clean form.
    let Some(path) = percent_decode(req.path) else {
        return Route::Answer(Box::new(Response::text(
            StatusCode::BAD_REQUEST,
            "bad request: invalid escape in the path",
        )));
    };
    let clean = clean_path(&path);
    if *clean != *path {
        let mut r = Response::text(StatusCode::MOVED_PERMANENTLY, "moved permanently");
        let location = match req.query {
            Some(q) => format!("{clean}?{q}"),
            None => clean.into_owned(),
        };
        r.headers.push((LOCATION, location));
        return Route::Answer(Box::new(r));
    }
    if path == "/healthz" {
        if !get_or_head {
            return Route::Answer(Box::new(method_not_allowed()));
        }
        return Route::Answer(Box::new(Response::text(StatusCode::OK, "ok")));
    }
    if !path.starts_with("/config/") {
        if !get_or_head {
            return Route::Answer(Box::new(method_not_allowed()));
        }
        return Route::Answer(Box::new(Response::text(StatusCode::NOT_FOUND, "not found")));
    }
    if !get_or_head {
        return Route::Answer(Box::new(method_not_allowed()));
    }
    // The MCS takes the pool from the last segment (`path.Base`): /config/worker/ and
    // /config/x/worker are pool worker. Only DNS labels ever reach a lookup.
    let base = |p: &str| -> (usize, usize) {
        let b = p.as_bytes();
        let end = b.len() - b.iter().rev().take_while(|&&c| c == b'/').count();
        let start = b[..end]
            .iter()
            .rposition(|&c| c == b'/')
            .map_or(0, |i| i + 1);
        (start, end)
    };
    let (start, end) = base(&path);
    if !is_dns_label(&path[start..end]) {
        return Route::Answer(Box::new(Response::text(StatusCode::NOT_FOUND, "not found")));
    }
    Route::Pool(match path {
        Cow::Borrowed(p) => Cow::Borrowed(&p[start..end]),
        Cow::Owned(p) => Cow::Owned(p[start..end].to_string()),
    })
}

/// Where a request goes.
pub(in crate::serve) enum Route<'a> {
    /// `/config/<pool>`.
    Pool(Cow<'a, str>),
    /// Anything else, answered as it is.
    Answer(Box<Response>),
}

fn method_not_allowed() -> Response {
    let mut r = Response::text(StatusCode::METHOD_NOT_ALLOWED, "method not allowed");
    r.headers.push((ALLOW, "GET, HEAD".into()));
    r
}

/// `%XX` decoded as Go's `url.PathUnescape` does for a request path; `None` for a bad escape
/// or a path that is not UTF-8.
fn percent_decode(p: &str) -> Option<Cow<'_, str>> {
    if !p.as_bytes().contains(&b'%') {
        return Some(Cow::Borrowed(p));
    }
    String::from_utf8(crate::percent::decode(p.as_bytes()).ok()?)
        .ok()
        .map(Cow::Owned)
}

/// net/http's `cleanPath`: `path.Clean`, keeping a trailing slash. A path it leaves as it is
/// (every request a machine makes) is returned without a copy.
fn clean_path(p: &str) -> Cow<'_, str> {
    if is_clean(p) {
        return Cow::Borrowed(p);
    }
    Cow::Owned(cleaned(p))
}

/// Whether [`cleaned`] leaves `p` as it is: rooted, and no segment empty (but the one after a
/// trailing slash), `.` or `..`.
fn is_clean(p: &str) -> bool {
    let Some(rest) = p.as_bytes().strip_prefix(b"/") else {
        return false;
    };
    let mut segments = rest.split(|&b| b == b'/').peekable();
    while let Some(s) = segments.next() {
        let last = segments.peek().is_none();
        if s == b"." || s == b".." || (s.is_empty() && !last) {
            return false;
        }
    }
    true
}

fn cleaned(p: &str) -> String {
    if p.is_empty() {
        return "/".into();
    }
    let rooted = if p.starts_with('/') {
        p.to_string()
    } else {
        format!("/{p}")
    };
    let mut np = crate::ignition::spec::validate::clean(&rooted);
    if rooted.ends_with('/') && np != "/" {
        np.push('/');
    }
    np
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_clean_path_is_kept_without_a_copy_and_only_then() {
        let paths = "/ // /. /.. /./ /../ config /config /config/ /config/worker /config/worker/ \
             /config//worker /config/./worker /config/../worker /config/worker/. /config/worker/.. \
             /config/.worker /config/worker.. /config/worker// /a/b/c/ /a/b/../c /%2e";
        for p in paths.split(' ').chain([""]) {
            let kept = matches!(clean_path(p), Cow::Borrowed(_));
            assert_eq!(kept, cleaned(p) == p, "{p:?}");
            assert_eq!(clean_path(p), cleaned(p), "{p:?}");
        }
    }

    #[test]
    fn the_common_path_is_routed_as_any_path() {
        let summary = |r: Route<'_>| match r {
            Route::Pool(p) => format!("pool {p}"),
            Route::Answer(r) => format!("{} {:?}", r.status, r.headers),
        };
        let paths = "/config/worker /config/master /config/w-1 /config/-w /config/w- /config/ \
             /config/Worker /config/w.x /config/w%2fx /config/%77orker /config/w/ /config//w \
             /config/./w /config/../w /config/x/worker /config/w?x /healthz /config";
        for path in paths.split(' ').chain(
            [
                "/config/".to_string() + &"a".repeat(63),
                "/config/".to_string() + &"a".repeat(64),
            ]
            .iter()
            .map(String::as_str),
        ) {
            for method in ["GET", "HEAD", "POST", "PUT"] {
                let req = Request {
                    method,
                    path,
                    query: None,
                    authorization: None,
                    accept: None,
                    remote: "127.0.0.1".parse().unwrap(),
                };
                let get_or_head = method == "GET" || method == "HEAD";
                assert_eq!(
                    summary(route(&req)),
                    summary(routed(&req, get_or_head)),
                    "{method} {path}"
                );
            }
        }
    }
}
