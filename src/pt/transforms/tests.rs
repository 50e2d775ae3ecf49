//! function-patch-and-transform v0.10.8's `transforms_test.go`, every case, as tables named
//! after the Go cases. Go passes some inputs as Go `int`s, which unstructured data never
//! holds: those are int64 here and the messages that print the type say `int64` (marked
//! "int64 here"). Cases whose input is a Go `func()` (the `…Error` hash cases and
//! `ConvertToJSONFail`) have no JSON equivalent: JSON always marshals, so they are left out.

use serde_json::{Value, json};

use super::*;
use crate::gostd::fmt::type_name;
use crate::pt::fieldpath::go_equal;
use crate::pt::input::decode_transform;

/// One case: its Go name, the transform, the input, and the output or error.
type Case = (&'static str, Value, Value, Result<Value, &'static str>);

/// Runs the transform's own resolver (as the Go test calls `ResolveMap`, `ResolveMatch`…)
/// and compares values with their Go types.
fn run(cases: Vec<Case>) {
    for (name, transform, input, want) in cases {
        let t = decode_transform(&transform).unwrap_or_else(|e| panic!("{name}: {e}"));
        let got = match t.type_.as_str() {
            "map" => resolve_map(t.map.as_ref().unwrap(), &input),
            "match" => resolve_match(t.match_.as_ref().unwrap(), &input),
            "math" => resolve_math(t.math.as_ref().unwrap(), &input),
            "string" => resolve_string(t.string.as_ref().unwrap(), &input).map(Value::String),
            "convert" => resolve_convert(t.convert.as_ref().unwrap(), &input),
            other => panic!("{name}: {other}"),
        };
        match (&got, &want) {
            (Ok(g), Ok(w)) => {
                assert!(go_equal(g, w), "{name}: got {g}, want {w}");
                assert_eq!(type_name(g), type_name(w), "{name}: Go type of {g}");
            }
            (Err(g), Err(w)) => assert_eq!(g, w, "{name}"),
            _ => panic!("{name}: got {got:?}, want {want:?}"),
        }
    }
}

fn map(pairs: Value) -> Value {
    json!({"type": "map", "map": pairs})
}

#[test]
fn map_resolve() {
    // TestMapResolve
    run(vec![
        (
            "NonStringInput",
            map(json!({})),
            json!(5),
            Err("type int64 is not supported for map transform"),
        ), // int64 here
        (
            "KeyNotFound",
            map(json!({})),
            json!("ola"),
            Err("key ola is not found in map"),
        ),
        (
            "SuccessString",
            map(json!({"ola": "voila"})),
            json!("ola"),
            Ok(json!("voila")),
        ),
        (
            "SuccessNumber",
            map(json!({"ola": 1.0})),
            json!("ola"),
            Ok(json!(1.0)),
        ),
        (
            "SuccessBoolean",
            map(json!({"ola": true})),
            json!("ola"),
            Ok(json!(true)),
        ),
        (
            "SuccessObject",
            map(json!({"ola": {"foo": "bar"}})),
            json!("ola"),
            Ok(json!({"foo": "bar"})),
        ),
        (
            "SuccessSlice",
            map(json!({"ola": ["foo", "bar"]})),
            json!("ola"),
            Ok(json!(["foo", "bar"])),
        ),
    ]);
}

fn matcher(m: Value) -> Value {
    json!({"type": "match", "match": m})
}

