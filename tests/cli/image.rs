//! The container image `scripts/image` builds, run as the Deployment `manifests
//! --serve-deployment` writes runs it: the pod's filesystem made from the manifests (the image's
//! root read-only, Secret volumes read-only with their modes, the ledger claim writable with
//! fsGroup 65534; /proc and a minimal /dev as a container runtime gives them), serve started
//! from the image's entrypoint as the image's user with the Deployment's own args, in a mount
//! and UTS namespace of its own (`unshare`, then `chroot --userspec`). The real Ignition client
//! boots a machine through it; the archive holds what its listing says and builds again to the
//! same digests.
//!
//! These tests need the archive (`scripts/image`), buildah and root; nextest's default profile
//! leaves them out and `scripts/test --profile image` runs them (.ci/run does both).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use serde_json::Value;

use crate::ignition_client::{ignition_boot, ignition_fetch_within};
use crate::manifests::{is_root, load, materialise};
use crate::serve::FULL_34;
use crate::support::{Https, Serve, demo, machine_token, ok, pointed_at, render, tool};

const VERSION: &str = env!("CARGO_PKG_VERSION");

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The archive `scripts/image` wrote (`MCSCTL_IMAGE_ARCHIVE`, else target/image), or None when
/// the run asked to skip what is missing. Needs root and buildah too.
fn archive() -> Option<PathBuf> {
    let path = std::env::var_os("MCSCTL_IMAGE_ARCHIVE")
        .map(PathBuf::from)
        .unwrap_or_else(|| repo().join(format!("target/image/mcsctl-{VERSION}.oci.tar")));
    let skip =
        std::env::var_os("MCSCTL_TEST_SKIP_MISSING").is_some_and(|v| !v.is_empty() && v != "0");
    let missing = if !is_root() {
        Some("root (the pod's mounts and uid 65534)".to_string())
    } else if tool("buildah", "BUILDAH", "buildah").is_none() {
        Some("buildah".to_string())
    } else if !path.is_file() {
        Some(format!("{} (run scripts/image first)", path.display()))
    } else {
        None
    };
    match missing {
        None => Some(path),
        Some(_) if skip => None,
        Some(what) => {
            panic!("the image tests need {what}, or MCSCTL_TEST_SKIP_MISSING=1 to skip them")
        }
    }
}

