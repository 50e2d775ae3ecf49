//! go-yaml v2's YAML 1.1 resolver (what a plain string would read back as) and float text.

/// What go-yaml v2's resolver makes of an untagged plain scalar.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Resolved {
    Str,
    Int(i128),
    Float(f64),
    /// A null, a bool or a timestamp.
    Other,
}

/// resolve.go's `resolve("", s)`.
pub(super) fn resolve(s: &str) -> Resolved {
    let hint = match s.as_bytes().first() {
        None => b'N',
        Some(b'+' | b'-') => b'S',
        Some(b'0'..=b'9') => b'D',
        Some(b'y' | b'Y' | b'n' | b'N' | b't' | b'T' | b'f' | b'F' | b'o' | b'O' | b'~') => b'M',
        Some(b'.') => b'.',
        // `<<` is in the table too, but its first byte has no hint, so it is never looked up.
        Some(_) => return Resolved::Str,
    };
    if let Some(known) = resolve_table(s) {
        return known;
    }
    match hint {
        b'.' => match parse_go_float(s) {
            Some(f) => Resolved::Float(f),
            None => Resolved::Str,
        },
        b'D' | b'S' => resolve_number(s),
        _ => Resolved::Str,
    }
}

/// The words resolve.go looks up before trying numbers.
pub(super) fn resolve_table(s: &str) -> Option<Resolved> {
    let resolved = match s {
        "y" | "Y" | "yes" | "Yes" | "YES" | "true" | "True" | "TRUE" | "on" | "On" | "ON" => {
            Resolved::Other
        }
        "n" | "N" | "no" | "No" | "NO" | "false" | "False" | "FALSE" | "off" | "Off" | "OFF" => {
            Resolved::Other
        }
        "" | "~" | "null" | "Null" | "NULL" => Resolved::Other,
        ".nan" | ".NaN" | ".NAN" => Resolved::Float(f64::NAN),
        ".inf" | ".Inf" | ".INF" | "+.inf" | "+.Inf" | "+.INF" => Resolved::Float(f64::INFINITY),
        "-.inf" | "-.Inf" | "-.INF" => Resolved::Float(f64::NEG_INFINITY),
        _ => return None,
    };
    Some(resolved)
}

/// resolve.go for text starting with a digit or sign: timestamp, then int (any base, `_`
/// removed), then uint, then a decimal float, then its `0b` special cases.
pub(super) fn resolve_number(s: &str) -> Resolved {
    if is_go_timestamp(s) {
        return Resolved::Other;
    }
    let plain = s.replace('_', "");
    let int = parse_go_int(&plain, 0).or_else(|| parse_go_uint(&plain, 0).map(i128::from));
    if let Some(v) = int {
        return Resolved::Int(v);
    }
    if is_yaml_float(&plain) {
        if let Some(f) = finite_float(&plain) {
            return Resolved::Float(f);
        }
    }
    let binary = if let Some(digits) = plain.strip_prefix("0b") {
        parse_go_int(digits, 2).or_else(|| parse_go_uint(digits, 2).map(i128::from))
    } else if let Some(digits) = plain.strip_prefix("-0b") {
        parse_go_int(&format!("-{digits}"), 2)
    } else {
        None
    };
    binary.map_or(Resolved::Str, Resolved::Int)
}

/// The float a syntactically valid decimal denotes, or `None` where Go's `ParseFloat` reports a
/// range error (the value rounds to an infinity; underflow to zero is not an error).
pub(super) fn finite_float(decimal: &str) -> Option<f64> {
    decimal.parse::<f64>().ok().filter(|f| f.is_finite())
}

/// Go's `strconv.ParseInt(s, base, 64)` (base 0: `0x`, `0o`, `0b` or a leading `0` pick it).
pub(super) fn parse_go_int(s: &str, base: u32) -> Option<i128> {
    let (negative, digits) = match s.as_bytes().first()? {
        b'+' => (false, &s[1..]),
        b'-' => (true, &s[1..]),
        _ => (false, s),
    };
    let magnitude = i128::from(parse_go_uint(digits, base)?);
    let limit = 1i128 << 63;
    match negative {
        true if magnitude <= limit => Some(-magnitude),
        false if magnitude < limit => Some(magnitude),
        _ => None,
    }
}

