//! Many keys at once: the fetch records read a page at a time, and writes of up to [`BATCH`]
//! keys in one transaction (`ledger import`).

use anyhow::{Result, anyhow};
use etcd_client::{Compare, CompareOp, GetOptions, PutOptions, Txn, TxnOp, TxnOpResponse};

use super::{FETCHES, Store, claims};
use crate::ledger::Record;

/// At most this many keys in one transaction (etcd's default `--max-txn-ops`).
pub const BATCH: usize = 128;

/// One write of [`Store::write_batch`].
#[derive(Debug, Clone)]
pub struct BatchPut {
    /// The key, relative to the prefix.
    pub rel: String,
    /// The value.
    pub value: Vec<u8>,
    /// Replace what is there; else write only where the key is absent.
    pub replace: bool,
}

/// One transaction on a client of its own.
async fn kv_txn(
    mut kv: etcd_client::KvClient,
    t: Txn,
) -> Result<etcd_client::TxnResponse, etcd_client::Error> {
    kv.txn(t).await
}

/// Keys read in one request.
const PAGE: i64 = 1000;

/// The first key after every key starting with `prefix` (etcd's range end for a prefix).
fn prefix_end(prefix: &str) -> Vec<u8> {
    let mut end = prefix.as_bytes().to_vec();
    while let Some(b) = end.pop() {
        if b < 0xff {
            end.push(b + 1);
            return end;
        }
    }
    vec![0]
}

impl Store {
    /// Writes `puts` (at most [`BATCH`]): each `replace` one whatever is there, each other only
    /// where its key is absent; one round trip when none of those is there (a first import), two
    /// when some are. Returns how many keys were new. With `dry`, writes nothing and returns
    /// how many would be.
    pub async fn write_batch(&self, puts: &[BatchPut], dry: bool) -> Result<usize, String> {
        let get = |p: &BatchPut| {
            let o = GetOptions::new().with_keys_only().with_count_only();
            TxnOp::get(self.key(&p.rel), Some(o))
        };
        let absent = |r: &TxnOpResponse| matches!(r, TxnOpResponse::Get(g) if g.count() == 0);
        if dry {
            let t = Txn::new().and_then(puts.iter().map(get).collect::<Vec<_>>());
            let r = self.kv(|kv| kv_txn(kv, t.clone())).await?;
            return Ok(r.op_responses().iter().filter(|r| absent(r)).count());
        }
        let put = |p: &BatchPut| {
            let o = p.replace.then(|| PutOptions::new().with_prev_key());
            TxnOp::put(self.key(&p.rel), p.value.clone(), o)
        };
        let (replace, mut only): (Vec<&BatchPut>, Vec<&BatchPut>) =
            puts.iter().partition(|p| p.replace);
        let mut added = 0;
        // Replaced keys are written by the first transaction, whichever branch it takes.
        let mut first = true;
        for _ in 0..claims::ATTEMPTS {
            let always: Vec<TxnOp> = if first {
                replace.iter().map(|p| put(p)).collect()
            } else {
                Vec::new()
            };
            let n = always.len();
            let t = Txn::new()
                .when(
                    only.iter()
                        .map(|p| Compare::version(self.key(&p.rel), CompareOp::Equal, 0))
                        .collect::<Vec<_>>(),
                )
                .and_then(
                    always
                        .iter()
                        .cloned()
                        .chain(only.iter().map(|p| put(p)))
                        .collect::<Vec<_>>(),
                )
                .or_else(
                    always
                        .into_iter()
                        .chain(only.iter().map(|p| get(p)))
                        .collect::<Vec<_>>(),
                );
            let r = self.kv(|kv| kv_txn(kv, t.clone())).await?;
            let ops = r.op_responses();
            added += ops[..n.min(ops.len())]
                .iter()
                .filter(|o| matches!(o, TxnOpResponse::Put(p) if p.prev_key().is_none()))
                .count();
            first = false;
            if r.succeeded() {
                return Ok(added + only.len());
            }
            // Those already there stay as they are; the absent ones are tried again.
            only = only
                .into_iter()
                .zip(ops.iter().skip(n))
                .filter(|(_, o)| absent(o))
                .map(|(p, _)| p)
                .collect();
            if only.is_empty() {
                return Ok(added);
            }
        }
        Err(format!(
            "the store {}: other writers kept changing the keys being imported",
            self.url
        ))
    }

    /// Every fetch record, oldest first.
    pub async fn records(&self) -> Result<Vec<Record>> {
        let prefix = self.key(FETCHES);
        let end = prefix_end(&prefix);
        let mut from = prefix.clone().into_bytes();
        let mut out = Vec::new();
        let mut skipped = 0usize;
        // A page at a time: a token with tens of thousands of fetches must not make one answer
        // past gRPC's 4 MiB.
        loop {
            let r = self
                .kv(|mut kv| {
                    let (key, end) = (from.clone(), end.clone());
                    let o = GetOptions::new().with_range(end).with_limit(PAGE);
                    async move { kv.get(key, Some(o)).await }
                })
                .await
                .map_err(|e| anyhow!(e))?;
            for kv in r.kvs() {
                // Only `fetches/<token>/<claim>` holding a record is ours: another prefix
                // nested inside this one (`--store-prefix`) has keys here too.
                let rel = &kv.key()[prefix.len()..];
                let ours = rel.iter().filter(|b| **b == b'/').count() == 1;
                match serde_json::from_slice::<Record>(kv.value()) {
                    Ok(rec) if ours => out.push(rec),
                    _ => skipped += 1,
                }
            }
            let Some(last) = r.kvs().last() else { break };
            if !r.more() {
                break;
            }
            from = last.key().to_vec();
            from.push(0);
        }
        if skipped > 0 {
            log::info!(
                "skipped {skipped} key(s) under {prefix} that are not fetch records of this cluster"
            );
        }
        out.sort_by(|a, b| a.time.cmp(&b.time));
        Ok(out)
    }
}
