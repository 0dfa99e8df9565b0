//! The access log's queue: each thread appends its lines to a buffer of its own, and the
//! writer thread takes the buffers whole.
//!
//! A line handed over by itself cost its request more than writing it: the writer freed every
//! line where a worker had allocated it, taking that worker's malloc arena lock (perf: 0.16
//! `futex` calls per keep-alive request), and the channel's counters were written by every
//! worker. Here a request writes its line into its thread's buffer (under a lock that only the
//! writer also takes, once per batch), and the writer swaps that buffer for an empty one of
//! its own: buffers go back and forth between the threads, and none is freed on the way.
//!
//! Invariant the writer relies on: a buffer that gets its first byte since the writer last
//! took it sends a wake-up, unless wake-ups are already waiting (the writer takes every
//! buffer after each one it receives). So no line waits for a wake-up that never comes.

use std::io::Write;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, SyncSender};
use std::time::Duration;

use crate::serve::conn::shard::{Padded, SHARDS};

/// The bytes a thread's buffer holds before its lines are dropped and counted (a stalled
/// stdout must not grow serve's memory): about 2,000 lines, at most 4 MiB in all.
const LIMIT: usize = 512 << 10;

/// A buffer kept by the writer after a burst is given back past this size.
const KEEP: usize = 256 << 10;

/// What wakes the writer.
pub(in crate::serve) enum Wake {
    /// A buffer has lines.
    Lines,
    /// Acknowledge once every line appended before this is written.
    Flush(SyncSender<()>),
}

/// The buffers, one per shard.
#[derive(Default)]
pub(in crate::serve) struct Lines {
    shards: [Padded<Mutex<Vec<u8>>>; SHARDS],
    dropped: AtomicU64,
}

/// Where wake-ups go: the writer ends when every sender is dropped.
pub(in crate::serve) fn channel() -> (SyncSender<Wake>, Receiver<Wake>) {
    std::sync::mpsc::sync_channel(64)
}

impl Lines {
    /// Appends what `write` writes (one line, without its newline) to this thread's buffer,
    /// waking the writer through `wake` if need be; drops and counts the line when the buffer
    /// is full.
    pub fn push_with(&self, wake: &SyncSender<Wake>, write: impl FnOnce(&mut Vec<u8>)) {
        let mut buf = lock(&self.shards[crate::serve::conn::shard::mine()].0);
        if buf.len() >= LIMIT {
            drop(buf);
            self.dropped.fetch_add(1, Ordering::Relaxed);
            return;
        }
        let first = buf.is_empty();
        write(&mut buf);
        buf.push(b'\n');
        drop(buf);
        if first {
            // Full: wake-ups are waiting, and the writer takes every buffer after each.
            let _ = wake.try_send(Wake::Lines);
        }
    }