/// buildah with the storage and isolation this machine supports; its stdout, trimmed.
fn buildah(args: &[&str]) -> String {
    let out = Command::new("buildah")
        .env("STORAGE_DRIVER", "vfs")
        .env("BUILDAH_ISOLATION", "chroot")
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "buildah {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

/// `scripts/image` (with `args`) as a user's shell runs it: without what cargo and nextest put
/// into a test's environment (.cargo/config.toml's [env] among it, which a build script
/// watches: with it, cargo would rebuild the release binary).
fn as_a_user(mut cmd: Command) -> Command {
    for (k, _) in std::env::vars_os() {
        let k = k.to_string_lossy();
        let harness = (k.starts_with("CARGO_") && k != "CARGO_HOME")
            || k.starts_with("NEXTEST")
            || [
                "CARGO",
                "OUT_DIR",
                "LD_LIBRARY_PATH",
                "RUST_RECURSION_COUNT",
                "AWS_LC_SYS_NO_JITTER_ENTROPY",
                "MCSCTL_COMMIT",
                "MCSCTL_TARGET",
            ]
            .contains(&k.as_ref());
        if harness {
            cmd.env_remove(k.as_ref());
        }
    }
    cmd.current_dir(repo());
    cmd
}

/// Runs `scripts/image FLAG PATH` as a user would; it must succeed.
fn scripts_image(flag: &str, path: &Path) {
    let st = as_a_user(Command::new(repo().join("scripts/image")))
        .arg(flag)
        .arg(path)
        .status()
        .unwrap();
    assert!(st.success(), "scripts/image {flag} {}", path.display());
}

/// An OCI archive unpacked: its manifest, its config and the directory of its blobs.
struct Oci {
    manifest: Value,
    config: Value,
    dir: tempfile::TempDir,
}

impl Oci {
    fn open(archive: &Path) -> Oci {
        let dir = tempfile::tempdir().unwrap();
        let st = Command::new("tar")
            .arg("-xf")
            .arg(archive)
            .arg("-C")
            .arg(dir.path())
            .status()
            .unwrap();
        assert!(st.success());
        let blob = |digest: &str| {
            let hex = digest.strip_prefix("sha256:").unwrap();
            let bytes = std::fs::read(dir.path().join("blobs/sha256").join(hex)).unwrap();
            serde_json::from_slice::<Value>(&bytes).unwrap()
        };
        let index = blob_index(dir.path());
        let manifest = blob(index["manifests"][0]["digest"].as_str().unwrap());
        let config = blob(manifest["config"]["digest"].as_str().unwrap());
        Oci {
            manifest,
            config,
            dir,
        }
    }

    fn layer_digests(&self) -> Vec<String> {
        self.manifest["layers"]
            .as_array()
            .unwrap()
            .iter()
            .map(|l| l["digest"].as_str().unwrap().to_string())
            .collect()
    }

    fn blob_path(&self, digest: &str) -> PathBuf {
        self.dir
            .path()
            .join("blobs/sha256")
            .join(digest.strip_prefix("sha256:").unwrap())
    }
}

fn blob_index(dir: &Path) -> Value {
    serde_json::from_slice(&std::fs::read(dir.join("index.json")).unwrap()).unwrap()
}

/// A container of the image in buildah's storage: its root file tree, removed when dropped.
struct Container {
    id: String,
    root: PathBuf,
}

impl Container {
    fn from_archive(archive: &Path) -> Container {
        let id = buildah(&[
            "from",
            "--quiet",
            &format!("oci-archive:{}", archive.display()),
        ]);
        let root = PathBuf::from(buildah(&["mount", &id]));
        Container { id, root }
    }
}

impl Drop for Container {
    fn drop(&mut self) {
        let _ = Command::new("buildah")
            .env("STORAGE_DRIVER", "vfs")
            .args(["rm", &self.id])
            .output();
    }
}

fn shell_quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', "'\\''"))
}

/// Starts the Deployment's container `dep` from container `c` as its pod would: the volumes
/// (materialised under `vols`) mounted at their paths, read-only where the Deployment says,
/// the image's root read-only, hostname `pod`, the image's user, entrypoint and PATH, and the
/// container's `args` but for the listen addresses (free loopback ports here).
fn start_pod(
    c: &Container,
    config: &Value,
    dep: &Value,
    vols: &Path,
    args: &[String],
    pod: &str,
) -> Serve {
    let spec = &dep["spec"]["template"]["spec"];
    let container = &spec["containers"][0];
    assert_eq!(container["securityContext"]["readOnlyRootFilesystem"], true);
    let user = config["config"]["User"].as_str().unwrap();
    assert_eq!(user, "65534:65534", "the image's user");
    assert_eq!(spec["securityContext"]["runAsUser"], 65534);
    let root = shell_quote(&c.root.display().to_string());
    let mut script = vec![
        "set -e".to_string(),
        format!("mount --bind {root} {root}"),
        format!("mkdir -p {root}/proc {root}/dev"),
        format!("mount -t proc proc {root}/proc"),
        format!("mount -t tmpfs -o mode=755,nosuid tmpfs {root}/dev"),
        format!(
            "for n in null zero random urandom; do touch {root}/dev/$n; mount --bind /dev/$n {root}/dev/$n; done"
        ),
    ];
    for m in container["volumeMounts"].as_array().unwrap() {
        let path = m["mountPath"].as_str().unwrap().trim_start_matches('/');
        let src = shell_quote(&vols.join(path).display().to_string());
        let dst = format!("{root}/{}", shell_quote(path));
        script.push(if m["subPath"].is_string() {
            format!("mkdir -p \"$(dirname {dst})\" && touch {dst}")
        } else {
            format!("mkdir -p {dst}")
        });
        script.push(format!("mount --bind {src} {dst}"));
        if m["readOnly"] == true {
            script.push(format!("mount -o remount,bind,ro {dst}"));
        }
    }
    script.push(format!("mount -o remount,bind,ro {root}"));
    script.push(format!("hostname {pod}"));
    let entrypoint: Vec<String> = config["config"]["Entrypoint"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| shell_quote(e.as_str().unwrap()))
        .collect();
    let mut argv: Vec<String> = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        argv.push(shell_quote(a));
        if a == "--listen" || a == "--metrics-listen" {
            it.next();
            argv.push("127.0.0.1:0".into());
        }
    }
    script.push(format!(
        "exec env -i PATH=/usr/bin HOSTNAME={pod} \"$(command -v chroot)\" --userspec={user} --groups=65534 {root} {} {}",
        entrypoint.join(" "),
        argv.join(" ")
    ));
    let mut cmd = Command::new("unshare");
    cmd.args(["--mount", "--uts", "--propagation", "private", "sh", "-c"])
        .arg(script.join("\n"));
    Serve::start_command(cmd)
}

