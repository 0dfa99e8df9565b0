//! Shared test helpers: running the binary, finding outside tools, golden files with one
//! redaction table, snapshots of a directory, and a small TLS server.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Arc, Mutex};

use regex::Regex;
use rustls::pki_types::CertificateDer;
use rustls::pki_types::pem::PemObject;

/// The mcsctl binary with a clean environment (no MCSCTL_DIR, no colour).
pub fn mcsctl(cwd: &Path) -> assert_cmd::Command {
    let mut c = assert_cmd::Command::cargo_bin("mcsctl").expect("binary");
    // No command of the suite runs for long; one that would (a serve that should have
    // refused to start) is killed rather than hang the run.
    c.current_dir(cwd)
        .env_remove("MCSCTL_DIR")
        .env("NO_COLOR", "1")
        .env("COLUMNS", "100")
        .timeout(std::time::Duration::from_secs(120));
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

/// Runs mcsctl as if `ahead` seconds had passed (its clock through `MCSCTL_TEST_CLOCK`);
/// returns (exit code, stdout, stderr).
pub fn run_later(cwd: &Path, ahead: i64, args: &[&str]) -> (i32, String, String) {
    let at = (::time::OffsetDateTime::now_utc() + ::time::Duration::seconds(ahead))
        .format(&::time::format_description::well_known::Rfc3339)
        .unwrap();
    let out = mcsctl(cwd)
        .env("MCSCTL_TEST_CLOCK", at)
        .args(args)
        .output()
        .expect("run mcsctl");
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
    init_demo(d.path(), extra);
    d
}

/// `mcsctl init` of cluster demo.example.com in `cwd`, with `extra` flags; must succeed.
pub fn init_demo(cwd: &Path, extra: &[&str]) {
    let mut args = vec![
        "init",
        "--cluster-name",
        "demo",
        "--base-domain",
        "example.com",
        "-q",
    ];
    args.extend_from_slice(extra);
    ok(cwd, &args);
}

/// Finds an outside program: `$ENV` first, then PATH, then the cache of `.ci/run`. Missing,
/// the test fails, unless the run says to skip such parts (`MCSCTL_TEST_SKIP_MISSING=1`):
/// then None, and the caller skips the part that needs it. No run is green by accident.
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
        if std::env::var_os("MCSCTL_TEST_SKIP_MISSING").is_none_or(|v| v.is_empty() || v == "0") {
            panic!(
                "{name} is required by this test: install it (scripts/test does), set {env}, or run with MCSCTL_TEST_SKIP_MISSING=1 to skip the parts that need it"
            );
        }
        eprintln!(
            "NOTICE: {name} not found; MCSCTL_TEST_SKIP_MISSING is set: skipping the part of this test that needs it"
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
    let text = std::fs::read_to_string(path).unwrap();
    // Debian's ignition-validate (2.14) knows nothing newer than 3.4.0-experimental; a 3.5.0
    // config is checked with the ignition-config crate's 3.5.0 types instead, warnings
    // (unknown fields) included.
    if text.contains("\"version\":\"3.5.0\"") {
        let (_, warnings) = ignition_config::Config::parse_slice(text.as_bytes())
            .unwrap_or_else(|e| panic!("{} is not a valid 3.5.0 config: {e}", path.display()));
        assert!(warnings.is_empty(), "{}: {warnings:?}", path.display());
        return;
    }
    let Some(iv) = ignition_validate() else {
        return;
    };
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
        // Ephemeral ports of test servers, but not the MCS's own 22623.
        static PORT: std::sync::OnceLock<Regex> = std::sync::OnceLock::new();
        let port = PORT.get_or_init(|| Regex::new(r":(\d{4,5})/config/").unwrap());
        port.replace_all(&s, |c: &regex::Captures<'_>| {
            if &c[1] == "22623" {
                c[0].to_string()
            } else {
                ":[PORT]/config/".to_string()
            }
        })
        .into_owned()
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
            (Regex::new(r"127\.0\.0\.1:\d+").unwrap(), "127.0.0.1:[PORT]"),
            (Regex::new(r"in \d+\.\d ms").unwrap(), "in [MS] ms"),
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

/// A running `mcsctl serve` (killed on drop). Listens on an ephemeral loopback port.
pub struct Serve {
    child: Option<std::process::Child>,
    pub addr: SocketAddr,
    pub log: PathBuf,
    /// The access log pipe, when started with [`Serve::start_with_stdout_pipe`].
    pub stdout: Option<std::process::ChildStdout>,
    stderr: Arc<Mutex<String>>,
    /// Seconds serve's clock runs ahead of the system's (`MCSCTL_TEST_CLOCK=@file`).
    shift: PathBuf,
    _logdir: tempfile::TempDir,
}

impl Serve {
    /// Starts `mcsctl serve` in `cwd` (asset dir `mcs-assets`) with fast reloads.
    pub fn start(cwd: &Path, extra: &[&str]) -> Serve {
        Serve::spawn(cwd, extra, false)
    }

    /// Like [`Serve::start`], with stdout (the access log) a pipe the caller may leave unread.
    pub fn start_with_stdout_pipe(cwd: &Path, extra: &[&str]) -> Serve {
        Serve::spawn(cwd, extra, true)
    }

    /// Like [`Serve::start`], with serve's clock `ahead` seconds past the system's.
    pub fn start_later(cwd: &Path, ahead: i64, extra: &[&str]) -> Serve {
        Serve::spawn_at(cwd, extra, false, ahead)
    }

    /// Like [`Serve::start`], after the shell commands `prelude` (`umask 000`, `ulimit -n
    /// 256`): a shell runs them, then becomes serve.
    pub fn start_after(cwd: &Path, prelude: &str, extra: &[&str]) -> Serve {
        Serve::spawn_full(cwd, extra, false, 0, Some(prelude), None)
    }

    /// Like [`Serve::start`], as user `uid` and group `gid` (the test runs as root).
    pub fn start_as(cwd: &Path, uid: u32, gid: u32, extra: &[&str]) -> Serve {
        Serve::spawn_full(cwd, extra, false, 0, None, Some((uid, gid)))
    }

    /// The process id.
    pub fn pid(&self) -> u32 {
        self.child.as_ref().map_or(0, std::process::Child::id)
    }

    /// The metrics address its banner names (`--metrics-listen`).
    pub fn metrics_addr(&self) -> String {
        let banner = self.stderr();
        banner
            .lines()
            .find_map(|l| l.trim().strip_prefix("metrics: http://"))
            .and_then(|l| l.strip_suffix("/metrics"))
            .unwrap_or_else(|| panic!("no metrics address in {banner}"))
            .to_string()
    }

    fn spawn(cwd: &Path, extra: &[&str], pipe_stdout: bool) -> Serve {
        Serve::spawn_at(cwd, extra, pipe_stdout, 0)
    }

    fn spawn_at(cwd: &Path, extra: &[&str], pipe_stdout: bool, ahead: i64) -> Serve {
        Serve::spawn_full(cwd, extra, pipe_stdout, ahead, None, None)
    }

    fn spawn_full(
        cwd: &Path,
        extra: &[&str],
        pipe_stdout: bool,
        ahead: i64,
        prelude: Option<&str>,
        user: Option<(u32, u32)>,
    ) -> Serve {
        let logdir = tempfile::tempdir().unwrap();
        let log = logdir.path().join("access.log");
        let shift = logdir.path().join("clock-shift");
        std::fs::write(&shift, ahead.to_string()).unwrap();
        let bin = assert_cmd::cargo::cargo_bin("mcsctl");
        let mut cmd = match prelude {
            None => Command::new(&bin),
            Some(p) => {
                let mut c = Command::new("sh");
                c.arg("-c")
                    .arg(format!("{p} && exec \"$0\" \"$@\""))
                    .arg(&bin);
                c
            }
        };
        if let Some((uid, gid)) = user {
            use std::os::unix::process::CommandExt;
            cmd.uid(uid).gid(gid);
        }
        cmd.current_dir(cwd)
            .env_remove("MCSCTL_DIR")
            .env("MCSCTL_TEST_CLOCK", format!("@{}", shift.display()))
            .args(["serve", "--listen", "127.0.0.1:0"])
            .args(if extra.contains(&"--reload-interval") {
                &[][..]
            } else {
                &["--reload-interval", "1s"][..]
            })
            .args(extra);
        Serve::launch(cmd, pipe_stdout, logdir, log, shift)
    }

    /// Starts `cmd`, a command that becomes `mcsctl serve` in the end (a container's, say),
    /// and waits for its banner, as [`Serve::start`] does. Its clock cannot be moved.
    pub fn start_command(cmd: Command) -> Serve {
        let logdir = tempfile::tempdir().unwrap();
        let log = logdir.path().join("access.log");
        let shift = logdir.path().join("clock-shift");
        Serve::launch(cmd, false, logdir, log, shift)
    }

    fn launch(
        mut cmd: Command,
        pipe_stdout: bool,
        logdir: tempfile::TempDir,
        log: PathBuf,
        shift: PathBuf,
    ) -> Serve {
        let mut child = cmd
            .stdout(if pipe_stdout {
                std::process::Stdio::piped()
            } else {
                std::fs::File::create(&log).unwrap().into()
            })
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let stdout = child.stdout.take();
        let stderr = Arc::new(Mutex::new(String::new()));
        let (tx, rx) = std::sync::mpsc::channel();
        let mut pipe = BufReader::new(child.stderr.take().unwrap());
        let buf = stderr.clone();
        std::thread::spawn(move || {
            let mut line = String::new();
            let mut sent = false;
            while pipe.read_line(&mut line).unwrap_or(0) > 0 {
                buf.lock().unwrap().push_str(&line);
                if !sent && let Some(rest) = line.trim().strip_prefix("listening: https://") {
                    let a: SocketAddr = rest.split_whitespace().next().unwrap().parse().unwrap();
                    let _ = tx.send(a);
                    sent = true;
                }
                line.clear();
            }
        });
        let addr = match rx.recv_timeout(std::time::Duration::from_secs(30)) {
            Ok(a) => a,
            Err(_) => {
                let _ = child.kill();
                panic!("mcsctl serve did not start:\n{}", stderr.lock().unwrap());
            }
        };
        let s = Serve {
            child: Some(child),
            addr,
            log,
            stdout,
            stderr,
            shift,
            _logdir: logdir,
        };
        // The banner ends with "ready": everything it says is on stderr by then.
        assert!(
            s.wait_stderr("\nready\n", std::time::Duration::from_secs(10)),
            "no banner:\n{}",
            s.stderr()
        );
        s
    }

    pub fn stderr(&self) -> String {
        self.stderr.lock().unwrap().clone()
    }

    /// Moves serve's clock `secs` seconds forward (it reads the shift at each use).
    pub fn advance(&self, secs: i64) {
        let now: i64 = std::fs::read_to_string(&self.shift)
            .unwrap()
            .trim()
            .parse()
            .unwrap();
        // Written whole, then renamed: serve never reads half a number.
        let tmp = self.shift.with_extension("new");
        std::fs::write(&tmp, (now + secs).to_string()).unwrap();
        std::fs::rename(&tmp, &self.shift).unwrap();
    }

    pub fn access_log(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }

    /// The access log once it holds `needle` (bounded: 10 s). Lines are written by serve's log
    /// thread, a moment after the response.
    pub fn access_log_with(&self, needle: &str) -> String {
        let start = std::time::Instant::now();
        loop {
            let log = self.access_log();
            if log.contains(needle) || start.elapsed() > std::time::Duration::from_secs(10) {
                return log;
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
    }

    /// Waits for `needle` to appear on stderr (bounded).
    pub fn wait_stderr(&self, needle: &str, limit: std::time::Duration) -> bool {
        let start = std::time::Instant::now();
        while start.elapsed() < limit {
            if self.stderr().contains(needle) {
                return true;
            }
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        false
    }

    /// Reloads now (SIGHUP) and waits until the reload is done (bounded: 10 s): for a
    /// change the next poll would otherwise pick up, such as a token `pointer` just made.
    pub fn reload(&self) {
        let count = |s: &str| s.matches("reloaded on SIGHUP").count();
        let before = count(&self.stderr());
        self.signal("HUP");
        let start = std::time::Instant::now();
        while count(&self.stderr()) == before {
            assert!(
                start.elapsed() < std::time::Duration::from_secs(10),
                "no reload after SIGHUP:\n{}",
                self.stderr()
            );
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
    }

    /// Sends a signal (e.g. "TERM", "HUP").
    pub fn signal(&self, sig: &str) {
        let pid = self.child.as_ref().unwrap().id().to_string();
        assert!(
            Command::new("kill")
                .args([&format!("-{sig}"), &pid])
                .status()
                .unwrap()
                .success()
        );
    }

    /// Waits for the process to exit (bounded); returns its exit code.
    pub fn wait_exit(&mut self, limit: std::time::Duration) -> Option<i32> {
        let start = std::time::Instant::now();
        let child = self.child.as_mut().unwrap();
        while start.elapsed() < limit {
            if let Some(st) = child.try_wait().unwrap() {
                self.child = None;
                return st.code();
            }
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        None
    }
}

impl Drop for Serve {
    fn drop(&mut self) {
        if let Some(mut c) = self.child.take() {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

/// One HTTP response.
#[derive(Debug)]
pub struct HttpResponse {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl HttpResponse {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }
}

/// TLS client config trusting `ca` (a PEM file).
pub fn client_config(ca: &Path) -> Arc<rustls::ClientConfig> {
    let mut roots = rustls::RootCertStore::empty();
    for c in CertificateDer::pem_file_iter(ca).unwrap() {
        roots.add(c.unwrap()).unwrap();
    }
    let provider = Arc::new(rustls::crypto::aws_lc_rs::default_provider());
    Arc::new(
        rustls::ClientConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .unwrap()
            .with_root_certificates(roots)
            .with_no_client_auth(),
    )
}

/// A TCP connection to `addr` from the loopback address `from` (e.g. 127.0.0.2).
pub fn connect_from(from: &str, addr: SocketAddr) -> TcpStream {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let s = rt.block_on(async {
        let sock = tokio::net::TcpSocket::new_v4().unwrap();
        sock.bind(format!("{from}:0").parse().unwrap()).unwrap();
        sock.connect(addr).await.unwrap()
    });
    let s = s.into_std().unwrap();
    s.set_nonblocking(false).unwrap();
    s
}

/// An HTTPS connection speaking HTTP/1.1 with keep-alive.
pub struct Https {
    tls: rustls::StreamOwned<rustls::ClientConnection, TcpStream>,
    buf: Vec<u8>,
}

impl Https {
    pub fn connect(addr: SocketAddr, ca: &Path) -> Https {
        Self::over(TcpStream::connect(addr).unwrap(), ca)
    }

    pub fn over(tcp: TcpStream, ca: &Path) -> Https {
        Self::with_config(tcp, client_config(ca))
    }

    /// Over `tcp` with a client configuration of the test's own (ALPN, versions).
    pub fn with_config(tcp: TcpStream, config: Arc<rustls::ClientConfig>) -> Https {
        tcp.set_read_timeout(Some(std::time::Duration::from_secs(15)))
            .unwrap();
        let name = rustls::pki_types::ServerName::try_from("127.0.0.1").unwrap();
        let conn = rustls::ClientConnection::new(config, name).unwrap();
        Https {
            tls: rustls::StreamOwned::new(conn, tcp),
            buf: Vec::new(),
        }
    }

    /// The certificate the server presented (DER of the leaf).
    pub fn peer_leaf(&mut self) -> Vec<u8> {
        while self.tls.conn.is_handshaking() {
            self.tls.conn.complete_io(&mut self.tls.sock).unwrap();
        }
        self.tls.conn.peer_certificates().unwrap()[0].to_vec()
    }

    /// Reads whatever comes next, at most `buf.len()` bytes (0 at the end of the stream).
    pub fn read_some(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        std::io::Read::read(&mut self.tls, buf)
    }

    /// A new connection that asks for `/config/worker` with `authorization` and reads nothing
    /// of the answer yet (a fetch in flight, to read later, cut or leave unread).
    pub fn ask_worker(addr: SocketAddr, ca: &Path, authorization: &str) -> Https {
        let mut c = Https::connect(addr, ca);
        c.send(
            format!(
                "GET /config/worker HTTP/1.1\r\nHost: x\r\nAuthorization: {authorization}\r\n\r\n"
            )
            .as_bytes(),
        )
        .unwrap();
        c
    }

    /// Sends raw bytes.
    pub fn send(&mut self, raw: &[u8]) -> std::io::Result<()> {
        self.tls.write_all(raw)?;
        self.tls.flush()
    }

    /// Sends a request and reads its response.
    pub fn request(
        &mut self,
        method: &str,
        target: &str,
        headers: &[(&str, &str)],
    ) -> std::io::Result<HttpResponse> {
        let mut req = format!("{method} {target} HTTP/1.1\r\nHost: 127.0.0.1\r\n");
        for (k, v) in headers {
            req.push_str(&format!("{k}: {v}\r\n"));
        }
        req.push_str("\r\n");
        self.send(req.as_bytes())?;
        self.read_response(method == "HEAD")
    }

    /// Reads one response (Content-Length bodies).
    pub fn read_response(&mut self, head_only: bool) -> std::io::Result<HttpResponse> {
        loop {
            let mut hdrs = [httparse::EMPTY_HEADER; 32];
            let mut resp = httparse::Response::new(&mut hdrs);
            if let Ok(httparse::Status::Complete(n)) = resp.parse(&self.buf) {
                let status = resp.code.unwrap();
                let headers: Vec<(String, String)> = resp
                    .headers
                    .iter()
                    .map(|h| {
                        (
                            h.name.to_string(),
                            String::from_utf8_lossy(h.value).into_owned(),
                        )
                    })
                    .collect();
                let len: usize = if head_only {
                    0
                } else {
                    headers
                        .iter()
                        .find(|(k, _)| k.eq_ignore_ascii_case("content-length"))
                        .map(|(_, v)| v.parse().unwrap())
                        .unwrap_or(0)
                };
                while self.buf.len() < n + len {
                    self.fill()?;
                }
                let body = self.buf[n..n + len].to_vec();
                self.buf.drain(..n + len);
                return Ok(HttpResponse {
                    status,
                    headers,
                    body,
                });
            }
            self.fill()?;
        }
    }

    fn fill(&mut self) -> std::io::Result<()> {
        let mut chunk = [0u8; 16384];
        let n = self.tls.read(&mut chunk)?;
        if n == 0 {
            return Err(std::io::Error::new(
                std::io::ErrorKind::UnexpectedEof,
                "closed",
            ));
        }
        self.buf.extend_from_slice(&chunk[..n]);
        Ok(())
    }
}

/// The Accept header Ignition sends when it reads spec `version` (e.g. "3.4.0").
pub fn accept(version: &str) -> String {
    format!("application/vnd.coreos.ignition+json;version={version}, */*;q=0.1")
}

/// One request on a new connection.
pub fn https_get(serve: &Serve, ca: &Path, target: &str, headers: &[(&str, &str)]) -> HttpResponse {
    Https::connect(serve.addr, ca)
        .request("GET", target, headers)
        .unwrap()
}

/// The bearer tokens of an asset directory's store, oldest first.
/// A new token (`token create`) scoped to `pools`, as a bearer string.
pub fn pools_token(cwd: &Path, pools: &[&str]) -> String {
    let mut args = vec!["token", "create", "-q", "--new-pool"];
    for p in pools {
        args.extend(["--pool", p]);
    }
    ok(cwd, &args).trim().to_string()
}

/// The bearer string (`id.secret`) of the first token of `assets/auth/tokens.json` that `pick`
/// takes; `what` names it when there is none.
fn bearer_of(assets: &Path, pick: impl Fn(&serde_json::Value) -> bool, what: &str) -> String {
    let v: serde_json::Value =
        serde_json::from_slice(&std::fs::read(assets.join("auth/tokens.json")).unwrap()).unwrap();
    let t = v["tokens"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| pick(t))
        .unwrap_or_else(|| panic!("no {what}"));
    format!(
        "{}.{}",
        t["id"].as_str().unwrap(),
        t["secret"].as_str().unwrap()
    )
}

/// The bearer string of `pool`'s current token in `assets/auth/tokens.json`.
pub fn token_for(assets: &Path, pool: &str) -> String {
    let current = |t: &serde_json::Value| {
        t["state"] == "current"
            && t["pools"]
                .as_array()
                .is_none_or(|ps| ps.iter().any(|p| p == pool))
    };
    bearer_of(assets, current, &format!("current token for pool {pool}"))
}

/// The bearer string of the live token bound to machine `name` (`machine add`; the new one
/// after `machine add --force`).
pub fn machine_token(assets: &Path, name: &str) -> String {
    bearer_of(
        assets,
        |t| t["machine"] == name && t["state"] != "revoked",
        &format!("token for machine {name}"),
    )
}

pub fn tokens(assets: &Path) -> Vec<String> {
    let v: serde_json::Value =
        serde_json::from_slice(&std::fs::read(assets.join("auth/tokens.json")).unwrap()).unwrap();
    v["tokens"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            format!(
                "{}.{}",
                t["id"].as_str().unwrap(),
                t["secret"].as_str().unwrap()
            )
        })
        .collect()
}

/// Writes a rendered config for `pool` (and optionally its pre-approval subset).
pub fn render(assets: &Path, pool: &str, full: &str, pre: Option<&str>) {
    std::fs::create_dir_all(assets.join("rendered/pre-approval")).unwrap();
    std::fs::write(assets.join(format!("rendered/{pool}.ign")), full).unwrap();
    if let Some(p) = pre {
        std::fs::write(assets.join(format!("rendered/pre-approval/{pool}.ign")), p).unwrap();
    }
}

/// Copies a directory tree (files and symlinks resolved to files).
pub fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap().flatten() {
        let p = e.path();
        let t = to.join(e.file_name());
        if std::fs::metadata(&p).map(|m| m.is_dir()).unwrap_or(false) {
            if !e.file_name().to_string_lossy().starts_with("..") {
                copy_dir(&p, &t);
            }
        } else if std::fs::metadata(&p).is_ok() {
            std::fs::copy(&p, &t).unwrap();
        }
    }
}

/// A fixture file under tests/fixtures.
pub fn fixture(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(rel)
}

/// Writes a bootstrap kubeconfig shaped as the MCS makes one (cluster `local`, user and context
/// `kubelet`, the node-bootstrapper token) into `dir/kubeconfig`, with the demo CA standing in
/// for the API CA. Returns its text.
pub fn bootstrap_kubeconfig(dir: &Path) -> String {
    use base64::Engine;
    let ca = std::fs::read(dir.join("mcs-assets/tls/mcs-ca.crt")).unwrap();
    let text = format!(
        "apiVersion: v1\nkind: Config\nclusters:\n- name: local\n  cluster:\n    server: https://api-int.demo.example.com:6443\n    certificate-authority-data: {}\nusers:\n- name: kubelet\n  user:\n    token: {BOOTSTRAP_TOKEN}\ncontexts:\n- name: kubelet\n  context:\n    cluster: local\n    user: kubelet\ncurrent-context: kubelet\n",
        base64::engine::general_purpose::STANDARD.encode(ca)
    );
    std::fs::write(dir.join("kubeconfig"), &text).unwrap();
    text
}

/// The node-bootstrapper token of [`bootstrap_kubeconfig`].
pub const BOOTSTRAP_TOKEN: &str =
    "eyJhbGciOiJSUzI1NiIsImtpZCI6Im5vZGUtYm9vdHN0cmFwcGVyIn0.bootstrap.signature";

/// Replaces the current token everywhere and ends the previous one at once: rotate, then
/// revoke (a zero grace is refused).
pub fn rotate_and_revoke(cwd: &Path) {
    let out = ok(
        cwd,
        &["token", "rotate", "--grace", "1h", "--format", "json"],
    );
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let mut previous: Vec<String> = v["tokens"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|t| t["previous"]["id"].as_str().map(String::from))
        .collect();
    previous.sort();
    previous.dedup();
    assert!(!previous.is_empty(), "a previous token: {out}");
    for id in previous {
        ok(cwd, &["token", "revoke", &id, "-q"]);
    }
}

/// Every record of the asset directory's ledgers.
pub fn ledger_records(assets: &Path) -> Vec<serde_json::Value> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(assets.join("auth/ledger"))
        .into_iter()
        .flatten()
    {
        let p = e.unwrap().path();
        if p.extension().is_none_or(|x| x != "jsonl") {
            continue;
        }
        out.extend(ledger_file_records(&p));
    }
    out
}

/// A TCP proxy on a free loopback port in front of `target`, standing for a network that
/// drops mid-transfer: each of the first `cut` connections gets only `after` bytes of the
/// server's answer, then both of its sides are closed; later connections pass whole. Its
/// threads end with the test's process.
pub struct CutProxy {
    pub addr: SocketAddr,
    /// Connections cut so far.
    pub cuts: Arc<std::sync::atomic::AtomicUsize>,
}

impl CutProxy {
    pub fn start(target: SocketAddr, after: usize, cut: usize) -> CutProxy {
        use std::sync::atomic::{AtomicUsize, Ordering};
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap();
        let cuts = Arc::new(AtomicUsize::new(0));
        let seen = Arc::new(AtomicUsize::new(0));
        let counted = cuts.clone();
        std::thread::spawn(move || {
            for client in listener.incoming().flatten() {
                let n = seen.fetch_add(1, Ordering::SeqCst);
                let counted = counted.clone();
                std::thread::spawn(move || {
                    let Ok(server) = TcpStream::connect(target) else {
                        return;
                    };
                    let (mut c_in, mut s_out) =
                        (client.try_clone().unwrap(), server.try_clone().unwrap());
                    std::thread::spawn(move || {
                        let _ = std::io::copy(&mut c_in, &mut s_out);
                        let _ = s_out.shutdown(std::net::Shutdown::Write);
                    });
                    let limit = if n < cut { after } else { usize::MAX };
                    let (mut from, mut to) = (server, client);
                    let mut sent = 0usize;
                    let mut buf = vec![0u8; 16 * 1024];
                    while let Ok(k) = from.read(&mut buf) {
                        if k == 0 {
                            break;
                        }
                        let k = k.min(limit - sent);
                        if to.write_all(&buf[..k]).is_err() {
                            break;
                        }
                        sent += k;
                        if sent >= limit {
                            counted.fetch_add(1, Ordering::SeqCst);
                            break;
                        }
                    }
                    let _ = to.shutdown(std::net::Shutdown::Both);
                    let _ = from.shutdown(std::net::Shutdown::Both);
                });
            }
        });
        CutProxy { addr, cuts }
    }
}

/// Points the worker pool of the asset directory in `cwd` at `https://127.0.0.1:PORT` (where a
/// test's serve or proxy listens; remembered in mcsctl.json, so machine pointers point there
/// too) and registers `machines` in it, with `extra` flags each (`--ip`, `--uses`).
pub fn machines_at(cwd: &Path, port: u16, machines: &[&str], extra: &[&str]) {
    let url = format!("https://127.0.0.1:{port}/config/worker");
    ok(
        cwd,
        &[
            "pointer", "--pool", "worker", "--url", &url, "--force", "-q",
        ],
    );
    for m in machines {
        let mut args = vec!["machine", "add", m, "--pool", "worker", "-q"];
        args.extend_from_slice(extra);
        ok(cwd, &args);
    }
}

/// Every record of one ledger file.
pub fn ledger_file_records(p: &Path) -> Vec<serde_json::Value> {
    let text = std::fs::read_to_string(p).unwrap_or_default();
    // A hole a truncation left under serve reads as NULs.
    text.lines()
        .map(|l| l.trim_matches('\0'))
        .filter(|l| !l.is_empty())
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// Waits (a bounded poll, at most 10 s) until the ledgers at `place` (an asset directory, or
/// one ledger file) hold `n` whole fetches of `machine`. serve confirms a fetch, and spends its
/// use, a moment after the last byte left it: a client may have read that byte first, and a
/// replay in between gets 503 (the use is held), not 401.
pub fn await_whole(place: &Path, machine: &str, n: usize) {
    let count = || {
        let recs = if place.is_dir() {
            ledger_records(place)
        } else {
            ledger_file_records(place)
        };
        recs.iter()
            .filter(|r| r["machine"] == machine && r["whole"] == true)
            .count()
    };
    let start = std::time::Instant::now();
    while count() < n {
        assert!(
            start.elapsed() < std::time::Duration::from_secs(10),
            "{machine}'s fetch {n} never confirmed whole in {}",
            place.display()
        );
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
}

/// Calls `f` with each leaf command of mcsctl's command table, by its path (`token rotate`).
pub fn command_leaves(f: &mut dyn FnMut(&str)) {
    fn walk(cmd: &clap::Command, path: &str, f: &mut dyn FnMut(&str)) {
        let subs: Vec<&clap::Command> = cmd
            .get_subcommands()
            .filter(|s| s.get_name() != "help")
            .collect();
        if subs.is_empty() {
            f(path);
            return;
        }
        for s in subs {
            let p = if path.is_empty() {
                s.get_name().to_string()
            } else {
                format!("{path} {}", s.get_name())
            };
            walk(s, &p, f);
        }
    }
    walk(
        &<mcsctl::cmd::Cli as clap::CommandFactory>::command(),
        "",
        f,
    );
}

/// A MachineConfig of `role` named `name` whose `spec.config` adds `storage` (YAML flow).
pub fn machine_config(name: &str, role: &str, storage: &str) -> String {
    format!(
        "apiVersion: machineconfiguration.openshift.io/v1\nkind: MachineConfig\nmetadata:\n  name: {name}\n  labels:\n    machineconfiguration.openshift.io/role: {role}\nspec:\n  config:\n    ignition:\n      version: 3.2.0\n    storage: {storage}\n"
    )
}

/// [`machine_config`] writing one file, `path`, holding `hello`.
pub fn machine_config_file(name: &str, role: &str, path: &str) -> String {
    machine_config(
        name,
        role,
        &format!("{{files: [{{path: {path}, contents: {{source: 'data:,hello'}}, mode: 420}}]}}"),
    )
}

/// The commands of the command table that `covered` lacks (by path: `token rotate`).
pub fn commands_not_in(covered: &std::collections::BTreeSet<String>) -> Vec<String> {
    let mut missing = Vec::new();
    command_leaves(&mut |path| {
        if !covered.contains(path) {
            missing.push(path.to_string());
        }
    });
    missing
}

/// A copy of the pointer config at `pointer`, beside it, pointed at `s` (`127.0.0.1:PORT`
/// instead of the demo cluster's api-int name): a test's serve listens on a free port.
pub fn pointed_at(pointer: &Path, s: &Serve) -> PathBuf {
    let text = std::fs::read_to_string(pointer).unwrap();
    let p = pointer.with_extension(format!("{}.ign", s.addr.port()));
    std::fs::write(
        &p,
        text.replace(
            "api-int.demo.example.com:22623",
            &format!("127.0.0.1:{}", s.addr.port()),
        ),
    )
    .unwrap();
    p
}
