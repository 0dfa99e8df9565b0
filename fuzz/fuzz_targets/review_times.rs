//! Times as `csr review` reads them (issue 45, point 4): CSRs' creation and approval times as
//! their JSON writes them, a machine's whole fetches, the review's `--now`, the window and the
//! clock-skew tolerance, each anywhere in the range the time type holds (years -9999 to 9999,
//! the ends most of all). The rules, the evidence and the clock warnings decide; none panics.
#![no_main]
use libfuzzer_sys::fuzz_target;
use mcsctl::csr::evidence::{Evidence, Registered, clock_warnings};
use mcsctl::csr::{self, Context};
use time::{Duration, OffsetDateTime};

/// A client CSR for system:node:w0 (openssl, P-256); its key is not kept anywhere.
const REQUEST: &str = "-----BEGIN CERTIFICATE REQUEST-----\nMIHqMIGSAgEAMDAxFTATBgNVBAoMDHN5c3RlbTpub2RlczEXMBUGA1UEAwwOc3lz\ndGVtOm5vZGU6dzAwWTATBgcqhkjOPQIBBggqhkjOPQMBBwNCAAQgdckeYOe2udV/\nqjM+cLeeP1h39bPaOkP7e49dHFz7fMRLDfExrViU6FRACF6T+WHTWH2WNfwg5ltB\n16yhE6DsoAAwCgYIKoZIzj0EAwIDRwAwRAIgcG3qdHpqLRg1MSyFIIOg12owGLNY\nxo4AZNVmuD2mz/0CICFoKQoG4IYEtp3rC8TjXzRg3Toh+4EgazC4DsfiNwoL\n-----END CERTIFICATE REQUEST-----\n";

/// Reads the input eight bytes at a time.
struct Input<'a>(&'a [u8]);

impl Input<'_> {
    fn i64(&mut self) -> i64 {
        let (head, rest) = self.0.split_at(self.0.len().min(8));
        self.0 = rest;
        let mut b = [0u8; 8];
        b[..head.len()].copy_from_slice(head);
        i64::from_le_bytes(b)
    }

    /// A time within the type's range: the first byte picks an end of it, or any time.
    fn time(&mut self) -> OffsetDateTime {
        let (min, max) = (
            time::PrimitiveDateTime::MIN.assume_utc(),
            time::PrimitiveDateTime::MAX.assume_utc(),
        );
        let n = self.i64();
        match n & 3 {
            0 => min + Duration::seconds((n >> 2).rem_euclid(86_400 * 400)),
            1 => max - Duration::seconds((n >> 2).rem_euclid(86_400 * 400)),
            _ => {
                let span = max.unix_timestamp() - min.unix_timestamp();
                OffsetDateTime::from_unix_timestamp(min.unix_timestamp() + (n >> 2).rem_euclid(span))
                    .unwrap_or(min)
            }
        }
    }

    /// A duration of at most 1,000 years either way (the most a flag takes).
    fn duration(&mut self) -> Duration {
        Duration::seconds(self.i64().rem_euclid(2 * 1000 * 365 * 86_400) - 1000 * 365 * 86_400)
    }
}

fn rfc3339(t: OffsetDateTime) -> String {
    t.format(&time::format_description::well_known::Rfc3339)
        .unwrap_or_default()
}

fuzz_target!(|data: &[u8]| {
    let mut input = Input(data);
    let (created, approved, now) = (input.time(), input.time(), input.time());
    let fetches = [input.time(), input.time()];
    let (window, skew) = (input.duration(), input.duration());
    // The CSRs as `oc get csr -o json` writes them, read by the one CSR reader.
    let list = serde_json::json!({"kind": "List", "items": [
        {"kind": "CertificateSigningRequest", "metadata": {"name": "a", "creationTimestamp": rfc3339(created)},
         "spec": {"request": base64(REQUEST), "signerName": csr::CLIENT_SIGNER, "username": csr::BOOTSTRAPPER,
                  "groups": csr::BOOTSTRAPPER_GROUPS, "usages": ["digital signature", "client auth"]},
         "status": {}},
        {"kind": "CertificateSigningRequest", "metadata": {"name": "b", "creationTimestamp": rfc3339(approved)},
         "spec": {"request": base64(REQUEST), "signerName": csr::CLIENT_SIGNER, "username": csr::BOOTSTRAPPER,
                  "groups": csr::BOOTSTRAPPER_GROUPS, "usages": ["digital signature", "client auth"]},
         "status": {"conditions": [{"type": "Approved", "status": "True", "lastTransitionTime": rfc3339(approved),
                                    "message": "approved"}]}}
    ]});
    let Ok(csrs) = csr::kube::csrs(&list.to_string(), "fuzz.json") else {
        return;
    };
    let ev = Evidence {
        machines: vec![Registered {
            name: "w0".into(),
            addresses: vec!["192.0.2.5".parse().unwrap()],
            fetches: fetches
                .iter()
                .map(|t| (*t, "192.0.2.5".parse().unwrap()))
                .collect(),
            cut: 1,
        }],
        window,
        skew,
    };
    let mut ctx = Context::at(now);
    ctx.machines = ev.hosts();
    for c in &csrs {
        let _ = csr::prefilter(c, now);
    }
    let _ = csr::recently_pending(&csrs, now);
    let _ = csr::review(&csrs, &ctx);
    let _ = mcsctl::csr::evidence::review(&csrs, &ctx, &ev);
    let _ = clock_warnings(&csrs, &ev, now);
});

fn base64(s: &str) -> String {
    const T: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let b = s.as_bytes();
    let mut out = String::new();
    for c in b.chunks(3) {
        let n = (c[0] as u32) << 16 | (*c.get(1).unwrap_or(&0) as u32) << 8 | *c.get(2).unwrap_or(&0) as u32;
        for i in 0..4 {
            if i <= c.len() {
                out.push(T[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}
