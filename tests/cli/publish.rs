//! Revocation is final and the store is the directory's own (issue 45, points 2 and 3), with a
//! real etcd member: a directory remembers the store it publishes to; every publish reconciles
//! with what the store holds, so an older copy of the directory can neither undo a revocation
//! nor take away a machine another copy added; a store or prefix of another asset directory is
//! refused, naming both; serve honours a revocation from the directory as from the store.

use std::path::Path;
use std::time::Duration;

use crate::store::{Etcd, assets, replica, status};
use crate::support::{copy_dir, machine_token, ok, run, snapshot};

fn store_args(url: &str) -> Vec<&str> {
    vec!["--store", url, "--store-insecure"]
}

/// The id of machine `name`'s token in the directory `a`.
fn token_id(a: &Path, name: &str) -> String {
    machine_token(a, name)
        .split('.')
        .next()
        .unwrap()
        .to_string()
}

/// The published state, read as `token publish`'s readers read it: through `machine list`'s
/// store is not enough (it shows fetches), so the store is read directly.
fn published(url: &str) -> serde_json::Value {
    let view = crate::replicas::View::new(url);
    view.published()
}

#[test]
fn an_older_copy_of_the_directory_can_neither_undo_a_revocation_nor_lose_a_machine() {
    let Some(etcd) = Etcd::start(1) else { return };
    let (d, a) = assets(&["w0"]);
    let url = etcd.url();
    // The first --store command publishes, and the directory remembers the store.
    let mut args = vec!["machine", "add", "w1", "--pool", "worker", "-q"];
    args.extend(store_args(&url));
    ok(d.path(), &args);
    let cfg: serde_json::Value =
        serde_json::from_slice(&std::fs::read(a.join("mcsctl.json")).unwrap()).unwrap();
    assert_eq!(cfg["store"]["url"], url.as_str(), "{cfg}");
    assert_eq!(cfg["store"]["generation"], 1, "{cfg}");
    let older = d.path().join("older");
    copy_dir(&a, &older);
    let older_dir = older.to_str().unwrap();

    // The directory revokes w0's token, without --store: it goes to the store it remembers.
    let w0 = token_id(&a, "w0");
    let w0_bearer = format!("Bearer {}", machine_token(&a, "w0"));
    let (code, _, err) = run(d.path(), &["token", "revoke", &w0]);
    assert_eq!(code, 0, "{err}");
    let revoked_in_store = |id: &str| {
        published(&url)["tokens"]
            .as_array()
            .unwrap()
            .iter()
            .any(|t| t["id"] == id && t["state"] == "revoked")
    };
    assert!(revoked_in_store(&w0));
    let s = replica(d.path(), &url, "a", &[]);
    assert_eq!(status(&s, &a, &w0_bearer), 401);

    // The older copy revokes w1's: it takes w0's revocation from the store and keeps it.
    let w1 = token_id(&a, "w1");
    let (code, _, err) = run(d.path(), &["--dir", older_dir, "token", "revoke", &w1]);
    assert!(revoked_in_store(&w1));
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains(&format!("token {w0} is revoked in the store {url} (by another copy of this directory): revoked here too")),
        "{err}"
    );
    assert!(
        err.contains("was last published by another copy of this directory (generation 2, this one's 1): reconciled"),
        "{err}"
    );
    let older_tokens = std::fs::read_to_string(older.join("auth/tokens.json")).unwrap();
    let t: serde_json::Value = serde_json::from_str(&older_tokens).unwrap();
    let state = |id: &str| {
        t["tokens"]
            .as_array()
            .unwrap()
            .iter()
            .find(|x| x["id"] == id)
            .unwrap()["state"]
            .clone()
    };
    assert_eq!(state(&w0), "revoked");
    let p = published(&url);
    let pstate = |id: &str| {
        p["tokens"]
            .as_array()
            .unwrap()
            .iter()
            .find(|x| x["id"] == id)
            .unwrap()["state"]
            .clone()
    };
    assert_eq!(
        (pstate(&w0), pstate(&w1)),
        ("revoked".into(), "revoked".into())
    );
    assert_eq!(p["generation"], 3);
    assert_eq!(status(&s, &a, &w0_bearer), 401, "w0 stays revoked");

    // The directory adds w9; the older copy, which never saw it, is refused and unchanged.
    ok(
        d.path(),
        &["machine", "add", "w9", "--pool", "worker", "-q"],
    );
    let before = snapshot(&older);
    let (code, _, err) = run(
        d.path(),
        &["--dir", older_dir, "token", "create", "--pool", "worker"],
    );
    assert_eq!(code, 1, "{err}");
    let w9 = token_id(&a, "w9");
    assert!(
        err.contains(&format!(
            "holds 1 live token(s) this directory does not have: {w9} (machine w9)"
        )) && err.contains("nothing changed"),
        "{err}"
    );
    assert_eq!(before, snapshot(&older), "the older copy changed");
    let w9_bearer = format!("Bearer {}", machine_token(&a, "w9"));
    let start = std::time::Instant::now();
    while status(&s, &a, &w9_bearer) != 200 {
        assert!(start.elapsed() < Duration::from_secs(10), "w9 never served");
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn token_publish_publishes_for_real_and_a_directory_keeps_to_its_store() {
    let Some(etcd) = Etcd::start(1) else { return };
    let (d, a) = assets(&["w0"]);
    let url = etcd.url();
    // A directory that never published: token publish needs --store.
    let (code, _, err) = run(d.path(), &["token", "publish"]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("this directory has not published to a store yet"),
        "{err}"
    );
    let mut args = vec!["token", "publish"];
    args.extend(store_args(&url));
    let out = ok(d.path(), &args);
    assert_eq!(out, "published 4 token(s), 4 live, generation 1\n");
    // --dry-run publishes nothing.
    let mut args = vec!["token", "prune", "--dry-run"];
    args.extend(store_args(&url));
    let (code, _, err) = run(d.path(), &args);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains(&format!(
            "dry run: nothing was published to the store {url}"
        )),
        "{err}"
    );
    assert_eq!(published(&url)["generation"], 1);
    // Another prefix of the same members is another store: refused, unless moved there.
    let w0 = token_id(&a, "w0");
    let before = snapshot(&a);
    let mut args = vec!["token", "revoke", &w0, "--store-prefix", "/elsewhere/"];
    args.extend(store_args(&url));
    let (code, _, err) = run(d.path(), &args);
    assert_eq!(code, 1);
    assert!(
        err.contains(&format!("this directory publishes its tokens to the store {url} (prefix /mcsctl/demo.example.com/, remembered in mcsctl.json), not {url} (prefix /elsewhere/): nothing changed")),
        "{err}"
    );
    assert_eq!(before, snapshot(&a));
    let mut args = vec!["token", "publish", "--store-prefix", "/elsewhere/"];
    args.extend(store_args(&url));
    assert_eq!(
        ok(d.path(), &args),
        "published 4 token(s), 4 live, generation 2\n"
    );
    let cfg: serde_json::Value =
        serde_json::from_slice(&std::fs::read(a.join("mcsctl.json")).unwrap()).unwrap();
    assert_eq!(cfg["store"]["prefix"], "/elsewhere/", "{cfg}");
}

