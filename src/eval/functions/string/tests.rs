//! Unit tests for the string family's tricky corners; expected values come from Go (the
//! expression oracle: Go HCL + cty + Terraform's functions).

use crate::eval::expr::Evaluator;
use crate::eval::functions::builtins;
use crate::eval::json;
use crate::eval::scope::Scope;
use crate::eval::types::Type;
use crate::eval::value::{Refinement, Value};
use crate::re2::translate;
use crate::source::SourceMap;
use crate::syntax::parse_expression;
use std::collections::BTreeMap;

/// Evaluates `src` with the built-in functions and a few unknown variables: the value as
/// JSON text (`unknown(…)` for unknowns), or the first diagnostic's detail.
fn eval(src: &str) -> String {
    let mut map = SourceMap::new();
    let id = map.add("test.hcl", src);
    let (expr, parse_diags) = parse_expression(map.get(id));
    assert!(parse_diags.is_empty(), "{src}: {parse_diags:?}");
    let table = builtins();
    let vars: BTreeMap<String, Value> = [
        ("unk_s", Value::unknown(Type::String)),
        ("unk_list", Value::unknown(Type::list(Type::String))),
        ("dyn", Value::dynamic()),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v))
    .collect();
    let scope = Scope {
        variables: vars,
        functions: Some(&table),
        parent: None,
        bound: Default::default(),
    };
    let (value, diags) = Evaluator::new(id).with_sources(&map).eval(&expr, &scope);
    if let Some(d) = diags.first() {
        return d.detail.clone().unwrap_or_default();
    }
    show(&value)
}

fn show(v: &Value) -> String {
    match v {
        Value::Unknown(ty, r) => {
            let mut out = format!("unknown({})", ty.friendly_name());
            if r.not_null {
                out.push('!');
            }
            if let Some(p) = &r.string_prefix {
                out.push_str(&format!("{p:?}"));
            }
            out
        }
        Value::List { items, .. } | Value::Tuple(items) if !v.is_wholly_known() => {
            format!("[{}]", items.iter().map(show).collect::<Vec<_>>().join(","))
        }
        _ => json::to_json_string_with(v, false).unwrap_or_else(|e| e.to_string()),
    }
}

fn check(cases: &[(&str, &str)]) {
    for (src, want) in cases {
        assert_eq!(eval(src), *want, "{src}");
    }
}

