//! kill -9 at random moments of every state-changing command: after each kill the asset
//! directory holds the previous state or the new one (inspect finds nothing failed, the
//! serving key matches its certificate, every pointer trusts the serving certificate's CA),
//! and a rerun completes and leaves no temporary file, staged file or journal behind.

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use crate::support::{demo, ok, run};

/// xorshift64*: reproducible from the printed seed, no dependency.
struct Rng(u64);

impl Rng {
    /// From `MCSCTL_CRASH_SEED`, else the clock; the seed is printed so a failure can be rerun.
    fn seeded() -> Rng {
        let seed = std::env::var("MCSCTL_CRASH_SEED")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| {
                std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .unwrap()
                    .as_nanos() as u64
                    | 1
            });
        eprintln!("kill loop seed {seed} (rerun with MCSCTL_CRASH_SEED={seed})");
        Rng(seed)
    }

    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
}

fn leftovers(root: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            if e.file_type().is_ok_and(|t| t.is_dir()) {
                stack.push(e.path());
            } else if name.starts_with(".mcsctl-new-")
                || name.starts_with(".mcsctl-tmp-")
                || name == ".mcsctl-journal"
            {
                out.push(e.path().display().to_string());
            }
        }
    }
    out
}

/// What a kill left, before anything looked at the directory.
#[derive(Debug, Default)]
struct Tally {
    finished: u32,
    committed_unfinished: u32,
    not_committed: u32,
}

/// Runs `args` `rounds` times, each killed with SIGKILL after a random delay within the
/// command's own running time; checks the directory after each kill and after a rerun.
/// `prepare` puts the directory in the state the command starts from, before each round;
/// `rotation`, when not empty, lists what inspect's ca-rotation row may say after a kill
/// (the phase before the command or the one after).
fn kill_loop(
    cwd: &Path,
    args: &[&str],
    rounds: u32,
    rng: &mut Rng,
    prepare: &dyn Fn(&Path),
    rotation: &[&str],
) -> Tally {
    // How long the command takes here, to spread the kills over its whole run.
    prepare(cwd);
    let start = Instant::now();
    ok(cwd, args);
    let span = start.elapsed().as_micros().max(1) as u64;
    let bin = assert_cmd::cargo::cargo_bin("mcsctl");
    let assets = cwd.join("mcs-assets");
    let mut tally = Tally::default();
    for round in 0..rounds {
        prepare(cwd);
        let delay = rng.next() % (span + span / 4);
        let mut child = Command::new(&bin)
            .args(args)
            .current_dir(cwd)
            .env_remove("MCSCTL_DIR")
            .env("NO_COLOR", "1")
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_micros(delay));
        let _ = child.kill();
        let status = child.wait().unwrap();
        if status.success() {
            tally.finished += 1;
        } else if assets.join(".mcsctl-journal").exists() {
            tally.committed_unfinished += 1;
        } else {
            tally.not_committed += 1;
        }
        let (code, out, err) = run(cwd, &["inspect"]);
        assert!(
            code == 0 || code == 3,
            "{args:?} killed after {delay} µs (round {round}): inspect exited {code}\n{out}{err}"
        );
        assert!(!out.contains("\nfail "), "{args:?} round {round}:\n{out}");
        if !rotation.is_empty() {
            let row = out
                .lines()
                .find(|l| l.contains(" ca-rotation "))
                .unwrap_or_default();
            assert!(
                rotation.iter().any(|r| row.contains(r)),
                "{args:?} killed after {delay} µs: inspect says {row:?}, expected one of {rotation:?}"
            );
        }
        let (code, out, err) = run(cwd, args);
        assert_eq!(
            code, 0,
            "{args:?} rerun after a kill at {delay} µs:\n{out}{err}"
        );
        let left = leftovers(&assets);
        assert!(left.is_empty(), "{args:?} left {left:?} after a rerun");
    }
    tally
}

