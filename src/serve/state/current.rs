//! The state in place: swapped whole at a reload, read by every request. A request's read
//! writes nothing that another core reads: each thread keeps the state it last saw behind an
//! `Arc` of its own, and takes the state again only when the generation (written at a swap)
//! has moved. Reading through the shared lock and cloning the shared `Arc` were four atomic
//! writes per request to cache lines that every worker writes.

use std::cell::RefCell;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, RwLock};

use crate::serve::state::live::State;

/// The state in place.
pub(in crate::serve) struct Current {
    state: RwLock<Arc<State>>,
    /// Moved at every swap, after the state is in place.
    generation: AtomicU64,
    /// Which `Current` a thread's copy is of: the tests run several servers in one process.
    id: u64,
}

/// Ids for [`Current`]s, never reused.
static IDS: AtomicU64 = AtomicU64::new(0);

/// The state as one thread holds it: the count of this `Arc` is that thread's alone.
pub(in crate::serve) struct Held(Arc<State>);

impl std::ops::Deref for Held {
    type Target = Arc<State>;
    fn deref(&self) -> &Arc<State> {
        &self.0
    }
}

/// A thread's copy: the `Current`'s id, its generation when read, the state.
type ThreadCopy = Option<(u64, u64, Arc<Held>)>;

thread_local! {
    static HERE: RefCell<ThreadCopy> = const { RefCell::new(None) };
}

impl Current {
    pub fn new(state: State) -> Current {
        Current {
            state: RwLock::new(Arc::new(state)),
            generation: AtomicU64::new(0),
            id: IDS.fetch_add(1, Ordering::Relaxed),
        }
    }

    /// The state, read through the lock.
    pub fn get(&self) -> Arc<State> {
        self.state.read().unwrap_or_else(|p| p.into_inner()).clone()
    }

    /// The state as this thread last read it, unless a swap has happened since. Relies on
    /// [`Current::replace`] moving the generation only after the new state is in place (and
    /// under the write lock): a thread that sees the new generation reads the new state. A
    /// thread keeps the last state it read alive until it reads again: at most one state
    /// more per thread.
    pub fn here(&self) -> Arc<Held> {
        let generation = self.generation.load(Ordering::Acquire);
        HERE.with_borrow_mut(|here| match here {
            Some((id, g, s)) if *id == self.id && *g == generation => s.clone(),
            _ => {
                let s = Arc::new(Held(self.get()));
                *here = Some((self.id, generation, s.clone()));
                s
            }
        })
    }

    /// Puts what `f` makes of the state in place instead of it, under the write lock: two
    /// replacements never undo each other.
    pub fn replace(&self, f: impl FnOnce(&Arc<State>) -> State) {
        let mut state = self.state.write().unwrap_or_else(|p| p.into_inner());
        *state = Arc::new(f(&state));
        self.generation.fetch_add(1, Ordering::Release);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ops::tests::{Lab, t0};
    use crate::serve::state::live::Loader;

    #[test]
    fn a_thread_sees_each_swap_and_each_current_its_own_state() {
        let lab = Lab::new();
        let provider = Arc::new(rustls::crypto::aws_lc_rs::default_provider());
        let loader = Loader::new(lab.dir.clone(), provider, None);
        let state = || loader.initial(t0()).unwrap().0;
        let (a, b) = (Current::new(state()), Current::new(state()));
        let first = a.here();
        assert!(Arc::ptr_eq(&first, &a.here()), "kept while nothing swapped");
        assert!(Arc::ptr_eq(&first.0, &a.get()));
        assert!(!Arc::ptr_eq(&a.here().0, &b.here().0), "each its own");
        a.replace(|_| state());
        let second = a.here();
        assert!(!Arc::ptr_eq(&first.0, &second.0), "the swap is seen");
        assert!(Arc::ptr_eq(&second.0, &a.get()));
        std::thread::scope(|s| {
            s.spawn(|| assert!(Arc::ptr_eq(&a.here().0, &a.get())));
        });
    }
}
