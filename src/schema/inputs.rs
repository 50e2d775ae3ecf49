//! Reading what `validate` and `--validate` name: CRD and XRD schemas from files, folders,
//! standard input or the `.crd-sources.yaml`/`.crds/` conventions, and the resources to check
//! with where each was read, so that a problem can point into its file.

use super::Schemas;
use super::sources::{self, SourcesError};
use super::validate::Segment;
use crate::diagnostics::{Code, Diagnostic, load_error, usage};
use crate::source::loader;
use crate::source::pointer::Pointer;
use crate::source::yaml::Node;
use crate::source::{FileId, SourceMap};
use serde_json::Value as Json;
use std::io::Read;
use std::path::{Path, PathBuf};

type Fallible<T> = Result<T, Box<Diagnostic>>;

/// One resource to validate, with where it was read.
#[derive(Clone, Debug)]
pub struct Resource {
    /// The resource.
    pub value: Json,
    /// The file it was read from.
    pub file: Option<FileId>,
    /// Its YAML node in that file.
    pub node: Option<Node>,
}

/// Points `d` at the field `path` in the resource's file: the key of an unknown or wrong field,
/// the nearest enclosing object for a missing one.
pub fn locate(d: Diagnostic, resource: &Resource, path: &[Segment], map: &SourceMap) -> Diagnostic {
    let (Some(file), Some(root)) = (resource.file, &resource.node) else {
        return d;
    };
    let mut node = root;
    let mut key_node: Option<&Node> = None;
    for segment in path {
        let next = match segment {
            Segment::Key(k) => node.entry(k).map(|(key, value)| {
                key_node = Some(key);
                value
            }),
            Segment::Index(i) => {
                key_node = None;
                node.items().get(*i)
            }
        };
        match next {
            Some(n) => node = n,
            None => {
                key_node = None;
                break;
            }
        }
    }
    let span_of = key_node.unwrap_or(node).span.clone();
    let span = map.get(file).span(span_of);
    d.with_primary(span, None)
}

fn sources_error(e: SourcesError) -> Box<Diagnostic> {
    let path = match &e {
        SourcesError::Io { path, .. } | SourcesError::Config { path, .. } => path.clone(),
        SourcesError::Read(read) => return Box::new(crate::diagnostics::from_read_error(read)),
    };
    Box::new(Diagnostic::new(Code::I001, e.to_string()).with_path(path))
}

/// The schemas of CRD/XRD files or folders (`-` for standard input); none given: those of
/// the `.crd-sources.yaml` or `.crds/` found from the working folder up.
pub fn load_schemas(
    map: &mut SourceMap,
    args: &[String],
    stdin: &mut dyn Read,
) -> Fallible<Schemas> {
    let mut files: Vec<PathBuf> = Vec::new();
    if args.is_empty() {
        let here = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
        match sources::discover(&here).map_err(sources_error)? {
            Some((_, found)) => files = found,
            None => {
                return Err(usage(
                    "no schemas: give CRD or XRD files or folders before the resources".into(),
                    "or put them in a `.crds/` folder (or name them in a `.crd-sources.yaml`) at or above this folder",
                ));
            }
        }
    }
    let mut stdin_docs = Vec::new();
    for arg in args {
        if arg == "-" {
            stdin_docs = read_stdin_docs(map, stdin)?;
            continue;
        }
        files.extend(sources::from_argument(Path::new(arg)).map_err(sources_error)?);
    }
    let mut schemas = Schemas::with_bundled();
    for path in files {
        let file = path.display().to_string();
        for doc in loader::load_yaml_stream(map, &path).map_err(|e| load_error(e, map))? {
            let json = serde_json::to_value(&doc.document.value).unwrap_or(Json::Null);
            add_schema(&mut schemas, &file, &json)?;
        }
    }
    for resource in stdin_docs {
        add_schema(&mut schemas, "(stdin)", &resource.value)?;
    }
    Ok(schemas)
}

