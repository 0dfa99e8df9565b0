//! Ignition's paths: `validatePath` (absolute and clean, what every file, directory, link,
//! device and mount path is checked against) and Go's `path.Clean`, which it compares with.
//! Apart from the rules that use them, so that `rules` and `storage` share them from below.

/// `validatePath`: absolute and clean.
pub(super) fn check_path(p: &str) -> Option<&'static str> {
    if p.is_empty() {
        Some("path not specified")
    } else if !p.starts_with('/') {
        Some("path not absolute")
    } else if clean(p) != p {
        Some("path is not fully simplified")
    } else {
        None
    }
}

/// Go's `path.Clean` for an absolute path.
pub fn clean(p: &str) -> String {
    let mut parts: Vec<&str> = Vec::new();
    for seg in p.split('/') {
        match seg {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            s => parts.push(s),
        }
    }
    format!("/{}", parts.join("/"))
}
