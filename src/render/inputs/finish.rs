//! What follows a render that is not printing: warnings about the blocks function-hcl
//! discarded, `--validate` of the documents, the diagnostics of a failed render; and
//! [`documents`], the whole of a request from reading its inputs to checked documents.

use super::discarded::{Discarded, discarded};
use super::{Given, Request, read_given};
use crate::diagnostics::{Code, Diagnostic, Severity, fold_wrappers};
use crate::render::engine::merge_override;
use crate::render::{
    DEFAULT_TARGET, RUNTIME_ANNOTATION, Remote, RenderError, Rendered, StepKind, TARGET_ANNOTATION,
    composition_resource_name, render_owned,
};
use crate::schema::inputs::load_schemas;
use crate::schema::{Schemas, validate};
use crate::source::SourceMap;
use crate::source::pointer::Pointer;
use serde_json::Value as Json;
use std::io::Read;

/// What a render needs from outside the library.
pub struct Io<'a> {
    /// Standard input: read when SOURCE or a `--validate` schema is `-`.
    pub stdin: &'a mut dyn Read,
    /// Makes the client for steps that run elsewhere, once the inputs are read.
    pub remote: &'a dyn Fn() -> Box<dyn Remote>,
    /// Takes what function-hcl writes to its log (its debug dumps), as it writes it.
    pub log: &'a mut dyn FnMut(String),
    /// Leave out the warnings about discarded blocks (`--quiet`).
    pub quiet: bool,
    /// Leave out the warnings about discarded blocks because [`Documents::discarded`] is
    /// shown instead (`--show-discarded`).
    pub show_discarded: bool,
}

/// Why a request gave no documents (the diagnostics say what went wrong).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stopped {
    /// The inputs or `--validate`'s schemas could not be read.
    Input,
    /// The render failed.
    Render {
        /// A step returned a fatal result.
        fatal: bool,
    },
}

/// The documents `render` prints, and whether they pass `--validate`.
#[derive(Clone, Debug)]
pub struct Documents {
    /// The document stream.
    pub documents: Vec<Json>,
    /// `false` when `--validate` found a problem.
    pub valid: bool,
    /// What each function-hcl step exercised, when the request asked for it.
    pub coverage: Vec<crate::eval::coverage::RenderCoverage>,
    /// The blocks function-hcl discarded, one entry per block (see [`discarded`]).
    pub discarded: Vec<Discarded>,
}

/// Reads the request, renders, warns about discarded blocks (unless quiet) and validates the
/// documents against `schemas`, or against `--validate`'s when `schemas` is `None`; every
/// problem goes to `diagnostics`, in that order.
pub fn documents(
    map: &mut SourceMap,
    request: &Request,
    schemas: Option<&Schemas>,
    io: &mut Io<'_>,
    diagnostics: &mut Vec<Diagnostic>,
) -> Result<Documents, Stopped> {
    documents_given(map, request, &Given::default(), schemas, io, diagnostics)
}

