//! manifests: validated offline with Python's kubernetes-validate; the Deployment's volume
//! layout, materialised as the kubelet would, serves with `mcsctl serve`; and two serve
//! replicas over one asset directory both accept a rotated token within 5 s.

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use base64::Engine;
use serde_json::Value;

use crate::serve::{FULL_34, PRE_32};
use crate::support::{Https, Serve, demo, mode, ok, render, run, tokens, tool};

pub(crate) fn load(p: &Path) -> Value {
    serde_yaml_ng::from_str(&std::fs::read_to_string(p).unwrap()).unwrap()
}

/// The files a Secret volume `vol` of Secret `sec` holds under `target`, as the kubelet lays
/// them out: each of its `items` at its path, else each key as a file.
/// The files a volume of a Secret or ConfigMap among `objects` puts at `mount`, as the kubelet
/// does: its items (or every key) under the mount path, or with `subPath` that one key as the
/// mount path itself.
fn volume_files(
    vol: &Value,
    mount: &Value,
    objects: &[Value],
    root: &Path,
) -> Vec<(std::path::PathBuf, Vec<u8>)> {
    let target = root.join(mount["mountPath"].as_str().unwrap().trim_start_matches('/'));
    let (kind, name, source) = if vol["secret"].is_object() {
        ("Secret", &vol["secret"]["secretName"], &vol["secret"])
    } else {
        ("ConfigMap", &vol["configMap"]["name"], &vol["configMap"])
    };
    let obj = objects
        .iter()
        .find(|o| o["kind"] == kind && o["metadata"]["name"] == *name)
        .unwrap_or_else(|| panic!("the {kind} {name} is among the manifests"));
    let data = obj["data"].as_object().unwrap();
    let bytes = |k: &str| match kind {
        "Secret" => decode(&data[k]),
        _ => data[k].as_str().unwrap().as_bytes().to_vec(),
    };
    if let Some(key) = mount["subPath"].as_str() {
        return vec![(target, bytes(key))];
    }
    let items: Vec<(String, String)> = match source["items"].as_array() {
        Some(items) => items
            .iter()
            .map(|i| {
                let s = |k: &str| i[k].as_str().unwrap().to_string();
                (s("key"), s("path"))
            })
            .collect(),
        None => data.keys().map(|k| (k.clone(), k.clone())).collect(),
    };
    items
        .into_iter()
        .map(|(key, path)| (target.join(path), bytes(&key)))
        .collect()
}

fn decode(v: &Value) -> Vec<u8> {
    base64::engine::general_purpose::STANDARD
        .decode(v.as_str().unwrap())
        .unwrap()
}