#[test]
fn a_store_or_prefix_of_another_asset_directory_is_refused_naming_both() {
    let Some(etcd) = Etcd::start(1) else { return };
    let url = etcd.url();
    // Two clusters named alike: the same default prefix.
    let (d1, a1) = assets(&[]);
    let (d2, a2) = assets(&[]);
    let mut args = vec!["token", "create", "--pool", "worker", "-q"];
    args.extend(store_args(&url));
    ok(d1.path(), &args);
    let id1 = serde_json::from_slice::<serde_json::Value>(
        &std::fs::read(a1.join("mcsctl.json")).unwrap(),
    )
    .unwrap()["store"]["id"]
        .as_str()
        .unwrap()
        .to_string();
    let before = snapshot(&a2);
    let (code, _, err) = run(d2.path(), &args);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains(&format!(
            "holds the tokens of another asset directory (id {id1}), not this one's (id "
        )) && err.contains("nothing changed"),
        "{err}"
    );
    assert_eq!(before, snapshot(&a2));
    // A prefix inside the first's: refused, naming it.
    let mut nested = args.clone();
    nested.extend(["--store-prefix", "/mcsctl/demo.example.com/nested/"]);
    let (code, _, err) = run(d2.path(), &nested);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains(&format!("the prefix /mcsctl/demo.example.com/nested/ nests with /mcsctl/demo.example.com/, where asset directory {id1} publishes its tokens")),
        "{err}"
    );
    // Its own prefix beside it: fine.
    let mut own = args.clone();
    own.extend(["--store-prefix", "/mcsctl/second/"]);
    ok(d2.path(), &own);
    // A serve of the first directory refuses a state another directory put in its place.
    let s = replica(d1.path(), &url, "a", &[]);
    let view = crate::replicas::View::new(&url);
    let mut forged = view.published();
    forged["owner"] = "0123456789abcdef0123456789abcdef".into();
    forged["generation"] = 99.into();
    view.put_published(&forged);
    assert!(
        s.wait_stderr("store-tokens-refused", Duration::from_secs(10)),
        "{}",
        s.stderr()
    );
    assert!(
        s.stderr().contains(&format!("published by another asset directory (id 0123456789abcdef0123456789abcdef), not this one (id {id1}")),
        "{}",
        s.stderr()
    );
}

