//! `serve --metrics-listen`: /metrics read by Prometheus' own text parser (the Python
//! `prometheus_client`, installed by scripts/test), after a known mix of requests.

use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::process::Command;
use std::time::Duration;

use crate::serve::setup_with;
use crate::support::{Https, Serve, accept, https_get, machine_token, ok, token_for};

/// The samples of an exposition as Prometheus parses it: "name{a=b,...}" -> value, labels in
/// name order. Fails the test when the parser refuses the text or Python lacks it (unless the
/// run asks to skip with MCSCTL_TEST_SKIP_MISSING=1).
fn parse(text: &str) -> Option<BTreeMap<String, f64>> {
    let script = r#"
import sys
from prometheus_client.parser import text_string_to_metric_families
for fam in text_string_to_metric_families(sys.stdin.read()):
    for s in fam.samples:
        labels = ",".join(f"{k}={v}" for k, v in sorted(s.labels.items()))
        print(f"{s.name}{{{labels}}}\t{s.value}")
"#;
    let probe = Command::new("python3")
        .args(["-c", "import prometheus_client"])
        .status();
    if !probe.is_ok_and(|s| s.success()) {
        assert!(
            std::env::var_os("MCSCTL_TEST_SKIP_MISSING").is_some_and(|v| !v.is_empty() && v != "0"),
            "python3 with prometheus_client is required by this test: install it (scripts/test does), or run with MCSCTL_TEST_SKIP_MISSING=1 to skip the parts that need it"
        );
        return None;
    }
    let mut child = Command::new("python3")
        .args(["-c", script])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(text.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "the Prometheus parser refused /metrics: {}\n{text}",
        String::from_utf8_lossy(&out.stderr)
    );
    Some(
        String::from_utf8(out.stdout)
            .unwrap()
            .lines()
            .map(|l| {
                let (k, v) = l.split_once('\t').unwrap();
                (k.to_string(), v.parse().unwrap())
            })
            .collect(),
    )
}

