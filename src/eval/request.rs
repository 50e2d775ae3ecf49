//! Reading a `RunFunctionRequest` a user wrote (`fnhcl function run --request`): protobuf JSON,
//! refusing what is not one with a message that says what it looks like instead.

use super::proto::RunFunctionRequest;
use crate::diagnostics::{Code, Diagnostic, from_load_error};
use crate::source::SourceMap;
use crate::source::loader;
use std::io::Read;
use std::path::Path;

/// The top-level fields of a request; protojson refuses any other.
const FIELDS: [&str; 13] = [
    "meta",
    "observed",
    "desired",
    "input",
    "context",
    "extraResources",
    "extra_resources",
    "credentials",
    "requiredResources",
    "required_resources",
    "requiredSchemas",
    "required_schemas",
    "@type",
];

/// Reads the request at `path` (`-`: from `stdin`); `map` holds the sources read so far.
pub fn read(
    map: &SourceMap,
    path: &Path,
    stdin: &mut dyn Read,
) -> Result<RunFunctionRequest, Box<Diagnostic>> {
    let (name, text) = if path.as_os_str() == "-" {
        let text = crate::diagnostics::read_stdin(stdin)?;
        ("standard input".to_string(), text)
    } else {
        let text = loader::read_text(path).map_err(|e| Box::new(from_load_error(&e, map)))?;
        (loader::display_path(path), text)
    };
    parse(&name, &text)
}

/// Parses the request `text` read from `name`.
pub fn parse(name: &str, text: &str) -> Result<RunFunctionRequest, Box<Diagnostic>> {
    // protojson refuses unknown fields, and an object with `kind` at the top is most likely
    // an XR or a manifest passed by mistake.
    if let Ok(serde_json::Value::Object(top)) = serde_json::from_str::<serde_json::Value>(text) {
        if let Some(unknown) = top.keys().find(|k| !FIELDS.contains(&k.as_str())) {
            let what = match top.get("kind").and_then(|k| k.as_str()) {
                Some(kind) => format!(" (it looks like an object of kind {kind})"),
                None => String::new(),
            };
            return Err(Box::new(
                Diagnostic::new(
                    Code::I018,
                    format!(
                        "`{name}` is not a RunFunctionRequest: unknown field {unknown:?}{what}"
                    ),
                )
                .with_path(name.to_string())
                .with_help("a request has meta, observed, desired, input, context, extraResources, credentials, requiredResources and requiredSchemas; `fnhcl render` takes an XR"),
            ));
        }
    }
    serde_json::from_str(text).map_err(|e| {
        Box::new(
            Diagnostic::new(
                Code::I018,
                format!("`{name}` is not a RunFunctionRequest: {e}"),
            )
            .with_path(name.to_string())
            .with_help("write the request in protobuf JSON form, as `crossplane render` sends it"),
        )
    })
}
