//! The machine-config-operator conformance corpus (tests/fixtures/machine-config-operator,
//! recorded by running the upstream MCO's own Go code at the commit in UPSTREAM_COMMIT; its
//! README explains a case). Every case is rendered by `mcsctl render` and its requests served
//! by a running `mcsctl serve`, and every check of its expect.json is run against the recorded
//! upstream output. Served bodies are also compared byte for byte with upstream's.

use std::path::{Path, PathBuf};

use base64::Engine;
use serde_json::{Map, Value, json};

use crate::support::{HttpResponse, Https, Serve, assert_ignition_valid, copy_dir, init_demo, run};

const APPENDED: [&str; 4] = [
    "/etc/machine-config-daemon/node-annotations.json",
    "/etc/kubernetes/kubeconfig",
    "/etc/mcs-machine-config-content.json",
    "/etc/ignition-machine-config-encapsulated.json",
];

fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/machine-config-operator/cases")
}

struct Case {
    name: String,
    dir: PathBuf,
    pool: String,
    render_args: Vec<String>,
    kubeconfig: bool,
    expect: Value,
    /// (method, path, Accept) per request; `None` sends no Accept header.
    requests: Vec<(String, String, Option<String>)>,
    user_agents: Vec<String>,
}

fn conf(text: &str, key: &str) -> Option<String> {
    text.lines()
        .filter(|l| !l.trim_start().starts_with('#'))
        .find_map(|l| l.strip_prefix(&format!("{key}=")))
        .map(|v| v.trim().trim_matches('"').to_string())
}

fn cases() -> Vec<Case> {
    let mut names: Vec<String> = std::fs::read_dir(corpus())
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| !n.starts_with('_'))
        .collect();
    names.sort();
    names
        .into_iter()
        .map(|name| {
            let dir = corpus().join(&name);
            let c = std::fs::read_to_string(dir.join("case.conf")).unwrap();
            let read = |f: &str| std::fs::read_to_string(dir.join(f)).unwrap_or_default();
            let requests = read("requests")
                .lines()
                .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
                .map(|l| {
                    let mut p = l.splitn(3, '\t');
                    let (m, path, accept) =
                        (p.next().unwrap(), p.next().unwrap(), p.next().unwrap());
                    (
                        m.into(),
                        path.into(),
                        (accept != "-").then(|| accept.to_string()),
                    )
                })
                .collect();
            Case {
                pool: conf(&c, "POOL").unwrap(),
                render_args: conf(&c, "RENDER_ARGS")
                    .unwrap_or_default()
                    .split_whitespace()
                    .map(str::to_string)
                    .collect(),
                kubeconfig: conf(&c, "KUBECONFIG").as_deref() == Some("yes"),
                expect: serde_json::from_str(&read("expect.json")).unwrap(),
                requests,
                user_agents: read("user-agents").lines().map(str::to_string).collect(),
                name,
                dir,
            }
        })
        .collect()
}

/// What mcsctl did with a case.
struct Outcome {
    /// The render's JSON report, or its stderr.
    render: Result<Value, String>,
    /// rendered/<pool>.ign.
    rendered: Option<Value>,
    responses: Vec<HttpResponse>,
    /// What a spec 3.3 client (Debian's Ignition 2.14) is served, when the render succeeded.
    served_3_3: Option<HttpResponse>,
}

fn render_case(c: &Case, work: &Path, mcs: &Path) -> (Result<Value, String>, Option<Value>) {
    let _ = std::fs::remove_dir_all(work.join("mcs-assets/rendered"));
    let mcs = mcs.display().to_string();
    let kubeconfig = c.dir.join("kubeconfig").display().to_string();
    let mut args = vec!["render", "--machine-configs", &mcs, "--format", "json"];
    if c.kubeconfig {
        args.extend(["--bootstrap-kubeconfig", &kubeconfig, "--force"]);
    }
    args.extend(c.render_args.iter().map(String::as_str));
    let (code, out, err) = run(work, &args);
    if code != 0 {
        return (Err(err), None);
    }
    let file = work.join(format!("mcs-assets/rendered/{}.ign", c.pool));
    let rendered = std::fs::read(&file)
        .ok()
        .map(|b| serde_json::from_slice(&b).unwrap());
    (Ok(serde_json::from_str(&out).unwrap()), rendered)
}

