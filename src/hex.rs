//! Lower-case hexadecimal, the one encoder: digests in the token store's published form, key
//! ids, the rendered config's hash. Table-driven: publishing 100,000 tokens encodes 3.2 million
//! bytes, which `format!("{:02x}")` per byte made the larger part of a reload.

const DIGITS: &[u8; 16] = b"0123456789abcdef";

/// `bytes` as lower-case hex.
pub fn encode(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        out.push(DIGITS[usize::from(b >> 4)] as char);
        out.push(DIGITS[usize::from(b & 15)] as char);
    }
    out
}

/// The 32 bytes written as 64 hex digits (either case); `None` for anything else.
pub fn decode32(text: &str) -> Option<[u8; 32]> {
    let t = text.as_bytes();
    if t.len() != 64 {
        return None;
    }
    let digit = |c: u8| (c as char).to_digit(16).map(|d| d as u8);
    let mut out = [0u8; 32];
    for (i, o) in out.iter_mut().enumerate() {
        *o = digit(t[2 * i])? << 4 | digit(t[2 * i + 1])?;
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_and_refuses_what_is_not_hex() {
        let b: Vec<u8> = (0..=255).collect();
        let text = encode(&b);
        let slow: String = b.iter().map(|x| format!("{x:02x}")).collect();
        assert_eq!(text, slow);
        let d: [u8; 32] = std::array::from_fn(|i| (i * 7 + 3) as u8);
        assert_eq!(decode32(&encode(&d)), Some(d));
        assert_eq!(decode32(&encode(&d).to_uppercase()), Some(d));
        assert_eq!(decode32(&encode(&d[..31])), None);
        assert_eq!(decode32(&"zz".repeat(32)), None);
        assert_eq!(decode32(&format!("+{}", &encode(&d)[1..])), None);
    }
}
