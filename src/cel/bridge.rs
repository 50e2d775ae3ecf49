//! TEMPORARY: parses with the `cel` crate and converts its tree into [`super::ast`], so the
//! checker, interpreter and libraries can be built and tested before `cel::parser` lands.
//! Delete with the `cel` dependency once the parser is in.

use super::ast::{Ast, Comprehension, Entry, Expr, ExprKind, Literal, SourceInfo};
use cel::common::ast as c;

/// Parses `text` (standard syntax, optional syntax on).
pub fn parse(text: &str) -> Result<Ast, String> {
    let parsed = cel::parser::Parser::new()
        .enable_optional_syntax(true)
        .parse(text)
        .map_err(|e| e.to_string())?;
    Ok(Ast {
        expr: convert(&parsed),
        source: SourceInfo {
            text: text.into(),
            ..SourceInfo::default()
        },
    })
}

fn convert(e: &c::IdedExpr) -> Expr {
    let id = e.id as i64;
    let kind = match &e.expr {
        c::Expr::Unspecified => ExprKind::Literal(Literal::Null),
        c::Expr::Literal(l) => ExprKind::Literal(match l {
            c::LiteralValue::Boolean(b) => Literal::Bool(*b.inner()),
            c::LiteralValue::Bytes(b) => Literal::Bytes(b.inner().to_vec().into()),
            c::LiteralValue::Double(d) => Literal::Double(*d.inner()),
            c::LiteralValue::Int(i) => Literal::Int(*i.inner()),
            c::LiteralValue::Null => Literal::Null,
            c::LiteralValue::String(s) => Literal::String(s.inner().into()),
            c::LiteralValue::UInt(u) => Literal::Uint(*u.inner()),
        }),
        c::Expr::Ident(name) => ExprKind::Ident(name.clone()),
        c::Expr::Select(s) => ExprKind::Select {
            operand: Box::new(convert(&s.operand)),
            field: s.field.clone(),
            test_only: s.test,
        },
        c::Expr::Call(call) => ExprKind::Call {
            target: call.target.as_ref().map(|t| Box::new(convert(t))),
            function: call.func_name.clone(),
            args: call.args.iter().map(convert).collect(),
        },
        c::Expr::List(l) => ExprKind::List {
            elements: l.elements.iter().map(convert).collect(),
            optional_indices: l.optional_indices.clone(),
        },
        c::Expr::Map(m) => ExprKind::Map {
            entries: m.entries.iter().map(entry).collect(),
        },
        c::Expr::Struct(s) => ExprKind::Struct {
            type_name: s.type_name.clone(),
            fields: s.entries.iter().map(entry).collect(),
        },
        c::Expr::Comprehension(k) => ExprKind::Comprehension(Box::new(Comprehension {
            iter_var: k.iter_var.clone(),
            iter_var2: k.iter_var2.clone(),
            iter_range: convert(&k.iter_range),
            accu_var: k.accu_var.clone(),
            accu_init: convert(&k.accu_init),
            loop_cond: convert(&k.loop_cond),
            loop_step: convert(&k.loop_step),
            result: convert(&k.result),
        })),
    };
    Expr { id, kind }
}

fn entry(e: &c::IdedEntryExpr) -> Entry {
    match &e.expr {
        c::EntryExpr::MapEntry(m) => Entry {
            id: e.id as i64,
            key: convert(&m.key),
            value: convert(&m.value),
            optional: m.optional,
        },
        c::EntryExpr::StructField(f) => Entry {
            id: e.id as i64,
            key: Expr {
                id: e.id as i64,
                kind: ExprKind::Literal(Literal::String(f.field.as_str().into())),
            },
            value: convert(&f.value),
            optional: f.optional,
        },
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn parses_a_rule() {
        let ast = super::parse("self.all(x, x > 1) && has(self.a)").unwrap();
        let mut n = 0;
        ast.expr.walk(&mut |_| n += 1);
        assert!(n > 5);
    }
}
