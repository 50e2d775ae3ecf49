//! The format checks against the upstream tables they follow, each row naming its source:
//! kube-openapi `pkg/validation/strfmt` (`default_test.go`, `time_test.go`, `date_test.go`,
//! `duration_test.go`, `bson_test.go`, `kubernetes-extensions_test.go`), its copy of
//! govalidator (`pkg/internal/third_party/govalidator/validator_test.go`), apiextensions-apiserver
//! v0.35 (`pkg/apiserver/validation/validation_test.go`, `formats_test.go`), and Go's own
//! parsers where strfmt defers to them.

use super::*;

/// Asserts every value of `good` passes `format` and every value of `bad` fails, naming the
/// upstream table in the failure.
fn table(source: &str, format: &str, good: &[&str], bad: &[&str]) {
    for value in good {
        assert!(
            valid(format, value),
            "{source}: {value:?} should be a valid {format}"
        );
    }
    for value in bad {
        assert!(
            !valid(format, value),
            "{source}: {value:?} should not be a valid {format}"
        );
    }
}

#[test]
fn supported_formats_follow_the_compatibility_version() {
    // formats_test.go TestGetUnrecognizedFormats; formats.go supportedVersionedFormats (1.34)
    for f in [
        "email",
        "uuid",
        "k8s-short-name",
        "k8sshortname",
        "k8s-long-name",
        "date-time",
    ] {
        assert!(supported(f), "{f}");
    }
    for f in [
        "unknown-format",
        "int32",
        "int64",
        "UUID",
        "float",
        "double",
        "",
    ] {
        assert!(!supported(f), "{f}");
    }
    // an unsupported format checks nothing
    assert!(valid("int64", "not a number"));
}

#[test]
fn uri() {
    table(
        "default_test.go TestFormatURI",
        "uri",
        &["http://somewhereelse.com"],
        &["somewhere.com"],
    );
    table(
        "govalidator validator_test.go TestIsRequestURI",
        "uri",
        &[
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
        ],
        &["", "foobar.com", "invalid.", ".com", "./rel/test/dir"],
    );
    table(
        "Go net/url url_test.go parseRequestURLTests and parseHost",
        "uri",
        &[
            "*",
            "http://[fe80::1]/",
            "http://[fe80::1%25en0]:8080/",
            "http://[::ffff:1.2.3.4]/",
            "urn:isbn:0451450523",
            "http://host/?",
            "//not-an-authority/path",
        ],
        &[
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
        ],
    );
}

#[test]
fn email() {
    table(
        "default_test.go TestFormatEmail",
        "email",
        &[
            "somebodyelse@somewhere.com",
            "blah@gmail.com",
            "test@d.verylongtoplevel",
            "email+tag@gmail.com",
            r#"" "@example.com"#,
            r#""Abc\@def"@example.com"#,
            r#""Fred Bloggs"@example.com"#,
            r#""Joe\\Blow"@example.com"#,
            r#""Abc@def"@example.com"#,
            "customer/department=shipping@example.com",
            "$A12345@example.com",
            "!def!xyz%abc@example.com",
            "_somename@example.com",
            "!#$%&'*+-/=?^_`{}|~@example.com",
            "Miles.O'Brian@example.com",
            "postmaster@☁→❄→☃→☀→☺→☂→☹→✝.ws",
            "root@localhost",
            "john@com",
            "api@piston.ninja",
        ],
        &["somebody@somewhere@com"],
    );
    table(
        "Go net/mail message_test.go TestAddressParsing and TestAddressParsingError",
        "email",
        &[
            "John Doe <jdoe@machine.example>",
            "<jdoe@machine.example>",
            r#""Joe Q. Public" <john.q.public@example.com>"#,
            "jdoe@machine.example (John Doe)",
            "Group: jdoe@machine.example;",
            "=?iso-8859-1?q?J=F6rg_Doe?= <joerg@example.com>",
            "jdoe@[192.168.0.1]",
            "jdoe@[::1]",
            "  jdoe@example.com  ",
        ],
        &[
            "",
            "jdoe",
            "John Doe",
            r#"""@example.com"#,
            "jdoe@",
            "@example.com",
            ".jdoe@example.com",
            "j..doe@example.com",
            "jdoe.@example.com",
            "<jdoe@example.com",
            "a@b.com, c@d.com",
            "Group: a@b.com, c@d.com;",
            "Group: ;",
            "jdoe@[300.1.1.1]",
            "jdoe@[01.2.3.4]",
            r#""unclosed@example.com"#,
            "jdoe@example.com (unclosed",
            "=?x-unknown?q?Doe?= <jdoe@example.com>",
        ],
    );
}

