//! LCOV tracefiles, as `geninfo(1)` documents them and genhtml, Codecov and editors' coverage
//! gutters read them: [`write`] of a run's coverage and [`parse`] of one (the language
//! server's coverage hints).
//!
//! A composition item becomes: a block, `DA` on the block's first line (renders it was
//! rendered in); a `condition`, three `BRDA` branches (true, false, incomplete); a conditional
//! expression, two (true arm, false arm); a user function, `FN`/`FNDA` (calls). A branch whose
//! expression was never evaluated is `-`, as geninfo writes a branch of code never run.

use super::{CompositionReport, ItemKind};
use std::collections::BTreeMap;
use std::fmt::Write;

/// The tracefile of a run: one record per file, sorted by path (a file two compositions share
/// appears once per composition; LCOV readers add the records up).
pub fn write(reports: &[CompositionReport]) -> String {
    let mut files: Vec<_> = reports.iter().flat_map(|r| &r.files).collect();
    files.sort_by(|a, b| a.path.cmp(&b.path));
    let mut out = String::new();
    for file in files {
        // Writing to a String cannot fail.
        let _ = record(&mut out, file);
    }
    out
}

fn record(out: &mut String, file: &super::FileCoverage) -> std::fmt::Result {
    writeln!(out, "TN:")?;
    writeln!(out, "SF:{}", file.path)?;
    let (mut found, mut hit) = (0, 0);
    for (item, counts) in &file.items {
        if let ItemKind::Function(name) = &item.kind {
            writeln!(out, "FN:{},{name}", item.line)?;
            found += 1;
            hit += usize::from(counts[0] > 0);
        }
    }
    for (item, counts) in &file.items {
        if let ItemKind::Function(name) = &item.kind {
            writeln!(out, "FNDA:{},{name}", counts[0])?;
        }
    }
    writeln!(out, "FNF:{found}")?;
    writeln!(out, "FNH:{hit}")?;
    let (mut found, mut hit) = (0, 0);
    let mut block = 0;
    for (item, counts) in &file.items {
        let branches = match item.kind {
            ItemKind::Condition(_) => &counts[..],
            ItemKind::Arms => &counts[..2],
            ItemKind::Block(_) | ItemKind::Function(_) => continue,
        };
        let reached = branches.iter().any(|c| *c > 0);
        for (branch, count) in branches.iter().enumerate() {
            let taken = if reached {
                count.to_string()
            } else {
                "-".into()
            };
            writeln!(out, "BRDA:{},{block},{branch},{taken}", item.line)?;
            found += 1;
            hit += usize::from(*count > 0);
        }
        block += 1;
    }
    writeln!(out, "BRF:{found}")?;
    writeln!(out, "BRH:{hit}")?;
    // Blocks that share a line share its DA: the line counts as its best block.
    let mut lines: BTreeMap<usize, u64> = BTreeMap::new();
    for (item, counts) in &file.items {
        if let ItemKind::Block(_) = item.kind {
            let line = lines.entry(item.line).or_default();
            *line = (*line).max(counts[0]);
        }
    }
    for (line, count) in &lines {
        writeln!(out, "DA:{line},{count}")?;
    }
    writeln!(out, "LF:{}", lines.len())?;
    writeln!(out, "LH:{}", lines.values().filter(|c| **c > 0).count())?;
    writeln!(out, "end_of_record")
}

/// What a tracefile says about one source file.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FileRecord {
    /// `SF`: the path as written.
    pub path: String,
    /// `DA`: execution count by line (records of the same file added up).
    pub lines: BTreeMap<usize, u64>,
    /// `BRDA`: by line, each branch's (block, branch, taken) — `None` for `-`.
    pub branches: BTreeMap<usize, Vec<(u64, u64, Option<u64>)>>,
    /// `FN`/`FNDA`: by name, its line and call count.
    pub functions: BTreeMap<String, (usize, u64)>,
}

