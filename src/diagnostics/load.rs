//! Turning the source layer's load errors into diagnostics with codes, spans and help.

use super::{Code, Diagnostic, Label};
use crate::source::composition::CompositionError;
use crate::source::loader::LoadError;
use crate::source::{FileId, SourceMap};

/// The diagnostic for a load error.
pub fn from_load_error(error: &LoadError, map: &SourceMap) -> Diagnostic {
    let summary = error.to_string();
    match error {
        LoadError::Io { path, .. } => Diagnostic::new(Code::I001, summary)
            .with_path(path)
            .with_help("check the path and its permissions"),
        // The loader's path is always named, standard input included.
        LoadError::Refused(refused) => super::from_read_error(refused).with_path(refused.path()),
        LoadError::NotADirectory { path } => Diagnostic::new(Code::I013, summary)
            .with_path(path)
            .with_help("pass the directory that holds the composition's .hcl files"),
        LoadError::NotUtf8 { path, .. } => Diagnostic::new(Code::I003, summary)
            .with_path(path)
            .with_help("save the file as UTF-8"),
        LoadError::Yaml { file, error } => Diagnostic::new(Code::I002, "invalid YAML")
            .with_detail(&error.message)
            .with_primary(at(map, *file, error.offset), Some(error.message.clone())),
        LoadError::Composition { file, error } => composition(error, *file, map),
        LoadError::ConfigIsDirectory { path } => Diagnostic::new(Code::I012, summary)
            .with_path(path)
            .with_help("composition.yaml must be a file (or absent)"),
        LoadError::ConfigInvalid {
            file,
            message,
            offset,
            ..
        } => Diagnostic::new(Code::I012, summary)
            .with_primary(at(map, *file, *offset), Some(message.clone()))
            .with_help("composition.yaml holds `xrd: {apiVersion, kind}` and `libraryFiles: [paths]`"),
        LoadError::LibraryAbsolute { span, .. } => library(summary, *span)
            .with_help("write library paths relative to the composition directory"),
        LoadError::LibraryMissing { path, span, .. } => library(summary, *span)
            .with_path(path)
            .with_help("library paths are relative to the composition directory"),
        LoadError::LibraryIsDirectory { path, span } => library(summary, *span)
            .with_path(path)
            .with_help("list the .hcl files of the directory one by one"),
        LoadError::NoYamlFiles { path } => Diagnostic::new(Code::I001, summary)
            .with_path(path)
            .with_help("pass a YAML file, or a directory holding .yaml or .yml files"),
        LoadError::NoFiles { file } => {
            let name = map.get(*file).name().to_string();
            Diagnostic::new(Code::I009, summary)
                .with_path(name)
                .with_help("a bundle is txtar: each file starts with a line `-- main.hcl --`; to use plain .hcl files, pass their directory")
        }
        LoadError::DuplicateFile {
            name,
            first,
            second,
        } => Diagnostic::new(Code::I010, summary)
            .with_primary(*second, Some(format!("second file named `{name}`")))
            .with_label(Label::new(*first, "first defined here"))
            .with_help("rename or remove one of them; function-hcl would silently use the first file twice"),
    }
}

fn at(map: &SourceMap, file: FileId, offset: usize) -> crate::source::Span {
    let len = map.get(file).text().len();
    let start = offset.min(len);
    let end = map.get(file).text()[start..]
        .chars()
        .next()
        .map_or(start, |c| start + c.len_utf8());
    map.get(file).span(start..end)
}

fn library(summary: String, span: Option<crate::source::Span>) -> Diagnostic {
    let d = Diagnostic::new(Code::I011, summary);
    match span {
        Some(span) => d.with_primary(span, None),
        None => d,
    }
}

fn composition(error: &CompositionError, file: FileId, map: &SourceMap) -> Diagnostic {
    let source = map.get(file);
    let summary = error.to_string();
    match error {
        CompositionError::Yaml(e) => Diagnostic::new(Code::I002, "invalid YAML")
            .with_detail(&e.message)
            .with_primary(at(map, file, e.offset), Some(e.message.clone())),
        CompositionError::Empty => Diagnostic::new(
            Code::I004,
            "not a composition: the file holds no YAML document",
        )
        .with_path(source.name())
        .with_help("pass a Composition (apiextensions.crossplane.io/v1, kind Composition)"),
        CompositionError::NotAComposition { span, .. } => Diagnostic::new(Code::I004, summary)
            .with_primary(source.span(span.clone()), None)
            .with_help("pass a Composition (apiextensions.crossplane.io/v1, kind Composition)"),
        CompositionError::BadPipeline { span, .. } => Diagnostic::new(Code::I004, summary)
            .with_primary(source.span(span.clone()), None)
            .with_help("write the pipeline as a list of steps: `- step: NAME` with `functionRef` and `input`"),
        CompositionError::NoHclStep { span, steps, .. } => {
            let detail = if steps.is_empty() {
                "the pipeline has no steps".to_string()
            } else {
                format!("steps: {}", steps.join(", "))
            };
            Diagnostic::new(Code::I005, summary)
                .with_detail(detail)
                .with_primary(source.span(span.clone()), None)
                .with_help("a function-hcl step's input is an HclInput: `kind: HclInput` and the bundle under `hcl`")
        }
        CompositionError::AmbiguousStep { spans, steps, .. } => {
            let mut d = Diagnostic::new(Code::I006, summary);
            for (i, span) in spans.iter().enumerate() {
                let label = Label::new(source.span(span.clone()), "function-hcl step");
                d = if i == 0 {
                    d.with_primary(label.span, label.message)
                } else {
                    d.with_label(label)
                };
            }
            d.with_help(format!("choose one with `--step {}`", steps[0]))
        }
        CompositionError::UnknownStep { steps, .. } => Diagnostic::new(Code::I007, summary)
            .with_path(source.name())
            .with_help(if steps.is_empty() {
                "the pipeline has no steps".to_string()
            } else {
                format!("the steps are: {}", steps.join(", "))
            }),
        CompositionError::InvalidInput { problem, span, .. } => {
            Diagnostic::new(Code::I020, summary)
                .with_primary(source.span(span.clone()), Some(problem.label()))
                .with_help(problem.help())
        }
        CompositionError::NotHclStep { function, span, .. } => {
            let detail = match function {
                Some(f) => format!("it runs function {f:?}"),
                None => "its input is not an HclInput".to_string(),
            };
            Diagnostic::new(Code::I008, summary)
                .with_detail(detail)
                .with_primary(source.span(span.clone()), None)
                .with_help("a function-hcl step's input is an HclInput: `kind: HclInput` and the bundle under `hcl`")
        }
    }
}
