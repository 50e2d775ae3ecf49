//! `.fnhcl.toml`: rule levels and excluded paths for `check`, found upward from each path.
//!
//! ```toml
//! exclude = ["vendor/**", "**/generated/*.hcl"]   # relative to this file's folder
//! schemas = [".crds"]                              # CRDs/XRDs for the body rules (L613–L615)
//!
//! [rules]
//! unused-local = "off"      # a rule's name or code; off | info | warning | error
//! L605 = "error"
//! unformatted = "warning"   # turns on a rule that is off by default
//!
//! [example]                 # the language server's live values (paths relative to this file)
//! case = "app/tests/minimal"  # a `fnhcl test` case folder, or instead:
//! # xr = "xr.yaml", observed = "observed.yaml", extra-resources = "extra.yaml",
//! # context = "context.yaml"
//! ```
//!
//! Rules whose findings function-hcl itself rejects cannot be configured; naming one is an
//! error, as is an unknown rule, level or key: a typo must not silently turn a check off.
//! Every such mistake of a file is reported at once, in source order, with a "did you mean"
//! for a misspelt key, rule or level.

use super::rules::{self, Rule};
use crate::diagnostics::suggest::did_you_mean;
use crate::diagnostics::{Code, Diagnostic, Severity};
use crate::source::{FileId, SourceMap, Span};
use globset::{Glob, GlobSet, GlobSetBuilder};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use toml::Spanned;

/// The configuration file's name.
pub const FILE_NAME: &str = ".fnhcl.toml";

/// A rule level.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    /// Not run.
    Off,
    /// Reported with this severity.
    On(Severity),
}

/// A loaded configuration (the default one has no file).
#[derive(Debug, Default, Clone)]
pub struct Config {
    /// The file it came from.
    pub path: Option<PathBuf>,
    levels: BTreeMap<Code, Level>,
    exclude: Option<GlobSet>,
    root: PathBuf,
    /// `schemas`: CRD/XRD files or folders (absolute), for the rules that read resource
    /// schemas.
    pub schema_paths: Vec<PathBuf>,
    /// The schemas those rules check bodies against (loaded by the caller).
    pub schemas: Option<std::sync::Arc<crate::schema::Schemas>>,
    /// `[example]`: the inputs the language server evaluates the composition for.
    pub example: Option<Example>,
}

/// `[example]`: an example XR with its other inputs, as a `fnhcl test` case gives them. Paths
/// are absolute (the file gives them relative to its folder); nothing is read here.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Example {
    /// `case`: the test case folder the other paths are in (its `observed.yaml`,
    /// `extra-resources.yaml` and `context.yaml` are optional there).
    pub case: Option<PathBuf>,
    /// The XR (`xr`, or the case's `xr.yaml`).
    pub xr: PathBuf,
    /// Observed composed resources (a YAML stream or a folder of them).
    pub observed: Option<PathBuf>,
    /// Extra resources, matched against the composition's requirements.
    pub extra_resources: Option<PathBuf>,
    /// The context: a YAML mapping of keys to values.
    pub context: Option<PathBuf>,
}

/// The file's keys (unknown ones are found on the parsed table first, all of them, so serde
/// ignores them here).
#[derive(Deserialize)]
struct Raw {
    #[serde(default)]
    exclude: Vec<Spanned<String>>,
    #[serde(default)]
    schemas: Vec<String>,
    #[serde(default)]
    rules: BTreeMap<Spanned<String>, Spanned<String>>,
    example: Option<Spanned<RawExample>>,
}

#[derive(Deserialize)]
#[serde(rename_all = "kebab-case")]
struct RawExample {
    case: Option<Spanned<String>>,
    xr: Option<Spanned<String>>,
    observed: Option<Spanned<String>>,
    extra_resources: Option<Spanned<String>>,
    context: Option<Spanned<String>>,
}

impl Config {
    /// Whether `rule` runs.
    pub fn enabled(&self, rule: &Rule) -> bool {
        match self.levels.get(&rule.code) {
            Some(Level::Off) => false,
            Some(Level::On(_)) => true,
            None => rule.enabled,
        }
    }

    /// Sets the configured severities on `found` (rules that are off report nothing).
    pub fn apply(&self, found: &mut Vec<Diagnostic>) {
        found.retain_mut(|d| match self.levels.get(&d.code) {
            Some(Level::Off) => false,
            Some(Level::On(severity)) => {
                d.severity = *severity;
                true
            }
            None => true,
        });
    }

