//! Definition, references, document highlight and rename for the names a composition
//! defines: locals and user-function arguments (through name resolution), user functions
//! (their `function NAME` label and every `invoke("NAME", …)`), and resources and collections
//! (their label and every `req.resource.NAME`, `req.connection.NAME`, `req.resources.NAME`,
//! `req.connections.NAME`).

use super::At;
use super::types::{FileRange, HighlightKind, SourceChange, TextEdit};
use crate::analysis::resolve::{Resolution, Target};
use crate::eval::program::invoke_calls;
use crate::source::{FileId, Span};
use crate::syntax::ast::{Expr, ExprKind, Literal, Step, TextRange};
use crate::syntax::model::{Child, GroupBody, Program};

/// What a name is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A local or an argument.
    Binding,
    /// A user function.
    Function,
    /// A resource or a collection.
    Resource,
}

/// A name's definition and uses.
pub struct Places {
    /// What it is.
    pub kind: Kind,
    /// Its name.
    pub name: String,
    /// Where it is defined (the name only).
    pub definition: Option<FileRange>,
    /// Where it is used (the name only).
    pub uses: Vec<FileRange>,
    /// The same, as spans.
    pub spans: (Option<Span>, Vec<Span>),
}

/// The definition and uses of the name at the cursor.
pub fn places(at: &At) -> Option<Places> {
    let program = at.comp.program();
    let resolution = Resolution::of(&program.top, &program.functions);
    let (kind, name, definition, uses) = binding(at, &resolution)
        .or_else(|| function(at, program, &resolution))
        .or_else(|| resource(at, program, &resolution))?;
    Some(Places {
        kind,
        name,
        definition: definition.and_then(|s| at.comp.file_range(s)),
        uses: uses.iter().filter_map(|s| at.comp.file_range(*s)).collect(),
        spans: (definition, uses),
    })
}

type Found = (Kind, String, Option<Span>, Vec<Span>);

fn covers(at: &At, span: Span) -> bool {
    span.file == at.file && span.start as usize <= at.offset && at.offset <= span.end as usize
}

/// A span without the quotes of a quoted label or string.
fn unquoted(at: &At, span: Span) -> Span {
    let text = at.comp.text(span.file);
    let s = &text[span.start as usize..span.end as usize];
    if s.len() >= 2 && s.starts_with('"') && s.ends_with('"') {
        Span {
            file: span.file,
            start: span.start + 1,
            end: span.end - 1,
        }
    } else {
        span
    }
}

fn binding(at: &At, resolution: &Resolution) -> Option<Found> {
    let id = resolution
        .bindings
        .iter()
        .position(|b| covers(at, b.name_span))
        .or_else(|| {
            resolution.uses.iter().find_map(|u| match u.target {
                Target::Binding(id) if covers(at, Span::of(u.file, u.var.root_span)) => Some(id),
                _ => None,
            })
        })?;
    let b = resolution.bindings.get(id)?;
    let uses = resolution
        .uses
        .iter()
        .filter(|u| u.target == Target::Binding(id))
        .map(|u| Span::of(u.file, u.var.root_span))
        .collect();
    Some((
        Kind::Binding,
        b.name.to_string(),
        Some(unquoted(at, b.name_span)),
        uses,
    ))
}

/// The function an `invoke` call names (its first argument, a string literal) and the name's
/// span inside the quotes.
fn invoked(call: &Expr, file: FileId) -> Option<(String, Span)> {
    let ExprKind::Call { args, .. } = &call.kind else {
        return None;
    };
    let first = args.first()?;
    let (value, range) = first.plain_string()?;
    let mut span = Span::of(file, &range);
    if first.span.start == span.start {
        // A bare literal's range holds the quotes (a template's literal part does not).
        span.start += 1;
        span.end = span.end.saturating_sub(1).max(span.start);
    }
    Some((value.to_string(), span))
}

/// Every `invoke("NAME", …)` of the program: the name and its span (inside the quotes).
pub fn invokes(resolution: &Resolution) -> Vec<(String, Span)> {
    let mut out = Vec::new();
    for site in &resolution.exprs {
        let mut calls = Vec::new();
        invoke_calls(&site.expr.expr, &mut calls);
        out.extend(calls.into_iter().filter_map(|c| invoked(c, site.expr.file)));
    }
    out.sort_by_key(|(_, s)| *s);
    out.dedup();
    out
}

fn function(at: &At, program: &Program, resolution: &Resolution) -> Option<Found> {
    let calls = invokes(resolution);
    let name = program
        .functions
        .iter()
        .find(|f| covers(at, Span::of(f.origin.file, &f.name.span)))
        .map(|f| f.name.value.clone())
        .or_else(|| {
            calls
                .iter()
                .find(|(_, span)| covers(at, *span))
                .map(|(n, _)| n.clone())
        })?;
    let definition = program
        .functions
        .iter()
        .find(|f| f.name.value == name)
        .map(|f| unquoted(at, Span::of(f.origin.file, &f.name.span)));
    let uses = calls
        .into_iter()
        .filter(|(n, _)| *n == name)
        .map(|(_, s)| s)
        .collect();
    Some((Kind::Function, name, definition, uses))
}

