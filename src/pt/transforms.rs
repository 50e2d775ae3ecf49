//! function-patch-and-transform's transforms (`transforms.go`): map, match, math, string and
//! convert, with the function's results and error texts.
//!
//! Values are JSON values as Kubernetes' unstructured data holds them: a number is an int64
//! when written without fraction or exponent ([`crate::gostd::fmt::go_number`]), else a
//! float64. What Go decodes with `encoding/json` into `any` (a map's or a match's result, a
//! convert's `json` format) has float64 numbers only, as in Go.

use serde_json::{Number, Value};
use sha1::Digest as _;

use crate::gostd::fmt::{GoNumber, format_float_go, go_number, sprintf, type_name};
use crate::gostd::strconv::quote;
use crate::pt::input::{
    self, CONVERT_FORMAT_JSON, CONVERT_FORMAT_NONE, CONVERT_FORMAT_QUANTITY, ConvertTransform,
    MapTransform, MatchTransform, MatchTransformPattern, MathTransform, StringTransform,
    StringTransformJoin, StringTransformRegexp, Transform,
};

/// Go's `Resolve`: one transform applied to `input`; an error names the transform type
/// (`math transform could not resolve: …`).
pub fn resolve(t: &Transform, input: &Value) -> Result<Value, String> {
    let missing = || format!("given transform type {} requires configuration", t.type_);
    let out = match t.type_.as_str() {
        input::TRANSFORM_MATH => resolve_math(t.math.as_ref().ok_or_else(missing)?, input),
        input::TRANSFORM_MAP => resolve_map(t.map.as_ref().ok_or_else(missing)?, input),
        input::TRANSFORM_MATCH => resolve_match(t.match_.as_ref().ok_or_else(missing)?, input),
        input::TRANSFORM_STRING => {
            resolve_string(t.string.as_ref().ok_or_else(missing)?, input).map(Value::String)
        }
        input::TRANSFORM_CONVERT => resolve_convert(t.convert.as_ref().ok_or_else(missing)?, input),
        other => return Err(format!("transform type {other} is not supported")),
    };
    out.map_err(|e| format!("{} transform could not resolve: {e}", t.type_))
}

/// The transforms of a patch applied in order (patches.go's `ResolveTransforms`): an error
/// names the failing transform's index (`transform at index 1 returned error: …`).
pub fn resolve_transforms(ts: &[Transform], input: &Value) -> Result<Value, String> {
    let mut v = input.clone();
    for (i, t) in ts.iter().enumerate() {
        v = resolve(t, &v).map_err(|e| format!("transform at index {i} returned error: {e}"))?;
    }
    Ok(v)
}

/// A float64 JSON number (Go's `float64` in unstructured data).
pub fn float_value(f: f64) -> Value {
    Number::from_f64(f)
        .map(Value::Number)
        .unwrap_or(Value::Null)
}

/// Go's `field.Required(path, detail).Error()`.
fn field_required(path: &str, detail: &str) -> String {
    format!("{path}: Required value: {detail}")
}

/// Go's `field.Invalid(path, value, detail).Error()` for a string value.
fn field_invalid(path: &str, value: &str, detail: &str) -> String {
    format!("{path}: Invalid value: {}: {detail}", quote(value))
}

/// validate.go's `ValidateMathTransform`, which `ResolveMath` runs first: the `field.Error`
/// text, its path relative to the math transform.
pub fn validate_math_transform(m: &MathTransform) -> Result<(), String> {
    match m.type_.as_str() {
        "" => Err(field_required("type", "math transform type is required")),
        input::MATH_MULTIPLY if m.multiply.is_none() => Err(field_required(
            "multiply",
            "must specify a value if a multiply math transform is specified",
        )),
        input::MATH_CLAMP_MIN if m.clamp_min.is_none() => Err(field_required(
            "clampMin",
            "must specify a value if a clamp min math transform is specified",
        )),
        input::MATH_CLAMP_MAX if m.clamp_max.is_none() => Err(field_required(
            "clampMax",
            "must specify a value if a clamp max math transform is specified",
        )),
        input::MATH_MULTIPLY | input::MATH_CLAMP_MIN | input::MATH_CLAMP_MAX => Ok(()),
        other => Err(field_invalid("type", other, "unknown math transform type")),
    }
}

