//! Byte sizes as people write them: `32MiB`, `64M`, `1G`, `500000`; binary units (`M` is
//! MiB, as `ulimit` and Kubernetes' `Mi` mean it).

/// Parses a size: a number of bytes, optionally followed by `K`, `M`, `G` (with or without
/// `i` and `B`).
pub fn parse(s: &str) -> Result<u64, String> {
    let t = s.trim();
    let split = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
    let (num, unit) = t.split_at(split);
    let n: u64 = num
        .parse()
        .map_err(|_| format!("{s:?} is not a size (e.g. 64MiB, 500K, 1G, 1048576)"))?;
    let shift = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 0,
        "k" | "ki" | "kib" | "kb" => 10,
        "m" | "mi" | "mib" | "mb" => 20,
        "g" | "gi" | "gib" | "gb" => 30,
        _ => return Err(format!("{s:?}: unknown unit {unit:?} (use K, M or G)")),
    };
    n.checked_shl(shift)
        .filter(|v| v >> shift == n)
        .ok_or_else(|| format!("{s:?} is too large"))
}

/// A size for people: `32 MiB`, `512 KiB`, `100 bytes`.
pub fn human(bytes: u64) -> String {
    for (shift, unit) in [(30, "GiB"), (20, "MiB"), (10, "KiB")] {
        if bytes >= 1 << shift && bytes.is_multiple_of(1 << shift) {
            return format!("{} {unit}", bytes >> shift);
        }
    }
    for (shift, unit) in [(30, "GiB"), (20, "MiB"), (10, "KiB")] {
        if bytes >= 1 << shift {
            return format!("{:.1} {unit}", bytes as f64 / (1u64 << shift) as f64);
        }
    }
    format!("{bytes} bytes")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_read_and_print() {
        assert_eq!(parse("64MiB"), Ok(64 << 20));
        assert_eq!(parse("64M"), Ok(64 << 20));
        assert_eq!(parse("2g"), Ok(2 << 30));
        assert_eq!(parse("1048576"), Ok(1 << 20));
        assert_eq!(parse(" 10 KiB "), Ok(10 << 10));
        assert!(parse("1T").is_err());
        assert!(parse("MiB").is_err());
        assert!(parse("99999999999999G").is_err());
        assert_eq!(human(32 << 20), "32 MiB");
        assert_eq!(human(1536), "1.5 KiB");
        assert_eq!(human(100), "100 bytes");
    }
}
