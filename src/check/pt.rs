//! `check` of patch-and-transform Compositions: each `function-patch-and-transform` step's
//! input (`pt.fn.crossplane.io/v1beta1` `Resources`), and a legacy `mode: Resources`
//! Composition's `spec` as crossplane-migrator would turn it into one.
//!
//! Four findings, each at the YAML node it is about:
//! - P901: what the function would refuse the input with (its decoding error, then every
//!   problem its validation finds, in its own words; the function stops at the first);
//! - P902: a field path that does not parse (the patch fails when it runs);
//! - P903: a path into the XR that its XRD does not have (an Optional patch from it is
//!   skipped without a word, so the field is silently never set);
//! - P904: a path into a composed resource that its CRD does not have.

use crate::diagnostics::{Code, Diagnostic, Severity};
use crate::pt::fieldpath::{self, Segment};
use crate::pt::{input, migrate, validate};
use crate::schema::Schemas;
use crate::schema::node::Node as SchemaNode;
use crate::schema::xr::{Reach, walk};
use crate::source::pointer::Pointer;
use crate::source::yaml::{Node, NodeKind, read_first};
use crate::source::{FileId, SourceMap, Span};
use serde_json::Value as Json;

/// One patch-and-transform input in a Composition: where it is and what it holds.
struct Target<'d> {
    /// The YAML node of the `Resources` object (a step's `input`, or a legacy `spec`).
    node: &'d Node,
    /// The input as the function decodes it.
    value: Json,
    /// How the findings name it: `step "patch-and-transform"`, or `the legacy spec`.
    label: String,
}

/// Whether a Composition (as JSON) holds anything this module checks: a step whose input is
/// `pt.fn.crossplane.io` `Resources`, or legacy `spec.resources`.
pub fn holds_patch_and_transform(composition: &Json) -> bool {
    if composition.get("kind").and_then(Json::as_str) != Some("Composition") {
        return false;
    }
    if migrate::is_legacy(composition) {
        return composition.at("/spec/resources").is_some();
    }
    composition
        .at("/spec/pipeline")
        .and_then(Json::as_array)
        .is_some_and(|steps| steps.iter().any(|s| is_pt_input(s.get("input"))))
}

fn is_pt_input(input: Option<&Json>) -> bool {
    input.is_some_and(crate::pt::function::is_pt_input)
}

/// Whether a YAML text may be a patch-and-transform Composition: a look at its words, before
/// anything is parsed (most YAML files of a repository are not).
pub fn may_hold(text: &str) -> bool {
    text.contains("Composition")
        && (text.contains("pt.fn.crossplane.io") || has_key(text, "resources"))
}

/// Whether `key` appears in `text` as a mapping key (`resources:` at the start of a line, or
/// after `{` or `,` in flow style, quoted or not), not inside a value such as
/// `message: 'Unready resources: bucket'` of a rendered XR.
fn has_key(text: &str, key: &str) -> bool {
    text.match_indices(key).any(|(at, _)| {
        let after = text[at + key.len()..].trim_start_matches(['"', '\'']);
        if !after.starts_with(':') {
            return false;
        }
        // The first character before the key (and its quote) that is not a blank or a
        // sequence's `-` decides: a line break or the start of the text makes a block key,
        // `{` or `,` a flow key. Only the blanks next to each occurrence are looked at, so a
        // file of one long line costs no more than a short one.
        let before = text[..at].trim_end_matches(['"', '\'']);
        match before
            .trim_end_matches([' ', '\t', '-'])
            .chars()
            .next_back()
        {
            None | Some('\n' | '\r' | '{' | ',') => true,
            Some(_) => false,
        }
    })
}

/// Whether a YAML text is a patch-and-transform Composition ([`holds_patch_and_transform`]
/// of its first document).
pub fn holds_text(text: &str) -> bool {
    may_hold(text)
        && matches!(read_first(text), Ok(Some(document))
            if serde_json::to_value(&document.value).is_ok_and(|c| holds_patch_and_transform(&c)))
}

