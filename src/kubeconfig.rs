//! The kubelet's bootstrap kubeconfig: what the MCS appends as `/etc/kubernetes/kubeconfig`
//! so that a new node can send its CSR (the MCS builds one from the node-bootstrapper token:
//! cluster `local`, user and context `kubelet`). Checked before it goes into a config that a
//! thousand machines will boot from: it must name an https server, embed the API CA, and carry
//! a token or an embedded client certificate. Errors never quote a value from the file.

use anyhow::{Result, anyhow, bail};
use base64::Engine;
use serde_json::Value;

use crate::pki::cert::{CertInfo, parse_pem_certs};

/// What a checked bootstrap kubeconfig says.
#[derive(Debug, Clone)]
pub struct BootstrapKubeconfig {
    /// The API server URL.
    pub server: String,
    /// `token` or `client certificate`.
    pub credential: &'static str,
    /// The API CA certificates.
    pub cas: Vec<CertInfo>,
    /// The client certificate, when that is the credential.
    pub client_cert: Option<CertInfo>,
}

/// How to get a bootstrap kubeconfig when there is none yet.
pub const HOW_TO_GET: &str = "openshift-install writes one as auth/kubeconfig-kubelet; on a running cluster, build one from the node-bootstrapper token: `oc -n openshift-machine-config-operator extract secret/node-bootstrapper-token --keys=token,ca.crt` and `oc config --kubeconfig=bootstrap set-cluster local --server=https://api-int.<cluster>.<domain>:6443 --certificate-authority=ca.crt --embed-certs` (then set-credentials kubelet --token, set-context kubelet and use-context kubelet)";

/// The bootstrap kubeconfig the in-cluster MCS builds (`kubeconfigFromSecret`): cluster
/// `local` at `server` with `ca` embedded, user `kubelet` with the node-bootstrapper `token`,
/// context `kubelet`, written as `ghodss/yaml` writes client-go's `clientcmdv1.Config`
/// (encoding/json's fields, go-yaml's key order and quoting), byte for byte.
pub fn build(server: &str, ca: &[u8], token: &[u8]) -> Vec<u8> {
    let mut cluster = serde_json::json!({ "server": server });
    if !ca.is_empty() {
        cluster["certificate-authority-data"] =
            base64::engine::general_purpose::STANDARD.encode(ca).into();
    }
    let mut user = serde_json::json!({});
    let token = String::from_utf8_lossy(token);
    if !token.is_empty() {
        user["token"] = token.into_owned().into();
    }
    let config = serde_json::json!({
        "preferences": {},
        "clusters": [{ "name": "local", "cluster": cluster }],
        "users": [{ "name": "kubelet", "user": user }],
        "contexts": [{ "name": "kubelet", "context": { "cluster": "local", "user": "kubelet" } }],
        "current-context": "kubelet",
    });
    crate::golang::yaml::marshal(&config).into_bytes()
}

/// Checks a kubeconfig (YAML or JSON); `what` names it in errors. `now` is the time a
/// certificate must be valid at.
pub fn check(bytes: &[u8], what: &str, now: time::OffsetDateTime) -> Result<BootstrapKubeconfig> {
    // Certificates hold their validity in Unix seconds.
    let now = now.unix_timestamp();
    let text = std::str::from_utf8(bytes).map_err(|_| anyhow!("{what} is not UTF-8 text"))?;
    // client-go reads it with sigs.k8s.io/yaml, as kubectl does: YAML 1.1 scalars.
    let v = crate::kube::yaml::documents(text, what)
        .map_err(|e| anyhow!("{what} is not a kubeconfig: {e:#}"))?
        .into_iter()
        .next()
        .map(|d| d.value)
        .unwrap_or(Value::Null);
    if !v.is_object() {
        bail!("{what} is not a kubeconfig (a YAML mapping with clusters, users and contexts)");
    }
    if let Some(kind) = v["kind"].as_str()
        && kind != "Config"
    {
        bail!("{what} is a {kind}, not a kubeconfig (kind: Config)");
    }
    if ["clusters", "users", "contexts"]
        .iter()
        .all(|k| v.get(k).is_none())
    {
        bail!("{what} is not a kubeconfig: it has no clusters, users or contexts");
    }
    let current = v["current-context"]
        .as_str()
        .filter(|c| !c.is_empty())
        .ok_or_else(|| {
            anyhow!(
                "{what} has no current-context; the kubelet would not know which cluster to use"
            )
        })?;
    let context = named(&v, "contexts", current)
        .ok_or_else(|| anyhow!("{what}: current-context {current:?} is not in contexts"))?;
    let cluster_name = context["context"]["cluster"].as_str().unwrap_or_default();
    let user_name = context["context"]["user"].as_str().unwrap_or_default();
    let cluster = named(&v, "clusters", cluster_name).ok_or_else(|| {
        anyhow!(
            "{what}: context {current:?} names cluster {cluster_name:?}, which is not in clusters"
        )
    })?;
    let user = named(&v, "users", user_name).ok_or_else(|| {
        anyhow!("{what}: context {current:?} names user {user_name:?}, which is not in users")
    })?;

    let (server, cas) = check_cluster(&cluster["cluster"], cluster_name, what, now)?;
    let (credential, client_cert) = check_user(&user["user"], user_name, what, now)?;
    Ok(BootstrapKubeconfig {
        server,
        credential,
        cas,
        client_cert,
    })
}

