//! Writing users' files safely: a temp file in the same directory, then a rename. Never
//! prints or exits; an interrupt handler (the binary's) calls [`abandon_in_flight`].
//!
//! Temporary files are named `.fnhcl-<pid>-<random>.tmp`, so a later run can tell the ones a
//! killed fnhcl left behind (their process is gone) and remove them ([`remove_stale_temps`]).

use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// The prefix of our temporary files' names, before the process id.
pub(crate) const TEMP_PREFIX: &str = ".fnhcl-";

/// Replaces (or creates) `path` with `contents` atomically: readers see the old file or the new
/// one, never a half-written one. An existing file keeps its permissions; a new one gets 0644.
pub fn write_atomic(path: &Path, contents: &[u8]) -> io::Result<()> {
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let permissions = match std::fs::metadata(path) {
        Ok(meta) => Some(meta.permissions()),
        Err(e) if e.kind() == io::ErrorKind::NotFound => None,
        Err(e) => return Err(e),
    };
    let temp = temp_with(dir, contents)?;
    match permissions {
        Some(permissions) => std::fs::set_permissions(temp.path(), permissions)?,
        None => set_new_file_permissions(temp.path())?,
    }
    temp.persist(path)?;
    sync_dir(dir);
    Ok(())
}

/// The temporary file being written, if any: an interrupt removes it before exiting.
static IN_FLIGHT: std::sync::Mutex<Option<PathBuf>> = std::sync::Mutex::new(None);

/// Holds the in-flight registry locked: while it lives, no temporary file can be created.
pub struct InterruptLock {
    _guard: std::sync::LockResult<std::sync::MutexGuard<'static, Option<PathBuf>>>,
}

/// Removes the temporary file in flight, if any, and keeps the registry locked for as long as
/// the returned lock lives. For a SIGINT/SIGTERM/SIGHUP handler that exits while holding it:
/// the main thread cannot create another temporary file in between (it creates them under this
/// lock), so an interrupted write leaves no temporary file and the file being replaced stays
/// whole (the rename either happened or did not).
pub fn abandon_in_flight() -> InterruptLock {
    let guard = IN_FLIGHT.lock();
    if let Ok(guard) = &guard
        && let Some(path) = guard.as_ref()
    {
        let _ = std::fs::remove_file(path);
    }
    InterruptLock { _guard: guard }
}

/// A temporary file registered as in flight until it is dropped or persisted.
struct Temp(Option<tempfile::NamedTempFile>);

impl Temp {
    fn path(&self) -> &Path {
        self.file().path()
    }

    fn file(&self) -> &tempfile::NamedTempFile {
        self.0.as_ref().expect("held until persisted")
    }

    fn persist(mut self, to: &Path) -> io::Result<()> {
        let file = self.0.take().expect("held until persisted");
        file.persist(to).map(|_| ()).map_err(|e| e.error)
    }
}

impl Drop for Temp {
    fn drop(&mut self) {
        forget_in_flight();
    }
}

fn forget_in_flight() {
    *IN_FLIGHT.lock().unwrap_or_else(|e| e.into_inner()) = None;
}

/// A temporary file in `dir` holding `contents`, synced.
fn temp_with(dir: &Path, contents: &[u8]) -> io::Result<Temp> {
    // Created and registered under the lock, so an interrupt sees every temporary file.
    let mut guard = IN_FLIGHT.lock().unwrap_or_else(|e| e.into_inner());
    let temp = tempfile::Builder::new()
        .prefix(&format!("{TEMP_PREFIX}{}-", std::process::id()))
        .suffix(".tmp")
        .tempfile_in(dir)?;
    *guard = Some(temp.path().to_path_buf());
    drop(guard);
    let mut temp = Temp(Some(temp));
    if let Some(file) = temp.0.as_mut() {
        file.write_all(contents)?;
        file.as_file().sync_all()?;
    }
    Ok(temp)
}

/// Makes a rename in `dir` durable (best effort: not every filesystem allows it).
fn sync_dir(dir: &Path) {
    if let Ok(handle) = std::fs::File::open(dir) {
        let _ = handle.sync_all();
    }
}

/// Writes `contents` to `path` as a report or an output file given by the user is written:
/// through a symbolic link (the file it leads to is replaced atomically, the link stays), and
/// straight into what is not a regular file (`/dev/stdout`, a pipe), which an atomic replace
/// would swap for a file.
pub fn write_through(path: &Path, contents: &[u8]) -> io::Result<()> {
    match std::fs::metadata(path) {
        Ok(meta) if !meta.is_file() && !meta.is_dir() => {
            let mut out = std::fs::OpenOptions::new().write(true).open(path)?;
            out.write_all(contents)?;
            out.flush()
        }
        Ok(_) => write_atomic(&std::fs::canonicalize(path)?, contents),
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            // A dangling link: create the file it names, as a shell redirection would.
            match std::fs::read_link(path) {
                Ok(target) => {
                    let target = match path.parent() {
                        Some(dir) if target.is_relative() => dir.join(target),
                        _ => target,
                    };
                    write_atomic(&target, contents)
                }
                Err(_) => write_atomic(path, contents),
            }
        }
        Err(e) => Err(e),
    }
}