/// The findings for the Composition YAML `file` (in `map`), or `None` when it is no
/// patch-and-transform Composition; `schemas` (CRDs and XRDs), when given, check the field
/// paths against the XR's and each composed resource's schema.
pub fn check(map: &SourceMap, file: FileId, schemas: Option<&Schemas>) -> Option<Vec<Diagnostic>> {
    let source = map.get(file);
    if !may_hold(source.text()) {
        return None;
    }
    let document = read_first(source.text()).ok()??;
    let composition = serde_json::to_value(&document.value).unwrap_or(Json::Null);
    if !holds_patch_and_transform(&composition) {
        return None;
    }
    let mut targets = Vec::new();
    if migrate::is_legacy(&composition) {
        let converted = migrate::convert(&composition, None).ok();
        let input = converted
            .as_ref()
            .and_then(|c| c.at("/spec/pipeline/0/input"))
            .cloned();
        if let (Some(node), Some(value)) = (document.root.get("spec"), input) {
            targets.push(Target {
                node,
                value,
                label: "the legacy `mode: Resources` spec".into(),
            });
        }
    } else {
        let steps = document
            .root
            .get("spec")
            .and_then(|s| s.get("pipeline"))
            .map(Node::items)
            .unwrap_or_default();
        let values = composition.at("/spec/pipeline").and_then(Json::as_array);
        for (i, step) in steps.iter().enumerate() {
            let value = values.and_then(|v| v.get(i)).and_then(|s| s.get("input"));
            let (Some(node), true) = (step.get("input"), is_pt_input(value)) else {
                continue;
            };
            let name = step.get("step").and_then(Node::as_str).unwrap_or("");
            targets.push(Target {
                node,
                value: value.cloned().unwrap_or(Json::Null),
                label: format!("step {name:?}"),
            });
        }
    }
    let type_ref = composition.at("/spec/compositeTypeRef").map(|r| {
        let text = |k: &str| r.get(k).and_then(Json::as_str).unwrap_or("").to_string();
        (text("apiVersion"), text("kind"))
    });
    let xr = schemas.and_then(|s| {
        let (api_version, kind) = type_ref.as_ref()?;
        s.get(api_version, kind)
    });
    let mut out = Vec::new();
    for target in &targets {
        let at = |path: &str| -> Span { source.span(locate(target.node, path)) };
        let resources = match input::decode(&target.value) {
            Ok(resources) => resources,
            Err(message) => {
                out.push(
                    Diagnostic::new(
                        Code::P901,
                        format!(
                            "{}: the function cannot read its input: {message}",
                            target.label
                        ),
                    )
                    .with_primary(source.span(target.node.span.clone()), None),
                );
                continue;
            }
        };
        for (place, e) in validate::every(&resources) {
            out.push(
                Diagnostic::new(
                    Code::P901,
                    format!("{}: invalid Function input: {e}", target.label),
                )
                .with_primary(at(&place), Some(problem_label(&e)))
                .with_help(known_values(&e).unwrap_or_else(|| {
                    "function-patch-and-transform fails the step with this message".into()
                })),
            );
        }
        for path in paths(&resources) {
            let Some(text) = path.text.as_deref().filter(|t| !t.is_empty()) else {
                continue;
            };
            let span = at(&path.at);
            let segments = match fieldpath::parse(text) {
                Ok(segments) => segments,
                Err(e) => {
                    out.push(
                        Diagnostic::new(
                            Code::P902,
                            format!("{}: `{text}` is not a field path: {e}", target.label),
                        )
                        .with_primary(span, Some("not a field path".into()))
                        .with_help(
                            "write fields with `.`, indexes and keys with dots in `[…]`: `spec.forProvider.tags[0]`, `metadata.labels[example.org/team]`",
                        ),
                    );
                    continue;
                }
            };
            let steps = match steps_of(&segments.0) {
                Some(steps) if !steps.is_empty() => steps,
                _ => continue,
            };
            let (code, entry, what) = match path.side {
                Side::Composite => (Code::P903, xr, "the XR".to_string()),
                Side::Composed(i) => {
                    let base = resources.resources.get(i).and_then(|t| t.base.0.as_ref());
                    let text = |k: &str| {
                        base.and_then(|b| b.get(k))
                            .and_then(Json::as_str)
                            .unwrap_or("")
                    };
                    let (api_version, kind) = (text("apiVersion"), text("kind"));
                    let name = resources.resources.get(i).map_or("", |t| t.name.as_str());
                    (
                        Code::P904,
                        schemas.and_then(|s| s.get(api_version, kind)),
                        format!("resource {name:?} ({kind})"),
                    )
                }
                Side::Other => continue,
            };
            let Some(entry) = entry else { continue };
            if let Reach::Unknown { index, parent } = walk(&entry.schema, &steps) {
                out.push(unknown_field(
                    code,
                    &target.label,
                    &what,
                    &steps,
                    index,
                    parent,
                    span,
                ));
            }
        }
    }
    Some(out)
}

