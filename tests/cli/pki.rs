//! Certificates checked structurally (x509-parser) and independently (openssl).

use std::path::Path;

use x509_parser::prelude::*;

use crate::ignition_client::ignition_fetch;
use crate::support::{demo, mode, ok, openssl_run, run};

fn parse(path: &Path) -> Vec<u8> {
    let pem = std::fs::read(path).unwrap();
    let (_, p) = x509_parser::pem::parse_x509_pem(&pem).unwrap();
    p.contents
}

fn days_left(c: &X509Certificate<'_>) -> i64 {
    (c.validity().not_after.timestamp() - ::time::OffsetDateTime::now_utc().unix_timestamp())
        / 86_400
}

fn check_structure(assets: &Path, key_oid: &str) {
    let ca_der = parse(&assets.join("tls/mcs-ca.crt"));
    let (_, ca) = X509Certificate::from_der(&ca_der).unwrap();
    assert_eq!(ca.subject().to_string(), "OU=openshift, CN=root-ca");
    assert_eq!(ca.issuer().to_string(), "OU=openshift, CN=root-ca");
    let bc = ca.basic_constraints().unwrap().unwrap();
    assert!(bc.critical && bc.value.ca);
    let ku = ca.key_usage().unwrap().unwrap();
    assert!(ku.critical && ku.value.key_cert_sign() && ku.value.crl_sign());
    assert!(
        ca.get_extension_unique(&x509_parser::oid_registry::OID_X509_EXT_SUBJECT_KEY_IDENTIFIER)
            .unwrap()
            .is_some()
    );
    assert!(
        days_left(&ca) >= 3649,
        "CA valid for {} days",
        days_left(&ca)
    );
    assert_eq!(ca.raw_serial().len(), 16);
    assert!(ca.raw_serial()[0] & 0x80 == 0, "serial must be positive");
    assert_eq!(ca.public_key().algorithm.algorithm.to_id_string(), key_oid);
    // Backdated by one hour for machines with wrong clocks.
    let backdate =
        ::time::OffsetDateTime::now_utc().unix_timestamp() - ca.validity().not_before.timestamp();
    assert!(
        (3590..3700).contains(&backdate),
        "notBefore backdated by {backdate}s"
    );

    let leaf_der = parse(&assets.join("tls/mcs.crt"));
    let (_, leaf) = X509Certificate::from_der(&leaf_der).unwrap();
    assert_eq!(
        leaf.subject().to_string(),
        "CN=system:machine-config-server"
    );
    assert_eq!(leaf.issuer(), ca.subject());
    let san = leaf.subject_alternative_name().unwrap().unwrap();
    assert!(
        san.value
            .general_names
            .contains(&GeneralName::DNSName("api-int.demo.example.com"))
    );
    let eku = leaf.extended_key_usage().unwrap().unwrap();
    assert!(eku.value.server_auth && !eku.value.client_auth);
    assert!(
        !leaf
            .basic_constraints()
            .unwrap()
            .is_some_and(|b| b.value.ca)
    );
    assert!(leaf.validity().not_after <= ca.validity().not_after);
    assert!(days_left(&leaf) >= 3649);
    let aki = leaf
        .get_extension_unique(&x509_parser::oid_registry::OID_X509_EXT_AUTHORITY_KEY_IDENTIFIER)
        .unwrap()
        .unwrap();
    let ski = ca
        .get_extension_unique(&x509_parser::oid_registry::OID_X509_EXT_SUBJECT_KEY_IDENTIFIER)
        .unwrap()
        .unwrap();
    match (aki.parsed_extension(), ski.parsed_extension()) {
        (ParsedExtension::AuthorityKeyIdentifier(a), ParsedExtension::SubjectKeyIdentifier(s)) => {
            assert_eq!(a.key_identifier.as_ref().unwrap().0, s.0)
        }
        other => panic!("unexpected {other:?}"),
    }
    assert_eq!(
        leaf.public_key().algorithm.algorithm.to_id_string(),
        key_oid
    );
    leaf.verify_signature(Some(ca.public_key())).unwrap();
    for f in [
        "tls/mcs-ca.key",
        "tls/mcs.key",
        "auth/tokens.json",
        "worker.ign",
        "master.ign",
    ] {
        assert_eq!(mode(&assets.join(f)), 0o600, "{f}");
    }
    for f in [
        "tls/mcs-ca.crt",
        "tls/mcs.crt",
        "tls/mcs-ca-bundle.crt",
        "mcsctl.json",
    ] {
        assert_eq!(mode(&assets.join(f)), 0o644, "{f}");
    }
}

