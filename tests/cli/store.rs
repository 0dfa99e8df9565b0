//! Replicas that agree through a real etcd cluster (Debian's `etcd-server`, three members on
//! loopback, started here and stopped by PID): a machine token is served exactly once across
//! three serve replicas, whatever the races; the real Ignition client boots through one
//! replica and is refused by another; the store losing a member changes nothing, losing its
//! quorum stops machine tokens (503) and not pool tokens, and its return serves again without
//! serving anything twice.

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::ignition_client::{ignition_boot, ignition_fetch_within};
use crate::support::{Https, Serve, machine_token, ok, run, token_for, tool};

/// `n` distinct free loopback ports (all bound at once, then let go: the members bind them a
/// moment later, and another process may take one first; see [`Etcd::start_with`]).
pub(crate) fn free_ports(n: usize) -> Vec<u16> {
    let held: Vec<TcpListener> = (0..n)
        .map(|_| TcpListener::bind("127.0.0.1:0").unwrap())
        .collect();
    held.iter()
        .map(|l| l.local_addr().unwrap().port())
        .collect()
}

/// One etcd member.
pub(crate) struct Member {
    name: String,
    client: u16,
    peer: u16,
    child: Option<Child>,
}

/// An etcd cluster of loopback members, each stopped by its PID when dropped.
pub(crate) struct Etcd {
    bin: PathBuf,
    members: Vec<Member>,
    dir: tempfile::TempDir,
    /// With TLS: the directory holding ca.crt, server.crt/key (and client.crt/key), and every
    /// client must present a certificate of that CA.
    tls: Option<PathBuf>,
    /// More arguments for every member.
    extra: Vec<String>,
}

impl Etcd {
    /// Starts `n` members and waits until the cluster has a leader; `None` when etcd is not
    /// installed and the run skips what needs it.
    pub(crate) fn start(n: usize) -> Option<Etcd> {
        Etcd::start_with(n, None, &[])
    }

    /// Like [`Etcd::start`], each member given `extra` arguments too.
    pub(crate) fn start_args(n: usize, extra: &[&str]) -> Option<Etcd> {
        Etcd::start_with(n, None, extra)
    }

    /// Every member must answer healthy before the cluster is handed out: a test that stops
    /// one member counts on the others. A port let go by [`free_ports`] can be taken by another
    /// process before its member binds it (that member then exits); the cluster is then started
    /// again on other ports, in a new directory, at most three times.
    fn start_with(n: usize, tls: Option<PathBuf>, extra: &[&str]) -> Option<Etcd> {
        let bin = tool("etcd", "ETCD_BIN", "etcd/usr/bin/etcd")?;
        let mut failed = String::new();
        for _ in 0..3 {
            let ports = free_ports(2 * n);
            let members = (0..n)
                .map(|i| Member {
                    name: format!("m{i}"),
                    client: ports[2 * i],
                    peer: ports[2 * i + 1],
                    child: None,
                })
                .collect();
            let mut e = Etcd {
                bin: bin.clone(),
                members,
                dir: tempfile::tempdir().unwrap(),
                tls: tls.clone(),
                extra: extra.iter().map(|a| a.to_string()).collect(),
            };
            for i in 0..n {
                e.spawn(i);
            }
            if e.await_every_member() {
                return Some(e);
            }
            failed = e.log_tails(20);
        }
        panic!("etcd's members never all became healthy, three times; the last logs:\n{failed}");
    }

