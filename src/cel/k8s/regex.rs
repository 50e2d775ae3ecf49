//! `kubernetes.regex` (apiserver `pkg/cel/library/regex.go`): `find` and `findAll`, with Go's
//! RE2 semantics through [`crate::re2`].
//!
//! The library also registers cel-go regex optimizations: when the pattern is a string
//! literal, it is compiled when the program is built and a bad pattern fails the program
//! (the API server reports `compile error: program instantiation failed: error parsing
//! regexp: …`). [`program_error`] finds that error in an expression, for whoever builds
//! programs.

use super::{arg, str_arg};
use crate::cel::ast::{Expr, ExprKind, Literal};
use crate::cel::env::Function;
use crate::cel::types::Type;
use crate::cel::value::{Error, Value};
use std::sync::Arc;

/// The library's functions.
pub fn functions() -> Vec<Function> {
    vec![
        Function::new("find").member(
            "string_find_string",
            vec![Type::String, Type::String],
            Type::String,
            |args| find(str_arg(args, 0)?, str_arg(args, 1)?),
        ),
        Function::new("findAll")
            .member(
                "string_find_all_string",
                vec![Type::String, Type::String],
                Type::list(Type::String),
                |args| find_all(str_arg(args, 0)?, str_arg(args, 1)?, -1),
            )
            .member(
                "string_find_all_string_int",
                vec![Type::String, Type::String, Type::Int],
                Type::list(Type::String),
                |args| match arg(args, 2)? {
                    Value::Int(n) => find_all(str_arg(args, 0)?, str_arg(args, 1)?, *n),
                    _ => Err(Error::no_such_overload()),
                },
            ),
    ]
}

/// Go's `regexp.Compile` error text (`error parsing regexp: CODE: `EXPR``).
pub fn go_regexp_error(e: &crate::re2::SyntaxError) -> String {
    format!("error parsing regexp: {}: `{}`", e.code, e.expr)
}

/// For a `find` or `findAll` call whose pattern (argument 1) is the string literal
/// `pattern`: Go's compile error, which fails the program when it is built.
pub fn literal_pattern_error(pattern: &str) -> Option<String> {
    crate::re2::compile(pattern)
        .err()
        .map(|e| go_regexp_error(&e))
}

/// The error the API server reports when it builds the program for `expr` (Go's
/// `regexp.Compile` error text, which the API server prefixes with `compile error: program
/// instantiation failed: `): the first `find` or `findAll` call, in the order cel-go's
/// planner visits calls (operands before the call, left to right), whose pattern is a
/// string literal that does not compile. `None` when every such pattern compiles.
pub fn program_error(expr: &Expr) -> Option<String> {
    // the parser bounds the tree's depth, so recursion is bounded
    let children: Vec<&Expr> = match &expr.kind {
        ExprKind::Literal(_) | ExprKind::Ident(_) => Vec::new(),
        ExprKind::Select { operand, .. } => vec![operand],
        ExprKind::Call { target, args, .. } => target.iter().map(|t| &**t).chain(args).collect(),
        ExprKind::List { elements, .. } => elements.iter().collect(),
        ExprKind::Map { entries }
        | ExprKind::Struct {
            fields: entries, ..
        } => entries.iter().flat_map(|e| [&e.key, &e.value]).collect(),
        ExprKind::Comprehension(c) => vec![
            &c.iter_range,
            &c.accu_init,
            &c.loop_cond,
            &c.loop_step,
            &c.result,
        ],
    };
    if let Some(e) = children.into_iter().find_map(program_error) {
        return Some(e);
    }
    match &expr.kind {
        ExprKind::Call {
            target: Some(_),
            function,
            args,
        } if function == "find" || function == "findAll" => match args.first() {
            Some(Expr {
                kind: ExprKind::Literal(Literal::String(pattern)),
                ..
            }) => literal_pattern_error(pattern),
            _ => None,
        },
        _ => None,
    }
}

fn compile(pattern: &str) -> Result<Arc<crate::re2::Compiled>, Error> {
    crate::re2::compile(pattern)
        .map_err(|e| Error::new(format!("Illegal regex: {}", go_regexp_error(&e))))
}

/// `find`: the leftmost match, or the empty string.
fn find(s: &str, pattern: &str) -> Result<Value, Error> {
    let re = compile(pattern)?;
    Ok(Value::string(re.regex.find(s).map_or("", |m| m.as_str())))
}

/// `findAll`: Go's `FindAllString(s, n)`; a negative `n` for every match, 0 for none. An
/// empty match right after the previous match is skipped, as in Go (the `regex` crate's
/// iterator does the same).
fn find_all(s: &str, pattern: &str, n: i64) -> Result<Value, Error> {
    let re = compile(pattern)?;
    let limit = usize::try_from(n).unwrap_or(usize::MAX);
    let found = re
        .regex
        .find_iter(s)
        .take(limit)
        .map(|m| Value::string(m.as_str()))
        .collect();
    Ok(Value::list(found))
}
