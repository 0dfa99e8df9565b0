//! The libyaml emitter as go-yaml v2 (emitterc.go) runs it for `Marshal`: block mappings and
//! sequences (a sequence that is a mapping's value is not indented), empty collections in
//! flow style, two-space indents, plain and quoted scalars folded at 80 columns, and each
//! scalar's requested style checked against what its characters allow. Only what `Marshal`
//! produces is here: no anchors, tags, flow collections with items, or folded scalars.

use super::{Node, Style};

const BEST_INDENT: i32 = 2;
const BEST_WIDTH: i32 = 80;

/// Writes `root` as one implicit document, as `yaml.Marshal` does.
pub fn document(root: &Node) -> String {
    let mut e = Emitter {
        out: Vec::new(),
        indent: -1,
        indents: Vec::new(),
        column: 0,
        whitespace: true,
        indention: true,
        flow_level: 0,
        ctx: Context::default(),
    };
    e.node(root, Context::default());
    // The implicit document end: a final line break when the line is not empty.
    e.write_indent();
    String::from_utf8(e.out).unwrap_or_default()
}

#[derive(Debug, Clone, Copy, Default)]
struct Context {
    mapping: bool,
    simple_key: bool,
}

/// What `yaml_emitter_analyze_scalar` finds in a scalar.
#[derive(Debug, Clone, Copy)]
struct Analysis {
    multiline: bool,
    flow_plain_allowed: bool,
    block_plain_allowed: bool,
    single_quoted_allowed: bool,
    block_allowed: bool,
}

struct Emitter {
    out: Vec<u8>,
    indent: i32,
    indents: Vec<i32>,
    column: i32,
    whitespace: bool,
    indention: bool,
    flow_level: i32,
    ctx: Context,
}

/// The byte at `i`, or 0 past the end (libyaml's strings end in a NUL).
fn at(b: &[u8], i: usize) -> u8 {
    b.get(i).copied().unwrap_or(0)
}

fn width(c: u8) -> usize {
    match c {
        c if c & 0x80 == 0 => 1,
        c if c & 0xE0 == 0xC0 => 2,
        c if c & 0xF0 == 0xE0 => 3,
        c if c & 0xF8 == 0xF0 => 4,
        _ => 0,
    }
}

fn is_space(b: &[u8], i: usize) -> bool {
    at(b, i) == b' '
}

fn is_blank(b: &[u8], i: usize) -> bool {
    matches!(at(b, i), b' ' | b'\t')
}

fn is_break(b: &[u8], i: usize) -> bool {
    let (c0, c1, c2) = (at(b, i), at(b, i + 1), at(b, i + 2));
    c0 == b'\r'
        || c0 == b'\n'
        || (c0 == 0xC2 && c1 == 0x85)
        || (c0 == 0xE2 && c1 == 0x80 && (c2 == 0xA8 || c2 == 0xA9))
}

fn is_blankz(b: &[u8], i: usize) -> bool {
    is_blank(b, i) || is_break(b, i) || at(b, i) == 0
}

