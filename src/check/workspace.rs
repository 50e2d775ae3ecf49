//! `fnhcl check` over paths: find the compositions below each path (one directory walk), give
//! each its configuration and schemas, load and check each on its own source map in parallel,
//! and gather the findings. Prints nothing: the caller reports what [`run`] returns.

use super::{Config, check_bundle};
use crate::diagnostics::{Code, Diagnostic, Severity, from_load_error};
use crate::source::SourceMap;
use crate::source::loader::{self, Bundle, LoadError, LoadOptions};
use rayon::prelude::*;
use std::collections::{BTreeMap, HashMap};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// What to check and how: the command line's paths and settings.
#[derive(Clone, Copy, Debug)]
pub struct Options<'a> {
    /// Directories, `.hcl` files, txtar bundles, Composition YAML files, or `-` (standard
    /// input, a txtar bundle).
    pub paths: &'a [PathBuf],
    /// One configuration file for every path, instead of the `.fnhcl.toml` found for each.
    pub config: Option<&'a Path>,
    /// CRD/XRD files or folders, instead of the configured or nearest ones.
    pub schemas: &'a [PathBuf],
    /// The pipeline step to check when a Composition has several function-hcl steps.
    pub step: Option<&'a str>,
}

/// What checking every path found.
#[derive(Debug, Default)]
pub struct Report {
    /// The findings, unsorted, with spans into the caller's map.
    pub findings: Vec<Diagnostic>,
    /// How many files were checked.
    pub files: usize,
    /// How many compositions were checked.
    pub compositions: usize,
    /// A composition could not be loaded (its error is among the findings).
    pub load_failed: bool,
    /// The paths the configuration excludes, in order.
    pub excluded: Vec<PathBuf>,
    /// Problems with the setting-up that do not stop the check (schemas not used).
    pub warnings: Vec<Diagnostic>,
}

impl Report {
    /// Whether a finding is at least as severe as `threshold`.
    pub fn fails_at(&self, threshold: Severity) -> bool {
        self.findings.iter().any(|d| d.severity >= threshold)
    }
}

/// One composition to check, as found on the command line or by the walk.
enum Unit {
    /// A txtar bundle read from standard input.
    Stdin(String),
    /// A directory and its `.hcl` children (already listed).
    Directory(PathBuf, Vec<String>),
    /// A file: txtar, Composition YAML, or HCL.
    File(PathBuf),
    /// An HCL-native test file (`*.fnhcltest.hcl`).
    TestFile(PathBuf),
}

impl Unit {
    fn path(&self) -> &Path {
        match self {
            Unit::Stdin(_) => Path::new("."),
            Unit::Directory(dir, _) => dir,
            Unit::File(path) | Unit::TestFile(path) => path,
        }
    }
}

/// What checking one unit gave (nothing, for an excluded one).
#[derive(Default)]
struct Checked {
    map: SourceMap,
    findings: Vec<Diagnostic>,
    files: usize,
    compositions: usize,
    load_failed: bool,
}

/// Checks every path of `options`; `stdin` is read for `-`. The sources read are appended to
/// `map`. Errors when a path or a configuration cannot be read at all (every mistake of a
/// configuration file, in source order).
pub fn run(
    map: &mut SourceMap,
    options: &Options<'_>,
    stdin: &mut dyn Read,
) -> Result<Report, Vec<Diagnostic>> {
    let units = plan(options.paths, stdin).map_err(|d| vec![*d])?;
    let configs = configs(options.config, &units, map)?;
    let mut report = Report::default();
    let configs = with_schemas(options.schemas, &units, configs, &mut report.warnings);
    let check = |(unit, config): (&Unit, &Option<std::sync::Arc<Config>>)| match config {
        Some(config) => check_unit(unit, options.step, config),
        None => Checked::default(),
    };
    // One unit (a pre-commit hook's file, an editor's folder) is checked on this thread:
    // starting the pool's threads would cost more than it could save.
    let checked: Vec<Checked> = if units.len() < 2 {
        units.iter().zip(&configs).map(check).collect()
    } else {
        units
            .par_iter()
            .zip(configs.par_iter())
            .map(check)
            .collect()
    };
    report.excluded = units
        .iter()
        .zip(&configs)
        .filter(|(_, config)| config.is_none())
        .map(|(unit, _)| unit.path().to_path_buf())
        .collect();
    for result in checked {
        let offset = map.append(result.map);
        report
            .findings
            .extend(result.findings.into_iter().map(|d| d.moved(offset)));
        report.files += result.files;
        report.compositions += result.compositions;
        report.load_failed |= result.load_failed;
    }
    Ok(report)
}