/// validate.go's `ValidateConvertTransform`, which `ResolveConvert` runs first.
pub fn validate_convert_transform(t: &ConvertTransform) -> Result<(), String> {
    if ![
        CONVERT_FORMAT_NONE,
        CONVERT_FORMAT_QUANTITY,
        CONVERT_FORMAT_JSON,
    ]
    .contains(&t.format())
    {
        return Err(field_invalid("format", t.format(), "invalid format"));
    }
    if !input::IO_TYPES.contains(&t.to_type.as_str()) {
        return Err(field_invalid("toType", &t.to_type, "invalid type"));
    }
    Ok(())
}

/// Go's `ResolveMath`: Multiply keeps the input's type (int64 × int64, float64 × float64);
/// a clamp compares the input truncated to int64 and returns the bound (int64) or the input.
pub fn resolve_math(t: &MathTransform, input: &Value) -> Result<Value, String> {
    validate_math_transform(t)?;
    let Value::Number(n) = input else {
        return Err(format!(
            "input is required to be a number for math transformer, got {}",
            type_name(input)
        ));
    };
    let n = go_number(n);
    match t.type_.as_str() {
        input::MATH_MULTIPLY => {
            let m = t.multiply.unwrap_or_default();
            Ok(match n {
                GoNumber::Int(i) => Value::from(i.wrapping_mul(m)),
                GoNumber::Float(f) => float_value(f * m as f64),
            })
        }
        _ => {
            let i = match n {
                GoNumber::Int(i) => i,
                GoNumber::Float(f) => f as i64,
            };
            if t.type_ == input::MATH_CLAMP_MIN {
                let min = t.clamp_min.unwrap_or_default();
                if i < min {
                    return Ok(Value::from(min));
                }
            } else {
                let max = t.clamp_max.unwrap_or_default();
                if i > max {
                    return Ok(Value::from(max));
                }
            }
            Ok(input.clone())
        }
    }
}

/// A JSON value as Go's `encoding/json` decodes it into `any`: every number a float64.
pub fn std_json_value(v: &Value) -> Value {
    match v {
        Value::Number(n) => float_value(n.as_f64().unwrap_or(f64::NAN)),
        Value::Array(items) => Value::Array(items.iter().map(std_json_value).collect()),
        Value::Object(members) => Value::Object(
            members
                .iter()
                .map(|(k, v)| (k.clone(), std_json_value(v)))
                .collect(),
        ),
        other => other.clone(),
    }
}

/// Go's `ResolveMap`: the value for a string input.
pub fn resolve_map(t: &MapTransform, input: &Value) -> Result<Value, String> {
    let Value::String(key) = input else {
        return Err(format!(
            "type {} is not supported for map transform",
            type_name(input)
        ));
    };
    let Some(pair) = t.pairs.get(key) else {
        return Err(format!("key {key} is not found in map"));
    };
    match pair.value() {
        Some(v) => Ok(std_json_value(v)),
        None => Err(format!(
            "value for key {key} is not valid JSON: unexpected end of JSON input"
        )),
    }
}

/// Go's `ResolveMatch`: the first matching pattern's result, else the fallback.
pub fn resolve_match(t: &MatchTransform, input: &Value) -> Result<Value, String> {
    for (i, p) in t.patterns.iter().enumerate() {
        if matches(p, input).map_err(|e| format!("cannot match pattern at index {i}: {e}"))? {
            return Ok(p.result.value().map(std_json_value).unwrap_or(Value::Null));
        }
    }
    if t.fallback_to == input::MATCH_FALLBACK_TO_INPUT {
        if t.fallback_value.value().is_some() {
            return Err("cannot set both a fallback value and the fallback to input flag".into());
        }
        return Ok(input.clone());
    }
    Ok(t.fallback_value
        .value()
        .map(std_json_value)
        .unwrap_or(Value::Null))
}