fn is_printable(b: &[u8], i: usize) -> bool {
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
fn is_bom(b: &[u8]) -> bool {
    at(b, 0) == 0xEF && at(b, 1) == 0xBB && at(b, 2) == 0xBF
}

fn analyze(value: &[u8]) -> Analysis {
    if value.is_empty() {
        return Analysis {
            multiline: false,
            flow_plain_allowed: false,
            block_plain_allowed: true,
            single_quoted_allowed: true,
            block_allowed: false,
        };
    }
    let mut block_indicators = false;
    let mut flow_indicators = false;
    let mut line_breaks = false;
    let mut special_characters = false;
    let (mut leading_space, mut leading_break) = (false, false);
    let (mut trailing_space, mut trailing_break) = (false, false);
    let (mut break_space, mut space_break) = (false, false);
    let (mut previous_space, mut previous_break) = (false, false);
    if value.len() >= 3 && (value.starts_with(b"---") || value.starts_with(b"...")) {
        block_indicators = true;
        flow_indicators = true;
    }
    let mut preceded_by_whitespace = true;
    let mut i = 0;
    while i < value.len() {
        let w = width(value[i]).max(1);
        let followed_by_whitespace = i + w >= value.len() || is_blank(value, i + w);
        if i == 0 {
            match value[i] {
                b'#' | b',' | b'[' | b']' | b'{' | b'}' | b'&' | b'*' | b'!' | b'|' | b'>'
                | b'\'' | b'"' | b'%' | b'@' | b'`' => {
                    flow_indicators = true;
                    block_indicators = true;
                }
                b'?' | b':' => {
                    flow_indicators = true;
                    if followed_by_whitespace {
                        block_indicators = true;
                    }
                }
                b'-' if followed_by_whitespace => {
                    flow_indicators = true;
                    block_indicators = true;
                }
                _ => {}
            }
        } else {
            match value[i] {
                b',' | b'?' | b'[' | b']' | b'{' | b'}' => flow_indicators = true,
                b':' => {
                    flow_indicators = true;
                    if followed_by_whitespace {
                        block_indicators = true;
                    }
                }
                b'#' if preceded_by_whitespace => {
                    flow_indicators = true;
                    block_indicators = true;
                }
                _ => {}
            }
        }
        // The emitter is in unicode mode: only unprintable characters are special.
        if !is_printable(value, i) {
            special_characters = true;
        }
        if is_space(value, i) {
            if i == 0 {
                leading_space = true;
            }
            if i + w == value.len() {
                trailing_space = true;
            }
            if previous_break {
                break_space = true;
            }
            previous_space = true;
            previous_break = false;
        } else if is_break(value, i) {
            line_breaks = true;
            if i == 0 {
                leading_break = true;
            }
            if i + w == value.len() {
                trailing_break = true;
            }
            if previous_space {
                space_break = true;
            }
            previous_space = false;
            previous_break = true;
        } else {
            previous_space = false;
            previous_break = false;
        }
        preceded_by_whitespace = is_blankz(value, i);
        i += w;
    }
    let mut a = Analysis {
        multiline: line_breaks,
        flow_plain_allowed: true,
        block_plain_allowed: true,
        single_quoted_allowed: true,
        block_allowed: true,
    };
    if leading_space || leading_break || trailing_space || trailing_break {
        a.flow_plain_allowed = false;
        a.block_plain_allowed = false;
    }
    if trailing_space {
        a.block_allowed = false;
    }
    if break_space {
        a.flow_plain_allowed = false;
        a.block_plain_allowed = false;
        a.single_quoted_allowed = false;
    }
    if space_break || special_characters {
        a.flow_plain_allowed = false;
        a.block_plain_allowed = false;
        a.single_quoted_allowed = false;
        a.block_allowed = false;
    }
    if line_breaks {
        a.flow_plain_allowed = false;
        a.block_plain_allowed = false;
    }
    if flow_indicators {
        a.flow_plain_allowed = false;
    }
    if block_indicators {
        a.block_plain_allowed = false;
    }
    a
}

/// The written style: `Single` only arises here, when plain is not allowed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Written {
    Plain,
    Single,
    Double,
    Literal,
}

impl Emitter {
    fn node(&mut self, n: &Node, ctx: Context) {
        self.ctx = ctx;
        match n {
            Node::Scalar(value, style) => self.scalar(value.as_bytes(), *style),
            Node::Sequence(items) if items.is_empty() || self.flow_level > 0 => {
                self.empty_flow(b'[', b']')
            }
            Node::Mapping(pairs) if pairs.is_empty() || self.flow_level > 0 => {
                self.empty_flow(b'{', b'}')
            }
            Node::Sequence(items) => {
                let indentless = self.ctx.mapping && !self.indention;
                self.increase_indent(false, indentless);
                for item in items {
                    self.write_indent();
                    self.write_indicator(b"-", true, false, true);
                    self.node(item, Context::default());
                }
                self.pop_indent();
            }
            Node::Mapping(pairs) => {
                self.increase_indent(false, false);
                for (k, v) in pairs {
                    self.write_indent();
                    let simple = match k {
                        Node::Scalar(s, _) => !analyze(s.as_bytes()).multiline && s.len() <= 128,
                        Node::Sequence(x) => x.is_empty(),
                        Node::Mapping(x) => x.is_empty(),
                    };
                    let value_ctx = Context {
                        mapping: true,
                        ..Context::default()
                    };
                    if simple {
                        self.node(
                            k,
                            Context {
                                mapping: true,
                                simple_key: true,
                            },
                        );
                        self.write_indicator(b":", false, false, false);
                    } else {
                        self.write_indicator(b"?", true, false, true);
                        self.node(k, value_ctx);
                        self.write_indent();
                        self.write_indicator(b":", true, false, true);
                    }
                    self.node(v, value_ctx);
                }
                self.pop_indent();
            }
        }
    }

    fn empty_flow(&mut self, open: u8, close: u8) {
        self.write_indicator(&[open], true, true, false);
        self.increase_indent(true, false);
        self.flow_level += 1;
        self.flow_level -= 1;
        self.pop_indent();
        self.write_indicator(&[close], false, false, false);
    }

