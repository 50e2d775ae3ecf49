//! Writing users' files safely: a temp file in the same directory, then a rename.

use std::io::{self, Write};
use std::path::Path;

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
    let mut temp = tempfile::Builder::new()
        .prefix(".fnhcl-")
        .suffix(".tmp")
        .tempfile_in(dir)?;
    temp.write_all(contents)?;
    temp.as_file().sync_all()?;
    match permissions {
        Some(permissions) => std::fs::set_permissions(temp.path(), permissions)?,
        None => set_new_file_permissions(temp.path())?,
    }
    temp.persist(path).map_err(|e| e.error)?;
    Ok(())
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
