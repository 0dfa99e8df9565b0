//! The access log (stdout) and events (stderr), written by their own threads through bounded
//! queues: a reader that stops reading stdout or stderr (a stalled pipe, a full disk behind a
//! log shipper) must never block a request, `/healthz` included. When a queue is full the line
//! is dropped and counted; the count is reported as an event once output flows again.

use std::io::Write;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, SyncSender, TrySendError, sync_channel};
use std::time::{Duration, Instant};

use time::OffsetDateTime;

/// Lines each queue holds before dropping.
const QUEUE: usize = 8192;

/// What a writer thread is given.
enum Msg {
    Line(String),
    /// Acknowledged once everything queued before it is written.
    Flush(SyncSender<()>),
}

/// Where serve writes its lines.
#[derive(Clone)]
pub struct Log {
    access: SyncSender<Msg>,
    events: SyncSender<Msg>,
    dropped_access: Arc<AtomicU64>,
    dropped_events: Arc<AtomicU64>,
}

impl Log {
    /// Starts the two writer threads.
    pub fn start() -> Log {
        let (access, access_rx) = sync_channel::<Msg>(QUEUE);
        let (events, events_rx) = sync_channel::<Msg>(QUEUE);
        let dropped_access = Arc::new(AtomicU64::new(0));
        let dropped_events = Arc::new(AtomicU64::new(0));
        let log = Log {
            access,
            events,
            dropped_access: dropped_access.clone(),
            dropped_events: dropped_events.clone(),
        };
        let report = log.clone();
        std::thread::Builder::new()
            .name("access-log".into())
            .spawn(move || {
                writer(access_rx, std::io::stdout(), &dropped_access, |n| {
                    report.event(
                        "log-dropped",
                        &format!("dropped {n} access-log line(s): stdout was not being read"),
                    )
                })
            })
            .ok();
        std::thread::Builder::new()
            .name("events".into())
            .spawn(move || {
                let stderr = std::io::stderr();
                let report = |n: u64| {
                    let _ = writeln!(
                        std::io::stderr(),
                        "{}",
                        event_line(
                            "log-dropped",
                            &format!("dropped {n} event line(s): stderr was not being read"),
                        )
                    );
                };
                writer(events_rx, stderr, &dropped_events, report)
            })
            .ok();
        log
    }

    /// One access-log line (JSON, without the newline).
    pub fn access(&self, line: String) {
        push(&self.access, line, &self.dropped_access);
    }

    /// One event: `{"time", "event", "message"}` on stderr.
    pub fn event(&self, kind: &str, message: &str) {
        push(
            &self.events,
            event_line(kind, message),
            &self.dropped_events,
        );
    }

    /// Text as it is on stderr (the banner), as one write.
    pub fn raw(&self, text: String) {
        push(&self.events, text, &self.dropped_events);
    }

    /// Waits until both queues are written out (at shutdown), at most `limit` in all.
    pub fn flush(&self, limit: Duration) {
        let deadline = Instant::now() + limit;
        for q in [&self.access, &self.events] {
            let (ack, done) = sync_channel::<()>(1);
            let mut msg = Msg::Flush(ack);
            loop {
                match q.try_send(msg) {
                    Ok(()) => break,
                    Err(TrySendError::Full(m)) if Instant::now() < deadline => {
                        msg = m;
                        std::thread::sleep(Duration::from_millis(5));
                    }
                    Err(_) => return,
                }
            }
            let left = deadline.saturating_duration_since(Instant::now());
            if done.recv_timeout(left).is_err() {
                return;
            }
        }
    }
}

fn push(q: &SyncSender<Msg>, line: String, dropped: &AtomicU64) {
    match q.try_send(Msg::Line(line)) {
        Ok(()) => {}
        Err(TrySendError::Full(_)) => {
            dropped.fetch_add(1, Ordering::Relaxed);
        }
        Err(TrySendError::Disconnected(_)) => {}
    }
}

fn writer(rx: Receiver<Msg>, mut out: impl Write, dropped: &AtomicU64, report: impl Fn(u64)) {
    for msg in rx {
        let line = match msg {
            Msg::Line(l) => l,
            Msg::Flush(ack) => {
                let _ = ack.try_send(());
                continue;
            }
        };
        let mut buf = line.into_bytes();
        if buf.last() != Some(&b'\n') {
            buf.push(b'\n');
        }
        if out.write_all(&buf).and_then(|_| out.flush()).is_err() {
            // The reader is gone for good (closed pipe): count what is lost from now on.
            dropped.fetch_add(1, Ordering::Relaxed);
            continue;
        }
        let n = dropped.swap(0, Ordering::Relaxed);
        if n > 0 {
            report(n);
        }
    }
}

/// `{"time": RFC 3339, "event": kind, "message": message}`.
pub fn event_line(kind: &str, message: &str) -> String {
    serde_json::json!({ "time": now_rfc3339(), "event": kind, "message": message }).to_string()
}

/// The current time, RFC 3339.
pub fn now_rfc3339() -> String {
    OffsetDateTime::now_utc()
        .format(&time::format_description::well_known::Rfc3339)
        .unwrap_or_default()
}
