//! JSON-RPC framing over byte streams: `Content-Length` headers read with caps before anything
//! is allocated, and the reader and writer threads of stdio. `lsp-server`'s own reader sizes
//! its buffer from the header it has not checked (`Content-Length: 10^18` aborts the process)
//! and reads a header line of any length, so messages are read here and handed to it as
//! [`Message`]s over an in-memory [`Connection`].

use lsp_server::{Connection, Message};
use std::io::{self, BufRead, Read, Write};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

/// The largest message body a client may send (a whole document is sent on open and on a full
/// change; compositions are far smaller).
pub const MAX_MESSAGE: usize = 64 * 1024 * 1024;
/// The longest header line (`Content-Length: …`, `Content-Type: …`) and the most headers.
const MAX_HEADER_LINE: usize = 1024;
const MAX_HEADERS: usize = 32;

/// One message read: the message, or why its body is not a JSON-RPC message (the framing is
/// intact, so the next message can still be read).
pub type Read1 = Result<Message, String>;

fn malformed(text: String) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, text)
}

/// Reads one framed message: `None` at the end of the input, an error when the framing is
/// broken (a malformed or oversized header, a body cut short): nothing after it can be read.
pub fn read_message(input: &mut impl BufRead) -> io::Result<Option<Read1>> {
    let mut length = None;
    let mut headers = 0;
    loop {
        let mut line = Vec::new();
        (&mut *input)
            .take(MAX_HEADER_LINE as u64 + 1)
            .read_until(b'\n', &mut line)?;
        if line.is_empty() && headers == 0 {
            return Ok(None);
        }
        if line.len() > MAX_HEADER_LINE {
            return Err(malformed(format!(
                "malformed header: a line longer than {MAX_HEADER_LINE} bytes"
            )));
        }
        let Some(line) = line.strip_suffix(b"\r\n") else {
            return Err(malformed(format!(
                "malformed header: {:?}",
                String::from_utf8_lossy(&line)
            )));
        };
        if line.is_empty() {
            break;
        }
        headers += 1;
        if headers > MAX_HEADERS {
            return Err(malformed(format!(
                "malformed header: more than {MAX_HEADERS} header lines"
            )));
        }
        let line = String::from_utf8_lossy(line);
        let Some((name, value)) = line.split_once(": ") else {
            return Err(malformed(format!("malformed header: {line:?}")));
        };
        if name.eq_ignore_ascii_case("Content-Length") {
            let size: usize = value
                .trim()
                .parse()
                .ok()
                .filter(|&n| n <= MAX_MESSAGE)
                .ok_or_else(|| {
                    malformed(format!(
                        "malformed header: Content-Length {value:?} is not a size of at most \
                         {} MiB",
                        MAX_MESSAGE >> 20
                    ))
                })?;
            length = Some(size);
        }
    }
    let length = length.ok_or_else(|| malformed("malformed header: no Content-Length".into()))?;
    // Read, not allocated up front: a client that claims more than it sends costs nothing.
    let mut body = Vec::new();
    (&mut *input).take(length as u64).read_to_end(&mut body)?;
    if body.len() < length {
        return Err(io::Error::new(
            io::ErrorKind::UnexpectedEof,
            format!(
                "the input ended inside a message ({} of {length} bytes)",
                body.len()
            ),
        ));
    }
    Ok(Some(
        serde_json::from_slice::<Message>(&body)
            .map_err(|e| format!("malformed JSON-RPC message: {e}")),
    ))
}

/// Reads messages from `input` and gives each to `send` until the end of the input, an `exit`
/// notification, `send` returning `false`, or broken framing (returned). A body that is not a
/// JSON-RPC message is skipped: the server cannot answer what it cannot read, and the next
/// message is intact.
pub fn pump(mut input: impl BufRead, mut send: impl FnMut(Message) -> bool) -> io::Result<()> {
    while let Some(read) = read_message(&mut input)? {
        let Ok(message) = read else { continue };
        let exit = matches!(&message, Message::Notification(n) if n.method == "exit");
        if !send(message) || exit {
            break;
        }
    }
    Ok(())
}

