//! `fnhcl test import DUMP --out DIR`: a function-hcl debug dump (what the function logs when
//! its input has `debug: true`, `debugNew: true` for a new XR, or the XR is annotated
//! `hcl.fn.crossplane.io/debug: "true"`) made into a test case.
//!
//! The dump's request part sits between `## start request ##` and `## end request ##`: a txtar
//! archive of `xr.yaml`, `observed.yaml`, one `context-KEY.json` per context key (the key with
//! `/` written as `--`) and `extra-resources.yaml` when there are any. They become the case's
//! `xr.yaml`, `observed.yaml`, `context.yaml` (a mapping of the keys) and
//! `extra-resources.yaml`; `fnhcl test --update` then records what the composition renders.
//!
//! The input may instead be Crossplane's pipeline inspector log ([`super::inspector`]): one
//! recorded `RunFunctionRequest` of a function-hcl step becomes the same files.

use super::case::WriteFile;
use super::inspector::{self, Chosen, Select};
use crate::diagnostics::{Code, Diagnostic};
use crate::source::yaml_emit::to_yaml;
use serde_json::{Map, Value as Json};
use std::io::Read;
use std::path::Path;

const START: &str = "## start request ##";
const END: &str = "## end request ##";

/// What an import wrote.
#[derive(Clone, Debug)]
pub struct Imported {
    /// The files written into the case's folder, in order.
    pub names: Vec<String>,
    /// How many request dumps the input held (the first is imported).
    pub dumps: usize,
    /// For a pipeline inspector log: the requests it holds and the one imported.
    pub inspector: Option<Chosen>,
    /// Lines of a pipeline inspector log that were skipped as malformed (warnings).
    pub warnings: Vec<Diagnostic>,
}

/// Imports the first request dump of `dump` (a file, or `-` for `stdin`), or the request of
/// a pipeline inspector log that `select` chooses, as a new case in `out`: no file of the
/// case may exist there already; each is written with `write`.
pub fn import(
    dump: &str,
    out: &Path,
    select: &Select,
    stdin: &mut dyn Read,
    write: &WriteFile,
) -> Result<Imported, Box<Diagnostic>> {
    let text = if dump == "-" {
        crate::diagnostics::read_stdin(stdin)?
    } else {
        match crate::source::read::read_text(std::path::Path::new(dump)) {
            Ok(text) => text,
            Err(crate::source::read::ReadError::Io { source, .. }) => {
                return Err(Box::new(
                    Diagnostic::new(Code::I001, format!("cannot read `{dump}`: {source}"))
                        .with_help("give the file holding the function's log, or - to paste it"),
                ));
            }
            Err(e) => return Err(Box::new(crate::diagnostics::from_read_error(&e))),
        }
    };
    let dumps = request_dumps(&text);
    if dumps.is_empty() && inspector::is_inspector_log(&text) {
        let log = inspector::parse(&text);
        let chosen = inspector::choose(&log, select)?;
        let (files, left_out) = inspector::case_files(&log, chosen)?;
        write_case(out, &files, write)?;
        return Ok(Imported {
            names: files.into_iter().map(|(n, _)| n).collect(),
            dumps: 0,
            inspector: Some(Chosen {
                requests: log.requests,
                chosen,
                left_out,
            }),
            warnings: log.malformed,
        });
    }
    let Some(first) = dumps.first() else {
        return Err(Box::new(
            Diagnostic::new(Code::I001, format!("no function-hcl request dump (`{START}` … `{END}`) and no pipeline inspector record in {}", shown(dump)))
                .with_help("function-hcl prints a dump when its input has `debug: true` or the XR is annotated hcl.fn.crossplane.io/debug: \"true\"; Crossplane's pipeline inspector sidecar prints a JSON line per call"),
        ));
    };
    if select.step.is_some() || select.xr.is_some() || select.index.is_some() {
        return Err(Box::new(
            Diagnostic::new(
                Code::I017,
                "--step, --xr and --index choose among a pipeline inspector log's requests",
            )
            .with_help("a debug dump's first request is imported; leave them out"),
        ));
    }
    let files =
        case_files(first).map_err(|message| Box::new(Diagnostic::new(Code::I001, message)))?;
    write_case(out, &files, write)?;
    Ok(Imported {
        names: files.into_iter().map(|(n, _)| n).collect(),
        dumps: dumps.len(),
        inspector: None,
        warnings: Vec::new(),
    })
}

