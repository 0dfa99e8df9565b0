//! Storage as Ignition validates it: links against the files and directories they cross,
//! paths shared with systemd units, disks and their partitions, filesystems, LUKS and Tang.

use serde_json::{Map, Value};

use super::path::{check_path, clean};
use super::source::check_url;
use super::{Report, at, is_true, list, non_empty, obj, s};
use crate::ignition::spec::Spec;

pub(super) fn storage(m: &Map<String, Value>, path: &str, r: &mut Report) {
    let links: Vec<&Map<String, Value>> = list(m, "links")
        .iter()
        .filter_map(Value::as_object)
        .collect();
    for (field, msg) in [
        ("directories", "directory path includes link in config"),
        ("files", "file path includes link in config"),
    ] {
        for (i, d) in list(m, field).iter().enumerate() {
            let dp = d.as_object().and_then(|d| s(d, "path")).unwrap_or("");
            for _ in links
                .iter()
                .filter(|l| dp.starts_with(&format!("{}/", s(l, "path").unwrap_or(""))))
            {
                r.error(&format!("{}[{i}]", at(path, field)), msg);
            }
        }
    }
    links_rules(m, path, &links, r);
    filesystems_on_disks(m, path, r);
}

/// Links: none under another link, each with a target; a hard link not to a directory and
/// without owner.
fn links_rules(m: &Map<String, Value>, path: &str, links: &[&Map<String, Value>], r: &mut Report) {
    let dirs: Vec<&str> = list(m, "directories")
        .iter()
        .filter_map(|d| d.as_object().and_then(|d| s(d, "path")))
        .collect();
    for (i, l) in links.iter().enumerate() {
        let here = format!("{}[{i}]", at(path, "links"));
        let lp = s(l, "path").unwrap_or("");
        for l2 in links {
            if lp.starts_with(&format!("{}/", s(l2, "path").unwrap_or(""))) {
                r.error(&here, "link path includes link in config");
            }
        }
        let Some(target) = non_empty(l, "target") else {
            r.error(&format!("{here}.target"), "link target is required");
            continue;
        };
        if !is_true(l, "hard") {
            continue;
        }
        let mut t = clean(&format!("/{target}"));
        if !target.starts_with('/') {
            t = clean(&format!("{lp}/{target}"));
        }
        if dirs.contains(&t.as_str()) {
            r.error(&here, "hard link target is a directory");
        }
        for (who, field) in [
            ("user", "id"),
            ("user", "name"),
            ("group", "id"),
            ("group", "name"),
        ] {
            if obj(l, who).is_some_and(|o| o.contains_key(field)) {
                r.warn(
                    &format!("{here}.{who}.{field}"),
                    "user/group ignored for hard link",
                );
            }
        }
    }
}

/// A filesystem on a disk that is partitioned, or whose table is wiped, is a warning.
fn filesystems_on_disks(m: &Map<String, Value>, path: &str, r: &mut Report) {
    let disks: Vec<&Map<String, Value>> = list(m, "disks")
        .iter()
        .filter_map(Value::as_object)
        .collect();
    for (i, f) in list(m, "filesystems")
        .iter()
        .filter_map(Value::as_object)
        .enumerate()
    {
        let dev = s(f, "device").unwrap_or("");
        if let Some(d) = disks.iter().find(|d| s(d, "device").unwrap_or("") == dev) {
            let here = format!("{}[{i}].device", at(path, "filesystems"));
            if !list(d, "partitions").is_empty() {
                r.warn(&here, "filesystem overwrites partitioned device");
            } else if !is_true(f, "wipeFilesystem") && is_true(d, "wipeTable") {
                r.warn(
                    &here,
                    "device matches disk with wipeTable enabled; filesystem will be wiped",
                );
            }
        }
    }
}

/// Files, directories and links may not sit where a unit or dropin with contents is written.
pub(super) fn config_paths(m: &Map<String, Value>, r: &mut Report) {
    let mut unit_paths = std::collections::HashSet::new();
    for u in list(obj(m, "systemd").unwrap_or(&Map::new()), "units")
        .iter()
        .filter_map(Value::as_object)
    {
        let name = s(u, "name").unwrap_or("");
        if non_empty(u, "contents").is_some() {
            unit_paths.insert(format!("/etc/systemd/system/{name}"));
        }
        for d in list(u, "dropins").iter().filter_map(Value::as_object) {
            if non_empty(d, "contents").is_some() {
                unit_paths.insert(format!(
                    "/etc/systemd/system/{name}.d/{}",
                    s(d, "name").unwrap_or("")
                ));
            }
        }
    }
    let empty = Map::new();
    let st = obj(m, "storage").unwrap_or(&empty);
    for field in ["files", "directories", "links"] {
        for (i, n) in list(st, field).iter().enumerate() {
            if unit_paths.contains(n.as_object().and_then(|n| s(n, "path")).unwrap_or("")) {
                r.error(
                    &format!("storage.{field}[{i}].path"),
                    "path conflicts with systemd unit or dropin",
                );
            }
        }
    }
}

