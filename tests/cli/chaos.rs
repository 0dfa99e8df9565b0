//! Chaos over the claim protocol (docs/replicas.md): many clients fetch many single-use
//! machine tokens through three replicas on three real etcd members, while the test pauses
//! and kills replicas, kills and restarts members and silences the whole store, at random.
//! The seed is printed; `MCSCTL_CHAOS_SEED=N` replays a run's choices (the timing of the
//! processes is the machine's own). Afterwards no token has gone out whole twice, and no
//! token a client got whole can be fetched again.
//!
//! Steps are paced by the clients' progress (a bounded poll on a counter), never by sleeps.

use std::net::{SocketAddr, TcpStream};
use std::path::Path;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use crate::replicas::{View, big_config, id_of};
use crate::store::{Etcd, assets, replica};
use crate::support::{Https, Serve, machine_token};

/// xorshift64*: small, and the same choices for the same seed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

fn seed() -> u64 {
    std::env::var("MCSCTL_CHAOS_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .unwrap()
                .as_nanos() as u64
                | 1
        })
}

/// One GET of the worker config: whether a 200 came with its whole body.
fn fetched_whole(addr: SocketAddr, ca: &Path, bearer: &str) -> bool {
    let Ok(tcp) = TcpStream::connect_timeout(&addr, Duration::from_secs(2)) else {
        return false;
    };
    let Ok(handle) = tcp.try_clone() else {
        return false;
    };
    let mut c = Https::over(tcp, ca);
    // A paused replica holds a client no longer than this (the socket is the same one).
    let _ = handle.set_read_timeout(Some(Duration::from_secs(3)));
    let _ = handle.set_write_timeout(Some(Duration::from_secs(3)));
    // `request` returns a response only with all of its Content-Length.
    c.request("GET", "/config/worker", &[("Authorization", bearer)])
        .is_ok_and(|r| r.status == 200)
}

const MACHINES: usize = 48;
const REPLICAS: [&str; 3] = ["a", "b", "c"];
const LEASE: [&str; 2] = ["--store-lease", "2s"];

/// What the clients share with the test.
struct Shared {
    /// The replicas' addresses (a restarted replica listens on a new port).
    addrs: Mutex<Vec<SocketAddr>>,
    /// How many tokens are in play: the test lets more in as it goes, so fresh tokens are
    /// raced for while faults happen.
    open: AtomicUsize,
    /// Requests finished, whatever their outcome.
    done: AtomicUsize,
    /// Per token, how many times a client got it whole.
    whole: Vec<AtomicUsize>,
    stop: AtomicBool,
}

/// Waits (bounded) until `n` more requests have finished.
fn progress(shared: &Shared, n: usize, seed: u64) {
    let from = shared.done.load(Ordering::SeqCst);
    let start = Instant::now();
    while shared.done.load(Ordering::SeqCst) < from + n {
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "clients made no progress (seed {seed})"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
}

fn client(shared: &Shared, ca: &Path, bearers: &[String], mut rng: Rng) {
    while !shared.stop.load(Ordering::SeqCst) {
        let open = shared.open.load(Ordering::SeqCst).min(bearers.len());
        // Mostly the newest tokens (raced for), sometimes any (replays).
        let t = if rng.below(4) > 0 {
            open - 1 - rng.below(4.min(open))
        } else {
            rng.below(open)
        };
        let addrs = shared.addrs.lock().unwrap().clone();
        let addr = addrs[rng.below(addrs.len())];
        if fetched_whole(addr, ca, &bearers[t]) {
            shared.whole[t].fetch_add(1, Ordering::SeqCst);
        }
        shared.done.fetch_add(1, Ordering::SeqCst);
    }
}

/// The faults one step may make.
#[derive(Debug, Clone, Copy)]
enum Fault {
    PauseReplica,
    KillReplica,
    KillMember,
    PauseReplicaKillMember,
    SilenceStore,
    Nothing,
}

const FAULTS: [Fault; 6] = [
    Fault::PauseReplica,
    Fault::KillReplica,
    Fault::KillMember,
    Fault::PauseReplicaKillMember,
    Fault::SilenceStore,
    Fault::Nothing,
];

struct World<'a> {
    cwd: &'a Path,
    url: String,
    etcd: Etcd,
    replicas: Vec<Serve>,
    shared: &'a Shared,
    seed: u64,
}

impl World<'_> {
    fn restart_replica(&mut self, r: usize) {
        self.replicas[r].signal("KILL");
        let _ = self.replicas[r].wait_exit(Duration::from_secs(10));
        self.replicas[r] = replica(self.cwd, &self.url, REPLICAS[r], &LEASE);
        self.shared.addrs.lock().unwrap()[r] = self.replicas[r].addr;
    }

    fn step(&mut self, fault: Fault, rng: &mut Rng) {
        let r = rng.below(REPLICAS.len());
        let m = rng.below(self.etcd.len());
        let n = 10 + rng.below(40);
        match fault {
            Fault::PauseReplica => {
                self.replicas[r].signal("STOP");
                progress(self.shared, n, self.seed);
                self.replicas[r].signal("CONT");
            }
            Fault::KillReplica => {
                progress(self.shared, n, self.seed);
                self.restart_replica(r);
            }
            Fault::KillMember => {
                self.etcd.kill(m);
                progress(self.shared, n, self.seed);
                self.etcd.restart(m);
                self.etcd.await_quorum();
            }
            Fault::PauseReplicaKillMember => {
                self.replicas[r].signal("STOP");
                self.etcd.kill(m);
                progress(self.shared, n, self.seed);
                self.etcd.restart(m);
                self.replicas[r].signal("CONT");
                self.etcd.await_quorum();
            }
            Fault::SilenceStore => {
                self.etcd.signal_all("STOP");
                progress(self.shared, n, self.seed);
                self.etcd.signal_all("CONT");
                self.etcd.await_quorum();
            }
            Fault::Nothing => progress(self.shared, n, self.seed),
        }
        assert!(self.etcd.running(m), "member {m} left down");
    }
}

