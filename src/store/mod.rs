//! The store serve replicas share: an etcd v3 cluster (`--store etcd://...`), the store
//! Kubernetes itself keeps its state in. What needs one answer across replicas lives there:
//! each machine token's fetches (claimed in one transaction, so a single-use token is served
//! once whatever the races) and their records, the evidence `csr review` and `machine list`
//! read. It holds no secret: nothing in it lets anyone fetch a config.
//!
//! Keys, under a prefix per cluster (`/mcsctl/<cluster>.<base domain>/` unless
//! `--store-prefix` says otherwise):
//! - `claims/<token id>`: a token with limited uses: its whole and cut fetches, and those being
//!   sent (JSON), changed only by compare-and-swap on its revision;
//! - `fetches/<token id>/<claim>`: one fetch's record, as a ledger line (of a token with
//!   unlimited uses, the first [`counted::KEEP`]; `counts/<token id>/<holder>` counts the rest,
//!   per serve process);
//! - `holders/<replica>-<nonce>`: a serve process claiming fetches, under an etcd lease it
//!   keeps alive ([`holders`]); the claim protocol is in [`claims`] and docs/replicas.md.
//!
//! Every request carries a deadline and asks for a leader (`require_leader`): without quorum a
//! request fails at once, and serve answers 503 instead of waiting.

pub mod auth;
pub mod batch;
pub mod claims;
pub mod counted;
pub mod holders;
pub mod import;
pub mod reports;
pub mod url;

pub use batch::{BATCH, BatchPut};

use std::path::Path;
use std::time::Duration;

use anyhow::{Context, Result};
use etcd_client::{
    Certificate, Client, Compare, CompareOp, ConnectOptions, EventType, GetOptions, Identity,
    TlsOptions, Txn, TxnOp, TxnOpResponse, WatchOptions, WatchStream,
};

pub use url::StoreUrl;

/// How long a request to the store may take before it counts as failed.
pub const REQUEST_TIMEOUT: Duration = Duration::from_secs(2);

/// What reaching the store takes.
#[derive(Debug, Clone)]
pub struct Options {
    /// The members.
    pub url: StoreUrl,
    /// The CA that signed the members' serving certificates (PEM): TLS when given.
    pub ca: Option<Vec<u8>>,
    /// The client certificate and key (PEM), for members that require one.
    pub identity: Option<(Vec<u8>, Vec<u8>)>,
    /// The key prefix (`--store-prefix`), if not the cluster's default.
    pub prefix: Option<String>,
}

impl Options {
    /// How the store is reached, for banners and messages.
    pub fn transport(&self) -> &'static str {
        match (&self.ca, &self.identity) {
            (Some(_), Some(_)) => "TLS, verified, with a client certificate",
            (Some(_), None) => "TLS, verified",
            (None, _) => "plaintext (--store-insecure): anyone on the path can forge or replay",
        }
    }
}

impl Options {
    /// The options of `--store*`: the PEM files read (bounded), the prefix made to end in `/`.
    /// Without a CA the store is refused unless `insecure` says plaintext is meant: the store
    /// holds what decides who fetches a config and whether a single-use token is spent.
    pub fn new(
        url: StoreUrl,
        ca: Option<&Path>,
        cert: Option<&Path>,
        key: Option<&Path>,
        prefix: Option<String>,
        insecure: bool,
    ) -> Result<Options> {
        if ca.is_none() && !insecure {
            return Err(crate::exit::usage(format!(
                "--store {url} without --store-ca would talk to etcd in plaintext: anyone between this host and the members could publish a token of their own or give a spent one back. Give --store-ca (and --store-cert and --store-key for members that ask for a client certificate), or --store-insecure for a lab on one host"
            )));
        }
        let read = |p: &Path| crate::assets::read_file(p);
        let identity = match (cert, key) {
            (Some(c), Some(k)) => Some((read(c)?, read(k)?)),
            (None, None) => None,
            _ => anyhow::bail!("--store-cert and --store-key go together"),
        };
        Ok(Options {
            url,
            ca: ca.map(read).transpose()?,
            identity,
            prefix,
        })
    }

    /// The key prefix for cluster `cluster` (`<name>.<base domain>`): `--store-prefix`, else
    /// `/mcsctl/<cluster>/`; it ends in `/`.
    pub fn prefix_for(&self, cluster: &str) -> String {
        let mut p = self
            .prefix
            .clone()
            .unwrap_or_else(|| format!("/mcsctl/{cluster}/"));
        if !p.ends_with('/') {
            p.push('/');
        }
        p
    }
}

/// A connection to the store.
#[derive(Clone)]
pub struct Store {
    client: Client,
    prefix: String,
    url: StoreUrl,
}

