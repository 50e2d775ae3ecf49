//! `regex` and `regexall` (cty's regexp.go) and the regular-expression half of `replace`, with
//! Go's `regexp` semantics: patterns are checked and translated by [`super::re2`]; matching
//! loops, empty-match rules and `$name` expansion follow Go's `regexp` package.

use crate::eval::functions::{Function, FunctionError, Param, args};
use crate::eval::types::Type;
use crate::eval::value::Value;
use crate::re2::{self, SyntaxError};
use regex::{CaptureLocations, Regex};
use std::collections::BTreeMap;
use std::sync::LazyLock;

/// A compiled Go regular expression.
pub(super) struct GoRegex {
    re: Regex,
    /// Go's `SubexpNames()[1:]`: one per group, empty for unnamed groups.
    names: Vec<String>,
}

/// Group spans of one match (index 0: the whole match).
type Spans = Vec<Option<(usize, usize)>>;

impl GoRegex {
    /// Go's `regexp.Compile` (cached by pattern in [`re2::compile`]).
    pub(super) fn compile(pattern: &str) -> Result<GoRegex, SyntaxError> {
        let compiled = re2::compile(pattern)?;
        // Both clones are cheap: the regex shares its program, the names are few.
        Ok(GoRegex {
            re: compiled.regex.clone(),
            names: compiled.names.clone(),
        })
    }

    /// The leftmost match starting the search at `pos` (Go's `doExecute`).
    fn find_at(&self, s: &str, pos: usize, locs: &mut CaptureLocations) -> Option<Spans> {
        self.re.captures_read_at(locs, s, pos)?;
        Some((0..locs.len()).map(|i| locs.get(i)).collect())
    }

    /// Go's `FindStringSubmatchIndex`.
    fn find(&self, s: &str) -> Option<Spans> {
        self.find_at(s, 0, &mut self.re.capture_locations())
    }

    /// Go's `FindAllStringSubmatchIndex(s, -1)`: an empty match right after a match is skipped.
    fn find_all(&self, s: &str) -> Vec<Spans> {
        let mut locs = self.re.capture_locations();
        let mut out = Vec::new();
        let mut pos = 0;
        let mut prev_end = None;
        while pos <= s.len() {
            let Some(spans) = self.find_at(s, pos, &mut locs) else {
                break;
            };
            let (start, end) = spans[0].unwrap_or((pos, pos));
            let mut accept = true;
            if end == pos {
                if Some(start) == prev_end {
                    accept = false;
                }
                pos += s[pos..].chars().next().map_or(1, char::len_utf8);
            } else {
                pos = end;
            }
            prev_end = Some(end);
            if accept {
                out.push(spans);
            }
        }
        out
    }

    /// Go's `ReplaceAllString`: `$1`, `${name}` and `$$` in `template` expand.
    pub(super) fn replace_all(&self, src: &str, template: &str) -> String {
        let mut locs = self.re.capture_locations();
        let mut buf = String::with_capacity(src.len());
        let mut last_end = 0;
        let mut search = 0;
        while search <= src.len() {
            let Some(spans) = self.find_at(src, search, &mut locs) else {
                break;
            };
            let (start, end) = spans[0].unwrap_or((search, search));
            buf.push_str(&src[last_end..start]);
            if end > last_end || start == 0 {
                self.expand(&mut buf, template, src, &spans);
            }
            last_end = end;
            let width = src[search..].chars().next().map_or(0, char::len_utf8);
            if search + width > end {
                search += width;
            } else if search + 1 > end {
                search += 1;
            } else {
                search = end;
            }
        }
        buf.push_str(&src[last_end..]);
        buf
    }

    /// Go's `Regexp.expand`.
    fn expand(&self, dst: &mut String, template: &str, src: &str, spans: &Spans) {
        let mut template = template;
        while let Some((before, after)) = template.split_once('$') {
            dst.push_str(before);
            template = after;
            if let Some(rest) = template.strip_prefix('$') {
                dst.push('$');
                template = rest;
                continue;
            }
            let Some((name, num, rest)) = extract(template) else {
                dst.push('$');
                continue;
            };
            template = rest;
            let group = match num {
                Some(n) => Some(n),
                None => self.names.iter().position(|n| n == name).map(|i| i + 1),
            };
            if let Some((a, b)) = group.and_then(|g| spans.get(g).copied().flatten()) {
                dst.push_str(&src[a..b]);
            }
        }
        dst.push_str(template);
    }
}