/// For an unknown type, strategy or conversion: the values the function knows, with the one
/// meant when the value is a near miss.
fn known_values(e: &validate::FieldError) -> Option<String> {
    use crate::pt::input as i;
    let known: &[&str] = match e.detail.as_str() {
        "unknown transform type" => &[
            i::TRANSFORM_MAP,
            i::TRANSFORM_MATCH,
            i::TRANSFORM_MATH,
            i::TRANSFORM_STRING,
            i::TRANSFORM_CONVERT,
        ],
        "unknown patch type" | "invalid environment patch type" => &[
            i::PATCH_FROM_COMPOSITE_FIELD_PATH,
            i::PATCH_PATCH_SET,
            i::PATCH_TO_COMPOSITE_FIELD_PATH,
            i::PATCH_COMBINE_FROM_COMPOSITE,
            i::PATCH_COMBINE_TO_COMPOSITE,
            i::PATCH_FROM_ENVIRONMENT_FIELD_PATH,
            i::PATCH_TO_ENVIRONMENT_FIELD_PATH,
            i::PATCH_COMBINE_FROM_ENVIRONMENT,
            i::PATCH_COMBINE_TO_ENVIRONMENT,
        ],
        "unknown math transform type" => &[i::MATH_MULTIPLY, i::MATH_CLAMP_MIN, i::MATH_CLAMP_MAX],
        "unknown string transform type" => &[
            i::STRING_FORMAT,
            i::STRING_CONVERT,
            i::STRING_TRIM_PREFIX,
            i::STRING_TRIM_SUFFIX,
            i::STRING_REGEXP,
            i::STRING_JOIN,
            i::STRING_REPLACE,
        ],
        "unknown pattern type" => &[i::MATCH_PATTERN_LITERAL, i::MATCH_PATTERN_REGEXP],
        "unknown readiness check type" => i::READINESS_CHECK_TYPES,
        "unknown connection detail type" => i::CONNECTION_DETAIL_TYPES,
        _ => return None,
    };
    let given = match &e.bad_value {
        Some(validate::BadValue::Str(s)) => s.clone(),
        Some(validate::BadValue::Json(serde_json::Value::String(s))) => s.clone(),
        _ => String::new(),
    };
    let all = known
        .iter()
        .map(|k| format!("`{k}`"))
        .collect::<Vec<_>>()
        .join(", ");
    // Case differences are the usual slip (`Multiply`, `multiply`).
    let near = known
        .iter()
        .find(|k| k.eq_ignore_ascii_case(&given))
        .copied()
        .or_else(|| crate::diagnostics::suggest::name_suggestion(&given, known));
    Some(match near {
        Some(k) => format!("did you mean `{k}`? The function knows {all}"),
        None => format!("the function knows {all}"),
    })
}

/// What an invalid-input finding's label says: the error's kind and detail.
fn problem_label(e: &validate::FieldError) -> String {
    if e.detail.is_empty() {
        e.kind.as_str().to_string()
    } else {
        e.detail.clone()
    }
}

fn unknown_field(
    code: Code,
    label: &str,
    what: &str,
    steps: &[String],
    index: usize,
    parent: &SchemaNode,
    span: Span,
) -> Diagnostic {
    let key = &steps[index];
    let shown = steps[..=index].join(".");
    let names: Vec<&str> = parent.properties.keys().map(String::as_str).collect();
    let d = Diagnostic::new(code, format!("{label}: `{shown}` is not a field of {what}"))
        .with_severity(Severity::Warning)
        .with_primary(span, Some(format!("no `{key}` here")));
    match crate::diagnostics::suggest::name_suggestion(key, &names) {
        Some(s) => d.with_help(format!(
            "did you mean `{s}`? The schema has no `{key}` here, so the patch never finds (or sets) it"
        )),
        None => d.with_help(format!(
            "the schema has no `{key}` here; its fields are {}",
            list(&names)
        )),
    }
}

fn list(names: &[&str]) -> String {
    const SHOWN: usize = 8;
    let mut text: Vec<String> = names.iter().take(SHOWN).map(|n| format!("`{n}`")).collect();
    if names.len() > SHOWN {
        text.push(format!("and {} more", names.len() - SHOWN));
    }
    if text.is_empty() {
        "none".into()
    } else {
        text.join(", ")
    }
}

/// A path's segments as schema steps; `None` past a wildcard (any element or key).
fn steps_of(segments: &[Segment]) -> Option<Vec<String>> {
    let mut steps = Vec::new();
    for s in segments {
        match s {
            Segment::Field(name) if name == "*" => return Some(steps),
            Segment::Field(name) => steps.push(name.clone()),
            Segment::Index(i) => steps.push(i.to_string()),
        }
    }
    Some(steps)
}

