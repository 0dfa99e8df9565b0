//! The claim protocol across replicas (docs/replicas.md), against real etcd members and real
//! serve processes: timing faults come from SIGSTOP and SIGKILL of replicas and members, and
//! from replicas run with other clocks and flags, never from sleeps. A single-use token is
//! served whole at most once, and a machine whose fetch cannot have completed fetches again.

use std::path::Path;
use std::time::{Duration, Instant};

use crate::store::{Etcd, assets, replica, store_fetches};
use crate::support::{Https, Serve, machine_token, ok, run};

/// The store as the tests read it directly (the claim state of a token).
pub(crate) struct View {
    rt: tokio::runtime::Runtime,
    store: mcsctl::store::Store,
}

impl View {
    pub(crate) fn new(url: &str) -> View {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        let o = mcsctl::store::Options::new(url.parse().unwrap(), None, None, None, None, true)
            .unwrap();
        let store = rt
            .block_on(mcsctl::store::Store::connect(&o, "demo.example.com"))
            .unwrap();
        View { rt, store }
    }

    /// The claim state of token `id` as it stands now (the fetches of gone holders settled,
    /// as every reader settles them).
    pub(crate) fn claims(&self, id: &str) -> serde_json::Value {
        let now = time::OffsetDateTime::now_utc().unix_timestamp();
        let s = self
            .rt
            .block_on(mcsctl::store::claims::read(&self.store, id, now))
            .unwrap();
        serde_json::from_slice(&s.json()).unwrap()
    }

    /// The published token state (`auth/tokens`).
    pub(crate) fn published(&self) -> serde_json::Value {
        let v = self
            .rt
            .block_on(self.store.get(mcsctl::store::AUTH_TOKENS))
            .unwrap();
        serde_json::from_slice(&v.value).unwrap()
    }

    /// Writes `auth/tokens` as anyone with write access to the store could.
    pub(crate) fn put_published(&self, v: &serde_json::Value) {
        self.rt
            .block_on(
                self.store
                    .put(mcsctl::store::AUTH_TOKENS, v.to_string().as_bytes()),
            )
            .unwrap();
    }

    /// Whether a fetch of token `id` has its end mark.
    fn ending(&self, id: &str) -> bool {
        let c = self.claims(id);
        c["sending"]
            .as_array()
            .is_some_and(|s| s.iter().any(|x| x["ending"] == true))
    }
}

/// The id of a bearer string.
pub(crate) fn id_of(bearer: &str) -> String {
    bearer
        .trim_start_matches("Bearer ")
        .split('.')
        .next()
        .unwrap()
        .to_string()
}

/// A config of about `mb` MiB: far more than the socket buffers and hyper's queue hold, so a
/// client that stops reading leaves serve in the middle of it.
pub(crate) fn big_config(a: &Path, mb: usize) {
    let big = serde_json::json!({
        "ignition": {"version": "3.2.0"},
        "storage": {"files": [{"path": "/etc/big", "contents": {"source": format!("data:,{}", "x".repeat(mb << 20))}}]}
    });
    crate::support::render(a, "worker", &big.to_string(), None);
}

/// A response read on: its Content-Length and the body bytes received so far.
struct Reading {
    head: Vec<u8>,
    length: Option<usize>,
    body: usize,
}

impl Reading {
    fn new() -> Reading {
        Reading {
            head: Vec::new(),
            length: None,
            body: 0,
        }
    }

    /// Reads at most `n` bytes more from `c`; false at the end of the stream (or an error).
    fn read(&mut self, c: &mut Https, n: usize) -> bool {
        let mut buf = vec![0u8; n];
        match c.read_some(&mut buf) {
            Ok(0) | Err(_) => false,
            Ok(got) => {
                if self.length.is_some() {
                    self.body += got;
                } else {
                    self.head.extend_from_slice(&buf[..got]);
                    if let Some(end) = self.head.windows(4).position(|w| w == b"\r\n\r\n") {
                        let head = String::from_utf8_lossy(&self.head[..end]).to_lowercase();
                        assert!(head.starts_with("http/1.1 200"), "{head}");
                        self.length = head
                            .lines()
                            .find_map(|l| l.strip_prefix("content-length: "))
                            .map(|v| v.trim().parse().unwrap());
                        self.body = self.head.len() - end - 4;
                    }
                }
                true
            }
        }
    }