#[test]
fn hostname() {
    let very_long = "a".repeat(256);
    let long_label = format!("x.y.{}", "a".repeat(64));
    table(
        "default_test.go TestFormatHostname",
        "hostname",
        &[
            "somewhere.com",
            "888.com",
            "a.com",
            "a.b.com",
            "a.b.c.com",
            "a.b.c.d.com",
            "a.b.c.d.e.com",
            "1.com",
            "1.2.com",
            "1.2.3.com",
            "1.2.3.4.com",
            "99.domain.com",
            "99.99.domain.com",
            "1wwworg.example.com",
            "1000wwworg.example.com",
            "xn--bcher-kva.example.com",
            "xn-80ak6aa92e.co",
            "xn-80ak6aa92e.com",
            "xn--ls8h.la",
            "☁→❄→☃→☀→☺→☂→☹→✝.ws",
            "www.example.onion",
            "www.example.ôlà",
            "ôlà.ôlà",
            "ôlà.ôlà.ôlà",
            "ex$ample",
            "localhost",
            "example",
            "x",
            "x-y",
            "a.b.c.dot",
            "www.example.org",
            "a.b.c.d.e.f.g.dot",
            "ex=ample.com",
            "<foo>",
            "www.example-hyphenated.org",
            "www.詹姆斯.org",
            "www.élégigôö.org",
            "www.詹姆斯.london",
        ],
        &[
            "somewhere.com!",
            "user@email.domain",
            "1.1.1.1",
            &very_long,
            &long_label,
            "www.example-.org",
            "www.--example.org",
            "-www.example.org",
            "www-.example.org",
            "www.d-.org",
            "www.-d.org",
            "www-",
            "-www",
            "www.ex ample.org",
            "_www.example.org",
            "www.ex;ample.org",
            "www.example_underscored.org",
            "www.詹姆斯.x",
            "a.b.c.d",
            "-xyz",
            "xyz-",
            "x.",
            "a.b.c.dot-",
            "a.b.c.é;ö",
            // the pattern's one-label branch allows a single dash
            "a-b-c",
        ],
    );
}

#[test]
fn ip_addresses_and_cidrs() {
    table(
        "default_test.go TestFormatIPv4",
        "ipv4",
        &["192.168.254.2", "127.0.0.1", "192.168.1.1", "192.168.1.01"],
        &["198.168.254.2.2"],
    );
    table(
        "k8s.io/utils net/parse.go ParseIPSloppy (Go 1.16 parseIP)",
        "ipv4",
        // IPv6 text with a dot parses, as strfmt only asks for a dot
        &["010.001.000.255", "::ffff:1.2.3.4", "0.0.0.0"],
        &[
            "1.2.3",
            "1.2.3.256",
            "1.2.3.4 ",
            "::1",
            "",
            "1..2.3",
            "a.b.c.d",
        ],
    );
    table(
        "default_test.go TestFormatIPv6; govalidator validator_test.go TestIIsIPv6",
        "ipv6",
        &["::2", "::1", "2001:db8:0000:1:1:1:1:1", "::ffff:1.2.3.4"],
        &[
            "127.0.0.1",
            "",
            "0.0.0.0",
            "255.255.255.255",
            "1.2.3.4",
            "300.0.0.0",
            // Go's net.ParseIP (netip): no zone, no leading zeros in an IPv4 tail
            "fe80::1%eth0",
            "::ffff:01.2.3.4",
            "1:2:3:4:5:6:7:8:9",
        ],
    );
    table(
        "default_test.go TestFormatCIDR",
        "cidr",
        &[
            "192.168.254.2/24",
            "192.0.2.1/24",
            "192.0.02.1/24",
            "2001:db8:a0b:12f0::1/32",
        ],
        &["198.168.254.2", "2001:db8:a0b:12f0::1"],
    );
    table(
        "k8s.io/utils net/parse.go ParseCIDRSloppy",
        "cidr",
        &["10.0.0.0/016", "::/0", "::/128", "0.0.0.0/32"],
        &[
            "10.0.0.0/33",
            "::/129",
            "10.0.0.0/",
            "10.0.0.0/-1",
            "10.0.0.0/1a",
            "/8",
        ],
    );
}