#[test]
fn manifests_are_valid_kubernetes_objects() {
    let d = demo(&["--san", "127.0.0.1"]);
    let a = d.path().join("mcs-assets");
    render(&a, "worker", FULL_34, Some(PRE_32));
    // A token that can no longer fetch is never written into the cluster.
    let revoked = crate::support::pools_token(d.path(), &["worker"]);
    ok(
        d.path(),
        &["token", "revoke", revoked.split('.').next().unwrap(), "-q"],
    );
    ok(d.path(), &["manifests", "-q"]);
    let m = a.join("manifests");
    // By default: no CA key (it stays offline) and no kube-system/root-ca (openshift-install's).
    assert!(!m.join("root-ca-configmap.yaml").exists());
    assert!(!m.join("machine-config-server-ca-secret.yaml").exists());
    for f in std::fs::read_dir(&m).unwrap() {
        let text = std::fs::read_to_string(f.unwrap().path()).unwrap();
        assert!(!text.contains("PRIVATE KEY") || text.contains("machine-config-server-tls"));
    }
    let auth = load(&m.join("machineconfig-auth-secret.yaml"));
    let store: serde_json::Value =
        serde_json::from_slice(&decode(&auth["data"]["tokens.json"])).unwrap();
    let ids: Vec<&str> = store["tokens"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["id"].as_str().unwrap())
        .collect();
    assert!(
        !ids.contains(&revoked.split('.').next().unwrap()),
        "{ids:?}"
    );
    assert!(!ids.is_empty());
    // Asked for, both come.
    ok(
        d.path(),
        &[
            "manifests",
            "--include-ca-key",
            "--include-root-ca",
            "--force",
            "-q",
        ],
    );
    let key = load(&m.join("machine-config-server-ca-secret.yaml"));
    assert_eq!(
        decode(&key["data"]["tls.key"]),
        std::fs::read(a.join("tls/mcs-ca.key")).unwrap()
    );
    ok(
        d.path(),
        &[
            "manifests",
            "--serve-deployment",
            "--image",
            "registry.example.com/mcsctl:0.1.0",
            "--output",
            "deploy",
            "-q",
        ],
    );
    let cm = load(&m.join("root-ca-configmap.yaml"));
    assert_eq!(
        (
            cm["kind"].as_str(),
            cm["metadata"]["namespace"].as_str(),
            cm["metadata"]["name"].as_str()
        ),
        (Some("ConfigMap"), Some("kube-system"), Some("root-ca"))
    );
    assert_eq!(
        cm["data"]["ca.crt"].as_str().unwrap().as_bytes(),
        std::fs::read(a.join("tls/mcs-ca.crt")).unwrap()
    );
    let tls = load(&m.join("machine-config-server-tls-secret.yaml"));
    assert_eq!(tls["type"], "kubernetes.io/tls");
    assert_eq!(
        tls["metadata"]["namespace"],
        "openshift-machine-config-operator"
    );
    assert_eq!(
        decode(&tls["data"]["tls.key"]),
        std::fs::read(a.join("tls/mcs.key")).unwrap()
    );
    let auth = load(&m.join("machineconfig-auth-secret.yaml"));
    assert_eq!(auth["metadata"]["namespace"], "openshift-config");
    assert_eq!(
        String::from_utf8(decode(&auth["data"]["token"])).unwrap(),
        tokens(&a)[0]
    );
    let ud = load(&m.join("worker-user-data-secret.yaml"));
    assert_eq!(ud["metadata"]["namespace"], "openshift-machine-api");
    assert_eq!(
        decode(&ud["data"]["userData"]),
        std::fs::read(a.join("worker.ign")).unwrap()
    );
    assert_eq!(decode(&ud["data"]["disableTemplating"]), b"true");
    for f in [
        "machine-config-server-tls-secret.yaml",
        "machineconfig-auth-secret.yaml",
        "worker-user-data-secret.yaml",
    ] {
        assert_eq!(mode(&m.join(f)), 0o600, "{f}");
    }
    let dep = load(&d.path().join("deploy/serve-deployment.yaml"));
    let spec = &dep["spec"]["template"]["spec"];
    assert_eq!(dep["spec"]["replicas"], 2);
    let c = &spec["containers"][0];
    assert_eq!(c["readinessProbe"]["httpGet"]["path"], "/healthz");
    // Alive while the port answers: a pod that is only unready (its ledger cannot be
    // written) is taken out of the Service, not restarted in a loop.
    assert_eq!(c["livenessProbe"]["tcpSocket"]["port"], 22623);
    // Two replicas without machine tokens: no ledger volume, rolling updates.
    assert_eq!(dep["spec"]["strategy"]["type"], "RollingUpdate");
    assert!(!d.path().join("deploy/serve-ledger-pvc.yaml").exists());
    assert_eq!(c["securityContext"]["readOnlyRootFilesystem"], true);
    assert_eq!(spec["securityContext"]["runAsNonRoot"], true);
    assert!(c["resources"]["requests"]["memory"].is_string());
    // The default Service is one booting machines outside the cluster can reach.
    let svc = load(&d.path().join("deploy/serve-service.yaml"));
    assert_eq!(svc["spec"]["type"], "NodePort");
    assert_eq!(svc["spec"]["ports"][0]["nodePort"], 32623);
    assert_eq!(svc["spec"]["ports"][0]["port"], 22623);
    // --host-network: as the MCO runs the real MCS, on the control plane's port 22623.
    ok(
        d.path(),
        &[
            "manifests",
            "--serve-deployment",
            "--host-network",
            "--image",
            "registry.example.com/mcsctl:0.1.0",
            "--output",
            "hostnet",
            "-q",
        ],
    );
    assert!(!d.path().join("hostnet/serve-service.yaml").exists());
    assert!(!d.path().join("hostnet/serve-deployment.yaml").exists());
    let ds = load(&d.path().join("hostnet/serve-daemonset.yaml"));
    assert_eq!(ds["kind"], "DaemonSet");
    let pod = &ds["spec"]["template"]["spec"];
    assert_eq!(pod["hostNetwork"], true);
    assert_eq!(pod["dnsPolicy"], "ClusterFirstWithHostNet");
    assert_eq!(pod["containers"][0]["ports"][0]["containerPort"], 22623);
    let tolerated: Vec<&str> = pod["tolerations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["key"].as_str().unwrap())
        .collect();
    assert!(
        tolerated.contains(&"node-role.kubernetes.io/master")
            && tolerated.contains(&"node-role.kubernetes.io/control-plane"),
        "{tolerated:?}"
    );
    let terms = &pod["affinity"]["nodeAffinity"]["requiredDuringSchedulingIgnoredDuringExecution"]
        ["nodeSelectorTerms"];
    assert_eq!(terms.as_array().unwrap().len(), 2);
    let (code, _, err) = run(d.path(), &["manifests", "--host-network", "--output", "x"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--serve-deployment"), "{err}");
    let (code, _, err) = run(d.path(), &["manifests"]);
    assert_eq!(code, 1);
    assert!(err.contains("exists; use --force"), "{err}");

    let Some(kv) = tool(
        "kubernetes-validate",
        "KUBERNETES_VALIDATE",
        "kubernetes-validate",
    ) else {
        return;
    };
    let mut files: Vec<_> = std::fs::read_dir(&m)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    for sub in ["deploy", "hostnet"] {
        files.extend(
            std::fs::read_dir(d.path().join(sub))
                .unwrap()
                .map(|e| e.unwrap().path()),
        );
    }
    validates(&kv, &files);
}

/// kubernetes-validate `--strict` passes every one of `files`.
fn validates(kv: &Path, files: &[std::path::PathBuf]) {
    let out = Command::new(kv)
        .arg("--strict")
        .args(files)
        .output()
        .unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "kubernetes-validate failed:\n{text}");
    assert_eq!(text.matches("passed").count(), files.len(), "{text}");
}

#[test]
fn the_deployment_volume_layout_serves() {
    // Materialise the Deployment's volumes (Secret items to paths) as the kubelet would, and
    // run `mcsctl serve --dir /assets` on them as the container does.
    let d = demo(&["--san", "127.0.0.1"]);
    let a = d.path().join("mcs-assets");
    render(&a, "worker", FULL_34, Some(PRE_32));
    ok(
        d.path(),
        &[
            "manifests",
            "--serve-deployment",
            "--image",
            "registry.example.com/mcsctl:0.1.0",
            "--namespace",
            "mcs",
            "--auth",
            "split",
            "--output",
            "deploy",
            "-q",
        ],
    );
    let deploy = d.path().join("deploy");
    let objects: Vec<Value> = std::fs::read_dir(&deploy)
        .unwrap()
        .map(|e| load(&e.unwrap().path()))
        .collect();
    let dep = load(&deploy.join("serve-deployment.yaml"));
    let spec = &dep["spec"]["template"]["spec"];
    let c = &spec["containers"][0];
    let root = d.path().join("pod");
    for mount in c["volumeMounts"].as_array().unwrap() {
        let vol = spec["volumes"]
            .as_array()
            .unwrap()
            .iter()
            .find(|v| v["name"] == mount["name"])
            .unwrap();
        for (p, bytes) in volume_files(vol, mount, &objects, &root) {
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(&p, bytes).unwrap();
        }
    }
    let args: Vec<String> = c["args"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_str().unwrap().to_string())
        .collect();
    assert_eq!(args[..3], ["serve", "--dir", "/assets"]);
    let auth_idx = args.iter().position(|x| x == "--auth").unwrap();
    let s = Serve::start(&root, &["--dir", "assets", "--auth", &args[auth_idx + 1]]);
    let ca = a.join("tls/mcs-ca.crt");
    let bearer = format!("Bearer {}", tokens(&a)[0]);
    let a34 = crate::support::accept("3.4.0");
    let r = Https::connect(s.addr, &ca)
        .request(
            "GET",
            "/config/worker",
            &[("Authorization", &bearer), ("Accept", &a34)],
        )
        .unwrap();
    assert_eq!((r.status, r.body.as_slice()), (200, FULL_34.as_bytes()));
    let r = Https::connect(s.addr, &ca)
        .request(
            "GET",
            "/config/worker",
            &[("Accept", &crate::support::accept("3.2.0"))],
        )
        .unwrap();
    assert_eq!((r.status, r.body.as_slice()), (200, PRE_32.as_bytes()));
    assert_eq!(
        Https::connect(s.addr, &ca)
            .request("GET", "/healthz", &[])
            .unwrap()
            .status,
        200
    );
}

#[test]
fn two_replicas_accept_a_rotated_token_within_5s() {
    let d = demo(&["--san", "127.0.0.1"]);
    let a = d.path().join("mcs-assets");
    render(&a, "worker", FULL_34, None);
    let r1 = Serve::start(d.path(), &["--reload-interval", "2s"]);
    let r2 = Serve::start(d.path(), &["--reload-interval", "2s"]);
    let ca = a.join("tls/mcs-ca.crt");
    ok(d.path(), &["token", "rotate", "--grace", "1h", "-q"]);
    let new = format!("Bearer {}", tokens(&a).last().unwrap());
    let start = Instant::now();
    let mut done = [None, None];
    while start.elapsed() < Duration::from_secs(5) && done.iter().any(Option::is_none) {
        for (i, s) in [&r1, &r2].iter().enumerate() {
            if done[i].is_none()
                && Https::connect(s.addr, &ca)
                    .request("GET", "/config/worker", &[("Authorization", &new)])
                    .unwrap()
                    .status
                    == 200
            {
                done[i] = Some(start.elapsed());
            }
        }
        // Not faster: every refused attempt counts towards the address's 429 limit (20 a minute).
        std::thread::sleep(Duration::from_millis(300));
    }
    assert!(
        done.iter().all(Option::is_some),
        "not every replica accepted the new token within 5 s: {done:?}\nreplica 1:\n{}\nreplica 2:\n{}",
        r1.stderr(),
        r2.stderr()
    );
    eprintln!(
        "replicas accepted the rotated token after {:?} and {:?}",
        done[0].unwrap(),
        done[1].unwrap()
    );
}

pub(crate) fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
}

/// The pod's filesystem as the kubelet makes it from `deploy`'s objects, under `root`: each
/// Secret volume's items as files of mode `defaultMode` in group `fs_group` (directories
/// root's, read-only), the ledger claim a directory the group may write; everything else
/// read-only. Returns the container's args.
pub(crate) fn materialise(deploy: &Path, root: &Path, fs_group: u32) -> Vec<String> {
    use std::os::unix::fs::{PermissionsExt, chown};
    let objects: Vec<Value> = std::fs::read_dir(deploy)
        .unwrap()
        .map(|e| load(&e.unwrap().path()))
        .collect();
    let dep = objects.iter().find(|o| o["kind"] == "Deployment").unwrap();
    let spec = &dep["spec"]["template"]["spec"];
    assert_eq!(spec["securityContext"]["fsGroup"], fs_group);
    let c = &spec["containers"][0];
    for mount in c["volumeMounts"].as_array().unwrap() {
        let vol = spec["volumes"]
            .as_array()
            .unwrap()
            .iter()
            .find(|v| v["name"] == mount["name"])
            .unwrap();
        let target = root.join(mount["mountPath"].as_str().unwrap().trim_start_matches('/'));
        if let Some(claim) = vol["persistentVolumeClaim"]["claimName"].as_str() {
            std::fs::create_dir_all(&target).unwrap();
            assert!(objects.iter().any(|o| o["kind"] == "PersistentVolumeClaim" && o["metadata"]["name"] == claim));
            assert_ne!(mount["readOnly"], true, "the ledger volume is writable");
            chown(&target, Some(0), Some(fs_group)).unwrap();
            std::fs::set_permissions(&target, std::fs::Permissions::from_mode(0o2775)).unwrap();
            continue;
        }
        assert_eq!(mount["readOnly"], true, "{mount}");
        let source = if vol["secret"].is_object() {
            &vol["secret"]
        } else {
            &vol["configMap"]
        };
        let file_mode = source["defaultMode"].as_u64().unwrap() as u32;
        for (p, bytes) in volume_files(vol, mount, &objects, root) {
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(&p, bytes).unwrap();
            chown(&p, Some(0), Some(fs_group)).unwrap();
            std::fs::set_permissions(&p, std::fs::Permissions::from_mode(file_mode)).unwrap();
        }
    }
    // A read-only root: every directory root's and 0555, but the ledger volume.
    fn lock(p: &Path) {
        let m = std::fs::symlink_metadata(p).unwrap();
        if m.is_dir() && m.permissions().mode() & 0o7777 != 0o2775 {
            for e in std::fs::read_dir(p).unwrap() {
                lock(&e.unwrap().path());
            }
            std::fs::set_permissions(p, std::fs::Permissions::from_mode(0o555)).unwrap();
        }
    }
    lock(root);
    c["args"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_str().unwrap().to_string())
        .collect()
}

/// Runs the container's `args` in `root` as uid/gid 65534, with the paths under `root` and
/// loopback addresses.
fn run_pod(root: &Path, args: &[String]) -> Serve {
    let mut extra: Vec<String> = Vec::new();
    let mut it = args[1..].iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--listen" | "--metrics-listen" => {
                it.next();
            }
            "--dir" | "--ledger" => {
                extra.push(a.clone());
                extra.push(it.next().unwrap().trim_start_matches('/').to_string());
            }
            _ => extra.push(a.clone()),
        }
    }
    let extra: Vec<&str> = extra.iter().map(String::as_str).collect();
    Serve::start_as(root, 65534, 65534, &extra)
}

