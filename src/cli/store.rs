//! `--store` and what reaching it takes: on serve, `csr review` and `machine list`.

use std::path::PathBuf;

use clap::Args;

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
}
