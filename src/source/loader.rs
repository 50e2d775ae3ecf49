//! The only code that reads HCL sources from disk: a directory, a txtar file, a Composition.
//!
//! Every way in ends as a [`Bundle`]: the named files of one function-hcl program, in the order
//! function-hcl sees them. Problems come back as [`LoadError`]s carrying paths and spans; the
//! diagnostics layer turns them into user-facing diagnostics.

use super::composition::{Composition, CompositionError};
use super::read::ReadError;
use super::txtar;
use super::yaml::{Node, YamlError, parse_nodes, serde_error};
use super::{FileId, SourceMap, Span};
use std::io;
use std::path::{Component, Path, PathBuf};

/// The metadata file function-hcl's tools read from a composition directory.
pub const CONFIG_FILE: &str = "composition.yaml";

/// The files of one function-hcl program.
#[derive(Debug, Clone)]
pub struct Bundle {
    /// The member files, in program order.
    pub files: Vec<BundleFile>,
    /// Where they came from.
    pub origin: Origin,
}

impl Bundle {
    /// The bundle as txtar text, its files in bundle order: what `fnhcl package` writes and
    /// what a Composition's inline bundle is compared with.
    pub fn txtar(&self, map: &SourceMap) -> String {
        txtar::format(
            "",
            self.files
                .iter()
                .map(|f| (f.name.as_str(), map.get(f.file).text())),
        )
    }
}

/// One member of a [`Bundle`].
#[derive(Debug, Clone)]
pub struct BundleFile {
    /// The member name (`main.hcl`, `lib/util.hcl`); the name Go HCL's messages print.
    pub name: String,
    /// Its text in the source map (the source file's name is `name`).
    pub file: FileId,
    /// The file on disk, when it was read from one.
    pub path: Option<PathBuf>,
}

/// Where a bundle came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Origin {
    /// A composition directory.
    Directory(PathBuf),
    /// A txtar file (or standard input) held in the source map.
    Txtar(FileId),
    /// A step of a Composition YAML held in the source map.
    Composition {
        /// The YAML file.
        file: FileId,
        /// The step's name.
        step: String,
    },
}

/// Why a source could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// The file system refused.
    #[error("cannot {action} `{path}`: {}", io_text(.source))]
    Io {
        /// What we tried: "read", "open directory", ...
        action: &'static str,
        /// The path as the user will recognise it.
        path: String,
        /// The cause.
        source: io::Error,
    },
    /// A device, FIFO or socket where a file was needed, or more than
    /// [`super::read::MAX_INPUT_BYTES`]: refused by [`super::read`] before it was read.
    #[error(transparent)]
    Refused(ReadError),
    /// A directory was needed.
    #[error("{path} is not a directory")]
    NotADirectory {
        /// The path given.
        path: String,
    },
    /// The text is not UTF-8.
    #[error("`{path}` is not valid UTF-8 text")]
    NotUtf8 {
        /// The path.
        path: String,
        /// Byte offset of the first bad byte.
        offset: usize,
    },
    /// Malformed YAML in a file held in the source map.
    #[error("{}", .error.message)]
    Yaml {
        /// The YAML file.
        file: FileId,
        /// The parser's complaint.
        error: YamlError,
    },
    /// A Composition without a usable function-hcl step.
    #[error("{error}")]
    Composition {
        /// The YAML file.
        file: FileId,
        /// What is wrong.
        error: CompositionError,
    },
    /// `composition.yaml` is a directory.
    #[error("{path} is a directory")]
    ConfigIsDirectory {
        /// Its path.
        path: String,
    },
    /// `composition.yaml` does not decode.
    #[error("unmarshal contents of {path}: {message}")]
    ConfigInvalid {
        /// Its path.
        path: String,
        /// Its file in the source map.
        file: FileId,
        /// The decoder's message.
        message: String,
        /// Where.
        offset: usize,
    },
    /// A library file given as an absolute path.
    #[error("library file {entry:?} is an absolute path, not allowed")]
    LibraryAbsolute {
        /// The entry as written.
        entry: String,
        /// The entry in `composition.yaml`.
        span: Option<Span>,
    },
    /// A library file that does not exist or cannot be read.
    #[error("stat {path}: {}", io_text(.source))]
    LibraryMissing {
        /// The joined path.
        path: String,
        /// The cause.
        source: io::Error,
        /// The entry in `composition.yaml`.
        span: Option<Span>,
    },
    /// A library file that is a directory.
    #[error("library file {path} cannot be a directory")]
    LibraryIsDirectory {
        /// The joined path.
        path: String,
        /// The entry in `composition.yaml`.
        span: Option<Span>,
    },
    /// A directory of YAML streams holds no `.yaml`/`.yml` file.
    #[error("no YAML files found in {path:?} (.yaml or .yml)")]
    NoYamlFiles {
        /// The directory.
        path: String,
    },
    /// A txtar bundle (or HCL input) with no files.
    #[error("no HCL input files found, are you using the txtar format?")]
    NoFiles {
        /// The text that held no marker.
        file: FileId,
    },
    /// Two members with the same name.
    #[error("duplicate file {name:?} in the bundle")]
    DuplicateFile {
        /// The name.
        name: String,
        /// The first member's marker.
        first: Span,
        /// The second member's marker.
        second: Span,
    },
}

