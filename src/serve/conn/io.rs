//! A connection whose client stops reading, or reads too slowly, is cut off. Without this, a
//! client that pipelines requests and never reads, or reads a large config a few bytes at a
//! time, holds its connection (and a `--max-connections` slot) for as long as it likes.
//!
//! [`WriteGuard`] wraps the TCP stream (beneath TLS, so it sees the socket's real back-pressure).
//! Two rules, each ending the connection with a `TimedOut` error that hyper turns into a close:
//!
//! - Stall: from the first write that cannot go out whole (the socket buffer is full) until
//!   some bytes go out, a timer runs; when it fires the next write fails.
//! - Rate: while the socket buffer is full the client is what holds the data back. Over each
//!   stall timeout's worth of such time, the bytes it let through must reach [`WriteGuard`]'s
//!   minimum rate: a client that reads steadily but slowly (its progress defeats the stall
//!   rule) is cut off too. Time the socket is not full (a quiet client between requests, a
//!   fast one) never counts.
//!
//! A cut is abortive (`SO_LINGER` 0): the kernel drops what is unsent and resets the
//! connection, instead of trickling the rest of the config to the slow client.

use std::future::Future;
use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::time::Sleep;

/// Why a write guard cut a connection: the error its stream returns carries it, so the
/// connection's end is told by type, not by message text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cut {
    /// The client stopped reading: the socket stayed full for the write timeout.
    Stalled,
    /// The client read, but slower than the minimum send rate.
    TooSlow,
}

impl std::fmt::Display for Cut {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Cut::Stalled => "the client stopped reading (write timeout)",
            Cut::TooSlow => "the client reads slower than the minimum send rate",
        })
    }
}

impl std::error::Error for Cut {}

impl Cut {
    /// The cut a connection's error carries, if a write guard ended it.
    pub fn of(e: &(dyn std::error::Error + 'static)) -> Option<Cut> {
        let mut source = Some(e);
        while let Some(e) = source {
            if let Some(c) = e.downcast_ref::<Cut>() {
                return Some(*c);
            }
            if let Some(io) = e.downcast_ref::<io::Error>()
                && let Some(c) = io.get_ref().and_then(|i| i.downcast_ref::<Cut>())
            {
                return Some(*c);
            }
            source = e.source();
        }
        None
    }
}

/// The kernel's send buffer of a connection: bounded, so a slow reader's back-pressure reaches
/// [`WriteGuard`] (an autotuned buffer of megabytes would take a whole config at once and keep
/// trickling it out after the connection is gone) and kernel memory per connection is bounded.
pub const SEND_BUFFER: usize = 128 * 1024;

/// A transport that can end its connection abortively: unsent data is dropped and the peer
/// gets a reset, so a cut-off client stops costing anything at once.
pub trait Abort {
    /// Makes the coming close abortive.
    fn abort(&self);
}

impl Abort for tokio::net::TcpStream {
    fn abort(&self) {
        let _ = self.set_zero_linger();
    }
}

impl Abort for tokio::io::DuplexStream {
    fn abort(&self) {}
}

/// Set from outside (a connection past its deadline) to make the close abortive.
pub type AbortFlag = std::sync::Arc<std::sync::atomic::AtomicBool>;

/// A stream whose writes may stall for at most `timeout` in a row, and whose responses must go
/// out at `min_rate` bytes per second, measured over each `timeout` window once a response
/// takes longer than that.
pub struct WriteGuard<S: Abort> {
    inner: S,
    timeout: Duration,
    min_rate: u64,
    stalled: Option<Pin<Box<Sleep>>>,
    /// Since when the socket buffer has been full (the client is what holds the data back).
    blocked_since: Option<Instant>,
    /// The rate window: time spent blocked, and bytes written, since the window opened.
    window: Option<(Duration, u64)>,
    abort: AbortFlag,
}

impl<S: Abort> WriteGuard<S> {
    /// Wraps `inner`; `min_rate` in bytes per second (0: no rate rule).
    pub fn new(inner: S, timeout: Duration, min_rate: u64) -> WriteGuard<S> {
        WriteGuard {
            inner,
            timeout,
            min_rate,
            stalled: None,
            blocked_since: None,
            window: None,
            abort: AbortFlag::default(),
        }
    }

    /// The flag that makes dropping this stream an abortive close.
    pub fn abort_flag(&self) -> AbortFlag {
        self.abort.clone()
    }

    /// An error that ends the connection, abortively.
    fn cut(&self, why: Cut) -> io::Error {
        self.abort.store(true, std::sync::atomic::Ordering::Relaxed);
        io::Error::new(io::ErrorKind::TimedOut, why)
    }

    /// Notes a write of `n` of `wanted` bytes (`None`: nothing could be written); the error
    /// when the client has been draining the socket slower than the minimum rate. Only time
    /// the socket spent full counts, so a client that is simply quiet between requests is
    /// never measured.
    fn note(&mut self, n: Option<usize>, wanted: usize) -> io::Result<()> {
        let n = n.unwrap_or(0);
        // A whole write with nothing blocked before it adds no blocked time, and a window's
        // blocked time is under the timeout between calls (the check below resets or cuts it
        // once it gets there), so there is nothing to check: the clock is read only when the
        // socket is or was full (most writes of a small response are neither).
        if n >= wanted && self.blocked_since.is_none() {
            if let Some(w) = &mut self.window {
                w.1 += n as u64;
            }
            return Ok(());
        }
        let now = Instant::now();
        if let Some(since) = self.blocked_since
            && n > 0
        {
            let w = self.window.get_or_insert((Duration::ZERO, 0));
            w.0 += now.duration_since(since);
            self.blocked_since = None;
        }
        if let Some(w) = &mut self.window {
            w.1 += n as u64;
        }
        if n < wanted && self.blocked_since.is_none() {
            self.blocked_since = Some(now);
            self.window.get_or_insert((Duration::ZERO, 0));
        }
        if let Some((blocked, bytes)) = self.window
            && blocked >= self.timeout
        {
            if self.min_rate > 0 && (bytes as f64) < self.min_rate as f64 * blocked.as_secs_f64() {
                return Err(self.cut(Cut::TooSlow));
            }
            self.window = None;
        }
        Ok(())
    }

