//! What the server analyses: a composition is the `.hcl` files of a folder plus the
//! `libraryFiles` its `composition.yaml` lists, open documents read as edited; its settings are
//! the nearest `.fnhcl.toml` with the schemas `check` would use (loaded once per folder and
//! dropped when a configuration or schema file changes).

use super::example::Evaluation;
use super::types::FileRange;
use crate::check::Config;
use crate::diagnostics::Diagnostic;
use crate::source::loader::{Bundle, BundleFile, Origin, library_paths};
use crate::source::{FileId, SourceMap, Span};
use crate::syntax::ParsedFile;
use crate::syntax::model::Program;
use std::cell::{OnceCell, RefCell};
use std::collections::HashMap;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The open documents and what was derived from the files on disk.
#[derive(Default)]
pub struct Workspace {
    /// Open documents by path, as edited.
    pub documents: HashMap<PathBuf, String>,
    /// Each composition folder's settings, loaded on first use.
    settings: RefCell<HashMap<PathBuf, Arc<Settings>>>,
    /// The composition folders that list a file as a library file.
    libraries: RefCell<HashMap<PathBuf, Vec<PathBuf>>>,
    /// The files whose library users were looked for.
    looked: RefCell<std::collections::HashSet<PathBuf>>,
    /// Each folder's composition as last read, by a hash of its files' names and text.
    compositions: RefCell<HashMap<PathBuf, (u64, Composition)>>,
    /// Live values: each composition folder's last evaluation for its example, with the key
    /// of the inputs it was made from.
    live: RefCell<HashMap<PathBuf, (u64, Arc<Evaluation>)>>,
}

/// A folder's configuration.
pub struct Settings {
    /// `.fnhcl.toml` (the default one when there is none), with its schemas when configured
    /// or discovered.
    pub config: Arc<Config>,
    /// Why the configuration or its schemas could not be used.
    pub problems: Vec<Diagnostic>,
    /// The source map holding the configuration (for the problems' spans).
    pub map: SourceMap,
}

/// One composition as read for a request or a check (kept while its files do not change).
#[derive(Clone)]
pub struct Composition {
    /// Its folder.
    pub dir: PathBuf,
    /// Its files' text.
    pub map: Arc<SourceMap>,
    /// Its files in bundle order: the folder's `.hcl` files by name, then library files.
    pub files: Vec<BundleFile>,
    /// What is derived from the files, computed once when first asked for.
    derived: std::rc::Rc<Derived>,
}

/// What requests derive from a composition's files.
#[derive(Default)]
struct Derived {
    parsed: OnceCell<Vec<ParsedFile>>,
    program: OnceCell<Program>,
    locals: OnceCell<Vec<(Span, crate::eval::Value)>>,
    findings: OnceCell<Vec<Diagnostic>>,
}

impl Workspace {
    /// The text of `path`: the open document, else the file.
    pub fn text(&self, path: &Path) -> Option<String> {
        match self.documents.get(path) {
            Some(text) => Some(text.clone()),
            None => crate::source::read::read_text(path).ok(),
        }
    }

    /// The files directly in `dir` that `wanted` accepts: those on disk (regular files) and
    /// those open in the editor, sorted.
    pub fn files_in(&self, dir: &Path, wanted: impl Fn(&Path) -> bool) -> Vec<PathBuf> {
        let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
            .map(|entries| {
                entries
                    .filter_map(Result::ok)
                    .map(|e| e.path())
                    .filter(|p| wanted(p) && p.is_file())
                    .collect()
            })
            .unwrap_or_default();
        for open in self.documents.keys() {
            if open.parent() == Some(dir) && wanted(open) && !paths.contains(open) {
                paths.push(open.clone());
            }
        }
        paths.sort();
        paths
    }

    /// The composition folders `path` belongs to: the folders whose `composition.yaml`
    /// lists it as a library file, and its own folder unless it is only a library folder
    /// (listed elsewhere and without a `composition.yaml` of its own).
    pub fn folders_of(&self, path: &Path) -> Vec<PathBuf> {
        let Some(own) = path.parent().map(Path::to_path_buf) else {
            return Vec::new();
        };
        self.discover_users(path);
        let users = self
            .libraries
            .borrow()
            .get(path)
            .cloned()
            .unwrap_or_default();
        let mut out = Vec::new();
        if users.is_empty() || users.contains(&own) || own.join("composition.yaml").is_file() {
            out.push(own);
        }
        for dir in users {
            if !out.contains(&dir) {
                out.push(dir);
            }
        }
        out
    }

