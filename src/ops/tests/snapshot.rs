//! The snapshot: the directory's files read in one pass, then parsed, the first bad file being
//! the error.

use super::Lab;
use crate::assets::layout;
use crate::model::Snapshot;

fn err(lab: &Lab) -> String {
    format!("{:#}", Snapshot::read(&lab.dir).unwrap_err())
}

#[test]
fn an_initialised_directory_reads_whole() {
    let lab = Lab::new();
    let s = lab.snap();
    assert_eq!(s.config.as_ref().unwrap().pools, ["worker", "master"]);
    assert!(s.cas.active.as_ref().is_some_and(|a| a.key_pem.is_some()));
    assert!(s.cas.serving().unwrap().is_some());
    let pools: Vec<&str> = s.pointers.iter().map(|p| p.pool()).collect();
    assert_eq!(pools, ["master", "worker"]);
    assert!(s.tokens.is_some());
    assert!(s.machines.is_none());
    assert!(s.rendered.is_empty());
}

#[test]
fn a_bad_file_is_the_error_and_names_itself() {
    let lab = Lab::new();
    std::fs::write(lab.dir.path(layout::TOKENS), b"{not json").unwrap();
    assert!(err(&lab).contains("auth/tokens.json"), "{}", err(&lab));
    // Two bad files: the first one parsed is the error (mcsctl.json before the tokens).
    std::fs::write(lab.dir.path(layout::CONFIG), b"[]").unwrap();
    let e = err(&lab);
    assert!(e.contains("mcsctl.json is not a valid mcsctl.json"), "{e}");
}

#[test]
fn a_serving_pair_that_cannot_be_read_is_kept_as_its_error() {
    // `cert renew` must still run when the serving certificate is garbage: the snapshot keeps
    // the error beside the serving pair instead of refusing the directory.
    let lab = Lab::new();
    std::fs::write(lab.dir.path(layout::SERVING_CERT), b"garbage").unwrap();
    let s = lab.snap();
    let e = format!("{:#}", s.cas.serving().unwrap_err());
    assert!(e.contains("tls/mcs.crt"), "{e}");
}

#[test]
fn a_key_without_its_certificate_is_not_read_as_a_ca() {
    let lab = Lab::new();
    std::fs::write(lab.dir.path(layout::CA_NEXT_KEY), b"stray").unwrap();
    let s = lab.snap();
    assert!(s.cas.next.is_none());
}

#[test]
fn a_directory_that_is_a_file_is_refused() {
    let lab = Lab::empty();
    std::fs::remove_dir(lab.dir.root()).unwrap();
    std::fs::write(lab.dir.root(), b"").unwrap();
    assert!(err(&lab).contains("is not a directory"), "{}", err(&lab));
}