fn run_case(c: &Case, template: &Path) -> Outcome {
    let work = tempfile::tempdir().unwrap();
    copy_dir(template, &work.path().join("mcs-assets"));
    let (render, rendered) = render_case(c, work.path(), &c.dir.join("mcs.yaml"));
    let mut responses = Vec::new();
    let mut served_3_3 = None;
    if render.is_ok() {
        let serve = Serve::start(work.path(), &["--auth", "none"]);
        let ca = work.path().join("mcs-assets/tls/mcs-ca.crt");
        let accept = "application/vnd.coreos.ignition+json;version=3.3.0, */*;q=0.1";
        served_3_3 = Some(
            Https::connect(serve.addr, &ca)
                .request("GET", &format!("/config/{}", c.pool), &[("Accept", accept)])
                .unwrap(),
        );
        for (i, (method, path, accept)) in c.requests.iter().enumerate() {
            let mut headers: Vec<(&str, &str)> = Vec::new();
            if let Some(a) = accept {
                headers.push(("Accept", a));
            }
            if let Some(ua) = c.user_agents.get(i) {
                headers.push(("User-Agent", ua));
            }
            responses.push(
                Https::connect(serve.addr, &ca)
                    .request(method, path, &headers)
                    .unwrap(),
            );
        }
    }
    Outcome {
        render,
        rendered,
        responses,
        served_3_3,
    }
}

fn decode(source: &str) -> Vec<u8> {
    crate::render::data_url(source)
}

/// A served config's appended file, decoded.
fn appended(config: &Value, path: &str) -> Option<Vec<u8>> {
    config["storage"]["files"]
        .as_array()?
        .iter()
        .rfind(|f| f["path"] == path)
        .map(|f| decode(f["contents"]["source"].as_str().unwrap()))
}

fn json_of(bytes: &[u8]) -> Value {
    serde_json::from_slice(bytes).unwrap()
}

/// The normalisations Ignition itself applies: files, directories and links keyed by path;
/// units, dropins, users and groups by name; `compression: ""` is no compression; the
/// appended files left out (they are compared on their own).
fn normalized(config: &Value) -> Value {
    let mut c = config.clone();
    let keyed = |list: &Value, key: &str| -> Value {
        let mut m = Map::new();
        for item in list.as_array().into_iter().flatten() {
            let mut item = item.clone();
            if let Some(d) = item.get("dropins") {
                let d = keyed_by(d, "name");
                item["dropins"] = d;
            }
            if item["contents"]["compression"] == "" {
                item["contents"]
                    .as_object_mut()
                    .unwrap()
                    .remove("compression");
            }
            let k = item[key].as_str().unwrap_or("").to_string();
            if APPENDED.contains(&k.as_str()) {
                continue;
            }
            m.insert(k, item);
        }
        Value::Object(m)
    };
    for (section, list, key) in [
        ("storage", "files", "path"),
        ("storage", "directories", "path"),
        ("storage", "links", "path"),
        ("systemd", "units", "name"),
        ("passwd", "users", "name"),
        ("passwd", "groups", "name"),
    ] {
        if let Some(l) = c.get(section).and_then(|s| s.get(list)).cloned() {
            c[section][list] = keyed(&l, key);
        }
    }
    c
}

fn keyed_by(list: &Value, key: &str) -> Value {
    let mut m = Map::new();
    for item in list.as_array().into_iter().flatten() {
        m.insert(item[key].as_str().unwrap_or("").to_string(), item.clone());
    }
    Value::Object(m)
}

/// The rendered MachineConfig mcsctl serves (the content file of its 3.5.0 answer).
fn rendered_mc(o: &Outcome) -> Option<Value> {
    o.rendered
        .as_ref()
        .and_then(|r| appended(r, "/etc/mcs-machine-config-content.json"))
        .map(|b| json_of(&b))
}

fn oracle(c: &Case, file: &str) -> Value {
    json_of(&std::fs::read(c.dir.join("oracle").join(file)).unwrap())
}

/// Whether every field of `want` is in `got` with that value.
fn subset(want: &Value, got: &Value) -> bool {
    match (want, got) {
        (Value::Object(w), Value::Object(g)) => w
            .iter()
            .all(|(k, v)| g.get(k).is_some_and(|x| subset(v, x))),
        _ => want == got,
    }
}

