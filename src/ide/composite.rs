//! The XR's own schema in the editor: after `req.composite.` (or a local that is a plain alias
//! of it, `xr.spec.`) completion lists the XRD's fields with their types and descriptions, and
//! hover on such a path shows the field's. The XR is the one `check` judges reads against
//! ([`crate::schema::xr::composite_entry`]: the kind the folder's Composition or example XRs
//! name, else the only composite kind of the schemas, at its `referenceable` version).

use super::At;
use super::types::{Completion, CompletionKind, HoverInfo};
use crate::analysis::resolve::{Resolution, ScopeId, Target};
use crate::check::composite::Aliases;
use crate::schema::Entry;
use crate::schema::node::{Node, Type};
use crate::schema::xr::{Reach, composite_entry, type_text, walk};
use crate::syntax::ast::Step;

/// The XR's schema for the composition at the cursor, when it is certain.
fn entry<T>(at: &At, f: impl FnOnce(&Entry) -> Option<T>) -> Option<T> {
    let settings = at.ws.settings(&at.comp.dir);
    let schemas = settings.config.schemas.as_deref()?;
    let seen = crate::schema::xr::types_in(&at.comp.dir);
    f(composite_entry(schemas, None, &seen)?)
}

/// The fields after `path` (the traversal before the cursor's `.`: `["xr", "spec"]`) when it
/// reads the XR; `None` when it does not, so that other completions answer.
pub fn complete(
    at: &At,
    path: &[String],
    resolution: &Resolution,
    scope: ScopeId,
) -> Option<Vec<Completion>> {
    let (root, rest) = path.split_first()?;
    let mut full = match resolution.lookup(scope, root) {
        Target::Req => Vec::new(),
        Target::Binding(b) => Aliases::new(resolution).binding_path(b, 0)?,
        _ => return None,
    };
    full.extend(rest.iter().cloned());
    if full.first().map(String::as_str) != Some("composite") {
        return None;
    }
    entry(at, |entry| match walk(&entry.schema, &full[1..]) {
        Reach::Field(node) => Some(fields(node)),
        _ => None,
    })
}

/// An object node's fields, required ones first, each with its type and description.
fn fields(node: &Node) -> Vec<Completion> {
    let mut items: Vec<(bool, Completion)> = node
        .properties
        .iter()
        .map(|(name, field)| {
            let required = node.required.contains(name);
            let mut detail = type_text(field);
            if required {
                detail.push_str(", required");
            }
            let doc = super::body::field_doc(field);
            let item = Completion {
                detail: Some(detail),
                documentation: (!doc.is_empty()).then_some(doc),
                sort_text: Some(format!("{}{name}", u8::from(!required))),
                ..Completion::new(name.clone(), CompletionKind::Field)
            };
            (required, item)
        })
        .collect();
    items.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.label.cmp(&b.1.label)));
    items.into_iter().map(|(_, item)| item).collect()
}

/// The field of the XR under the cursor in a read such as `xr.spec.region`: its path, type,
/// whether it is required, its description and constraints.
pub fn hover(at: &At) -> Option<HoverInfo> {
    let program = at.comp.program();
    let resolution = Resolution::of(&program.top, &program.functions);
    let offset = at.offset as u32;
    let u = resolution
        .uses
        .iter()
        .find(|u| u.file == at.file && u.var.span.start <= offset && offset <= u.var.span.end)?;
    // The step under the cursor (its name, without the dot).
    let index = u.var.steps.iter().position(|s| {
        let span = match s {
            Step::Attr { span, .. } | Step::Index { span, .. } => span,
        };
        span.start <= offset && offset <= span.end
    })?;
    let full = Aliases::new(&resolution).use_path(u, 0)?;
    let cut = full.len() - (u.var.steps.len() - index - 1);
    let path = &full[..cut];
    if path.first().map(String::as_str) != Some("composite") || path.len() < 2 {
        return None;
    }
    let range = match &u.var.steps[index] {
        Step::Attr { span, .. } => {
            (span.start as usize + 1).min(span.end as usize)..span.end as usize
        }
        Step::Index { span, .. } => span.start as usize..span.end as usize,
    };
    entry(at, |entry| {
        let below = &path[1..];
        let Reach::Field(node) = walk(&entry.schema, below) else {
            return None;
        };
        let (key, parent_path) = below.split_last()?;
        let required = match walk(&entry.schema, parent_path) {
            Reach::Field(parent) => parent.required.contains(key),
            _ => false,
        };
        Some(HoverInfo {
            markdown: field_text(entry, below, node, required),
            range,
        })
    })
}

fn field_text(entry: &Entry, below: &[String], node: &Node, required: bool) -> String {
    let mut path = String::new();
    for step in below {
        if step.parse::<usize>().is_ok() {
            path.push_str(&format!("[{step}]"));
        } else {
            if !path.is_empty() {
                path.push('.');
            }
            path.push_str(step);
        }
    }
    let mut out = format!(
        "**`{path}`** — `{}`{}",
        type_text(node),
        if required { " · required" } else { "" }
    );
    super::body::push_field_doc(&mut out, node);
    if node.kind == Some(Type::Object) && !node.properties.is_empty() {
        let names: Vec<String> = node.properties.keys().map(|k| format!("`{k}`")).collect();
        out.push_str(&format!("\n\nfields: {}", names.join(", ")));
    }
    out.push_str(&format!(
        "\n\n*the XR, {} ({}), from `{}`*",
        entry.kind, entry.api_version, entry.file
    ));
    out
}