fn status(s: &Serve, a: &Path, path: &str, bearer: Option<&str>) -> u16 {
    let h: Vec<(&str, &str)> = bearer.iter().map(|b| ("Authorization", *b)).collect();
    Https::connect(s.addr, &a.join("tls/mcs-ca.crt"))
        .request("GET", path, &h)
        .map_or(0, |r| r.status)
}

/// The uid and gid the process `pid` runs as (from /proc).
fn ids(pid: u32) -> (String, String) {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let field = |name: &str| {
        status
            .lines()
            .find_map(|l| l.strip_prefix(name))
            .unwrap()
            .split_whitespace()
            .next()
            .unwrap()
            .to_string()
    };
    (field("Uid:"), field("Gid:"))
}

/// Whether each mount point of the process `pid`, as it sees them, is read-only: from the
/// kernel's own account (/proc/PID/mountinfo, paths relative to the process's root).
fn mounts(pid: u32) -> Vec<(String, bool)> {
    std::fs::read_to_string(format!("/proc/{pid}/mountinfo"))
        .unwrap()
        .lines()
        .map(|l| {
            let f: Vec<&str> = l.split(' ').collect();
            (f[4].to_string(), f[5].split(',').any(|o| o == "ro"))
        })
        .collect()
}

/// The Deployment `manifests --serve-deployment` writes into `out` for the image, with `extra`.
fn deployment(cwd: &Path, out: &str, extra: &[&str]) -> (PathBuf, Value) {
    let image = format!("localhost/mcsctl:{VERSION}");
    let mut args = vec![
        "manifests",
        "--serve-deployment",
        "--image",
        &image,
        "--output",
        out,
        "-q",
    ];
    args.extend_from_slice(extra);
    ok(cwd, &args);
    let deploy = cwd.join(out);
    let dep = load(&deploy.join("serve-deployment.yaml"));
    assert_eq!(
        dep["spec"]["template"]["spec"]["containers"][0]["image"],
        image
    );
    (deploy, dep)
}

