//! Reloading: on every poll (or SIGHUP) the parts whose files changed are read again; a part
//! that fails keeps its last good state and says why once per reason.

use std::sync::Arc;
use std::time::Duration;

use time::OffsetDateTime;
use tokio::signal::unix::Signal;
use tokio::sync::watch;

use super::Shared;
use super::handler::AuthMode;
use super::state::{self, Loader};
use crate::assets::AssetDir;

pub(super) async fn reload_loop(
    loader: Loader,
    dir: AssetDir,
    shared: Arc<Shared>,
    loaded_from: state::Fingerprint,
    mut hup: Signal,
    every: Duration,
    mut stop: watch::Receiver<bool>,
) {
    let mut seen = loaded_from;
    // The last failure message of each part: a part that keeps failing is retried at every
    // poll (a chmod, a Secret swap) but logged once per distinct reason.
    let mut failing: std::collections::HashMap<String, String> = Default::default();
    let mut live_before = shared.current().tokens.live_at(OffsetDateTime::now_utc());
    let mut cert_dead_said = false;
    let mut tick = tokio::time::interval(every);
    tick.tick().await;
    loop {
        let forced = tokio::select! {
            _ = tick.tick() => false,
            _ = hup.recv() => true,
            _ = stop.changed() => return,
        };
        let now = OffsetDateTime::now_utc();
        // Certificates expire without any file changing: say so when it happens.
        let cert_dead = shared.current().tls.unusable_at(now.unix_timestamp());
        if let Some(why) = &cert_dead
            && !cert_dead_said
        {
            shared.log.event(
                "certificate-expired",
                &format!("{why}: every machine now refuses the connection; run `mcsctl cert renew` (serve picks it up)"),
            );
        }
        cert_dead_said = cert_dead.is_some();
        // Tokens expire without any file changing: say so when the last one goes.
        let live_now = shared.current().tokens.live_at(now);
        if live_now == 0 && live_before > 0 && shared.current().auth != AuthMode::None {
            shared.log.event(
                "no-live-token",
                "the last live token expired: every request for a full config now gets 401",
            );
        }
        live_before = live_now;
        let fp = loader.fingerprint();
        if !forced && fp == seen && failing.is_empty() {
            continue;
        }
        // A killed command's committed change is completed first (this takes the exclusive
        // lock, so before the shared one below).
        if dir.change_pending()
            && let Ok(Some(c)) = dir.settle()
        {
            shared
                .log
                .event("recovery", &format!("completed an interrupted `{c}`"));
        }
        // A command writing right now: try at the next poll rather than read its half.
        let Ok(guard) = dir.try_read_lock() else {
            continue;
        };
        let prev = shared.current();
        let (next, outcome) = loader.reload(&prev, now);
        drop(guard);
        let failed_parts: Vec<String> = outcome.failed.iter().map(|(p, _)| p.clone()).collect();
        for (part, why) in &outcome.failed {
            if failing.get(part) != Some(why) {
                shared.log.event(
                    "reload-failed",
                    &format!("{part}: keeping its last good state: {why}"),
                );
            }
        }
        failing.retain(|p, _| failed_parts.contains(p));
        for (part, why) in outcome.failed {
            failing.insert(part, why);
        }
        if !outcome.changed.is_empty() || forced {
            let live = next.tokens.live_at(now);
            let msg = format!(
                "reloaded{}: {}; auth {}, {live} live token(s), pools {:?}",
                if forced { " on SIGHUP" } else { "" },
                if outcome.changed.is_empty() {
                    "nothing changed".to_string()
                } else {
                    outcome.changed.join(", ")
                },
                next.auth.name(),
                next.pools(),
            );
            if live == 0 && next.auth != AuthMode::None {
                shared.log.event(
                    "no-live-token",
                    "no live token: every request for a full config gets 401",
                );
            }
            *shared.state.write().unwrap_or_else(|p| p.into_inner()) = Arc::new(next);
            shared.log.event("reload", &msg);
        } else {
            *shared.state.write().unwrap_or_else(|p| p.into_inner()) = Arc::new(next);
        }
        seen = fp;
    }
}
