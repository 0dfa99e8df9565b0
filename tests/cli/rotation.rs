//! The trust chain over its whole life: `ca rotate`, `ca promote`, `ca retire` seen by the real
//! Ignition client through one running `mcsctl serve`; ten rotations in a row; adopting an
//! openshift-install CA with `init --ca-cert/--ca-key`; trusting a cluster's own bundle with
//! `ca import --bundle`.

use std::path::Path;
use std::time::{Duration, Instant};

use crate::ignition_client::ignition_fetch_within;
use crate::render::data_url;
use crate::serve::{FULL_34, PRE_32};
use crate::support::{Https, Serve, demo, ok, openssl_run, render, run};

/// The base64 bodies of the certificates in PEM text, one string each: equal bodies, equal
/// certificates, whatever the line wrapping.
fn bodies(pem: &str) -> Vec<String> {
    pem.split("-----BEGIN CERTIFICATE-----")
        .skip(1)
        .map(|b| {
            b.split("-----END CERTIFICATE-----")
                .next()
                .unwrap()
                .split_whitespace()
                .collect()
        })
        .collect()
}

fn file_bodies(p: &Path) -> Vec<String> {
    bodies(&std::fs::read_to_string(p).unwrap())
}

/// The CAs a pointer config trusts, in order.
fn trusted(pointer: &Path) -> Vec<String> {
    let v: serde_json::Value = serde_json::from_slice(&std::fs::read(pointer).unwrap()).unwrap();
    v["ignition"]["security"]["tls"]["certificateAuthorities"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|ca| {
            let pem = data_url(ca["source"].as_str().unwrap());
            bodies(&String::from_utf8(pem).unwrap())
        })
        .collect()
}

/// A pointer config for `pool` at the test server, written outside the asset directory (a
/// copy on the PXE server): rotations do not rewrite it.
fn copy_for(d: &Path, s: &Serve, out: &str) {
    let url = format!("https://127.0.0.1:{}/config/worker", s.addr.port());
    ok(
        d,
        &[
            "pointer", "--pool", "worker", "--url", &url, "--output", out, "--force", "-q",
        ],
    );
}

/// Whether Ignition fetched the full config with `pointer`; `None` when Ignition is not
/// installed and the run skips such parts. A fetch that cannot succeed is bounded: Ignition
/// retries a TLS failure for ever.
fn boots(pointer: &Path, expect: bool) -> Option<(bool, String)> {
    let limit = Duration::from_secs(if expect { 60 } else { 8 });
    // A refusal shows at the first attempt: TLS (x509) or the token (401).
    let until: &[&str] = if expect {
        &[]
    } else {
        &["x509: ", "GET result: Unauthorized"]
    };
    let (success, fetched, log) = ignition_fetch_within(pointer, limit, until)?;
    Some((success && fetched.contains("full%20config"), log))
}

fn assert_boots(pointer: &Path, phase: &str) {
    if let Some((booted, log)) = boots(pointer, true) {
        assert!(booted, "{} must boot {phase}:\n{log}", pointer.display());
    }
}

fn assert_refused(pointer: &Path, phase: &str) {
    if let Some((booted, log)) = boots(pointer, false) {
        assert!(!booted, "{} must not boot {phase}", pointer.display());
        assert!(
            log.contains("certificate signed by unknown authority"),
            "{phase}: Ignition failed for another reason:\n{log}"
        );
    }
}

