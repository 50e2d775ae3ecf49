//! Golden tests of compositions: where a case's composition is.

use std::path::{Path, PathBuf};

/// The composition a case tests: its `source` file, its `hcl/` folder, or the nearest folder
/// at or above it holding `.hcl` files.
pub fn source_of(dir: &Path) -> Result<PathBuf, String> {
    if let Ok(text) = std::fs::read_to_string(dir.join("source")) {
        return Ok(dir.join(text.trim()));
    }
    if has_hcl(&dir.join("hcl")) {
        return Ok(dir.join("hcl"));
    }
    let mut at = Some(dir);
    while let Some(candidate) = at {
        if has_hcl(candidate) {
            return Ok(candidate.to_path_buf());
        }
        at = candidate.parent();
    }
    Err("no composition found: no .hcl files in the case's folder, its hcl/ folder or a folder above it, and no `source` file".into())
}

fn has_hcl(dir: &Path) -> bool {
    std::fs::read_dir(dir).is_ok_and(|entries| {
        entries
            .flatten()
            .any(|e| e.path().extension().is_some_and(|x| x == "hcl") && e.path().is_file())
    })
}