    /// Reads to the end of the stream; whether the whole body came.
    fn read_to_end(&mut self, c: &mut Https) -> bool {
        while self.read(c, 64 * 1024) {}
        self.whole()
    }

    fn whole(&self) -> bool {
        self.length.is_some_and(|l| self.body >= l)
    }
}

/// Polls (bounded) until `f` holds; `what` says what was awaited.
fn until(limit: Duration, what: &str, mut f: impl FnMut() -> bool) {
    let start = Instant::now();
    while !f() {
        assert!(start.elapsed() < limit, "{what}: not within {limit:?}");
        std::thread::sleep(Duration::from_millis(25));
    }
}

/// GETs the worker config with `bearer` through `s`: the status and the body.
fn get(s: &Serve, a: &Path, bearer: &str) -> (u16, String) {
    Https::connect(s.addr, &a.join("tls/mcs-ca.crt"))
        .request("GET", "/config/worker", &[("Authorization", bearer)])
        .map_or((0, String::new()), |r| {
            (r.status, String::from_utf8_lossy(&r.body).into_owned())
        })
}

const LEASE: [&str; 2] = ["--store-lease", "2s"];

#[test]
fn a_paused_replica_never_sends_the_end_of_a_fetch_another_replica_gave_back() {
    let Some(etcd) = Etcd::start(3) else { return };
    let (d, a) = assets(&["w0"]);
    big_config(&a, 8);
    let url = etcd.url();
    // A rolling update: A lives long connections; B has short ones, and a clock 20 minutes
    // ahead. Neither difference decides anything: claims are judged by etcd's leases.
    let r1 = replica(
        d.path(),
        &url,
        "a",
        &[LEASE[0], LEASE[1], "--connection-deadline", "1h"],
    );
    let mut b_args = vec![
        "--store",
        &url,
        "--store-insecure",
        "--store-lease",
        "2s",
        "--connection-deadline",
        "1m",
        "--write-timeout",
        "5s",
    ];
    let ledger_b = d.path().join("b.jsonl");
    b_args.extend(["--ledger", ledger_b.to_str().unwrap()]);
    let r2 = Serve::start_later(d.path(), 20 * 60, &b_args);
    let bearer = format!("Bearer {}", machine_token(&a, "w0"));

    // A sends w0's config to a client that stops reading after 64 KiB.
    let mut c = Https::ask_worker(r1.addr, &a.join("tls/mcs-ca.crt"), &bearer);
    let mut got = Reading::new();
    while got.body < 64 * 1024 {
        assert!(got.read(&mut c, 16 * 1024), "A sent no config");
    }
    // B, its clock 20 minutes on, waits for A's fetch: A's lease lives.
    assert_eq!(get(&r2, &a, &bearer).0, 503, "{}", r2.stderr());

    // A is paused before the end: once its lease ends (by etcd's clock) B gives the use back
    // and serves the machine.
    r1.signal("STOP");
    let mut served = (0, String::new());
    until(
        Duration::from_secs(30),
        "B serving w0 after A's lease",
        || {
            served = get(&r2, &a, &bearer);
            served.0 == 200
        },
    );
    // A resumes, and its client reads on: A's end mark is refused (its lease ended), so the
    // end never goes out.
    r1.signal("CONT");
    let whole_from_a = got.read_to_end(&mut c);
    assert!(
        !whole_from_a,
        "A sent the whole config after B served it: {} of {:?} bytes\n{}",
        got.body,
        got.length,
        r1.stderr()
    );
    assert!(
        r1.wait_stderr("store-lease-lost", Duration::from_secs(10)),
        "{}",
        r1.stderr()
    );
    assert_eq!(get(&r2, &a, &bearer).0, 401, "spent once");
    assert_eq!(store_fetches(d.path(), &url, "w0").0, 1);
}