/// [`documents`], with the documents `given` in place of the files the request names for
/// them (see [`read_given`]).
pub fn documents_given(
    map: &mut SourceMap,
    request: &Request,
    given: &Given,
    schemas: Option<&Schemas>,
    io: &mut Io<'_>,
    diagnostics: &mut Vec<Diagnostic>,
) -> Result<Documents, Stopped> {
    let (inputs, options) = match read_given(map, request, given, io.stdin) {
        Ok(read) => read,
        Err(d) => {
            diagnostics.push(*d);
            return Err(Stopped::Input);
        }
    };
    let legacy = inputs
        .steps
        .iter()
        .any(|s| matches!(s.kind, StepKind::PatchAndTransform { legacy: true }));
    if legacy && !io.quiet {
        diagnostics.push(legacy_note(&request.source));
    }
    if let Some(xrd) = &inputs.xrd {
        let path = given.xr.is_none().then_some(request.xr.as_path());
        diagnostics.extend(super::xr_warnings(map, &inputs.xr, xrd, path));
    }
    // Only validation reads the XR after the render, which takes the inputs (so that their
    // observed resources are not copied).
    let validates = schemas.is_some() || !request.validate.is_empty();
    let xr = if validates {
        inputs.xr.clone()
    } else {
        serde_json::Value::Null
    };
    let mut remote = (io.remote)();
    let rendered = match render_owned(map, inputs, options, remote.as_mut(), io.log) {
        Ok(rendered) => rendered,
        Err(error) => {
            let fatal = matches!(error, RenderError::Fatal { .. });
            diagnostics.extend(report(error, &request.timeout));
            return Err(Stopped::Render { fatal });
        }
    };
    if !io.quiet && !io.show_discarded {
        diagnostics.extend(discard_warnings(&rendered, true));
    }
    let valid = match (schemas, request.validate.is_empty()) {
        (Some(schemas), _) => validate_rendered(schemas, &xr, &rendered, diagnostics),
        (None, true) => true,
        (None, false) => {
            let schemas = match load_schemas(map, &request.validate, io.stdin) {
                Ok(schemas) => schemas,
                Err(d) => {
                    diagnostics.push(*d);
                    return Err(Stopped::Input);
                }
            };
            if !io.quiet {
                diagnostics.extend(crate::schema::inputs::schema_warnings(&schemas));
            }
            validate_rendered(&schemas, &xr, &rendered, diagnostics)
        }
    };
    Ok(Documents {
        discarded: discarded(&rendered),
        documents: rendered.documents,
        valid,
        coverage: rendered.coverage,
    })
}

/// A warning for each block function-hcl discarded (a collection's members together), except
/// those a user's condition left out: at the expression that was not known (not the whole
/// body), with the other unknown values labelled, and as help the render input that would make
/// them known. `composite`: the render is of an XR, so when it composed nothing because of
/// them one more warning says so.
pub fn discard_warnings(rendered: &Rendered, composite: bool) -> Vec<Diagnostic> {
    use super::discarded::{composed_count, discarded, headline, help};
    let entries: Vec<_> = discarded(rendered)
        .into_iter()
        .filter(|e| e.reason != "user-condition")
        .collect();
    let mut out = Vec::new();
    for entry in &entries {
        let mut d = Diagnostic::new(
            Code::E402,
            format!("step {:?}: discarded {}", entry.step, headline(entry)),
        )
        .with_severity(Severity::Warning);
        let mut lines = Vec::new();
        if entry.members.len() > 1 {
            let more = entry.count.saturating_sub(entry.members.len());
            let mut names = entry.members.join(", ");
            if more > 0 {
                names.push_str(&format!(" and {more} more"));
            }
            lines.push(format!("members: {names}"));
        }
        // At most three places: the first is the report's, the others labels.
        for (i, u) in entry.unknown.iter().take(3).enumerate() {
            let message = match &u.error {
                Some(error) => format!("`{}` is not known: {error}", u.text),
                None => format!("`{}` is not known yet", u.text),
            };
            d = if i == 0 {
                d.with_primary(u.span, Some(message))
            } else {
                d.with_label(crate::diagnostics::Label::new(u.span, message))
            };
        }
        // Where the missing input is read, when that is elsewhere (a local's `xr.spec.region`
        // behind the body's `region`): the first cause is what the user has to fix.
        let mut missing_labels = 0;
        for u in entry.unknown.iter().take(3) {
            for input in &u.inputs {
                let Some((span, missing)) = &input.missing else {
                    continue;
                };
                let taken = d.primary.iter().chain(&d.labels).any(|l| l.span == *span);
                if taken || missing_labels >= 3 {
                    continue;
                }
                d = d.with_label(crate::diagnostics::Label::new(*span, missing.clone()));
                missing_labels += 1;
            }
        }
        if entry.unknown.len() > 3 {
            lines.push(format!(
                "and {} more (`--show-discarded` lists them all)",
                crate::diagnostics::count(
                    entry.unknown.len() - 3,
                    "unknown value",
                    "unknown values"
                )
            ));
        }
        if entry.unknown.is_empty()
            && let Some(span) = entry.span
        {
            d = d.with_primary(span, None);
        }
        if !lines.is_empty() {
            d = d.with_detail(lines.join("\n"));
        }
        if let Some(help) = help(entry) {
            d = d.with_help(help);
        }
        out.push(d);
    }
    let resources = entries
        .iter()
        .filter(|e| matches!(e.kind, "resource" | "resources"))
        .count();
    let waits_for_observed = entries.iter().any(|e| {
        e.unknown.iter().flat_map(|u| &u.inputs).any(|i| {
            matches!(
                i.kind,
                super::discarded::InputKind::Observed(_)
                    | super::discarded::InputKind::ObservedCollection(_)
            )
        })
    });
    if composite && resources > 0 && composed_count(&rendered.documents) == 0 {
        out.push(
            Diagnostic::new(
                Code::E402,
                format!(
                    "no composed resources: {} discarded",
                    crate::diagnostics::count(resources, "resource block was", "resource blocks were")
                ),
            )
            .with_severity(Severity::Warning)
            .with_help(if waits_for_observed {
                "a first render has nothing observed yet: give observed resources with `-o`, or see `--show-discarded`"
            } else {
                "each discarded block's warning says what it lacks; `--show-discarded` lists them all"
            }),
        );
    }
    out
}

