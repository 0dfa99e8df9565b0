//! One stored config ready for every client: the body for each spec the MCS serves (2.2 and
//! 3.0 to 3.5), made as the MCS makes it (see [`crate::ignition::render::payload`]), or the
//! reason a spec cannot be served.

use anyhow::{Result, bail};
use bytes::Bytes;

use super::render::payload::Stored;
use super::spec::Spec;

/// A stored config, ready in every spec.
#[derive(Debug, Clone)]
pub struct Variants {
    /// The rendered MachineConfig's name, for an MCS payload.
    pub name: Option<String>,
    /// Index = [`Spec::index`]: the body, or why that spec cannot be served.
    by_spec: Vec<Result<Chunks, String>>,
}

impl Variants {
    /// Reads `bytes` (any 3.x) and prepares every spec. `what` names the file in errors. The
    /// bodies share what they have in common with the body of [`Spec::INTERNAL`]: the specs
    /// 3.x of a config usually differ in their version string alone, so each keeps only the
    /// bytes from its first difference to its last (see [`Chunks::sharing`]); each is made and
    /// cut down before the next, so at most one whole extra body is held at a time.
    pub fn new(bytes: &[u8], what: &str) -> Result<Variants> {
        let stored = Stored::read(bytes, what)?;
        let internal = match stored.serve(Spec::INTERNAL) {
            Ok(b) => Bytes::from(b),
            Err(why) => bail!("{what} cannot be served: {why}"),
        };
        let by_spec: Vec<Result<Chunks, String>> = Spec::ALL
            .iter()
            .map(|&s| match s {
                Spec::INTERNAL => Ok(Chunks::whole(internal.clone())),
                _ => stored.serve(s).map(|b| Chunks::sharing(&internal, b)),
            })
            .collect();
        Ok(Variants {
            name: stored.name().map(str::to_string),
            by_spec,
        })
    }

    /// The body for a client of `spec`, or the reason it cannot have one.
    pub fn get(&self, spec: Spec) -> Result<&Chunks, &str> {
        match &self.by_spec[spec.index()] {
            Ok(b) => Ok(b),
            Err(e) => Err(e),
        }
    }
}

/// How many bytes [`common`] compares at once.
const BLOCK: usize = 4096;

/// How many bytes two bodies, given as blocks of [`BLOCK`] from the end they are compared
/// from, have in common from that end: whole blocks compared as slices, then the first block
/// that differs a byte at a time (`bytes` gives its bytes from that end).
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

/// A response body in at most three pieces, sent one after the other: pieces of another body
/// are shared (reference-counted slices of it), not copied.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Chunks {
    parts: [Bytes; 3],
}

impl Chunks {
    /// One piece.
    pub fn whole(b: Bytes) -> Chunks {
        Chunks {
            parts: [b, Bytes::new(), Bytes::new()],
        }
    }

    /// `body`, keeping only what differs from `base`: the bytes `body` has in common with the
    /// start and the end of `base` are slices of `base`.
    pub fn sharing(base: &Bytes, body: Vec<u8>) -> Chunks {
        let head = common(base.chunks(BLOCK), body.chunks(BLOCK), |b| b.iter());
        // The common end, not reaching back into the common start of either.
        let room = base.len().min(body.len()) - head;
        let tail = common(
            base[base.len() - room..].rchunks(BLOCK),
            body[body.len() - room..].rchunks(BLOCK),
            |b| b.iter().rev(),
        );
        // Mostly different (spec 2.2 has another shape): kept whole, not copied again.
        if head + tail < body.len() / 2 {
            return Chunks::whole(Bytes::from(body));
        }
        Chunks {
            parts: [
                base.slice(..head),
                Bytes::copy_from_slice(&body[head..body.len() - tail]),
                base.slice(base.len() - tail..),
            ],
        }
    }

    /// The body's length.
    pub fn len(&self) -> usize {
        self.parts.iter().map(Bytes::len).sum()
    }

    /// Whether the body is empty.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The pieces that are not empty, in order.
    pub fn parts(&self) -> impl Iterator<Item = &Bytes> {
        self.parts.iter().filter(|p| !p.is_empty())
    }

