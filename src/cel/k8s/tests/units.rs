//! Unit tests of the parsers and their error messages against Go's.

use super::super::cidr::parse_prefix;
use super::super::ip::parse_addr;
use super::super::quantity;
use super::super::regex::literal_pattern_error;
use super::super::semver;
use super::super::urls;
use super::real::eval;
use crate::cel::value::Value;

/// Go net/netip's `TestParseAddr` invalid inputs (netip_test.go), with Go 1.25's messages.
#[test]
fn netip_parse_errors() {
    let cases = [
        ("", r#"ParseAddr(""): unable to parse IP"#),
        ("1.2.3", r#"ParseAddr("1.2.3"): IPv4 address too short"#),
        (
            "1.2.3.4.5",
            r#"ParseAddr("1.2.3.4.5"): IPv4 address too long"#,
        ),
        (
            "010.1.2.3",
            r#"ParseAddr("010.1.2.3"): IPv4 field has octet with leading zero"#,
        ),
        (
            "1.256.2.3",
            r#"ParseAddr("1.256.2.3"): IPv4 field has value >255"#,
        ),
        (
            "1..2.3",
            r#"ParseAddr("1..2.3"): IPv4 field must have at least one digit (at ".2.3")"#,
        ),
        (
            "1.2.3.x",
            r#"ParseAddr("1.2.3.x"): unexpected character (at "x")"#,
        ),
        ("%eth0", r#"ParseAddr("%eth0"): missing IPv6 address"#),
        (
            "fe80::1%",
            r#"ParseAddr("fe80::1%"): zone must be a non-empty string"#,
        ),
        (
            "12345::",
            r#"ParseAddr("12345::"): each group must have 4 or less digits (at "12345::")"#,
        ),
        (
            "1:2:3:4:5:6:7:8:9",
            r#"ParseAddr("1:2:3:4:5:6:7:8:9"): trailing garbage after address (at "9")"#,
        ),
        ("1:2:3", r#"ParseAddr("1:2:3"): address string too short"#),
        (
            "1::2::3",
            r#"ParseAddr("1::2::3"): multiple :: in address (at ":3")"#,
        ),
        (
            "1:2:3:4:5:6:7::8",
            r#"ParseAddr("1:2:3:4:5:6:7::8"): the :: must expand to at least one field of zeros"#,
        ),
        ("::1.2.3", r#"ParseAddr("::1.2.3"): IPv4 address too short"#),
        (
            "1:2:1.2.3.4",
            r#"ParseAddr("1:2:1.2.3.4"): embedded IPv4 address must replace the final 2 fields of the address (at "1.2.3.4")"#,
        ),
        (
            "1:",
            r#"ParseAddr("1:"): colon must be followed by more characters (at ":")"#,
        ),
        (
            "1x::",
            r#"ParseAddr("1x::"): unexpected character, want colon (at "x::")"#,
        ),
    ];
    for (input, want) in cases {
        assert_eq!(parse_addr(input).unwrap_err(), want, "{input}");
    }
    for (input, canonical) in [
        ("2001:DB8::1", "2001:db8::1"),
        ("0:0:0:0:0:0:0:1", "::1"),
        ("1:0:0:1:0:0:0:1", "1:0:0:1::1"),
        ("1:0:0:0:1:0:0:1", "1::1:0:0:1"),
        ("1:2:3:4:5:6:7:0", "1:2:3:4:5:6:7:0"),
        ("::ffff:1.2.3.4", "::ffff:1.2.3.4"),
        ("fe80::1%eth0", "fe80::1%eth0"),
        ("::1.2.3.4", "::102:304"),
    ] {
        assert_eq!(
            parse_addr(input).unwrap().to_go_string(),
            canonical,
            "{input}"
        );
    }
}

/// The library's refusals (ip.go `parseIPAddr`, cidr.go `parseCIDR`).
#[test]
fn library_refusals() {
    assert_eq!(
        eval("ip('fe80::1%eth0')").unwrap_err().message,
        r#"IP address "fe80::1%eth0" with zone value is not allowed"#
    );
    assert_eq!(
        eval("ip('::ffff:1.2.3.4')").unwrap_err().message,
        r#"IPv4-mapped IPv6 address "::ffff:1.2.3.4" is not allowed"#
    );
    assert_eq!(
        eval("cidr('::ffff:1.2.3.4/120')").unwrap_err().message,
        r#"network address parse error during conversion from string: IPv4-mapped IPv6 address "::ffff:1.2.3.4/120" is not allowed"#
    );
    // a string that is no IP: the library answers `no such overload`
    assert_eq!(
        eval("cidr('10.0.0.0/8').containsIP('x')")
            .unwrap_err()
            .message,
        "no such overload"
    );
    assert_eq!(
        eval("cidr('10.0.0.0/8').containsCIDR('x')")
            .unwrap_err()
            .message,
        r#"network address parse error during conversion from string: network address parse error during conversion from string: netip.ParsePrefix("x"): no '/'"#
    );
    assert!(
        eval("isIP('1.2.3.04')")
            .unwrap()
            .equals(&eval("false").unwrap())
    );
    // Kubernetes' types refuse other types on the right of `==` (`Opaque::equal_error`; the
    // checker refuses such comparisons unless an operand is `dyn`)
    let refusal = |l: &str, r: &str| match eval(l).unwrap() {
        Value::Opaque(o) => o.equal_error(&eval(r).unwrap()).map(|e| e.message),
        _ => None,
    };
    assert_eq!(
        refusal("ip('1.2.3.4')", "'1.2.3.4'").as_deref(),
        Some("no such overload")
    );
    assert_eq!(refusal("ip('1.2.3.4')", "ip('1.2.3.4')"), None);
    assert_eq!(
        refusal("url('/a')", "1").as_deref(),
        Some("no such overload")
    );
    // add and sub return pointers, which Quantity's Equal refuses on the right
    assert_eq!(
        refusal("quantity('2')", "quantity('1').add(1)").as_deref(),
        Some("no such overload")
    );
    assert_eq!(refusal("quantity('1').add(1)", "quantity('2')"), None);
    // and end to end, through `==`
    for e in [
        "ip('1.2.3.4') == dyn('1.2.3.4')",
        "quantity('2') == quantity('1').add(1)",
        "url('/a') != dyn(1)",
    ] {
        assert_eq!(eval(e).unwrap_err().message, "no such overload", "{e}");
    }
    assert!(eval("dyn('1.2.3.4') == ip('1.2.3.4')").is_ok());
    assert!(eval("quantity('1').add(1) == quantity('2')").is_ok());
}

/// Go net/netip's `TestParsePrefixError` messages.
#[test]
fn prefix_errors() {
    let cases = [
        ("192.168.0.0", r#"netip.ParsePrefix("192.168.0.0"): no '/'"#),
        (
            "1.1.1.0/q",
            r#"netip.ParsePrefix("1.1.1.0/q"): bad bits after slash: "q""#,
        ),
        (
            "1.1.1.0/-1",
            r#"netip.ParsePrefix("1.1.1.0/-1"): bad bits after slash: "-1""#,
        ),
        (
            "1.1.1.0/33",
            r#"netip.ParsePrefix("1.1.1.0/33"): prefix length out of range"#,
        ),
        (
            "1.1.1.0/032",
            r#"netip.ParsePrefix("1.1.1.0/032"): bad bits after slash: "032""#,
        ),
        (
            "2001::/129",
            r#"netip.ParsePrefix("2001::/129"): prefix length out of range"#,
        ),
        (
            "fe80::1%eth0/64",
            r#"netip.ParsePrefix("fe80::1%eth0/64"): IPv6 zones cannot be present in a prefix"#,
        ),
        (
            "1.2.3/24",
            r#"netip.ParsePrefix("1.2.3/24"): ParseAddr("1.2.3"): IPv4 address too short"#,
        ),
    ];
    for (input, want) in cases {
        assert_eq!(parse_prefix(input).unwrap_err(), want, "{input}");
    }
    assert_eq!(
        parse_prefix("10.1.2.3/8").unwrap().masked().to_go_string(),
        "10.0.0.0/8"
    );
    assert_eq!(
        parse_prefix("2001:db8::1/0")
            .unwrap()
            .masked()
            .to_go_string(),
        "::/0"
    );
}

/// Go net/url's `parseRequestURLTests` and `TestParseErrors` (url_test.go), with Go 1.25's
/// messages.
#[test]
fn url_parsing() {
    for ok in [
        "http://foo.com",
        "http://foo.com/",
        "http://foo.com/path",
        "/",
        "*",
        "http://192.168.0.1/",
        "http://192.168.0.1:8080/",
        "http://[fe80::1]/",
        "http://[fe80::1]:8080/",
        "http://[fe80::1%25en0]/",
        "http://[fe80::1%25%65%6e%301-._~]:8080/",
        "mailto:user@example.com",
        "http://user:pass@host/",
    ] {
        assert!(urls::parse_request_uri(ok).is_ok(), "{ok}");
    }
    let errors = [
        ("", r#"parse "": empty url"#),
        ("foo.html", r#"parse "foo.html": invalid URI for request"#),
        ("../dir/", r#"parse "../dir/": invalid URI for request"#),
        (
            "http://[::1]a",
            r#"parse "http://[::1]a": invalid port "a" after host"#,
        ),
        (
            "http://[::1]%23",
            r#"parse "http://[::1]%23": invalid port "%23" after host"#,
        ),
        (
            "http://[fe80::1%en0]/",
            r#"parse "http://[fe80::1%en0]/": invalid URL escape "%en""#,
        ),
        (
            "http://a b.com/",
            r#"parse "http://a b.com/": invalid character " " in host name"#,
        ),
        (
            "http://x/%zz",
            r#"parse "http://x/%zz": invalid URL escape "%zz""#,
        ),
        (
            "http://x:y:z/",
            r#"parse "http://x:y:z/": invalid port ":z" after host"#,
        ),
        (
            "http://x/\n",
            "parse \"http://x/\\n\": net/url: invalid control character in URL",
        ),
        ("://x", r#"parse "://x": missing protocol scheme"#),
        (
            "http://[1.2.3.4]/",
            r#"parse "http://[1.2.3.4]/": invalid IP-literal"#,
        ),
        (
            "http://a[::1]/",
            r#"parse "http://a[::1]/": invalid IP-literal"#,
        ),
        (
            "http://[::1/",
            r#"parse "http://[::1/": missing ']' in host"#,
        ),
        (
            "http://ü@x/",
            r#"parse "http://ü@x/": net/url: invalid userinfo"#,
        ),
        (
            "http://[v1.x]/",
            r#"parse "http://[v1.x]/": invalid host: ParseAddr("v1.x"): unexpected character (at "v1.x")"#,
        ),
    ];
    for (input, want) in errors {
        assert_eq!(
            urls::parse_request_uri(input).unwrap_err(),
            want,
            "{input:?}"
        );
    }
    // `url()` keeps what url.Parse makes of the text: `//host` is a host for Parse
    let check = |e: &str| assert!(eval(e).unwrap().equals(&eval("true").unwrap()), "{e}");
    check("url('//example.com/p').getHost() == 'example.com'");
    check("url('https://example.com/a#frag').getEscapedPath() == '/a'");
    check("url('https://example.com/a%2Fb').getEscapedPath() == '/a%2Fb'");
    check("url('https://example.com/a%2fb') == url('https://example.com/a%2fb')");
    // equality compares String(), which keeps the path's escaping as written
    check("url('https://example.com/a%41') != url('https://example.com/aA')");
    check("url('https://ex.com/?a=1;b=2&c=%zz&d=4').getQuery() == {'d': ['4']}");
    // Go keeps `scheme:/path` without an authority apart from `scheme:///path`
    check("url('file:/p') != url('file:///p')");
    check("url('file:///p') == url('file:///p')");
    check("url('file:/p').getHost() == '' && url('file:/p').getEscapedPath() == '/p'");
    assert_eq!(
        eval("url('x')").unwrap_err().message,
        r#"URL parse error during conversion from string: parse "x": invalid URI for request"#
    );
    assert_eq!(
        eval("url('//[x/p')").unwrap_err().message,
        r#"URL parse error during conversion from string: parse "//[x/p": missing ']' in host"#
    );
}

/// apimachinery `quantity_test.go` (`TestQuantityParse`, `TestQuantityParseZero`,
/// `TestQuantityCmp`), the cases that show through the library.
#[test]
fn quantities() {
    let q = |s: &str| quantity::parse(s).unwrap();
    for (a, b) in [
        ("0", "0m"),
        ("1", "1000m"),
        ("1Ki", "1024"),
        ("1k", "1000"),
        ("1.5Gi", "1610612736"),
        ("1e3", "1k"),
        ("1E3", "1k"),
        ("0.1m", "100u"),
        ("1n", "0.000000001"),
        ("-1n", "-0.000000001"),
        ("1.0000000001", "1000000001n"),
        (".5", "500m"),
        ("+5", "5"),
        ("0.0000000001", "1n"),
        ("-0.0000000001", "-1n"),
        ("8Ei", "9223372036854775807"),
        ("100Ei", "9223372036854775807"),
        ("0.5Ki", "512"),
        ("Ki", "0"),
        ("-", "0"),
        ("1e-9", "1n"),
        (
            "123456789012345678901234567890",
            "123456789012345678901234567890",
        ),
    ] {
        assert_eq!(
            q(a).compare(&q(b)),
            Ok(std::cmp::Ordering::Equal),
            "{a} = {b}"
        );
    }
    for (a, b) in [
        ("1", "2"),
        ("1m", "1"),
        ("-1", "1n"),
        ("1e9999", "1e10000"),
        ("1Mi", "1M1"),
    ] {
        if let (Ok(x), Ok(y)) = (quantity::parse(a), quantity::parse(b)) {
            assert_eq!(x.compare(&y), Ok(std::cmp::Ordering::Less), "{a} < {b}");
        }
    }
    for bad in [
        "", " 1", "1 ", "1.2.3", "abc", "1x", "1e", "1Ee5", "--1", "1.5e", "1e1.5",
    ] {
        assert!(quantity::parse(bad).is_err(), "{bad:?}");
    }
    assert_eq!(
        quantity::parse("1e").unwrap_err().message,
        quantity::ERR_SUFFIX
    );
    assert_eq!(
        quantity::parse("abc").unwrap_err().message,
        quantity::ERR_FORMAT_WRONG
    );
    assert_eq!(
        quantity::parse("e-20").unwrap_err().message,
        quantity::ERR_NUMERIC
    );
    // the representation shows: an inf.Dec is never an integer, an int64Amount may be
    assert_eq!(q("1.5Gi").as_int64(), None);
    assert_eq!(q("1Gi").as_int64(), Some(1 << 30));
    assert_eq!(q("1e3").as_int64(), Some(1000));
    assert_eq!(q("1500m").as_int64(), None);
    assert_eq!(q("1.5k").as_int64(), Some(1500));
    assert_eq!(q("123456789012345678901").as_int64(), None);
    // huge exponents neither hang nor panic
    assert!(quantity::parse("12345678901234567890123e999999999").is_err());
    assert_eq!(
        q("1e999999999").compare(&q("1")),
        Ok(std::cmp::Ordering::Greater)
    );
    assert!(q("1e999999999").add(&q("1.5Gi")).is_err());
    assert_eq!(q("50.703k").as_approximate_float64(), 50703.0);
    assert_eq!(q("1e400").as_approximate_float64(), f64::INFINITY);
    assert_eq!(q("-2").sign(), -1);
}

/// blang/semver `semver_test.go` (`TestParse` error messages).
#[test]
fn semver_errors() {
    let cases = [
        ("", "Version string empty"),
        ("1.0", "No Major.Minor.Patch elements found"),
        ("a.0.0", r#"Invalid character(s) found in major number "a""#),
        (
            "01.0.0",
            r#"Major number must not contain leading zeroes "01""#,
        ),
        ("1.a.0", r#"Invalid character(s) found in minor number "a""#),
        (
            "1.01.0",
            r#"Minor number must not contain leading zeroes "01""#,
        ),
        ("1.0.a", r#"Invalid character(s) found in patch number "a""#),
        (
            "1.0.01",
            r#"Patch number must not contain leading zeroes "01""#,
        ),
        ("1.0.0-", "Prerelease is empty"),
        (
            "1.0.0-01",
            r#"Numeric PreRelease version must not contain leading zeroes "01""#,
        ),
        (
            "1.0.0-a!",
            r#"Invalid character(s) found in prerelease "a!""#,
        ),
        ("1.0.0+", "Build meta data is empty"),
        (
            "1.0.0+a!",
            r#"Invalid character(s) found in build meta data "a!""#,
        ),
        (
            "99999999999999999999.0.0",
            r#"strconv.ParseUint: parsing "99999999999999999999": value out of range"#,
        ),
        (".0.0", r#"strconv.ParseUint: parsing "": invalid syntax"#),
    ];
    for (input, want) in cases {
        assert_eq!(semver::parse(input).unwrap_err(), want, "{input}");
    }
    assert_eq!(
        semver::normalize_and_parse("1-rc").unwrap_err(),
        "short version cannot contain PreRelease/Build meta data"
    );
    let v = |s: &str| semver::parse(s).unwrap();
    for (a, b) in [
        ("1.0.0-alpha", "1.0.0-alpha.1"),
        ("1.0.0-alpha.1", "1.0.0-alpha.beta"),
        ("1.0.0-alpha.beta", "1.0.0-beta"),
        ("1.0.0-beta.2", "1.0.0-beta.11"),
        ("1.0.0-rc.1", "1.0.0"),
    ] {
        assert_eq!(v(a).compare(&v(b)), std::cmp::Ordering::Less, "{a} < {b}");
    }
    assert_eq!(
        v("1.0.0+a").compare(&v("1.0.0+b")),
        std::cmp::Ordering::Equal
    );
}

/// Go regexp's error text, which the API server reports for a literal pattern.
#[test]
fn regex_literal_errors() {
    assert_eq!(
        literal_pattern_error(")").as_deref(),
        Some("error parsing regexp: unexpected ): `)`")
    );
    assert_eq!(literal_pattern_error("[0-9]+"), None);
    // apiextensions validation_test.go: the pattern errors of `find` and `findAll` literals
    // that fail the program when it is built
    let program_error =
        |e: &str| super::super::regex::program_error(&crate::cel::parser::parse(e).unwrap().expr);
    for e in [
        "self.str.find(')') == ''",
        "self.str.findAll(')') == []",
        "self.str.findAll(')', 1) == []",
        "[1].all(x, 'a'.find('(') == '' || 'b'.find(')') == '')",
    ] {
        let want = if e.contains("'('") {
            "error parsing regexp: missing closing ): `(`"
        } else {
            "error parsing regexp: unexpected ): `)`"
        };
        assert_eq!(program_error(e).as_deref(), Some(want), "{e}");
    }
    assert_eq!(
        program_error("self.str.find(self.p) == '' && 'x'.find('[0-9]') == ''"),
        None
    );
    // Go's FindAll skips an empty match right after a match
    let t = |e: &str| assert!(eval(e).unwrap().equals(&eval("true").unwrap()), "{e}");
    t("'baaab'.findAll('a*') == ['', 'aaa', '']");
    t("'abc'.findAll('') == ['', '', '', '']");
    t("'abc'.find('x*') == ''");
}

/// Overflow and type errors of the lists library.
#[test]
fn lists_errors() {
    assert_eq!(
        eval("[9223372036854775807, 1].sum()").unwrap_err().message,
        "integer overflow"
    );
    assert_eq!(
        eval("[18446744073709551615u, 1u].sum()")
            .unwrap_err()
            .message,
        "unsigned integer overflow"
    );
    let t = |e: &str| assert!(eval(e).unwrap().equals(&eval("true").unwrap()), "{e}");
    t("[dyn(1), dyn(2.5), dyn(3u)].isSorted()");
    t("[dyn(3), dyn(1.5)].min() == 1.5");
    t("[[1], [2]].lastIndexOf([2]) == 1");
}

/// apiserver `library_compatibility_test.go` `TestLibraryCompatibility`: the functions the
/// libraries declare (less Authz, AuthzSelectors and JSONPatch, which CRD rules do not get;
/// plus the `format.<name>` constants the format library adds as compile options), and
/// overload ids unique across the libraries.
#[test]
fn library_functions() {
    let mut names: Vec<String> = super::super::functions()
        .into_iter()
        .map(|f| f.name)
        .filter(|n| !n.starts_with("format.") || n == "format.named")
        .collect();
    names.sort();
    names.dedup();
    let mut want = vec![
        "isSorted",
        "sum",
        "max",
        "min",
        "indexOf",
        "lastIndexOf",
        "find",
        "findAll",
        "url",
        "getScheme",
        "getHost",
        "getHostname",
        "getPort",
        "getEscapedPath",
        "getQuery",
        "isURL",
        "add",
        "asApproximateFloat",
        "asInteger",
        "compareTo",
        "isGreaterThan",
        "isInteger",
        "isLessThan",
        "isQuantity",
        "quantity",
        "sign",
        "sub",
        "ip",
        "family",
        "isUnspecified",
        "isLoopback",
        "isLinkLocalMulticast",
        "isLinkLocalUnicast",
        "isGlobalUnicast",
        "ip.isCanonical",
        "isIP",
        "cidr",
        "containsIP",
        "containsCIDR",
        "masked",
        "prefixLength",
        "isCIDR",
        "string",
        "validate",
        "format.named",
        "isSemver",
        "major",
        "minor",
        "patch",
        "semver",
    ];
    want.sort();
    assert_eq!(names, want);
    let mut ids: Vec<String> = super::super::functions()
        .into_iter()
        .flat_map(|f| f.overloads.into_iter().map(|o| o.id))
        .collect();
    let n = ids.len();
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), n, "overload ids are unique");
    // lists 8 + 4 + 8 + 8 + 2, regex 3, urls 8, quantity 13, ip 10, cidr 10, format 2 + 13,
    // semver 10
    assert_eq!(n, 99);
}

/// Go's pointer semantics of quantities, visible through variables (apimachinery
/// `Quantity.Cmp` converts its receiver; `add` writes through an `inf.Dec` its receiver
/// shares).
#[test]
fn quantity_pointer_semantics() {
    let t = |e: &str| assert!(eval(e).unwrap().equals(&eval("true").unwrap()), "{e}");
    t(
        "cel.bind(q, quantity('1'), q.isInteger() && q.isLessThan(quantity('1.5Gi')) && !q.isInteger())",
    );
    t("cel.bind(q, quantity('1'), q.isLessThan(quantity('2')) && q.isInteger())");
    t("[quantity('1')].all(q, q.compareTo(quantity('0.5Ki')) == -1 && !q.isInteger())");
    // the argument is copied: it keeps its integer amount
    t("cel.bind(q, quantity('1'), quantity('1.5Gi').isGreaterThan(q) && q.isInteger())");
    // add on a decimal receiver changes the receiver too
    t("cel.bind(q, quantity('1.5Gi'), q.add(quantity('1')) == q)");
    t("cel.bind(q, quantity('1.5Gi'), q.add(1).compareTo(quantity('1610612737')) == 0)");
    t("cel.bind(q, quantity('1'), q.add(quantity('1')) != q)");
    t("cel.bind(q, quantity('1.5Gi'), sign(q.sub(q)) == 0 && sign(q) == 0)");
}

/// Hostile quantities: bounded time and memory, no panic.
#[test]
fn hostile_quantities() {
    let long = "9".repeat(1_000_000);
    assert_eq!(
        quantity::parse(&long).unwrap_err().message,
        quantity::TOO_PRECISE
    );
    for s in [
        "1e2147483647",
        "1e-2147483648",
        "1e4294967296",
        "9e9223372036854775807",
        "123456789012345678901e2147483647",
        "0.000000000000000000001e-2147483000",
        "8Ei",
        "-8Ei",
        "9223372036854775807",
        "-9223372036854775807m",
    ] {
        if let Ok(q) = quantity::parse(s) {
            let one = quantity::parse("1").unwrap();
            let _ = q.compare(&one);
            let _ = q.add(&one);
            let _ = q.sub(&q);
            let _ = q.as_int64();
            let _ = q.as_approximate_float64();
        }
    }
    let t = |e: &str| assert!(eval(e).is_ok(), "{e}");
    t("quantity('1e2147483647').add(quantity('1e-9')).isInteger() || true");
    t("quantity('9223372036854775807').add(1).asApproximateFloat() > 0.0");
    t("sign(quantity('-9223372036854775807').sub(2)) == -1");
}

/// `isURL` is `url.ParseRequestURI` succeeding: kube-openapi strfmt `default_test.go`
/// `TestFormatURI`, govalidator `validator_test.go` `TestIsRequestURI` and Go net/url
/// `url_test.go` request-URI and host cases (as fnhcl's `uri` format checks them).
#[test]
fn is_url_table() {
    let valid = [
        "http://somewhereelse.com",
        "http://foo.bar/#com",
        "http://foobar.com",
        "https://foobar.com",
        "http://foobar.coffee/",
        "http://foobar.中文网/",
        "http://foobar.org/",
        "http://foobar.org:8080/",
        "ftp://foobar.ru/",
        "http://user:pass@www.foobar.com/",
        "http://127.0.0.1/",
        "http://duckduckgo.com/?q=%2F",
        "http://localhost:3000/",
        "http://foobar.com/?foo=bar#baz=qux",
        "http://foobar.com?foo=bar",
        "http://www.xn--froschgrn-x9a.net/",
        "xyz://foobar.com",
        "rtmp://foobar.com",
        "http://www.foo_bar.com/",
        "http://foobar.com/#baz=qux",
        "http://foobar.com/t$-_.+!*\\'(),",
        "http://www.foobar.com/~foobar",
        "http://www.-foobar.com/",
        "http://www.foo---bar.com/",
        "mailto:someone@example.com",
        "irc://irc.server.org/channel",
        "/abs/test/dir",
        "*",
        "http://[fe80::1]/",
        "http://[fe80::1%25en0]:8080/",
        "http://[::ffff:1.2.3.4]/",
        "urn:isbn:0451450523",
        "http://host/?",
        "//not-an-authority/path",
    ];
    let invalid = [
        "somewhere.com",
        "",
        "foobar.com",
        "invalid.",
        ".com",
        "./rel/test/dir",
        ":no-scheme",
        "http://[fe80::1/",
        "http://[1.2.3.4]/",
        "http://[example.com]/",
        "http://host:port/",
        "http://ho st/",
        "http://host/%zz",
        "http://host/\u{7f}",
        "http://a b@host/",
        "http://%41.com/",
        "http://a[b]/",
        "http://[fe80::1%25]/",
        "http://[1.2.3.4%25eth0]/",
        "http://[::1%é]/",
        "http://[::1%25%é]/",
        "a\tb:c",
    ];
    for s in valid {
        assert!(urls::parse_request_uri(s).is_ok(), "valid {s:?}");
    }
    for s in invalid {
        assert!(urls::parse_request_uri(s).is_err(), "invalid {s:?}");
    }
}

/// apimachinery `quantity_test.go` `TestQuantityParse`: each input's value (mantissa ×
/// 10^exponent) and format, also negated and with an explicit `+`.
#[test]
fn quantity_parse_table() {
    use quantity::Format::{BinarySI as B, DecimalExponent as X, DecimalSI as D};
    const MAX: i64 = i64::MAX;
    let table: &[(&str, i64, i32, quantity::Format)] = &[
        ("0", 0, 0, D),
        ("0n", 0, 0, D),
        ("0u", 0, 0, D),
        ("0m", 0, 0, D),
        ("0Ki", 0, 0, B),
        ("0k", 0, 0, D),
        ("0Mi", 0, 0, B),
        ("0M", 0, 0, D),
        ("0Gi", 0, 0, B),
        ("0G", 0, 0, D),
        ("0Ti", 0, 0, B),
        ("0T", 0, 0, D),
        ("1", 1, 0, D),
        ("1Ki", 1024, 0, B),
        ("8Ki", 8 * 1024, 0, B),
        ("7Mi", 7 << 20, 0, B),
        ("6Gi", 6 << 30, 0, B),
        ("5Ti", 5 << 40, 0, B),
        ("4Pi", 4 << 50, 0, B),
        ("3Ei", 3 << 60, 0, B),
        ("10Ti", 10 << 40, 0, B),
        ("100Ti", 100 << 40, 0, B),
        ("5n", 5, -9, D),
        ("4u", 4, -6, D),
        ("3m", 3, -3, D),
        ("9", 9, 0, D),
        ("8k", 8, 3, D),
        ("50k", 5, 4, D),
        ("7M", 7, 6, D),
        ("6G", 6, 9, D),
        ("5T", 5, 12, D),
        ("40T", 4, 13, D),
        ("300T", 3, 14, D),
        ("2P", 2, 15, D),
        ("1E", 1, 18, D),
        ("1E-3", 1, -3, X),
        ("1e3", 1, 3, X),
        ("1E6", 1, 6, X),
        ("1e9", 1, 9, X),
        ("1E12", 1, 12, X),
        ("1e15", 1, 15, X),
        ("1E18", 1, 18, X),
        ("1e14", 1, 14, X),
        ("1e13", 1, 13, X),
        ("100.035k", 100035, 0, D),
        ("0.001", 1, -3, D),
        ("0.0005k", 5, -1, D),
        ("0.005", 5, -3, D),
        ("0.05", 5, -2, D),
        ("0.5", 5, -1, D),
        ("0.00050k", 5, -1, D),
        ("0.00500", 5, -3, D),
        ("0.05000", 5, -2, D),
        ("0.50000", 5, -1, D),
        ("0.5e0", 5, -1, X),
        ("0.5e-1", 5, -2, X),
        ("0.5e-2", 5, -3, X),
        ("10.035M", 10035, 3, D),
        ("1.2e3", 12, 2, X),
        ("1.3E+6", 13, 5, X),
        ("1.40e9", 14, 8, X),
        ("1.53E12", 153, 10, X),
        ("1.6e15", 16, 14, X),
        ("1.7E18", 17, 17, X),
        ("9.01", 901, -2, D),
        ("8.1k", 81, 2, D),
        ("7.123456M", 7123456, 0, D),
        ("6.987654321G", 6987654321, 0, D),
        ("5.444T", 5444, 9, D),
        ("40.1T", 401, 11, D),
        ("300.2T", 3002, 11, D),
        ("2.5P", 25, 14, D),
        ("1.01E", 101, 16, D),
        ("3.001n", 4, -9, D),
        ("1.1E-9", 2, -9, X),
        ("0.0000000001", 1, -9, D),
        ("0.0000000005", 1, -9, D),
        ("0.00000000050", 1, -9, D),
        ("0.5e-9", 1, -9, X),
        ("0.9n", 1, -9, D),
        ("0.00000012345", 124, -9, D),
        ("0.00000012354", 124, -9, D),
        ("9Ei", MAX, 0, B),
        ("9223372036854775807Ki", MAX, 0, B),
        ("12E", 12, 18, D),
        ("100.035Ki", 10243584, -2, B),
        ("0.5Mi", 524288, 0, B),
        ("0.05Gi", 536870912, -1, B),
        ("0.025Ti", 274877906944, -1, B),
        ("0.000000000001Ki", 2, -9, D),
        (".001", 1, -3, D),
        (".0001k", 100, -3, D),
        ("1.", 1, 0, D),
        ("1.G", 1, 9, D),
    ];
    let expect = |m: i64, e: i32| {
        let text = format!("{m}e{e}");
        quantity::parse(&text).unwrap()
    };
    for &(input, m, e, format) in table {
        for (sign, text) in [
            (1, input.to_string()),
            (-1, format!("-{input}")),
            (1, format!("+{input}")),
        ] {
            let got = quantity::parse(&text).unwrap_or_else(|e| panic!("{text}: {e}"));
            let want = expect(sign * m, e);
            assert_eq!(got.compare(&want), Ok(std::cmp::Ordering::Equal), "{text}");
            assert_eq!(got.format, format, "{text} format");
        }
    }
}

/// Go's `strconv.Quote`, as the messages quote input (strconv `quote_test.go` `quotetests`).
#[test]
fn go_quoting() {
    use super::super::go_quote;
    for (input, want) in [
        ("\x07\x08\x0c\r\n\t\x0b", r#""\a\b\f\r\n\t\v""#),
        ("\\", r#""\\""#),
        ("abc\u{ff}def", "\"abc\u{ff}def\""),
        ("\u{263a}", "\"\u{263a}\""),
        ("\u{10ffff}", r#""\U0010ffff""#),
        ("\x04", r#""\x04""#),
        ("\u{a0}", r#""\u00a0""#),
        ("\u{200b}", r#""\u200b""#),
        ("\u{378}", r#""\u0378""#),
        (
            "!\u{00a0}!\u{2000}!\u{3000}!",
            r#""!\u00a0!\u2000!\u3000!""#,
        ),
        ("\u{7f}", r#""\x7f""#),
    ] {
        assert_eq!(go_quote(input), want, "{input:?}");
    }
}

/// A quantity with an `int64Amount`.
fn int_q(value: i64, scale: i32, format: quantity::Format) -> quantity::Quantity {
    quantity::Quantity {
        amount: quantity::Amount::Int { value, scale },
        format,
    }
}

/// The same quantity as an `inf.Dec` (`AsDec()`), or an `inf.Dec` of `value × 10^scale`.
fn dec_q(value: i64, scale: i32, format: quantity::Format) -> quantity::Quantity {
    quantity::Quantity {
        amount: quantity::Amount::Dec(quantity::Dec {
            unscaled: value.into(),
            scale: -scale,
        }),
        format,
    }
}

/// apimachinery `quantity_test.go` `TestQuantityCmpInt64AndDec` (each pair as amounts and
/// as `inf.Dec`s, both ways round) and `TestQuantityCmp`.
#[test]
fn quantity_cmp_table() {
    use quantity::Format::DecimalSI as D;
    use std::cmp::Ordering::{self, Equal, Greater, Less};
    const P: i64 = i64::MAX;
    const N: i64 = i64::MIN;
    const T: i64 = 1_000_000_000_000_000_000;
    // (value, scale) pairs and the expected order
    type Amount = (i64, i32);
    let table: &[(Amount, Amount, Ordering)] = &[
        ((901, -2), (901, -2), Equal),
        ((90, -1), (901, -2), Less),
        ((901, -2), (900, -2), Greater),
        ((0, 0), (0, 0), Equal),
        ((0, 1), (0, -1), Equal),
        ((0, -1), (0, 1), Equal),
        ((800, -3), (1, 0), Less),
        ((800, -3), (79, -2), Greater),
        ((P, 0), (1, -1), Greater),
        ((P, 1), (1, 0), Greater),
        ((P, 1), (1, 1), Greater),
        ((P, 1), (0, 1), Greater),
        ((P, -16), (1, 3), Less),
        ((N, 0), (0, 0), Less),
        ((N, -18), (-1, 0), Less),
        ((N, -19), (-1, 0), Greater),
        ((T, -17), (1, 1), Equal),
        ((T, -17), (-10, 0), Greater),
        ((-T, -17), (-10, 0), Equal),
        ((T, -17), (1, 0), Greater),
        ((T + 1, -17), (1, 1), Greater),
        ((T - 1, -17), (1, 1), Less),
    ];
    for &((av, asc), (bv, bsc), want) in table {
        for (a_dec, b_dec) in [(false, false), (true, false), (false, true), (true, true)] {
            let a = if a_dec {
                dec_q(av, asc, D)
            } else {
                int_q(av, asc, D)
            };
            let b = if b_dec {
                dec_q(bv, bsc, D)
            } else {
                int_q(bv, bsc, D)
            };
            assert_eq!(
                a.compare(&b),
                Ok(want),
                "{av}e{asc} vs {bv}e{bsc} ({a_dec}, {b_dec})"
            );
            assert_eq!(
                b.compare(&a),
                Ok(want.reverse()),
                "{bv}e{bsc} vs {av}e{asc}"
            );
        }
    }
    for (x, y, want) in [
        ("0", "0", Equal),
        ("100m", "50m", Greater),
        ("50m", "100m", Less),
        ("10000T", "100Gi", Greater),
    ] {
        let (x, y) = (quantity::parse(x).unwrap(), quantity::parse(y).unwrap());
        assert_eq!(x.compare(&y), Ok(want));
    }
}

/// apimachinery `amount_test.go` `TestInt64AmountAsInt64`, `TestInt64AmountAdd` (through
/// `Quantity.add`, which falls back to `inf.Dec` where the amounts overflow), and
/// `quantity_test.go` `TestAdd`, `TestSub`, `TestQuantityAsApproximateFloat64`,
/// `TestStringQuantityAsApproximateFloat64`.
#[test]
fn quantity_amount_tables() {
    use quantity::Format::{BinarySI as B, DecimalExponent as X, DecimalSI as D};
    const P: i64 = i64::MAX;
    for (value, scale, want) in [
        (100, 0, Some(100)),
        (100, 1, Some(1000)),
        (100, -5, None),
        (100, 100, None),
    ] {
        assert_eq!(int_q(value, scale, D).as_int64(), want, "{value}e{scale}");
    }
    for ((av, asc), (bv, bsc), (cv, csc), fits) in [
        ((100, 1), (10, 2), (200, 1), true),
        ((100, 1), (1, 2), (110, 1), true),
        ((100, 1), (1, 100), (1, 100), false),
        ((-5, 2), (50, 1), (0, 1), true),
        ((-5, 2), (5, 2), (0, 2), true),
        ((P, -1), (1, -1), (0, -1), false),
        ((P, -1), (0, -1), (P, -1), true),
        ((P / 10, 1), (10, 0), (P, -1), false),
    ] {
        for (x, y) in [((av, asc), (bv, bsc)), ((bv, bsc), (av, asc))] {
            let sum = int_q(x.0, x.1, D).add(&int_q(y.0, y.1, D)).unwrap();
            match (fits, &sum.amount) {
                (true, quantity::Amount::Int { value, scale }) => {
                    assert_eq!((*value, *scale), (cv, csc), "{x:?} + {y:?}")
                }
                (false, quantity::Amount::Dec(_)) => {
                    let exact = dec_q(x.0, x.1, D).add(&dec_q(y.0, y.1, D)).unwrap();
                    assert_eq!(sum.compare(&exact), Ok(std::cmp::Ordering::Equal));
                }
                _ => panic!("{x:?} + {y:?}: {sum:?}"),
            }
        }
    }
    let zero = int_q(0, 0, D);
    for (a, b, want) in [
        (dec_q(10, 0, D), dec_q(1, 1, D), (20, D)),
        (dec_q(10, 0, D), dec_q(1, 0, B), (11, D)),
        (dec_q(10, 0, B), dec_q(1, 0, D), (11, B)),
        (zero.clone(), dec_q(50, 0, D), (50, D)),
        (dec_q(50, 0, D), zero.clone(), (50, D)),
        (zero.clone(), zero.clone(), (0, D)),
    ] {
        let got = a.add(&b).unwrap();
        assert_eq!(
            got.compare(&int_q(want.0, 0, D)),
            Ok(std::cmp::Ordering::Equal)
        );
        assert_eq!(got.format, want.1);
    }
    for (a, b, want) in [
        (dec_q(10, 0, D), dec_q(1, 1, D), 0),
        (dec_q(10, 0, D), dec_q(1, 0, B), 9),
        (dec_q(10, 0, B), dec_q(1, 0, D), 9),
        (zero.clone(), dec_q(50, 0, D), -50),
        (dec_q(50, 0, D), zero.clone(), 50),
        (zero.clone(), zero.clone(), 0),
    ] {
        let got = a.sub(&b).unwrap();
        assert_eq!(
            got.compare(&int_q(want, 0, D)),
            Ok(std::cmp::Ordering::Equal)
        );
    }
    let seven_mi = 7 * 1024 * 1024;
    for f in [D, B, X] {
        for (value, scale, want) in [
            (0, 0, 0.0),
            (1, 0, 1.0),
            (1024, 0, 1024.0),
            (8 * 1024, 0, 8192.0),
            (seven_mi, 0, seven_mi as f64),
            (seven_mi, 1, seven_mi as f64 * 10.0),
            (seven_mi, 4, seven_mi as f64 * 10000.0),
            (seven_mi, 8, seven_mi as f64 * 100000000.0),
            (seven_mi, -1, seven_mi as f64 * 0.1),
            (seven_mi, -8, seven_mi as f64 / 100000000.0),
            (12, 18, 1.2e19),
            (12, 500, f64::INFINITY),
            (-12, 500, f64::NEG_INFINITY),
        ] {
            assert_eq!(
                dec_q(value, scale, f).as_approximate_float64(),
                want,
                "{value}e{scale}"
            );
        }
    }
    assert_eq!(dec_q(P, 0, D).as_approximate_float64(), P as f64);
    for (s, want) in [
        ("2Ki", 2048.0),
        ("1.1Ki", 1126.4),
        ("1Mi", 1.048576e6),
        ("2Gi", 2.147483648e9),
    ] {
        assert_eq!(
            quantity::parse(s).unwrap().as_approximate_float64(),
            want,
            "{s}"
        );
    }
}
