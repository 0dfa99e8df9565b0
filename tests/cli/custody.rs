//! Key custody over the whole command table (issue 44): every command, with its destructive
//! flags, run on directories at each step of a CA's life; an inventory of every CA key by the
//! SHA-256 of its public key, taken before and after by readers of our own (rcgen for keys,
//! x509-parser for certificates, nothing of mcsctl's), must find each key still in place or kept
//! under `backup/` or `tls/retired/`, unless the command was told to purge it. A key that moved
//! must be named in what the command printed. A command the table has no case for fails the
//! test: a new command is checked from the day it exists.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use clap::CommandFactory;

use crate::support::{Serve, fixture, init_demo, ok, run};

/// The states a directory is in when a command runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum State {
    /// `init`, a rendered pool, a machine, the manifests.
    Fresh,
    /// After `ca rotate`: a next CA and its key.
    Introduced,
    /// After `ca promote`: a previous CA and its key.
    Promoted,
    /// After `ca retire`: a retired CA's key under tls/retired/.
    Retired,
    /// After `ca import --bundle` of the directory's CA and another: the cluster's bundle.
    Cluster,
}

const ALL: &[State] = &[
    State::Fresh,
    State::Introduced,
    State::Promoted,
    State::Retired,
    State::Cluster,
];

/// One run: a command line (with placeholders, see [`Lab::arg`]) in some states.
pub(crate) struct Case {
    pub(crate) args: &'static str,
    states: &'static [State],
    /// `ca retire --purge`: the keys under tls/retired/ may go.
    purge: bool,
}

const fn case(args: &'static str, states: &'static [State]) -> Case {
    Case {
        args,
        states,
        purge: false,
    }
}

/// Every command, each with its destructive flags. `serve` is started and stopped.
pub(crate) fn cases() -> Vec<Case> {
    use State::*;
    vec![
        case(
            "init --cluster-name demo --base-domain example.com",
            &[Fresh],
        ),
        case(
            "init --cluster-name demo --base-domain example.com --force --yes",
            ALL,
        ),
        case("ca create", &[Fresh]),
        case("ca create --force --yes", ALL),
        case("ca import --bundle {own-bundle}", ALL),
        case("ca import --bundle {both-bundle}", ALL),
        case(
            "ca import --bundle {other-crt}",
            &[Fresh, Promoted, Cluster],
        ),
        case("ca import --bundle {other-crt} --force --yes", ALL),
        case("ca import --bundle {other-secret}", &[Fresh, Retired]),
        case("ca import --bundle {other-secret} --force --yes", ALL),
        case("ca import --bundle {both-bundle} --key {other-key}", ALL),
        case("ca import --cert {own-crt} --key {own-key}", &[Fresh]),
        case(
            "ca import --cert {other-crt} --key {other-key} --force --yes",
            ALL,
        ),
        case("ca rotate", ALL),
        case("ca rotate --cert {other-crt} --key {other-key}", &[Fresh]),
        case("ca promote", &[Introduced]),
        case("ca promote --force", &[Introduced, Fresh]),
        case("ca retire", ALL),
        Case {
            args: "ca retire --purge",
            states: ALL,
            purge: true,
        },
        case("cert issue --force --san 192.0.2.7", ALL),
        case("cert renew", ALL),
        case("pointer --pool worker --force", &[Fresh, Introduced]),
        case(
            "pointer --pool worker --force --output mcs-assets/tls/mcs-ca.key",
            &[Fresh],
        ),
        case(
            "pointer --pool worker --force --output mcs-assets/tls/retired/{retired-key}",
            &[Retired],
        ),
        case("token create --pool worker", &[Fresh]),
        case("token rotate --grace 1h", &[Fresh, Promoted]),
        case("token list", &[Fresh]),
        case("token revoke {machine-token}", &[Fresh]),
        case("token prune", &[Fresh]),
        // Without a store to publish to: refused, nothing written.
        case("token publish", &[Fresh]),
        case("machine add w1 --pool worker", &[Fresh, Introduced]),
        case("machine add w0 --pool worker --force", &[Fresh]),
        case("machine list", &[Fresh]),
        case("machine watch --timeout 1s --interval 1s", &[Fresh]),
        case("machine remove w0", &[Fresh]),
        case("inspect", ALL),
        case(
            "render --machine-configs {mcs} --no-bootstrap-kubeconfig",
            &[Fresh],
        ),
        case("serve", &[Fresh]),
        case("doctor mcs-assets/worker.ign", &[Fresh]),
        case("csr review --csrs {csrs}", &[Fresh]),
        case(
            "csr sign --csr {csr} --ca-cert {other-crt} --ca-key {other-key} --output mcs-assets/tls/mcs-ca.key --force",
            &[Fresh],
        ),
        case(
            "csr sign --csr {csr} --ca-cert {other-crt} --ca-key {other-key} --output node.crt",
            &[Fresh],
        ),
        case("manifests --force", &[Fresh, Cluster]),
        case("ledger import --store etcd://127.0.0.1:1", &[Fresh]),
        case("completions bash", &[Fresh]),
        case("man --output man1", &[Fresh]),
        case("version", &[Fresh]),
    ]
}

