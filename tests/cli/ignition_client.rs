//! The real Ignition client (Debian's ignition 2.14) fetching through `mcsctl serve` with
//! pointer configs written by `mcsctl`: the exact path a booting machine takes.

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use crate::serve::{FULL_34, PRE_32};
use serde_json::json;

use crate::support::{
    CutProxy, Https, Serve, accept, assert_ignition_valid, bootstrap_kubeconfig, demo, fixture,
    https_get, ignition, ledger_records, machine_token, ok, render,
};

/// Runs one Ignition stage on `pointer` in `work` (config cache, state and `root/` there), as
/// a booting machine does. Ignition retries a failed fetch for ever (a booting machine has
/// nothing better to do), so the run is bounded: after `limit` it is killed and counted as a
/// failure. Returns (success, log).
fn stage(
    bin: &Path,
    pointer: &Path,
    work: &Path,
    name: &str,
    limit: Duration,
    until: &[&str],
) -> (bool, String) {
    let root = work.join("root");
    std::fs::create_dir_all(&root).unwrap();
    let log_path = work.join(format!("{name}.log"));
    let log_file = std::fs::File::create(&log_path).unwrap();
    // The files stage ends with an SELinux relabel through `setfiles`: a stub stands in.
    let stub = work.join("bin");
    std::fs::create_dir_all(&stub).unwrap();
    let setfiles = stub.join("setfiles");
    std::fs::write(
        &setfiles,
        format!(
            "#!/bin/sh\necho \"$*\" >> '{}'\nexit 0\n",
            work.join("setfiles.log").display()
        ),
    )
    .unwrap();
    std::fs::set_permissions(
        &setfiles,
        std::os::unix::fs::PermissionsExt::from_mode(0o755),
    )
    .unwrap();
    let path = format!(
        "{}:{}",
        stub.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut child = Command::new(bin)
        .env("IGNITION_CONFIG_FILE", pointer)
        .env("PATH", path)
        .args(["-platform", "file", "-stage", name, "-log-to-stdout"])
        .arg("-config-cache")
        .arg(work.join("config.json"))
        .arg("-state-file")
        .arg(work.join("state"))
        .arg("-neednet")
        .arg(work.join("neednet"))
        .arg("-root")
        .arg(&root)
        .stdout(log_file.try_clone().unwrap())
        .stderr(log_file)
        .spawn()
        .unwrap();
    let start = Instant::now();
    let success = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status.success();
        }
        // A failure Ignition would retry for ever: once the log shows it, it is the answer.
        let failed_as_expected = !until.is_empty()
            && std::fs::read_to_string(&log_path)
                .is_ok_and(|l| until.iter().any(|u| l.contains(u)));
        if failed_as_expected || start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            break false;
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    (
        success,
        std::fs::read_to_string(&log_path).unwrap_or_default(),
    )
}

/// Runs Ignition's fetch stage on `pointer`; returns (success, fetched config, log).
/// `until`: log lines of a failure Ignition would retry for ever; the first one ends the run.
pub fn ignition_fetch_within(
    pointer: &Path,
    limit: Duration,
    until: &[&str],
) -> Option<(bool, String, String)> {
    let bin = ignition()?;
    let work = tempfile::tempdir().unwrap();
    let (success, log) = stage(&bin, pointer, work.path(), "fetch", limit, until);
    Some((
        success,
        std::fs::read_to_string(work.path().join("config.json")).unwrap_or_default(),
        log,
    ))
}

/// A machine booted by the real Ignition: the fetch stage, then the files stage writing into
/// `root`, a directory that stands for the node's disk.
pub struct Boot {
    /// Both stages succeeded and the final relabel ran.
    pub success: bool,
    /// Both stages' logs.
    pub log: String,
    work: tempfile::TempDir,
}

impl Boot {
    /// A path on the node's disk.
    pub fn path(&self, p: &str) -> std::path::PathBuf {
        self.work
            .path()
            .join("root")
            .join(p.trim_start_matches('/'))
    }

    /// A file on the node's disk.
    pub fn read(&self, p: &str) -> Vec<u8> {
        std::fs::read(self.path(p)).unwrap_or_else(|e| panic!("{p} on the node: {e}\n{}", self.log))
    }

