//! Unit tests of the workflows: each is a function of (snapshot, inputs, now), so each is
//! tested by building a scratch asset directory with the `init` workflow at a fixed time,
//! applying workflows at chosen times (the clock is an argument, never read) and looking at
//! the reports, the notes and the directory they leave.

mod ca;
mod csr;
mod machine;
mod pointer;
mod render;
mod serving;
mod snapshot;
mod token;

use anyhow::Result;
use rcgen::KeyPair;
use time::{Duration, OffsetDateTime};

use super::init::{InitInputs, init};
use super::{Note, Outcome};
use crate::assets::AssetDir;
use crate::ignition::SpecVersion;
use crate::ignition::pointer::Transport;
use crate::model::{ClusterConfig, Snapshot};
use crate::pki::keys::KeyAlgorithm;

/// The time every lab starts at: 2026-01-01T00:00:00Z.
pub fn t0() -> OffsetDateTime {
    OffsetDateTime::from_unix_timestamp(1_767_225_600).unwrap()
}

/// A day.
pub const DAY: Duration = Duration::days(1);

/// Keys as the workflows ask for them (ECDSA P-256: fast).
pub fn keys() -> impl Fn(KeyAlgorithm, &str) -> Result<KeyPair> {
    |alg, _| alg.generate()
}

/// A scratch asset directory, made by `init` at [`t0`] for cluster demo.example.com with
/// pools worker and master.
pub struct Lab {
    _tmp: tempfile::TempDir,
    /// The asset directory.
    pub dir: AssetDir,
}

impl Lab {
    /// An initialised directory.
    pub fn new() -> Lab {
        let lab = Lab::empty();
        let inputs = InitInputs {
            config: ClusterConfig {
                format_version: ClusterConfig::FORMAT_VERSION,
                cluster_name: "demo".into(),
                base_domain: "example.com".into(),
                pools: vec!["worker".into(), "master".into()],
                spec_version: SpecVersion::DEFAULT,
                token_transport: Transport::Header,
                key_algorithm: KeyAlgorithm::EcdsaP256,
                flavour: Default::default(),
                serve_auth: None,
                proxy_protocol_from: Vec::new(),
                url: None,
                urls: Default::default(),
                store: None,
                report_pools: Vec::new(),
            },
            sans: Vec::new(),
            url_host: None,
            adopt: None,
            ca_validity: DAY * 3650,
            cert_validity: DAY * 365,
            no_token: false,
            force: false,
        };
        let lock = lab.dir.lock().unwrap();
        let k = keys();
        let out = init(&lab.dir, inputs, &k, t0()).unwrap();
        out.change.unwrap().commit(&lock).unwrap();
        lab
    }

    /// A directory with nothing in it yet.
    pub fn empty() -> Lab {
        let tmp = tempfile::tempdir().unwrap();
        let dir = AssetDir::new(tmp.path().join("mcs-assets"));
        dir.create().unwrap();
        Lab { _tmp: tmp, dir }
    }

    /// The directory as a workflow sees it.
    pub fn snap(&self) -> Snapshot {
        Snapshot::read(&self.dir).unwrap()
    }

    /// Runs a workflow on the directory under its lock and commits its change; the report and
    /// the notes, or the workflow's error as text.
    pub fn apply<R>(
        &self,
        f: impl for<'s> FnOnce(&'s Snapshot) -> Result<Outcome<'s, R>>,
    ) -> std::result::Result<(R, Vec<Note>), String> {
        let (lock, snap) = Snapshot::lock(&self.dir).unwrap();
        let out = f(&snap).map_err(|e| format!("{e:#}"))?;
        if let Some(c) = out.change {
            c.commit(&lock).unwrap();
        }
        Ok((out.report, out.notes))
    }

    /// The bytes of a file of the directory.
    pub fn read(&self, rel: &str) -> Vec<u8> {
        self.dir.read(rel).unwrap()
    }
}

/// The text of the notes, in order (`warning: ` before a warning).
pub fn said(notes: &[Note]) -> Vec<String> {
    notes
        .iter()
        .map(|n| match n {
            Note::Warn(w) => format!("warning: {w}"),
            Note::Info(i) => i.clone(),
            Note::Done { done, .. } => done.clone(),
        })
        .collect()
}