fn check_openssl(cwd: &Path) {
    let Some((ok, out)) = openssl_run(
        &[
            "verify",
            "-CAfile",
            "mcs-assets/tls/mcs-ca.crt",
            "mcs-assets/tls/mcs.crt",
        ],
        cwd,
    ) else {
        return;
    };
    assert!(ok && out.contains("mcs-assets/tls/mcs.crt: OK"), "{out}");
    let (ok, out) = openssl_run(
        &[
            "x509",
            "-in",
            "mcs-assets/tls/mcs-ca.crt",
            "-noout",
            "-checkend",
            &(3649 * 86_400).to_string(),
        ],
        cwd,
    )
    .unwrap();
    assert!(ok, "CA expires within 3649 days: {out}");
    let (ok, out) = openssl_run(
        &[
            "x509",
            "-in",
            "mcs-assets/tls/mcs.crt",
            "-noout",
            "-ext",
            "subjectAltName",
        ],
        cwd,
    )
    .unwrap();
    assert!(ok && out.contains("DNS:api-int.demo.example.com"), "{out}");
    for key in ["mcs-assets/tls/mcs.key", "mcs-assets/tls/mcs-ca.key"] {
        let (ok, out) = openssl_run(&["pkey", "-in", key, "-noout"], cwd).unwrap();
        assert!(ok, "openssl cannot read {key}: {out}");
    }
    // The key belongs to the certificate: same public key.
    let (_, a) = openssl_run(
        &["x509", "-in", "mcs-assets/tls/mcs.crt", "-noout", "-pubkey"],
        cwd,
    )
    .unwrap();
    let (_, b) = openssl_run(&["pkey", "-in", "mcs-assets/tls/mcs.key", "-pubout"], cwd).unwrap();
    assert_eq!(a, b);
}

#[test]
fn every_key_algorithm_makes_a_valid_chain() {
    for (alg, oid) in [
        ("ecdsa-p256", "1.2.840.10045.2.1"),
        ("ecdsa-p384", "1.2.840.10045.2.1"),
        ("ed25519", "1.3.101.112"),
        ("rsa-2048", "1.2.840.113549.1.1.1"),
        ("rsa-3072", "1.2.840.113549.1.1.1"),
        ("rsa-4096", "1.2.840.113549.1.1.1"),
    ] {
        let d = demo(&["--key-algorithm", alg]);
        check_structure(&d.path().join("mcs-assets"), oid);
        check_openssl(d.path());
        let (code, out, _) = run(d.path(), &["inspect", "--dir", "mcs-assets"]);
        assert_eq!(code, 0, "{alg}: {out}");
    }
}

#[test]
fn serving_cert_never_outlives_the_ca() {
    let d = tempfile::tempdir().unwrap();
    ok(
        d.path(),
        &[
            "init",
            "--cluster-name",
            "demo",
            "--base-domain",
            "example.com",
            "--ca-validity",
            "1y",
            "--cert-validity",
            "5y",
            "-q",
        ],
    );
    let (_, ca) = X509Certificate::from_der(&parse(&d.path().join("mcs-assets/tls/mcs-ca.crt")))
        .map(|(r, c)| (r, c.validity().not_after.timestamp()))
        .unwrap();
    let (_, leaf) = X509Certificate::from_der(&parse(&d.path().join("mcs-assets/tls/mcs.crt")))
        .map(|(r, c)| (r, c.validity().not_after.timestamp()))
        .unwrap();
    assert_eq!(leaf, ca);
}

#[test]
fn renew_keeps_ca_and_sans_with_a_new_key() {
    let d = demo(&["--san", "10.0.0.5", "--san", "mcs.lab.example.com"]);
    let a = d.path().join("mcs-assets");
    let old_key = std::fs::read(a.join("tls/mcs.key")).unwrap();
    let old_cert = parse(&a.join("tls/mcs.crt"));
    ok(d.path(), &["cert", "renew", "-q"]);
    let new_cert = parse(&a.join("tls/mcs.crt"));
    assert_ne!(std::fs::read(a.join("tls/mcs.key")).unwrap(), old_key);
    let (_, o) = X509Certificate::from_der(&old_cert).unwrap();
    let (_, n) = X509Certificate::from_der(&new_cert).unwrap();
    assert_eq!(
        o.subject_alternative_name().unwrap().unwrap().value,
        n.subject_alternative_name().unwrap().unwrap().value
    );
    assert_ne!(o.public_key().raw, n.public_key().raw);
    assert_ne!(o.raw_serial(), n.raw_serial());
    assert_eq!(mode(&a.join("tls/mcs.key")), 0o600);
    check_openssl(d.path());
    assert_eq!(run(d.path(), &["inspect"]).0, 0);
}