/// The inputs the cases name, made once.
struct Lab {
    _tmp: tempfile::TempDir,
    /// A directory per state, copied for each run.
    states: BTreeMap<State, PathBuf>,
    /// Files outside the asset directory, by placeholder.
    files: BTreeMap<&'static str, PathBuf>,
}

impl Lab {
    fn new() -> Lab {
        let tmp = tempfile::tempdir().unwrap();
        let t = tmp.path();
        // Another cluster's CA, as a certificate, a key, and the signing Secret.
        ok(t, &["--dir", "other", "ca", "create", "-q"]);
        let other_crt = t.join("other/tls/mcs-ca.crt");
        let other_key = t.join("other/tls/mcs-ca.key");
        let b64 = |p: &Path| base64(&std::fs::read(p).unwrap());
        std::fs::write(
            t.join("other-secret.yaml"),
            format!(
                "apiVersion: v1\nkind: Secret\nmetadata:\n  name: machine-config-server-ca\n  namespace: openshift-machine-config-operator\ntype: kubernetes.io/tls\ndata:\n  tls.crt: {}\n  tls.key: {}\n",
                b64(&other_crt),
                b64(&other_key)
            ),
        )
        .unwrap();
        std::fs::write(t.join("csrs.json"), r#"{"kind":"List","items":[]}"#).unwrap();
        crate::csr::openssl_csr(t, "node", "system:node:w0", None).expect("openssl makes a CSR");
        let mut files = BTreeMap::from([
            ("other-crt", other_crt.clone()),
            ("other-key", other_key),
            ("other-secret", t.join("other-secret.yaml")),
            ("csrs", t.join("csrs.json")),
            ("csr", t.join("node.csr")),
            ("mcs", fixture("machineconfigs/worker.yaml")),
        ]);
        let mut states = BTreeMap::new();
        let fresh = t.join("fresh");
        std::fs::create_dir(&fresh).unwrap();
        init_demo(&fresh, &[]);
        for args in [
            "render --machine-configs {mcs} --no-bootstrap-kubeconfig",
            "machine add w0 --pool worker",
            "manifests",
        ] {
            okv(&fresh, resolve(args, &files, &fresh));
        }
        // The directory's own CA and bundle, and its bundle with the other CA.
        let own = t.join("own");
        std::fs::create_dir(&own).unwrap();
        for f in ["mcs-ca.crt", "mcs-ca.key"] {
            std::fs::copy(fresh.join("mcs-assets/tls").join(f), own.join(f)).unwrap();
        }
        let mut both = std::fs::read(fresh.join("mcs-assets/tls/mcs-ca-bundle.crt")).unwrap();
        both.extend(std::fs::read(&other_crt).unwrap());
        std::fs::write(t.join("both.pem"), both).unwrap();
        files.insert("own-crt", own.join("mcs-ca.crt"));
        files.insert("own-key", own.join("mcs-ca.key"));
        files.insert("both-bundle", t.join("both.pem"));
        states.insert(State::Fresh, fresh.clone());
        let mut prev = fresh.clone();
        for (state, step) in [
            (State::Introduced, "ca rotate"),
            (State::Promoted, "ca promote"),
            (State::Retired, "ca retire"),
        ] {
            let d = t.join(format!("{state:?}"));
            copy_tree(&prev, &d);
            okv(&d, resolve(step, &files, &d));
            states.insert(state, d.clone());
            prev = d;
        }
        let cluster = t.join("cluster");
        copy_tree(&fresh, &cluster);
        okv(
            &cluster,
            resolve("ca import --bundle {both-bundle}", &files, &cluster),
        );
        assert!(cluster.join("mcs-assets/tls/cluster-ca.json").exists());
        states.insert(State::Cluster, cluster);
        Lab {
            _tmp: tmp,
            states,
            files,
        }
    }
}

/// `args` with its placeholders filled: the lab's files, and from the directory `cwd`
/// (`{own-bundle}`, a `{machine-token}` id, a `{retired-key}` file name).
fn resolve(args: &str, files: &BTreeMap<&'static str, PathBuf>, cwd: &Path) -> Vec<String> {
    let assets = cwd.join("mcs-assets");
    args.split(' ')
        .map(|a| {
            let mut a = a.to_string();
            for (k, v) in files {
                a = a.replace(&format!("{{{k}}}"), v.to_str().unwrap());
            }
            a = a.replace(
                "{own-bundle}",
                "mcs-assets/manifests/machine-config-server-ca-configmap.yaml",
            );
            if a.contains("{machine-token}") {
                let v: serde_json::Value = serde_json::from_slice(
                    &std::fs::read(assets.join("auth/machines.json")).unwrap(),
                )
                .unwrap();
                a = a.replace(
                    "{machine-token}",
                    v["machines"][0]["token"].as_str().unwrap(),
                );
            }
            if a.contains("{retired-key}") {
                let key = std::fs::read_dir(assets.join("tls/retired"))
                    .unwrap()
                    .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                    .find(|n| n.ends_with(".key") && !n.starts_with("mcs-"))
                    .unwrap();
                a = a.replace("{retired-key}", &key);
            }
            a
        })
        .collect()
}

fn okv(cwd: &Path, args: Vec<String>) {
    let argv: Vec<&str> = args.iter().map(String::as_str).collect();
    ok(cwd, &argv);
}

fn base64(b: &[u8]) -> String {
    use base64::Engine;
    base64::engine::general_purpose::STANDARD.encode(b)
}

/// Copies a directory tree, modes kept (symlinks are not part of these directories).
fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let target = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_tree(&e.path(), &target);
        } else {
            std::fs::copy(e.path(), &target).unwrap();
        }
        let mode = std::fs::metadata(e.path()).unwrap().permissions();
        std::fs::set_permissions(&target, mode).unwrap();
    }
}

