//! The serving certificate: issued and renewed by the signing CA, covering every name machines
//! reach the MCS by, at chosen times.

use super::{DAY, Lab, keys, said, t0};
use crate::names::San;
use crate::ops::serving::{self, IssueInputs};

fn issue(
    lab: &Lab,
    extra: Vec<San>,
    replace_sans: bool,
    force: bool,
) -> Result<Vec<String>, String> {
    let i = IssueInputs {
        extra,
        replace_sans,
        force,
        key_algorithm: None,
        validity: DAY * 30,
    };
    let k = keys();
    lab.apply(|s| serving::issue(s, &i, &k, t0()))
        .map(|(_, n)| said(&n))
}

fn names(lab: &Lab) -> Vec<String> {
    let s = lab.snap().cas.serving.unwrap().unwrap();
    let mut v: Vec<String> = s.info.dns_names.clone();
    v.extend(s.info.ip_addresses.iter().map(|i| i.to_string()));
    v
}

#[test]
fn issue_refuses_to_replace_a_pair_without_force() {
    let lab = Lab::new();
    let e = issue(&lab, Vec::new(), false, false).unwrap_err();
    assert!(e.contains("--force"), "{e}");
}

#[test]
fn a_reissue_keeps_every_name_and_adds_the_new_ones() {
    let lab = Lab::new();
    assert_eq!(names(&lab), ["api-int.demo.example.com"]);
    issue(&lab, vec![San::parse("IP:192.0.2.5").unwrap()], false, true).unwrap();
    assert_eq!(names(&lab), ["api-int.demo.example.com", "192.0.2.5"]);
    issue(
        &lab,
        vec![San::parse("mcs.example.com").unwrap()],
        false,
        true,
    )
    .unwrap();
    assert_eq!(
        names(&lab),
        ["api-int.demo.example.com", "mcs.example.com", "192.0.2.5"]
    );
    // --replace-sans drops what was added, never api-int.
    issue(&lab, Vec::new(), true, true).unwrap();
    assert_eq!(names(&lab), ["api-int.demo.example.com"]);
}

#[test]
fn renew_issues_a_new_certificate_from_the_time_given() {
    let lab = Lab::new();
    let before = lab.snap().cas.serving.unwrap().unwrap().info;
    let k = keys();
    let at = t0() + DAY * 100;
    lab.apply(|s| serving::renew(s, DAY * 30, None, &k, at))
        .unwrap();
    let after = lab.snap().cas.serving.unwrap().unwrap().info;
    assert_ne!(after.der, before.der);
    assert!(after.not_before <= at.unix_timestamp() && after.not_before > t0().unix_timestamp());
    let lifetime: i64 = after.not_after - after.not_before;
    assert!(lifetime >= DAY.whole_seconds() * 30 - 3600, "{lifetime}");
    assert_eq!(after.dns_names, before.dns_names);
}
