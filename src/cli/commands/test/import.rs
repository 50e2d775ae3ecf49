//! `fnhcl test import DUMP --out DIR`: a function-hcl debug dump (what the function logs when
//! its input has `debug: true`, `debugNew: true` for a new XR, or the XR is annotated
//! `hcl.fn.crossplane.io/debug: "true"`) made into a test case.
//!
//! The dump's request part sits between `## start request ##` and `## end request ##`: a txtar
//! archive of `xr.yaml`, `observed.yaml`, one `context-KEY.json` per context key (the key with
//! `/` written as `--`) and `extra-resources.yaml` when there are any. They become the case's
//! `xr.yaml`, `observed.yaml`, `context.yaml` (a mapping of the keys) and
//! `extra-resources.yaml`; `fnhcl test --update` then records what the composition renders.

use crate::cli::Context;
use crate::cli::args::TestImportArgs;
use crate::cli::exit::ExitStatus;
use crate::cli::fsutil;
use fnhcl::diagnostics::{Code, Diagnostic};
use fnhcl::source::yaml_emit::to_yaml;
use serde_json::{Map, Value as Json};
use std::io::{self, Read, Write};

const START: &str = "## start request ##";
const END: &str = "## end request ##";

/// Runs `fnhcl test import`.
pub fn run(args: &TestImportArgs, cx: &mut Context) -> io::Result<ExitStatus> {
    let text = if args.dump == "-" {
        let mut text = String::new();
        if let Err(e) = io::stdin().read_to_string(&mut text) {
            return Ok(cx.fail(Diagnostic::new(
                Code::I001,
                format!("cannot read standard input: {e}"),
            )));
        }
        text
    } else {
        match std::fs::read_to_string(&args.dump) {
            Ok(text) => text,
            Err(e) => {
                return Ok(cx.fail(
                    Diagnostic::new(Code::I001, format!("cannot read `{}`: {e}", args.dump))
                        .with_help("give the file holding the function's log, or - to paste it"),
                ));
            }
        }
    };
    let dumps = request_dumps(&text);
    let Some(dump) = dumps.first() else {
        return Ok(cx.fail(
            Diagnostic::new(Code::I001, format!("no function-hcl request dump (`{START}` … `{END}`) in {}", shown(&args.dump)))
                .with_help("function-hcl prints one when its input has `debug: true` or the XR is annotated hcl.fn.crossplane.io/debug: \"true\""),
        ));
    };
    let files = match case_files(dump) {
        Ok(files) => files,
        Err(message) => return Ok(cx.fail(Diagnostic::new(Code::I001, message))),
    };
    let out = &args.out;
    for (name, _) in &files {
        if out.join(name).exists() {
            return Ok(cx.fail(
                Diagnostic::new(
                    Code::I001,
                    format!("{} exists already", out.join(name).display()),
                )
                .with_help("import into a new folder, or remove the old case first"),
            ));
        }
    }
    if let Err(e) = std::fs::create_dir_all(out) {
        return Ok(cx.fail(Diagnostic::new(
            Code::I001,
            format!("cannot create {}: {e}", out.display()),
        )));
    }
    for (name, content) in &files {
        let path = out.join(name);
        if let Err(e) = fsutil::write_atomic(&path, content.as_bytes()) {
            return Ok(cx.fail(Diagnostic::new(
                Code::I001,
                format!("cannot write {}: {e}", path.display()),
            )));
        }
    }
    let names: Vec<&str> = files.iter().map(|(n, _)| n.as_str()).collect();
    writeln!(cx.stdout, "wrote {}: {}", out.display(), names.join(", "))?;
    if dumps.len() > 1 {
        cx.note(&format!(
            "the input holds {} request dumps; imported the first",
            dumps.len()
        ))?;
    }
    cx.note(&format!(
        "record what the composition renders for it with `fnhcl test --update {}`",
        out.display()
    ))?;
    Ok(ExitStatus::Success)
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
