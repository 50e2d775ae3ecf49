//! One resource against its schema, as `crossplane beta validate` (v2.2.4) checks it with the
//! API server's libraries (apiextensions-apiserver v0.35, kube-openapi): defaults applied, then
//! the OpenAPI checks, then unknown fields (what pruning would drop), then the CEL rules on
//! what is left. Every message is the API server's `field.Error` text.
//!
//! Where crossplane follows Go's random map order (sibling keys), keys are taken in sorted
//! order; identical messages of one resource are reported once, as kube-openapi does.

use super::cel::{Budget, Outcome};
use super::defaults;
use super::format;
use super::node::{Additional, Node, Type};
use crate::gostd::strconv::quote;
use serde_json::Value as Json;

/// What kind of check found a problem.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// The OpenAPI schema.
    Schema,
    /// A field the schema does not know (pruned by the API server).
    UnknownField,
    /// An `x-kubernetes-validations` rule.
    Cel,
}

/// One step of a field path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Segment {
    /// An object key.
    Key(String),
    /// A list index.
    Index(usize),
}

/// One problem.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation {
    /// Which check.
    pub kind: Kind,
    /// The field it is about (empty for the whole resource or when the API server names none).
    pub path: Vec<Segment>,
    /// The API server's message (`spec.forProvider.region: Required value`).
    pub message: String,
    /// For an unknown field, the schema's field of a close name (`region` for `regoin`).
    pub suggestion: Option<String>,
}

impl Violation {
    /// The problem as a diagnostic about `subject` (V701 schema, V702 unknown field, V703
    /// CEL rule), with "did you mean" for a misspelt field; the caller places it.
    pub fn diagnostic(&self, subject: &str) -> crate::diagnostics::Diagnostic {
        use crate::diagnostics::{Code, Diagnostic};
        let code = match self.kind {
            Kind::Schema => Code::V701,
            Kind::UnknownField => Code::V702,
            Kind::Cel => Code::V703,
        };
        let d = Diagnostic::new(code, format!("{subject}: {}", self.message));
        match &self.suggestion {
            Some(s) => d.with_help(format!("did you mean `{s}`?")),
            None => d,
        }
    }
}

/// The outcome for one resource.
#[derive(Clone, Debug, Default)]
pub struct Report {
    /// The resource after defaulting and pruning.
    pub resource: Json,
    /// Problems, in crossplane's order: schema, unknown fields, CEL.
    pub violations: Vec<Violation>,
}

/// Validates `resource` against `schema` (a create: transition rules are skipped).
pub fn validate(resource: &Json, schema: &Node) -> Report {
    validate_update(resource, None, schema)
}

/// Validates `resource` against `schema` as an update from `old` (transition rules, those
/// naming `oldSelf`, run where a previous value correlates), or a create without it.
pub fn validate_update(resource: &Json, old: Option<&Json>, schema: &Node) -> Report {
    let mut value = resource.clone();
    // The API server's decoder drops the nulls the schema neither allows nor defaults before
    // defaulting and validation; `crossplane beta validate` skips that step and reports them.
    defaults::prune_nulls(&mut value, Some(schema));
    defaults::apply(&mut value, schema);
    let mut out = Walker::default();
    out.node(&value, schema, &mut Vec::new());
    let mut violations = out.errors;
    let mut unknown = Vec::new();
    prune(
        &mut value,
        Some(schema),
        true,
        &mut Vec::new(),
        &mut unknown,
    );
    // List sets and maps are checked on the pruned, defaulted object, after the OpenAPI
    // schema, as the API server's strategy checks them.
    violations.extend(listtype::check(&value, schema));
    unknown.sort_by(|a, b| a.0.cmp(&b.0));
    for (text, path) in unknown {
        let child = text.rsplit('.').next().unwrap_or(&text).to_string();
        let child = child.split('[').next().unwrap_or(&child).to_string();
        violations.push(Violation {
            kind: Kind::UnknownField,
            suggestion: suggest(schema, &path),
            path,
            message: format!(
                "{text}: Invalid value: {}: unknown field: \"{child}\"",
                quote(&child)
            ),
        });
    }
    let mut cel = Vec::new();
    let old = old.map(|o| {
        let mut o = o.clone();
        defaults::prune_nulls(&mut o, Some(schema));
        defaults::apply(&mut o, schema);
        prune(&mut o, Some(schema), true, &mut Vec::new(), &mut Vec::new());
        o
    });
    super::guard::roomy(|| {
        rules(
            &value,
            None,
            old.as_ref(),
            schema,
            true,
            &mut Vec::new(),
            &mut cel,
            &Budget::default(),
            Ratchet::Correlated,
        )
    });
    violations.extend(cel);
    let mut seen = std::collections::HashSet::new();
    violations.retain(|v| seen.insert((v.kind, v.message.clone())));
    Report {
        resource: value,
        violations,
    }
}

