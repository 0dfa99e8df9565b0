//! Whether go-yaml v2 would read a plain scalar back as the same string (resolve.go's
//! `resolve("", s)` gives `!!str`, and it is not a base-60 float): if not, `Marshal` quotes it.
//! The integer and float rules are also how the YAML reader (`crate::kube::yaml`) resolves a
//! plain scalar.

use serde_json::Number;

/// The strings `resolve` maps to a bool, null, float or merge tag without parsing.
const SPECIAL: [&str; 35] = [
    "y", "Y", "yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON", "n", "N", "no", "No",
    "NO", "false", "False", "FALSE", "off", "Off", "OFF", "", "~", "null", "Null", "NULL", ".nan",
    ".NaN", ".NAN", ".inf", ".Inf", ".INF", "<<", "-.inf",
];
const SPECIAL_MORE: [&str; 5] = ["+.inf", "+.Inf", "+.INF", "-.Inf", "-.INF"];

/// Whether `s`, written plain, reads back as the string `s`.
pub fn is_plain_string(s: &str) -> bool {
    resolves_to_string(s) && !is_base60_float(s)
}

fn resolves_to_string(s: &str) -> bool {
    if SPECIAL.contains(&s) || SPECIAL_MORE.contains(&s) {
        return false;
    }
    let Some(&first) = s.as_bytes().first() else {
        return false;
    };
    match first {
        b'.' => go_parse_float(s).is_none(),
        b'+' | b'-' | b'0'..=b'9' => {
            if parse_timestamp(s) {
                return false;
            }
            let plain = s.replace('_', "");
            if parse_int(&plain).is_some() {
                return false;
            }
            if is_yaml_style_float(&plain) && go_parse_float(&plain).is_some() {
                return false;
            }
            if let Some(bits) = plain.strip_prefix("0b") {
                return !binary(bits);
            }
            if let Some(bits) = plain.strip_prefix("-0b") {
                return !binary(bits);
            }
            true
        }
        _ => true,
    }
}

fn binary(bits: &str) -> bool {
    !bits.is_empty() && bits.bytes().all(|b| b == b'0' || b == b'1') && bits.len() <= 64
}

/// `strconv.ParseInt(s, 0, 64)`, then `ParseUint(s, 0, 64)`: a sign, then `0x`, `0o`, `0b`
/// or a bare leading `0` (octal), else decimal.
pub fn parse_int(s: &str) -> Option<Number> {
    let (neg, body) = match s.as_bytes().first()? {
        b'-' => (true, &s[1..]),
        b'+' => (false, &s[1..]),
        _ => (false, s),
    };
    let (radix, digits) = if body.len() >= 3 && body.starts_with('0') {
        match body.as_bytes()[1] {
            b'x' | b'X' => (16, &body[2..]),
            b'o' | b'O' => (8, &body[2..]),
            b'b' | b'B' => (2, &body[2..]),
            _ => (8, &body[1..]),
        }
    } else if body.len() == 2 && body.starts_with('0') {
        (8, &body[1..])
    } else {
        (10, body)
    };
    if digits.is_empty() || !digits.chars().all(|c| c.is_digit(radix)) {
        return None;
    }
    let magnitude = u128::from_str_radix(digits, radix).ok()?;
    if neg {
        let v = i128::try_from(magnitude).ok()?.checked_neg()?;
        i64::try_from(v).ok().map(Number::from)
    } else if let Ok(v) = i64::try_from(magnitude) {
        Some(Number::from(v))
    } else if !s.starts_with('+') {
        // ParseUint permits no sign at all.
        u64::try_from(magnitude).ok().map(Number::from)
    } else {
        None
    }
}