    fn increase_indent(&mut self, flow: bool, indentless: bool) {
        self.indents.push(self.indent);
        if self.indent < 0 {
            self.indent = if flow { BEST_INDENT } else { 0 };
        } else if !indentless {
            self.indent += BEST_INDENT;
        }
    }

    fn pop_indent(&mut self) {
        self.indent = self.indents.pop().unwrap_or(-1);
    }

    fn put(&mut self, c: u8) {
        self.out.push(c);
        self.column += 1;
    }

    fn put_break(&mut self) {
        self.out.push(b'\n');
        self.column = 0;
    }

    /// Copies the character at `*i` and moves past it: one column per character.
    fn write(&mut self, s: &[u8], i: &mut usize) {
        let w = width(s[*i]).max(1);
        let end = (*i + w).min(s.len());
        self.out.extend_from_slice(&s[*i..end]);
        self.column += 1;
        *i = end;
    }

    fn write_all(&mut self, s: &[u8]) {
        let mut i = 0;
        while i < s.len() {
            self.write(s, &mut i);
        }
    }

    fn write_break(&mut self, s: &[u8], i: &mut usize) {
        if s[*i] == b'\n' {
            self.put_break();
            *i += 1;
        } else {
            self.write(s, i);
            self.column = 0;
        }
    }

    fn write_indent(&mut self) {
        let indent = self.indent.max(0);
        if !self.indention || self.column > indent || (self.column == indent && !self.whitespace) {
            self.put_break();
        }
        while self.column < indent {
            self.put(b' ');
        }
        self.whitespace = true;
        self.indention = true;
    }

    fn write_indicator(&mut self, ind: &[u8], need_whitespace: bool, is_ws: bool, is_ind: bool) {
        if need_whitespace && !self.whitespace {
            self.put(b' ');
        }
        self.write_all(ind);
        self.whitespace = is_ws;
        self.indention = self.indention && is_ind;
    }

    fn scalar(&mut self, value: &[u8], requested: Style) {
        let a = analyze(value);
        let simple_key = self.ctx.simple_key;
        let mut style = match requested {
            Style::Plain => Written::Plain,
            Style::DoubleQuoted => Written::Double,
            Style::Literal => Written::Literal,
        };
        if simple_key && a.multiline {
            style = Written::Double;
        }
        if style == Written::Plain {
            if (self.flow_level > 0 && !a.flow_plain_allowed)
                || (self.flow_level == 0 && !a.block_plain_allowed)
            {
                style = Written::Single;
            }
            if value.is_empty() && (self.flow_level > 0 || simple_key) {
                style = Written::Single;
            }
        }
        if style == Written::Single && !a.single_quoted_allowed {
            style = Written::Double;
        }
        if style == Written::Literal && (!a.block_allowed || self.flow_level > 0 || simple_key) {
            style = Written::Double;
        }
        self.increase_indent(true, false);
        let allow_breaks = !simple_key;
        match style {
            Written::Plain => self.plain(value, allow_breaks),
            Written::Single => self.single_quoted(value, allow_breaks),
            Written::Double => self.double_quoted(value, allow_breaks),
            Written::Literal => self.literal(value),
        }
        self.pop_indent();
    }

    fn plain(&mut self, value: &[u8], allow_breaks: bool) {
        if !self.whitespace {
            self.put(b' ');
        }
        let (mut spaces, mut breaks) = (false, false);
        let mut i = 0;
        while i < value.len() {
            if is_space(value, i) {
                if allow_breaks && !spaces && self.column > BEST_WIDTH && !is_space(value, i + 1) {
                    self.write_indent();
                    i += 1;
                } else {
                    self.write(value, &mut i);
                }
                spaces = true;
            } else if is_break(value, i) {
                if !breaks && value[i] == b'\n' {
                    self.put_break();
                }
                self.write_break(value, &mut i);
                self.indention = true;
                breaks = true;
            } else {
                if breaks {
                    self.write_indent();
                }
                self.write(value, &mut i);
                self.indention = false;
                spaces = false;
                breaks = false;
            }
        }
        self.whitespace = false;
        self.indention = false;
    }

