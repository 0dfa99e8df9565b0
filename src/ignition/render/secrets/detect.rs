//! Recognising secrets in a blob of text. Structure where there is one (a kubeconfig is a YAML
//! document with users holding credentials; a pull secret is JSON with `auths`; a JWT is
//! three base64url parts whose header is JSON with `alg`), patterns where there is not (PEM
//! private keys of every kind, bearer tokens, credentials in URLs).

use base64::Engine;
use serde_json::Value;

/// A kubeconfig with credentials.
pub const KUBECONFIG: &str = "kubeconfig with credentials";
/// A pull secret.
pub const PULL_SECRET: &str = "pull secret";
/// A private key.
pub const PRIVATE_KEY: &str = "PEM private key";
/// A JSON Web Token (service-account tokens among them).
pub const JWT: &str = "JWT";
/// A bearer token.
pub const BEARER: &str = "bearer token";
/// `scheme://user:password@host`.
pub const URL_CREDENTIALS: &str = "credentials in a URL";

/// Structured parsing is only tried on blobs up to this size.
const MAX_STRUCTURED: usize = 4 << 20;

/// The kinds of secret in `data`.
pub fn detect(data: &[u8]) -> Vec<&'static str> {
    let text = String::from_utf8_lossy(data);
    let mut kinds = Vec::new();
    if has_private_key(&text) {
        kinds.push(PRIVATE_KEY);
    }
    if is_kubeconfig_with_credentials(&text) {
        kinds.push(KUBECONFIG);
    }
    if is_pull_secret(&text) {
        kinds.push(PULL_SECRET);
    }
    if has_jwt(&text) {
        kinds.push(JWT);
    }
    if has_bearer_token(&text) {
        kinds.push(BEARER);
    }
    if has_url_credentials(&text) {
        kinds.push(URL_CREDENTIALS);
    }
    kinds
}

/// Any PEM block whose label says PRIVATE KEY (RSA, EC, PKCS#8, encrypted, OpenSSH, PGP
/// "PRIVATE KEY BLOCK"), and PuTTY key files.
fn has_private_key(text: &str) -> bool {
    text.contains("PuTTY-User-Key-File-")
        || text.split("-----BEGIN ").skip(1).any(|rest| {
            rest.split_once("-----")
                .is_some_and(|(label, _)| label.len() < 64 && label.contains("PRIVATE KEY"))
        })
}

/// A kubeconfig by structure: a YAML or JSON mapping that is `kind: Config` or has `users`,
/// where some user has a token, a client key, a password or an auth provider's tokens. No
/// `clusters` or `contexts` are needed. Text that is not one document (a kubeconfig inside a
/// script) falls back to looking for credential keys beside `users:`.
fn is_kubeconfig_with_credentials(text: &str) -> bool {
    if !text.contains("user") {
        return false;
    }
    if text.len() <= MAX_STRUCTURED
        && let Ok(docs) = crate::kube::yaml::documents(text, "")
        && let [doc] = docs.as_slice()
        && let v = &doc.value
        && v.is_object()
    {
        let is_config = v["kind"].as_str() == Some("Config") || v.get("users").is_some();
        return is_config
            && v["users"]
                .as_array()
                .into_iter()
                .flatten()
                .any(|u| user_has_credentials(&u["user"]));
    }
    let has = |k: &str| {
        text.lines().any(|l| {
            let t = l.trim_start().trim_start_matches("- ");
            t.strip_prefix(&format!("{k}:"))
                .is_some_and(|v| !v.trim().is_empty())
                || t.strip_prefix(&format!("\"{k}\":"))
                    .is_some_and(|v| !v.trim().trim_matches(',').trim_matches('"').is_empty())
        })
    };
    text.contains("users") && (has("token") || has("client-key-data") || has("password"))
}

fn user_has_credentials(u: &Value) -> bool {
    let set = |k: &str| u[k].as_str().is_some_and(|s| !s.trim().is_empty());
    set("token")
        || set("client-key-data")
        || set("password")
        || u["auth-provider"]["config"].as_object().is_some_and(|c| {
            c.keys()
                .any(|k| k.contains("token") || k.contains("secret"))
        })
}

/// `{"auths": {"registry": {"auth": "…"}}}` (or `password`), or the older `.dockercfg` form
/// without `auths`.
fn is_pull_secret(text: &str) -> bool {
    let t = text.trim();
    if !t.starts_with('{') || t.len() > MAX_STRUCTURED {
        return false;
    }
    let Ok(v) = serde_json::from_str::<Value>(t) else {
        return false;
    };
    let registries = v
        .get("auths")
        .and_then(Value::as_object)
        .or_else(|| v.as_object());
    registries.is_some_and(|r| {
        r.values().any(|e| {
            ["auth", "password", "identitytoken"]
                .iter()
                .any(|k| e[*k].as_str().is_some_and(|s| !s.is_empty()))
        })
    })
}

/// Three base64url parts (`header.payload.signature`) whose header decodes to a JSON object
/// with `alg`: service-account tokens and other JWTs.
fn has_jwt(text: &str) -> bool {
    let b64 = base64::engine::general_purpose::URL_SAFE_NO_PAD;
    text.split(|c: char| !(c.is_ascii_alphanumeric() || "-_.".contains(c)))
        .filter(|w| w.starts_with("eyJ") && w.len() >= 20)
        .any(|w| {
            let parts: Vec<&str> = w.split('.').collect();
            parts.len() == 3
                && !parts[1].is_empty()
                && b64
                    .decode(parts[0])
                    .ok()
                    .and_then(|h| serde_json::from_slice::<Value>(&h).ok())
                    .is_some_and(|h| h.get("alg").is_some())
        })
}