#[test]
fn match_resolve() {
    // TestMatchResolve
    let lit = |l: &str, r: Value| json!({"type": "literal", "literal": l, "result": r});
    run(vec![
        (
            "ErrNonStringInput",
            matcher(json!({"patterns": [{"type": "literal", "literal": "5"}]})),
            json!(5),
            Err("cannot match pattern at index 0: unsupported input type 'int64'"), // int64 here
        ),
        (
            "ErrFallbackValueAndToInput",
            matcher(json!({"patterns": [], "fallbackValue": "foo", "fallbackTo": "Input"})),
            json!("foo"),
            Err("cannot set both a fallback value and the fallback to input flag"),
        ),
        (
            "NoPatternsFallback",
            matcher(json!({"patterns": [], "fallbackValue": "bar"})),
            json!("foo"),
            Ok(json!("bar")),
        ),
        (
            "NoPatternsFallbackToValueExplicit",
            matcher(json!({"patterns": [], "fallbackValue": "bar", "fallbackTo": "Value"})),
            json!("foo"),
            Ok(json!("bar")),
        ),
        (
            "NoPatternsFallbackNil",
            matcher(json!({"patterns": [], "fallbackValue": null})),
            json!("foo"),
            Ok(Value::Null),
        ),
        (
            "NoPatternsFallbackToInput",
            matcher(json!({"patterns": [], "fallbackTo": "Input"})),
            json!("foo"),
            Ok(json!("foo")),
        ),
        (
            "NoPatternsFallbackNilToInput",
            matcher(json!({"patterns": [], "fallbackValue": null, "fallbackTo": "Input"})),
            json!("foo"),
            Ok(json!("foo")),
        ),
        (
            "MatchLiteral",
            matcher(json!({"patterns": [lit("foo", json!("bar"))]})),
            json!("foo"),
            Ok(json!("bar")),
        ),
        (
            "MatchLiteralFirst",
            matcher(json!({"patterns": [lit("foo", json!("bar")), lit("foo", json!("not this"))]})),
            json!("foo"),
            Ok(json!("bar")),
        ),
        (
            "MatchLiteralWithResultStruct",
            matcher(json!({"patterns": [lit("foo", json!({"Hello": "World"}))]})),
            json!("foo"),
            Ok(json!({"Hello": "World"})),
        ),
        (
            "MatchLiteralWithResultSlice",
            matcher(json!({"patterns": [lit("foo", json!(["Hello", "World"]))]})),
            json!("foo"),
            Ok(json!(["Hello", "World"])),
        ),
        (
            "MatchLiteralWithResultNumber",
            matcher(json!({"patterns": [lit("foo", json!(5))]})),
            json!("foo"),
            Ok(json!(5.0)),
        ),
        (
            "MatchLiteralWithResultBool",
            matcher(json!({"patterns": [lit("foo", json!(true))]})),
            json!("foo"),
            Ok(json!(true)),
        ),
        (
            "MatchLiteralWithResultNil",
            matcher(json!({"patterns": [lit("foo", Value::Null)]})),
            json!("foo"),
            Ok(Value::Null),
        ),
        (
            "MatchRegexp",
            matcher(
                json!({"patterns": [{"type": "regexp", "regexp": "^foo.*$", "result": "Hello World"}]}),
            ),
            json!("foobar"),
            Ok(json!("Hello World")),
        ),
        (
            "ErrMissingRegexp",
            matcher(json!({"patterns": [{"type": "regexp"}]})),
            Value::Null,
            Err("cannot match pattern at index 0: regexp is required by type regexp"),
        ),
        (
            "ErrInvalidRegexp",
            matcher(json!({"patterns": [{"type": "regexp", "regexp": "?="}]})),
            Value::Null,
            Err(
                "cannot match pattern at index 0: cannot compile regexp: error parsing regexp: missing argument to repetition operator: `?`",
            ),
        ),
        (
            "ErrMissingLiteral",
            matcher(json!({"patterns": [{"type": "literal"}]})),
            Value::Null,
            Err("cannot match pattern at index 0: literal is required by type literal"),
        ),
    ]);
}

fn math(m: Value) -> Value {
    json!({"type": "math", "math": m})
}

