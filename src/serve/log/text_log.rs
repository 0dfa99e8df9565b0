//! serve's lines for a person at a terminal: the JSON access-log and event lines, rewritten by
//! the writer threads (off the request path) as `time what: fields`. Every value comes from an
//! untrusted client or file, so controls and bidi characters are escaped as everywhere else.

use serde_json::{Map, Value};

/// Access-log fields in the order a person reads them; the others follow by name.
const ACCESS: [&str; 6] = ["remote", "method", "path", "status", "bytes", "durationMs"];

/// `line` as text: an event as `TIME EVENT: MESSAGE`, an access line as `TIME REMOTE METHOD
/// PATH STATUS BYTES DURATIONms key=value...`; anything that is not a JSON object (the
/// banner) as it is.
pub fn to_text(line: &str) -> String {
    let Ok(Value::Object(mut m)) = serde_json::from_str::<Value>(line) else {
        return line.to_string();
    };
    let time = take(&mut m, "time");
    let mut out = time;
    if let (Some(event), Some(message)) = (m.remove("event"), m.remove("message")) {
        out.push_str(&format!(" {}: {}", plain(&event), plain(&message)));
        rest(&mut out, m);
        return out;
    }
    for k in ACCESS {
        match (k, m.remove(k)) {
            (_, None | Some(Value::Null)) => {}
            ("bytes", Some(v)) => out.push_str(&format!(" {}B", plain(&v))),
            ("durationMs", Some(v)) => out.push_str(&format!(" {}ms", plain(&v))),
            (_, Some(v)) => out.push_str(&format!(" {}", plain(&v))),
        }
    }
    rest(&mut out, m);
    out
}

fn take(m: &mut Map<String, Value>, k: &str) -> String {
    m.remove(k).map(|v| plain(&v)).unwrap_or_default()
}

/// The remaining fields as ` key=value`, nulls left out; a value is quoted as logfmt quotes it
/// (so a User-Agent `x auth=token:abc status=200` stays one value, not three fields).
fn rest(out: &mut String, m: Map<String, Value>) {
    for (k, v) in m {
        if !v.is_null() {
            out.push_str(&format!(
                " {}={}",
                crate::escape::text(&k, false),
                quoted(plain(&v))
            ));
        }
    }
}

/// `s` as one logfmt value: as it is, or in double quotes (with `\` and `"` escaped) when it
/// is empty or holds a space, `=` or a quote.
fn quoted(s: String) -> String {
    if !s.is_empty() && !s.contains([' ', '=', '"', '\\']) {
        return s;
    }
    format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""))
}

fn plain(v: &Value) -> String {
    let s = match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    crate::escape::text(&s, false).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_and_access_lines_read_as_text_and_controls_stay_escaped() {
        assert_eq!(
            to_text(
                r#"{"event":"reload","message":"reloaded: 2 live token(s)","time":"2026-11-26T20:00:00Z"}"#
            ),
            "2026-11-26T20:00:00Z reload: reloaded: 2 live token(s)"
        );
        assert_eq!(
            to_text(
                r#"{"auth":"token:abc123","bytes":2661,"durationMs":0.03,"method":"GET","path":"/config/worker","pool":"worker","remote":"127.0.0.1:5000","status":200,"time":"2026-11-26T20:00:00Z","userAgent":null}"#
            ),
            "2026-11-26T20:00:00Z 127.0.0.1:5000 GET /config/worker 200 2661B 0.03ms auth=token:abc123 pool=worker"
        );
        let hostile = to_text(
            r#"{"method":"GET","path":"/config/w\u001b[31m\u202e","status":404,"time":"t"}"#,
        );
        assert!(
            !hostile.contains('\u{1b}') && !hostile.contains('\u{202e}'),
            "{hostile}"
        );
        assert_eq!(to_text("mcsctl serve 0.1.0"), "mcsctl serve 0.1.0");
        // A value cannot make fields of its own.
        assert_eq!(
            to_text(
                r#"{"method":"GET","path":"/config/worker","status":401,"time":"t","userAgent":"x auth=token:abc pool=master status=200","auth":"invalid"}"#
            ),
            r#"t GET /config/worker 401 auth=invalid userAgent="x auth=token:abc pool=master status=200""#
        );
        assert_eq!(
            to_text(r#"{"time":"t","status":200,"userAgent":"a\"b\\c","pool":""}"#),
            r#"t 200 pool="" userAgent="a\"b\\c""#
        );
    }
}