/// Writes a case's files into `out`, none of which may exist yet.
fn write_case(
    out: &Path,
    files: &[(String, String)],
    write: &WriteFile,
) -> Result<(), Box<Diagnostic>> {
    for (name, _) in files {
        // Any entry counts, a dangling link too: nothing of the case is replaced.
        if out.join(name).symlink_metadata().is_ok() {
            return Err(Box::new(
                Diagnostic::new(
                    Code::I001,
                    format!("{} exists already", out.join(name).display()),
                )
                .with_help("import into a new folder, or remove the old case first"),
            ));
        }
    }
    if let Err(e) = std::fs::create_dir_all(out) {
        return Err(Box::new(Diagnostic::new(
            Code::I001,
            format!("cannot create {}: {e}", out.display()),
        )));
    }
    for (name, content) in files {
        let path = out.join(name);
        if let Err(e) = write(&path, content.as_bytes()) {
            return Err(Box::new(Diagnostic::new(
                Code::I001,
                format!("cannot write {}: {e}", path.display()),
            )));
        }
    }
    Ok(())
}

fn shown(arg: &str) -> String {
    if arg == "-" {
        "standard input".into()
    } else {
        format!("`{arg}`")
    }
}

/// The text between each request dump's start and end lines.
fn request_dumps(text: &str) -> Vec<String> {
    let mut dumps = Vec::new();
    let mut current: Option<Vec<&str>> = None;
    for line in text.lines() {
        let trimmed = line.trim_end();
        if trimmed.ends_with(START) {
            current = Some(Vec::new());
        } else if trimmed.ends_with(END) {
            if let Some(lines) = current.take() {
                dumps.push(lines.join("\n") + "\n");
            }
        } else if let Some(lines) = current.as_mut() {
            lines.push(line);
        }
    }
    dumps
}

/// The txtar files of a dump, by name, in order.
fn txtar_files(dump: &str) -> Vec<(String, String)> {
    let mut files: Vec<(String, String)> = Vec::new();
    for line in dump.lines() {
        let header = line
            .strip_prefix("-- ")
            .and_then(|rest| rest.strip_suffix(" --"));
        match header {
            Some(name) => files.push((name.trim().to_string(), String::new())),
            None => {
                if let Some((_, content)) = files.last_mut() {
                    content.push_str(line);
                    content.push('\n');
                }
            }
        }
    }
    for (_, content) in &mut files {
        // The dump puts a blank line before each header.
        let trimmed = content.trim_end_matches('\n').len();
        content.truncate(trimmed);
        content.push('\n');
    }
    files
}

/// The case's files from a request dump.
fn case_files(dump: &str) -> Result<Vec<(String, String)>, String> {
    let files = txtar_files(dump);
    let mut out = Vec::new();
    let mut context = Map::new();
    for (name, content) in files {
        match name.as_str() {
            "xr.yaml" | "observed.yaml" | "extra-resources.yaml" => {
                if name == "observed.yaml" && content.trim().is_empty() {
                    continue;
                }
                out.push((name, content));
            }
            other => {
                let Some(key) = other
                    .strip_prefix("context-")
                    .and_then(|k| k.strip_suffix(".json"))
                else {
                    continue;
                };
                let value: Json = serde_json::from_str(&content)
                    .map_err(|e| format!("{other} in the dump is not JSON: {e}"))?;
                // The function writes `/` in a key as `--`.
                context.insert(key.replace("--", "/"), value);
            }
        }
    }
    if !out.iter().any(|(n, _)| n == "xr.yaml") {
        return Err("the request dump holds no xr.yaml".into());
    }
    if !context.is_empty() {
        out.push(("context.yaml".into(), to_yaml(&Json::Object(context))));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    const DUMP: &str = "some log line\n## start request ##\n\n-- xr.yaml --\napiVersion: example.com/v1\nkind: XS3Bucket\nmetadata:\n  name: bucket-36f7e\n\n-- observed.yaml --\n\n-- context-apiextensions.crossplane.io--environment.json --\n{\n  \"foo\": \"bar\"\n}\n\n## end request ##\n\n## start response ##\n-- rendered.yaml --\nx: 1\n## end response ##\n";

    #[test]
    fn a_request_dump_becomes_case_files() {
        let dumps = request_dumps(DUMP);
        assert_eq!(dumps.len(), 1);
        let files = case_files(&dumps[0]).unwrap();
        let names: Vec<&str> = files.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["xr.yaml", "context.yaml"]);
        assert_eq!(
            files[0].1,
            "apiVersion: example.com/v1\nkind: XS3Bucket\nmetadata:\n  name: bucket-36f7e\n"
        );
        assert_eq!(
            files[1].1,
            "apiextensions.crossplane.io/environment:\n  foo: bar\n"
        );
    }

    #[test]
    fn no_dump_and_no_xr_are_errors() {
        assert!(request_dumps("nothing here").is_empty());
        assert!(case_files("-- observed.yaml --\na: 1\n").is_err());
    }
}