/// The OpenAPI checks alone (no defaults, pruning or CEL) of one value at `path` — what a
/// literal written in a composition can be judged by before it is rendered.
pub fn check_value(value: &Json, node: &Node, path: &[Segment]) -> Vec<Violation> {
    let mut walker = Walker::default();
    walker.node(value, node, &mut path.to_vec());
    walker.errors
}

/// The property of the unknown field's object whose name is closest to it (edit distance at
/// most 2), as hcl suggests names.
pub fn suggest(schema: &Node, path: &[Segment]) -> Option<String> {
    let (Segment::Key(unknown), parents) = path.split_last()? else {
        return None;
    };
    let mut node = schema;
    for segment in parents {
        node = match segment {
            Segment::Key(k) => node.property(k)?,
            Segment::Index(_) => node.items.as_deref()?,
        };
    }
    let names: Vec<&str> = node.properties.keys().map(String::as_str).collect();
    crate::diagnostics::suggest::name_suggestion(unknown, &names).map(str::to_string)
}

/// kube-openapi's path text: keys joined with dots, indexes as `[i]`.
pub fn path_text(path: &[Segment]) -> String {
    let mut out = String::new();
    for segment in path {
        match segment {
            Segment::Key(k) => {
                if !out.is_empty() {
                    out.push('.');
                }
                out.push_str(k);
            }
            Segment::Index(i) => out.push_str(&format!("[{i}]")),
        }
    }
    out
}

/// `field.Path` text as the CEL validator builds it: properties with dots, map keys and
/// indexes in brackets; `<nil>` at the root.
fn field_path_text(path: &[(Segment, bool)]) -> String {
    if path.is_empty() {
        return "<nil>".into();
    }
    let mut out = String::new();
    for (segment, map_key) in path {
        match segment {
            Segment::Key(k) if *map_key => out.push_str(&format!("[{k}]")),
            Segment::Key(k) => {
                if !out.is_empty() {
                    out.push('.');
                }
                out.push_str(k);
            }
            Segment::Index(i) => out.push_str(&format!("[{i}]")),
        }
    }
    out
}

/// A number as the API server (and `crossplane beta validate`) holds it: JSON decoded by
/// apimachinery gives an `int64` for a number with an integral value in its range (YAML's
/// `1.0` and a function's float64 `1` included, as both reach it as the JSON text `1`), a
/// float64 for any other.
fn go_int(n: &serde_json::Number) -> Option<i64> {
    if let Some(i) = n.as_i64() {
        return Some(i);
    }
    let f = n.as_f64()?;
    // Below 2^63 (and 1e21, where Go's JSON encoder turns to exponents): an int64.
    (f.fract() == 0.0 && f.abs() < 9.223_372_036_854_775e18).then_some(f as i64)
}

/// A JSON value's type as kube-openapi names it: `integer` for an int64, `number` for a
/// float64.
fn json_type(value: &Json) -> &'static str {
    match value {
        Json::Number(n) if go_int(n).is_some() => "integer",
        other => crate::source::json_type(other),
    }
}

/// Go's `%v` of a float64: shortest digits, exponent form below 1e-4 and from 1e6.
pub fn go_float(f: f64) -> String {
    if f.is_nan() {
        return "NaN".into();
    }
    if f.is_infinite() {
        return if f > 0.0 { "+Inf" } else { "-Inf" }.into();
    }
    if f == 0.0 {
        return if f.is_sign_negative() { "-0" } else { "0" }.into();
    }
    let sci = format!("{f:e}");
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    if !(-4..6).contains(&exp) {
        let sign = if exp < 0 { '-' } else { '+' };
        format!("{mantissa}e{sign}{:02}", exp.unsigned_abs())
    } else {
        format!("{f}")
    }
}

/// How a `field.Error` prints a bad value: strings quoted, numbers and booleans as Go's `%v`
/// (an int64 in full, a float64 in its shortest form), anything else as JSON.
fn value_text(value: &Json) -> String {
    match value {
        Json::String(s) => quote(s),
        Json::Number(n) => number_text(n),
        Json::Bool(b) => b.to_string(),
        other => serde_json::to_string(other).unwrap_or_default(),
    }
}

/// Go's `%v` of a number as the API server holds it ([`go_int`]).
fn number_text(n: &serde_json::Number) -> String {
    match go_int(n) {
        Some(i) => i.to_string(),
        None => go_float(n.as_f64().unwrap_or(f64::NAN)),
    }
}

/// Whether a float64 passes kube-openapi's `IsFloat64AJSONInteger`.
fn is_json_integer(f: f64) -> bool {
    if !f.is_finite() || f.abs() > 9_007_199_254_740_991.0 {
        return false;
    }
    let r = f.round();
    f == r || (f - r).abs() < 1e-9 * r.abs()
}

#[derive(Default)]
struct Walker {
    errors: Vec<Violation>,
}

impl Walker {
    fn push(&mut self, path: &[Segment], message: String) {
        self.errors.push(Violation {
            kind: Kind::Schema,
            path: path.to_vec(),
            message,
            suggestion: None,
        });
    }

