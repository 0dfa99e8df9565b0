//! What reaches a terminal: characters taken from inputs (a CSR's subject, a file name, a
//! MachineConfig's name) can carry control sequences that move the cursor, rewrite earlier
//! lines or retitle the window, and bidi overrides that make text read differently than it is
//! stored. Every text line mcsctl prints passes through here; JSON output is left to
//! serde_json (which escapes controls) so scripts get the exact bytes.

use std::borrow::Cow;

/// Unicode's bidirectional formatting characters (UAX #9): embeddings, overrides, isolates and
/// marks.
fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{061c}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// Whether `c` must not reach a terminal as it is; `keep` lists controls that may.
fn unsafe_char(c: char, keep: &[char]) -> bool {
    (c.is_control() || is_bidi_control(c)) && !keep.contains(&c)
}

/// `c` as visible text: `\n`, `\t`, `\r`, else `\u{1b}`.
fn push_escaped(out: &mut String, c: char) {
    match c {
        '\n' => out.push_str("\\n"),
        '\t' => out.push_str("\\t"),
        '\r' => out.push_str("\\r"),
        c => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
    }
}

/// Text for a terminal: line breaks and tabs stay, every other control and bidi character is
/// escaped. With `keep_sgr`, colour sequences (`ESC [ digits ; m`) stay: mcsctl writes them
/// itself when the stream is a terminal, and they only colour.
pub fn text(s: &str, keep_sgr: bool) -> Cow<'_, str> {
    if !s.chars().any(|c| unsafe_char(c, &['\n', '\t'])) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 16);
    let mut rest = s;
    while let Some(c) = rest.chars().next() {
        if keep_sgr
            && c == '\u{1b}'
            && let Some(n) = sgr_len(rest)
        {
            out.push_str(&rest[..n]);
            rest = &rest[n..];
            continue;
        }
        if unsafe_char(c, &['\n', '\t']) {
            push_escaped(&mut out, c);
        } else {
            out.push(c);
        }
        rest = &rest[c.len_utf8()..];
    }
    Cow::Owned(out)
}

/// One field (a table cell, a name): every control, line breaks included, and every bidi
/// character escaped, so a value can never start a line of its own.
pub fn field(s: &str) -> Cow<'_, str> {
    if !s.chars().any(|c| unsafe_char(c, &[])) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 16);
    for c in s.chars() {
        if unsafe_char(c, &[]) {
            push_escaped(&mut out, c);
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// The length of a colour sequence at the start of `s` (`ESC [ 0-9; m`), if there is one.
fn sgr_len(s: &str) -> Option<usize> {
    let b = s.as_bytes();
    if b.get(1) != Some(&b'[') {
        return None;
    }
    let body = b[2..]
        .iter()
        .take_while(|c| c.is_ascii_digit() || **c == b';')
        .count();
    (b.get(2 + body) == Some(&b'm')).then_some(3 + body)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn controls_and_bidi_are_escaped() {
        assert_eq!(text("plain\n\tline", false), "plain\n\tline");
        assert_eq!(
            text("CN=system:node:a\u{1b}]0;pwned\u{7}\u{202e}gnp.exe", false),
            "CN=system:node:a\\u{1b}]0;pwned\\u{7}\\u{202e}gnp.exe"
        );
        assert_eq!(text("\u{1b}[31mok\u{1b}[0m", true), "\u{1b}[31mok\u{1b}[0m");
        assert_eq!(text("\u{1b}[2J", true), "\\u{1b}[2J");
        assert_eq!(text("\u{1b}[31m", false), "\\u{1b}[31m");
        assert_eq!(field("a\nb\rc\u{85}\u{2066}"), "a\\nb\\rc\\u{85}\\u{2066}");
        assert_eq!(field("naïve ☃"), "naïve ☃");
    }
}
