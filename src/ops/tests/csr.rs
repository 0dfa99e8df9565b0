//! csr review's workflow: the evidence rules E1-E6 on registered machines and their ledger,
//! judged at chosen times, and when evidence is used at all.

use std::net::IpAddr;

use time::{Duration, OffsetDateTime};

use super::{Lab, t0};
use crate::csr::{self, Context, Csr, Decision};
use crate::ops::csr::{EvidenceUse, ReviewInputs, ReviewReport, review};
use crate::ops::machine::{self, AddInputs};

/// A kubelet client CSR for `node` from the node-bootstrapper, created at `created`.
fn client_csr(name: &str, node: &str, created: OffsetDateTime) -> Csr {
    let key = rcgen::KeyPair::generate().unwrap();
    let mut p = rcgen::CertificateParams::new(Vec::<String>::new()).unwrap();
    p.distinguished_name = rcgen::DistinguishedName::new();
    p.distinguished_name
        .push(rcgen::DnType::CommonName, format!("system:node:{node}"));
    p.distinguished_name
        .push(rcgen::DnType::OrganizationName, "system:nodes");
    let req = p.serialize_request(&key).unwrap();
    Csr {
        name: name.into(),
        created: Some(created),
        request: req.pem().unwrap().into_bytes(),
        signer: csr::CLIENT_SIGNER.into(),
        username: csr::BOOTSTRAPPER.into(),
        groups: csr::BOOTSTRAPPER_GROUPS.map(String::from).to_vec(),
        usages: vec!["digital signature".into(), "client auth".into()],
        approved: None,
        denied: false,
    }
}

/// A lab with machines w0 and w1 registered in pool worker.
fn lab() -> Lab {
    let lab = Lab::new();
    let ms: Vec<AddInputs> = ["w0", "w1"]
        .iter()
        .map(|n| AddInputs {
            name: n.to_string(),
            pool: "worker".into(),
            addresses: Vec::new(),
            ttl: None,
            uses: Some(1),
            force: false,
            new_pool: crate::model::NewPool::Refuse,
        })
        .collect();
    lab.apply(|s| machine::add(s, &ms, t0())).unwrap();
    lab
}

/// Records a fetch of `machine`'s token at `at` from 192.0.2.10 in the ledger.
fn fetched(lab: &Lab, machine: &str, at: OffsetDateTime, whole: bool) {
    let token = lab
        .snap()
        .machines
        .unwrap()
        .machines
        .into_iter()
        .find(|m| m.name == machine)
        .unwrap()
        .token;
    let record = serde_json::json!({"time": crate::pki::cert::rfc3339(at.unix_timestamp()),
        "machine": machine, "token": token, "pool": "worker", "client": "192.0.2.10:40000",
        "spec": "3.2.0", "bytes": 1000, "replica": "r1", "whole": whole});
    let p = lab.dir.path("auth/ledger/r1.jsonl");
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    let mut text = std::fs::read_to_string(&p).unwrap_or_default();
    text.push_str(&format!("{record}\n"));
    std::fs::write(&p, text).unwrap();
}

fn decide(
    lab: &Lab,
    csrs: Vec<Csr>,
    evidence: EvidenceUse,
    now: OffsetDateTime,
) -> Result<ReviewReport, String> {
    let snap = lab.snap().with_ledger(&[]).unwrap();
    let inputs = ReviewInputs {
        csrs,
        context: Context::at(now),
        nodes_given: true,
        evidence,
        window: Duration::hours(2),
        clock_skew: Duration::minutes(5),
        dir: lab.dir.root().display().to_string(),
    };
    review(Some(&snap), inputs, now).map_err(|e| format!("{e:#}"))
}

/// (decision, rule) of each CSR, in order.
fn verdicts(r: &ReviewReport) -> Vec<(Decision, &'static str)> {
    r.csrs.iter().map(|c| (c.decision, c.rule)).collect()
}