    /// Whether `path` matches an `exclude` pattern (patterns are relative to the file's folder).
    pub fn excludes(&self, path: &Path) -> bool {
        let Some(set) = &self.exclude else {
            return false;
        };
        let absolute = absolute(path);
        absolute
            .strip_prefix(&self.root)
            .is_ok_and(|relative| set.is_match(relative))
    }

    /// Reads and checks a configuration file; its text goes into `map` so errors can point
    /// into it. Every mistake of the file is reported, in source order.
    pub fn load(map: &mut SourceMap, path: &Path) -> Result<Config, Vec<Diagnostic>> {
        let text = crate::source::read::read_text(path).map_err(|e| {
            let d =
                Diagnostic::new(Code::I019, e.to_string()).with_path(path.display().to_string());
            vec![match e {
                // The old message (with Rust's error text) for what the file system refuses.
                crate::source::read::ReadError::Io { source, .. } => Diagnostic::new(
                    Code::I019,
                    format!("cannot read `{}`: {source}", path.display()),
                )
                .with_path(path.display().to_string()),
                _ => d.with_help(e.help()),
            }]
        })?;
        let file = map.add(shown(path).display().to_string(), text);
        let text = map.get(file).text();
        let mut problems = Vec::new();
        let result = Config::read(file, text, path, &mut problems);
        problems.sort_by_key(|d| d.primary.as_ref().map(|l| (l.span.start, l.span.end)));
        match result {
            Some(config) if problems.is_empty() => Ok(config),
            _ => Err(problems),
        }
    }

    /// [`Config::load`] of the text: the configuration, with its mistakes added to `problems`
    /// (`None` when the text cannot be read as one at all).
    fn read(
        file: FileId,
        text: &str,
        path: &Path,
        problems: &mut Vec<Diagnostic>,
    ) -> Option<Config> {
        let toml_error = |e: toml::de::Error| {
            let message = e.message().trim_end().to_string();
            let at = e.span().unwrap_or(0..0);
            invalid(file, message, at.start..at.end.max(at.start))
        };
        let table = toml::de::DeTable::parse(text)
            .map_err(|e| problems.push(toml_error(e)))
            .ok()?;
        unknown_keys(file, table.get_ref(), problems);
        let raw: Raw = toml::from_str(text)
            .map_err(|e| problems.push(toml_error(e)))
            .ok()?;
        let root = absolute(path.parent().unwrap_or(Path::new(".")));
        let mut config = Config {
            path: Some(path.to_path_buf()),
            levels: BTreeMap::new(),
            exclude: None,
            schema_paths: raw.schemas.iter().map(|p| root.join(p)).collect(),
            schemas: None,
            example: None,
            root,
        };
        config.exclude = patterns(file, &raw.exclude)
            .map_err(|d| problems.push(*d))
            .ok()?;
        if let Some(example) = &raw.example {
            config.example = example_of(file, example, &config.root)
                .map_err(|d| problems.push(*d))
                .ok();
        }
        for (key, level) in &raw.rules {
            match rule_level(file, key, level) {
                Ok((code, value)) => {
                    config.levels.insert(code, value);
                }
                Err(d) => problems.push(*d),
            }
        }
        Some(config)
    }

    /// The nearest `.fnhcl.toml` in `start` (a folder, or a file's folder) or above it.
    pub fn find(start: &Path) -> Option<PathBuf> {
        let start = absolute(start);
        let dir = if start.is_dir() {
            start.as_path()
        } else {
            start.parent()?
        };
        dir.ancestors()
            .map(|d| d.join(FILE_NAME))
            .find(|candidate| candidate.is_file())
    }
}

/// The keys the file may have, at the top and in `[example]`.
const KEYS: [&str; 4] = ["exclude", "schemas", "rules", "example"];
const EXAMPLE_KEYS: [&str; 5] = ["case", "xr", "observed", "extra-resources", "context"];
const LEVELS: [&str; 4] = ["off", "info", "warning", "error"];

