//! Bodies of one config at several specs, sharing their bytes with one body, the *base*.
//!
//! A large config is large because of long strings, nearly always file contents as data
//! URLs, and those are the same at every spec. So the config first gives up its long sources
//! for *holes*, short data URLs standing for them ([`Hollowed::take`]); the base body is then
//! written from it with each hole's source in its place, the source dropped as soon as it is
//! written and its place remembered ([`Hollowed::encode`]), so the config and the base are
//! never both held whole; converting the config to another spec copies nothing large; and
//! writing another spec's body ([`Base::share`]) puts a slice of the base where a hole or
//! another long string the base has is, and compares the bytes in between with the base at
//! the same place, so a body that differs in its version string alone is three pieces.
//!
//! A hole is `data:,mcsctl-hole-<32 hex digits>-<n>`, the n-th source taken: a valid data
//! URL, so the config with holes validates and converts as the config does (conversion looks
//! at a source's scheme, never at its data), and the random tag, new for each base, is not a
//! string a config holds.

use std::collections::HashMap;
use std::hash::{DefaultHasher, Hasher};
use std::ops::Range;

use bytes::Bytes;
use serde_json::Value;

use super::chunks::Chunks;
use super::spec::Config;
use super::spec::typed::Sink;
use crate::golang::json::push_str;

/// Strings this long (in bytes) or longer are shared, not copied.
pub const LONG: usize = 4096;

/// Bodies this long or shorter are one piece of their own, not pieces of the base: each piece
/// is a frame hyper takes and queues apart (about 300 instructions a piece a request, a tenth
/// of what serve itself spends on a small config), and sharing would save at most this much
/// per spec.
pub const JOINED: usize = 4 * LONG;

/// The base body and where its long strings are.
#[derive(Debug)]
pub struct Base {
    body: Bytes,
    /// Hash of a long string's bytes as written (quotes included) → where they are.
    index: HashMap<u64, Range<usize>>,
    /// What a hole starts with (`data:,mcsctl-hole-<tag>-`), when the OS gave a random tag.
    hole: Option<String>,
    /// Where the n-th hole's source is in the body.
    holes: Vec<Range<usize>>,
}

fn hash(b: &[u8]) -> u64 {
    let mut h = DefaultHasher::new();
    h.write(b);
    h.finish()
}

/// The long sources a config gave up ([`Hollowed::take`]), until the base is written.
#[derive(Debug)]
pub struct Hollowed {
    /// What its holes start with; `None` (no random tag) took nothing.
    prefix: Option<String>,
    /// The n-th hole's source.
    taken: Vec<String>,
}

/// The n-th hole's number, when `s` is a hole with `prefix`.
fn hole_number(prefix: Option<&str>, s: &str) -> Option<usize> {
    s.strip_prefix(prefix?)?.parse().ok()
}

/// Writes the base body, putting back the holes' sources and remembering its long strings.
struct Recorder {
    out: Vec<u8>,
    index: HashMap<u64, Range<usize>>,
    taken: Hollowed,
    /// Where the n-th hole's source was written.
    holes: Vec<Option<Range<usize>>>,
    /// Bytes of sources dropped since the heap last gave its free pages back.
    dropped: usize,
}

/// How many bytes of sources are dropped between two [`crate::heap::give_back`]s: sources
/// small enough to live inside the heap give nothing back by being freed alone. A config
/// smaller than this frees too little to be worth a walk of the heap.
pub const GIVE_BACK: usize = 64 << 20;

impl Sink for Recorder {
    fn buf(&mut self) -> &mut Vec<u8> {
        &mut self.out
    }

    fn string(&mut self, s: &str) {
        let start = self.out.len();
        let n = hole_number(self.taken.prefix.as_deref(), s)
            .filter(|&n| self.holes.get(n).is_some_and(|h| h.is_none()));
        let Some(n) = n else {
            push_str(&mut self.out, s);
            if s.len() >= LONG {
                self.record(start);
            }
            return;
        };
        // Written once, then dropped: the config's bytes move into the body.
        let source = std::mem::take(&mut self.taken.taken[n]);
        push_str(&mut self.out, &source);
        self.dropped += source.len();
        drop(source);
        if self.dropped >= GIVE_BACK {
            crate::heap::give_back();
            self.dropped = 0;
        }
        self.holes[n] = Some(start..self.out.len());
        self.record(start);
    }
}

