//! `fnhcl check`: find the compositions below each path (one directory walk), load and check
//! each on its own source map in parallel, then print the findings in a deterministic order.
//! `--list-rules` and `--explain` describe the rules instead.

use crate::cli::Context;
use crate::cli::args::{CheckArgs, FailLevel};
use crate::cli::exit::ExitStatus;
use fnhcl::check::reference::level;
use fnhcl::check::rules::{self, RULES, Rule};
use fnhcl::check::{Config, check_bundle};
use fnhcl::diagnostics::{Code, Diagnostic, Severity, counts, from_load_error};
use fnhcl::source::SourceMap;
use fnhcl::source::loader::{self, Bundle, LoadError, LoadOptions};
use rayon::prelude::*;
use std::collections::{BTreeMap, HashMap};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// One composition to check, as found on the command line or by the walk.
enum Unit {
    /// A txtar bundle read from standard input.
    Stdin(String),
    /// A directory and its `.hcl` children (already listed).
    Directory(PathBuf, Vec<String>),
    /// A file: txtar, Composition YAML, or HCL.
    File(PathBuf),
}

impl Unit {
    fn path(&self) -> &Path {
        match self {
            Unit::Stdin(_) => Path::new("."),
            Unit::Directory(dir, _) => dir,
            Unit::File(path) => path,
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

/// Runs the command; returns the status and the findings to print.
pub fn run(args: &CheckArgs, cx: &mut Context) -> io::Result<(ExitStatus, Vec<Diagnostic>)> {
    if args.list_rules {
        cx.stdout.write_all(rule_list().as_bytes())?;
        return Ok((ExitStatus::Success, Vec::new()));
    }
    if let Some(key) = &args.explain {
        let Some(rule) = rules::find(key) else {
            let d = Diagnostic::new(Code::I017, format!("no rule is called `{key}`"))
                .with_help("`fnhcl check --list-rules` lists every rule by code and name");
            return Ok((cx.fail(d), Vec::new()));
        };
        cx.stdout.write_all(explanation(rule).as_bytes())?;
        return Ok((ExitStatus::Success, Vec::new()));
    }
    let units = match plan(args)? {
        Ok(units) => units,
        Err(d) => return Ok((cx.fail(d), Vec::new())),
    };
    let configs = match configs(args, &units, &mut cx.map) {
        Ok(configs) => configs,
        Err(d) => return Ok((cx.fail(*d), Vec::new())),
    };
    let configs = with_schemas(args, &units, configs, cx);
    let step = args.step.as_deref();
    let checked: Vec<Checked> = units
        .par_iter()
        .zip(configs.par_iter())
        .map(|(unit, config)| match config {
            Some(config) => check_unit(unit, step, config),
            None => Checked::default(),
        })
        .collect();
    if cx.verbose {
        for (unit, config) in units.iter().zip(&configs) {
            if config.is_none() {
                cx.note(&format!("excluded: {}", unit.path().display()))?;
            }
        }
    }
    let (mut files, mut compositions, mut load_failed) = (0, 0, false);
    let mut findings = Vec::new();
    for result in checked {
        let offset = cx.map.append(result.map);
        findings.extend(result.findings.into_iter().map(|d| d.moved(offset)));
        files += result.files;
        compositions += result.compositions;
        load_failed |= result.load_failed;
    }
    let threshold = match args.fail_level {
        FailLevel::Error => Severity::Error,
        FailLevel::Warning => Severity::Warning,
    };
    let status = if load_failed {
        ExitStatus::Error
    } else if findings.iter().any(|d| d.severity >= threshold) {
        ExitStatus::Failure
    } else {
        ExitStatus::Success
    };
    let (errors, warnings) = counts(&findings);
    cx.note(&format!(
        "checked {files} {} in {compositions} {}: {errors} {}, {warnings} {}",
        plural(files, "file", "files"),
        plural(compositions, "composition", "compositions"),
        plural(errors, "error", "errors"),
        plural(warnings, "warning", "warnings"),
    ))?;
    Ok((status, findings))
}

fn plural<'a>(n: usize, one: &'a str, many: &'a str) -> &'a str {
    if n == 1 { one } else { many }
}

/// Loads and checks one unit on its own source map.
fn check_unit(unit: &Unit, step: Option<&str>, config: &Config) -> Checked {
    let mut map = SourceMap::new();
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
    let shared = Arc::new(map);
    let findings = check_bundle(&shared, &bundle, config);
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
        Unit::File(path) => loader::load_single_hcl(map, path),
    }
}

/// The units of every command-line path, in order.
fn plan(args: &CheckArgs) -> io::Result<Result<Vec<Unit>, Diagnostic>> {
    let mut units = Vec::new();
    for path in &args.paths {
        if path.as_os_str() == "-" {
            let mut text = String::new();
            if let Err(e) = io::stdin().read_to_string(&mut text) {
                let d = Diagnostic::new(Code::I001, format!("cannot read standard input: {e}"));
                return Ok(Err(d));
            }
            units.push(Unit::Stdin(text));
        } else if path.is_dir() {
            let found = match compositions(path) {
                Ok(found) => found,
                Err(d) => return Ok(Err(*d)),
            };
            units.extend(
                found
                    .into_iter()
                    .map(|(dir, names)| Unit::Directory(dir, names)),
            );
        } else {
            units.push(Unit::File(path.clone()));
        }
    }
    Ok(Ok(units))
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
            let reason = e
                .io_error()
                .map_or_else(|| e.to_string(), fnhcl::source::loader::io_text);
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
        if entry.depth() == 0 || !name.ends_with(".hcl") || entry.path().is_dir() {
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
    args: &CheckArgs,
    units: &[Unit],
    map: &mut SourceMap,
) -> Result<Vec<Option<Arc<Config>>>, Box<Diagnostic>> {
    let explicit = match &args.config {
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

/// Gives each unit's configuration the schemas its body rules read: `--schemas`, else the
/// configuration's `schemas`, else the nearest `.crd-sources.yaml` or `.crds/`. Each set of
/// files is loaded once; one that cannot be loaded is a warning and the rules skip the unit.
fn with_schemas(
    args: &CheckArgs,
    units: &[Unit],
    configs: Vec<Option<Arc<Config>>>,
    cx: &mut Context,
) -> Vec<Option<Arc<Config>>> {
    use fnhcl::schema::sources;
    let mut loaded: HashMap<Vec<PathBuf>, Option<Arc<fnhcl::schema::Schemas>>> = HashMap::new();
    units
        .iter()
        .zip(configs)
        .map(|(unit, config)| {
            let config = config?;
            let configured = if args.schemas.is_empty() {
                &config.schema_paths
            } else {
                &args.schemas
            };
            let start = match unit {
                Unit::Stdin(_) => std::env::current_dir().unwrap_or_default(),
                other => {
                    let path = other.path();
                    if path.is_dir() {
                        path.to_path_buf()
                    } else {
                        path.parent().map(Path::to_path_buf).unwrap_or_default()
                    }
                }
            };
            let files = sources::files_for(configured, &start).map_err(|e| e.to_string());
            let files = match files {
                Ok(files) if files.is_empty() => return Some(config),
                Ok(files) => files,
                Err(e) => {
                    cx.diagnostics.push(
                        Diagnostic::new(Code::V705, format!("schemas not used: {e}"))
                            .with_severity(Severity::Warning),
                    );
                    return Some(config);
                }
            };
            let schemas = loaded
                .entry(files.clone())
                .or_insert_with(|| match sources::load(&files) {
                    Ok(schemas) => Some(Arc::new(schemas)),
                    Err(e) => {
                        cx.diagnostics.push(
                            Diagnostic::new(Code::V705, format!("schemas not used: {e}"))
                                .with_severity(Severity::Warning),
                        );
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

/// A unit is excluded when its path matches, or when it is a directory all of whose files
/// match.
fn excluded(config: &Config, unit: &Unit) -> bool {
    match unit {
        Unit::Stdin(_) => false,
        Unit::File(path) => config.excludes(path),
        Unit::Directory(dir, names) => {
            config.excludes(dir)
                || (!names.is_empty() && names.iter().all(|n| config.excludes(&dir.join(n))))
        }
    }
}

/// `--list-rules`: one line per rule.
fn rule_list() -> String {
    let width = RULES.iter().map(|r| r.name().len()).max().unwrap_or(0);
    let mut out = format!(
        "{:<4}  {:<width$}  {:<7}  {:<8}  WHAT IT FINDS\n",
        "CODE", "NAME", "DEFAULT", "KIND"
    );
    for rule in RULES {
        out.push_str(&format!(
            "{}  {:<width$}  {:<7}  {:<8}  {}\n",
            rule.id(),
            rule.name(),
            level(rule),
            rule.kind.short(),
            rule.summary(),
        ));
    }
    out.push_str(
        "\nKIND: `rejects` = function-hcl rejects it (cannot be configured or suppressed); \
         `analyzer` = fn-hcl-tools analyze rejects it; `lint` = fnhcl's own.\n\
         `fnhcl check --explain NAME` explains a rule.\n",
    );
    out
}

/// `--explain`: the rule's header and explanation.
fn explanation(rule: &Rule) -> String {
    let configurable = if rule.kind.configurable() {
        "can be configured and suppressed"
    } else {
        "cannot be configured or suppressed"
    };
    format!(
        "{} {}: {}\n({}; {} by default; {})\n\n{}",
        rule.id(),
        rule.name(),
        rule.summary(),
        rule.kind.describe(),
        level(rule),
        configurable,
        rule.explain
    )
}