/// Loads and checks one unit on its own source map.
fn check_unit(unit: &Unit, step: Option<&str>, config: &Config) -> Checked {
    let mut map = SourceMap::new();
    if let Unit::TestFile(path) = unit {
        let (mut findings, load_failed) = super::testfile::check(&mut map, path);
        config.apply(&mut findings);
        return Checked {
            map,
            findings,
            files: usize::from(!load_failed),
            compositions: 0,
            load_failed,
        };
    }
    // A patch-and-transform Composition is checked as one; with a function-hcl step too, its
    // bundle is checked as well (below). A YAML file whose words only look like one stays in
    // the map unused when it is not; the loader reads it on its own below.
    let mut pt_findings = Vec::new();
    if let Unit::File(path) = unit
        && loader::is_yaml(path)
        && let Ok(text) = loader::read_text(path)
        && super::pt::may_hold(&text)
        && let file = map.add(path.display().to_string(), text)
        && let Some(mut findings) = super::pt::check(&map, file, config.schemas.as_deref())
    {
        map.set_display_name(file, loader::display_path(path));
        let has_hcl = crate::source::composition::Composition::parse(map.get(file).text())
            .is_ok_and(|c| c.steps.iter().any(|s| s.is_hcl || s.intends_hcl));
        if !has_hcl {
            config.apply(&mut findings);
            return Checked {
                map,
                findings,
                files: 1,
                compositions: 1,
                load_failed: false,
            };
        }
        pt_findings = findings;
    }
    let loaded = load(&mut map, unit, step);
    let bundle = match loaded {
        Ok(bundle) => bundle,
        Err(e) => {
            let d = from_load_error(&e, &map);
            return Checked {
                map,
                findings: vec![d],
                files: 0,
                compositions: 0,
                load_failed: true,
            };
        }
    };
    // A Composition that no longer holds what its folder's files say is checked here, the
    // one place that sees both.
    let stale: Vec<Diagnostic> = match (unit, &bundle.origin) {
        (Unit::File(path), loader::Origin::Composition { file, step }) => {
            super::stale::check_composition(&map, *file, path, Some(step))
                .into_iter()
                .collect()
        }
        (Unit::Directory(dir, _), _) => super::stale::check_folder(&mut map, dir, &bundle),
        _ => Vec::new(),
    };
    let shared = Arc::new(map);
    let mut findings = check_bundle(&shared, &bundle, config);
    findings.extend(stale);
    findings.extend(pt_findings);
    // The check keeps no reference to the map once it returns.
    let map = Arc::try_unwrap(shared).unwrap_or_else(|arc| (*arc).clone());
    Checked {
        map,
        findings,
        files: bundle.files.len(),
        compositions: 1,
        load_failed: false,
    }
}

fn load(map: &mut SourceMap, unit: &Unit, step: Option<&str>) -> Result<Bundle, LoadError> {
    match unit {
        Unit::Stdin(text) => {
            let mut input = text.as_bytes();
            loader::load_arg(map, "-", &mut input as &mut dyn Read, LoadOptions { step })
        }
        Unit::Directory(dir, names) => loader::load_listed_directory(map, dir, names.clone()),
        Unit::File(path)
            if loader::is_manifest(path) || path.extension().is_some_and(|e| e == "txtar") =>
        {
            loader::load_path(map, path, LoadOptions { step })
        }
        // Any other file is HCL, whatever its extension.
        Unit::File(path) | Unit::TestFile(path) => loader::load_single_hcl(map, path),
    }
}

