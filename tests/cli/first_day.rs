//! A UPI admin's first day: each rough edge found by trying mcsctl as a new user would, through
//! the binary, with the exact words the user reads.

use std::path::Path;
use std::time::Duration;

use crate::support::{
    Serve, assert_ignition_valid, demo, golden, mode, ok, run, run_later, snapshot,
};

/// Runs `args` and expects a usage error (exit 2) whose first line is exactly `line`.
fn usage_error(cwd: &Path, args: &[&str], line: &str) {
    let before = snapshot(cwd);
    let (code, _, err) = run(cwd, args);
    assert_eq!(code, 2, "{args:?}: {err}");
    assert_eq!(err.lines().next(), Some(line), "{args:?}:\n{err}");
    assert_eq!(before, snapshot(cwd));
}

/// Runs `args` and expects an error (exit 1) that reads exactly `message`.
fn error(cwd: &Path, args: &[&str], message: &str) {
    let before = snapshot(cwd);
    let (code, _, err) = run(cwd, args);
    assert_eq!(code, 1, "{args:?}: {err}");
    assert_eq!(err, format!("error: {message}\n"), "{args:?}");
    assert_eq!(before, snapshot(cwd));
}

#[test]
fn format_and_dir_only_where_they_mean_something() {
    let d = demo(&[]);
    usage_error(
        d.path(),
        &["--format", "json", "completions", "bash"],
        "error: completions writes a shell script: --format does not apply",
    );
    usage_error(
        d.path(),
        &["--format", "json", "man", "--output", "man"],
        "error: man writes man pages: --format does not apply",
    );
    usage_error(
        d.path(),
        &[
            "--format",
            "json",
            "csr",
            "sign",
            "--csr",
            "x.csr",
            "--ca-cert",
            "k.crt",
            "--ca-key",
            "k.key",
        ],
        "error: csr sign writes a PEM certificate: --format does not apply",
    );
    usage_error(
        d.path(),
        &["--dir", "elsewhere", "completions", "bash"],
        "error: completions does not use an asset directory: --dir does not apply",
    );
    // After the command, where they do nothing, clap does not know them at all.
    usage_error(
        d.path(),
        &["completions", "bash", "--format", "json"],
        "error: unexpected argument '--format' found",
    );
    // Before or after the command, where they mean something.
    let a = ok(d.path(), &["--format", "json", "token", "list"]);
    let b = ok(d.path(), &["token", "list", "--format", "json"]);
    assert_eq!(a, b);
    assert!(a.trim_start().starts_with('{'), "{a}");
    let moved = tempfile::tempdir().unwrap();
    crate::support::copy_dir(&d.path().join("mcs-assets"), &moved.path().join("lab"));
    ok(moved.path(), &["inspect", "--dir", "lab", "-q"]);
    ok(moved.path(), &["--dir", "lab", "inspect", "-q"]);
}

#[test]
fn typed_values_are_usage_errors_naming_the_flag() {
    let d = demo(&[]);
    let cases: [(&[&str], &str); 8] = [
        (
            &["cert", "renew", "--validity", "0s"],
            "error: invalid value '0s' for '--validity <DUR>': a duration must be more than zero",
        ),
        (
            &["token", "rotate", "--grace", "0m"],
            "error: invalid value '0m' for '--grace <DUR>': a duration must be more than zero; to end the previous token at once, rotate and then `mcsctl token revoke ID`",
        ),
        (
            &["pointer", "--pool", "worker", "--spec-version", "3.5.0"],
            "error: invalid value '3.5.0' for '--spec-version <V>': pointer configs are written at 3.0.0 to 3.4.0 (Ignition before 2.20 rejects 3.5.0; a pointer config needs no newer field)",
        ),
        (
            &["pointer", "--pool", "Worker"],
            "error: invalid value 'Worker' for '--pool <POOL>': not a DNS label: use 1 to 63 lower-case letters, digits and '-', not at either end",
        ),
        (
            &["cert", "issue", "--san", "10.0.0.300"],
            "error: invalid value '10.0.0.300' for '--san <SAN>': invalid IP address in SAN \"10.0.0.300\"",
        ),
        (
            &["serve", "--listen", "localhost"],
            "error: invalid value 'localhost' for '--listen <ADDR>': expected IP:PORT, e.g. 0.0.0.0:22623",
        ),
        (
            &["doctor", "--resolve", "api-int.x"],
            "error: invalid value 'api-int.x' for '--resolve <HOST:ADDR>': \"api-int.x\": expected HOST:ADDR or HOST:PORT:ADDR",
        ),
        (
            &["inspect", "--remote", "api-int"],
            "error: invalid value 'api-int' for '--remote <HOST:PORT>': expected HOST:PORT",
        ),
    ];
    for (args, line) in cases {
        usage_error(d.path(), args, line);
    }
}