#[test]
fn one_pod_from_the_image_boots_a_machine_once_and_keeps_it_spent_across_a_restart() {
    let Some(archive) = archive() else { return };
    let config = Oci::open(&archive).config;
    let d = demo(&["--san", "127.0.0.1"]);
    let a = d.path().join("mcs-assets");
    render(&a, "worker", FULL_34, None);
    for m in ["w0", "w1"] {
        ok(d.path(), &["machine", "add", m, "--pool", "worker", "-q"]);
    }
    let (deploy, dep) = deployment(d.path(), "deploy", &["--replicas", "1"]);
    let vols = d.path().join("volumes");
    let args = materialise(&deploy, &vols, 65534);
    let c = Container::from_archive(&archive);
    let mut s = start_pod(&c, &config, &dep, &vols, &args, "mcsctl-serve-0");
    assert_eq!(ids(s.pid()), ("65534".into(), "65534".into()));
    let seen = mounts(s.pid());
    for (at, ro) in [
        ("/", true),
        ("/assets/tls", true),
        ("/assets/mcsctl.json", true),
        ("/var/lib/mcsctl", false),
    ] {
        assert!(
            seen.contains(&(at.to_string(), ro)),
            "{at} read-only {ro}: {seen:?}"
        );
    }
    assert_eq!(status(&s, &a, "/healthz", None), 200, "{}", s.stderr());
    // 200 and Prometheus' text format (asserted by the metrics tests' scrape).
    let metrics = crate::metrics::scrape(&s.metrics_addr());
    assert!(metrics.contains("\nmcsctl_"), "{metrics}");

    // The real Ignition client boots w0 through the pod; its token is then spent.
    let pointer = pointed_at(&a.join("machines/w0.ign"), &s);
    let Some(node) = ignition_boot(&pointer) else {
        return;
    };
    assert!(node.success, "{}\n{}", node.log, s.stderr());
    assert_eq!(node.read("/etc/mcsctl-full"), b"full config");
    let ledger = vols.join("var/lib/mcsctl/ledger/serve.jsonl");
    crate::support::await_whole(&ledger, "w0", 1);
    let (fetched, _, log) = ignition_fetch_within(
        &pointer,
        Duration::from_secs(30),
        &["GET result: Unauthorized"],
    )
    .unwrap();
    assert!(
        !fetched && log.contains("GET result: Unauthorized"),
        "{log}"
    );

    // The pod stops (SIGTERM, as the kubelet stops it) and starts again on the same volume.
    s.signal("TERM");
    assert_eq!(
        s.wait_exit(Duration::from_secs(20)),
        Some(0),
        "{}",
        s.stderr()
    );
    let s = start_pod(&c, &config, &dep, &vols, &args, "mcsctl-serve-0");
    let bearer = |m: &str| format!("Bearer {}", machine_token(&a, m));
    assert_eq!(status(&s, &a, "/config/worker", Some(&bearer("w0"))), 401);
    assert_eq!(status(&s, &a, "/config/worker", Some(&bearer("w1"))), 200);
    crate::support::await_whole(&ledger, "w1", 1);
}

#[test]
fn two_pods_from_the_image_on_the_store_admit_a_machine_once() {
    let Some(archive) = archive() else { return };
    let config = Oci::open(&archive).config;
    let Some(etcd) = crate::store::Etcd::start(3) else {
        return;
    };
    let url = etcd.url();
    let (d, a) = crate::store::assets(&["w0", "w1"]);
    let (deploy, dep) = deployment(
        d.path(),
        "deploy",
        &["--replicas", "2", "--store", &url, "--store-insecure"],
    );
    let vols = d.path().join("volumes");
    let args = materialise(&deploy, &vols, 65534);
    let (c1, c2) = (
        Container::from_archive(&archive),
        Container::from_archive(&archive),
    );
    let pods = [
        start_pod(&c1, &config, &dep, &vols, &args, "mcsctl-serve-a"),
        start_pod(&c2, &config, &dep, &vols, &args, "mcsctl-serve-b"),
    ];
    for p in &pods {
        assert_eq!(status(p, &a, "/healthz", None), 200, "{}", p.stderr());
    }
    // 16 fetches of w0's token at once, over both pods: exactly one is served.
    let bearer = format!("Bearer {}", machine_token(&a, "w0"));
    let statuses: Vec<u16> = std::thread::scope(|sc| {
        let hs: Vec<_> = (0..16)
            .map(|i| {
                let (p, a, b) = (&pods[i % 2], &a, &bearer);
                sc.spawn(move || status(p, a, "/config/worker", Some(b)))
            })
            .collect();
        hs.into_iter().map(|h| h.join().unwrap()).collect()
    });
    assert_eq!(
        statuses.iter().filter(|s| **s == 200).count(),
        1,
        "{statuses:?}"
    );
    crate::store::await_whole(d.path(), &url, "w0", 1);
    for p in &pods {
        assert_eq!(status(p, &a, "/config/worker", Some(&bearer)), 401);
    }
    // The real Ignition client boots w1 through pod b; pod a then refuses it.
    let Some(node) = ignition_boot(&pointed_at(&a.join("machines/w1.ign"), &pods[1])) else {
        return;
    };
    assert!(node.success, "{}", node.log);
    crate::store::await_whole(d.path(), &url, "w1", 1);
    let (fetched, _, log) = ignition_fetch_within(
        &pointed_at(&a.join("machines/w1.ign"), &pods[0]),
        Duration::from_secs(30),
        &["GET result: Unauthorized"],
    )
    .unwrap();
    assert!(
        !fetched && log.contains("GET result: Unauthorized"),
        "{log}"
    );
    assert_eq!(crate::store::store_fetches(d.path(), &url, "w1").0, 1);
}

