//! systemd unit contents as Ignition's validator reads them: coreos/go-systemd's
//! `unit.Deserialize`, whose errors make Ignition (and so the MCO) refuse a config. Its
//! quirks are kept: anything before the first section that is not `[` or a comment is
//! skipped, an option name running into the end of the text is an error ("EOF"), a
//! backslash continues a value, and a line is "too long" when 2048 bytes with no line break
//! sit in its 4096-byte read buffer at the start of a step.

/// The unit types Ignition accepts (`validateUnitExtension`, the same in spec 2.x and 3.x).
pub const EXTENSIONS: [&str; 12] = [
    ".service",
    ".socket",
    ".device",
    ".mount",
    ".automount",
    ".swap",
    ".target",
    ".path",
    ".timer",
    ".snapshot",
    ".slice",
    ".scope",
];

/// One `Name=Value` and the section it is in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnitOption {
    /// The section name, as written between the brackets.
    pub section: String,
    /// The option name.
    pub name: String,
    /// The value, continuation lines joined with `\n`.
    pub value: String,
}

const LINE_MAX: usize = 2048;
const BUF_SIZE: usize = 4096;

/// The options of `contents`, or go-systemd's error text.
pub fn deserialize(contents: &str) -> Result<Vec<UnitOption>, String> {
    let mut l = Lexer {
        buf: Reader {
            s: contents.as_bytes(),
            r: 0,
            w: 0,
            eof: false,
            last_rune: 0,
        },
        options: Vec::new(),
    };
    let mut next = Step::NextSection;
    loop {
        if l.buf.w - l.buf.r >= LINE_MAX {
            let window = &l.buf.s[l.buf.r..l.buf.r + LINE_MAX];
            if !window.iter().any(|&b| b == b'\r' || b == b'\n') {
                return Err(format!("line too long (max {LINE_MAX} bytes)"));
            }
        }
        next = match l.step(next)? {
            Some(s) => s,
            None => return Ok(l.options),
        };
    }
}

enum Step {
    NextSection,
    SectionName,
    SectionSuffix(String),
    IgnoreLine(Box<Step>),
    NextSectionOrOption(String),
    OptionName(String),
    OptionValue(String, String, Vec<u8>),
}

struct Lexer<'a> {
    buf: Reader<'a>,
    options: Vec<UnitOption>,
}

impl Lexer<'_> {
    fn step(&mut self, step: Step) -> Result<Option<Step>, String> {
        Ok(Some(match step {
            Step::NextSection => match self.buf.read_rune() {
                None => return Ok(None),
                Some('[') => Step::SectionName,
                Some('#' | ';') => Step::IgnoreLine(Box::new(Step::NextSection)),
                Some(_) => Step::NextSection,
            },
            Step::SectionName => {
                let (sec, found) = self.buf.read_bytes(b']');
                if !found {
                    return Err("unable to find end of section".into());
                }
                Step::SectionSuffix(String::from_utf8_lossy(&sec[..sec.len() - 1]).into_owned())
            }
            Step::SectionSuffix(section) => {
                let (garbage, _) = self.line();
                let garbage = String::from_utf8_lossy(&garbage);
                let garbage = garbage.trim();
                if !garbage.is_empty() {
                    // go-systemd names its never-set `l.section` field here: always empty.
                    return Err(format!(
                        "found garbage after section name : {}",
                        go_quote(garbage)
                    ));
                }
                Step::NextSectionOrOption(section)
            }
            Step::IgnoreLine(next) => {
                loop {
                    let (line, _) = self.line();
                    let line = line.strip_suffix(b" ").unwrap_or(&line);
                    if !line.ends_with(b"\\") {
                        break;
                    }
                }
                *next
            }
            Step::NextSectionOrOption(section) => match self.buf.read_rune() {
                None => return Ok(None),
                Some(c) if go_is_space(c) => Step::NextSectionOrOption(section),
                Some('[') => Step::SectionName,
                Some('#' | ';') => Step::IgnoreLine(Box::new(Step::NextSectionOrOption(section))),
                Some(_) => {
                    self.buf.unread_rune();
                    Step::OptionName(section)
                }
            },
            Step::OptionName(section) => self.option_name(section)?,
            Step::OptionValue(section, name, partial) => {
                return self.option_value(section, name, partial);
            }
        }))
    }

    /// An option's name, up to `=`.
    fn option_name(&mut self, section: String) -> Result<Step, String> {
        let mut name = String::new();
        loop {
            match self.buf.read_rune() {
                None => return Err("EOF".into()),
                Some('\n' | '\r') => {
                    return Err("unexpected newline encountered while parsing option name".into());
                }
                Some('=') => break,
                Some(c) => name.push(c),
            }
        }
        Ok(Step::OptionValue(
            section,
            name.trim().to_string(),
            Vec::new(),
        ))
    }

    /// An option's value; a line ending in `\\` continues it.
    fn option_value(
        &mut self,
        section: String,
        name: String,
        mut partial: Vec<u8>,
    ) -> Result<Option<Step>, String> {
        let (line, eof) = self.line();
        if !line.trim_ascii().is_empty() {
            partial.extend_from_slice(&line);
            if line.ends_with(b"\\") {
                if !eof {
                    partial.push(b'\n');
                }
                return Ok(Some(Step::OptionValue(section, name, partial)));
            }
        }
        let val = String::from_utf8_lossy(&partial);
        let value = if val.ends_with('\n') {
            format!("{}\n", val.trim())
        } else {
            val.trim().to_string()
        };
        self.options.push(UnitOption {
            section: section.clone(),
            name,
            value,
        });
        Ok(Some(Step::NextSectionOrOption(section)))
    }

    /// A line without its `\n` (and a `\r` before it), and whether the text ended.
    fn line(&mut self) -> (Vec<u8>, bool) {
        let (mut line, found) = self.buf.read_bytes(b'\n');
        if line.last() == Some(&b'\n') {
            line.pop();
        }
        if line.last() == Some(&b'\r') {
            line.pop();
        }
        (line, !found)
    }
}