#[test]
fn math_resolve() {
    // TestMathResolve (Go compares the field.Error's type and field; the whole text here)
    run(vec![
        (
            "InvalidType",
            math(json!({"type": "bad"})),
            json!(25),
            Err("type: Invalid value: \"bad\": unknown math transform type"),
        ),
        (
            "NonNumberInput",
            math(json!({"type": "Multiply", "multiply": 2})),
            json!("ola"),
            Err("input is required to be a number for math transformer, got string"),
        ),
        (
            "MultiplyNoConfig",
            math(json!({"type": "Multiply"})),
            json!(25),
            Err(
                "multiply: Required value: must specify a value if a multiply math transform is specified",
            ),
        ),
        (
            "MultiplySuccess",
            math(json!({"type": "Multiply", "multiply": 2})),
            json!(3),
            Ok(json!(6)),
        ),
        (
            "MultiplySuccessInt64",
            math(json!({"type": "Multiply", "multiply": 2})),
            json!(3),
            Ok(json!(6)),
        ),
        (
            "ClampMinSuccess",
            math(json!({"type": "ClampMin", "clampMin": 2})),
            json!(1),
            Ok(json!(2)),
        ),
        (
            "ClampMinSuccessNoChangeInt",
            math(json!({"type": "ClampMin", "clampMin": 2})),
            json!(3),
            Ok(json!(3)),
        ),
        (
            "ClampMinSuccessNoChangeInt64",
            math(json!({"type": "ClampMin", "clampMin": 2})),
            json!(3),
            Ok(json!(3)),
        ),
        (
            "ClampMinSuccessInt64",
            math(json!({"type": "ClampMin", "clampMin": 2})),
            json!(1),
            Ok(json!(2)),
        ),
        (
            "ClampMinNoConfig",
            math(json!({"type": "ClampMin"})),
            json!(25),
            Err(
                "clampMin: Required value: must specify a value if a clamp min math transform is specified",
            ),
        ),
        (
            "ClampMaxSuccess",
            math(json!({"type": "ClampMax", "clampMax": 2})),
            json!(3),
            Ok(json!(2)),
        ),
        (
            "ClampMaxSuccessNoChange",
            math(json!({"type": "ClampMax", "clampMax": 2})),
            json!(1),
            Ok(json!(1)),
        ),
        (
            "ClampMaxSuccessInt64",
            math(json!({"type": "ClampMax", "clampMax": 2})),
            json!(3),
            Ok(json!(2)),
        ),
        (
            "ClampMaxNoConfig",
            math(json!({"type": "ClampMax"})),
            json!(25),
            Err(
                "clampMax: Required value: must specify a value if a clamp max math transform is specified",
            ),
        ),
    ]);
    // Not in Go's table: a float64 multiplies as a float64, and a clamp leaves it one.
    run(vec![
        (
            "MultiplyFloat",
            math(json!({"type": "Multiply", "multiply": 2})),
            json!(1.5),
            Ok(json!(3.0)),
        ),
        (
            "ClampMinFloatNoChange",
            math(json!({"type": "ClampMin", "clampMin": 2})),
            json!(2.5),
            Ok(json!(2.5)),
        ),
        (
            "NoType",
            math(json!({"multiply": 2})),
            json!(1),
            Err("type: Required value: math transform type is required"),
        ),
    ]);
}

fn string(s: Value) -> Value {
    json!({"type": "string", "string": s})
}

fn convert(c: &str) -> Value {
    string(json!({"type": "Convert", "convert": c}))
}