    fn single_quoted(&mut self, value: &[u8], allow_breaks: bool) {
        self.write_indicator(b"'", true, false, false);
        let (mut spaces, mut breaks) = (false, false);
        let mut i = 0;
        while i < value.len() {
            if is_space(value, i) {
                if allow_breaks
                    && !spaces
                    && self.column > BEST_WIDTH
                    && i > 0
                    && i < value.len() - 1
                    && !is_space(value, i + 1)
                {
                    self.write_indent();
                    i += 1;
                } else {
                    self.write(value, &mut i);
                }
                spaces = true;
            } else if is_break(value, i) {
                if !breaks && value[i] == b'\n' {
                    self.put_break();
                }
                self.write_break(value, &mut i);
                self.indention = true;
                breaks = true;
            } else {
                if breaks {
                    self.write_indent();
                }
                if value[i] == b'\'' {
                    self.put(b'\'');
                }
                self.write(value, &mut i);
                self.indention = false;
                spaces = false;
                breaks = false;
            }
        }
        self.write_indicator(b"'", false, false, false);
        self.whitespace = false;
        self.indention = false;
    }

    fn double_quoted(&mut self, value: &[u8], allow_breaks: bool) {
        const HEX: &[u8; 16] = b"0123456789ABCDEF";
        let mut spaces = false;
        self.write_indicator(b"\"", true, false, false);
        let mut i = 0;
        while i < value.len() {
            if !is_printable(value, i)
                || is_bom(value)
                || is_break(value, i)
                || value[i] == b'"'
                || value[i] == b'\\'
            {
                let w = width(value[i]).max(1);
                let ch = std::str::from_utf8(&value[i..(i + w).min(value.len())])
                    .ok()
                    .and_then(|s| s.chars().next())
                    .map_or(u32::from(value[i]), u32::from);
                i += w;
                self.put(b'\\');
                let esc = match ch {
                    0x00 => Some(b'0'),
                    0x07 => Some(b'a'),
                    0x08 => Some(b'b'),
                    0x09 => Some(b't'),
                    0x0A => Some(b'n'),
                    0x0B => Some(b'v'),
                    0x0C => Some(b'f'),
                    0x0D => Some(b'r'),
                    0x1B => Some(b'e'),
                    0x22 => Some(b'"'),
                    0x5C => Some(b'\\'),
                    0x85 => Some(b'N'),
                    0xA0 => Some(b'_'),
                    0x2028 => Some(b'L'),
                    0x2029 => Some(b'P'),
                    _ => None,
                };
                match esc {
                    Some(c) => self.put(c),
                    None => {
                        let (letter, digits) = if ch <= 0xFF {
                            (b'x', 2)
                        } else if ch <= 0xFFFF {
                            (b'u', 4)
                        } else {
                            (b'U', 8)
                        };
                        self.put(letter);
                        for k in (0..digits).rev() {
                            self.put(HEX[((ch >> (k * 4)) & 0xF) as usize]);
                        }
                    }
                }
                spaces = false;
            } else if is_space(value, i) {
                if allow_breaks
                    && !spaces
                    && self.column > BEST_WIDTH
                    && i > 0
                    && i < value.len() - 1
                {
                    self.write_indent();
                    if is_space(value, i + 1) {
                        self.put(b'\\');
                    }
                    i += 1;
                } else {
                    self.write(value, &mut i);
                }
                spaces = true;
            } else {
                self.write(value, &mut i);
                spaces = false;
            }
        }
        self.write_indicator(b"\"", false, false, false);
        self.whitespace = false;
        self.indention = false;
    }

    fn block_hints(&mut self, value: &[u8]) {
        if is_space(value, 0) || is_break(value, 0) {
            self.write_indicator(&[b'0' + BEST_INDENT as u8], false, false, false);
        }
        let chomp = if value.is_empty() {
            Some(b'-')
        } else {
            let mut i = value.len() - 1;
            while i > 0 && value[i] & 0xC0 == 0x80 {
                i -= 1;
            }
            if !is_break(value, i) {
                Some(b'-')
            } else if i == 0 {
                Some(b'+')
            } else {
                i -= 1;
                while i > 0 && value[i] & 0xC0 == 0x80 {
                    i -= 1;
                }
                is_break(value, i).then_some(b'+')
            }
        };
        if let Some(c) = chomp {
            self.write_indicator(&[c], false, false, false);
        }
    }

    fn literal(&mut self, value: &[u8]) {
        self.write_indicator(b"|", true, false, false);
        self.block_hints(value);
        self.put_break();
        self.indention = true;
        self.whitespace = true;
        let mut breaks = true;
        let mut i = 0;
        while i < value.len() {
            if is_break(value, i) {
                self.write_break(value, &mut i);
                self.indention = true;
                breaks = true;
            } else {
                if breaks {
                    self.write_indent();
                }
                self.write(value, &mut i);
                self.indention = false;
                breaks = false;
            }
        }
    }
}
