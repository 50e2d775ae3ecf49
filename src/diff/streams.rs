//! The two render streams `diff` compares, read from YAML files (or folders of them) or
//! standard input, with the names their diff headers give them.

use crate::diagnostics::{Diagnostic, load_error};
use crate::source::SourceMap;
use crate::source::loader::{self, LoadError};
use serde_json::Value as Json;
use std::io::Read;
use std::path::Path;

/// The two streams to compare and what to call them in diff headers.
#[derive(Clone, Debug)]
pub struct Streams {
    /// The old stream's documents.
    pub old: Vec<Json>,
    /// The new stream's documents.
    pub new: Vec<Json>,
    /// The old stream's name.
    pub old_name: String,
    /// The new stream's name.
    pub new_name: String,
}

/// A failure to produce a stream: the diagnostic to report, if it was not reported already.
pub type Failure = Option<Box<Diagnostic>>;

/// What a stream argument is called in diff headers: `(stdin)` for `-`.
pub fn display_name(arg: &str) -> String {
    if arg == "-" {
        "(stdin)".to_string()
    } else {
        arg.to_string()
    }
}

/// The documents of a YAML file (or a directory of them), or of `stdin` for `-`.
pub fn read_stream(
    arg: &str,
    map: &mut SourceMap,
    stdin: &mut dyn Read,
) -> Result<Vec<Json>, Failure> {
    let docs = if arg == "-" {
        let text = crate::diagnostics::read_stdin(stdin).map_err(Some)?;
        let parsed = crate::source::yaml::read_stream(&text);
        let file = map.add("(stdin)", text);
        parsed
            .map_err(|error| Some(load_error(LoadError::Yaml { file, error }, map)))?
            .into_iter()
            .map(|d| d.value)
            .collect::<Vec<_>>()
    } else {
        loader::load_yaml_stream(map, Path::new(arg))
            .map_err(|e| Some(load_error(e, map)))?
            .into_iter()
            .map(|d| d.document.value)
            .collect()
    };
    Ok(docs
        .iter()
        .map(|v| serde_json::to_value(v).unwrap_or(Json::Null))
        .collect())
}