/// `strconv.ParseFloat(s, 64)` succeeding (decimal, hexadecimal with a `p` exponent, inf,
/// infinity, nan; an out-of-range value is an error there too).
fn go_parse_float(s: &str) -> Option<()> {
    let body = s
        .strip_prefix('+')
        .or_else(|| s.strip_prefix('-'))
        .unwrap_or(s);
    let lower = body.to_ascii_lowercase();
    if lower == "inf" || lower == "infinity" {
        return Some(());
    }
    if lower == "nan" && !s.starts_with(['+', '-']) {
        return Some(());
    }
    if let Some(hex) = lower.strip_prefix("0x") {
        return hex_float(hex);
    }
    let ok = !body.is_empty()
        && body
            .bytes()
            .all(|b| b.is_ascii_digit() || matches!(b, b'.' | b'e' | b'E' | b'+' | b'-'))
        && body.bytes().any(|b| b.is_ascii_digit());
    if !ok {
        return None;
    }
    let f: f64 = body.parse().ok()?;
    f.is_finite().then_some(())
}

fn hex_float(s: &str) -> Option<()> {
    let (mant, exp) = s.split_once('p')?;
    let exp = exp.strip_prefix(['+', '-']).unwrap_or(exp);
    let mant_ok = !mant.is_empty()
        && mant.bytes().filter(|&b| b == b'.').count() <= 1
        && mant.bytes().any(|b| b.is_ascii_hexdigit())
        && mant.bytes().all(|b| b.is_ascii_hexdigit() || b == b'.');
    (mant_ok && !exp.is_empty() && exp.bytes().all(|b| b.is_ascii_digit())).then_some(())
}

