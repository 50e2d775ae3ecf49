//! `--watch`: wait until something a command reads changes (the binary re-runs the command).
//!
//! Files are watched through their folder (an editor that saves by writing a new file and
//! renaming it over the old one replaces the inode a file watch would hold); folders are
//! watched recursively, for the kinds of files a render or a test case reads (`.hcl`, `.yaml`,
//! `.json`, `.txtar`, `.txt`, `args`, `source`, `ignore-paths`). Events are gathered for a short moment after the first one, so one
//! save that touches several files runs the command once. Symbolic links inside a watched
//! folder are not followed (a file reached through one is watched when it is named).

use notify::event::{AccessKind, AccessMode, EventKind};
use notify::{RecommendedWatcher, RecursiveMode, Watcher};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, channel};
use std::time::Duration;

/// How long after a change more changes are gathered into the same run.
const SETTLE: Duration = Duration::from_millis(150);

/// A watch over some files and folders.
pub struct Watch {
    // Kept alive: dropping it stops the events.
    _watcher: RecommendedWatcher,
    events: Receiver<notify::Result<notify::Event>>,
    /// Watched files (events in their folders about other files are ignored).
    files: BTreeSet<PathBuf>,
    /// Watched folders (any event below them counts).
    dirs: Vec<PathBuf>,
}

impl Watch {
    /// Starts watching `paths` (files or folders; missing ones are watched through the
    /// nearest folder that exists, so creating them counts).
    pub fn new(paths: &[PathBuf]) -> notify::Result<Watch> {
        let (tx, events) = channel();
        // Links are not followed: a committed link to `/usr` (or `/`) would otherwise add a
        // watch for every folder it leads to, or fail at the system's watch limit.
        let config = notify::Config::default().with_follow_symlinks(false);
        let mut watcher = RecommendedWatcher::new(
            move |event| {
                let _ = tx.send(event);
            },
            config,
        )?;
        let mut files = BTreeSet::new();
        let mut dirs = Vec::new();
        let mut parents = BTreeSet::new();
        for path in paths {
            let absolute = std::path::absolute(path).unwrap_or_else(|_| path.clone());
            if absolute.is_dir() {
                watcher.watch(&absolute, RecursiveMode::Recursive)?;
                dirs.push(absolute);
            } else {
                let parent = absolute
                    .parent()
                    .map(Path::to_path_buf)
                    .unwrap_or_else(|| PathBuf::from("."));
                files.insert(absolute);
                parents.insert(parent);
            }
        }
        for parent in parents {
            if parent.is_dir() {
                watcher.watch(&parent, RecursiveMode::NonRecursive)?;
            }
        }
        Ok(Watch {
            _watcher: watcher,
            events,
            files,
            dirs,
        })
    }

    /// Blocks until a watched file changes, then until changes settle.
    pub fn wait(&mut self) {
        loop {
            match self.events.recv() {
                Ok(Ok(event)) if self.counts(&event) => break,
                Ok(_) => continue,
                // The watcher is gone: nothing will ever change again.
                Err(_) => std::thread::park(),
            }
        }
        // Until nothing more arrives for a moment (or the watcher is gone).
        while self.events.recv_timeout(SETTLE).is_ok() {}
    }

    /// Whether an event is a change to something watched.
    fn counts(&self, event: &notify::Event) -> bool {
        let change = match event.kind {
            EventKind::Access(AccessKind::Close(AccessMode::Write)) => true,
            EventKind::Access(_) => false,
            _ => true,
        };
        change
            && event.paths.iter().any(|p| {
                let ours = p
                    .file_name()
                    .is_some_and(|n| n.to_string_lossy().starts_with(super::write::TEMP_PREFIX));
                !ours
                    && (self.files.contains(p)
                        || (input_like(p) && self.dirs.iter().any(|d| p.starts_with(d))))
            })
    }
}

/// Whether a file in a watched folder is one a render or a test case reads (so output
/// written into the folder does not start another run).
fn input_like(path: &Path) -> bool {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy())
        .unwrap_or_default();
    let extension = path
        .extension()
        .map(|e| e.to_string_lossy())
        .unwrap_or_default();
    matches!(
        extension.as_ref(),
        "hcl" | "yaml" | "yml" | "json" | "txtar" | "txt"
    ) || matches!(name.as_ref(), "args" | "source" | "ignore-paths")
}