    /// A JSON file on the node's disk.
    pub fn json(&self, p: &str) -> serde_json::Value {
        serde_json::from_slice(&self.read(p)).unwrap()
    }

    /// Whether the node's disk has `p`.
    pub fn has(&self, p: &str) -> bool {
        self.path(p).exists()
    }

    /// The permission bits of a file on the node's disk.
    pub fn mode(&self, p: &str) -> u32 {
        crate::support::mode(&self.path(p))
    }
}

/// Boots a machine from `pointer`: fetch, then files onto a disk with the SELinux config an
/// RHCOS root has (the relabel reads it). None when Ignition is not installed (outside CI).
pub fn ignition_boot(pointer: &Path) -> Option<Boot> {
    let bin = ignition()?;
    let work = tempfile::tempdir().unwrap();
    let selinux = work.path().join("root/etc/selinux");
    std::fs::create_dir_all(&selinux).unwrap();
    std::fs::write(
        selinux.join("config"),
        "SELINUX=enforcing\nSELINUXTYPE=targeted\n",
    )
    .unwrap();
    let limit = Duration::from_secs(60);
    let (fetched, mut log) = stage(&bin, pointer, work.path(), "fetch", limit, &[]);
    let mut success = fetched;
    if fetched {
        let (files, files_log) = stage(&bin, pointer, work.path(), "files", limit, &[]);
        log.push_str(&files_log);
        success = files && work.path().join("setfiles.log").exists();
    }
    Some(Boot { success, log, work })
}

/// [`ignition_fetch_within`] with a limit long enough for a fetch that works.
pub fn ignition_fetch(pointer: &Path) -> Option<(bool, String, String)> {
    ignition_fetch_within(pointer, Duration::from_secs(60), &[])
}

/// A demo asset directory with a 3.4.0 rendered worker config (Ignition 2.14 accepts at most
/// 3.3.0, so every fetch below also exercises down-translation), served by `mcsctl serve`.
fn served(extra_init: &[&str], serve_args: &[&str]) -> (tempfile::TempDir, Serve) {
    let mut args = vec!["--san", "127.0.0.1"];
    args.extend_from_slice(extra_init);
    let d = demo(&args);
    render(
        &d.path().join("mcs-assets"),
        "worker",
        FULL_34,
        Some(PRE_32),
    );
    let s = Serve::start(d.path(), serve_args);
    (d, s)
}

fn pointer_for(d: &Path, s: &Serve, out: &str, extra: &[&str]) {
    let url = format!("https://127.0.0.1:{}/config/worker", s.addr.port());
    let mut args = vec![
        "pointer",
        "--pool",
        "worker",
        "--url",
        url.as_str(),
        "--output",
        out,
        "--force",
        "-q",
    ];
    args.extend_from_slice(extra);
    ok(d, &args);
}

/// Whether Ignition fetched the full config; false only when Ignition is not installed (outside
/// CI, after a notice), so callers skip what depends on the fetch.
fn fetches_full(d: &Path, file: &str) -> bool {
    let Some((success, fetched, log)) = ignition_fetch(&d.join(file)) else {
        return false;
    };
    assert!(success, "ignition failed with {file}:\n{log}");
    assert!(
        fetched.contains("full%20config"),
        "fetched config lacks the rendered file:\n{fetched}"
    );
    true
}

fn refused(d: &Path, file: &str, expect_in_log: &str) {
    let Some((success, fetched, log)) =
        ignition_fetch_within(&d.join(file), Duration::from_secs(8), &[expect_in_log])
    else {
        return;
    };
    assert!(!success, "ignition succeeded with {file}:\n{log}");
    assert!(!fetched.contains("full%20config"));
    assert!(
        log.contains(expect_in_log),
        "expected {expect_in_log:?} in the log:\n{log}"
    );
}