/// Go's `regexp.Compile` error text.
fn regexp_error(e: crate::re2::SyntaxError) -> String {
    format!("error parsing regexp: {}: `{}`", e.code, e.expr)
}

/// Go's `Matches`: whether one pattern matches the input.
pub fn matches(p: &MatchTransformPattern, input: &Value) -> Result<bool, String> {
    match p.type_.as_str() {
        input::MATCH_PATTERN_LITERAL => {
            let Some(literal) = &p.literal else {
                return Err("literal is required by type literal".into());
            };
            match input {
                Value::String(s) => Ok(s == literal),
                _ => Err(format!("unsupported input type '{}'", type_name(input))),
            }
        }
        input::MATCH_PATTERN_REGEXP => {
            let Some(pattern) = &p.regexp else {
                return Err("regexp is required by type regexp".into());
            };
            let re = crate::re2::compile(pattern)
                .map_err(|e| format!("cannot compile regexp: {}", regexp_error(e)))?;
            match input {
                Value::Null => Err("unsupported input type 'null'".into()),
                Value::String(s) => Ok(re.regex.is_match(s)),
                _ => Err(format!("unsupported input type '{}'", type_name(input))),
            }
        }
        other => Err(format!("unsupported pattern type '{other}'")),
    }
}

/// Go's `%v` of a value.
fn v(input: &Value) -> String {
    sprintf("%v", std::slice::from_ref(input))
}

/// Go's `ResolveString`.
pub fn resolve_string(t: &StringTransform, input: &Value) -> Result<String, String> {
    let ty = t.type_.as_str();
    let unset = |what: &str| format!("string transform of type {ty} {what} is not set");
    match ty {
        input::STRING_FORMAT => {
            let f = t.format.as_ref().ok_or_else(|| unset("fmt"))?;
            Ok(sprintf(f, std::slice::from_ref(input)))
        }
        input::STRING_CONVERT => {
            string_convert(t.convert.as_deref().ok_or_else(|| unset("convert"))?, input)
        }
        input::STRING_TRIM_PREFIX | input::STRING_TRIM_SUFFIX => {
            let trim = t.trim.as_deref().ok_or_else(|| unset("trim"))?;
            let s = v(input);
            let out = if ty == input::STRING_TRIM_PREFIX {
                s.strip_prefix(trim)
            } else {
                s.strip_suffix(trim)
            };
            Ok(out.map(str::to_string).unwrap_or(s))
        }
        input::STRING_REGEXP => {
            string_regexp(input, t.regexp.as_ref().ok_or_else(|| unset("regexp"))?)
        }
        input::STRING_JOIN => string_join(input, t.join.as_ref().ok_or_else(|| unset("join"))?),
        input::STRING_REPLACE => {
            let r = t.replace.as_ref().ok_or_else(|| unset("replace"))?;
            Ok(v(input).replace(&r.search, &r.replace))
        }
        other => Err(format!(
            "type {other} is not supported for string transform type"
        )),
    }
}

/// Go's `json.Marshal` of unstructured data: keys sorted, HTML-escaped strings, int64s as
/// integers and float64s as Go writes them (`%f` form from 1e-6 to 1e21, else `%e`).
pub fn go_json_marshal(v: &Value) -> String {
    crate::eval::json::encode_json(&go_json_numbers(v), true)
}

fn go_json_numbers(v: &Value) -> Value {
    match v {
        Value::Number(n) => match go_number(n) {
            GoNumber::Int(i) => Value::from(i),
            GoNumber::Float(f) => {
                let a = f.abs();
                let mut text = if a != 0.0 && !(1e-6..1e21).contains(&a) {
                    format_float_go(f, 'e', None)
                } else {
                    format_float_go(f, 'f', None)
                };
                // Go writes e-07 as e-7.
                let b = text.as_bytes();
                let n = b.len();
                if n >= 4 && b[n - 4] == b'e' && b[n - 3] == b'-' && b[n - 2] == b'0' {
                    text.remove(n - 2);
                }
                serde_json::from_str::<Number>(&text)
                    .map(Value::Number)
                    .unwrap_or(Value::Null)
            }
        },
        Value::Array(items) => Value::Array(items.iter().map(go_json_numbers).collect()),
        Value::Object(members) => Value::Object(
            members
                .iter()
                .map(|(k, v)| (k.clone(), go_json_numbers(v)))
                .collect(),
        ),
        other => other.clone(),
    }
}

