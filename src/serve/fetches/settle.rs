//! The settlement of a fetch in the store: what the background tasks that confirm and cut
//! share, and the retry that never gives a settlement up (docs/replicas.md).

use crate::serve::log::event::Event;
use std::future::Future;
use std::sync::Arc;
use std::sync::atomic::AtomicUsize;
use std::time::Duration;

use super::Rules;
use super::journal::{Entry, Journal};
use crate::clock::Clock;
use crate::ledger;
use crate::serve::log::Log;
use crate::store::Store;
use crate::store::claims::{self, End};

/// After this long failing, a confirm or cut still being retried is said (once).
const SAY_AFTER: Duration = Duration::from_secs(60);

/// What the background settlements share.
#[derive(Clone)]
pub(super) struct Ctx {
    pub(super) store: Store,
    pub(super) log: Log,
    pub(super) clock: Clock,
    pub(super) rules: Rules,
    pub(super) journal: Option<Arc<Journal>>,
    /// Settlements in flight (a stopping serve waits for them, bounded).
    pub(super) settling: Arc<AtomicUsize>,
}

/// Confirms journal entry `e` in the store (retried until it takes it), then marks it done.
pub(super) async fn confirm_entry(ctx: &Ctx, e: &Entry) {
    retry(ctx, e, || async {
        let now = ctx.clock.now().unix_timestamp();
        claims::update(&ctx.store, &e.token, None, now, &[], |s| {
            s.end(&e.claim, End::Whole, &e.record);
            Ok::<_, String>(())
        })
        .await
    })
    .await;
    if let Some(j) = &ctx.journal
        && let Err(why) = j.done()
    {
        ctx.log.event(Event::JournalFailed, &why);
    }
}

pub(super) fn machine_of(record: &str) -> String {
    serde_json::from_str::<ledger::Record>(record).map_or_else(|_| "?".into(), |r| r.machine)
}

/// Runs `f` until it succeeds, waiting longer each time (at most 5 s); says once when it has
/// failed for [`SAY_AFTER`]. The store not answering must not lose a settlement: a confirm
/// given up would leave a whole fetch unknown, a cut given up a use held while this replica
/// lives.
pub(super) async fn retry<T, F, Fut>(ctx: &Ctx, e: &Entry, mut f: F) -> T
where
    F: FnMut() -> Fut,
    Fut: Future<Output = Result<T, String>>,
{
    let start = std::time::Instant::now();
    let mut wait = Duration::from_millis(100);
    let mut said = false;
    loop {
        match f().await {
            Ok(v) => {
                if said {
                    ctx.log.event(
                        Event::StoreSettled,
                        &format!(
                            "machine {}'s fetch with token {} is settled in the store after {}s",
                            machine_of(&e.record),
                            e.token,
                            start.elapsed().as_secs()
                        ),
                    );
                }
                return v;
            }
            Err(why) => {
                if !said && start.elapsed() >= SAY_AFTER {
                    said = true;
                    ctx.log.event(
                        Event::StoreFailed,
                        &format!(
                            "{why}: machine {}'s fetch with token {} is not settled in the store yet; still trying",
                            machine_of(&e.record),
                            e.token
                        ),
                    );
                }
                tokio::time::sleep(wait).await;
                wait = (wait * 2).min(Duration::from_secs(5));
            }
        }
    }
}