#[test]
fn format_verbs_follow_go() {
    check(&[
        (
            r#"format("%5.2f|%-6d|%06.1f", 3.14159, 42, -2.25)"#,
            r#"" 3.14|42    |-002.2""#,
        ),
        (
            r#"format("%x %X %o %b %#x", 255, 255, 8, 5, 255)"#,
            r#""ff FF 10 101 0xff""#,
        ),
        (
            r#"format("%+d % d %.3d %-05d|", 5, 5, 7, 7)"#,
            r#""+5  5 007 7    |""#,
        ),
        (
            r#"format("%e %E %.0e", 1234.5, 0.00012, 5)"#,
            r#""1.234500e+03 1.200000E-04 5e+00""#,
        ),
        (
            r#"format("%g %g %.3g %G", 0.000012345, 100000, 1234567, 1e-10)"#,
            r#""1.2345e-05 100000 1.23e+06 1E-10""#,
        ),
        (
            r#"format("%v %v %v", 1234567, 0.0001, 1e21)"#,
            r#""1.234567e+06 0.0001 1e+21""#,
        ),
        (
            r#"format("%.2f %.2f %.0f", 0.125, 0.375, 2.5)"#,
            r#""0.12 0.38 2""#,
        ),
        (
            r#"format("%f|%5.1f|% f", 1/0, -1/0, 1/0)"#,
            r#""+Inf| -Inf| Inf""#,
        ),
        (
            r#"format("%-08.3f|%0-8d|", 3.14159, 3)"#,
            r#""0003.142|3       |""#,
        ),
        (r#"format("%[2]s %[1]s %s", "a", "b")"#, r#""b a b""#),
        (
            r#"format("%5s|%-5s|%05s|%.2s|%.0s", "ab", "cd", "e", "xyz", "uvw")"#,
            r#""   ab|cd   |0000e|xy|uvw""#,
        ),
        (r#"format("%3s|%.1s", "e\u0301", "e\u0301x")"#, r#""  é|é""#),
        (
            r#"format("%q %#v %v", "<a>", {a = 1}, [true, null])"#,
            r#""\"\\u003ca\\u003e\" {\"a\":1} [true,null]""#,
        ),
        (
            r#"format("%t %5v|%10v|", "true", true, null)"#,
            r#""true  true|      null|""#,
        ),
        (
            r#"format("%d", 12345678901234567890)"#,
            r#""12345678901234567890""#,
        ),
        (
            r#"format("%.0d|%.20f", 0, 0.1)"#,
            r#""|0.10000000000000000000""#,
        ),
        // Integers beyond a machine word and within one take different digit paths; the
        // oracle (Go HCL + cty) gives these texts.
        (
            r#"format("%x|%#X|%+b|%o|%08d|%-6d|%.4d", 100000000000000000000, 100000000000000000000, -3, 8000000000000000000, -42, -42, -7)"#,
            r#""56bc75e2d63100000|0X56BC75E2D63100000|-11|674055531647310000000|-0000042|-42   |-0007""#,
        ),
        (
            r#"format("%d|%d|%x|%d", 9223372036854775807, -9223372036854775808, -9223372036854775808, 4.0)"#,
            r#""9223372036854775807|-9223372036854775808|-8000000000000000|4""#,
        ),
    ]);
}

#[test]
fn format_errors_follow_cty() {
    check(&[
        (
            r#"format("%")"#,
            "Call to function \"format\" failed: invalid format string starting at offset 1.",
        ),
        (
            r#"format("%[2]5s", 1, 2)"#,
            "Call to function \"format\" failed: unrecognized format character '5' at offset 4.",
        ),
        (
            r#"format("%\n")"#,
            "Call to function \"format\" failed: unrecognized format character '\\n' at offset 1.",
        ),
        (
            r#"format("%é")"#,
            "Call to function \"format\" failed: unrecognized format character 'é' at offset 1.",
        ),
        (
            r#"format("%z", null)"#,
            "Call to function \"format\" failed: unsupported value for \"%z\" at 0: null value cannot be formatted.",
        ),
        (
            r#"format("%c", 1)"#,
            "Call to function \"format\" failed: unsupported format verb 'c' in \"%c\" at offset 0.",
        ),
        (
            r#"format("%d %s", 1)"#,
            "Call to function \"format\" failed: not enough arguments for \"%s\" at 3: need index 2 but have 1 total.",
        ),
        (
            r#"format("%[1]s", "a", "b")"#,
            "Invalid value for \"args\" parameter: too many arguments; only 1 used by format string.",
        ),
        (
            r#"format("x", 1)"#,
            "Invalid value for \"args\" parameter: too many arguments; no verbs in format string.",
        ),
        (
            r#"format("%d", 1.5)"#,
            "Call to function \"format\" failed: unsupported value for \"%d\" at 0: an integer is required.",
        ),
        (
            r#"format("%t", 1)"#,
            "Call to function \"format\" failed: unsupported value for \"%t\" at 0: bool required, but have number.",
        ),
        (
            r#"format("%#v", 1/0)"#,
            "Call to function \"format\" failed: unsupported value for \"%#v\" at 0: cannot serialize infinity as JSON.",
        ),
    ]);
}

#[test]
fn format_with_unknowns() {
    check(&[
        (r#"format("ab: %s", unk_s)"#, r#"unknown(string)!"ab: ""#),
        (r#"format("%s", unk_s)"#, "unknown(string)!"),
        (r#"format("ab%s", [unk_s])"#, r#"unknown(string)!"a""#),
        (r#"format(unk_s, 1)"#, "unknown(string)!"),
        (
            r#"formatlist("%s", ["a", unk_s])"#,
            r#"["a",unknown(string)!]"#,
        ),
        (r#"formatlist("%s", unk_list)"#, "unknown(list of string)!"),
        (
            r#"formatlist("%s-%s", ["a"], dyn)"#,
            "unknown(list of string)!",
        ),
        (
            r#"formatlist("%s %s", ["a"], ["1", "2"])"#,
            "Invalid value for \"args\" parameter: argument 2 has length 2, which is inconsistent with argument 1 of length 1.",
        ),
        (r#"formatlist("x")"#, r#"["x"]"#),
        (
            r#"formatlist("%s", [null])"#,
            "Call to function \"formatlist\" failed: error on format iteration 0: unsupported value for \"%s\" at 0: null value cannot be formatted.",
        ),
    ]);
}

#[test]
fn regex_classes_are_ascii_as_in_go() {
    check(&[
        (r#"regexall("\\d", "1١۲")"#, r#"["1"]"#),
        (r#"regexall("\\w+", "héllo_1")"#, r#"["h","llo_1"]"#),
        (r#"regexall("\\s", "a\u00a0b c\u000bd")"#, r#"[" "]"#),
        (r#"replace("aé b", "/\\b/", "|")"#, r#""|a|é |b|""#),
        (r#"regex("[[:alpha:]]+", "éab")"#, r#""ab""#),
        (r#"regex("(?i)k", "\u212a")"#, r#""K""#),
        (r#"regex("\\pL+", "1héllo")"#, r#""héllo""#),
        (r#"regex("[[a]+", "a[")"#, r#""a[""#),
        (r#"regex("[a&&b~~-]+", "&~-b")"#, r#""&~-b""#),
        (r#"regex("\\<a\\>", "<a>")"#, r#""<a>""#),
        (r#"regex("\\Qa.b\\E+", "a.bb")"#, r#""a.bb""#),
        (r#"regex("\\101\\x42\\x{43}", "ABC")"#, r#""ABC""#),
    ]);
}

#[test]
fn regex_results_and_errors() {
    check(&[
        (r#"regex("(a)(b)?", "a")"#, r#"["a",null]"#),
        (
            r#"regex("(?P<k>\\w)=(?P<v>\\d)", "a=1")"#,
            r#"{"k":"a","v":"1"}"#,
        ),
        (r#"regexall("a*", "baaac")"#, r#"["","aaa",""]"#),
        (r#"regexall("", "hé")"#, r#"["","",""]"#),
        (r#"regex(unk_s, "a")"#, "unknown(dynamic)"),
        (r#"regex("(a)", unk_s)"#, "unknown(tuple)!"),
        (r#"regexall(unk_s, "a")"#, "unknown(list of dynamic)!"),
        (
            r#"regex("(?P<a>x)(y)", "xy")"#,
            "Invalid value for \"pattern\" parameter: invalid regexp pattern: cannot mix both named and unnamed capture groups.",
        ),
        (
            r#"regex("[a", "a")"#,
            "Invalid value for \"pattern\" parameter: invalid regexp pattern: missing closing ] in [a.",
        ),
        (
            r#"regex("x", "y")"#,
            "Call to function \"regex\" failed: pattern did not match any part of the given string.",
        ),
        (
            r#"replace("x", "/(/", "y")"#,
            "Call to function \"replace\" failed: error parsing regexp: missing closing ): `(`.",
        ),
        (
            r#"replace("abc", "/(?P<x>b)/", "[$x][$${x}][$1x][$$][$2]")"#,
            r#""a[b][b][][$][]c""#,
        ),
        (r#"replace("aaa", "/a*?/", "-")"#, r#""-a-a-a-""#),
    ]);
}

#[test]
fn go_syntax_errors() {
    let cases: &[(&str, &str, &str)] = &[
        ("a**", "invalid nested repetition operator", "**"),
        ("a*?+", "invalid nested repetition operator", "*?+"),
        ("*", "missing argument to repetition operator", "*"),
        ("(?i)*", "missing argument to repetition operator", "*"),
        ("x{1001}", "invalid repeat count", "{1001}"),
        ("(x{500}){3}", "invalid repeat count", "{3}"),
        ("a)", "unexpected )", "a)"),
        ("(a", "missing closing )", "(a"),
        ("(?=a)", "invalid or unsupported Perl syntax", "(?="),
        ("(?i-)", "invalid or unsupported Perl syntax", "(?i-)"),
        ("(?<!a)b", "invalid named capture", "(?<!a)b"),
        ("(?P<a-b>x)", "invalid named capture", "(?P<a-b>"),
        ("\\1", "invalid escape sequence", "\\1"),
        ("\\x{12", "invalid escape sequence", "\\x{12"),
        ("a\\", "trailing backslash at end of expression", ""),
        (
            "\\p{Old_Italic}",
            "invalid character class range",
            "\\p{Old_Italic}",
        ),
        ("[[:word2:]]", "invalid character class range", "[:word2:]"),
        ("[b-a]", "invalid character class range", "b-a"),
        ("x[ab", "missing closing ]", "[ab"),
        ("[\\z]", "invalid escape sequence", "\\z"),
    ];
    for (pattern, code, expr) in cases {
        let e = translate(pattern)
            .err()
            .unwrap_or_else(|| panic!("{pattern} compiles"));
        assert_eq!((e.code, e.expr.as_str()), (*code, *expr), "{pattern}");
    }
    for ok in [
        "x{01}",
        "a{,2}",
        "{",
        "(?P<1>x)(?P<1>y)",
        "(?)",
        "(?i-s:a)",
        "\\p{letter}",
        "[]a]",
    ] {
        assert!(translate(ok).is_ok(), "{ok}");
    }
}

#[test]
fn case_mappings_are_go_simple_mappings() {
    check(&[
        (r#"upper("ß ǆ ᾀ ᾳ ŉ ﬀ")"#, r#""ß Ǆ ᾈ ᾼ ŉ ﬀ""#),
        (r#"lower("İ ΑΣ ᾈ")"#, r#""i ασ ᾀ""#),
        (
            r#"title("ǆa ǳ ᾀ ßx ა o'neil a-b c_d é.f")"#,
            r#""ǅa ǲ ᾈ ßx ა O'Neil A-B C_d É.F""#,
        ),
        (
            r#"title("x\u00a0y z\u2003w a\u200bb")"#,
            "\"X\u{a0}Y Z\u{2003}W A\u{200b}b\"",
        ),
        (r#"trimspace("\u0085\u2003x y\u00a0\n")"#, r#""x y""#),
        (r#"trimspace("\u200bx")"#, "\"\u{200b}x\""),
        // Letters cased only after Unicode 15.0 (Go 1.25's tables) keep their case.
        (r#"upper("ƛ \u0264 \uA7D3")"#, "\"ƛ \u{264} \u{a7d3}\""),
        (r#"upper(dyn)"#, "unknown(string)!"),
    ]);
}

#[test]
fn substr_counts_grapheme_clusters() {
    check(&[
        (r#"substr("hello world", -5, -1)"#, r#""world""#),
        (r#"substr("hello", -2, 0)"#, r#""lo""#),
        (r#"substr("hello", 2, 0)"#, r#""""#),
        (r#"substr("hello", -10, 2)"#, r#""he""#),
        (r#"substr("hello", 5, 1)"#, r#""""#),
        (
            r#"substr("e\u0301\u0301xy", 0, 2)"#,
            "\"e\u{301}\u{301}x\""
                .replace("e\u{301}", "\u{e9}")
                .as_str(),
        ),
        // Unicode 15.0 clusters (Go's textseg): no conjunct rule GB9c, but Prepend and Hangul.
        (r#"substr("क्षa", 0, 1)"#, r#""क्""#),
        (r#"strrev("क्ष")"#, r#""षक्""#),
        (r#"strrev("\u0601ॽ한국")"#, "\"국한\u{601}ॽ\""),
        (r#"format("%3s|", "क्ष")"#, r#"" क्ष|""#),
        (r#"substr("🇩🇪🇫🇷", 1, 1)"#, r#""🇫🇷""#),
        (r#"strrev("ab👨‍👩‍👧e\u0301")"#, "\"\u{e9}👨‍👩‍👧ba\""),
        (
            r#"substr("x", 1.5, 1)"#,
            "Call to function \"substr\" failed: value must be a whole number, between -9223372036854775808 and 9223372036854775807.",
        ),
    ]);
}

#[test]
fn split_join_and_friends() {
    check(&[
        (r#"split("", "")"#, "[]"),
        (r#"split("", "héllo")"#, r#"["h","é","l","l","o"]"#),
        (r#"split(",", "")"#, r#"[""]"#),
        (r#"split(",", ",a,,")"#, r#"["","a","",""]"#),
        (r#"join("-", ["a"], [], ["b", "c"])"#, r#""a-b-c""#),
        (
            r#"join("-", ["a"], ["b", null])"#,
            "Invalid value for \"lists\" parameter: element 1 of list 2 is null; cannot concatenate null values.",
        ),
        (r#"join("-", ["a", unk_s])"#, "unknown(string)!"),
        (r#"chomp("a\r\r\n\n")"#, r#""a""#),
        (r#"chomp("a\n\rb\r")"#, r#""a\n\rb""#),
        (r#"indent(2, "a\r\nb\n")"#, r#""a\r\n  b\n  ""#),
        (
            r#"indent(-1, "a")"#,
            "Call to function \"indent\" failed: panic in function implementation: strings: negative Repeat count.",
        ),
        (r#"trim("?!a?!", "!?")"#, r#""a""#),
        (r#"replace("héllo", "", "-")"#, r#""-h-é-l-l-o-""#),
        (r#"replace("//", "//", "x")"#, r#""x/x/x""#),
        (r#"endswith("é", "\u0301")"#, "false"),
    ]);
}

#[test]
fn unknown_strings_are_not_null() {
    let v = super::unknown_string();
    assert!(matches!(
        v,
        Value::Unknown(
            Type::String,
            Refinement {
                not_null: true,
                string_prefix: None
            }
        )
    ));
}
