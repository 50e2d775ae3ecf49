//! The string `format`s the API server checks (apiextensions-apiserver's supported set at
//! compatibility version 1.34; any other format, `int32` and `int64` included, is ignored).

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

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

fn re(pattern: &str) -> regex::Regex {
    regex::Regex::new(pattern).expect("a constant pattern")
}

/// Whether `value` has `format` (a supported one). Formats whose checks are not reproduced
/// (ISBN, credit card, SSN, colours, BSON ids) accept everything.
pub fn valid(format: &str, value: &str) -> bool {
    match format.replace('-', "").as_str() {
        "datetime" => date_time(value),
        "date" => date(value),
        "byte" => {
            use base64::Engine;
            base64::engine::general_purpose::STANDARD
                .decode(value)
                .is_ok()
        }
        "uuid" => re(r"(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$")
            .is_match(value),
        "uuid3" => re(r"(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?3[0-9a-f]{3}-?[0-9a-f]{4}-?[0-9a-f]{12}$")
            .is_match(value),
        "uuid4" => {
            re(r"(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?4[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$")
                .is_match(value)
        }
        "uuid5" => {
            re(r"(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?5[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$")
                .is_match(value)
        }
        "ipv4" => value.contains('.') && value.parse::<Ipv4Addr>().is_ok(),
        "ipv6" => value.contains(':') && value.parse::<Ipv6Addr>().is_ok(),
        "cidr" => cidr(value),
        "mac" => re(r"(?i)^([0-9a-f]{2}[:-]){5}([0-9a-f]{2})$|^([0-9a-f]{4}\.){2}[0-9a-f]{4}$")
            .is_match(value),
        "hostname" => hostname(value),
        "email" => re(r"^[^@\s]+@[^@\s]+$").is_match(value),
        "uri" => re(r"^[A-Za-z][A-Za-z0-9+.-]*:").is_match(value),
        "duration" => duration(value),
        "k8sshortname" => short_name(value),
        "k8slongname" => {
            value.len() <= 253 && !value.is_empty() && value.split('.').all(short_name)
        }
        _ => true,
    }
}

fn short_name(value: &str) -> bool {
    value.len() <= 63 && re(r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?$").is_match(value)
}

fn date(value: &str) -> bool {
    let Some(caps) = re(r"^(\d{4})-(\d{2})-(\d{2})$").captures(value) else {
        return false;
    };
    let n = |i: usize| caps[i].parse::<u32>().unwrap_or(0);
    let (y, m, d) = (n(1), n(2), n(3));
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

fn date_time(value: &str) -> bool {
    let Some(split) = value.find(['t', 'T']) else {
        return false;
    };
    let (day, time) = (&value[..split], &value[split + 1..]);
    if !date(day) {
        return false;
    }
    let Some(caps) =
        re(r"(?i)^([0-9]{2}):([0-9]{2}):([0-9]{2})(\.[0-9]+)?(z|([+-][0-9]{2}:[0-9]{2}))$")
            .captures(time)
    else {
        return false;
    };
    let n = |i: usize| caps[i].parse::<u32>().unwrap_or(99);
    n(1) <= 23 && n(2) <= 59 && n(3) <= 59
}

fn cidr(value: &str) -> bool {
    let Some((ip, bits)) = value.split_once('/') else {
        return false;
    };
    let Ok(bits) = bits.parse::<u8>() else {
        return false;
    };
    match ip.parse::<IpAddr>() {
        Ok(IpAddr::V4(_)) => bits <= 32,
        Ok(IpAddr::V6(_)) => bits <= 128,
        Err(_) => false,
    }
}

fn hostname(value: &str) -> bool {
    value.len() <= 255
        && re(r"^([a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)(\.[a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*\.?$")
            .is_match(value)
}

/// Go durations as strfmt reads them (`1h30m`, `300ms`, also `1 day`-style units).
fn duration(value: &str) -> bool {
    re(r"^[-+]?([0-9]*(\.[0-9]*)?\s*(ns|us|µs|ms|s|m|h|d|w|y)\s*)+$").is_match(value.trim())
        && value.trim().chars().any(|c| c.is_ascii_digit())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_are_checked_as_the_api_server_checks_them() {
        assert!(supported("date-time") && supported("k8s-short-name") && !supported("int64"));
        assert!(valid("date-time", "2024-01-01T00:00:00Z"));
        assert!(valid("date-time", "2024-02-29t23:59:59.5+02:00"));
        assert!(!valid("date-time", "2023-02-29T00:00:00Z"));
        assert!(!valid("date-time", "yesterday"));
        assert!(valid("date", "2024-12-31") && !valid("date", "2024-13-01"));
        assert!(valid("byte", "aGVsbG8=") && !valid("byte", "not base64!"));
        assert!(valid("ipv4", "10.0.0.1") && !valid("ipv4", "10.0.0.256"));
        assert!(valid("cidr", "10.0.0.0/16") && !valid("cidr", "10.0.0.0/33"));
        assert!(valid("k8s-short-name", "my-bucket") && !valid("k8s-short-name", "My_Bucket"));
        assert!(valid("k8s-long-name", "a.b-c.d") && !valid("k8s-long-name", "a..b"));
        assert!(valid("uuid", "123e4567-e89b-12d3-a456-426614174000"));
        assert!(valid("duration", "1h30m") && !valid("duration", "soon"));
    }
}