#[test]
fn mac() {
    table(
        "default_test.go TestFormatMAC; govalidator validator_test.go TestIsMAC",
        "mac",
        &[
            "06:05:04:03:02:01",
            "01:02:03:04:05:06",
            "3D:F2:C9:A6:B3:4F",
        ],
        &["01:02:03:04:05", "3D-F2-C9-A6-B3:4F", "123", "", "abacaba"],
    );
    table(
        "Go net/mac_test.go parseMACTests",
        "mac",
        &[
            "00-00-5e-00-53-01",
            "02:00:5e:10:00:00:00:01",
            "00:00:00:00:fe:80:00:00:00:00:00:00:02:00:5e:10:00:00:00:01",
            "0000.5e00.5301",
            "0200.5e10.0000.0001",
            "0000.0000.fe80.0000.0000.0000.0200.5e10.0000.0001",
        ],
        &[
            "01.02.03.04.05.06",
            "01:02:03:04:05:06:",
            "x1:02:03:04:05:06",
            "01002:03:04:05:06",
            "01:02003:04:05:06",
            "01:02:03:04:05:06:07",
            "0123.4567.89AB.CDEF.0123",
        ],
    );
}

#[test]
fn uuids() {
    table(
        "default_test.go TestFormatUUID",
        "uuid",
        &[
            "886313e1-3b8a-5372-9b90-0c9aee199e5d",
            "886313E13B8A53729B900C9AEE199E5D",
        ],
        &["not-a-uuid"],
    );
    table(
        "default_test.go TestFormatUUID3",
        "uuid3",
        &["bcd02e22-68f0-3046-a512-327cca9def8f"],
        &["not-a-uuid", "886313e1-3b8a-5372-9b90-0c9aee199e5d"],
    );
    table(
        "default_test.go TestFormatUUID4",
        "uuid4",
        &["a5f9e6b1-7d9c-4c1e-8f2a-3b4c5d6e7f80"],
        &["not-a-uuid", "a5f9e6b1-7d9c-4c1e-cf2a-3b4c5d6e7f80"],
    );
    table(
        "default_test.go TestFormatUUID5",
        "uuid5",
        &["886313e1-3b8a-5372-9b90-0c9aee199e5d"],
        &["not-a-uuid", "bcd02e22-68f0-3046-a512-327cca9def8f"],
    );
}

#[test]
fn isbns() {
    table(
        "default_test.go TestFormatISBN; validator_test.go TestIsISBN (no version)",
        "isbn",
        &[
            "0321751043",
            "3836221195",
            "1-61729-085-8",
            "3 423 21412 0",
            "3 401 01319 X",
            "9784873113685",
            "978-4-87311-368-5",
            "978 3401013190",
            "978-3-8362-2119-1",
        ],
        &["836217463", "", "foo"],
    );
    table(
        "default_test.go TestFormatISBN10; validator_test.go TestIsISBN (ISBN 10)",
        "isbn10",
        &[
            "0321751043",
            "3836221195",
            "1-61729-085-8",
            "3 423 21412 0",
            "3 401 01319 X",
        ],
        &[
            "836217463",
            "",
            "foo",
            "3423214121",
            "978-3836221191",
            "3-423-21412-1",
            "3 423 21412 1",
            // govalidator's pattern has an upper-case X only
            "3 401 01319 x",
        ],
    );
    table(
        "default_test.go TestFormatISBN13; validator_test.go TestIsISBN (ISBN 13)",
        "isbn13",
        &[
            "978-0321751041",
            "9784873113685",
            "978-4-87311-368-5",
            "978 3401013190",
            "978-3-8362-2119-1",
        ],
        &[
            "978-0321751042",
            "",
            "foo",
            "3-8362-2119-5",
            "01234567890ab",
            "978 3 8362 2119 0",
        ],
    );
}