#[test]
fn verbose_names_each_file_read_and_written_and_each_decision() {
    let d = demo(&[]);
    let (code, _, err) = run(
        d.path(),
        &["-v", "pointer", "--pool", "infra", "--new-pool"],
    );
    assert_eq!(code, 0, "{err}");
    // Sizes vary with the signatures in the certificates: counted, not compared.
    let bytes = regex::Regex::new(r"\(\d+ bytes\)").unwrap();
    let lines: Vec<String> = err
        .lines()
        .filter(|l| l.starts_with("- "))
        .map(|l| bytes.replace(l, "(N bytes)").into_owned())
        .map(|l| l.replace(&format!("{}/", d.path().display()), ""))
        .collect();
    // The snapshot is read whole, once, under the lock; then the decisions; then the change.
    assert_eq!(
        lines,
        [
            "- asset directory mcs-assets",
            "- read mcs-assets/mcsctl.json (N bytes)",
            "- read mcs-assets/tls/mcs-ca-bundle.crt (N bytes)",
            "- read mcs-assets/tls/mcs.crt (N bytes)",
            "- read mcs-assets/tls/mcs.key (N bytes)",
            "- read mcs-assets/tls/mcs-ca.crt (N bytes)",
            "- read mcs-assets/tls/mcs-ca.key (N bytes)",
            "- read mcs-assets/auth/tokens.json (N bytes)",
            "- read mcs-assets/master.ign (N bytes)",
            "- read mcs-assets/worker.ign (N bytes)",
            "- spec 3.2.0 (from mcsctl.json); token header (from mcsctl.json); merge URL https://api-int.demo.example.com:22623/config/infra (api-int of the cluster)",
            "- wrote mcs-assets/auth/tokens.json (mode 0600)",
            "- wrote mcs-assets/infra.ign (mode 0600)",
            "- wrote mcs-assets/mcsctl.json (mode 0644)",
        ]
    );
    // Without -v: none of it.
    let (_, _, err) = run(d.path(), &["pointer", "--pool", "edge", "--new-pool"]);
    assert!(!err.lines().any(|l| l.starts_with("- ")), "{err}");
}

