//! Shared test helpers: running the binary, finding outside tools, golden files with one
//! redaction table, snapshots of a directory, and a small TLS server.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

use regex::Regex;
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};

/// The mcsctl binary with a clean environment (no MCSCTL_DIR, no colour).
pub fn mcsctl(cwd: &Path) -> assert_cmd::Command {
    let mut c = assert_cmd::Command::cargo_bin("mcsctl").expect("binary");
    c.current_dir(cwd)
        .env_remove("MCSCTL_DIR")
        .env("NO_COLOR", "1")
        .env("COLUMNS", "100");
    c
}

/// Runs mcsctl and returns (exit code, stdout, stderr).
pub fn run(cwd: &Path, args: &[&str]) -> (i32, String, String) {
    let out = mcsctl(cwd).args(args).output().expect("run mcsctl");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Runs mcsctl and asserts success; returns stdout.
pub fn ok(cwd: &Path, args: &[&str]) -> String {
    let (code, out, err) = run(cwd, args);
    assert_eq!(code, 0, "mcsctl {args:?} failed ({code}):\n{out}\n{err}");
    out
}

/// A fresh asset directory `mcs-assets` (cluster demo.example.com) in a temp dir.
pub fn demo(extra: &[&str]) -> tempfile::TempDir {
    let d = tempfile::tempdir().unwrap();
    let mut args = vec![
        "init",
        "--cluster-name",
        "demo",
        "--base-domain",
        "example.com",
        "-q",
    ];
    args.extend_from_slice(extra);
    ok(d.path(), &args);
    d
}

/// Finds an outside program: `$ENV` first, then PATH, then the CI cache of `.ci/run`.
/// Missing outside CI: prints a notice and returns None (the caller skips). Missing in CI:
/// panics, so CI can never pass by skipping.
pub fn tool(name: &str, env: &str, cache_rel: &str) -> Option<PathBuf> {
    let found = std::env::var_os(env)
        .map(PathBuf::from)
        .filter(|p| p.is_file())
        .or_else(|| {
            std::env::var_os("PATH").and_then(|paths| {
                std::env::split_paths(&paths)
                    .map(|p| p.join(name))
                    .find(|p| p.is_file())
            })
        })
        .or_else(|| {
            let cache = std::env::var_os("MCSCTL_CI_CACHE")
                .map(PathBuf::from)
                .or_else(|| {
                    std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache/mcsctl-ci"))
                })?;
            let p = cache.join(cache_rel);
            p.is_file().then_some(p)
        });
    if found.is_none() {
        if std::env::var_os("CI").is_some() {
            panic!("{name} is required in CI: set {env} or run .ci/run to install it");
        }
        eprintln!(
            "NOTICE: {name} not found (set {env} or run .ci/run); skipping the part of this test that needs it"
        );
    }
    found
}

/// `ignition-validate` from Debian's ignition package.
pub fn ignition_validate() -> Option<PathBuf> {
    tool(
        "ignition-validate",
        "IGNITION_VALIDATE",
        "ignition/usr/bin/ignition-validate",
    )
}

/// The Ignition client itself.
pub fn ignition() -> Option<PathBuf> {
    tool(
        "ignition",
        "IGNITION_BIN",
        "ignition/usr/lib/dracut/modules.d/30ignition/ignition",
    )
}

/// openssl.
pub fn openssl() -> Option<PathBuf> {
    tool("openssl", "OPENSSL", "openssl")
}

/// Validates a config with ignition-validate. Ignition 2.14 knows spec 3.4.0 only as
/// `3.4.0-experimental` (the same schema for what pointer configs use), so a 3.4.0 config is
/// validated under that name.
pub fn assert_ignition_valid(path: &Path) {
    let Some(iv) = ignition_validate() else {
        return;
    };
    let text = std::fs::read_to_string(path).unwrap();
    let tmp = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(
        tmp.path(),
        text.replace(
            "\"version\":\"3.4.0\"",
            "\"version\":\"3.4.0-experimental\"",
        ),
    )
    .unwrap();
    let out = Command::new(iv).arg(tmp.path()).output().unwrap();
    assert!(
        out.status.success(),
        "ignition-validate rejected {}: {}{}",
        path.display(),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Runs openssl with arguments; returns (success, stdout+stderr).
pub fn openssl_run(args: &[&str], cwd: &Path) -> Option<(bool, String)> {
    let bin = openssl()?;
    let out = Command::new(bin)
        .args(args)
        .current_dir(cwd)
        .output()
        .unwrap();
    Some((
        out.status.success(),
        format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ),
    ))
}

/// The one redaction table of golden files: values that change from run to run.
pub struct Redactor {
    literal: Vec<(String, String)>,
}

impl Redactor {
    /// Redacts `root` (the temp dir) and the token ids and secrets of `assets`, if present.
    pub fn new(root: &Path, assets: Option<&Path>) -> Redactor {
        let mut literal = vec![(root.display().to_string(), "[TMP]".to_string())];
        if let Some(a) = assets
            && let Ok(text) = std::fs::read_to_string(a.join("auth/tokens.json"))
        {
            let v: serde_json::Value = serde_json::from_str(&text).unwrap();
            for (i, t) in v["tokens"].as_array().unwrap().iter().enumerate() {
                literal.push((
                    t["secret"].as_str().unwrap().to_string(),
                    format!("[SECRET-{}]", i + 1),
                ));
                literal.push((
                    t["id"].as_str().unwrap().to_string(),
                    format!("[TOKEN-{}]", i + 1),
                ));
            }
        }
        Redactor { literal }
    }

    /// Applies the table.
    pub fn apply(&self, s: &str) -> String {
        let mut s = s.to_string();
        for (from, to) in &self.literal {
            s = s.replace(from, to);
        }
        for (re, to) in patterns() {
            s = re.replace_all(&s, *to).into_owned();
        }
        s
    }
}

fn patterns() -> &'static [(Regex, &'static str)] {
    static P: std::sync::OnceLock<Vec<(Regex, &'static str)>> = std::sync::OnceLock::new();
    P.get_or_init(|| {
        vec![
            (
                Regex::new(r"(?:[0-9A-F]{2}:){31}[0-9A-F]{2}").unwrap(),
                "[SHA256]",
            ),
            (
                Regex::new(r"(?:[0-9A-F]{2}:){19}[0-9A-F]{2}").unwrap(),
                "[KEYID]",
            ),
            (Regex::new(r"\b[0-9a-f]{32}\b").unwrap(), "[SERIAL]"),
            (
                Regex::new(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z").unwrap(),
                "[DATE]",
            ),
            (
                Regex::new(r"base64,[A-Za-z0-9+/=]+").unwrap(),
                "base64,[DATA]",
            ),
        ]
    })
}

/// Compares `actual` with `tests/golden/<name>`; `UPDATE_GOLDEN=1` rewrites the file instead.
pub fn golden(name: &str, actual: &str) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden")
        .join(name);
    if std::env::var_os("UPDATE_GOLDEN").is_some_and(|v| v == "1") {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, actual).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_else(|_| {
        panic!(
            "missing golden file {}; run with UPDATE_GOLDEN=1 to create it",
            path.display()
        )
    });
    if expected != actual {
        let diff: Vec<String> = expected
            .lines()
            .zip(actual.lines())
            .enumerate()
            .filter(|(_, (a, b))| a != b)
            .take(5)
            .map(|(i, (a, b))| format!("line {}:\n  golden: {a}\n  actual: {b}", i + 1))
            .collect();
        panic!(
            "{name} differs from its golden file ({} vs {} lines):\n{}\n--- actual ---\n{actual}",
            expected.lines().count(),
            actual.lines().count(),
            diff.join("\n")
        );
    }
}

/// Every file below `dir` with its bytes and mode, to prove a failed command changed nothing.
pub fn snapshot(dir: &Path) -> BTreeMap<PathBuf, (Vec<u8>, u32)> {
    let mut m = BTreeMap::new();
    fn walk(d: &Path, m: &mut BTreeMap<PathBuf, (Vec<u8>, u32)>) {
        let Ok(rd) = std::fs::read_dir(d) else { return };
        for e in rd.flatten() {
            let p = e.path();
            let meta = std::fs::symlink_metadata(&p).unwrap();
            if meta.is_dir() {
                walk(&p, m);
            } else if p.file_name().unwrap() != ".mcsctl.lock" {
                m.insert(
                    p.clone(),
                    (
                        std::fs::read(&p).unwrap_or_default(),
                        meta.permissions().mode() & 0o777,
                    ),
                );
            }
        }
    }
    walk(dir, &mut m);
    m
}

/// File mode bits.
pub fn mode(p: &Path) -> u32 {
    std::fs::metadata(p).unwrap().permissions().mode() & 0o777
}

/// One request the test server saw.
#[derive(Debug, Clone)]
pub struct SeenRequest {
    pub method: String,
    pub target: String,
    pub headers: Vec<(String, String)>,
}

impl SeenRequest {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// A minimal HTTPS server for tests: serves `body` at `/config/<pool>` to requests that carry
/// `Authorization: Bearer <token>` when a token is required, 401 otherwise. It stands in for
/// `mcsctl serve` until that exists.
pub struct TlsServer {
    pub addr: SocketAddr,
    pub seen: Arc<Mutex<Vec<SeenRequest>>>,
    stop: Arc<AtomicBool>,
    handle: Option<JoinHandle<()>>,
}

impl TlsServer {
    pub fn start(cert: &Path, key: &Path, body: Vec<u8>, bearer: Option<String>) -> TlsServer {
        let certs: Vec<CertificateDer<'static>> = CertificateDer::pem_file_iter(cert)
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        let key = PrivateKeyDer::from_pem_file(key).unwrap();
        let provider = Arc::new(rustls::crypto::aws_lc_rs::default_provider());
        let config = Arc::new(
            rustls::ServerConfig::builder_with_provider(provider)
                .with_safe_default_protocol_versions()
                .unwrap()
                .with_no_client_auth()
                .with_single_cert(certs, key)
                .unwrap(),
        );
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap();
        let seen = Arc::new(Mutex::new(Vec::new()));
        let stop = Arc::new(AtomicBool::new(false));
        let (seen2, stop2) = (seen.clone(), stop.clone());
        let handle = std::thread::spawn(move || {
            for stream in listener.incoming() {
                if stop2.load(Ordering::SeqCst) {
                    break;
                }
                let Ok(stream) = stream else { continue };
                let (config, body, bearer, seen) =
                    (config.clone(), body.clone(), bearer.clone(), seen2.clone());
                std::thread::spawn(move || {
                    let _ = serve_one(stream, config, &body, bearer.as_deref(), &seen);
                });
            }
        });
        TlsServer {
            addr,
            seen,
            stop,
            handle: Some(handle),
        }
    }

    pub fn requests(&self) -> Vec<SeenRequest> {
        self.seen.lock().unwrap().clone()
    }
}

impl Drop for TlsServer {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        let _ = TcpStream::connect(self.addr);
        if let Some(h) = self.handle.take() {
            let _ = h.join();
        }
    }
}

fn serve_one(
    stream: TcpStream,
    config: Arc<rustls::ServerConfig>,
    body: &[u8],
    bearer: Option<&str>,
    seen: &Mutex<Vec<SeenRequest>>,
) -> std::io::Result<()> {
    stream.set_read_timeout(Some(std::time::Duration::from_secs(10)))?;
    let conn = rustls::ServerConnection::new(config).map_err(std::io::Error::other)?;
    let mut tls = rustls::StreamOwned::new(conn, stream);
    let mut reader = BufReader::new(&mut tls);
    let mut line = String::new();
    reader.read_line(&mut line)?;
    let mut parts = line.split_whitespace();
    let method = parts.next().unwrap_or("").to_string();
    let target = parts.next().unwrap_or("").to_string();
    let mut headers = Vec::new();
    loop {
        let mut h = String::new();
        if reader.read_line(&mut h)? == 0 || h == "\r\n" {
            break;
        }
        if let Some((k, v)) = h.trim_end().split_once(':') {
            headers.push((k.trim().to_string(), v.trim().to_string()));
        }
    }
    let req = SeenRequest {
        method,
        target: target.clone(),
        headers,
    };
    let authorized = match bearer {
        None => true,
        Some(t) => {
            req.header("authorization") == Some(&format!("Bearer {t}"))
                || target.contains(&format!("token={t}"))
        }
    };
    seen.lock().unwrap().push(req);
    let path = target.split('?').next().unwrap_or("");
    let (status, payload): (&str, &[u8]) = if !path.starts_with("/config/") {
        ("404 Not Found", b"not found\n")
    } else if !authorized {
        ("401 Unauthorized", b"unauthorized\n")
    } else {
        ("200 OK", body)
    };
    let head = format!(
        "HTTP/1.1 {status}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        payload.len()
    );
    drop(reader);
    tls.write_all(head.as_bytes())?;
    tls.write_all(payload)?;
    tls.flush()?;
    tls.conn.send_close_notify();
    let _ = tls.flush();
    let mut sink = [0u8; 16];
    let _ = tls.sock.read(&mut sink);
    Ok(())
}