    /// `P: Invalid value: V: detail`.
    fn invalid(&mut self, path: &[Segment], value: &str, detail: String) {
        let p = path_text(path);
        let field = if p.is_empty() { "<nil>".to_string() } else { p };
        self.push(path, format!("{field}: Invalid value: {value}: {detail}"));
    }

    /// `<nil>: Invalid value: "": detail` (errors kube-openapi returns without a field).
    fn unnamed(&mut self, path: &[Segment], detail: String) {
        self.push(path, format!("<nil>: Invalid value: \"\": {detail}"));
    }

    fn node(&mut self, value: &Json, node: &Node, path: &mut Vec<Segment>) {
        let p = path_text(path);
        // type (and a string format on a non-string)
        if value.is_null() {
            if !node.nullable
                && let Some(kind) = node.kind.or(node.int_or_string.then_some(Type::Integer))
            {
                let types = if node.int_or_string {
                    "integer,string"
                } else {
                    kind.name()
                };
                self.invalid(
                    path,
                    "\"null\"",
                    format!("{p} in body must be of type {types}: \"null\""),
                );
            }
            self.enumeration(value, node, path);
            return;
        }
        let format = node.format.as_deref().filter(|f| format::supported(f));
        if let Some(f) = format
            && !value.is_string()
            && !value.is_array()
        {
            let what = match value {
                Json::Number(n) if go_int(n).is_some() => "int64",
                Json::Number(_) => "float64",
                _ => "",
            };
            self.invalid(
                path,
                &quote(what),
                format!("{p} in body must be of type {f}: {}", quote(what)),
            );
            return;
        }
        self.type_check(value, node, path, &p);
        self.composites(value, node, path, &p);
        match value {
            Json::String(s) => self.string(s, node, path, &p, format),
            Json::Number(n) => self.number(n, node, path, &p),
            Json::Array(items) => self.array(items, node, path, &p),
            _ => {}
        }
        self.enumeration(value, node, path);
        if let Json::Object(object) = value {
            self.object(object, node, path, &p);
        }
    }

    fn type_check(&mut self, value: &Json, node: &Node, path: &[Segment], p: &str) {
        // int-or-string is typed `integer,string` whatever `type` says.
        let kind = match (node.kind, node.int_or_string) {
            (Some(kind), _) => kind,
            (None, true) => Type::Integer,
            (None, false) => return,
        };
        let actual = json_type(value);
        let ok = if node.int_or_string {
            matches!(value, Json::String(_))
                || matches!(value, Json::Number(n) if go_int(n).is_some() || is_json_integer(n.as_f64().unwrap_or(f64::NAN)))
        } else {
            match (kind, value) {
                (Type::Integer, Json::Number(n)) => {
                    go_int(n).is_some() || is_json_integer(n.as_f64().unwrap_or(f64::NAN))
                }
                (Type::Number, Json::Number(_)) => true,
                (k, _) => k.name() == actual,
            }
        };
        if !ok {
            let types = if node.int_or_string {
                "integer,string"
            } else {
                kind.name()
            };
            self.invalid(
                path,
                &quote(actual),
                format!("{p} in body must be of type {types}: {}", quote(actual)),
            );
        }
    }

    fn composites(&mut self, value: &Json, node: &Node, path: &mut Vec<Segment>, p: &str) {
        let run = |alternative: &Node, path: &mut Vec<Segment>| {
            let mut w = Walker::default();
            w.node(value, alternative, path);
            w.errors
        };
        if !node.any_of.is_empty() {
            let results: Vec<Vec<Violation>> = node.any_of.iter().map(|n| run(n, path)).collect();
            if results.iter().all(|r| !r.is_empty()) {
                self.unnamed(
                    path,
                    format!("{} must validate at least one schema (anyOf)", quote(p)),
                );
                if let Some(best) = best_failure(value, &node.any_of, &results) {
                    self.errors.extend(best.iter().cloned());
                }
            }
        }
        if !node.one_of.is_empty() {
            let results: Vec<Vec<Violation>> = node.one_of.iter().map(|n| run(n, path)).collect();
            let valid = results.iter().filter(|r| r.is_empty()).count();
            if valid == 0 {
                self.unnamed(
                    path,
                    format!(
                        "{} must validate one and only one schema (oneOf). Found none valid",
                        quote(p)
                    ),
                );
                if let Some(best) = best_failure(value, &node.one_of, &results) {
                    self.errors.extend(best.iter().cloned());
                }
            } else if valid > 1 {
                self.unnamed(
                    path,
                    format!(
                        "{} must validate one and only one schema (oneOf). Found {valid} valid alternatives",
                        quote(p)
                    ),
                );
            }
        }
        if !node.all_of.is_empty() {
            let results: Vec<Vec<Violation>> = node.all_of.iter().map(|n| run(n, path)).collect();
            let failed = results.iter().filter(|r| !r.is_empty()).count();
            if failed > 0 {
                for r in &results {
                    self.errors.extend(r.iter().cloned());
                }
                let none = if failed == results.len() {
                    ". None validated"
                } else {
                    ""
                };
                self.unnamed(
                    path,
                    format!("{} must validate all the schemas (allOf){none}", quote(p)),
                );
            }
        }
        if let Some(not) = &node.not
            && run(not, path).is_empty()
        {
            self.unnamed(
                path,
                format!("{} must not validate the schema (not)", quote(p)),
            );
        }
    }