/// Which object a field path is read from or written to.
#[derive(Clone, Copy, Debug)]
enum Side {
    /// The XR.
    Composite,
    /// The composed resource of template `i`.
    Composed(usize),
    /// The environment, or a patch set's composed resource (unknown until used).
    Other,
}

/// One field path of the input: its text, where it is (a validation-style path below the
/// input) and what it points into.
struct FieldPathAt {
    text: Option<String>,
    at: String,
    side: Side,
}

/// Every field path of the input, with the object it reads or writes.
fn paths(r: &input::Resources) -> Vec<FieldPathAt> {
    let mut out = Vec::new();
    let mut patch = |p: &input::Patch, kind: &str, root: String, composed: Side| {
        let (from, to) = match kind {
            "FromCompositeFieldPath" | "CombineFromComposite" => (Side::Composite, composed),
            "ToCompositeFieldPath" | "CombineToComposite" => (composed, Side::Composite),
            "FromEnvironmentFieldPath" | "CombineFromEnvironment" => (Side::Other, composed),
            "ToEnvironmentFieldPath" | "CombineToEnvironment" => (composed, Side::Other),
            _ => (Side::Other, Side::Other),
        };
        out.push(FieldPathAt {
            text: p.from_field_path.clone(),
            at: format!("{root}.fromFieldPath"),
            side: from,
        });
        out.push(FieldPathAt {
            text: p.to_field_path.clone(),
            at: format!("{root}.toFieldPath"),
            side: to,
        });
        if let Some(combine) = &p.combine {
            for (k, v) in combine.variables.iter().enumerate() {
                out.push(FieldPathAt {
                    text: Some(v.from_field_path.clone()),
                    at: format!("{root}.combine.variables[{k}].fromFieldPath"),
                    side: from,
                });
            }
        }
    };
    for (i, set) in r.patch_sets.iter().enumerate() {
        for (j, p) in set.patches.iter().enumerate() {
            patch(
                &p.patch,
                p.patch_type(),
                format!("patchSets[{i}].patches[{j}]"),
                Side::Other,
            );
        }
    }
    for (i, t) in r.resources.iter().enumerate() {
        for (j, p) in t.patches.iter().enumerate() {
            patch(
                &p.patch,
                p.patch_type(),
                format!("resources[{i}].patches[{j}]"),
                Side::Composed(i),
            );
        }
    }
    if let Some(env) = &r.environment {
        for (j, p) in env.patches.iter().enumerate() {
            // Environment patches go between the XR and the environment: from the XR when
            // their type says so, else from the environment into the XR.
            let swapped = match p.patch_type() {
                "FromCompositeFieldPath" | "CombineFromComposite" | "ToEnvironmentFieldPath" => {
                    (Side::Composite, Side::Other)
                }
                _ => (Side::Other, Side::Composite),
            };
            let root = format!("environment.patches[{j}]");
            out.push(FieldPathAt {
                text: p.patch.from_field_path.clone(),
                at: format!("{root}.fromFieldPath"),
                side: swapped.0,
            });
            out.push(FieldPathAt {
                text: p.patch.to_field_path.clone(),
                at: format!("{root}.toFieldPath"),
                side: swapped.1,
            });
        }
    }
    for (i, t) in r.resources.iter().enumerate() {
        for (j, cd) in t.connection_details.iter().enumerate() {
            out.push(FieldPathAt {
                text: cd.from_field_path.clone(),
                at: format!("resources[{i}].connectionDetails[{j}].fromFieldPath"),
                side: Side::Composed(i),
            });
        }
        for (j, rc) in t.readiness_checks.iter().enumerate() {
            out.push(FieldPathAt {
                text: rc.field_path.clone(),
                at: format!("resources[{i}].readinessChecks[{j}].fieldPath"),
                side: Side::Composed(i),
            });
        }
    }
    out
}

/// The byte range in the YAML of a validation-style path below `root`
/// (`resources[0].patches[1].transforms[0].math.type`, `patches[0][type]`): the value at the
/// path, else (a missing field) the key of the deepest object the path reaches, else that
/// object.
fn locate(root: &Node, path: &str) -> std::ops::Range<usize> {
    let mut node = root;
    let mut key_span: Option<std::ops::Range<usize>> = None;
    for step in path_steps(path) {
        let next = match step {
            PathStep::Key(k) => node
                .entry(&k)
                .map(|(key, value)| (Some(key.span.clone()), value)),
            PathStep::Index(i) => node.items().get(i).map(|v| (None, v)),
        };
        match next {
            Some((key, value)) => {
                key_span = key;
                node = value;
            }
            // A missing field: the key that leads to the object that lacks it, else the
            // object's first key (a list item has no key of its own).
            None => {
                return key_span.unwrap_or_else(|| match &node.kind {
                    NodeKind::Mapping(entries) => entries
                        .first()
                        .map_or_else(|| node.span.clone(), |(k, _)| k.span.clone()),
                    _ => node.span.clone(),
                });
            }
        }
    }
    node.span.clone()
}

