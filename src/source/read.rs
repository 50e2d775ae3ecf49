//! The one way every input file and standard input is read: regular files only, and never more
//! than [`MAX_INPUT_BYTES`].
//!
//! A committed symbolic link to `/dev/zero` or a named pipe must not make a command read until
//! memory runs out or wait forever. The file is opened without blocking (a FIFO's `open` would
//! wait for a writer), and what was opened is checked — not the path, which may change between
//! a check and the open — before a byte is read. A link to a regular file is followed: users
//! share files by linking them.

use std::io::{self, Read};
use std::path::Path;

/// The most bytes fnhcl reads from one input: a file, a bundle member, standard input. Real
/// compositions, CRDs and resource files are far smaller; the cap keeps a device, a huge file
/// or an endless pipe from taking all memory.
pub const MAX_INPUT_BYTES: u64 = 64 * 1024 * 1024;

/// Short lower-case text for an I/O error, without Rust's "(os error N)" suffix.
pub fn io_text(error: &io::Error) -> String {
    match error.kind() {
        io::ErrorKind::NotFound => "no such file or directory".to_string(),
        io::ErrorKind::PermissionDenied => "permission denied".to_string(),
        io::ErrorKind::NotADirectory => "not a directory".to_string(),
        io::ErrorKind::IsADirectory => "is a directory".to_string(),
        _ => {
            let text = error.to_string();
            match text.find(" (os error") {
                Some(i) => text[..i].to_string(),
                None => text,
            }
        }
    }
}

/// Why an input could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// The file system refused.
    #[error("cannot read `{path}`: {}", io_text(.source))]
    Io {
        /// The path as the user wrote it.
        path: String,
        /// The cause.
        source: io::Error,
    },
    /// A directory, device, FIFO or socket where a file was expected.
    #[error("`{path}` is {kind}, not a regular file")]
    NotRegular {
        /// The path as the user wrote it.
        path: String,
        /// What it is ("a named pipe", ...).
        kind: &'static str,
    },
    /// More than [`MAX_INPUT_BYTES`].
    #[error("`{path}` is larger than {} MiB", MAX_INPUT_BYTES >> 20)]
    TooLarge {
        /// The path as the user wrote it (`standard input` for stdin).
        path: String,
    },
    /// The content is not UTF-8.
    #[error("`{path}` is not valid UTF-8 text")]
    NotUtf8 {
        /// The path as the user wrote it.
        path: String,
        /// Byte offset of the first bad byte.
        offset: usize,
    },
}

impl ReadError {
    /// The path (or `standard input`) the error is about.
    pub fn path(&self) -> &str {
        match self {
            ReadError::Io { path, .. }
            | ReadError::NotRegular { path, .. }
            | ReadError::TooLarge { path }
            | ReadError::NotUtf8 { path, .. } => path,
        }
    }

    /// A help line saying what to do.
    pub fn help(&self) -> &'static str {
        match self {
            ReadError::Io { .. } => "check the path and its permissions",
            ReadError::NotRegular { .. } => {
                "pass a regular file (a symbolic link to one is fine); devices, pipes and sockets are not read"
            }
            ReadError::TooLarge { .. } => {
                "fnhcl reads at most 64 MiB from one input; split the file or pass a smaller one"
            }
            ReadError::NotUtf8 { .. } => "save the file as UTF-8",
        }
    }
}

/// What a file type is, in words, when it is not a regular file (`None` for a regular file).
pub fn irregular_kind(file_type: std::fs::FileType) -> Option<&'static str> {
    if file_type.is_file() {
        return None;
    }
    if file_type.is_dir() {
        return Some("a directory");
    }
    if file_type.is_symlink() {
        return Some("a symbolic link");
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if file_type.is_fifo() {
            return Some("a named pipe");
        }
        if file_type.is_char_device() {
            return Some("a character device");
        }
        if file_type.is_block_device() {
            return Some("a block device");
        }
        if file_type.is_socket() {
            return Some("a socket");
        }
    }
    Some("not a file")
}

/// Whether a file is `/dev/null`: a device, but the usual way to say "an empty input"
/// (`-e vpc=/dev/null`), and it never yields a byte.
fn is_dev_null(meta: &std::fs::Metadata) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::{FileTypeExt, MetadataExt};
        meta.file_type().is_char_device()
            && std::fs::metadata("/dev/null").is_ok_and(|null| null.rdev() == meta.rdev())
    }
    #[cfg(not(unix))]
    {
        let _ = meta;
        false
    }
}

/// What a file is, in words, when fnhcl may not read it (`None`: a regular file, or
/// `/dev/null`).
fn refused_kind(meta: &std::fs::Metadata) -> Option<&'static str> {
    if is_dev_null(meta) {
        return None;
    }
    irregular_kind(meta.file_type())
}

/// Whether `path` (links followed) is something fnhcl may read: a regular file (or
/// `/dev/null`). A missing or unreadable path passes here: reading it reports the real error.
pub fn check_regular(path: &Path) -> Result<(), ReadError> {
    match std::fs::metadata(path) {
        Ok(meta) => match refused_kind(&meta) {
            Some(kind) => Err(ReadError::NotRegular {
                path: path.display().to_string(),
                kind,
            }),
            None => Ok(()),
        },
        Err(_) => Ok(()),
    }
}