/// Go's `strings.ToUpper`/`ToLower`: per-character simple case mapping.
fn map_case(s: &str, upper: bool) -> String {
    s.chars()
        .map(|c| {
            let mut m: Vec<char> = if upper {
                c.to_uppercase().collect()
            } else {
                c.to_lowercase().collect()
            };
            if m.len() == 1 { m.remove(0) } else { c }
        })
        .collect()
}

/// zlib's Adler-32, as Go's `hash/adler32.Checksum`.
fn adler32(data: &[u8]) -> u32 {
    const MOD: u32 = 65521;
    let (mut a, mut b) = (1u32, 0u32);
    for chunk in data.chunks(5552) {
        for &x in chunk {
            a += u32::from(x);
            b += a;
        }
        a %= MOD;
        b %= MOD;
    }
    (b << 16) | a
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn string_convert(conversion: &str, input: &Value) -> Result<String, String> {
    let s = v(input);
    // What the hashes read: a string's bytes, anything else its JSON.
    let hashed = || match input {
        Value::String(s) => s.clone().into_bytes(),
        other => go_json_marshal(other).into_bytes(),
    };
    Ok(match conversion {
        "ToUpper" => map_case(&s, true),
        "ToLower" => map_case(&s, false),
        "ToJson" => go_json_marshal(input),
        "ToBase64" => {
            use base64::Engine as _;
            base64::engine::general_purpose::STANDARD.encode(s.as_bytes())
        }
        "FromBase64" => match crate::gostd::base64::decode(s.as_bytes()) {
            Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
            Err(at) => {
                return Err(format!(
                    "string is not valid base64: illegal base64 data at input byte {at}"
                ));
            }
        },
        "ToSha1" => hex(&sha1::Sha1::digest(hashed())),
        "ToSha256" => hex(&sha2::Sha256::digest(hashed())),
        "ToSha512" => hex(&sha2::Sha512::digest(hashed())),
        "ToAdler32" => adler32(&hashed()).to_string(),
        other => return Err(format!("type {other} is not supported for string convert")),
    })
}

fn string_join(input: &Value, j: &StringTransformJoin) -> Result<String, String> {
    let Value::Array(items) = input else {
        return Err("could not parse input array".into());
    };
    if items.is_empty() {
        return Ok(String::new());
    }
    let mut out: Vec<u8> = Vec::new();
    for item in items {
        out.extend_from_slice(v(item).as_bytes());
        out.extend_from_slice(j.separator.as_bytes());
    }
    if !j.separator.is_empty() {
        // Go drops one byte, whatever the separator's length.
        out.pop();
    }
    Ok(String::from_utf8_lossy(&out).into_owned())
}

fn string_regexp(input: &Value, r: &StringTransformRegexp) -> Result<String, String> {
    let re = crate::re2::compile(&r.match_)
        .map_err(|e| format!("could not compile regexp: {}", regexp_error(e)))?;
    let s = v(input);
    let g = r.group.map(|g| g.0).unwrap_or(0);
    let no_match = || format!("regexp {} had no matches for group {g}", quote(&r.match_));
    let caps = re.regex.captures(&s).ok_or_else(no_match)?;
    // A negative group would panic in Go; it is no match here.
    let idx = usize::try_from(g).map_err(|_| no_match())?;
    if idx >= caps.len() {
        return Err(no_match());
    }
    Ok(caps
        .get(idx)
        .map(|m| m.as_str().to_string())
        .unwrap_or_default())
}

/// Go's `strconv` error: `strconv.ParseInt: parsing "x": invalid syntax`.
fn num_error(func: &str, s: &str, why: &str) -> String {
    format!("strconv.{func}: parsing {}: {why}", quote(s))
}

fn parse_int(s: &str) -> Result<i64, String> {
    let digits = s.strip_prefix(['+', '-']).unwrap_or(s);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(num_error("ParseInt", s, "invalid syntax"));
    }
    s.parse::<i64>()
        .map_err(|_| num_error("ParseInt", s, "value out of range"))
}