/// Short lower-case text for an I/O error (kept here for the loader's users).
pub use super::read::io_text;

/// Options for [`load_path`].
#[derive(Debug, Clone, Copy, Default)]
pub struct LoadOptions<'a> {
    /// Which step of a Composition to use.
    pub step: Option<&'a str>,
}

/// Loads a directory, a `.hcl` file (a one-file bundle), a txtar file or a Composition YAML,
/// judged by what `path` is.
pub fn load_path(
    map: &mut SourceMap,
    path: &Path,
    options: LoadOptions<'_>,
) -> Result<Bundle, LoadError> {
    let meta = metadata(path)?;
    if meta.is_dir() {
        return load_directory(map, path);
    }
    if path.extension().is_some_and(|x| x == "hcl") {
        return load_single_hcl(map, path);
    }
    let text = read_text(path)?;
    let name = path.display().to_string();
    if is_manifest(path) {
        load_composition(map, &name, text, options.step)
    } else {
        load_txtar(map, &name, text)
    }
}

/// Loads the source a user named on the command line: `-` is a txtar bundle read from
/// `stdin`; anything else goes to [`load_path`].
pub fn load_arg(
    map: &mut SourceMap,
    arg: &str,
    stdin: &mut dyn io::Read,
    options: LoadOptions<'_>,
) -> Result<Bundle, LoadError> {
    if arg != "-" {
        return load_path(map, Path::new(arg), options);
    }
    let text = super::read::read_capped_text(stdin, "standard input")?;
    load_txtar(map, "-", text)
}

/// One document of a YAML stream read from a file.
#[derive(Debug, Clone)]
pub struct YamlDocument {
    /// The file in the source map.
    pub file: FileId,
    /// The document.
    pub document: super::yaml::Document,
}

/// Reads YAML streams the way `crossplane render` does for observed, extra and function
/// resources: a file, or a directory's direct `.yaml`/`.yml` children sorted by name (an error
/// when there are none). Empty documents are skipped.
pub fn load_yaml_stream(map: &mut SourceMap, path: &Path) -> Result<Vec<YamlDocument>, LoadError> {
    let display = path.display().to_string();
    let meta = metadata(path)?;
    let files = if meta.is_dir() {
        let io_error = |source| LoadError::Io {
            action: "read directory",
            path: display.clone(),
            source,
        };
        let mut files = Vec::new();
        for entry in std::fs::read_dir(path).map_err(io_error)? {
            let entry = entry.map_err(io_error)?;
            if is_yaml(&entry.path()) && !entry.file_type().map_err(io_error)?.is_dir() {
                files.push(entry.path());
            }
        }
        files.sort();
        if files.is_empty() {
            return Err(LoadError::NoYamlFiles { path: display });
        }
        files
    } else {
        vec![path.to_path_buf()]
    };
    let mut documents = Vec::new();
    for file_path in files {
        let text = read_text(&file_path)?;
        let parsed = super::yaml::read_stream(&text);
        let file = map.add(file_path.display().to_string(), text);
        let docs = parsed.map_err(|error| LoadError::Yaml { file, error })?;
        documents.extend(
            docs.into_iter()
                .map(|document| YamlDocument { file, document }),
        );
    }
    Ok(documents)
}