#[test]
fn serve_honours_a_revocation_the_directory_has_and_the_store_has_not() {
    let Some(etcd) = Etcd::start(1) else { return };
    let (d, a) = assets(&["w0"]);
    let url = etcd.url();
    let mut args = vec!["token", "publish"];
    args.extend(store_args(&url));
    ok(d.path(), &args);
    let s = replica(d.path(), &url, "a", &[]);
    let bearer = format!("Bearer {}", machine_token(&a, "w0"));
    assert_eq!(status(&s, &a, &bearer), 200);
    // A copy of the directory that remembers no store revokes w0 locally, and is put in place
    // of serve's: the store still has w0 live, serve refuses it all the same, and says why.
    let cfg = a.join("mcsctl.json");
    let mut c: serde_json::Value = serde_json::from_slice(&std::fs::read(&cfg).unwrap()).unwrap();
    c.as_object_mut().unwrap().remove("store");
    std::fs::write(&cfg, serde_json::to_vec_pretty(&c).unwrap()).unwrap();
    let w1 = format!("Bearer {}", {
        ok(
            d.path(),
            &["machine", "add", "w1", "--pool", "worker", "-q"],
        );
        machine_token(&a, "w1")
    });
    let w0 = token_id(&a, "w0");
    ok(d.path(), &["token", "revoke", &w0, "-q"]);
    assert!(
        s.wait_stderr(
            &format!(
                "token(s) {w0} are revoked in the directory's auth/tokens.json but not in the store"
            ),
            Duration::from_secs(10)
        ),
        "{}",
        s.stderr()
    );
    assert_eq!(status(&s, &a, &bearer), 401);
    assert_eq!(
        published(&url)["tokens"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["id"] == w0.as_str())
            .unwrap()["state"],
        "active"
    );
    // A token only the directory has is not served: the store's state decides what lives.
    assert_eq!(status(&s, &a, &w1), 401);
}

