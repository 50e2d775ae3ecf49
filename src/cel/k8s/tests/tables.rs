//! The upstream tables, run end to end. Each table names its source; expected values are
//! written as CEL expressions (`cidr('192.168.0.0/24')` for the Go test's
//! `apiservercel.CIDR{…}`), expected errors as cel-go's message or, where the Go test
//! matches a pattern, that pattern. Cases the Go tests check at compile time (no matching
//! overload) are the checker's business and are left out.

use super::real::eval;

enum Want {
    /// The result equals this expression's value.
    Val(&'static str),
    /// Evaluation fails with exactly this message.
    Err(&'static str),
    /// Evaluation fails with a message this pattern finds (the Go test's regexp).
    ErrLike(&'static str),
}

use Want::{Err, ErrLike, Val};

/// Runs a table; panics listing every failing case.
fn run(source: &str, cases: &[(&str, Want)]) -> usize {
    let mut failures = Vec::new();
    for (expr, want) in cases {
        let got = eval(expr);
        let ok = match (want, &got) {
            (Val(w), Ok(v)) => match eval(w) {
                Ok(wv) => wv.equals(v),
                Result::Err(e) => {
                    failures.push(format!("{expr}: expectation {w} fails: {e}"));
                    continue;
                }
            },
            (Err(w), Result::Err(e)) => e.message == *w,
            (ErrLike(p), Result::Err(e)) => {
                regex::Regex::new(p).is_ok_and(|re| re.is_match(&e.message))
            }
            _ => false,
        };
        if !ok {
            let want = match want {
                Val(w) => format!("value {w}"),
                Err(w) | ErrLike(w) => format!("error {w}"),
            };
            failures.push(format!("{expr}\n    want {want}\n    got  {got:?}"));
        }
    }
    assert!(
        failures.is_empty(),
        "{source}: {} of {} failed:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
    cases.len()
}

/// apiserver `pkg/cel/library/cidr_test.go` `TestCIDR`.
#[test]
fn cidr_table() {
    run(
        "cidr_test.go TestCIDR",
        &[
            (
                r#"cidr("192.168.0.0/24")"#,
                Val(r#"cidr("192.168.0.0/24")"#),
            ),
            (
                r#"cidr("192.168.0.0/")"#,
                Err(
                    r#"network address parse error during conversion from string: network address parse error during conversion from string: netip.ParsePrefix("192.168.0.0/"): bad bits after slash: """#,
                ),
            ),
            (
                r#"cidr("192.168.0.0/24").containsIP(ip("192.168.0.1"))"#,
                Val("true"),
            ),
            (
                r#"cidr("192.168.0.0/24").containsIP(ip("192.168.1.1"))"#,
                Val("false"),
            ),
            (
                r#"cidr("192.168.0.0/24").containsIP("192.168.0.1")"#,
                Val("true"),
            ),
            (
                r#"cidr("192.168.0.0/24").containsIP("192.168.1.1")"#,
                Val("false"),
            ),
            (
                r#"cidr("192.168.0.0/24").containsCIDR(cidr("192.168.0.0/25"))"#,
                Val("true"),
            ),
            (
                r#"cidr("192.168.0.0/24").containsCIDR(cidr("192.168.0.1/32"))"#,
                Val("true"),
            ),
            (
                r#"cidr("192.168.0.0/24").containsCIDR(cidr("192.168.0.0/23"))"#,
                Val("false"),
            ),
            (
                r#"cidr("192.168.0.0/24").containsCIDR(cidr("192.169.0.1/32"))"#,
                Val("false"),
            ),
            (
                r#"cidr("192.168.0.0/24").containsCIDR("192.168.0.0/25")"#,
                Val("true"),
            ),
            (
                r#"cidr("192.168.0.0/24").containsCIDR("192.168.0.0/23")"#,
                Val("false"),
            ),
            (
                r#"cidr("192.168.0.0/24").ip()"#,
                Val(r#"ip("192.168.0.0")"#),
            ),
            (
                r#"cidr("192.168.0.0/24").masked()"#,
                Val(r#"cidr("192.168.0.0/24")"#),
            ),
            (
                r#"cidr("192.168.0.1/24").masked()"#,
                Val(r#"cidr("192.168.0.0/24")"#),
            ),
            (r#"cidr("192.168.0.0/24").prefixLength()"#, Val("24")),
            (r#"cidr("2001:db8::/32")"#, Val(r#"cidr("2001:db8::/32")"#)),
            (
                r#"cidr("2001:db8::/")"#,
                Err(
                    r#"network address parse error during conversion from string: network address parse error during conversion from string: netip.ParsePrefix("2001:db8::/"): bad bits after slash: """#,
                ),
            ),
            (
                r#"cidr("2001:db8::/32").containsIP(ip("2001:db8::1"))"#,
                Val("true"),
            ),
            (
                r#"cidr("2001:db8::/32").containsIP(ip("2001:dc8::1"))"#,
                Val("false"),
            ),
            (
                r#"cidr("2001:db8::/32").containsIP("2001:db8::1")"#,
                Val("true"),
            ),
            (
                r#"cidr("2001:db8::/32").containsIP("2001:dc8::1")"#,
                Val("false"),
            ),
            (
                r#"cidr("2001:db8::/32").containsCIDR(cidr("2001:db8::/33"))"#,
                Val("true"),
            ),
            (
                r#"cidr("2001:db8::/32").containsCIDR(cidr("2001:db8::/31"))"#,
                Val("false"),
            ),
            (
                r#"cidr("2001:db8::/32").containsCIDR("2001:db8::/33")"#,
                Val("true"),
            ),
            (
                r#"cidr("2001:db8::/32").containsCIDR("2001:db8::/31")"#,
                Val("false"),
            ),
            (r#"cidr("2001:db8::/32").ip()"#, Val(r#"ip("2001:db8::")"#)),
            (
                r#"cidr("2001:db8::/32").masked()"#,
                Val(r#"cidr("2001:db8::/32")"#),
            ),
            (
                r#"cidr("2001:db8:1::/32").masked()"#,
                Val(r#"cidr("2001:db8::/32")"#),
            ),
            (r#"cidr("2001:db8::/32").prefixLength()"#, Val("32")),
            (
                r#"string(cidr("192.168.0.0/24"))"#,
                Val(r#""192.168.0.0/24""#),
            ),
            (r#"type(cidr("192.168.0.0/24")) == net.CIDR"#, Val("true")),
        ],
    );
}

/// apiserver `pkg/cel/library/ip_test.go` `TestIP`.
#[test]
fn ip_table() {
    run(
        "ip_test.go TestIP",
        &[
            (r#"ip("192.168.0.1")"#, Val(r#"ip("192.168.0.1")"#)),
            (
                r#"ip("192.168.0.1.0")"#,
                Err(
                    r#"IP Address "192.168.0.1.0" parse error during conversion from string: ParseAddr("192.168.0.1.0"): IPv4 address too long"#,
                ),
            ),
            (r#"isIP("192.168.0.1")"#, Val("true")),
            (r#"isIP("192.168.0.1.0")"#, Val("false")),
            (r#"ip.isCanonical("127.0.0.1")"#, Val("true")),
            (
                r#"ip.isCanonical("127.0.0.1.0")"#,
                Err(
                    r#"IP Address "127.0.0.1.0" parse error during conversion from string: ParseAddr("127.0.0.1.0"): IPv4 address too long"#,
                ),
            ),
            (r#"ip("192.168.0.1").family()"#, Val("4")),
            (r#"ip("0.0.0.0").isUnspecified()"#, Val("true")),
            (r#"ip("127.0.0.1").isUnspecified()"#, Val("false")),
            (r#"ip("127.0.0.1").isLoopback()"#, Val("true")),
            (r#"ip("1.2.3.4").isLoopback()"#, Val("false")),
            (r#"ip("224.0.0.1").isLinkLocalMulticast()"#, Val("true")),
            (r#"ip("224.0.1.1").isLinkLocalMulticast()"#, Val("false")),
            (r#"ip("169.254.169.254").isLinkLocalUnicast()"#, Val("true")),
            (r#"ip("192.168.0.1").isLinkLocalUnicast()"#, Val("false")),
            (r#"ip("192.168.0.1").isGlobalUnicast()"#, Val("true")),
            (r#"ip("255.255.255.255").isGlobalUnicast()"#, Val("false")),
            (r#"ip("2001:db8::68")"#, Val(r#"ip("2001:db8::68")"#)),
            (
                r#"ip("2001:db8:::68")"#,
                Err(
                    r#"IP Address "2001:db8:::68" parse error during conversion from string: ParseAddr("2001:db8:::68"): each colon-separated field must have at least one digit (at ":68")"#,
                ),
            ),
            (r#"isIP("2001:db8::68")"#, Val("true")),
            (r#"isIP("2001:db8:::68")"#, Val("false")),
            (r#"ip.isCanonical("2001:db8::68")"#, Val("true")),
            (r#"ip.isCanonical("2001:DB8::68")"#, Val("false")),
            (
                r#"ip.isCanonical("2001:db8:::68")"#,
                Err(
                    r#"IP Address "2001:db8:::68" parse error during conversion from string: ParseAddr("2001:db8:::68"): each colon-separated field must have at least one digit (at ":68")"#,
                ),
            ),
            (r#"ip("2001:db8::68").family()"#, Val("6")),
            (r#"ip("::").isUnspecified()"#, Val("true")),
            (r#"ip("::1").isUnspecified()"#, Val("false")),
            (r#"ip("::1").isLoopback()"#, Val("true")),
            (r#"ip("2001:db8::abcd").isLoopback()"#, Val("false")),
            (r#"ip("ff02::1").isLinkLocalMulticast()"#, Val("true")),
            (r#"ip("fd00::1").isLinkLocalMulticast()"#, Val("false")),
            (r#"ip("fe80::1").isLinkLocalUnicast()"#, Val("true")),
            (r#"ip("fd80::1").isLinkLocalUnicast()"#, Val("false")),
            (r#"ip("2001:db8::abcd").isGlobalUnicast()"#, Val("true")),
            (r#"ip("ff00::1").isGlobalUnicast()"#, Val("false")),
            (r#"string(ip("192.168.0.1"))"#, Val(r#""192.168.0.1""#)),
            (r#"type(ip("192.168.0.1")) == net.IP"#, Val("true")),
        ],
    );
}

/// apiserver `pkg/cel/library/quantity_test.go` `TestQuantity`.
#[test]
fn quantity_table() {
    run(
        "quantity_test.go TestQuantity",
        &[
            (r#"quantity("12Mi")"#, Val(r#"quantity("12582912")"#)),
            (
                r#"quantity("10Mo")"#,
                ErrLike("quantities must match the regular expression.*"),
            ),
            (
                r#"quantity("10Mm")"#,
                ErrLike("unable to parse quantity's suffix"),
            ),
            (r#"isQuantity("20")"#, Val("true")),
            (r#"isQuantity("20M")"#, Val("true")),
            (r#"isQuantity("20Mi")"#, Val("true")),
            (r#"isQuantity("20Mo")"#, Val("false")),
            (r#"isQuantity("10Mm")"#, Val("false")),
            (r#"quantity("200M") == quantity("200M")"#, Val("true")),
            (
                r#"quantity("200M") == quantity("0.2G") && quantity("0.2G") == quantity("200M")"#,
                Val("true"),
            ),
            (
                r#"quantity("2M") == quantity("0.002G") && quantity("2000k") == quantity("2M") && quantity("0.002G") == quantity("2000k")"#,
                Val("true"),
            ),
            (r#"quantity("200M") == quantity("0.3G")"#, Val("false")),
            (
                r#"quantity("50M").isLessThan(quantity("50Mi"))"#,
                Val("true"),
            ),
            (
                r#"quantity("50M").isLessThan(quantity("100M"))"#,
                Val("true"),
            ),
            (
                r#"quantity("100M").isLessThan(quantity("50M"))"#,
                Val("false"),
            ),
            (
                r#"quantity("50Mi").isGreaterThan(quantity("50M"))"#,
                Val("true"),
            ),
            (
                r#"quantity("150Mi").isGreaterThan(quantity("100Mi"))"#,
                Val("true"),
            ),
            (
                r#"quantity("50M").isGreaterThan(quantity("100M"))"#,
                Val("false"),
            ),
            (r#"quantity("200M").compareTo(quantity("0.2G"))"#, Val("0")),
            (r#"quantity("50M").compareTo(quantity("50Mi"))"#, Val("-1")),
            (r#"quantity("50Mi").compareTo(quantity("50M"))"#, Val("1")),
            (
                r#"quantity("50k").add(quantity("20")) == quantity("50.02k")"#,
                Val("true"),
            ),
            (
                r#"quantity("50k").add(20).isLessThan(quantity("50020"))"#,
                Val("false"),
            ),
            (
                r#"quantity("50k").sub(quantity("20")) == quantity("49.98k")"#,
                Val("true"),
            ),
            (
                r#"quantity("50k").sub(20) == quantity("49980")"#,
                Val("true"),
            ),
            (
                r#"quantity("50k").add(20).sub(quantity("100k")).asInteger()"#,
                Val("-49980"),
            ),
            (
                r#"quantity("50k").add(20).sub(quantity("100k")).sub(-50000).asInteger()"#,
                Val("20"),
            ),
            (r#"quantity("50k").asInteger()"#, Val("50000")),
            (
                r#"quantity("9999999999999999999999999999999999999G").asInteger()"#,
                ErrLike("cannot convert value to integer"),
            ),
            (
                r#"quantity("9999999999999999999999999999999999999G").isInteger()"#,
                Val("false"),
            ),
            (r#"quantity("50").isInteger()"#, Val("true")),
            (
                r#"quantity("50.703k").asApproximateFloat()"#,
                Val("50703.0"),
            ),
        ],
    );
}

/// apiserver `pkg/cel/library/semver_test.go` `TestSemver` (all at library version 1).
#[test]
fn semver_table() {
    run(
        "semver_test.go TestSemver",
        &[
            (r#"semver("1.2.3")"#, Val(r#"semver("1.2.3")"#)),
            (
                r#"semver("v1.0")"#,
                ErrLike("No Major.Minor.Patch elements found"),
            ),
            (r#"isSemver("1.2.3-beta.1+build.1")"#, Val("true")),
            (r#"isSemver("")"#, Val("false")),
            (r#"isSemver("v1.0.0")"#, Val("false")),
            (r#"isSemver(" 1.0.0")"#, Val("false")),
            (r#"isSemver("1. 0.0")"#, Val("false")),
            (r#"isSemver("1.0.0 ")"#, Val("false")),
            (r#"isSemver("01.01.01")"#, Val("false")),
            (r#"isSemver("1")"#, Val("false")),
            (r#"isSemver("1.1")"#, Val("false")),
            (r#"isSemver("", true)"#, Val("false")),
            (r#"isSemver(" 1.0.0", true)"#, Val("false")),
            (r#"isSemver("1. 0.0", true)"#, Val("false")),
            (r#"isSemver("1.0.0 ", true)"#, Val("false")),
            (r#"isSemver("v1.0.0", true)"#, Val("true")),
            (r#"isSemver("01.01.01", true)"#, Val("true")),
            (r#"isSemver("1", true)"#, Val("true")),
            (r#"isSemver("1.1", true)"#, Val("true")),
            (r#"semver("v01.01", true) == semver("1.1.0")"#, Val("true")),
            (r#"semver("1.2.3") == semver("1.2.3")"#, Val("true")),
            (r#"semver("1.2.3") == semver("1.0.0")"#, Val("false")),
            (
                r#"semver("1.0.0").isLessThan(semver("1.2.3"))"#,
                Val("true"),
            ),
            (
                r#"semver("1.0.0").isLessThan(semver("1.0.0"))"#,
                Val("false"),
            ),
            (
                r#"semver("1.2.3").isGreaterThan(semver("1.0.0"))"#,
                Val("true"),
            ),
            (
                r#"semver("1.0.0").isGreaterThan(semver("1.0.0"))"#,
                Val("false"),
            ),
            (r#"semver("1.2.3").compareTo(semver("1.2.3"))"#, Val("0")),
            (r#"semver("1.0.0").compareTo(semver("1.2.3"))"#, Val("-1")),
            (r#"semver("1.2.3").compareTo(semver("1.0.0"))"#, Val("1")),
            (r#"semver("1.2.3").major()"#, Val("1")),
            (r#"semver("1.2.3").minor()"#, Val("2")),
            (r#"semver("1.2.3").patch()"#, Val("3")),
        ],
    );
}

const DNS1123_LABEL_ERR: &str = r#"optional.of(["a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"])"#;
const DNS1123_SUBDOMAIN_ERR: &str = r#"optional.of(["a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"])"#;
const DNS1035_LABEL_ERR: &str = r#"optional.of(["a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')"])"#;

/// apiserver `pkg/cel/library/format_test.go` `TestFormat`.
#[test]
fn format_table() {
    let mut cases: Vec<(&str, Want)> = vec![
        (
            r#"format.dns1123Label().validate("my-label-name")"#,
            Val("optional.none()"),
        ),
        (
            r#"format.dns1123Subdomain().validate("apiextensions.k8s.io")"#,
            Val("optional.none()"),
        ),
        (
            r#"format.qualifiedName().validate("apiextensions.k8s.io/v1beta1")"#,
            Val("optional.none()"),
        ),
        (
            r#"format.dns1123LabelPrefix().validate("my-label-prefix-")"#,
            Val("optional.none()"),
        ),
        (
            r#"format.dns1123SubdomainPrefix().validate("mysubdomain.prefix.-")"#,
            Val("optional.none()"),
        ),
        (
            r#"format.dns1035LabelPrefix().validate("my-label-prefix-")"#,
            Val("optional.none()"),
        ),
        (
            r#"format.uri().validate("http://example.com")"#,
            Val("optional.none()"),
        ),
        (
            r#"format.uuid().validate("123e4567-e89b-12d3-a456-426614174000")"#,
            Val("optional.none()"),
        ),
        (
            r#"format.byte().validate("aGVsbG8=")"#,
            Val("optional.none()"),
        ),
        (
            r#"format.date().validate("2021-01-01")"#,
            Val("optional.none()"),
        ),
        (
            r#"format.datetime().validate("2021-01-01T00:00:00Z")"#,
            Val("optional.none()"),
        ),
        (
            r#"format.dns1123Label().validate("contains a space")"#,
            Val(DNS1123_LABEL_ERR),
        ),
        (
            r#"format.dns1123Subdomain().validate("contains a space")"#,
            Val(DNS1123_SUBDOMAIN_ERR),
        ),
        (
            r#"format.dns1035Label().validate("contains a space")"#,
            Val(DNS1035_LABEL_ERR),
        ),
        (
            r#"format.qualifiedName().validate("contains a space")"#,
            Val(
                r#"optional.of(["name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"])"#,
            ),
        ),
        (
            r#"format.dns1123LabelPrefix().validate("contains a space-")"#,
            Val(DNS1123_LABEL_ERR),
        ),
        (
            r#"format.dns1123SubdomainPrefix().validate("contains a space-")"#,
            Val(DNS1123_SUBDOMAIN_ERR),
        ),
        (
            r#"format.dns1035LabelPrefix().validate("contains a space-")"#,
            Val(DNS1035_LABEL_ERR),
        ),
        (
            r#"format.dns1123Label().validate("my-label-name")"#,
            Val("optional.none()"),
        ),
        (
            r#"format.dns1123Subdomain().validate("example.com")"#,
            Val("optional.none()"),
        ),
        (
            r#"format.dns1035Label().validate("my-label-name")"#,
            Val("optional.none()"),
        ),
        (
            r#"format.qualifiedName().validate("my.name")"#,
            Val("optional.none()"),
        ),
        (
            r#"format.byte().validate("aGVsbG8=")"#,
            Val("optional.none()"),
        ),
        (
            r#"format.byte().validate("aGVsbG8")"#,
            Val(r#"optional.of(["invalid base64"])"#),
        ),
        (
            r#"format.date().validate("2020-01-01")"#,
            Val("optional.none()"),
        ),
        (
            r#"format.date().validate("2020-01-32")"#,
            Val(r#"optional.of(["invalid date"])"#),
        ),
        (
            r#"format.datetime().validate("2020-01-01T00:00:00Z")"#,
            Val("optional.none()"),
        ),
        (
            r#"format.datetime().validate("2020-01-32T00:00:00Z")"#,
            Val(r#"optional.of(["invalid datetime"])"#),
        ),
        (r#"format.named("unknown").hasValue()"#, Val("false")),
        (
            r#"format.labelValue().validate("my-cool-label-Value")"#,
            Val("optional.none()"),
        ),
        (
            r#"format.labelValue().validate("my-cool-label-Value!!\n\n!!!")"#,
            Val(
                r#"optional.of(["a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"])"#,
            ),
        ),
    ];
    // every name: found by format.named, equal to its constant, unequal to the others
    let names: Vec<&str> = super::super::format::FORMATS
        .iter()
        .map(|(n, _)| *n)
        .collect();
    let mut generated: Vec<(String, &'static str)> = Vec::new();
    for lhs in &names {
        generated.push((format!(r#"format.named("{lhs}").hasValue()"#), "true"));
        generated.push((
            format!(r#"format.named("{lhs}").value() == format.{lhs}()"#),
            "true",
        ));
        for rhs in &names {
            if lhs != rhs {
                generated.push((format!("format.{lhs}() == format.{rhs}()"), "false"));
            }
        }
    }
    let generated: Vec<(&'static str, &'static str)> = generated
        .into_iter()
        .map(|(e, w)| (&*Box::leak(e.into_boxed_str()), w))
        .collect();
    cases.extend(generated.into_iter().map(|(e, w)| (e, Val(w))));
    run("format_test.go TestFormat", &cases);
}

/// apiextensions-apiserver `pkg/apiserver/schema/cel/validation_test.go`
/// `TestValidationExpressions`, the library cases ("lists", "stdlib regex functions", "URL
/// parsing", "quantity", "ip", "cidr", "format"), with `self.…` replaced by the test's
/// object values written as literals. Each expression must evaluate to true.
#[test]
fn validation_expressions_table() {
    let valid = [
        // lists
        "[1, 2, 2, 3].sum() == 8",
        "[1, 2, 2, 3].min() == 1",
        "[1, 2, 2, 3].max() == 3",
        "[1, 2, 2, 3].isSorted()",
        "[].isSorted()",
        "[2, 1].isSorted() == false",
        "[1, 2, 2, 3].indexOf(2) == 1",
        "[1, 2, 2, 3].lastIndexOf(2) == 2",
        "[1, 2, 2, 3].indexOf(10) == -1",
        "[1, 2, 2, 3].lastIndexOf(10) == -1",
        "[1.0, 2.0, 2.0, 3.0].sum() == 8.0",
        "[1.0, 2.0, 2.0, 3.0].min() == 1.0",
        "[1.0, 2.0, 2.0, 3.0].max() == 3.0",
        "[1.0, 2.0, 2.0, 3.0].isSorted()",
        "[2.0, 1.0].isSorted() == false",
        "[1.0, 2.0, 2.0, 3.0].indexOf(2.0) == 1",
        "[1.0, 2.0, 2.0, 3.0].lastIndexOf(2.0) == 2",
        "[1.0, 2.0, 2.0, 3.0].indexOf(10.0) == -1",
        "[duration('1s'), duration('1m'), duration('1m'), duration('1h')].sum() == duration('1h2m1s')",
        "[duration('1s'), duration('1m'), duration('1m'), duration('1h')].min() == duration('1s')",
        "[duration('1s'), duration('1m'), duration('1m'), duration('1h')].max() == duration('1h')",
        "[duration('1s'), duration('1m'), duration('1m'), duration('1h')].isSorted()",
        "[duration('1m'), duration('1s')].isSorted() == false",
        "[duration('1s'), duration('1m'), duration('1m'), duration('1h')].indexOf(duration('1m')) == 1",
        "[duration('1s'), duration('1m'), duration('1m'), duration('1h')].lastIndexOf(duration('1m')) == 2",
        "[duration('1s'), duration('1m'), duration('1m'), duration('1h')].indexOf(duration('2m')) == -1",
        "['a', 'b', 'b', 'c'].min() == 'a'",
        "['a', 'b', 'b', 'c'].max() == 'c'",
        "['a', 'b', 'b', 'c'].isSorted()",
        "['b', 'a'].isSorted() == false",
        "['a', 'b', 'b', 'c'].indexOf('b') == 1",
        "['a', 'b', 'b', 'c'].lastIndexOf('b') == 2",
        "['a', 'b', 'b', 'c'].indexOf('x') == -1",
        "[timestamp('2000-01-01T00:00:00Z'), timestamp('2000-02-01T00:00:00Z'), timestamp('2000-02-01T00:00:00Z'), timestamp('2010-01-01T00:00:00Z')].min() == timestamp('2000-01-01T00:00:00.000Z')",
        "[timestamp('2000-01-01T00:00:00Z'), timestamp('2000-02-01T00:00:00Z'), timestamp('2000-02-01T00:00:00Z'), timestamp('2010-01-01T00:00:00Z')].max() == timestamp('2010-01-01T00:00:00.000Z')",
        "[timestamp('2000-01-01T00:00:00Z'), timestamp('2000-02-01T00:00:00Z'), timestamp('2000-02-01T00:00:00Z'), timestamp('2010-01-01T00:00:00Z')].isSorted()",
        "[timestamp('2000-02-01T00:00:00Z'), timestamp('2000-01-01T00:00:00Z')].isSorted() == false",
        "[timestamp('2000-01-01T00:00:00Z'), timestamp('2000-02-01T00:00:00Z'), timestamp('2000-02-01T00:00:00Z'), timestamp('2010-01-01T00:00:00Z')].lastIndexOf(timestamp('2000-02-01T00:00:00.000Z')) == 2",
        "[[1], [2]].indexOf([1]) == 0",
        "[{'a': 1}, {'b': 2}].lastIndexOf({'b': 2}) == 1",
        "([0] + []).min() == 0",
        "dyn([]).sum() == 0",
        "dyn([1, 2]).sum() == 3",
        "dyn([1.0, 2.0]).sum() == 3.0",
        "[].sum() == 0",
        // stdlib regex functions
        "'this is a 123 string 456'.find('[0-9]+') == '123'",
        "'this is a 123 string 456'.find('[0-9]+') != '456'",
        "'this is a 123 string 456'.find('xyz') == ''",
        "'this is a 123 string 456'.findAll('[0-9]+') == ['123', '456']",
        "'this is a 123 string 456'.findAll('[0-9]+', 0) == []",
        "'this is a 123 string 456'.findAll('[0-9]+', 1) == ['123']",
        "'this is a 123 string 456'.findAll('[0-9]+', 2) == ['123', '456']",
        "'this is a 123 string 456'.findAll('[0-9]+', 3) == ['123', '456']",
        "'this is a 123 string 456'.findAll('[0-9]+', -1) == ['123', '456']",
        "'this is a 123 string 456'.findAll('xyz') == []",
        "'this is a 123 string 456'.findAll('xyz', 1) == []",
        // URL parsing
        "url('/path').getScheme() == ''",
        "url('https://example.com/').getScheme() == 'https'",
        "url('https://example.com:80/').getHost() == 'example.com:80'",
        "url('https://example.com/').getHost() == 'example.com'",
        "url('https://[::1]:80/').getHost() == '[::1]:80'",
        "url('https://[::1]/').getHost() == '[::1]'",
        "url('/path').getHost() == ''",
        "url('https://example.com:80/').getHostname() == 'example.com'",
        "url('https://127.0.0.1/').getHostname() == '127.0.0.1'",
        "url('https://[::1]/').getHostname() == '::1'",
        "url('/path').getHostname() == ''",
        "url('https://example.com:80/').getPort() == '80'",
        "url('https://example.com/').getPort() == ''",
        "url('/path').getPort() == ''",
        "url('https://example.com/path').getEscapedPath() == '/path'",
        "url('https://example.com/with space/').getEscapedPath() == '/with%20space/'",
        "url('https://example.com').getEscapedPath() == ''",
        "url('https://example.com/path?k1=a&k2=b&k2=c').getQuery() == { 'k1': ['a'], 'k2': ['b', 'c']}",
        "url('https://example.com/path?key with spaces=value with spaces').getQuery() == { 'key with spaces': ['value with spaces']}",
        "url('https://example.com/path?').getQuery() == {}",
        "url('https://example.com/path').getQuery() == {}",
        "url('https://user:pass@kubernetes.io:80/docs/home?k1=a&k2=b&k2=c#anchor').getScheme() == 'https'",
        "url('https://user:pass@kubernetes.io:80/docs/home?k1=a&k2=b&k2=c#anchor').getHost() == 'kubernetes.io:80'",
        "url('https://user:pass@kubernetes.io:80/docs/home?k1=a&k2=b&k2=c#anchor').getHostname() == 'kubernetes.io'",
        "url('https://user:pass@kubernetes.io:80/docs/home?k1=a&k2=b&k2=c#anchor').getPort() == '80'",
        "url('https://user:pass@kubernetes.io:80/docs/home?k1=a&k2=b&k2=c#anchor').getEscapedPath() == '/docs/home'",
        "url('https://user:pass@kubernetes.io:80/docs/home?k1=a&k2=b&k2=c#anchor').getQuery() == {'k1': ['a'], 'k2': ['b', 'c']}",
        "isURL('https://user:pass@example.com:80/path?query=val#fragment')",
        "isURL('/path') == true",
        "isURL('https://a:b:c/') == false",
        "isURL('../relative-path') == false",
        // quantity (val1 = "20", val2 = "200M")
        "isQuantity('20')",
        "isQuantity('200M')",
        "isQuantity(\"20Mi\")",
        "quantity('200M') == quantity(\"0.2G\") && quantity(\"0.2G\") == quantity(\"200M\")",
        "quantity('20').isLessThan(quantity(\"100M\"))",
        "quantity('200M').isGreaterThan(quantity(\"50M\"))",
        "quantity('200M').compareTo(quantity(\"0.2G\")) == 0",
        "quantity(\"50k\").add(quantity('20')) == quantity(\"50.02k\")",
        "quantity(\"50k\").sub(quantity('20')) == quantity(\"49980\")",
        "quantity('20').isInteger()",
        // ip and cidr
        "isIP(\"192.168.0.1\")",
        "ip(\"192.168.0.1\").family() > 0",
        "ip(\"0.0.0.0\").isUnspecified()",
        "ip(\"127.0.0.1\").isLoopback()",
        "ip(\"224.0.0.1\").isLinkLocalMulticast()",
        "ip(\"192.168.0.1\").isGlobalUnicast()",
        "cidr(\"192.168.0.0/24\").containsIP(ip(\"192.168.0.1\"))",
        "cidr(\"192.168.0.0/24\").containsCIDR(\"192.168.0.0/25\")",
        "cidr(\"2001:db8::/32\").containsCIDR(cidr(\"2001:db8::/33\"))",
        "cidr('192.168.0.0/24') == cidr('192.168.0.0/24').masked()",
        "cidr('192.168.0.0/16').prefixLength() == 16",
        "cidr('::1/128').ip().family() == 6",
        // format
        "format.dns1123Label().validate(\"my-label-name\") == optional.none()",
        "format.dns1123Subdomain().validate(\"apiextensions.k8s.io\") == optional.none()",
        "format.qualifiedName().validate(\"apiextensions.k8s.io/v1beta1\") == optional.none()",
        "format.dns1123LabelPrefix().validate(\"my-label-prefix-\") == optional.none()",
        "format.dns1123SubdomainPrefix().validate(\"mysubdomain.prefix.-\") == optional.none()",
        "format.dns1035LabelPrefix().validate(\"my-label-prefix-\") == optional.none()",
        "format.uri().validate(\"http://example.com\") == optional.none()",
        "format.uuid().validate(\"123e4567-e89b-12d3-a456-426614174000\") == optional.none()",
        "format.byte().validate(\"aGVsbG8=\") == optional.none()",
        "format.date().validate(\"2021-01-01\") == optional.none()",
        "format.datetime().validate(\"2021-01-01T00:00:00Z\") == optional.none()",
        "format.named(\"dns1123Label\").value().validate(\"my-name\") == optional.none()",
        "format.dns1123Label().validate(\"contains a space\").value()[0] == \"a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')\"",
        "!format.named(\"unknown\").hasValue()",
        "ip.isCanonical(\"127.0.0.1\")",
        // "cost for extended lib calculated correctly: url"
        "url('https:://kubernetes.io/').getHostname() != 'test'",
        "[1,2,3,4].isSorted()",
    ];
    let mut cases: Vec<(&str, Want)> = valid.iter().map(|e| (*e, Val("true"))).collect();
    cases.extend([
        ("type(ip(\"192.168.0.1\")) == net.IP", Val("true")),
        ("type(cidr(\"2001:db8::/32\").ip()) == net.IP", Val("true")),
        ("[].min() == 1", Err("min called on empty list")),
        ("[].max() == 3", Err("max called on empty list")),
        (
            "[1.0].min() == 1.0 && dyn([]).max() == 3.0",
            Err("max called on empty list"),
        ),
        // the regex errors the API server reports when building the program (see
        // `regex::literal_pattern_error`); evaluated, the call reports them so
        (
            "'x'.find(')') == ''",
            Err("Illegal regex: error parsing regexp: unexpected ): `)`"),
        ),
        (
            "'x'.findAll(')') == []",
            Err("Illegal regex: error parsing regexp: unexpected ): `)`"),
        ),
    ]);
    run("validation_test.go TestValidationExpressions", &cases);
}