/// Every entry of a file tree as `scripts/image` lists it: mode, owner, size, sha256, path.
fn listing(root: &Path) -> Vec<String> {
    use std::os::unix::fs::MetadataExt;
    let mut paths = Vec::new();
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            out.push(p.clone());
            if p.symlink_metadata().unwrap().is_dir() {
                walk(&p, out);
            }
        }
    }
    walk(root, &mut paths);
    let mut lines: Vec<(Vec<u8>, String)> = paths
        .iter()
        .map(|p| {
            let m = p.symlink_metadata().unwrap();
            let rel = format!("/{}", p.strip_prefix(root).unwrap().display());
            let owner = format!("{}:{}", m.uid(), m.gid());
            let mode = format!("{:o}", m.mode() & 0o7777);
            let line = if m.file_type().is_symlink() {
                let to = std::fs::read_link(p).unwrap();
                format!("{mode} {owner} - - {rel} -> {}", to.display())
            } else if m.is_dir() {
                format!("{mode} {owner} - - {rel}/")
            } else {
                let bytes = std::fs::read(p).unwrap();
                let sum = aws_lc_rs::digest::digest(&aws_lc_rs::digest::SHA256, &bytes);
                let sum = mcsctl::hex::encode(sum.as_ref());
                format!("{mode} {owner} {} {sum} {rel}", m.len())
            };
            (format!(".{rel}").into_bytes(), line)
        })
        .collect();
    lines.sort();
    lines.into_iter().map(|(_, l)| l).collect()
}

/// The Rust crates the SBOM lists, as (name, version).
fn sbom_components(path: &Path) -> Vec<(String, String)> {
    let bom: Value = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
    assert_eq!(bom["bomFormat"], "CycloneDX");
    bom["components"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            let s = |k: &str| c[k].as_str().unwrap().to_string();
            (s("name"), s("version"))
        })
        .collect()
}

/// Cargo.lock's version of `name` (the first, when it holds several).
fn locked(name: &str) -> String {
    let lock = std::fs::read_to_string(repo().join("Cargo.lock")).unwrap();
    let at = lock
        .find(&format!("name = \"{name}\"\nversion = \""))
        .unwrap_or_else(|| panic!("{name} is not in Cargo.lock"));
    let rest = &lock[at..];
    rest.lines().nth(1).unwrap()["version = \"".len()..]
        .trim_end_matches('"')
        .to_string()
}