#[test]
fn a_token_with_unlimited_uses_keeps_its_first_records_and_counts_the_rest() {
    let Some(etcd) = Etcd::start(1) else { return };
    let (d, a) = assets(&[]);
    let url = etcd.url();
    let mut args = vec![
        "machine", "add", "w0", "--pool", "worker", "--uses", "0", "-q",
    ];
    args.extend(store_args(&url));
    ok(d.path(), &args);
    let s = replica(d.path(), &url, "a", &[]);
    let bearer = format!("Bearer {}", machine_token(&a, "w0"));
    let keep = mcsctl::store::counted::KEEP as usize;
    let mut c = crate::support::Https::connect(s.addr, &a.join("tls/mcs-ca.crt"));
    for i in 0..keep + 5 {
        let r = c
            .request("GET", "/config/worker", &[("Authorization", &bearer)])
            .unwrap();
        assert_eq!(r.status, 200, "fetch {i}");
    }
    // Each fetch's record (or count) is settled in the background: wait for the last.
    let start = std::time::Instant::now();
    let list = |fmt: &str| {
        let mut args = vec!["machine", "list", "--format", fmt];
        args.extend(store_args(&url));
        ok(d.path(), &args)
    };
    loop {
        let v: serde_json::Value = serde_json::from_str(&list("json")).unwrap();
        let m = &v["machines"][0];
        let records = m["fetches"].as_array().unwrap();
        let whole = records.iter().filter(|f| f["whole"] == true).count();
        if whole == keep && m["unrecordedFetches"] == 5 {
            break;
        }
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "{whole} whole records, {} counted: {}",
            m["unrecordedFetches"],
            s.stderr()
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    let text = list("text");
    assert!(text.contains(&format!("{}x, last", keep + 5)), "{text}");
}

/// Runs `f` with a plain etcd client of the (single-member) store at `url`, as an operator's
/// tool would reach it.
fn with_client<F, Fut>(url: &str, f: F)
where
    F: FnOnce(etcd_client::Client) -> Fut,
    Fut: std::future::Future<Output = ()>,
{
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let endpoint = url.trim_start_matches("etcd://").to_string();
    rt.block_on(async {
        let c = etcd_client::Client::connect([endpoint], None)
            .await
            .unwrap();
        f(c).await
    });
}

/// Fills the store at `url` until it refuses writes (its backend quota spent): reads still
/// answer, writes fail with "database space exceeded".
fn fill(url: &str) {
    with_client(url, |mut c| async move {
        for i in 0..100 {
            let v = vec![b'x'; 200_000];
            if c.put(format!("/fill/{i}"), v, None).await.is_err() {
                return;
            }
        }
        panic!("the store never filled");
    });
}

/// Gives the store its space back: the fill deleted, compacted, defragmented, the alarm off.
fn unfill(url: &str) {
    with_client(url, |mut c| async move {
        let o = etcd_client::DeleteOptions::new().with_prefix();
        let r = c.delete("/fill/", Some(o)).await.unwrap();
        let rev = r.header().unwrap().revision();
        let o = etcd_client::CompactionOptions::new().with_physical();
        c.compact(rev, Some(o)).await.unwrap();
        c.defragment().await.unwrap();
        // As `etcdctl alarm disarm` does: each alarm raised, by its member.
        let raised = c
            .alarm(
                etcd_client::AlarmAction::Get,
                etcd_client::AlarmType::None,
                None,
            )
            .await
            .unwrap();
        for m in raised.alarms() {
            let mut o = etcd_client::AlarmOptions::new();
            o.with_member(m.member_id());
            c.alarm(
                etcd_client::AlarmAction::Deactivate,
                etcd_client::AlarmType::Nospace,
                Some(o),
            )
            .await
            .unwrap();
        }
    });
}

#[test]
fn a_publish_that_fails_after_the_change_landed_names_the_command_that_publishes_it() {
    let Some(etcd) = Etcd::start_args(1, &["--quota-backend-bytes", "1048576"]) else {
        return;
    };
    let (d, a) = assets(&["w0"]);
    let url = etcd.url();
    let mut args = vec!["token", "publish"];
    args.extend(store_args(&url));
    ok(d.path(), &args);
    // The store reads and refuses writes: the revocation lands in the directory, not there.
    fill(&url);
    let w0 = token_id(&a, "w0");
    let (code, _, err) = run(d.path(), &["token", "revoke", &w0]);
    assert_eq!(code, 1, "{err}");
    let again = format!(
        "mcsctl --dir mcs-assets token publish --store {url} --store-insecure --store-prefix /mcsctl/demo.example.com/"
    );
    assert!(
        err.contains("refused the request: etcdserver: mvcc: database space exceeded")
            && err.contains(&format!(
                "the change is in mcs-assets but not in the store {url}, so serve replicas keep the tokens they had; publish it with `{again}`"
            )),
        "{err}"
    );
    let tokens = std::fs::read_to_string(a.join("auth/tokens.json")).unwrap();
    assert!(tokens.contains("\"revoked\""), "{tokens}");
    // The advice, run as written once the store takes writes again, publishes it.
    unfill(&url);
    let words: Vec<&str> = again.split(' ').skip(1).collect();
    let out = ok(d.path(), &words);
    assert!(
        out.starts_with("published 4 token(s), 3 live, generation "),
        "{out}"
    );
    assert!(
        published(&url)["tokens"]
            .as_array()
            .unwrap()
            .iter()
            .any(|t| t["id"] == w0.as_str() && t["state"] == "revoked")
    );
}
