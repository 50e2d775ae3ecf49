//! Differential test: every `.hcl` file we have is parsed by our parser and by hcl-edit (the
//! card's HCL crate) and the structures are compared — attribute names, block types and labels,
//! and expression kinds (recursively through arrays, objects, parentheses and conditionals).
//! The two parsers keep each other honest. Known hcl-edit divergences are listed in
//! `EXCEPTIONS` with the reason.

use hcl_edit::expr::Expression as E;
use hcl_edit::structure::{BlockLabel, Structure};
use std::path::{Path, PathBuf};

/// Files hcl-edit cannot parse although Go's hclsyntax (and we) accept them, by file name
/// suffix, with the reason (see ../shared/design/rust-stack.md §1).
const EXCEPTIONS: &[(&str, &str)] = &[
    (
        "cloudposse__terraform-null-label__main.tf",
        "hcl-edit rejects a line break inside a conditional that is the value of an object `for` (line 82); Go HCL accepts it (no newlines are significant inside brackets)",
    ),
    (
        "kube-hetzner__terraform-hcloud-kube-hetzner__locals.tf",
        "hcl-edit rejects a conditional whose `:` starts the line after a heredoc's closing marker (line 694); Go HCL accepts it",
    ),
    (
        "check/nesting-too-deep-clean/main.hcl",
        "900 nested lists: hcl-edit allows at most 64 levels of nesting; Go HCL has no limit (fnhcl's is 1,000)",
    ),
];

fn files() -> Vec<PathBuf> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut roots = vec![root.join("tests/fixtures"), root.join("examples")];
    let shared = root.join("../shared/conformance");
    if shared.is_dir() {
        roots.push(shared);
    }
    let mut out = Vec::new();
    for r in roots {
        for entry in walkdir::WalkDir::new(r)
            .sort_by_file_name()
            .into_iter()
            .filter_map(Result::ok)
        {
            let name = entry.file_name().to_string_lossy().to_string();
            if entry.file_type().is_file() && (name.ends_with(".hcl") || name.ends_with(".tf")) {
                out.push(entry.into_path());
            }
        }
    }
    out
}

/// A structural outline: one line per attribute/block/expression node.
fn ours(text: &str) -> Option<Vec<String>> {
    let mut map = fnhcl::source::SourceMap::new();
    let id = map.add("x.hcl", text);
    let parsed = fnhcl::syntax::parse_file(map.get(id));
    if parsed.has_errors() {
        return None;
    }
    let mut out = Vec::new();
    our_body(&parsed.body, text, 0, &mut out);
    Some(out)
}

fn our_body(body: &fnhcl::syntax::ast::Body, text: &str, depth: usize, out: &mut Vec<String>) {
    // hcl-edit keeps attributes and blocks interleaved in source order; compare in that order.
    let mut items: Vec<(
        u32,
        Result<&fnhcl::syntax::ast::Attribute, &fnhcl::syntax::ast::Block>,
    )> = Vec::new();
    items.extend(body.attributes.iter().map(|a| (a.span.start, Ok(a))));
    items.extend(body.blocks.iter().map(|b| (b.kind_span.start, Err(b))));
    items.sort_by_key(|(start, _)| *start);
    for (_, item) in items {
        match item {
            Ok(attr) => {
                out.push(format!("{depth} attr {}", attr.name));
                our_expr(&attr.expr, text, depth + 1, out);
            }
            Err(block) => {
                let labels: Vec<&str> = block.labels.iter().map(|l| l.value.as_str()).collect();
                out.push(format!("{depth} block {} {:?}", block.kind, labels));
                our_body(&block.body, text, depth + 1, out);
            }
        }
    }
}

fn our_expr(expr: &fnhcl::syntax::ast::Expr, text: &str, depth: usize, out: &mut Vec<String>) {
    use fnhcl::syntax::ast::{ExprKind as K, Literal as L};
    let kind = match &expr.kind {
        // hcl-edit folds `-1` into a negative number; Go HCL (and we) keep a unary negation.
        K::Unary {
            op: fnhcl::syntax::ast::UnaryOp::Negate,
            operand,
            ..
        } if matches!(operand.kind, K::Literal(L::Number(_))) => "number",
        K::Literal(L::Null) => "null",
        K::Literal(L::Bool(_)) => "bool",
        K::Literal(L::Number(_)) => "number",
        K::Literal(_) => "literal",
        K::Template(parts) => {
            let source = &text[expr.span.start as usize..expr.span.end as usize];
            if source.starts_with("<<") {
                "heredoc"
            } else if matches!(parts.as_slice(), [e] if matches!(e.kind, K::Literal(L::String(_))))
            {
                "string"
            } else {
                "template"
            }
        }
        K::QuotedLiteral(_) => "string",
        K::TemplateWrap(_) => "template",
        K::TemplateJoin(_) => "template",
        K::Traversal { steps, .. } if steps.is_empty() => "variable",
        K::Traversal { .. } | K::RelativeTraversal { .. } | K::Index { .. } | K::Splat { .. } => {
            "traversal"
        }
        K::Call { .. } => "call",
        K::Conditional { .. } => "conditional",
        K::Binary { .. } => "binary",
        K::Unary { .. } => "unary",
        K::Tuple(_) => "array",
        K::Object(_) => "object",
        K::For(_) => "for",
        K::Parens(_) => "parens",
        K::SplatItem | K::Error => "other",
    };
    out.push(format!("{depth} {kind}"));
    match &expr.kind {
        K::Tuple(items) => items.iter().for_each(|e| our_expr(e, text, depth + 1, out)),
        K::Object(items) => items
            .iter()
            .for_each(|i| our_expr(&i.value, text, depth + 1, out)),
        K::Parens(inner) => our_expr(inner, text, depth + 1, out),
        K::Conditional {
            condition,
            if_true,
            if_false,
        } => {
            for e in [condition, if_true, if_false] {
                our_expr(e, text, depth + 1, out);
            }
        }
        _ => {}
    }
}