/// `--validate`: the XR (with the input's `spec` when the output has none, as `-x` gives it)
/// and each composed resource against its schema; each problem an error at the HCL that wrote
/// the field. Documents of render's own kinds are skipped; a kind without a schema is a
/// warning. `true` when nothing is wrong; the problems are added to `diagnostics`.
pub fn validate_rendered(
    schemas: &Schemas,
    input_xr: &Json,
    rendered: &Rendered,
    diagnostics: &mut Vec<Diagnostic>,
) -> bool {
    let mut valid = true;
    for (i, doc) in rendered.documents.iter().enumerate() {
        let text = |p: &str| doc.at(p).and_then(Json::as_str).unwrap_or("").to_string();
        let (api_version, kind) = (text("/apiVersion"), text("/kind"));
        if api_version == "render.crossplane.io/v1beta1" {
            continue;
        }
        let is_xr = i == 0;
        let name = if is_xr {
            text("/metadata/name")
        } else {
            composition_resource_name(doc).to_string()
        };
        let what = if is_xr {
            format!("the XR {kind} {name:?}")
        } else {
            format!("resource {name:?} ({kind})")
        };
        let Some(entry) = schemas.get(&api_version, &kind) else {
            diagnostics.push(
                Diagnostic::new(
                    Code::V704,
                    format!("{what}: no CRD or XRD for {api_version}, Kind={kind} among the --validate schemas"),
                )
                .with_severity(Severity::Warning),
            );
            continue;
        };
        // The XR as `-x` shows it: the input with the output laid over it (the printed XR has
        // no `spec` in the classic dialect, only `spec.crossplane` in the engine's).
        let value = if is_xr {
            let mut merged = input_xr.clone();
            merge_override(&mut merged, doc);
            merged
        } else {
            doc.clone()
        };
        let report = validate(&value, &entry.schema);
        let origin = (!is_xr).then(|| rendered.origins.get(&name)).flatten();
        for v in report.violations {
            valid = false;
            let mut d = v.diagnostic(&what);
            match origin {
                Some(origin) => d = d.with_primary(origin.locate(&v.path), None),
                None if is_xr => {
                    d = d.with_help(
                        "the XR's status comes from `composite status` blocks, its spec from the XR file",
                    );
                }
                None => {}
            }
            diagnostics.push(d);
        }
    }
    valid
}

