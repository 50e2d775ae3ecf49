//! The string `format`s the API server checks: apiextensions-apiserver's supported set at
//! compatibility version 1.34 (any other format, `int32` and `int64` included, is ignored), each
//! checked as kube-openapi's `strfmt` registry checks it — its regexes, govalidator's checksums,
//! its duration units, and Go's parsers (`net`, `net/url`, `net/mail`, `time`) where strfmt
//! calls them. Every check is linear in the value's length: no backtracking, no allocation that
//! grows faster than the input. Used by `schema` (OpenAPI `format`) and by CEL's Kubernetes
//! format library (`format.date()`, `format.uuid()`…), which call the same strfmt checks.

mod mail;
mod net;
#[cfg(test)]
mod tests;

use std::sync::LazyLock;

use regex::Regex;

/// Whether the API server checks `format` (its name compared without dashes).
pub fn supported(format: &str) -> bool {
    matches!(
        format.replace('-', "").as_str(),
        "bsonobjectid"
            | "uri"
            | "email"
            | "hostname"
            | "ipv4"
            | "ipv6"
            | "cidr"
            | "mac"
            | "uuid"
            | "uuid3"
            | "uuid4"
            | "uuid5"
            | "isbn"
            | "isbn10"
            | "isbn13"
            | "creditcard"
            | "ssn"
            | "hexcolor"
            | "rgbcolor"
            | "byte"
            | "password"
            | "date"
            | "duration"
            | "datetime"
            | "k8sshortname"
            | "k8slongname"
    )
}

/// A pattern compiled on first use and kept for the process (the patterns are constants).
struct Pattern(LazyLock<Regex>);

macro_rules! pattern {
    ($name:ident, $re:expr) => {
        static $name: Pattern = Pattern(LazyLock::new(|| {
            Regex::new($re).expect("a constant pattern compiles")
        }));
    };
}

impl Pattern {
    fn is_match(&self, value: &str) -> bool {
        self.0.is_match(value)
    }
}

// strfmt's own patterns. Go's `\d` and `\s` are ASCII (`[0-9]`, `[\t\n\f\r ]`); the `regex`
// crate's are Unicode, so they are spelled out.
/// strfmt's `UUIDPattern`.
pub const UUID_PATTERN: &str =
    r"(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$";