#[test]
fn cert_issue_refuses_to_overwrite_without_force() {
    let d = demo(&[]);
    let (code, _, err) = run(d.path(), &["cert", "issue"]);
    assert_eq!(code, 1);
    assert!(err.contains("use --force"), "{err}");
    ok(
        d.path(),
        &["cert", "issue", "--force", "--san", "192.168.1.10", "-q"],
    );
    let (_, leaf) = X509Certificate::from_der(&parse(&d.path().join("mcs-assets/tls/mcs.crt")))
        .map(|(r, c)| {
            (
                r,
                c.subject_alternative_name()
                    .unwrap()
                    .unwrap()
                    .value
                    .general_names
                    .len(),
            )
        })
        .unwrap();
    assert_eq!(leaf, 2);
}

/// The names of the serving certificate, as openssl would list them.
fn serving_sans(d: &Path) -> Vec<String> {
    let der = parse(&d.join("mcs-assets/tls/mcs.crt"));
    let (_, c) = X509Certificate::from_der(&der).unwrap();
    c.subject_alternative_name()
        .unwrap()
        .unwrap()
        .value
        .general_names
        .iter()
        .map(|n| match n {
            x509_parser::extensions::GeneralName::DNSName(s) => s.to_string(),
            x509_parser::extensions::GeneralName::IPAddress(b) => {
                let a: [u8; 4] = (*b).try_into().unwrap();
                std::net::IpAddr::from(a).to_string()
            }
            other => format!("{other:?}"),
        })
        .collect()
}

/// `cert issue --san X --force` adds X: api-int, the load balancer's host from `init --url`
/// and the earlier SANs stay (dropping them broke every pointer); `--replace-sans` drops the
/// earlier SANs only.
#[test]
fn cert_issue_adds_to_the_names_it_must_cover() {
    let d = demo(&[
        "--san",
        "127.0.0.1",
        "--url",
        "https://lb.demo.example.com:22623",
    ]);
    ok(
        d.path(),
        &["cert", "issue", "--force", "--san", "10.0.0.5", "-q"],
    );
    assert_eq!(
        serving_sans(d.path()),
        [
            "api-int.demo.example.com",
            "lb.demo.example.com",
            "127.0.0.1",
            "10.0.0.5"
        ]
    );
    ok(
        d.path(),
        &[
            "cert",
            "issue",
            "--force",
            "--replace-sans",
            "--san",
            "10.0.0.6",
            "-q",
        ],
    );
    assert_eq!(
        serving_sans(d.path()),
        [
            "api-int.demo.example.com",
            "lb.demo.example.com",
            "10.0.0.6"
        ]
    );
    check_openssl(d.path());
}

/// An openshift-install style CA: RSA-2048, `OU=openshift, CN=root-ca`, the key in PKCS#1.
pub(crate) fn openshift_install_ca(dir: &Path) -> Option<()> {
    let (ok1, out) = openssl_run(
        &[
            "req",
            "-x509",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-keyout",
            "pkcs8.key",
            "-out",
            "root-ca.crt",
            "-subj",
            "/OU=openshift/CN=root-ca",
            "-days",
            "3650",
            "-addext",
            "basicConstraints=critical,CA:TRUE",
            "-addext",
            "keyUsage=critical,keyCertSign,digitalSignature,keyEncipherment",
        ],
        dir,
    )?;
    assert!(ok1, "{out}");
    let (ok2, out) = openssl_run(
        &[
            "rsa",
            "-in",
            "pkcs8.key",
            "-traditional",
            "-out",
            "root-ca.key",
        ],
        dir,
    )?;
    assert!(ok2, "{out}");
    assert!(
        std::fs::read_to_string(dir.join("root-ca.key"))
            .unwrap()
            .starts_with("-----BEGIN RSA PRIVATE KEY-----")
    );
    Some(())
}

