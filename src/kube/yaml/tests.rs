use super::*;
use serde_json::json;

fn one(text: &str) -> Value {
    documents(text, "t").unwrap().remove(0).value
}

/// The classic "billion laughs": nine levels of nine aliases, a few hundred bytes.
pub fn alias_bomb() -> String {
    let mut t = String::from(
        "a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n",
    );
    let names = ["a", "b", "c", "d", "e", "f", "g", "h", "i"];
    for w in names.windows(2) {
        let refs = vec![format!("*{}", w[0]); 9].join(",");
        t.push_str(&format!("{}: &{} [{refs}]\n", w[1], w[1]));
    }
    t
}

#[test]
fn an_alias_bomb_is_refused_before_it_expands() {
    let bomb = alias_bomb();
    assert!(bomb.len() < 600, "{}", bomb.len());
    let start = std::time::Instant::now();
    let e = documents(&bomb, "bomb.yaml").unwrap_err().to_string();
    assert!(
        e.starts_with("bomb.yaml: line ") && e.contains("excessive aliasing"),
        "{e}"
    );
    // Refused while small: the counts in the message stay near go-yaml's thresholds.
    let nodes: u64 = e
        .split(" of ")
        .nth(1)
        .and_then(|r| r.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap();
    assert!(nodes < 20_000, "{e}");
    let _ = start;
}

#[test]
fn ordinary_anchors_and_deep_but_sane_nesting_are_read() {
    let text = "base: &b {mode: 420, overwrite: true}\nfiles:\n- {<<: *b, path: /a}\n- {<<: *b, path: /b}\n";
    let v = one(text);
    assert_eq!(
        v["files"][1],
        json!({"mode": 420, "overwrite": true, "path": "/b"})
    );
    let deep = "[".repeat(MAX_DEPTH) + &"]".repeat(MAX_DEPTH);
    assert!(documents(&deep, "d").is_ok());
}

#[test]
fn nesting_past_the_limit_is_refused_without_overflowing_the_stack() {
    // Flow collections stop in the parser (yaml-rust2 allows less than 256 levels).
    let deep = "[".repeat(200_000) + &"]".repeat(200_000);
    let e = documents(&deep, "deep.yaml").unwrap_err().to_string();
    assert!(e.contains("recursion limit exceeded"), "{e}");
    let deep = "[".repeat(220) + &"]".repeat(220);
    let e = documents(&deep, "deep.yaml").unwrap_err().to_string();
    assert!(e.contains("nested deeper than 200 levels"), "{e}");
    let deep = "a:\n".to_string()
        + &(1..1500)
            .map(|i| format!("{}a:\n", " ".repeat(i)))
            .collect::<String>();
    let e = documents(&deep, "deep.yaml").unwrap_err().to_string();
    assert!(e.contains("nested deeper than 200 levels"), "{e}");
}

#[test]
fn scalars_resolve_as_go_yaml_v2() {
    let v = one(
        "a: 0644\nb: \"0644\"\nc: 0o644\nd: 0x1a4\ne: 420\nf: yes\ng: Off\nh: ~\ni: 1_000\nj: 1.5\nk: 08\nl: '1'\nm: -0b101\nlit: |\n  0644\no: 0\np: 9223372036854775808\nq: .5\nr: 1e3\ns: 0.1.2\n",
    );
    assert_eq!(
        v,
        json!({"a": 420, "b": "0644", "c": 420, "d": 420, "e": 420, "f": true, "g": false,
               "h": null, "i": 1000, "j": 1.5, "k": 8, "l": "1", "m": -5, "lit": "0644\n",
               "o": 0, "p": 9223372036854775808u64, "q": 0.5, "r": 1000, "s": "0.1.2"})
    );
}

#[test]
fn anchors_merges_tags_keys_and_lines() {
    let docs = documents(
        "base: &b {x: 1, z: 2}\nother:\n  <<: *b\n  z: 3\nyes: 1\nt: !!str 0644\n---\nkind: List\nitems:\n- kind: Secret\n",
        "t",
    )
    .unwrap();
    assert_eq!(
        docs[0].value,
        json!({"base": {"x": 1, "z": 2}, "other": {"x": 1, "z": 3}, "true": 1, "t": "0644"})
    );
    assert_eq!(docs[1].lines.get("items[0].kind"), Some(&10));
    assert_eq!(docs[0].lines.get("other.z"), Some(&4));
    // As go-yaml v2 (and so kubectl) reads it: a key `y` is the bool true.
    assert_eq!(one("y: 1\n"), json!({"true": 1}));
    let e = documents("a: 1\na: 2\n", "f.yaml").unwrap_err().to_string();
    assert_eq!(
        e,
        "f.yaml: line 2, column 1: key \"a\" is already set in this mapping"
    );
    let e = documents("a: [1\n", "f.yaml").unwrap_err().to_string();
    assert!(
        e.starts_with("f.yaml: line 2, column 1: a `[` or `{` is not closed"),
        "{e}"
    );
}