pattern!(UUID, UUID_PATTERN);
pattern!(
    UUID3,
    r"(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?3[0-9a-f]{3}-?[0-9a-f]{4}-?[0-9a-f]{12}$"
);
pattern!(
    UUID4,
    r"(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?4[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$"
);
pattern!(
    UUID5,
    r"(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?5[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$"
);
pattern!(
    HOSTNAME,
    r"^([a-zA-Z0-9\p{S}\p{L}]((-?[a-zA-Z0-9\p{S}\p{L}]{0,62})?)|([a-zA-Z0-9\p{S}\p{L}](([a-zA-Z0-9\-\p{S}\p{L}]{0,61}[a-zA-Z0-9\p{S}\p{L}])?)(\.)){1,}([a-zA-Z\p{L}]){2,63})$"
);
pattern!(
    CREDIT_CARD,
    r"^(?:4[0-9]{12}(?:[0-9]{3})?|5[1-5][0-9]{14}|6(?:011|5[0-9][0-9])[0-9]{12}|3[47][0-9]{13}|3(?:0[0-5]|[68][0-9])[0-9]{11}|(?:2131|1800|35[0-9]{3})[0-9]{11})$"
);
pattern!(ISBN10, r"^(?:[0-9]{9}X|[0-9]{10})$");
pattern!(ISBN13, r"^(?:[0-9]{13})$");
pattern!(HEX_COLOR, r"^#?([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$");
pattern!(
    RGB_COLOR,
    r"^rgb\([\t\n\f\r ]*(0|[1-9][0-9]?|1[0-9][0-9]?|2[0-4][0-9]|25[0-5])[\t\n\f\r ]*,[\t\n\f\r ]*(0|[1-9][0-9]?|1[0-9][0-9]?|2[0-4][0-9]|25[0-5])[\t\n\f\r ]*,[\t\n\f\r ]*(0|[1-9][0-9]?|1[0-9][0-9]?|2[0-4][0-9]|25[0-5])[\t\n\f\r ]*\)$"
);
pattern!(
    BASE64,
    r"^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{4})$"
);
pattern!(SSN, r"^[0-9]{3}[- ]?[0-9]{2}[- ]?[0-9]{4}$");
pattern!(BSON_OBJECT_ID, r"^[0-9a-fA-F]{24}$");
pattern!(SHORT_NAME, r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?$");
pattern!(
    LONG_NAME,
    r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$"
);
pattern!(DATE, r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$");
/// strfmt's date-time pattern for the part after the `t`; its `.` before the fraction is any
/// character, as in strfmt (an unescaped dot).
pub const DATE_TIME_PATTERN: &str =
    r"^([0-9]{2}):([0-9]{2}):([0-9]{2})(.[0-9]+)?(z|([+-][0-9]{2}:[0-9]{2}))$";
pattern!(TIME, DATE_TIME_PATTERN);
// strfmt's fallback duration matcher: a number, optional spaces, a word.
pattern!(DURATION_PART, r"([0-9]+)[\t\n\f\r ]*([A-Za-zµ]+)");

/// Whether `value` has `format` (a supported one; any other format accepts everything).
pub fn valid(format: &str, value: &str) -> bool {
    match format.replace('-', "").as_str() {
        "datetime" => date_time(value),
        "date" => date(value),
        "byte" => BASE64.is_match(value),
        "password" => true,
        "uuid" => UUID.is_match(value),
        "uuid3" => UUID3.is_match(value),
        "uuid4" => UUID4.is_match(value),
        "uuid5" => UUID5.is_match(value),
        "ipv4" => net::sloppy_ip(value) && value.contains('.'),
        "ipv6" => net::go_ip(value) && value.contains(':'),
        "cidr" => net::sloppy_cidr(value),
        "mac" => net::mac(value),
        "hostname" => hostname(value),
        "email" => mail::address(value),
        "uri" => net::request_uri(value),
        "duration" => duration(value),
        "isbn" => isbn10(value) || isbn13(value),
        "isbn10" => isbn10(value),
        "isbn13" => isbn13(value),
        "creditcard" => credit_card(value),
        "ssn" => value.len() == 11 && SSN.is_match(value),
        "hexcolor" => HEX_COLOR.is_match(value),
        "rgbcolor" => RGB_COLOR.is_match(value),
        "bsonobjectid" => BSON_OBJECT_ID.is_match(value),
        "k8sshortname" => value.len() <= 63 && SHORT_NAME.is_match(value),
        "k8slongname" => value.len() <= 253 && LONG_NAME.is_match(value),
        _ => true,
    }
}

/// strfmt's hostname: its pattern, at most 255 bytes, no label over 63 bytes.
fn hostname(value: &str) -> bool {
    HOSTNAME.is_match(value) && value.len() <= 255 && value.split('.').all(|l| l.len() <= 63)
}

/// Go's `time.Parse("2006-01-02", …)`: four digits, two, two, and a day the month has.
fn date(value: &str) -> bool {
    if !DATE.is_match(value) {
        return false;
    }
    let n = |range: std::ops::Range<usize>| value[range].parse::<u32>().unwrap_or(0);
    let (y, m, d) = (n(0..4), n(5..7), n(8..10));
    let leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    let days = match m {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return false,
    };
    (1..=days).contains(&d)
}

/// strfmt's `IsDateTime`: the lower-cased value split at every `t`; the first piece a date,
/// the second hours, minutes, seconds (at most 23, 59, 59), a fraction and a zone, and any
/// further pieces ignored (as strfmt does).
fn date_time(value: &str) -> bool {
    if value.len() < 4 {
        return false;
    }
    // Only ASCII letters matter here (no other character lower-cases to `t` or `z`), and
    // ASCII lower-casing keeps one character per character, as Go's rune mapping does.
    let lower = value.to_ascii_lowercase();
    let mut pieces = lower.split('t');
    let (Some(day), Some(time)) = (pieces.next(), pieces.next()) else {
        return false;
    };
    if !date(day) {
        return false;
    }
    let Some(caps) = TIME.0.captures(time) else {
        return false;
    };
    &caps[1] <= "23" && &caps[2] <= "59" && &caps[3] <= "59"
}

/// strfmt's `ParseDuration` accepts `value`.
fn duration(value: &str) -> bool {
    duration_nanos(value).is_some()
}

/// strfmt's `ParseDuration`: Go's `time.ParseDuration`, else the sum of every `<number>
/// <word>` in the text whose word is a unit strfmt knows (at least one must be; the rest of
/// the text is ignored, as strfmt ignores it); a number too large for Go's `int` fails. The
/// sum wraps as Go's `time.Duration` arithmetic does.
pub fn duration_nanos(value: &str) -> Option<i64> {
    if let Ok(nanos) = crate::gostd::time::parse_duration(value) {
        return Some(nanos);
    }
    const SECOND: i64 = 1_000_000_000;
    // Each unit's spellings (the last one is also accepted as a prefix: `hours`, `weekz`)
    // and its length.
    const UNITS: &[(&[&str], i64)] = &[
        (&["ns", "nano"], 1),
        (&["us", "µs", "micro"], 1_000),
        (&["ms", "milli"], 1_000_000),
        (&["s", "sec"], SECOND),
        (&["m", "min"], 60 * SECOND),
        (&["h", "hr", "hour"], 3_600 * SECOND),
        (&["d", "day"], 86_400 * SECOND),
        (&["w", "wk", "week"], 604_800 * SECOND),
    ];
    let mut known = false;
    let mut total: i64 = 0;
    for caps in DURATION_PART.0.captures_iter(value) {
        let factor = caps[1].parse::<i64>().ok()?;
        let unit = caps[2].to_lowercase();
        for (spellings, length) in UNITS {
            let last = spellings.len() - 1;
            for (i, spelling) in spellings.iter().enumerate() {
                if (i == last && unit.starts_with(spelling)) || unit == *spelling {
                    known = true;
                    total = total.wrapping_add(factor.wrapping_mul(*length));
                }
            }
        }
    }
    known.then_some(total)
}

/// govalidator's ISBN-10: spaces and dashes removed, nine digits and a digit or `X`, the
/// weighted sum a multiple of 11.
fn isbn10(value: &str) -> bool {
    let s = isbn_digits(value);
    if !ISBN10.is_match(&s) {
        return false;
    }
    let b = s.as_bytes();
    let mut sum: u32 = (0..9)
        .map(|i| (i as u32 + 1) * u32::from(b[i] - b'0'))
        .sum();
    sum += 10
        * if b[9] == b'X' {
            10
        } else {
            u32::from(b[9] - b'0')
        };
    sum % 11 == 0
}

/// govalidator's ISBN-13: spaces and dashes removed, thirteen digits, weights 1 and 3.
fn isbn13(value: &str) -> bool {
    let s = isbn_digits(value);
    if !ISBN13.is_match(&s) {
        return false;
    }
    let b = s.as_bytes();
    let sum: u32 = (0..12)
        .map(|i| [1, 3][i % 2] * u32::from(b[i] - b'0'))
        .sum();
    u32::from(b[12] - b'0') == (10 - sum % 10) % 10
}

/// The value without Go's ASCII white space and dashes (govalidator's `[\s-]+`).
fn isbn_digits(value: &str) -> String {
    value
        .chars()
        .filter(|c| !matches!(c, '\t' | '\n' | '\x0c' | '\r' | ' ' | '-'))
        .collect()
}

/// govalidator's credit card: every non-digit removed, a known issuer's number, and Luhn's
/// checksum.
fn credit_card(value: &str) -> bool {
    let digits: String = value.chars().filter(char::is_ascii_digit).collect();
    if !CREDIT_CARD.is_match(&digits) {
        return false;
    }
    let mut sum = 0;
    for (i, c) in digits.bytes().rev().enumerate() {
        let d = u32::from(c - b'0');
        sum += if i % 2 == 1 {
            let twice = d * 2;
            if twice >= 10 { twice % 10 + 1 } else { twice }
        } else {
            d
        };
    }
    sum % 10 == 0
}