/// Waits until the server presents `cert` (it reloads within a second or two), bounded.
fn wait_presents(s: &Serve, bundle: &Path, cert: &Path) {
    let want = file_bodies(cert);
    let start = Instant::now();
    loop {
        use base64::Engine;
        let leaf = Https::connect(s.addr, bundle).peer_leaf();
        let got = base64::engine::general_purpose::STANDARD.encode(leaf);
        if want.contains(&got) {
            return;
        }
        assert!(
            start.elapsed() < Duration::from_secs(15),
            "serve still presents its old certificate:\n{}",
            s.stderr()
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// inspect's ca-rotation row (and its fix line), checked to contain `needle`; nothing in the
/// report fails.
fn inspect_says(d: &Path, needle: &str) {
    let (code, out, err) = run(d, &["inspect"]);
    assert!(code == 0 || code == 3, "{out}{err}");
    let lines: Vec<&str> = out.lines().collect();
    let i = lines
        .iter()
        .position(|l| l.contains(" ca-rotation "))
        .unwrap_or_else(|| panic!("no ca-rotation row:\n{out}"));
    let row = format!("{}\n{}", lines[i], lines.get(i + 1).unwrap_or(&""));
    assert!(
        row.contains(needle),
        "the ca-rotation row lacks {needle:?}:\n{out}"
    );
}

#[test]
fn every_phase_seen_by_the_real_ignition_client_through_one_running_serve() {
    let d = demo(&["--san", "127.0.0.1"]);
    let a = d.path().join("mcs-assets");
    render(&a, "worker", FULL_34, Some(PRE_32));
    let s = Serve::start(d.path(), &[]);
    let bundle = a.join("tls/mcs-ca-bundle.crt");
    let old_ca = file_bodies(&a.join("tls/mcs-ca.crt"));
    copy_for(d.path(), &s, "before.ign");
    assert_eq!(trusted(&d.path().join("before.ign")), old_ca);
    assert_boots(&d.path().join("before.ign"), "before any rotation");

    // Phase 1: both CAs trusted, the old one still signs. Every pointer config boots.
    ok(d.path(), &["ca", "rotate", "-q"]);
    let new_ca = file_bodies(&a.join("tls/mcs-ca-next.crt"));
    assert_ne!(new_ca, old_ca);
    let both: Vec<String> = old_ca.iter().chain(&new_ca).cloned().collect();
    assert_eq!(file_bodies(&bundle), both);
    assert_eq!(trusted(&a.join("worker.ign")), both);
    copy_for(d.path(), &s, "during.ign");
    assert_eq!(trusted(&d.path().join("during.ign")), both);
    inspect_says(d.path(), "phase 1 of 3");
    inspect_says(d.path(), "mcsctl ca promote");
    // Before promoting, inspect finds the copy that would stop working, and says why.
    let (code, out, _) = run(d.path(), &["inspect", "before.ign", "during.ign"]);
    assert_eq!(code, 3, "{out}");
    assert!(
        out.contains("warn   pointer-ca  before.ign does not trust the new CA")
            && out.contains("fail once `mcsctl ca promote` runs")
            && out.contains("fix: replace it with the directory's worker.ign")
            && !out.contains("during.ign does not trust"),
        "{out}"
    );
    assert_boots(&d.path().join("before.ign"), "in phase 1");
    assert_boots(&d.path().join("during.ign"), "in phase 1");

    // Phase 2: the new CA signs. A copy from before the rotation no longer boots, and doctor
    // names the CA it lacks.
    ok(d.path(), &["ca", "promote", "-q"]);
    wait_presents(&s, &bundle, &a.join("tls/mcs.crt"));
    inspect_says(d.path(), "phase 2 of 3");
    inspect_says(d.path(), "mcsctl ca retire");
    assert_boots(&d.path().join("during.ign"), "in phase 2");
    assert_refused(&d.path().join("before.ign"), "in phase 2");
    let (code, out, _) = run(d.path(), &["doctor", "before.ign"]);
    assert_eq!(code, 4, "{out}");
    let new_key_id = key_id(&a.join("tls/mcs-ca.crt"));
    assert!(
        out.contains("failed at step tls")
            && out.contains("unknown authority")
            && out.contains(&new_key_id),
        "doctor must name the CA the pointer lacks ({new_key_id}):\n{out}"
    );
    // ...by the directory's history: the copy trusts the CA this directory replaced (both are
    // "OU=openshift, CN=root-ca": the key ids tell them apart), and the fix is the directory's
    // pointer config, not a new certificate.
    let old_key_id = key_id(&a.join("tls/mcs-ca-previous.crt"));
    assert!(
        out.contains(&format!("the server presents a certificate of mcs-assets's active CA OU=openshift, CN=root-ca (key id {new_key_id}), and the pointer trusts only OU=openshift, CN=root-ca (key id {old_key_id}), mcs-assets's previous CA (tls/mcs-ca-previous.crt, replaced by `ca promote`): it is a copy of a pointer config made before the CA rotation"))
            && out.contains("fix: replace the copy wherever machines boot from it (PXE server, VM template, user data) with mcs-assets/worker.ign, which trusts the active CA, or write one with `mcsctl pointer --pool worker --output FILE --force`")
            && !out.contains("another cluster")
            && !out.contains("cert issue"),
        "{out}"
    );
    // inspect --remote says the same for the copy, and what fixes it.
    let remote = format!("127.0.0.1:{}", s.addr.port());
    let (code, out, _) = run(d.path(), &["inspect", "--remote", &remote, "before.ign"]);
    assert_eq!(code, 4, "{out}");
    assert!(
        out.contains("before.ign does not trust what")
            && out.contains("fix: the pointer configs of mcs-assets trust it: copy worker.ign"),
        "{out}"
    );

    // Phase 3: the old CA leaves; the copy made during the rotation still boots.
    ok(d.path(), &["ca", "retire", "-q"]);
    assert_eq!(file_bodies(&bundle), new_ca);
    assert_eq!(trusted(&a.join("worker.ign")), new_ca);
    copy_for(d.path(), &s, "after.ign");
    assert_eq!(trusted(&d.path().join("after.ign")), new_ca);
    inspect_says(d.path(), "no CA rotation in progress");
    assert_boots(&d.path().join("during.ign"), "after retire");
    assert_boots(&d.path().join("after.ign"), "after retire");
    assert_refused(&d.path().join("before.ign"), "after retire");
    assert!(a.join("tls/retired").read_dir().unwrap().count() == 2);
    let (code, out, _) = run(d.path(), &["doctor", "before.ign"]);
    assert_eq!(code, 4, "{out}");
    assert!(
        out.contains(&format!(
            "(key id {old_key_id}), a CA mcs-assets retired (tls/retired/"
        )) && out.contains("made before the CA rotation"),
        "{out}"
    );

    // One serve process saw it all, reloading the serving pair once.
    assert_eq!(
        s.stderr()
            .matches("\"message\":\"reloaded: certificate")
            .count(),
        1,
        "one reload, for the promoted serving certificate:\n{}",
        s.stderr()
    );
    assert!(!s.stderr().contains("reload-failed"), "{}", s.stderr());
}

/// A certificate's subject key identifier as mcsctl prints it (`AB:CD:…`).
fn key_id(cert: &Path) -> String {
    use x509_parser::prelude::*;
    let pem = std::fs::read(cert).unwrap();
    let (_, p) = parse_x509_pem(&pem).unwrap();
    let (_, c) = X509Certificate::from_der(&p.contents).unwrap();
    let ski = c
        .extensions()
        .iter()
        .find_map(|e| match e.parsed_extension() {
            ParsedExtension::SubjectKeyIdentifier(k) => Some(k.0.to_vec()),
            _ => None,
        })
        .expect("the CA has a subject key identifier");
    ski.iter()
        .map(|b| format!("{b:02X}"))
        .collect::<Vec<_>>()
        .join(":")
}

fn cas_in_bundle(a: &Path) -> usize {
    file_bodies(&a.join("tls/mcs-ca-bundle.crt")).len()
}

/// The bundle and every pointer config hold at most two CAs, all unexpired and none retired.
fn at_most_two(a: &Path, step: &str) {
    let bundle = file_bodies(&a.join("tls/mcs-ca-bundle.crt"));
    assert!(
        (1..=2).contains(&bundle.len()),
        "{step}: {} CAs in the bundle",
        bundle.len()
    );
    for p in ["worker.ign", "master.ign"] {
        assert_eq!(trusted(&a.join(p)), bundle, "{step}: {p}");
    }
    if let Ok(rd) = a.join("tls/retired").read_dir() {
        for e in rd.flatten() {
            if e.path().extension().is_some_and(|x| x == "crt") {
                let retired = file_bodies(&e.path());
                assert!(
                    !bundle.contains(&retired[0]),
                    "{step}: retired {} still in the bundle",
                    e.path().display()
                );
            }
        }
    }
}

#[test]
fn ten_rotations_never_leave_more_than_two_cas() {
    let d = demo(&[]);
    let a = d.path().join("mcs-assets");
    for i in 0..10 {
        ok(d.path(), &["ca", "rotate", "-q"]);
        at_most_two(&a, &format!("rotation {i}, rotate"));
        assert_eq!(cas_in_bundle(&a), 2);
        ok(d.path(), &["ca", "promote", "-q"]);
        at_most_two(&a, &format!("rotation {i}, promote"));
        ok(d.path(), &["ca", "retire", "-q"]);
        at_most_two(&a, &format!("rotation {i}, retire"));
        assert_eq!(cas_in_bundle(&a), 1);
        assert_eq!(run(d.path(), &["inspect"]).0, 0);
    }
    assert_eq!(a.join("tls/retired").read_dir().unwrap().count(), 20);
    ok(d.path(), &["ca", "retire", "--purge", "-q"]);
    assert_eq!(a.join("tls/retired").read_dir().unwrap().count(), 0);

    // The one-step replacement, ten times: previous + active at most, each time.
    for i in 0..10 {
        let (code, _, err) = run(d.path(), &["ca", "create", "--force", "--yes"]);
        assert_eq!(code, 0, "{err}");
        assert!(
            err.contains(
                "copies of pointer configs made before this command trust only the old CA"
            ),
            "{err}"
        );
        at_most_two(&a, &format!("ca create --force {i}"));
        assert_eq!(cas_in_bundle(&a), 2);
        assert_eq!(run(d.path(), &["inspect"]).0, 3);
    }
    let other = demo(&[]);
    let their = other.path().join("mcs-assets/tls");
    let (cert, key) = (their.join("mcs-ca.crt"), their.join("mcs-ca.key"));
    ok(
        d.path(),
        &[
            "ca",
            "import",
            "--force",
            "--yes",
            "--cert",
            cert.to_str().unwrap(),
            "--key",
            key.to_str().unwrap(),
            "-q",
        ],
    );
    at_most_two(&a, "ca import --force");
    assert_eq!(file_bodies(&a.join("tls/mcs-ca.crt")), file_bodies(&cert));
    ok(d.path(), &["ca", "retire", "-q"]);
    assert_eq!(cas_in_bundle(&a), 1);
    assert_eq!(run(d.path(), &["inspect"]).0, 0);
}

#[test]
fn phases_refuse_out_of_order_and_reruns_do_nothing() {
    let d = demo(&[]);
    let a = d.path().join("mcs-assets");
    let fails = |args: &[&str], needle: &str| {
        let before = crate::support::snapshot(d.path());
        let (code, _, err) = run(d.path(), args);
        assert_eq!(code, 1, "{args:?}: {err}");
        assert!(err.contains(needle), "{args:?}: {err}");
        assert_eq!(before, crate::support::snapshot(d.path()), "{args:?}");
    };
    fails(
        &["ca", "promote"],
        "no new CA to promote: run `mcsctl ca rotate` first",
    );
    let worker_before = std::fs::read(a.join("worker.ign")).unwrap();
    ok(d.path(), &["ca", "rotate", "-q"]);
    let after_rotate = crate::support::snapshot(d.path());
    let (code, _, err) = run(d.path(), &["ca", "rotate"]);
    assert_eq!(code, 0);
    assert!(err.contains("already introduced"), "{err}");
    assert_eq!(after_rotate, crate::support::snapshot(d.path()));
    fails(
        &["ca", "retire"],
        "a new CA is introduced but not promoted: run `mcsctl ca promote`",
    );
    // A pointer config that does not trust the new CA holds the promotion back.
    std::fs::write(a.join("edge.ign"), &worker_before).unwrap();
    fails(&["ca", "promote"], "edge.ign do not trust the new CA yet");
    let (code, _, err) = run(d.path(), &["ca", "promote", "--force"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("promoting although edge.ign do not trust the new CA"),
        "{err}"
    );
    std::fs::remove_file(a.join("edge.ign")).unwrap();
    let after_promote = crate::support::snapshot(d.path());
    let (code, _, err) = run(d.path(), &["ca", "promote"]);
    assert_eq!(code, 0);
    assert!(err.contains("nothing to do"), "{err}");
    assert_eq!(after_promote, crate::support::snapshot(d.path()));
    fails(&["ca", "rotate"], "run `mcsctl ca retire` first");
    // retire refuses while the serving certificate is signed by the CA it would drop.
    std::fs::copy(a.join("tls/mcs-ca-previous.crt"), d.path().join("prev.crt")).unwrap();
    std::fs::copy(a.join("tls/mcs-ca-previous.key"), d.path().join("prev.key")).unwrap();
    let prev_dir = d.path().join("prev-ca");
    std::fs::create_dir(&prev_dir).unwrap();
    ok(
        d.path(),
        &[
            "--dir", "prev-ca", "ca", "import", "--cert", "prev.crt", "--key", "prev.key", "-q",
        ],
    );
    ok(
        d.path(),
        &[
            "--dir",
            "prev-ca",
            "cert",
            "issue",
            "--san",
            "api-int.demo.example.com",
            "-q",
        ],
    );
    std::fs::copy(prev_dir.join("tls/mcs.crt"), a.join("tls/mcs.crt")).unwrap();
    std::fs::copy(prev_dir.join("tls/mcs.key"), a.join("tls/mcs.key")).unwrap();
    fails(&["ca", "retire"], "tls/mcs.crt is still signed by");
    ok(d.path(), &["cert", "issue", "--force", "-q"]);
    ok(d.path(), &["ca", "retire", "-q"]);
    let (code, _, err) = run(d.path(), &["ca", "retire"]);
    assert_eq!(code, 0);
    assert!(err.contains("no CA to retire"), "{err}");
}

#[test]
fn init_adopts_an_openshift_install_rsa_ca() {
    let d = tempfile::tempdir().unwrap();
    if crate::pki::openshift_install_ca(d.path()).is_none() {
        return;
    }
    crate::support::init_demo(
        d.path(),
        &["--ca-cert", "root-ca.crt", "--ca-key", "root-ca.key"],
    );
    let a = d.path().join("mcs-assets");
    let ca = file_bodies(&d.path().join("root-ca.crt"));
    // Exactly that CA, nowhere a throwaway one.
    assert_eq!(file_bodies(&a.join("tls/mcs-ca.crt")), ca);
    assert_eq!(file_bodies(&a.join("tls/mcs-ca-bundle.crt")), ca);
    for p in ["worker.ign", "master.ign"] {
        assert_eq!(trusted(&a.join(p)), ca, "{p}");
    }
    assert!(!a.join("tls/retired").exists());
    // The PKCS#1 key is kept as given, 0600.
    assert_eq!(
        std::fs::read(a.join("tls/mcs-ca.key")).unwrap(),
        std::fs::read(d.path().join("root-ca.key")).unwrap()
    );
    assert_eq!(crate::support::mode(&a.join("tls/mcs-ca.key")), 0o600);
    let (verified, out) = openssl_run(
        &["verify", "-CAfile", "root-ca.crt", "mcs-assets/tls/mcs.crt"],
        d.path(),
    )
    .unwrap();
    assert!(verified, "{out}");
    assert_eq!(run(d.path(), &["inspect"]).0, 0);

    // DER works too; a swapped pair and a key that is not the CA's are named.
    let (converted, out) = openssl_run(
        &[
            "x509",
            "-in",
            "root-ca.crt",
            "-outform",
            "DER",
            "-out",
            "root-ca.der",
        ],
        d.path(),
    )
    .unwrap();
    assert!(converted, "{out}");
    let init = |dir: &str, cert: &str, key: &str| {
        run(
            d.path(),
            &[
                "--dir",
                dir,
                "init",
                "--cluster-name",
                "demo",
                "--base-domain",
                "example.com",
                "--ca-cert",
                cert,
                "--ca-key",
                key,
                "-q",
            ],
        )
    };
    let (code, _, err) = init("der", "root-ca.der", "root-ca.key");
    assert_eq!(code, 0, "{err}");
    assert_eq!(file_bodies(&d.path().join("der/tls/mcs-ca.crt")), ca);
    let (code, _, err) = init("swapped", "root-ca.key", "root-ca.crt");
    assert_eq!(code, 1);
    assert!(
        err.contains("root-ca.key holds a private key (PEM \"RSA PRIVATE KEY\"), not a certificate: were the certificate and the key swapped?"),
        "{err}"
    );
    assert!(
        !d.path().join("swapped").exists(),
        "a refused init left files"
    );
    std::fs::write(
        d.path().join("other.key"),
        std::fs::read(a.join("tls/mcs.key")).unwrap(),
    )
    .unwrap();
    let (code, _, err) = init("mismatch", "root-ca.crt", "other.key");
    assert_eq!(code, 1);
    assert!(err.contains("other.key does not match"), "{err}");
}

/// A ConfigMap as `oc get -o yaml` prints the 4.19 MCO's: the bundle under ca-bundle.crt.
fn configmap_yaml(pems: &[String]) -> String {
    let joined: String = pems.concat();
    let indented: String = joined.lines().map(|l| format!("    {l}\n")).collect();
    format!(
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: machine-config-server-ca\n  namespace: openshift-machine-config-operator\n  annotations:\n    auth.openshift.io/certificate-issuer: openshift-machine-config-operator_machine-config-server-ca\ndata:\n  ca-bundle.crt: |\n{indented}"
    )
}

#[test]
fn ca_import_bundle_trusts_exactly_the_clusters_two_cas() {
    let one = demo(&[]);
    let two = demo(&[]);
    let pem = |d: &tempfile::TempDir| {
        std::fs::read_to_string(d.path().join("mcs-assets/tls/mcs-ca.crt")).unwrap()
    };
    let cluster = [pem(&one), pem(&two)];
    let want: Vec<String> = cluster.iter().flat_map(|p| bodies(p)).collect();
    let d = demo(&[]);
    let a = d.path().join("mcs-assets");
    std::fs::write(d.path().join("mcs-ca.yaml"), configmap_yaml(&cluster)).unwrap();
    // Another cluster's bundle, as far as this directory knows: only with --force.
    let before = crate::support::snapshot(d.path());
    let (code, _, err) = run(d.path(), &["ca", "import", "--bundle", "mcs-ca.yaml"]);
    assert_eq!(code, 1);
    assert!(
        err.contains("shares no CA with what the pointer configs here trust"),
        "{err}"
    );
    assert_eq!(before, crate::support::snapshot(d.path()));
    let (code, _, err) = run(
        d.path(),
        &["ca", "import", "--bundle", "mcs-ca.yaml", "--force"],
    );
    // The directory's pointer configs trust the CA being left: breaking their copies is said.
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("--force --yes trusts it instead, and every copy of a pointer config made before stops working"),
        "{err}"
    );
    let (code, _, err) = run(
        d.path(),
        &[
            "ca",
            "import",
            "--bundle",
            "mcs-ca.yaml",
            "--force",
            "--yes",
        ],
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(file_bodies(&a.join("tls/mcs-ca-bundle.crt")), want);
    for p in ["worker.ign", "master.ign"] {
        assert_eq!(trusted(&a.join(p)), want, "{p}");
    }
    // No signing key came with it: cert commands say the cluster signs; the rotation steps
    // stand aside; inspect describes it without a failure.
    assert!(!a.join("tls/mcs-ca.key").exists());
    let (code, _, err) = run(d.path(), &["cert", "renew"]);
    assert_eq!(code, 1);
    assert!(
        err.contains("the cluster signs the MCS's serving certificate")
            && err.contains("mcsctl ca import --bundle"),
        "{err}"
    );
    let (code, _, err) = run(d.path(), &["ca", "rotate"]);
    assert_eq!(code, 1);
    assert!(err.contains("the MCO rotates it, not `ca rotate`"), "{err}");
    let (code, out, _) = run(d.path(), &["inspect"]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("the CA bundle is the cluster's (from ConfigMap openshift-machine-config-operator/machine-config-server-ca")
            && out.contains("worker.ign trusts every CA of the cluster's bundle"),
        "{out}"
    );
    // A new pointer config trusts the same two.
    ok(
        d.path(),
        &["pointer", "--pool", "infra", "-q", "--new-pool"],
    );
    assert_eq!(trusted(&a.join("infra.ign")), want);

    // After the cluster rotates (the older CA leaves, a newer one comes), importing again
    // follows it without --force: the bundles overlap.
    let three = demo(&[]);
    let rotated = [cluster[1].clone(), pem(&three)];
    std::fs::write(d.path().join("mcs-ca.yaml"), configmap_yaml(&rotated)).unwrap();
    ok(d.path(), &["ca", "import", "--bundle", "mcs-ca.yaml", "-q"]);
    let want: Vec<String> = rotated.iter().flat_map(|p| bodies(p)).collect();
    assert_eq!(trusted(&a.join("worker.ign")), want);

    // The signing Secret beside the ConfigMap (one `oc get` of both): cert commands work.
    use base64::Engine;
    let b64 =
        |p: &Path| base64::engine::general_purpose::STANDARD.encode(std::fs::read(p).unwrap());
    let tls = three.path().join("mcs-assets/tls");
    let list = serde_json::json!({
        "apiVersion": "v1",
        "kind": "List",
        "items": [
            serde_yaml_ng::from_str::<serde_json::Value>(&configmap_yaml(&rotated)).unwrap(),
            {
                "apiVersion": "v1", "kind": "Secret", "type": "kubernetes.io/tls",
                "metadata": {"name": "machine-config-server-ca", "namespace": "openshift-machine-config-operator"},
                "data": {"tls.crt": b64(&tls.join("mcs-ca.crt")), "tls.key": b64(&tls.join("mcs-ca.key"))},
            },
        ],
    })
    .to_string();
    std::fs::write(d.path().join("both.yaml"), list).unwrap();
    ok(d.path(), &["ca", "import", "--bundle", "both.yaml", "-q"]);
    assert_eq!(trusted(&a.join("worker.ign")), want);
    assert_eq!(
        file_bodies(&a.join("tls/mcs-ca.crt")),
        file_bodies(&tls.join("mcs-ca.crt"))
    );
    ok(
        d.path(),
        &["cert", "issue", "--san", "api-int.demo.example.com", "-q"],
    );
    assert_eq!(run(d.path(), &["inspect"]).0, 0);
}