    /// The writer: takes every buffer after each wake-up and writes them, as text when
    /// `text`; `report` is told how many lines were dropped once output flows again.
    pub fn write(&self, rx: Receiver<Wake>, mut out: impl Write, text: bool, report: impl Fn(u64)) {
        let mut spare: Vec<u8> = Vec::new();
        let mut converted: Vec<u8> = Vec::new();
        let mut acks = Vec::new();
        while let Ok(first) = rx.recv() {
            let mut next = Some(first);
            while let Some(w) = next {
                if let Wake::Flush(ack) = w {
                    acks.push(ack);
                }
                next = rx.try_recv().ok();
            }
            let mut wrote = false;
            for shard in &self.shards {
                std::mem::swap(&mut *lock(&shard.0), &mut spare);
                if spare.is_empty() {
                    continue;
                }
                let bytes = if text {
                    converted.clear();
                    for line in spare.split(|b| *b == b'\n').filter(|l| !l.is_empty()) {
                        let line = String::from_utf8_lossy(line);
                        converted.extend_from_slice(
                            crate::serve::log::text_log::to_text(&line).as_bytes(),
                        );
                        converted.push(b'\n');
                    }
                    &converted
                } else {
                    &spare
                };
                let lines = || spare.iter().filter(|b| **b == b'\n').count() as u64;
                wrote |= deliver(&mut out, bytes, lines, &self.dropped);
                spare.clear();
                if spare.capacity() > KEEP {
                    spare = Vec::new();
                }
            }
            if wrote {
                report_dropped(&self.dropped, &report);
            }
            for ack in acks.drain(..) {
                let _ = ack.try_send(());
            }
            if wrote {
                std::thread::sleep(COALESCE);
            }
        }
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// How long a busy writer lets lines gather before the next write (both writers: each
/// wake-up costs the request that sends it a system call). Lines wait at most this.
pub(in crate::serve) const COALESCE: Duration = Duration::from_millis(2);

/// Writes `bytes` to `out`; whether they were written. When the reader is gone for good (a
/// closed pipe), their lines (`lines()`: counted only then) are added to `dropped`, as is what
/// is lost from then on.
pub(in crate::serve) fn deliver(
    out: &mut impl Write,
    bytes: &[u8],
    lines: impl FnOnce() -> u64,
    dropped: &AtomicU64,
) -> bool {
    let ok = out.write_all(bytes).and_then(|_| out.flush()).is_ok();
    if !ok {
        dropped.fetch_add(lines(), Ordering::Relaxed);
    }
    ok
}

/// Once output flows again: tells `report` how many lines were dropped, if any.
pub(in crate::serve) fn report_dropped(dropped: &AtomicU64, report: &impl Fn(u64)) {
    let n = dropped.swap(0, Ordering::Relaxed);
    if n > 0 {
        report(n);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::serve::log::tests::Shared as Sink;
    use std::sync::Arc;
    use std::time::Duration;

    #[test]
    fn every_thread_s_lines_come_out_whole_and_in_its_order_before_a_flush_is_acknowledged() {
        let (wake, rx) = channel();
        let lines = Arc::new(Lines::default());
        let out = Sink::default();
        let writer = {
            let (lines, out) = (lines.clone(), out.clone());
            std::thread::spawn(move || lines.write(rx, out, false, |_| {}))
        };
        std::thread::scope(|s| {
            for t in 0..5 {
                let (lines, wake) = (&lines, &wake);
                s.spawn(move || {
                    for i in 0..3000 {
                        lines.push_with(wake, |b| {
                            b.extend_from_slice(format!("{t} {i}").as_bytes())
                        });
                    }
                });
            }
        });
        let (ack, done) = std::sync::mpsc::sync_channel(1);
        wake.send(Wake::Flush(ack)).unwrap();
        done.recv_timeout(Duration::from_secs(10)).unwrap();
        let text = String::from_utf8(out.0.lock().unwrap().clone()).unwrap();
        let mut next = [0; 5];
        for line in text.lines() {
            let (t, i) = line.split_once(' ').unwrap();
            let (t, i): (usize, usize) = (t.parse().unwrap(), i.parse().unwrap());
            assert_eq!(i, next[t], "thread {t}'s lines in order");
            next[t] += 1;
        }
        assert_eq!(next, [3000; 5], "every line, once");
        drop(wake);
        writer.join().unwrap();
    }

    #[test]
    fn a_full_buffer_drops_and_counts_and_the_count_is_reported_when_output_flows() {
        let (wake, rx) = channel();
        let lines = Lines::default();
        let line = "x".repeat(1000);
        let n = LIMIT / 1001 + 10;
        for _ in 0..n {
            lines.push_with(&wake, |b| b.extend_from_slice(line.as_bytes()));
        }
        let dropped = lines.dropped.load(Ordering::Relaxed);
        // A line goes in while the buffer is under the limit.
        assert_eq!(dropped, (n - LIMIT.div_ceil(1001)) as u64);
        let lines = Arc::new(lines);
        let reported = Arc::new(AtomicU64::new(0));
        let out = Sink::default();
        {
            let (lines, out, reported) = (lines.clone(), out.clone(), reported.clone());
            std::thread::spawn(move || {
                lines.write(rx, out, false, move |n| {
                    reported.fetch_add(n, Ordering::Relaxed);
                })
            });
        }
        let (ack, done) = std::sync::mpsc::sync_channel(1);
        wake.send(Wake::Flush(ack)).unwrap();
        done.recv_timeout(Duration::from_secs(10)).unwrap();
        assert_eq!(reported.load(Ordering::Relaxed), dropped);
        let written = out.0.lock().unwrap().len();
        assert_eq!(written as u64, (n as u64 - dropped) * 1001);
    }
}
