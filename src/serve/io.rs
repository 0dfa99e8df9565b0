//! A connection whose client stops reading is cut off. Without this, a client that pipelines
//! requests and never reads holds its connection (and a `--max-connections` slot) for ever:
//! nothing else times out a write that cannot make progress.
//!
//! [`WriteGuard`] wraps the TCP stream (beneath TLS, so it sees the socket's real back-pressure).
//! From the first write that cannot go out whole (the socket buffer is full) until a write
//! goes out whole, a timer runs; when it fires the next write fails with `TimedOut` and hyper
//! closes the connection. Partial progress does not reset it: a client reading a byte a second
//! is cut off like one reading nothing.

use std::future::Future;
use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::time::Sleep;

/// A stream whose writes may stall for at most `timeout` in a row.
pub struct WriteGuard<S> {
    inner: S,
    timeout: Duration,
    stalled: Option<Pin<Box<Sleep>>>,
}

impl<S> WriteGuard<S> {
    /// Wraps `inner`.
    pub fn new(inner: S, timeout: Duration) -> WriteGuard<S> {
        WriteGuard {
            inner,
            timeout,
            stalled: None,
        }
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
            Poll::Ready(Err(io::Error::new(
                io::ErrorKind::TimedOut,
                "the client stopped reading (write timeout)",
            )))
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
                if n >= wanted {
                    self.stalled = None;
                } else {
                    self.arm();
                    // A partial write is progress for the caller, but the timer keeps running.
                    if let Poll::Ready(Err(e)) = self.expired::<()>(cx) {
                        return Poll::Ready(Err(e));
                    }
                }
                Poll::Ready(Ok(n))
            }
            Poll::Ready(Err(e)) => Poll::Ready(Err(e)),
            Poll::Pending => {
                self.arm();
                self.expired(cx)
            }
        }
    }
}

impl<S: AsyncRead + Unpin> AsyncRead for WriteGuard<S> {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_read(cx, buf)
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for WriteGuard<S> {
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

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::AsyncWriteExt;

    #[tokio::test(flavor = "current_thread")]
    async fn a_peer_that_never_reads_is_cut_off_and_one_that_reads_is_not() {
        // A 64 KiB pipe nobody reads from.
        let (client, _server) = tokio::io::duplex(64 * 1024);
        let mut g = WriteGuard::new(client, Duration::from_millis(200));
        let big = vec![0u8; 1 << 20];
        let e = g.write_all(&big).await.unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::TimedOut);

        // A reader that keeps up: the same megabyte goes through.
        let (client, mut server) = tokio::io::duplex(64 * 1024);
        let reader = tokio::spawn(async move {
            let mut sink = Vec::new();
            tokio::io::AsyncReadExt::read_to_end(&mut server, &mut sink)
                .await
                .map(|_| sink.len())
        });
        let mut g = WriteGuard::new(client, Duration::from_secs(5));
        g.write_all(&big).await.unwrap();
        g.shutdown().await.unwrap();
        drop(g);
        assert_eq!(reader.await.unwrap().unwrap(), 1 << 20);
    }
}