/// Reads a tracefile leniently: unknown or malformed lines are skipped, records of the same
/// path are added up, and the files come sorted by path. The caller bounds the text's size.
pub fn parse(text: &str) -> Vec<FileRecord> {
    let mut files: BTreeMap<String, FileRecord> = BTreeMap::new();
    let mut current: Option<FileRecord> = None;
    for line in text.lines() {
        let line = line.trim();
        let (key, value) = line.split_once(':').unwrap_or((line, ""));
        if key == "SF" {
            current = Some(FileRecord {
                path: value.to_string(),
                ..FileRecord::default()
            });
            continue;
        }
        if key == "end_of_record" {
            if let Some(done) = current.take() {
                merge(files.entry(done.path.clone()).or_default(), done);
            }
            continue;
        }
        let Some(file) = current.as_mut() else {
            continue;
        };
        let fields: Vec<&str> = value.split(',').collect();
        let number = |i: usize| fields.get(i).and_then(|f| f.trim().parse::<u64>().ok());
        match key {
            "DA" => {
                if let (Some(line), Some(count)) = (number(0), number(1)) {
                    *file.lines.entry(line as usize).or_default() += count;
                }
            }
            "BRDA" => {
                if let (Some(line), Some(block), Some(branch)) = (number(0), number(1), number(2)) {
                    file.branches.entry(line as usize).or_default().push((
                        block,
                        branch,
                        number(3),
                    ));
                }
            }
            // FN:<line>,<name> and lcov 2's FN:<line>,<end line>,<name>.
            "FN" => {
                if let (Some(line), Some(name)) = (number(0), fields.last())
                    && fields.len() >= 2
                {
                    file.functions
                        .entry(name.to_string())
                        .or_insert((line as usize, 0))
                        .0 = line as usize;
                }
            }
            "FNDA" => {
                if let (Some(count), Some(name)) = (number(0), fields.get(1)) {
                    file.functions.entry(name.to_string()).or_insert((0, 0)).1 += count;
                }
            }
            _ => {}
        }
    }
    files.into_values().collect()
}

fn merge(into: &mut FileRecord, more: FileRecord) {
    into.path = more.path;
    for (line, count) in more.lines {
        *into.lines.entry(line).or_default() += count;
    }
    for (line, branches) in more.branches {
        let mine = into.branches.entry(line).or_default();
        for (block, branch, taken) in branches {
            match mine
                .iter_mut()
                .find(|(bl, br, _)| *bl == block && *br == branch)
            {
                Some(existing) => {
                    existing.2 = match (existing.2, taken) {
                        (None, None) => None,
                        (a, b) => Some(a.unwrap_or(0) + b.unwrap_or(0)),
                    }
                }
                None => mine.push((block, branch, taken)),
            }
        }
    }
    for (name, (line, calls)) in more.functions {
        let entry = into.functions.entry(name).or_insert((line, 0));
        if entry.0 == 0 {
            entry.0 = line;
        }
        entry.1 += calls;
    }
}

/// What a tracefile says about each line of a file, in words, for an editor: `rendered in 3
/// renders`, `condition: true 2, false 0, incomplete 1`, `arms: true 1, false 0`, `called 4
/// times`. A `condition` is a branch group of three, a conditional expression one of two.
pub fn line_notes(file: &FileRecord) -> BTreeMap<usize, Vec<String>> {
    let mut notes: BTreeMap<usize, Vec<String>> = BTreeMap::new();
    for (name, (line, calls)) in &file.functions {
        let text = match calls {
            0 => format!("function {name}: never called"),
            1 => format!("function {name}: called once"),
            n => format!("function {name}: called {n} times"),
        };
        notes.entry(*line).or_default().push(text);
    }
    for (line, count) in &file.lines {
        let text = match count {
            0 => "never rendered".to_string(),
            1 => "rendered in 1 render".to_string(),
            n => format!("rendered in {n} renders"),
        };
        notes.entry(*line).or_default().push(text);
    }
    for (line, branches) in &file.branches {
        let mut groups: BTreeMap<u64, Vec<Option<u64>>> = BTreeMap::new();
        for (block, _, taken) in branches {
            groups.entry(*block).or_default().push(*taken);
        }
        for taken in groups.values() {
            let count = |i: usize| taken.get(i).copied().flatten().unwrap_or(0);
            let text = if taken.iter().all(Option::is_none) {
                "never evaluated".to_string()
            } else if taken.len() == 3 {
                format!(
                    "condition: true {}, false {}, incomplete {}",
                    count(0),
                    count(1),
                    count(2)
                )
            } else {
                format!("arms: true {}, false {}", count(0), count(1))
            };
            notes.entry(*line).or_default().push(text);
        }
    }
    notes
}
