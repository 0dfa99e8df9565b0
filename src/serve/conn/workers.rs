//! The connection workers: one thread per core (at most [`MAX`]), each with a runtime of its
//! own, each accepting from the same listening sockets and serving the connections it accepted
//! to their end.
//!
//! Why not tokio's multi-thread runtime: there a connection's task moves between threads and an
//! I/O event on one thread wakes another to help (a futex wake for about one request in five,
//! measured); with connections pinned, a keep-alive request is one `recvfrom` and one `writev`
//! on one thread. bench/RESULTS.md has the figures. This is nginx's model (workers sharing the
//! listening sockets, no accept mutex): a busy worker is not waiting in `epoll_wait`, so an idle
//! one takes the next connection.
//!
//! Invariant: a task spawned on a worker runs only while that worker's thread is in `block_on`,
//! which lasts until [`Workers::stop`]; the server stops them only after the drain, so a
//! connection is never dropped unfinished by a worker ending before the drain's timeout.

use std::thread::JoinHandle;

use anyhow::{Context, Result};
use tokio::runtime::{Builder, Handle};
use tokio::sync::oneshot;

/// The most workers: each waits on the listening sockets, and a new connection wakes every idle
/// one (the one that accepts it serves it; mio cannot ask for EPOLLEXCLUSIVE, which would wake
/// one). Four cores take about 28,000 TLS handshakes a second (serve spends about 140 µs of CPU
/// on a full handshake and its request, bench/RESULTS.md), more than a fleet's first boot asks.
pub const MAX: usize = 4;

/// How many workers for `cores` cores.
fn how_many(cores: usize) -> usize {
    cores.clamp(1, MAX)
}

/// The running workers.
pub(in crate::serve) struct Workers {
    handles: Vec<Handle>,
    running: Vec<(oneshot::Sender<()>, JoinHandle<()>)>,
}

impl Workers {
    /// Starts one worker per core the process may use, at least one, at most [`MAX`].
    pub fn start() -> Result<Workers> {
        let n = how_many(std::thread::available_parallelism().map_or(1, |n| n.get()));
        let mut workers = Workers {
            handles: Vec::with_capacity(n),
            running: Vec::with_capacity(n),
        };
        for i in 0..n {
            let rt = Builder::new_current_thread()
                .enable_all()
                .build()
                .context("starting a connection worker's runtime")?;
            let (end, ended) = oneshot::channel::<()>();
            workers.handles.push(rt.handle().clone());
            let thread = std::thread::Builder::new()
                .name(format!("serve-worker-{i}"))
                .spawn(move || {
                    rt.block_on(async {
                        let _ = ended.await;
                    });
                    // Tasks still there (the drain timed out) are dropped without waiting.
                    rt.shutdown_background();
                })
                .context("starting a connection worker")?;
            workers.running.push((end, thread));
        }
        Ok(workers)
    }

    /// Where connection tasks are spawned: one handle per worker.
    pub fn handles(&self) -> &[Handle] {
        &self.handles
    }

    /// Ends every worker (after the drain) and waits for their threads, off the async thread:
    /// each ends as soon as its `block_on` returns, dropping what the drain left.
    pub async fn stop(self) {
        let mut threads = Vec::with_capacity(self.running.len());
        for (end, thread) in self.running {
            let _ = end.send(());
            threads.push(thread);
        }
        let _ = tokio::task::spawn_blocking(move || {
            for thread in threads {
                let _ = thread.join();
            }
        })
        .await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_worker_per_core_up_to_four() {
        assert_eq!([0, 1, 2, 4, 5, 64].map(how_many), [1, 1, 2, 4, 4, 4]);
    }

    #[test]
    fn every_worker_runs_what_is_spawned_on_it_until_stopped() {
        let workers = Workers::start().unwrap();
        assert!(!workers.handles().is_empty());
        let names: Vec<String> = workers
            .handles()
            .iter()
            .map(|h| {
                let (tx, rx) = std::sync::mpsc::channel();
                h.spawn(async move {
                    let name = std::thread::current().name().map(str::to_owned);
                    tx.send(name.unwrap_or_default()).unwrap();
                });
                rx.recv_timeout(std::time::Duration::from_secs(10)).unwrap()
            })
            .collect();
        let expected: Vec<String> = (0..names.len())
            .map(|i| format!("serve-worker-{i}"))
            .collect();
        assert_eq!(names, expected);
        let control = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        control.block_on(workers.stop());
    }
}