/// Why upstream's rendered config is not valid Ignition (the MCS then answers 500 to every
/// machine of the pool), when it is not: the deliberate difference of issue 46, where mcsctl
/// refuses the pool at render instead.
fn upstream_unservable(c: &Case) -> Option<String> {
    let up = oracle(c, "render.json");
    let config = up.get("mc")?["spec"]["config"].clone();
    let (cfg, _) = mcsctl::ignition::spec::Config::decode(config).ok()?;
    let issue = mcsctl::ignition::spec::validate::validate(&cfg)
        .errors
        .into_iter()
        .next()?;
    Some(issue.to_string())
}

fn check(c: &Case, o: &Outcome, chk: &Value, fail: &mut Vec<String>) {
    let kind = chk["check"].as_str().unwrap();
    let mut bad = |why: String| fail.push(format!("{} [{kind}]: {why}", c.name));
    // Upstream renders a pool its MCS cannot serve; mcsctl refuses it at render, naming the
    // field (docs/agreement-with-the-mco.md, deliberate differences).
    if let Some(why) = upstream_unservable(c) {
        match &o.render {
            Err(e) if e.contains("would not be served") && e.contains(&why) => {}
            Err(e) => bad(format!("refused, but not as unservable ({why}): {e}")),
            Ok(_) => bad(format!(
                "upstream's config cannot be served ({why}); mcsctl rendered it"
            )),
        }
        return;
    }
    let n = chk["n"].as_u64().unwrap_or(0) as usize;
    let served = |i: usize| -> Option<(&HttpResponse, Value)> {
        let r = o.responses.get(i)?;
        (r.status == 200).then(|| (r, json_of(&r.body)))
    };
    let upstream = |i: usize| oracle(c, &format!("serve-{i}.json"));
    let upstream_body = |i: usize| -> Option<Value> {
        let u = upstream(i);
        (u["status"] == 200).then(|| serde_json::from_str(u["body"].as_str().unwrap()).unwrap())
    };
    match kind {
        "render_ok" => {
            if let Err(e) = &o.render {
                bad(format!("render failed: {e}"));
            }
        }
        "render_error" => match &o.render {
            Ok(_) => bad("render succeeded".into()),
            Err(e) => {
                for w in chk["contains"].as_array().into_iter().flatten() {
                    if !e.contains(w.as_str().unwrap()) {
                        bad(format!("the error does not name {w}: {e}"));
                    }
                }
            }
        },
        "agree_with_oracle_render" => {
            let up = oracle(c, "render.json");
            match (&o.render, up.get("error")) {
                (Ok(_), Some(e)) => bad(format!("upstream refused ({e}), mcsctl rendered")),
                (Err(e), None) => bad(format!("upstream rendered, mcsctl refused: {e}")),
                (Ok(_), None) => {
                    let ours = rendered_mc(o).unwrap();
                    if ours["metadata"]["name"] != up["name"] {
                        bad(format!(
                            "name {} vs upstream {}",
                            ours["metadata"]["name"], up["name"]
                        ));
                    }
                }
                (Err(_), Some(_)) => {}
            }
        }
        "spec"
        | "oracle_spec"
        | "merged_config"
        | "oracle_merged_config"
        | "oracle_rendered_version" => {
            let Some(ours) = rendered_mc(o) else {
                return bad("nothing rendered".into());
            };
            let up = oracle(c, "render.json");
            match kind {
                "spec" if !subset(&chk["equals"], &ours["spec"]) => bad(format!(
                    "spec {} does not hold {}",
                    ours["spec"], chk["equals"]
                )),
                "oracle_spec" => {
                    let strip = |v: &Value| {
                        let mut v = v.clone();
                        v.as_object_mut().unwrap().remove("config");
                        v
                    };
                    if strip(&ours["spec"]) != strip(&up["mc"]["spec"]) {
                        bad(format!(
                            "spec {} vs upstream {}",
                            strip(&ours["spec"]),
                            strip(&up["mc"]["spec"])
                        ));
                    }
                    if ours["metadata"]["name"] != up["name"] {
                        bad(format!(
                            "name {} vs upstream {}",
                            ours["metadata"]["name"], up["name"]
                        ));
                    }
                }
                "merged_config"
                    if normalized(&ours["spec"]["config"]) != normalized(&chk["equals"]) =>
                {
                    bad(format!(
                        "config {} vs {}",
                        ours["spec"]["config"], chk["equals"]
                    ))
                }
                "oracle_merged_config"
                    if normalized(&ours["spec"]["config"])
                        != normalized(&up["mc"]["spec"]["config"]) =>
                {
                    bad(format!(
                        "config {} vs upstream {}",
                        ours["spec"]["config"], up["mc"]["spec"]["config"]
                    ))
                }
                "oracle_rendered_version"
                    if ours["spec"]["config"]["ignition"]["version"]
                        != up["mc"]["spec"]["config"]["ignition"]["version"] =>
                {
                    bad(format!(
                        "version {}",
                        ours["spec"]["config"]["ignition"]["version"]
                    ))
                }
                _ => {}
            }
        }
        "order" => {
            let Ok(report) = &o.render else {
                return bad("render failed".into());
            };
            let pool = report["pools"]
                .as_array()
                .unwrap()
                .iter()
                .find(|p| p["pool"] == c.pool.as_str())
                .unwrap();
            if pool["mergeOrder"] != chk["equals"] {
                bad(format!(
                    "merge order {} vs {}",
                    pool["mergeOrder"], chk["equals"]
                ));
            }
        }
        "file_contents" => {
            let ours = rendered_mc(o).unwrap();
            let files = &ours["spec"]["config"]["storage"]["files"];
            let f = files
                .as_array()
                .unwrap()
                .iter()
                .find(|f| f["path"] == chk["path"])
                .unwrap();
            let got = String::from_utf8(decode(f["contents"]["source"].as_str().unwrap())).unwrap();
            if got != chk["equals"].as_str().unwrap() {
                bad(format!("{} holds {got:?}", chk["path"]));
            }
        }
        "name_stable_under_reorder" => {
            let text = std::fs::read_to_string(c.dir.join("mcs.yaml")).unwrap();
            let mut docs: Vec<&str> = text.split("\n---\n").collect();
            docs.reverse();
            let work = tempfile::tempdir().unwrap();
            init_demo(work.path(), &["--no-token"]);
            let reversed = work.path().join("reversed.yaml");
            std::fs::write(&reversed, docs.join("\n---\n")).unwrap();
            let (r, _) = render_case(c, work.path(), &reversed);
            let name = |r: &Result<Value, String>| {
                r.as_ref()
                    .ok()
                    .map(|v| v["pools"][0]["renderedName"].clone())
            };
            if name(&r) != name(&o.render) {
                bad(format!("{:?} vs {:?}", name(&r), name(&o.render)));
            }
        }
        "oracle_serve_outcome" | "serve_status" | "no_config_served" => {
            let got = o.responses.get(n).map(|r| r.status);
            let up = upstream(n)["status"].as_u64().map(|s| s as u16);
            match kind {
                "serve_status" if got != chk["equals"].as_u64().map(|s| s as u16) => {
                    bad(format!("status {got:?}"))
                }
                "no_config_served" if got == Some(200) => bad("a config was served".into()),
                "oracle_serve_outcome" => {
                    let refused = |s: Option<u16>| s.is_none_or(|s| s != 200);
                    let equivalent =
                        chk["refusal_equivalent"] == true && refused(got) && refused(up);
                    if got != up && !equivalent {
                        bad(format!("status {got:?} vs upstream {up:?}"));
                    }
                    if let (Some((r, ours)), Some(theirs)) = (served(n), upstream_body(n))
                        && normalized(&ours) != normalized(&theirs)
                    {
                        let _ = r;
                        bad(
                            "the served config differs from upstream's (see the byte comparison)"
                                .into(),
                        );
                    }
                }
                _ => {}
            }
        }
        "oracle_served_config" => match (served(n), upstream_body(n)) {
            (Some((_, ours)), Some(theirs)) => {
                if normalized(&ours) != normalized(&theirs) {
                    bad(
                        "the served config differs from upstream's (see the byte comparison)"
                            .into(),
                    );
                }
                for p in APPENDED {
                    let (a, b) = (appended(&ours, p), appended(&theirs, p));
                    let same = match (&a, &b) {
                        (Some(x), Some(y)) if p.ends_with(".json") => json_of(x) == json_of(y),
                        _ => a == b,
                    };
                    if !same {
                        bad(format!("{p} differs"));
                    }
                }
            }
            _ => bad("no config served by one side".into()),
        },
        "served_appended_files" | "oracle_served_appended_files" => {
            let Some((_, ours)) = served(n) else {
                return bad("nothing served".into());
            };
            let tail = |cfg: &Value| -> Vec<Value> {
                let files = cfg["storage"]["files"].as_array().unwrap();
                files[files.len() - 4..]
                    .iter()
                    .map(|f| json!([f["path"], f["mode"], f["overwrite"]]))
                    .collect()
            };
            let want: Vec<Value> = if kind == "served_appended_files" {
                chk["equals"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|p| json!([p, 420, true]))
                    .collect()
            } else {
                tail(&upstream_body(n).unwrap())
            };
            if tail(&ours) != want {
                bad(format!("{:?} vs {want:?}", tail(&ours)));
            }
        }
        "served_content_file" | "served_node_annotations" => {
            let path = if kind == "served_content_file" {
                APPENDED[2]
            } else {
                APPENDED[0]
            };
            let ours = served(n).and_then(|(_, v)| appended(&v, path));
            let theirs = upstream_body(n).and_then(|v| appended(&v, path));
            if ours.is_none() || ours != theirs {
                bad(format!(
                    "{path}: {:?} vs upstream {:?}",
                    ours.map(|b| String::from_utf8_lossy(&b).into_owned()),
                    theirs.map(|b| String::from_utf8_lossy(&b).into_owned())
                ));
            }
        }
        "served_encapsulated_config"
        | "oracle_served_encapsulated_config"
        | "served_encapsulated_spec"
        | "oracle_served_encapsulated_spec" => {
            let enc = |v: &Value| appended(v, APPENDED[3]).map(|b| json_of(&b));
            let Some(ours) = served(n).and_then(|(_, v)| enc(&v)) else {
                return bad("nothing served".into());
            };
            let ok = match kind {
                "served_encapsulated_config" => ours["spec"]["config"] == chk["equals"],
                "served_encapsulated_spec" => subset(&chk["equals"], &ours["spec"]),
                "oracle_served_encapsulated_config" => {
                    Some(&ours["spec"]["config"])
                        == upstream_body(n)
                            .and_then(|v| enc(&v))
                            .as_ref()
                            .map(|e| &e["spec"]["config"])
                }
                _ => {
                    Some(&ours["spec"])
                        == upstream_body(n)
                            .and_then(|v| enc(&v))
                            .as_ref()
                            .map(|e| &e["spec"])
                }
            };
            if !ok {
                bad(format!("encapsulated {ours}"));
            }
        }
        "served_has_files_units_of_oracle" => {
            let (Some((_, ours)), Some(theirs)) = (served(n), upstream_body(n)) else {
                return bad("no config served by one side".into());
            };
            let (o2, t2) = (normalized(&ours), normalized(&theirs));
            for (s, l) in [("storage", "files"), ("systemd", "units")] {
                for k in t2[s][l].as_object().into_iter().flatten().map(|(k, _)| k) {
                    if o2[s][l].get(k).is_none() {
                        bad(format!("{s}.{l} {k} missing"));
                    }
                }
            }
        }
        "same_body" => {
            let body = |i: u64| o.responses.get(i as usize).map(|r| r.body.clone());
            if body(chk["a"].as_u64().unwrap()) != body(chk["b"].as_u64().unwrap()) {
                bad("bodies differ".into());
            }
        }
        other => bad(format!("unknown check {other}")),
    }
}

