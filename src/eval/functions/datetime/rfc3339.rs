//! RFC 3339 timestamps: an instant with a fixed UTC offset, the civil calendar, Go's RFC 3339
//! formatting, and the three parsers the functions use, each with its own error messages:
//!
//! * cty's strict parser (`formatdate`, `timeadd`): its own fast parser, falling back to
//!   Go's `time.Parse(time.RFC3339, …)` only to explain a failure;
//! * Terraform's (`timecmp`): Go's `time.Parse(time.RFC3339, …)`, which is more lenient
//!   (one-digit hours, comma fractions, offsets up to 24:60).
//!
//! Parsing works on bytes, as Go does.

/// An instant (seconds and nanoseconds since 1970-01-01T00:00:00Z) shown at a fixed offset.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Time {
    /// Seconds since the Unix epoch.
    pub secs: i64,
    /// Nanoseconds within the second.
    pub nsec: u32,
    /// The UTC offset in seconds.
    pub offset: i32,
}

/// Civil fields of a [`Time`] at its offset.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Civil {
    pub year: i64,
    pub month: u32,
    pub day: u32,
    pub hour: u32,
    pub minute: u32,
    pub second: u32,
    /// 0 = Sunday.
    pub weekday: u32,
}

/// Days since 1970-01-01 of a proleptic Gregorian date.
fn days_from_civil(y: i64, m: u32, d: u32) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let m = i64::from(m);
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + i64::from(d) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146097 + doe - 719468
}

fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719468;
    let era = z.div_euclid(146097);
    let doe = z - era * 146097;
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

fn is_leap(year: i64) -> bool {
    year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
}