impl Recorder {
    /// Indexes the long string written from `start` on.
    fn record(&mut self, start: usize) {
        let h = hash(&self.out[start..]);
        self.index.entry(h).or_insert(start..self.out.len());
    }
}

impl Hollowed {
    /// Takes every long data-URL source out of `cfg`, leaving a hole in its place, for
    /// [`Hollowed::encode`] to write the base from. The config then converts and validates as
    /// before, copying nothing large, and serves only as what [`Base::share`] writes other
    /// specs from.
    pub fn take(cfg: &mut Config) -> Hollowed {
        let mut tag = [0u8; 16];
        let prefix = aws_lc_rs::rand::fill(&mut tag).ok().map(|()| {
            let hex = crate::hex::encode(tag.as_ref());
            format!("data:,mcsctl-hole-{hex}-")
        });
        let mut taken = Vec::new();
        let Some(prefix) = prefix else {
            return Hollowed { prefix, taken };
        };
        let mut stack = vec![&mut cfg.value];
        while let Some(v) = stack.pop() {
            match v {
                Value::Object(m) => {
                    for (k, x) in m.iter_mut() {
                        match x {
                            Value::String(s) if k == "source" => {
                                if s.len() >= LONG && s.starts_with("data:") {
                                    let hole = format!("{prefix}{}", taken.len());
                                    taken.push(std::mem::replace(s, hole));
                                }
                            }
                            _ => stack.push(x),
                        }
                    }
                }
                Value::Array(a) => stack.extend(a.iter_mut()),
                _ => {}
            }
        }
        Hollowed {
            prefix: Some(prefix),
            taken,
        }
    }

    /// The base body: `cfg` (the hollowed config or one made from it) written with each of
    /// its holes' sources in place. Every source taken must be written exactly once; one that
    /// was not (a hole `cfg` lost) is an error, never a hole served as data.
    pub fn encode(self, cfg: &Config) -> Result<Base, String> {
        let holes = vec![None; self.taken.len()];
        let mut r = Recorder {
            out: Vec::new(),
            index: HashMap::new(),
            taken: self,
            holes,
            dropped: 0,
        };
        cfg.encode_into(&mut r);
        let holes: Option<Vec<Range<usize>>> = r.holes.into_iter().collect();
        let holes = holes.ok_or("a long file source was not written into the body")?;
        Ok(Base {
            body: Bytes::from(r.out),
            index: r.index,
            hole: r.taken.prefix,
            holes,
        })
    }
}

impl Base {
    /// The base body.
    pub fn body(&self) -> &Bytes {
        &self.body
    }

    /// Where the base has `written` (a string as written, quotes included).
    fn find(&self, written: &[u8]) -> Option<Range<usize>> {
        let r = self.index.get(&hash(written))?;
        (&self.body[r.clone()] == written).then(|| r.clone())
    }

    /// The range a hole names, when `s` is one of this base's holes.
    fn hole_at(&self, s: &str) -> Option<Range<usize>> {
        self.holes
            .get(hole_number(self.hole.as_deref(), s)?)
            .cloned()
    }

    /// `cfg`'s body (a conversion of the hollowed config), sharing with the base when it is
    /// longer than [`JOINED`].
    pub fn share(&self, cfg: &Config) -> Chunks {
        let mut w = Writer {
            base: self,
            pieces: Vec::new(),
            lit: Vec::new(),
            anchor: 0,
            scratch: Vec::new(),
        };
        cfg.encode_into(&mut w);
        w.flush(self.body.len());
        let parts = w
            .pieces
            .into_iter()
            .map(|p| match p {
                Piece::Shared(r) => self.body.slice(r),
                Piece::Own(v) => Bytes::from(v),
            })
            .collect();
        let body = Chunks::from_parts(parts);
        if body.len() <= JOINED && body.parts().len() > 1 {
            return Chunks::whole(Bytes::from(body.to_vec()));
        }
        body
    }
}

/// A piece of a body being written.
#[derive(Debug)]
enum Piece {
    /// Bytes of the base.
    Shared(Range<usize>),
    /// Bytes of its own.
    Own(Vec<u8>),
}