/// Every CA key under `root`, by the SHA-256 of its public key (SubjectPublicKeyInfo): the
/// places it is in, relative. A CA key is a private key whose public key is that of a CA
/// certificate found under `root` (or in `cas`, the CAs known from before).
fn inventory(root: &Path, cas: &mut BTreeSet<[u8; 32]>) -> BTreeMap<[u8; 32], BTreeSet<String>> {
    let mut keys: Vec<(String, [u8; 32])> = Vec::new();
    walk(root, root, &mut |rel, bytes| {
        let Ok(text) = std::str::from_utf8(bytes) else {
            return;
        };
        if text.contains("PRIVATE KEY-----")
            && let Ok(k) = rcgen::KeyPair::from_pem(text)
        {
            keys.push((
                rel.to_string(),
                sha256(&rcgen::PublicKeyData::subject_public_key_info(&k)),
            ));
        }
        if text.contains("-----BEGIN CERTIFICATE-----") {
            for p in x509_parser::pem::Pem::iter_from_buffer(bytes).flatten() {
                if let Ok(c) = p.parse_x509()
                    && c.is_ca()
                {
                    cas.insert(sha256(c.tbs_certificate.subject_pki.raw));
                }
            }
        }
    });
    let mut out: BTreeMap<[u8; 32], BTreeSet<String>> = BTreeMap::new();
    for (rel, k) in keys {
        if cas.contains(&k) {
            out.entry(k).or_default().insert(rel);
        }
    }
    out
}

fn walk(root: &Path, d: &Path, f: &mut dyn FnMut(&str, &[u8])) {
    let Ok(rd) = std::fs::read_dir(d) else {
        return;
    };
    for e in rd.flatten() {
        let p = e.path();
        if e.file_type().unwrap().is_dir() {
            walk(root, &p, f);
        } else if let Ok(b) = std::fs::read(&p) {
            f(p.strip_prefix(root).unwrap().to_str().unwrap(), &b);
        }
    }
}

