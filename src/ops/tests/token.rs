//! Pool tokens' lifetimes: created with a time to live, rotated with a grace period, revoked,
//! pruned, each judged at chosen times.

use time::Duration;

use super::{DAY, Lab, said, t0};
use crate::ops::Run;
use crate::ops::token::{self, CreateInputs};

fn create(
    lab: &Lab,
    pools: &[&str],
    ttl: Option<Duration>,
    new_pool: bool,
) -> Result<(String, Vec<String>), String> {
    let inputs = CreateInputs {
        pools: pools.iter().map(|p| p.to_string()).collect(),
        ttl,
        description: None,
        print_pointer: false,
        new_pool: crate::model::NewPool::of(new_pool),
    };
    lab.apply(|s| token::create(s, inputs, t0()))
        .map(|(c, notes)| (c.token.id.clone(), said(&notes)))
}

/// Each token's state at `at`, by id.
fn states(lab: &Lab, at: time::OffsetDateTime) -> Vec<(String, String)> {
    let store = lab.snap().tokens.unwrap();
    store
        .summaries(at)
        .into_iter()
        .map(|s| (s.id, s.state.to_string()))
        .collect()
}

fn state_of(lab: &Lab, id: &str, at: time::OffsetDateTime) -> String {
    states(lab, at)
        .into_iter()
        .find(|(i, _)| i == id)
        .map(|(_, s)| s)
        .unwrap_or_else(|| "gone".into())
}

#[test]
fn a_token_with_a_time_to_live_expires_then() {
    let lab = Lab::new();
    let (id, notes) = create(&lab, &["worker"], Some(Duration::hours(2)), false).unwrap();
    assert!(notes.is_empty(), "{notes:?}");
    assert_eq!(state_of(&lab, &id, t0() + Duration::hours(1)), "active");
    assert_eq!(state_of(&lab, &id, t0() + Duration::hours(3)), "expired");
}

#[test]
fn a_time_to_live_shorter_than_an_hour_is_said() {
    let lab = Lab::new();
    let (_, notes) = create(&lab, &["worker"], Some(Duration::minutes(30)), false).unwrap();
    assert_eq!(notes.len(), 1, "{notes:?}");
    assert!(
        notes[0].starts_with("warning: ") && notes[0].contains("expires in 30m"),
        "{notes:?}"
    );
}

#[test]
fn a_pool_the_directory_does_not_know_needs_new_pool() {
    let lab = Lab::new();
    let e = create(&lab, &["wroker"], None, false).unwrap_err();
    assert!(
        e.starts_with("pool wroker is not a pool of") && e.contains("(did you mean worker?)"),
        "{e}"
    );
    // The first token of a pool is its current one.
    let (id, _) = create(&lab, &["infra"], None, true).unwrap();
    assert_eq!(state_of(&lab, &id, t0()), "current");
    assert!(
        lab.snap()
            .config
            .unwrap()
            .pools
            .contains(&"infra".to_string())
    );
}

#[test]
fn rotation_keeps_the_old_token_for_its_grace_then_not() {
    let lab = Lab::new();
    // init made one current token per pool.
    let current = |lab: &Lab, pool: &str| {
        let store = lab.snap().tokens.unwrap();
        let s = store.summaries(t0()).into_iter().find(|s| {
            s.state == crate::token::Effective::Current
                && s.pools
                    .as_ref()
                    .is_some_and(|p| p.iter().any(|p| p == pool))
        });
        s.unwrap().id
    };
    let old = current(&lab, "worker");
    let old_master = current(&lab, "master");
    let at = t0() + DAY;
    let (r, _) = lab
        .apply(|s| token::rotate(s, Duration::hours(6), None, None, at))
        .unwrap();
    assert!(
        !r.rewritten.is_empty(),
        "pointer configs carry the new token"
    );
    assert_eq!(r.tokens.len(), 2, "one per pool");
    let new = current(&lab, "worker");
    assert_ne!(new, old);
    assert_ne!(current(&lab, "master"), old_master);
    assert_eq!(state_of(&lab, &new, at), "current");
    assert_eq!(state_of(&lab, &old, at + Duration::hours(5)), "active");
    assert_eq!(state_of(&lab, &old, at + Duration::hours(7)), "expired");
    let ptr = String::from_utf8(lab.read("worker.ign")).unwrap();
    assert!(ptr.contains(&new) && !ptr.contains(&old));
}

#[test]
fn revoke_refuses_the_current_token_and_ends_another_at_once() {
    let lab = Lab::new();
    let current = states(&lab, t0())
        .into_iter()
        .find(|(_, s)| s == "current")
        .unwrap()
        .0;
    let e = lab
        .apply(|s| token::revoke(s, &current, t0()))
        .map(|_| ())
        .unwrap_err();
    assert!(
        e.contains("is the current token written in the pointer configs"),
        "{e}"
    );
    let (id, _) = create(&lab, &["worker"], None, false).unwrap();
    let (r, _) = lab.apply(|s| token::revoke(s, &id, t0())).unwrap();
    assert_eq!(r.state, crate::token::Effective::Revoked);
    let e = lab
        .apply(|s| token::revoke(s, "nope", t0()))
        .map(|_| ())
        .unwrap_err();
    assert_eq!(
        e,
        "no token with id \"nope\"; `mcsctl token list` shows the ids"
    );
}

#[test]
fn prune_removes_what_cannot_be_used_and_a_dry_run_nothing() {
    let lab = Lab::new();
    let (short, _) = create(&lab, &["worker"], Some(Duration::hours(2)), false).unwrap();
    let (revoked, _) = create(&lab, &["worker"], None, false).unwrap();
    let (kept, _) = create(&lab, &["worker"], None, false).unwrap();
    lab.apply(|s| token::revoke(s, &revoked, t0())).unwrap();
    let later = t0() + DAY;
    let (r, _) = lab.apply(|s| token::prune(s, Run::DryRun, later)).unwrap();
    let mut gone: Vec<&str> = r.gone.iter().map(|g| g.id.as_str()).collect();
    gone.sort_unstable();
    let mut want = vec![short.as_str(), revoked.as_str()];
    want.sort_unstable();
    assert_eq!(gone, want);
    assert_eq!(
        state_of(&lab, &short, later),
        "expired",
        "the dry run removed nothing"
    );
    lab.apply(|s| token::prune(s, Run::Write, later)).unwrap();
    assert_eq!(state_of(&lab, &short, later), "gone");
    assert_eq!(state_of(&lab, &revoked, later), "gone");
    assert_eq!(state_of(&lab, &kept, later), "active");
}