/// Days in a month (1–12) of a year.
fn days_in(month: u32, year: i64) -> u32 {
    match month {
        2 if is_leap(year) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

impl Time {
    /// Go's `time.Date` with a fixed zone (fields already in range).
    #[allow(clippy::too_many_arguments)]
    fn date(y: i64, mo: u32, d: u32, h: u32, mi: u32, s: u32, nsec: u32, offset: i32) -> Time {
        let local = days_from_civil(y, mo, d) * 86400
            + i64::from(h) * 3600
            + i64::from(mi) * 60
            + i64::from(s);
        Time {
            secs: local - i64::from(offset),
            nsec,
            offset,
        }
    }

    /// Go's zero `time.Time` (0001-01-01T00:00:00Z).
    fn zero() -> Time {
        Time::date(1, 1, 1, 0, 0, 0, 0, 0)
    }

    /// The civil fields at the time's offset.
    pub fn civil(&self) -> Civil {
        let local = self.secs + i64::from(self.offset);
        let days = local.div_euclid(86400);
        let rem = local.rem_euclid(86400) as u32;
        let (year, month, day) = civil_from_days(days);
        Civil {
            year,
            month,
            day,
            hour: rem / 3600,
            minute: rem / 60 % 60,
            second: rem % 60,
            weekday: (days + 4).rem_euclid(7) as u32,
        }
    }

    /// Go's `Time.Add`.
    pub fn add(&self, nanos: i64) -> Time {
        let total =
            i128::from(self.secs) * 1_000_000_000 + i128::from(self.nsec) + i128::from(nanos);
        Time {
            secs: total.div_euclid(1_000_000_000) as i64,
            nsec: total.rem_euclid(1_000_000_000) as u32,
            offset: self.offset,
        }
    }

    /// The instant, for comparisons.
    pub fn instant(&self) -> (i64, u32) {
        (self.secs, self.nsec)
    }

    /// Go's `Format(time.RFC3339)`: no fraction; `Z` for a zero offset.
    pub fn rfc3339(&self) -> String {
        let c = self.civil();
        format!(
            "{}-{:02}-{:02}T{:02}:{:02}:{:02}{}",
            go_year(c.year),
            c.month,
            c.day,
            c.hour,
            c.minute,
            c.second,
            self.zone(true, true)
        )
    }

    /// Go's numeric zone formats: `Z07:00` (`z` and `colon`), `-07:00` (`colon`), `-0700`.
    pub fn zone(&self, z: bool, colon: bool) -> String {
        if z && self.offset == 0 {
            return "Z".into();
        }
        let minutes = self.offset / 60;
        let sign = if minutes < 0 { '-' } else { '+' };
        let m = minutes.unsigned_abs();
        let sep = if colon { ":" } else { "" };
        format!("{sign}{:02}{sep}{:02}", m / 60, m % 60)
    }
}

/// Go's `appendInt(b, year, 4)`: a sign, then at least four digits.
fn go_year(year: i64) -> String {
    if year < 0 {
        format!("-{:04}", year.unsigned_abs())
    } else {
        format!("{year:04}")
    }
}

/// Go's `time.ParseError` (the fields the functions look at).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct ParseError {
    layout_elem: String,
    value_elem: Vec<u8>,
    message: String,
}

fn perr(layout_elem: &str, value_elem: &[u8], message: impl Into<String>) -> ParseError {
    ParseError {
        layout_elem: layout_elem.into(),
        value_elem: value_elem.to_vec(),
        message: message.into(),
    }
}

fn is_digit(s: &[u8], i: usize) -> bool {
    s.get(i).is_some_and(u8::is_ascii_digit)
}

/// Go's (and cty's copy of) `parseNanoseconds` for a fraction `value[..n]` starting with
/// `.` or `,` and followed by digits only.
fn parse_nanoseconds(value: &[u8], n: usize) -> u32 {
    let n = n.min(10);
    let mut ns: u32 = 0;
    for &c in &value[1..n] {
        ns = ns * 10 + u32::from(c - b'0');
    }
    for _ in 0..10 - n {
        ns *= 10;
    }
    ns
}

/// The fast RFC 3339 parser (cty's `parseRFC3339`, identical to Go's since 1.20).
fn parse_fast(s: &[u8]) -> Option<Time> {
    let mut ok = true;
    let mut parse_uint = |s: &[u8], min: u32, max: u32| -> u32 {
        let mut x: u32 = 0;
        for &c in s {
            if !c.is_ascii_digit() {
                ok = false;
                return min;
            }
            x = x * 10 + u32::from(c - b'0');
        }
        if x < min || max < x {
            ok = false;
            return min;
        }
        x
    };
    if s.len() < "2006-01-02T15:04:05".len() {
        return None;
    }
    let year = parse_uint(&s[0..4], 0, 9999);
    let month = parse_uint(&s[5..7], 1, 12);
    let day = parse_uint(&s[8..10], 1, days_in(month, i64::from(year)));
    let hour = parse_uint(&s[11..13], 0, 23);
    let min = parse_uint(&s[14..16], 0, 59);
    let sec = parse_uint(&s[17..19], 0, 59);
    if !(s[4] == b'-' && s[7] == b'-' && s[10] == b'T' && s[13] == b':' && s[16] == b':') {
        return None;
    }
    let mut s = &s[19..];
    let mut nsec = 0;
    if s.len() >= 2 && s[0] == b'.' && is_digit(s, 1) {
        let mut n = 2;
        while is_digit(s, n) {
            n += 1;
        }
        nsec = parse_nanoseconds(s, n);
        s = &s[n..];
    }
    let mut offset = 0;
    if s != b"Z" {
        if s.len() != "-07:00".len() {
            return None;
        }
        let hr = parse_uint(&s[1..3], 0, 23);
        let mm = parse_uint(&s[4..6], 0, 59);
        if !((s[0] == b'-' || s[0] == b'+') && s[3] == b':') {
            return None;
        }
        offset = ((hr * 60 + mm) * 60) as i32;
        if s[0] == b'-' {
            offset = -offset;
        }
    }
    if !ok {
        return None;
    }
    Some(Time::date(
        i64::from(year),
        month,
        day,
        hour,
        min,
        sec,
        nsec,
        offset,
    ))
}

/// Go's `getnum`: one or two digits (exactly two when `fixed`).
fn getnum(s: &[u8], fixed: bool) -> Result<(u32, &[u8]), ()> {
    if !is_digit(s, 0) {
        return Err(());
    }
    if !is_digit(s, 1) {
        if fixed {
            return Err(());
        }
        return Ok((u32::from(s[0] - b'0'), &s[1..]));
    }
    Ok((
        u32::from(s[0] - b'0') * 10 + u32::from(s[1] - b'0'),
        &s[2..],
    ))
}

/// Go's general `time.Parse` for the layout `2006-01-02T15:04:05Z07:00`, element by element.
fn parse_layout(value: &[u8]) -> Result<Time, ParseError> {
    const ELEMS: [(&str, &str); 7] = [
        ("", "2006"),
        ("-", "01"),
        ("-", "02"),
        ("T", "15"),
        (":", "04"),
        (":", "05"),
        ("", "Z07:00"),
    ];
    let (mut year, mut month, mut day) = (0i64, 0u32, 0u32);
    let (mut hour, mut min, mut sec, mut nsec) = (0u32, 0u32, 0u32, 0u32);
    let mut offset: Option<i32> = None;
    let mut value = value;
    for (prefix, std) in ELEMS {
        if !prefix.is_empty() {
            if value.first() != Some(&prefix.as_bytes()[0]) {
                return Err(perr(prefix, value, ""));
            }
            value = &value[1..];
        }
        let hold = value;
        let mut range_err = "";
        let mut bad = false;
        match std {
            "2006" => {
                if value.len() < 4 || !is_digit(value, 0) {
                    bad = true;
                } else {
                    let (p, rest) = value.split_at(4);
                    value = rest;
                    match p.iter().all(u8::is_ascii_digit) {
                        true => year = p.iter().fold(0, |x, c| x * 10 + i64::from(c - b'0')),
                        false => bad = true,
                    }
                }
            }
            "01" | "02" | "04" | "05" | "15" => match getnum(value, std != "15") {
                Ok((n, rest)) => {
                    value = rest;
                    match std {
                        "01" => {
                            month = n;
                            if !(1..=12).contains(&n) {
                                range_err = "month";
                            }
                        }
                        "02" => day = n,
                        "15" => {
                            hour = n;
                            if n >= 24 {
                                range_err = "hour";
                            }
                        }
                        "04" => {
                            min = n;
                            if n >= 60 {
                                range_err = "minute";
                            }
                        }
                        _ => {
                            sec = n;
                            if n >= 60 {
                                range_err = "second";
                            } else if value.len() >= 2
                                && (value[0] == b'.' || value[0] == b',')
                                && is_digit(value, 1)
                            {
                                let mut n = 2;
                                while is_digit(value, n) {
                                    n += 1;
                                }
                                nsec = parse_nanoseconds(value, n);
                                value = &value[n..];
                            }
                        }
                    }
                }
                Err(()) => bad = true,
            },
            _ => {
                if value.first() == Some(&b'Z') {
                    value = &value[1..];
                    offset = Some(0);
                } else if value.len() < 6 || value[3] != b':' {
                    bad = true;
                } else {
                    let (sign, hh, mm) = (value[0], &value[1..3], &value[4..6]);
                    value = &value[6..];
                    let hr = getnum(hh, true).map(|r| r.0);
                    let mi = hr.and_then(|_| getnum(mm, true).map(|r| r.0));
                    let (h, m) = (hr.unwrap_or(0), mi.unwrap_or(0));
                    bad = mi.is_err();
                    if h > 24 {
                        range_err = "time zone offset hour";
                    }
                    if m > 60 {
                        range_err = "time zone offset minute";
                    }
                    let off = ((h * 60 + m) * 60) as i32;
                    match sign {
                        b'+' => offset = Some(off),
                        b'-' => offset = Some(-off),
                        _ => bad = true,
                    }
                }
            }
        }
        if !range_err.is_empty() {
            return Err(perr(std, value, format!(": {range_err} out of range")));
        }
        if bad {
            return Err(perr(std, hold, ""));
        }
    }
    if !value.is_empty() {
        let extra = String::from_utf8_lossy(value);
        return Err(perr(
            "",
            value,
            format!(": extra text: {}", crate::gostd::time::time_quote(&extra)),
        ));
    }
    if day < 1 || day > days_in(month, year) {
        return Err(perr("", value, ": day out of range"));
    }
    Ok(Time::date(
        year,
        month,
        day,
        hour,
        min,
        sec,
        nsec,
        offset.unwrap_or(0),
    ))
}

/// Go's `time.Parse(time.RFC3339, s)`.
fn go_parse(s: &[u8]) -> Result<Time, ParseError> {
    match parse_fast(s) {
        Some(t) => Ok(t),
        None => parse_layout(s),
    }
}

/// cty's `parseStrictRFC3339`.
fn cty_parse(s: &[u8]) -> Result<Time, ParseError> {
    if let Some(t) = parse_fast(s) {
        return Ok(t);
    }
    parse_layout(s)?;
    let num2 = |b: &[u8]| (b[0].wrapping_sub(b'0')) * 10 + b[1].wrapping_sub(b'0');
    if s[12] == b':' {
        return Err(perr("15", &s[11..12], ": hour must have two digits"));
    }
    if s[19] == b',' {
        return Err(perr(".", b",", ": sub-second separator must be a period"));
    }
    if s[s.len() - 1] != b'Z' {
        let zone = &s[s.len() - 6..];
        if num2(&s[s.len() - 5..]) >= 24 {
            return Err(perr("Z07:00", zone, ": timezone hour out of range"));
        }
        if num2(&s[s.len() - 2..]) >= 60 {
            return Err(perr("Z07:00", zone, ": timezone minute out of range"));
        }
        // cty then returns the zero time its failed fast parse left behind.
        return Ok(Time::zero());
    }
    Err(perr("2006-01-02T15:04:05Z07:00", s, ""))
}

/// cty's `parseTimestamp` (used by `formatdate` and `timeadd`).
pub(super) fn parse_cty(s: &str) -> Result<Time, String> {
    cty_parse(s.as_bytes()).map_err(|e| explain(&e, true))
}

/// Terraform's `parseTimestamp` (used by `timecmp`).
pub(super) fn parse_terraform(s: &str) -> Result<Time, String> {
    go_parse(s.as_bytes()).map_err(|e| explain(&e, false))
}

/// The friendlier messages cty and Terraform make from a `time.ParseError`; cty's has three
/// more special cases for hours and minutes.
fn explain(e: &ParseError, cty: bool) -> String {
    const PREFIX: &str = "not a valid RFC3339 timestamp";
    if e.layout_elem.is_empty() && e.value_elem.is_empty() && !e.message.is_empty() {
        return format!("{PREFIX}{}", e.message);
    }
    let what = match e.layout_elem.as_str() {
        "2006" => "year",
        "01" => "month",
        "02" => "day of month",
        "15" => "hour",
        "04" => "minute",
        "05" => "second",
        "Z07:00" => "UTC offset",
        "T" => return format!("{PREFIX}: missing required time introducer 'T'"),
        ":" | "-" => {
            return if e.value_elem.is_empty() {
                format!(
                    "{PREFIX}: end of string where {} is expected",
                    quote_bytes(e.layout_elem.as_bytes())
                )
            } else {
                format!(
                    "{PREFIX}: found {} where {} is expected",
                    quote_bytes(&e.value_elem),
                    quote_bytes(e.layout_elem.as_bytes())
                )
            };
        }
        _ => "timestamp segment",
    };
    if e.value_elem.is_empty() {
        return format!("{PREFIX}: end of string before {what}");
    }
    if cty {
        if what == "hour" && e.value_elem.contains(&b':') {
            return format!("{PREFIX}: hour must be between 0 and 23 inclusive");
        }
        if what == "hour" && e.value_elem.len() != 2 {
            return format!("{PREFIX}: hour must have exactly two digits");
        }
        if what == "minute" && e.value_elem.len() != 2 {
            return format!("{PREFIX}: minute must have exactly two digits");
        }
    }
    format!(
        "{PREFIX}: cannot use {} as {what}",
        quote_bytes(&e.value_elem)
    )
}

/// Go's `%q` of a byte string: invalid UTF-8 bytes as `\xNN`.
fn quote_bytes(b: &[u8]) -> String {
    let mut out = String::from("\"");
    for chunk in b.utf8_chunks() {
        let quoted = super::super::conversion::go_quote(chunk.valid());
        out.push_str(&quoted[1..quoted.len() - 1]);
        for byte in chunk.invalid() {
            out.push_str(&format!("\\x{byte:02x}"));
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests;