/// `std::fs::metadata` (following links) with the path in the error.
fn metadata(path: &Path) -> Result<std::fs::Metadata, LoadError> {
    std::fs::metadata(path).map_err(|source| LoadError::Io {
        action: "read",
        path: path.display().to_string(),
        source,
    })
}

/// Loads one `.hcl` file as a one-member bundle named by its file name.
pub fn load_single_hcl(map: &mut SourceMap, path: &Path) -> Result<Bundle, LoadError> {
    let text = read_text(path)?;
    let name = path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    let file = map.add(name.clone(), text);
    map.set_display_name(file, display_path(path));
    Ok(Bundle {
        files: vec![BundleFile {
            name,
            file,
            path: Some(path.to_path_buf()),
        }],
        origin: Origin::Directory(path.parent().unwrap_or(Path::new(".")).to_path_buf()),
    })
}

/// Whether a path names a YAML file.
pub fn is_yaml(path: &Path) -> bool {
    matches!(
        path.extension().and_then(|e| e.to_str()),
        Some("yaml" | "yml")
    )
}

/// Whether a SOURCE file is a Kubernetes manifest (a Composition): YAML, or JSON (which
/// `kubectl` and crossplane read as YAML too).
pub fn is_manifest(path: &Path) -> bool {
    is_yaml(path) || path.extension().is_some_and(|e| e == "json")
}

/// Reads a whole regular file as UTF-8 text (at most [`super::read::MAX_INPUT_BYTES`]).
pub fn read_text(path: &Path) -> Result<String, LoadError> {
    Ok(super::read::read_text(path)?)
}

impl From<ReadError> for LoadError {
    fn from(error: ReadError) -> LoadError {
        match error {
            ReadError::Io { path, source } => LoadError::Io {
                action: "read",
                path,
                source,
            },
            refused @ (ReadError::NotRegular { .. } | ReadError::TooLarge { .. }) => {
                LoadError::Refused(refused)
            }
            ReadError::NotUtf8 { path, offset } => LoadError::NotUtf8 { path, offset },
        }
    }
}

/// Loads a txtar bundle held in `text`; `name` is what diagnostics call it (`-` for stdin).
pub fn load_txtar(map: &mut SourceMap, name: &str, text: String) -> Result<Bundle, LoadError> {
    let archive = txtar::parse(&text);
    let file = map.add(name, text);
    let markers = archive
        .files
        .iter()
        .map(|f| map.get(file).span(f.marker.clone()));
    let members = archive
        .files
        .iter()
        .zip(markers.collect::<Vec<_>>())
        .map(|(f, marker)| (f.name.clone(), f.data.clone(), marker))
        .collect();
    bundle_from_members(map, members, file, Origin::Txtar(file))
}

/// Loads the bundle embedded in the function-hcl step of a Composition.
pub fn load_composition(
    map: &mut SourceMap,
    name: &str,
    text: String,
    step: Option<&str>,
) -> Result<Bundle, LoadError> {
    let parsed = Composition::parse(&text);
    load_step(map, name, text, parsed, step)
}

/// Loads the bundle embedded in the function-hcl step named `step` of a Crossplane Operation
/// (or of the operation template of a CronOperation or WatchOperation).
pub fn load_operation_step(
    map: &mut SourceMap,
    name: &str,
    text: String,
    step: &str,
) -> Result<Bundle, LoadError> {
    let parsed = Composition::parse_operation(&text);
    load_step(map, name, text, parsed, Some(step))
}

