//! The AST validators the API server adds after type-checking (apiserver
//! `pkg/cel/environment/base.go`; cel-go `cel/validator.go`):
//!
//! - `cel.HomogeneousAggregateLiterals` / `ValidateHomogeneousAggregateLiterals`: list and
//!   map literals with elements (keys, values) of different types are errors, except inside
//!   `format` calls (ext.Strings exempts them);
//! - `ValidateDurationLiterals`, `ValidateTimestampLiterals`: a literal argument of
//!   `duration()` / `timestamp()` that would fail at run time is an error;
//! - `ValidateRegexLiterals`: a literal pattern of `matches()` that Go's regexp rejects is an
//!   error.
//!
//! - ext.Strings' string format validator: `'…'.format([…])` with a literal format string
//!   and a list literal checks the clauses against the arguments' types and count.
//!
//! Only `matches` is validated among regex functions: the API server validates no others
//! (Kubernetes' `find`/`findAll` report bad patterns at run time).

use super::Checked;
use super::types::{format_type, is_equivalent, unwrap_optional};
use crate::cel::ast::{Expr, ExprKind, Id, Literal};
use crate::cel::error::Issue;
use crate::cel::types::Type;

/// Functions whose list and map literal arguments (at any depth) may mix types: ext.Strings'
/// `format` (its own validator checks the arguments against the format string).
const HOMOGENEITY_EXEMPT: &[&str] = &["format"];

/// Runs the API server's validators over a checked expression, returning their issues in
/// the order cel-go reports them (before sorting by position).
pub fn validate(checked: &Checked) -> Vec<Issue> {
    let mut v = Validator {
        checked,
        issues: Vec::new(),
    };
    let root = &checked.ast.expr;
    // cel-go's validators run in the order the API server's environment adds them
    v.homogeneous(root);
    v.literal_calls(root, "duration", |arg| match arg {
        Literal::String(s) => crate::gostd::time::parse_duration(s).is_ok(),
        _ => true,
    });
    v.literal_calls(root, "timestamp", |arg| match arg {
        Literal::String(s) => matches!(crate::cel::stdlib::time::parse_rfc3339(s), Some(Ok(_))),
        Literal::Int(i) => (MIN_UNIX..=MAX_UNIX).contains(i),
        _ => true,
    });
    v.literal_calls(root, "matches", |arg| match arg {
        Literal::String(s) => crate::re2::compile(s).is_ok(),
        _ => true,
    });
    v.format_calls(root);
    v.issues
}

struct Validator<'a> {
    checked: &'a Checked,
    issues: Vec<Issue>,
}

impl Validator<'_> {
    fn error(&mut self, id: Id, message: String) {
        self.issues.push(Issue {
            offset: self.checked.ast.source.offsets.get(&id).copied(),
            message,
        });
    }

    fn type_of(&self, id: Id) -> Type {
        self.checked.types.get(&id).cloned().unwrap_or(Type::Dyn)
    }

    fn mismatch(&mut self, id: Id, expected: &Type, actual: &Type) {
        let message = format!(
            "expected type '{}' but found '{}'",
            format_type(expected),
            format_type(actual)
        );
        self.error(id, message);
    }

    /// cel-go reports all list literals, then all map literals.
    fn homogeneous(&mut self, root: &Expr) {
        let mut lists = Vec::new();
        let mut maps = Vec::new();
        collect_literals(root, false, &mut lists, &mut maps);
        for list in lists {
            let ExprKind::List {
                elements,
                optional_indices,
            } = &list.kind
            else {
                continue;
            };
            let mut first: Option<Type> = None;
            for (i, e) in elements.iter().enumerate() {
                let mut t = self.type_of(e.id);
                if optional_indices.contains(&i) {
                    t = unwrap_optional(&t).0;
                }
                match &first {
                    None => first = Some(t),
                    Some(f) if !is_equivalent(f, &t) => {
                        let f = f.clone();
                        self.mismatch(e.id, &f, &t);
                        break;
                    }
                    Some(_) => {}
                }
            }
        }
        for map in maps {
            let ExprKind::Map { entries } = &map.kind else {
                continue;
            };
            let mut first: Option<(Type, Type)> = None;
            for entry in entries {
                let kt = self.type_of(entry.key.id);
                let mut vt = self.type_of(entry.value.id);
                if entry.optional {
                    vt = unwrap_optional(&vt).0;
                }
                match &first {
                    None => first = Some((kt, vt)),
                    Some((fk, fv)) => {
                        let (fk, fv) = (fk.clone(), fv.clone());
                        if !is_equivalent(&fk, &kt) {
                            self.mismatch(entry.key.id, &fk, &kt);
                        }
                        if !is_equivalent(&fv, &vt) {
                            self.mismatch(entry.value.id, &fv, &vt);
                        }
                    }
                }
            }
        }
    }

    /// cel-go's format validators: every call of `function` whose first argument is a
    /// literal `valid` rejects is an `invalid <function> argument` at that argument.
    fn literal_calls(&mut self, root: &Expr, function: &str, valid: impl Fn(&Literal) -> bool) {
        let mut bad = Vec::new();
        root.walk(&mut |e| {
            if let ExprKind::Call {
                function: f, args, ..
            } = &e.kind
                && f == function
                && let Some(Expr {
                    id,
                    kind: ExprKind::Literal(lit),
                }) = args.first()
                && !valid(lit)
            {
                bad.push(*id);
            }
        });
        for id in bad {
            self.error(id, format!("invalid {function} argument"));
        }
    }
}

