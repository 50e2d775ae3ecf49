//! Reading the inputs several commands share: YAML streams as JSON values, `KEY=VALUE` map
//! flags, and context values.

use crate::cli::Context;
use fnhcl::diagnostics::{Code, Diagnostic, from_load_error};
use fnhcl::source::loader::{self, LoadError};
use serde_json::Value as Json;
use std::path::Path;

/// A load error as a diagnostic.
pub fn load_error(e: LoadError, cx: &Context) -> Box<Diagnostic> {
    Box::new(from_load_error(&e, &cx.map))
}

/// A Composition's error as a diagnostic pointing into its text (`name`, added to the map).
pub fn composition_error(
    name: &str,
    text: &str,
    error: fnhcl::source::composition::CompositionError,
    cx: &mut Context,
) -> Box<Diagnostic> {
    let file = cx.map.add(name.to_string(), text.to_string());
    load_error(LoadError::Composition { file, error }, cx)
}

/// The documents of a YAML file or a directory of YAML files, as JSON values.
pub fn yaml_docs(path: &Path, cx: &mut Context) -> Result<Vec<Json>, Box<Diagnostic>> {
    let docs = loader::load_yaml_stream(&mut cx.map, path).map_err(|e| load_error(e, cx))?;
    Ok(docs
        .into_iter()
        .map(|d| serde_json::to_value(&d.document.value).unwrap_or(Json::Null))
        .collect())
}

/// The documents of a file or directory of Kubernetes objects (observed resources, extra
/// resources, credentials): each must be a mapping, as crossplane decodes each into an
/// object; a scalar or a list is an error pointing at it. `what` names the flag's content.
pub fn resource_docs(
    path: &Path,
    what: &str,
    cx: &mut Context,
) -> Result<Vec<Json>, Box<Diagnostic>> {
    let docs = loader::load_yaml_stream(&mut cx.map, path).map_err(|e| load_error(e, cx))?;
    let mut out = Vec::with_capacity(docs.len());
    for d in docs {
        let found = match &d.document.value {
            yaml_serde::Value::Mapping(_) => None,
            yaml_serde::Value::Tagged(t) if t.value.is_mapping() => None,
            yaml_serde::Value::Sequence(_) => Some("a list"),
            _ => Some("a scalar"),
        };
        if let Some(found) = found {
            let file = cx.map.get(d.file);
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

/// A usage diagnostic with a help line.
pub fn usage(message: String, help: &str) -> Box<Diagnostic> {
    Box::new(Diagnostic::new(Code::I017, message).with_help(help))
}

/// `K=V;K2=V2` flags, repeated or `;`-separated, as crossplane's map flags.
fn pairs(flags: &[String]) -> Result<Vec<(String, String)>, Box<Diagnostic>> {
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

/// A context value: JSON or YAML.
fn parse_value(text: &str) -> Result<Json, Box<Diagnostic>> {
    // The node tree bounds alias expansion before the value is built.
    if let Err(e) = fnhcl::source::yaml::parse_nodes(text) {
        return Err(usage(
            format!("context value is not JSON or YAML: {}", e.message),
            "quote strings as JSON: KEY='\"text\"'",
        ));
    }
    yaml_serde::from_str::<Json>(text).map_err(|e| {
        usage(
            format!("context value is not JSON or YAML: {e}"),
            "quote strings as JSON: KEY='\"text\"'",
        )
    })
}

/// The context `--context-files` then `--context-values` describe (values win).
pub fn context_map(
    files: &[String],
    values: &[String],
    cx: &mut Context,
) -> Result<serde_json::Map<String, Json>, Box<Diagnostic>> {
    let mut context = serde_json::Map::new();
    for (key, path) in pairs(files)? {
        let text = loader::read_text(Path::new(&path)).map_err(|e| load_error(e, cx))?;
        context.insert(key, parse_value(&text)?);
    }
    for (key, value) in pairs(values)? {
        context.insert(key, parse_value(&value)?);
    }
    Ok(context)
}