#[test]
fn the_image_holds_what_its_listing_says_and_builds_again_to_the_same_digests() {
    let Some(archive) = archive() else { return };
    let oci = Oci::open(&archive);
    let cfg = &oci.config["config"];
    assert_eq!(cfg["User"], "65534:65534");
    assert_eq!(cfg["Entrypoint"], serde_json::json!(["/usr/bin/mcsctl"]));
    let label = |k: &str| {
        cfg["Labels"][format!("org.opencontainers.image.{k}")]
            .as_str()
            .unwrap_or("")
            .to_string()
    };
    assert_eq!(label("version"), VERSION);
    assert_eq!(label("licenses"), env!("CARGO_PKG_LICENSE"));
    assert!(label("revision").len() >= 40, "{}", label("revision"));
    assert!(!label("source").is_empty());
    // Under 40 MB, as pushed.
    let layers = oci.layer_digests();
    let pushed: u64 = oci.manifest["layers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["size"].as_u64().unwrap())
        .sum();
    assert!(pushed < 40_000_000, "{pushed} bytes of layers");

    // The layer's files are the listing's, byte for byte, and nothing else: no shell, no
    // package manager, no system CA store.
    let tree = tempfile::tempdir().unwrap();
    for l in &layers {
        let st = Command::new("tar")
            .args(["--numeric-owner", "-xzf"])
            .arg(oci.blob_path(l))
            .arg("-C")
            .arg(tree.path())
            .status()
            .unwrap();
        assert!(st.success());
    }
    let listed = archive.with_file_name(format!("mcsctl-{VERSION}.files.txt"));
    let listed: Vec<String> = std::fs::read_to_string(&listed)
        .unwrap_or_else(|e| panic!("{}: {e}", listed.display()))
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(String::from)
        .collect();
    assert_eq!(listing(tree.path()), listed);
    for absent in [
        "bin/sh",
        "usr/bin/sh",
        "bin/bash",
        "usr/bin/apt",
        "usr/bin/dpkg",
        "etc/ssl",
    ] {
        assert!(
            !tree.path().join(absent).exists(),
            "/{absent} is in the image"
        );
    }
    let out = Command::new("chroot")
        .arg(tree.path())
        .args(["/usr/bin/mcsctl", "--version"])
        .output()
        .unwrap();
    assert!(
        String::from_utf8_lossy(&out.stdout).contains(VERSION),
        "{out:?}"
    );

    // The SBOM lists the crates in the binary at Cargo.lock's versions, and no test-only crate.
    let sbom = sbom_components(&archive.with_file_name(format!("mcsctl-{VERSION}.cdx.json")));
    for name in [
        "rustls",
        "aws-lc-rs",
        "hyper",
        "tokio",
        "etcd-client",
        "rcgen",
        "x509-parser",
        "clap",
    ] {
        assert!(
            sbom.contains(&(name.to_string(), locked(name))),
            "{name} {} in the SBOM",
            locked(name)
        );
    }
    for dev in [
        "assert_cmd",
        "predicates",
        "ignition-config",
        "serde_yaml_ng",
    ] {
        assert!(
            !sbom.iter().any(|(n, _)| n == dev),
            "the test-only crate {dev} is in the SBOM"
        );
    }

    // The Containerfile's builder assembles the same tree (scripts/image --rootfs) and its
    // runtime stage sets what the image's config holds.
    let rootfs = tempfile::tempdir().unwrap();
    let tree2 = rootfs.path().join("rootfs");
    scripts_image("--rootfs", &tree2);
    assert_eq!(listing(&tree2), listed);
    let containerfile = std::fs::read_to_string(repo().join("Containerfile")).unwrap();
    for line in [
        "RUN apt-get update -qq && scripts/image --rootfs /rootfs",
        "COPY --from=build /rootfs/ /",
        &format!("USER {}", cfg["User"].as_str().unwrap()),
        &format!("ENTRYPOINT {}", cfg["Entrypoint"]),
        &format!("CMD {}", cfg["Cmd"]),
        "EXPOSE 22623/tcp 9623/tcp",
    ] {
        assert!(
            containerfile.lines().any(|l| l == line),
            "Containerfile: no line {line}"
        );
    }

    // A second build of the same commit: the same layers, the same image.
    let again = tempfile::tempdir().unwrap();
    scripts_image("--output", again.path());
    let second = Oci::open(&again.path().join(format!("mcsctl-{VERSION}.oci.tar")));
    assert_eq!(
        second.layer_digests(),
        layers,
        "rebuild scripts/image if the release binary changed since"
    );
    // The config too (its revision label ends in -dirty when tracked files changed between
    // the two builds).
    assert_eq!(second.config, oci.config);
    assert_eq!(blob_index(second.dir.path()), blob_index(oci.dir.path()));
    let bytes = |p: &Path| std::fs::read(p).unwrap();
    assert!(
        bytes(&again.path().join(format!("mcsctl-{VERSION}.oci.tar"))) == bytes(&archive),
        "the archives differ, byte for byte"
    );
}

/// The `sh` blocks of a docs page with the place the paragraph before each names (`*In the
/// clone*`, `*Beside mcs-assets*`, `*On the cluster*`): (place, block).
fn placed_blocks(page: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut place = String::new();
    let mut block: Option<String> = None;
    for line in page.lines() {
        match (&mut block, line) {
            (None, "```sh") => block = Some(String::new()),
            (Some(_), "```") => out.push((place.clone(), block.take().unwrap())),
            (Some(b), l) => {
                b.push_str(l);
                b.push('\n');
            }
            (None, l) if l.starts_with('*') => {
                place = l[1..].split('*').next().unwrap().to_string();
            }
            _ => {}
        }
    }
    out
}

fn bash(block: &str, cwd: &Path, path: &str) -> String {
    let out = as_a_user(Command::new("bash"))
        .args(["-euo", "pipefail", "-c", block])
        .current_dir(cwd)
        .env("PATH", path)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(
        out.status.success(),
        "{block}\nin {}: {}\n{text}",
        cwd.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    text
}

#[test]
fn the_run_serve_in_the_cluster_page_runs_as_written() {
    let Some(_) = archive() else { return };
    let page = std::fs::read_to_string(repo().join("docs/run-serve-in-the-cluster.md")).unwrap();
    let blocks = placed_blocks(&page);
    let places: Vec<&str> = blocks.iter().map(|(p, _)| p.as_str()).collect();
    assert_eq!(
        places,
        [
            "In the clone",
            "On the cluster's registry",
            "Beside mcs-assets",
            "On the cluster",
            "Beside mcs-assets",
            "On the cluster"
        ]
    );
    let bin = assert_cmd::cargo::cargo_bin("mcsctl");
    let path = format!(
        "{}:{}",
        bin.parent().unwrap().display(),
        std::env::var("PATH").unwrap()
    );
    let d = demo(&["--san", "127.0.0.1"]);
    let a = d.path().join("mcs-assets");
    render(&a, "worker", FULL_34, None);
    ok(
        d.path(),
        &["machine", "add", "w0", "--pool", "worker", "-q"],
    );
    let mut tokens = Vec::new();
    for (place, block) in &blocks {
        assert!(
            block.contains(VERSION) || !block.contains("0."),
            "{block} names another version than {VERSION}"
        );
        match place.as_str() {
            "In the clone" => {
                let out = bash(block, &repo(), &std::env::var("PATH").unwrap());
                let v: Value = serde_json::from_str(&out).unwrap();
                assert_eq!(v["Labels"]["org.opencontainers.image.version"], VERSION);
            }
            "Beside mcs-assets" => {
                bash(block, d.path(), &path);
                let dep = load(&d.path().join("deploy/serve-deployment.yaml"));
                let c = &dep["spec"]["template"]["spec"]["containers"][0];
                assert_eq!(c["image"], format!("registry.example.com/mcsctl:{VERSION}"));
                let auth =
                    std::fs::read_to_string(d.path().join("deploy/machineconfig-auth-secret.yaml"))
                        .unwrap();
                tokens.push(auth);
            }
            _ => {}
        }
    }
    // The second manifests carry the rotated token.
    assert_eq!(tokens.len(), 2);
    assert_ne!(tokens[0], tokens[1]);
}
