//! This replica's registration as a holder in the store ([`crate::store::holders`]): a lease
//! kept alive while serve runs, and registered again under a new holder id when it ended.

use crate::serve::log::event::Event;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::serve::log::Log;
use crate::store::Store;
use crate::store::holders::{Holder, Registration, Unregistered};

/// Locks `m`, also after a panic elsewhere (the data is plain state, never half-written).
pub(super) fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// Keeps this replica registered: renews its lease every third of it, and registers again
/// under a new holder when it ended.
pub(super) struct Keeper {
    pub(super) store: Store,
    pub(super) log: Log,
    pub(super) holder: Arc<Mutex<Option<Holder>>>,
    pub(super) unregistered: Arc<Mutex<Option<String>>>,
    pub(super) reg: Registration,
    pub(super) lease: Duration,
}

impl Keeper {
    /// Registers under a new holder id.
    pub(super) async fn register(&self) -> Result<(), Unregistered> {
        let mut nonce = [0u8; 8];
        aws_lc_rs::rand::fill(&mut nonce)
            .map_err(|_| Unregistered::Store("the OS random source failed".into()))?;
        let nonce = u64::from_le_bytes(nonce);
        let id = format!("{}-{nonce:016x}", self.reg.replica);
        match self.store.register(&id, &self.reg, self.lease).await {
            Ok(h) => {
                *lock(&self.holder) = Some(h);
                *lock(&self.unregistered) = None;
                Ok(())
            }
            Err(e) => {
                let why = match &e {
                    Unregistered::Differs(why) | Unregistered::Store(why) => why.clone(),
                };
                let was = lock(&self.unregistered).replace(why.clone());
                if was.as_deref() != Some(why.as_str()) {
                    self.log.event(
                        Event::StoreUnregistered,
                        &format!("{why}: machine tokens get 503 until this replica registers"),
                    );
                }
                Err(e)
            }
        }
    }

    pub(super) async fn run(self, mut stop: tokio::sync::watch::Receiver<bool>) {
        loop {
            tokio::select! {
                _ = tokio::time::sleep(self.lease / 3) => {}
                _ = stop.changed() => return,
            }
            let lease = lock(&self.holder).as_ref().map(|h| h.lease);
            match lease {
                None => {
                    let _ = self.register().await;
                }
                Some(lease) => match self.store.renew(lease).await {
                    Ok(true) | Err(_) => {}
                    Ok(false) => {
                        lock(&self.holder).take();
                        self.log.event(
                            Event::StoreLeaseLost,
                            &format!(
                                "this replica's lease ended (it was paused or cut off from the store for more than --store-lease, {}s): the other replicas settled its fetches being sent; registering again",
                                self.lease.as_secs()
                            ),
                        );
                        let _ = self.register().await;
                    }
                },
            }
        }
    }
}