#[test]
fn header_token_fetch_of_a_34_config_by_ignition_214() {
    let (d, s) = served(&[], &[]);
    pointer_for(d.path(), &s, "lab.ign", &[]);
    if !fetches_full(d.path(), "lab.ign") {
        return;
    }
    let log = s.access_log_with("/config/worker");
    let line = log
        .lines()
        .find(|l| l.contains("/config/worker"))
        .expect("request logged");
    assert!(
        line.contains("\"status\":200")
            && line.contains("\"auth\":\"token:")
            && line.contains("Ignition"),
        "{line}"
    );
}

#[test]
fn spec_30_pointer_with_query_token() {
    let (d, s) = served(
        &["--spec-version", "3.0.0", "--token-transport", "query"],
        &[],
    );
    pointer_for(d.path(), &s, "lab30.ign", &[]);
    fetches_full(d.path(), "lab30.ign");
}

#[test]
fn wrong_token_fails() {
    let (d, s) = served(&[], &[]);
    pointer_for(d.path(), &s, "lab.ign", &[]);
    let text = std::fs::read_to_string(d.path().join("lab.ign")).unwrap();
    let re = regex::Regex::new(r"Bearer [a-z0-9]{6}\.[A-Za-z0-9_-]{43}").unwrap();
    let forged = re
        .replace(
            &text,
            "Bearer aaaaaa.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
        )
        .into_owned();
    std::fs::write(d.path().join("forged.ign"), forged).unwrap();
    refused(d.path(), "forged.ign", "GET result: Unauthorized");
}

#[test]
fn another_ca_is_refused_by_ignition() {
    let (_d, s) = served(&[], &[]);
    let ours = demo(&["--san", "127.0.0.1"]);
    pointer_for(ours.path(), &s, "lab.ign", &[]);
    refused(
        ours.path(),
        "lab.ign",
        "x509: certificate signed by unknown authority",
    );
    if ignition().is_none() {
        return;
    }
    // serve says so, once for all of Ignition's retries (Go's client sends bad_certificate).
    assert!(
        s.wait_stderr("handshake-failed", Duration::from_secs(10)),
        "{}",
        s.stderr()
    );
    let err = s.stderr();
    let said: Vec<&str> = err
        .lines()
        .filter(|l| l.contains("handshake-failed"))
        .collect();
    assert_eq!(said.len(), 1, "{err}");
    assert!(
        said[0].contains("127.0.0.1: 1 handshake refused with bad_certificate since ")
            && said[0].contains("a pointer config trusting another CA"),
        "{}",
        said[0]
    );
}

#[test]
fn rotation_keeps_old_pointers_working_for_the_grace_only() {
    let (d, s) = served(&[], &[]);
    pointer_for(d.path(), &s, "old.ign", &[]);
    ok(d.path(), &["token", "rotate", "--grace", "1h", "-q"]);
    pointer_for(d.path(), &s, "new.ign", &[]);
    assert!(
        // Two pools: two tokens before, two new ones.
        s.wait_stderr("4 live token(s)", Duration::from_secs(10)),
        "{}",
        s.stderr()
    );
    fetches_full(d.path(), "new.ign");
    fetches_full(d.path(), "old.ign");
    // A short grace: the previous token works until it ends, then not.
    ok(d.path(), &["token", "rotate", "--grace", "3s", "-q"]);
    pointer_for(d.path(), &s, "newest.ign", &[]);
    assert!(
        s.wait_stderr("6 live token(s)", Duration::from_secs(10)),
        "{}",
        s.stderr()
    );
    fetches_full(d.path(), "newest.ign");
    // Past the grace, by serve's clock.
    s.advance(60);
    refused(d.path(), "new.ign", "GET result: Unauthorized");
    fetches_full(d.path(), "newest.ign");
}

#[test]
fn cert_renew_while_serving_reaches_new_connections() {
    let (d, s) = served(&[], &[]);
    let ca = d.path().join("mcs-assets/tls/mcs-ca.crt");
    let before = Https::connect(s.addr, &ca).peer_leaf();
    pointer_for(d.path(), &s, "lab.ign", &[]);
    ok(d.path(), &["cert", "renew", "-q"]);
    let start = Instant::now();
    let mut after = before.clone();
    while after == before && start.elapsed() < Duration::from_secs(10) {
        std::thread::sleep(Duration::from_millis(200));
        after = Https::connect(s.addr, &ca).peer_leaf();
    }
    assert_ne!(after, before, "still the old certificate:\n{}", s.stderr());
    fetches_full(d.path(), "lab.ign");
}