/// The resource and collection labels of a body, nested groups included.
pub fn resource_labels(body: &GroupBody, out: &mut Vec<(String, Span, bool)>) {
    for child in &body.children {
        match child {
            Child::Resource(r) => out.push((
                r.name.value.clone(),
                Span::of(r.origin.file, &r.name.span),
                false,
            )),
            Child::Resources(c) => out.push((
                c.name.value.clone(),
                Span::of(c.origin.file, &c.name.span),
                true,
            )),
            Child::Group(g) => resource_labels(&g.body, out),
            _ => {}
        }
    }
}

/// Every `req.resource.NAME` (and `connection`, `resources`, `connections`): the name, its
/// span and whether it names a collection.
pub fn resource_uses(at: &At, resolution: &Resolution) -> Vec<(String, Span, bool)> {
    let mut out = Vec::new();
    for u in &resolution.uses {
        if u.target != Target::Req {
            continue;
        }
        let [Step::Attr { name: member, .. }, second, ..] = u.var.steps else {
            continue;
        };
        let collection = match member.as_str() {
            "resource" | "connection" => false,
            "resources" | "connections" => true,
            _ => continue,
        };
        let (name, span) = match second {
            Step::Attr { name, span } => (name.clone(), Span::of(u.file, span)),
            Step::Index {
                key: Literal::String(name),
                span,
            } => (name.clone(), Span::of(u.file, span)),
            Step::Index { .. } => continue,
        };
        // `.name` and `["name"]`: the name alone.
        let text = at.comp.text(span.file);
        let written = &text[span.start as usize..span.end as usize];
        let inner = match written.find(name.as_str()) {
            Some(i) if !name.is_empty() => Span {
                file: span.file,
                start: span.start + i as u32,
                end: span.start + (i + name.len()) as u32,
            },
            _ => span,
        };
        out.push((name, inner, collection));
    }
    out
}

fn resource(at: &At, program: &Program, resolution: &Resolution) -> Option<Found> {
    let mut labels = Vec::new();
    resource_labels(&program.top, &mut labels);
    let uses = resource_uses(at, resolution);
    let (name, collection) = labels
        .iter()
        .find(|(_, span, _)| covers(at, *span))
        .map(|(n, _, c)| (n.clone(), *c))
        .or_else(|| {
            uses.iter()
                .find(|(_, span, _)| covers(at, *span))
                .map(|(n, _, c)| (n.clone(), *c))
        })?;
    let definition = labels
        .iter()
        .find(|(n, _, c)| *n == name && *c == collection)
        .map(|(_, s, _)| unquoted(at, *s));
    let uses = uses
        .into_iter()
        .filter(|(n, _, c)| *n == name && *c == collection)
        .map(|(_, s, _)| s)
        .collect();
    Some((Kind::Resource, name, definition, uses))
}

/// The definition and uses of the name at the cursor in this file.
pub fn highlights(at: &At) -> Option<Vec<(std::ops::Range<usize>, HighlightKind)>> {
    let found = places(at)?;
    let (definition, uses) = found.spans;
    let out = definition
        .into_iter()
        .map(|s| (s, HighlightKind::Write))
        .chain(uses.into_iter().map(|s| (s, HighlightKind::Read)))
        .filter(|(span, _)| span.file == at.file)
        .map(|(span, kind)| (span.start as usize..span.end as usize, kind))
        .collect();
    Some(out)
}

/// The range of the name to rename and the name itself, or `None` when nothing renamable is
/// at the cursor.
pub fn prepare_rename(at: &At) -> Option<(std::ops::Range<usize>, String)> {
    let found = places(at)?;
    let (definition, uses) = &found.spans;
    let span = definition
        .iter()
        .chain(uses.iter())
        .find(|s| covers(at, **s))?;
    Some((span.start as usize..span.end as usize, found.name))
}

/// Every definition and use renamed, grouped by file; `None` when nothing renamable is at the
/// cursor, the reason when the new name would change what the program means (see
/// [`refusal`]).
pub fn rename(at: &At, new_name: &str) -> Option<Result<SourceChange, String>> {
    let found = places(at)?;
    if let Some(reason) = refusal(at, &found, new_name) {
        return Some(Err(reason));
    }
    let mut changes: SourceChange = Vec::new();
    for place in found.definition.into_iter().chain(found.uses) {
        let edit = TextEdit {
            range: place.range,
            new_text: new_name.to_string(),
        };
        match changes.iter_mut().find(|(path, _)| *path == place.path) {
            Some((_, edits)) => edits.push(edit),
            None => changes.push((place.path, vec![edit])),
        }
    }
    Some(Ok(changes))
}