/// The bundle of a step of a parsed pipeline document, its members' markers pointing into
/// the YAML text.
fn load_step(
    map: &mut SourceMap,
    name: &str,
    text: String,
    parsed: Result<Composition, CompositionError>,
    step: Option<&str>,
) -> Result<Bundle, LoadError> {
    let file = map.add(name, text);
    let composition = parsed.map_err(|error| LoadError::Composition { file, error })?;
    let step = composition
        .hcl_step(step)
        .map_err(|error| LoadError::Composition { file, error })?;
    let hcl = step.hcl();
    let bundle_text = hcl.and_then(Node::as_str).unwrap_or("").to_string();
    let archive = txtar::parse(&bundle_text);
    let anchor = hcl.map_or(step.name_span(), |n| n.span.clone());
    let members = archive
        .files
        .iter()
        .map(|f| {
            let offset = hcl.map_or(anchor.start, |n| {
                scalar_source_offset(map.get(file).text(), n, f.marker.start)
            });
            let marker = map.get(file).span(offset..offset + f.marker.len());
            (f.name.clone(), f.data.clone(), marker)
        })
        .collect();
    let origin = Origin::Composition {
        file,
        step: step.name.clone(),
    };
    bundle_from_members(map, members, file, origin)
}

/// Maps an offset in a literal block scalar's value back to the YAML text, so diagnostics
/// about an embedded bundle point at the right line. Other styles map to the scalar's start.
pub fn scalar_source_offset(yaml: &str, node: &Node, value_offset: usize) -> usize {
    let start = node.span.start;
    if !yaml[start..].starts_with('|') {
        return start;
    }
    let Some(first_line) = yaml[start..].find('\n').map(|i| start + i + 1) else {
        return start;
    };
    let indent = yaml[first_line..]
        .lines()
        .find(|l| !l.trim().is_empty())
        .map_or(0, |l| l.len() - l.trim_start_matches(' ').len());
    let mut line_start = first_line;
    let mut consumed = 0;
    for line in yaml[first_line..].split_inclusive('\n') {
        let content = line.get(indent.min(line.len())..).unwrap_or("");
        let content_len = if line.trim().is_empty() {
            1
        } else {
            content.len()
        };
        if value_offset < consumed + content_len {
            return (line_start + indent + (value_offset - consumed)).min(yaml.len());
        }
        consumed += content_len;
        line_start += line.len();
    }
    start
}

fn bundle_from_members(
    map: &mut SourceMap,
    members: Vec<(String, String, Span)>,
    container: FileId,
    origin: Origin,
) -> Result<Bundle, LoadError> {
    if members.is_empty() {
        return Err(LoadError::NoFiles { file: container });
    }
    for (i, (name, _, marker)) in members.iter().enumerate() {
        if let Some((_, _, first)) = members[..i].iter().find(|(n, _, _)| n == name) {
            return Err(LoadError::DuplicateFile {
                name: name.clone(),
                first: *first,
                second: *marker,
            });
        }
    }
    let files = members
        .into_iter()
        .map(|(name, data, _)| BundleFile {
            file: map.add(name.clone(), data),
            name,
            path: None,
        })
        .collect();
    Ok(Bundle { files, origin })
}

/// The `composition.yaml` of a directory, as function-hcl's tools read it.
#[derive(Debug, Clone, Default, serde::Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Config {
    /// The XRD the composition is for.
    pub xrd: Option<XrdRef>,
    /// Extra files to include, relative to the directory.
    pub library_files: Vec<String>,
}

/// `xrd:` in `composition.yaml`.
#[derive(Debug, Clone, Default, serde::Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct XrdRef {
    /// The XRD's API version.
    pub api_version: String,
    /// The XRD's kind.
    pub kind: String,
}