fn theirs(text: &str) -> Result<Vec<String>, String> {
    let body = hcl_edit::parser::parse_body(text).map_err(|e| e.to_string())?;
    let mut out = Vec::new();
    their_body(&body, 0, &mut out);
    Ok(out)
}

fn their_body(body: &hcl_edit::structure::Body, depth: usize, out: &mut Vec<String>) {
    for structure in body.iter() {
        match structure {
            Structure::Attribute(attr) => {
                out.push(format!("{depth} attr {}", attr.key.as_str()));
                their_expr(&attr.value, depth + 1, out);
            }
            Structure::Block(block) => {
                let labels: Vec<String> = block
                    .labels
                    .iter()
                    .map(|l| match l {
                        BlockLabel::Ident(i) => i.as_str().to_string(),
                        BlockLabel::String(s) => s.as_str().to_string(),
                    })
                    .collect();
                out.push(format!(
                    "{depth} block {} {:?}",
                    block.ident.as_str(),
                    labels
                ));
                their_body(&block.body, depth + 1, out);
            }
        }
    }
}

fn their_expr(expr: &E, depth: usize, out: &mut Vec<String>) {
    let kind = match expr {
        E::Null(_) => "null",
        E::Bool(_) => "bool",
        E::Number(_) => "number",
        E::String(_) => "string",
        E::StringTemplate(_) => "template",
        E::HeredocTemplate(_) => "heredoc",
        E::Variable(_) => "variable",
        E::Traversal(_) => "traversal",
        E::FuncCall(_) => "call",
        E::Conditional(_) => "conditional",
        E::BinaryOp(_) => "binary",
        E::UnaryOp(_) => "unary",
        E::Array(_) => "array",
        E::Object(_) => "object",
        E::ForExpr(_) => "for",
        E::Parenthesis(_) => "parens",
    };
    out.push(format!("{depth} {kind}"));
    match expr {
        E::Array(items) => items.iter().for_each(|e| their_expr(e, depth + 1, out)),
        E::Object(items) => items
            .iter()
            .for_each(|(_, v)| their_expr(v.expr(), depth + 1, out)),
        E::Parenthesis(inner) => their_expr(inner.inner(), depth + 1, out),
        E::Conditional(c) => {
            for e in [&c.cond_expr, &c.true_expr, &c.false_expr] {
                their_expr(e, depth + 1, out);
            }
        }
        _ => {}
    }
}

fn exception(path: &Path) -> Option<&'static str> {
    let name = path.to_string_lossy();
    EXCEPTIONS
        .iter()
        .find(|(suffix, _)| name.ends_with(suffix))
        .map(|(_, why)| *why)
}

#[test]
fn our_parser_and_hcl_edit_agree_on_structure() {
    let mut compared = 0;
    let mut problems = Vec::new();
    for path in files() {
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        let Some(ours) = ours(&text) else { continue };
        match (theirs(&text), exception(&path)) {
            (Ok(theirs), None) => {
                compared += 1;
                if ours != theirs {
                    let at = ours.iter().zip(&theirs).position(|(a, b)| a != b).unwrap_or(ours.len().min(theirs.len()));
                    problems.push(format!(
                        "{}: structures differ at item {at}: ours {:?} vs hcl-edit {:?}",
                        path.display(),
                        ours.get(at),
                        theirs.get(at)
                    ));
                }
            }
            (Ok(_), Some(why)) => problems.push(format!(
                "{}: listed as an hcl-edit exception ({why}) but hcl-edit parses it now; remove the entry",
                path.display()
            )),
            (Err(e), None) => problems.push(format!("{}: hcl-edit fails but we parse it: {e}", path.display())),
            (Err(_), Some(_)) => {}
        }
    }
    assert!(compared > 0, "no files compared");
    assert!(
        problems.is_empty(),
        "{} problems:\n{}",
        problems.len(),
        problems.join("\n")
    );
}