/// A warning for each part of the loaded schemas that the API server would refuse when its
/// CRD is created: a CEL rule that does not compile or whose estimated cost is over the limit,
/// a `pattern` that does not compile. Validation still runs, as `crossplane beta validate`
/// does.
pub fn schema_warnings(schemas: &Schemas) -> Vec<Diagnostic> {
    schemas
        .warnings()
        .iter()
        .map(|w| {
            Diagnostic::new(Code::V706, w.to_string())
                .with_path(w.file.clone())
                .with_help("the API server refuses to create this CRD: fix the rule or pattern, or bound the lists, maps and strings a costly rule reads with maxItems, maxProperties and maxLength")
        })
        .collect()
}

fn add_schema(schemas: &mut Schemas, file: &str, doc: &Json) -> Fallible<()> {
    schemas.add_document(file, doc).map(|_| ()).map_err(|e| {
        Box::new(
            Diagnostic::new(Code::V705, e.to_string())
                .with_path(file.to_string())
                .with_help("a CRD (apiextensions.k8s.io/v1) or XRD (apiextensions.crossplane.io/v1 or v2) with a structural openAPIV3Schema"),
        )
    })
}

fn read_stdin_docs(map: &mut SourceMap, stdin: &mut dyn Read) -> Fallible<Vec<Resource>> {
    let text = crate::diagnostics::read_stdin(stdin)?;
    let parsed = crate::source::yaml::read_stream(&text);
    let file = map.add("(stdin)".to_string(), text);
    let docs = parsed.map_err(|error| load_error(loader::LoadError::Yaml { file, error }, map))?;
    Ok(docs
        .into_iter()
        .map(|d| Resource {
            value: serde_json::to_value(&d.value).unwrap_or(Json::Null),
            file: Some(file),
            node: Some(d.root),
        })
        .collect())
}

/// The resources of a comma-separated list of files, folders (their YAML files, recursively)
/// and `-` (standard input); a Composition's pipeline inputs come before it, as crossplane
/// validates them too. A document without `kind` is an error, as crossplane stops at it.
pub fn load_resources(
    map: &mut SourceMap,
    arg: &str,
    stdin: &mut dyn Read,
) -> Fallible<Vec<Resource>> {
    let mut docs: Vec<Resource> = Vec::new();
    for part in arg.split(',').filter(|p| !p.is_empty()) {
        if part == "-" {
            docs.extend(read_stdin_docs(map, stdin)?);
            continue;
        }
        let path = Path::new(part);
        let files = if path.is_dir() {
            sources::yaml_files_below(path).map_err(sources_error)?
        } else {
            vec![path.to_path_buf()]
        };
        for file in files {
            for doc in loader::load_yaml_stream(map, &file).map_err(|e| load_error(e, map))? {
                docs.push(Resource {
                    value: serde_json::to_value(&doc.document.value).unwrap_or(Json::Null),
                    file: Some(doc.file),
                    node: Some(doc.document.root),
                });
            }
        }
    }
    let mut out = Vec::with_capacity(docs.len());
    for doc in docs {
        if !doc.value.is_object() || doc.value.get("kind").and_then(Json::as_str).is_none() {
            let d = Diagnostic::new(
                Code::I002,
                "a document without `kind` cannot be validated (crossplane stops at it)",
            );
            return Err(Box::new(locate(d, &doc, &[], map)));
        }
        let is_composition = doc.value.get("apiVersion").and_then(Json::as_str)
            == Some("apiextensions.crossplane.io/v1")
            && doc.value.get("kind").and_then(Json::as_str) == Some("Composition");
        if is_composition && let Some(Json::Array(steps)) = doc.value.at("/spec/pipeline") {
            for (i, step) in steps.iter().enumerate() {
                if let Some(input) = step.get("input") {
                    let node = doc.node.as_ref().and_then(|n| {
                        n.get("spec")?
                            .get("pipeline")?
                            .items()
                            .get(i)?
                            .get("input")
                            .cloned()
                    });
                    out.push(Resource {
                        value: input.clone(),
                        file: doc.file,
                        node,
                    });
                }
            }
        }
        out.push(doc);
    }
    Ok(out)
}
