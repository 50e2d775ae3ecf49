//! Coverage of compositions over a test run (`fnhcl test --lcov`, `--coverage-min`): the
//! renders' records ([`RenderCoverage`], one per function-hcl step of a render) summed per
//! composition, against everything its files could cover, then summarized or written as LCOV.
//!
//! A runner feeds it with [`Coverage::record`] — any runner, from any thread: set
//! `Request::coverage` (or `render::Inputs::coverage`) and hand each finished render's
//! `coverage` to it. Nothing here prints or reads files.

mod inventory;
pub mod lcov;

pub use crate::eval::coverage::RenderCoverage;
pub use inventory::{Item, ItemKind};

use std::collections::BTreeMap;
use std::path::{Component, Path, PathBuf};
use std::sync::Mutex;

/// The coverage of every composition a run rendered, summed over its renders.
#[derive(Debug)]
pub struct Coverage {
    /// The folder paths are made relative to (the current directory).
    base: PathBuf,
    /// Compositions by their files' paths.
    compositions: Mutex<BTreeMap<Vec<String>, Composition>>,
}

/// One composition: its files with what each item saw, and how many renders there were.
#[derive(Clone, Debug)]
struct Composition {
    renders: u64,
    files: Vec<FileCoverage>,
}

/// One file's items and their counts: for a block, the renders it was rendered in; for a
/// `condition`, its true, false and incomplete outcomes; for a conditional expression, its
/// true and false arms; for a user function, its calls.
#[derive(Clone, Debug, PartialEq)]
pub struct FileCoverage {
    /// The path, relative to the run's folder when inside it.
    pub path: String,
    /// What the file could cover, in source order, with its counts.
    pub items: Vec<(Item, [u64; 3])>,
}

/// How many of a kind of item a composition has, and how many were covered.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Ratio {
    /// Covered.
    pub hit: u64,
    /// All.
    pub found: u64,
}

impl Ratio {
    fn add(&mut self, other: Ratio) {
        self.hit += other.hit;
        self.found += other.found;
    }

    fn count(&mut self, hit: bool) {
        self.found += 1;
        self.hit += u64::from(hit);
    }

    /// The percentage covered, 100 when there is nothing to cover.
    pub fn percent(self) -> f64 {
        if self.found == 0 {
            100.0
        } else {
            self.hit as f64 * 100.0 / self.found as f64
        }
    }

    /// Whether the percentage covered is below `min` (compared exactly, not rounded).
    pub fn below(self, min: f64) -> bool {
        (self.hit as f64) * 100.0 < min * self.found as f64
    }
}

/// The summary of one composition (or of a whole run).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Totals {
    /// Blocks rendered at least once.
    pub blocks: Ratio,
    /// Branches taken at least once: a `condition`'s true, false and incomplete outcomes, a
    /// conditional expression's two arms.
    pub branches: Ratio,
    /// User functions called at least once.
    pub functions: Ratio,
}

impl Totals {
    /// Blocks, branches and functions together: what `--coverage-min` compares.
    pub fn total(self) -> Ratio {
        let mut all = self.blocks;
        all.add(self.branches);
        all.add(self.functions);
        all
    }

    fn add(&mut self, other: Totals) {
        self.blocks.add(other.blocks);
        self.branches.add(other.branches);
        self.functions.add(other.functions);
    }
}

/// One composition's coverage, for printing.
#[derive(Clone, Debug, PartialEq)]
pub struct CompositionReport {
    /// The folder holding its files (relative to the run's folder when inside it).
    pub name: String,
    /// How many renders (function-hcl calls kept by renders) it was covered by.
    pub renders: u64,
    /// Its files.
    pub files: Vec<FileCoverage>,
    /// Its totals.
    pub totals: Totals,
}

impl Default for Coverage {
    fn default() -> Coverage {
        Coverage::new(PathBuf::new())
    }
}

impl Coverage {
    /// An empty record; paths under `base` (the current directory) are shown relative to it.
    pub fn new(base: impl Into<PathBuf>) -> Coverage {
        Coverage {
            base: base.into(),
            compositions: Mutex::new(BTreeMap::new()),
        }
    }

    /// Adds one render's coverage of one composition (one function-hcl step). A composition
    /// is known by its files' paths; the first record of it finds what its files could cover.
    pub fn record(&self, render: &RenderCoverage) {
        let paths: Vec<String> = render
            .files
            .iter()
            .map(|f| shown(&self.base, &f.path))
            .collect();
        // A panic elsewhere while the lock was held leaves counts that are still counts.
        let mut compositions = self
            .compositions
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let composition = compositions
            .entry(paths.clone())
            .or_insert_with(|| Composition {
                renders: 0,
                files: render
                    .files
                    .iter()
                    .zip(paths)
                    .map(|(file, path)| FileCoverage {
                        items: inventory::items(&file.path, &file.text)
                            .into_iter()
                            .map(|item| (item, [0; 3]))
                            .collect(),
                        path,
                    })
                    .collect(),
            });
        composition.renders += 1;
        for (index, file) in composition.files.iter_mut().enumerate() {
            add_file(file, index, render);
        }
    }

