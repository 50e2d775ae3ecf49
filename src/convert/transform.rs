//! P&T transforms as HCL expressions over the expression of their input. Each arm says why it
//! is exact; what HCL cannot say exactly is an `Err` with the reason (a TODO for the caller).
//!
//! P&T reads values from Kubernetes' unstructured JSON, where a whole number is an `int64`
//! and any other number a `float64`; HCL has one number type. The mappings below are exact
//! for the input types P&T accepts without an error; where P&T fails (a map key that is
//! missing, a regexp that does not match, a string that is not a number) the HCL fails too,
//! so the resource is deferred instead of silently changed.

use super::hcl::{literal, quote};
use serde_json::Value as Json;

/// The expression of `transform` applied to the expression `input`.
pub fn apply(transform: &Json, input: &str) -> Result<String, String> {
    let kind = transform.get("type").and_then(Json::as_str).unwrap_or("");
    let config = |name: &str| {
        transform
            .get(name)
            .ok_or_else(|| format!("a `{kind}` transform without its `{name}` configuration"))
    };
    match kind {
        "map" => map(config("map")?, input),
        "match" => matching(config("match")?, input),
        "math" => math(config("math")?, input),
        "string" => string(config("string")?, input),
        "convert" => convert(config("convert")?, input),
        other => Err(format!("the transform type `{other}`")),
    }
}

/// `map`: the input (a string) names a key; a missing key fails in both.
fn map(pairs: &Json, input: &str) -> Result<String, String> {
    // Old Compositions write the pairs directly; the function's input nests them in `pairs`.
    let pairs = pairs.get("pairs").unwrap_or(pairs);
    if !pairs.is_object() {
        return Err("a `map` transform whose pairs are not an object".into());
    }
    Ok(format!("lookup({}, {input})", literal(pairs)))
}

/// `match`: the first pattern that matches gives its result, else the fallback.
fn matching(config: &Json, input: &str) -> Result<String, String> {
    let patterns = config
        .get("patterns")
        .and_then(Json::as_array)
        .cloned()
        .unwrap_or_default();
    let fallback_input = config.get("fallbackTo").and_then(Json::as_str) == Some("Input");
    let fallback = if fallback_input {
        if config.get("fallbackValue").is_some_and(|v| !v.is_null()) {
            return Err("a `match` transform with both a fallback value and `fallbackTo: Input` (P&T fails it)".into());
        }
        input.to_string()
    } else {
        literal(config.get("fallbackValue").unwrap_or(&Json::Null))
    };
    let mut tests = Vec::new();
    let mut results = Vec::new();
    for p in &patterns {
        let test = match p.get("type").and_then(Json::as_str).unwrap_or("literal") {
            "literal" => {
                let Some(lit) = p.get("literal").and_then(Json::as_str) else {
                    return Err("a `literal` match pattern without its `literal`".into());
                };
                format!("{input} == {}", quote(lit))
            }
            "regexp" => {
                let Some(re) = p.get("regexp").and_then(Json::as_str) else {
                    return Err("a `regexp` match pattern without its `regexp`".into());
                };
                // RE2 in both; `regex` fails where nothing matches, which `can` turns into false.
                format!("can(regex({}, {input}))", quote(re))
            }
            other => return Err(format!("the match pattern type `{other}`")),
        };
        tests.push(test);
        results.push(literal(p.get("result").unwrap_or(&Json::Null)));
    }
    if tests.is_empty() {
        return Ok(fallback);
    }
    // A conditional unifies its arms' types (a number next to a string becomes a string), so
    // the chain is exact only when every result has one type; otherwise the results sit in a
    // tuple, which keeps each element's type, indexed by the number of the first match.
    let mut all: Vec<&Json> = patterns
        .iter()
        .map(|p| p.get("result").unwrap_or(&Json::Null))
        .collect();
    let fallback_value = config.get("fallbackValue").unwrap_or(&Json::Null);
    if !fallback_input {
        all.push(fallback_value);
    }
    let one_type = same_scalar_type(&all, fallback_input);
    if one_type {
        let mut out = fallback;
        for (test, result) in tests.iter().zip(&results).rev() {
            out = format!("{test} ? {result} : {out}");
        }
        return Ok(out);
    }
    let mut index = tests.len().to_string();
    for (i, test) in tests.iter().enumerate().rev() {
        index = format!("{test} ? {i} : {index}");
    }
    results.push(fallback);
    Ok(format!("[{}][{index}]", results.join(", ")))
}