#[test]
fn a_replica_that_loses_the_store_mid_fetch_cuts_it_and_the_machine_fetches_again() {
    let Some(etcd) = Etcd::start(3) else { return };
    let (d, a) = assets(&["w0"]);
    big_config(&a, 8);
    let url = etcd.url();
    let mut r1 = replica(d.path(), &url, "a", &LEASE);
    let r2 = replica(d.path(), &url, "b", &LEASE);
    let bearer = format!("Bearer {}", machine_token(&a, "w0"));
    let mut c = Https::ask_worker(r1.addr, &a.join("tls/mcs-ca.crt"), &bearer);
    let mut got = Reading::new();
    while got.body < 64 * 1024 {
        assert!(got.read(&mut c, 16 * 1024), "A sent no config");
    }
    // The store goes silent while A sends: A cannot mark the end, so it never sends it.
    etcd.signal_all("STOP");
    let whole_from_a = got.read_to_end(&mut c);
    assert!(
        !whole_from_a,
        "A sent the whole config while the store could not record it\n{}",
        r1.stderr()
    );
    // A is killed; the store comes back; A's lease ends and its fetch is given back.
    r1.signal("KILL");
    let _ = r1.wait_exit(Duration::from_secs(10));
    etcd.signal_all("CONT");
    etcd.await_quorum();
    // (Protocol 1 waited out a connection's life by the clock; moving B's clock past it
    // serves nothing twice now either.)
    r2.advance(11 * 60);
    until(Duration::from_secs(30), "B serving w0 after A died", || {
        get(&r2, &a, &bearer).0 == 200
    });
    assert_eq!(get(&r2, &a, &bearer).0, 401, "spent once");
    let (whole, all) = store_fetches(d.path(), &url, "w0");
    assert_eq!((whole, all), (1, 2), "A's fetch counts cut, B's whole");
}

#[test]
fn a_fetch_whose_replica_is_lost_after_its_end_mark_stays_spent_and_a_restart_confirms_it() {
    let Some(etcd) = Etcd::start(3) else { return };
    let (d, a) = assets(&["w0", "w1"]);
    big_config(&a, 8);
    let url = etcd.url();
    let view = View::new(&url);
    let ca = a.join("tls/mcs-ca.crt");
    let mut r1 = replica(d.path(), &url, "a", &LEASE);
    let r2 = replica(d.path(), &url, "b", &LEASE);

    // w1: its client reads until A has marked the end, then stops; A is killed before the
    // response is in the socket. Nobody can tell whether the end reached the machine.
    let w1 = format!("Bearer {}", machine_token(&a, "w1"));
    let mut c = Https::ask_worker(r1.addr, &ca, &w1);
    let mut got = Reading::new();
    until(Duration::from_secs(60), "A's end mark for w1", || {
        assert!(got.read(&mut c, 16 * 1024), "A's response ended early");
        view.ending(&id_of(&w1))
    });
    assert!(!got.whole(), "the end went before its mark");
    r1.signal("KILL");
    let _ = r1.wait_exit(Duration::from_secs(10));
    let mut refused = (0, String::new());
    until(
        Duration::from_secs(30),
        "B deciding w1's lost fetch",
        || {
            refused = get(&r2, &a, &w1);
            refused.0 != 503
        },
    );
    assert_eq!(refused.0, 401, "{}", refused.1);
    assert!(
        refused.1.contains("may have gone out whole") && refused.1.contains("--force"),
        "{}",
        refused.1
    );
    let claims = view.claims(&id_of(&w1));
    assert_eq!(
        (claims["whole"].as_u64(), claims["unknown"].as_u64()),
        (Some(0), Some(1)),
        "{claims}"
    );
    // `machine list` shows it, and no CSR would be approved on it.
    let (code, out, err) = run(
        d.path(),
        &[
            "machine",
            "list",
            "--store",
            &url,
            "--store-insecure",
            "--format",
            "json",
        ],
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("\"unknown\": true"), "{out}");
    let (code, out, err) = run(
        d.path(),
        &["machine", "list", "--store", &url, "--store-insecure"],
    );
    assert_eq!(code, 0);
    assert!(out.contains("1x (1 of unknown outcome), last"), "{out}");
    assert!(
        err.contains("w1: its fetch at") && err.contains("may have gone out whole"),
        "{err}"
    );
    // `inspect` of the pointer config about to boot w1 says so, and fails it.
    let (code, out, _) = run(
        d.path(),
        &[
            "inspect",
            "mcs-assets/machines/w1.ign",
            "--store",
            &url,
            "--store-insecure",
        ],
    );
    assert_eq!(code, 4, "{out}");
    assert!(
        out.contains("may have gone out whole") && out.contains("serve answers 401 to it"),
        "{out}"
    );
    // The admin gives w1 a new token: it fetches.
    ok(
        d.path(),
        &[
            "machine",
            "add",
            "w1",
            "--pool",
            "worker",
            "--force",
            "--store",
            &url,
            "--store-insecure",
            "-q",
        ],
    );
    let w1 = format!("Bearer {}", machine_token(&a, "w1"));
    let mut last = (0, String::new());
    let start = Instant::now();
    while last.0 != 200 {
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "w1's new token not served: {} {}\n{}",
            last.0,
            last.1.get(..300).unwrap_or(&last.1),
            r2.stderr()
        );
        last = get(&r2, &a, &w1);
    }

    // w0: A marks the end, then the store goes silent; the client reads everything (a whole
    // fetch whose confirm the store cannot take); A is killed. Its lease ends: unknown.
    let mut r1 = replica(d.path(), &url, "a", &LEASE);
    let w0 = format!("Bearer {}", machine_token(&a, "w0"));
    let mut c = Https::ask_worker(r1.addr, &ca, &w0);
    let mut got = Reading::new();
    until(Duration::from_secs(60), "A's end mark for w0", || {
        assert!(got.read(&mut c, 16 * 1024), "A's response ended early");
        view.ending(&id_of(&w0))
    });
    etcd.signal_all("STOP");
    assert!(got.read_to_end(&mut c), "the end did not go after its mark");
    let journal = d.path().join("a.confirming");
    until(Duration::from_secs(10), "A journaling w0's confirm", || {
        std::fs::read_to_string(&journal).is_ok_and(|j| j.contains(&id_of(&w0)))
    });
    r1.signal("KILL");
    let _ = r1.wait_exit(Duration::from_secs(10));
    etcd.signal_all("CONT");
    etcd.await_quorum();
    until(
        Duration::from_secs(30),
        "B deciding w0's lost fetch",
        || get(&r2, &a, &w0).0 == 401,
    );
    assert_eq!(view.claims(&id_of(&w0))["unknown"].as_u64(), Some(1));
    // A starts again: its journal holds the confirm the store never took, and it is sent.
    let r1 = replica(d.path(), &url, "a", &LEASE);
    let start = Instant::now();
    loop {
        let c = view.claims(&id_of(&w0));
        if c["whole"].as_u64() == Some(1) && c["unknown"].as_u64().unwrap_or(0) == 0 {
            break;
        }
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "A never confirmed w0 after its restart: {c}\n{}",
            r1.stderr()
        );
        std::thread::sleep(Duration::from_millis(25));
    }
    assert!(r1.stderr().contains("journal-replayed"), "{}", r1.stderr());
    let (_, body) = get(&r2, &a, &w0);
    assert!(body.contains("was used at"), "now spent, whole: {body}");
    assert_eq!(store_fetches(d.path(), &url, "w0"), (1, 1));
}