#[test]
fn credit_cards_ssns_and_colours() {
    table(
        "default_test.go TestFormatCreditCard; validator_test.go TestIsCreditCard",
        "creditcard",
        &[
            "4111-1111-1111-1111",
            "4012-8888-8888-1881",
            "4220855426222389",
            "4220 8554 2622 2389",
            "4220-8554-2622-2389",
            "5139288802098206",
            "374953669708156",
            "6011464355444102",
            "3548209662790989",
        ],
        &[
            "9999-9999-9999-999",
            "",
            "credit card",
            "4220855426213389",
            // govalidator's issuer pattern refuses these (its own test says so)
            "30190239451016",
            "6521674451993089",
            "2204151414444676",
            "624356436327468104",
        ],
    );
    table(
        "default_test.go TestFormatSSN; validator_test.go TestIsSSN",
        "ssn",
        &["111-11-1111", "999 99 9999", "191 60 2869", "191-60-2869"],
        &["999 99 999", "", "00-90-8787", "66690-76", "111111111"],
    );
    table(
        "default_test.go TestFormatHexColor; validator_test.go TestIsHexcolor",
        "hexcolor",
        &["#FFFFFF", "#000000", "CCccCC", "fff", "#f00"],
        &["#fffffffz", "", "#ff", "fff0", "#ff12FG"],
    );
    table(
        "default_test.go TestFormatRGBColor; validator_test.go TestIsRGBcolor",
        "rgbcolor",
        &[
            "rgb(255,255,255)",
            "rgb(0,0,0)",
            "rgb(0,31,255)",
            "rgb(0,  31, 255)",
        ],
        &[
            "rgb(300,0,0)",
            "",
            "rgb(1,349,275)",
            "rgb(01,31,255)",
            "rgb(0.6,31,255)",
            "rgba(0,31,255)",
        ],
    );
}

#[test]
fn byte_password_and_bson() {
    table(
        "default_test.go TestFormatBase64; validator_test.go TestIsBase64",
        "byte",
        &[
            "VGhpcyBpcyBhIGJ5dGUgYXJyYXkgd2l0aCB1bnByaW50YWJsZSBjaGFycywgYnV0IGl0IGFsc28gaXNu",
            "TG9yZW0gaXBzdW0gZG9sb3Igc2l0IGFtZXQsIGNvbnNlY3RldHVyIGFkaXBpc2NpbmcgZWxpdC4=",
            "Vml2YW11cyBmZXJtZW50dW0gc2VtcGVyIHBvcnRhLg==",
            "U3VzcGVuZGlzc2UgbGVjdHVzIGxlbw==",
        ],
        // the empty string is not base64 to govalidator's pattern
        &[
            "ZWxpemFiZXRocG9zZXk",
            "12345",
            "",
            "Vml2YW11cyBmZXJtZtesting123",
            "a-_b",
        ],
    );
    table(
        "default_test.go TestFormatPassword",
        "password",
        &["super secret!!!", "even more secret", ""],
        &[],
    );
    table(
        "bson_test.go TestBSONObjectId_fullCycle; strfmt/bson ObjectIDFromHex",
        "bsonobjectid",
        &["507f1f77bcf86cd799439011", "507F1F77BCF86CD799439011"],
        &["507f1f77bcf86cd79943901", "507f1f77bcf86cd79943901g", ""],
    );
}

#[test]
fn dates_and_date_times() {
    table(
        "date_test.go TestDate and TestDate_IsDate",
        "date",
        &["2014-12-15", "2017-12-22", "2000-02-29", "2400-02-29"],
        &[
            "yada",
            "1972/01/01",
            "2017-1-1",
            "17-13-22",
            "2017-02-29",
            "1900-02-29",
            "2100-02-29",
            "2017-13-22",
            "2017-12-32",
            "20171-12-32",
            "YYYY-MM-DD",
            "20-17-2017",
            "2017-12-22T01:02:03Z",
            // Go's `2006` reads ASCII digits only
            "٢٠٢٤-01-01",
        ],
    );
    table(
        "time_test.go TestParseDateTime_fullCycle and TestDateTime_IsDateTime_errorCases",
        "date-time",
        &[
            "2014-12-15T08:00:00.000Z",
            "2011-08-18T19:03:37.000+01:00",
            "2014-12-15T19:30:20.000Z",
            "0001-01-01T00:00:00.000Z",
            "1970-01-01T00:00:00.000Z",
            // strfmt's pattern: lower case, any character before the fraction, pieces
            // after a second `t` ignored
            "2024-02-29t23:59:59.5+02:00",
            "2024-01-01T10:00:00,5Z",
            "2024-01-01T10:00:00ZT",
        ],
        &[
            "zor",
            "zorg",
            "zorgTx",
            "1972-12-31Tx",
            "1972-12-31T24:40:00.000Z",
            "1972-12-31T23:63:00.000Z",
            "1972-12-31T23:59:60.000Z",
            // strfmt's IsDateTime wants a zone, unlike ParseDateTime's local-time layout
            "2014-12-15T08:00:00",
            "2023-02-29T00:00:00Z",
            "yesterday",
        ],
    );
}