/// A value and the revision it was last changed at (0: the key is absent).
pub struct Versioned {
    /// The value; empty when absent.
    pub value: Vec<u8>,
    /// Its `mod_revision`.
    pub revision: i64,
}

impl Store {
    /// Connects to the members (lazily: a member down now is tried again at each request),
    /// for cluster `cluster` (`<name>.<base domain>`, the default key prefix).
    pub async fn connect(o: &Options, cluster: &str) -> Result<Store> {
        let mut opts = ConnectOptions::new()
            .with_connect_timeout(REQUEST_TIMEOUT)
            .with_timeout(REQUEST_TIMEOUT)
            .with_keep_alive(Duration::from_secs(5), REQUEST_TIMEOUT)
            .with_require_leader(true);
        if let Some(ca) = &o.ca {
            let mut tls = TlsOptions::new().ca_certificate(Certificate::from_pem(ca));
            if let Some((cert, key)) = &o.identity {
                tls = tls.identity(Identity::from_pem(cert, key));
            }
            opts = opts.with_tls(tls);
        } else if o.identity.is_some() {
            anyhow::bail!("--store-cert needs --store-ca: a client certificate is sent over TLS");
        }
        let client = Client::connect(o.url.endpoints(o.ca.is_some()), Some(opts))
            .await
            .with_context(|| format!("connecting to the store {}", o.url))?;
        Ok(Store {
            client,
            prefix: o.prefix_for(cluster),
            url: o.url.clone(),
        })
    }

    /// The full key of `rel`.
    pub fn key(&self, rel: &str) -> String {
        format!("{}{rel}", self.prefix)
    }

    /// What an error of the store means to a reader of serve's log.
    pub fn describe(&self, e: &etcd_client::Error) -> String {
        let why = match e {
            // gRPC's own words, and the deepest cause (`Connection refused`), without the
            // chain of wrappers between them.
            etcd_client::Error::GRpcStatus(s) => {
                let mut cause: Option<&dyn std::error::Error> = std::error::Error::source(s);
                let mut deepest = None;
                while let Some(c) = cause {
                    deepest = Some(c.to_string());
                    cause = c.source();
                }
                match deepest {
                    Some(d) if !s.message().contains(&d) => format!("{}: {d}", s.message()),
                    _ => s.message().to_string(),
                }
            }
            other => other.to_string(),
        };
        // A member that answered with an error (no space left, a permission) refused; the
        // others did not answer.
        let answered = matches!(e, etcd_client::Error::GRpcStatus(s)
            if !matches!(s.code(), tonic::Code::Unavailable | tonic::Code::DeadlineExceeded | tonic::Code::Unknown | tonic::Code::Cancelled));
        let verb = if answered {
            "refused the request"
        } else {
            "did not answer"
        };
        format!("the store {} {verb}: {why}", self.url)
    }

    /// Runs `op` on the key-value client, again when a member could not be reached (the
    /// balancer then routes around it): at most once more per member, each attempt within
    /// [`REQUEST_TIMEOUT`]. Without quorum every attempt fails at once.
    async fn kv<T, F, Fut>(&self, mut op: F) -> Result<T, String>
    where
        F: FnMut(etcd_client::KvClient) -> Fut,
        Fut: std::future::Future<Output = Result<T, etcd_client::Error>>,
    {
        let mut attempts = self.url.members.len() + 1;
        loop {
            attempts -= 1;
            match op(self.client.kv_client()).await {
                Ok(v) => return Ok(v),
                Err(e) if attempts > 0 && unreachable(&e) => {
                    tokio::time::sleep(Duration::from_millis(20)).await;
                }
                Err(e) => return Err(self.describe(&e)),
            }
        }
    }

    /// The value of `rel` and its revision (`revision` 0: absent).
    pub async fn get(&self, rel: &str) -> Result<Versioned, String> {
        let key = self.key(rel);
        let r = self
            .kv(|mut kv| {
                let key = key.clone();
                async move { kv.get(key, None).await }
            })
            .await?;
        Ok(match r.kvs().first() {
            Some(kv) => Versioned {
                value: kv.value().to_vec(),
                revision: kv.mod_revision(),
            },
            None => Versioned {
                value: Vec::new(),
                revision: 0,
            },
        })
    }