/// All bytes of the regular file at `path` (links followed), at most [`MAX_INPUT_BYTES`].
pub fn read_bytes(path: &Path) -> Result<Vec<u8>, ReadError> {
    let display = path.display().to_string();
    let io_error = |source| ReadError::Io {
        path: display.clone(),
        source,
    };
    // Refuse by the path first, so a device is not even opened; the handle is checked again
    // below, as the path may have been swapped in between.
    check_regular(path)?;
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        // A FIFO opened for reading waits for a writer unless told not to; on a regular file
        // the flag changes nothing.
        options.custom_flags(libc::O_NONBLOCK);
    }
    let file = options.open(path).map_err(io_error)?;
    let meta = file.metadata().map_err(io_error)?;
    if let Some(kind) = refused_kind(&meta) {
        return Err(ReadError::NotRegular {
            path: display,
            kind,
        });
    }
    if meta.len() > MAX_INPUT_BYTES {
        return Err(ReadError::TooLarge { path: display });
    }
    // Room for the whole file at once (the size is capped just above): read in one go, not
    // into a buffer doubled from 32 bytes, which copied and touched twice the file.
    read_capped_into(file, &display, Vec::with_capacity(meta.len() as usize + 1))
}

/// All bytes of the regular file at `path` as UTF-8 text, at most [`MAX_INPUT_BYTES`].
pub fn read_text(path: &Path) -> Result<String, ReadError> {
    let bytes = read_bytes(path)?;
    utf8(bytes, &path.display().to_string())
}

/// All bytes of `reader` (standard input, a pipe), at most [`MAX_INPUT_BYTES`]; `name` is what
/// errors call it.
pub fn read_capped(reader: impl Read, name: &str) -> Result<Vec<u8>, ReadError> {
    read_capped_into(reader, name, Vec::new())
}

/// [`read_capped`] into `bytes` (empty, with whatever room the caller expects to need).
fn read_capped_into(
    reader: impl Read,
    name: &str,
    mut bytes: Vec<u8>,
) -> Result<Vec<u8>, ReadError> {
    reader
        .take(MAX_INPUT_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|source| ReadError::Io {
            path: name.to_string(),
            source,
        })?;
    if bytes.len() as u64 > MAX_INPUT_BYTES {
        return Err(ReadError::TooLarge {
            path: name.to_string(),
        });
    }
    Ok(bytes)
}

/// [`read_capped`] as UTF-8 text.
pub fn read_capped_text(reader: impl Read, name: &str) -> Result<String, ReadError> {
    utf8(read_capped(reader, name)?, name)
}

fn utf8(bytes: Vec<u8>, name: &str) -> Result<String, ReadError> {
    String::from_utf8(bytes).map_err(|e| ReadError::NotUtf8 {
        path: name.to_string(),
        offset: e.utf8_error().valid_up_to(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_regular_file_and_a_link_to_one_are_read() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("a.hcl");
        std::fs::write(&file, "a = 1\n").unwrap();
        assert_eq!(read_text(&file).unwrap(), "a = 1\n");
        #[cfg(unix)]
        {
            let link = dir.path().join("b.hcl");
            std::os::unix::fs::symlink(&file, &link).unwrap();
            assert_eq!(read_text(&link).unwrap(), "a = 1\n");
        }
    }

    #[cfg(unix)]
    #[test]
    fn devices_and_directories_are_refused_at_once() {
        let dir = tempfile::tempdir().unwrap();
        let link = dir.path().join("zero.hcl");
        std::os::unix::fs::symlink("/dev/zero", &link).unwrap();
        let e = read_bytes(&link).unwrap_err();
        assert!(
            matches!(
                e,
                ReadError::NotRegular {
                    kind: "a character device",
                    ..
                }
            ),
            "{e}"
        );
        assert_eq!(read_bytes(Path::new("/dev/null")).unwrap(), b"");
        let e = read_bytes(dir.path()).unwrap_err();
        assert!(
            matches!(
                e,
                ReadError::NotRegular {
                    kind: "a directory",
                    ..
                }
            ),
            "{e}"
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_is_refused_without_waiting_for_a_writer() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("pipe.hcl");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        if !made.is_ok_and(|s| s.success()) {
            return;
        }
        let e = read_bytes(&fifo).unwrap_err();
        assert!(
            matches!(
                e,
                ReadError::NotRegular {
                    kind: "a named pipe",
                    ..
                }
            ),
            "{e}"
        );
    }

    #[test]
    fn a_stream_is_cut_at_the_cap() {
        let endless = std::io::repeat(b'a');
        let e = read_capped(endless, "standard input").unwrap_err();
        assert!(matches!(e, ReadError::TooLarge { .. }), "{e}");
        let small = read_capped(&b"abc"[..], "x").unwrap();
        assert_eq!(small, b"abc");
    }
}