/// The threads that move messages between stdio and the server's [`Connection`].
pub struct Stdio {
    /// Why the reader stopped, when the client's framing broke.
    reader_error: Arc<Mutex<Option<io::Error>>>,
    writer: JoinHandle<io::Result<()>>,
}

/// The server's end of a connection over stdin and stdout, and the threads serving it.
pub fn stdio() -> io::Result<(Connection, Stdio)> {
    let (server, client) = Connection::memory();
    let Connection { sender, receiver } = client;
    let reader_error = Arc::new(Mutex::new(None));
    let slot = Arc::clone(&reader_error);
    std::thread::Builder::new()
        .name("lsp-reader".into())
        .spawn(move || {
            let stdin = io::stdin();
            if let Err(e) = pump(stdin.lock(), |m| sender.send(m).is_ok())
                && let Ok(mut slot) = slot.lock()
            {
                *slot = Some(e);
            }
            // Only now does the server see the input end, the error already recorded.
            drop(sender);
        })?;
    let writer = std::thread::Builder::new()
        .name("lsp-writer".into())
        .spawn(move || {
            let stdout = io::stdout();
            let mut out = stdout.lock();
            for message in receiver {
                message.write(&mut out)?;
            }
            out.flush()
        })?;
    Ok((
        server,
        Stdio {
            reader_error,
            writer,
        },
    ))
}

impl Stdio {
    /// Waits until everything the server sent is written (the server's connection must be
    /// dropped first); the reader's error when the client's framing broke. The reader is not
    /// waited for: after `shutdown` without `exit` it may still be blocked on stdin.
    pub fn finish(self) -> io::Result<()> {
        let written = self
            .writer
            .join()
            .map_err(|_| io::Error::other("the language server's writer failed"))?;
        if let Some(e) = self.reader_error.lock().ok().and_then(|mut e| e.take()) {
            return Err(e);
        }
        written
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(bytes: &[u8]) -> io::Result<Option<Read1>> {
        read_message(&mut io::Cursor::new(bytes))
    }

    #[test]
    fn a_claimed_size_is_checked_before_anything_is_allocated() {
        let err = read(b"Content-Length: 1000000000000000000\r\n\r\n{}").unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::InvalidData);
        assert!(err.to_string().contains("at most 64 MiB"), "{err}");
        // At the cap, a body that is not there is an early end, not an allocation.
        let err =
            read(format!("Content-Length: {MAX_MESSAGE}\r\n\r\n{{}}").as_bytes()).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::UnexpectedEof);
    }

    #[test]
    fn malformed_headers_end_the_input_and_bad_json_is_skipped() {
        for bad in [
            &b"Content-Length: 2\n\n{}"[..],
            b"Content-Length 2\r\n\r\n{}",
            b"Content-Length: -1\r\n\r\n",
            b"Content-Type: x\r\n\r\n{}",
            &[b'A'; 5000],
        ] {
            assert!(read(bad).is_err(), "{:?}", String::from_utf8_lossy(bad));
        }
        let headers = "X-A: b\r\n".repeat(MAX_HEADERS + 1) + "Content-Length: 2\r\n\r\n{}";
        assert!(read(headers.as_bytes()).is_err());
        assert!(read(b"").unwrap().is_none());
        let exit = r#"{"jsonrpc":"2.0","method":"exit"}"#;
        let two = format!(
            "Content-Length: 5\r\n\r\n{{bad}}Content-Length: {}\r\n\r\n{exit}",
            exit.len()
        );
        let mut sent = Vec::new();
        pump(two.as_bytes(), |m| {
            sent.push(m);
            true
        })
        .unwrap();
        assert!(matches!(&sent[..], [Message::Notification(n)] if n.method == "exit"));
    }
}