/// Whether every value (nulls aside) is a string, or every one a number, or every one a bool;
/// with `input` also in the chain, strings only (P&T's patterns fail on anything else).
fn same_scalar_type(values: &[&Json], input_too: bool) -> bool {
    let kinds: Vec<u8> = values
        .iter()
        .filter(|v| !v.is_null())
        .map(|v| match v {
            Json::String(_) => 0,
            Json::Number(_) => 1,
            Json::Bool(_) => 2,
            Json::Null | Json::Array(_) | Json::Object(_) => 3,
        })
        .collect();
    let first = kinds.first().copied().unwrap_or(0);
    first != 3 && kinds.iter().all(|k| *k == first) && (!input_too || first == 0)
}

/// `math`: `Multiply` is `*`; `ClampMin`/`ClampMax` are `max`/`min` (P&T compares the
/// truncated integer, which differs only for negative fractions next to the bound).
fn math(config: &Json, input: &str) -> Result<String, String> {
    let kind = config
        .get("type")
        .and_then(Json::as_str)
        .unwrap_or("Multiply");
    let number = |name: &str| {
        config
            .get(name)
            .filter(|v| v.is_number())
            .map(ToString::to_string)
            .ok_or_else(|| format!("a `{kind}` math transform without its `{name}`"))
    };
    match kind {
        "Multiply" => Ok(format!("{} * {}", paren(input), number("multiply")?)),
        // P&T compares the number truncated toward zero, and returns the input itself.
        "ClampMin" => {
            let n = number("clampMin")?;
            Ok(format!("{} < {n} ? {n} : {input}", truncated(input)))
        }
        "ClampMax" => {
            let n = number("clampMax")?;
            Ok(format!("{} > {n} ? {n} : {input}", truncated(input)))
        }
        other => Err(format!("the math transform type `{other}`")),
    }
}

/// `string`: each type by the HCL function with Go's behaviour.
fn string(config: &Json, input: &str) -> Result<String, String> {
    let kind = config
        .get("type")
        .and_then(Json::as_str)
        .unwrap_or("Format");
    let text = |name: &str| {
        config
            .get(name)
            .and_then(Json::as_str)
            .map(str::to_string)
            .ok_or_else(|| format!("a `{kind}` string transform without its `{name}`"))
    };
    match kind {
        "Format" => format_call(&text("fmt")?, &[input.to_string()]),
        "Convert" => string_convert(&text("convert")?, input),
        "TrimPrefix" => Ok(format!("trimprefix({input}, {})", quote(&text("trim")?))),
        "TrimSuffix" => Ok(format!("trimsuffix({input}, {})", quote(&text("trim")?))),
        "Regexp" => {
            let re = config
                .get("regexp")
                .ok_or("a `Regexp` string transform without its `regexp`")?;
            let pattern = re
                .get("match")
                .and_then(Json::as_str)
                .ok_or("a `Regexp` string transform without its `match`")?;
            let group = re.get("group").and_then(Json::as_u64).unwrap_or(0);
            if pattern.contains("(?P<") || pattern.contains("(?<") {
                return Err(
                    "a `Regexp` transform with named groups (`regex` returns an object for them)"
                        .into(),
                );
            }
            // Wrapping the pattern in one group makes `regex` return every group as a list
            // whose element N is P&T's group N (element 0 the whole match).
            Ok(format!(
                "regex({}, {input})[{group}]",
                quote(&format!("({pattern})"))
            ))
        }
        "Join" => {
            let sep = config
                .get("join")
                .and_then(|j| j.get("separator"))
                .and_then(Json::as_str)
                .unwrap_or("");
            if sep.len() <= 1 {
                return Ok(format!("join({}, {input})", quote(sep)));
            }
            if !sep.is_ascii() {
                return Err("a `Join` with a multi-byte separator (P&T cuts its last byte off, leaving invalid UTF-8)".into());
            }
            // P&T appends the separator after every element and then cuts one byte, so a
            // separator of several bytes leaves all but its last byte at the end.
            let rest = quote(&sep[..sep.len() - 1]);
            Ok(format!(
                "length({input}) == 0 ? join({0}, {input}) : \"${{join({0}, {input})}}{1}\"",
                quote(sep),
                &rest[1..rest.len() - 1]
            ))
        }
        "Replace" => {
            let r = config
                .get("replace")
                .ok_or("a `Replace` string transform without its `replace`")?;
            let search = r.get("search").and_then(Json::as_str).unwrap_or("");
            let with = r.get("replace").and_then(Json::as_str).unwrap_or("");
            if search.len() > 1 && search.starts_with('/') && search.ends_with('/') {
                return Err("a `Replace` whose search is written `/…/` (HCL's `replace` reads it as a regular expression)".into());
            }
            Ok(format!(
                "replace({input}, {}, {})",
                quote(search),
                quote(with)
            ))
        }
        other => Err(format!("the string transform type `{other}`")),
    }
}

