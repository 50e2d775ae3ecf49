//! Diagnostics about a command's inputs, boxed as the functions that read inputs return them:
//! a usage mistake, a file that cannot be loaded, a Composition that cannot be read.

use super::{Code, Diagnostic, from_load_error};
use crate::source::SourceMap;
use crate::source::composition::CompositionError;
use crate::source::loader::LoadError;
use crate::source::read::{ReadError, read_capped_text};

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

/// All of standard input (or what stands for it) as text, at most
/// [`crate::source::read::MAX_INPUT_BYTES`]; an error when it cannot be read.
pub fn read_stdin(stdin: &mut dyn std::io::Read) -> Result<String, Box<Diagnostic>> {
    read_capped_text(stdin, "standard input").map_err(|e| Box::new(from_read_error(&e)))
}

/// The diagnostic for an input that could not be read (I001, or I003 for text that is not
/// UTF-8), with the path and a help line.
pub fn from_read_error(error: &ReadError) -> Diagnostic {
    let code = match error {
        ReadError::NotUtf8 { .. } => Code::I003,
        ReadError::Io { .. } | ReadError::NotRegular { .. } | ReadError::TooLarge { .. } => {
            Code::I001
        }
    };
    let d = Diagnostic::new(code, error.to_string()).with_help(error.help());
    if error.path() == "standard input" {
        d
    } else {
        d.with_path(error.path())
    }
}
