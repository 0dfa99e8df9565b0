//! The MCS CA's life: create, the three-step rotation and its refusals, at chosen times.

use super::{DAY, Lab, keys, t0};
use crate::assets::layout;
use crate::ops::ca::Replace;
use crate::ops::ca::phases;
use crate::ops::serving::NewCa;
use crate::ops::{ca, serving};
use crate::pki::keys::KeyAlgorithm;

fn rotate(lab: &Lab, at: time::OffsetDateTime) -> Result<ca::CaReport, String> {
    let k = keys();
    lab.apply(|s| phases::rotate(s, None, None, DAY * 3650, &k, at))
        .map(|r| r.0)
}

fn promote(lab: &Lab, force: bool, at: time::OffsetDateTime) -> Result<ca::CaReport, String> {
    let k = keys();
    lab.apply(|s| phases::promote(s, force, DAY * 365, &k, at))
        .map(|r| r.0)
}

fn retire(lab: &Lab, at: time::OffsetDateTime) -> Result<ca::CaReport, String> {
    lab.apply(|s| phases::retire(s, phases::Retired::Keep, at))
        .map(|r| r.0)
}

fn bundle_len(lab: &Lab) -> usize {
    lab.snap().cas.bundle.len()
}

#[test]
fn create_makes_the_first_ca_and_refuses_a_second_without_force() {
    let lab = Lab::empty();
    let k = keys();
    let (r, _) = lab
        .apply(|s| ca::create(s, Replace::No, KeyAlgorithm::EcdsaP256, DAY * 10, &k, t0()))
        .unwrap();
    assert_eq!(r.phase, "no CA rotation in progress");
    assert!(
        r.files.iter().any(|f| f.path == layout::CA_CERT),
        "{:?}",
        r.files
    );
    assert_eq!(bundle_len(&lab), 1);
    let e = lab
        .apply(|s| ca::create(s, Replace::No, KeyAlgorithm::EcdsaP256, DAY * 10, &k, t0()))
        .map(|_| ())
        .unwrap_err();
    assert!(e.contains("--force") || e.contains("ca rotate"), "{e}");
}

#[test]
fn a_rotation_goes_through_its_three_phases_in_order() {
    let lab = Lab::new();
    let old = lab.snap().cas.active.unwrap().info;
    let r = rotate(&lab, t0() + DAY).unwrap();
    assert!(
        r.phase.starts_with("CA rotation, phase 1 of 3"),
        "{}",
        r.phase
    );
    assert!(r.next.unwrap().contains("mcsctl ca promote"));
    // Both CAs are trusted, and every pointer config trusts both.
    assert_eq!(bundle_len(&lab), 2);
    let snap = lab.snap();
    let next = snap.cas.next.as_ref().unwrap().info.clone();
    assert!(
        snap.pointers
            .iter()
            .all(|p| p.trusts(&old) && p.trusts(&next))
    );
    let r = promote(&lab, false, t0() + DAY * 2).unwrap();
    assert!(
        r.phase.starts_with("CA rotation, phase 2 of 3"),
        "{}",
        r.phase
    );
    let snap = lab.snap();
    assert_eq!(snap.cas.active.as_ref().unwrap().info.der, next.der);
    assert_eq!(snap.cas.previous.as_ref().unwrap().info.der, old.der);
    let r = retire(&lab, t0() + DAY * 3).unwrap();
    assert_eq!(r.phase, "no CA rotation in progress");
    assert_eq!(bundle_len(&lab), 1);
    let snap = lab.snap();
    assert!(
        snap.pointers
            .iter()
            .all(|p| p.trusts(&next) && !p.trusts(&old))
    );
}

#[test]
fn the_phases_refuse_to_run_out_of_order() {
    let lab = Lab::new();
    let e = promote(&lab, false, t0()).map(|_| ()).unwrap_err();
    assert_eq!(e, "no new CA to promote: run `mcsctl ca rotate` first");
    rotate(&lab, t0()).unwrap();
    let e = retire(&lab, t0()).map(|_| ()).unwrap_err();
    assert_eq!(
        e,
        "a new CA is introduced but not promoted: run `mcsctl ca promote` before retiring anything"
    );
    promote(&lab, false, t0()).unwrap();
    let e = rotate(&lab, t0()).map(|_| ()).unwrap_err();
    assert!(
        e.starts_with("the previous rotation is not finished"),
        "{e}"
    );
}

