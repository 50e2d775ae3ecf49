//! Hover and signature help.
//!
//! Hover shows, by what is under the cursor: a body field's schema ([`super::body`]); a field
//! of the XR read through `req.composite` or an alias of it ([`super::composite`]); a
//! built-in function's signature and description; a user function's signature with its
//! arguments' descriptions and defaults; a local's or argument's definition and how often it
//! is used; a resource's or collection's header and kind; a block type's or attribute's
//! documentation; and with an example XR configured, the value ([`super::live`]).

use super::At;
use super::cursor::word_at;
use super::docs;
use super::navigate::{self, Kind};
use super::types::{HoverInfo, SignatureHelp};
use crate::source::Span;
use crate::syntax::model::{Function, Program};

/// Hover at the cursor.
pub fn hover(at: &At) -> Option<HoverInfo> {
    if let Some(found) = super::body::hover(at) {
        return Some(found);
    }
    if let Some(found) = super::composite::hover(at) {
        return Some(found);
    }
    let text = at.text();
    let (start, end) = word_at(text, at.offset);
    let word = &text[start..end];
    let called = text[end..].trim_start().starts_with('(');
    let mut sections = Vec::new();
    let places = if called { None } else { navigate::places(at) };
    if called && word == "invoke" {
        sections.push(format!(
            "```hcl\ninvoke(name string, args object)\n```\n{}",
            docs::function_doc("invoke").unwrap_or_default()
        ));
    } else if called {
        sections.extend(builtin(word));
    } else if let Some(places) = &places {
        sections.extend(defined(at, at.comp.program(), places));
    } else if let Some(doc) = keyword(at, start, end) {
        sections.push(doc);
    }
    match super::live::hover(at) {
        Some(live) => sections.push(live),
        None => sections.extend(places.as_ref().and_then(|p| inferred(at, p))),
    }
    if sections.is_empty() {
        return None;
    }
    Some(HoverInfo {
        markdown: sections.join("\n\n---\n\n"),
        range: start..end,
    })
}

/// Without an example: what a local at the cursor evaluates to when every input is unknown —
/// its value when it does not depend on the request, else its type.
fn inferred(at: &At, places: &navigate::Places) -> Option<String> {
    if places.kind != Kind::Binding {
        return None;
    }
    let definition = places.spans.0?;
    let values = at.comp.local_values();
    let seen: Vec<&crate::eval::value::Value> = values
        .iter()
        .filter(|(span, _)| span.file == definition.file && span.start == definition.start)
        .map(|(_, v)| v)
        .collect();
    let first = *seen.first()?;
    let shown = super::live::fenced_hcl(first, 30);
    if seen.iter().all(|v| v.is_wholly_known())
        && seen.iter().all(|v| super::live::fenced_hcl(v, 30) == shown)
    {
        return Some(format!("**Value** (the same for every request):\n{shown}"));
    }
    let types: Vec<String> = seen.iter().map(|v| v.ty().friendly_name()).collect();
    let ty = if types.iter().all(|t| *t == types[0]) {
        types[0].clone()
    } else {
        "dynamic".into()
    };
    Some(format!(
        "**Type:** `{ty}` (inferred; configure an `[example]` in `.fnhcl.toml` for values)"
    ))
}

/// A built-in function's signature and description.
fn builtin(name: &str) -> Option<String> {
    let signature = docs::signature_text(name)?;
    let doc = docs::function_doc(name).unwrap_or("A Terraform 1.5.7 built-in function.");
    Some(format!("```hcl\n{signature}\n```\n{doc}"))
}

/// The line of `span`, trimmed.
fn line_of(at: &At, span: Span) -> String {
    let text = at.comp.text(span.file);
    let start = text[..span.start as usize].rfind('\n').map_or(0, |i| i + 1);
    text[start..]
        .lines()
        .next()
        .unwrap_or_default()
        .trim()
        .to_string()
}

/// The constant string an expression holds (descriptions).
fn constant_text(at: &At, expr: &crate::syntax::model::FileExpr) -> String {
    let text = at.comp.text(expr.file);
    let written = &text[expr.expr.span.start as usize..expr.expr.span.end as usize];
    written.trim_matches('"').to_string()
}

/// A user function's signature, description and arguments.
fn function_doc(at: &At, f: &Function) -> String {
    let args: Vec<&str> = f.args.iter().map(|a| a.name.value.as_str()).collect();
    let mut out = format!(
        "```hcl\nfunction {}({})\n```\nUser function, called as `invoke(\"{}\", {{ … }})`.",
        f.name.value,
        args.join(", "),
        f.name.value
    );
    if let Some(description) = &f.description {
        out.push_str(&format!("\n\n{}", constant_text(at, description)));
    }
    if !f.args.is_empty() {
        out.push_str("\n\nArguments:");
        for a in &f.args {
            out.push_str(&format!("\n- `{}`", a.name.value));
            if let Some(description) = &a.description {
                out.push_str(&format!(": {}", constant_text(at, description)));
            }
            match &a.default {
                Some(default) => {
                    let text = at.comp.text(default.file);
                    let written =
                        &text[default.expr.span.start as usize..default.expr.span.end as usize];
                    out.push_str(&format!(" (default `{written}`)"));
                }
                None => out.push_str(" (required)"),
            }
        }
    }
    out
}

