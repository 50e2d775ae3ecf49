//! Built-in functions: the date and time family — `formatdate` and `timeadd` (cty's stdlib),
//! `timecmp` and `timestamp` (Terraform's).
//!
//! Timestamps are RFC 3339 strings; `formatdate` and `timeadd` parse them with cty's strict
//! parser, `timecmp` with Go's more lenient `time.Parse` (see [`rfc3339`]). Durations are Go's
//! (`time.ParseDuration`).

mod rfc3339;

use super::{Function, FunctionError, FunctionTable, Param};
use crate::eval::num::Num;
use crate::eval::types::Type;
use crate::eval::value::Value;
use rfc3339::Time;
use std::cmp::Ordering;

/// Registers this family's functions.
pub(super) fn register(table: &mut FunctionTable) {
    let string = |name| Param::new(name, Type::String);
    table.insert(Function::new(
        "formatdate",
        vec![string("format"), string("time")],
        None,
        Type::String,
        |args, _| {
            let format = super::args::string(args, 0)?;
            let time = rfc3339::parse_cty(super::args::string(args, 1)?)
                .map_err(|e| FunctionError::arg(1, e))?;
            format_date(format, &time).map(Value::string_owned)
        },
    ));
    table.insert(Function::new(
        "timeadd",
        vec![string("timestamp"), string("duration")],
        None,
        Type::String,
        |args, _| {
            let time =
                rfc3339::parse_cty(super::args::string(args, 0)?).map_err(FunctionError::other)?;
            let nanos = crate::gostd::time::parse_duration(super::args::string(args, 1)?)
                .map_err(FunctionError::other)?;
            Ok(Value::string(time.add(nanos).rfc3339()))
        },
    ));
    table.insert(Function::new(
        "timecmp",
        vec![string("timestamp_a"), string("timestamp_b")],
        None,
        Type::Number,
        |args, _| {
            let a = rfc3339::parse_terraform(super::args::string(args, 0)?)
                .map_err(|e| FunctionError::arg(0, e))?;
            let b = rfc3339::parse_terraform(super::args::string(args, 1)?)
                .map_err(|e| FunctionError::arg(1, e))?;
            let n = match a.instant().cmp(&b.instant()) {
                Ordering::Equal => 0,
                Ordering::Less => -1,
                Ordering::Greater => 1,
            };
            Ok(Value::Number(Num::from_i64(n)))
        },
    ));
    table.insert(Function::new(
        "timestamp",
        Vec::new(),
        None,
        Type::String,
        |_, _| Ok(Value::string(now().rfc3339())),
    ));
}

/// The time `timestamp()` returns when pinned (seconds since the epoch), or `i64::MIN`.
static PINNED: std::sync::atomic::AtomicI64 = std::sync::atomic::AtomicI64::new(i64::MIN);

/// Makes `timestamp()` return this instant (seconds since the Unix epoch, UTC) instead of the
/// real clock, for reproducible output (`SOURCE_DATE_EPOCH`). For the whole process.
pub fn pin_clock(secs: i64) {
    PINNED.store(secs, std::sync::atomic::Ordering::Relaxed);
}

/// The real clock, in UTC, or the pinned instant.
fn now() -> Time {
    let pinned = PINNED.load(std::sync::atomic::Ordering::Relaxed);
    if pinned != i64::MIN {
        return Time {
            secs: pinned,
            nsec: 0,
            offset: 0,
        };
    }
    let (secs, nsec) = match std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH) {
        Ok(d) => (d.as_secs() as i64, d.subsec_nanos()),
        Err(e) => {
            let d = e.duration();
            let total = -(d.as_nanos() as i128);
            (
                total.div_euclid(1_000_000_000) as i64,
                total.rem_euclid(1_000_000_000) as u32,
            )
        }
    };
    Time {
        secs,
        nsec,
        offset: 0,
    }
}

const MONTHS: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];

const WEEKDAYS: [&str; 7] = [
    "Sunday",
    "Monday",
    "Tuesday",
    "Wednesday",
    "Thursday",
    "Friday",
    "Saturday",
];

const ESC: u8 = b'\'';

fn is_verb(b: u8) -> bool {
    b.is_ascii_alphabetic()
}

