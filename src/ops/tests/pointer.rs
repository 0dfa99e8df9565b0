//! Pointer configs: for a known pool (or a new one said to be), with the pool's own token,
//! trusting the bundle, their URL remembered.

use super::{Lab, said, t0};
use crate::ignition::pointer::Transport;
use crate::ops::pointer::{Dest, PointerInputs, PointerReport, pointer};

fn inputs(pool: &str) -> PointerInputs {
    PointerInputs {
        pool: pool.into(),
        url: None,
        spec_version: None,
        transport: None,
        base64: false,
        new_pool: crate::model::NewPool::Refuse,
        force: true,
        dest: Dest::Dir,
    }
}

fn write(lab: &Lab, i: &PointerInputs) -> Result<(PointerReport, Vec<String>), String> {
    lab.apply(|s| pointer(s, i, t0()))
        .map(|(r, n)| (r, said(&n)))
}

#[test]
fn a_pool_pointer_carries_the_pools_token_and_trusts_the_bundle() {
    let lab = Lab::new();
    let (r, notes) = write(&lab, &inputs("worker")).unwrap();
    assert!(notes.is_empty(), "{notes:?}");
    assert_eq!(
        r.source,
        "https://api-int.demo.example.com:22623/config/worker"
    );
    assert_eq!(r.token_transport, Transport::Header.name());
    let text = String::from_utf8(lab.read("worker.ign")).unwrap();
    assert!(text.contains(r.token_id.as_deref().unwrap()));
    let snap = lab.snap();
    let ca = snap.cas.active.as_ref().unwrap().info.clone();
    assert!(
        snap.pointers
            .iter()
            .find(|p| p.rel == "worker.ign")
            .unwrap()
            .trusts(&ca)
    );
}

#[test]
fn a_new_pool_gets_its_own_token_and_a_url_is_remembered() {
    let lab = Lab::new();
    let e = write(&lab, &inputs("infra")).map(|_| ()).unwrap_err();
    assert!(e.starts_with("pool infra is not a pool of"), "{e}");
    let mut i = inputs("infra");
    i.new_pool = crate::model::NewPool::Allow;
    i.url = Some("https://lb.example.com:22623/config/infra".into());
    let (r, notes) = write(&lab, &i).unwrap();
    assert_eq!(r.source, "https://lb.example.com:22623/config/infra");
    assert!(r.token_made, "the pool had no token of its own");
    assert!(
        notes.iter().any(|n| n.starts_with(&format!(
            "a new token {} for pool infra",
            r.token_id.as_deref().unwrap()
        ))),
        "{notes:?}"
    );
    let id = r.token_id.as_deref().unwrap();
    let saved = lab.snap().tokens.unwrap();
    assert_eq!(
        saved.current_for("infra", t0()).map(|t| t.id.as_str()),
        Some(id),
        "saved"
    );
    let cfg = lab.snap().config.unwrap();
    assert_eq!(
        cfg.default_url("infra"),
        "https://lb.example.com:22623/config/infra"
    );
}

#[test]
fn a_plain_http_url_is_warned_of() {
    let lab = Lab::new();
    let mut i = inputs("worker");
    i.url = Some("http://192.0.2.1:22624/config/worker".into());
    let (_, notes) = write(&lab, &i).unwrap();
    assert!(
        notes
            .iter()
            .any(|n| n.starts_with("warning: the merge URL is plain http")),
        "{notes:?}"
    );
}
