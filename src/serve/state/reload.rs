//! Reloading: on every poll (or SIGHUP) the parts whose files changed are read again; a part
//! that fails keeps its last good state and says why once per reason.

use crate::serve::log::event::Event;
use crate::serve::log::metrics::Reloaded;
use std::sync::Arc;
use std::time::Duration;

use time::OffsetDateTime;
use tokio::signal::unix::Signal;
use tokio::sync::watch;

use crate::assets::AssetDir;
use crate::model::config::AuthMode;
use crate::serve::state::live::{self, Loader};
use crate::serve::state::shared::Shared;
use crate::serve::state::watched::{Fingerprint, Outcome};

/// What one poll found.
enum Poll {
    /// No file changed (and nothing asked for a reload).
    Unchanged,
    /// A command is writing: try at the next poll rather than read its half.
    Busy,
    /// The files were read again.
    Read {
        fp: Fingerprint,
        next: Box<live::State>,
        outcome: Outcome,
        /// A killed command's change that was completed first.
        recovered: Option<String>,
    },
}

/// One poll, on a blocking thread: `quiet` means nothing asked for a reload, so an unchanged
/// fingerprint ends it.
fn poll(
    loader: &Loader,
    dir: &AssetDir,
    prev: &live::State,
    seen: &Fingerprint,
    quiet: bool,
    now: OffsetDateTime,
) -> Poll {
    let fp = loader.fingerprint();
    if quiet && fp == *seen {
        return Poll::Unchanged;
    }
    // A killed command's committed change is completed first (this takes the exclusive lock,
    // so before the shared one below).
    let recovered = if dir.change_pending() {
        dir.settle().ok().flatten()
    } else {
        None
    };
    let Ok(guard) = dir.try_read_lock() else {
        return Poll::Busy;
    };
    let (next, outcome) = loader.reload(prev, now);
    drop(guard);
    Poll::Read {
        fp,
        next: Box::new(next),
        outcome,
        recovered,
    }
}

pub(in crate::serve) async fn reload_loop(
    loader: Arc<Loader>,
    dir: AssetDir,
    shared: Arc<Shared>,
    loaded_from: Fingerprint,
    mut hup: Signal,
    every: Duration,
    mut stop: watch::Receiver<bool>,
) {
    let mut seen = loaded_from;
    let mut said = Said {
        failing: Default::default(),
        live_before: shared.current().tokens.live_at(shared.clock.now()),
        cert_dead: false,
    };
    let mut tick = tokio::time::interval(every);
    tick.tick().await;
    loop {
        let forced = tokio::select! {
            _ = tick.tick() => false,
            _ = hup.recv() => true,
            _ = stop.changed() => return,
        };
        let now = shared.clock.now();
        flush_ledger(&shared, now).await;
        said.expiry(&shared, now);
        // Stat, lock, file reads, x509 and the spec conversions of every changed pool: on a
        // blocking thread, so the async workers keep serving meanwhile.
        let polled = {
            let (loader, dir, prev, quiet) = (
                loader.clone(),
                dir.clone(),
                shared.current(),
                !forced && said.failing.is_empty(),
            );
            let seen = seen.clone();
            tokio::task::spawn_blocking(move || poll(&loader, &dir, &prev, &seen, quiet, now)).await
        };
        let (fp, next, mut outcome) = match polled {
            Ok(Poll::Unchanged) | Ok(Poll::Busy) => continue,
            Ok(Poll::Read {
                fp,
                next,
                outcome,
                recovered,
            }) => {
                if let Some(c) = recovered {
                    shared
                        .log
                        .event(Event::Recovery, &format!("completed an interrupted `{c}`"));
                }
                (fp, next, outcome)
            }
            Err(e) => {
                shared
                    .log
                    .event(Event::ReloadFailed, &format!("the reload stopped: {e}"));
                continue;
            }
        };
        for part in &outcome.changed {
            shared.metrics.reload(part, Reloaded::Success);
        }
        for (part, _) in &outcome.failed {
            shared.metrics.reload(part, Reloaded::Failure);
        }
        said.failures(&shared, std::mem::take(&mut outcome.failed));
        publish(&shared, *next, &outcome, forced, now);
        seen = fp;
    }
}

