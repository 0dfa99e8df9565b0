//! Whether a machine token's config went out whole. The response body says when hyper took
//! its last byte ([`Body`]); the connection says when everything taken so far has been
//! written to the kernel ([`Confirming`], on a flush that succeeded). Both for one claim: the
//! fetch is confirmed (its ledger flag rewritten, its use spent) and the request's access-log
//! line, held back until then, is written with it. A connection that ends first (cut, timed
//! out, closed by the client) writes the line with `"whole":false`, and the claim is given
//! back: the ledger keeps its `false`, and the machine may fetch again.
//!
//! hyper flushes the connection only after its own buffer is empty (`Buffered::poll_flush`
//! writes every queued byte, then flushes the transport; for TLS that writes the records
//! rustls holds), so a flush completing after the body's last frame was taken means the
//! response is in the socket.

use crate::serve::log::event::Event;
use std::collections::VecDeque;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll, ready};

use bytes::Bytes;
use hyper::body::{Frame, SizeHint};

use crate::ignition::chunks::Chunks;
use crate::serve::fetches::Gate;
use crate::serve::state::shared::Shared;

/// The recorded responses of one connection not yet known to have gone out.
pub(in crate::serve) struct Delivery {
    shared: Arc<Shared>,
    pending: Mutex<VecDeque<Pending>>,
    /// Whether `pending` may hold anything: a flush with nothing pending takes no lock.
    any: AtomicBool,
}

struct Pending {
    /// The claim.
    id: u64,
    /// The request's access-log line, ending in the record with `"whole":false`.
    line: String,
    /// Where that `false` is in `line`.
    at: usize,
    /// hyper took the body's last frame.
    taken: bool,
}

impl Delivery {
    pub(in crate::serve) fn new(shared: Arc<Shared>) -> Arc<Delivery> {
        Arc::new(Delivery {
            shared,
            pending: Mutex::default(),
            any: AtomicBool::new(false),
        })
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, VecDeque<Pending>> {
        self.pending.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// A recorded response is about to be sent: its access-log `line` (whose record's flag is
    /// at `at`) waits for the outcome of claim `id`.
    pub(in crate::serve) fn start(&self, id: u64, line: String, at: usize) {
        self.lock().push_back(Pending {
            id,
            line,
            at,
            taken: false,
        });
        self.any.store(true, Ordering::Release);
    }

    /// hyper took the last frame of the oldest body not yet taken.
    fn taken(&self) {
        if let Some(p) = self.lock().iter_mut().find(|p| !p.taken) {
            p.taken = true;
        }
    }

    /// A flush succeeded: every body taken before it is in the socket.
    fn flushed(&self) {
        if !self.any.load(Ordering::Acquire) {
            return;
        }
        // Finished under the lock: `finish` takes the ledger's lock and queues a log line,
        // neither of which ever waits on a delivery.
        let mut q = self.lock();
        while q.front().is_some_and(|p| p.taken) {
            if let Some(p) = q.pop_front() {
                self.finish(p, true);
            }
        }
        self.any.store(!q.is_empty(), Ordering::Release);
    }

    fn finish(&self, mut p: Pending, whole: bool) {
        if whole {
            if let Err(e) = self.shared.fetches.confirm(p.id) {
                self.shared.log.event(
                    Event::LedgerFailed,
                    &format!("{e}: a whole fetch stays recorded as not whole on disk"),
                );
            }
            if p.line.get(p.at..p.at + 5) == Some("false") {
                p.line.replace_range(p.at..p.at + 5, "true");
            }
        } else if let Some(msg) = self.shared.fetches.cut(p.id) {
            self.shared.say_of_token(&msg.0, Event::FetchCut, &msg.1);
        }
        self.shared.log.access(&p.line);
    }
}

impl Drop for Delivery {
    /// The connection is gone: what was not confirmed did not go out whole.
    fn drop(&mut self) {
        let left: Vec<Pending> = self.lock().drain(..).collect();
        for p in left {
            self.finish(p, false);
        }
    }
}

/// The last bytes of a gated body, held back until its gate opens: the config's end, what a
/// fetch is marked `ending` for before it goes (`store::claims`, rule 2).
pub(in crate::serve) const END: usize = 16 * 1024;

/// The largest piece a gated body hands hyper at once: hyper queues what it takes ahead of the
/// socket, and a gated body's end mark must come late, when the rest is nearly sent.
const PIECE: usize = 64 * 1024;

/// Why a body stopped short: its end could not be marked. hyper closes the connection, the
/// client sees fewer bytes than Content-Length says, and the fetch is cut.
#[derive(Debug)]
pub(in crate::serve) struct Stopped(String);

impl std::fmt::Display for Stopped {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "the response was stopped before its end: {}", self.0)
    }
}