/// Go's `extract`: a group name or number after `$`, optionally in braces.
fn extract(s: &str) -> Option<(&str, Option<usize>, &str)> {
    let (braced, body) = match s.strip_prefix('{') {
        Some(body) => (true, body),
        None => (false, s),
    };
    let len: usize = body
        .chars()
        .take_while(|c| is_go_name_char(*c))
        .map(char::len_utf8)
        .sum();
    if len == 0 {
        return None;
    }
    let name = &body[..len];
    let mut rest = &body[len..];
    if braced {
        rest = rest.strip_prefix('}')?;
    }
    let mut num: Option<usize> = Some(0);
    for c in name.bytes() {
        match num {
            Some(n) if c.is_ascii_digit() && n < 100_000_000 => {
                num = Some(n * 10 + usize::from(c - b'0'));
            }
            _ => {
                num = None;
                break;
            }
        }
    }
    if name.len() > 1 && name.starts_with('0') {
        num = None;
    }
    Some((name, num, rest))
}

/// Go's `unicode.IsLetter(c) || unicode.IsDigit(c) || c == '_'`.
fn is_go_name_char(c: char) -> bool {
    static NAME: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"^[\p{L}\p{Nd}_]$").expect("valid pattern"));
    c.is_ascii_alphanumeric()
        || c == '_'
        || !c.is_ascii() && NAME.is_match(c.encode_utf8(&mut [0; 4]))
}

/// cty's `regexPatternResultType`.
fn result_type(pattern: &str) -> Result<Type, String> {
    let re = GoRegex::compile(pattern)
        .map_err(|e| format!("invalid regexp pattern: {} in {}", e.code, e.expr))?;
    let named = re.names.iter().filter(|n| !n.is_empty()).count();
    let unnamed = re.names.len() - named;
    match (unnamed, named) {
        (0, 0) => Ok(Type::String),
        (u, n) if u > 0 && n > 0 => {
            Err("invalid regexp pattern: cannot mix both named and unnamed capture groups".into())
        }
        (u, _) if u > 0 => Ok(Type::Tuple(vec![Type::String; u].into())),
        _ => Ok(Type::Object(
            re.names
                .iter()
                .map(|n| (n.clone(), Type::String))
                .collect::<BTreeMap<_, _>>()
                .into(),
        )),
    }
}

/// cty's `regexPatternResult`.
fn pattern_result(re: &GoRegex, s: &str, spans: &Spans, ty: &Type) -> Value {
    let group = |i: usize| match spans.get(i).copied().flatten() {
        Some((a, b)) => Value::string(&s[a..b]),
        None => Value::Null(Type::String),
    };
    match ty {
        Type::Tuple(items) => Value::Tuple((1..=items.len()).map(group).collect::<Vec<_>>().into()),
        Type::Object(_) => {
            let mut attrs = BTreeMap::new();
            for (i, name) in re.names.iter().enumerate() {
                attrs.insert(name.clone(), group(i + 1));
            }
            Value::Object(attrs.into())
        }
        _ => group(0),
    }
}

fn params() -> Vec<Param> {
    vec![
        Param::new("pattern", Type::String),
        Param::new("string", Type::String),
    ]
}

/// The pattern's result type, or `None` while the pattern is unknown.
fn known_result_type(args: &[Value]) -> Result<Option<Type>, FunctionError> {
    match args.first() {
        Some(Value::String(p)) => result_type(p)
            .map(Some)
            .map_err(|e| FunctionError::arg(0, e)),
        _ => Ok(None),
    }
}

fn compiled(args: &[Value]) -> Result<GoRegex, FunctionError> {
    GoRegex::compile(args::string(args, 0)?).map_err(|e| {
        FunctionError::arg(
            0,
            format!(
                "error parsing pattern: error parsing regexp: {}: `{}`",
                e.code, e.expr
            ),
        )
    })
}

/// cty's `RegexFunc`.
pub(super) fn regex() -> Function {
    Function::with_type_fn(
        "regex",
        params(),
        None,
        |args| Ok(known_result_type(args)?.unwrap_or(Type::Dynamic)),
        |args, ret| {
            if *ret == Type::Dynamic {
                return Ok(Value::dynamic());
            }
            let re = compiled(args)?;
            let s = args::string(args, 1)?;
            let spans = re.find(s).ok_or_else(|| {
                FunctionError::other("pattern did not match any part of the given string")
            });
            Ok(pattern_result(&re, s, &spans?, ret))
        },
    )
}

/// cty's `RegexAllFunc`.
pub(super) fn regexall() -> Function {
    Function::with_type_fn(
        "regexall",
        params(),
        None,
        |args| {
            Ok(Type::list(
                known_result_type(args)?.unwrap_or(Type::Dynamic),
            ))
        },
        |args, ret| {
            let elem = ret.element().cloned().unwrap_or(Type::Dynamic);
            if elem == Type::Dynamic {
                return Ok(Value::dynamic());
            }
            let re = compiled(args)?;
            let s = args::string(args, 1)?;
            let items = re
                .find_all(s)
                .iter()
                .map(|spans| pattern_result(&re, s, spans, &elem))
                .collect::<Vec<_>>()
                .into();
            Ok(Value::List { elem, items })
        },
    )
}
