//! The server's connections: an accept loop that backs off after an error (at the
//! file-descriptor limit `accept` fails at once, every time: retrying at once would spin a
//! core), and connections that are closed when they do not speak — no HTTP/2 preface within
//! the handshake timeout, then nothing at all (pings included) for the idle timeout.

use super::{Log, MAX_BACKOFF, Timeouts};
use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::time::{Duration, Instant, Sleep};
use tonic::codegen::tokio_stream::Stream;
use tonic::transport::server::{Connected, TcpConnectInfo};

/// The bytes of the HTTP/2 client preface: a connection has spoken once it sent that many.
const PREFACE: usize = 24;

/// The listener as a stream of connections.
pub(super) struct Incoming {
    listener: TcpListener,
    timeouts: Timeouts,
    log: Log,
    /// The pause after an error, while it lasts.
    pause: Option<Pin<Box<Sleep>>>,
    backoff: Duration,
}

impl Incoming {
    pub(super) fn new(listener: TcpListener, timeouts: Timeouts, log: Log) -> Incoming {
        Incoming {
            listener,
            timeouts,
            log,
            pause: None,
            backoff: Duration::ZERO,
        }
    }
}

impl Stream for Incoming {
    type Item = io::Result<Conn>;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let this = self.get_mut();
        loop {
            if let Some(pause) = this.pause.as_mut() {
                if pause.as_mut().poll(cx).is_pending() {
                    return Poll::Pending;
                }
                this.pause = None;
            }
            match this.listener.poll_accept(cx) {
                Poll::Pending => return Poll::Pending,
                Poll::Ready(Ok((stream, _))) => {
                    this.backoff = Duration::ZERO;
                    // Without TCP_NODELAY a small response waits for the client's delayed
                    // ACK: 40 ms added to every call.
                    let _ = stream.set_nodelay(true);
                    return Poll::Ready(Some(Ok(Conn::new(stream, &this.timeouts))));
                }
                Poll::Ready(Err(e)) => {
                    // Logged once per run of errors, not once per retry.
                    if this.backoff.is_zero() {
                        (this.log)(&format!(
                            "fnhcl function serve: cannot accept a connection: {e} (retrying, up to every {}s)",
                            MAX_BACKOFF.as_secs()
                        ));
                    }
                    this.backoff = (this.backoff * 2).clamp(Duration::from_millis(5), MAX_BACKOFF);
                    this.pause = Some(Box::pin(tokio::time::sleep(this.backoff)));
                }
            }
        }
    }
}

/// One connection, closed with a `TimedOut` error when it is silent too long.
pub(super) struct Conn {
    stream: TcpStream,
    /// Until the preface is in: when the handshake must be done.
    handshake_by: Instant,
    idle: Duration,
    /// Preface bytes still to come.
    preface_left: usize,
    last_read: Instant,
    timer: Pin<Box<Sleep>>,
}

impl Conn {
    fn new(stream: TcpStream, timeouts: &Timeouts) -> Conn {
        let now = Instant::now();
        let handshake_by = now + timeouts.handshake;
        Conn {
            stream,
            handshake_by,
            idle: timeouts.idle,
            preface_left: PREFACE,
            last_read: now,
            timer: Box::pin(tokio::time::sleep_until(handshake_by)),
        }
    }

    fn due(&self) -> Instant {
        if self.preface_left > 0 {
            self.handshake_by
        } else {
            self.last_read + self.idle
        }
    }
}

fn timed_out(handshake: bool) -> io::Error {
    io::Error::new(
        io::ErrorKind::TimedOut,
        if handshake {
            "the connection did not complete its handshake in time"
        } else {
            "the connection was idle too long"
        },
    )
}

impl Connected for Conn {
    type ConnectInfo = TcpConnectInfo;

    fn connect_info(&self) -> TcpConnectInfo {
        self.stream.connect_info()
    }
}

impl AsyncRead for Conn {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let before = buf.filled().len();
        match Pin::new(&mut this.stream).poll_read(cx, buf) {
            Poll::Ready(Ok(())) => {
                let read = buf.filled().len() - before;
                if read > 0 {
                    this.preface_left = this.preface_left.saturating_sub(read);
                    this.last_read = Instant::now();
                }
                Poll::Ready(Ok(()))
            }
            Poll::Ready(Err(e)) => Poll::Ready(Err(e)),
            Poll::Pending => {
                let due = this.due();
                let handshake = this.preface_left > 0;
                if Instant::now() >= due {
                    return Poll::Ready(Err(timed_out(handshake)));
                }
                // Wake up at the time limit: a read that is still pending then fails.
                if this.timer.deadline() != due {
                    this.timer.as_mut().reset(due);
                }
                match this.timer.as_mut().poll(cx) {
                    Poll::Ready(()) => Poll::Ready(Err(timed_out(handshake))),
                    Poll::Pending => Poll::Pending,
                }
            }
        }
    }
}

impl AsyncWrite for Conn {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().stream).poll_write(cx, buf)
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().stream).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().stream).poll_shutdown(cx)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().stream).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }
}