    fn string(&mut self, s: &str, node: &Node, path: &[Segment], p: &str, format: Option<&str>) {
        let runes = s.chars().count() as u64;
        if let Some(max) = node.max_length
            && runes > max
        {
            let unit = if max == 1 { "byte" } else { "bytes" };
            self.push(
                path,
                format!("{}: Too long: may not be more than {max} {unit}", field(p)),
            );
        } else if let Some(min) = node.min_length
            && runes < min
        {
            self.invalid(
                path,
                &quote(s),
                format!("{p} in body should be at least {min} chars long"),
            );
        } else if let Some(pattern) = &node.pattern {
            // kube-openapi compiles the pattern for each value and words a failure as a
            // mismatch whose pattern text carries Go's error
            let mismatch = match &pattern.regex {
                Ok(regex) => (!regex.regex.is_match(s)).then(|| pattern.source.clone()),
                Err(error) => Some(format!(
                    "{}, but pattern is invalid: {error}",
                    pattern.source
                )),
            };
            if let Some(shown) = mismatch {
                self.invalid(
                    path,
                    &quote(s),
                    format!("{p} in body should match '{shown}'"),
                );
            }
        }
        if let Some(f) = format
            && !format::valid(f, s)
        {
            self.invalid(
                path,
                &quote(s),
                format!("{p} in body must be of type {f}: {}", quote(s)),
            );
        }
    }

    fn number(&mut self, n: &serde_json::Number, node: &Node, path: &[Segment], p: &str) {
        let f = n.as_f64().unwrap_or(f64::NAN);
        let value = number_text(n);
        // No range check of the type here: kube-openapi gives a schema's number validator no
        // `type` (validation_test.go's int-or-string cases get only the type error for 1.2).
        if let Some(factor) = node.multiple_of {
            if factor <= 0.0 {
                self.invalid(
                    path,
                    &value,
                    format!(
                        "factor MultipleOf declared for {p} must be positive: {}",
                        go_float(factor)
                    ),
                );
            } else {
                let q = f / factor;
                if (q - q.round()).abs() > 1e-9 * q.abs().max(1.0) {
                    self.invalid(
                        path,
                        &value,
                        format!("{p} in body should be a multiple of {}", go_float(factor)),
                    );
                }
            }
        }
        if let Some(min) = node.minimum {
            if node.exclusive_minimum && f <= min {
                self.invalid(
                    path,
                    &value,
                    format!("{p} in body should be greater than {}", go_float(min)),
                );
            } else if !node.exclusive_minimum && f < min {
                self.invalid(
                    path,
                    &value,
                    format!(
                        "{p} in body should be greater than or equal to {}",
                        go_float(min)
                    ),
                );
            }
        }
        if let Some(max) = node.maximum {
            if node.exclusive_maximum && f >= max {
                self.invalid(
                    path,
                    &value,
                    format!("{p} in body should be less than {}", go_float(max)),
                );
            } else if !node.exclusive_maximum && f > max {
                self.invalid(
                    path,
                    &value,
                    format!(
                        "{p} in body should be less than or equal to {}",
                        go_float(max)
                    ),
                );
            }
        }
    }

    fn array(&mut self, items: &[Json], node: &Node, path: &mut Vec<Segment>, p: &str) {
        if let Some(schema) = &node.items {
            for (i, item) in items.iter().enumerate() {
                path.push(Segment::Index(i));
                self.node(item, schema, path);
                path.pop();
            }
        }
        self.count(
            path,
            p,
            items.len(),
            (node.min_items, node.max_items),
            "items",
        );
        if node.unique_items {
            let mut seen: Vec<&Json> = Vec::new();
            let duplicate = items.iter().any(|item| {
                let dup = seen.iter().any(|s| same(s, item));
                seen.push(item);
                dup
            });
            if duplicate {
                self.invalid(
                    path,
                    "\"\"",
                    format!("{p} in body shouldn't contain duplicates"),
                );
            }
        }
    }

    /// `minItems`/`maxItems` or `minProperties`/`maxProperties` (whose too-many message also
    /// says "items", as kube-openapi words it).
    fn count(
        &mut self,
        path: &[Segment],
        p: &str,
        n: usize,
        (min, max): (Option<u64>, Option<u64>),
        noun: &str,
    ) {
        let n = n as u64;
        if let Some(min) = min
            && n < min
        {
            self.invalid(
                path,
                &n.to_string(),
                format!("{p} in body should have at least {min} {noun}"),
            );
        }
        if let Some(max) = max
            && n > max
        {
            let unit = if max == 1 { "item" } else { "items" };
            self.push(
                path,
                format!(
                    "{}: Too many: {n}: must have at most {max} {unit}",
                    field(p)
                ),
            );
        }
    }