/// `Bearer <16+ characters>`, or an mcsctl provisioning token (`<id>.<43 base64url>`).
fn has_bearer_token(text: &str) -> bool {
    let mut rest = text;
    while let Some(i) = rest.find("Bearer ") {
        let after = &rest[i + 7..];
        let tok: String = after
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || "-._~+/=".contains(*c))
            .collect();
        if tok.len() >= 16 && !tok.starts_with('$') {
            return true;
        }
        rest = after;
    }
    text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '.' || c == '-' || c == '_'))
        .any(|w| {
            w.split_once('.').is_some_and(|(id, s)| {
                crate::token::is_token_id(id)
                    && s.len() == 43
                    && s.bytes()
                        .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
            })
        })
}

/// `scheme://user:password@host`: a user alone (`ssh://git@host`) is not a credential.
fn has_url_credentials(text: &str) -> bool {
    let mut rest = text;
    while let Some(i) = rest.find("://") {
        let after = &rest[i + 3..];
        let authority: &str = after
            .split(|c: char| "/?#\"' \t\r\n<>`".contains(c))
            .next()
            .unwrap_or_default();
        if let Some((userinfo, host)) = authority.rsplit_once('@')
            && !host.is_empty()
            && userinfo
                .split_once(':')
                .is_some_and(|(u, p)| !u.is_empty() && !p.is_empty() && !p.starts_with('$'))
        {
            return true;
        }
        rest = after;
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    fn has(text: &str, kind: &str) -> bool {
        detect(text.as_bytes()).contains(&kind)
    }

    #[test]
    fn private_keys_of_every_kind() {
        for label in [
            "PRIVATE KEY",
            "RSA PRIVATE KEY",
            "EC PRIVATE KEY",
            "ENCRYPTED PRIVATE KEY",
            "OPENSSH PRIVATE KEY",
            "PGP PRIVATE KEY BLOCK",
        ] {
            let pem = format!("-----BEGIN {label}-----\nAAAA\n-----END {label}-----\n");
            assert!(has(&pem, PRIVATE_KEY), "{label}");
        }
        assert!(has("PuTTY-User-Key-File-3: ssh-ed25519\n", PRIVATE_KEY));
        assert!(!has(
            "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n",
            PRIVATE_KEY
        ));
        assert!(!has("-----BEGIN PUBLIC KEY-----\nAAAA\n", PRIVATE_KEY));
    }

    #[test]
    fn kubeconfigs_by_structure() {
        // A token with no clusters or contexts at all.
        assert!(has(
            "apiVersion: v1\nkind: Config\nusers:\n- name: u\n  user:\n    token: abc\n",
            KUBECONFIG
        ));
        assert!(has(
            r#"{"kind":"Config","users":[{"name":"u","user":{"client-key-data":"LS0t"}}]}"#,
            KUBECONFIG
        ));
        assert!(has(
            "users:\n- name: u\n  user:\n    auth-provider:\n      config:\n        id-token: x\n",
            KUBECONFIG
        ));
        // Credentials-free kubeconfigs and other YAML are not.
        assert!(!has(
            "kind: Config\nusers:\n- name: u\n  user:\n    exec: {command: oc}\n",
            KUBECONFIG
        ));
        assert!(!has("kind: Config\nusers: []\nclusters: []\n", KUBECONFIG));
        assert!(!has("users:\n  - alice\n", KUBECONFIG));
        // Inside a script: the fallback.
        assert!(has(
            "#!/bin/sh\ncat > /root/kc <<EOF\nusers:\n- user:\n    token: abc\nEOF\nexit 0\n: {\n",
            KUBECONFIG
        ));
    }

    #[test]
    fn pull_secrets_jwts_bearers_and_url_credentials() {
        assert!(has(
            r#"{"auths":{"quay.io":{"auth":"dXNlcjpwYXNz"}}}"#,
            PULL_SECRET
        ));
        assert!(has(
            r#"{"quay.io":{"auth":"dXNlcjpwYXNz","email":"a@b"}}"#,
            PULL_SECRET
        ));
        assert!(!has(r#"{"auths":{"quay.io":{}}}"#, PULL_SECRET));
        let sa = "eyJhbGciOiJSUzI1NiIsImtpZCI6IjEyMyJ9.eyJzdWIiOiJzeXN0ZW06c2VydmljZWFjY291bnQ6ZGVmYXVsdDpkZWZhdWx0In0.c2lnbmF0dXJl";
        assert!(has(&format!("TOKEN={sa}\n"), JWT));
        assert!(!has("eyJub3QiOiJhIGp3dCJ9.eyJ4IjoxfQ.sig", JWT), "no alg");
        assert!(has("Authorization: Bearer abcdefghijklmnopqrstu\n", BEARER));
        assert!(!has("Authorization: Bearer $TOKEN\n", BEARER));
        assert!(has(
            "x aaaaaa.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA y",
            BEARER
        ));
        assert!(has(
            "https://user:s3cret@registry.example.com/v2/",
            URL_CREDENTIALS
        ));
        assert!(has("proxy=http://u:p@proxy:3128", URL_CREDENTIALS));
        assert!(!has("ssh://git@github.com/org/repo", URL_CREDENTIALS));
        assert!(!has(
            "https://registry.example.com/v2/?user=a:b@c",
            URL_CREDENTIALS
        ));
        assert!(!has("http://$USER:$PASS@host", URL_CREDENTIALS));
        assert!(detect(b"nothing to see here\n").is_empty());
    }
}