/// The cluster: an https server, TLS verified against an embedded CA that is valid at `now`.
fn check_cluster(
    c: &Value,
    cluster_name: &str,
    what: &str,
    now: i64,
) -> Result<(String, Vec<crate::pki::cert::CertInfo>)> {
    let server = c["server"].as_str().unwrap_or_default();
    if !server.starts_with("https://") || server.len() <= "https://".len() {
        bail!(
            "{what}: cluster {cluster_name:?} has no https server URL; nodes reach the API at https://api-int.<cluster>.<domain>:6443"
        );
    }
    if c["insecure-skip-tls-verify"].as_bool() == Some(true) {
        bail!(
            "{what}: cluster {cluster_name:?} skips TLS verification; a bootstrap credential must only go to the real API server: embed its CA instead"
        );
    }
    if c.get("certificate-authority").is_some() && c.get("certificate-authority-data").is_none() {
        bail!(
            "{what}: cluster {cluster_name:?} refers to a CA file that the node will not have; embed it (`oc config view --raw --flatten` does)"
        );
    }
    let ca_pem = embedded(&c["certificate-authority-data"]).ok_or_else(|| {
        anyhow!("{what}: cluster {cluster_name:?} has no certificate-authority-data; the kubelet could not trust the API server")
    })?;
    let cas = parse_pem_certs(&ca_pem, &format!("{what}: certificate-authority-data"))?;
    if let Some(dead) = cas.iter().find(|ca| ca.not_after < now) {
        bail!(
            "{what}: the API CA {} expired; nodes could not trust the API server",
            dead.subject
        );
    }
    Ok((server.to_string(), cas))
}

/// The user: an embedded token or client certificate (valid at `now`), nothing a booting
/// node would not have (files, credential plugins).
fn check_user(
    u: &Value,
    user_name: &str,
    what: &str,
    now: i64,
) -> Result<(&'static str, Option<crate::pki::cert::CertInfo>)> {
    for (field, instead) in [
        ("tokenFile", "token"),
        ("client-certificate", "client-certificate-data"),
        ("client-key", "client-key-data"),
    ] {
        if u.get(field).is_some() && u.get(instead).is_none() {
            bail!(
                "{what}: user {user_name:?} refers to a file ({field}) that the node will not have; embed it as {instead}"
            );
        }
    }
    if u.get("exec").is_some() || u.get("auth-provider").is_some() {
        bail!(
            "{what}: user {user_name:?} runs a credential plugin, which a booting node does not have; use a token or an embedded client certificate"
        );
    }
    let token = u["token"].as_str().is_some_and(|t| !t.trim().is_empty());
    let cert = embedded(&u["client-certificate-data"]);
    let key = embedded(&u["client-key-data"]);
    Ok(match (token, cert, key) {
        (true, _, _) => ("token", None),
        (false, Some(cert), Some(_)) => {
            let c = parse_pem_certs(&cert, &format!("{what}: client-certificate-data"))?
                .into_iter()
                .next()
                .ok_or_else(|| anyhow!("{what}: client-certificate-data holds no certificate"))?;
            if c.not_after < now {
                bail!(
                    "{what}: the client certificate {} expired; the API server would refuse the node's CSR",
                    c.subject
                );
            }
            ("client certificate", Some(c))
        }
        (false, Some(_), None) => {
            bail!("{what}: user {user_name:?} has a client certificate but no client-key-data")
        }
        _ => bail!(
            "{what}: user {user_name:?} has no token and no client certificate; the kubelet could not send its CSR"
        ),
    })
}

/// The entry of a kubeconfig list with this name.
fn named<'a>(v: &'a Value, list: &str, name: &str) -> Option<&'a Value> {
    v[list]
        .as_array()?
        .iter()
        .find(|e| e["name"].as_str() == Some(name))
}