    fn enumeration(&mut self, value: &Json, node: &Node, path: &[Segment]) {
        let Some(allowed) = &node.enumeration else {
            return;
        };
        if allowed.iter().any(|a| same(a, value)) {
            return;
        }
        let supported: Vec<String> = allowed
            .iter()
            .map(|a| match a {
                Json::String(s) => quote(s),
                other => quote(&serde_json::to_string(other).unwrap_or_default()),
            })
            .collect();
        let p = path_text(path);
        self.push(
            path,
            format!(
                "{}: Unsupported value: {}: supported values: {}",
                field(&p),
                value_text(value),
                supported.join(", ")
            ),
        );
    }

    fn object(
        &mut self,
        object: &serde_json::Map<String, Json>,
        node: &Node,
        path: &mut Vec<Segment>,
        p: &str,
    ) {
        self.count(
            path,
            p,
            object.len(),
            (node.min_properties, node.max_properties),
            "properties",
        );
        for (key, child) in object {
            if node.properties.contains_key(key) {
                continue;
            }
            match &node.additional {
                Additional::Bool(false) => {
                    let at = if p.is_empty() {
                        format!(".{key}")
                    } else {
                        format!("{p}.{key}")
                    };
                    self.invalid(
                        path,
                        &quote(key),
                        format!("{at} in body is a forbidden property"),
                    );
                }
                Additional::Schema(schema) => {
                    path.push(Segment::Key(key.clone()));
                    self.node(child, schema, path);
                    path.pop();
                }
                _ => {}
            }
        }
        for (key, schema) in &node.properties {
            if let Some(child) = object.get(key) {
                path.push(Segment::Key(key.clone()));
                self.node(child, schema, path);
                path.pop();
            }
        }
        for key in &node.required {
            if !object.contains_key(key) {
                path.push(Segment::Key(key.clone()));
                let text = path_text(path);
                self.push(path, format!("{text}: Required value"));
                path.pop();
            }
        }
    }
}

/// The failed alternative of an `anyOf` or `oneOf` whose errors kube-openapi reports: the one
/// with the highest match count, the first on a tie. Its count grows with each check that
/// applies, which depends on the value rather than the alternative, except for the object
/// properties an alternative declares: so the first alternative declaring the most of the
/// value's keys.
fn best_failure<'a>(
    value: &Json,
    alternatives: &[Node],
    results: &'a [Vec<Violation>],
) -> Option<&'a Vec<Violation>> {
    let matched = |alternative: &Node| match value {
        Json::Object(object) => object
            .keys()
            .filter(|k| alternative.properties.contains_key(*k))
            .count(),
        _ => 0,
    };
    let mut best: Option<(usize, &Vec<Violation>)> = None;
    for (alternative, result) in alternatives.iter().zip(results) {
        let count = matched(alternative);
        if best.is_none_or(|(b, _)| count > b) {
            best = Some((count, result));
        }
    }
    best.map(|(_, r)| r)
}

/// The field part of a message: the path, or `<nil>` at the root.
fn field(p: &str) -> String {
    if p.is_empty() {
        "<nil>".into()
    } else {
        p.to_string()
    }
}

/// Equality as Go's `reflect.DeepEqual` on float64 data: numbers by value.
fn same(a: &Json, b: &Json) -> bool {
    match (a, b) {
        (Json::Number(x), Json::Number(y)) => x.as_f64() == y.as_f64(),
        (Json::Array(x), Json::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| same(a, b))
        }
        (Json::Object(x), Json::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| same(v, w)))
        }
        _ => a == b,
    }
}