    /// Whether nothing was recorded.
    pub fn is_empty(&self) -> bool {
        self.lock().is_empty()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, BTreeMap<Vec<String>, Composition>> {
        self.compositions
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Each composition's coverage, sorted by name.
    pub fn report(&self) -> Vec<CompositionReport> {
        let mut out: Vec<CompositionReport> = self
            .lock()
            .values()
            .map(|c| CompositionReport {
                name: folder_of(&c.files),
                renders: c.renders,
                totals: totals(&c.files),
                files: c.files.clone(),
            })
            .collect();
        out.sort_by(|a, b| a.name.cmp(&b.name));
        out
    }
}

/// The totals of several compositions.
pub fn sum(reports: &[CompositionReport]) -> Totals {
    let mut all = Totals::default();
    for report in reports {
        all.add(report.totals);
    }
    all
}

/// One summary line: `blocks 3/4, branches 2/6, functions 1/1, total 6/11 (54.5%)`.
pub fn summary_line(totals: Totals) -> String {
    let total = totals.total();
    format!(
        "blocks {}/{}, branches {}/{}, functions {}/{}, total {}/{} ({})",
        totals.blocks.hit,
        totals.blocks.found,
        totals.branches.hit,
        totals.branches.found,
        totals.functions.hit,
        totals.functions.found,
        total.hit,
        total.found,
        percent_text(total),
    )
}

/// A percentage with one decimal, rounded down (so 99.96% never shows as 100.0%).
pub fn percent_text(ratio: Ratio) -> String {
    let tenths = (ratio.hit * 1000).checked_div(ratio.found).unwrap_or(1000);
    format!("{}.{}%", tenths / 10, tenths % 10)
}

fn add_file(file: &mut FileCoverage, index: usize, render: &RenderCoverage) {
    for (item, counts) in &mut file.items {
        let key = (index, item.at);
        match &item.kind {
            ItemKind::Block(_) => counts[0] += u64::from(render.blocks.contains(&key)),
            ItemKind::Condition(_) => {
                if let Some(seen) = render.conditions.get(&key) {
                    for (count, more) in counts.iter_mut().zip(seen) {
                        *count += more;
                    }
                }
            }
            ItemKind::Arms => {
                if let Some(seen) = render.arms.get(&key) {
                    counts[0] += seen[0];
                    counts[1] += seen[1];
                }
            }
            ItemKind::Function(name) => counts[0] += render.calls.get(name).copied().unwrap_or(0),
        }
    }
}

fn totals(files: &[FileCoverage]) -> Totals {
    let mut totals = Totals::default();
    for (item, counts) in files.iter().flat_map(|f| &f.items) {
        match item.kind {
            ItemKind::Block(_) => totals.blocks.count(counts[0] > 0),
            ItemKind::Function(_) => totals.functions.count(counts[0] > 0),
            ItemKind::Condition(_) => counts.iter().for_each(|c| totals.branches.count(*c > 0)),
            ItemKind::Arms => counts[..2]
                .iter()
                .for_each(|c| totals.branches.count(*c > 0)),
        }
    }
    totals
}

/// The folder holding a composition's files (their longest common folder).
fn folder_of(files: &[FileCoverage]) -> String {
    let folders: Vec<&Path> = files
        .iter()
        .map(|f| Path::new(&f.path).parent().unwrap_or(Path::new("")))
        .collect();
    let Some(first) = folders.first() else {
        return ".".into();
    };
    let mut common: PathBuf = first.to_path_buf();
    for folder in &folders[1..] {
        while !folder.starts_with(&common) {
            if !common.pop() {
                break;
            }
        }
    }
    let text = common.display().to_string();
    if text.is_empty() { ".".into() } else { text }
}

/// A file's path as LCOV and the summary show it: made absolute against `base`, `.` and
/// `..` resolved as text (no file is read), then relative to `base` when inside it.
fn shown(base: &Path, path: &str) -> String {
    let joined = base.join(path);
    let mut clean = PathBuf::new();
    for component in joined.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                clean.pop();
            }
            other => clean.push(other),
        }
    }
    let base_clean: PathBuf = base
        .components()
        .filter(|c| !matches!(c, Component::CurDir))
        .collect();
    match clean.strip_prefix(&base_clean) {
        Ok(inside) if !base_clean.as_os_str().is_empty() => inside.display().to_string(),
        _ => clean.display().to_string(),
    }
}

#[cfg(test)]
mod tests;
