//! `kubernetes.Semver` version 1 (apiserver `pkg/cel/library/semverlib.go`): `semver()`
//! (with the `normalize` flag), `isSemver()`, `major`, `minor`, `patch`, `isGreaterThan`,
//! `isLessThan`, `compareTo`, over blang/semver v4's `Version`.

use super::{arg, equal_no_such_overload, go_quote, opaque, opaque_arg, str_arg};
use crate::cel::env::Function;
use crate::cel::types::Type;
use crate::cel::value::{Error, Opaque, Value};
use std::cmp::Ordering;
use std::sync::Arc;

/// The type's name.
pub const TYPE_NAME: &str = "kubernetes.Semver";

/// One pre-release identifier.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Pre {
    /// A numeric identifier.
    Num(u64),
    /// An alphanumeric identifier.
    Str(String),
}

/// A parsed version (blang/semver's `Version`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Semver {
    /// Major.
    pub major: u64,
    /// Minor.
    pub minor: u64,
    /// Patch.
    pub patch: u64,
    /// Pre-release identifiers.
    pub pre: Vec<Pre>,
    /// Build metadata (no precedence).
    pub build: Vec<String>,
}

impl Semver {
    /// blang/semver's `Compare`: numbers, then pre-releases (none ranks highest).
    pub fn compare(&self, o: &Semver) -> Ordering {
        let numbers = (self.major, self.minor, self.patch).cmp(&(o.major, o.minor, o.patch));
        if numbers != Ordering::Equal {
            return numbers;
        }
        match (self.pre.is_empty(), o.pre.is_empty()) {
            (true, true) => return Ordering::Equal,
            (true, false) => return Ordering::Greater,
            (false, true) => return Ordering::Less,
            _ => {}
        }
        for (a, b) in self.pre.iter().zip(&o.pre) {
            let c = match (a, b) {
                (Pre::Num(_), Pre::Str(_)) => Ordering::Less,
                (Pre::Str(_), Pre::Num(_)) => Ordering::Greater,
                (Pre::Num(x), Pre::Num(y)) => x.cmp(y),
                (Pre::Str(x), Pre::Str(y)) => x.as_bytes().cmp(y.as_bytes()),
            };
            if c != Ordering::Equal {
                return c;
            }
        }
        self.pre.len().cmp(&o.pre.len())
    }
}

