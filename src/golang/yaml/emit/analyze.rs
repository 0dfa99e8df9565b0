//! libyaml's character classes and `yaml_emitter_analyze_scalar`: which styles a scalar's
//! characters allow.

/// What `yaml_emitter_analyze_scalar` finds in a scalar.
#[derive(Debug, Clone, Copy)]
pub(super) struct Analysis {
    pub(super) multiline: bool,
    pub(super) flow_plain_allowed: bool,
    pub(super) block_plain_allowed: bool,
    pub(super) single_quoted_allowed: bool,
    pub(super) block_allowed: bool,
}

/// The byte at `i`, or 0 past the end (libyaml's strings end in a NUL).
pub(super) fn at(b: &[u8], i: usize) -> u8 {
    b.get(i).copied().unwrap_or(0)
}

pub(super) fn width(c: u8) -> usize {
    match c {
        c if c & 0x80 == 0 => 1,
        c if c & 0xE0 == 0xC0 => 2,
        c if c & 0xF0 == 0xE0 => 3,
        c if c & 0xF8 == 0xF0 => 4,
        _ => 0,
    }
}

pub(super) fn is_space(b: &[u8], i: usize) -> bool {
    at(b, i) == b' '
}

pub(super) fn is_blank(b: &[u8], i: usize) -> bool {
    matches!(at(b, i), b' ' | b'\t')
}

pub(super) fn is_break(b: &[u8], i: usize) -> bool {
    let (c0, c1, c2) = (at(b, i), at(b, i + 1), at(b, i + 2));
    c0 == b'\r'
        || c0 == b'\n'
        || (c0 == 0xC2 && c1 == 0x85)
        || (c0 == 0xE2 && c1 == 0x80 && (c2 == 0xA8 || c2 == 0xA9))
}

pub(super) fn is_blankz(b: &[u8], i: usize) -> bool {
    is_blank(b, i) || is_break(b, i) || at(b, i) == 0
}

pub(super) fn is_printable(b: &[u8], i: usize) -> bool {
    let (c0, c1, c2) = (at(b, i), at(b, i + 1), at(b, i + 2));
    c0 == 0x0A
        || (0x20..=0x7E).contains(&c0)
        || (c0 == 0xC2 && c1 >= 0xA0)
        || (c0 > 0xC2 && c0 < 0xED)
        || (c0 == 0xED && c1 < 0xA0)
        || c0 == 0xEE
        || (c0 == 0xEF
            && !(c1 == 0xBB && c2 == 0xBF)
            && !(c1 == 0xBF && (c2 == 0xBE || c2 == 0xBF)))
}

/// go-yaml's `is_bom` looks at the start of the value, whatever the position asked about.
pub(super) fn is_bom(b: &[u8]) -> bool {
    at(b, 0) == 0xEF && at(b, 1) == 0xBB && at(b, 2) == 0xBF
}

pub(super) fn analyze(value: &[u8]) -> Analysis {
    if value.is_empty() {
        return Analysis {
            multiline: false,
            flow_plain_allowed: false,
            block_plain_allowed: true,
            single_quoted_allowed: true,
            block_allowed: false,
        };
    }
    let mut f = Found::default();
    if value.len() >= 3 && (value.starts_with(b"---") || value.starts_with(b"...")) {
        f.block_indicators = true;
        f.flow_indicators = true;
    }
    let mut preceded_by_whitespace = true;
    let (mut previous_space, mut previous_break) = (false, false);
    let mut i = 0;
    while i < value.len() {
        let w = width(value[i]).max(1);
        let followed_by_whitespace = i + w >= value.len() || is_blank(value, i + w);
        indicators(
            &mut f,
            value[i],
            i == 0,
            preceded_by_whitespace,
            followed_by_whitespace,
        );
        // The emitter is in unicode mode: only unprintable characters are special.
        if !is_printable(value, i) {
            f.special_characters = true;
        }
        let (first, last) = (i == 0, i + w == value.len());
        if is_space(value, i) {
            f.leading_space |= first;
            f.trailing_space |= last;
            f.break_space |= previous_break;
            previous_space = true;
            previous_break = false;
        } else if is_break(value, i) {
            f.line_breaks = true;
            f.leading_break |= first;
            f.trailing_break |= last;
            f.space_break |= previous_space;
            previous_space = false;
            previous_break = true;
        } else {
            previous_space = false;
            previous_break = false;
        }
        preceded_by_whitespace = is_blankz(value, i);
        i += w;
    }
    f.verdict()
}

/// What the scan of a scalar found.
#[derive(Default)]
struct Found {
    block_indicators: bool,
    flow_indicators: bool,
    line_breaks: bool,
    special_characters: bool,
    leading_space: bool,
    leading_break: bool,
    trailing_space: bool,
    trailing_break: bool,
    break_space: bool,
    space_break: bool,
}

/// The indicator characters: at the start, as go-yaml checks the first character; elsewhere.
fn indicators(f: &mut Found, c: u8, first: bool, preceded_by_ws: bool, followed_by_ws: bool) {
    if first {
        match c {
            b'#' | b',' | b'[' | b']' | b'{' | b'}' | b'&' | b'*' | b'!' | b'|' | b'>' | b'\''
            | b'"' | b'%' | b'@' | b'`' => {
                f.flow_indicators = true;
                f.block_indicators = true;
            }
            b'?' | b':' => {
                f.flow_indicators = true;
                f.block_indicators |= followed_by_ws;
            }
            b'-' if followed_by_ws => {
                f.flow_indicators = true;
                f.block_indicators = true;
            }
            _ => {}
        }
    } else {
        match c {
            b',' | b'?' | b'[' | b']' | b'{' | b'}' => f.flow_indicators = true,
            b':' => {
                f.flow_indicators = true;
                f.block_indicators |= followed_by_ws;
            }
            b'#' if preceded_by_ws => {
                f.flow_indicators = true;
                f.block_indicators = true;
            }
            _ => {}
        }
    }
}

impl Found {
    /// The styles the scalar allows.
    fn verdict(&self) -> Analysis {
        let mut a = Analysis {
            multiline: self.line_breaks,
            flow_plain_allowed: true,
            block_plain_allowed: true,
            single_quoted_allowed: true,
            block_allowed: true,
        };
        if self.leading_space || self.leading_break || self.trailing_space || self.trailing_break {
            a.flow_plain_allowed = false;
            a.block_plain_allowed = false;
        }
        if self.trailing_space {
            a.block_allowed = false;
        }
        if self.break_space {
            a.flow_plain_allowed = false;
            a.block_plain_allowed = false;
            a.single_quoted_allowed = false;
        }
        if self.space_break || self.special_characters {
            a.flow_plain_allowed = false;
            a.block_plain_allowed = false;
            a.single_quoted_allowed = false;
            a.block_allowed = false;
        }
        if self.line_breaks {
            a.flow_plain_allowed = false;
            a.block_plain_allowed = false;
        }
        if self.flow_indicators {
            a.flow_plain_allowed = false;
        }
        if self.block_indicators {
            a.block_plain_allowed = false;
        }
        a
    }
}