impl Validator<'_> {
    /// ext.Strings' `stringFormatValidator`: every `'literal'.format([list literal])` call
    /// resolved to `string_format`.
    fn format_calls(&mut self, root: &Expr) {
        let mut calls = Vec::new();
        root.walk(&mut |e| {
            if let ExprKind::Call {
                target: Some(target),
                function,
                args,
            } = &e.kind
                && function == "format"
                && let ExprKind::Literal(Literal::String(fmt)) = &target.kind
                && let [list] = args.as_slice()
                && let ExprKind::List { elements, .. } = &list.kind
            {
                let resolved = match self.checked.references.get(&e.id) {
                    Some(super::Reference::Overloads(ids)) => {
                        ids.is_empty() || ids.iter().any(|i| i == "string_format")
                    }
                    _ => true,
                };
                if resolved {
                    calls.push((e.id, fmt.clone(), elements));
                }
            }
        });
        for (id, fmt, args) in calls {
            let mut requested = 0usize;
            match self.check_format(&fmt, args, &mut requested) {
                Err((at, message)) => self.error(at.unwrap_or(id), message),
                Ok(()) if args.len() > requested => {
                    let message = format!(
                        "too many arguments supplied to string.format (expected {requested}, got {})",
                        args.len()
                    );
                    self.error(id, message);
                }
                Ok(()) => {}
            }
        }
    }

    /// cel-go's `parseFormatString` with the static checker as interpolator: the first
    /// error, with the argument it concerns when it concerns one.
    fn check_format(
        &self,
        fmt: &str,
        args: &[Expr],
        requested: &mut usize,
    ) -> Result<(), (Option<Id>, String)> {
        let s = fmt.as_bytes();
        let mut i = 0;
        let mut arg_index = 0usize;
        while i < s.len() {
            if s[i] != b'%' {
                i += 1;
                continue;
            }
            if s.get(i + 1) == Some(&b'%') {
                i += 2;
                continue;
            }
            *requested += 1;
            if i + 1 >= s.len() {
                return Err((None, "unexpected end of string".into()));
            }
            let Some(arg) = args.get(arg_index) else {
                return Err((None, format!("index {arg_index} out of range")));
            };
            let (read, clause) = parse_clause(&s[i + 1..])
                .map_err(|e| (None, format!("could not parse formatting clause: {e}")))?;
            self.check_clause(clause, arg)
                .map_err(|(at, m)| (Some(at), format!("error during formatting: {m}")))?;
            i += 1 + read;
            arg_index += 1;
        }
        Ok(())
    }

    fn kind_of(&self, id: Id) -> Option<super::types::Kind> {
        let t = self.type_of(id);
        if t == Type::Dyn {
            None
        } else {
            Some(super::types::kind(&t))
        }
    }

    /// Whether the argument's type suits the clause (dyn always does), as cel-go's checker
    /// compares kinds only.
    fn check_clause(&self, clause: u8, arg: &Expr) -> Result<(), (Id, String)> {
        use super::types::Kind as K;
        let (allowed, what): (&[K], &str) = match clause {
            b's' => return self.check_string_arg(arg),
            b'd' => (
                &[K::Int, K::Uint],
                "decimal clause can only be used on integers",
            ),
            b'f' => (
                &[K::Double, K::String],
                "fixed-point clause can only be used on doubles",
            ),
            b'e' => (
                &[K::Double, K::String],
                "scientific clause can only be used on doubles",
            ),
            b'b' => (
                &[K::Int, K::Uint, K::Bool],
                "only integers and bools can be formatted as binary",
            ),
            b'x' | b'X' => (
                &[K::Int, K::Uint, K::String, K::Bytes],
                "only integers, byte buffers, and strings can be formatted as hex",
            ),
            _ => (
                &[K::Int, K::Uint],
                "octal clause can only be used on integers",
            ),
        };
        match self.kind_of(arg.id) {
            Some(k) if !allowed.contains(&k) => Err((
                arg.id,
                format!(
                    "{what}, was given {}",
                    super::types::type_name(&self.type_of(arg.id))
                ),
            )),
            _ => Ok(()),
        }
    }

    /// `%s`: scalars, lists, maps, types, null; list and map literals element by element.
    fn check_string_arg(&self, arg: &Expr) -> Result<(), (Id, String)> {
        use super::types::Kind as K;
        let allowed = [
            K::List,
            K::Map,
            K::Int,
            K::Uint,
            K::Double,
            K::Bool,
            K::String,
            K::Timestamp,
            K::Bytes,
            K::Duration,
            K::Type,
            K::Null,
        ];
        if let Some(k) = self.kind_of(arg.id)
            && !allowed.contains(&k)
        {
            return Err((
                arg.id,
                format!(
                    "string clause can only be used on strings, bools, bytes, ints, doubles, maps, lists, types, durations, and timestamps, was given {}",
                    super::types::type_name(&self.type_of(arg.id))
                ),
            ));
        }
        match &arg.kind {
            ExprKind::List { elements, .. } => {
                for e in elements {
                    self.check_string_arg(e)?;
                }
            }
            ExprKind::Map { entries } => {
                for e in entries {
                    self.check_string_arg(&e.key)?;
                    self.check_string_arg(&e.value)?;
                }
            }
            _ => {}
        }
        Ok(())
    }
}