    /// The pieces, some maybe empty.
    pub fn into_parts(self) -> [Bytes; 3] {
        self.parts
    }

    /// The body in one buffer (a copy when it is in pieces).
    pub fn to_vec(&self) -> Vec<u8> {
        self.parts.concat()
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
    use serde_json::Value;

    #[test]
    fn every_spec_of_a_plain_config() {
        let plain = br#"{"ignition":{"version":"3.4.0"},"storage":{"files":[{"path":"/etc/x","contents":{"source":"data:,x"}}]}}"#;
        let v = Variants::new(plain, "plain").unwrap();
        for spec in Spec::ALL {
            let j: Value = serde_json::from_slice(&v.get(spec).unwrap().to_vec()).unwrap();
            assert_eq!(j["ignition"]["version"], spec.to_string());
        }
        let kargs =
            br#"{"ignition":{"version":"3.3.0"},"kernelArguments":{"shouldExist":["quiet"]}}"#;
        let v = Variants::new(kargs, "kargs").unwrap();
        assert!(v.get(Spec::V3(3)).is_ok() && v.get(Spec::V3(5)).is_ok());
        let e = v.get(Spec::V3(2)).unwrap_err();
        assert!(e.contains("kernelArguments") && e.contains("3.2.0"), "{e}");
    }

    #[test]
    fn variants_share_what_they_have_in_common_and_are_the_same_bytes() {
        let plain = br#"{"ignition":{"version":"3.2.0"},"storage":{"files":[{"path":"/etc/x","contents":{"source":"data:,a%20long%20enough%20file%20to%20share"}}]}}"#;
        let v = Variants::new(plain, "plain").unwrap();
        let stored = Stored::read(plain, "plain").unwrap();
        let internal = v.get(Spec::INTERNAL).unwrap();
        assert_eq!(internal.parts().count(), 1);
        for spec in Spec::ALL {
            let body = v.get(spec).unwrap();
            assert_eq!(body.to_vec(), stored.serve(spec).unwrap(), "{spec}");
            assert_eq!(body.len(), body.to_vec().len());
            if spec != Spec::INTERNAL && spec != Spec::V2_2 {
                let own = body.parts.get(1).map_or(0, Bytes::len);
                assert!(
                    own <= 2,
                    "{spec}: {own} bytes of its own, not only the version"
                );
            }
        }
        let base = Bytes::from_static(b"abcXdef");
        for (body, own) in [
            (&b"abcYdef"[..], &b"Y"[..]),
            (b"abcdef", b""),
            (b"abcXXdef", b"X"),
            (b"", b""),
            (b"abcXdef", b""),
        ] {
            let c = Chunks::sharing(&base, body.to_vec());
            assert_eq!(c.to_vec(), body);
            assert_eq!(&c.parts[1][..], own, "{body:?}");
        }
        let c = Chunks::sharing(&base, b"zzzzzzzzzdef".to_vec());
        assert_eq!(c.parts().count(), 1, "mostly different: one piece, its own");
        assert_eq!(c.to_vec(), b"zzzzzzzzzdef");
        // Across blocks of the comparison: a changed byte, an insertion at a block's edge.
        let big: Vec<u8> = (0..10_000u32).map(|i| (i % 251) as u8).collect();
        let base = Bytes::from(big.clone());
        let mut changed = big.clone();
        changed[5000] = 255;
        let mut inserted = big.clone();
        inserted.splice(8192..8192, [7, 7, 7]);
        for (body, own) in [(changed, 1), (inserted, 3), (big[..9000].to_vec(), 0)] {
            let c = Chunks::sharing(&base, body.clone());
            assert_eq!(c.to_vec(), body);
            assert_eq!(c.parts[1].len(), own);
        }
    }

    #[test]
    fn invalid_config_is_an_error() {
        assert!(Variants::new(b"{}", "x").is_err());
        assert!(Variants::new(br#"{"ignition":{"version":"2.2.0"}}"#, "x").is_err());
    }
}