#[test]
fn promote_refuses_while_a_pointer_config_does_not_trust_the_new_ca() {
    let lab = Lab::new();
    let before = lab.read("worker.ign");
    rotate(&lab, t0()).unwrap();
    // An admin puts the old pointer config back (a copy from before the rotation).
    std::fs::write(lab.dir.path("worker.ign"), &before).unwrap();
    let e = promote(&lab, false, t0()).map(|_| ()).unwrap_err();
    assert!(
        e.starts_with("worker.ign do not trust the new CA yet") && e.contains("--force"),
        "{e}"
    );
    assert!(lab.snap().cas.previous.is_none(), "nothing promoted");
    promote(&lab, true, t0()).unwrap();
}

#[test]
fn an_expired_ca_leaves_the_bundle_at_rotation() {
    let lab = Lab::empty();
    let k = keys();
    lab.apply(|s| ca::create(s, Replace::No, KeyAlgorithm::EcdsaP256, DAY * 10, &k, t0()))
        .unwrap();
    // Eleven days on the first CA has expired: the rotation's bundle holds the new one only.
    rotate(&lab, t0() + DAY * 11).unwrap();
    assert_eq!(bundle_len(&lab), 1);
}

#[test]
fn replacing_the_ca_at_once_with_pointer_configs_here_needs_yes() {
    let lab = Lab::new();
    assert!(!lab.snap().pointers.is_empty());
    let before = lab.read(layout::CA_CERT);
    let k = keys();
    let create = |r| {
        lab.apply(|s| ca::create(s, r, KeyAlgorithm::EcdsaP256, DAY * 10, &k, t0()))
            .map(|_| ())
    };
    let e = create(Replace::No).unwrap_err();
    assert!(
        e.contains("`mcsctl ca rotate` moves to a new CA in three steps"),
        "{e}"
    );
    assert!(
        e.contains("every copy of a pointer config made before stops working"),
        "{e}"
    );
    let e = create(Replace::Force).unwrap_err();
    assert!(
        e.contains("2 pointer config(s) (master.ign, worker.ign) trust the CA"),
        "{e}"
    );
    assert!(e.contains("`mcsctl ca rotate` moves to a new CA"), "{e}");
    assert!(e.contains("add --yes"), "{e}");
    assert_eq!(
        lab.read(layout::CA_CERT),
        before,
        "refused, nothing written"
    );
    create(Replace::BreakingCopies).unwrap();
    assert_ne!(lab.read(layout::CA_CERT), before);
}

#[test]
fn a_ca_key_kept_offline_is_brought_back_never_replaced() {
    let lab = Lab::new();
    let (cert, key) = (lab.read(layout::CA_CERT), lab.read(layout::CA_KEY));
    std::fs::remove_file(lab.dir.path(layout::CA_KEY)).unwrap();
    let k = keys();
    let renew = || {
        lab.apply(|s| serving::renew(s, DAY * 30, None, &k, t0() + DAY))
            .map(|_| ())
    };
    let e = renew().unwrap_err();
    assert!(e.contains("tls/mcs-ca.key is missing"), "{e}");
    assert!(e.contains("put it back"), "{e}");
    assert!(e.contains("Do not create or import another CA"), "{e}");
    // `ca create` without --force says the same rather than pointing to --force.
    let e = lab
        .apply(|s| ca::create(s, Replace::No, KeyAlgorithm::EcdsaP256, DAY * 10, &k, t0()))
        .map(|_| ())
        .unwrap_err();
    assert!(e.contains("put it back"), "{e}");
    // Importing the same CA puts the key back and touches nothing else.
    let pointer = lab.read("worker.ign");
    let same = NewCa::from_files(&cert, "ca.crt", &key, "ca.key").unwrap();
    let (r, _) = lab
        .apply(|s| ca::import(s, same, "ca.crt", Replace::No, &k, t0()))
        .unwrap();
    assert_eq!(r.heading, "The active CA's key is back:");
    assert_eq!(lab.read(layout::CA_KEY), key);
    assert_eq!(lab.read(layout::CA_CERT), cert);
    assert_eq!(lab.read("worker.ign"), pointer);
    renew().unwrap();
    // Again: nothing to do.
    let same = NewCa::from_files(&cert, "ca.crt", &key, "ca.key").unwrap();
    let (_, notes) = lab
        .apply(|s| ca::import(s, same, "ca.crt", Replace::No, &k, t0()))
        .unwrap();
    assert!(
        super::said(&notes)[0].contains("nothing to do"),
        "{notes:?}"
    );
}