#[test]
fn one_replica_admits_machines_as_its_pod_runs_it_and_keeps_the_evidence() {
    if !is_root() {
        assert!(
            std::env::var_os("MCSCTL_TEST_SKIP_MISSING").is_some_and(|v| !v.is_empty() && v != "0"),
            "this test runs serve as uid 65534, which needs root (or MCSCTL_TEST_SKIP_MISSING=1 to skip it)"
        );
        return;
    }
    let d = demo(&["--san", "127.0.0.1"]);
    let a = d.path().join("mcs-assets");
    render(&a, "worker", FULL_34, None);
    for m in ["w0", "w1"] {
        ok(d.path(), &["machine", "add", m, "--pool", "worker", "-q"]);
    }
    let deploy = |extra: &[&str]| {
        let mut args = vec![
            "manifests",
            "--serve-deployment",
            "--image",
            "registry.example.com/mcsctl:0.1.0",
            "-q",
        ];
        args.extend_from_slice(extra);
        run(d.path(), &args)
    };
    // More than one serve with machine tokens: refused, naming the flag; nothing written.
    let (code, _, err) = deploy(&["--output", "two"]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("holds 2 live machine token(s)") && err.contains("pass --replicas 1 (not 2)"),
        "{err}"
    );
    assert!(!d.path().join("two").exists());
    let (code, _, err) = deploy(&["--host-network", "--output", "hostnet"]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("--host-network runs one serve per control plane node"),
        "{err}"
    );
    let (code, _, err) = deploy(&["--replicas", "1", "--output", "deploy"]);
    assert_eq!(code, 0, "{err}");
    let out = d.path().join("deploy");
    let dep = load(&out.join("serve-deployment.yaml"));
    assert_eq!(dep["spec"]["replicas"], 1);
    assert_eq!(dep["spec"]["strategy"]["type"], "Recreate");
    let pvc = load(&out.join("serve-ledger-pvc.yaml"));
    assert_eq!(pvc["spec"]["accessModes"][0], "ReadWriteOnce");
    if let Some(kv) = tool(
        "kubernetes-validate",
        "KUBERNETES_VALIDATE",
        "kubernetes-validate",
    ) {
        let files: Vec<_> = std::fs::read_dir(&out)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        validates(&kv, &files);
    }
    // The pod: Secret files 0440 in group 65534, a read-only root, the ledger claim writable.
    let root = d.path().join("pod");
    let args = materialise(&out, &root, 65534);
    assert!(
        args.windows(2)
            .any(|w| w == ["--ledger", "/var/lib/mcsctl/ledger/serve.jsonl"]),
        "{args:?}"
    );
    let ca = a.join("tls/mcs-ca.crt");
    let get = |s: &Serve, path: &str, machine: Option<&str>| {
        let bearer = machine.map(|m| format!("Bearer {}", crate::support::machine_token(&a, m)));
        let h: Vec<(&str, &str)> = bearer
            .iter()
            .map(|b| ("Authorization", b.as_str()))
            .collect();
        let r = Https::connect(s.addr, &ca)
            .request("GET", path, &h)
            .unwrap();
        (r.status, r.text())
    };
    let mut s = run_pod(&root, &args);
    assert_eq!(get(&s, "/healthz", None).0, 200, "{}", s.stderr());
    assert_eq!(get(&s, "/config/worker", Some("w0")).0, 200);
    let ledger = root.join("var/lib/mcsctl/ledger/serve.jsonl");
    crate::support::await_whole(&ledger, "w0", 1);
    let meta = std::fs::metadata(&ledger).unwrap();
    assert_eq!(
        (mode(&ledger), std::os::unix::fs::MetadataExt::uid(&meta)),
        (0o600, 65534)
    );
    assert_eq!(get(&s, "/config/worker", Some("w0")).0, 401);
    // The pod restarts: the claim keeps the evidence, the spent token stays spent.
    s.signal("KILL");
    s.wait_exit(Duration::from_secs(10));
    let s = run_pod(&root, &args);
    assert_eq!(get(&s, "/config/worker", Some("w0")).0, 401);
    assert_eq!(get(&s, "/config/worker", Some("w1")).0, 200);
    crate::support::await_whole(&ledger, "w1", 1);
    let v: Value = serde_json::from_str(&ok(
        d.path(),
        &[
            "machine",
            "list",
            "--format",
            "json",
            "--ledger",
            ledger.to_str().unwrap(),
        ],
    ))
    .unwrap();
    let fetched: Vec<usize> = v["machines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["fetches"].as_array().unwrap().len())
        .collect();
    assert_eq!(fetched, [1, 1]);
    drop(s);
    // Without a writable ledger (the layout an earlier mcsctl shipped): not ready, and says why.
    let old: Vec<String> = {
        let mut v = args.clone();
        let i = v.iter().position(|x| x == "--ledger").unwrap();
        v.drain(i..i + 2);
        v
    };
    let s = run_pod(&root, &old);
    let (status, text) = get(&s, "/healthz", None);
    assert_eq!(status, 503, "{text}");
    assert!(
        text.starts_with(
            "not ready: machine tokens are live but cannot be served: the ledger cannot be written"
        ),
        "{text}"
    );
    // Said at start, by the events thread: it may follow the `ready` banner by a write.
    assert!(
        s.wait_stderr("\"event\":\"not-ready\"", Duration::from_secs(5)),
        "{}",
        s.stderr()
    );
    let (status, _) = get(&s, "/config/worker", Some("w1"));
    assert_eq!(status, 503);
}

#[test]
fn replicas_sharing_the_store_need_no_ledger_volume() {
    let d = demo(&["--san", "127.0.0.1"]);
    let a = d.path().join("mcs-assets");
    render(&a, "worker", FULL_34, Some(PRE_32));
    ok(
        d.path(),
        &["machine", "add", "w0", "--pool", "worker", "-q"],
    );
    let base = [
        "manifests",
        "--serve-deployment",
        "--image",
        "registry.example.com/mcsctl:0.1.0",
        "--replicas",
        "3",
    ];
    // Without the store, machine tokens keep it to one replica, and the refusal names the way.
    let (code, _, err) = run(d.path(), &base);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("--store etcd://"), "{err}");
    let pem = |f: &str| a.join(f).display().to_string();
    let mut args = base.to_vec();
    let (ca, cert, key) = (
        pem("tls/mcs-ca.crt"),
        pem("tls/mcs.crt"),
        pem("tls/mcs.key"),
    );
    args.extend([
        "--store",
        "etcd://10.0.0.5:2379,10.0.0.6:2379,10.0.0.7:2379",
        "--store-ca",
        &ca,
        "--store-cert",
        &cert,
        "--store-key",
        &key,
        "--output",
        "deploy",
        "-q",
    ]);
    ok(d.path(), &args);
    let deploy = d.path().join("deploy");
    assert!(!deploy.join("serve-ledger-pvc.yaml").exists());
    let dep = load(&deploy.join("serve-deployment.yaml"));
    assert_eq!(dep["spec"]["replicas"], 3);
    assert_eq!(dep["spec"]["strategy"]["type"], "RollingUpdate");
    let c = &dep["spec"]["template"]["spec"]["containers"][0];
    let args: Vec<&str> = c["args"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_str().unwrap())
        .collect();
    let joined = args.join(" ");
    assert!(
        joined.contains(
            "--store etcd://10.0.0.5:2379,10.0.0.6:2379,10.0.0.7:2379 --store-ca /store/ca.crt --store-cert /store/tls.crt --store-key /store/tls.key"
        ),
        "{joined}"
    );
    assert!(!joined.contains("--ledger"), "{joined}");
    let store = load(&deploy.join("serve-mcsctl-serve-store-secret.yaml"));
    assert_eq!(
        decode(&store["data"]["ca.crt"]),
        std::fs::read(&ca).unwrap()
    );
    assert_eq!(
        mode(&deploy.join("serve-mcsctl-serve-store-secret.yaml")),
        0o600
    );
    let Some(kv) = tool(
        "kubernetes-validate",
        "KUBERNETES_VALIDATE",
        "kubernetes-validate",
    ) else {
        return;
    };
    let files: Vec<_> = std::fs::read_dir(&deploy)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    validates(&kv, &files);
}
