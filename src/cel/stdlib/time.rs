//! Timestamps and durations as cel-go handles them with Go's `time` package: RFC 3339
//! parsing (`time.Parse(time.RFC3339, …)`), `time.ParseDuration`, `RFC3339Nano` and
//! `strconv.FormatFloat` formatting, checked arithmetic, and time zones (IANA names read from
//! the system's TZif files as Go's `time.LoadLocation` does, or `±HH:MM` offsets).

use crate::cel::value::{Duration, Error, Timestamp};
use std::collections::HashMap;
use std::sync::{Arc, LazyLock, Mutex};

/// cel-go's earliest timestamp: 0001-01-01T00:00:00Z.
pub const MIN_UNIX: i64 = -62_135_596_800;
/// cel-go's latest timestamp: 9999-12-31T23:59:59Z.
pub const MAX_UNIX: i64 = 253_402_300_799;

const NANOS: i64 = 1_000_000_000;

/// cel-go's `timestamp overflow`.
pub fn timestamp_overflow() -> Error {
    Error::new("timestamp overflow")
}

/// cel-go's `integer overflow`.
pub fn int_overflow() -> Error {
    Error::new("integer overflow")
}

/// Days since 1970-01-01 of a civil date (proleptic Gregorian).
pub fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The civil date (year, month 1-12, day 1-31) of a day count since 1970-01-01.
pub fn civil_from_days(z: i64) -> (i64, i64, i64) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (if m <= 2 { y + 1 } else { y }, m, d)
}

fn is_leap(y: i64) -> bool {
    y % 4 == 0 && (y % 100 != 0 || y % 400 == 0)
}