/// `string` `Convert`.
fn string_convert(kind: &str, input: &str) -> Result<String, String> {
    let call = |f: &str| Ok(format!("{f}({input})"));
    match kind {
        "ToUpper" => call("upper"),
        "ToLower" => call("lower"),
        "ToBase64" => call("base64encode"),
        "FromBase64" => call("base64decode"),
        "ToJson" => call("jsonencode"),
        // Go hashes a string's bytes and anything else's JSON; `tostring` gives a scalar's
        // JSON text, and `jsonencode` an object's or a list's.
        "ToSha1" => Ok(format!("sha1(try(tostring({input}), jsonencode({input})))")),
        "ToSha256" => Ok(format!(
            "sha256(try(tostring({input}), jsonencode({input})))"
        )),
        "ToSha512" => Ok(format!(
            "sha512(try(tostring({input}), jsonencode({input})))"
        )),
        "ToAdler32" => Err("the string conversion `ToAdler32` (HCL has no Adler-32)".into()),
        other => Err(format!("the string conversion `{other}`")),
    }
}

/// `format(FMT, args…)` when every verb of `fmt` is one whose Go and HCL outputs agree for
/// the values P&T passes, and every value is used; else why not.
pub fn format_call(fmt: &str, args: &[String]) -> Result<String, String> {
    let used = verbs(fmt)?;
    let all: Vec<usize> = (1..=args.len()).collect();
    let mut seen = used.clone();
    seen.sort_unstable();
    seen.dedup();
    if seen != all {
        return Err(format!(
            "a format string whose verbs use {} value(s) of {} (Go prints `%!(MISSING)`/`%!(EXTRA …)` markers, HCL's `format` fails)",
            seen.len(),
            args.len()
        ));
    }
    let mut out = format!("format({}", quote(fmt));
    for a in args {
        out.push_str(", ");
        out.push_str(a);
    }
    out.push(')');
    Ok(out)
}

/// The argument numbers (from 1) the verbs of a Go format string use, when each verb is
/// `%s`, `%v` or `%d`, optionally with an explicit index (`%[2]s`), or `%.Ns` (at most N
/// characters): for strings, whole numbers and bools Go's `fmt` and HCL's `format` print
/// these the same. `%%` is a percent sign in both.
fn verbs(fmt: &str) -> Result<Vec<usize>, String> {
    let mut used = Vec::new();
    let mut next = 1;
    let mut chars = fmt.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '%' {
            continue;
        }
        if chars.peek() == Some(&'%') {
            chars.next();
            continue;
        }
        let mut spec = String::from("%");
        if chars.peek() == Some(&'[') {
            let mut index = String::new();
            chars.next();
            for c in chars.by_ref() {
                if c == ']' {
                    break;
                }
                index.push(c);
            }
            spec.push_str(&format!("[{index}]"));
            next = index
                .parse::<usize>()
                .ok()
                .filter(|i| *i > 0)
                .ok_or(format!("the format verb index `%[{index}]`"))?;
        }
        let mut precision = false;
        if chars.peek() == Some(&'.') {
            chars.next();
            spec.push('.');
            while let Some(d) = chars.peek().copied().filter(char::is_ascii_digit) {
                spec.push(d);
                chars.next();
            }
            precision = true;
        }
        match chars.next() {
            Some('s') => {}
            Some('v' | 'd') if !precision => {}
            Some(other) => {
                return Err(format!(
                    "the format verb `{spec}{other}` (only `%s`, `%v`, `%d`, `%.Ns`, their `%[N]` forms and `%%` print the same in Go and HCL)"
                ));
            }
            None => return Err("a format string ending in a verb's start".into()),
        }
        used.push(next);
        next += 1;
    }
    Ok(used)
}

