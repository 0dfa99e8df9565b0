use super::*;

fn body(extra: &str) -> String {
    format!(
        r#"{{"bootId":"0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0","machineId":"0123456789abcdef0123456789abcdef","hostname":"w1.example.com","addresses":["10.0.0.7","fd00::7"],"ignitionResult":"{{\"provisioningDate\":\"2026-11-28T10:02:11Z\"}}","ignitionJournal":"Ignition finished successfully\n","kubelet":"inactive"{extra}}}"#
    )
}

#[test]
fn a_report_is_read_with_every_field_bounded() {
    let s = Submitted::parse(body("").as_bytes()).unwrap();
    assert_eq!(s.hostname, "w1.example.com");
    assert_eq!(s.addresses.len(), 2);
    assert_eq!(
        s.ignition(),
        IgnitionResult::Done {
            date: Some("2026-11-28T10:02:11Z".into())
        }
    );
    // Unknown fields are a newer script's: kept out, not refused.
    assert!(Submitted::parse(body(r#","later":1"#).as_bytes()).is_ok());
    let refused = |b: &str| Submitted::parse(b.as_bytes()).unwrap_err().0;
    assert_eq!(
        refused(&body("").replace("0f1e2d3c", "not-hex!")),
        "bootId: 1 to 64 hex digits and dashes"
    );
    assert_eq!(
        refused(&body("").replace("w1.example.com", "w1\\u0007")),
        "hostname: control characters"
    );
    let long = "x".repeat(bounds::JOURNAL + 1);
    assert_eq!(
        refused(&body("").replace("Ignition finished successfully", &long)),
        "ignitionJournal: at most 8192 bytes"
    );
    assert_eq!(
        refused("{\"bootId\":"),
        "not a first-boot report (line 1, column 10: truncated)"
    );
    assert_eq!(
        refused("[1]"),
        "not a first-boot report (line 1, column 2: a field is missing or of another type)"
    );
    let big = vec![b' '; MAX_BODY + 1];
    assert_eq!(
        Submitted::parse(&big).unwrap_err().0,
        "a report is at most 32768 bytes"
    );
}

#[test]
fn a_credential_is_the_pools_own() {
    let mut c = Credentials::default();
    let (secret, made) = c.ensure("worker").unwrap();
    let secret = secret.to_string();
    assert!(made);
    assert_eq!(secret.len(), 43);
    let (again, made) = c.ensure("worker").unwrap();
    assert_eq!((again, made), (secret.as_str(), false));
    assert!(c.accepts("worker", &secret));
    assert!(!c.accepts("master", &secret));
    assert!(!c.accepts("worker", &secret[1..]));
    let read = Credentials::parse(&c.to_bytes(), "f").unwrap();
    assert_eq!(read, c);
    let e = Credentials::parse(br#"{"formatVersion":1,"pools":{"Bad_pool":"x"}}"#, "f")
        .unwrap_err()
        .to_string();
    assert_eq!(e, "f: pool \"Bad_pool\" is not a DNS label");
}

#[test]
fn the_report_goes_to_the_config_servers_origin() {
    assert_eq!(
        report_url(
            "https://api-int.c.example.com:22623/config/worker",
            "worker"
        )
        .as_deref(),
        Some("https://api-int.c.example.com:22623/report/worker")
    );
    assert_eq!(
        report_url("https://10.0.0.1:22623/config/x/worker?token=abc", "worker").as_deref(),
        Some("https://10.0.0.1:22623/report/worker")
    );
    assert_eq!(
        report_url("http://10.0.0.1:22623/config/worker", "worker"),
        None
    );
}

#[test]
fn the_script_is_shell_and_names_what_it_reads() {
    let adds = additions("https://10.0.0.1:22623/report/worker", b"PEM", "s3cret");
    let Addition::File { contents, mode, .. } = &adds[0] else {
        panic!("the script first")
    };
    assert_eq!(*mode, 0o755);
    let text = String::from_utf8(contents.clone()).unwrap();
    for hole in [
        "@URL@",
        "@DONE@",
        "@CA@",
        "@CREDENTIAL@",
        "@ID@",
        "@JOURNAL@",
    ] {
        assert!(!text.contains(hole), "{hole} left in the script");
    }
    assert!(!text.contains("s3cret"), "the secret is in its own file");
    let sh = std::process::Command::new("sh")
        .arg("-n")
        .arg("-c")
        .arg(&text)
        .status()
        .unwrap();
    assert!(sh.success(), "sh -n refuses the script");
    let Addition::File { mode, contents, .. } = &adds[2] else {
        panic!("the credential third")
    };
    assert_eq!(*mode, 0o600);
    assert_eq!(contents, b"Authorization: Bearer s3cret\n");
}