/// Go's `strconv.ParseUint(s, base, 64)` for text without underscores (resolve removes them).
pub(super) fn parse_go_uint(s: &str, base: u32) -> Option<u64> {
    if s.is_empty() {
        return None;
    }
    let (base, digits) = if base == 0 {
        split_base_prefix(s)
    } else {
        (base, s)
    };
    let mut n: u64 = 0;
    for b in digits.bytes() {
        let digit = match b {
            b'0'..=b'9' => u32::from(b - b'0'),
            b'a'..=b'z' | b'A'..=b'Z' => u32::from(b.to_ascii_lowercase() - b'a') + 10,
            _ => return None,
        };
        if digit >= base {
            return None;
        }
        n = n
            .checked_mul(u64::from(base))?
            .checked_add(u64::from(digit))?;
    }
    Some(n)
}

/// The base a Go integer literal's prefix selects, and the digits after it.
pub(super) fn split_base_prefix(s: &str) -> (u32, &str) {
    let b = s.as_bytes();
    if b.first() != Some(&b'0') {
        return (10, s);
    }
    match b.get(1).map(u8::to_ascii_lowercase) {
        Some(b'b') if b.len() >= 3 => (2, &s[2..]),
        Some(b'o') if b.len() >= 3 => (8, &s[2..]),
        Some(b'x') if b.len() >= 3 => (16, &s[2..]),
        _ => (8, &s[1..]),
    }
}

/// Go's `strconv.ParseFloat(s, 64)` for decimal text (resolve only calls it on text that starts
/// with `.` or matched its decimal pattern): digits with at most one `.`, an optional exponent,
/// and `_` only between digits.
pub(super) fn parse_go_float(s: &str) -> Option<f64> {
    let b = s.as_bytes();
    let mut i = usize::from(matches!(b.first(), Some(b'+' | b'-')));
    let (mut saw_dot, mut saw_digits) = (false, false);
    while let Some(&c) = b.get(i) {
        match c {
            b'0'..=b'9' => saw_digits = true,
            b'.' if !saw_dot => saw_dot = true,
            b'_' => {}
            _ => break,
        }
        i += 1;
    }
    if !saw_digits {
        return None;
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1 + usize::from(matches!(b.get(i + 1), Some(b'+' | b'-')));
        if !b.get(i).is_some_and(u8::is_ascii_digit) {
            return None;
        }
        while b.get(i).is_some_and(|&c| c.is_ascii_digit() || c == b'_') {
            i += 1;
        }
    }
    if i != b.len() || (s.contains('_') && !underscores_ok(s)) {
        return None;
    }
    finite_float(&s.replace('_', ""))
}

/// Go's `underscoreOK` for a decimal number: every `_` sits between two digits.
pub(super) fn underscores_ok(s: &str) -> bool {
    // `saw` is the class of the previous byte: b'^' start, b'0' digit, b'_', b'!' other.
    let mut saw = b'^';
    let digits = s.strip_prefix(['+', '-']).unwrap_or(s);
    for c in digits.bytes() {
        if c.is_ascii_digit() {
            saw = b'0';
        } else if c == b'_' {
            if saw != b'0' {
                return false;
            }
            saw = b'_';
        } else if saw == b'_' {
            return false;
        } else {
            saw = b'!';
        }
    }
    saw != b'_'
}

/// encode.go's `isBase60Float`: YAML 1.1 sexagesimal numbers such as `1:20`, which go-yaml no
/// longer reads as numbers but still quotes.
pub(super) fn is_base60_float(s: &str) -> bool {
    // `^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$`, by hand: a regular expression
    // compiled in every render process cost about 5% of a small render.
    let b = s.strip_prefix(['-', '+']).unwrap_or(s).as_bytes();
    if !b.first().is_some_and(u8::is_ascii_digit) {
        return false;
    }
    let mut i = 1 + count(&b[1..], |c| c.is_ascii_digit() || c == b'_');
    let mut groups = 0;
    while b.get(i) == Some(&b':') {
        let digits = count(&b[i + 1..], |c| c.is_ascii_digit());
        let ok = match digits {
            1 => true,
            2 => b[i + 1] <= b'5',
            _ => false,
        };
        if !ok {
            return false;
        }
        i += 1 + digits;
        groups += 1;
    }
    if groups == 0 {
        return false;
    }
    if b.get(i) == Some(&b'.') {
        i += 1 + count(&b[i + 1..], |c| c.is_ascii_digit() || c == b'_');
    }
    i == b.len()
}