pub(super) fn disk(m: &Map<String, Value>, path: &str, r: &mut Report) {
    let dev = s(m, "device").unwrap_or("");
    let p = |n: &str| at(path, n);
    if dev.is_empty() {
        r.error(&p("device"), "disk device is required");
        return;
    }
    if let Some(e) = check_path(dev) {
        r.error(&p("device"), e);
    }
    let parts: Vec<&Map<String, Value>> = list(m, "partitions")
        .iter()
        .filter_map(Value::as_object)
        .collect();
    let int = |m: &Map<String, Value>, k: &str| m.get(k).and_then(Value::as_i64);
    let mut numbers: Vec<(i64, Vec<usize>)> = Vec::new();
    for (i, part) in parts.iter().enumerate() {
        let n = int(part, "number").unwrap_or(0);
        if n != 0 {
            match numbers.iter_mut().find(|(k, _)| *k == n) {
                Some((_, v)) => v.push(i),
                None => numbers.push((n, vec![i])),
            }
        }
    }
    if let Some((_, v)) = numbers.iter().find(|(_, v)| v.len() > 1) {
        r.error(
            &format!("{}[{}]", p("partitions"), v[1]),
            "partition numbers collide",
        );
    }
    overlaps(&parts, &p("partitions"), r);
    let has_zero = parts.iter().any(|x| int(x, "number").unwrap_or(0) == 0);
    let has_gone = parts
        .iter()
        .any(|x| x.get("shouldExist") == Some(&Value::Bool(false)));
    if has_zero && has_gone {
        r.error(
            &p("partitions"),
            "shouldExist is false for a partition and other partition(s) has start or size 0",
        );
    }
    let mut labels = std::collections::HashSet::new();
    for (i, part) in parts.iter().enumerate() {
        if let Some(l) = s(part, "label")
            && !labels.insert(l)
        {
            r.error(
                &format!("{}[{i}]", p("partitions")),
                "cannot use the same partition label twice",
            );
            break;
        }
    }
}

pub(super) fn partition(m: &Map<String, Value>, path: &str, r: &mut Report) {
    let p = |n: &str| at(path, n);
    if m.get("shouldExist") == Some(&Value::Bool(false))
        && (m.contains_key("label")
            || non_empty(m, "typeGuid").is_some()
            || non_empty(m, "guid").is_some()
            || m.contains_key("startMiB")
            || m.contains_key("sizeMiB"))
    {
        r.error(
            path,
            "shouldExist specified false with other options also specified",
        );
    }
    if m.get("number").and_then(Value::as_i64).unwrap_or(0) == 0 && !m.contains_key("label") {
        r.error(path, "a partition number >= 1 or a label must be specified");
    }
    if let Some(l) = s(m, "label") {
        if l.len() > 36 {
            r.error(&p("label"), "partition labels may not exceed 36 characters");
        } else if l.contains(':') {
            r.error(
                &p("label"),
                "partition label will be truncated to text before the colon",
            );
        }
    }
    for k in ["guid", "typeGuid"] {
        if let Some(g) = s(m, k)
            && !guid(g)
        {
            r.error(
                &p(k),
                "doesn't match the form \"01234567-89AB-CDEF-EDCB-A98765432101\"",
            );
        }
    }
}

fn guid(g: &str) -> bool {
    let parts: Vec<&str> = g.split('-').collect();
    g.is_empty()
        || (parts.iter().map(|x| x.len()).collect::<Vec<_>>() == [8, 4, 4, 4, 12]
            && parts
                .iter()
                .all(|x| x.bytes().all(|b| b.is_ascii_hexdigit())))
}

