//! The ledger's append region: the stretch of the file past its last record, mapped into
//! memory (`MAP_SHARED`), so that appending a record is a copy instead of a `pwrite`. A byte
//! copied there is in the kernel's page cache at once: a kill -9 of serve cannot lose it, and
//! `fdatasync` of the file writes it to disk like any other.
//!
//! This is the only module of mcsctl with `unsafe` code, and its one use is the copy in
//! [`Region::append`]. What makes it sound:
//! - each append copies only to the offsets its own `fetch_add` on the region's counter
//!   reserved, so no two copies touch the same byte, and nothing in this process reads the
//!   mapping (confirmations read and write through the file, with appends held back);
//! - it copies only inside the mapping (checked on every append), which lives as long as the
//!   region does;
//! - the region's blocks are allocated (`fallocate`) before it is mapped, so storing into them
//!   never needs a block the disk does not have (no `SIGBUS` on a full disk), and this process
//!   truncates the file only after dropping the mapping. Another process truncating the file
//!   under serve would make the copy fault (`SIGBUS`): a crash, never a wrong byte; the ledger
//!   is 0600 in `auth/`, and serve holds its `flock`.
#![allow(unsafe_code)]

use std::fs::File;
use std::sync::atomic::{AtomicU64, Ordering};

use memmap2::{MmapOptions, MmapRaw};

/// How much of the file one region maps.
pub(super) const SIZE: u64 = 4 << 20;

/// The mapping's offsets must be multiples of the page size; this is a multiple of all.
const ALIGN: u64 = 64 * 1024;

/// Where an append went.
pub(super) enum Placed {
    /// Copied into the mapping, at this offset of the file.
    Mapped(u64),
    /// Past the mapping: the caller writes it at this offset itself (and grows the region).
    Beyond(u64),
}

/// The mapped stretch of a ledger file and the end of what is written in it.
#[derive(Debug)]
pub(super) struct Region {
    map: MmapRaw,
    /// The file offset of the mapping's first byte.
    start: u64,
    /// Where the next record goes (may run past the mapping).
    end: AtomicU64,
}

impl Region {
    /// Maps the stretch of `file` from `end` (the end of its records) to [`SIZE`] past it,
    /// allocating its blocks first (they read as zeros). Nothing is written: the page cache
    /// holds only what records fill.
    pub(super) fn map(file: &File, end: u64) -> std::io::Result<Region> {
        let start = end / ALIGN * ALIGN;
        let len = (end - start) + SIZE;
        rustix::fs::fallocate(file, rustix::fs::FallocateFlags::empty(), end, SIZE)?;
        let map = MmapOptions::new()
            .offset(start)
            .len(len as usize)
            .map_raw(file)?;
        Ok(Region {
            map,
            start,
            end: AtomicU64::new(end),
        })
    }

    /// Where the next record goes.
    pub(super) fn end(&self) -> u64 {
        self.end.load(Ordering::Relaxed)
    }

    /// Whether fewer than `room` bytes of the mapping are left.
    pub(super) fn nearly_full(&self, room: u64) -> bool {
        self.end() + room > self.start + self.map.len() as u64
    }

    /// Reserves the next `bytes.len()` bytes of the file and, when they lie in the mapping,
    /// copies `bytes` there.
    pub(super) fn append(&self, bytes: &[u8]) -> Placed {
        let at = self.end.fetch_add(bytes.len() as u64, Ordering::Relaxed);
        let Some(off) = at
            .checked_sub(self.start)
            .filter(|off| off + bytes.len() as u64 <= self.map.len() as u64)
        else {
            return Placed::Beyond(at);
        };
        // SAFETY: [off, off + len) lies inside the mapping (just checked), which `self` keeps
        // mapped; these offsets were reserved by this append's fetch_add alone, so no other
        // thread writes them, and nothing in this process reads the mapping. The module's
        // comment says why the store cannot fault.
        unsafe {
            std::ptr::copy_nonoverlapping(
                bytes.as_ptr(),
                self.map.as_mut_ptr().add(off as usize),
                bytes.len(),
            );
        }
        Placed::Mapped(at)
    }
}