/// Base64 data of a `*-data` field, decoded.
fn embedded(v: &Value) -> Option<Vec<u8>> {
    let s: String = v.as_str()?.chars().filter(|c| !c.is_whitespace()).collect();
    base64::engine::general_purpose::STANDARD.decode(s).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(unix: i64) -> time::OffsetDateTime {
        time::OffsetDateTime::from_unix_timestamp(unix).unwrap()
    }

    fn ca_pem() -> String {
        let key = rcgen::KeyPair::generate().unwrap();
        let mut p = rcgen::CertificateParams::new(Vec::<String>::new()).unwrap();
        p.is_ca = rcgen::IsCa::Ca(rcgen::BasicConstraints::Unconstrained);
        p.not_before = rcgen::date_time_ymd(2020, 1, 1);
        p.not_after = rcgen::date_time_ymd(2040, 1, 1);
        p.self_signed(&key).unwrap().pem()
    }

    fn kubeconfig(cluster: &str, user: &str) -> String {
        format!(
            "apiVersion: v1\nkind: Config\ncurrent-context: kubelet\ncontexts:\n- name: kubelet\n  context: {{cluster: local, user: kubelet}}\nclusters:\n- name: local\n  cluster:\n{cluster}\nusers:\n- name: kubelet\n  user:\n{user}\n"
        )
    }

    #[test]
    fn built_as_the_mcs_builds_it() {
        // The conformance corpus's kubeconfig is what the upstream MCS wrote for this CA and
        // token.
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures/machine-config-operator/cases/_shared");
        let ca = std::fs::read(root.join("kube-apiserver-ca.crt")).unwrap();
        let want = std::fs::read(root.join("kubeconfig")).unwrap();
        let got = build(
            "https://api-int.demo.example.com:6443",
            &ca,
            b"52507242717469657399309030619954219281094909591763",
        );
        assert_eq!(
            String::from_utf8(got).unwrap(),
            String::from_utf8(want).unwrap()
        );
    }

    #[test]
    fn the_mcs_shape_passes_and_each_gap_is_named() {
        let b64 = |s: &str| base64::engine::general_purpose::STANDARD.encode(s);
        let ca = format!("    certificate-authority-data: {}", b64(&ca_pem()));
        let server = "    server: https://api-int.demo.example.com:6443";
        let good = kubeconfig(
            &format!("{server}\n{ca}"),
            "    token: sha256~secret-token-value",
        );
        let k = check(good.as_bytes(), "kc", at(1_800_000_000)).unwrap();
        assert_eq!(k.server, "https://api-int.demo.example.com:6443");
        assert_eq!(k.credential, "token");
        assert_eq!(k.cas.len(), 1);
        let cases = [
            (kubeconfig(&ca, "    token: t"), "no https server URL"),
            (
                kubeconfig(
                    &format!("{server}\n    certificate-authority: /etc/ca.crt"),
                    "    token: t",
                ),
                "refers to a CA file",
            ),
            (
                kubeconfig(server, "    token: t"),
                "no certificate-authority-data",
            ),
            (
                kubeconfig(&format!("{server}\n{ca}"), "    tokenFile: /var/run/token"),
                "embed it as token",
            ),
            (
                kubeconfig(&format!("{server}\n{ca}"), "    username: u"),
                "no token and no client certificate",
            ),
            (
                kubeconfig(
                    &format!("{server}\n{ca}\n    insecure-skip-tls-verify: true"),
                    "    token: t",
                ),
                "skips TLS verification",
            ),
            (
                good.replace("current-context: kubelet\n", ""),
                "no current-context",
            ),
            ("kind: Secret\n".to_string(), "is a Secret"),
            (
                "{{{".to_string(),
                "kc is not a kubeconfig: kc: line 2, column 1: a `[` or `{` is not closed",
            ),
            (
                r#"{"auths":{"quay.io":{"auth":"eA=="}}}"#.to_string(),
                "not a kubeconfig: it has no clusters",
            ),
        ];
        for (text, expect) in cases {
            let e = check(text.as_bytes(), "kc", at(1_800_000_000))
                .unwrap_err()
                .to_string();
            assert!(e.contains(expect), "{expect}: {e}");
            assert!(
                !e.contains("secret-token-value") && !e.contains("sha256~"),
                "{e}"
            );
        }
        // The CA has expired by 2041.
        let e = check(good.as_bytes(), "kc", at(2_240_000_000))
            .unwrap_err()
            .to_string();
        assert!(e.contains("expired"), "{e}");
    }
}