#[cfg(test)]
mod tests {
    use crate::ide::types::Completion;
    use crate::ide::workspace::Workspace;
    use crate::ide::{At, complete, hover};
    use std::path::PathBuf;

    const XRD: &str = include_str!(
        "../../tests/fixtures/check/unknown-composite-field-fires/.crds/xnetwork.yaml"
    );

    /// A composition folder with the XRD in `.crds/` and `text` (its `|` is the cursor) open as
    /// `main.hcl`; the labels completed there, or the hover's text and range.
    fn open(marked: &str) -> (tempfile::TempDir, PathBuf, Workspace, usize) {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join(".crds")).unwrap();
        std::fs::write(dir.path().join(".crds/xnetwork.yaml"), XRD).unwrap();
        let offset = marked.find('|').unwrap();
        let text = marked.replacen('|', "", 1);
        let path = dir.path().join("main.hcl");
        std::fs::write(&path, &text).unwrap();
        let mut ws = Workspace::default();
        ws.documents.insert(path.clone(), text);
        (dir, path, ws, offset)
    }

    fn completed(marked: &str) -> Vec<Completion> {
        let (_dir, path, ws, offset) = open(marked);
        complete::complete(&At::new(&ws, &path, offset).unwrap()).unwrap_or_default()
    }

    fn labels(items: &[Completion]) -> Vec<&str> {
        items.iter().map(|i| i.label.as_str()).collect()
    }

    #[test]
    fn the_xrd_fields_complete_after_req_composite_and_an_alias() {
        let items = completed("locals {\n  r = req.composite.spec.|\n}\n");
        assert_eq!(
            labels(&items),
            [
                "region",
                "cidr",
                "crossplane",
                "enabled",
                "parameters",
                "replicas",
                "tags",
                "tier",
                "zones"
            ],
            "required first"
        );
        assert_eq!(items[0].detail.as_deref(), Some("string, required"));
        assert_eq!(
            items[0].documentation.as_deref(),
            Some("The AWS region of the network.")
        );
        let tier = items.iter().find(|i| i.label == "tier").unwrap();
        assert_eq!(tier.detail.as_deref(), Some("string (enum)"));
        assert!(
            tier.documentation
                .as_deref()
                .unwrap()
                .contains("`\"prod\"`")
        );
        // Through a local that aliases the XR, and deeper.
        let items = completed("locals {\n  xr = req.composite\n  r = xr.spec.|\n}\n");
        assert_eq!(items.len(), 9);
        let items = completed("locals {\n  xr = req.composite\n  r = xr.|\n}\n");
        assert_eq!(
            labels(&items),
            ["spec", "apiVersion", "kind", "metadata", "status"]
        );
        let items = completed("locals {\n  xr = req.composite\n  r = xr.status.|\n}\n");
        assert_eq!(labels(&items), ["conditions", "vpcId"]);
        let items = completed("locals {\n  xr = req.composite\n  r = xr.spec.zones[0].|\n}\n");
        assert_eq!(labels(&items), ["cidr", "name"]);
        let items = completed("locals {\n  xr = req.composite\n  r = xr.metadata.|\n}\n");
        assert!(labels(&items).contains(&"labels"), "{items:?}");
        // Not the XR, or past what the schema knows: the other completions answer.
        let items = completed("locals {\n  o = { a = req.composite }\n  r = o.a.|\n}\n");
        assert!(!labels(&items).contains(&"spec"), "{items:?}");
        let items = completed("locals {\n  r = req.|\n}\n");
        assert!(labels(&items).contains(&"composite"), "{items:?}");
    }

    #[test]
    fn hover_on_an_xr_path_shows_the_field() {
        let marked = "locals {\n  xr = req.composite\n  r = xr.spec.reg|ion\n}\n";
        let (_dir, path, ws, offset) = open(marked);
        let info = hover::hover(&At::new(&ws, &path, offset).unwrap()).unwrap();
        let text = marked.replacen('|', "", 1);
        let start = text.find("region").unwrap();
        assert_eq!(info.range, start..start + "region".len());
        assert!(
            info.markdown.starts_with(
                "**`spec.region`** — `string` · required\n\nThe AWS region of the network."
            ),
            "{}",
            info.markdown
        );
        assert!(
            info.markdown.contains("XNetwork (example.org/v1)"),
            "{}",
            info.markdown
        );
        let marked = "locals {\n  t = req.composite.spec.ti|er\n}\n";
        let (_dir, path, ws, offset) = open(marked);
        let info = hover::hover(&At::new(&ws, &path, offset).unwrap()).unwrap();
        assert!(
            info.markdown.contains("- one of: `\"dev\"`, `\"prod\"`"),
            "{}",
            info.markdown
        );
        // An unknown field has nothing to show from the XRD.
        let marked = "locals {\n  t = req.composite.spec.reg|oin\n}\n";
        let (_dir, path, ws, offset) = open(marked);
        let info = hover::hover(&At::new(&ws, &path, offset).unwrap());
        assert!(
            info.as_ref()
                .is_none_or(|i| !i.markdown.contains("XNetwork")),
            "{info:?}"
        );
    }
}