/// The units of every path, in order.
fn plan(paths: &[PathBuf], stdin: &mut dyn Read) -> Result<Vec<Unit>, Box<Diagnostic>> {
    let mut units = Vec::new();
    for path in paths {
        if path.as_os_str() == "-" {
            let text = crate::diagnostics::read_stdin(stdin)?;
            units.push(Unit::Stdin(text));
        } else if path.is_dir() {
            let tests = super::testfile::below(path);
            let found = compositions(path)?;
            let pt = pt_compositions(path);
            // Checking nothing is not a pass: the path is most likely a typo or the wrong
            // folder. (A `composition.yaml` whose library files live elsewhere still counts.)
            if tests.is_empty()
                && pt.is_empty()
                && found.iter().all(|(_, names)| names.is_empty())
                && !path.join(loader::CONFIG_FILE).is_file()
            {
                return Err(Box::new(
                    Diagnostic::new(
                        Code::I026,
                        format!("no function-hcl files under `{}`", path.display()),
                    )
                    .with_path(path.display().to_string())
                    .with_help(
                        "give the folder of a composition (it holds `.hcl` files), a Composition YAML file, or `-` for standard input",
                    ),
                ));
            }
            units.extend(
                found
                    .into_iter()
                    // A folder of test files (or P&T Compositions) only is not an empty
                    // composition.
                    .filter(|(_, names)| !names.is_empty() || tests.is_empty() && pt.is_empty())
                    .map(|(dir, names)| Unit::Directory(dir, names)),
            );
            units.extend(pt.into_iter().map(Unit::File));
            units.extend(tests.into_iter().map(Unit::TestFile));
        } else if loader::is_test_file(&path.file_name().unwrap_or_default().to_string_lossy()) {
            units.push(Unit::TestFile(path.clone()));
        } else {
            units.push(Unit::File(path.clone()));
        }
    }
    Ok(units)
}

/// The YAML files at or below `dir` (hidden folders skipped, as for `.hcl` files) that are
/// patch-and-transform Compositions, sorted. Each file is read only when a cheap look at its
/// text says it may be one; unreadable files are skipped (nothing names them as inputs).
fn pt_compositions(dir: &Path) -> Vec<PathBuf> {
    let walker = walkdir::WalkDir::new(dir)
        .sort_by_file_name()
        .into_iter()
        .filter_entry(|e| e.depth() == 0 || !e.file_name().to_string_lossy().starts_with('.'));
    let mut out = Vec::new();
    for entry in walker.filter_map(Result::ok) {
        let path = entry.path();
        if entry.depth() == 0 || !entry.file_type().is_file() || !loader::is_yaml(path) {
            continue;
        }
        if loader::read_text(path).is_ok_and(|text| super::pt::holds_text(&text)) {
            out.push(path.to_path_buf());
        }
    }
    out
}

/// Every folder at or below `dir` that directly holds `.hcl` files, with those files' names
/// (sorted), from one walk (hidden folders skipped), except folders that hold only library
/// files of another one. `dir` itself when none does, so an empty folder is still reported on.
/// A folder that cannot be read is an error naming it: skipping it would pass unchecked files.
fn compositions(dir: &Path) -> Result<Vec<(PathBuf, Vec<String>)>, Box<Diagnostic>> {
    let mut found: BTreeMap<PathBuf, Vec<String>> = BTreeMap::new();
    let walker = walkdir::WalkDir::new(dir)
        .sort_by_file_name()
        .into_iter()
        .filter_entry(|e| e.depth() == 0 || !e.file_name().to_string_lossy().starts_with('.'));
    for entry in walker {
        let entry = entry.map_err(|e| {
            let path = e
                .path()
                .map_or_else(|| dir.display().to_string(), |p| p.display().to_string());
            let reason = e.io_error().map_or_else(|| e.to_string(), loader::io_text);
            Box::new(
                Diagnostic::new(
                    Code::I001,
                    format!("cannot read directory `{path}`: {reason}"),
                )
                .with_path(path)
                .with_help("make it readable, or check the folders you mean one by one"),
            )
        })?;
        let Some(name) = entry.file_name().to_str() else {
            continue;
        };
        // Test files (`*.fnhcltest.hcl`) are checked as tests, never as composition code.
        if entry.depth() == 0
            || !name.ends_with(".hcl")
            || loader::is_test_file(name)
            || entry.path().is_dir()
        {
            continue;
        }
        if let Some(parent) = entry.path().parent() {
            found
                .entry(parent.to_path_buf())
                .or_default()
                .push(name.to_string());
        }
    }
    if found.is_empty() {
        return Ok(vec![(dir.to_path_buf(), Vec::new())]);
    }
    // A folder whose every file is a library file of another composition (`lib/` beside a
    // `composition.yaml` that lists its files) is checked as part of that composition only.
    let claimed: HashMap<String, &Path> = found
        .keys()
        .flat_map(|owner| {
            loader::library_paths(owner)
                .into_iter()
                .map(move |path| (path, owner.as_path()))
        })
        .collect();
    let library_only: Vec<PathBuf> = found
        .iter()
        .filter(|(folder, names)| {
            names.iter().all(|name| {
                let path = loader::clean_relative(&folder.join(name).display().to_string());
                claimed
                    .get(&path)
                    .is_some_and(|owner| *owner != folder.as_path())
            })
        })
        .map(|(folder, _)| folder.clone())
        .collect();
    for folder in library_only {
        found.remove(&folder);
    }
    Ok(found.into_iter().collect())
}