#[test]
fn ca_import_of_an_openshift_install_pair_works_end_to_end() {
    let d = tempfile::tempdir().unwrap();
    if openshift_install_ca(d.path()).is_none() {
        return;
    }
    // An asset directory whose CA is replaced by the imported one, as a UPI admin adopting
    // openshift-install's tls/root-ca.{crt,key} would do.
    ok(
        d.path(),
        &[
            "init",
            "--cluster-name",
            "demo",
            "--base-domain",
            "example.com",
            "--san",
            "127.0.0.1",
            "-q",
        ],
    );
    ok(
        d.path(),
        &[
            "ca",
            "import",
            "--cert",
            "root-ca.crt",
            "--key",
            "root-ca.key",
            "--force",
            "--yes",
            "-q",
        ],
    );
    let a = d.path().join("mcs-assets");
    assert_eq!(
        std::fs::read(a.join("tls/mcs-ca.key")).unwrap(),
        std::fs::read(d.path().join("root-ca.key")).unwrap()
    );
    assert_eq!(mode(&a.join("tls/mcs-ca.key")), 0o600);
    // --force rotates and promotes at once: the imported CA signs the serving certificate; the
    // old one stays in the bundle (phase 2 of 3) until `ca retire`.
    let bundle = std::fs::read_to_string(a.join("tls/mcs-ca-bundle.crt")).unwrap();
    assert_eq!(bundle.matches("BEGIN CERTIFICATE").count(), 2);
    let (code, out, _) = run(d.path(), &["inspect"]);
    assert_eq!(code, 3, "a rotation in progress needs attention:\n{out}");
    assert!(
        out.contains("phase 2 of 3") && out.contains("mcsctl ca retire"),
        "{out}"
    );
    ok(d.path(), &["ca", "retire", "-q"]);
    let bundle = std::fs::read_to_string(a.join("tls/mcs-ca-bundle.crt")).unwrap();
    assert_eq!(bundle.matches("BEGIN CERTIFICATE").count(), 1);
    let (code, out, _) = run(d.path(), &["inspect"]);
    assert_eq!(code, 0, "{out}");
    check_openssl(d.path());
    let (ok_, out) = openssl_run(
        &["verify", "-CAfile", "root-ca.crt", "mcs-assets/tls/mcs.crt"],
        d.path(),
    )
    .unwrap();
    assert!(ok_, "{out}");

    // And a machine trusts it: the real Ignition client through mcsctl serve.
    crate::support::render(&a, "worker", crate::serve::FULL_34, None);
    let server = crate::support::Serve::start(d.path(), &[]);
    let url = format!("https://127.0.0.1:{}/config/worker", server.addr.port());
    ok(
        d.path(),
        &[
            "pointer", "--pool", "worker", "--url", &url, "--output", "lab.ign",
        ],
    );
    if let Some((success, _, log)) = ignition_fetch(&d.path().join("lab.ign")) {
        assert!(success, "{log}");
    }
}

#[test]
fn ca_import_reads_sec1_and_pkcs8_keys() {
    let d = tempfile::tempdir().unwrap();
    let Some((ok1, out)) = openssl_run(
        &[
            "ecparam",
            "-name",
            "prime256v1",
            "-genkey",
            "-noout",
            "-out",
            "sec1.key",
        ],
        d.path(),
    ) else {
        return;
    };
    assert!(ok1, "{out}");
    let (ok2, out) = openssl_run(
        &[
            "req",
            "-x509",
            "-key",
            "sec1.key",
            "-out",
            "ca.crt",
            "-subj",
            "/CN=lab-ca",
            "-days",
            "30",
            "-addext",
            "basicConstraints=critical,CA:TRUE",
            "-addext",
            "keyUsage=critical,keyCertSign",
        ],
        d.path(),
    )
    .unwrap();
    assert!(ok2, "{out}");
    assert!(
        std::fs::read_to_string(d.path().join("sec1.key"))
            .unwrap()
            .contains("BEGIN EC PRIVATE KEY")
    );
    ok(
        d.path(),
        &[
            "--dir", "sec1", "ca", "import", "--cert", "ca.crt", "--key", "sec1.key", "-q",
        ],
    );
    let (ok3, _) = openssl_run(
        &[
            "pkcs8",
            "-topk8",
            "-nocrypt",
            "-in",
            "sec1.key",
            "-out",
            "pkcs8.key",
        ],
        d.path(),
    )
    .unwrap();
    assert!(ok3);
    ok(
        d.path(),
        &[
            "--dir",
            "p8",
            "ca",
            "import",
            "--cert",
            "ca.crt",
            "--key",
            "pkcs8.key",
            "-q",
        ],
    );
}