impl Opaque for Semver {
    fn type_name(&self) -> &str {
        TYPE_NAME
    }
    fn equals(&self, other: &dyn Opaque) -> bool {
        other
            .as_any()
            .downcast_ref::<Semver>()
            .is_some_and(|o| self.compare(o) == Ordering::Equal)
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
    fn equal_error(&self, other: &Value) -> Option<Error> {
        match opaque::<Semver>(other) {
            Some(_) => None,
            None => equal_no_such_overload(),
        }
    }
}

/// The library's functions.
pub fn functions() -> Vec<Function> {
    let sv = || Type::opaque(TYPE_NAME);
    let cmp = |args: &[Value]| -> Result<Ordering, Error> {
        Ok(opaque_arg::<Semver>(args, 0)?.compare(opaque_arg::<Semver>(args, 1)?))
    };
    vec![
        Function::new("semver")
            .global("string_to_semver", vec![Type::String], sv(), |args| {
                to_value(parse_arg(args, false))
            })
            .global(
                "string_bool_to_semver",
                vec![Type::String, Type::Bool],
                sv(),
                |args| to_value(parse_arg(args, bool_arg(args, 1)?)),
            ),
        Function::new("isSemver")
            .global("is_semver_string", vec![Type::String], Type::Bool, |args| {
                str_arg(args, 0)?;
                Ok(Value::Bool(parse_arg(args, false).is_ok()))
            })
            .global(
                "is_semver_string_bool",
                vec![Type::String, Type::Bool],
                Type::Bool,
                |args| {
                    str_arg(args, 0)?;
                    Ok(Value::Bool(parse_arg(args, bool_arg(args, 1)?).is_ok()))
                },
            ),
        Function::new("isGreaterThan").member(
            "semver_is_greater_than",
            vec![sv(), sv()],
            Type::Bool,
            move |args| Ok(Value::Bool(cmp(args)? == Ordering::Greater)),
        ),
        Function::new("isLessThan").member(
            "semver_is_less_than",
            vec![sv(), sv()],
            Type::Bool,
            move |args| Ok(Value::Bool(cmp(args)? == Ordering::Less)),
        ),
        Function::new("compareTo").member(
            "semver_compare_to",
            vec![sv(), sv()],
            Type::Int,
            move |args| Ok(Value::Int(cmp(args)? as i64)),
        ),
        // Go converts the uint64 parts with `types.Int(v.Major)`: wrapping above i64::MAX
        Function::new("major").member("semver_major", vec![sv()], Type::Int, |args| {
            Ok(Value::Int(opaque_arg::<Semver>(args, 0)?.major as i64))
        }),
        Function::new("minor").member("semver_minor", vec![sv()], Type::Int, |args| {
            Ok(Value::Int(opaque_arg::<Semver>(args, 0)?.minor as i64))
        }),
        Function::new("patch").member("semver_patch", vec![sv()], Type::Int, |args| {
            Ok(Value::Int(opaque_arg::<Semver>(args, 0)?.patch as i64))
        }),
    ]
}

fn bool_arg(args: &[Value], i: usize) -> Result<bool, Error> {
    match arg(args, i)? {
        Value::Bool(b) => Ok(*b),
        _ => Err(Error::no_such_overload()),
    }
}

/// Parses argument 0 (normalized first if asked): the version, or blang/semver's error.
fn parse_arg(args: &[Value], normalize: bool) -> Result<Semver, Error> {
    let s = str_arg(args, 0)?;
    let parsed = if normalize {
        normalize_and_parse(s)
    } else {
        parse(s)
    };
    parsed.map_err(Error::new)
}

fn to_value(parsed: Result<Semver, Error>) -> Result<Value, Error> {
    parsed.map(|v| Value::Opaque(Arc::new(v)))
}

const NUMBERS: &str = "0123456789";

fn alphanum(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '-'
}

fn only_digits(s: &str) -> bool {
    s.chars().all(|c| NUMBERS.contains(c))
}

fn leading_zero(s: &str) -> bool {
    s.len() > 1 && s.starts_with('0')
}

/// Go's `strconv.ParseUint(s, 10, 64)` on digits only, with its error text.
fn parse_uint(s: &str) -> Result<u64, String> {
    if s.is_empty() {
        return Err(format!(
            "strconv.ParseUint: parsing {}: invalid syntax",
            go_quote(s)
        ));
    }
    s.parse::<u64>().map_err(|_| {
        format!(
            "strconv.ParseUint: parsing {}: value out of range",
            go_quote(s)
        )
    })
}

/// blang/semver v4's `Parse`, with its error messages.
pub fn parse(s: &str) -> Result<Semver, String> {
    if s.is_empty() {
        return Err("Version string empty".into());
    }
    let parts: Vec<&str> = s.splitn(3, '.').collect();
    let [major, minor, rest] = parts[..] else {
        return Err("No Major.Minor.Patch elements found".into());
    };
    let number = |part: &str, what: &str, cap: &str| -> Result<u64, String> {
        if !only_digits(part) {
            return Err(format!(
                "Invalid character(s) found in {what} number {}",
                go_quote(part)
            ));
        }
        if leading_zero(part) {
            return Err(format!(
                "{cap} number must not contain leading zeroes {}",
                go_quote(part)
            ));
        }
        parse_uint(part)
    };
    let major = number(major, "major", "Major")?;
    let minor = number(minor, "minor", "Minor")?;
    let mut patch = rest;
    let mut build: Vec<&str> = Vec::new();
    if let Some(i) = patch.find('+') {
        build = patch[i + 1..].split('.').collect();
        patch = &patch[..i];
    }
    let mut pre: Vec<&str> = Vec::new();
    if let Some(i) = patch.find('-') {
        pre = patch[i + 1..].split('.').collect();
        patch = &patch[..i];
    }
    let patch = number(patch, "patch", "Patch")?;
    let mut v = Semver {
        major,
        minor,
        patch,
        pre: Vec::new(),
        build: Vec::new(),
    };
    for p in pre {
        if p.is_empty() {
            return Err("Prerelease is empty".into());
        }
        if only_digits(p) {
            if leading_zero(p) {
                return Err(format!(
                    "Numeric PreRelease version must not contain leading zeroes {}",
                    go_quote(p)
                ));
            }
            v.pre.push(Pre::Num(parse_uint(p)?));
        } else if p.chars().all(alphanum) {
            v.pre.push(Pre::Str(p.to_string()));
        } else {
            return Err(format!(
                "Invalid character(s) found in prerelease {}",
                go_quote(p)
            ));
        }
    }
    for b in build {
        if b.is_empty() {
            return Err("Build meta data is empty".into());
        }
        if !b.chars().all(alphanum) {
            return Err(format!(
                "Invalid character(s) found in build meta data {}",
                go_quote(b)
            ));
        }
        v.build.push(b.to_string());
    }
    Ok(v)
}

/// The library's `normalizeAndParse`: drops a `v` prefix, strips leading zeros, fills in a
/// missing minor and patch, then [`parse`]s.
pub fn normalize_and_parse(s: &str) -> Result<Semver, String> {
    let s = s.strip_prefix('v').unwrap_or(s);
    let mut parts: Vec<String> = s
        .splitn(3, '.')
        .map(|p| {
            if p.len() > 1 {
                let trimmed = p.trim_start_matches('0');
                if trimmed.starts_with(|c: char| c.is_ascii_digit()) {
                    trimmed.to_string()
                } else {
                    format!("0{trimmed}")
                }
            } else {
                p.to_string()
            }
        })
        .collect();
    if parts.len() < 3 {
        if parts.last().is_some_and(|p| p.contains(['+', '-'])) {
            return Err("short version cannot contain PreRelease/Build meta data".into());
        }
        while parts.len() < 3 {
            parts.push("0".into());
        }
    }
    parse(&parts.join("."))
}
