//! Tokens: create, rotate (with grace, rewriting pointer configs), list, revoke; no secret in
//! lists or JSON; concurrent rotations.

use std::process::Command;

use crate::support::{demo, ok, run};

fn store(d: &std::path::Path) -> serde_json::Value {
    serde_json::from_slice(&std::fs::read(d.join("mcs-assets/auth/tokens.json")).unwrap()).unwrap()
}

fn bearer_of(d: &std::path::Path, pool: &str) -> String {
    let j: serde_json::Value =
        serde_json::from_slice(&std::fs::read(d.join(format!("mcs-assets/{pool}.ign"))).unwrap())
            .unwrap();
    j["ignition"]["config"]["merge"][0]["httpHeaders"][0]["value"]
        .as_str()
        .unwrap()
        .trim_start_matches("Bearer ")
        .to_string()
}

fn secrets(d: &std::path::Path) -> Vec<String> {
    store(d)["tokens"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["secret"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn rotate_rewrites_every_pointer_and_keeps_the_old_token_for_grace() {
    let d = demo(&[]);
    let old = bearer_of(d.path(), "worker");
    let old_master = bearer_of(d.path(), "master");
    // Each pool's pointer config carries a token of its own.
    assert_ne!(old, old_master);
    let out = ok(d.path(), &["token", "rotate", "--grace", "1h"]);
    let new = bearer_of(d.path(), "worker");
    assert_ne!(old, new);
    assert_ne!(bearer_of(d.path(), "master"), old_master);
    assert_ne!(bearer_of(d.path(), "master"), new);
    assert!(
        out.contains("rewrote: master.ign") && out.contains("rewrote: worker.ign"),
        "{out}"
    );
    let id = |b: &str| b.split_once('.').unwrap().0.to_string();
    assert!(
        out.contains(&format!(
            "worker: current token {} (replaces {}, valid until ",
            id(&new),
            id(&old)
        )),
        "{out}"
    );
    let s = store(d.path());
    let toks = s["tokens"].as_array().unwrap();
    assert_eq!(toks.len(), 4);
    for t in &toks[..2] {
        assert_eq!(t["state"], "active");
        assert!(t["expires"].is_string());
    }
    for t in &toks[2..] {
        assert_eq!(t["state"], "current");
        assert_eq!(t["pools"].as_array().unwrap().len(), 1, "{t}");
    }
    let list = ok(d.path(), &["token", "list"]);
    assert!(
        list.contains("active") && list.contains("current") && list.contains("POOLS"),
        "{list}"
    );
    let json = ok(d.path(), &["token", "list", "--format", "json"]);
    for secret in secrets(d.path()) {
        assert!(!list.contains(&secret) && !json.contains(&secret) && !out.contains(&secret));
    }
    // Rotation then revocation (a zero grace is refused): the old token is dead at once.
    crate::support::rotate_and_revoke(d.path());
    let list = ok(d.path(), &["token", "list", "--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&list).unwrap();
    let states: Vec<&str> = v["tokens"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["state"].as_str().unwrap())
        .collect();
    assert_eq!(
        states,
        vec![
            "active", "active", "revoked", "revoked", "current", "current"
        ]
    );
    for d0 in ["0s", "0m", "0d"] {
        let (code, _, err) = run(d.path(), &["token", "rotate", "--grace", d0]);
        assert_eq!(code, 2, "{err}");
        assert!(
            err.contains("a duration must be more than zero") && err.contains("token revoke"),
            "{err}"
        );
        let (code, _, err) = run(d.path(), &["token", "rotate", "--ttl", d0]);
        assert_eq!(code, 2, "--ttl {d0} exits 2, no panic: {err}");
    }
    assert_eq!(run(d.path(), &["inspect"]).0, 0);
}

#[test]
fn create_revoke_and_their_errors() {
    let d = demo(&[]);
    let out = ok(
        d.path(),
        &["token", "create", "--ttl", "24h", "--description", "lab"],
    );
    let created = out.trim().to_string();
    let (id, _) = created.split_once('.').unwrap();
    assert!(
        secrets(d.path())
            .iter()
            .any(|s| created.ends_with(s.as_str()))
    );
    // An extra token does not replace the one in the pointer configs.
    assert_ne!(bearer_of(d.path(), "worker"), created);
    // In JSON the new token is the output, as in text (a script needs it); no other secret.
    let before = secrets(d.path());
    let json = ok(d.path(), &["token", "create", "--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let bearer = v["bearer"].as_str().expect("bearer in the JSON");
    let new_id = v["token"]["id"].as_str().unwrap();
    assert!(bearer.starts_with(&format!("{new_id}.")), "{json}");
    assert!(
        secrets(d.path())
            .iter()
            .any(|s| bearer.ends_with(s.as_str()))
    );
    for s in before {
        assert!(
            !json.contains(&s),
            "token create --format json printed another token's secret"
        );
    }
    ok(d.path(), &["token", "revoke", id, "-q"]);
    let list = ok(d.path(), &["token", "list"]);
    assert!(
        list.lines()
            .any(|l| l.starts_with(id) && l.contains("revoked")),
        "{list}"
    );
    let current = bearer_of(d.path(), "worker");
    let (cid, _) = current.split_once('.').unwrap();
    let (code, _, err) = run(d.path(), &["token", "revoke", cid]);
    assert_eq!(code, 1);
    assert!(
        err.ends_with(&format!(
            "is the current token written in the pointer configs; run `mcsctl token rotate` to replace it there, then `mcsctl token revoke {cid}`\n"
        )),
        "{err}"
    );
    let (code, _, err) = run(d.path(), &["token", "revoke", &current]);
    assert_eq!(code, 1);
    assert!(
        !err.contains(&current[7..]),
        "the error echoed a secret: {err}"
    );
    let (code, _, err) = run(d.path(), &["token", "revoke", "zzzzzz"]);
    assert_eq!(code, 1);
    assert!(err.contains("no token with id"), "{err}");
    let (code, _, err) = run(d.path(), &["token", "rotate", "--grace", "soon"]);
    assert_eq!(code, 2, "{err}");
}

#[test]
fn eight_concurrent_rotations_lose_nothing() {
    let d = demo(&[]);
    let bin = assert_cmd::cargo::cargo_bin("mcsctl");
    let children: Vec<_> = (0..8)
        .map(|_| {
            Command::new(&bin)
                .current_dir(d.path())
                .args(["token", "rotate", "--grace", "1h", "-q"])
                .spawn()
                .unwrap()
        })
        .collect();
    for mut c in children {
        assert!(c.wait().unwrap().success());
    }
    let s = store(d.path());
    let toks = s["tokens"].as_array().unwrap();
    // Two pools: each rotation adds a token for each.
    assert_eq!(toks.len(), 18, "every rotation must add its tokens");
    for pool in ["worker", "master"] {
        let current: Vec<_> = toks
            .iter()
            .filter(|t| t["state"] == "current" && t["pools"][0] == pool)
            .collect();
        assert_eq!(current.len(), 1, "{pool}");
        let want = format!(
            "{}.{}",
            current[0]["id"].as_str().unwrap(),
            current[0]["secret"].as_str().unwrap()
        );
        assert_eq!(bearer_of(d.path(), pool), want);
    }
    assert_eq!(run(d.path(), &["inspect"]).0, 0);
}

#[test]
fn the_first_token_of_a_no_token_directory_goes_into_its_pointers() {
    let d = demo(&["--no-token"]);
    let worker = d.path().join("mcs-assets/worker.ign");
    assert!(!std::fs::read_to_string(&worker).unwrap().contains("Bearer"));
    let out = ok(d.path(), &["token", "create"]);
    let token = out.trim().to_string();
    let text = std::fs::read_to_string(&worker).unwrap();
    assert!(text.contains(&format!("Bearer {token}")), "{text}");
    assert_eq!(crate::support::mode(&worker), 0o600, "it holds a token now");
    assert_eq!(run(d.path(), &["inspect"]).0, 0);
}

#[test]
fn rotation_edits_pointers_and_follows_symlinks() {
    let d = demo(&[]);
    let a = d.path().join("mcs-assets");
    // An admin's edits to worker.ign: a proxy, timeouts, a second header.
    let mut v: serde_json::Value =
        serde_json::from_slice(&std::fs::read(a.join("worker.ign")).unwrap()).unwrap();
    v["ignition"]["proxy"] = serde_json::json!({"httpsProxy": "http://proxy.example.com:3128"});
    v["ignition"]["timeouts"] = serde_json::json!({"httpTotal": 600});
    v["ignition"]["config"]["merge"][0]["httpHeaders"]
        .as_array_mut()
        .unwrap()
        .push(serde_json::json!({"name": "X-Site", "value": "lab"}));
    std::fs::write(a.join("worker.ign"), serde_json::to_vec(&v).unwrap()).unwrap();
    // master.ign lives on the PXE server's tree; the asset directory links to it.
    let pxe = d.path().join("pxe");
    std::fs::create_dir(&pxe).unwrap();
    std::fs::rename(a.join("master.ign"), pxe.join("master.ign")).unwrap();
    std::os::unix::fs::symlink(pxe.join("master.ign"), a.join("master.ign")).unwrap();
    let out = ok(d.path(), &["token", "rotate", "--grace", "1h"]);
    assert!(
        out.contains("rewrote: master.ign") && out.contains("rewrote: worker.ign"),
        "{out}"
    );
    let current = crate::support::token_for(&a, "worker");
    let current_master = crate::support::token_for(&a, "master");
    let after: serde_json::Value =
        serde_json::from_slice(&std::fs::read(a.join("worker.ign")).unwrap()).unwrap();
    assert_eq!(after["ignition"]["proxy"], v["ignition"]["proxy"]);
    assert_eq!(after["ignition"]["timeouts"], v["ignition"]["timeouts"]);
    assert_eq!(
        after["ignition"]["config"]["merge"][0]["httpHeaders"],
        serde_json::json!([{"name": "Authorization", "value": format!("Bearer {current}")}, {"name": "X-Site", "value": "lab"}])
    );
    assert!(
        std::fs::symlink_metadata(a.join("master.ign"))
            .unwrap()
            .file_type()
            .is_symlink(),
        "the link stays a link"
    );
    let linked = std::fs::read_to_string(pxe.join("master.ign")).unwrap();
    assert!(
        linked.contains(&format!("Bearer {current_master}")),
        "{linked}"
    );
    assert_eq!(crate::support::mode(&pxe.join("master.ign")), 0o600);
    assert_eq!(run(d.path(), &["inspect"]).0, 0);
}
