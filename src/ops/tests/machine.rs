//! Machines: registered with a token bound to them and a pointer config each, all or none;
//! replaced only with force; removed with their token revoked; listed with their fetches.

use std::net::IpAddr;

use super::{Lab, said, t0};
use crate::ops::machine::{self, AddInputs};

fn machine(name: &str, pool: &str) -> AddInputs {
    AddInputs {
        name: name.into(),
        pool: pool.into(),
        addresses: vec!["192.0.2.30".parse::<IpAddr>().unwrap()],
        ttl: None,
        uses: Some(1),
        force: false,
        new_pool: crate::model::NewPool::Refuse,
    }
}

fn add(lab: &Lab, ms: &[AddInputs]) -> Result<Vec<String>, String> {
    lab.apply(|s| machine::add(s, ms, t0()))
        .map(|(_, n)| said(&n))
}

fn registered(lab: &Lab) -> Vec<String> {
    lab.snap()
        .machines
        .map(|r| r.machines.into_iter().map(|m| m.name).collect())
        .unwrap_or_default()
}

#[test]
fn each_machine_gets_its_own_token_and_pointer_config() {
    let lab = Lab::new();
    add(&lab, &[machine("w0", "worker"), machine("w1", "worker")]).unwrap();
    assert_eq!(registered(&lab), ["w0", "w1"]);
    let snap = lab.snap();
    let reg = snap.machines.as_ref().unwrap();
    let store = snap.tokens.as_ref().unwrap();
    for m in &reg.machines {
        let t = store.tokens.iter().find(|t| t.id == m.token).unwrap();
        assert_eq!(t.pools.as_deref(), Some(&["worker".to_string()][..]));
        let ptr = String::from_utf8(lab.read(&format!("machines/{}.ign", m.name))).unwrap();
        assert!(ptr.contains(&m.token), "{} carries its own token", m.name);
    }
    assert_ne!(reg.machines[0].token, reg.machines[1].token);
}

#[test]
fn one_bad_entry_registers_none() {
    let lab = Lab::new();
    let e = add(&lab, &[machine("w0", "worker"), machine("w0", "worker")]).unwrap_err();
    assert_eq!(e, "machine w0 is listed twice");
    let e = add(&lab, &[machine("w0", "worker"), machine("w1", "wroker")]).unwrap_err();
    assert!(e.contains("(did you mean worker?)"), "{e}");
    assert!(registered(&lab).is_empty());
    assert!(!lab.dir.exists("machines/w0.ign"));
}

#[test]
fn a_registered_machine_is_replaced_only_with_force_and_its_old_token_revoked() {
    let lab = Lab::new();
    add(&lab, &[machine("w0", "worker")]).unwrap();
    let old = lab.snap().machines.unwrap().machines[0].token.clone();
    let e = add(&lab, &[machine("w0", "worker")]).unwrap_err();
    assert!(
        e.starts_with("machine w0 is registered (token")
            && e.ends_with("pass --force to replace it (its token is revoked)"),
        "{e}"
    );
    let mut again = machine("w0", "worker");
    again.force = true;
    let notes = add(&lab, &[again]).unwrap();
    assert_eq!(
        notes,
        [format!("replaced machine w0: its token {old} is revoked")]
    );
    let snap = lab.snap();
    let store = snap.tokens.unwrap();
    let state = |id: &str| {
        store
            .summaries(t0())
            .into_iter()
            .find(|s| s.id == id)
            .unwrap()
            .state
    };
    assert_eq!(state(&old), crate::token::Effective::Revoked);
    assert_ne!(snap.machines.unwrap().machines[0].token, old);
}

#[test]
fn remove_revokes_the_token_and_removes_the_pointer_config() {
    let lab = Lab::new();
    add(&lab, &[machine("w0", "worker"), machine("w1", "worker")]).unwrap();
    let token = lab.snap().machines.unwrap().machines[0].token.clone();
    lab.apply(|s| machine::remove(s, "w0", t0())).unwrap();
    assert_eq!(registered(&lab), ["w1"]);
    assert!(!lab.dir.exists("machines/w0.ign") && lab.dir.exists("machines/w1.ign"));
    let store = lab.snap().tokens.unwrap();
    let s = store
        .summaries(t0())
        .into_iter()
        .find(|s| s.id == token)
        .unwrap();
    assert_eq!(s.state, crate::token::Effective::Revoked);
    let e = lab
        .apply(|s| machine::remove(s, "w0", t0()))
        .map(|_| ())
        .unwrap_err();
    assert_eq!(
        e,
        "machine w0 is not registered (`mcsctl machine list` shows those that are)"
    );
}

#[test]
fn the_list_takes_the_fetches_from_the_snapshots_ledger_only() {
    let lab = Lab::new();
    add(&lab, &[machine("w0", "worker")]).unwrap();
    let token = lab.snap().machines.unwrap().machines[0].token.clone();
    let p = lab.dir.path("auth/ledger/r1.jsonl");
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    let rec = serde_json::json!({"time": "2026-01-01T00:10:00Z", "machine": "w0", "token": token,
        "pool": "worker", "client": "192.0.2.30:5000", "spec": "3.2.0", "bytes": 10, "replica": "r1", "whole": true});
    std::fs::write(&p, format!("{rec}\n")).unwrap();
    let cluster = crate::ops::trail::Cluster {
        csrs: None,
        nodes: None,
    };
    // Without the ledger in the snapshot, no fetch; with it, the one.
    let rows = machine::list(&lab.snap(), &cluster, t0()).machines;
    assert!(rows[0].fetches.is_empty());
    let snap = lab.snap().with_ledger(&[]).unwrap();
    let rows = machine::list(&snap, &cluster, t0()).machines;
    assert_eq!(rows[0].fetches.len(), 1);
    assert_eq!(rows[0].uses, Some(1));
}