fn parse_bool(s: &str) -> Result<bool, String> {
    match s {
        "1" | "t" | "T" | "TRUE" | "true" | "True" => Ok(true),
        "0" | "f" | "F" | "FALSE" | "false" | "False" => Ok(false),
        _ => Err(num_error("ParseBool", s, "invalid syntax")),
    }
}

fn parse_float(s: &str) -> Result<f64, String> {
    let body = s.strip_prefix(['+', '-']).unwrap_or(s);
    let lower = body.to_ascii_lowercase();
    let special = matches!(lower.as_str(), "inf" | "infinity" | "nan");
    let decimal = !body.is_empty()
        && body
            .bytes()
            .all(|b| b.is_ascii_digit() || matches!(b, b'.' | b'e' | b'E' | b'+' | b'-'))
        && body.bytes().any(|b| b.is_ascii_digit());
    if !special && !decimal {
        return Err(num_error("ParseFloat", s, "invalid syntax"));
    }
    let f: f64 = s
        .parse()
        .map_err(|_| num_error("ParseFloat", s, "invalid syntax"))?;
    if f.is_infinite() && !special {
        return Err(num_error("ParseFloat", s, "value out of range"));
    }
    Ok(f)
}

/// Go's `json.Unmarshal` of a convert's `json` input into a map or a slice.
fn unmarshal_json(s: &str, object: bool) -> Result<Value, String> {
    let parsed: Value = serde_json::from_str(s).map_err(|e| {
        if e.is_eof() {
            "unexpected end of JSON input".to_string()
        } else {
            let at = e.column().saturating_sub(1);
            let line_start: usize = s
                .split_inclusive('\n')
                .take(e.line().saturating_sub(1))
                .map(str::len)
                .sum();
            let c = s[line_start..].chars().nth(at).unwrap_or(' ');
            format!(
                "invalid character {} looking for beginning of value",
                quote_char(c)
            )
        }
    })?;
    let go = if object {
        "map[string]interface {}"
    } else {
        "[]interface {}"
    };
    let kind = match &parsed {
        Value::Null => return Ok(Value::Null),
        Value::Object(_) if object => return Ok(std_json_value(&parsed)),
        Value::Array(_) if !object => return Ok(std_json_value(&parsed)),
        Value::Bool(_) => "bool",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    };
    Err(format!(
        "json: cannot unmarshal {kind} into Go value of type {go}"
    ))
}

fn quote_char(c: char) -> String {
    match c {
        '\'' => "'\\''".into(),
        '"' => "'\"'".into(),
        _ => {
            let q = quote(&c.to_string());
            format!("'{}'", &q[1..q.len() - 1])
        }
    }
}

/// Go's `GetConversionFunc` without running it: whether `from` converts to the transform's
/// type with its format (`int` counts as `int64` on either side).
pub fn check_conversion(t: &ConvertTransform, from: &str) -> Result<(), String> {
    conversion(t, from).map(|_| ())
}

#[derive(Clone, Copy)]
enum Conv {
    Same,
    StrToInt,
    StrToBool,
    StrToFloat,
    StrQuantityToFloat,
    IntToStr,
    IntToBool,
    IntToFloat,
    BoolToStr,
    BoolToInt,
    BoolToFloat,
    FloatToStr,
    FloatToInt,
    FloatToBool,
    JsonToObject,
    JsonToArray,
}