/// Writes a body in pieces (see [`Base::share`]).
struct Writer<'a> {
    base: &'a Base,
    pieces: Vec<Piece>,
    /// What was written since the last shared string.
    lit: Vec<u8>,
    /// Where in the base the last shared string ended: where `lit` would start if it were the
    /// base's.
    anchor: usize,
    scratch: Vec<u8>,
}

impl Sink for Writer<'_> {
    fn buf(&mut self) -> &mut Vec<u8> {
        &mut self.lit
    }

    fn string(&mut self, s: &str) {
        if let Some(r) = self.base.hole_at(s) {
            return self.shared(r);
        }
        if s.len() < LONG {
            return push_str(&mut self.lit, s);
        }
        self.scratch.clear();
        push_str(&mut self.scratch, s);
        match self.base.find(&self.scratch) {
            Some(r) => self.shared(r),
            None => self.lit.extend_from_slice(&self.scratch),
        }
    }
}

impl Writer<'_> {
    /// A string the base has at `r`, or also where it would be if what was written since the
    /// last shared string were the base's (a string a config holds twice is found at its first
    /// place).
    fn shared(&mut self, mut r: Range<usize>) {
        let here = self.anchor + self.lit.len();
        let body = &self.base.body;
        if here != r.start && body.get(here..here + r.len()) == Some(&body[r.clone()]) {
            r = here..here + r.len();
        }
        self.flush(r.start);
        self.anchor = r.end;
        self.push(Piece::Shared(r));
    }

    /// Ends the bytes written since the last shared string, which lie where the base has
    /// `anchor..end` if the two agree there: what they have in common at the start and at the
    /// end is shared, the rest copied. Mostly different bytes are kept whole.
    fn flush(&mut self, end: usize) {
        let lit = std::mem::take(&mut self.lit);
        let window = match self.base.body.get(self.anchor..end) {
            Some(w) => w,
            None => &[],
        };
        let n = lit.len();
        let head = common(window.chunks(BLOCK), lit.chunks(BLOCK), |b| b.iter());
        let room = window.len().min(n) - head;
        let tail = common(
            window[window.len() - room..].rchunks(BLOCK),
            lit[n - room..].rchunks(BLOCK),
            |b| b.iter().rev(),
        );
        if head + tail < n / 2 || n == 0 {
            return self.push(Piece::Own(lit));
        }
        let (a, e) = (self.anchor, self.anchor + window.len());
        self.push(Piece::Shared(a..a + head));
        self.push(Piece::Own(lit[head..n - tail].to_vec()));
        self.push(Piece::Shared(e - tail..e));
    }

    /// Adds a piece, joined to the one before when they are contiguous in the base or both
    /// its own.
    fn push(&mut self, p: Piece) {
        match (self.pieces.last_mut(), p) {
            (_, Piece::Shared(r)) if r.is_empty() => {}
            (_, Piece::Own(v)) if v.is_empty() => {}
            (Some(Piece::Shared(prev)), Piece::Shared(r)) if prev.end == r.start => {
                prev.end = r.end
            }
            (Some(Piece::Own(prev)), Piece::Own(v)) => prev.extend_from_slice(&v),
            (_, p) => self.pieces.push(p),
        }
    }
}

/// How many bytes [`common`] compares at once.
const BLOCK: usize = 4096;