/// `^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$` (resolve.go's `yamlStyleFloat`).
fn is_yaml_float(s: &str) -> bool {
    let b = s.strip_prefix(['-', '+']).unwrap_or(s).as_bytes();
    let digits = |from: usize| count(b.get(from..).unwrap_or(&[]), |c| c.is_ascii_digit());
    let mut i = digits(0);
    if i == 0 {
        // `.5`: a point and at least one digit.
        if b.first() != Some(&b'.') || digits(1) == 0 {
            return false;
        }
        i = 1 + digits(1);
    } else if b.get(i) == Some(&b'.') {
        i += 1 + digits(i + 1);
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        let sign = usize::from(matches!(b.get(i + 1), Some(b'-' | b'+')));
        let exponent = digits(i + 1 + sign);
        if exponent == 0 {
            return false;
        }
        i += 1 + sign + exponent;
    }
    i == b.len()
}

/// How many leading bytes of `b` satisfy `f`.
fn count(b: &[u8], f: impl Fn(u8) -> bool) -> usize {
    b.iter().take_while(|&&c| f(c)).count()
}

/// resolve.go's `parseTimestamp`: four digits and `-`, then one of go-yaml's `time.Parse`
/// layouts `2006-1-2T15:4:5.999999999Z07:00` (also with `t`), `2006-1-2 15:4:5.999999999` or
/// `2006-1-2`, read the way Go's time package reads them.
pub(super) fn is_go_timestamp(s: &str) -> bool {
    let b = s.as_bytes();
    let year_digits = b.iter().take_while(|c| c.is_ascii_digit()).count();
    if year_digits != 4 || b.get(4) != Some(&b'-') {
        return false;
    }
    [Some(b'T'), Some(b't'), Some(b' '), None]
        .into_iter()
        .any(|separator| matches_timestamp(b, separator).is_some())
}

/// One layout: `separator` is `T`/`t` (time with zone), ` ` (time without zone) or none (date).
pub(super) fn matches_timestamp(b: &[u8], separator: Option<u8>) -> Option<()> {
    let mut t = TimeText { rest: b };
    let year: u32 = std::str::from_utf8(&b[..4]).ok()?.parse().ok()?;
    t.rest = &b[4..];
    t.literal(b'-')?;
    let month = t.number(1..=12)?;
    t.literal(b'-')?;
    let day = t.number(0..=99)?;
    match separator {
        Some(b' ') => {
            t.spaces()?;
            t.clock()?;
        }
        Some(letter) => {
            t.literal(letter)?;
            t.clock()?;
            t.zone()?;
        }
        None => {}
    }
    (t.rest.is_empty() && day >= 1 && day <= days_in_month(month, year)).then_some(())
}

/// The unread rest of a timestamp, consumed the way Go's `time.Parse` consumes its value.
pub(super) struct TimeText<'a> {
    rest: &'a [u8],
}

