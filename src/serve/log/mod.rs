//! The access log (stdout) and events (stderr), written by their own threads through bounded
//! queues (the access log's: per-thread buffers, [`crate::serve::log::lines`]): a reader that stops
//! reading stdout or stderr (a stalled pipe, a full disk behind a log shipper) must never block
//! a request, `/healthz` included. When a queue is full the line is dropped and counted; the
//! count is reported as an event once output flows again.

pub(crate) mod banner;
pub mod event;
pub(crate) mod lines;
pub mod metrics;
pub(crate) mod repeats;
pub(crate) mod scrape;
pub mod text_log;

use crate::clock::Clock;
use crate::serve::log::event::Event;
use std::io::Write;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, SyncSender, TrySendError, sync_channel};
use std::time::{Duration, Instant};

use time::OffsetDateTime;

use crate::serve::log::lines::{COALESCE, Lines, Wake, deliver, report_dropped};

/// Event lines the events queue holds before dropping.
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
    /// Access-log lines, gathered per thread ([`crate::serve::log::lines`]), and the writer's wake-ups.
    lines: Arc<Lines>,
    access: SyncSender<Wake>,
    events: SyncSender<Msg>,
    dropped_events: Arc<AtomicU64>,
    /// What an event line's time is read from.
    clock: Clock,
}

impl Log {
    /// Starts the two writer threads; event lines take their time from `clock`; each stream
    /// is written as `format` says for it (text or JSON lines).
    pub fn start(clock: Clock, format: crate::json_line::LogFormat) -> Log {
        use std::io::IsTerminal;
        let access_text = format.text(std::io::stdout().is_terminal());
        let events_text = format.text(std::io::stderr().is_terminal());
        let (access, access_rx) = crate::serve::log::lines::channel();
        let (events, events_rx) = sync_channel::<Msg>(QUEUE);
        let lines = Arc::new(Lines::default());
        let dropped_events = Arc::new(AtomicU64::new(0));
        let log = Log {
            lines: lines.clone(),
            access,
            events,
            dropped_events: dropped_events.clone(),
            clock: clock.clone(),
        };
        let report = log.clone();
        std::thread::Builder::new()
            .name("access-log".into())
            .spawn(move || {
                lines.write(access_rx, std::io::stdout(), access_text, |n| {
                    report.event(
                        Event::LogDropped,
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
                            &clock,
                            Event::LogDropped,
                            &format!("dropped {n} event line(s): stderr was not being read"),
                        )
                    );
                };
                writer(events_rx, stderr, events_text, &dropped_events, report)
            })
            .ok();
        log
    }

    /// One access-log line (JSON, without the newline).
    pub fn access(&self, line: &str) {
        self.access_with(|b| b.extend_from_slice(line.as_bytes()));
    }

    /// One access-log line, written by `write` (JSON, without the newline) straight into the
    /// calling thread's buffer.
    pub fn access_with(&self, write: impl FnOnce(&mut Vec<u8>)) {
        self.lines.push_with(&self.access, write);
    }