#[test]
fn split_mode_gives_ignition_the_pre_approval_config_without_a_token() {
    let (d, s) = served(&[], &["--auth", "split"]);
    pointer_for(d.path(), &s, "anon.ign", &["--token-transport", "none"]);
    let Some((success, fetched, log)) = ignition_fetch(&d.path().join("anon.ign")) else {
        return;
    };
    assert!(success, "{log}");
    assert!(
        fetched.contains("pre%20approval") && !fetched.contains("full%20config"),
        "{fetched}"
    );
    pointer_for(d.path(), &s, "tok.ign", &[]);
    fetches_full(d.path(), "tok.ign");
}

/// An OpenShift worker pool rendered from tests/fixtures/machineconfigs/worker.yaml with a
/// bootstrap kubeconfig, served by `mcsctl serve`. Returns the kubeconfig's text too.
fn openshift_worker(serve_args: &[&str]) -> (tempfile::TempDir, Serve, String) {
    let d = demo(&["--san", "127.0.0.1"]);
    let kubeconfig = bootstrap_kubeconfig(d.path());
    let mcs = fixture("machineconfigs/worker.yaml");
    ok(
        d.path(),
        &[
            "render",
            "--machine-configs",
            mcs.to_str().unwrap(),
            "--bootstrap-kubeconfig",
            "kubeconfig",
            "-q",
        ],
    );
    let s = Serve::start(d.path(), serve_args);
    (d, s, kubeconfig)
}

/// The access-log line of the first request for `path`.
fn logged(s: &Serve, path: &str) -> String {
    s.access_log_with(path)
        .lines()
        .find(|l| l.contains(path))
        .map(str::to_string)
        .expect("request logged")
}

const ANNOTATION: &str = "machineconfiguration.openshift.io/currentConfig";
const OS_IMAGE_1: &str = "quay.io/openshift-release-dev/ocp-v4.0-art-dev@sha256:1111111111111111111111111111111111111111111111111111111111111111";
const OS_IMAGE_2: &str = "quay.io/openshift-release-dev/ocp-v4.0-art-dev@sha256:2222222222222222222222222222222222222222222222222222222222222222";