/// How many bytes two byte strings, given as blocks of [`BLOCK`] from the end they are
/// compared from, have in common from that end: whole blocks compared as slices, then the first
/// block that differs a byte at a time (`bytes` gives its bytes from that end).
fn common<'a, I: Iterator<Item = &'a u8>>(
    a: impl Iterator<Item = &'a [u8]>,
    b: impl Iterator<Item = &'a [u8]>,
    bytes: impl Fn(&'a [u8]) -> I,
) -> usize {
    let mut n = 0;
    for (x, y) in a.zip(b) {
        if x == y {
            n += x.len();
            continue;
        }
        return n + bytes(x).zip(bytes(y)).take_while(|(p, q)| p == q).count();
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// `body` written as the bytes between two shared strings that lie where the base has
    /// all of `base`: the pieces, and the bytes of its own.
    fn written(base: &[u8], body: &[u8]) -> (Vec<u8>, Vec<u8>, usize) {
        let base = Base {
            body: Bytes::copy_from_slice(base),
            index: HashMap::new(),
            hole: None,
            holes: Vec::new(),
        };
        let mut w = Writer {
            base: &base,
            pieces: Vec::new(),
            lit: body.to_vec(),
            anchor: 0,
            scratch: Vec::new(),
        };
        w.flush(base.body.len());
        let (mut all, mut own) = (Vec::new(), Vec::new());
        for p in &w.pieces {
            match p {
                Piece::Shared(r) => all.extend_from_slice(&base.body[r.clone()]),
                Piece::Own(v) => {
                    all.extend_from_slice(v);
                    own.extend_from_slice(v);
                }
            }
        }
        (all, own, w.pieces.len())
    }

    #[test]
    fn bytes_between_shared_strings_share_their_common_start_and_end() {
        for (body, own) in [
            (&b"abcYdef"[..], &b"Y"[..]),
            (b"abcdef", b""),
            (b"abcXXdef", b"X"),
            (b"", b""),
            (b"abcXdef", b""),
        ] {
            let (all, got, _) = written(b"abcXdef", body);
            assert_eq!((&all[..], &got[..]), (body, own), "{body:?}");
        }
        let (all, own, pieces) = written(b"abcXdef", b"zzzzzzzzzdef");
        assert_eq!(
            (&all[..], &own[..], pieces),
            (&b"zzzzzzzzzdef"[..], &all[..], 1)
        );
        // Across blocks of the comparison: a changed byte, an insertion at a block's edge.
        let big: Vec<u8> = (0..10_000u32).map(|i| (i % 251) as u8).collect();
        let mut changed = big.clone();
        changed[5000] = 255;
        let mut inserted = big.clone();
        inserted.splice(8192..8192, [7, 7, 7]);
        for (body, own) in [(changed, 1), (inserted, 3), (big[..9000].to_vec(), 0)] {
            let (all, got, _) = written(&big, &body);
            assert_eq!(all, body);
            assert_eq!(got.len(), own);
        }
    }

    #[test]
    fn taking_leaves_holes_where_the_long_sources_were() {
        let long = |c: &str| format!("data:,{}", c.repeat(LONG));
        let unit = format!("[Unit]\n{}", "Description=x\n".repeat(LONG / 8));
        let v = json!({"ignition": {"version": "3.5.0", "config": {"merge": [{"source": long("m")}]}},
            "storage": {"files": [
                {"path": "/a", "contents": {"source": long("a")}},
                {"path": "/b", "contents": {"source": "data:,short"}},
                {"path": "/c", "append": [{"source": long("a")}]}]},
            "systemd": {"units": [{"name": "u.service", "contents": unit}]}});
        let mut cfg = Config::decode(v).unwrap().0;
        let whole = cfg.to_json();
        let taken = Hollowed::take(&mut cfg);
        assert_eq!(taken.taken.len(), 3);
        let text = String::from_utf8(cfg.to_json()).unwrap();
        assert!(!text.contains(&"a".repeat(LONG)) && !text.contains(&"m".repeat(LONG)));
        assert!(
            text.contains(&"Description=x\\n".repeat(LONG / 8)),
            "only sources are hollowed"
        );
        assert_eq!(text.matches("data:,mcsctl-hole-").count(), 3);
        let r = crate::ignition::spec::validate::validate(&cfg);
        assert!(r.errors.is_empty(), "{:?}", r.errors);
        // The base is the config as it was; the holes are written back as the base's bytes.
        let base = taken.encode(&cfg).unwrap();
        assert_eq!(&base.body[..], &whole[..]);
        assert_eq!(base.share(&cfg).to_vec(), whole);
        // Another base's holes are strings like any other.
        let mut again = cfg.clone();
        let other = Hollowed::take(&mut again).encode(&again).unwrap();
        assert_ne!(other.hole, base.hole);
        assert_eq!(other.share(&cfg).to_vec(), cfg.to_json());
    }

    #[test]
    fn a_hole_the_config_lost_is_an_error_not_data() {
        let long = format!("data:,{}", "a".repeat(LONG));
        let v = json!({"ignition": {"version": "3.5.0"}, "storage": {"files": [
            {"path": "/a", "contents": {"source": long}}]}});
        let mut cfg = Config::decode(v).unwrap().0;
        let taken = Hollowed::take(&mut cfg);
        let empty = Config::decode(json!({"ignition": {"version": "3.5.0"}}))
            .unwrap()
            .0;
        let e = taken.encode(&empty).unwrap_err();
        assert_eq!(e, "a long file source was not written into the body");
    }
}