pub(super) fn filesystem(m: &Map<String, Value>, path: &str, r: &mut Report) {
    let p = |n: &str| at(path, n);
    if let Some(fp) = non_empty(m, "path")
        && let Some(e) = check_path(fp)
    {
        r.error(&p("path"), e);
    }
    if let Some(e) = check_path(s(m, "device").unwrap_or("")) {
        r.error(&p("device"), e);
    }
    let format = non_empty(m, "format");
    match format {
        None => {
            if non_empty(m, "path").is_some()
                || non_empty(m, "label").is_some()
                || non_empty(m, "uuid").is_some()
                || is_true(m, "wipeFilesystem")
                || !list(m, "mountOptions").is_empty()
                || !list(m, "options").is_empty()
            {
                r.error(
                    &p("format"),
                    "format cannot be empty when path, label, uuid, wipeFilesystem, options, or mountOptions is specified",
                );
            }
        }
        Some("ext4" | "btrfs" | "xfs" | "swap" | "vfat" | "none") => {}
        Some(_) => r.error(&p("format"), "invalid filesystem format"),
    }
    if let Some(label) = non_empty(m, "label") {
        let limit = match format {
            None => {
                r.error(
                    &p("label"),
                    "filesystem must specify format if label is specified",
                );
                return;
            }
            Some("ext4") => Some((16, "ext4", 16)),
            Some("btrfs") => Some((256, "btrfs", 256)),
            Some("xfs") => Some((12, "xfs", 12)),
            Some("swap") => Some((15, "swap", 15)),
            Some("vfat") => Some((11, "vfat", 11)),
            _ => None,
        };
        if let Some((max, fs, n)) = limit
            && label.len() > max
        {
            r.error(
                &p("label"),
                format!("filesystem labels cannot be longer than {n} characters when using {fs}"),
            );
        }
    }
}

pub(super) fn luks(m: &Map<String, Value>, path: &str, spec: Spec, r: &mut Report) {
    let p = |n: &str| at(path, n);
    if s(m, "name").unwrap_or("").contains('/') {
        r.error(&p("name"), "device names cannot contain slashes");
    }
    if non_empty(m, "label").is_some_and(|l| l.len() > 47) {
        r.error(
            &p("label"),
            "luks device labels cannot be longer than 47 characters",
        );
    }
    match non_empty(m, "device") {
        None => r.error(&p("device"), "disk device is required"),
        Some(d) => {
            if let Some(e) = check_path(d) {
                r.error(&p("device"), e);
            }
        }
    }
    let empty = Map::new();
    let clevis = obj(m, "clevis").unwrap_or(&empty);
    let custom_pin = obj(clevis, "custom")
        .and_then(|c| non_empty(c, "pin"))
        .is_some();
    let threshold = clevis.get("threshold").and_then(Value::as_i64).unwrap_or(0);
    let others = !list(clevis, "tang").is_empty() || is_true(clevis, "tpm2") || threshold != 0;
    if custom_pin && others {
        r.error(
            &p("clevis"),
            "cannot use custom clevis config with tpm2, tang, or threshold",
        );
    }
    let key_source = obj(m, "keyFile").and_then(|k| non_empty(k, "source"));
    if key_source.is_some_and(|u| check_url(u, spec).is_some()) {
        r.error(&p("keys"), "invalid key-file source");
    }
    let clevis_present = custom_pin || others;
    let cex = obj(m, "cex").is_some_and(|c| is_true(c, "enabled"));
    if clevis_present && cex {
        r.error(&p("cex"), "cannot use cex with clevis");
    }
    if cex && key_source.is_some() {
        r.error(&p("cex"), "cannot use key file with cex");
    }
}

/// Partitions whose extents overlap: the first found is an error, as Ignition reports it.
fn overlaps(parts: &[&Map<String, Value>], at_parts: &str, r: &mut Report) {
    let int = |m: &Map<String, Value>, k: &str| m.get(k).and_then(Value::as_i64);
    let end = |x: &Map<String, Value>| {
        let (start, size) = (
            int(x, "startMiB").unwrap_or(0),
            int(x, "sizeMiB").unwrap_or(0),
        );
        if size == 0 { start } else { start + size - 1 }
    };
    'outer: for (ai, a) in parts.iter().enumerate() {
        let (Some(sa), Some(_)) = (int(a, "startMiB"), int(a, "sizeMiB")) else {
            continue;
        };
        if sa == 0 {
            continue;
        }
        for (i, o) in parts.iter().enumerate() {
            let (Some(so), Some(_)) = (int(o, "startMiB"), int(o, "sizeMiB")) else {
                continue;
            };
            // Go compares the structs, pointers included: only an item equals itself.
            if ai == i || so == 0 {
                continue;
            }
            let (ea, eo) = (end(a), end(o));
            if (sa >= so && sa <= eo) || (ea >= so && ea <= eo) || (sa < so && ea > eo) {
                r.error(&format!("{at_parts}[{i}]"), "partitions overlap");
                break 'outer;
            }
        }
    }
}