/// Where two bodies part, with some context.
fn first_difference(a: &[u8], b: &[u8]) -> String {
    let at = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let around = |s: &[u8]| {
        String::from_utf8_lossy(&s[at.saturating_sub(60)..(at + 60).min(s.len())]).into_owned()
    };
    format!(
        "at byte {at} (lengths {} and {}):\n  ours:     …{}…\n  upstream: …{}…",
        a.len(),
        b.len(),
        around(a),
        around(b)
    )
}

#[test]
fn every_case_agrees_with_the_upstream_mco() {
    let template = tempfile::tempdir().unwrap();
    init_demo(template.path(), &["--no-token", "--san", "127.0.0.1"]);
    let assets = template.path().join("mcs-assets");
    let mut fail = Vec::new();
    let mut byte_exact = 0;
    let mut compared = 0;
    let mut validated = 0;
    let all = cases();
    for c in &all {
        let o = run_case(c, &assets);
        for chk in c.expect["checks"].as_array().unwrap() {
            check(c, &o, chk, &mut fail);
        }
        // Beyond the checks: a served config is upstream's byte for byte.
        for (i, r) in o.responses.iter().enumerate() {
            let up = oracle(c, &format!("serve-{i}.json"));
            if r.status == 200 && up["status"] == 200 {
                compared += 1;
                if r.body == up["body"].as_str().unwrap().as_bytes() {
                    byte_exact += 1;
                } else {
                    fail.push(format!(
                        "{} request {i}: the body is not upstream's byte for byte: {}",
                        c.name,
                        first_difference(&r.body, up["body"].as_str().unwrap().as_bytes())
                    ));
                }
                if r.header("content-type") != Some("application/json") {
                    fail.push(format!(
                        "{} request {i}: content type {:?}",
                        c.name,
                        r.header("content-type")
                    ));
                }
            }
        }
        // Every rendered config is valid Ignition: the 3.5.0 file by the ignition-config
        // crate's types, and (ignition-validate 2.14 reads up to 3.3) what a spec 3.3 client
        // is served by ignition-validate itself.
        let scratch = tempfile::tempdir().unwrap();
        if let Some(r) = &o.rendered {
            let file = scratch.path().join("rendered.ign");
            std::fs::write(&file, serde_json::to_vec(r).unwrap()).unwrap();
            assert_ignition_valid(&file);
        }
        if let Some(r) = o.served_3_3.as_ref().filter(|r| r.status == 200) {
            let file = scratch.path().join("served-3.3.ign");
            std::fs::write(&file, &r.body).unwrap();
            assert_ignition_valid(&file);
            validated += 1;
        }
    }
    assert!(all.len() >= 53, "the corpus has {} cases", all.len());
    assert!(
        fail.is_empty(),
        "{} of the checks failed:\n{}",
        fail.len(),
        fail.join("\n")
    );
    assert!(
        validated >= 40,
        "only {validated} spec 3.3 answers were validated"
    );
    eprintln!(
        "{} cases agree; {byte_exact} of {compared} served bodies byte for byte; {validated} spec 3.3 answers pass ignition-validate",
        all.len()
    );
}