/// The configuration of each unit (`None`: excluded), loading each file once.
fn configs(
    explicit: Option<&Path>,
    units: &[Unit],
    map: &mut SourceMap,
) -> Result<Vec<Option<Arc<Config>>>, Vec<Diagnostic>> {
    let explicit = match explicit {
        Some(path) => Some(Arc::new(Config::load(map, path)?)),
        None => None,
    };
    let default = Arc::new(Config::default());
    let mut loaded: HashMap<PathBuf, Arc<Config>> = HashMap::new();
    let mut out = Vec::with_capacity(units.len());
    for unit in units {
        let config = match (&explicit, unit) {
            (Some(config), _) => config.clone(),
            (None, Unit::Stdin(_)) => default.clone(),
            (None, _) => match Config::find(unit.path()) {
                None => default.clone(),
                Some(file) => match loaded.get(&file) {
                    Some(config) => config.clone(),
                    None => {
                        let config = Arc::new(Config::load(map, &file)?);
                        loaded.insert(file, config.clone());
                        config
                    }
                },
            },
        };
        out.push((!excluded(&config, unit)).then_some(config));
    }
    Ok(out)
}

/// Gives each unit's configuration the schemas its body rules read: `schemas`, else the
/// configuration's `schemas`, else the nearest `.crd-sources.yaml` or `.crds/`. Each set of
/// files is loaded once; one that cannot be loaded is a warning and the rules skip the unit.
fn with_schemas(
    schemas: &[PathBuf],
    units: &[Unit],
    configs: Vec<Option<Arc<Config>>>,
    warnings: &mut Vec<Diagnostic>,
) -> Vec<Option<Arc<Config>>> {
    use crate::schema::sources;
    let mut loaded: HashMap<Vec<PathBuf>, Option<Arc<crate::schema::Schemas>>> = HashMap::new();
    let mut not_used = |e: String| {
        warnings.push(
            Diagnostic::new(Code::V705, format!("schemas not used: {e}"))
                .with_severity(Severity::Warning),
        );
    };
    units
        .iter()
        .zip(configs)
        .map(|(unit, config)| {
            let config = config?;
            let configured = if schemas.is_empty() {
                &config.schema_paths
            } else {
                schemas
            };
            let files = match sources::files_for(configured, &schema_start(unit)) {
                Ok(files) if files.is_empty() => return Some(config),
                Ok(files) => files,
                Err(e) => {
                    not_used(e.to_string());
                    return Some(config);
                }
            };
            let schemas = loaded
                .entry(files.clone())
                .or_insert_with(|| match sources::load(&files) {
                    Ok(schemas) => Some(Arc::new(schemas)),
                    Err(e) => {
                        not_used(e.to_string());
                        None
                    }
                })
                .clone();
            Some(match schemas {
                Some(schemas) => {
                    let mut with = (*config).clone();
                    with.schemas = Some(schemas);
                    Arc::new(with)
                }
                None => config,
            })
        })
        .collect()
}

/// Where the search for a unit's schemas starts: its folder (the working one for stdin).
fn schema_start(unit: &Unit) -> PathBuf {
    match unit {
        Unit::Stdin(_) => std::env::current_dir().unwrap_or_default(),
        other => {
            let path = other.path();
            if path.is_dir() {
                path.to_path_buf()
            } else {
                path.parent().map(Path::to_path_buf).unwrap_or_default()
            }
        }
    }
}

/// A unit is excluded when its path matches, or when it is a directory all of whose files
/// match.
fn excluded(config: &Config, unit: &Unit) -> bool {
    match unit {
        Unit::Stdin(_) => false,
        Unit::File(path) | Unit::TestFile(path) => config.excludes(path),
        Unit::Directory(dir, names) => {
            config.excludes(dir)
                || (!names.is_empty() && names.iter().all(|n| config.excludes(&dir.join(n))))
        }
    }
}