/// Loads a composition directory: its direct `.hcl` children sorted by name, then the
/// `libraryFiles` of its `composition.yaml` in listed order. An empty directory is an empty
/// bundle, as in function-hcl's `package`.
pub fn load_directory(map: &mut SourceMap, dir: &Path) -> Result<Bundle, LoadError> {
    let display = dir.display().to_string();
    let meta = metadata(dir)?;
    if !meta.is_dir() {
        return Err(LoadError::NotADirectory { path: display });
    }
    let names = hcl_children(dir)?;
    load_listed_directory(map, dir, names)
}

/// [`load_directory`] for a directory whose `.hcl` children are already known (`names`,
/// sorted), as a directory walk lists them: the directory is not read again.
pub fn load_listed_directory(
    map: &mut SourceMap,
    dir: &Path,
    mut names: Vec<String>,
) -> Result<Bundle, LoadError> {
    let (config, entries) = read_config(map, dir)?;
    for (i, entry) in config.library_files.iter().enumerate() {
        let span = entries.get(i).copied();
        let name = library_name(dir, entry, span)?;
        if !names.contains(&name) {
            names.push(name);
        }
    }
    let mut files = Vec::with_capacity(names.len());
    for name in names {
        let path = dir.join(&name);
        let text = read_text(&path)?;
        let file = map.add(name.clone(), text);
        map.set_display_name(file, display_path(&path));
        files.push(BundleFile {
            file,
            name,
            path: Some(path),
        });
    }
    Ok(Bundle {
        files,
        origin: Origin::Directory(dir.to_path_buf()),
    })
}

/// A path as diagnostics show it: as the user wrote it, without a leading `./`.
pub fn display_path(path: &Path) -> String {
    let text = path.display().to_string();
    match text.strip_prefix("./") {
        Some(rest) if !rest.is_empty() => rest.to_string(),
        _ => text,
    }
}

/// How the name of an HCL-native test file (`fnhcl test`) ends. Such a file is never part
/// of a composition, though it is a `.hcl` file beside one.
pub const TEST_FILE_SUFFIX: &str = ".fnhcltest.hcl";

/// Whether a file name is an HCL-native test file's ([`TEST_FILE_SUFFIX`]).
pub fn is_test_file(name: &str) -> bool {
    name.ends_with(TEST_FILE_SUFFIX)
}

/// Whether `dir` directly holds a composition file: a file whose name ends in `.hcl`, test
/// files left out (what `fnhcl test` and `check` look for when they find the composition a
/// test belongs to). Stops at the first one.
pub fn holds_composition_files(dir: &Path) -> bool {
    std::fs::read_dir(dir).is_ok_and(|entries| {
        entries.flatten().any(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            name.ends_with(".hcl") && !is_test_file(&name) && e.path().is_file()
        })
    })
}

/// The direct children of `dir` whose names end in `.hcl` and that are not directories (test
/// files left out).
fn hcl_children(dir: &Path) -> Result<Vec<String>, LoadError> {
    let io_error = |source| LoadError::Io {
        action: "read directory",
        path: dir.display().to_string(),
        source,
    };
    let mut names = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(io_error)? {
        let entry = entry.map_err(io_error)?;
        let Some(name) = entry.file_name().to_str().map(str::to_string) else {
            continue;
        };
        if !name.ends_with(".hcl") || is_test_file(&name) {
            continue;
        }
        let path = entry.path();
        let meta = metadata(&path)?;
        if !meta.is_dir() {
            names.push(name);
        }
    }
    names.sort();
    Ok(names)
}