/// The API server's pruning: removes what the schema does not know and records each removed
/// field. `embedded`: `apiVersion`, `kind` and `metadata` are left alone (the root, and
/// `x-kubernetes-embedded-resource` nodes).
fn prune(
    value: &mut Json,
    node: Option<&Node>,
    embedded: bool,
    path: &mut Vec<Segment>,
    out: &mut Vec<(String, Vec<Segment>)>,
) {
    match value {
        Json::Object(object) => {
            let keys: Vec<String> = object.keys().cloned().collect();
            for key in keys {
                if embedded && matches!(key.as_str(), "apiVersion" | "kind" | "metadata") {
                    continue;
                }
                path.push(Segment::Key(key.clone()));
                let known = node.and_then(|n| n.properties.get(&key));
                let additional = node.map(|n| &n.additional);
                match (known, additional) {
                    (Some(schema), _) => {
                        if let Some(child) = object.get_mut(&key) {
                            prune(child, Some(schema), schema.embedded_resource, path, out);
                        }
                    }
                    (None, Some(Additional::Schema(schema))) => {
                        if let Some(child) = object.get_mut(&key) {
                            prune(child, Some(schema), schema.embedded_resource, path, out);
                        }
                    }
                    (None, Some(Additional::Bool(_))) => {
                        if let Some(child) = object.get_mut(&key) {
                            prune(child, None, false, path, out);
                        }
                    }
                    _ if node.is_some_and(|n| n.preserve_unknown_fields) => {}
                    _ => {
                        out.push((path_text(path), path.clone()));
                        object.remove(&key);
                    }
                }
                path.pop();
            }
        }
        Json::Array(items) => {
            let schema = node.and_then(|n| n.items.as_deref());
            // Items of a list that preserves unknown fields keep theirs too, as the API
            // server's pruning (`skipPrune`) goes down lists; without an items schema, all.
            let preserved = node.is_some_and(|n| n.preserve_unknown_fields);
            if preserved && schema.is_none() {
                return;
            }
            let kept = schema
                .filter(|s| preserved && !s.preserve_unknown_fields)
                .map(|s| Node {
                    preserve_unknown_fields: true,
                    ..s.clone()
                });
            let schema = kept.as_ref().or(schema);
            for (i, item) in items.iter_mut().enumerate() {
                path.push(Segment::Index(i));
                prune(
                    item,
                    schema,
                    schema.is_some_and(|s| s.embedded_resource),
                    path,
                    out,
                );
                path.pop();
            }
        }
        _ => {}
    }
}

/// The CEL rules of every node, depth first: a node's rules, then its children (map entries
/// before properties), all spending from the object's `budget`: once it runs out, that is
/// reported once and no further rule runs (as the API server does). `old` is the previous
/// version of `value` where one correlates (an update): properties and map entries by key,
/// items of `x-kubernetes-list-type: map` lists by their keys.
#[allow(clippy::too_many_arguments)]
fn rules(
    value: &Json,
    converted: Option<&crate::cel::value::Value>,
    old: Option<&Json>,
    node: &Node,
    root: bool,
    path: &mut Vec<(Segment, bool)>,
    out: &mut Vec<Violation>,
    budget: &Budget,
    ratchet: Ratchet,
) -> bool {
    if value.is_null() {
        return true;
    }
    let old = old.filter(|o| !o.is_null());
    // Whether the value equals its old one: compared only where a rule or an uncorrelated
    // child needs it (a comparison at every node would be quadratic in the depth).
    let same_as_old = std::cell::OnceCell::new();
    let unchanged = || {
        *same_as_old.get_or_init(|| match ratchet {
            Ratchet::Correlated => old.is_some_and(|o| same(value, o)),
            Ratchet::Parent(unchanged) => unchanged,
        })
    };
    // How a child correlates: by its own old value where it has one, else through this
    // node (or the nearest correlated ancestor).
    let next = |before: Option<&Json>| match ratchet {
        Ratchet::Correlated if before.is_some() => Ratchet::Correlated,
        Ratchet::Correlated => Ratchet::Parent(unchanged()),
        parent => parent,
    };
    let resource_root = root || node.embedded_resource;
    // The value as rules see it, converted once where the first rules are and then taken
    // apart for the rules below (a conversion per node with rules would be quadratic in
    // the depth).
    let mut this = converted.cloned();
    if !node.rules.is_empty() {
        let value_here = this
            .get_or_insert_with(|| super::celvalue::to_value(value, node, resource_root))
            .clone();
        let before = old.map(|o| super::celvalue::to_value(o, node, resource_root));
        if !node_rules(
            value,
            &value_here,
            before.as_ref(),
            node,
            &node.rules,
            path,
            out,
            budget,
            unchanged(),
        ) {
            return false;
        }
    }
    for branch in &node.all_of {
        if !junctor(value, old, node, branch, root, path, out, budget) {
            return false;
        }
    }
    match value {
        Json::Array(items) => {
            if let Some(schema) = &node.items {
                let keys =
                    (node.list_type.as_deref() == Some("map")).then_some(&node.list_map_keys);
                for (i, item) in items.iter().enumerate() {
                    let before = match (keys, old) {
                        (Some(keys), Some(Json::Array(olds))) => olds
                            .iter()
                            .find(|o| keys.iter().all(|k| o.get(k) == item.get(k))),
                        _ => None,
                    };
                    path.push((Segment::Index(i), false));
                    let part = super::celvalue::item(this.as_ref(), i);
                    let go_on = rules(
                        item,
                        part.as_ref(),
                        before,
                        schema,
                        false,
                        path,
                        out,
                        budget,
                        next(before),
                    );
                    path.pop();
                    if !go_on {
                        return false;
                    }
                }
            }
        }
        Json::Object(object) => {
            if let Additional::Schema(schema) = &node.additional {
                for (key, child) in object {
                    if !node.properties.contains_key(key) {
                        path.push((Segment::Key(key.clone()), true));
                        let before = old.and_then(|o| o.get(key));
                        let part = super::celvalue::entry(this.as_ref(), key);
                        let go_on = rules(
                            child,
                            part.as_ref(),
                            before,
                            schema,
                            false,
                            path,
                            out,
                            budget,
                            next(before),
                        );
                        path.pop();
                        if !go_on {
                            return false;
                        }
                    }
                }
            }
            for (key, schema) in &node.properties {
                if let Some(child) = object.get(key) {
                    path.push((Segment::Key(key.clone()), false));
                    let before = old.and_then(|o| o.get(key));
                    // The type meta of the object cannot be ratcheted: the API server sees
                    // the old and new objects converted to one version.
                    let ratchet = if root
                        && matches!(ratchet, Ratchet::Correlated)
                        && matches!(key.as_str(), "apiVersion" | "kind")
                    {
                        Ratchet::Parent(false)
                    } else {
                        next(before)
                    };
                    // At a resource root, `apiVersion`, `kind` and `metadata` are typed apart
                    // from their schema: converted afresh.
                    let part = if resource_root
                        && matches!(key.as_str(), "apiVersion" | "kind" | "metadata")
                    {
                        None
                    } else {
                        super::celvalue::field(this.as_ref(), key)
                    };
                    let go_on = rules(
                        child,
                        part.as_ref(),
                        before,
                        schema,
                        false,
                        path,
                        out,
                        budget,
                        ratchet,
                    );
                    path.pop();
                    if !go_on {
                        return false;
                    }
                }
            }
        }
        _ => {}
    }
    true
}

