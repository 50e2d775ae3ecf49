//! Diagnostics about a command's inputs, boxed as the functions that read inputs return them:
//! a usage mistake, a file that cannot be loaded, a Composition that cannot be read.

use super::{Code, Diagnostic, from_load_error};
use crate::source::SourceMap;
use crate::source::composition::CompositionError;
use crate::source::loader::LoadError;

/// A usage diagnostic with a help line.
pub fn usage(message: String, help: &str) -> Box<Diagnostic> {
    Box::new(Diagnostic::new(Code::I017, message).with_help(help))
}

/// A load error as a diagnostic.
pub fn load_error(error: LoadError, map: &SourceMap) -> Box<Diagnostic> {
    Box::new(from_load_error(&error, map))
}

/// A Composition's error as a diagnostic pointing into its text (`name`, added to the map).
pub fn composition_error(
    name: &str,
    text: &str,
    error: CompositionError,
    map: &mut SourceMap,
) -> Box<Diagnostic> {
    let file = map.add(name.to_string(), text.to_string());
    load_error(LoadError::Composition { file, error }, map)
}

/// All of standard input (or what stands for it) as text; an I001 error when it cannot be
/// read.
pub fn read_stdin(stdin: &mut dyn std::io::Read) -> Result<String, Box<Diagnostic>> {
    let mut text = String::new();
    stdin.read_to_string(&mut text).map_err(|e| {
        Box::new(Diagnostic::new(
            Code::I001,
            format!("cannot read standard input: {e}"),
        ))
    })?;
    Ok(text)
}