/// cty's `splitDateFormat` over the whole format (as `bufio.Scanner` ends up applying it):
/// a quoted literal (or a doubled quote), a run of one verb letter, or other literal text.
fn split_date_format(data: &[u8]) -> Vec<&[u8]> {
    let mut tokens = Vec::new();
    let mut rest = data;
    while !rest.is_empty() {
        let n = if rest[0] == ESC {
            if rest.len() > 1 && rest[1] == ESC {
                2
            } else {
                let mut end = rest.len();
                let mut i = 1;
                while i < rest.len() {
                    if rest[i] == ESC {
                        if i + 1 == rest.len() {
                            break;
                        }
                        if rest[i + 1] == ESC {
                            i += 2;
                            continue;
                        }
                        end = i + 1;
                        break;
                    }
                    i += 1;
                }
                end
            }
        } else if is_verb(rest[0]) {
            rest.iter()
                .position(|&b| b != rest[0])
                .unwrap_or(rest.len())
        } else {
            rest[1..]
                .iter()
                .position(|&b| b == ESC || is_verb(b))
                .map_or(rest.len(), |i| i + 1)
        };
        let (tok, tail) = rest.split_at(n);
        tokens.push(tok);
        rest = tail;
    }
    tokens
}

/// cty's `formatdate`.
fn format_date(format: &str, t: &Time) -> Result<String, FunctionError> {
    let c = t.civil();
    let mut buf: Vec<u8> = Vec::new();
    for tok in split_date_format(format.as_bytes()) {
        if tok[0] == ESC {
            if tok[tok.len() - 1] != ESC || tok.len() == 1 {
                return Err(FunctionError::arg(0, "unterminated literal '"));
            }
            if tok.len() == 2 {
                buf.push(ESC);
            } else {
                let raw = &tok[1..tok.len() - 1];
                let mut i = 0;
                while i < raw.len() {
                    buf.push(raw[i]);
                    if raw[i] == ESC {
                        i += 1;
                    }
                    i += 1;
                }
            }
            continue;
        }
        if !is_verb(tok[0]) {
            buf.extend_from_slice(tok);
            continue;
        }
        let verb = std::str::from_utf8(tok).unwrap_or_default();
        let quoted = super::conversion::go_quote(verb);
        let bad = |what: &str| {
            let message = if what.is_empty() {
                format!("invalid date format verb {quoted}")
            } else {
                format!("invalid date format verb {quoted}: {what}")
            };
            Err(FunctionError::arg(0, message))
        };
        let len = tok.len();
        let two = |n: u32| format!("{n:02}");
        let out = match tok[0] {
            b'Y' => match len {
                2 => format!("{:02}", c.year % 100),
                4 => format!("{:04}", c.year),
                _ => return bad("year must either be \"YY\" or \"YYYY\""),
            },
            b'M' => {
                let name = MONTHS[(c.month - 1) as usize];
                match len {
                    1 => c.month.to_string(),
                    2 => two(c.month),
                    3 => name[..3].to_string(),
                    4 => name.to_string(),
                    _ => {
                        return bad("month must be \"M\", \"MM\", \"MMM\", or \"MMMM\"");
                    }
                }
            }
            b'D' => match len {
                1 => c.day.to_string(),
                2 => two(c.day),
                _ => return bad("day of month must either be \"D\" or \"DD\""),
            },
            b'E' => {
                let name = WEEKDAYS[c.weekday as usize];
                match len {
                    3 => name[..3].to_string(),
                    4 => name.to_string(),
                    _ => return bad("day of week must either be \"EEE\" or \"EEEE\""),
                }
            }
            b'h' => match len {
                1 => c.hour.to_string(),
                2 => two(c.hour),
                _ => return bad("24-hour must either be \"h\" or \"hh\""),
            },
            b'H' => {
                let h = match c.hour % 12 {
                    0 => 12,
                    h => h,
                };
                match len {
                    1 => h.to_string(),
                    2 => two(h),
                    _ => return bad("12-hour must either be \"H\" or \"HH\""),
                }
            }
            b'A' | b'a' => {
                if len != 2 {
                    let letter = tok[0] as char;
                    return bad(&format!("must be \"{letter}{letter}\""));
                }
                let pm = c.hour / 12 == 1;
                match (tok[0] == b'A', pm) {
                    (true, false) => "AM",
                    (true, true) => "PM",
                    (false, false) => "am",
                    (false, true) => "pm",
                }
                .to_string()
            }
            b'm' => match len {
                1 => c.minute.to_string(),
                2 => two(c.minute),
                _ => return bad("minute must either be \"m\" or \"mm\""),
            },
            b's' => match len {
                1 => c.second.to_string(),
                2 => two(c.second),
                _ => return bad("second must either be \"s\" or \"ss\""),
            },
            b'Z' => match len {
                1 => t.zone(true, true),
                3 => match t.zone(false, false).as_str() {
                    "+0000" => "UTC".to_string(),
                    other => other.to_string(),
                },
                4 => t.zone(false, false),
                5 => t.zone(false, true),
                _ => return bad("timezone must be Z, ZZZZ, or ZZZZZ"),
            },
            _ => return bad(""),
        };
        buf.extend_from_slice(out.as_bytes());
    }
    Ok(String::from_utf8_lossy(&buf).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fmt(format: &str, time: &str) -> Result<String, FunctionError> {
        format_date(format, &rfc3339::parse_cty(time).unwrap())
    }

    fn err(message: &str) -> Result<String, FunctionError> {
        Err(FunctionError::arg(0, message))
    }

    #[test]
    fn every_verb() {
        let t = "2006-01-02T15:04:05-07:00";
        let all = "YY YYYY M MM MMM MMMM D DD EEE EEEE h hh H HH AA aa m mm s ss Z ZZZ ZZZZ ZZZZZ";
        assert_eq!(
            fmt(all, t).unwrap(),
            "06 2006 1 01 Jan January 2 02 Mon Monday 15 15 3 03 PM pm 4 04 5 05 -07:00 -0700 -0700 -07:00"
        );
        let utc = fmt("Z ZZZ ZZZZ ZZZZZ", "2006-01-02T00:04:05Z").unwrap();
        assert_eq!(utc, "Z UTC +0000 +00:00");
        assert_eq!(fmt("H:mm aa", "2006-01-02T00:04:05Z").unwrap(), "12:04 am");
        assert_eq!(fmt("H:mm AA", "2006-01-02T12:04:05Z").unwrap(), "12:04 PM");
        assert_eq!(fmt("EEEE", "2024-02-29T00:00:00Z").unwrap(), "Thursday");
        assert_eq!(
            fmt("YYYY-MM-DD", "0000-03-01T00:00:00Z").unwrap(),
            "0000-03-01"
        );
        assert_eq!(fmt("ZZZZ", "2006-01-02T00:00:00-00:30").unwrap(), "-0030");
    }

    #[test]
    fn literals_and_quotes() {
        let t = "2018-01-02T23:12:01Z";
        assert_eq!(fmt("'literal' YYYY", t).unwrap(), "literal 2018");
        assert_eq!(fmt("''", t).unwrap(), "'");
        assert_eq!(fmt("'it''s' h", t).unwrap(), "it's 23");
        assert_eq!(fmt("'Z'", t).unwrap(), "Z");
        assert_eq!(fmt("hh:mm, é!", t).unwrap(), "23:12, é!");
        assert_eq!(fmt("'ab''", t).unwrap(), "ab'");
        assert_eq!(fmt("'abc", t), err("unterminated literal '"));
        assert_eq!(fmt("'", t), err("unterminated literal '"));
    }

    #[test]
    fn bad_verbs() {
        let t = "2018-01-02T23:12:01Z";
        assert_eq!(fmt("x", t), err("invalid date format verb \"x\""));
        assert_eq!(
            fmt("YYYYY", t),
            err("invalid date format verb \"YYYYY\": year must either be \"YY\" or \"YYYY\"")
        );
        assert_eq!(
            fmt("a", t),
            err("invalid date format verb \"a\": must be \"aa\"")
        );
        assert_eq!(
            fmt("ZZ", t),
            err("invalid date format verb \"ZZ\": timezone must be Z, ZZZZ, or ZZZZZ")
        );
    }

    #[test]
    fn a_pinned_clock_gives_that_instant() {
        pin_clock(1_700_000_000);
        assert_eq!(now().rfc3339(), "2023-11-14T22:13:20Z");
        pin_clock(i64::MIN);
    }

    #[test]
    fn timestamp_is_rfc3339_utc() {
        let s = now().rfc3339();
        assert_eq!(s.len(), 20, "{s}");
        assert!(s.ends_with('Z'));
        assert!(rfc3339::parse_cty(&s).is_ok());
    }
}