fn conversion(t: &ConvertTransform, original_from: &str) -> Result<Conv, String> {
    let to = if t.to_type == "int" {
        "int64"
    } else {
        t.to_type.as_str()
    };
    let from = if original_from == "int" {
        "int64"
    } else {
        original_from
    };
    if to == from {
        return Ok(Conv::Same);
    }
    let format = t.format();
    let c = match (from, to, format) {
        ("string", "int64", CONVERT_FORMAT_NONE) => Conv::StrToInt,
        ("string", "bool", CONVERT_FORMAT_NONE) => Conv::StrToBool,
        ("string", "float64", CONVERT_FORMAT_NONE) => Conv::StrToFloat,
        ("string", "float64", CONVERT_FORMAT_QUANTITY) => Conv::StrQuantityToFloat,
        ("int64", "string", CONVERT_FORMAT_NONE) => Conv::IntToStr,
        ("int64", "bool", CONVERT_FORMAT_NONE) => Conv::IntToBool,
        ("int64", "float64", CONVERT_FORMAT_NONE) => Conv::IntToFloat,
        ("bool", "string", CONVERT_FORMAT_NONE) => Conv::BoolToStr,
        ("bool", "int64", CONVERT_FORMAT_NONE) => Conv::BoolToInt,
        ("bool", "float64", CONVERT_FORMAT_NONE) => Conv::BoolToFloat,
        ("float64", "string", CONVERT_FORMAT_NONE) => Conv::FloatToStr,
        ("float64", "int64", CONVERT_FORMAT_NONE) => Conv::FloatToInt,
        ("float64", "bool", CONVERT_FORMAT_NONE) => Conv::FloatToBool,
        ("string", "object", CONVERT_FORMAT_JSON) => Conv::JsonToObject,
        ("string", "array", CONVERT_FORMAT_JSON) => Conv::JsonToArray,
        _ => {
            return Err(input::err_convert_format_pair_not_supported(
                original_from,
                to,
                format,
            ));
        }
    };
    Ok(c)
}

/// Go's `ResolveConvert`: the input converted to the transform's type.
pub fn resolve_convert(t: &ConvertTransform, input: &Value) -> Result<Value, String> {
    validate_convert_transform(t)?;
    let from = type_name(input);
    if !input::IO_TYPES.contains(&from) {
        return Err(format!("invalid input type {from}"));
    }
    let s = || input.as_str().unwrap_or_default();
    let i = || match input {
        Value::Number(n) => match go_number(n) {
            GoNumber::Int(i) => i,
            GoNumber::Float(f) => f as i64,
        },
        _ => 0,
    };
    let f = || input.as_f64().unwrap_or_default();
    let b = || input.as_bool().unwrap_or_default();
    Ok(match conversion(t, from)? {
        Conv::Same => input.clone(),
        Conv::StrToInt => Value::from(parse_int(s())?),
        Conv::StrToBool => Value::Bool(parse_bool(s())?),
        Conv::StrToFloat => float_value(parse_float(s())?),
        Conv::StrQuantityToFloat => {
            let q = crate::cel::k8s::quantity::parse(s()).map_err(|e| e.to_string())?;
            float_value(q.as_approximate_float64())
        }
        Conv::IntToStr => Value::String(i().to_string()),
        Conv::IntToBool => Value::Bool(i() == 1),
        Conv::IntToFloat => float_value(i() as f64),
        Conv::BoolToStr => Value::String(b().to_string()),
        Conv::BoolToInt => Value::from(i64::from(b())),
        Conv::BoolToFloat => float_value(if b() { 1.0 } else { 0.0 }),
        Conv::FloatToStr => Value::String(format_float_go(f(), 'f', None)),
        Conv::FloatToInt => Value::from(f() as i64),
        Conv::FloatToBool => Value::Bool(f() == 1.0),
        Conv::JsonToObject => {
            unmarshal_json(s(), true).map(|v| if v.is_null() { Value::Null } else { v })?
        }
        Conv::JsonToArray => unmarshal_json(s(), false)?,
    })
}

#[cfg(test)]
mod tests;
