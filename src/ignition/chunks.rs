//! A response body in pieces: pieces of another body are shared (reference-counted slices of
//! it), not copied. A body served to many clients is cloned per request by reference counts
//! alone.

use std::sync::Arc;

use bytes::Bytes;

/// A body in one piece or many, none of them empty.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Chunks {
    parts: Parts,
    len: usize,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Parts {
    One(Bytes),
    Many(Arc<[Bytes]>),
}

impl Default for Parts {
    fn default() -> Parts {
        Parts::One(Bytes::new())
    }
}

impl Chunks {
    /// One piece.
    pub fn whole(b: Bytes) -> Chunks {
        Chunks {
            len: b.len(),
            parts: Parts::One(b),
        }
    }

    /// The pieces in order; empty ones are left out.
    pub fn from_parts(parts: Vec<Bytes>) -> Chunks {
        let mut parts: Vec<Bytes> = parts.into_iter().filter(|p| !p.is_empty()).collect();
        if parts.len() <= 1 {
            return Chunks::whole(parts.pop().unwrap_or_default());
        }
        Chunks {
            len: parts.iter().map(Bytes::len).sum(),
            parts: Parts::Many(parts.into()),
        }
    }

    /// The body's length.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the body is empty.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The pieces, in order (none when the body is empty).
    pub fn parts(&self) -> &[Bytes] {
        match &self.parts {
            Parts::One(b) if b.is_empty() => &[],
            Parts::One(b) => std::slice::from_ref(b),
            Parts::Many(p) => p,
        }
    }

    /// Piece `i` as a handle of its own: a body in one piece gives its piece up (no reference
    /// count taken), one in many shares it.
    pub fn take(&mut self, i: usize) -> Option<Bytes> {
        match &mut self.parts {
            Parts::One(b) if i == 0 && !b.is_empty() => Some(std::mem::take(b)),
            Parts::One(_) => None,
            Parts::Many(p) => p.get(i).cloned(),
        }
    }

    /// The body in one buffer (a copy when it is in pieces).
    pub fn to_vec(&self) -> Vec<u8> {
        self.parts().concat()
    }
}

impl From<Bytes> for Chunks {
    fn from(b: Bytes) -> Chunks {
        Chunks::whole(b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pieces_without_empty_ones() {
        let c = Chunks::from_parts(vec![
            Bytes::from_static(b"ab"),
            Bytes::new(),
            Bytes::from_static(b"c"),
        ]);
        assert_eq!(
            (c.len(), c.parts().len(), c.to_vec()),
            (3, 2, b"abc".to_vec())
        );
        let one = Chunks::from_parts(vec![Bytes::new(), Bytes::from_static(b"x")]);
        assert_eq!(one, Chunks::whole(Bytes::from_static(b"x")));
        let none = Chunks::from_parts(Vec::new());
        assert!(none.is_empty() && none.parts().is_empty());
        let mut c2 = c.clone();
        assert_eq!(c2.take(1).as_deref(), Some(&b"c"[..]));
        assert_eq!(c2.take(2), None);
        let mut w = Chunks::whole(Bytes::from_static(b"w"));
        assert_eq!(w.take(0).as_deref(), Some(&b"w"[..]));
        assert_eq!(w.take(0), None, "a whole body gives its piece up once");
        assert!(Chunks::whole(Bytes::new()).clone().take(0).is_none());
    }
}
