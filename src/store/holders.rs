//! The replicas serving from the store, each one process under an etcd lease it keeps alive:
//! `holders/<holder>` is written under that lease, so it exists exactly while the lease does,
//! and the lease ends by etcd's own clock when the process stops renewing it (killed, paused,
//! cut off from the members). Whether a claim's holder is gone is asked of that key, never
//! decided by comparing wall clocks or flags of two replicas.
//!
//! Invariant the claim protocol relies on ([`super::claims`]): a holder key, once gone, never
//! comes back. A holder's id carries a 64-bit random nonce, and a process whose lease ended
//! registers again under a new id; so "gone" read once stays true.
//!
//! A holder's value says what its claims are decided by ([`Registration`]): a replica refuses
//! to register beside a live one that decides otherwise.

use std::collections::HashSet;
use std::time::Duration;

use etcd_client::{Compare, CompareOp, GetOptions, PutOptions, Txn, TxnOp, TxnOpResponse};
use serde::{Deserialize, Serialize};

use super::Store;

/// Where the holders live, under the prefix.
pub const HOLDERS: &str = "holders/";

/// The claim protocol this mcsctl speaks: 2 has leased holders and the end mark (1 judged a
/// claim by its age). A replica refuses to start beside one speaking another.
pub const PROTOCOL: u32 = 2;

/// How long a holder's lease lives without being renewed (`serve --store-lease`'s default).
pub const DEFAULT_LEASE: Duration = Duration::from_secs(10);

/// The shortest lease etcd grants with its default election timeout.
pub const MIN_LEASE: Duration = Duration::from_secs(2);

/// What a replica's claims are decided by: every replica of a store must agree on it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Registration {
    /// The replica's name (its ledger's).
    pub replica: String,
    /// [`PROTOCOL`].
    pub protocol: u32,
    /// `--max-partial-fetches`.
    pub max_partial_fetches: u32,
}

/// A registered replica process: its id (the prefix of its claims) and its lease.
#[derive(Debug, Clone)]
pub struct Holder {
    /// `<replica>-<nonce>`.
    pub id: String,
    /// The etcd lease its key lives under.
    pub lease: i64,
}

/// Why a replica could not register.
#[derive(Debug)]
pub enum Unregistered {
    /// A live replica decides claims otherwise: what it and this one say.
    Differs(String),
    /// The store did not answer, or refused.
    Store(String),
}

/// The key of holder `id`.
pub fn holder_key(id: &str) -> String {
    format!("{HOLDERS}{id}")
}

/// The holder of claim `claim` (`<holder>-<n>`), if it is one a holder made.
pub fn holder_of(claim: &str) -> Option<&str> {
    claim.rsplit_once('-').map(|(h, _)| h)
}