    /// The composition a request about `path` reads: the first of [`Self::folders_of`].
    pub fn composition_for(&self, path: &Path) -> Option<Composition> {
        let dir = self.folders_of(path).into_iter().next()?;
        Some(self.composition(&dir))
    }

    /// Looks for compositions that list `path` as a library file, once per file: the
    /// `composition.yaml` files up to two folders below its folder's parent (sibling and
    /// nearby composition folders).
    fn discover_users(&self, path: &Path) {
        if !self.looked.borrow_mut().insert(path.to_path_buf()) {
            return;
        }
        let Some(own) = path.parent() else { return };
        if own.join("composition.yaml").is_file() {
            // A composition folder of its own: the others are found as they are read.
            return;
        }
        let Some(base) = own.parent() else {
            return;
        };
        // At most 20,000 entries, hidden and build folders skipped.
        for entry in walkdir::WalkDir::new(base)
            .max_depth(3)
            .into_iter()
            .filter_entry(|e| {
                let name = e.file_name().to_string_lossy();
                e.depth() == 0
                    || !(name.starts_with('.') || name == "target" || name == "node_modules")
            })
            .take(20_000)
            .filter_map(Result::ok)
            .filter(|e| e.file_name() == "composition.yaml")
        {
            let Some(dir) = entry.path().parent() else {
                continue;
            };
            let lists = library_paths(dir).iter().any(|p| Path::new(p) == path);
            if lists {
                self.add_user(path, dir);
            }
        }
    }

    /// Notes that the composition of `dir` lists `path` as a library file.
    fn add_user(&self, path: &Path, dir: &Path) {
        let mut libraries = self.libraries.borrow_mut();
        let users = libraries.entry(path.to_path_buf()).or_default();
        if !users.iter().any(|u| u == dir) {
            users.push(dir.to_path_buf());
        }
    }

    /// The composition of `dir`.
    pub fn composition(&self, dir: &Path) -> Composition {
        let mut names: Vec<PathBuf> = std::fs::read_dir(dir)
            .map(|entries| {
                entries
                    .filter_map(Result::ok)
                    .map(|e| e.path())
                    .filter(|p| {
                        p.extension().is_some_and(|e| e == "hcl")
                            && !crate::source::loader::is_test_file(
                                &p.file_name().unwrap_or_default().to_string_lossy(),
                            )
                            && p.is_file()
                    })
                    .collect()
            })
            .unwrap_or_default();
        for open in self.documents.keys() {
            let test_file = open
                .file_name()
                .is_some_and(|n| crate::source::loader::is_test_file(&n.to_string_lossy()));
            if open.parent() == Some(dir) && !names.contains(open) && !test_file {
                names.push(open.clone());
            }
        }
        names.sort();
        let mut shown: Vec<(String, PathBuf)> = names
            .into_iter()
            .map(|p| {
                let name = p
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default();
                (name, p)
            })
            .collect();
        for name in library_paths(dir) {
            // `library_paths` gives the entries joined to `dir` and cleaned.
            let path = PathBuf::from(&name);
            self.add_user(&path, dir);
            if !shown.iter().any(|(_, p)| *p == path) {
                shown.push((name, path));
            }
        }
        let read: Vec<(String, PathBuf, String)> = shown
            .into_iter()
            .filter_map(|(name, path)| {
                let text = self.text(&path)?;
                Some((name, path, text))
            })
            .collect();
        // The same files with the same text: the composition read before, with what was
        // derived from it (parsed files, program, the probe's locals).
        let mut hasher = DefaultHasher::new();
        read.hash(&mut hasher);
        let key = hasher.finish();
        if let Some((kept, comp)) = self.compositions.borrow().get(dir)
            && *kept == key
        {
            return comp.clone();
        }
        let mut map = SourceMap::new();
        let mut files = Vec::new();
        for (name, path, text) in read {
            let file = map.add(name.clone(), text);
            files.push(BundleFile {
                file,
                name,
                path: Some(path),
            });
        }
        let comp = Composition {
            dir: dir.to_path_buf(),
            map: Arc::new(map),
            files,
            derived: std::rc::Rc::new(Derived::default()),
        };
        self.compositions
            .borrow_mut()
            .insert(dir.to_path_buf(), (key, comp.clone()));
        comp
    }

    /// The settings of a composition folder.
    pub fn settings(&self, dir: &Path) -> Arc<Settings> {
        if let Some(found) = self.settings.borrow().get(dir) {
            return found.clone();
        }
        let loaded = Arc::new(load_settings(dir));
        self.settings
            .borrow_mut()
            .insert(dir.to_path_buf(), loaded.clone());
        loaded
    }