/// The rules of an `allOf` branch (and below it) on `value`, typed by `types`, the node
/// the branch belongs to (the API server runs them, though it refuses them in a new CRD).
/// Their failures are not ratcheted.
#[allow(clippy::too_many_arguments)]
fn junctor(
    value: &Json,
    old: Option<&Json>,
    types: &Node,
    branch: &Node,
    root: bool,
    path: &mut Vec<(Segment, bool)>,
    out: &mut Vec<Violation>,
    budget: &Budget,
) -> bool {
    if value.is_null() {
        return true;
    }
    let old = old.filter(|o| !o.is_null());
    if !branch.rules.is_empty() {
        let resource_root = root || types.embedded_resource;
        let this = super::celvalue::to_value(value, types, resource_root);
        let before = old.map(|o| super::celvalue::to_value(o, types, resource_root));
        if !node_rules(
            value,
            &this,
            before.as_ref(),
            types,
            &branch.rules,
            path,
            out,
            budget,
            false,
        ) {
            return false;
        }
    }
    for nested in &branch.all_of {
        if !junctor(value, old, types, nested, root, path, out, budget) {
            return false;
        }
    }
    match value {
        Json::Array(items) => {
            if let (Some(schema), Some(sub)) = (&types.items, &branch.items) {
                for (i, item) in items.iter().enumerate() {
                    path.push((Segment::Index(i), false));
                    let go_on = junctor(item, None, schema, sub, false, path, out, budget);
                    path.pop();
                    if !go_on {
                        return false;
                    }
                }
            }
        }
        Json::Object(object) => {
            if let (Additional::Schema(schema), Additional::Schema(sub)) =
                (&types.additional, &branch.additional)
            {
                for (key, child) in object {
                    if !types.properties.contains_key(key) {
                        path.push((Segment::Key(key.clone()), true));
                        let before = old.and_then(|o| o.get(key));
                        let go_on = junctor(child, before, schema, sub, false, path, out, budget);
                        path.pop();
                        if !go_on {
                            return false;
                        }
                    }
                }
            }
            for (key, sub) in &branch.properties {
                if let (Some(schema), Some(child)) = (types.properties.get(key), object.get(key)) {
                    path.push((Segment::Key(key.clone()), false));
                    let before = old.and_then(|o| o.get(key));
                    let go_on = junctor(child, before, schema, sub, false, path, out, budget);
                    path.pop();
                    if !go_on {
                        return false;
                    }
                }
            }
        }
        _ => {}
    }
    true
}

/// What the rules of `node` and below say of its `default` when the CRD is created
/// (apiextensions `defaulting/validation.go`): the default checked as an update from itself,
/// then (ratcheting being on) as a new value, reported at `at` (`….default`).
pub(crate) fn default_findings(default: &Json, node: &Node, at: &str) -> Vec<String> {
    let budget = Budget::default();
    let mut out = Vec::new();
    let mut path = vec![(Segment::Key(at.to_string()), false)];
    rules(
        default,
        None,
        Some(default),
        node,
        false,
        &mut path,
        &mut out,
        &budget,
        Ratchet::Parent(false),
    );
    if out.is_empty() {
        let none = Ratchet::Parent(false);
        rules(
            default, None, None, node, false, &mut path, &mut out, &budget, none,
        );
    }
    out.into_iter().map(|v| v.message).collect()
}