/// `^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$`
pub fn is_yaml_style_float(s: &str) -> bool {
    let b = s.as_bytes();
    let mut i = 0;
    if matches!(b.first(), Some(b'+' | b'-')) {
        i += 1;
    }
    let digits = |i: &mut usize| {
        let start = *i;
        while *i < b.len() && b[*i].is_ascii_digit() {
            *i += 1;
        }
        *i - start
    };
    if b.get(i) == Some(&b'.') {
        i += 1;
        if digits(&mut i) == 0 {
            return false;
        }
    } else {
        if digits(&mut i) == 0 {
            return false;
        }
        if b.get(i) == Some(&b'.') {
            i += 1;
            digits(&mut i);
        }
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(b.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        if digits(&mut i) == 0 {
            return false;
        }
    }
    i == b.len()
}

/// `^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$`, with encode.go's pre-checks.
fn is_base60_float(s: &str) -> bool {
    let b = s.as_bytes();
    let Some(&c) = b.first() else { return false };
    if !(c == b'+' || c == b'-' || c.is_ascii_digit()) || !s.contains(':') {
        return false;
    }
    let mut i = usize::from(c == b'+' || c == b'-');
    if !b.get(i).is_some_and(u8::is_ascii_digit) {
        return false;
    }
    while i < b.len() && (b[i].is_ascii_digit() || b[i] == b'_') {
        i += 1;
    }
    let mut groups = 0;
    while b.get(i) == Some(&b':') {
        i += 1;
        // [0-5]?[0-9]
        match (b.get(i), b.get(i + 1)) {
            (Some(d0), Some(d1)) if (b'0'..=b'5').contains(d0) && d1.is_ascii_digit() => i += 2,
            (Some(d), _) if d.is_ascii_digit() => i += 1,
            _ => return false,
        }
        groups += 1;
    }
    if groups == 0 {
        return false;
    }
    if b.get(i) == Some(&b'.') {
        i += 1;
        while i < b.len() && (b[i].is_ascii_digit() || b[i] == b'_') {
            i += 1;
        }
    }
    i == b.len()
}

/// go-yaml's `parseTimestamp`: four digits and a dash, then one of its layouts as Go's
/// `time.Parse` reads them (`2006-1-2T15:4:5.999999999Z07:00`, the same with `t`,
/// `2006-1-2 15:4:5.999999999`, `2006-1-2`).
fn parse_timestamp(s: &str) -> bool {
    let b = s.as_bytes();
    if b.len() < 5 || !b[..4].iter().all(u8::is_ascii_digit) || b[4] != b'-' {
        return false;
    }
    let mut p = Cursor { b, i: 5 };
    let year: u32 = s[..4].parse().unwrap_or(0);
    let Some(month) = p.number(1, 2) else {
        return false;
    };
    if !(1..=12).contains(&month) || !p.eat(b'-') {
        return false;
    }
    let Some(day) = p.number(1, 2) else {
        return false;
    };
    if day < 1 || day > days_in(year, month) {
        return false;
    }
    if p.done() {
        return true;
    }
    let zoned = match p.next() {
        Some(b'T' | b't') => true,
        Some(b' ') => false,
        _ => return false,
    };
    let (Some(h), true, Some(m), true, Some(sec)) = (
        p.number(1, 2),
        p.eat(b':'),
        p.number(1, 2),
        p.eat(b':'),
        p.number(1, 2),
    ) else {
        return false;
    };
    if h > 23 || m > 59 || sec > 59 {
        return false;
    }
    if p.peek() == Some(b'.') {
        p.i += 1;
        let start = p.i;
        while p.peek().is_some_and(|c| c.is_ascii_digit()) {
            p.i += 1;
        }
        if p.i == start {
            return false;
        }
    }
    if !zoned {
        return p.done();
    }
    match p.next() {
        Some(b'Z') => p.done(),
        Some(b'+' | b'-') => {
            let ok = p.fixed(2).is_some_and(|h| h <= 24) && p.eat(b':') && p.fixed(2).is_some();
            ok && p.done()
        }
        _ => false,
    }
}

fn days_in(year: u32, month: u32) -> u32 {
    match month {
        2 if year.is_multiple_of(4) && (!year.is_multiple_of(100) || year.is_multiple_of(400)) => {
            29
        }
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

struct Cursor<'a> {
    b: &'a [u8],
    i: usize,
}

impl Cursor<'_> {
    fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }
    fn next(&mut self) -> Option<u8> {
        let c = self.peek();
        self.i += 1;
        c
    }
    fn eat(&mut self, c: u8) -> bool {
        let ok = self.peek() == Some(c);
        if ok {
            self.i += 1;
        }
        ok
    }
    fn done(&self) -> bool {
        self.i == self.b.len()
    }
    /// One or two digits (Go's `1`, `2`, `15`, `4`, `5` layout elements).
    fn number(&mut self, min: usize, max: usize) -> Option<u32> {
        let start = self.i;
        while self.i - start < max && self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.i += 1;
        }
        (self.i - start >= min)
            .then(|| {
                std::str::from_utf8(&self.b[start..self.i])
                    .ok()?
                    .parse()
                    .ok()
            })
            .flatten()
    }
    fn fixed(&mut self, n: usize) -> Option<u32> {
        let start = self.i;
        for _ in 0..n {
            if !self.peek().is_some_and(|c| c.is_ascii_digit()) {
                return None;
            }
            self.i += 1;
        }
        std::str::from_utf8(&self.b[start..self.i])
            .ok()?
            .parse()
            .ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_reads_back_as_a_string() {
        for s in [
            "3.5.0",
            "foo=bar",
            "data:,x",
            "/etc/x",
            "default",
            "abc",
            "1.2.3",
            "-x",
            "+x",
            "0b12",
            "12:345",
            "2024-13-01",
            "2023-02-29",
            "1e",
            ".hidden",
            "08x",
        ] {
            assert!(is_plain_string(s), "{s} should stay plain");
        }
        for s in [
            "",
            "yes",
            "No",
            "on",
            "~",
            "null",
            "123",
            "-1",
            "+5",
            "0x1F",
            "0o17",
            "017",
            "1_000",
            "1.5",
            ".5",
            "1e3",
            "-.inf",
            ".NaN",
            "1:20",
            "190:20:30",
            "2024-01-02",
            "2024-1-2T10:00:00Z",
            "2024-01-02 10:00:00.5",
            "0b101",
            "99999999999999999999",
            "<<",
        ] {
            assert!(!is_plain_string(s), "{s} should be quoted");
        }
    }
}