#[test]
fn an_openshift_worker_boots_from_serve_with_what_it_needs_to_join() {
    let (d, s, kubeconfig) = openshift_worker(&[]);
    pointer_for(d.path(), &s, "lab.ign", &[]);
    let Some(node) = ignition_boot(&d.path().join("lab.ign")) else {
        return;
    };
    assert!(node.success, "{}", node.log);
    // The kubelet sends its CSR with this kubeconfig: byte for byte what was given.
    assert_eq!(
        node.read("/etc/kubernetes/kubeconfig"),
        kubeconfig.as_bytes()
    );
    assert_eq!(node.mode("/etc/kubernetes/kubeconfig"), 0o644);
    // The daemon starts from these annotations.
    let anno = node.json("/etc/machine-config-daemon/node-annotations.json");
    let name = anno[ANNOTATION].as_str().unwrap().to_string();
    assert!(
        name.starts_with("rendered-worker-") && name.len() == "rendered-worker-".len() + 32,
        "{name}"
    );
    assert_eq!(
        anno["machineconfiguration.openshift.io/desiredConfig"],
        name.as_str()
    );
    assert_eq!(anno["machineconfiguration.openshift.io/state"], "Done");
    // The daemon's firstboot applies what Ignition cannot, from the encapsulated MachineConfig.
    let enc = node.json("/etc/ignition-machine-config-encapsulated.json");
    assert_eq!(enc["metadata"]["name"], name.as_str());
    // The empty config carries the version the client asked for (Ignition 2.14: 3.3.0), as
    // the MCS writes it.
    assert_eq!(
        enc["spec"]["config"],
        json!({"ignition": {"version": "3.3.0"}})
    );
    assert_eq!(
        anno["machineconfiguration.openshift.io/firstPivotConfig"],
        name.as_str()
    );
    assert_eq!(enc["spec"]["fips"], true);
    assert_eq!(enc["spec"]["kernelType"], "realtime");
    assert_eq!(
        enc["spec"]["kernelArguments"],
        json!(["nosmt", "mitigations=auto,nosmt", "audit=1"])
    );
    assert_eq!(enc["spec"]["extensions"], json!(["usbguard", "sysstat"]));
    assert_eq!(
        enc["spec"]["osImageURL"], OS_IMAGE_2,
        "the last non-empty osImageURL wins; 98-worker-unset's null does not erase it"
    );
    let content = node.json("/etc/mcs-machine-config-content.json");
    assert_eq!(content["metadata"]["name"], name.as_str());
    // The rendered MachineConfig keeps the MCO's internal spec, whatever the client reads.
    assert_eq!(content["spec"]["config"]["ignition"]["version"], "3.5.0");
    assert_eq!(content["spec"]["fips"], true);
    for p in [
        "/etc/machine-config-daemon/node-annotations.json",
        "/etc/mcs-machine-config-content.json",
        "/etc/ignition-machine-config-encapsulated.json",
    ] {
        assert_eq!(node.mode(p), 0o644, "{p}");
    }
    // The MachineConfigs' own files, units and modes; 98-worker-unset's nulls erased nothing.
    assert_eq!(node.read("/etc/motd"), b"post-approval worker\n");
    assert_eq!(node.read("/etc/kubernetes/kubelet-ca.crt"), b"kubelet ca\n");
    assert_eq!(node.mode("/var/lib/kubelet/config.json"), 0o600);
    assert_eq!(
        node.mode("/etc/kubernetes/kubelet.conf"),
        0o644,
        "mode: 0644 read as YAML 1.1 octal"
    );
    assert_eq!(node.mode("/etc/containers/registries.conf"), 0o644);
    let unit = String::from_utf8(node.read("/etc/systemd/system/kubelet.service")).unwrap();
    assert!(
        unit.contains("--bootstrap-kubeconfig=/etc/kubernetes/kubeconfig"),
        "{unit}"
    );
    let dropin = node.read("/etc/systemd/system/crio.service.d/10-mco-default-env.conf");
    assert_eq!(dropin, b"[Service]\nEnvironment=GODEBUG=x509ignoreCN=0\n");
    let preset =
        String::from_utf8(node.read("/etc/systemd/system-preset/20-ignition.preset")).unwrap();
    assert!(preset.contains("enable kubelet.service"), "{preset}");
    let line = logged(&s, "/config/worker");
    assert!(
        line.contains("\"status\":200") && line.contains("\"auth\":\"token:"),
        "{line}"
    );
    // docs/render.md lists what this boot writes: the same files with the same modes.
    let page = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/render.md"),
    )
    .unwrap();
    let listing: Vec<(u32, String)> = page
        .lines()
        .filter_map(|l| {
            let (mode, rest) = l.split_once(' ')?;
            let path = rest.split_whitespace().next()?;
            (mode.len() == 3 && path.starts_with("/etc/") || path.starts_with("/var/"))
                .then(|| Some((u32::from_str_radix(mode, 8).ok()?, path.to_string())))?
        })
        .collect();
    assert!(listing.len() >= 10, "{listing:?}");
    let mut on_disk = Vec::new();
    walk_files(&node.path("/"), &node.path("/"), &mut on_disk);
    // The test's own root (the SELinux config the relabel reads), and Ignition's own record,
    // which the page names apart.
    on_disk.retain(|p| p != "/etc/selinux/config" && p != "/etc/.ignition-result.json");
    assert!(page.contains("/etc/.ignition-result.json"));
    let mut listed: Vec<String> = listing.iter().map(|(_, p)| p.clone()).collect();
    listed.sort();
    on_disk.sort();
    assert_eq!(
        listed, on_disk,
        "docs/render.md's listing is not what Ignition wrote"
    );
    for (mode, p) in &listing {
        assert_eq!(node.mode(p), *mode, "{p}");
    }
}