#[test]
fn token_create_gives_scripts_the_token_prune_clears_the_dead_and_print_pointer_boots() {
    let d = demo(&[]);
    let a = d.path().join("mcs-assets");
    let json = ok(
        d.path(),
        &["token", "create", "--ttl", "1s", "--format", "json"],
    );
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let short = v["token"]["id"].as_str().unwrap().to_string();
    assert!(
        v["bearer"]
            .as_str()
            .unwrap()
            .starts_with(&format!("{short}.")),
        "{json}"
    );
    let (_, revoked_out, _) = run(d.path(), &["token", "create", "--format", "json"]);
    let revoked: serde_json::Value = serde_json::from_str(&revoked_out).unwrap();
    let revoked = revoked["token"]["id"].as_str().unwrap().to_string();
    ok(d.path(), &["token", "revoke", &revoked, "-q"]);
    // Two seconds later (the commands' clock moved, nothing slept), the first has expired.
    // A dry run names them and changes nothing.
    let before = snapshot(d.path());
    let (code, out, err) = run_later(d.path(), 2, &["token", "prune", "--dry-run"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        out,
        format!("would remove {short} (expired)\nwould remove {revoked} (revoked)\n")
    );
    assert_eq!(before, snapshot(d.path()));
    let (code, out, err) = run_later(d.path(), 2, &["token", "prune"]);
    assert_eq!(code, 0);
    assert_eq!(
        out,
        format!("removed {short} (expired)\nremoved {revoked} (revoked)\n")
    );
    assert_eq!(
        err,
        "2 token(s) removed, 2 kept; machines still holding one now get \"unknown token\" instead of \"expired\" or \"revoked\"\n"
    );
    let list = ok(d.path(), &["token", "list"]);
    assert_eq!(list.lines().count(), 3, "{list}");
    assert_eq!(mode(&a.join("auth/tokens.json")), 0o600);
    assert_eq!(run(d.path(), &["inspect"]).0, 0);

    // kubeadm token create --print-join-command, for pointer configs: the new token, ready.
    let (code, printed, err) = run(
        d.path(),
        &[
            "token",
            "create",
            "--print-pointer",
            "--pool",
            "infra",
            "--new-pool",
        ],
    );
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&printed).unwrap();
    let source = &v["ignition"]["config"]["merge"][0];
    assert_eq!(
        source["source"],
        "https://api-int.demo.example.com:22623/config/infra"
    );
    let header = source["httpHeaders"][0]["value"].as_str().unwrap();
    let id = header
        .strip_prefix("Bearer ")
        .unwrap()
        .split('.')
        .next()
        .unwrap();
    assert!(
        // infra had no token: the new one, scoped to it, is its current token.
        err.starts_with(&format!("Created token {id} for pool(s) infra (current)."))
            && err.contains("On stdout: a infra pointer config carrying it"),
        "{err}"
    );
    std::fs::write(d.path().join("infra.ign"), &printed).unwrap();
    assert_ignition_valid(&d.path().join("infra.ign"));
    let (code, out, _) = run(d.path(), &["inspect", "infra.ign"]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains(&format!("infra.ign: token {id} is current")),
        "{out}"
    );
    // A short-lived token is said to be one.
    let (_, _, err) = run(d.path(), &["token", "rotate", "--ttl", "1s"]);
    assert!(
        err.contains("expires in 1s: machines booting after that get 401, and a pointer config carrying it goes stale"),
        "{err}"
    );
}

#[test]
fn short_lived_and_expired_serving_certificates_are_said() {
    let d = demo(&["--san", "127.0.0.1"]);
    let a = d.path().join("mcs-assets");
    let (code, _, err) = run(d.path(), &["cert", "renew", "--validity", "1h"]);
    assert_eq!(code, 0);
    assert!(
        err.contains("warning: tls/mcs.crt is valid for only 1h (until ")
            && err.contains("inspect reports it at once, and machines booting after that fail with \"x509: certificate has expired\"; `mcsctl cert renew --validity 1y` before then"),
        "{err}"
    );
    // serve names the expiry in its banner, and warns inside 30 days.
    crate::support::render(&a, "worker", crate::serve::FULL_34, None);
    // Reloads only on the HUP below: a poll inside the 1s certificate's second would still
    // find it valid.
    let s = Serve::start(d.path(), &["--reload-interval", "1h"]);
    assert!(
        s.stderr()
            .contains("WARNING: the serving certificate expires in 1h ("),
        "{}",
        s.stderr()
    );
    // A certificate that is already over is never swapped in for a valid one.
    let valid = std::fs::read(a.join("tls/mcs.crt")).unwrap();
    ok(d.path(), &["cert", "renew", "--validity", "1s", "-q"]);
    // Serve's clock moves past that second (the 1h certificate stays valid).
    s.advance(5);
    s.signal("HUP");
    assert!(
        s.wait_stderr("reload-failed", Duration::from_secs(10)),
        "{}",
        s.stderr()
    );
    assert!(
        s.stderr()
            .contains("tls: keeping its last good state: tls/mcs.crt expired on ")
            && s.stderr().contains("(the one being served is valid until "),
        "{}",
        s.stderr()
    );
    let presented = crate::support::Https::connect(s.addr, &a.join("tls/mcs-ca.crt")).peer_leaf();
    assert!(
        String::from_utf8_lossy(&valid).contains(&{
            use base64::Engine;
            base64::engine::general_purpose::STANDARD.encode(&presented)[..40].to_string()
        }),
        "serve swapped in the expired certificate"
    );
    drop(s);
    // And a server does not start on one (seconds later): every machine would refuse it.
    let (code, _, err) = run_later(
        d.path(),
        5,
        &[
            "serve",
            "--listen",
            "127.0.0.1:0",
            "--reload-interval",
            "1s",
        ],
    );
    assert_eq!(code, 1);
    assert!(
        err.starts_with("error: tls/mcs.crt expired on ")
            && err.ends_with(
                ": every booting machine would refuse it; run `mcsctl cert renew` first\n"
            ),
        "{err}"
    );
}