/// cel-go's `parseFormattingClause` on the text after `%`: the bytes read and the clause
/// letter, or the error text.
fn parse_clause(s: &[u8]) -> Result<(usize, u8), String> {
    let mut i = 0;
    if s.first() == Some(&b'.') {
        i = 1;
        let start = i;
        loop {
            match s.get(i) {
                None => {
                    return Err(
                        "error while parsing precision: could not find end of precision specifier"
                            .into(),
                    );
                }
                Some(c) if c.is_ascii_digit() => i += 1,
                Some(_) => break,
            }
        }
        let digits = std::str::from_utf8(&s[start..i]).unwrap_or("");
        if digits.parse::<i64>().is_err() {
            let why = if digits.is_empty() {
                "invalid syntax"
            } else {
                "value out of range"
            };
            return Err(format!(
                "error while parsing precision: error while converting precision to integer: strconv.Atoi: parsing {digits:?}: {why}"
            ));
        }
    }
    let Some(&c) = s.get(i) else {
        return Err("unexpected end of string".into());
    };
    match c {
        b's' | b'd' | b'f' | b'e' | b'b' | b'x' | b'X' | b'o' => Ok((i + 1, c)),
        // Go formats the byte as a rune
        _ => Err(format!(
            "unrecognized formatting clause \"{}\"",
            char::from(c)
        )),
    }
}

/// The list and map literals below `e`, parents first, skipping those inside exempt calls.
fn collect_literals<'a>(
    e: &'a Expr,
    exempt: bool,
    lists: &mut Vec<&'a Expr>,
    maps: &mut Vec<&'a Expr>,
) {
    let exempt = exempt
        || matches!(&e.kind, ExprKind::Call { function, .. }
            if HOMOGENEITY_EXEMPT.contains(&function.as_str()));
    match &e.kind {
        ExprKind::List { .. } if !exempt => lists.push(e),
        ExprKind::Map { .. } if !exempt => maps.push(e),
        _ => {}
    }
    match &e.kind {
        ExprKind::Literal(_) | ExprKind::Ident(_) => {}
        ExprKind::Select { operand, .. } => collect_literals(operand, exempt, lists, maps),
        ExprKind::Call { target, args, .. } => {
            if let Some(t) = target {
                collect_literals(t, exempt, lists, maps);
            }
            for a in args {
                collect_literals(a, exempt, lists, maps);
            }
        }
        ExprKind::List { elements, .. } => {
            for x in elements {
                collect_literals(x, exempt, lists, maps);
            }
        }
        ExprKind::Map { entries }
        | ExprKind::Struct {
            fields: entries, ..
        } => {
            for x in entries {
                collect_literals(&x.key, exempt, lists, maps);
                collect_literals(&x.value, exempt, lists, maps);
            }
        }
        ExprKind::Comprehension(c) => {
            for x in [
                &c.iter_range,
                &c.accu_init,
                &c.loop_cond,
                &c.loop_step,
                &c.result,
            ] {
                collect_literals(x, exempt, lists, maps);
            }
        }
    }
}

/// The earliest and latest timestamps cel-go accepts (0001-01-01, 9999-12-31T23:59:59Z).
const MIN_UNIX: i64 = -62_135_596_800;
const MAX_UNIX: i64 = 253_402_300_799;