/// `composition.yaml` of `dir` (an empty config when absent) and the spans of its
/// `libraryFiles` entries.
fn read_config(map: &mut SourceMap, dir: &Path) -> Result<(Config, Vec<Span>), LoadError> {
    let path = dir.join(CONFIG_FILE);
    let display = path.display().to_string();
    match std::fs::metadata(&path) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            return Ok((Config::default(), Vec::new()));
        }
        Err(source) => {
            return Err(LoadError::Io {
                action: "read",
                path: display,
                source,
            });
        }
        Ok(meta) if meta.is_dir() => return Err(LoadError::ConfigIsDirectory { path: display }),
        Ok(_) => {}
    }
    let text = read_text(&path)?;
    let decoded = decode_config(&text);
    let file = map.add(display.clone(), text);
    match decoded {
        Ok((config, ranges)) => {
            let spans = ranges.into_iter().map(|r| map.get(file).span(r)).collect();
            Ok((config, spans))
        }
        Err(error) => Err(LoadError::ConfigInvalid {
            path: display,
            file,
            message: error.message,
            offset: error.offset,
        }),
    }
}

/// The config and the byte ranges of its `libraryFiles` entries.
fn decode_config(text: &str) -> Result<(Config, Vec<std::ops::Range<usize>>), YamlError> {
    let docs = parse_nodes(text)?;
    let config = yaml_serde::from_str::<Option<Config>>(text)
        .map_err(|e| serde_error(text, &e))?
        .unwrap_or_default();
    let ranges = docs
        .first()
        .and_then(|root| root.get("libraryFiles"))
        .map(|list| list.items().iter().map(|n| n.span.clone()).collect())
        .unwrap_or_default();
    Ok((config, ranges))
}

/// The files a directory's `composition.yaml` lists as `libraryFiles`, as lexically cleaned
/// paths below (or beside) `dir`. Empty when there is no readable, valid config: loading the
/// directory reports what is wrong with it.
pub fn library_paths(dir: &Path) -> Vec<String> {
    let Ok(text) = super::read::read_text(&dir.join(CONFIG_FILE)) else {
        return Vec::new();
    };
    let Ok((config, _)) = decode_config(&text) else {
        return Vec::new();
    };
    config
        .library_files
        .iter()
        .filter(|entry| !Path::new(entry.as_str()).is_absolute())
        .map(|entry| clean_relative(&dir.join(entry).display().to_string()))
        .collect()
}

/// Checks a library entry and returns its bundle name (the lexically cleaned relative path).
fn library_name(dir: &Path, entry: &str, span: Option<Span>) -> Result<String, LoadError> {
    if Path::new(entry).is_absolute() {
        return Err(LoadError::LibraryAbsolute {
            entry: entry.to_string(),
            span,
        });
    }
    let name = clean_relative(entry);
    let path = dir.join(&name);
    let display = clean_relative(&dir.join(entry).display().to_string());
    match std::fs::metadata(&path) {
        Err(source) => Err(LoadError::LibraryMissing {
            path: display,
            source,
            span,
        }),
        Ok(meta) if meta.is_dir() => Err(LoadError::LibraryIsDirectory {
            path: display,
            span,
        }),
        Ok(_) => Ok(name),
    }
}