#[test]
fn durations() {
    let huge = "9999999999999999999999999999999999999999999999999999999 weeks";
    table(
        "duration_test.go TestDuration, TestDurationParser, TestIsDuration_Caveats",
        "duration",
        &[
            "0ms",
            "2ms",
            "1ns",
            "1us",
            "1µs",
            "1ms",
            "1s",
            "1m",
            "1h",
            "1hr",
            "1d",
            "1w",
            "1wk",
            "1nanoseconds",
            "1nanos",
            "1microseconds",
            "1micros",
            "1millis",
            "1milliseconds",
            "1second",
            "1sec",
            "1min",
            "1minute",
            "1hour",
            "1day",
            "1week",
            "1  ns",
            "1  us",
            "1  µs",
            "1  ms",
            "1  s",
            "1  m",
            "1  h",
            "1  hr",
            "1  d",
            "1  w",
            "1  wk",
            "1  nanoseconds",
            "1  nanos",
            "1  microseconds",
            "1  micros",
            "1  millis",
            "1  milliseconds",
            "1  second",
            "1  sec",
            "1  min",
            "1  minute",
            "1  hour",
            "1  day",
            "1  week",
            "45 weeks",
            "45 weekz",
            "12 hours",
            "12 minutes",
        ],
        &[
            "yada",
            "three week",
            huge,
            "12 parsecs",
            "12 y",
            "45 wekk",
            "45 weeekks",
            "12 phours",
        ],
    );
    // Go's time.ParseDuration alone (strfmt tries it first)
    let source = "Go time time_test.go parseDurationTests";
    for good in [
        "0",
        "5s",
        "30s",
        "1478s",
        "-5s",
        "+5s",
        "-0",
        "+0",
        "5.0s",
        "5.6s",
        "5.s",
        ".5s",
        "1.0s",
        "1.00s",
        "1.004s",
        "100.00100s",
        "10ns",
        "11us",
        "12µs",
        "12μs",
        "13ms",
        "14s",
        "15m",
        "16h",
        "3h30m",
        "10.5s4m",
        "-2m3.4s",
        "1h2m3s4ms5us6ns",
        "39h9m14.425s",
        "52763797000ns",
        "0.3333333333333333333h",
        "9007199254740993ns",
        "9223372036854775807ns",
        "-9223372036854775808ns",
        "0.100000000000000000000h",
    ] {
        assert!(
            crate::gostd::time::parse_duration(good).is_ok(),
            "{source}: {good:?}"
        );
    }
    for bad in [
        "",
        "3",
        "-",
        "s",
        ".",
        "-.",
        ".s",
        "+.s",
        "1d",
        "\u{0085}\u{0085}",
        "\u{ffff}",
        "9223372036854775808ns",
        "9223372036854775.808us",
        "-9223372036854775809ns",
        "1h ",
    ] {
        assert!(
            crate::gostd::time::parse_duration(bad).is_err(),
            "{source}: {bad:?}"
        );
    }
    // what Go's parser refuses, strfmt's fallback may still read: `1d`, `5us` in `.808us`
    table(
        "duration.go ParseDuration (the fallback after time.ParseDuration)",
        "duration",
        &["1d", "9223372036854775.808us", "1h "],
        &[
            "",
            "3",
            ".",
            "9223372036854775808ns",
            "-9223372036854775809ns",
            "\u{ffff}",
        ],
    );
    // strfmt's fallback reads any `<number> <unit>` inside the text and ignores the rest
    assert!(valid("duration", "P3D"));
    assert!(valid("duration", "in 3 days, maybe"));
    assert!(!valid("duration", "3 months"));
    assert!(!valid("duration", "1 year"));
}

