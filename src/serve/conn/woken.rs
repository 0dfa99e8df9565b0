//! A future polled only when it asked to be: what a connection waits on beside hyper's
//! connection (serve stopping, the connection evicted, its deadline) is rare, and polling it
//! at each of the connection's wake-ups (a request read, a response written) cost a keep-alive
//! request about 500 instructions. [`Woken`] gives its future a waker of its own, which marks
//! it woken and wakes the task; at the task's other wake-ups it answers `Pending` after one
//! atomic swap.
//!
//! Invariant relied on: the inner future is polled at the first poll and after every wake of
//! its own waker, so it never misses a wake-up (a future that is not polled again after waking
//! its waker is what `Future` allows a caller to do, as long as it is polled when woken).

use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll, Wake, Waker};

/// `F`, polled only at its first poll and after its own waker was woken.
pub(in crate::serve) struct Woken<F> {
    inner: Pin<Box<F>>,
    flag: Arc<Flag>,
    waker: Waker,
}

/// Whether the inner future was woken, and the task to wake when it is.
struct Flag {
    woken: AtomicBool,
    task: Mutex<Option<Waker>>,
}

impl Flag {
    fn task(&self) -> std::sync::MutexGuard<'_, Option<Waker>> {
        self.task.lock().unwrap_or_else(|p| p.into_inner())
    }
}

impl Wake for Flag {
    fn wake(self: Arc<Self>) {
        self.wake_by_ref();
    }

    fn wake_by_ref(self: &Arc<Self>) {
        // Set before the task is woken, so the poll that wake causes sees it.
        self.woken.store(true, Ordering::Release);
        if let Some(w) = self.task().as_ref() {
            w.wake_by_ref();
        }
    }
}

impl<F: Future> Woken<F> {
    pub(in crate::serve) fn new(inner: F) -> Woken<F> {
        let flag = Arc::new(Flag {
            woken: AtomicBool::new(true),
            task: Mutex::new(None),
        });
        Woken {
            inner: Box::pin(inner),
            waker: Waker::from(flag.clone()),
            flag,
        }
    }
}

impl<F: Future> Future for Woken<F> {
    type Output = F::Output;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<F::Output> {
        let this = self.get_mut();
        {
            // The task to wake, kept current (a task's waker rarely changes: compared, not
            // cloned, at each poll).
            let mut task = this.flag.task();
            if !task.as_ref().is_some_and(|w| w.will_wake(cx.waker())) {
                *task = Some(cx.waker().clone());
            }
        }
        if !this.flag.woken.swap(false, Ordering::AcqRel) {
            return Poll::Pending;
        }
        this.inner
            .as_mut()
            .poll(&mut Context::from_waker(&this.waker))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicUsize;

    /// Counts its polls; ready once `ready` is set.
    struct Probe {
        polls: Arc<AtomicUsize>,
        ready: Arc<AtomicBool>,
        waker: Arc<Mutex<Option<Waker>>>,
    }

    impl Future for Probe {
        type Output = ();
        fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
            self.polls.fetch_add(1, Ordering::SeqCst);
            if self.ready.load(Ordering::SeqCst) {
                return Poll::Ready(());
            }
            *self.waker.lock().unwrap() = Some(cx.waker().clone());
            Poll::Pending
        }
    }

    struct Count(AtomicUsize);
    impl Wake for Count {
        fn wake(self: Arc<Self>) {
            self.0.fetch_add(1, Ordering::SeqCst);
        }
    }

    #[test]
    fn the_inner_future_is_polled_first_and_then_only_when_it_was_woken() {
        let (polls, ready) = (
            Arc::new(AtomicUsize::new(0)),
            Arc::new(AtomicBool::new(false)),
        );
        let inner_waker = Arc::new(Mutex::new(None::<Waker>));
        let mut w = Box::pin(Woken::new(Probe {
            polls: polls.clone(),
            ready: ready.clone(),
            waker: inner_waker.clone(),
        }));
        let task = Arc::new(Count(AtomicUsize::new(0)));
        let task_waker = Waker::from(task.clone());
        let mut cx = Context::from_waker(&task_waker);
        assert!(w.as_mut().poll(&mut cx).is_pending());
        assert_eq!(polls.load(Ordering::SeqCst), 1);
        // The task's other wake-ups: the inner future is not polled.
        for _ in 0..3 {
            assert!(w.as_mut().poll(&mut cx).is_pending());
        }
        assert_eq!(polls.load(Ordering::SeqCst), 1);
        // Its own waker fires: the task is woken, and the next poll reaches it.
        ready.store(true, Ordering::SeqCst);
        inner_waker.lock().unwrap().take().unwrap().wake();
        assert_eq!(task.0.load(Ordering::SeqCst), 1);
        assert!(w.as_mut().poll(&mut cx).is_ready());
        assert_eq!(polls.load(Ordering::SeqCst), 2);
    }
}