const BY_DEFAULT: EvidenceUse = EvidenceUse::IfRegistered {
    other_machines: false,
};

#[test]
fn e5_a_machine_that_fetched_whole_gets_its_client_csr_approved() {
    let lab = lab();
    let at = t0() + Duration::hours(1);
    fetched(&lab, "w0", at, true);
    let csr = client_csr("csr-1", "w0", at + Duration::minutes(3));
    let r = decide(&lab, vec![csr], BY_DEFAULT, at + Duration::minutes(4)).unwrap();
    assert_eq!(verdicts(&r), [(Decision::Approve, "E5")]);
    assert_eq!(
        r.csrs[0].reason,
        "registered machine w0 fetched its config at 2026-01-01T01:00:00Z from 192.0.2.10"
    );
    assert_eq!(r.evidence, Some((2, 1)));
    assert_eq!(r.approved_names(), "csr-1\n");
}

#[test]
fn e1_a_node_no_machine_is_registered_as_stays_pending() {
    let lab = lab();
    fetched(&lab, "w0", t0(), true);
    let r = decide(
        &lab,
        vec![client_csr("c", "w9", t0() + Duration::minutes(1))],
        BY_DEFAULT,
        t0() + Duration::minutes(2),
    )
    .unwrap();
    assert_eq!(verdicts(&r), [(Decision::Pending, "E1")]);
}

#[test]
fn e2_a_fetch_cut_off_before_its_end_is_no_evidence() {
    let lab = lab();
    fetched(&lab, "w1", t0(), false);
    let r = decide(
        &lab,
        vec![client_csr("c", "w1", t0() + Duration::minutes(1))],
        BY_DEFAULT,
        t0() + Duration::minutes(2),
    )
    .unwrap();
    assert_eq!(verdicts(&r), [(Decision::Pending, "E2")]);
    assert!(r.csrs[0].reason.contains("cut"), "{}", r.csrs[0].reason);
}

#[test]
fn e3_a_csr_outside_the_window_beyond_the_skew_stays_pending() {
    let lab = lab();
    let at = t0() + Duration::hours(1);
    fetched(&lab, "w0", at, true);
    let csrs = [
        // Before the fetch, beyond the 5 minutes of tolerance.
        client_csr("early", "w0", at - Duration::minutes(10)),
        // Within the tolerance: approved.
        client_csr("skewed", "w0", at - Duration::minutes(4)),
    ];
    let r = decide(
        &lab,
        csrs[..1].to_vec(),
        BY_DEFAULT,
        at + Duration::minutes(1),
    )
    .unwrap();
    assert_eq!(verdicts(&r), [(Decision::Pending, "E3")]);
    let r = decide(
        &lab,
        csrs[1..].to_vec(),
        BY_DEFAULT,
        at + Duration::minutes(1),
    )
    .unwrap();
    assert_eq!(verdicts(&r), [(Decision::Approve, "E5")]);
    // Past the two-hour window (and the tolerance).
    let late = client_csr("late", "w0", at + Duration::hours(2) + Duration::minutes(6));
    let r = decide(&lab, vec![late], BY_DEFAULT, at + Duration::hours(3)).unwrap();
    assert_eq!(verdicts(&r)[0].0, Decision::Pending);
}

#[test]
fn e4_a_node_with_a_client_csr_approved_since_its_fetch_gets_no_second() {
    let lab = lab();
    fetched(&lab, "w0", t0(), true);
    let mut first = client_csr("first", "w0", t0() + Duration::minutes(1));
    first.approved = Some(csr::Approved {
        last_transition: Some(t0() + Duration::minutes(2)),
        message: csr::APPROVED_MESSAGE.into(),
    });
    let second = client_csr("second", "w0", t0() + Duration::minutes(3));
    let r = decide(
        &lab,
        vec![first, second],
        BY_DEFAULT,
        t0() + Duration::minutes(4),
    )
    .unwrap();
    assert_eq!(verdicts(&r)[1], (Decision::Pending, "E4"));
}