#[test]
fn string_resolve() {
    // TestStringResolve
    let regexp = |m: &str, g: Option<i64>| {
        string(json!({"type": "Regexp", "regexp": {"match": m, "group": g}}))
    };
    let sha512_1234 = "d404559f602eab6fd602ac7680dacbfaadd13630335e951f097af3900e9de176b6db28512f2e000b9d04fba5133e8b1c6e8df59db3a8ab9d60be4b97cc9e81db";
    run(vec![
        (
            "NotSupportedType",
            string(json!({"type": "Something"})),
            json!("value"),
            Err("type Something is not supported for string transform type"),
        ),
        (
            "FmtFailed",
            string(json!({"type": "Format"})),
            json!("value"),
            Err("string transform of type Format fmt is not set"),
        ),
        (
            "FmtString",
            string(json!({"type": "Format", "fmt": "verycool%s"})),
            json!("thing"),
            Ok(json!("verycoolthing")),
        ),
        (
            "FmtInteger",
            string(json!({"type": "Format", "fmt": "the largest %d"})),
            json!(8),
            Ok(json!("the largest 8")),
        ),
        (
            "ConvertNotSet",
            string(json!({"type": "Convert"})),
            json!("crossplane"),
            Err("string transform of type Convert convert is not set"),
        ),
        (
            "ConvertTypFailed",
            convert("Something"),
            json!("crossplane"),
            Err("type Something is not supported for string convert"),
        ),
        (
            "ConvertToUpper",
            convert("ToUpper"),
            json!("crossplane"),
            Ok(json!("CROSSPLANE")),
        ),
        (
            "ConvertToLower",
            convert("ToLower"),
            json!("CrossPlane"),
            Ok(json!("crossplane")),
        ),
        (
            "ConvertToBase64",
            convert("ToBase64"),
            json!("CrossPlane"),
            Ok(json!("Q3Jvc3NQbGFuZQ==")),
        ),
        (
            "ConvertFromBase64",
            convert("FromBase64"),
            json!("Q3Jvc3NQbGFuZQ=="),
            Ok(json!("CrossPlane")),
        ),
        (
            "ConvertFromBase64Error",
            convert("FromBase64"),
            json!("ThisStringIsNotBase64"),
            Err("string is not valid base64: illegal base64 data at input byte 20"),
        ),
        (
            "ConvertToSha1",
            convert("ToSha1"),
            json!("Crossplane"),
            Ok(json!("3b683dc8ff44122b331a5e4f253dd69d90726d75")),
        ),
        (
            "ConvertToSha256",
            convert("ToSha256"),
            json!("Crossplane"),
            Ok(json!(
                "19c8a7c24ed0067f606815b59e5b82d92935ff69deed04171457a55018e31224"
            )),
        ),
        (
            "ConvertToSha512",
            convert("ToSha512"),
            json!("Crossplane"),
            Ok(json!(
                "0016037c62c92b5cc4a282fbe30cdd228fa001624b26fd31baa9fcb76a9c60d48e2e7a16cf8729a2d9cba3d23e1d846e7721a5381b9a92dd813178e9a6686205"
            )),
        ),
        (
            "ConvertToSha512Int",
            convert("ToSha512"),
            json!(1234),
            Ok(json!(sha512_1234)),
        ),
        (
            "ConvertToSha512IntStr",
            convert("ToSha512"),
            json!("1234"),
            Ok(json!(sha512_1234)),
        ),
        (
            "ConvertToAdler32",
            convert("ToAdler32"),
            json!("Crossplane"),
            Ok(json!("373097499")),
        ),
        (
            "ConvertToAdler32Unicode",
            convert("ToAdler32"),
            json!("⡌⠁⠧⠑ ⠼⠁⠒  ⡍⠜⠇⠑⠹⠰⠎ ⡣⠕⠌"),
            Ok(json!("4110427190")),
        ),
        (
            "TrimPrefix",
            string(json!({"type": "TrimPrefix", "trim": "https://"})),
            json!("https://crossplane.io"),
            Ok(json!("crossplane.io")),
        ),
        (
            "TrimSuffix",
            string(json!({"type": "TrimSuffix", "trim": "-test"})),
            json!("my-string-test"),
            Ok(json!("my-string")),
        ),
        (
            "TrimPrefixWithoutMatch",
            string(json!({"type": "TrimPrefix", "trim": "https://"})),
            json!("crossplane.io"),
            Ok(json!("crossplane.io")),
        ),
        (
            "TrimSuffixWithoutMatch",
            string(json!({"type": "TrimSuffix", "trim": "-test"})),
            json!("my-string"),
            Ok(json!("my-string")),
        ),
        (
            "RegexpNotCompiling",
            regexp("[a-z", None),
            json!("my-string"),
            Err("could not compile regexp: error parsing regexp: missing closing ]: `[a-z`"),
        ),
        (
            "RegexpSimpleMatch",
            regexp("[0-9]", None),
            json!("my-1-string"),
            Ok(json!("1")),
        ),
        (
            "RegexpCaptureGroup",
            regexp("my-([0-9]+)-string", Some(1)),
            json!("my-1-string"),
            Ok(json!("1")),
        ),
        (
            "RegexpNoSuchCaptureGroup",
            regexp("my-([0-9]+)-string", Some(2)),
            json!("my-1-string"),
            Err("regexp \"my-([0-9]+)-string\" had no matches for group 2"),
        ),
        (
            "ConvertToJSONSuccess",
            convert("ToJson"),
            json!({"foo": "bar"}),
            Ok(json!("{\"foo\":\"bar\"}")),
        ),
        (
            "JoinString",
            string(json!({"type": "Join", "join": {"separator": ","}})),
            json!(["cross", "plane"]),
            Ok(json!("cross,plane")),
        ),
        (
            "JoinStringEmptySeparator",
            string(json!({"type": "Join", "join": {"separator": ""}})),
            json!(["cross", "plane"]),
            Ok(json!("crossplane")),
        ),
        (
            "JoinStringDifferentTypes",
            string(json!({"type": "Join", "join": {"separator": "-"}})),
            json!(["cross", "plane", 42]),
            Ok(json!("cross-plane-42")),
        ),
        (
            "ReplaceFound",
            string(json!({"type": "Replace", "replace": {"search": "Cr", "replace": "B"}})),
            json!("Crossplane"),
            Ok(json!("Bossplane")),
        ),
        (
            "ReplaceNotFound",
            string(json!({"type": "Replace", "replace": {"search": "xx", "replace": "zz"}})),
            json!("Crossplane"),
            Ok(json!("Crossplane")),
        ),
        (
            "ReplaceRemove",
            string(json!({"type": "Replace", "replace": {"search": "ss", "replace": ""}})),
            json!("Crossplane"),
            Ok(json!("Croplane")),
        ),
    ]);
    // Not in Go's table: ToJson of numbers as Go marshals them, HTML escaped.
    run(vec![
        (
            "ToJsonNumbers",
            convert("ToJson"),
            json!({"a": 1, "b": 2.5, "c": 1e21, "d": 1e-7, "e": 3.0, "f": "<&>"}),
            Ok(json!(
                r#"{"a":1,"b":2.5,"c":1e+21,"d":1e-7,"e":3,"f":"\u003c\u0026\u003e"}"#
            )),
        ),
        (
            "JoinMultiByteSeparator",
            string(json!({"type": "Join", "join": {"separator": "→"}})),
            json!(["a", "b"]),
            Ok(json!("a→b\u{fffd}")),
        ),
    ]);
}

