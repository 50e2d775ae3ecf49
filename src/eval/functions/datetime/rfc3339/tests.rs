use super::*;

const P: &str = "not a valid RFC3339 timestamp";

fn cty(s: &str) -> Result<String, String> {
    parse_cty(s).map(|t| t.rfc3339())
}

fn tf(s: &str) -> Result<String, String> {
    parse_terraform(s).map(|t| t.rfc3339())
}

fn fail(m: &str) -> Result<String, String> {
    Err(format!("{P}{m}"))
}

#[test]
fn parses_valid_timestamps() {
    assert_eq!(
        cty("2017-11-22T00:00:00Z"),
        Ok("2017-11-22T00:00:00Z".into())
    );
    assert_eq!(
        cty("2017-11-22T00:00:00.999999999999+01:00"),
        Ok("2017-11-22T00:00:00+01:00".into())
    );
    assert_eq!(
        cty("2017-11-22T00:00:00-00:00"),
        Ok("2017-11-22T00:00:00Z".into())
    );
    assert_eq!(
        cty("0000-01-01T00:00:00Z"),
        Ok("0000-01-01T00:00:00Z".into())
    );
    let t = parse_cty("2017-11-22T00:00:00.123456789Z").unwrap();
    assert_eq!(t.nsec, 123_456_789);
    let t = parse_cty("2017-11-22T00:00:00.5Z").unwrap();
    assert_eq!(t.nsec, 500_000_000);
}

#[test]
fn cty_errors() {
    assert_eq!(cty("bloop"), fail(": cannot use \"bloop\" as year"));
    assert_eq!(
        cty("2017-11-22"),
        fail(": missing required time introducer 'T'")
    );
    assert_eq!(
        cty("2017-11-22 00:00:00Z"),
        fail(": missing required time introducer 'T'")
    );
    assert_eq!(cty("2017"), fail(": end of string where \"-\" is expected"));
    assert_eq!(
        cty("2017/11"),
        fail(": found \"/11\" where \"-\" is expected")
    );
    assert_eq!(
        cty("2017-13-01T00:00:00Z"),
        fail(": cannot use \"-01T00:00:00Z\" as month")
    );
    assert_eq!(cty("2017-02-30T00:00:00Z"), fail(": day out of range"));
    assert_eq!(
        cty("2017-02-1T00:00:00Z"),
        fail(": cannot use \"1T00:00:00Z\" as day of month")
    );
    assert_eq!(
        cty("2017-11-22T25:00:00Z"),
        fail(": hour must be between 0 and 23 inclusive")
    );
    assert_eq!(
        cty("2017-11-22T1:00:00Z"),
        fail(": hour must have exactly two digits")
    );
    assert_eq!(
        cty("2017-11-22T01:0:00Z"),
        fail(": minute must have exactly two digits")
    );
    // A minute out of range leaves the rest of the value as the element: cty calls it a length
    // problem.
    assert_eq!(
        cty("2017-11-22T01:60:00Z"),
        fail(": minute must have exactly two digits")
    );
    assert_eq!(
        cty("2017-11-22T01:00:60Z"),
        fail(": cannot use \"Z\" as second")
    );
    assert_eq!(
        cty("2017-11-22T01:00:00"),
        fail(": end of string before UTC offset")
    );
    assert_eq!(
        cty("2017-11-22T01:00:00+0100"),
        fail(": cannot use \"+0100\" as UTC offset")
    );
    assert_eq!(
        cty("2017-11-22T01:00:00+24:00"),
        fail(": cannot use \"+24:00\" as UTC offset")
    );
    assert_eq!(
        cty("2017-11-22T01:00:00+23:60"),
        fail(": cannot use \"+23:60\" as UTC offset")
    );
    assert_eq!(
        cty("2017-11-22T01:00:00+25:00"),
        fail(": end of string before UTC offset")
    );
    assert_eq!(
        cty("2017-11-22T01:00:00,5Z"),
        fail(": cannot use \",\" as timestamp segment")
    );
    assert_eq!(
        cty("2017-11-22T01:00:00Zx"),
        fail(": cannot use \"x\" as timestamp segment")
    );
    assert_eq!(
        cty("2017-11-22T01:00:00z"),
        fail(": cannot use \"z\" as UTC offset")
    );
    assert_eq!(cty(""), fail(": end of string before year"));
    assert_eq!(
        cty("\u{e9}2017"),
        fail(": cannot use \"\u{e9}2017\" as year")
    );
}

#[test]
fn terraform_is_lenient_and_plainer() {
    assert_eq!(tf("2017-11-22T1:00:00Z"), Ok("2017-11-22T01:00:00Z".into()));
    assert_eq!(
        tf("2017-11-22T01:00:00,5Z"),
        Ok("2017-11-22T01:00:00Z".into())
    );
    assert!(tf("2017-11-22T01:00:00+24:00").is_ok());
    assert_eq!(
        tf("2017-11-22T25:00:00Z"),
        fail(": cannot use \":00:00Z\" as hour")
    );
    assert_eq!(
        tf("2017-11-22T01:0:00Z"),
        fail(": cannot use \"0:00Z\" as minute")
    );
    assert_eq!(tf("bloop"), fail(": cannot use \"bloop\" as year"));
}

#[test]
fn civil_dates() {
    for (days, date) in [
        (0, (1970, 1, 1)),
        (-1, (1969, 12, 31)),
        (19782, (2024, 2, 29)),
    ] {
        assert_eq!(civil_from_days(days), date);
        assert_eq!(days_from_civil(date.0, date.1, date.2), days);
    }
    let t = Time::date(0, 1, 1, 0, 0, 0, 0, 0).add(-1_000_000_000);
    assert_eq!(t.rfc3339(), "-0001-12-31T23:59:59Z");
    let t = Time::date(9999, 12, 31, 23, 59, 59, 0, 3600).add(3_600_000_000_000);
    assert_eq!(t.rfc3339(), "10000-01-01T00:59:59+01:00");
}