#[test]
fn doctor_refuses_a_pointer_newer_than_the_ignition_it_plays() {
    let d = demo(&[]);
    let (code, out, _) = run(
        d.path(),
        &["doctor", "--ignition-spec", "3.1.0", "--format", "json"],
    );
    assert_eq!(code, 4, "{out}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let step = &v["steps"][0];
    assert_eq!(step["step"], "parse");
    assert_eq!(step["status"], "fail");
    assert_eq!(
        step["detail"],
        "mcs-assets/worker.ign is Ignition spec 3.2.0, newer than the 3.1.0 this Ignition reads: it stops at \"unsupported config version\" before fetching anything"
    );
    assert_eq!(
        step["fix"],
        "write it at the spec the boot image reads: `mcsctl pointer --pool <pool> --spec-version 3.1.0 --force` (a pointer config needs nothing newer)"
    );
}

#[test]
fn files_of_the_wrong_kind_say_what_they_are_and_what_to_run() {
    let d = demo(&[]);
    let a = d.path().join("mcs-assets");
    let tls = a.join("tls");
    let Some((ok1, out)) = crate::support::openssl_run(
        &[
            "x509",
            "-in",
            tls.join("mcs-ca.crt").to_str().unwrap(),
            "-outform",
            "DER",
            "-out",
            "ca.der",
        ],
        d.path(),
    ) else {
        return;
    };
    assert!(ok1, "{out}");
    let (ok2, out) = crate::support::openssl_run(
        &[
            "pkcs12",
            "-export",
            "-in",
            tls.join("mcs.crt").to_str().unwrap(),
            "-inkey",
            tls.join("mcs.key").to_str().unwrap(),
            "-passout",
            "pass:x",
            "-out",
            "serving.p12",
        ],
        d.path(),
    )
    .unwrap();
    assert!(ok2, "{out}");
    let key = "mcs-assets/tls/mcs.key";
    error(
        d.path(),
        &[
            "csr",
            "sign",
            "--csr",
            key,
            "--ca-cert",
            "k.crt",
            "--ca-key",
            "k.key",
        ],
        "mcs-assets/tls/mcs.key holds a private key (PEM \"PRIVATE KEY\"), not a certificate signing request: pass the request made with this key, not the key (`openssl req -new -key mcs-assets/tls/mcs.key -out node.csr` makes one)",
    );
    error(
        d.path(),
        &[
            "--dir",
            "imported",
            "ca",
            "import",
            "--cert",
            "serving.p12",
            "--key",
            key,
        ],
        "serving.p12 holds a PKCS#12 bundle (.p12/.pfx), not a certificate: extract the certificate: `openssl pkcs12 -in serving.p12 -nokeys -clcerts -out cert.pem`",
    );
    error(
        d.path(),
        &[
            "--dir",
            "imported",
            "ca",
            "import",
            "--cert",
            "mcs-assets/worker.ign",
            "--key",
            key,
        ],
        "mcs-assets/worker.ign holds an Ignition config, not a certificate: the CAs a pointer config trusts are inside it: `mcsctl inspect mcs-assets/worker.ign` shows them",
    );
    error(
        d.path(),
        &["csr", "review", "--csrs", key, "--nodes", key],
        "mcs-assets/tls/mcs.key holds a private key (PEM \"PRIVATE KEY\"), not CertificateSigningRequest objects: `oc get csr -o json > csrs.json` gives what review reads (`mcsctl csr sign --csr mcs-assets/tls/mcs.key` signs a single PEM request)",
    );
    // DER where the asset directory keeps PEM: the command that converts it.
    std::fs::copy(d.path().join("ca.der"), tls.join("mcs-ca-bundle.crt")).unwrap();
    let (code, out, _) = run(d.path(), &["inspect"]);
    assert_eq!(code, 4, "{out}");
    assert!(
        out.contains("mcs-assets/tls/mcs-ca-bundle.crt holds a certificate in DER (binary) form, not PEM: the asset directory keeps PEM: `openssl x509 -inform DER -in mcs-assets/tls/mcs-ca-bundle.crt -out mcs-assets/tls/mcs-ca-bundle.crt.pem`"),
        "{out}"
    );
    // serve, which reads the pair as PEM, says the same of a DER serving certificate.
    let (ok3, out) = crate::support::openssl_run(
        &[
            "x509",
            "-in",
            tls.join("mcs.crt").to_str().unwrap(),
            "-outform",
            "DER",
            "-out",
            tls.join("mcs.crt").to_str().unwrap(),
        ],
        d.path(),
    )
    .unwrap();
    assert!(ok3, "{out}");
    error(
        d.path(),
        &["serve", "--listen", "127.0.0.1:0"],
        "mcs-assets/tls/mcs.crt holds a certificate in DER (binary) form, not PEM: the asset directory keeps PEM: `openssl x509 -inform DER -in mcs-assets/tls/mcs.crt -out mcs-assets/tls/mcs.crt.pem` and move it over mcs-assets/tls/mcs.crt",
    );
    // Where DER is as good, it is read.
    let out = ok(
        d.path(),
        &[
            "--dir",
            "der",
            "ca",
            "import",
            "--cert",
            "ca.der",
            "--key",
            "mcs-assets/tls/mcs-ca.key",
        ],
    );
    assert!(out.contains("tls/mcs-ca.crt"), "{out}");
}

#[test]
fn yaml_means_what_it_means_to_kubernetes_and_errors_point_into_the_file() {
    let d = demo(&["--for", "coreos"]);
    let mc = |body: &str| {
        format!(
            "apiVersion: machineconfiguration.openshift.io/v1\nkind: MachineConfig\nmetadata:\n  name: 50-worker-x\n  labels:\n    machineconfiguration.openshift.io/role: worker\nspec:\n  config:\n    ignition:\n      version: 3.2.0\n{body}"
        )
    };
    // As `oc apply` reads it: 0644 is octal, yes is true.
    std::fs::write(
        d.path().join("good.yaml"),
        mc("    storage:\n      files:\n      - path: /etc/a\n        mode: 0644\n        contents: {source: 'data:,a'}\n    systemd:\n      units:\n      - name: a.service\n        enabled: yes\n"),
    )
    .unwrap();
    ok(
        d.path(),
        &["render", "--machine-configs", "good.yaml", "-q"],
    );
    let r: serde_json::Value = serde_json::from_slice(
        &std::fs::read(d.path().join("mcs-assets/rendered/worker.ign")).unwrap(),
    )
    .unwrap();
    assert_eq!(r["storage"]["files"][0]["mode"], 420);
    assert_eq!(r["systemd"]["units"][0]["enabled"], true);
    // A quoted mode is a string to Kubernetes too: the file, its line, the object, the field.
    std::fs::write(
        d.path().join("quoted.yaml"),
        mc("    storage:\n      files:\n      - path: /etc/a\n        mode: \"0644\"\n"),
    )
    .unwrap();
    error(
        d.path(),
        &["render", "--machine-configs", "quoted.yaml"],
        "quoted.yaml:14: MachineConfig 50-worker-x: spec.config.storage.files[0].mode: expected an integer, got the string \"0644\": a quoted mode is a string to Kubernetes too; write it unquoted (0644, read as octal) or in decimal (420)",
    );
    std::fs::write(
        d.path().join("typo.yaml"),
        mc("    storage:\n      file:\n      - path: /etc/a\n"),
    )
    .unwrap();
    // The MCO drops a key Ignition does not have, and so does render, naming it where it is;
    // here that would take /etc/a away from the pool, which render refuses.
    let (code, _, err) = run(d.path(), &["render", "--machine-configs", "typo.yaml"]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.starts_with("warning: typo.yaml:12: MachineConfig 50-worker-x: spec.config.storage.file: Ignition spec 3.2.0 has no such field (did you mean files?); dropped, as the MCO drops it (--strict refuses it)\nerror: render would take away what the pool serves now: pool worker: files /etc/a;"),
        "{err}"
    );
    error(
        d.path(),
        &["render", "--strict", "--machine-configs", "typo.yaml"],
        "typo.yaml:12: MachineConfig 50-worker-x: spec.config.storage.file: Ignition spec 3.2.0 has no such field (did you mean files?) (--strict refuses what the MCO would drop)",
    );
}

#[test]
fn spec_3_5_is_rendered_as_3_5_and_a_2_14_client_still_boots() {
    let d = demo(&["--for", "coreos", "--san", "127.0.0.1"]);
    std::fs::write(
        d.path().join("mc.yaml"),
        "apiVersion: machineconfiguration.openshift.io/v1\nkind: MachineConfig\nmetadata:\n  name: 50-worker-35\n  labels: {machineconfiguration.openshift.io/role: worker}\nspec:\n  config:\n    ignition: {version: 3.5.0}\n    storage:\n      files:\n      - path: /etc/mcsctl-35\n        mode: 0644\n        contents: {source: 'data:,three%20five'}\n",
    )
    .unwrap();
    let out = ok(d.path(), &["render", "--machine-configs", "mc.yaml"]);
    assert!(out.contains("  spec 3.5.0  coreos"), "{out}");
    let rendered = d.path().join("mcs-assets/rendered/worker.ign");
    let r: serde_json::Value = serde_json::from_slice(&std::fs::read(&rendered).unwrap()).unwrap();
    assert_eq!(r["ignition"]["version"], "3.5.0");
    assert!(!std::fs::read_to_string(&rendered).unwrap().contains("null"));
    assert_ignition_valid(&rendered);
    ok(
        d.path(),
        &[
            "render",
            "--machine-configs",
            "mc.yaml",
            "--spec-version",
            "3.5.0",
            "-q",
        ],
    );
    // Debian's Ignition 2.14 asks for 3.3.0: serve translates down, the machine boots.
    let s = Serve::start(d.path(), &[]);
    let url = format!("https://127.0.0.1:{}/config/worker", s.addr.port());
    ok(
        d.path(),
        &[
            "pointer", "--pool", "worker", "--url", &url, "--output", "lab.ign", "-q",
        ],
    );
    if let Some(boot) = crate::ignition_client::ignition_boot(&d.path().join("lab.ign")) {
        assert!(boot.success, "{}", boot.log);
        assert_eq!(boot.read("/etc/mcsctl-35"), b"three five");
    }
}

#[test]
fn a_long_render_summary_is_shortened() {
    let d = demo(&["--for", "coreos"]);
    let mut yaml = String::new();
    for i in 0..40 {
        yaml.push_str(&format!(
            "---\napiVersion: machineconfiguration.openshift.io/v1\nkind: MachineConfig\nmetadata:\n  name: {i:02}-worker\n  labels: {{machineconfiguration.openshift.io/role: worker}}\nspec:\n  config:\n    ignition: {{version: 3.2.0}}\n    storage:\n      files: [{{path: /etc/a{i}, contents: {{source: 'data:,a'}}}}]\n"
        ));
    }
    std::fs::write(d.path().join("many.yaml"), yaml).unwrap();
    let out = ok(d.path(), &["render", "--machine-configs", "many.yaml"]);
    assert!(
        out.contains("  merge order:  00-worker, 01-worker, 02-worker, 03-worker, 04-worker, 05-worker, … 32 more …, 38-worker, 39-worker (40 in all; -v lists every one)\n"),
        "{out}"
    );
    let out = ok(
        d.path(),
        &["render", "--machine-configs", "many.yaml", "-v"],
    );
    assert!(out.contains("37-worker, 38-worker, 39-worker\n"), "{out}");
}

#[test]
fn init_force_keeps_a_backup_and_removes_what_it_made_obsolete() {
    let d = demo(&["--pool", "worker", "--pool", "edge"]);
    let a = d.path().join("mcs-assets");
    ok(d.path(), &["ca", "rotate", "-q"]);
    let old_key = std::fs::read(a.join("tls/mcs-ca.key")).unwrap();
    let old_tokens = std::fs::read(a.join("auth/tokens.json")).unwrap();
    // An admin's edit of a pointer config, and manifests written for the old CA.
    let mut edited = std::fs::read_to_string(a.join("worker.ign")).unwrap();
    edited.push('\n');
    std::fs::write(a.join("worker.ign"), &edited).unwrap();
    ok(d.path(), &["manifests", "-q"]);
    let old_manifest =
        std::fs::read(a.join("manifests/machine-config-server-tls-secret.yaml")).unwrap();
    // Without a terminal, --force alone does not replace the CA: a pipeline must say so.
    let init = [
        "init",
        "--cluster-name",
        "demo",
        "--base-domain",
        "example.com",
        "--force",
    ];
    let ca_before = std::fs::read(a.join("tls/mcs-ca.key")).unwrap();
    let (code, _, err) = run(d.path(), &init);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("`init --force` would replace it, and every pointer config made from it would stop working")
            && err.contains("`mcsctl ca rotate` replaces a CA without breaking machines")
            && err.contains("add --yes"),
        "{err}"
    );
    assert_eq!(std::fs::read(a.join("tls/mcs-ca.key")).unwrap(), ca_before);
    assert!(a.join("edge.ign").exists());
    let (code, out, err) = run(d.path(), &[&init[..], &["--yes"]].concat());
    assert_eq!(code, 0, "{err}");
    for gone in ["edge.ign", "tls/mcs-ca-next.crt", "tls/mcs-ca-next.key"] {
        assert!(!a.join(gone).exists(), "{gone} is still there");
    }
    assert!(
        out.contains("edge.ign")
            && out.contains(
                "removed      pool edge is no longer listed (it carried the old CA and token)"
            ),
        "{out}"
    );
    let backups: Vec<_> = std::fs::read_dir(a.join("backup"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(backups.len(), 1);
    let b = &backups[0];
    assert_eq!(mode(&a.join("backup")), 0o700);
    assert_eq!(std::fs::read(b.join("tls/mcs-ca.key")).unwrap(), old_key);
    assert_eq!(mode(&b.join("tls/mcs-ca.key")), 0o600);
    assert_eq!(
        std::fs::read(b.join("auth/tokens.json")).unwrap(),
        old_tokens
    );
    assert_eq!(mode(&b.join("tls/mcs-ca-next.key")), 0o600);
    assert_eq!(
        std::fs::read_to_string(b.join("worker.ign")).unwrap(),
        edited
    );
    assert_eq!(mode(&b.join("worker.ign")), 0o600);
    assert!(b.join("edge.ign").exists());
    assert_eq!(
        std::fs::read(b.join("manifests/machine-config-server-tls-secret.yaml")).unwrap(),
        old_manifest
    );
    assert!(
        !a.join("manifests/machine-config-server-tls-secret.yaml")
            .exists()
    );
    assert_eq!(run(d.path(), &["inspect"]).0, 0);
    // Twice in one second: two backups.
    crate::support::init_demo(d.path(), &["--force", "--yes"]);
    crate::support::init_demo(d.path(), &["--force", "--yes"]);
    assert_eq!(std::fs::read_dir(a.join("backup")).unwrap().count(), 3);
}

#[test]
fn init_next_steps_start_with_render() {
    let d = tempfile::tempdir().unwrap();
    let (_, _, err) = run(
        d.path(),
        &[
            "init",
            "--cluster-name",
            "demo",
            "--base-domain",
            "example.com",
        ],
    );
    golden("init-next-steps.txt", &err);
}