#[test]
fn kill_9_at_any_moment_leaves_the_previous_state_or_the_new_one() {
    let mut rng = Rng::seeded();
    let d = demo(&[]);
    let other = demo(&["--key-algorithm", "ecdsa-p384"]);
    let their_cert = other.path().join("mcs-assets/tls/mcs-ca.crt");
    let their_key = other.path().join("mcs-assets/tls/mcs-ca.key");
    let mcs = crate::support::fixture("machineconfigs/worker.yaml");
    let commands: Vec<Vec<String>> = vec![
        vec![
            "init",
            "--cluster-name",
            "demo",
            "--base-domain",
            "example.com",
            "--force",
            "--yes",
        ],
        vec!["cert", "renew"],
        vec!["cert", "issue", "--force"],
        vec!["token", "rotate", "--grace", "1h"],
        vec!["token", "create", "--ttl", "1h"],
        vec!["pointer", "--pool", "edge", "--force", "--new-pool"],
        vec!["ca", "create", "--force", "--yes"],
        vec![
            "ca",
            "import",
            "--force",
            "--yes",
            "--cert",
            their_cert.to_str().unwrap(),
            "--key",
            their_key.to_str().unwrap(),
        ],
        vec![
            "render",
            "--machine-configs",
            mcs.to_str().unwrap(),
            "--no-bootstrap-kubeconfig",
        ],
    ]
    .into_iter()
    .map(|c| c.into_iter().map(str::to_string).collect())
    .collect();
    let mut report = String::new();
    for c in &commands {
        let args: Vec<&str> = c.iter().map(String::as_str).collect();
        // A fresh, complete directory for each command (`init --force` keeps pointer configs
        // of pools it no longer lists, which other commands' rounds would trip over).
        std::fs::remove_dir_all(d.path().join("mcs-assets")).unwrap();
        ok(
            d.path(),
            &[
                "init",
                "--cluster-name",
                "demo",
                "--base-domain",
                "example.com",
                "--force",
                "-q",
            ],
        );
        let t = kill_loop(d.path(), &args, 100, &mut rng, &|_| {}, &[]);
        report.push_str(&format!(
            "{:<24} finished {:>3}, committed but unfinished {:>3}, not committed {:>3}\n",
            args[..2].join(" "),
            t.finished,
            t.committed_unfinished,
            t.not_committed
        ));
    }
    eprintln!("{report}");
}

/// Where a CA rotation stands, from which files exist (as `pki::rotation::Phase::of` decides).
fn phase(a: &Path) -> &'static str {
    if a.join("tls/mcs-ca-next.crt").exists() {
        "rotate"
    } else if a.join("tls/mcs-ca-previous.crt").exists() {
        "promote"
    } else {
        "retire"
    }
}

/// Steps the rotation forward until the last completed phase is `after`.
fn advance_to(cwd: &Path, after: &str) {
    let a = cwd.join("mcs-assets");
    while phase(&a) != after {
        let next = match phase(&a) {
            "retire" => "rotate",
            "rotate" => "promote",
            _ => "retire",
        };
        ok(cwd, &["ca", next, "-q"]);
    }
}

#[test]
fn kill_9_inside_each_rotation_phase_leaves_a_phase_inspect_names_and_a_rerun_completes() {
    let mut rng = Rng::seeded();
    let d = demo(&[]);
    let a = d.path().join("mcs-assets");
    let mut report = String::new();
    // Each phase starts from the one before it; after a kill, inspect names the phase it
    // finds (the one before or this one) and a rerun of the same command completes it.
    let named = |step: &str| match step {
        "rotate" => "phase 1 of 3",
        "promote" => "phase 2 of 3",
        _ => "no CA rotation in progress",
    };
    for (step, before) in [
        ("rotate", "retire"),
        ("promote", "rotate"),
        ("retire", "promote"),
    ] {
        let t = kill_loop(
            d.path(),
            &["ca", step],
            60,
            &mut rng,
            &|cwd: &Path| advance_to(cwd, before),
            &[named(before), named(step)],
        );
        assert_eq!(phase(&a), step, "a rerun of ca {step} completes it");
        let (_, out, _) = run(d.path(), &["inspect"]);
        let row = out
            .lines()
            .find(|l| l.contains(" ca-rotation "))
            .unwrap_or_default()
            .to_string();
        assert!(row.contains(named(step)), "after ca {step}: {out}");
        let bundle = std::fs::read_to_string(a.join("tls/mcs-ca-bundle.crt")).unwrap();
        assert!(bundle.matches("BEGIN CERTIFICATE").count() <= 2);
        report.push_str(&format!(
            "ca {step:<20} finished {:>3}, committed but unfinished {:>3}, not committed {:>3}\n",
            t.finished, t.committed_unfinished, t.not_committed
        ));
    }
    eprintln!("{report}");
}

