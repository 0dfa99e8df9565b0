//! The published auth state (`auth/tokens`) as the token and machine commands read and write
//! it: read before a change (a store that cannot be read changes nothing), written by one
//! compare-and-swap on the revision read, so a publish from elsewhere in between is never
//! overwritten unseen ([`crate::ops::publish`] reconciles the two).

use anyhow::Result;
use etcd_client::GetOptions;

use super::{AUTH_TOKENS, Options, Store, Swap, blocking};
use crate::token::Published;

/// What the store holds now.
#[derive(Debug)]
pub struct Held {
    /// The published state, if anything was published.
    pub published: Option<Published>,
    /// Its revision (0: nothing published).
    pub revision: i64,
}

/// Where every directory that publishes registers its prefix (outside any prefix a directory
/// may have): the one place a prefix nesting another is seen.
pub const PREFIXES: &str = "/mcsctl-prefixes/";

/// The published state (`o` carries its prefix: [`crate::cli::StoreArgs::target`]) for the
/// directory `owner`; refused when its prefix nests with another directory's.
pub fn read(o: &Options, owner: &str) -> Result<Held> {
    let v = blocking(async {
        let s = Store::connect(o, "").await?;
        if s.prefix.starts_with(PREFIXES) {
            anyhow::bail!("--store-prefix {} is where mcsctl registers prefixes; choose another", s.prefix);
        }
        if let Some((theirs, who)) = nesting(&s, owner).await.map_err(anyhow::Error::msg)? {
            anyhow::bail!(
                "the prefix {} nests with {theirs}, where asset directory {who} publishes its tokens: one directory's keys would be read as the other's. Give prefixes that do not contain each other",
                s.prefix
            );
        }
        s.get(AUTH_TOKENS).await.map_err(anyhow::Error::msg)
    })
    .map_err(|e| anyhow::anyhow!("{e:#}: nothing changed"))?;
    let what = format!("the tokens published in the store {}", o.url);
    Ok(Held {
        published: (v.revision > 0)
            .then(|| Published::parse(&v.value, &what))
            .transpose()?,
        revision: v.revision,
    })
}

/// Writes `p` as the published state if it is still at `revision`, and registers the prefix
/// as its owner's.
pub fn write(o: &Options, p: &Published, revision: i64) -> Result<Swap> {
    let bytes = serde_json::to_vec(p)?;
    blocking(async {
        let s = Store::connect(o, "").await?;
        let done = s
            .swap(AUTH_TOKENS, revision, None, &[(AUTH_TOKENS, &bytes)])
            .await
            .map_err(anyhow::Error::msg)?;
        if let (Swap::Done, Some(owner)) = (done, &p.owner) {
            let entry = serde_json::json!({"prefix": s.prefix, "owner": owner}).to_string();
            let key = format!(
                "{PREFIXES}{}",
                crate::hex::encode(&crate::token::digest(&s.prefix))
            );
            s.kv(|mut kv| {
                let (key, entry) = (key.clone(), entry.clone());
                async move { kv.put(key, entry, None).await.map(|_| ()) }
            })
            .await
            .map_err(anyhow::Error::msg)?;
        }
        Ok(done)
    })
}

/// Another directory's registered prefix that nests with this store's (one holds the
/// other), and its owner.
async fn nesting(s: &Store, owner: &str) -> Result<Option<(String, String)>, String> {
    let r = s
        .kv(|mut kv| async move {
            kv.get(
                PREFIXES,
                Some(GetOptions::new().with_prefix().with_limit(10_000)),
            )
            .await
        })
        .await?;
    Ok(r.kvs().iter().find_map(|kv| {
        let v: serde_json::Value = serde_json::from_slice(kv.value()).ok()?;
        let (theirs, who) = (v["prefix"].as_str()?, v["owner"].as_str()?);
        // Printed in the refusal: only what mcsctl writes there.
        if !crate::token::is_directory_id(who) || theirs.chars().any(char::is_control) {
            return None;
        }
        let nests =
            theirs != s.prefix && (theirs.starts_with(&s.prefix) || s.prefix.starts_with(theirs));
        (nests && who != owner).then(|| (theirs.to_string(), who.to_string()))
    }))
}