/// The ledger's records of the last poll go to disk (off the async workers); with the store,
/// whether it answers is asked instead.
async fn flush_ledger(shared: &Arc<Shared>, now: time::OffsetDateTime) {
    shared.fetches.poll_store().await;
    let flushed = {
        let shared = shared.clone();
        tokio::task::spawn_blocking(move || shared.fetches.flush(now)).await
    };
    match flushed {
        Ok(Err(e)) => shared.log.event(Event::LedgerFailed, &e),
        Ok(Ok(Some(repaired))) => shared.log.event(Event::LedgerRepaired, &repaired),
        _ => {}
    }
}

/// What the reload loop has said, so that a state that lasts is logged once.
struct Said {
    /// The last failure message of each part: a part that keeps failing is retried at every
    /// poll (a chmod, a Secret swap) but logged once per distinct reason.
    failing: std::collections::HashMap<String, String>,
    /// Live tokens at the last poll.
    live_before: usize,
    /// Whether the certificate's expiry was said.
    cert_dead: bool,
}

impl Said {
    /// Certificates and tokens expire without any file changing: says so when it happens.
    fn expiry(&mut self, shared: &Shared, now: time::OffsetDateTime) {
        // Certificates expire without any file changing: say so when it happens.
        let cert_dead = shared.current().tls.unusable_at(now.unix_timestamp());
        if let Some(why) = &cert_dead
            && !self.cert_dead
        {
            shared.log.event(
                Event::CertificateExpired,
                &format!("{why}: every machine now refuses the connection; run `mcsctl cert renew` (serve picks it up)"),
            );
        }
        self.cert_dead = cert_dead.is_some();
        // Tokens expire without any file changing: say so when the last one goes.
        let live_now = shared.current().tokens.live_at(now);
        if live_now == 0 && self.live_before > 0 && shared.current().auth != AuthMode::None {
            shared.log.event(
                Event::NoLiveToken,
                "the last live token expired: every request for a full config now gets 401",
            );
        }
        self.live_before = live_now;
    }

    /// Logs each part's failure once per distinct reason.
    fn failures(&mut self, shared: &Shared, failed: Vec<(String, String)>) {
        let failed_parts: Vec<String> = failed.iter().map(|(p, _)| p.clone()).collect();
        for (part, why) in &failed {
            if self.failing.get(part) != Some(why) {
                shared.log.event(
                    Event::ReloadFailed,
                    &format!("{part}: keeping its last good state: {why}"),
                );
            }
        }
        self.failing.retain(|p, _| failed_parts.contains(p));
        for (part, why) in failed {
            self.failing.insert(part, why);
        }
    }
}

/// Puts the new state in place; logs what changed (always on SIGHUP), with the tokens actually
/// served: with `--store`, those the store published, not the directory's.
fn publish(
    shared: &Shared,
    next: crate::serve::State,
    outcome: &crate::serve::state::watched::Outcome,
    forced: bool,
    now: time::OffsetDateTime,
) {
    let changed = &outcome.changed;
    let published = shared.published();
    if outcome.tokens_changed
        && let Some((_, rev)) = &published
    {
        shared.log.event(
            Event::TokensDiverge,
            &format!(
                "auth/tokens.json changed, but the tokens the store published (revision {rev}) are served, not the directory's (its revocations count all the same): publish the change with `mcsctl token publish` from the directory that made it (with --store and its flags if that directory has not published to this store) for every replica to serve it"
            ),
        );
    }
    if !changed.is_empty() || forced {
        let (live, from) = match &published {
            Some((t, rev)) => (t.live_at(now), format!(" from the store (revision {rev})")),
            None => (next.tokens.live_at(now), String::new()),
        };
        let msg = format!(
            "reloaded{}: {}; auth {}, {live} live token(s){from}, pools {:?}",
            if forced { " on SIGHUP" } else { "" },
            if changed.is_empty() {
                "nothing changed".to_string()
            } else {
                changed.join(", ")
            },
            next.auth.name(),
            next.pools(),
        );
        if live == 0 && next.auth != AuthMode::None {
            shared.log.event(
                Event::NoLiveToken,
                "no live token: every request for a full config gets 401",
            );
        }
        shared.swap(next);
        shared.log.event(Event::Reload, &msg);
    } else {
        shared.swap(next);
    }
}
