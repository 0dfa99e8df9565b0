//! The libyaml emitter as go-yaml v2 (emitterc.go) runs it for `Marshal`: block mappings and
//! sequences (a sequence that is a mapping's value is not indented), empty collections in
//! flow style, two-space indents, plain and quoted scalars folded at 80 columns, and each
//! scalar's requested style checked against what its characters allow. Only what `Marshal`
//! produces is here: no anchors, tags, flow collections with items, or folded scalars.

use super::{Node, Style};

mod analyze;
mod scalar;

use analyze::{analyze, width};

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
}