/// The regular files under `dir` that a MachineConfig put there (not the root the test made:
/// its passwd, group and SELinux files), as absolute node paths.
fn walk_files(root: &std::path::Path, dir: &std::path::Path, out: &mut Vec<String>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        let meta = std::fs::symlink_metadata(&p).unwrap();
        if meta.is_dir() {
            walk_files(root, &p, out);
        } else if meta.is_file() {
            out.push(format!("/{}", p.strip_prefix(root).unwrap().display()));
        }
    }
}

#[test]
fn split_mode_boots_a_worker_with_the_pre_approval_set_only() {
    let (d, s, kubeconfig) = openshift_worker(&["--auth", "split"]);
    pointer_for(d.path(), &s, "anon.ign", &["--token-transport", "none"]);
    let Some(node) = ignition_boot(&d.path().join("anon.ign")) else {
        return;
    };
    assert!(node.success, "{}", node.log);
    // The "Securing the Machine Config Server" enhancement: enough to send a CSR, with the bootstrap kubeconfig and the pull secret.
    assert_eq!(
        node.read("/etc/kubernetes/kubeconfig"),
        kubeconfig.as_bytes()
    );
    assert!(node.has("/var/lib/kubelet/config.json"));
    assert!(node.has("/etc/kubernetes/kubelet-ca.crt"));
    assert!(node.has("/etc/systemd/system/kubelet.service"));
    for post in [
        "/etc/motd",
        "/etc/containers/registries.conf",
        "/etc/systemd/system/crio.service.d/10-mco-default-env.conf",
    ] {
        assert!(!node.has(post), "{post} is post-approval");
    }
    // The appended files describe the subset, under its own name.
    let enc = node.json("/etc/ignition-machine-config-encapsulated.json");
    assert_eq!(enc["spec"]["fips"], false);
    assert_eq!(enc["spec"]["kernelType"], "default");
    assert_eq!(enc["spec"]["kernelArguments"], json!([]));
    assert_eq!(enc["spec"]["extensions"], json!([]));
    assert_eq!(enc["spec"]["osImageURL"], OS_IMAGE_1);
    let pre_name = node.json("/etc/machine-config-daemon/node-annotations.json")[ANNOTATION]
        .as_str()
        .unwrap()
        .to_string();
    assert_eq!(enc["metadata"]["name"], pre_name.as_str());
    let full: serde_json::Value = serde_json::from_slice(
        &std::fs::read(d.path().join("mcs-assets/rendered/worker.ign")).unwrap(),
    )
    .unwrap();
    assert_ne!(
        crate::render::served_name(&full),
        pre_name,
        "the subset is not the full config"
    );
    let line = logged(&s, "/config/worker");
    assert!(
        line.contains("\"status\":200") && line.contains("\"auth\":\"none\""),
        "{line}"
    );
}

/// The MCO clears `compression` before each merge (helpers.go, butane#332): a plain file that
/// overrides a gzip-compressed one must not stay "gzip", or Ignition's files stage fails with
/// "gzip: invalid header" and the machine never boots. Rendered, served and written by the
/// real Ignition client, as a node does it.
#[test]
fn a_plain_file_overriding_a_gzip_one_boots() {
    use base64::Engine;
    use std::io::Write;
    let d = demo(&["--san", "127.0.0.1"]);
    bootstrap_kubeconfig(d.path());
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(b"compressed by 00\n").unwrap();
    let gz = base64::engine::general_purpose::STANDARD.encode(gz.finish().unwrap());
    let mcs = format!(
        "apiVersion: machineconfiguration.openshift.io/v1\nkind: MachineConfig\nmetadata:\n  name: 00-worker-gzip\n  labels: {{machineconfiguration.openshift.io/role: worker}}\nspec:\n  config:\n    ignition: {{version: 3.2.0}}\n    storage:\n      files:\n      - path: /etc/mcsctl-test\n        mode: 0644\n        contents: {{source: 'data:;base64,{gz}', compression: gzip}}\n      - path: /etc/mcsctl-kept-gzip\n        mode: 0644\n        contents: {{source: 'data:;base64,{gz}', compression: gzip}}\n---\napiVersion: machineconfiguration.openshift.io/v1\nkind: MachineConfig\nmetadata:\n  name: 50-worker-plain\n  labels: {{machineconfiguration.openshift.io/role: worker}}\nspec:\n  config:\n    ignition: {{version: 3.2.0}}\n    storage:\n      files:\n      - path: /etc/mcsctl-test\n        mode: 0600\n        contents: {{source: 'data:,plain%20from%2050%0A'}}\n"
    );
    std::fs::write(d.path().join("mcs.yaml"), mcs).unwrap();
    ok(
        d.path(),
        &[
            "render",
            "--machine-configs",
            "mcs.yaml",
            "--bootstrap-kubeconfig",
            "kubeconfig",
            "-q",
        ],
    );
    let s = Serve::start(d.path(), &[]);
    pointer_for(d.path(), &s, "lab.ign", &[]);
    let Some(node) = ignition_boot(&d.path().join("lab.ign")) else {
        return;
    };
    assert!(node.success, "{}", node.log);
    assert_eq!(node.read("/etc/mcsctl-test"), b"plain from 50\n");
    assert_eq!(node.mode("/etc/mcsctl-test"), 0o600);
    assert_eq!(
        node.read("/etc/mcsctl-kept-gzip"),
        b"compressed by 00\n",
        "a file nobody overrode keeps its compression"
    );
}