/// Go's `filepath.Clean` for a relative path: `.` removed, `x/..` folded, leading `..` kept.
pub fn clean_relative(path: &str) -> String {
    let mut parts: Vec<&str> = Vec::new();
    for component in Path::new(path).components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => match parts.last() {
                Some(&last) if last != ".." => {
                    parts.pop();
                }
                _ if path.starts_with('/') => {}
                _ => parts.push(".."),
            },
            Component::Normal(part) => parts.push(part.to_str().unwrap_or("")),
            Component::RootDir | Component::Prefix(_) => parts.push(""),
        }
    }
    if parts.is_empty() {
        return ".".to_string();
    }
    if parts == [""] {
        return "/".to_string();
    }
    parts.join("/")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dash_reads_a_txtar_from_stdin() {
        let mut map = SourceMap::new();
        let mut stdin = io::Cursor::new(b"-- a.hcl --\nx = 1\n-- b.hcl --\ny = 2".to_vec());
        let bundle = load_arg(&mut map, "-", &mut stdin, LoadOptions::default()).unwrap();
        let names: Vec<_> = bundle.files.iter().map(|f| f.name.as_str()).collect();
        assert_eq!(names, ["a.hcl", "b.hcl"]);
        assert_eq!(map.get(bundle.files[1].file).text(), "y = 2\n");
        let mut empty = io::Cursor::new(b"x = 1\n".to_vec());
        let err = load_arg(&mut map, "-", &mut empty, LoadOptions::default()).unwrap_err();
        assert!(matches!(err, LoadError::NoFiles { .. }));
    }

    #[test]
    fn duplicate_members_name_both_markers() {
        let mut map = SourceMap::new();
        let err = load_txtar(&mut map, "b.txtar", "-- a --\n1\n-- a --\n2\n".into()).unwrap_err();
        let LoadError::DuplicateFile { first, second, .. } = err else {
            panic!("expected a duplicate error, got {err:?}");
        };
        assert_eq!(map.range_text(first), "b.txtar:1,1-8");
        assert_eq!(map.range_text(second), "b.txtar:3,1-8");
    }

    #[test]
    fn composition_bundles_load_with_their_step() {
        let yaml = "apiVersion: apiextensions.crossplane.io/v1\nkind: Composition\nmetadata: {name: c}\nspec:\n  pipeline:\n  - step: s\n    input:\n      hcl: |\n        -- main.hcl --\n        x = 1\n";
        let mut map = SourceMap::new();
        let bundle = load_composition(&mut map, "c.yaml", yaml.into(), None).unwrap();
        assert_eq!(bundle.files[0].name, "main.hcl");
        assert_eq!(map.get(bundle.files[0].file).text(), "x = 1\n");
        assert!(matches!(bundle.origin, Origin::Composition { ref step, .. } if step == "s"));
    }

    #[test]
    fn yaml_streams_come_from_files_and_sorted_directories() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("b.yaml"), "kind: B\n---\n---\nkind: C\n").unwrap();
        std::fs::write(dir.path().join("a.yml"), "kind: A\n").unwrap();
        std::fs::write(dir.path().join("notes.txt"), "kind: X\n").unwrap();
        let mut map = SourceMap::new();
        let docs = load_yaml_stream(&mut map, dir.path()).unwrap();
        let kinds: Vec<_> = docs
            .iter()
            .map(|d| d.document.value["kind"].as_str().unwrap().to_string())
            .collect();
        assert_eq!(kinds, ["A", "B", "C"]);

        let empty = tempfile::tempdir().unwrap();
        let err = load_yaml_stream(&mut map, empty.path()).unwrap_err();
        assert!(
            err.to_string().starts_with("no YAML files found in"),
            "{err}"
        );

        std::fs::write(dir.path().join("c.yaml"), "a: [1,\n").unwrap();
        let err = load_yaml_stream(&mut map, dir.path()).unwrap_err();
        let LoadError::Yaml { file, .. } = err else {
            panic!("expected a YAML error, got {err:?}");
        };
        assert!(map.get(file).name().ends_with("c.yaml"));
    }

    #[test]
    fn clean_relative_folds_like_go() {
        assert_eq!(clean_relative("lib/../x.hcl"), "x.hcl");
        assert_eq!(clean_relative("./lib//bar.hcl"), "lib/bar.hcl");
        assert_eq!(clean_relative("../shared/x.hcl"), "../shared/x.hcl");
        assert_eq!(clean_relative("a/../../b"), "../b");
        assert_eq!(clean_relative("."), ".");
    }

    #[test]
    fn literal_block_offsets_map_back_to_the_yaml_line() {
        let yaml = "input:\n  hcl: |\n    -- a.hcl --\n    x = 1\n\n    -- b.hcl --\n";
        let docs = parse_nodes(yaml).unwrap();
        let node = docs[0].get("input").unwrap().get("hcl").unwrap();
        let value = node.as_str().unwrap();
        let second = value.find("-- b.hcl").unwrap();
        let offset = scalar_source_offset(yaml, node, second);
        assert!(yaml[offset..].starts_with("-- b.hcl --"));
    }
}