#[test]
fn umask_000_still_gives_private_directories_and_files() {
    let d = tempfile::tempdir().unwrap();
    let bin = assert_cmd::cargo::cargo_bin("mcsctl");
    let sh = |cmd: String| {
        let out = Command::new("sh")
            .arg("-c")
            .arg(format!("umask 000 && {cmd}"))
            .current_dir(d.path())
            .env_remove("MCSCTL_DIR")
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    };
    sh(format!(
        "'{}' init --cluster-name demo --base-domain example.com -q",
        bin.display()
    ));
    crate::support::bootstrap_kubeconfig(d.path());
    sh(format!(
        "'{}' render --machine-configs '{}' --bootstrap-kubeconfig kubeconfig -q",
        bin.display(),
        crate::support::fixture("machineconfigs/worker.yaml").display()
    ));
    let a = d.path().join("mcs-assets");
    use crate::support::mode;
    for (p, want) in [
        ("", 0o755),
        ("tls", 0o755),
        ("auth", 0o700),
        ("rendered", 0o755),
        ("rendered/pre-approval", 0o755),
        ("tls/mcs-ca.key", 0o600),
        ("tls/mcs.key", 0o600),
        ("auth/tokens.json", 0o600),
        ("worker.ign", 0o600),
        ("rendered/worker.ign", 0o600),
        ("tls/mcs-ca.crt", 0o644),
        ("mcsctl.json", 0o644),
        ("auth/bootstrap-kubeconfig", 0o600),
    ] {
        assert_eq!(mode(&a.join(p)), want, "{p} under umask 000");
    }
    assert_eq!(run(d.path(), &["inspect"]).0, 0);
    // A directory others can write to (made by hand, or by an older mcsctl) fails inspect.
    std::fs::set_permissions(
        a.join("auth"),
        std::os::unix::fs::PermissionsExt::from_mode(0o777),
    )
    .unwrap();
    let (code, out, _) = run(d.path(), &["inspect"]);
    assert_eq!(code, 4, "{out}");
    assert!(
        out.contains("auth is mode 0777: another local user can replace the files in it"),
        "{out}"
    );
}

/// The files of `assets` that make its state: everything but the lock, the journal and what an
/// interrupted command staged.
fn state_of(assets: &Path) -> std::collections::BTreeMap<String, Vec<u8>> {
    crate::support::snapshot(assets)
        .into_iter()
        .map(|(p, (bytes, _))| (p.display().to_string(), bytes))
        .filter(|(p, _)| {
            let name = p.rsplit('/').next().unwrap_or_default();
            !(name == ".mcsctl.lock"
                || name == ".mcsctl-journal"
                || name.starts_with(".mcsctl-new-")
                || name.starts_with(".mcsctl-tmp-"))
        })
        .collect()
}

/// Takes the directory's lock, as the next command does with `-v`: every leftover is named as
/// it is removed, and none stays.
fn next_command_removes(cwd: &Path, left: &[String], what: &str) {
    let (code, _, err) = run(cwd, &["token", "list", "-v"]);
    assert_eq!(code, 0, "{what}: {err}");
    for l in left {
        let rel = l.strip_prefix(&format!("{}/", cwd.display())).unwrap_or(l);
        assert!(
            err.contains(&format!(
                "- removed {rel}, left by an interrupted command (overwritten first"
            )),
            "{what}: {rel} not named:\n{err}"
        );
    }
    assert!(leftovers(&cwd.join("mcs-assets")).is_empty(), "{what}");
}