#[test]
fn e6_two_client_csrs_since_the_fetch_leave_both_pending_whatever_their_order() {
    let lab = lab();
    fetched(&lab, "w0", t0(), true);
    let a = client_csr("a-machine", "w0", t0() + Duration::minutes(1));
    let b = client_csr("z-rogue", "w0", t0() + Duration::minutes(2));
    for csrs in [vec![a.clone(), b.clone()], vec![b, a]] {
        let r = decide(&lab, csrs, BY_DEFAULT, t0() + Duration::minutes(3)).unwrap();
        assert_eq!(
            verdicts(&r),
            [(Decision::Pending, "E6"), (Decision::Pending, "E6")]
        );
        assert!(r.csrs[0].reason.contains("a-machine") && r.csrs[0].reason.contains("z-rogue"));
    }
}

#[test]
fn evidence_is_used_when_asked_or_by_default_and_not_beside_machines() {
    let lab = lab();
    fetched(&lab, "w0", t0(), true);
    let csr = client_csr("c", "w0", t0() + Duration::minutes(1));
    let now = t0() + Duration::minutes(2);
    let r = decide(&lab, vec![csr.clone()], EvidenceUse::Required, now).unwrap();
    assert_eq!(verdicts(&r), [(Decision::Approve, "E5")]);
    // With Machines or an inventory given, the approver's own rules decide (no Machine: pending).
    let other = EvidenceUse::IfRegistered {
        other_machines: true,
    };
    let r = decide(&lab, vec![csr.clone()], other, now).unwrap();
    assert_eq!(r.evidence, None);
    assert_eq!(r.csrs[0].decision, Decision::Pending);
    assert!(!r.csrs[0].rule.starts_with('E'), "{}", r.csrs[0].rule);
    // --evidence where nothing is registered is a usage error.
    let bare = Lab::new();
    let e = decide(&bare, vec![csr], EvidenceUse::Required, now).unwrap_err();
    assert!(
        e.starts_with("--evidence: ")
            && e.ends_with("has no registered machine (`mcsctl machine add NAME --pool POOL`)"),
        "{e}"
    );
}

#[test]
fn client_csrs_without_nodes_are_refused_before_anything_is_decided() {
    let lab = lab();
    let snap = lab.snap();
    let inputs = ReviewInputs {
        csrs: vec![client_csr("c", "w0", t0())],
        context: Context::at(t0()),
        nodes_given: false,
        evidence: BY_DEFAULT,
        window: Duration::hours(2),
        clock_skew: Duration::minutes(5),
        dir: "mcs-assets".into(),
    };
    let e = review(Some(&snap), inputs, t0()).unwrap_err().to_string();
    assert!(
        e.starts_with("--nodes is required to decide client CSRs"),
        "{e}"
    );
}

#[test]
fn a_registered_address_is_kept_with_the_fetch_address() {
    // The hosts the approver's rules see: named after the node, at the registered and fetch
    // addresses, the window opening at the first whole fetch less the tolerance.
    let ev = csr::evidence::Evidence {
        machines: vec![csr::evidence::Registered {
            name: "w0".into(),
            addresses: vec!["192.0.2.20".parse::<IpAddr>().unwrap()],
            fetches: vec![(t0(), "192.0.2.10".parse().unwrap())],
            cut: 0,
        }],
        window: Duration::hours(2),
        skew: Duration::minutes(5),
    };
    let hosts = ev.hosts();
    let addrs: Vec<&str> = hosts[0]
        .addresses
        .iter()
        .map(|a| a.address.as_str())
        .collect();
    assert_eq!(addrs, ["w0", "192.0.2.20", "192.0.2.10"]);
    assert_eq!(hosts[0].created, Some(t0() - Duration::minutes(5)));
    assert_eq!(hosts[0].window_end, Some(t0() + Duration::minutes(125)));
}