/// Every key the file does not know, at the top level and in `[example]`, with serde's message
/// and a "did you mean".
fn unknown_keys(file: FileId, table: &toml::de::DeTable, problems: &mut Vec<Diagnostic>) {
    let mut check = |table: &toml::de::DeTable, known: &[&str]| {
        for key in table.keys() {
            let name: &str = key.get_ref();
            if known.contains(&name) {
                continue;
            }
            let expected: Vec<String> = known.iter().map(|k| format!("`{k}`")).collect();
            let message = format!(
                "unknown field `{name}`, expected one of {}",
                expected.join(", ")
            );
            let d = invalid(file, message, key.span());
            problems.push(match did_you_mean(name, known, str::to_string) {
                Some(help) => d.with_help(help),
                None => d,
            });
        }
    };
    check(table, &KEYS);
    if let Some(example) = table.get("example")
        && let toml::de::DeValue::Table(example) = example.get_ref()
    {
        check(example, &EXAMPLE_KEYS);
    }
}

/// One `[rules]` entry: the rule's code and level, or what is wrong with it.
fn rule_level(
    file: FileId,
    key: &Spanned<String>,
    level: &Spanned<String>,
) -> Result<(Code, Level), Box<Diagnostic>> {
    let Some(rule) = rules::find(key.get_ref()) else {
        let message = format!("unknown rule `{}`", key.get_ref());
        let names: Vec<&str> = rules::RULES.iter().map(|r| r.name()).collect();
        let help = did_you_mean(key.get_ref(), &names, str::to_string).unwrap_or_else(|| {
            "`fnhcl check --list-rules` lists every rule by code and name".into()
        });
        return Err(Box::new(invalid(file, message, key.span()).with_help(help)));
    };
    if !rule.kind.configurable() {
        let message = format!(
            "rule `{}` ({}) cannot be configured: function-hcl rejects what it finds",
            rule.name(),
            rule.id()
        );
        return Err(Box::new(invalid(file, message, key.span())));
    }
    let value = match level.get_ref().as_str() {
        "off" => Level::Off,
        "info" => Level::On(Severity::Info),
        "warning" => Level::On(Severity::Warning),
        "error" => Level::On(Severity::Error),
        other => {
            let message = format!("unknown level `{other}` for rule `{}`", rule.name());
            let help = did_you_mean(other, &LEVELS, str::to_string)
                .unwrap_or_else(|| "a level is one of off, info, warning, error".into());
            return Err(Box::new(
                invalid(file, message, level.span()).with_help(help),
            ));
        }
    };
    Ok((rule.code, value))
}

fn patterns(file: FileId, exclude: &[Spanned<String>]) -> Result<Option<GlobSet>, Box<Diagnostic>> {
    if exclude.is_empty() {
        return Ok(None);
    }
    let mut builder = GlobSetBuilder::new();
    for pattern in exclude {
        let glob = Glob::new(pattern.get_ref().trim_start_matches("./")).map_err(|e| {
            Box::new(invalid(
                file,
                format!("invalid exclude pattern: {}", e.kind()),
                pattern.span(),
            ))
        })?;
        builder.add(glob);
    }
    builder
        .build()
        .map(Some)
        .map_err(|e| Box::new(invalid(file, format!("invalid exclude pattern: {e}"), 0..0)))
}

/// `[example]` checked: `case`, or `xr` with optional other inputs.
fn example_of(
    file: FileId,
    raw: &Spanned<RawExample>,
    root: &Path,
) -> Result<Example, Box<Diagnostic>> {
    let help = "give `case = \"FOLDER\"` (a `fnhcl test` case), or `xr = \"FILE\"` with optional `observed`, `extra-resources` and `context`";
    let example = raw.get_ref();
    let path = |p: &Option<Spanned<String>>| p.as_ref().map(|p| root.join(p.get_ref()));
    if let Some(case) = &example.case {
        let other = [
            &example.xr,
            &example.observed,
            &example.extra_resources,
            &example.context,
        ]
        .into_iter()
        .flatten()
        .next();
        if let Some(other) = other {
            let message = "`[example]` takes either `case` or the files one by one, not both";
            return Err(Box::new(
                invalid(file, message.into(), other.span()).with_help(help),
            ));
        }
        let dir = root.join(case.get_ref());
        return Ok(Example {
            xr: dir.join("xr.yaml"),
            observed: Some(dir.join("observed.yaml")),
            extra_resources: Some(dir.join("extra-resources.yaml")),
            context: Some(dir.join("context.yaml")),
            case: Some(dir),
        });
    }
    let Some(xr) = path(&example.xr) else {
        let message = "`[example]` needs `case` or `xr`";
        return Err(Box::new(
            invalid(file, message.into(), raw.span()).with_help(help),
        ));
    };
    Ok(Example {
        case: None,
        xr,
        observed: path(&example.observed),
        extra_resources: path(&example.extra_resources),
        context: path(&example.context),
    })
}