    /// Writes `puts` (relative key, value) at once if `rel` is still at `revision` (0: still
    /// absent) and, with `holder`, that holder is still alive (its key under its lease).
    pub async fn swap(
        &self,
        rel: &str,
        revision: i64,
        holder: Option<&str>,
        puts: &[(&str, &[u8])],
    ) -> Result<Swap, String> {
        let txn = || {
            let ops: Vec<TxnOp> = puts
                .iter()
                .map(|(k, v)| TxnOp::put(self.key(k), v.to_vec(), None))
                .collect();
            let mut when = vec![Compare::mod_revision(
                self.key(rel),
                CompareOp::Equal,
                revision,
            )];
            let mut otherwise = Vec::new();
            if let Some(h) = holder {
                let key = self.key(&holders::holder_key(h));
                when.push(Compare::create_revision(key.clone(), CompareOp::Greater, 0));
                let o = GetOptions::new().with_keys_only().with_count_only();
                otherwise.push(TxnOp::get(key, Some(o)));
            }
            Txn::new().when(when).and_then(ops).or_else(otherwise)
        };
        self.kv(|mut kv| {
            let t = txn();
            async move {
                kv.txn(t).await.map(|r| {
                    if r.succeeded() {
                        return Swap::Done;
                    }
                    match r.op_responses().first() {
                        Some(TxnOpResponse::Get(g)) if g.count() == 0 => Swap::HolderGone,
                        _ => Swap::Changed,
                    }
                })
            }
        })
        .await
    }

    /// Writes `rel`.
    pub async fn put(&self, rel: &str, value: &[u8]) -> Result<(), String> {
        let key = self.key(rel);
        self.kv(|mut kv| {
            let (key, value) = (key.clone(), value.to_vec());
            async move { kv.put(key, value, None).await.map(|_| ()) }
        })
        .await
    }

    /// Watches `rel` from revision `from` on.
    pub async fn watch(&self, rel: &str, from: i64) -> Result<KeyWatch, String> {
        let mut w = self.client.watch_client();
        let opts = WatchOptions::new().with_start_revision(from);
        w.watch(self.key(rel), Some(opts))
            .await
            .map(|stream| KeyWatch { stream })
            .map_err(|e| self.describe(&e))
    }

    /// Whether the store answers (a quorum read of one key).
    pub async fn ping(&self) -> Result<(), String> {
        self.get("claims/").await.map(|_| ())
    }
}

/// Whether `e` is a member that could not be reached (another one may answer).
fn unreachable(e: &etcd_client::Error) -> bool {
    match e {
        etcd_client::Error::TransportError(_) => true,
        etcd_client::Error::GRpcStatus(s) => s.code() == tonic::Code::Unavailable,
        _ => false,
    }
}

/// A watch of one key.
pub struct KeyWatch {
    stream: WatchStream,
}

/// What happened to a watched key.
#[derive(Debug)]
pub enum Change {
    /// It was written: its value and revision.
    Put(Vec<u8>, i64),
    /// It was removed, at this revision.
    Deleted(i64),
    /// The revisions asked for were compacted away: read the key again.
    Compacted,
}

impl KeyWatch {
    /// The next changes (none: a progress message); `Err` when the watch ended (the store
    /// went away, lost its leader, or cancelled it): watch again.
    pub async fn next(&mut self) -> Result<Vec<Change>, String> {
        let r = self
            .stream
            .message()
            .await
            .map_err(|e| format!("the store's watch ended: {e}"))?
            .ok_or_else(|| "the store's watch ended".to_string())?;
        if r.compact_revision() > 0 {
            return Ok(vec![Change::Compacted]);
        }
        if r.canceled() {
            return Err(format!(
                "the store cancelled its watch: {}",
                r.cancel_reason()
            ));
        }
        Ok(r.events()
            .iter()
            .filter_map(|e| {
                let kv = e.kv()?;
                Some(match e.event_type() {
                    EventType::Put => Change::Put(kv.value().to_vec(), kv.mod_revision()),
                    EventType::Delete => Change::Deleted(kv.mod_revision()),
                })
            })
            .collect())
    }
}

/// What a [`Store::swap`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Swap {
    /// Written.
    Done,
    /// Another writer changed the key first: read it again.
    Changed,
    /// The holder named is gone: nothing it does may be written any more.
    HolderGone,
}

/// Where the live auth state is published, under the prefix.
pub const AUTH_TOKENS: &str = "auth/tokens";

/// Where fetch records live, under the prefix.
pub const FETCHES: &str = "fetches/";

/// Where a token's claim state lives, under the prefix.
pub fn claims_key(token: &str) -> String {
    format!("claims/{token}")
}

/// Where a fetch's record lives, under the prefix.
pub fn fetch_key(token: &str, claim: &str) -> String {
    format!("{FETCHES}{token}/{claim}")
}

/// The first key after every key starting with `prefix` (etcd's range end for a prefix).
pub(crate) fn prefix_end(prefix: &str) -> Vec<u8> {
    let mut end = prefix.as_bytes().to_vec();
    while let Some(b) = end.pop() {
        if b < 0xff {
            end.push(b + 1);
            return end;
        }
    }
    vec![0]
}

/// Runs `f` on a runtime of its own: for the commands that read the store once.
pub fn blocking<T>(f: impl std::future::Future<Output = Result<T>>) -> Result<T> {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("starting a runtime to reach the store")?
        .block_on(f)
}
