//! Reading the files a render request names: YAML streams as JSON values, Kubernetes objects,
//! the XR, a composition's bundle, and context from `KEY=PATH` and `KEY=VALUE` flags.

use crate::diagnostics::{Code, Diagnostic, load_error, usage};
use crate::eval::vars::into_float64;
use crate::source::SourceMap;
use crate::source::loader::{self, Bundle, LoadOptions};
use serde_json::Value as Json;
use std::io::Read;
use std::path::Path;

type Fallible<T> = Result<T, Box<Diagnostic>>;

/// crossplane's words for an input it could not load (crossplane/cli v2.5.0 `render/xr/cmd.go`,
/// the same in classic v2.2.4 `cmd.go`), put before our own account of the cause, whose
/// location and help stay: `cannot load functions from "fns.yaml": …`. `what` is crossplane's
/// name for the input (`composite resource`, `Composition`, `functions`, `XRD`, `secrets`,
/// `observed composed resources`, `required resources`).
pub(super) fn loading(
    what: &'static str,
    path: &Path,
) -> impl Fn(Box<Diagnostic>) -> Box<Diagnostic> {
    let context = format!(
        "cannot load {what} from {}",
        crate::gostd::strconv::quote(&path.to_string_lossy())
    );
    move |mut d| {
        d.summary = format!("{context}: {}", d.summary);
        d
    }
}

/// The documents of a YAML file or a directory of YAML files, as JSON values.
pub fn yaml_docs(path: &Path, map: &mut SourceMap) -> Fallible<Vec<Json>> {
    let docs = loader::load_yaml_stream(map, path).map_err(|e| load_error(e, map))?;
    Ok(docs
        .into_iter()
        .map(|d| serde_json::to_value(&d.document.value).unwrap_or(Json::Null))
        .collect())
}

/// The documents of a file or directory of Kubernetes objects (observed resources, extra
/// resources, credentials): each must be a mapping, as crossplane decodes each into an
/// object; a scalar or a list is an error pointing at it. `what` names the flag's content.
pub fn resource_docs(path: &Path, what: &str, map: &mut SourceMap) -> Fallible<Vec<Json>> {
    let docs = loader::load_yaml_stream(map, path).map_err(|e| load_error(e, map))?;
    let mut out = Vec::with_capacity(docs.len());
    for d in docs {
        let found = match &d.document.value {
            yaml_serde::Value::Mapping(_) => None,
            yaml_serde::Value::Tagged(t) if t.value.is_mapping() => None,
            yaml_serde::Value::Sequence(_) => Some("a list"),
            _ => Some("a scalar"),
        };
        if let Some(found) = found {
            let file = map.get(d.file);
            let span = file.span(d.document.root.span.clone());
            return Err(Box::new(
                Diagnostic::new(
                    Code::I002,
                    format!(
                        "a document of `{}` is {found}, not a Kubernetes object",
                        file.name()
                    ),
                )
                .with_primary(span, Some(format!("{what} are objects")))
                .with_help("write each object as a mapping with apiVersion, kind and metadata, documents separated by `---`"),
            ));
        }
        out.push(serde_json::to_value(&d.document.value).unwrap_or(Json::Null));
    }
    Ok(out)
}

/// The first YAML document of a file, through float64 as crossplane reads it.
pub(super) fn first_doc(path: &Path, map: &mut SourceMap) -> Fallible<Json> {
    let docs = yaml_docs(path, map)?;
    match docs.into_iter().next() {
        Some(doc) if doc.is_object() => Ok(into_float64(doc)),
        _ => Err(Box::new(
            Diagnostic::new(
                Code::I002,
                format!("`{}` holds no YAML object", loader::display_path(path)),
            )
            .with_path(loader::display_path(path)),
        )),
    }
}

/// The bundle of a composition argument (`-` reads `stdin`), or of one step of a
/// Composition.
pub(super) fn load(
    source: &str,
    step: Option<&str>,
    map: &mut SourceMap,
    stdin: &mut dyn Read,
) -> Fallible<Bundle> {
    loader::load_arg(map, source, stdin, LoadOptions { step }).map_err(|e| load_error(e, map))
}

/// `K=V;K2=V2` flags, repeated or `;`-separated, as crossplane's map flags.
fn pairs(flags: &[String]) -> Fallible<Vec<(String, String)>> {
    let mut out = Vec::new();
    for flag in flags {
        for item in flag.split(';').filter(|s| !s.is_empty()) {
            let Some((k, v)) = item.split_once('=') else {
                return Err(usage(
                    format!("`{item}` is not KEY=VALUE"),
                    "write KEY=VALUE, several separated by `;`",
                ));
            };
            out.push((k.to_string(), v.to_string()));
        }
    }
    Ok(out)
}

/// A context value for `key`, JSON or YAML (`from`: the file it was read from, for
/// `--context-files`); an error is crossplane's (it names the key), with the file named.
fn parse_value(key: &str, text: &str, from: Option<&Path>) -> Fallible<Json> {
    let what = match from {
        Some(path) => format!("`{}` is not JSON or YAML: ", loader::display_path(path)),
        None => String::new(),
    };
    let help = match from {
        Some(_) => "the file must hold one JSON or YAML document",
        None => "quote strings as JSON: KEY='\"text\"'",
    };
    // crossplane/cli v2.5.0 `ParseContextData`'s words first, then ours naming the file.
    let refused = |cause: String| {
        let d = usage(
            format!(
                "cannot parse context data: cannot unmarshal context value for key {}: {what}{cause}",
                crate::gostd::strconv::quote(key)
            ),
            help,
        );
        match from {
            Some(path) => Box::new(d.with_path(loader::display_path(path))),
            None => d,
        }
    };
    // The node tree bounds alias expansion before the value is built.
    if let Err(e) = crate::source::yaml::parse_nodes(text) {
        return Err(refused(e.message));
    }
    yaml_serde::from_str::<Json>(text).map_err(|e| refused(e.to_string()))
}

/// The context `--context-files`, then entries given as values (`data`), then
/// `--context-values` describe (the later wins).
pub fn context_map(
    files: &[String],
    data: &[(String, Json)],
    values: &[String],
    map: &mut SourceMap,
) -> Fallible<serde_json::Map<String, Json>> {
    let mut context = serde_json::Map::new();
    for (key, path) in pairs(files)? {
        let text = loader::read_text(Path::new(&path)).map_err(|e| {
            let mut d = load_error(e, map);
            d.summary = format!(
                "cannot build context data: cannot read context value for key {}: {}",
                crate::gostd::strconv::quote(&key),
                d.summary
            );
            d
        })?;
        let value = parse_value(&key, &text, Some(Path::new(&path)))?;
        context.insert(key, value);
    }
    for (key, value) in data {
        context.insert(key.clone(), value.clone());
    }
    for (key, value) in pairs(values)? {
        let value = parse_value(&key, &value, None)?;
        context.insert(key, value);
    }
    Ok(context)
}