#[test]
fn kubernetes_names() {
    let a63 = "a".repeat(63);
    let a64 = "a".repeat(64);
    let a253 = "a".repeat(253);
    let a254 = "a".repeat(254);
    let short_good: &[&str] = &[
        "a",
        "ab",
        "abc",
        "a1",
        "a-1",
        "a--1--2--b",
        "0",
        "01",
        "012",
        "1a",
        "1-a",
        "1--a--b--2",
        &a63,
    ];
    let short_bad: &[&str] = &[
        "", "A", "ABC", "aBc", "A1", "A-1", "1-A", "-", "-a", "-1", "_", "a_", "_a", "a_b", "1_",
        "_1", "1_2", ".", "a.", ".a", "a.b", "1.", ".1", "1.2", " ", "a ", " a", "a b", "1 ", " 1",
        "1 2", &a64, "a-", "1-",
    ];
    table(
        "kubernetes-extensions_test.go TestIsShortName",
        "k8s-short-name",
        short_good,
        short_bad,
    );
    let long_good: &[&str] = &[
        "a",
        "ab",
        "abc",
        "a1",
        "a-1",
        "a--1--2--b",
        "0",
        "01",
        "012",
        "1a",
        "1-a",
        "1--a--b--2",
        "a.a",
        "ab.a",
        "abc.a",
        "a1.a",
        "a-1.a",
        "a--1--2--b.a",
        "a.1",
        "ab.1",
        "abc.1",
        "a1.1",
        "a-1.1",
        "a--1--2--b.1",
        "0.a",
        "01.a",
        "012.a",
        "1a.a",
        "1-a.a",
        "0.1",
        "01.1",
        "012.1",
        "1a.1",
        "1-a.1",
        "1--a--b--2.1",
        "a.b.c.d.e",
        "aa.bb.cc.dd.ee",
        "1.2.3.4.5",
        "11.22.33.44.55",
        &a253,
    ];
    let long_bad: &[&str] = &[
        "",
        "A",
        "ABC",
        "aBc",
        "A1",
        "A-1",
        "1-A",
        "-",
        "-a",
        "-1",
        "_",
        "a_",
        "_a",
        "a_b",
        "1_",
        "_1",
        "1_2",
        ".",
        "a.",
        ".a",
        "a..b",
        "1.",
        ".1",
        "1..2",
        " ",
        "a ",
        " a",
        "a b",
        "1 ",
        " 1",
        "1 2",
        "A.a",
        "aB.a",
        "ab.A",
        "A1.a",
        "a1.A",
        "A.1",
        "aB.1",
        "A1.1",
        "1A.1",
        "0.A",
        "01.A",
        "012.A",
        "1A.a",
        "1a.A",
        "A.B.C.D.E",
        "AA.BB.CC.DD.EE",
        "a.B.c.d.e",
        "aa.bB.cc.dd.ee",
        "a@b",
        "a,b",
        "a;b",
        "a:b",
        "a%b",
        "a?b",
        "a$b",
        &a254,
        "a-",
        "1-",
    ];
    table(
        "kubernetes-extensions_test.go TestFormatLongName",
        "k8s-long-name",
        long_good,
        long_bad,
    );
    // validation_test.go TestValidateCustomResource k8sLongName / k8sShortName
    assert!(!valid("k8s-long-name", "a.-"));
    assert!(!valid("k8s-short-name", "a-"));
}

#[test]
fn checks_stay_fast_on_long_values() {
    // every check is linear; a megabyte of text is checked in well under a second
    let long = "a".repeat(1 << 20);
    let start = std::time::Instant::now();
    for format in [
        "uri",
        "email",
        "hostname",
        "ipv4",
        "ipv6",
        "cidr",
        "mac",
        "duration",
        "date-time",
        "isbn",
        "creditcard",
        "byte",
        "k8s-long-name",
    ] {
        let _ = valid(format, &long);
        let _ = valid(format, &format!("1{}", "1 h".repeat(1 << 16)));
        let _ = valid(format, &"(".repeat(1 << 16));
    }
    assert!(start.elapsed().as_secs() < 5, "{:?}", start.elapsed());
}

#[test]
fn no_value_makes_a_check_panic() {
    // every string of two pieces between a prefix and a suffix, from characters each parser
    // treats specially, multi-byte ones included (slicing inside a character would panic)
    let pieces = [
        "", "%", "%2", "%25", "é", "µ", "[", "]", ":", "::", ".", "@", "\"", "\\", "(", ")", "<",
        ">", "/", "//", "?", "#", "1", "ff", "=?", "?=", "t", "Z", "-", " ", "\t", "x",
    ];
    let formats = [
        "uri",
        "email",
        "hostname",
        "ipv4",
        "ipv6",
        "cidr",
        "mac",
        "duration",
        "date-time",
        "date",
        "isbn",
        "creditcard",
        "ssn",
        "byte",
        "bsonobjectid",
        "k8s-long-name",
    ];
    for a in pieces {
        for b in pieces {
            for prefix in [
                "",
                "http://",
                "http://[",
                "a@",
                "2024-01-01T",
                "00:00:00:00:00:",
                "1",
            ] {
                for suffix in ["", "]", "%é", "s"] {
                    let value = format!("{prefix}{a}{b}{suffix}");
                    for format in formats {
                        let _ = valid(format, &value);
                    }
                }
            }
        }
    }
}