impl TimeText<'_> {
    fn literal(&mut self, c: u8) -> Option<()> {
        let rest = self.rest.strip_prefix(&[c])?;
        self.rest = rest;
        Some(())
    }

    /// A space in the layout: one or more spaces in the value.
    fn spaces(&mut self) -> Option<()> {
        if self.rest.first().is_some_and(|&c| c != b' ') {
            return None;
        }
        while let Some(rest) = self.rest.strip_prefix(b" ") {
            self.rest = rest;
        }
        Some(())
    }

    /// Go's `getnum(value, false)`: one or two digits, then the layout field's range check.
    fn number(&mut self, range: std::ops::RangeInclusive<u32>) -> Option<u32> {
        let digits = self
            .rest
            .iter()
            .take(2)
            .take_while(|c| c.is_ascii_digit())
            .count();
        if digits == 0 {
            return None;
        }
        let value = self.rest[..digits]
            .iter()
            .fold(0, |n, &c| n * 10 + u32::from(c - b'0'));
        self.rest = &self.rest[digits..];
        range.contains(&value).then_some(value)
    }

    /// `15:4:5.999999999`: the fraction is optional and takes every digit after `.` or `,`.
    fn clock(&mut self) -> Option<()> {
        self.number(0..=23)?;
        self.literal(b':')?;
        self.number(0..=59)?;
        self.literal(b':')?;
        self.number(0..=59)?;
        if let [b'.' | b',', d, ..] = self.rest {
            if d.is_ascii_digit() {
                let digits = self.rest[1..]
                    .iter()
                    .take_while(|c| c.is_ascii_digit())
                    .count();
                self.rest = &self.rest[1 + digits..];
            }
        }
        Some(())
    }

    /// `Z07:00`: `Z`, or a sign, two-digit hours up to 24, `:` and two-digit minutes up to 60.
    fn zone(&mut self) -> Option<()> {
        if self.literal(b'Z').is_some() {
            return Some(());
        }
        let [sign, h1, h2, b':', m1, m2, ..] = *self.rest else {
            return None;
        };
        let digits = [h1, h2, m1, m2];
        if !matches!(sign, b'+' | b'-') || !digits.iter().all(u8::is_ascii_digit) {
            return None;
        }
        let hours = (h1 - b'0') * 10 + (h2 - b'0');
        let minutes = (m1 - b'0') * 10 + (m2 - b'0');
        self.rest = &self.rest[6..];
        (hours <= 24 && minutes <= 60).then_some(())
    }
}

/// Go's `daysIn`, with the Gregorian leap-year rule.
pub(super) fn days_in_month(month: u32, year: u32) -> u32 {
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    match month {
        2 if leap => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Go's `strconv.FormatFloat(f, 'g', -1, 64)` with encode.go's `floatv` names for the
/// non-finite values: shortest digits, exponent form below 1e-4 or from 1e6 on, and an
/// exponent of at least two digits.
pub(super) fn format_float(f: f64) -> String {
    if f.is_nan() {
        return ".nan".to_string();
    }
    if f.is_infinite() {
        return if f > 0.0 { ".inf" } else { "-.inf" }.to_string();
    }
    // Rust's `{:e}` and `{}` both print the shortest digits that read back as `f`, as Go does.
    let scientific = format!("{f:e}");
    let Some((mantissa, exponent)) = scientific.split_once('e') else {
        return format!("{f}");
    };
    let exponent: i32 = exponent.parse().unwrap_or(0);
    if (-4..6).contains(&exponent) {
        return format!("{f}");
    }
    let sign = if exponent < 0 { '-' } else { '+' };
    format!("{mantissa}e{sign}{:02}", exponent.unsigned_abs())
}

#[cfg(test)]
mod tests {
    use super::*;
    use regex::Regex;

    #[test]
    fn hand_written_matchers_agree_with_their_regular_expressions() {
        let float = Regex::new(r"^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$").unwrap();
        let base60 = Regex::new(r"^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$").unwrap();
        let alphabet = ["0", "5", "9", "_", ".", ":", "e", "-", "+", "6", "x"];
        let mut inputs = vec![String::new()];
        let mut all = vec![String::new()];
        for _ in 0..5 {
            let mut next = Vec::new();
            for s in &inputs {
                for a in alphabet {
                    next.push(format!("{s}{a}"));
                }
            }
            all.extend(next.iter().cloned());
            inputs = next;
        }
        all.extend(
            [
                "1:20",
                "190:20:30.15",
                "-1_0:59",
                "1:60",
                "1e10",
                ".5E-3",
                "+.5",
                "5.",
                "1:2:3.",
            ]
            .map(String::from),
        );
        for s in &all {
            assert_eq!(is_yaml_float(s), float.is_match(s), "float {s:?}");
            assert_eq!(is_base60_float(s), base60.is_match(s), "base60 {s:?}");
        }
    }
}