/// Why an existing file was not replaced.
#[derive(Debug)]
pub enum ReplaceError {
    /// The file is read-only: fnhcl does not write over a file its owner protected.
    ReadOnly(PathBuf),
    /// The file has other hard links, which a replacement would split from it.
    HardLinked(PathBuf, u64),
    /// The file changed on disk after it was read: writing would lose that change.
    Changed(PathBuf),
    /// Reading or writing failed.
    Io(io::Error),
}

impl std::fmt::Display for ReplaceError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReplaceError::ReadOnly(p) => write!(f, "{} is read-only", p.display()),
            ReplaceError::HardLinked(p, n) => write!(
                f,
                "{} has {n} hard links; replacing it would leave the other names with the old content",
                p.display()
            ),
            ReplaceError::Changed(p) => write!(
                f,
                "{} changed on disk while it was being processed; it was left as it is now",
                p.display()
            ),
            ReplaceError::Io(e) => write!(f, "{e}"),
        }
    }
}

impl ReplaceError {
    /// What the user can do about it.
    pub fn help(&self) -> &'static str {
        match self {
            ReplaceError::ReadOnly(_) => "make it writable (chmod u+w) if it should be changed",
            ReplaceError::HardLinked(..) => {
                "break the link first (cp FILE FILE.new && mv FILE.new FILE), or format a copy"
            }
            ReplaceError::Changed(_) => "run again once the other program has finished with it",
            ReplaceError::Io(_) => "check the path and its permissions",
        }
    }
}

impl From<io::Error> for ReplaceError {
    fn from(e: io::Error) -> Self {
        ReplaceError::Io(e)
    }
}

/// Replaces an existing file that was read as `before` with `after`, atomically and safely: a
/// symbolic link is followed (the file it points to is replaced; the link stays a link);
/// read-only and hard-linked files are refused; and if the file no longer holds `before` when
/// the new content is ready, nothing is written.
pub fn replace_file(path: &Path, before: &[u8], after: &[u8]) -> Result<(), ReplaceError> {
    let target = std::fs::canonicalize(path)?;
    let meta = std::fs::metadata(&target)?;
    if meta.permissions().readonly() {
        return Err(ReplaceError::ReadOnly(path.to_path_buf()));
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        if meta.nlink() > 1 {
            return Err(ReplaceError::HardLinked(path.to_path_buf(), meta.nlink()));
        }
    }
    let dir = match target.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let temp = temp_with(&dir, after)?;
    std::fs::set_permissions(temp.path(), meta.permissions())?;
    // The last moment to notice another writer: compare with what was read.
    if std::fs::read(&target)? != before {
        return Err(ReplaceError::Changed(path.to_path_buf()));
    }
    temp.persist(&target)?;
    sync_dir(&dir);
    Ok(())
}

/// Removes temporary files that an fnhcl process which no longer runs left in `dir` (killed
/// while writing). Files of running processes, and anything not named like ours, stay.
pub fn remove_stale_temps(dir: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let name = name.to_string_lossy();
        let Some(pid) = name
            .strip_prefix(TEMP_PREFIX)
            .filter(|rest| rest.ends_with(".tmp"))
            .and_then(|rest| rest.split('-').next())
            .and_then(|pid| pid.parse::<u32>().ok())
        else {
            continue;
        };
        if pid != std::process::id() && !process_runs(pid) && entry.path().is_file() {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

/// Whether a process runs (on systems without /proc, assume it does: never remove).
fn process_runs(pid: u32) -> bool {
    let proc = Path::new("/proc");
    !proc.is_dir() || proc.join(pid.to_string()).exists()
}

/// tempfile creates files readable by their owner only; a new user file should be 0644.
#[cfg(unix)]
fn set_new_file_permissions(path: &Path) -> io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o644))
}

#[cfg(not(unix))]
fn set_new_file_permissions(_path: &Path) -> io::Result<()> {
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replace_refuses_a_file_changed_since_it_was_read() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("main.hcl");
        std::fs::write(&file, "a=1\n").unwrap();
        let err = replace_file(&file, b"a = 1\n", b"a = 2\n").unwrap_err();
        assert!(matches!(err, ReplaceError::Changed(_)), "{err}");
        assert_eq!(std::fs::read_to_string(&file).unwrap(), "a=1\n");
        replace_file(&file, b"a=1\n", b"a = 1\n").unwrap();
        assert_eq!(std::fs::read_to_string(&file).unwrap(), "a = 1\n");
        // No temporary file is left either way.
        let names: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .flatten()
            .map(|e| e.file_name())
            .collect();
        assert_eq!(names.len(), 1, "{names:?}");
    }

    #[test]
    fn stale_temporary_files_of_dead_processes_are_removed() {
        let dir = tempfile::tempdir().unwrap();
        let dead = dir.path().join(".fnhcl-4000000000-abc.tmp");
        let ours = dir
            .path()
            .join(format!(".fnhcl-{}-abc.tmp", std::process::id()));
        let other = dir.path().join(".fnhcl-notes.tmp");
        for f in [&dead, &ours, &other] {
            std::fs::write(f, "x").unwrap();
        }
        remove_stale_temps(dir.path());
        assert!(!dead.exists() || !Path::new("/proc").is_dir());
        assert!(ours.exists() && other.exists());
    }
}