fn days_in(m: i64, y: i64) -> i64 {
    match m {
        2 if is_leap(y) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// A broken-down local time, as Go's `time.Time` accessors report it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Civil {
    /// The year.
    pub year: i64,
    /// 1-12.
    pub month: i64,
    /// 1-31.
    pub day: i64,
    /// 0-23.
    pub hour: i64,
    /// 0-59.
    pub minute: i64,
    /// 0-59.
    pub second: i64,
    /// 0-999999999.
    pub nanos: i64,
    /// 0 (Sunday) to 6.
    pub weekday: i64,
    /// 1-366.
    pub yday: i64,
}

/// The civil time of a timestamp shifted by `offset` seconds east of UTC.
pub fn civil(ts: Timestamp, offset: i64) -> Civil {
    let local = ts.secs.saturating_add(offset);
    let days = local.div_euclid(86_400);
    let rem = local.rem_euclid(86_400);
    let (year, month, day) = civil_from_days(days);
    Civil {
        year,
        month,
        day,
        hour: rem / 3600,
        minute: rem % 3600 / 60,
        second: rem % 60,
        nanos: i64::from(ts.nanos),
        // 1970-01-01 was a Thursday
        weekday: (days + 4).rem_euclid(7),
        yday: days - days_from_civil(year, 1, 1) + 1,
    }
}

/// Go's `time.Parse(time.RFC3339, s)` (its strict fast path), range-checked as cel-go does.
/// `None` when the text is not a timestamp (cel-go then reports a conversion error).
pub fn parse_rfc3339(s: &str) -> Option<Result<Timestamp, Error>> {
    let b = s.as_bytes();
    if b.len() < 19 {
        return None;
    }
    let num = |from: usize, to: usize, min: i64, max: i64| -> Option<i64> {
        let mut v: i64 = 0;
        for &c in b.get(from..to)? {
            if !c.is_ascii_digit() {
                return None;
            }
            v = v * 10 + i64::from(c - b'0');
        }
        (min..=max).contains(&v).then_some(v)
    };
    let year = num(0, 4, 0, 9999)?;
    let month = num(5, 7, 1, 12)?;
    let day = num(8, 10, 1, days_in(month, year))?;
    let hour = num(11, 13, 0, 23)?;
    let minute = num(14, 16, 0, 59)?;
    let second = num(17, 19, 0, 59)?;
    if !(b[4] == b'-' && b[7] == b'-' && b[10] == b'T' && b[13] == b':' && b[16] == b':') {
        return None;
    }
    let mut rest = &b[19..];
    let mut nanos: i64 = 0;
    if rest.len() >= 2 && rest[0] == b'.' && rest[1].is_ascii_digit() {
        let n = rest[1..].iter().take_while(|c| c.is_ascii_digit()).count();
        // Go keeps the first nine digits
        let digits = &rest[1..1 + n.min(9)];
        for &c in digits {
            nanos = nanos * 10 + i64::from(c - b'0');
        }
        for _ in digits.len()..9 {
            nanos *= 10;
        }
        rest = &rest[1 + n..];
    }
    let mut secs = days_from_civil(year, month, day) * 86_400 + hour * 3600 + minute * 60 + second;
    let mut offset: i64 = 0;
    if rest != b"Z" {
        if rest.len() != 6 {
            return None;
        }
        let oh = num(b.len() - 5, b.len() - 3, 0, 23)?;
        let om = num(b.len() - 2, b.len(), 0, 59)?;
        if !((rest[0] == b'-' || rest[0] == b'+') && rest[3] == b':') {
            return None;
        }
        let off = (oh * 60 + om) * 60;
        offset = if rest[0] == b'-' { -off } else { off };
        secs -= offset;
    }
    if !(MIN_UNIX..=MAX_UNIX).contains(&secs) {
        return Some(Err(timestamp_overflow()));
    }
    // Go's `time.Parse` keeps the offset (a fixed zone), which `string()` shows
    Some(Ok(
        Timestamp::new(secs, nanos as u32).with_offset(i32::try_from(offset).unwrap_or(0))
    ))
}

/// Go's `t.Format(time.RFC3339Nano)`, at the timestamp's offset (`Z` for UTC).
pub fn format_rfc3339(ts: Timestamp) -> String {
    let offset = i64::from(ts.offset);
    let c = civil(ts, offset);
    let mut s = format!(
        "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}",
        c.year, c.month, c.day, c.hour, c.minute, c.second
    );
    if ts.nanos != 0 {
        let frac = format!("{:09}", ts.nanos);
        s.push('.');
        s.push_str(frac.trim_end_matches('0'));
    }
    if offset == 0 {
        s.push('Z');
    } else {
        // Go's `Z07:00`: the sign, hours and minutes (seconds of the offset dropped)
        let sign = if offset < 0 { '-' } else { '+' };
        let minutes = offset.unsigned_abs() / 60;
        s.push_str(&format!("{sign}{:02}:{:02}", minutes / 60, minutes % 60));
    }
    s
}

/// Go's `time.ParseDuration`; `None` on any error (cel-go then reports a conversion error).
pub fn parse_duration(s: &str) -> Option<Duration> {
    crate::gostd::time::parse_duration(s)
        .ok()
        .map(|nanos| Duration { nanos })
}

/// Go's `Duration.Seconds()` formatted with `strconv.FormatFloat(…, 'f', -1, 64)` and `s`.
pub fn format_duration(d: Duration) -> String {
    format!("{}s", seconds_f64(d))
}

fn seconds_f64(d: Duration) -> f64 {
    let sec = d.nanos / NANOS;
    let nsec = d.nanos % NANOS;
    sec as f64 + nsec as f64 / 1e9
}

/// Go's `Duration.Hours()`, `Minutes()`, `Seconds()` truncated to int as cel-go does, and
/// `Milliseconds()`.
pub fn duration_part(d: Duration, unit: &str) -> i64 {
    let n = d.nanos;
    match unit {
        "hours" => {
            let h = n / 3_600_000_000_000;
            let r = n % 3_600_000_000_000;
            (h as f64 + r as f64 / 3.6e12) as i64
        }
        "minutes" => {
            let m = n / 60_000_000_000;
            let r = n % 60_000_000_000;
            (m as f64 + r as f64 / 6e10) as i64
        }
        "seconds" => seconds_f64(d) as i64,
        _ => n / 1_000_000,
    }
}

/// `timestamp + duration`, cel-go's `addTimeDurationChecked`.
pub fn add(ts: Timestamp, d: Duration) -> Result<Timestamp, Error> {
    let mut sec = ts
        .secs
        .checked_add(d.nanos / NANOS)
        .ok_or_else(int_overflow)?;
    let mut nsec = i64::from(ts.nanos) + d.nanos % NANOS;
    if !(0..NANOS).contains(&nsec) {
        sec = sec.checked_add(nsec / NANOS).ok_or_else(int_overflow)?;
        nsec -= (nsec / NANOS) * NANOS;
        if nsec < 0 {
            sec = sec.checked_sub(1).ok_or_else(int_overflow)?;
            nsec += NANOS;
        }
    }
    if !(MIN_UNIX..=MAX_UNIX).contains(&sec) {
        return Err(timestamp_overflow());
    }
    // Go's `Time.Add` keeps the location
    Ok(Timestamp::new(sec, nsec as u32).with_offset(ts.offset))
}

/// `timestamp - duration`.
pub fn sub(ts: Timestamp, d: Duration) -> Result<Timestamp, Error> {
    let neg = d.nanos.checked_neg().ok_or_else(int_overflow)?;
    add(ts, Duration { nanos: neg })
}

/// `timestamp - timestamp`, cel-go's `subtractTimeChecked`.
pub fn diff(a: Timestamp, b: Timestamp) -> Result<Duration, Error> {
    let sec = a.secs.checked_sub(b.secs).ok_or_else(int_overflow)?;
    let nsec = i64::from(a.nanos) - i64::from(b.nanos);
    let nanos = sec
        .checked_mul(NANOS)
        .and_then(|t| t.checked_add(nsec))
        .ok_or_else(int_overflow)?;
    Ok(Duration { nanos })
}

/// The offset east of UTC, in seconds, of time zone `tz` at `ts`, as cel-go's `timeZone`:
/// a name without `:` is an IANA location, otherwise `[+-]HH:MM` parsed with `strconv.Atoi`.
pub fn zone_offset(ts: Timestamp, tz: &str) -> Result<i64, Error> {
    let Some(colon) = tz.find(':') else {
        let zone = load_location(tz)?;
        return Ok(zone.offset_at(ts.secs));
    };
    let hr = atoi(&tz[..colon])?;
    let min = atoi(&tz[colon + 1..])?;
    let offset = if tz.starts_with('-') {
        hr.wrapping_mul(60).wrapping_sub(min)
    } else {
        hr.wrapping_mul(60).wrapping_add(min)
    };
    // Go: int((time.Duration(offset) * time.Minute).Seconds()), wrapping as Go does
    let nanos = offset.wrapping_mul(60_000_000_000);
    Ok(seconds_f64(Duration { nanos }) as i64)
}

/// Go's `strconv.Atoi` with its error text.
fn atoi(s: &str) -> Result<i64, Error> {
    let digits = s.strip_prefix(['+', '-']).unwrap_or(s);
    if digits.is_empty() || !digits.bytes().all(|c| c.is_ascii_digit()) {
        return Err(Error::new(format!(
            "strconv.Atoi: parsing {}: invalid syntax",
            go_quote(s)
        )));
    }
    s.parse::<i64>().map_err(|_| {
        Error::new(format!(
            "strconv.Atoi: parsing {}: value out of range",
            go_quote(s)
        ))
    })
}

/// Go's `strconv.Quote` for the texts error messages show.
pub fn go_quote(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if (c as u32) < 0x20 || c as u32 == 0x7f => {
                out.push_str(&format!("\\x{:02x}", c as u32));
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A time zone: transitions from a TZif file and the footer's rule for later times.
#[derive(Debug, Default)]
pub struct Zone {
    /// Transition times (Unix seconds) and the offset in force from each.
    transitions: Vec<(i64, i64)>,
    /// The offset before the first transition.
    initial: i64,
    /// The POSIX TZ rule for times after the last transition.
    rule: Option<Rule>,
}

#[derive(Debug)]
struct Rule {
    std_offset: i64,
    dst: Option<(i64, RuleDate, i64, RuleDate, i64)>,
}

#[derive(Debug, Clone, Copy)]
enum RuleDate {
    /// Jn: day 1-365, February 29 never counted.
    Julian(i64),
    /// n: day 0-365.
    Day(i64),
    /// Mm.w.d
    Month(i64, i64, i64),
}

impl Zone {
    fn offset_at(&self, t: i64) -> i64 {
        match self.transitions.partition_point(|(at, _)| *at <= t) {
            0 if self.transitions.is_empty() => self.rule_offset(t).unwrap_or(self.initial),
            0 => self.initial,
            i if i == self.transitions.len() => {
                self.rule_offset(t).unwrap_or(self.transitions[i - 1].1)
            }
            i => self.transitions[i - 1].1,
        }
    }

    fn rule_offset(&self, t: i64) -> Option<i64> {
        let rule = self.rule.as_ref()?;
        let Some((dst_offset, start, start_time, end, end_time)) = rule.dst else {
            return Some(rule.std_offset);
        };
        let (year, _, _) = civil_from_days(t.div_euclid(86_400));
        let year_start = days_from_civil(year, 1, 1) * 86_400;
        // transition instants in UTC: start is in standard time, end in daylight time
        let s = year_start + rule_day(start, year) * 86_400 + start_time - rule.std_offset;
        let e = year_start + rule_day(end, year) * 86_400 + end_time - dst_offset;
        let in_dst = if s < e {
            t >= s && t < e
        } else {
            !(t >= e && t < s)
        };
        Some(if in_dst { dst_offset } else { rule.std_offset })
    }
}

/// The 0-based day of the year a rule date falls on.
fn rule_day(d: RuleDate, year: i64) -> i64 {
    match d {
        RuleDate::Julian(n) => {
            if is_leap(year) && n >= 60 {
                n
            } else {
                n - 1
            }
        }
        RuleDate::Day(n) => n,
        RuleDate::Month(m, w, wd) => {
            let first = days_from_civil(year, m, 1);
            let first_wd = (first + 4).rem_euclid(7);
            let mut day = (wd - first_wd).rem_euclid(7);
            // the week is 1 to 5, 5 meaning the last
            for _ in 1..w.clamp(1, 5) {
                if day + 7 >= days_in(m, year) {
                    break;
                }
                day += 7;
            }
            first + day - days_from_civil(year, 1, 1)
        }
    }
}

/// Go's `time.LoadLocation`: `""` and `UTC` are UTC; other names are read from the system
/// zoneinfo directories; errors worded as Go's.
pub fn load_location(name: &str) -> Result<Arc<Zone>, Error> {
    static CACHE: LazyLock<Mutex<HashMap<String, Arc<Zone>>>> = LazyLock::new(Default::default);
    // "Local" is the API server's own zone: UTC in its containers
    if name.is_empty() || name == "UTC" || name == "Local" {
        return Ok(Arc::new(Zone::default()));
    }
    if name.contains("..") || name.starts_with('/') || name.starts_with('\\') {
        return Err(Error::new("time: invalid location name"));
    }
    if let Some(z) = CACHE.lock().ok().and_then(|c| c.get(name).cloned()) {
        return Ok(z);
    }
    let unknown = || Error::new(format!("unknown time zone {name}"));
    let dirs = [
        "/usr/share/zoneinfo/",
        "/usr/share/lib/zoneinfo/",
        "/usr/lib/locale/TZ/",
        "/etc/zoneinfo/",
    ];
    let data = dirs
        .iter()
        .find_map(|d| std::fs::read(format!("{d}{name}")).ok())
        .ok_or_else(unknown)?;
    let zone = Arc::new(parse_tzif(&data).ok_or_else(unknown)?);
    if let Ok(mut cache) = CACHE.lock() {
        if cache.len() > 64 {
            cache.clear();
        }
        cache.insert(name.to_string(), zone.clone());
    }
    Ok(zone)
}

fn be(data: &[u8], at: usize, n: usize) -> Option<i64> {
    let bytes = data.get(at..at + n)?;
    let mut v: u64 = 0;
    for &b in bytes {
        v = (v << 8) | u64::from(b);
    }
    Some(match n {
        4 => i64::from(v as u32 as i32),
        _ => v as i64,
    })
}

/// Parses a TZif file (versions 1 to 4).
fn parse_tzif(data: &[u8]) -> Option<Zone> {
    if data.get(0..4)? != b"TZif" {
        return None;
    }
    let version = *data.get(4)?;
    let counts = |at: usize| -> Option<[usize; 6]> {
        let mut c = [0usize; 6];
        for (i, slot) in c.iter_mut().enumerate() {
            *slot = usize::try_from(be(data, at + 20 + 4 * i, 4)?).ok()?;
        }
        Some(c)
    };
    let [isut, isstd, leap, time, typ, chars] = counts(0)?;
    let v1_len = time * 5 + typ * 6 + chars + leap * 8 + isstd + isut;
    let (base, width, [isut, isstd, leap, time, typ, chars]) = if version >= b'2' {
        let at = 44 + v1_len;
        (at, 8, counts(at)?)
    } else {
        (0, 4, [isut, isstd, leap, time, typ, chars])
    };
    let mut p = base + 44;
    let mut times = Vec::with_capacity(time);
    for i in 0..time {
        times.push(be(data, p + i * width, width)?);
    }
    p += time * width;
    let idx = data.get(p..p + time)?;
    p += time;
    let mut offsets = Vec::with_capacity(typ);
    for i in 0..typ {
        offsets.push(be(data, p + i * 6, 4)?);
    }
    p += typ * 6 + chars + leap * (width + 4) + isstd + isut;
    let transitions = times
        .iter()
        .zip(idx)
        .map(|(t, i)| Some((*t, *offsets.get(usize::from(*i))?)))
        .collect::<Option<Vec<_>>>()?;
    // Go uses the first type for times before the first transition
    let initial = offsets.first().copied().unwrap_or(0);
    // v2+: a newline-enclosed POSIX TZ string for times after the last transition
    let rule = (version >= b'2')
        .then(|| {
            let text = std::str::from_utf8(data.get(p..)?).ok()?;
            parse_rule(text.strip_prefix('\n')?.split('\n').next()?)
        })
        .flatten();
    Some(Zone {
        transitions,
        initial,
        rule,
    })
}

/// Parses a POSIX TZ string such as `PST8PDT,M3.2.0,M11.1.0`.
fn parse_rule(s: &str) -> Option<Rule> {
    let mut rest = s;
    let skip_name = |r: &mut &str| -> Option<()> {
        if let Some(x) = r.strip_prefix('<') {
            let end = x.find('>')?;
            *r = &x[end + 1..];
        } else {
            let n = r.chars().take_while(|c| c.is_ascii_alphabetic()).count();
            if n < 3 {
                return None;
            }
            *r = &r[n..];
        }
        Some(())
    };
    // [+-]hh[:mm[:ss]]
    let offset = |r: &mut &str| -> Option<i64> {
        let mut sign = 1;
        if let Some(x) = r.strip_prefix('-') {
            sign = -1;
            *r = x;
        } else if let Some(x) = r.strip_prefix('+') {
            *r = x;
        }
        let mut total = 0;
        let mut mult = 3600;
        loop {
            let n = r.bytes().take_while(u8::is_ascii_digit).count();
            if n == 0 {
                return None;
            }
            let part = r[..n].parse::<i64>().ok()?.checked_mul(mult)?;
            total = part.checked_add(total)?;
            *r = &r[n..];
            match r.strip_prefix(':') {
                Some(x) if mult > 1 => {
                    *r = x;
                    mult /= 60;
                }
                _ => break,
            }
        }
        Some(sign * total)
    };
    skip_name(&mut rest)?;
    if rest.is_empty() {
        return None;
    }
    // POSIX offsets are west of UTC
    let std_offset = -offset(&mut rest)?;
    if rest.is_empty() {
        return Some(Rule {
            std_offset,
            dst: None,
        });
    }
    skip_name(&mut rest)?;
    let mut dst_offset = std_offset + 3600;
    if !rest.starts_with(',') && !rest.is_empty() {
        dst_offset = -offset(&mut rest)?;
    }
    let date = |r: &mut &str| -> Option<(RuleDate, i64)> {
        *r = r.strip_prefix(',')?;
        let num = |r: &mut &str| -> Option<i64> {
            let n = r.bytes().take_while(u8::is_ascii_digit).count();
            let v = r.get(..n)?.parse().ok()?;
            *r = &r[n..];
            Some(v)
        };
        let d = if let Some(x) = r.strip_prefix('J') {
            *r = x;
            RuleDate::Julian(num(r)?)
        } else if let Some(x) = r.strip_prefix('M') {
            *r = x;
            let m = num(r)?;
            *r = r.strip_prefix('.')?;
            let w = num(r)?;
            *r = r.strip_prefix('.')?;
            RuleDate::Month(m, w, num(r)?)
        } else {
            RuleDate::Day(num(r)?)
        };
        let mut time = 7200;
        if let Some(x) = r.strip_prefix('/') {
            *r = x;
            time = offset(r)?;
        }
        Some((d, time))
    };
    let (start, start_time) = date(&mut rest)?;
    let (end, end_time) = date(&mut rest)?;
    Some(Rule {
        std_offset,
        dst: Some((dst_offset, start, start_time, end, end_time)),
    })
}