#[test]
fn sigint_at_any_moment_says_in_one_line_what_was_written() {
    use std::os::unix::process::ExitStatusExt;
    let mut rng = Rng::seeded();
    let d = tempfile::tempdir().unwrap();
    let bin = assert_cmd::cargo::cargo_bin("mcsctl");
    let assets = d.path().join("mcs-assets");
    let commands: [&[&str]; 3] = [
        &["token", "rotate", "--grace", "1h"],
        &["cert", "renew"],
        &[
            "init",
            "--cluster-name",
            "demo",
            "--base-domain",
            "example.com",
            "--force",
            "--yes",
        ],
    ];
    let mut seen = std::collections::BTreeMap::<&str, u32>::new();
    for args in commands {
        let fresh = || {
            let _ = std::fs::remove_dir_all(&assets);
            crate::support::init_demo(d.path(), &[]);
        };
        fresh();
        let start = Instant::now();
        ok(d.path(), args);
        let span = start.elapsed().as_micros().max(1) as u64;
        for round in 0..30 {
            fresh();
            let before = state_of(&assets);
            let child = Command::new(&bin)
                .args(args)
                .current_dir(d.path())
                .env_remove("MCSCTL_DIR")
                .env("NO_COLOR", "1")
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap();
            let delay = rng.next() % (span + span / 4);
            std::thread::sleep(Duration::from_micros(delay));
            let _ = Command::new("kill")
                .args(["-INT", &child.id().to_string()])
                .status();
            let out = child.wait_with_output().unwrap();
            let err = String::from_utf8_lossy(&out.stderr).into_owned();
            let what = format!("{args:?} interrupted after {delay} µs (round {round})");
            let after = state_of(&assets);
            let phase = match out.status.code() {
                Some(0) => "finished",
                // Before the handler was installed: the default action, as kill -9.
                None if out.status.signal() == Some(2) => "before the handler",
                Some(130) => {
                    let said: Vec<&str> =
                        err.lines().filter(|l| l.starts_with("mcsctl: ")).collect();
                    assert_eq!(said.len(), 1, "{what}: one line, got:\n{err}");
                    let line = said[0];
                    let cmd = args[..2].join(" ");
                    let cmd = if args[0] == "init" {
                        "init"
                    } else {
                        cmd.as_str()
                    };
                    assert!(
                        line.starts_with(&format!("mcsctl: interrupted: `{cmd}` stopped ")),
                        "{what}: {line}"
                    );
                    let journal = assets.join(".mcsctl-journal").exists();
                    if line.contains("stopped before writing anything") {
                        assert_eq!(before, after, "{what}: {line}, yet the directory changed");
                        assert!(!journal, "{what}: {line}, yet a change was committed");
                        "nothing yet"
                    } else if line.contains("before its change landed: none of its") {
                        assert_eq!(before, after, "{what}: {line}, yet the directory changed");
                        // Its staged files were wiped: a journal naming them would complete
                        // the change half (its removals without its writes).
                        assert!(!journal, "{what}: {line}, yet a change was committed");
                        "staged, not landed"
                    } else if line.contains("stopped after writing its") {
                        assert_ne!(before, after, "{what}: {line}, yet nothing changed");
                        assert!(!assets.join(".mcsctl-journal").exists(), "{what}");
                        "written"
                    } else {
                        panic!("{what}: {line}");
                    }
                }
                c => panic!("{what}: exit {c:?}\n{err}"),
            };
            *seen.entry(phase).or_default() += 1;
            let left = leftovers(&assets);
            next_command_removes(d.path(), &left, &what);
            let (code, out, _) = run(d.path(), &["inspect"]);
            assert!(
                code == 0 || code == 3,
                "{what}: inspect exited {code}\n{out}"
            );
        }
    }
    eprintln!("SIGINT rounds by what they found: {seen:?}");
}