    /// One event: `{"time", "event", "message"}` on stderr.
    pub fn event(&self, kind: Event, message: &str) {
        push(
            &self.events,
            event_line(&self.clock, kind, message),
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
        let acked = |done: Receiver<()>| {
            done.recv_timeout(deadline.saturating_duration_since(Instant::now()))
                .is_ok()
        };
        let (ack, done) = sync_channel::<()>(1);
        if !send_by(&self.access, Wake::Flush(ack), deadline) || !acked(done) {
            return;
        }
        let (ack, done) = sync_channel::<()>(1);
        if send_by(&self.events, Msg::Flush(ack), deadline) {
            acked(done);
        }
    }
}

/// Sends `msg` on `q`, waiting while it is full until `deadline`; whether it was sent.
fn send_by<T>(q: &SyncSender<T>, mut msg: T, deadline: Instant) -> bool {
    loop {
        match q.try_send(msg) {
            Ok(()) => return true,
            Err(TrySendError::Full(m)) if Instant::now() < deadline => {
                msg = m;
                std::thread::sleep(Duration::from_millis(5));
            }
            Err(_) => return false,
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

/// Most bytes written at once: what is queued is written in batches up to this size.
const BATCH: usize = 64 * 1024;

/// Writes what arrives. Lines queued while a write was under way, or within [`COALESCE`] of
/// the last busy write, go out together in one write, so a busy server makes few system calls
/// and rarely has to wake this thread.
fn writer(
    rx: Receiver<Msg>,
    mut out: impl Write,
    text: bool,
    dropped: &AtomicU64,
    report: impl Fn(u64),
) {
    let mut buf: Vec<u8> = Vec::with_capacity(BATCH);
    let mut acks: Vec<SyncSender<()>> = Vec::new();
    while let Ok(first) = rx.recv() {
        let mut lines = 0u64;
        let mut next = Some(first);
        while let Some(msg) = next {
            match msg {
                Msg::Line(l) => {
                    if text {
                        buf.extend_from_slice(crate::serve::log::text_log::to_text(&l).as_bytes());
                    } else {
                        buf.extend_from_slice(l.as_bytes());
                    }
                    if buf.last() != Some(&b'\n') {
                        buf.push(b'\n');
                    }
                    lines += 1;
                }
                // Acknowledged after this batch is written: it follows every line before it.
                Msg::Flush(ack) => acks.push(ack),
            }
            next = if buf.len() < BATCH {
                rx.try_recv().ok()
            } else {
                None
            };
        }
        if !buf.is_empty() {
            if deliver(&mut out, &buf, || lines, dropped) {
                report_dropped(dropped, &report);
            }
            buf.clear();
        }
        for ack in acks.drain(..) {
            let _ = ack.try_send(());
        }
        // A busy server: let the next lines gather instead of being woken for each one
        // (every wake-up costs the request's thread a futex call). Lines wait at most this.
        if lines > 1 {
            std::thread::sleep(COALESCE);
        }
    }
}

/// `{"time": RFC 3339, "event": kind, "message": message}`.
pub fn event_line(clock: &Clock, kind: Event, message: &str) -> String {
    let time = Stamp::at(clock.now_precise());
    serde_json::json!({ "time": time.as_str(), "event": kind.name(), "message": message })
        .to_string()
}

/// "00" to "99".
const PAIRS: &[u8; 200] = b"0001020304050607080910111213141516171819\
2021222324252627282930313233343536373839\
4041424344454647484950515253545556575859\
6061626364656667686970717273747576777879\
8081828384858687888990919293949596979899";

/// A time written RFC 3339 (UTC, nanoseconds without their trailing zeros, as the `time`
/// crate writes it) on the stack: one per request, for its access-log line and its record.
pub struct Stamp {
    buf: [u8; 32],
    len: usize,
}

impl Stamp {
    /// The time `t`. A UTC time within years 0 to 9999 (every time the system clock gives)
    /// is written from the date and time of its second, kept per thread and made once a
    /// second, and its nanoseconds; any other as the `time` crate writes it.
    pub fn at(t: OffsetDateTime) -> Stamp {
        if !t.offset().is_utc() || !(0..=9999).contains(&t.year()) {
            return Stamp::formatted(t);
        }
        thread_local! {
            static SECOND: std::cell::Cell<(i64, [u8; 19])> = const { std::cell::Cell::new((i64::MIN, [0; 19])) };
        }
        let secs = t.unix_timestamp();
        let date = SECOND.with(|cell| {
            let (at, date) = cell.get();
            if at == secs {
                return date;
            }
            // "YYYY-MM-DDTHH:MM:SS" then "Z": the whole second as the crate writes it.
            let whole = Stamp::formatted(Clock::to_second(t));
            let mut date = [0u8; 19];
            date.copy_from_slice(&whole.buf[..19]);
            cell.set((secs, date));
            date
        });
        let mut buf = [0u8; 32];
        buf[..19].copy_from_slice(&date);
        let mut len = 19;
        let nanos = t.nanosecond();
        if nanos != 0 {
            // Nine digits, two at a time, then without their trailing zeros.
            let mut ten = [b'0'; 10];
            let mut n = nanos;
            for i in [8, 6, 4, 2, 0] {
                let pair = (n % 100) as usize * 2;
                ten[i..i + 2].copy_from_slice(&PAIRS[pair..pair + 2]);
                n /= 100;
            }
            // `ten` holds ten digits, the first always 0: the nine are after it.
            let digits = 9 - ten[1..].iter().rev().take_while(|&&c| c == b'0').count();
            buf[len] = b'.';
            buf[len + 1..len + 1 + digits].copy_from_slice(&ten[1..1 + digits]);
            len += 1 + digits;
        }
        buf[len] = b'Z';
        Stamp { buf, len: len + 1 }
    }

    /// `t` as the `time` crate writes it.
    fn formatted(t: OffsetDateTime) -> Stamp {
        let mut buf = [0u8; 32];
        let mut w = &mut buf[..];
        let room = w.len();
        // "YYYY-MM-DDTHH:MM:SS.nnnnnnnnn+HH:MM" is 35 bytes, too long for the buffer: it is
        // only reached by a test clock set with an offset, and fails to an empty stamp, as a
        // year past 9999 does. The length is what the writer took: `format_into`'s count
        // leaves out the fraction's digits.
        let ok = t
            .format_into(&mut w, &time::format_description::well_known::Rfc3339)
            .is_ok();
        let len = if ok { room - w.len() } else { 0 };
        Stamp { buf, len }
    }

    /// The stamp.
    pub fn as_str(&self) -> &str {
        std::str::from_utf8(&self.buf[..self.len]).unwrap_or_default()
    }

    /// The stamp's bytes, what [`Stamp::as_str`] reads (ASCII: digits, `-:.TZ+`), not read as
    /// `str` again: for a writer of bytes.
    pub fn as_bytes(&self) -> &[u8] {
        &self.buf[..self.len]
    }
}

#[cfg(test)]
pub(in crate::serve) mod tests {
    use super::*;
    use std::sync::Mutex;

    /// An output that keeps what is written to it, readable from the test.
    #[derive(Clone, Default)]
    pub(in crate::serve) struct Shared(pub Arc<Mutex<Vec<u8>>>);

    impl Write for Shared {
        fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(b);
            Ok(b.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn a_stamp_is_the_whole_rfc3339_time() {
        use time::format_description::well_known::Rfc3339;
        let before = OffsetDateTime::now_utc();
        let stamp = Stamp::at(Clock::System.now_precise());
        let s = stamp.as_str();
        let t = OffsetDateTime::parse(s, &Rfc3339).unwrap_or_else(|e| panic!("{s:?}: {e}"));
        assert!(s.ends_with('Z') && t >= before, "{s}");
        assert_eq!(
            t.format(&Rfc3339).unwrap(),
            s,
            "as the time crate writes it"
        );
    }

    #[test]
    fn a_stamp_is_what_the_time_crate_writes() {
        use time::format_description::well_known::Rfc3339;
        let base = OffsetDateTime::now_utc().replace_nanosecond(0).unwrap();
        for (secs, nanos) in [
            (0, 0),
            (0, 1),
            (0, 10),
            (0, 120_000_000),
            (0, 999_999_999),
            (1, 500),
            (1, 500),
            (86_400 * 365, 7),
            (-86_400 * 40_000, 123_456_780),
        ] {
            let t = (base + time::Duration::seconds(secs))
                .replace_nanosecond(nanos)
                .unwrap();
            assert_eq!(Stamp::at(t).as_str(), t.format(&Rfc3339).unwrap(), "{t}");
        }
        // Every count of trailing zeros, and digits at every place.
        let mut n = 1u32;
        for i in 0..20_000u32 {
            n = n.wrapping_mul(1_103_515_245).wrapping_add(12_345) % 1_000_000_000;
            let nanos = n / 10u32.pow(i % 10) * 10u32.pow(i % 10);
            let t = base.replace_nanosecond(nanos).unwrap();
            assert_eq!(Stamp::at(t).as_str(), t.format(&Rfc3339).unwrap(), "{t}");
        }
        let shifted = base.to_offset(time::macros::offset!(+2));
        assert_eq!(
            Stamp::at(shifted).as_str(),
            shifted.format(&Rfc3339).unwrap()
        );
    }

    #[test]
    fn lines_come_out_whole_and_in_order_and_a_flush_follows_them() {
        let (tx, rx) = sync_channel::<Msg>(QUEUE);
        let out = Shared::default();
        let sink = out.clone();
        let t = std::thread::spawn(move || writer(rx, sink, false, &AtomicU64::new(0), |_| {}));
        for i in 0..5000 {
            tx.send(Msg::Line(format!("line {i}"))).unwrap();
        }
        let (ack, done) = sync_channel(1);
        tx.send(Msg::Flush(ack)).unwrap();
        done.recv_timeout(Duration::from_secs(10)).unwrap();
        let text = String::from_utf8(out.0.lock().unwrap().clone()).unwrap();
        let want: String = (0..5000).map(|i| format!("line {i}\n")).collect();
        assert_eq!(
            text, want,
            "everything before the flush is written when it is acknowledged"
        );
        drop(tx);
        t.join().unwrap();
    }
}