#[test]
fn a_machine_pointer_boots_once_and_a_second_boot_gets_401_with_the_reason() {
    let (d, s) = served(&[], &[]);
    let a = d.path().join("mcs-assets");
    // The pool's URL (remembered in mcsctl.json) is where machine pointers point too.
    crate::support::machines_at(
        d.path(),
        s.addr.port(),
        &["w1.demo.example.com"],
        &["--ip", "127.0.0.1"],
    );
    s.reload();
    let ptr = a.join("machines/w1.demo.example.com.ign");
    assert_ignition_valid(&ptr);
    let Some(boot) = ignition_boot(&ptr) else {
        return;
    };
    assert!(boot.success, "{}", boot.log);
    let recs = ledger_records(&a);
    assert_eq!(recs.len(), 1, "{recs:?}");
    assert_eq!(recs[0]["machine"], "w1.demo.example.com");
    assert_eq!(recs[0]["pool"], "worker");
    assert!(
        recs[0]["client"]
            .as_str()
            .unwrap()
            .starts_with("127.0.0.1:")
    );
    assert_eq!(
        recs[0]["spec"], "3.3.0",
        "Ignition 2.14 asks for 3.3.0 at most"
    );
    // The same pointer again: refused with the reason, and logged as a possible theft.
    let (fetched, _, log) =
        ignition_fetch_within(&ptr, Duration::from_secs(30), &["Unauthorized"]).unwrap();
    assert!(!fetched, "{log}");
    assert!(log.contains("Unauthorized"), "{log}");
    assert!(
        s.wait_stderr("\"event\":\"token-reused\"", Duration::from_secs(10)),
        "{}",
        s.stderr()
    );
    assert!(s.stderr().contains("possible stolen token"));
    assert_eq!(
        ledger_records(&a).len(),
        1,
        "a refused fetch is not a fetch"
    );
    // The access log line carries the record, confirmed whole once the response went out...
    let line = s.access_log_with("\"ledger\"");
    assert!(line.contains("w1.demo.example.com"), "{line}");
    assert!(line.contains(r#""whole":true}}"#), "{line}");
    // ...and so is the ledger's record, in place, at once.
    assert_eq!(ledger_records(&a)[0]["whole"], true);
}

#[test]
fn a_fetch_cut_off_mid_body_spends_nothing_and_the_machine_boots_on_its_next_try() {
    let (d, s) = served(&[], &[]);
    let a = d.path().join("mcs-assets");
    // 6 MB: far more than the socket buffers hold, so serve is still sending at the cut.
    let big = json!({
        "ignition": {"version": "3.2.0"},
        "storage": {"files": [{"path": "/etc/big", "mode": 420,
            "contents": {"source": format!("data:,{}", "x".repeat(6 << 20))}}]}
    });
    render(&a, "worker", &big.to_string(), None);
    // The first connection through the proxy gets 64 KiB of the answer, then the network drops.
    let proxy = CutProxy::start(s.addr, 64 * 1024, 1);
    crate::support::machines_at(d.path(), proxy.addr.port(), &["w0"], &["--ip", "127.0.0.1"]);
    s.reload();
    let ptr = a.join("machines/w0.ign");
    let Some((fetched, _, log)) =
        ignition_fetch_within(&ptr, Duration::from_secs(60), &["unexpected EOF"])
    else {
        return;
    };
    assert!(!fetched, "the cut fetch failed the boot:\n{log}");
    assert!(log.contains("unexpected EOF"), "{log}");
    assert_eq!(proxy.cuts.load(std::sync::atomic::Ordering::SeqCst), 1);
    // The machine boots again (a reboot, a retry of the fetch stage): served whole.
    let boot = ignition_boot(&ptr).unwrap();
    assert!(boot.success, "{}", boot.log);
    assert_eq!(boot.read("/etc/big").len(), 6 << 20);
    crate::support::await_whole(&a, "w0", 1);
    // The cut was recorded (whole: false, first) and said, and spent nothing.
    assert!(
        s.wait_stderr("\"event\":\"fetch-cut\"", Duration::from_secs(30)),
        "{}",
        s.stderr()
    );
    assert!(
        s.stderr().contains("not spent; it may fetch again"),
        "{}",
        s.stderr()
    );
    let recs = ledger_records(&a);
    let whole: Vec<bool> = recs.iter().map(|r| r["whole"] == true).collect();
    assert_eq!(whole, [false, true], "{recs:?}");
    // Spent now: a third fetch gets 401 naming the whole fetch.
    let (fetched, _, log) =
        ignition_fetch_within(&ptr, Duration::from_secs(30), &["Unauthorized"]).unwrap();
    assert!(!fetched, "{log}");
    let bearer = format!("Bearer {}", machine_token(&a, "w0"));
    let r = https_get(
        &s,
        &a.join("tls/mcs-ca.crt"),
        "/config/worker",
        &[("Authorization", &bearer)],
    );
    assert_eq!(r.status, 401);
    let first_whole = recs[1]["time"].as_str().unwrap();
    assert!(
        r.text().contains(&format!("was used at {first_whole}")),
        "{}",
        r.text()
    );
}

#[test]
fn a_fetch_recorded_survives_kill_9_right_after_the_response() {
    let (d, mut s) = served(&[], &[]);
    let a = d.path().join("mcs-assets");
    ok(
        d.path(),
        &["machine", "add", "w1", "--pool", "worker", "--uses", "2"],
    );
    let bearer = format!("Bearer {}", machine_token(&a, "w1"));

    s.reload();
    let r = https_get(
        &s,
        &a.join("tls/mcs-ca.crt"),
        "/config/worker",
        &[("Authorization", &bearer), ("Accept", &accept("3.2.0"))],
    );
    assert_eq!(r.status, 200, "{}", r.text());
    // Killed once the fetch is confirmed (the moment its last byte left serve).
    crate::support::await_whole(&a, "w1", 1);
    s.signal("KILL");
    assert!(
        s.wait_exit(Duration::from_secs(10)).is_none(),
        "killed, no exit code"
    );
    let recs = ledger_records(&a);
    assert_eq!(recs.len(), 1, "{recs:?}");
    assert_eq!(
        (recs[0]["machine"].as_str(), recs[0]["spec"].as_str()),
        (Some("w1"), Some("3.2.0"))
    );
    assert_eq!(recs[0]["bytes"].as_u64(), Some(r.body.len() as u64));
    // A restarted serve counts it: the second use is the last.
    let s = Serve::start(d.path(), &[]);
    let get = || {
        https_get(
            &s,
            &a.join("tls/mcs-ca.crt"),
            "/config/worker",
            &[("Authorization", &bearer), ("Accept", &accept("3.2.0"))],
        )
        .status
    };
    assert_eq!(get(), 200);
    crate::support::await_whole(&a, "w1", 2);
    assert_eq!(get(), 401);
    assert_eq!(ledger_records(&a).len(), 2);
}
