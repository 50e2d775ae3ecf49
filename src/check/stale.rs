//! A Composition whose function-hcl step holds an inline bundle that no longer matches the
//! folder it was packaged from (`fnhcl package DIR --into composition.yaml`): the `.hcl` files
//! were edited after packaging. The folder is the Composition file's own directory, where
//! `package --into` is pointed at; a Composition in a folder without `.hcl` files pairs with
//! nothing. Bundles are compared member by member (name and text), whatever their layout.

use crate::diagnostics::{Code, Diagnostic};
use crate::source::composition::Composition;
use crate::source::loader::{self, Bundle};
use crate::source::yaml::Node;
use crate::source::{FileId, SourceMap, txtar};
use std::path::Path;

/// How an inline bundle differs from its folder's files, by member name (each list sorted).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Staleness {
    /// In both, with different text.
    pub changed: Vec<String>,
    /// In the folder only (added since packaging).
    pub added: Vec<String>,
    /// In the inline bundle only (removed or renamed since).
    pub removed: Vec<String>,
}

impl Staleness {
    /// Whether the bundle matches the folder.
    pub fn is_fresh(&self) -> bool {
        self.changed.is_empty() && self.added.is_empty() && self.removed.is_empty()
    }

    /// `main.hcl changed, net.hcl added` — what differs, for a message.
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        for (names, word) in [
            (&self.changed, "changed"),
            (&self.added, "added"),
            (&self.removed, "removed"),
        ] {
            parts.extend(names.iter().map(|n| format!("`{n}` {word}")));
        }
        parts.join(", ")
    }
}

/// Compares the txtar text `inline` (a step's `hcl`) with the txtar text `folder` (the bundle
/// `package` makes of the folder now).
pub fn compare(inline: &str, folder: &str) -> Staleness {
    let members = |text: &str| -> std::collections::BTreeMap<String, String> {
        txtar::parse(text)
            .files
            .into_iter()
            .map(|f| (f.name, f.data))
            .collect()
    };
    let (old, new) = (members(inline), members(folder));
    let mut staleness = Staleness::default();
    for (name, data) in &new {
        match old.get(name) {
            Some(was) if was != data => staleness.changed.push(name.clone()),
            Some(_) => {}
            None => staleness.added.push(name.clone()),
        }
    }
    staleness.removed = old
        .keys()
        .filter(|n| !new.contains_key(*n))
        .cloned()
        .collect();
    staleness
}

/// The diagnostic for a stale bundle: at the step's `hcl:` key in `yaml` (a file of `map`),
/// naming the folder `dir` and what differs.
pub fn diagnostic(
    map: &SourceMap,
    yaml: FileId,
    step: &str,
    dir: &Path,
    staleness: &Staleness,
) -> Diagnostic {
    let folder = match loader::display_path(dir).as_str() {
        "" => ".".to_string(),
        shown => shown.to_string(),
    };
    let file = map.get(yaml);
    let key = Composition::parse(file.text()).ok().and_then(|c| {
        let found = c.steps.iter().find(|s| s.name == step)?;
        let (key, _) = found.input()?.entry("hcl")?;
        Some(key.span.clone())
    });
    let shown = file.display_name().to_string();
    let mut d = Diagnostic::new(
        Code::I027,
        format!(
            "the inline bundle of step {step:?} differs from the files in `{folder}`: {}",
            staleness.describe()
        ),
    )
    .with_help(format!("run `fnhcl package {folder} --into {shown}`"));
    d = match key {
        Some(range) => d.with_primary(file.span(range), Some("stale bundle".into())),
        None => d.with_path(shown),
    };
    d
}

/// Checks the Composition YAML `yaml` (a file of `map`, read from `path`) against the folder
/// it sits in: the finding when its function-hcl step's bundle is stale. Nothing when the
/// folder holds no `.hcl` file, the step cannot be told, or the folder cannot be loaded (the
/// folder's own check reports that).
pub fn check_composition(
    map: &SourceMap,
    yaml: FileId,
    path: &Path,
    step: Option<&str>,
) -> Option<Diagnostic> {
    let dir = path.parent().unwrap_or(Path::new("."));
    let dir = if dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        dir
    };
    let composition = Composition::parse(map.get(yaml).text()).ok()?;
    let chosen = composition.hcl_step(step).ok()?;
    let inline = chosen.hcl().and_then(Node::as_str)?;
    let mut scratch = SourceMap::new();
    let bundle = loader::load_directory(&mut scratch, dir).ok()?;
    if bundle.files.is_empty() {
        return None;
    }
    let staleness = compare(inline, &bundle.txtar(&scratch));
    (!staleness.is_fresh()).then(|| diagnostic(map, yaml, &chosen.name, dir, &staleness))
}

/// The Composition YAML files directly in `dir` that hold a function-hcl bundle, checked
/// against `bundle` (the folder's files, loaded in `map`): one finding per stale one, its YAML
/// added to `map`.
pub fn check_folder(map: &mut SourceMap, dir: &Path, bundle: &Bundle) -> Vec<Diagnostic> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut paths: Vec<_> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| loader::is_yaml(p) && p.is_file())
        .filter(|p| p.file_name().is_some_and(|n| n != loader::CONFIG_FILE))
        .collect();
    paths.sort();
    let folder = bundle.txtar(map);
    let mut findings = Vec::new();
    for path in paths {
        let Ok(text) = loader::read_text(&path) else {
            continue;
        };
        // Only Compositions with exactly one readable function-hcl step take part.
        if !Composition::may_be(&text) {
            continue;
        }
        let Some((step, inline)) = Composition::parse(&text).ok().and_then(|c| {
            let s = c.hcl_step(None).ok()?;
            Some((s.name.clone(), s.hcl().and_then(Node::as_str)?.to_string()))
        }) else {
            continue;
        };
        let staleness = compare(&inline, &folder);
        if staleness.is_fresh() {
            continue;
        }
        let yaml = map.add(path.display().to_string(), text);
        map.set_display_name(yaml, loader::display_path(&path));
        findings.push(diagnostic(map, yaml, &step, dir, &staleness));
    }
    findings
}

#[cfg(test)]
mod tests {
    use super::compare;

    #[test]
    fn members_are_compared_whatever_the_layout() {
        let fresh = compare("-- a.hcl --\nx = 1\n", "note\n-- a.hcl --\nx = 1\n");
        assert!(fresh.is_fresh());
        let stale = compare(
            "-- a.hcl --\nx = 1\n-- old.hcl --\n",
            "-- a.hcl --\nx = 2\n-- b.hcl --\n",
        );
        assert_eq!(
            stale.describe(),
            "`a.hcl` changed, `b.hcl` added, `old.hcl` removed"
        );
    }
}
