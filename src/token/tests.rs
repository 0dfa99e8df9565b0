//! Tests of the token store.

use super::*;
use time::macros::datetime;

fn pools(p: &[&str]) -> Vec<String> {
    p.iter().map(|s| s.to_string()).collect()
}

#[test]
fn rotation_keeps_previous_for_grace() {
    let now = datetime!(2026-01-01 00:00 UTC);
    let mut s = TokenStore::new();
    let (first, became_current) = s.create(now, None, None, pools(&["worker"])).unwrap();
    assert!(became_current);
    let r = s
        .rotate(
            now,
            time::Duration::hours(1),
            None,
            None,
            &pools(&["worker"]),
        )
        .unwrap();
    assert_eq!(r[0].previous.as_deref(), Some(first.as_str()));
    let second = r[0].id.clone();
    assert_eq!(s.current_for("worker", now).unwrap().id, second);
    assert_eq!(s.live(now).count(), 2);
    assert_eq!(s.live(now + time::Duration::hours(2)).count(), 1);
    assert!(s.revoke(&second).is_err());
    s.revoke(&first).unwrap();
    assert_eq!(s.live(now).count(), 1);
    let bytes = s.to_bytes().unwrap();
    assert_eq!(TokenStore::parse(&bytes, "t").unwrap(), s);
}

#[test]
fn each_pool_has_its_own_current_token_and_old_stores_keep_working() {
    let now = datetime!(2026-01-01 00:00 UTC);
    // A version 1 store: one token, no scope, fetching every pool.
    let v1 = br#"{"formatVersion":1,"tokens":[{"id":"aaaaaa","secret":"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA","created":"2025-01-01T00:00:00Z","expires":null,"state":"current"}]}"#;
    let mut s = TokenStore::parse(v1, "t").unwrap();
    assert!(s.tokens[0].covers("master") && s.tokens[0].covers("worker"));
    assert_eq!(s.current_for("master", now).unwrap().id, "aaaaaa");
    // A scoped token for a pool the unscoped current token covers: not current.
    let (extra, current) = s.create(now, None, None, pools(&["infra"])).unwrap();
    assert!(!current);
    assert!(
        !s.tokens
            .iter()
            .find(|t| t.id == extra)
            .unwrap()
            .covers("worker")
    );
    // Rotation gives each pool its own token; the unscoped one is the predecessor of both.
    let r = s
        .rotate(
            now,
            time::Duration::hours(1),
            None,
            None,
            &pools(&["master", "worker"]),
        )
        .unwrap();
    assert_eq!(r.len(), 2);
    assert!(r.iter().all(|x| x.previous.as_deref() == Some("aaaaaa")));
    let w = s.current_for("worker", now).unwrap();
    assert_eq!(w.pools, Some(pools(&["worker"])));
    assert!(!w.covers("master"));
    assert_ne!(w.id, s.current_for("master", now).unwrap().id);
    let bytes = s.to_bytes().unwrap();
    assert!(String::from_utf8_lossy(&bytes).contains("\"formatVersion\": 2"));
    assert_eq!(TokenStore::parse(&bytes, "t").unwrap(), s);
    // Two current tokens for one pool, or a scope in version 1: refused.
    let mut twice = s.clone();
    for t in &mut twice.tokens {
        if t.pools == Some(pools(&["master"])) {
            t.pools = Some(pools(&["worker"]));
        }
    }
    let e = TokenStore::parse(&twice.to_bytes().unwrap(), "t").unwrap_err();
    assert!(e.to_string().contains("current for pool worker"), "{e}");
    let scoped_v1 = r#"{"formatVersion":1,"tokens":[{"id":"aaaaaa","secret":"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA","created":"2025-01-01T00:00:00Z","expires":null,"state":"current","pools":["worker"]}]}"#;
    assert!(TokenStore::parse(scoped_v1.as_bytes(), "t").is_err());
}

#[test]
fn ids_and_secrets_have_their_form() {
    let mut s = TokenStore::new();
    s.create(
        datetime!(2026-01-01 00:00 UTC),
        None,
        None,
        pools(&["worker"]),
    )
    .unwrap();
    let t = &s.tokens[0];
    assert!(is_token_id(&t.id));
    assert!(is_token_secret(&t.secret));
    assert!(!format!("{t:?}").contains(&t.secret));
}

#[test]
fn garbage_store_error_names_file_not_content() {
    let err = TokenStore::parse(
        b"{\"formatVersion\":1,\"tokens\":[{\"id\":\"SECRETX\"",
        "auth/tokens.json",
    )
    .unwrap_err();
    let msg = err.to_string();
    assert!(
        msg.contains("auth/tokens.json") && !msg.contains("SECRETX"),
        "{msg}"
    );
}