impl Store {
    /// Registers holder `id` with `reg` under a new lease of `ttl`, unless a live holder's
    /// registration decides claims otherwise (protocol, `--max-partial-fetches`). The check
    /// and the write are one transaction: a holder registered in between makes it read again.
    pub async fn register(
        &self,
        id: &str,
        reg: &Registration,
        ttl: Duration,
    ) -> Result<Holder, Unregistered> {
        let prefix = self.key(HOLDERS);
        let end = super::prefix_end(&prefix);
        let lease = self
            .client
            .lease_client()
            .grant(ttl.as_secs().max(1) as i64, None)
            .await
            .map_err(|e| Unregistered::Store(self.describe(&e)))?
            .id();
        let value = serde_json::to_vec(reg).expect("a registration serialises");
        for _ in 0..super::claims::ATTEMPTS {
            let r = self
                .kv(|mut kv| {
                    let (key, end) = (prefix.clone(), end.clone());
                    async move { kv.get(key, Some(GetOptions::new().with_range(end))).await }
                })
                .await
                .map_err(Unregistered::Store)?;
            let at = r.header().map_or(0, |h| h.revision());
            for kv in r.kvs() {
                // A value that is no registration is not a replica's (`--store-prefix` nested).
                let Ok(other) = serde_json::from_slice::<Registration>(kv.value()) else {
                    continue;
                };
                if other.protocol != reg.protocol
                    || other.max_partial_fetches != reg.max_partial_fetches
                {
                    let _ = self.release(lease).await;
                    let them = String::from_utf8_lossy(&kv.key()[prefix.len()..]).into_owned();
                    return Err(Unregistered::Differs(format!(
                        "replica {} (holder {}) serves from this store with claim protocol {} and --max-partial-fetches {}; this one has {} and {}: every replica of a store must decide fetches alike (restart them all with the same flags and mcsctl version)",
                        crate::escape::field(&other.replica),
                        crate::escape::field(&them),
                        other.protocol,
                        other.max_partial_fetches,
                        reg.protocol,
                        reg.max_partial_fetches
                    )));
                }
            }
            let t = Txn::new()
                .when([
                    Compare::mod_revision(prefix.clone(), CompareOp::Less, at + 1)
                        .with_range(end.clone()),
                ])
                .and_then([TxnOp::put(
                    self.key(&holder_key(id)),
                    value.clone(),
                    Some(PutOptions::new().with_lease(lease)),
                )]);
            let done = self
                .kv(|mut kv| {
                    let t = t.clone();
                    async move { kv.txn(t).await.map(|r| r.succeeded()) }
                })
                .await
                .map_err(Unregistered::Store)?;
            if done {
                return Ok(Holder {
                    id: id.to_string(),
                    lease,
                });
            }
        }
        let _ = self.release(lease).await;
        Err(Unregistered::Store(
            "other replicas kept registering at the same moment; try again".into(),
        ))
    }

    /// Renews `lease` once: `Ok(false)` when it has ended (the holder is gone for good).
    pub async fn renew(&self, lease: i64) -> Result<bool, String> {
        let mut lc = self.client.lease_client();
        match tokio::time::timeout(super::REQUEST_TIMEOUT, lc.keep_alive(lease)).await {
            Err(_) => Err(format!(
                "the store {} did not answer: renewing the lease timed out",
                self.url
            )),
            Ok(Ok(_)) => Ok(true),
            Ok(Err(etcd_client::Error::LeaseKeepAliveError(_))) => Ok(false),
            Ok(Err(e)) if e.to_string().contains("requested lease not found") => Ok(false),
            Ok(Err(e)) => Err(self.describe(&e)),
        }
    }

    /// Ends `lease` (its holder key goes with it).
    pub async fn release(&self, lease: i64) -> Result<(), String> {
        let mut lc = self.client.lease_client();
        match lc.revoke(lease).await {
            Ok(_) => Ok(()),
            Err(e) if e.to_string().contains("requested lease not found") => Ok(()),
            Err(e) => Err(self.describe(&e)),
        }
    }

    /// Which of `ids` are alive (one transaction, a consistent read of them all).
    pub async fn alive(&self, ids: &[&str]) -> Result<HashSet<String>, String> {
        if ids.is_empty() {
            return Ok(HashSet::new());
        }
        let ops: Vec<TxnOp> = ids
            .iter()
            .map(|id| {
                let o = GetOptions::new().with_keys_only().with_count_only();
                TxnOp::get(self.key(&holder_key(id)), Some(o))
            })
            .collect();
        let t = Txn::new().and_then(ops);
        let r = self
            .kv(|mut kv| {
                let t = t.clone();
                async move { kv.txn(t).await }
            })
            .await?;
        Ok(ids
            .iter()
            .zip(r.op_responses())
            .filter(|(_, o)| matches!(o, TxnOpResponse::Get(g) if g.count() > 0))
            .map(|(id, _)| id.to_string())
            .collect())
    }

    /// Every live holder (readers sort the records out by it).
    pub async fn live_holders(&self) -> Result<HashSet<String>, String> {
        let prefix = self.key(HOLDERS);
        let end = super::prefix_end(&prefix);
        let r = self
            .kv(|mut kv| {
                let (key, end) = (prefix.clone(), end.clone());
                let o = GetOptions::new().with_range(end).with_keys_only();
                async move { kv.get(key, Some(o)).await }
            })
            .await?;
        Ok(r.kvs()
            .iter()
            .map(|kv| String::from_utf8_lossy(&kv.key()[prefix.len()..]).into_owned())
            .collect())
    }
}