#[test]
fn chaos_over_replicas_and_members_serves_no_token_whole_twice() {
    let seed = seed();
    eprintln!("chaos seed {seed} (MCSCTL_CHAOS_SEED={seed} replays its choices)");
    let Some(etcd) = Etcd::start(3) else { return };
    let names: Vec<String> = (0..MACHINES).map(|i| format!("w{i}")).collect();
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    let (d, a) = assets(&refs);
    // Big enough that a fault lands in the middle of a response now and then.
    big_config(&a, 2);
    let ca = a.join("tls/mcs-ca.crt");
    let bearers: Vec<String> = names
        .iter()
        .map(|n| format!("Bearer {}", machine_token(&a, n)))
        .collect();
    let url = etcd.url();
    let replicas: Vec<Serve> = REPLICAS
        .iter()
        .map(|n| replica(d.path(), &url, n, &LEASE))
        .collect();
    let shared = Shared {
        addrs: Mutex::new(replicas.iter().map(|r| r.addr).collect()),
        open: AtomicUsize::new(4),
        done: AtomicUsize::new(0),
        whole: (0..MACHINES).map(|_| AtomicUsize::new(0)).collect(),
        stop: AtomicBool::new(false),
    };
    let mut world = World {
        cwd: d.path(),
        url: url.clone(),
        etcd,
        replicas,
        shared: &shared,
        seed,
    };
    let mut rng = Rng(seed);
    let mut faults = Vec::new();
    std::thread::scope(|s| {
        for i in 0..8u64 {
            let (shared, ca, bearers) = (&shared, &ca, &bearers);
            let rng = Rng(seed ^ (i + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
            s.spawn(move || client(shared, ca, bearers, rng));
        }
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            while shared.open.load(Ordering::SeqCst) < MACHINES {
                let fault = FAULTS[rng.below(FAULTS.len())];
                faults.push(fault);
                world.step(fault, &mut rng);
                shared.open.fetch_add(2, Ordering::SeqCst);
            }
            progress(&shared, 50, seed);
        }));
        shared.stop.store(true, Ordering::SeqCst);
        if let Err(e) = result {
            std::panic::resume_unwind(e);
        }
    });

    // Everything settles: each fetch in flight is confirmed or cut by its replica.
    let view = View::new(&url);
    let ids: Vec<String> = bearers.iter().map(|b| id_of(b)).collect();
    let start = Instant::now();
    let claims = loop {
        let claims: Vec<serde_json::Value> = ids.iter().map(|id| view.claims(id)).collect();
        let open = claims
            .iter()
            .filter(|c| c["sending"].as_array().is_some_and(|s| !s.is_empty()))
            .count();
        if open == 0 {
            break claims;
        }
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "{open} fetch(es) still in flight a minute after the chaos (seed {seed})"
        );
        std::thread::sleep(Duration::from_millis(50));
    };
    let got: Vec<usize> = shared
        .whole
        .iter()
        .map(|w| w.load(Ordering::SeqCst))
        .collect();
    let served = got.iter().filter(|n| **n > 0).count();
    let sum = |k: &str| {
        claims
            .iter()
            .map(|c| c[k].as_u64().unwrap_or(0))
            .sum::<u64>()
    };
    eprintln!(
        "seed {seed}: {} requests, {served} of {MACHINES} tokens got whole; the store counts {} whole, {} cut, {} of unknown outcome; faults {faults:?}",
        shared.done.load(Ordering::SeqCst),
        sum("whole"),
        sum("cut"),
        sum("unknown")
    );
    let mut wrong = Vec::new();
    for (i, c) in claims.iter().enumerate() {
        let (whole, unknown) = (
            c["whole"].as_u64().unwrap_or(0),
            c["unknown"].as_u64().unwrap_or(0),
        );
        if got[i] > 1 {
            wrong.push(format!("w{i}: clients got it whole {} times: {c}", got[i]));
        }
        if whole + unknown > 1 {
            wrong.push(format!(
                "w{i}: the store counts it out {whole}+{unknown}: {c}"
            ));
        }
        if got[i] == 1 && whole + unknown == 0 {
            wrong.push(format!(
                "w{i}: a client got it whole, the store says not: {c}"
            ));
        }
        if got[i] > 0 {
            for r in &world.replicas {
                if fetched_whole(r.addr, &ca, &bearers[i]) {
                    wrong.push(format!("w{i}: fetched again through {}", r.addr));
                }
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "seed {seed}, faults {faults:?}:\n{}",
        wrong.join("\n")
    );
    // The run did what it is for: tokens went out while faults happened.
    assert!(
        served >= MACHINES / 4,
        "only {served} tokens served (seed {seed})"
    );
}
