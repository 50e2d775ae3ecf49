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
        Literal::String(s) => parse_duration(s).is_some(),
        _ => true,
    });
    v.literal_calls(root, "timestamp", |arg| match arg {
        Literal::String(s) => parse_timestamp(s).is_some(),
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

/// Go's `time.ParseDuration`, in nanoseconds; `None` when Go rejects the text.
pub(crate) fn parse_duration(text: &str) -> Option<i64> {
    const LIMIT: u64 = 1 << 63;
    let mut s = text.as_bytes();
    let mut neg = false;
    if let Some((&c, rest)) = s.split_first()
        && (c == b'-' || c == b'+')
    {
        neg = c == b'-';
        s = rest;
    }
    if s == b"0" {
        return Some(0);
    }
    if s.is_empty() {
        return None;
    }
    let mut total: u64 = 0;
    while !s.is_empty() {
        if !(s[0] == b'.' || s[0].is_ascii_digit()) {
            return None;
        }
        // the integer part
        let digits = s.iter().take_while(|c| c.is_ascii_digit()).count();
        let mut v: u64 = 0;
        for &c in &s[..digits] {
            v = v.checked_mul(10)?.checked_add(u64::from(c - b'0'))?;
            if v > LIMIT {
                return None;
            }
        }
        s = &s[digits..];
        let pre = digits > 0;
        // the fraction, whose digits past precision are ignored
        let mut frac: u64 = 0;
        let mut scale = 1.0f64;
        let mut post = false;
        if s.first() == Some(&b'.') {
            s = &s[1..];
            let n = s.iter().take_while(|c| c.is_ascii_digit()).count();
            let mut overflow = false;
            for &c in &s[..n] {
                if overflow {
                    continue;
                }
                if frac > (LIMIT - 1) / 10 {
                    overflow = true;
                    continue;
                }
                let y = frac * 10 + u64::from(c - b'0');
                if y > LIMIT {
                    overflow = true;
                    continue;
                }
                frac = y;
                scale *= 10.0;
            }
            s = &s[n..];
            post = n > 0;
        }
        if !pre && !post {
            return None;
        }
        let unit_len = s
            .iter()
            .take_while(|c| !(**c == b'.' || c.is_ascii_digit()))
            .count();
        if unit_len == 0 {
            return None;
        }
        let unit: u64 = match &s[..unit_len] {
            b"ns" => 1,
            b"us" | b"\xc2\xb5s" | b"\xce\xbcs" => 1_000,
            b"ms" => 1_000_000,
            b"s" => 1_000_000_000,
            b"m" => 60_000_000_000,
            b"h" => 3_600_000_000_000,
            _ => return None,
        };
        s = &s[unit_len..];
        if v > LIMIT / unit {
            return None;
        }
        v *= unit;
        if frac > 0 {
            // as Go: float arithmetic for the fraction, truncated
            v = v.checked_add((frac as f64 * (unit as f64 / scale)) as u64)?;
            if v > LIMIT {
                return None;
            }
        }
        total = total.checked_add(v)?;
        if total > LIMIT {
            return None;
        }
    }
    if neg {
        // -(1 << 63) is representable
        return Some(0i64.wrapping_sub_unsigned(total));
    }
    i64::try_from(total).ok()
}

/// Go's `time.Parse(time.RFC3339, text)` followed by cel-go's range check, as Unix seconds
/// and nanoseconds; `None` when either rejects the text.
pub(crate) fn parse_timestamp(text: &str) -> Option<(i64, u32)> {
    let s = text.as_bytes();
    if s.len() < 19 {
        return None;
    }
    let num = |range: std::ops::Range<usize>, min: i64, max: i64| -> Option<i64> {
        let mut x: i64 = 0;
        for &c in s.get(range)? {
            if !c.is_ascii_digit() {
                return None;
            }
            x = x * 10 + i64::from(c - b'0');
        }
        (min..=max).contains(&x).then_some(x)
    };
    let year = num(0..4, 0, 9999)?;
    let month = num(5..7, 1, 12)?;
    let day = num(8..10, 1, days_in_month(year, month))?;
    let hour = num(11..13, 0, 23)?;
    let minute = num(14..16, 0, 59)?;
    let second = num(17..19, 0, 59)?;
    if !(s[4] == b'-' && s[7] == b'-' && s[10] == b'T' && s[13] == b':' && s[16] == b':') {
        return None;
    }
    let mut rest = &s[19..];
    let mut nanos: u32 = 0;
    if rest.len() >= 2 && rest[0] == b'.' && rest[1].is_ascii_digit() {
        let n = 1 + rest[1..].iter().take_while(|c| c.is_ascii_digit()).count();
        // Go keeps the first nine digits
        let mut scale = 100_000_000u32;
        for &c in rest[1..n].iter().take(9) {
            nanos += u32::from(c - b'0') * scale;
            scale /= 10;
        }
        rest = &rest[n..];
    }
    let mut offset: i64 = 0;
    if rest != b"Z" {
        if rest.len() != 6 || !(rest[0] == b'+' || rest[0] == b'-') || rest[3] != b':' {
            return None;
        }
        let digits = |a: u8, b: u8| -> Option<i64> {
            (a.is_ascii_digit() && b.is_ascii_digit())
                .then(|| i64::from(a - b'0') * 10 + i64::from(b - b'0'))
        };
        let hh = digits(rest[1], rest[2]).filter(|h| *h <= 23)?;
        let mm = digits(rest[4], rest[5]).filter(|m| *m <= 59)?;
        offset = (hh * 60 + mm) * 60;
        if rest[0] == b'-' {
            offset = -offset;
        }
    }
    let days = days_from_civil(year, month, day);
    let secs = days * 86_400 + hour * 3_600 + minute * 60 + second - offset;
    (MIN_UNIX..=MAX_UNIX)
        .contains(&secs)
        .then_some((secs, nanos))
}

fn is_leap(year: i64) -> bool {
    year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
}

fn days_in_month(year: i64, month: i64) -> i64 {
    match month {
        2 if is_leap(year) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (month + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}