enum PathStep {
    Key(String),
    Index(usize),
}

fn path_steps(path: &str) -> Vec<PathStep> {
    let mut steps = Vec::new();
    for part in path.split('.') {
        let (name, rest) = match part.find('[') {
            Some(at) => (&part[..at], &part[at..]),
            None => (part, ""),
        };
        if !name.is_empty() {
            steps.push(PathStep::Key(name.to_string()));
        }
        for bracket in rest.split('[').filter(|b| !b.is_empty()) {
            let inner = bracket.trim_end_matches(']');
            match inner.parse::<usize>() {
                Ok(i) => steps.push(PathStep::Index(i)),
                Err(_) => steps.push(PathStep::Key(inner.to_string())),
            }
        }
    }
    steps
}

#[cfg(test)]
mod tests {
    use super::{PathStep, may_hold, path_steps};
    use crate::pt::{input, validate};

    /// The look before parsing: a legacy Composition's `resources:` key in block or flow
    /// style, quoted or not, but not the word inside a rendered XR's condition message.
    #[test]
    fn only_a_resources_key_makes_a_legacy_composition_likely() {
        let legacy = "kind: Composition\nspec:\n  resources:\n  - name: a\n";
        assert!(may_hold(legacy));
        assert!(may_hold("kind: Composition\nspec:\n  \"resources\": []\n"));
        assert!(may_hold("{kind: Composition, spec: {resources: []}}"));
        assert!(may_hold(
            "{\"kind\": \"Composition\", \"spec\": {\"resources\": []}}"
        ));
        assert!(may_hold(
            "kind: Composition\nspec:\n  pipeline:\n  - input:\n      apiVersion: pt.fn.crossplane.io/v1beta1\n"
        ));
        let rendered = "kind: XBucket\nstatus:\n  conditions:\n  - message: 'Unready resources: bucket'\n    reason: SelectComposition\n";
        assert!(!may_hold(rendered));
        assert!(!may_hold("kind: Composition\nspec:\n  pipeline: []\n"));
    }

    /// `every` finds what the function would say first, and the rest the function would say
    /// once that is fixed.
    #[test]
    fn every_problem_begins_with_the_functions_first() {
        let raw = serde_json::json!({
            "apiVersion": "pt.fn.crossplane.io/v1beta1", "kind": "Resources",
            "patchSets": [{"name": "", "patches": []}],
            "resources": [
                {"name": "a", "patches": [{"type": "ToCompositeFieldPath"}]},
                {"name": "", "readinessChecks": [{"type": "Nope"}]}
            ],
            "environment": {"patches": [{"type": "PatchSet"}, {"type": "FromEnvironmentFieldPath"}]}
        });
        let resources = input::decode(&raw).unwrap();
        let first = validate::resources(&resources).unwrap_err();
        let every = validate::every(&resources);
        let all: Vec<String> = every.iter().map(|(_, e)| e.to_string()).collect();
        assert_eq!(all.first(), Some(&first.to_string()));
        let places: Vec<&str> = every.iter().map(|(at, _)| at.as_str()).collect();
        assert_eq!(places[0], "patchSets[0].name");
        let fields: Vec<&str> = all.iter().map(|e| e.split(':').next().unwrap()).collect();
        assert_eq!(
            fields,
            [
                "name",
                "resources[0].patches[0].fromFieldPath",
                "resources[1].name",
                "resources[1].readinessChecks[0].type",
                "environment.patches[0][type]",
                "environment.patches[1].fromFieldPath",
            ]
        );
    }

    #[test]
    fn validation_paths_become_steps() {
        let steps = path_steps("resources[0].patches[1].transforms[0].math.type");
        let text: Vec<String> = steps
            .iter()
            .map(|s| match s {
                PathStep::Key(k) => k.clone(),
                PathStep::Index(i) => format!("#{i}"),
            })
            .collect();
        assert_eq!(
            text,
            [
                "resources",
                "#0",
                "patches",
                "#1",
                "transforms",
                "#0",
                "math",
                "type"
            ]
        );
        let env = path_steps("environment.patches[2][type]");
        assert!(matches!(env.last(), Some(PathStep::Key(k)) if k == "type"));
    }
}