/// Go's `unicode.IsSpace`.
fn go_is_space(c: char) -> bool {
    matches!(
        c,
        '\t' | '\n' | '\u{b}' | '\u{c}' | '\r' | ' ' | '\u{85}' | '\u{a0}'
    ) || (c > '\u{ff}' && c.is_whitespace())
}

/// `%q` for a string of printable characters.
fn go_quote(s: &str) -> String {
    format!("{s:?}")
}

/// A `bufio.Reader` of 4096 bytes over the whole text: only where the buffer's window ends
/// matters (for the line-length check), so offsets stand in for the buffer itself.
struct Reader<'a> {
    s: &'a [u8],
    /// Read position.
    r: usize,
    /// End of the buffered bytes.
    w: usize,
    eof: bool,
    last_rune: usize,
}

impl Reader<'_> {
    fn fill(&mut self) {
        if self.w == self.s.len() {
            self.eof = true;
        } else {
            self.w = (self.r + BUF_SIZE).min(self.s.len());
        }
    }

    fn read_rune(&mut self) -> Option<char> {
        while self.r + 4 > self.w
            && !full_rune(&self.s[self.r..self.w])
            && !self.eof
            && self.w - self.r < BUF_SIZE
        {
            self.fill();
        }
        self.eof = false;
        if self.r == self.w {
            return None;
        }
        let rest = &self.s[self.r..self.w];
        let (c, size) = match std::str::from_utf8(&rest[..rest.len().min(4)]) {
            Ok(s) => s.chars().next().map(|c| (c, c.len_utf8())),
            Err(e) if e.valid_up_to() > 0 => std::str::from_utf8(&rest[..e.valid_up_to()])
                .ok()
                .and_then(|s| s.chars().next())
                .map(|c| (c, c.len_utf8())),
            Err(_) => None,
        }
        .unwrap_or(('\u{fffd}', 1));
        self.r += size;
        self.last_rune = size;
        Some(c)
    }

    fn unread_rune(&mut self) {
        self.r -= self.last_rune;
        self.last_rune = 0;
    }

    /// `ReadBytes(delim)`: the bytes up to and including `delim`, and whether it was found.
    fn read_bytes(&mut self, delim: u8) -> (Vec<u8>, bool) {
        let start = self.r;
        loop {
            if let Some(i) = self.s[self.r..self.w].iter().position(|&b| b == delim) {
                self.r += i + 1;
                return (self.s[start..self.r].to_vec(), true);
            }
            if self.eof {
                self.eof = false;
                self.r = self.w;
                return (self.s[start..self.r].to_vec(), false);
            }
            if self.w - self.r >= BUF_SIZE {
                // Buffer full: the bytes so far are kept and reading goes on.
                self.r = self.w;
            }
            self.fill();
        }
    }
}

fn full_rune(b: &[u8]) -> bool {
    match b.first() {
        None => false,
        Some(&c) if c < 0x80 => true,
        Some(&c) => {
            let need = if c & 0xE0 == 0xC0 {
                2
            } else if c & 0xF0 == 0xE0 {
                3
            } else if c & 0xF8 == 0xF0 {
                4
            } else {
                1
            };
            b.len() >= need
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(c: &str) -> Vec<(String, String, String)> {
        deserialize(c)
            .unwrap()
            .into_iter()
            .map(|o| (o.section, o.name, o.value))
            .collect()
    }

    #[test]
    fn reads_sections_options_and_continuations() {
        let got = names(
            "junk\n[Unit]\nDescription = a b \n# c\n[Service]\nExecStart=/bin/x \\\n  --y\n\n[Install]\nWantedBy=multi-user.target",
        );
        let o = |s: &str, n: &str, v: &str| (s.to_string(), n.to_string(), v.to_string());
        assert_eq!(
            got,
            [
                o("Unit", "Description", "a b"),
                o("Service", "ExecStart", "/bin/x \\\n  --y"),
                o("Install", "WantedBy", "multi-user.target"),
            ]
        );
        assert!(names("").is_empty());
    }

    #[test]
    fn errors_as_go_systemd_words_them() {
        assert_eq!(
            deserialize("[Unit").unwrap_err(),
            "unable to find end of section"
        );
        assert_eq!(
            deserialize("[Unit] x\n").unwrap_err(),
            "found garbage after section name : \"x\""
        );
        assert_eq!(deserialize("[Unit]\nFoo").unwrap_err(), "EOF");
        assert_eq!(
            deserialize("[Unit]\nFoo\nBar=1").unwrap_err(),
            "unexpected newline encountered while parsing option name"
        );
        let long = format!("[Service]\nExecStart={}\n", "x".repeat(3000));
        assert_eq!(
            deserialize(&long).unwrap_err(),
            "line too long (max 2048 bytes)"
        );
        // A long line in a short text is not seen by the check.
        assert!(deserialize(&format!("[Service]\nX={}", "y".repeat(2030))).is_ok());
    }
}
