//! Many keys at once: the fetch records read a page at a time, and writes of up to [`BATCH`]
//! keys in one transaction (`ledger import`).

use anyhow::{Result, anyhow};
use etcd_client::{Compare, CompareOp, GetOptions, PutOptions, Txn, TxnOp, TxnOpResponse};

use super::{FETCHES, Store, claims, prefix_end};
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

impl Store {
    /// Sorts out the records still `false` in `out` (`open`: index, token, claim): being sent
    /// while their holder lives; else as their token's state settles them at `now`.
    async fn settle_open(
        &self,
        out: &mut [Record],
        open: Vec<(usize, String, String)>,
        now: i64,
    ) -> Result<()> {
        if open.is_empty() {
            return Ok(());
        }
        let live = self.live_holders().await.map_err(|e| anyhow!(e))?;
        let mut states: std::collections::HashMap<String, claims::TokenState> = Default::default();
        for (i, token, claim) in open {
            let held = super::holders::holder_of(&claim).is_some_and(|h| live.contains(h));
            if held {
                continue;
            }
            if !states.contains_key(&token) {
                let s = claims::read(self, &token, now)
                    .await
                    .map_err(|e| anyhow!(e))?;
                states.insert(token.clone(), s);
            }
            let s = &states[&token];
            if s.sending.iter().any(|x| x.claim == claim) {
                // A claim of protocol 1, still young: being sent.
                continue;
            }
            let rec = &mut out[i];
            match s.records.iter().find(|(c, _)| *c == claim) {
                Some((_, text)) => {
                    rec.cut = crate::ledger::text_is_cut(text);
                    rec.unknown = crate::ledger::text_is_unknown(text);
                }
                // Neither being sent nor settled now, its record never rewritten: a fetch of a
                // token with unlimited uses whose replica died (nothing to spend), or one that
                // protocol 1 counted cut by its age. It ended.
                None => rec.cut = true,
            }
        }
        Ok(())
    }

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

    /// Every key under `rel` (a prefix of the cluster's), `page` at a time, in key order: each
    /// page is given to `each` as it comes, so no answer grows past gRPC's 4 MiB.
    pub(crate) async fn pages(
        &self,
        rel: &str,
        page: i64,
        mut each: impl FnMut(&[etcd_client::KeyValue]),
    ) -> Result<()> {
        let prefix = self.key(rel);
        let end = prefix_end(&prefix);
        let mut from = prefix.into_bytes();
        loop {
            let r = self
                .kv(|mut kv| {
                    let (key, end) = (from.clone(), end.clone());
                    let o = GetOptions::new().with_range(end).with_limit(page);
                    async move { kv.get(key, Some(o)).await }
                })
                .await
                .map_err(|e| anyhow!(e))?;
            each(r.kvs());
            let Some(last) = r.kvs().last() else { break };
            if !r.more() {
                break;
            }
            from = last.key().to_vec();
            from.push(0);
        }
        Ok(())
    }

    /// Every fetch record, oldest first, each as it stands at `now` (Unix seconds): a record
    /// still `false` whose holder is gone is read as its claim settles (cut, or unknown), by
    /// the claim protocol's rule, without writing anything.
    pub async fn records(&self, now: i64) -> Result<Vec<Record>> {
        let prefix = self.key(FETCHES);
        let mut out = Vec::new();
        let mut skipped = 0usize;
        // Records still `false`: (index in `out`, token, claim).
        let mut open: Vec<(usize, String, String)> = Vec::new();
        // A page at a time: a token with tens of thousands of fetches must not make one answer
        // past gRPC's 4 MiB.
        self.pages(FETCHES, PAGE, |kvs| {
            for kv in kvs {
                // Only `fetches/<token>/<claim>` holding a record is ours: another prefix
                // nested inside this one (`--store-prefix`) has keys here too.
                let rel = String::from_utf8_lossy(&kv.key()[prefix.len()..]).into_owned();
                let Some((token, claim)) = rel.split_once('/').filter(|(_, c)| !c.contains('/'))
                else {
                    skipped += 1;
                    continue;
                };
                let text = String::from_utf8_lossy(kv.value());
                match serde_json::from_str::<Record>(&text) {
                    Ok(mut rec) => {
                        rec.cut = crate::ledger::text_is_cut(&text);
                        rec.unknown = crate::ledger::text_is_unknown(&text);
                        // An imported record still `false` was cut (or being sent) in its file,
                        // long ago: its fetch ended.
                        if claim.starts_with("import-") && !rec.whole && !rec.unknown {
                            rec.cut = true;
                        }
                        if !rec.whole && !rec.cut && !rec.unknown {
                            open.push((out.len(), token.to_string(), claim.to_string()));
                        }
                        out.push(rec);
                    }
                    Err(_) => skipped += 1,
                }
            }
        })
        .await?;
        self.settle_open(&mut out, open, now).await?;
        if skipped > 0 {
            log::info!(
                "skipped {skipped} key(s) under {prefix} that are not fetch records of this cluster"
            );
        }
        out.sort_by(|a, b| a.time.cmp(&b.time));
        Ok(out)
    }
}
