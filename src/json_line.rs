//! JSON objects written a field at a time into one buffer: serve's access-log lines and ledger
//! records, built per request without a value or an allocation per field. The bytes are what
//! `serde_json::to_writer` writes for the same fields (strings escaped as it escapes them,
//! numbers by the same `itoa` and `zmij`), which the tests check.

/// An object being written into `out`: `{` at [`Object::new`], `}` at [`Object::end`].
pub struct Object<'a> {
    out: &'a mut Vec<u8>,
    first: bool,
}

impl<'a> Object<'a> {
    /// Starts an object at the end of `out`.
    pub fn new(out: &'a mut Vec<u8>) -> Object<'a> {
        out.push(b'{');
        Object { out, first: true }
    }

    /// `"key":`, after a comma unless it is the first field. Keys are the program's own
    /// names: plain ASCII that needs no escaping. Inlined, so that a key written as a literal
    /// is copied by a few moves of known size, not a call to `memcpy`.
    #[inline(always)]
    fn key(&mut self, key: &str) {
        debug_assert!(key.bytes().all(|b| b.is_ascii_alphanumeric()));
        self.out.reserve(key.len() + 4);
        if !self.first {
            self.out.push(b',');
        }
        self.first = false;
        self.out.push(b'"');
        self.out.extend_from_slice(key.as_bytes());
        self.out.extend_from_slice(b"\":");
    }

    /// A string field.
    #[inline]
    pub fn str(&mut self, key: &str, value: &str) {
        self.key(key);
        string(self.out, value);
    }

    /// A string field whose value the program wrote and JSON never escapes: a time stamp, an
    /// IP address (`SocketAddr`'s own text). Invariant the caller keeps: no control character,
    /// `"` or `\\` (checked in debug builds); the value is copied without a scan.
    #[inline]
    pub fn plain(&mut self, key: &str, value: &str) {
        debug_assert!(!value.bytes().any(|b| b < 0x20 || b == b'"' || b == b'\\'));
        self.key(key);
        self.out.reserve(value.len() + 2);
        self.out.push(b'"');
        self.out.extend_from_slice(value.as_bytes());
        self.out.push(b'"');
    }

    /// A string field whose value is `parts` joined, each escaped as it is written.
    #[inline]
    pub fn str_cat(&mut self, key: &str, parts: &[&str]) {
        self.key(key);
        self.out.push(b'"');
        for p in parts {
            escaped(self.out, p);
        }
        self.out.push(b'"');
    }

    /// A string field, `null` when absent.
    #[inline]
    pub fn opt_str(&mut self, key: &str, value: Option<&str>) {
        match value {
            Some(v) => self.str(key, v),
            None => {
                self.key(key);
                self.out.extend_from_slice(b"null");
            }
        }
    }

    /// An unsigned integer field.
    #[inline]
    pub fn u64(&mut self, key: &str, value: u64) {
        self.key(key);
        self.out
            .extend_from_slice(itoa::Buffer::new().format(value).as_bytes());
    }

    /// A number field; `null` when it is not finite (as serde_json writes it).
    #[inline]
    pub fn f64(&mut self, key: &str, value: f64) {
        self.key(key);
        if value.is_finite() {
            self.out
                .extend_from_slice(zmij::Buffer::new().format_finite(value).as_bytes());
        } else {
            self.out.extend_from_slice(b"null");
        }
    }

    /// A number of milliseconds given in whole microseconds: the bytes [`Object::f64`] writes
    /// for `micros as f64 / 1000.0` (see [`millis`]).
    #[inline]
    pub fn millis(&mut self, key: &str, micros: u64) {
        self.key(key);
        millis(self.out, micros);
    }

    /// A boolean field.
    pub fn bool(&mut self, key: &str, value: bool) {
        self.key(key);
        self.out
            .extend_from_slice(if value { b"true" } else { b"false" });
    }

    /// A field whose value is already JSON (one object written before), copied as it is.
    pub fn raw(&mut self, key: &str, json: &[u8]) {
        self.key(key);
        self.out.extend_from_slice(json);
    }

    /// Where the next byte goes in the buffer.
    pub fn offset(&self) -> usize {
        self.out.len()
    }

    /// Ends the object.
    pub fn end(self) {
        self.out.push(b'}');
    }
}

/// The value of a number of milliseconds given in whole microseconds, as [`Object::f64`]
/// writes `micros as f64 / 1000.0` (the shortest decimal that reads back as that number, which
/// for any count a duration reaches is the count with its point moved), without formatting a
/// float: for a writer that keeps the rest of its object.
#[inline]
pub fn millis(out: &mut Vec<u8>, micros: u64) {
    if micros >= 1 << 53 {
        out.extend_from_slice(
            zmij::Buffer::new()
                .format_finite(micros as f64 / 1000.0)
                .as_bytes(),
        );
        return;
    }
    let mut i = itoa::Buffer::new();
    out.extend_from_slice(i.format(micros / 1000).as_bytes());
    let frac = micros % 1000;
    let digits = [
        b'.',
        b'0' + (frac / 100) as u8,
        b'0' + (frac / 10 % 10) as u8,
        b'0' + (frac % 10) as u8,
    ];
    // "1.0", "1.5", "1.25", "1.125": at least one digit, no trailing zeros.
    let keep = match frac {
        0 => 2,
        f if f % 100 == 0 => 2,
        f if f % 10 == 0 => 3,
        _ => 4,
    };
    out.extend_from_slice(&digits[..keep]);
}

/// `s` as a JSON string: `"` and `\` escaped, control characters as `\b \t \n \f \r` or
/// `\u00XX` (lowercase hex), everything else as it is, as serde_json does. The run up to the
/// first byte that needs escaping is found eight bytes at a time (an access-log line is almost
/// all such runs) and copied whole.
fn string(out: &mut Vec<u8>, s: &str) {
    out.push(b'"');
    escaped(out, s);
    out.push(b'"');
}

/// `s` escaped as inside a JSON string, without the quotes.
fn escaped(out: &mut Vec<u8>, s: &str) {
    let bytes = s.as_bytes();
    let mut from = 0;
    let mut i = plain_run(bytes, 0);
    while i < bytes.len() {
        let b = bytes[i];
        let short: &[u8] = match b {
            b'"' => b"\\\"",
            b'\\' => b"\\\\",
            b'\x08' => b"\\b",
            b'\t' => b"\\t",
            b'\n' => b"\\n",
            b'\x0c' => b"\\f",
            b'\r' => b"\\r",
            0..=0x1f => b"",
            _ => {
                i += 1;
                continue;
            }
        };
        out.extend_from_slice(&bytes[from..i]);
        from = i + 1;
        if short.is_empty() {
            const HEX: &[u8; 16] = b"0123456789abcdef";
            out.extend_from_slice(b"\\u00");
            out.push(HEX[usize::from(b >> 4)]);
            out.push(HEX[usize::from(b & 0xf)]);
        } else {
            out.extend_from_slice(short);
        }
        i = plain_run(bytes, i + 1);
    }
    out.extend_from_slice(&bytes[from..]);
}

/// The start of the first eight-byte block at or after `i` that holds a byte JSON escapes (a
/// control character, `"` or `\`), or where the last whole block ends: every byte before the
/// result needs no escaping. Each test is the word-at-a-time "has a byte below n" (a borrow in
/// the subtraction starts only at such a byte, and bytes from 0x80 up never flag), exact as to
/// whether the block holds one; `"` and `\` are the zero bytes of `x` xor a repeated byte.
fn plain_run(bytes: &[u8], mut i: usize) -> usize {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let below = |x: u64, n: u8| x.wrapping_sub(ONES * u64::from(n)) & !x & HIGH;
    while let Some(block) = bytes.get(i..i + 8) {
        let x = u64::from_le_bytes(block.try_into().unwrap_or_default());
        if below(x, 0x20)
            | below(x ^ (ONES * u64::from(b'"')), 1)
            | below(x ^ (ONES * u64::from(b'\\')), 1)
            != 0
        {
            return i;
        }
        i += 8;
    }
    i
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Strings with every kind of byte serde_json treats apart.
    const TRICKY: &[&str] = &[
        "",
        "plain",
        "quote \" and backslash \\",
        "controls \x00\x01\x08\t\n\x0b\x0c\r\x1f and DEL \x7f",
        "unicode é ü 日本 \u{2028} \u{202e}",
        "\"",
        "end\\",
    ];

    #[test]
    fn strings_and_numbers_are_written_as_serde_json_writes_them() {
        for s in TRICKY {
            let mut out = Vec::new();
            string(&mut out, s);
            assert_eq!(
                String::from_utf8(out).unwrap(),
                serde_json::to_string(s).unwrap(),
                "{s:?}"
            );
        }
        for n in [0.0, 0.001, 1.5, 2.0, 12.345, 1e-7, 1e21, 123456.789] {
            let mut out = Vec::new();
            let mut o = Object::new(&mut out);
            o.f64("n", n);
            o.end();
            assert_eq!(
                String::from_utf8(out).unwrap(),
                serde_json::json!({ "n": n }).to_string()
            );
        }
    }

    #[test]
    fn milliseconds_are_written_as_their_float_is() {
        let check = |micros: u64| {
            let (mut a, mut b) = (Vec::new(), Vec::new());
            let mut o = Object::new(&mut a);
            o.millis("d", micros);
            o.end();
            let mut o = Object::new(&mut b);
            o.f64("d", micros as f64 / 1000.0);
            o.end();
            assert_eq!(String::from_utf8(a), String::from_utf8(b), "{micros}");
        };
        (0..200_000).for_each(check);
        let mut m = 1u64;
        while m < u64::MAX / 3 {
            for x in [m - 1, m, m + 1, m * 3 + 7] {
                check(x);
            }
            m *= 3;
        }
        check(u64::MAX);
    }

    #[test]
    fn a_plain_value_is_written_as_a_string_is() {
        for v in [
            "2026-11-28T14:05:47.123456789Z",
            "[fe80::1%2]:22623",
            "10.0.0.7",
        ] {
            let (mut a, mut b) = (Vec::new(), Vec::new());
            let mut o = Object::new(&mut a);
            o.plain("k", v);
            o.end();
            let mut o = Object::new(&mut b);
            o.str("k", v);
            o.end();
            assert_eq!(a, b, "{v}");
        }
    }

    #[test]
    fn escapes_are_found_at_every_place_in_a_block() {
        for len in 0..40 {
            for at in 0..len {
                for special in ["\"", "\\", "\n", "\x00", "\x1f", "é", "\x7f"] {
                    let mut s = "a".repeat(at);
                    s.push_str(special);
                    s.push_str(&"b".repeat(len - at));
                    let mut out = Vec::new();
                    string(&mut out, &s);
                    assert_eq!(out, serde_json::to_vec(&s).unwrap(), "{s:?}");
                }
            }
        }
    }

    #[test]
    fn an_object_is_what_serde_json_writes_for_the_same_fields() {
        #[derive(serde::Serialize)]
        #[serde(rename_all = "camelCase")]
        struct Like<'a> {
            name: &'a str,
            count: u64,
            gone: Option<&'a str>,
            joined: String,
            ok: bool,
            inner: serde_json::Value,
        }
        let mut out = b"prefix ".to_vec();
        let mut o = Object::new(&mut out);
        o.str("name", TRICKY[3]);
        o.u64("count", u64::MAX);
        o.opt_str("gone", None);
        o.str_cat("joined", &["token:", TRICKY[3]]);
        o.bool("ok", true);
        let at = o.offset();
        o.raw("inner", br#"{"a":[1,2]}"#);
        o.end();
        let want = serde_json::to_string(&Like {
            name: TRICKY[3],
            count: u64::MAX,
            gone: None,
            joined: format!("token:{}", TRICKY[3]),
            ok: true,
            inner: serde_json::json!({"a": [1, 2]}),
        })
        .unwrap();
        assert_eq!(
            String::from_utf8(out.clone()).unwrap(),
            format!("prefix {want}")
        );
        assert_eq!(&out[at..at + 8], br#","inner""#);
    }
}

/// How serve writes its lines (`--log-format`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum LogFormat {
    /// Text on a terminal, JSON lines otherwise (each stream decides for itself).
    #[default]
    Auto,
    /// JSON lines, one object a line.
    Json,
    /// Readable lines.
    Text,
}

impl LogFormat {
    /// The name used on the command line.
    pub fn name(self) -> &'static str {
        match self {
            LogFormat::Auto => "auto",
            LogFormat::Json => "json",
            LogFormat::Text => "text",
        }
    }

    /// Whether a stream that is (or is not) a terminal gets text.
    pub fn text(self, terminal: bool) -> bool {
        match self {
            LogFormat::Auto => terminal,
            LogFormat::Json => false,
            LogFormat::Text => true,
        }
    }
}
