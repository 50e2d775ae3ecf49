//! cel-go `ext/strings_test.go`: `stringTests` (TestStrings) minus `reverse` (version 3),
//! the version table of TestStringsVersions for versions ≤ 2, and TestQuoteUnquote's
//! strings through `strings.quote`.

use super::{Case, fails, ok, run_table};

/// cel-go ext/strings_test.go, TestStrings (`stringTests`).
const STRING_TESTS: &[Case] = &[
    ok("'tacocat'.charAt(3) == 'o'"),
    ok("'tacocat'.charAt(7) == ''"),
    ok("'©αT'.charAt(0) == '©' && '©αT'.charAt(1) == 'α' && '©αT'.charAt(2) == 'T'"),
    ok("'tacocat'.indexOf('') == 0"),
    ok("'tacocat'.indexOf('ac') == 1"),
    ok("'tacocat'.indexOf('none') == -1"),
    ok("'tacocat'.indexOf('', 3) == 3"),
    ok("'tacocat'.indexOf('a', 3) == 5"),
    ok("'tacocat'.indexOf('at', 3) == 5"),
    ok("'ta©o©αT'.indexOf('©') == 2"),
    ok("'ta©o©αT'.indexOf('©', 3) == 4"),
    ok("'ta©o©αT'.indexOf('©αT', 3) == 4"),
    ok("'ta©o©αT'.indexOf('©α', 5) == -1"),
    ok("'ijk'.indexOf('k') == 2"),
    ok("'hello wello'.indexOf('hello wello') == 0"),
    ok("'hello wello'.indexOf('ello', 6) == 7"),
    ok("'hello wello'.indexOf('elbo room!!') == -1"),
    ok("'hello wello'.indexOf('elbo room!!!') == -1"),
    ok("''.lastIndexOf('@@') == -1"),
    ok("'tacocat'.lastIndexOf('') == 7"),
    ok("'tacocat'.lastIndexOf('at') == 5"),
    ok("'tacocat'.lastIndexOf('none') == -1"),
    ok("'tacocat'.lastIndexOf('', 3) == 3"),
    ok("'tacocat'.lastIndexOf('a', 3) == 1"),
    ok("'ta©o©αT'.lastIndexOf('©') == 4"),
    ok("'ta©o©αT'.lastIndexOf('©', 3) == 2"),
    ok("'ta©o©αT'.lastIndexOf('©α', 4) == 4"),
    ok("'hello wello'.lastIndexOf('ello', 6) == 1"),
    ok("'hello wello'.lastIndexOf('low') == -1"),
    ok("'hello wello'.lastIndexOf('elbo room!!') == -1"),
    ok("'hello wello'.lastIndexOf('elbo room!!!') == -1"),
    ok("'hello wello'.lastIndexOf('hello wello') == 0"),
    ok("'bananananana'.lastIndexOf('nana', 7) == 6"),
    ok("'TacoCat'.lowerAscii() == 'tacocat'"),
    ok("'TacoCÆt'.lowerAscii() == 'tacocÆt'"),
    ok("'TacoCÆt Xii'.lowerAscii() == 'tacocÆt xii'"),
    ok(r#""12 days 12 hours".replace("{0}", "2") == "12 days 12 hours""#),
    ok(r#""{0} days {0} hours".replace("{0}", "2") == "2 days 2 hours""#),
    ok(r#""{0} days {0} hours".replace("{0}", "2", 1).replace("{0}", "23") == "2 days 23 hours""#),
    ok(r#""1 ©αT taco".replace("αT", "o©α") == "1 ©o©α taco""#),
    ok(r#""hello hello".replace("", "_") == "_h_e_l_l_o_ _h_e_l_l_o_""#),
    ok(r#""hello hello".replace("h", "") == "ello ello""#),
    ok(r#""hello world".split(" ") == ["hello", "world"]"#),
    ok(r#""hello world events!".split(" ", 0) == []"#),
    ok(r#""hello world events!".split(" ", 1) == ["hello world events!"]"#),
    ok(r#""o©o©o©o".split("©", -1) == ["o", "o", "o", "o"]"#),
    ok(r#""tacocat".substring(4) == "cat""#),
    ok(r#""tacocat".substring(7) == """#),
    ok(r#""tacocat".substring(0, 4) == "taco""#),
    ok(r#""tacocat".substring(4, 4) == """#),
    ok(r#"'ta©o©αT'.substring(2, 6) == "©o©α""#),
    ok(r#"'ta©o©αT'.substring(7, 7) == """#),
    ok(r#"" \f\n\r\t\vtext  ".trim() == "text""#),
    ok(r#""\u0085\u00a0\u1680text".trim() == "text""#),
    ok(r#""text\u2000\u2001\u2002\u2003\u2004\u2004\u2006\u2007\u2008\u2009".trim() == "text""#),
    ok(r#""\u200atext\u2028\u2029\u202F\u205F\u3000".trim() == "text""#),
    ok(r#""\u180etext\u200b\u200c\u200d\u2060\ufeff".trim()
				== "\u180etext\u200b\u200c\u200d\u2060\ufeff""#),
    ok("'tacoCat'.upperAscii() == 'TACOCAT'"),
    ok("'tacoCαt'.upperAscii() == 'TACOCαT'"),
    ok("['x', 'y'].join() == 'xy'"),
    ok("['x', 'y'].join('-') == 'x-y'"),
    ok("[].join() == ''"),
    ok("[].join('-') == ''"),
    ok(r#"strings.quote("first\nsecond") == "\"first\\nsecond\"""#),
    ok(r#"strings.quote("bell\a") == "\"bell\\a\"""#),
    ok(r#"strings.quote("\bbackspace") == "\"\\bbackspace\"""#),
    ok(r#"strings.quote("\fform feed") == "\"\\fform feed\"""#),
    ok(r#"strings.quote("carriage \r return") == "\"carriage \\r return\"""#),
    ok(r#"strings.quote("horizontal tab\t") == "\"horizontal tab\\t\"""#),
    ok(r#"strings.quote("vertical \v tab") == "\"vertical \\v tab\"""#),
    ok(r#"strings.quote("double \\\\ slash") == "\"double \\\\\\\\ slash\"""#),
    ok(r#"strings.quote("two escape sequences \a\n") == "\"two escape sequences \\a\\n\"""#),
    ok(r#"strings.quote("verbatim") == "\"verbatim\"""#),
    ok(r#"strings.quote("ends with \\") == "\"ends with \\\\\"""#),
    ok(r#"strings.quote("\\ starts with") == "\"\\\\ starts with\"""#),
    ok(r#"strings.quote("printable unicode😀") == "\"printable unicode😀\"""#),
    ok(r#"strings.quote("mid string \" quote") == "\"mid string \\\" quote\"""#),
    ok(
        r#"strings.quote('single-quote with "double quote"') == "\"single-quote with \\\"double quote\\\"\"""#,
    ),
    ok(r#"strings.quote("size('ÿ')") == "\"size('ÿ')\"""#),
    ok(r#"strings.quote("size('πέντε')") == "\"size('πέντε')\"""#),
    ok(r#"strings.quote("завтра") == "\"завтра\"""#),
    ok(
        r#"strings.quote("\U0001F431\U0001F600\U0001F61B") == "\"\U0001F431\U0001F600\U0001F61B\"""#,
    ),
    ok(r#"strings.quote("ta©o©αT") == "\"ta©o©αT\"""#),
    ok(r#"strings.quote("") == "\"\"""#),
    ok(r#"strings.quote('%s %s').format(['hello', 'world']) == "\"hello world\"""#),
    fails("'tacocat'.charAt(30) == ''", "index out of range: 30"),
    ok("'tacocat'.indexOf('a', 30) == -1"),
    fails(
        "'tacocat'.lastIndexOf('a', -1) == -1",
        "index out of range: -1",
    ),
    ok("'tacocat'.lastIndexOf('a', 30) == -1"),
    fails(
        r#""tacocat".substring(40) == "cat""#,
        "index out of range: 40",
    ),
    fails(
        r#""tacocat".substring(-1) == "cat""#,
        "index out of range: -1",
    ),
    fails(
        r#""tacocat".substring(1, 50) == "cat""#,
        "index out of range: 50",
    ),
    fails(
        r#""tacocat".substring(49, 50) == "cat""#,
        "index out of range: 49",
    ),
    fails(
        r#""tacocat".substring(4, 3) == """#,
        "invalid substring range. start: 4, end: 3",
    ),
    fails(r#"42.charAt(2) == """#, "no such overload"),
    fails(r#"'hello'.charAt(true) == """#, "no such overload"),
    fails("24.indexOf('2') == 0", "no such overload"),
    fails("'hello'.indexOf(true) == 1", "no such overload"),
    fails("42.indexOf('4', 0) == 0", "no such overload"),
    fails("'42'.indexOf(4, 0) == 0", "no such overload"),
    fails("'42'.indexOf('4', '0') == 0", "no such overload"),
    fails("'42'.indexOf('4', 0, 1) == 0", "no such overload"),
    fails(r#"42.split("2") == ["4"]"#, "no such overload"),
    fails(r#"42.replace(2, 1) == "41""#, "no such overload"),
    fails(r#""42".replace(2, 1) == "41""#, "no such overload"),
    fails(r#""42".replace("2", 1) == "41""#, "no such overload"),
    fails(r#"42.replace("2", "1", 1) == "41""#, "no such overload"),
    fails(r#""42".replace(2, "1", 1) == "41""#, "no such overload"),
    fails(r#""42".replace("2", 1, 1) == "41""#, "no such overload"),
    fails(r#""42".replace("2", "1", "1") == "41""#, "no such overload"),
    fails(
        r#""42".replace("2", "1", 1, false) == "41""#,
        "no such overload",
    ),
    fails(r#"42.split("") == ["4", "2"]"#, "no such overload"),
    fails(r#""42".split(2) == ["4"]"#, "no such overload"),
    fails(r#"42.split("2", "1") == ["4"]"#, "no such overload"),
    fails(r#""42".split(2, 1) == ["4"]"#, "no such overload"),
    fails(r#""42".split("2", "1") == ["4"]"#, "no such overload"),
    fails(r#""42".split("2", 1, 1) == ["4"]"#, "no such overload"),
    fails(r#"'hello'.substring(1, 2, 3) == """#, "no such overload"),
    fails(r#"30.substring(true, 3) == """#, "no such overload"),
    fails(r#""tacocat".substring(true, 3) == """#, "no such overload"),
    fails(r#""tacocat".substring(0, false) == """#, "no such overload"),
];

#[test]
fn strings_test_go_test_strings() {
    run_table("ext/strings_test.go TestStrings", STRING_TESTS);
}

/// cel-go ext/strings_test.go, TestStringsVersions (versions 0 and 1; the API server's
/// version 2 has them all).
const VERSION_TESTS: &[Case] = &[
    ok("''.charAt(0) == ''"),
    ok("'a'.indexOf('a') == 0"),
    ok("'a'.lastIndexOf('a') == 0"),
    ok("['a', 'b'].join() == 'ab'"),
    ok("['a', 'b'].join('-') == 'a-b'"),
    ok("'a'.lowerAscii() == 'a'"),
    ok("'hello hello'.replace('he', 'we') == 'wello wello'"),
    ok("'hello hello hello'.split(' ') == ['hello', 'hello', 'hello']"),
    ok("'tacocat'.substring(4) == 'cat'"),
    ok(r"'  \ttrim\n    '.trim() == 'trim'"),
    ok("'TacoCat'.upperAscii() == 'TACOCAT'"),
    ok("'a %d'.format([1]) == 'a 1'"),
    ok(r#"strings.quote('\a \b "double quotes"') == '"\\a \\b \\"double quotes\\""'"#),
    // version 3's string reverse is absent; `reverse` is the lists library's
    fails("'taco'.reverse() == 'ocat'", "no such overload"),
];

#[test]
fn strings_test_go_test_strings_versions() {
    run_table("ext/strings_test.go TestStringsVersions", VERSION_TESTS);
}

/// cel-go ext/strings_test.go, TestFunctionsForVersions: the functions of version 2.
#[test]
fn strings_test_go_test_functions_for_versions() {
    let names: Vec<String> = super::super::strings::functions()
        .into_iter()
        .map(|f| f.name)
        .collect();
    let mut want = vec![
        "lastIndexOf",
        "lowerAscii",
        "split",
        "trim",
        "join",
        "charAt",
        "indexOf",
        "replace",
        "substring",
        "upperAscii",
        "strings.quote",
        "format",
    ];
    let mut got: Vec<&str> = names.iter().map(String::as_str).collect();
    want.sort_unstable();
    got.sort_unstable();
    assert_eq!(got, want);
}

/// cel-go ext/strings_test.go, TestQuoteUnquote: quoting round-trips through CEL's
/// unquoting (here: the expected quoted text).
#[test]
fn strings_test_go_test_quote_unquote() {
    use super::super::strings::quote;
    for (input, want) in [
        ("this is a test", r#""this is a test""#),
        ("first\nsecond", r#""first\nsecond""#),
        ("bell\u{7}", r#""bell\a""#),
        ("\u{8}backspace", r#""\bbackspace""#),
        ("\u{c}form feed", r#""\fform feed""#),
        ("carriage \r return", r#""carriage \r return""#),
        ("horizontal \ttab", r#""horizontal \ttab""#),
        ("vertical \u{b} tab", r#""vertical \v tab""#),
        ("double \\\\ slash", r#""double \\\\ slash""#),
        ("ends with \\", r#""ends with \\""#),
        ("\\ starts with", r#""\\ starts with""#),
        ("printable unicode😀", "\"printable unicode😀\""),
        ("mid-string \" quote", r#""mid-string \" quote""#),
        ("\\? and \\`", r#""\\? and \\`""#),
    ] {
        assert_eq!(quote(input), want, "{input:?}");
    }
}

/// Code points, hostile offsets and Go's Split/Replace corner cases.
#[test]
fn strings_edge_cases() {
    run_table(
        "strings edge cases",
        &[
            ok("'abc'.indexOf('', -5) == -5"),
            ok("'abc'.lastIndexOf('', 99) == 99"),
            ok("'abc'.indexOf('abcd') == -1"),
            ok("'abc'.lastIndexOf('abcd') == -1"),
            ok("'ab'.lastIndexOf('b', 0) == -1"),
            fails(
                "'abc'.indexOf('a', -9223372036854775807 - 1) == 0",
                "index out of range: -9223372036854775808",
            ),
            fails("'abc'.charAt(-1) == ''", "index out of range: -1"),
            ok("''.split('') == []"),
            ok("'abc'.split('') == ['a', 'b', 'c']"),
            ok("'abc'.split('', 2) == ['a', 'bc']"),
            ok("'a,b,c'.split(',', 2) == ['a', 'b,c']"),
            ok("''.split(',') == ['']"),
            ok("'abc'.replace('', '-', 2) == '-a-bc'"),
            ok("'aaa'.replace('a', 'b', -5) == 'bbb'"),
            ok("'aaa'.replace('a', 'b', 0) == 'aaa'"),
            fails("['a', 1].join() == ''", "join: invalid input: 1"),
            ok("'©αT'.substring(1) == 'αT'"),
            fails(
                "'abc'.substring(-9223372036854775807 - 1, 1) == ''",
                "index out of range: -9223372036854775808",
            ),
        ],
    );
}