/// What a defined name is: its definition and uses.
fn defined(at: &At, program: &Program, places: &navigate::Places) -> Option<String> {
    let uses = places.uses.len();
    let used = match uses {
        0 => "not used".to_string(),
        1 => "1 reference".to_string(),
        n => format!("{n} references"),
    };
    match places.kind {
        Kind::Function => {
            let f = program
                .functions
                .iter()
                .find(|f| f.name.value == places.name)?;
            Some(format!("{}\n\n{used}", function_doc(at, f)))
        }
        Kind::Binding | Kind::Resource => {
            let definition = places.spans.0?;
            Some(format!("```hcl\n{}\n```\n{used}", line_of(at, definition)))
        }
    }
}

/// The documentation of the block type or attribute name at `start..end`.
fn keyword(at: &At, start: usize, end: usize) -> Option<String> {
    let parsed = at.comp.syntax(at.file);
    let (kind, body) = super::cursor::innermost_block(parsed, start);
    let word = &at.text()[start..end];
    if let Some(block) = body
        .blocks
        .iter()
        .find(|b| b.kind_span.start as usize <= start && end <= b.kind_span.end as usize)
    {
        return docs::block_doc(&block.kind).map(|d| format!("**{}** block\n\n{d}", block.kind));
    }
    if body
        .attributes
        .iter()
        .any(|a| a.name_span.start as usize <= start && end <= a.name_span.end as usize)
    {
        return docs::attribute_doc(kind.as_deref(), word).map(|d| format!("`{word}`\n\n{d}"));
    }
    None
}

/// Signature help inside a call's parentheses: the function, its parameters and which one
/// the cursor is at.
pub fn signature_help(at: &At) -> Option<SignatureHelp> {
    let text = at.text();
    let (name, active) = enclosing_call(&text[..at.offset])?;
    let (label, params, doc): (String, Vec<String>, Option<String>) = if name == "invoke" {
        (
            "invoke(name string, args object)".into(),
            vec!["name string".into(), "args object".into()],
            docs::function_doc("invoke").map(str::to_string),
        )
    } else {
        let table = super::builtins();
        let f = table.get(&name)?;
        let params = docs::parameters(f);
        (
            format!("{}({})", f.name, params.join(", ")),
            params,
            docs::function_doc(&name).map(str::to_string),
        )
    };
    let variadic = label.contains("...");
    let last = params.len().saturating_sub(1);
    let active = if variadic { active.min(last) } else { active };
    Some(SignatureHelp {
        label,
        documentation: doc,
        parameters: params,
        active,
    })
}

/// The innermost call whose `(` is open at the end of `before`: its name and the index of
/// the argument being written. Strings and nested brackets are skipped.
fn enclosing_call(before: &str) -> Option<(String, usize)> {
    // Forward scan keeping a stack of open brackets and, per `(`, the commas seen.
    let mut stack: Vec<(char, usize, usize)> = Vec::new(); // (bracket, position, commas)
    let mut in_string = false;
    let mut escaped = false;
    let mut interpolation: Vec<usize> = Vec::new();
    let bytes: Vec<(usize, char)> = before.char_indices().collect();
    let mut i = 0;
    while i < bytes.len() {
        let (at, c) = bytes[i];
        if in_string {
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                in_string = false;
            } else if c == '$' && bytes.get(i + 1).map(|b| b.1) == Some('{') {
                in_string = false;
                interpolation.push(stack.len());
                stack.push(('{', at, 0));
                i += 1;
            }
        } else {
            match c {
                '"' => in_string = true,
                '(' | '[' | '{' => stack.push((c, at, 0)),
                ')' | ']' => {
                    stack.pop();
                }
                '}' => {
                    stack.pop();
                    if interpolation.last() == Some(&stack.len()) {
                        interpolation.pop();
                        in_string = true;
                    }
                }
                ',' => {
                    if let Some(top) = stack.last_mut() {
                        top.2 += 1;
                    }
                }
                '#' => {
                    // A comment to the end of the line.
                    while i < bytes.len() && bytes[i].1 != '\n' {
                        i += 1;
                    }
                }
                _ => {}
            }
        }
        i += 1;
    }
    let &(_, open, commas) = stack.iter().rev().find(|(c, _, _)| *c == '(')?;
    let head = before[..open].trim_end();
    let name_start = head
        .char_indices()
        .rev()
        .take_while(|(_, c)| c.is_alphanumeric() || *c == '_' || *c == ':')
        .last()
        .map(|(i, _)| i)?;
    let name = &head[name_start..];
    // The innermost `(` must be a call's, not a grouping.
    if name.is_empty() || name.starts_with(|c: char| c.is_ascii_digit()) {
        return None;
    }
    Some((name.to_string(), commas))
}

#[cfg(test)]
mod tests {
    use super::enclosing_call;

    #[test]
    fn the_enclosing_call_and_argument() {
        assert_eq!(enclosing_call("x = upper("), Some(("upper".into(), 0)));
        assert_eq!(
            enclosing_call("x = format(\"%s, %s\", a, lower(b), "),
            Some(("format".into(), 3))
        );
        assert_eq!(
            enclosing_call("x = join(\",\", [a, b"),
            Some(("join".into(), 1))
        );
        // Commas of the object and of the interpolated call are not `lookup`'s.
        assert_eq!(
            enclosing_call("x = lookup({ a = 1, b = 2 }, \"${k(1, 2)}"),
            Some(("lookup".into(), 1))
        );
        assert_eq!(enclosing_call("x = upper(a) + "), None);
        assert_eq!(enclosing_call("x = (a + "), None);
    }
}