fn conv(to: &str, format: Option<&str>) -> Value {
    json!({"type": "convert", "convert": {"toType": to, "format": format}})
}

#[test]
fn convert_resolve() {
    // TestConvertResolve
    run(vec![
        (
            "StringToBool",
            conv("bool", None),
            json!("true"),
            Ok(json!(true)),
        ),
        (
            "StringToFloat64",
            conv("float64", None),
            json!("1000"),
            Ok(json!(1000.0)),
        ),
        (
            "StringToQuantityFloat64",
            conv("float64", Some("quantity")),
            json!("1000m"),
            Ok(json!(1.0)),
        ),
        (
            "StringToQuantityFloat64InvalidFormat",
            conv("float64", Some("quantity")),
            json!("1000 blabla"),
            Err(
                "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'",
            ),
        ),
        (
            "SameTypeNoOp",
            conv("bool", None),
            json!(true),
            Ok(json!(true)),
        ),
        ("IntAliasToInt64", conv("int", None), json!(1), Ok(json!(1))),
        (
            "StringToObject",
            conv("object", Some("json")),
            json!("{\"foo\":\"bar\"}"),
            Ok(json!({"foo": "bar"})),
        ),
        (
            "StringToList",
            conv("array", Some("json")),
            json!("[\"foo\", \"bar\", \"baz\"]"),
            Ok(json!(["foo", "bar", "baz"])),
        ),
        // Go's input is a []int; a JSON array is a []interface {}.
        (
            "InputTypeNotSupported",
            conv("string", None),
            json!([64]),
            Err("invalid input type []interface {}"),
        ),
        (
            "ConversionPairFormatNotSupported",
            conv("string", Some("quantity")),
            json!(100),
            Err("conversion from int64 to string is not supported with format quantity"), // int64 here
        ),
        (
            "ConversionPairNotSupported",
            conv("[]int", None),
            json!("[64]"),
            Err("toType: Invalid value: \"[]int\": invalid type"),
        ),
        (
            "ConversionPairSupportedFloat64Int64",
            conv("int64", None),
            json!(1.1),
            Ok(json!(1)),
        ),
    ]);
    // Not in Go's table: strconv's errors and the other pairs.
    run(vec![
        (
            "StringToIntBad",
            conv("int64", None),
            json!("12a"),
            Err("strconv.ParseInt: parsing \"12a\": invalid syntax"),
        ),
        (
            "StringToIntRange",
            conv("int64", None),
            json!("99999999999999999999"),
            Err("strconv.ParseInt: parsing \"99999999999999999999\": value out of range"),
        ),
        (
            "StringToBoolBad",
            conv("bool", None),
            json!("yes"),
            Err("strconv.ParseBool: parsing \"yes\": invalid syntax"),
        ),
        (
            "StringToFloatBad",
            conv("float64", None),
            json!("x1"),
            Err("strconv.ParseFloat: parsing \"x1\": invalid syntax"),
        ),
        (
            "FloatToString",
            conv("string", None),
            json!(1.5),
            Ok(json!("1.5")),
        ),
        ("IntToBool", conv("bool", None), json!(1), Ok(json!(true))),
        (
            "BoolToFloat",
            conv("float64", None),
            json!(true),
            Ok(json!(1.0)),
        ),
        (
            "NullInput",
            conv("string", None),
            Value::Null,
            Err("invalid input type <nil>"),
        ),
        (
            "JsonWrongKind",
            conv("object", Some("json")),
            json!("[1]"),
            Err("json: cannot unmarshal array into Go value of type map[string]interface {}"),
        ),
        (
            "JsonTruncated",
            conv("object", Some("json")),
            json!("{\"a\":"),
            Err("unexpected end of JSON input"),
        ),
    ]);
}

