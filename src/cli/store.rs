//! `--store` and what reaching it takes: on serve, `csr review` and `machine list`.

use std::path::PathBuf;

use clap::Args;

use crate::model::config::StoreRecord;
use crate::store::StoreUrl;

/// The store serve replicas share.
#[derive(Debug, Clone, Default, Args)]
pub struct StoreArgs {
    /// The etcd cluster serve replicas share (etcd://HOST:PORT[,HOST:PORT...]): each machine
    /// token's fetches are claimed there in one transaction, so a single-use token is served
    /// once across replicas, and their records are the evidence `csr review` and `machine
    /// list` read. Without it, this replica's ledger file.
    #[arg(long, value_name = "etcd://HOST:PORT,...", value_parser = clap::value_parser!(StoreUrl))]
    pub store: Option<StoreUrl>,

    /// The CA that signed the etcd members' serving certificates (PEM): the store is reached
    /// over TLS.
    #[arg(long, value_name = "FILE", requires = "store")]
    pub store_ca: Option<PathBuf>,

    /// A client certificate for the etcd members (PEM; with --store-key and --store-ca).
    #[arg(long, value_name = "FILE", requires_all = ["store", "store_key", "store_ca"])]
    pub store_cert: Option<PathBuf>,

    /// The client certificate's key (PEM).
    #[arg(long, value_name = "FILE", requires_all = ["store", "store_cert"])]
    pub store_key: Option<PathBuf>,

    /// The key prefix of this cluster in the store (default /mcsctl/<cluster>.<base domain>/).
    #[arg(long, value_name = "PREFIX", requires = "store")]
    pub store_prefix: Option<String>,

    /// Reach the store in plaintext (no --store-ca): anyone on the path could forge tokens or
    /// give a spent one back. For a lab on one host only; without it, a store without
    /// --store-ca is refused.
    #[arg(long, requires = "store", conflicts_with = "store_ca")]
    pub store_insecure: bool,
}

impl StoreArgs {
    /// The store's options, when `--store` was given (its files read and checked).
    pub fn options(&self) -> anyhow::Result<Option<crate::store::Options>> {
        let Some(url) = &self.store else {
            return Ok(None);
        };
        crate::store::Options::new(
            url.clone(),
            self.store_ca.as_deref(),
            self.store_cert.as_deref(),
            self.store_key.as_deref(),
            self.store_prefix.clone(),
            self.store_insecure,
        )
        .map(Some)
    }

    /// The store a token or machine command publishes to, with the directory's record of it:
    /// `--store`, which must be the store `remembered` names (same members and prefix) unless
    /// `repoint` (`token publish` moves a directory); else the one `mcsctl.json` remembers.
    /// The options carry the prefix resolved. `None`: the directory publishes nowhere.
    pub fn target(
        &self,
        remembered: Option<&StoreRecord>,
        cluster: &str,
        repoint: bool,
    ) -> anyhow::Result<Option<(crate::store::Options, StoreRecord)>> {
        let Some(mut o) = self.options()? else {
            let Some(r) = remembered else {
                return Ok(None);
            };
            let o = crate::store::Options::new(
                r.url.parse().map_err(anyhow::Error::msg)?,
                r.ca.as_deref(),
                r.cert.as_deref(),
                r.key.as_deref(),
                Some(r.prefix.clone()),
                r.insecure,
            )
            .map_err(|e| {
                anyhow::anyhow!(
                    "{e:#} (the store this directory publishes to, as mcsctl.json remembers it)"
                )
            })?;
            return Ok(Some((o, r.clone())));
        };
        let absolute = |p: &Option<PathBuf>| p.as_deref().map(std::path::absolute).transpose();
        let (url, prefix) = (o.url.to_string(), o.prefix_for(cluster));
        o.prefix = Some(prefix.clone());
        if let Some(r) = remembered
            && (r.url != url || r.prefix != prefix)
            && !repoint
        {
            anyhow::bail!(
                "this directory publishes its tokens to the store {} (prefix {}, remembered in mcsctl.json), not {url} (prefix {prefix}): nothing changed. `mcsctl token publish --store {url} ...` moves it to that store",
                r.url,
                r.prefix
            );
        }
        let record = StoreRecord {
            url,
            prefix,
            ca: absolute(&self.store_ca)?,
            cert: absolute(&self.store_cert)?,
            key: absolute(&self.store_key)?,
            insecure: self.store_insecure,
            id: match remembered {
                Some(r) => r.id.clone(),
                None => crate::token::new_directory_id()?,
            },
            generation: remembered.map_or(0, |r| r.generation),
        };
        Ok(Some((o, record)))
    }
}

/// The `--store*` flags that reach the store `r` describes, as a command line has them.
pub fn store_flags(r: &StoreRecord) -> String {
    let mut f = format!("--store {}", r.url);
    for (flag, path) in [
        ("--store-ca", &r.ca),
        ("--store-cert", &r.cert),
        ("--store-key", &r.key),
    ] {
        if let Some(p) = path {
            f.push_str(&format!(" {flag} {}", p.display()));
        }
    }
    if r.insecure {
        f.push_str(" --store-insecure");
    }
    f.push_str(&format!(" --store-prefix {}", r.prefix));
    f
}