    /// Waits (bounded) until every member answers healthy; false as soon as one has exited.
    fn await_every_member(&mut self) -> bool {
        let start = Instant::now();
        loop {
            let mut all = true;
            for i in 0..self.members.len() {
                let exited = self.members[i]
                    .child
                    .as_mut()
                    .is_none_or(|c| c.try_wait().ok().flatten().is_some());
                if exited {
                    return false;
                }
                all &= self.healthy(i);
            }
            if all {
                return true;
            }
            if start.elapsed() > Duration::from_secs(30) {
                return false;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    fn spawn(&mut self, i: usize) {
        let cluster: Vec<String> = self
            .members
            .iter()
            .map(|m| format!("{}=http://127.0.0.1:{}", m.name, m.peer))
            .collect();
        let m = &self.members[i];
        let log = std::fs::File::create(self.dir.path().join(format!("{}.log", m.name))).unwrap();
        let scheme = if self.tls.is_some() { "https" } else { "http" };
        let mut cmd = Command::new(&self.bin);
        if let Some(t) = &self.tls {
            cmd.arg("--cert-file")
                .arg(t.join("server.crt"))
                .arg("--key-file")
                .arg(t.join("server.key"))
                .arg("--trusted-ca-file")
                .arg(t.join("ca.crt"))
                .arg("--client-cert-auth");
        }
        let child = cmd
            .args(&self.extra)
            .args(["--name", &m.name])
            .arg("--data-dir")
            .arg(self.dir.path().join(&m.name))
            .args([
                "--listen-client-urls",
                &format!("{scheme}://127.0.0.1:{}", m.client),
            ])
            .args([
                "--advertise-client-urls",
                &format!("{scheme}://127.0.0.1:{}", m.client),
            ])
            .args([
                "--listen-peer-urls",
                &format!("http://127.0.0.1:{}", m.peer),
            ])
            .args([
                "--initial-advertise-peer-urls",
                &format!("http://127.0.0.1:{}", m.peer),
            ])
            .args(["--initial-cluster", &cluster.join(",")])
            .args(["--initial-cluster-state", "new"])
            .args(["--initial-cluster-token", "mcsctl-test"])
            .stdout(Stdio::null())
            .stderr(log)
            .spawn()
            .unwrap();
        self.members[i].child = Some(child);
    }

    /// `etcd://` with every member.
    pub(crate) fn url(&self) -> String {
        let m: Vec<String> = self
            .members
            .iter()
            .map(|m| format!("127.0.0.1:{}", m.client))
            .collect();
        format!("etcd://{}", m.join(","))
    }

    /// Stops member `i` (SIGKILL, by its PID).
    pub(crate) fn kill(&mut self, i: usize) {
        if let Some(mut c) = self.members[i].child.take() {
            let _ = c.kill();
            let _ = c.wait();
        }
    }

    /// Sends every running member `sig` (`STOP`, `CONT`), by its PID: a store that is there
    /// and does not answer.
    pub(crate) fn signal_all(&self, sig: &str) {
        for m in &self.members {
            if let Some(c) = &m.child {
                let ok = Command::new("kill")
                    .arg(format!("-{sig}"))
                    .arg(c.id().to_string())
                    .status()
                    .is_ok_and(|s| s.success());
                assert!(ok, "kill -{sig} {}", c.id());
            }
        }
    }

    /// Whether member `i` runs.
    pub(crate) fn running(&self, i: usize) -> bool {
        self.members[i].child.is_some()
    }

    /// How many members there are.
    pub(crate) fn len(&self) -> usize {
        self.members.len()
    }

    /// Starts member `i` again, on its data.
    pub(crate) fn restart(&mut self, i: usize) {
        self.spawn(i);
    }

    /// Whether member `i` says the cluster is healthy (`/health`: it has a leader and a
    /// quorum read succeeds).
    fn healthy(&self, i: usize) -> bool {
        use std::io::{Read, Write};
        if let Some(t) = &self.tls {
            // Over TLS with a client certificate: curl does what a member's client does.
            let out = Command::new("curl")
                .args(["-s", "--max-time", "2", "--cacert"])
                .arg(t.join("ca.crt"))
                .arg("--cert")
                .arg(t.join("client.crt"))
                .arg("--key")
                .arg(t.join("client.key"))
                .arg(format!(
                    "https://127.0.0.1:{}/health",
                    self.members[i].client
                ))
                .output();
            return out
                .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).contains("\"health\":\"true\""));
        }
        let Ok(mut s) = std::net::TcpStream::connect(("127.0.0.1", self.members[i].client)) else {
            return false;
        };
        let _ = s.set_read_timeout(Some(Duration::from_secs(2)));
        let _ = s.write_all(b"GET /health HTTP/1.0\r\nHost: etcd\r\n\r\n");
        let mut out = String::new();
        let _ = s.read_to_string(&mut out);
        out.contains("\"health\":\"true\"")
    }

    /// Waits (bounded) until a running member reports the cluster healthy.
    pub(crate) fn await_quorum(&self) {
        let start = Instant::now();
        while !(0..self.members.len()).any(|i| self.members[i].child.is_some() && self.healthy(i)) {
            assert!(
                start.elapsed() < Duration::from_secs(30),
                "etcd never became healthy; the members' last log lines:\n{}",
                self.log_tails(20)
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Etcd {
    /// The last `n` lines of each member's log: the directory goes when the test fails.
    fn log_tails(&self, n: usize) -> String {
        let mut out = String::new();
        for m in &self.members {
            let running = if m.child.is_some() {
                "running"
            } else {
                "stopped"
            };
            let log = std::fs::read_to_string(self.dir.path().join(format!("{}.log", m.name)))
                .unwrap_or_else(|e| format!("(no log: {e})"));
            let lines: Vec<&str> = log.lines().collect();
            out.push_str(&format!(
                "--- {} ({running}, client port {}, peer port {})\n",
                m.name, m.client, m.peer
            ));
            for l in &lines[lines.len().saturating_sub(n)..] {
                out.push_str(l);
                out.push('\n');
            }
        }
        out
    }
}

impl Drop for Etcd {
    fn drop(&mut self) {
        for i in 0..self.members.len() {
            self.kill(i);
        }
    }
}

/// The asset directory of the serve tests, with `machines` registered for the worker pool.
pub(crate) fn assets(machines: &[&str]) -> (tempfile::TempDir, PathBuf) {
    let (d, a) = crate::serve::setup_with(&[]);
    for m in machines {
        ok(d.path(), &["machine", "add", m, "--pool", "worker", "-q"]);
    }
    (d, a)
}

/// A serve replica of `cwd`'s asset directory sharing `store`, with a ledger name of its own
/// and `extra` arguments.
pub(crate) fn replica(cwd: &Path, store: &str, name: &str, extra: &[&str]) -> Serve {
    let ledger = cwd.join(format!("{name}.jsonl"));
    let mut args = vec!["--store", store, "--ledger", ledger.to_str().unwrap()];
    if !extra.contains(&"--store-ca") {
        args.push("--store-insecure");
    }
    args.extend_from_slice(extra);
    Serve::start(cwd, &args)
}

/// The status of one GET of the worker config with `bearer`, through `s`.
pub(crate) fn status(s: &Serve, a: &Path, bearer: &str) -> u16 {
    Https::connect(s.addr, &a.join("tls/mcs-ca.crt"))
        .request("GET", "/config/worker", &[("Authorization", bearer)])
        .map_or(0, |r| r.status)
}

/// The fetch records the store holds (`machine list --store --format json`), per machine:
/// (whole fetches, all fetches).
pub(crate) fn store_fetches(cwd: &Path, store: &str, machine: &str) -> (usize, usize) {
    let (code, out, err) = run(
        cwd,
        &[
            "machine",
            "list",
            "--store",
            store,
            "--store-insecure",
            "--format",
            "json",
        ],
    );
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let row = v["machines"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["name"] == machine)
        .unwrap_or_else(|| panic!("no {machine} in {out}"))
        .clone();
    let fetches = row["fetches"].as_array().unwrap();
    let whole = fetches.iter().filter(|f| f["whole"] == true).count();
    (whole, fetches.len())
}

/// Waits (bounded) until the store records `n` whole fetches of `machine`.
pub(crate) fn await_whole(cwd: &Path, store: &str, machine: &str, n: usize) {
    let start = Instant::now();
    while store_fetches(cwd, store, machine).0 < n {
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "{machine}'s whole fetch never reached the store"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn three_replicas_serve_a_single_use_token_once_whatever_the_races() {
    let Some(etcd) = Etcd::start(3) else { return };
    let (d, a) = assets(&["w0", "w1"]);
    let url = etcd.url();
    // A reload poll a minute away: what reaches the replicas sooner comes through the store.
    let slow = ["--reload-interval", "60s"];
    let replicas = [
        replica(d.path(), &url, "a", &slow),
        replica(d.path(), &url, "b", &slow),
        replica(d.path(), &url, "c", &slow),
    ];
    // 64 fetches of w0's token at once, spread over the three replicas: exactly one 200.
    let bearer = format!("Bearer {}", machine_token(&a, "w0"));
    let statuses: Vec<u16> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..64)
            .map(|i| {
                let (r, a, bearer) = (&replicas[i % 3], &a, &bearer);
                s.spawn(move || status(r, a, bearer))
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let served = statuses.iter().filter(|s| **s == 200).count();
    assert_eq!(served, 1, "{statuses:?}");
    assert!(
        statuses.iter().all(|s| [200, 401, 503].contains(s)),
        "{statuses:?}"
    );
    await_whole(d.path(), &url, "w0", 1);
    for r in &replicas {
        assert_eq!(status(r, &a, &bearer), 401, "a replay, on every replica");
    }
    assert_eq!(store_fetches(d.path(), &url, "w0").0, 1);

    // The real Ignition client boots w1 through replica A, and is refused by replica B.
    let pointer = a.join("machines/w1.ign");
    let at = |s: &Serve| crate::support::pointed_at(&pointer, s);
    let Some(boot) = ignition_boot(&at(&replicas[0])) else {
        return;
    };
    assert!(boot.success, "{}", boot.log);
    await_whole(d.path(), &url, "w1", 1);
    let (fetched, _, log) = ignition_fetch_within(
        &at(&replicas[1]),
        Duration::from_secs(8),
        &["GET result: Unauthorized"],
    )
    .unwrap();
    assert!(!fetched, "w1 fetched twice:\n{log}");
    assert!(log.contains("GET result: Unauthorized"), "{log}");
    assert_eq!(store_fetches(d.path(), &url, "w1").0, 1);

    // `machine add --store` on the side: every replica serves the new machine within a
    // second, long before its next reload poll.
    let before = Instant::now();
    ok(
        d.path(),
        &[
            "machine",
            "add",
            "w9",
            "--pool",
            "worker",
            "--store",
            &url,
            "--store-insecure",
            "-q",
        ],
    );
    let bearer = format!("Bearer {}", machine_token(&a, "w9"));
    let head = |s: &Serve| {
        Https::connect(s.addr, &a.join("tls/mcs-ca.crt"))
            .request("HEAD", "/config/worker", &[("Authorization", &bearer)])
            .map_or(0, |r| r.status)
    };
    for r in &replicas {
        while head(r) != 200 {
            assert!(
                before.elapsed() < Duration::from_secs(1),
                "replica {} does not serve w9 a second after `machine add`:\n{}",
                r.addr,
                r.stderr()
            );
            std::thread::sleep(Duration::from_millis(10));
        }
    }
    // `token create --store` and `token revoke --store` give a token to every replica, and
    // take it away, as fast.
    let extra = ok(
        d.path(),
        &[
            "token",
            "create",
            "--pool",
            "worker",
            "--store",
            &url,
            "--store-insecure",
            "-q",
        ],
    );
    let extra = extra.trim().to_string();
    let start = Instant::now();
    for r in &replicas {
        while status(r, &a, &format!("Bearer {extra}")) != 200 {
            assert!(
                start.elapsed() < Duration::from_secs(1),
                "a new token not served"
            );
            std::thread::sleep(Duration::from_millis(10));
        }
    }
    let pool = extra;
    let id = pool.split('.').next().unwrap().to_string();
    ok(
        d.path(),
        &[
            "token",
            "revoke",
            &id,
            "--store",
            &url,
            "--store-insecure",
            "-q",
        ],
    );
    let start = Instant::now();
    for r in &replicas {
        while status(r, &a, &format!("Bearer {pool}")) != 401 {
            assert!(
                start.elapsed() < Duration::from_secs(1),
                "a revoked token still served"
            );
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

#[test]
fn without_quorum_machine_tokens_wait_and_pool_tokens_serve() {
    let Some(mut etcd) = Etcd::start(3) else {
        return;
    };
    let (d, a) = assets(&["w0", "w1", "w2"]);
    let url = etcd.url();
    let s = replica(d.path(), &url, "a", &["--store-grace", "30s"]);
    let bearer = |m: &str| format!("Bearer {}", machine_token(&a, m));
    let pool = format!("Bearer {}", token_for(&a, "worker"));

    // One member down: the cluster keeps its quorum and serve does not notice.
    etcd.kill(0);
    etcd.await_quorum();
    assert_eq!(status(&s, &a, &bearer("w0")), 200);
    await_whole(d.path(), &url, "w0", 1);

    // Two down: no quorum. Machine tokens wait (503: Ignition retries); readiness says why;
    // pool tokens are served.
    etcd.kill(1);
    assert_eq!(status(&s, &a, &bearer("w1")), 503);
    assert_eq!(status(&s, &a, &pool), 200);
    // Said once, at the next poll, with what it means.
    assert!(
        s.wait_stderr("\"event\":\"store-unreachable\"", Duration::from_secs(10)),
        "{}",
        s.stderr()
    );
    let health = || {
        Https::connect(s.addr, &a.join("tls/mcs-ca.crt"))
            .request("GET", "/healthz", &[])
            .unwrap()
    };
    // For the grace: then pool tokens get 503 too.
    s.advance(60);
    assert_eq!(status(&s, &a, &pool), 503);
    let start = Instant::now();
    loop {
        let h = health();
        if h.status == 503 {
            let body = String::from_utf8_lossy(&h.body).to_string();
            assert!(body.contains("the store"), "{body}");
            break;
        }
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "readiness never said the store is gone"
        );
        std::thread::sleep(Duration::from_millis(50));
    }

    // The members come back: machine tokens are served again, and the spent one is not.
    etcd.restart(0);
    etcd.restart(1);
    etcd.await_quorum();
    let start = Instant::now();
    while status(&s, &a, &bearer("w1")) != 200 {
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "machine tokens never came back with the store"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    await_whole(d.path(), &url, "w1", 1);
    assert!(
        s.wait_stderr("the store answers again, after ", Duration::from_secs(10)),
        "{}",
        s.stderr()
    );
    assert_eq!(
        s.stderr()
            .matches("\"event\":\"store-unreachable\"")
            .count(),
        1
    );
    assert_eq!(status(&s, &a, &pool), 200);
    assert_eq!(status(&s, &a, &bearer("w0")), 401);
    assert_eq!(store_fetches(d.path(), &url, "w0"), (1, 1));
    assert_eq!(store_fetches(d.path(), &url, "w1").0, 1);
}

#[test]
fn a_replica_killed_mid_response_leaves_the_machine_able_to_fetch_again() {
    let Some(etcd) = Etcd::start(3) else { return };
    let (d, a) = assets(&["w0"]);
    // Large enough that a client reading 1 KiB leaves serve still sending.
    let big = serde_json::json!({
        "ignition": {"version": "3.2.0"},
        "storage": {"files": [{"path": "/etc/big", "contents": {"source": format!("data:,{}", "x".repeat(2 << 20))}}]}
    });
    crate::support::render(&a, "worker", &big.to_string(), None);
    let url = etcd.url();
    // Short leases: a killed replica's claims are settled 2 s after its last renewal.
    let lease = ["--store-lease", "2s"];
    let mut r1 = replica(d.path(), &url, "a", &lease);
    let r2 = replica(d.path(), &url, "b", &lease);
    let bearer = format!("Bearer {}", machine_token(&a, "w0"));
    let mut c = Https::ask_worker(r1.addr, &a.join("tls/mcs-ca.crt"), &bearer);
    let mut buf = [0u8; 1024];
    c.read_some(&mut buf).unwrap();
    // kill -9 while it sends: the claim stays in the store, unsettled.
    r1.signal("KILL");
    // Reaped (a signal has no exit code to look at).
    let _ = r1.wait_exit(Duration::from_secs(10));
    drop(c);
    // The other replica waits for it (503: Ignition retries) while its lease lives, and serves
    // the machine once etcd ended it (no end mark: its end never went out). Its clock plays
    // no part.
    assert_eq!(status(&r2, &a, &bearer), 503);
    r2.advance(11 * 60);
    let start = Instant::now();
    while status(&r2, &a, &bearer) != 200 {
        assert!(start.elapsed() < Duration::from_secs(30), "{}", r2.stderr());
        std::thread::sleep(Duration::from_millis(50));
    }
    await_whole(d.path(), &url, "w0", 1);
    assert_eq!(status(&r2, &a, &bearer), 401, "and once only");
    assert_eq!(store_fetches(d.path(), &url, "w0"), (1, 2));
}

/// A CA, a serving certificate for 127.0.0.1 and a client certificate, made by openssl in
/// `dir`; `None` when openssl is not installed and the run skips what needs it.
fn tls_files(dir: &Path) -> Option<()> {
    let bin = crate::support::openssl()?;
    let ssl = |args: &[&str]| {
        let out = Command::new(&bin)
            .args(args)
            .current_dir(dir)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    };
    let key = [
        "-newkey",
        "ec",
        "-pkeyopt",
        "ec_paramgen_curve:P-256",
        "-nodes",
    ];
    let mut a = vec!["req", "-x509"];
    a.extend(key);
    a.extend([
        "-keyout",
        "ca.key",
        "-out",
        "ca.crt",
        "-days",
        "2",
        "-subj",
        "/CN=etcd-ca",
    ]);
    ssl(&a);
    for (name, ext) in [
        (
            "server",
            "subjectAltName=IP:127.0.0.1\nextendedKeyUsage=serverAuth,clientAuth\n",
        ),
        ("client", "extendedKeyUsage=clientAuth\n"),
    ] {
        let f = |x: &str| format!("{name}.{x}");
        let (k, r, c, e) = (f("key"), f("csr"), f("crt"), f("ext"));
        std::fs::write(dir.join(&e), ext).unwrap();
        let mut a = vec!["req"];
        a.extend(key);
        a.extend(["-keyout", &k, "-out", &r, "-subj", "/CN=etcd"]);
        ssl(&a);
        ssl(&[
            "x509",
            "-req",
            "-in",
            &r,
            "-CA",
            "ca.crt",
            "-CAkey",
            "ca.key",
            "-CAcreateserial",
            "-out",
            &c,
            "-days",
            "2",
            "-extfile",
            &e,
        ]);
    }
    Some(())
}

#[test]
fn a_store_over_tls_with_client_certificates() {
    let certs = tempfile::tempdir().unwrap();
    if tls_files(certs.path()).is_none() {
        return;
    }
    let Some(etcd) = Etcd::start_with(1, Some(certs.path().to_path_buf()), &[]) else {
        return;
    };
    let (d, a) = assets(&["w0"]);
    let url = etcd.url();
    let f = |n: &str| certs.path().join(n).display().to_string();
    let (ca, cert, key) = (f("ca.crt"), f("client.crt"), f("client.key"));
    let tls = [
        "--store-ca",
        ca.as_str(),
        "--store-cert",
        cert.as_str(),
        "--store-key",
        key.as_str(),
    ];
    let s = replica(d.path(), &url, "a", &tls);
    let bearer = format!("Bearer {}", machine_token(&a, "w0"));
    assert_eq!(status(&s, &a, &bearer), 200);
    let mut list = vec![
        "machine",
        "list",
        "--store",
        url.as_str(),
        "--format",
        "json",
    ];
    list.extend(tls);
    let start = Instant::now();
    while !ok(d.path(), &list).contains("\"whole\": true") {
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "never whole in the store"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    assert_eq!(status(&s, &a, &bearer), 401);
    // Without a client certificate the members refuse, and the command says which store.
    let (code, _, err) = run(
        d.path(),
        &["machine", "list", "--store", &url, "--store-ca", &ca],
    );
    assert_eq!(code, 1);
    assert!(
        err.contains(&format!("the store {url} did not answer")),
        "{err}"
    );
}

#[test]
fn store_commands_reach_the_store_before_saying_they_did() {
    // Nothing listens there: with no record to import, ledger import still asks the store
    // first, and says it did not answer.
    let (d, _) = assets(&[]);
    let nobody = format!("etcd://127.0.0.1:{}", free_ports(1)[0]);
    // A store reached in plaintext is refused unless that is what is meant.
    let (code, _, err) = run(d.path(), &["machine", "list", "--store", &nobody]);
    assert_eq!(code, 2, "{err}");
    assert_eq!(
        err,
        format!(
            "error: --store {nobody} without --store-ca would talk to etcd in plaintext: anyone between this host and the members could publish a token of their own or give a spent one back. Give --store-ca (and --store-cert and --store-key for members that ask for a client certificate), or --store-insecure for a lab on one host\n"
        )
    );
    let (code, out, err) = run(
        d.path(),
        &["ledger", "import", "--store", &nobody, "--store-insecure"],
    );
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.is_empty(), "{out}");
    assert!(
        err.starts_with(&format!("error: the store {nobody} did not answer: ")),
        "{err}"
    );
    let (code, _, err) = run(
        d.path(),
        &[
            "token",
            "create",
            "--pool",
            "worker",
            "--store",
            &nobody,
            "--store-insecure",
        ],
    );
    // The store is read before anything changes: nothing changed.
    let tokens = std::fs::read(d.path().join("mcs-assets/auth/tokens.json")).unwrap();
    assert_eq!(code, 1, "{err}");
    assert!(
        err.starts_with(&format!("error: the store {nobody} did not answer: "))
            && err.ends_with(": nothing changed\n"),
        "{err}"
    );
    assert_eq!(
        std::fs::read(d.path().join("mcs-assets/auth/tokens.json")).unwrap(),
        tokens
    );
    // A store that answers: nothing to import, and it says so.
    let Some(etcd) = Etcd::start(1) else { return };
    let url = etcd.url();
    let out = ok(
        d.path(),
        &["ledger", "import", "--store", &url, "--store-insecure"],
    );
    assert_eq!(
        out,
        format!(
            "imported 0 of 0 record(s) into {url} (0 there already); 0 single-use token(s) counted\n"
        )
    );
}

/// A ledger line of machine `name`'s token, at second `i` of a day, from port `i`.
fn ledger_line(a: &Path, name: &str, i: usize, whole: bool) -> String {
    let reg: serde_json::Value =
        serde_json::from_slice(&std::fs::read(a.join("auth/machines.json")).unwrap()).unwrap();
    let token = reg["machines"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["name"] == name)
        .unwrap()["token"]
        .clone();
    let time = format!(
        "2026-11-2{}T{:02}:{:02}:{:02}Z",
        1 + i / 86_400 % 8,
        i / 3600 % 24,
        i / 60 % 60,
        i % 60
    );
    format!(
        "{}\n",
        serde_json::json!({"time": time, "machine": name, "token": token, "pool": "worker",
            "client": format!("192.0.2.7:{}", 1024 + i % 60_000), "spec": "3.2.0", "bytes": 100,
            "replica": "old", "whole": whole})
    )
}

#[test]
fn ledger_import_counts_a_fetch_that_went_out_whole_after_all_and_a_dry_run_writes_nothing() {
    let Some(etcd) = Etcd::start(1) else { return };
    let (d, a) = assets(&["w0"]);
    let url = etcd.url();
    std::fs::create_dir_all(a.join("auth/ledger")).unwrap();
    let file = a.join("auth/ledger/old.jsonl");
    // Copied while w0's fetch was being sent: not whole yet.
    std::fs::write(&file, ledger_line(&a, "w0", 1, false)).unwrap();
    let out = ok(
        d.path(),
        &[
            "ledger",
            "import",
            "--store",
            &url,
            "--store-insecure",
            "--dry-run",
        ],
    );
    assert!(
        out.starts_with(&format!(
            "dry run: would import 1 of 1 record(s) into {url} (0 there already)"
        )),
        "{out}"
    );
    assert_eq!(
        store_fetches(d.path(), &url, "w0"),
        (0, 0),
        "a dry run wrote"
    );
    let out = ok(
        d.path(),
        &["ledger", "import", "--store", &url, "--store-insecure"],
    );
    assert!(out.starts_with("imported 1 of 1 record(s)"), "{out}");
    assert_eq!(store_fetches(d.path(), &url, "w0"), (0, 1));
    // The same fetch, now whole: imported again, it is spent everywhere.
    std::fs::write(&file, ledger_line(&a, "w0", 1, true)).unwrap();
    let out = ok(
        d.path(),
        &["ledger", "import", "--store", &url, "--store-insecure"],
    );
    assert!(out.starts_with("imported 0 of 1 record(s)"), "{out}");
    assert_eq!(store_fetches(d.path(), &url, "w0"), (1, 1));
    let s = replica(d.path(), &url, "b", &[]);
    assert_eq!(
        status(&s, &a, &format!("Bearer {}", machine_token(&a, "w0"))),
        401
    );
    // And never the other way: an older copy, not whole, spends nothing back.
    drop(s);
    std::fs::write(&file, ledger_line(&a, "w0", 1, false)).unwrap();
    ok(
        d.path(),
        &["ledger", "import", "--store", &url, "--store-insecure"],
    );
    assert_eq!(store_fetches(d.path(), &url, "w0"), (1, 1));
    let s = replica(d.path(), &url, "c", &[]);
    assert_eq!(
        status(&s, &a, &format!("Bearer {}", machine_token(&a, "w0"))),
        401
    );
}

#[test]
fn ledger_import_streams_a_long_ledger_in_bounded_memory() {
    let Some(time) = tool("time", "GNU_TIME", "none") else {
        return;
    };
    let Some(etcd) = Etcd::start(1) else { return };
    let (d, a) = assets(&[]);
    ok(
        d.path(),
        &[
            "machine", "add", "w0", "--pool", "worker", "--uses", "0", "-q",
        ],
    );
    let url = etcd.url();
    std::fs::create_dir_all(a.join("auth/ledger")).unwrap();
    // 200,000 fetches of one unlimited token (about 64 MB of ledger).
    let n = 200_000;
    let mut text = String::with_capacity(n * 330);
    for i in 0..n {
        text.push_str(&ledger_line(&a, "w0", i, true));
    }
    std::fs::write(a.join("auth/ledger/old.jsonl"), text).unwrap();
    let out = Command::new(time)
        .args(["-f", "peak-kb %M"])
        .arg(assert_cmd::cargo::cargo_bin("mcsctl"))
        .args(["ledger", "import", "--store", &url, "--store-insecure"])
        .current_dir(d.path())
        .env_remove("MCSCTL_DIR")
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(
        String::from_utf8_lossy(&out.stdout).starts_with(&format!("imported {n} of {n} record(s)")),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let peak: u64 = err
        .lines()
        .find_map(|l| l.strip_prefix("peak-kb "))
        .and_then(|k| k.trim().parse().ok())
        .unwrap_or_else(|| panic!("no peak in {err}"));
    // Streamed: a batch of records at a time, whatever the ledger's length (it held them all:
    // about 870 MB for a million).
    assert!(peak < 64 * 1024, "peak {peak} KB for {n} records");
    eprintln!("ledger import of {n} records: peak {peak} KB");
}

#[test]
fn records_are_read_a_page_at_a_time_and_what_is_not_ours_is_skipped() {
    let Some(etcd) = Etcd::start(1) else { return };
    let url = etcd.url();
    let (d, a) = assets(&[]);
    ok(
        d.path(),
        &[
            "machine", "add", "w0", "--pool", "worker", "--uses", "0", "-q",
        ],
    );
    std::fs::create_dir_all(a.join("auth/ledger")).unwrap();
    // 20,000 fetches of one unlimited token: about 7 MB of records, past gRPC's 4 MiB.
    let n = 20_000;
    let text: String = (0..n).map(|i| ledger_line(&a, "w0", i, true)).collect();
    std::fs::write(a.join("auth/ledger/old.jsonl"), text).unwrap();
    let shared = [
        "--store",
        &url,
        "--store-insecure",
        "--store-prefix",
        "/shared/",
    ];
    ok(d.path(), &[&["ledger", "import"][..], &shared].concat());
    let list = ok(
        d.path(),
        &[&["machine", "list", "-o", "json"][..], &shared].concat(),
    );
    let v: serde_json::Value = serde_json::from_str(&list).unwrap();
    assert_eq!(v["machines"][0]["fetches"].as_array().unwrap().len(), n);
    // Another directory whose prefix is nested in this one's fetches: its keys are skipped.
    let (d2, a2) = assets(&[]);
    ok(
        d2.path(),
        &["machine", "add", "x0", "--pool", "worker", "-q"],
    );
    std::fs::create_dir_all(a2.join("auth/ledger")).unwrap();
    std::fs::write(
        a2.join("auth/ledger/b.jsonl"),
        ledger_line(&a2, "x0", 1, true),
    )
    .unwrap();
    let nested = [
        "--store",
        &url,
        "--store-insecure",
        "--store-prefix",
        "/shared/fetches/",
    ];
    ok(d2.path(), &[&["ledger", "import"][..], &nested].concat());
    ok(
        d2.path(),
        &[&["token", "create", "--pool", "worker", "-q"][..], &nested].concat(),
    );
    let list = ok(
        d.path(),
        &[&["machine", "list", "-o", "json"][..], &shared].concat(),
    );
    let v: serde_json::Value = serde_json::from_str(&list).unwrap();
    assert_eq!(v["machines"][0]["fetches"].as_array().unwrap().len(), n);
}

#[test]
fn a_token_change_the_store_was_not_told_of_is_said_and_the_reload_names_what_is_served() {
    let Some(etcd) = Etcd::start(1) else { return };
    let (d, _) = assets(&[]);
    let url = etcd.url();
    ok(
        d.path(),
        &[
            "token",
            "create",
            "--pool",
            "worker",
            "--store",
            &url,
            "--store-insecure",
            "-q",
        ],
    );
    let s = replica(d.path(), &url, "a", &[]);
    // Changed in a copy of the directory made before it published (it remembers no store),
    // put in place: serve keeps what the store published, and says so.
    let cfg = d.path().join("mcs-assets/mcsctl.json");
    let mut c: serde_json::Value = serde_json::from_slice(&std::fs::read(&cfg).unwrap()).unwrap();
    assert!(c["store"]["id"].is_string(), "{c}");
    c.as_object_mut().unwrap().remove("store");
    std::fs::write(&cfg, serde_json::to_vec_pretty(&c).unwrap()).unwrap();
    ok(d.path(), &["token", "create", "--pool", "worker", "-q"]);
    assert!(
        s.wait_stderr("\"event\":\"tokens-diverge\"", Duration::from_secs(10)),
        "{}",
        s.stderr()
    );
    assert!(
        s.stderr()
            .contains("auth/tokens.json changed, but the tokens the store published (revision "),
        "{}",
        s.stderr()
    );
    s.reload();
    let line = s
        .stderr()
        .lines()
        .rev()
        .find(|l| l.contains("reloaded on SIGHUP"))
        .unwrap_or_default()
        .to_string();
    assert!(
        line.contains(" live token(s) from the store (revision "),
        "{line}"
    );
}