#[test]
fn sigint_while_waiting_for_the_lock_says_nothing_was_written() {
    let d = demo(&[]);
    let assets = d.path().join("mcs-assets");
    let before = state_of(&assets);
    let lock = std::fs::OpenOptions::new()
        .append(true)
        .open(assets.join(".mcsctl.lock"))
        .unwrap();
    lock.lock().unwrap();
    let mut child = Command::new(assert_cmd::cargo::cargo_bin("mcsctl"))
        .args(["token", "rotate", "-v"])
        .current_dir(d.path())
        .env_remove("MCSCTL_DIR")
        .stderr(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // It says its directory at -v after its handler is in place, then waits for the lock.
    let mut err = std::io::BufReader::new(child.stderr.take().unwrap());
    let mut first = String::new();
    std::io::BufRead::read_line(&mut err, &mut first).unwrap();
    assert_eq!(first, "- asset directory mcs-assets\n");
    Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut err, &mut rest).unwrap();
    assert_eq!(child.wait().unwrap().code(), Some(130));
    assert_eq!(
        rest,
        "mcsctl: interrupted: `token rotate` stopped before writing anything (mcs-assets is as it was)\n"
    );
    drop(lock);
    assert_eq!(before, state_of(&assets));
}

#[test]
fn an_interrupted_init_runs_again_and_inspect_reports_what_it_left() {
    let d = tempfile::tempdir().unwrap();
    // What a kill before the commit point leaves: the lock, and a staged CA key.
    let a = d.path().join("s");
    std::fs::create_dir_all(a.join("tls")).unwrap();
    std::fs::write(a.join(".mcsctl.lock"), "").unwrap();
    let key = "-----BEGIN PRIVATE KEY-----\nMIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg\n-----END PRIVATE KEY-----\n";
    let staged = a.join("tls/.mcsctl-new-mcs-ca.key-Ab12Cd");
    std::fs::write(&staged, key).unwrap();
    // Not an asset directory yet: inspect says so, and what is in it.
    let (code, _, err) = run(d.path(), &["--dir", "s", "inspect"]);
    assert_eq!(code, 1, "{err}");
    assert_eq!(
        err,
        "error: s is not an asset directory: it has no mcsctl.json; `mcsctl init --dir s` makes one there (it holds only what a command stopped before its change landed left: 1 staged file(s), which it removes)\n"
    );
    assert!(staged.exists());
    let init_s = |extra: &str| {
        let mut args = vec!["--dir", "s", "init", "--cluster-name", "demo"];
        args.extend(["--base-domain", "example.com", extra]);
        run(d.path(), &args)
    };
    // init again, no --force: the directory held nothing.
    let (code, _, err) = init_s("-v");
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("- removed s/tls/.mcsctl-new-mcs-ca.key-Ab12Cd, left by an interrupted command (overwritten first: it may have held a private key)"),
        "{err}"
    );
    assert!(!staged.exists() && leftovers(&a).is_empty());
    assert_eq!(run(d.path(), &["--dir", "s", "inspect"]).0, 0);
    // In an asset directory, inspect names a leftover and leaves it (it takes no lock).
    let renewing = a.join("tls/.mcsctl-new-mcs.key-Ef34Gh");
    std::fs::write(&renewing, key).unwrap();
    let (code, out, _) = run(d.path(), &["--dir", "s", "inspect"]);
    assert_eq!(code, 3, "{out}");
    assert!(
        out.contains("warn   leftover     tls/.mcsctl-new-mcs.key-Ef34Gh was left by a command stopped before its change landed; it may hold a private key\n"),
        "{out}"
    );
    assert!(
        out.contains("fix: the next mcsctl command that takes the directory's lock removes it, overwritten first (`mcsctl --dir s token list -v` names it)"),
        "{out}"
    );
    assert!(renewing.exists());
    let (_, _, err) = run(d.path(), &["--dir", "s", "token", "list", "-v"]);
    assert!(
        err.contains("- removed s/tls/.mcsctl-new-mcs.key-Ef34Gh, left by an interrupted command"),
        "{err}"
    );
    assert!(!renewing.exists());
    // A directory with anything else in it is still refused.
    let (code, _, err) = init_s("-q");
    assert_eq!(code, 1);
    assert!(err.starts_with("error: s is not empty; --force"), "{err}");
}