    /// The wrapped stream.
    pub fn get_ref(&self) -> &S {
        &self.inner
    }

    fn arm(&mut self) {
        if self.stalled.is_none() {
            self.stalled = Some(Box::pin(tokio::time::sleep(self.timeout)));
        }
    }

    /// While stalled: pending until the timer fires, then the error that ends the connection.
    fn expired<T>(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<T>> {
        let fired = self
            .stalled
            .as_mut()
            .is_some_and(|s| s.as_mut().poll(cx).is_ready());
        if fired {
            Poll::Ready(Err(self.cut(Cut::Stalled)))
        } else {
            Poll::Pending
        }
    }

    fn after_write(
        &mut self,
        cx: &mut Context<'_>,
        r: Poll<io::Result<usize>>,
        wanted: usize,
    ) -> Poll<io::Result<usize>> {
        match r {
            Poll::Ready(Ok(n)) => {
                if let Err(e) = self.note(Some(n), wanted) {
                    return Poll::Ready(Err(e));
                }
                // Progress restarts the stall timer; slow progress is the rate rule's.
                if n > 0 {
                    self.stalled = None;
                }
                if n < wanted {
                    self.arm();
                    if let Poll::Ready(Err(e)) = self.expired::<()>(cx) {
                        return Poll::Ready(Err(e));
                    }
                }
                Poll::Ready(Ok(n))
            }
            Poll::Ready(Err(e)) => Poll::Ready(Err(e)),
            Poll::Pending => {
                self.arm();
                if let Err(e) = self.note(None, wanted) {
                    return Poll::Ready(Err(e));
                }
                self.expired(cx)
            }
        }
    }
}

impl<S: Abort + AsyncRead + Unpin> AsyncRead for WriteGuard<S> {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_read(cx, buf)
    }
}

impl<S: Abort + AsyncWrite + Unpin> AsyncWrite for WriteGuard<S> {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let r = Pin::new(&mut this.inner).poll_write(cx, buf);
        this.after_write(cx, r, buf.len())
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let wanted: usize = bufs.iter().map(|b| b.len()).sum();
        let r = Pin::new(&mut this.inner).poll_write_vectored(cx, bufs);
        this.after_write(cx, r, wanted)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        match Pin::new(&mut this.inner).poll_flush(cx) {
            Poll::Ready(r) => Poll::Ready(r),
            Poll::Pending => {
                this.arm();
                this.expired(cx)
            }
        }
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        match Pin::new(&mut this.inner).poll_shutdown(cx) {
            Poll::Ready(r) => Poll::Ready(r),
            Poll::Pending => {
                this.arm();
                this.expired(cx)
            }
        }
    }
}

impl<S: Abort> Drop for WriteGuard<S> {
    fn drop(&mut self) {
        if self.abort.load(std::sync::atomic::Ordering::Relaxed) {
            self.inner.abort();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::AsyncWriteExt;

    #[tokio::test(flavor = "current_thread")]
    async fn a_peer_that_never_reads_is_cut_off_and_one_that_reads_is_not() {
        // A 64 KiB pipe nobody reads from.
        let (client, _server) = tokio::io::duplex(64 * 1024);
        let mut g = WriteGuard::new(client, Duration::from_millis(200), 0);
        let big = vec![0u8; 1 << 20];
        let e = g.write_all(&big).await.unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::TimedOut);
        assert_eq!(Cut::of(&e), Some(Cut::Stalled));

        // A reader that keeps up: the same megabyte goes through.
        let (client, mut server) = tokio::io::duplex(64 * 1024);
        let reader = tokio::spawn(async move {
            let mut sink = Vec::new();
            tokio::io::AsyncReadExt::read_to_end(&mut server, &mut sink)
                .await
                .map(|_| sink.len())
        });
        let mut g = WriteGuard::new(client, Duration::from_secs(5), 1024);
        g.write_all(&big).await.unwrap();
        g.shutdown().await.unwrap();
        drop(g);
        assert_eq!(reader.await.unwrap().unwrap(), 1 << 20);
    }

    #[tokio::test(flavor = "current_thread")]
    async fn a_peer_that_reads_steadily_but_too_slowly_is_cut_off() {
        // 512 bytes every 5 ms (about 100 KB/s) through a 1 KiB pipe: it never stalls for the
        // 100 ms timeout, but a 1 MiB/s minimum rate catches it once the response is older.
        let (client, mut server) = tokio::io::duplex(1024);
        tokio::spawn(async move {
            let mut b = [0u8; 512];
            while let Ok(n) = tokio::io::AsyncReadExt::read(&mut server, &mut b).await {
                if n == 0 {
                    break;
                }
                tokio::time::sleep(Duration::from_millis(5)).await;
            }
        });
        let mut g = WriteGuard::new(client, Duration::from_millis(100), 1 << 20);
        let start = Instant::now();
        let e = g.write_all(&vec![0u8; 4 << 20]).await.unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::TimedOut);
        assert_eq!(Cut::of(&e), Some(Cut::TooSlow));
        assert!(start.elapsed() < Duration::from_secs(5), "cut off early");
    }
}