    /// The live evaluation of `dir` for inputs `key`: the kept one, or `compute`'s (kept in its
    /// place).
    pub fn live(
        &self,
        dir: &Path,
        key: u64,
        compute: impl FnOnce() -> Evaluation,
    ) -> Arc<Evaluation> {
        if let Some((kept, found)) = self.live.borrow().get(dir)
            && *kept == key
        {
            return found.clone();
        }
        let computed = Arc::new(compute());
        self.live
            .borrow_mut()
            .insert(dir.to_path_buf(), (key, computed.clone()));
        computed
    }

    /// Forgets every folder's settings (a configuration or schema file changed).
    pub fn forget_settings(&self) {
        self.settings.borrow_mut().clear();
        self.compositions.borrow_mut().clear();
    }
}

fn load_settings(dir: &Path) -> Settings {
    use crate::diagnostics::{Code, Severity};
    use crate::schema::sources;
    let mut map = SourceMap::new();
    let mut problems = Vec::new();
    let mut config = match Config::find(dir) {
        Some(file) => match Config::load(&mut map, &file) {
            Ok(config) => config,
            Err(found) => {
                problems.extend(found);
                Config::default()
            }
        },
        None => Config::default(),
    };
    let not_used = |e: String| {
        Diagnostic::new(Code::V705, format!("schemas not used: {e}"))
            .with_severity(Severity::Warning)
    };
    match sources::files_for(&config.schema_paths, dir) {
        Ok(files) if files.is_empty() => {}
        Ok(files) => match sources::load(&files) {
            Ok(schemas) => config.schemas = Some(Arc::new(schemas)),
            Err(e) => problems.push(not_used(e)),
        },
        Err(e) => problems.push(not_used(e.to_string())),
    }
    Settings {
        config: Arc::new(config),
        problems,
        map,
    }
}

impl Composition {
    /// The file id of `path`.
    pub fn file_of(&self, path: &Path) -> Option<FileId> {
        self.files
            .iter()
            .find(|f| f.path.as_deref() == Some(path))
            .map(|f| f.file)
    }

    /// The path of a file.
    pub fn path(&self, file: FileId) -> Option<&Path> {
        self.files
            .iter()
            .find(|f| f.file == file)
            .and_then(|f| f.path.as_deref())
    }

    /// The text of a file.
    pub fn text(&self, file: FileId) -> &str {
        self.map.get(file).text()
    }

    /// Every file parsed.
    pub fn parsed(&self) -> &[ParsedFile] {
        self.derived.parsed.get_or_init(|| {
            self.files
                .iter()
                .map(|f| ParsedFile {
                    file: f.file,
                    body: crate::syntax::parse_file(self.map.get(f.file)).body,
                })
                .collect()
        })
    }

    /// One file's syntax tree.
    pub fn syntax(&self, file: FileId) -> &crate::syntax::ast::Body {
        static EMPTY: std::sync::OnceLock<crate::syntax::ast::Body> = std::sync::OnceLock::new();
        match self.parsed().iter().find(|p| p.file == file) {
            Some(parsed) => &parsed.body,
            None => EMPTY.get_or_init(|| {
                let mut map = SourceMap::new();
                let empty = map.add("empty.hcl", String::new());
                crate::syntax::parse_file(map.get(empty)).body
            }),
        }
    }

    /// The files as one program.
    pub fn program(&self) -> &Program {
        self.derived
            .program
            .get_or_init(|| crate::syntax::model::build(self.parsed()))
    }

    /// What `check` finds in the composition with the folder's settings (kept with the
    /// composition: settings that change drop every kept composition).
    pub fn findings(&self, config: &Config) -> &[Diagnostic] {
        self.derived
            .findings
            .get_or_init(|| crate::check::check_bundle(&self.map, &self.bundle(), config))
    }

    /// What each local evaluates to when every input is unknown (`check`'s probe).
    pub fn local_values(&self) -> &[(Span, crate::eval::Value)] {
        self.derived
            .locals
            .get_or_init(|| crate::check::local_values(&self.map, self.parsed()))
    }

    /// The composition as `check` loads it.
    pub fn bundle(&self) -> Bundle {
        Bundle {
            files: self.files.clone(),
            origin: Origin::Directory(self.dir.clone()),
        }
    }

    /// The file and byte range of a span (`None` for a file not on disk).
    pub fn file_range(&self, span: Span) -> Option<FileRange> {
        Some(FileRange {
            path: self.path(span.file)?.to_path_buf(),
            range: span.start as usize..span.end as usize,
        })
    }
}