/// Starts serve with `args` and expects it to refuse to start: its exit code and stderr.
fn refused_start(cwd: &Path, args: &[&str]) -> (i32, String) {
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("mcsctl"))
        .current_dir(cwd)
        .env_remove("MCSCTL_DIR")
        .args(["serve", "--listen", "127.0.0.1:0"])
        .args(args)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    loop {
        if let Some(st) = child.try_wait().unwrap() {
            let mut err = String::new();
            std::io::Read::read_to_string(child.stderr.as_mut().unwrap(), &mut err).unwrap();
            return (st.code().unwrap_or(-1), err);
        }
        if start.elapsed() > Duration::from_secs(30) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("serve {args:?} did not refuse to start");
        }
        std::thread::sleep(Duration::from_millis(25));
    }
}

#[test]
fn replicas_that_decide_fetches_otherwise_refuse_to_serve_beside_each_other() {
    let Some(etcd) = Etcd::start(1) else { return };
    let (d, _a) = assets(&["w0"]);
    let url = etcd.url();
    let _r1 = replica(d.path(), &url, "a", &["--max-partial-fetches", "3"]);
    let b = d.path().join("b.jsonl");
    let replica_of = |ledger: &Path, extra: &[&str]| {
        let mut args = vec!["--store", &url, "--store-insecure", "--ledger"];
        args.push(ledger.to_str().unwrap());
        args.extend_from_slice(extra);
        refused_start(d.path(), &args)
    };
    let (code, err) = replica_of(&b, &["--max-partial-fetches", "5"]);
    assert_ne!(code, 0);
    assert!(
        err.contains("replica a (holder a-")
            && err.contains("--max-partial-fetches 3; this one has 2 and 5"),
        "{err}"
    );
    // A second serve of one replica name: its journal is held.
    let a_ledger = d.path().join("a.jsonl");
    let (code, err) = replica_of(&a_ledger, &[]);
    assert_ne!(code, 0);
    assert!(
        err.contains("a.confirming is held by another serve of this replica name"),
        "{err}"
    );
}