/// `GET /metrics` over plain HTTP: its body, after checking the status and the content type.
pub(crate) fn scrape(addr: &str) -> String {
    let mut c = std::net::TcpStream::connect(addr).unwrap();
    c.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    c.write_all(b"GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        .unwrap();
    let mut text = String::new();
    c.read_to_string(&mut text).unwrap();
    let (head, body) = text.split_once("\r\n\r\n").unwrap();
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    assert!(head.contains("text/plain; version=0.0.4"), "{head}");
    body.to_string()
}

#[test]
fn metrics_count_what_was_sent_and_prometheus_parses_them() {
    let (d, a) = setup_with(&[]);
    ok(
        d.path(),
        &["machine", "add", "w1", "--pool", "worker", "--uses", "2"],
    );
    let s = Serve::start(d.path(), &["--metrics-listen", "127.0.0.1:0"]);
    let banner = s.stderr();
    let addr = banner
        .lines()
        .find_map(|l| l.trim().strip_prefix("metrics: http://"))
        .and_then(|l| l.strip_suffix("/metrics"))
        .unwrap_or_else(|| panic!("{banner}"))
        .to_string();
    let ca = a.join("tls/mcs-ca.crt");
    let worker = format!("Bearer {}", token_for(&a, "worker"));
    let machine = format!("Bearer {}", machine_token(&a, "w1"));
    let get = |auth: Option<&str>, path: &str| {
        let mut h = vec![("Accept", accept("3.2.0"))];
        if let Some(t) = auth {
            h.push(("Authorization", t.to_string()));
        }
        let h: Vec<(&str, &str)> = h.iter().map(|(k, v)| (*k, v.as_str())).collect();
        https_get(&s, &ca, path, &h).status
    };
    // 3 with the worker token, 2 without one, 1 with a guess, 1 unknown pool, 3 machine
    // fetches of a token allowing 2, and a failed handshake (plain HTTP to the TLS port).
    for _ in 0..3 {
        assert_eq!(get(Some(&worker), "/config/worker"), 200);
    }
    for _ in 0..2 {
        assert_eq!(get(None, "/config/worker"), 401);
    }
    assert_eq!(get(Some("Bearer aaaaaa.guess"), "/config/worker"), 401);
    assert_eq!(get(Some(&worker), "/config/gpu"), 404);
    assert_eq!(get(Some(&machine), "/config/worker"), 200);
    assert_eq!(get(Some(&machine), "/config/worker"), 200);
    crate::support::await_whole(&a, "w1", 2);
    assert_eq!(get(Some(&machine), "/config/worker"), 401);
    let mut plain = std::net::TcpStream::connect(s.addr).unwrap();
    plain
        .write_all(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        .unwrap();
    let _ = plain.read(&mut [0u8; 64]);
    assert!(s.wait_stderr("handshake-failed", Duration::from_secs(10)));
    drop(Https::connect(s.addr, &ca));
    let Some(m) = parse(&scrape(&addr)) else {
        return;
    };
    let at = |k: &str| {
        m.get(k)
            .copied()
            .unwrap_or_else(|| panic!("no {k} in {m:#?}"))
    };
    assert_eq!(
        at("mcsctl_requests_total{auth=token,pool=worker,status=200}"),
        3.0
    );
    assert_eq!(
        at("mcsctl_requests_total{auth=none,pool=worker,status=401}"),
        2.0
    );
    assert_eq!(
        at("mcsctl_requests_total{auth=invalid,pool=worker,status=401}"),
        1.0
    );
    assert_eq!(
        at("mcsctl_requests_total{auth=token,pool=other,status=404}"),
        1.0
    );
    assert_eq!(
        at("mcsctl_requests_total{auth=machine,pool=worker,status=200}"),
        2.0
    );
    assert_eq!(
        at("mcsctl_requests_total{auth=machine,pool=worker,status=401}"),
        1.0
    );
    assert_eq!(at("mcsctl_machine_fetches_total{pool=worker}"), 2.0);
    assert_eq!(at("mcsctl_handshake_failures_total{alert=not_tls}"), 1.0);
    let sent: f64 = m
        .iter()
        .filter(|(k, _)| k.starts_with("mcsctl_requests_total{"))
        .map(|(_, v)| v)
        .sum();
    assert_eq!(sent, 10.0, "{m:#?}");
    assert!(at("mcsctl_certificate_expiry_timestamp_seconds{certificate=serving}") > 1.7e9);
    assert!(at("mcsctl_config_bytes{pool=worker,set=full,spec=3.2.0}") > 0.0);
    assert!(m.contains_key("mcsctl_connections_open{}"), "{m:#?}");
}

#[test]
fn no_client_can_grow_the_metrics_or_starve_the_config_listener() {
    let (d, a) = setup_with(&[]);
    ok(
        d.path(),
        &["machine", "add", "w1", "--pool", "worker", "-q"],
    );
    // An open-file limit of 512 for serve (soft and hard).
    let s = Serve::start_after(
        d.path(),
        "ulimit -n 512",
        &["--metrics-listen", "127.0.0.1:0"],
    );
    let addr = s.metrics_addr();
    // 3,000 requests naming pools nobody configured, on one connection, without a token.
    let ca = a.join("tls/mcs-ca.crt");
    let mut c = Https::connect(s.addr, &ca);
    for i in 0..3000 {
        let r = c.request("GET", &format!("/config/pool-{i}"), &[]).unwrap();
        assert_eq!(r.status, 401);
    }
    let Some(m) = parse(&scrape(&addr)) else {
        return;
    };
    let pools: std::collections::BTreeSet<&str> = m
        .keys()
        .filter(|k| k.starts_with("mcsctl_requests_total{"))
        .filter_map(|k| k.split("pool=").nth(1)?.split([',', '}']).next())
        .collect();
    assert_eq!(
        pools.into_iter().collect::<Vec<_>>(),
        ["other"],
        "one series for every pool nobody configured"
    );
    assert_eq!(
        m["mcsctl_requests_total{auth=none,pool=other,status=401}"],
        3000.0
    );
    assert!(
        s.stderr().contains("\"event\":\"open-file-limit\""),
        "--max-connections 4096 cannot fit 512 descriptors, and serve says so: {}",
        s.stderr()
    );
    // 600 idle connections to the metrics listener: it keeps 16 and closes the rest...
    let idle: Vec<std::net::TcpStream> = (0..600)
        .map(|_| std::net::TcpStream::connect(&addr).unwrap())
        .collect();
    assert!(
        s.wait_stderr(
            "\"event\":\"metrics-connection-limit\"",
            Duration::from_secs(10)
        ),
        "{}",
        s.stderr()
    );
    let open = || {
        std::fs::read_dir(format!("/proc/{}/fd", s.pid()))
            .unwrap()
            .count()
    };
    assert!(open() < 512, "{} descriptors", open());
    // ...and a machine (another address) still gets its config.
    let bearer = format!("Bearer {}", machine_token(&a, "w1"));
    let tcp = crate::support::connect_from("127.0.0.2", s.addr);
    let r = Https::over(tcp, &ca)
        .request("GET", "/config/worker", &[("Authorization", &bearer)])
        .unwrap();
    assert_eq!(r.status, 200);
    assert_eq!(
        s.stderr().matches("metrics-connection-limit").count(),
        1,
        "said once, not once per connection"
    );
    drop(idle);
    // Once the idle ones are gone, a scrape gets in again.
    let start = std::time::Instant::now();
    loop {
        let mut c = std::net::TcpStream::connect(&addr).unwrap();
        c.set_read_timeout(Some(Duration::from_secs(2))).unwrap();
        let _ = c.write_all(b"GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
        let mut text = String::new();
        let _ = c.read_to_string(&mut text);
        if text.starts_with("HTTP/1.1 200") {
            break;
        }
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "no scrape got in"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}