/// A snapshot of a cluster that rendered the case's MachineConfigs as upstream did: the
/// MachineConfigs, the rendered one (upstream's, as `oc get -o yaml` prints it), the pool
/// naming it, a ControllerConfig, the node-bootstrapper token Secret and, when
/// `with_bundle`, the kubeconfig-data ConfigMap (with the same CA).
fn snapshot(c: &Case, with_bundle: bool) -> String {
    let b64 = |b: &[u8]| base64::engine::general_purpose::STANDARD.encode(b);
    let shared = corpus().join("_shared");
    let ca = std::fs::read(shared.join("kube-apiserver-ca.crt")).unwrap();
    let up = oracle(c, "render.json");
    let name = up["name"].as_str().unwrap();
    let mut rendered = up["mc"].clone();
    rendered["apiVersion"] = "machineconfiguration.openshift.io/v1".into();
    rendered["kind"] = "MachineConfig".into();
    let mut docs = vec![
        std::fs::read_to_string(c.dir.join("mcs.yaml")).unwrap(),
        rendered.to_string(),
        json!({"apiVersion": "machineconfiguration.openshift.io/v1", "kind": "MachineConfigPool",
            "metadata": {"name": c.pool},
            "spec": {"configuration": {"name": name}},
            "status": {"configuration": {"name": name}, "updatedMachineCount": 0}})
        .to_string(),
        json!({"apiVersion": "machineconfiguration.openshift.io/v1", "kind": "ControllerConfig",
            "metadata": {"name": "machine-config-controller"},
            "spec": {"infra": {"status": {"apiServerInternalURI": "https://api-int.demo.example.com:6443"}}}})
        .to_string(),
        json!({"apiVersion": "v1", "kind": "Secret", "type": "kubernetes.io/service-account-token",
            "metadata": {"name": "node-bootstrapper-token", "namespace": "openshift-machine-config-operator"},
            "data": {"token": b64(b"52507242717469657399309030619954219281094909591763"), "ca.crt": b64(&ca)}})
        .to_string(),
    ];
    if with_bundle {
        docs.push(
            json!({"apiVersion": "v1", "kind": "ConfigMap",
                "metadata": {"name": "kubeconfig-data", "namespace": "openshift-machine-config-operator"},
                "binaryData": {"ca-bundle.crt": b64(&ca)}})
            .to_string(),
        );
    }
    docs.join("\n---\n")
}