fn invalid(file: FileId, message: String, at: std::ops::Range<usize>) -> Diagnostic {
    Diagnostic::new(Code::I019, message).with_primary(Span::new(file, at), None)
}

/// A path as messages show it: relative to the working directory when it is below it.
fn shown(path: &Path) -> PathBuf {
    let cwd = std::env::current_dir().unwrap_or_default();
    absolute(path)
        .strip_prefix(&cwd)
        .map_or_else(|_| path.to_path_buf(), Path::to_path_buf)
}

/// `path` made absolute against the working directory, with `.` and `..` resolved lexically.
fn absolute(path: &Path) -> PathBuf {
    let joined = if path.is_absolute() {
        path.to_path_buf()
    } else {
        std::env::current_dir().unwrap_or_default().join(path)
    };
    let mut out = PathBuf::new();
    for part in joined.components() {
        match part {
            std::path::Component::CurDir => {}
            std::path::Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn load(text: &str) -> Result<Config, String> {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(FILE_NAME);
        std::fs::write(&path, text).unwrap();
        let mut map = SourceMap::new();
        Config::load(&mut map, &path).map_err(|d| d[0].summary.clone())
    }

    #[test]
    fn levels_by_name_or_code() {
        let c = load("[rules]\nunused-local = \"off\"\nl605 = \"error\"\n").unwrap();
        assert_eq!(c.levels.get(&Code::L601), Some(&Level::Off));
        assert_eq!(c.levels.get(&Code::L605), Some(&Level::On(Severity::Error)));
    }

    #[test]
    fn mistakes_are_errors() {
        assert_eq!(
            load("[rules]\nunused-locals = \"off\"\n").unwrap_err(),
            "unknown rule `unused-locals`"
        );
        assert!(
            load("[rules]\nunused-local = \"of\"\n")
                .unwrap_err()
                .contains("unknown level")
        );
        assert!(
            load("[rules]\nsyntax-error = \"off\"\n")
                .unwrap_err()
                .contains("cannot be configured")
        );
        assert!(load("rule = 1\n").unwrap_err().contains("unknown field"));
        assert!(
            load("exclude = [\"a[\"]\n")
                .unwrap_err()
                .contains("invalid exclude")
        );
    }

    #[test]
    fn an_example_is_a_case_or_files() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(FILE_NAME);
        let load = |text: &str| {
            std::fs::write(&path, text).unwrap();
            let mut map = SourceMap::new();
            Config::load(&mut map, &path).map_err(|d| {
                let d = &d[0];
                let span = d.primary.as_ref().map(|p| p.span);
                let at = span.map(|s| map.get(s.file).slice(s).to_string());
                (d.summary.clone(), at)
            })
        };
        let root = absolute(dir.path());
        let c = load("[example]\ncase = \"app/tests/one\"\n").unwrap();
        let example = c.example.unwrap();
        assert_eq!(example.case, Some(root.join("app/tests/one")));
        assert_eq!(example.xr, root.join("app/tests/one/xr.yaml"));
        assert_eq!(
            example.extra_resources,
            Some(root.join("app/tests/one/extra-resources.yaml"))
        );
        let c = load("[example]\nxr = \"x.yaml\"\nextra-resources = \"e.yaml\"\n").unwrap();
        let example = c.example.unwrap();
        assert_eq!(example.case, None);
        assert_eq!(example.xr, root.join("x.yaml"));
        assert_eq!(example.observed, None);
        assert_eq!(example.extra_resources, Some(root.join("e.yaml")));
        assert_eq!(load("").unwrap().example, None);
        // Mistakes point into the file.
        let (message, at) = load("[example]\ncase = \"c\"\nxr = \"x.yaml\"\n").unwrap_err();
        assert!(message.contains("either `case`"), "{message}");
        assert_eq!(at.as_deref(), Some("\"x.yaml\""));
        let (message, at) = load("[example]\nobserved = \"o.yaml\"\n").unwrap_err();
        assert!(message.contains("needs `case` or `xr`"), "{message}");
        assert_eq!(at.as_deref(), Some("[example]"));
        let (message, at) = load("[example]\nxr = \"x.yaml\"\nobserve = \"o.yaml\"\n").unwrap_err();
        assert!(message.contains("unknown field `observe`"), "{message}");
        assert_eq!(at.as_deref(), Some("observe"));
        let (message, _) = load("[example]\nxr = 3\n").unwrap_err();
        assert!(message.contains("invalid type"), "{message}");
    }
}
