//! Unit tests of the encoding family, through the function table.

use crate::eval::functions::{FunctionError, builtins};
use crate::eval::num::Num;
use crate::eval::testing::{num, obj, s};
use crate::eval::types::Type;
use crate::eval::value::{Refinement, Value};
use std::collections::BTreeMap;

/// Calls a built-in with already converted arguments (the return type from its type
/// function, as cty's `Function.Call` does for known arguments).
fn call(name: &str, args: &[Value]) -> Result<Value, FunctionError> {
    let table = builtins();
    let f = table.get(name).expect("registered");
    let ret = (f.ret)(args)?;
    (f.imp)(args, &ret)
}

fn text(name: &str, arg: Value) -> String {
    match call(name, &[arg]) {
        Ok(Value::String(out)) => out.into_string(),
        other => panic!("{name}: {other:?}"),
    }
}

fn error(name: &str, args: &[Value]) -> String {
    match call(name, args) {
        Err(FunctionError::Other(m) | FunctionError::Arg { message: m, .. }) => m,
        other => panic!("{name}: expected an error, got {other:?}"),
    }
}

#[test]
fn jsonencode_escapes_html_and_keeps_exact_numbers() {
    assert_eq!(
        text("jsonencode", s("a<b>&c")),
        r#""a\u003cb\u003e\u0026c""#
    );
    assert_eq!(text("jsonencode", s("\u{2028}\u{1}")), r#""\u2028\u0001""#);
    let third = num("1").as_num().unwrap().div(&Num::from_i64(3)).unwrap();
    let out = text("jsonencode", Value::Number(third));
    assert!(out.starts_with("0.3333") && out.len() > 150, "{out}");
    assert_eq!(text("jsonencode", Value::null()), "null");
    let set = Value::Set {
        elem: Type::String,
        items: vec![s("a"), s("b")].into(),
    };
    assert_eq!(text("jsonencode", set), r#"["a","b"]"#);
    let map = Value::Map {
        elem: Type::Number,
        items: BTreeMap::from([("b".to_string(), num("2")), ("a".to_string(), num("1"))]).into(),
    };
    assert_eq!(text("jsonencode", map), r#"{"a":1,"b":2}"#);
}

#[test]
fn jsonencode_of_unknowns_is_refined() {
    let partly = Value::Tuple(vec![Value::unknown(Type::String)].into());
    let Ok(Value::Unknown(Type::String, r)) = call("jsonencode", &[partly]) else {
        panic!("not unknown");
    };
    assert_eq!(
        r,
        Refinement {
            not_null: true,
            string_prefix: Some("[".into())
        }
    );
    let Ok(Value::Unknown(_, r)) = call("jsonencode", &[Value::unknown(Type::String)]) else {
        panic!("not unknown");
    };
    assert_eq!(r, Refinement::default());
}

#[test]
fn jsondecode_follows_go() {
    let v = call("jsondecode", &[s(r#"{"a": 1, "a": 2, "b": [true, null]}"#)]).unwrap();
    assert_eq!(
        crate::eval::json::to_hcl(&v).replace([' ', '\n'], ""),
        r#"{"a"=2"b"=[true,null,]}"#
    );
    let e = |doc: &str| error("jsondecode", &[s(doc)]);
    assert_eq!(
        e(r#"{"a": 1, "a": "x"}"#),
        r#"duplicate "a" property in JSON object"#
    );
    assert_eq!(e("1 2"), "extraneous data after JSON object");
    assert_eq!(e(""), "EOF");
    assert_eq!(e("tru"), "unexpected EOF");
    assert_eq!(
        e("[1,]"),
        "invalid character ']' looking for beginning of value"
    );
    assert_eq!(e("{1:2}"), "invalid character '1'");
    assert_eq!(
        e("é"),
        "invalid character 'Ã' looking for beginning of value"
    );
    assert_eq!(e("1e99999999999"), "a number is required");
    // A closing bracket after the value is not "more" for Go's Decoder.
    assert!(call("jsondecode", &[s("1 ]")]).is_ok());
    let prefixed = |p: &str| {
        Value::Unknown(
            Type::String,
            Refinement {
                not_null: true,
                string_prefix: Some(p.into()),
            },
        )
    };
    let table = builtins();
    let ty = |p: &str| (table.get("jsondecode").unwrap().ret)(&[prefixed(p)]);
    assert_eq!(ty(" \"").unwrap(), Type::String);
    assert_eq!(ty("t").unwrap(), Type::Bool);
    assert_eq!(ty("-").unwrap(), Type::Number);
    assert_eq!(ty("{").unwrap(), Type::Dynamic);
    assert!(ty("x").is_err());
}

#[test]
fn csvdecode_types_and_errors() {
    let v = call("csvdecode", &[s("a,b\n1,2\n")]).unwrap();
    assert_eq!(
        v.ty(),
        Type::list(Type::Object(
            BTreeMap::from([
                ("a".to_string(), Type::String),
                ("b".to_string(), Type::String)
            ])
            .into()
        ))
    );
    assert_eq!(error("csvdecode", &[s("")]), "missing header line");
    assert_eq!(
        error("csvdecode", &[s("a,b\n1\n")]),
        "CSV parse error on line 2: wrong number of fields"
    );
}

#[test]
fn base64_and_urlencode() {
    assert_eq!(text("base64encode", s("é")), "w6k=");
    assert_eq!(text("base64decode", s("YWJj\n")), "abc");
    assert_eq!(
        error("base64decode", &[s("dfg")]),
        "failed to decode base64 data \"dfg\""
    );
    assert_eq!(
        error("base64decode", &[s("/w==")]),
        "the result of decoding the provided string is not valid UTF-8"
    );
    assert_eq!(text("urlencode", s("a b+c/é~")), "a+b%2Bc%2F%C3%A9~");
    assert_eq!(
        text("base64gzip", s("test")),
        "H4sIAAAAAAAA/ypJLS4BAAAA//8BAAD//wx+f9gEAAAA"
    );
}

fn yaml(v: Value) -> String {
    text("yamlencode", v)
}

#[test]
fn yamlencode_scalar_styles() {
    assert_eq!(yaml(s("1_000")), "\"1_000\"\n");
    assert_eq!(yaml(Value::null()), "null\n...\n");
    assert_eq!(yaml(num("1.5")), "1.5\n...\n");
    assert_eq!(yaml(s("multi\nline\n")), "|\n  multi\n  line\n");
    assert_eq!(yaml(s("a\nb")), "|-\n  a\n  b\n");
    assert_eq!(yaml(s("x\n\n")), "|+\n  x\n\n");
    assert_eq!(yaml(s("\n")), "|2+\n\n");
    assert_eq!(yaml(s(" a\nb")), "|2-\n   a\n  b\n");
    // Block scalars cannot hold these; double quotes escape them.
    assert_eq!(yaml(s("a \nb")), "\"a \\nb\"\n");
    assert_eq!(yaml(s("a\tb\r")), "\"a\\tb\\r\"\n");
    assert_eq!(
        yaml(s("🤔\u{85}\u{2028}\u{a0}")),
        "\"\\U0001F914\\N\\L\u{a0}\"\n"
    );
    // libyaml's byte order mark check looks at the start of the string for every character.
    assert_eq!(yaml(s("\u{feff}ab")), "\"\\uFEFF\\x61\\x62\"\n");
}

#[test]
fn yamlencode_folds_long_quoted_lines() {
    let long = vec!["word"; 30].join(" ");
    assert_eq!(
        yaml(s(&long)),
        format!(
            "\"{}\n  {}\"\n",
            vec!["word"; 17].join(" "),
            vec!["word"; 13].join(" ")
        )
    );
}

#[test]
fn yamlencode_collections_and_keys() {
    let v = obj(&[
        ("a", Value::Tuple(vec![num("1"), num("2")].into())),
        ("b", obj(&[("c", s("d"))])),
        ("e", Value::Tuple(vec![].into())),
        ("f", Value::empty_object()),
    ]);
    assert_eq!(
        yaml(v),
        "\"a\":\n- 1\n- 2\n\"b\":\n  \"c\": \"d\"\n\"e\": []\n\"f\": {}\n"
    );
    let nested = Value::Tuple(
        vec![
            Value::Tuple(vec![num("1"), num("2")].into()),
            obj(&[("a", num("1")), ("b", num("2"))]),
        ]
        .into(),
    );
    assert_eq!(yaml(nested), "- - 1\n  - 2\n- \"a\": 1\n  \"b\": 2\n");
    assert_eq!(yaml(obj(&[("a\nb", num("1"))])), "? |-\n  a\n  b\n: 1\n");
    let long_key = "k".repeat(130);
    assert_eq!(
        yaml(obj(&[(&long_key, num("1"))])),
        format!("? \"{long_key}\"\n: 1\n")
    );
    let set = Value::Set {
        elem: Type::String,
        items: vec![s("a"), s("b")].into(),
    };
    assert_eq!(yaml(set), "- \"a\"\n- \"b\"\n");
    assert!(matches!(
        call(
            "yamlencode",
            &[Value::Tuple(vec![Value::unknown(Type::String)].into())]
        ),
        Ok(Value::Unknown(Type::String, _))
    ));
}

fn yaml_value(src: &str) -> String {
    let v = call("yamldecode", &[s(src)]).unwrap();
    crate::eval::json::to_json_string(&v).unwrap()
}

#[test]
fn yamldecode_resolves_as_go_cty_yaml() {
    assert_eq!(
        yaml_value("a: 1_000\nb: 0x10\nc: yes\nd: ~\ne: 2001-12-14"),
        r#"{"a":"1_000","b":16,"c":true,"d":null,"e":"2001-12-14T00:00:00Z"}"#
    );
    // Untagged block scalars are strings, whatever Unmarshal resolves them to.
    assert_eq!(
        yaml_value("a: |-\n  1e3\nb: |-\n  true"),
        r#"{"a":"1000","b":"true"}"#
    );
    assert_eq!(
        yaml_value("base: &b {x: 1}\nd:\n  <<: *b\n  z: 2"),
        r#"{"base":{"x":1},"d":{"x":1,"z":2}}"#
    );
    assert_eq!(yaml_value("---"), "null");
    assert_eq!(yaml_value("1: x\ntrue: y"), r#"{"1":"x","true":true}"#);
}

#[test]
fn yamldecode_errors() {
    let e = |src: &str| error("yamldecode", &[s(src)]);
    assert_eq!(e(""), "on line 1, column 1: missing start of document");
    assert_eq!(e("a: .nan"), "floating point NaN is not supported");
    assert_eq!(
        e("x: 1\na: .nan"),
        "on line 1, column 4: floating point NaN is not supported"
    );
    assert_eq!(
        e("---\na: 1\n---\nb: 2"),
        "on line 2, column 1: unexpected extra content after value"
    );
    assert_eq!(
        e("a: &x [*x]"),
        "cannot refer to anchor \"x\" from inside its own definition"
    );
    assert_eq!(e("a: *y"), "reference to undefined anchor \"y\"");
    assert_eq!(e("a: !foo 1"), "unsupported tag \"!foo\"");
    assert_eq!(e("? [1]\n: x"), "only strings are allowed as mapping keys");
    assert_eq!(e("~: x"), "mapping key cannot be null");
    assert_eq!(
        e("a: !!seq {}"),
        "can't interpret mapping as tag:yaml.org,2002:seq"
    );
    assert_eq!(e("<<: [1]"), "cannot merge tuple into mapping");
}

#[test]
fn decoders_refuse_documents_nested_too_deep() {
    use crate::eval::functions::encoding::MAX_DECODE_DEPTH;
    let deep = |n: usize| Value::string(format!("{}1{}", "[".repeat(n), "]".repeat(n)));
    let table = crate::eval::functions::builtins();
    let json = table.get("jsondecode").unwrap();
    assert!((json.imp)(&[deep(MAX_DECODE_DEPTH)], &Type::Dynamic).is_ok());
    let err = (json.imp)(&[deep(MAX_DECODE_DEPTH + 1)], &Type::Dynamic).expect_err("too deep");
    assert!(
        format!("{err:?}").contains("more than 1000 levels deep"),
        "{err:?}"
    );
    // saphyr's scanner stops flow collections earlier (a few hundred levels); block ones reach
    // our own limit. Either way the hostile 50,000 levels fail without exhausting the stack.
    let yaml = table.get("yamldecode").unwrap();
    assert!((yaml.imp)(&[deep(200)], &Type::Dynamic).is_ok());
    for f in [json, yaml] {
        assert!((f.imp)(&[deep(50_000)], &Type::Dynamic).is_err());
    }
    let block: String = (0..1_200)
        .map(|i| format!("{}- \n", "  ".repeat(i)))
        .collect();
    let err = (yaml.imp)(&[Value::string(block + "  1\n")], &Type::Dynamic).expect_err("block");
    assert!(
        format!("{err:?}").contains("levels deep") || format!("{err:?}").contains("recursion"),
        "{err:?}"
    );
}
