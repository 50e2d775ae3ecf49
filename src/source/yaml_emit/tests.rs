//! The emitter's cases: exact output text.

use super::emitter::MAX_SIMPLE_KEY_BYTES;
use super::*;
use serde_json::json;

fn yaml(json_text: &str) -> String {
    let value: Value = serde_json::from_str(json_text).expect("test JSON parses");
    to_yaml(&value)
}

/// The document for `{"k": s}`.
fn under_k(s: &str) -> String {
    to_yaml(&json!({ "k": s }))
}

const FOX: &str = "The quick brown fox jumps over the lazy dog";

fn foxes() -> String {
    [FOX; 4].join(" ")
}

#[test]
fn keys_sort_with_digit_runs_by_value_and_non_letters_first() {
    let got = yaml(r#"{"b":1,"a10":1,"a9":1,"B":1,"_x":1,"a":1,"10":1,"2":1,"1":1}"#);
    assert_eq!(
        got,
        "_x: 1\n\"1\": 1\n\"2\": 1\n\"10\": 1\nB: 1\na: 1\na9: 1\na10: 1\nb: 1\n"
    );
}

#[test]
fn keys_sort_leading_zeros_after_the_same_number() {
    // keyList.Less: equal values, the shorter digit run first.
    assert_eq!(yaml(r#"{"x2":1,"x01":1,"x1":1}"#), "x1: 1\nx01: 1\nx2: 1\n");
}

#[test]
fn keys_sort_non_letters_before_letters_unlike_byte_order() {
    // `{` is above `b` in byte order, but keyList.Less puts any non-letter first.
    assert_eq!(yaml(r#"{"ab":1,"a{":1,"a-":1}"#), "a-: 1\na{: 1\nab: 1\n");
    // Two letters compare as code points, so `é` comes after `z`.
    assert_eq!(yaml(r#"{"é":1,"z":1,"_":1}"#), "_: 1\nz: 1\né: 1\n");
}

#[test]
fn nested_collections_and_empty_ones() {
    let got = yaml(
        r#"{"spec":{"items":[1,[2,3],{"b":[],"a":1},[],{}],"empty":[]},
                "metadata":{"name":"x","labels":{}}}"#,
    );
    let want = "\
metadata:
  labels: {}
  name: x
spec:
  empty: []
  items:
  - 1
  - - 2
    - 3
  - a: 1
    b: []
  - []
  - {}
";
    assert_eq!(got, want);
}

#[test]
fn sequences_match_go_yaml_and_sigs_yaml_tests() {
    // From go-yaml v2's marshalTests and sigs.k8s.io/yaml's JSONToYAML tests.
    assert_eq!(yaml(r#"{"v":["A","B\nC"]}"#), "v:\n- A\n- |-\n  B\n  C\n");
    assert_eq!(
        yaml(r#"{"v":["A",1,{"B":[2,3]}]}"#),
        "v:\n- A\n- 1\n- B:\n  - 2\n  - 3\n"
    );
    assert_eq!(
        yaml(r#"[{"t":"a"},{"t":{"b":1,"c":2}}]"#),
        "- t: a\n- t:\n    b: 1\n    c: 2\n"
    );
    assert_eq!(yaml(r#"{"k":[[1,[2]]]}"#), "k:\n- - 1\n  - - 2\n");
}

#[test]
fn root_scalars_and_empty_collections() {
    assert_eq!(yaml("null"), "null\n");
    assert_eq!(yaml("true"), "true\n");
    assert_eq!(yaml("123"), "123\n");
    assert_eq!(yaml(r#""abc""#), "abc\n");
    assert_eq!(yaml(r#""yes""#), "\"yes\"\n");
    assert_eq!(yaml("[]"), "[]\n");
    assert_eq!(yaml("{}"), "{}\n");
}

#[test]
fn null_and_booleans() {
    assert_eq!(
        yaml(r#"{"a":null,"b":true,"c":false}"#),
        "a: null\nb: true\nc: false\n"
    );
}

#[test]
fn strings_that_resolve_to_other_types_are_double_quoted() {
    let quoted = [
        "True",
        "true",
        "FALSE",
        "yes",
        "Yes",
        "YES",
        "y",
        "n",
        "N",
        "on",
        "Off",
        "No",
        "~",
        "null",
        "Null",
        "NULL",
        "",
        "123",
        "-5",
        "+5",
        "1.5",
        ".5",
        "1.",
        "1e3",
        "0x1F",
        "0o17",
        "017",
        "1_000",
        "1_",
        "0b101",
        ".inf",
        "-.Inf",
        "+.inf",
        ".nan",
        ".NaN",
        "99999999999999999999",
        "2024-01-01T00:00:00Z",
        "2024-01-01",
        "2024-1-2",
        "2024-01-01t10:00:00.5+02:00",
        "2024-1-2 3:04:05.5",
        "2024-02-29",
        // Octal digits fail as an int, but resolve then reads `08` as a decimal float.
        "08",
        // resolve.go's `0b` fallback hands `-1` to ParseInt, which accepts the sign.
        "0b-1",
        // encode.go's isBase60Float.
        "1:20",
        "-1:20:30.5",
    ];
    for s in quoted {
        assert_eq!(under_k(s), format!("k: \"{s}\"\n"), "{s:?}");
    }
}

#[test]
fn near_misses_stay_plain() {
    let plain = [
        "yES",
        "nULL",
        "abc",
        "a#b",
        "a:b",
        "?x",
        ":x",
        "-x",
        "1.2.3",
        "1:61",
        ".Nan",
        "<<",
        "<foo>",
        "0xZZ",
        // Overflowing hex is neither int, uint nor decimal float: a string.
        "0x1FFFFFFFFFFFFFFFF",
        // ParseFloat reports a range error, so resolve falls through to a string.
        "1e400",
        ".5e999",
        // Go's time.Parse: no zone with `T`, an impossible day, a 13th month.
        "2024-01-01T00:00:00",
        "2024-02-30",
        "2023-02-29",
        "2024-13-01",
        "say \"hi\"",
        "it's",
        "a\\b",
        "héllo wörld",
        "a\u{a0}b",
        "\u{fffd}",
        "你好",
    ];
    for s in plain {
        assert_eq!(under_k(s), format!("k: {s}\n"), "{s:?}");
    }
}

#[test]
fn indicators_and_edge_spaces_single_quote() {
    let single = [
        "Unready resources: a, b, and c",
        "- x",
        "-",
        "#x",
        "a #b",
        "key:",
        ": x",
        "? x",
        "*x",
        "&x",
        "!x",
        "%x",
        "@x",
        "`x",
        "|x",
        ">x",
        "[x",
        "]x",
        "{x",
        "}x",
        ",x",
        "\"x\"",
        "---",
        "--- x",
        "...",
        " lead",
        "trail ",
        "你好 #comment",
    ];
    for s in single {
        assert_eq!(under_k(s), format!("k: '{s}'\n"), "{s:?}");
    }
    assert_eq!(under_k("'x'"), "k: '''x'''\n");
    assert_eq!(under_k("it's: here"), "k: 'it''s: here'\n");
}

#[test]
fn special_characters_are_escaped_in_double_quotes() {
    let cases = [
        ("a\tb", r#""a\tb""#),
        ("\u{0}", r#""\0""#),
        ("\u{1}", r#""\x01""#),
        ("\u{7f}", r#""\x7F""#),
        ("\u{1b}[0m", r#""\e[0m""#),
        ("a\rb", r#""a\rb""#),
        ("\u{85}", r#""\N""#),
        ("\u{9f}x", r#""\x9Fx""#),
        ("\u{ffff}", r#""\uFFFF""#),
        ("\t\\\"", r#""\t\\\"""#),
        // yamlprivateh.go's is_printable rejects every 4-byte UTF-8 sequence.
        ("😀 ok", r#""\U0001F600 ok""#),
        // is_bom looks at the start of the text for every character, so all are escaped.
        ("\u{feff}a b", r#""\uFEFF\x61\x20\x62""#),
    ];
    for (s, want) in cases {
        assert_eq!(under_k(s), format!("k: {want}\n"), "{s:?}");
    }
}

#[test]
fn line_and_paragraph_separators_are_breaks_in_single_quotes() {
    // LS is printable but a break: plain is refused, single quotes take it, and
    // write_single_quoted indents the text after it.
    assert_eq!(under_k("a\u{2028}b"), "k: 'a\u{2028}  b'\n");
    assert_eq!(under_k("\u{2029}"), "k: '\u{2029}'\n");
}

#[test]
fn multi_line_strings_are_literal_blocks() {
    assert_eq!(under_k("a\nb\n"), "k: |\n  a\n  b\n");
    assert_eq!(under_k("a\nb"), "k: |-\n  a\n  b\n");
    assert_eq!(yaml(r#"{"k":"a\n\n","z":1}"#), "k: |+\n  a\n\nz: 1\n");
    assert_eq!(under_k("  x\ny"), "k: |2-\n    x\n  y\n");
    assert_eq!(under_k("\nx"), "k: |2-\n\n  x\n");
    assert_eq!(under_k("\n"), "k: |2+\n\n");
    assert_eq!(under_k("a\n b"), "k: |-\n  a\n   b\n");
    assert_eq!(
        yaml(r#"{"a":{"b":"x\ny\n"}}"#),
        "a:\n  b: |\n    x\n    y\n"
    );
    assert_eq!(yaml(r#""a\nb""#), "|-\n  a\n  b\n");
    let long = format!("{}\nend", foxes());
    assert_eq!(under_k(&long), format!("k: |-\n  {}\n  end\n", foxes()));
}

#[test]
fn multi_line_strings_that_cannot_be_blocks_are_double_quoted() {
    // A space before a break, a trailing space or a special character rules out `|`.
    assert_eq!(under_k("a \nb"), "k: \"a \\nb\"\n");
    assert_eq!(under_k("a\nb "), "k: \"a\\nb \"\n");
    assert_eq!(under_k("a\tb\nc"), "k: \"a\\tb\\nc\"\n");
}

#[test]
fn multi_line_and_long_keys_are_complex_keys() {
    assert_eq!(yaml(r#"{"a\nb":1}"#), "? |-\n  a\n  b\n: 1\n");
    let key = "k".repeat(MAX_SIMPLE_KEY_BYTES);
    assert_eq!(to_yaml(&json!({ key.clone(): 1 })), format!("{key}: 1\n"));
    let key = "k".repeat(MAX_SIMPLE_KEY_BYTES + 1);
    assert_eq!(
        to_yaml(&json!({ key.clone(): [1] })),
        format!("? {key}\n: - 1\n")
    );
}

#[test]
fn keys_are_never_folded() {
    let key = [FOX, FOX].join(" ");
    assert_eq!(to_yaml(&json!({ key.clone(): "v" })), format!("{key}: v\n"));
}

#[test]
fn long_plain_strings_fold_after_column_80() {
    assert_eq!(
        under_k(&foxes()),
        "k: The quick brown fox jumps over the lazy dog The quick brown fox jumps over the\n  \
             lazy dog The quick brown fox jumps over the lazy dog The quick brown fox jumps over\n  \
             the lazy dog\n"
    );
    assert_eq!(
        to_yaml(&json!(foxes())),
        "The quick brown fox jumps over the lazy dog The quick brown fox jumps over the lazy\n  \
             dog The quick brown fox jumps over the lazy dog The quick brown fox jumps over the\n  \
             lazy dog\n"
    );
    assert_eq!(
        to_yaml(&json!({ "items": [foxes()] })),
        "items:\n- The quick brown fox jumps over the lazy dog The quick brown fox jumps over the lazy\n  \
             dog The quick brown fox jumps over the lazy dog The quick brown fox jumps over the\n  \
             lazy dog\n"
    );
    assert_eq!(
        to_yaml(&json!({ "a": { "b": { "c": foxes() } } })),
        "a:\n  b:\n    c: The quick brown fox jumps over the lazy dog The quick brown fox jumps over\n      \
             the lazy dog The quick brown fox jumps over the lazy dog The quick brown fox\n      \
             jumps over the lazy dog\n"
    );
}

#[test]
fn folding_matches_sigs_yaml_and_go_yaml_tests() {
    assert_eq!(
        yaml(
            r#"{"t":"this is very long line with spaces and it must be longer than 80 so we will repeat that it must be longer that 80"}"#
        ),
        "t: this is very long line with spaces and it must be longer than 80 so we will repeat\n  \
             that it must be longer that 80\n"
    );
    let alphabet = "abcdefghijklmnopqrstuvwxyz ABCDEFGHIJKLMNOPQRSTUVWXYZ 1234567890 ";
    assert_eq!(
        to_yaml(&json!({ "a": alphabet.repeat(2) })),
        "a: 'abcdefghijklmnopqrstuvwxyz ABCDEFGHIJKLMNOPQRSTUVWXYZ 1234567890 abcdefghijklmnopqrstuvwxyz\n  \
             ABCDEFGHIJKLMNOPQRSTUVWXYZ 1234567890 '\n"
    );
}

#[test]
fn long_single_quoted_strings_fold() {
    let names: Vec<String> = (0..20).map(|i| format!("bucket-{i}")).collect();
    let message = format!("Unready resources: {}", names.join(", "));
    assert_eq!(
        to_yaml(&json!({ "message": message })),
        "message: 'Unready resources: bucket-0, bucket-1, bucket-2, bucket-3, bucket-4, bucket-5,\n  \
             bucket-6, bucket-7, bucket-8, bucket-9, bucket-10, bucket-11, bucket-12, bucket-13,\n  \
             bucket-14, bucket-15, bucket-16, bucket-17, bucket-18, bucket-19'\n"
    );
}

#[test]
fn long_double_quoted_strings_fold() {
    // write_double_quoted breaks at the first space once past column 80: here after `the`
    // at column 84, not after `over` at exactly 80.
    let text = format!("\t{FOX} {FOX}  tail end");
    assert_eq!(
        under_k(&text),
        "k: \"\\tThe quick brown fox jumps over the lazy dog The quick brown fox jumps over the\n  \
             lazy dog  tail end\"\n"
    );
}

#[test]
fn double_quoted_fold_before_two_spaces_escapes_the_second() {
    // The fold eats one space; write_double_quoted puts `\` before the next so the
    // continuation line does not lose it to indentation.
    let text = format!("\t{}  y z", "x".repeat(80));
    assert_eq!(
        under_k(&text),
        format!("k: \"\\t{}\n  \\ y z\"\n", "x".repeat(80))
    );
}

#[test]
fn numbers_keep_go_yaml_int_and_float_types() {
    // `j` overflows float64, so go-yaml keeps the text as a string (serde_json has already
    // written its exponent as `e+`). The key `n` is quoted: YAML 1.1 reads it as false.
    let got = yaml(
        r#"{"a":3,"b":3.5,"c":1e+21,"d":-0,"e":1e-07,"f":9223372036854775808,
                "g":18446744073709551616,"h":-9223372036854775809,"i":1.0,"j":1e+400,
                "k":100000,"l":1000000,"l2":1000000.0,"m":0.0001,"n":0.00001,"o":-0.0,"p":1E5,
                "q":9007199254740993,"r":1000000000000000000000000000000000000,
                "s":-9223372036854775808,"t":0.1}"#,
    );
    let want = "\
a: 3
b: 3.5
c: 1e+21
d: 0
e: 1e-07
f: 9223372036854775808
g: 1.8446744073709552e+19
h: -9.223372036854776e+18
i: 1
j: 1e+400
k: 100000
l: 1000000
l2: 1e+06
m: 0.0001
\"n\": 1e-05
o: -0
p: 100000
q: 9007199254740993
r: 1e+36
s: -9223372036854775808
t: 0.1
";
    assert_eq!(got, want);
}

#[test]
fn number_like_keys_are_quoted() {
    // sigs.k8s.io/yaml's JSONToYAML tests.
    assert_eq!(yaml(r#"{"true":"a"}"#), "\"true\": a\n");
    assert_eq!(yaml(r#"{"1.2":"a"}"#), "\"1.2\": a\n");
    assert_eq!(yaml(r#"{"1e+36":"a"}"#), "\"1e+36\": a\n");
    assert_eq!(yaml(r#"{"":"a"}"#), "\"\": a\n");
}

#[test]
fn floats_format_like_strconv_g() {
    for (f, want) in [
        (0.0, "0"),
        (-0.0, "-0"),
        (1e-4, "0.0001"),
        (1e-5, "1e-05"),
        (123456.0, "123456"),
        (1234567.0, "1.234567e+06"),
        (1e100, "1e+100"),
        (f64::INFINITY, ".inf"),
        (f64::NEG_INFINITY, "-.inf"),
        (f64::NAN, ".nan"),
    ] {
        assert_eq!(format_float(f), want, "{f}");
    }
}

#[test]
fn deep_nesting_does_not_fail() {
    let json_text = format!("{}1{}", "[".repeat(100), "]".repeat(100));
    let got = yaml(&json_text);
    assert!(got.ends_with("- 1\n"), "{got}");
}