/// A failed render for people, and crossplane's words for scripts.
///
/// The first diagnostic is the headline: for a fatal function-hcl result, the function's own
/// error at the source it is about (the step named, a hint when there is one); otherwise
/// crossplane's message without what concerns only its containers. It carries the line
/// `crossplane render` prints ([`RenderError::crossplane_line`]) as its `upstream` text. The
/// other diagnostics of a fatal result follow, every one of them (function-hcl's message says
/// only how many there are), located where function-hcl knows the expression.
pub fn report(error: RenderError, timeout: &str) -> Vec<Diagnostic> {
    let upstream = error.crossplane_line();
    let mut rest = Vec::new();
    let mut d = match &error {
        RenderError::Fatal {
            step, diagnostics, ..
        } => {
            // Diagnostics function-hcl gives no subject range to show at their expression.
            let mut located: Vec<Diagnostic> = diagnostics
                .iter()
                .cloned()
                .map(|mut d| {
                    if d.primary.is_none()
                        && let Some(span) = d.expression
                    {
                        d.primary = Some(crate::diagnostics::Label::bare(span));
                    }
                    // A label over the very place the diagnostic points at (which input it
                    // read) is said there.
                    if let Some(primary) = &mut d.primary
                        && primary.message.is_none()
                        && let Some(i) = d.labels.iter().position(|l| l.span == primary.span)
                    {
                        primary.message = d.labels.remove(i).message;
                    }
                    d
                })
                .collect();
            // A span-less diagnostic that only repeats the result's message adds nothing.
            let message = error.headline();
            located.retain(|d| d.primary.is_some() || !message.contains(&d.summary));
            let mut folded = fold_wrappers(located).into_iter();
            let cause = folded.by_ref().find(|d| d.severity == Severity::Error);
            rest.extend(folded);
            match cause {
                Some(cause) => {
                    let mut d = cause;
                    d.summary = format!(
                        "pipeline step {step:?} returned a fatal result: {}",
                        d.summary
                    );
                    d
                }
                None => Diagnostic::new(Code::E401, message),
            }
        }
        other => Diagnostic::new(Code::E401, other.headline()),
    };
    d.upstream = Some(upstream);
    match &error {
        RenderError::DeadlineExceeded { target: None, .. } => {
            d = d.with_help(format!(
                "the step was still evaluating when --timeout {timeout} ran out; give it longer with --timeout"
            ));
        }
        RenderError::DeadlineExceeded {
            target: Some(target),
            ..
        } => {
            d = d.with_help(format!(
                "the function at {target} had not answered when --timeout {timeout} ran out; give it longer with --timeout"
            ));
        }
        RenderError::Remote {
            function, target, ..
        } => {
            d = d.with_help(format!(
                "function {function:?} runs outside fnhcl ({} annotation): is it running and listening on {target} in plaintext (--insecure)? Its target is set with the annotation {}",
                RUNTIME_ANNOTATION,
                TARGET_ANNOTATION,
            ));
        }
        RenderError::Unrunnable {
            function, package, ..
        } => {
            let image = package
                .as_deref()
                .filter(|p| !p.is_empty())
                .unwrap_or("IMAGE");
            d = d.with_help(format!(
                "start the function yourself (`docker run --rm -p 9443:9443 {image} --insecure`, or its own binary with --insecure) and annotate Function {function:?} with `{}: Development` (and `{}` when it does not listen on {}), or pass `-a {}=Development` to call every function that is not function-hcl that way",
                RUNTIME_ANNOTATION,
                TARGET_ANNOTATION,
                DEFAULT_TARGET,
                RUNTIME_ANNOTATION,
            ));
        }
        _ => {}
    }
    let mut out = vec![d];
    out.extend(rest);
    out
}

/// The note for a legacy `mode: Resources` Composition: crossplane v2 refuses it; fnhcl
/// renders it as the migrator would convert it.
fn legacy_note(source: &str) -> Diagnostic {
    Diagnostic::new(
        Code::I028,
        format!("`{source}` is a legacy `mode: Resources` Composition: rendered as crossplane-migrator converts it, one function-patch-and-transform step"),
    )
    .with_help(
        "Crossplane v2 refuses mode: Resources: convert the file for good with `crossplane-migrator new-pipeline-composition -i FILE`",
    )
}