#[test]
fn step_by_step_without_init() {
    let d = tempfile::tempdir().unwrap();
    ok(
        d.path(),
        &["ca", "create", "--key-algorithm", "rsa-2048", "-q"],
    );
    let (code, _, err) = run(d.path(), &["cert", "issue"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("pass --san HOST"), "{err}");
    ok(
        d.path(),
        &[
            "cert",
            "issue",
            "--san",
            "mcs.lab.example.com",
            "--san",
            "192.0.2.7",
            "-q",
        ],
    );
    let leaf_der = parse(&d.path().join("mcs-assets/tls/mcs.crt"));
    let (_, leaf) = X509Certificate::from_der(&leaf_der).unwrap();
    let names = &leaf
        .subject_alternative_name()
        .unwrap()
        .unwrap()
        .value
        .general_names;
    assert_eq!(names[0], GeneralName::DNSName("mcs.lab.example.com"));
    assert_eq!(names.len(), 2);
    if let Some((ok_, out)) = openssl_run(
        &[
            "verify",
            "-CAfile",
            "mcs-assets/tls/mcs-ca.crt",
            "mcs-assets/tls/mcs.crt",
        ],
        d.path(),
    ) {
        assert!(ok_, "{out}");
    }
}

/// A directory built step by step agrees with one `init` makes: the serving key takes the CA's
/// algorithm (a P-384 CA does not sign a P-256 serving key unless told), and `pointer` gives a
/// pool without a token its own, in a 0600 pointer config, as `init`'s directories do.
#[test]
fn a_directory_built_step_by_step_gets_the_cas_algorithm_and_a_token() {
    let d = tempfile::tempdir().unwrap();
    let cwd = d.path();
    ok(
        cwd,
        &[
            "--dir",
            "step",
            "ca",
            "create",
            "--key-algorithm",
            "ecdsa-p384",
            "-q",
        ],
    );
    let out = ok(
        cwd,
        &["--dir", "step", "cert", "issue", "--san", "127.0.0.1", "-v"],
    );
    assert!(out.contains("ECDSA P-384"), "{out}");
    let step = cwd.join("step");
    let leaf_der = parse(&step.join("tls/mcs.crt"));
    let (_, leaf) = X509Certificate::from_der(&leaf_der).unwrap();
    let curve = leaf
        .public_key()
        .algorithm
        .parameters
        .as_ref()
        .unwrap()
        .as_oid()
        .unwrap();
    assert_eq!(
        curve.to_id_string(),
        "1.3.132.0.34",
        "the serving key is not P-384"
    );
    // Told otherwise, it is what it was told.
    ok(
        cwd,
        &[
            "--dir",
            "step",
            "cert",
            "issue",
            "--san",
            "127.0.0.1",
            "--force",
            "--key-algorithm",
            "ecdsa-p256",
            "-q",
        ],
    );
    let (_, leaf) = X509Certificate::from_der(&parse(&step.join("tls/mcs.crt")))
        .map(|(r, c)| {
            (
                r,
                c.public_key()
                    .algorithm
                    .parameters
                    .as_ref()
                    .unwrap()
                    .as_oid()
                    .unwrap()
                    .to_id_string(),
            )
        })
        .unwrap();
    assert_eq!(leaf, "1.2.840.10045.3.1.7");

    let (code, out, err) = run(
        cwd,
        &[
            "--dir",
            "step",
            "pointer",
            "--pool",
            "worker",
            "--url",
            "https://127.0.0.1:22623/config/worker",
        ],
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("token ") && out.contains("mode 0600"), "{out}");
    assert!(
        err.contains("a new token") && err.contains("for pool worker"),
        "{err}"
    );
    assert_eq!(mode(&step.join("worker.ign")), 0o600);
    let pointer: serde_json::Value =
        serde_json::from_slice(&std::fs::read(step.join("worker.ign")).unwrap()).unwrap();
    let headers = &pointer["ignition"]["config"]["merge"][0]["httpHeaders"];
    assert!(
        headers[0]["value"].as_str().unwrap().starts_with("Bearer "),
        "{pointer}"
    );
    let listed = ok(cwd, &["--dir", "step", "token", "list"]);
    assert!(listed.contains("worker"), "{listed}");
}
