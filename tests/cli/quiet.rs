//! `-q` means one thing for every command: data on stdout (a token, a list, a report the
//! command exists to give, a pointer config sent to stdout), warnings and errors on stderr, and
//! nothing else: no table of written files, no "Wrote", no summary, no next steps. Every
//! command of the command table is run here with `-q`.

use std::collections::BTreeSet;
use std::path::Path;

use crate::csr::{kubelet_signer, openssl_csr};
use crate::store::Etcd;
use crate::support::{Https, demo, ok, run, token_for};

/// What a command may print on stdout with `-q`.
#[derive(Clone, Copy, Debug)]
enum Stdout {
    /// Nothing: what it did is a report (`-o json` gives it to scripts).
    Nothing,
    /// Its data, which starts with this.
    Data(&'static str),
}

/// stderr with `-q`: warnings and errors (and their indented continuation lines) only.
fn only_warnings_and_errors(err: &str) -> Result<(), String> {
    for line in err.lines() {
        let fine = line.starts_with("warning: ")
            || line.starts_with("error: ")
            || line.starts_with("  ")
            || line.is_empty();
        if !fine {
            return Err(format!(
                "stderr line that is neither a warning nor an error: {line:?}"
            ));
        }
    }
    Ok(())
}

#[test]
fn every_command_with_q_prints_data_and_errors_only() {
    let d = demo(&["--san", "127.0.0.1"]);
    let p = d.path();
    // serve first, on the directory as init left it: its access log on stdout and its events
    // on stderr are its data; of the banner, only warnings and `ready`.
    let mc = crate::support::machine_config_file("50-worker-motd", "worker", "/etc/motd");
    std::fs::write(p.join("mc.yaml"), mc).unwrap();
    ok(
        p,
        &[
            "render",
            "--machine-configs",
            "mc.yaml",
            "--no-bootstrap-kubeconfig",
            "-q",
        ],
    );
    let mut failures = Vec::new();
    if let Err(e) = quiet_serve(p) {
        failures.push(e);
    }
    let etcd = Etcd::start(1);
    let url = etcd.as_ref().map(|e| e.url());
    let (signer_cert, signer_key) = kubelet_signer(p);
    openssl_csr(
        p,
        "s",
        "system:node:worker-0.demo.example.com",
        Some("DNS:worker-0.demo.example.com,IP:192.0.2.20"),
    )
    .expect("openssl is needed to make a CSR");
    std::fs::write(p.join("csrs.json"), r#"{"kind":"List","items":[]}"#).unwrap();
    let revoked = ok(p, &["token", "create", "--pool", "worker", "-q"]);
    let revoked = revoked.split('.').next().unwrap().to_string();
    let store: Vec<&str> = match &url {
        Some(u) => vec!["--store", u.as_str(), "--store-insecure"],
        None => Vec::new(),
    };
    use Stdout::{Data, Nothing};
    // In order: each may rely on what the ones before it made.
    let cases: Vec<(Vec<&str>, Stdout)> = vec![
        (
            vec![
                "--dir",
                "q2",
                "init",
                "--cluster-name",
                "demo",
                "--base-domain",
                "example.com",
            ],
            Nothing,
        ),
        (vec!["--dir", "step", "ca", "create"], Nothing),
        (
            vec!["--dir", "step", "cert", "issue", "--san", "127.0.0.1"],
            Nothing,
        ),
        (
            vec![
                "--dir",
                "imported",
                "ca",
                "import",
                "--cert",
                "step/tls/mcs-ca.crt",
                "--key",
                "step/tls/mcs-ca.key",
            ],
            Nothing,
        ),
        (vec!["cert", "renew"], Nothing),
        (vec!["pointer", "--pool", "worker", "--force"], Nothing),
        (
            vec!["pointer", "--pool", "worker", "--output", "-"],
            Data("{"),
        ),
        (vec!["token", "create", "--pool", "worker"], Data("")),
        (vec!["token", "list"], Data("ID ")),
        (vec!["token", "rotate"], Nothing),
        (vec!["token", "revoke", &revoked], Nothing),
        (vec!["token", "prune"], Nothing),
        (vec!["machine", "add", "m1", "--pool", "worker"], Nothing),
        (vec!["machine", "list"], Data("NAME ")),
        // m1 never boots: the watch gives up at its timeout (exit 1), its changes said.
        (
            vec!["machine", "watch", "--timeout", "1s", "--interval", "1s"],
            Data("{"),
        ),
        (vec!["machine", "remove", "m1"], Nothing),
        (
            vec![
                "render",
                "--machine-configs",
                "mc.yaml",
                "--no-bootstrap-kubeconfig",
            ],
            Nothing,
        ),
        (vec!["inspect"], Data("NAME ")),
        (vec!["manifests", "--output", "out"], Nothing),
        (vec!["csr", "review", "--csrs", "csrs.json"], Data("")),
        (
            vec![
                "csr",
                "sign",
                "--csr",
                "s.csr",
                "--address",
                "192.0.2.20",
                "--ca-cert",
                &signer_cert,
                "--ca-key",
                &signer_key,
            ],
            Data("-----BEGIN CERTIFICATE-----"),
        ),
        (vec!["ca", "rotate"], Nothing),
        (vec!["ca", "promote"], Nothing),
        (vec!["ca", "retire"], Nothing),
        (vec!["completions", "bash"], Data("_mcsctl()")),
        (vec!["man", "--output", "manpages"], Nothing),
        (vec!["version"], Data("mcsctl ")),
        (vec!["doctor", "mcs-assets/worker.ign"], Data("doctor ")),
    ];
    let mut cases = cases;
    if url.is_some() {
        cases.push(([&["token", "publish"][..], &store].concat(), Nothing));
        cases.push(([&["ledger", "import"][..], &store].concat(), Nothing));
    }
    let mut covered: BTreeSet<String> = BTreeSet::new();
    for (args, expect) in &cases {
        covered.insert(crate::custody::command_of(
            &args
                .iter()
                .filter(|a| !a.starts_with("--dir") && !["q2", "step", "imported"].contains(a))
                .copied()
                .collect::<Vec<_>>()
                .join(" "),
        ));
        let mut with_q = args.clone();
        with_q.push("-q");
        let (code, out, err) = run(p, &with_q);
        let shown = format!(
            "mcsctl {}: exit {code}\nstdout:\n{out}\nstderr:\n{err}",
            with_q.join(" ")
        );
        // doctor's pointer has no server to reach here, and inspect finds a warning: their
        // answers (exit 4, exit 3) are still data.
        let answered = (args[0] == "doctor" && code == 4)
            || (args[0] == "inspect" && code == 3)
            || (args.get(1) == Some(&"watch") && code == 1);
        if code != 0 && !answered {
            failures.push(format!("failed: {shown}"));
            continue;
        }
        match expect {
            Nothing if !out.is_empty() => failures.push(format!("stdout is not empty: {shown}")),
            Data(start) if out.is_empty() || !out.starts_with(start) => failures.push(format!(
                "no data on stdout (expected it to start {start:?}): {shown}"
            )),
            _ => {}
        }
        if let Err(e) = only_warnings_and_errors(&err) {
            failures.push(format!("{e}: {shown}"));
        }
    }
    covered.insert("serve".into());
    if url.is_none() {
        // Without etcd (a run that asked to skip what needs it), the store commands are not run.
        covered.insert("token publish".into());
        covered.insert("ledger import".into());
    }
    let missing = crate::support::commands_not_in(&covered);
    assert!(
        missing.is_empty(),
        "commands not run with -q here: {missing:?}"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// Runs `serve -q` on a free port, fetches a config once, stops it with SIGTERM by its PID.
fn quiet_serve(p: &Path) -> Result<(), String> {
    use std::io::{BufRead, BufReader, Read};
    let port = crate::store::free_ports(1)[0];
    let listen = format!("127.0.0.1:{port}");
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("mcsctl"))
        .current_dir(p)
        .args(["serve", "-q", "--listen", &listen])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut err = BufReader::new(child.stderr.take().unwrap());
    let mut first = String::new();
    // Bounded: the read ends when serve writes `ready` or exits.
    err.read_line(&mut first).unwrap();
    let mut stopped = || {
        let _ = std::process::Command::new("kill")
            .args(["-TERM", &child.id().to_string()])
            .status();
        child.wait().unwrap()
    };
    if first != "ready\n" {
        stopped();
        return Err(format!(
            "serve -q: first stderr line {first:?}, not \"ready\""
        ));
    }
    let ca = p.join("mcs-assets/tls/mcs-ca.crt");
    let token = token_for(&p.join("mcs-assets"), "worker");
    let auth = format!("Bearer {token}");
    let r = Https::connect(listen.parse().unwrap(), &ca)
        .request(
            "GET",
            "/config/worker",
            &[
                ("Authorization", &auth),
                ("Accept", &crate::support::accept("3.2.0")),
            ],
        )
        .unwrap();
    let status = stopped();
    let mut rest = String::new();
    err.read_to_string(&mut rest).unwrap();
    let mut out = String::new();
    child
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut out)
        .unwrap();
    if !status.success() || r.status != 200 {
        return Err(format!(
            "serve -q: {status}, fetch {}; stderr:\n{rest}",
            r.status
        ));
    }
    let lines: Vec<&str> = out.lines().collect();
    if lines.len() != 1 || !lines[0].contains("\"path\":\"/config/worker\"") {
        return Err(format!(
            "serve -q: stdout is not one access-log line:\n{out}"
        ));
    }
    for line in rest.lines() {
        let event =
            serde_json::from_str::<serde_json::Value>(line).is_ok_and(|v| v["event"].is_string());
        if !event && !line.starts_with("WARNING: ") {
            return Err(format!(
                "serve -q: stderr line that is no event: {line:?}\n{rest}"
            ));
        }
    }
    Ok(())
}
