//! Templates (expression_template.go); the known prefix of a partly unknown template comes
//! from `eval::prefix`.

use super::{Diags, Run, has_errors};
use crate::eval::convert;
use crate::eval::prefix::safe_known_prefix;
use crate::eval::scope::Scope;
use crate::eval::types::Type;
use crate::eval::value::{Refinement, Value};
use crate::syntax::ast::{Expr, ExprKind, Literal, TextRange};

impl Run<'_> {
    /// A quoted string of plain text ([`ExprKind::QuotedLiteral`]): what the template of that
    /// one literal part gives. (`Run::eval` answers the usual case, text no longer than a
    /// string may be, before it comes here.)
    pub(super) fn quoted_literal(
        &mut self,
        expr: &Expr,
        text: &str,
        scope: &Scope,
    ) -> (Value, Diags) {
        let part = Expr {
            kind: ExprKind::Literal(Literal::String(text.to_string())),
            span: expr.quoted_text_span(),
        };
        self.template(std::slice::from_ref(&part), scope)
    }

    /// The text of a template that is one literal part (most are), no longer than a string
    /// may be, counted against the evaluation's budget at the part `at`: nothing to convert
    /// or join. `None` for a longer one, which the template's diagnostics are about.
    pub(super) fn literal_text(&mut self, text: &str, at: &TextRange) -> Option<Value> {
        let value = Value::string(text);
        if let Value::String(s) = &value
            && s.len() <= crate::eval::budget::MAX_STRING_BYTES
        {
            crate::eval::budget::strings(s.len(), Some(self.span(at)));
            return Some(value);
        }
        None
    }

    pub(super) fn template(&mut self, parts: &[Expr], scope: &Scope) -> (Value, Diags) {
        if let [part] = parts
            && let ExprKind::Literal(Literal::String(text)) = &part.kind
            && let Some(value) = self.literal_text(text, &part.span)
        {
            return (value, Vec::new());
        }
        // The parts' texts, joined once at the end into a string of exactly their length
        // (growing one string part by part kept up to twice the result allocated). The first
        // is kept apart: a template of one part (most are a single literal) is its text.
        let mut first: Option<String> = None;
        let mut pieces: Vec<String> = Vec::new();
        let mut total = 0usize;
        let mut diags = Vec::new();
        let mut is_known = true;
        for part in parts {
            let (val, part_diags) = self.eval(part, scope);
            diags.extend(part_diags);
            if val.is_null() {
                diags.push(self.diag_expr(
                    "Invalid template interpolation value",
                    "The expression result is null. Cannot include a null value in a string template.",
                    &part.span,
                ));
                continue;
            }
            if !val.is_known() {
                is_known = false;
                continue;
            }
            match convert::convert_owned(val, &Type::String) {
                Ok(s) => {
                    if is_known
                        && !has_errors(&diags)
                        && let Value::String(s) = s
                    {
                        let len = total + s.len();
                        if len > crate::eval::budget::MAX_STRING_BYTES {
                            diags.push(self.diag_expr(
                                "Template too long",
                                format!(
                                    "The template's {}.",
                                    crate::eval::budget::string_too_long(len)
                                ),
                                &part.span,
                            ));
                            continue;
                        }
                        crate::eval::budget::strings(s.len(), Some(self.span(&part.span)));
                        total = len;
                        if first.is_none() {
                            first = Some(s.into_string());
                        } else {
                            pieces.push(s.into_string());
                        }
                    }
                }
                Err(err) => diags.push(self.diag_expr(
                    "Invalid template interpolation value",
                    format!("Cannot include the given value in a string template: {err}."),
                    &part.span,
                )),
            }
        }
        let buf = match first {
            Some(only) if pieces.is_empty() => only,
            first => {
                let mut buf = String::with_capacity(total);
                for piece in first.into_iter().chain(pieces) {
                    buf.push_str(&piece);
                }
                buf
            }
        };
        if is_known {
            return (Value::string_owned(buf), diags);
        }
        let mut refinement = Refinement {
            not_null: true,
            string_prefix: None,
        };
        if !has_errors(&diags) && !buf.is_empty() {
            let prefix = safe_known_prefix(&buf, 128);
            if !prefix.is_empty() {
                refinement.string_prefix = Some(prefix);
            }
        }
        (Value::Unknown(Type::String, refinement), diags)
    }

    pub(super) fn template_join(
        &mut self,
        expr: &Expr,
        inner: &Expr,
        scope: &Scope,
    ) -> (Value, Diags) {
        let (tuple, mut diags) = self.eval(inner, scope);
        if tuple.has_dynamic_type() || !tuple.is_known() || !matches!(tuple, Value::Tuple(_)) {
            return (Value::unknown(Type::String), diags);
        }
        let mut buf = String::new();
        for val in tuple.elements() {
            crate::eval::deadline::checkpoint();
            if val.is_null() {
                diags.push(self.diag(
                    "Invalid template interpolation value",
                    "An iteration result is null. Cannot include a null value in a string template.",
                    &expr.span,
                ));
                continue;
            }
            if val.has_dynamic_type() {
                return (Value::unknown(Type::String), diags);
            }
            let s = match convert::convert(val, &Type::String) {
                Ok(s) => s,
                Err(err) => {
                    diags.push(self.diag(
                        "Invalid template interpolation value",
                        format!("Cannot include one of the interpolation results into the string template: {err}."),
                        &expr.span,
                    ));
                    continue;
                }
            };
            if !val.is_known() {
                return (Value::unknown(Type::String), diags);
            }
            if let Value::String(s) = &s {
                buf.push_str(s);
            }
        }
        (Value::string_owned(buf), diags)
    }
}
