//! Per-thread shards: counters and buffers that every request writes are kept one per thread,
//! so that a request writes no cache line another worker writes. Threads take shards in turn;
//! with no more workers than [`SHARDS`], two workers never share one.

use std::sync::atomic::{AtomicUsize, Ordering};

/// Shards per sharded value: more than the most workers ([`crate::serve::conn::workers::MAX`]).
pub(in crate::serve) const SHARDS: usize = 8;

/// The shard each new thread takes.
static NEXT: AtomicUsize = AtomicUsize::new(0);

thread_local! {
    static MINE: usize = NEXT.fetch_add(1, Ordering::Relaxed) % SHARDS;
}

/// The calling thread's shard, below [`SHARDS`].
pub(in crate::serve) fn mine() -> usize {
    MINE.with(|s| *s)
}

/// A value on cache lines of its own.
#[derive(Debug, Default)]
#[repr(align(128))]
pub(in crate::serve) struct Padded<T>(pub T);