#[test]
fn convert_transform_get_conversion_func() {
    // TestConvertTransformGetConversionFunc
    let ct = |to: &str, format: Option<&str>| ConvertTransform {
        to_type: to.into(),
        format: format.map(String::from),
    };
    let cases = [
        ("IntToString", ct("string", None), "int", Ok(())),
        ("IntToInt", ct("int", None), "int", Ok(())),
        ("IntToInt64", ct("int", None), "int64", Ok(())),
        ("Int64ToInt", ct("int64", None), "int", Ok(())),
        ("IntToFloat", ct("int", None), "float64", Ok(())),
        ("IntToBool", ct("int", None), "bool", Ok(())),
        (
            "JSONStringToObject",
            ct("object", Some("json")),
            "string",
            Ok(()),
        ),
        (
            "JSONStringToArray",
            ct("array", Some("json")),
            "string",
            Ok(()),
        ),
        (
            "StringToObjectMissingFormat",
            ct("object", None),
            "string",
            Err("conversion from string to object is not supported with format none".to_string()),
        ),
        (
            "StringToIntInvalidFormat",
            ct("int", Some("wrong")),
            "string",
            Err("conversion from string to int64 is not supported with format wrong".to_string()),
        ),
        (
            "IntToIntInvalidFormat",
            ct("int", Some("wrong")),
            "int",
            Ok(()),
        ),
    ];
    for (name, t, from, want) in cases {
        assert_eq!(check_conversion(&t, from), want, "{name}");
    }
}

#[test]
fn resolve_wraps_errors() {
    // Resolve's own texts (not in Go's table).
    let t = decode_transform(&json!({"type": "math"})).unwrap();
    assert_eq!(
        resolve(&t, &json!(1)),
        Err("given transform type math requires configuration".into())
    );
    let t = decode_transform(&json!({"type": "nope"})).unwrap();
    assert_eq!(
        resolve(&t, &json!(1)),
        Err("transform type nope is not supported".into())
    );
    let ts = [
        decode_transform(&json!({"type": "math", "math": {"type": "Multiply", "multiply": 2}}))
            .unwrap(),
        decode_transform(&json!({"type": "map", "map": {"4": "four"}})).unwrap(),
    ];
    assert_eq!(
        resolve_transforms(&ts, &json!(2)),
        Err("transform at index 1 returned error: map transform could not resolve: type int64 is not supported for map transform".into())
    );
    assert_eq!(resolve_transforms(&ts[..1], &json!(2)), Ok(json!(4)));
}