/// `convert`: by the target type; `format: quantity` has no HCL counterpart.
fn convert(config: &Json, input: &str) -> Result<String, String> {
    let to = config.get("toType").and_then(Json::as_str).unwrap_or("");
    let format = config
        .get("format")
        .and_then(Json::as_str)
        .unwrap_or("none");
    match (to, format) {
        ("string", "none" | "") => Ok(format!("tostring({input})")),
        // P&T converts by the input's Go type: a string is parsed (ParseInt, base 10, no
        // fraction; ParseBool's spellings; ParseFloat), a bool is 1 or 0, a float64 is
        // truncated toward zero; `jsonencode` tells the types apart at run time.
        ("int" | "int64", "none" | "") => Ok(format!(
            "{} ? parseint({input}, 10) : {} ? ({input} ? 1 : 0) : {}",
            is_string(input),
            is_bool(input),
            truncated(input)
        )),
        ("float64", "none" | "") => Ok(format!(
            "{} ? ({input} ? 1 : 0) : tonumber({input})",
            is_bool(input)
        )),
        ("bool", "none" | "") => Ok(format!(
            "{} ? (contains([\"1\", \"t\", \"T\", \"TRUE\", \"true\", \"True\"], {input}) ? true : contains([\"0\", \"f\", \"F\", \"FALSE\", \"false\", \"False\"], {input}) ? false : tobool({input})) : {} ? tobool({input}) : {input} == 1",
            is_string(input),
            is_bool(input)
        )),
        // `merge` and `concat` fail on a document of the other shape, as Go's decoder does.
        ("object", "json") => Ok(format!("merge(jsondecode({input}))")),
        ("array", "json") => Ok(format!("concat(jsondecode({input}))")),
        (to, "quantity") => Err(format!(
            "a conversion to `{to}` with `format: quantity` (HCL cannot parse Kubernetes quantities)"
        )),
        (to, format) => Err(format!("a conversion to `{to}` with format `{format}`")),
    }
}

/// The number `input` truncated toward zero (Go's `int64(f)`).
fn truncated(input: &str) -> String {
    format!("({input} < 0 ? ceil({input}) : floor({input}))")
}

/// Whether `input` is a string: its JSON text starts with a quote.
fn is_string(input: &str) -> String {
    format!("startswith(jsonencode({input}), \"\\\"\")")
}

/// Whether `input` is a bool.
fn is_bool(input: &str) -> String {
    format!("contains([\"true\", \"false\"], jsonencode({input}))")
}

/// `input` in parentheses when it is more than a traversal or a call.
fn paren(input: &str) -> String {
    if input.contains(' ') {
        format!("({input})")
    } else {
        input.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn each_transform_maps_to_hcl() {
        let t = json!({"type": "map", "map": {"us": "us-east-1"}});
        assert_eq!(
            apply(&t, "v").unwrap(),
            "lookup({\nus = \"us-east-1\"\n}, v)"
        );
        let t = json!({"type": "string", "string": {"type": "Format", "fmt": "%s-bucket"}});
        assert_eq!(apply(&t, "v").unwrap(), "format(\"%s-bucket\", v)");
        let t = json!({"type": "string", "string": {"type": "Format", "fmt": "%05d"}});
        assert!(apply(&t, "v").is_err());
        let t = json!({"type": "math", "math": {"type": "Multiply", "multiply": 2}});
        assert_eq!(apply(&t, "v").unwrap(), "v * 2");
        let t = json!({"type": "string", "string": {"type": "Regexp", "regexp": {"match": "a(b)", "group": 1}}});
        assert_eq!(apply(&t, "v").unwrap(), "regex(\"(a(b))\", v)[1]");
        let t = json!({"type": "string", "string": {"type": "Join", "join": {"separator": ", "}}});
        assert_eq!(
            apply(&t, "v").unwrap(),
            "length(v) == 0 ? join(\", \", v) : \"${join(\", \", v)},\""
        );
    }

    #[test]
    fn match_keeps_result_types() {
        let t = json!({"type": "match", "match": {"patterns": [
            {"type": "literal", "literal": "a", "result": "x"},
            {"type": "regexp", "regexp": "^b", "result": "y"}], "fallbackValue": "z"}});
        assert_eq!(
            apply(&t, "v").unwrap(),
            "v == \"a\" ? \"x\" : can(regex(\"^b\", v)) ? \"y\" : \"z\""
        );
        let t = json!({"type": "match", "match": {"patterns": [
            {"type": "literal", "literal": "a", "result": 1}], "fallbackValue": "z"}});
        assert_eq!(apply(&t, "v").unwrap(), "[1, \"z\"][v == \"a\" ? 0 : 1]");
    }
}