/// `render --from-cluster` on snapshots made from the corpus: the in-cluster MCS's choice of
/// rendered MachineConfig and its bootstrap kubeconfig, served by `mcsctl serve`. The
/// kubeconfig, the node annotations and the encapsulated MachineConfig are upstream's byte for
/// byte; so is the rest of the config, compared as Ignition reads it (the content file's
/// `spec.config` keeps the cluster's key order, which is the API server's).
#[test]
fn render_from_cluster_serves_what_the_mcs_serves() {
    let template = tempfile::tempdir().unwrap();
    init_demo(template.path(), &["--no-token", "--san", "127.0.0.1"]);
    let mut fail = Vec::new();
    let mut compared = 0;
    for c in cases() {
        // The pre-built image case is a rendered MachineConfig given as is: upstream's answer
        // there keeps apiVersion and kind, which the in-cluster MCS's informer drops.
        let up = oracle(&c, "render.json");
        if up.get("name").is_none()
            || c.requests.is_empty()
            || c.name == "prebuilt-image-annotations"
        {
            continue;
        }
        for with_bundle in [false, true] {
            let work = tempfile::tempdir().unwrap();
            copy_dir(
                &template.path().join("mcs-assets"),
                &work.path().join("mcs-assets"),
            );
            std::fs::write(work.path().join("cluster.yaml"), snapshot(&c, with_bundle)).unwrap();
            let (code, out, err) = run(work.path(), &["render", "--from-cluster", "cluster.yaml"]);
            if code != 0 {
                fail.push(format!("{}: render --from-cluster failed: {err}", c.name));
                continue;
            }
            assert!(out.contains(up["name"].as_str().unwrap()), "{out}");
            let kept =
                std::fs::read(work.path().join("mcs-assets/auth/bootstrap-kubeconfig")).unwrap();
            assert_eq!(
                kept,
                std::fs::read(corpus().join("_shared/kubeconfig")).unwrap()
            );
            let serve = Serve::start(work.path(), &["--auth", "none"]);
            let ca = work.path().join("mcs-assets/tls/mcs-ca.crt");
            for (i, (method, path, accept)) in c.requests.iter().enumerate() {
                let theirs = oracle(&c, &format!("serve-{i}.json"));
                let mut headers = Vec::new();
                if let Some(a) = accept {
                    headers.push(("Accept", a.as_str()));
                }
                let r = Https::connect(serve.addr, &ca)
                    .request(method, path, &headers)
                    .unwrap();
                if theirs["status"] != 200 {
                    if r.status == 200 {
                        fail.push(format!("{} request {i}: served, upstream refused", c.name));
                    }
                    continue;
                }
                compared += 1;
                let ours = json_of(&r.body);
                let theirs: Value = serde_json::from_str(theirs["body"].as_str().unwrap()).unwrap();
                for p in [APPENDED[0], APPENDED[1], APPENDED[3]] {
                    if appended(&ours, p) != appended(&theirs, p) {
                        fail.push(format!(
                            "{} request {i} ({}): {p} is not upstream's",
                            c.name,
                            if with_bundle {
                                "with the kubeconfig-data bundle"
                            } else {
                                "Secret CA"
                            }
                        ));
                    }
                }
                let content = |v: &Value| appended(v, APPENDED[2]).map(|b| json_of(&b));
                if normalized(&ours) != normalized(&theirs) || content(&ours) != content(&theirs) {
                    fail.push(format!(
                        "{} request {i}: the config differs from upstream's",
                        c.name
                    ));
                }
            }
        }
    }
    assert!(fail.is_empty(), "{}", fail.join("\n"));
    assert!(compared >= 30, "only {compared} answers compared");
    eprintln!("{compared} answers of render --from-cluster agree with upstream");
}