/// How a node's rule failures are ratcheted on an update (the API server's
/// `CRDValidationRatcheting`, on by default): a failure of a rule not naming `oldSelf` is
/// not reported (the API server makes it a warning) on a value unchanged from the old one
/// it correlates with, or, for a value that does not correlate (an item of a list not of
/// type map, a key new in a map), whose nearest correlated ancestor is unchanged.
#[derive(Clone, Copy)]
enum Ratchet {
    /// The value correlates with the old value it is given (if any).
    Correlated,
    /// It does not; whether its nearest correlated ancestor is unchanged.
    Parent(bool),
}

/// The rules of one node, reported in the API server's words; false once no further rule
/// may run on the object. `unchanged`: failures of rules not naming `oldSelf` are ratcheted
/// ([`Ratchet`]).
#[allow(clippy::too_many_arguments)]
fn node_rules(
    value: &Json,
    this: &crate::cel::value::Value,
    before: Option<&crate::cel::value::Value>,
    node: &Node,
    rules: &[super::cel::Rule],
    path: &[(Segment, bool)],
    out: &mut Vec<Violation>,
    budget: &Budget,
    unchanged: bool,
) -> bool {
    let kind = node.kind.map_or("", Type::name);
    let invalid = |message: String| Violation {
        kind: Kind::Cel,
        suggestion: None,
        path: path.iter().map(|(s, _)| s.clone()).collect(),
        message: format!(
            "{}: Invalid value: {}: {message}",
            field_path_text(path),
            quote(kind),
        ),
    };
    if budget.exhausted() {
        out.push(invalid(
            "validation failed due to running out of cost budget, no further validation rules will be run".into(),
        ));
        return false;
    }
    for rule in rules {
        if rule.rule.trim().is_empty() {
            // No program (the API server's compiler leaves it out; the CRD check refuses it).
            continue;
        }
        // A `fieldPath` the API server refuses (the CRD is not created), reported with the
        // rule as a compile error is; the rule still runs, reported at its node.
        let steps = rule
            .field_path
            .as_deref()
            .filter(|p| !p.is_empty())
            .map(|p| super::fieldpath::resolve(p, node));
        if let Some(Err(error)) = &steps {
            out.push(invalid(format!(
                "rule compile error: fieldPath {} is invalid: {error}",
                crate::gostd::strconv::quote(rule.field_path.as_deref().unwrap_or_default())
            )));
        }
        let shown = rule.shown();
        let detail = match rule.run(this, before, budget) {
            Outcome::Holds => continue,
            Outcome::Fails(_) if unchanged && !rule.transition => continue,
            Outcome::Fails(message) => message,
            Outcome::CompileError(detail) => {
                out.push(invalid(format!("rule compile error: {detail}")));
                continue;
            }
            Outcome::NoSuchOverload => {
                out.push(invalid(format!(
                    "'no such overload': call arguments did not match a supported operator, function or macro signature for rule: {shown}"
                )));
                continue;
            }
            Outcome::Error(error) => {
                out.push(invalid(format!("{error} evaluating rule: {shown}")));
                continue;
            }
            Outcome::CallLimit => {
                out.push(invalid(format!(
                    "'{}': no further validation rules will be run due to call cost exceeds limit for rule: {shown}",
                    crate::cel::cost::LIMIT_EXCEEDED
                )));
                return false;
            }
            Outcome::OutOfBudget => {
                out.push(invalid(
                    "validation failed due to running out of cost budget, no further validation rules will be run".into(),
                ));
                return false;
            }
            Outcome::MessageLimit(detail) => {
                out.push(invalid(detail));
                return false;
            }
        };
        let mut at = path.to_vec();
        if let Some(Ok(steps)) = &steps {
            at.extend(
                steps
                    .iter()
                    .map(|(name, key)| (Segment::Key(name.clone()), *key)),
            );
        }
        let shown = match value {
            Json::Object(_) | Json::Array(_) => String::new(),
            other => format!("{} ", value_text(other).trim_end()),
        };
        let f = field_path_text(&at);
        let message = match rule.reason.as_deref() {
            Some("FieldValueForbidden") => format!("{f}: Forbidden: {}", detail.trim()),
            Some("FieldValueRequired") => format!("{f}: Required value: {}", detail.trim()),
            Some("FieldValueDuplicate") => match value {
                Json::Object(_) | Json::Array(_) => format!("{f}: Duplicate value"),
                other => format!("{f}: Duplicate value: {}", value_text(other)),
            },
            _ => {
                if shown.is_empty() {
                    format!("{f}: Invalid value: {}", detail.trim())
                } else {
                    format!(
                        "{f}: Invalid value: {}: {}",
                        shown.trim_end(),
                        detail.trim()
                    )
                }
            }
        };
        out.push(Violation {
            kind: Kind::Cel,
            suggestion: None,
            path: at.into_iter().map(|(s, _)| s).collect(),
            message,
        });
    }
    true
}

mod listtype;

#[cfg(test)]
mod tests;