impl std::error::Error for Stopped {}

/// A response body (a buffer, or a config in pieces) that tells its [`Delivery`] when hyper
/// takes its last piece. A gated one hands out its last [`END`] bytes only once its gate (the
/// end mark in the store) opened; if the gate fails they are never handed out.
pub(in crate::serve) struct Body {
    /// The pieces; those before `next` are taken (of `next`, the bytes before `offset`).
    data: Chunks,
    next: usize,
    offset: usize,
    /// Bytes not yet taken.
    left: u64,
    delivery: Option<Arc<Delivery>>,
    gate: Option<Gate>,
}

impl Body {
    /// A body nobody waits on.
    pub(in crate::serve) fn new(data: impl Into<Chunks>) -> Body {
        let data = data.into();
        Body {
            left: data.len() as u64,
            data,
            next: 0,
            offset: 0,
            delivery: None,
            gate: None,
        }
    }

    /// A body whose taking `delivery` waits on (an empty one is taken at once: hyper never
    /// asks for it), and whose end waits on `gate`.
    pub(in crate::serve) fn tracked(
        data: Chunks,
        delivery: Arc<Delivery>,
        gate: Option<Gate>,
    ) -> Body {
        if data.is_empty() {
            delivery.taken();
            return Body::new(data);
        }
        Body {
            delivery: Some(delivery),
            gate,
            ..Body::new(data)
        }
    }

    /// The next piece: a whole part of an ungated body; at most [`PIECE`] of a gated one,
    /// never running from before its last [`END`] bytes into them.
    fn piece(&mut self) -> Option<Bytes> {
        let part = self.data.parts().get(self.next)?;
        let rest = part.len() - self.offset;
        let mut n = rest;
        if self.gate.is_some() {
            n = n.min(PIECE);
            let before_end = self.left.saturating_sub(END as u64);
            if before_end > 0 {
                n = n.min(before_end as usize);
            }
        }
        let piece = part.slice(self.offset..self.offset + n);
        if n == rest {
            self.next += 1;
            self.offset = 0;
        } else {
            self.offset += n;
        }
        Some(piece)
    }
}

impl hyper::body::Body for Body {
    type Data = Bytes;
    type Error = Stopped;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Stopped>>> {
        let this = self.get_mut();
        // The end goes only once the gate opened (polled again until it has).
        if this.left <= END as u64
            && let Some(gate) = this.gate.as_mut()
        {
            let opened = ready!(gate.as_mut().poll(cx));
            this.gate = None;
            if let Err(why) = opened {
                this.left = 0;
                return Poll::Ready(Some(Err(Stopped(why))));
            }
        }
        let frame = this.piece();
        this.left -= frame.as_ref().map_or(0, |f| f.len() as u64);
        if this.left == 0
            && let Some(d) = this.delivery.take()
        {
            d.taken();
        }
        Poll::Ready(frame.map(|d| Ok(Frame::data(d))))
    }

    fn is_end_stream(&self) -> bool {
        self.left == 0
    }

    fn size_hint(&self) -> SizeHint {
        SizeHint::with_exact(self.left)
    }
}

/// A connection's transport, telling its [`Delivery`] of every flush that succeeded.
pub(in crate::serve) struct Confirming<I> {
    pub(in crate::serve) inner: I,
    pub(in crate::serve) delivery: Arc<Delivery>,
}

impl<I: hyper::rt::Read + Unpin> hyper::rt::Read for Confirming<I> {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: hyper::rt::ReadBufCursor<'_>,
    ) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_read(cx, buf)
    }
}

impl<I: hyper::rt::Write + Unpin> hyper::rt::Write for Confirming<I> {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        Pin::new(&mut self.get_mut().inner).poll_write(cx, buf)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[std::io::IoSlice<'_>],
    ) -> Poll<std::io::Result<usize>> {
        Pin::new(&mut self.get_mut().inner).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        let this = self.get_mut();
        let r = ready!(Pin::new(&mut this.inner).poll_flush(cx));
        if r.is_ok() {
            this.delivery.flushed();
        }
        Poll::Ready(r)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_shutdown(cx)
    }
}