fn sha256(b: &[u8]) -> [u8; 32] {
    let d = aws_lc_rs::digest::digest(&aws_lc_rs::digest::SHA256, b);
    d.as_ref().try_into().unwrap()
}

/// Where a kept key may be: its slot in tls/, tls/retired/, backup/.
fn keeps(rel: &str) -> bool {
    let in_assets = |r: &str| rel.strip_prefix("mcs-assets/").map(|x| x.starts_with(r));
    in_assets("tls/mcs-ca") == Some(true)
        || in_assets("tls/retired/") == Some(true)
        || in_assets("backup/") == Some(true)
}

/// Runs one case in a copy of `state`; returns what went wrong, if anything.
fn check(lab: &Lab, c: &Case, state: State, scratch: &Path) -> Option<String> {
    let cwd = scratch.join(format!(
        "{state:?}-{}",
        c.args.replace([' ', '/', '{', '}'], "_")
    ));
    copy_tree(&lab.states[&state], &cwd);
    let mut cas = BTreeSet::new();
    let before = inventory(&cwd, &mut cas);
    let args = resolve(c.args, &lab.files, &cwd);
    let argv: Vec<&str> = args.iter().map(String::as_str).collect();
    let (code, printed) = if c.args == "serve" {
        let mut s = Serve::start(&cwd, &[]);
        s.signal("TERM");
        let code = s.wait_exit(std::time::Duration::from_secs(10));
        (code.unwrap_or(-1), s.stderr())
    } else {
        let (code, out, err) = run(&cwd, &argv);
        (code, format!("{out}{err}"))
    };
    let after = inventory(&cwd, &mut cas);
    let mut wrong = Vec::new();
    for (key, places) in &before {
        let kept_before: Vec<&String> = places.iter().filter(|p| keeps(p)).collect();
        if kept_before.is_empty() {
            continue;
        }
        let now: BTreeSet<&String> = after
            .get(key)
            .into_iter()
            .flatten()
            .filter(|p| keeps(p))
            .collect();
        let purged = c.purge && kept_before.iter().all(|p| p.contains("/tls/retired/"));
        if now.is_empty() && !purged {
            wrong.push(format!("the key in {kept_before:?} is gone"));
            continue;
        }
        // A key that moved is named where it went: a row of the files table.
        for p in now.iter().filter(|p| !places.contains(**p)) {
            let rel = p.strip_prefix("mcs-assets/").unwrap_or(p);
            let row = |l: &str| {
                l.trim_start()
                    .strip_prefix(rel)
                    .is_some_and(|r| r.starts_with(' '))
            };
            if !printed.lines().any(row) {
                wrong.push(format!(
                    "the key in {kept_before:?} was kept as {p}, which the command did not say"
                ));
            }
        }
    }
    (!wrong.is_empty()).then(|| {
        format!(
            "`mcsctl {}` in {state:?} (exit {code}): {}\n{printed}",
            args.join(" "),
            wrong.join("; ")
        )
    })
}

#[test]
fn no_command_loses_a_ca_key() {
    let lab = Lab::new();
    let scratch = tempfile::tempdir().unwrap();
    let cases = cases();
    let mut covered: BTreeSet<String> = BTreeSet::new();
    let mut failures = Vec::new();
    let mut runs = 0;
    for c in &cases {
        covered.insert(command_of(c.args));
        for &s in c.states {
            runs += 1;
            failures.extend(check(&lab, c, s, scratch.path()));
        }
    }
    let missing = crate::support::commands_not_in(&covered);
    assert!(
        missing.is_empty(),
        "commands without a custody case (add one to cases()): {missing:?}"
    );
    assert!(runs > 80, "{runs} runs");
    assert!(
        failures.is_empty(),
        "{} of {runs} runs lost or hid a CA key:\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

/// The command a case's arguments run (`ca import`), as the command table names it.
pub(crate) fn command_of(args: &str) -> String {
    let mut path = Vec::new();
    let mut cmd = mcsctl::cmd::Cli::command();
    for word in args.split(' ') {
        match cmd.find_subcommand(word) {
            Some(s) => {
                path.push(word);
                cmd = s.clone();
            }
            None => break,
        }
    }
    path.join(" ")
}