/// Why `found` may not be renamed to `new_name`: not an identifier; for a user function, or a
/// resource or collection, a name another one of its kind has; for a local or an argument,
/// a name that references could not reach it by (HCL's keywords `for`, `in`, `if` and literals
/// `true`, `false`, `null`),
/// function-hcl's own variables (`req`, `self`, `each`: shadowing them is rejected), or a name
/// already bound where it is defined or read (a duplicate, a shadowing, or a `for` variable
/// that would capture a reference).
pub fn refusal(at: &At, found: &Places, new_name: &str) -> Option<String> {
    if !crate::syntax::schema::is_identifier(new_name) {
        return Some(format!(
            "`{new_name}` is not a valid name: a letter or `_`, then letters, digits, `_` or `-`"
        ));
    }
    if new_name == found.name {
        return None;
    }
    match found.kind {
        Kind::Binding => {}
        Kind::Function => return function_collision(at, &found.name, new_name),
        Kind::Resource => return resource_collision(at, found, new_name),
    }
    if matches!(new_name, "for" | "in" | "if") {
        return Some(format!(
            "`{new_name}` is a keyword of HCL's `for` expressions (`[for k, v in xs : v if c]`): \
             a variable of that name would be read as the keyword there"
        ));
    }
    if matches!(new_name, "true" | "false" | "null") {
        return Some(format!(
            "`{new_name}` is an HCL literal: a reference named `{new_name}` reads the literal, \
             not the local"
        ));
    }
    if matches!(new_name, "req" | "self" | "each") {
        return Some(format!(
            "`{new_name}` is a function-hcl variable: function-hcl rejects a local or argument \
             that shadows it (`attempt to shadow variable`)"
        ));
    }
    let program = at.comp.program();
    let resolution = Resolution::of(&program.top, &program.functions);
    let definition = found.spans.0?;
    let id = resolution
        .bindings
        .iter()
        .position(|b| unquoted(at, b.name_span) == definition)?;
    let scope = resolution.bindings[id].scope;
    if resolution.defines(scope, new_name) {
        return Some(format!(
            "`{new_name}` is already a variable where `{}` is defined: the two would collide",
            found.name
        ));
    }
    let shadowed = resolution.bindings.iter().any(|b| {
        b.name == new_name && b.scope != scope && resolution.chain(b.scope).any(|s| s == scope)
    });
    if shadowed {
        return Some(format!(
            "a block inside defines `{new_name}`: it would shadow the renamed `{}`, which \
             function-hcl rejects",
            found.name
        ));
    }
    let captured = resolution
        .uses
        .iter()
        .filter(|u| u.target == Target::Binding(id))
        .any(|u| {
            resolution.exprs.iter().any(|site| {
                site.expr.file == u.file && for_captures(&site.expr.expr, new_name, u.var.root_span)
            })
        });
    if captured {
        return Some(format!(
            "a `for` expression's variable `{new_name}` would capture a reference to `{}`",
            found.name
        ));
    }
    None
}

/// Why a user function may not be renamed to `new_name`: another one has that name.
fn function_collision(at: &At, name: &str, new_name: &str) -> Option<String> {
    at.comp
        .program()
        .functions
        .iter()
        .any(|f| f.name.value == new_name)
        .then(|| {
            format!(
                "a user function `{new_name}` exists already: `invoke(\"{new_name}\", …)` could \
                 not tell it from the renamed `{name}`"
            )
        })
}

/// Why a resource or collection may not be renamed to `new_name`: another one of its kind has
/// that name, anywhere in the composition (function-hcl rejects the duplicate, B107).
fn resource_collision(at: &At, found: &Places, new_name: &str) -> Option<String> {
    let mut labels = Vec::new();
    resource_labels(&at.comp.program().top, &mut labels);
    let definition = found.spans.0?;
    let collection = labels
        .iter()
        .find(|(_, span, _)| unquoted(at, *span) == definition)
        .map(|(_, _, c)| *c)?;
    let what = if collection {
        "resource collection"
    } else {
        "resource"
    };
    labels
        .iter()
        .any(|(n, _, c)| n == new_name && *c == collection)
        .then(|| {
            format!(
                "a {what} `{new_name}` exists already: function-hcl rejects a {what} defined \
                 more than once"
            )
        })
}

/// Whether a `for` expression binding `name` encloses `range` in its key, value or condition
/// (where its variables are in scope).
fn for_captures(expr: &Expr, name: &str, range: &TextRange) -> bool {
    if let ExprKind::For(f) = &expr.kind
        && (f.value_var == name || f.key_var.as_deref() == Some(name))
        && [f.key.as_deref(), Some(&f.value), f.condition.as_deref()]
            .into_iter()
            .flatten()
            .any(|e| e.span.start <= range.start && range.end <= e.span.end)
    {
        return true;
    }
    if !(expr.span.start <= range.start && range.end <= expr.span.end) {
        return false;
    }
    let mut found = false;
    expr.for_each_child(|child| found = found || for_captures(child, name, range));
    found
}
