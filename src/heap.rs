//! The C heap (glibc's malloc): when memory a large config no longer needs goes back to the
//! kernel.
//!
//! glibc starts with a threshold of 128 KiB for giving a block a mapping of its own and,
//! whenever such a block is freed, raises it to that block's size (up to 32 MiB). After serve's
//! first load has freed a large config's document (file contents of a megabyte each, say),
//! the next load's strings come from the heap instead, and what that load frees as it writes
//! the body stays in the heap: a reload of a 500 MB config then peaked at 3.1 to 4.1 times the
//! config and kept twice to three times the config resident afterwards, against 2.05 and 1.03
//! with the threshold fixed ([`fix_thresholds`], `bench/memory.sh`). serve allocates nothing
//! that large per request (`strace` of every bench case: no `mmap` or `munmap` while serving).
//!
//! Fixing that threshold fixes the other, the size of free memory at the top of a heap past
//! which `free` gives it back: left at its initial 128 KiB, the threads' heaps gave back and
//! faulted in again about once per request of the 300 KB bench case (1.0 to 1.5 page faults
//! per request against 0.3 to 0.6); at 4 MiB, 0.04. At most 4 MiB per heap stays unreturned.
//!
//! Strings under the threshold (file contents of 16 KiB, say) live inside the heap, and
//! freeing them returns nothing while anything after them lives; [`give_back`] returns the
//! free pages wherever they are, which loading calls as it drops a config's sources.
//!
//! This is the only module of mcsctl with `unsafe` code: the calls to `mallopt` and
//! `malloc_trim`, sound because they take no pointer: each sets a number or walks the
//! allocator's own lists under its own lock.
#![allow(unsafe_code)]

/// glibc's initial threshold for a block of its own, which serve keeps.
const MMAP_THRESHOLD: i32 = 128 * 1024;

/// Free memory at the top of a heap that `free` keeps.
const TRIM_THRESHOLD: i32 = 4 << 20;

/// Fixes both thresholds, for a process that loads large configs again and again (serve).
/// glibc only; other C libraries have no such adjustment. Returns whether the allocator took
/// both settings.
pub fn fix_thresholds() -> bool {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        // SAFETY: `mallopt` takes two integers and no pointer; glibc takes its arena lock.
        unsafe {
            libc::mallopt(libc::M_MMAP_THRESHOLD, MMAP_THRESHOLD) == 1
                && libc::mallopt(libc::M_TRIM_THRESHOLD, TRIM_THRESHOLD) == 1
        }
    }
    #[cfg(not(all(target_os = "linux", target_env = "gnu")))]
    {
        let _ = (MMAP_THRESHOLD, TRIM_THRESHOLD);
        false
    }
}

/// Returns the heap's free pages to the kernel, wherever they are (glibc only). It walks every
/// free block of every heap: call it after freeing much, not per request.
pub fn give_back() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: `malloc_trim` takes a number and no pointer; glibc takes each arena's lock.
    unsafe {
        libc::malloc_trim(0);
    }
}
