//! What a YAML mistake most likely is, in the words of the one who made it: the parser says
//! "mapping values are not allowed in this context" where a line is indented one space too
//! far. Each error names the line and column, says what is probably wrong and how to fix it,
//! and keeps the parser's own words last.

use yaml_rust2::scanner::ScanError;

/// The parser's error on `text` (the input `what`), explained.
pub(super) fn scan_error(what: &str, text: &str, e: &ScanError) -> anyhow::Error {
    let m = e.marker();
    let (line, col) = (m.line(), m.col() + 1);
    let info = e.info();
    let at = |n: usize| text.lines().nth(n.saturating_sub(1)).unwrap_or("");
    let indent = |l: &str| l.len() - l.trim_start_matches(' ').len();
    let hint = if at(line).trim_start_matches(' ').starts_with('\t') || info.contains("tab") {
        "a tab indents this line: YAML indents with spaces only; replace the tab with spaces"
            .to_string()
    } else if info.contains("mapping values are not allowed") {
        match previous(text, line) {
            Some((n, prev)) if indent(at(line)) > indent(prev) && !prev.trim_end().ends_with(':') => format!(
                "this line is indented more than line {n} ({:?}), whose key already has a value: line it up with that key, or end line {n} with `:` if this belongs under it",
                prev.trim()
            ),
            _ => "a `key: value` where YAML expects none: check this line's indentation, and quote a value that holds `: `".to_string(),
        }
    } else if info.contains("did not find expected key")
        || info.contains("did not find expected '-'")
    {
        match previous(text, line) {
            Some((n, prev)) => format!(
                "line {line} is indented {} spaces and line {n} {}: the entries of one mapping or list line up, and an entry under a key is indented more than the key",
                indent(at(line)),
                indent(prev)
            ),
            None => "the entries of one mapping or list line up: check this line's indentation"
                .to_string(),
        }
    } else if info.contains("flow") || info.contains("did not find expected node content") {
        "a `[` or `{` is not closed, or a key has no value where one must be: check the brackets and values up to here".to_string()
    } else if info.contains("cannot start any token") {
        "a value starts with a character YAML reserves (`@`, a backquote, a tab): quote the value"
            .to_string()
    } else {
        "check the indentation of this line and the one above it".to_string()
    };
    anyhow::anyhow!("{what}: line {line}, column {col}: {hint} (the YAML parser says: {info})")
}

/// The last line before `line` with something on it (not blank, not only a comment).
fn previous(text: &str, line: usize) -> Option<(usize, &str)> {
    text.lines()
        .enumerate()
        .take(line.saturating_sub(1))
        .filter(|(_, l)| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
        .last()
        .map(|(i, l)| (i + 1, l))
}

/// A hint for a key set twice: at the top of an object, `apiVersion` or `kind` again is
/// almost always a second object with no `---` before it.
pub(super) fn second_object(path: &str, key: &str) -> &'static str {
    if path.is_empty() && (key == "apiVersion" || key == "kind") {
        ": is this a second object? Separate YAML documents with a line `---`"
    } else {
        ""
    }
}
