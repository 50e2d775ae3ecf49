//! Tests of the standard library: cel-go's semantics and messages (from `common/types/*.go`,
//! `common/stdlib/standard.go`'s examples and Go's `time` and `strconv` behaviour).

use crate::cel::interp::tests::Want::{Err as E, Value as V};
use crate::cel::interp::tests::run;

/// Overflow and division errors (cel-go `common/types/overflow.go`, `err.go`).
#[test]
fn arithmetic() {
    run(&[
        ("add_int", "1 + 2", &[], V("3")),
        (
            "add_int_overflow",
            "9223372036854775807 + 1",
            &[],
            E("integer overflow"),
        ),
        (
            "sub_int_overflow",
            "-9223372036854775807 - 2",
            &[],
            E("integer overflow"),
        ),
        (
            "mul_int_overflow",
            "4611686018427387904 * 2",
            &[],
            E("integer overflow"),
        ),
        (
            "neg_int_overflow",
            "-(-9223372036854775807 - 1)",
            &[],
            E("integer overflow"),
        ),
        (
            "div_int_overflow",
            "(-9223372036854775807 - 1) / -1",
            &[],
            E("integer overflow"),
        ),
        (
            "mod_int_overflow",
            "(-9223372036854775807 - 1) % -1",
            &[],
            E("integer overflow"),
        ),
        (
            "add_uint_overflow",
            "18446744073709551615u + 1u",
            &[],
            E("unsigned integer overflow"),
        ),
        (
            "sub_uint_overflow",
            "0u - 1u",
            &[],
            E("unsigned integer overflow"),
        ),
        (
            "mul_uint_overflow",
            "9223372036854775808u * 2u",
            &[],
            E("unsigned integer overflow"),
        ),
        ("div_zero", "1 / 0", &[], E("division by zero")),
        ("div_zero_uint", "1u / 0u", &[], E("division by zero")),
        ("mod_zero", "1 % 0", &[], E("modulus by zero")),
        ("mod_zero_uint", "1u % 0u", &[], E("modulus by zero")),
        (
            "div_truncates",
            "-7 / 2 == -3 && -7 % 2 == -1",
            &[],
            V("true"),
        ),
        ("double_div_zero", "2.0 / 0.0", &[], V("double('inf')")),
        ("concat_string", "'ab' + 'cd'", &[], V("'abcd'")),
        ("concat_bytes", "b'ab' + b'cd'", &[], V("b'abcd'")),
        ("concat_list", "[1] + [2, 3]", &[], V("[1, 2, 3]")),
        ("add_mixed", "dyn(1) + 1u", &[], E("no such overload")),
    ]);
}

/// Comparisons, cross-type numeric ones included (cel-go `common/types/compare.go`).
#[test]
fn comparisons() {
    run(&[
        ("int_double", "dyn(1) < 1.5 && dyn(2) > 1.5", &[], V("true")),
        ("uint_int", "dyn(1u) < -1", &[], V("false")),
        ("int_uint", "dyn(-1) < 1u", &[], V("true")),
        (
            "strings_bytewise",
            "'a' < 'b' && 'B' < 'a' && b'\\x00' < b'\\x01'",
            &[],
            V("true"),
        ),
        ("bools", "false < true", &[], V("true")),
        (
            "nan",
            "0.0/0.0 < 1.0",
            &[],
            E("NaN values cannot be ordered"),
        ),
        (
            "nan_int",
            "dyn(1) < 0.0/0.0",
            &[],
            E("NaN values cannot be ordered"),
        ),
        ("mismatch", "dyn('a') < 1", &[], E("no such overload")),
        ("no_trait", "dyn([]) < []", &[], E("no such overload: _<_")),
        (
            "durations",
            "duration('1ms') < duration('1s')",
            &[],
            V("true"),
        ),
        (
            "equal_cross",
            "dyn(1) == 1.0 && dyn(1u) == 1 && dyn(1) != 'a'",
            &[],
            V("true"),
        ),
        (
            "equal_lists",
            "[1, 2] == [1.0, 2u] && [1] != [1, 2]",
            &[],
            V("true"),
        ),
        (
            "equal_maps",
            "{'a': 1} == {'a': 1.0} && {1: 2} == {1u: 2}",
            &[],
            V("true"),
        ),
        (
            "types",
            "type(1) == int && type([]) == list && type({}) == map",
            &[],
            V("true"),
        ),
        (
            "type_of_type",
            "type(int) == type && type(type) == type",
            &[],
            V("true"),
        ),
        (
            "type_names",
            "type(1u) != int && type(null) == null_type",
            &[],
            V("true"),
        ),
    ]);
}

/// Strings and bytes, `size`, `in` and indexing.
#[test]
fn strings_lists_maps() {
    run(&[
        (
            "size_code_points",
            "size('héllo') == 5 && 'héllo'.size() == 5",
            &[],
            V("true"),
        ),
        (
            "size_bytes",
            "size(b'h\\xc3\\xa9') == 3 && b'ab'.size() == 2",
            &[],
            V("true"),
        ),
        (
            "size_list_map",
            "size([1, 2]) == 2 && {'a': 1}.size() == 1",
            &[],
            V("true"),
        ),
        ("size_bad", "size(dyn(1))", &[], E("no such overload: size")),
        (
            "contains",
            "'hello'.contains('ell') && !'hello'.contains('xyz')",
            &[],
            V("true"),
        ),
        (
            "starts_ends",
            "'hello'.startsWith('he') && 'hello'.endsWith('lo')",
            &[],
            V("true"),
        ),
        (
            "starts_bad",
            "dyn('a').startsWith(dyn(1))",
            &[],
            E("no such overload: startsWith(string, int)"),
        ),
        (
            "matches_go_syntax",
            "'abc'.matches('^a') && !'abc'.matches('^b$')",
            &[],
            V("true"),
        ),
        ("matches_partial", "'xabcx'.matches('abc')", &[], V("true")),
        (
            "matches_bad",
            "'a'.matches('(')",
            &[],
            E("error parsing regexp: missing closing ): `(`"),
        ),
        ("in_list", "2 in [1, 2] && !(3 in [1, 2])", &[], V("true")),
        ("in_map", "'a' in {'a': 1} && 1 in {1u: 2}", &[], V("true")),
        ("index_oob", "[1][3]", &[], E("index out of bounds: 3")),
        (
            "index_negative",
            "[1][-1]",
            &[],
            E("index out of bounds: -1"),
        ),
        (
            "index_string_on_list",
            "[1]['a']",
            &[],
            E("unsupported index type 'string' in list"),
        ),
        (
            "index_missing_key",
            "{'a': 1}['b']",
            &[],
            E("no such key: b"),
        ),
        ("index_non_container", "dyn(1)[0]", &[], E("no such key: 0")),
        ("select_missing", "{'a': 1}.b", &[], E("no such key: b")),
        ("select_non_map", "dyn(1).a", &[], E("no such key: a")),
        ("has_non_map", "has(dyn(1).a)", &[], V("false")),
        ("undeclared", "x.y.z", &[], E("no such attribute(s): x.y.z")),
        ("not_bad", "!dyn(1)", &[], E("no such overload")),
        ("negate_bad", "-dyn(1u)", &[], E("no such overload: -_")),
        ("ternary_bad", "dyn(1) ? 1 : 2", &[], E("no such overload")),
        ("and_bad", "dyn(1) && true", &[], E("no such overload")),
        ("and_absorbs", "dyn(1) && false", &[], V("false")),
        ("or_absorbs", "true || dyn(1)", &[], V("true")),
        (
            "int_bad",
            "int(dyn([]))",
            &[],
            E("no such overload: int(list)"),
        ),
    ]);
}

/// Conversions (cel-go `ConvertToType` of each type; Go's `strconv` parsing and formatting).
#[test]
fn conversions() {
    run(&[
        ("string_double_int", "string(1.0)", &[], V("'1'")),
        ("string_double_exp", "string(1e6)", &[], V("'1e+06'")),
        ("string_double_big", "string(123456.0)", &[], V("'123456'")),
        ("string_double_frac", "string(0.1)", &[], V("'0.1'")),
        ("string_double_small", "string(0.0001)", &[], V("'0.0001'")),
        ("string_double_tiny", "string(1e-5)", &[], V("'1e-05'")),
        ("string_double_neg_zero", "string(-0.0)", &[], V("'-0'")),
        (
            "string_double_huge",
            "string(1.5e300)",
            &[],
            V("'1.5e+300'"),
        ),
        (
            "string_double_digits",
            "string(1234567.0)",
            &[],
            V("'1.234567e+06'"),
        ),
        (
            "string_double_inf",
            "string(double('inf'))",
            &[],
            V("'+Inf'"),
        ),
        (
            "string_double_nan",
            "string(double('NaN'))",
            &[],
            V("'NaN'"),
        ),
        ("string_bool", "string(true)", &[], V("'true'")),
        ("string_int", "string(-5) + string(5u)", &[], V("'-55'")),
        ("string_bytes", "string(b'abc')", &[], V("'abc'")),
        (
            "string_bad_utf8",
            "string(b'\\xff')",
            &[],
            E("invalid UTF-8 in bytes, cannot convert to string"),
        ),
        (
            "string_timestamp",
            "string(timestamp('2009-02-13T23:31:30.120Z'))",
            &[],
            V("'2009-02-13T23:31:30.12Z'"),
        ),
        (
            "string_duration",
            "string(duration('1h1m1.5s'))",
            &[],
            V("'3661.5s'"),
        ),
        (
            "string_duration_neg",
            "string(duration('-1ns'))",
            &[],
            V("'-0.000000001s'"),
        ),
        ("int_string", "int('-5') + int('+5')", &[], V("0")),
        (
            "int_string_space",
            "int(' 5')",
            &[],
            E("type conversion error from 'string' to 'int'"),
        ),
        (
            "uint_string_sign",
            "uint('+5')",
            &[],
            E("type conversion error from 'string' to 'uint'"),
        ),
        ("int_double_range", "int(1e19)", &[], E("integer overflow")),
        (
            "int_double_min",
            "int(-9223372036854775808.0)",
            &[],
            E("integer overflow"),
        ),
        (
            "int_double_truncates",
            "int(-1.9) == -1 && int(1.9) == 1",
            &[],
            V("true"),
        ),
        (
            "uint_double_neg",
            "uint(-1.0)",
            &[],
            E("unsigned integer overflow"),
        ),
        (
            "uint_int_neg",
            "uint(-1)",
            &[],
            E("unsigned integer overflow"),
        ),
        (
            "int_uint_big",
            "int(18446744073709551615u)",
            &[],
            E("integer overflow"),
        ),
        (
            "int_timestamp",
            "int(timestamp('1970-01-01T00:00:10Z'))",
            &[],
            V("10"),
        ),
        ("int_duration", "int(duration('1s'))", &[], V("1000000000")),
        (
            "double_string",
            "double('1e3') + double('-.5')",
            &[],
            V("999.5"),
        ),
        (
            "double_string_inf",
            "double('-Infinity')",
            &[],
            V("double('-inf')"),
        ),
        (
            "double_string_range",
            "double('1e400')",
            &[],
            E("type conversion error"),
        ),
        (
            "bool_string",
            "bool('T') && !bool('False') && bool('1')",
            &[],
            V("true"),
        ),
        (
            "bool_string_bad",
            "bool('yes')",
            &[],
            E("type conversion error from 'string' to 'bool'"),
        ),
        ("bytes_string", "bytes('é')", &[], V("b'\\xc3\\xa9'")),
        (
            "duration_int",
            "duration(1)",
            &[],
            E("type conversion error from 'int' to 'google.protobuf.Duration'"),
        ),
        ("type_value", "type(1)", &[], V("int")),
        ("dyn_identity", "dyn([1])", &[], V("[1]")),
    ]);
}

/// Timestamps and durations: Go's RFC 3339 and duration syntax, cel-go's range checks.
#[test]
fn time_values() {
    run(&[
        (
            "timestamp_offset",
            "timestamp('2009-02-13T23:31:30+01:00') == timestamp(1234564290)",
            &[],
            V("true"),
        ),
        (
            "timestamp_frac",
            "timestamp('2009-02-13T23:31:30.123456789123Z').getMilliseconds()",
            &[],
            V("123"),
        ),
        (
            "timestamp_lowercase_t",
            "timestamp('2009-02-13t23:31:30Z')",
            &[],
            E("type conversion error"),
        ),
        (
            "timestamp_bad_day",
            "timestamp('2023-02-29T00:00:00Z')",
            &[],
            E("type conversion error"),
        ),
        (
            "timestamp_leap_day",
            "timestamp('2024-02-29T00:00:00Z').getDayOfYear()",
            &[],
            V("59"),
        ),
        (
            "timestamp_year_zero",
            "timestamp('0000-01-01T00:00:00Z')",
            &[],
            E("timestamp overflow"),
        ),
        (
            "timestamp_int_range",
            "timestamp(253402300800)",
            &[],
            E("timestamp overflow"),
        ),
        (
            "timestamp_add_range",
            "timestamp('9999-12-31T23:59:59Z') + duration('1s')",
            &[],
            E("timestamp overflow"),
        ),
        (
            "timestamp_sub",
            "timestamp('2023-01-01T00:00:00Z') - timestamp('2022-01-01T00:00:00Z')",
            &[],
            V("duration('8760h')"),
        ),
        (
            "timestamp_sub_duration",
            "timestamp('2023-01-10T12:00:00Z') - duration('12h')",
            &[],
            V("timestamp('2023-01-10T00:00:00Z')"),
        ),
        (
            "duration_plus_timestamp",
            "duration('24h') + timestamp('2023-01-01T00:00:00Z')",
            &[],
            V("timestamp('2023-01-02T00:00:00Z')"),
        ),
        (
            "timestamp_nanos_borrow",
            "timestamp('2023-01-01T00:00:00.5Z') - duration('0.7s')",
            &[],
            V("timestamp('2022-12-31T23:59:59.8Z')"),
        ),
        (
            "timestamp_diff_overflow",
            "timestamp('0001-01-01T00:00:00Z') - timestamp('9999-12-31T23:59:59Z')",
            &[],
            E("integer overflow"),
        ),
        (
            "duration_overflow",
            "duration('2562047h') + duration('2562047h')",
            &[],
            E("integer overflow"),
        ),
        (
            "duration_units",
            "duration('1.5h') == duration('90m')",
            &[],
            V("true"),
        ),
        (
            "duration_compound",
            "duration('-1m30s') == duration('-90s')",
            &[],
            V("true"),
        ),
        (
            "duration_micro",
            "duration('1µs') == duration('1000ns')",
            &[],
            V("true"),
        ),
        (
            "duration_micro_greek",
            "duration('1μs') == duration('1us')",
            &[],
            V("true"),
        ),
        (
            "duration_bad_unit",
            "duration('1d')",
            &[],
            E("type conversion error"),
        ),
        (
            "duration_empty",
            "duration('')",
            &[],
            E("type conversion error"),
        ),
        (
            "duration_no_unit",
            "duration('1')",
            &[],
            E("type conversion error"),
        ),
        (
            "duration_zero",
            "duration('0') == duration('0s')",
            &[],
            V("true"),
        ),
        (
            "duration_max",
            "int(duration('9223372036854775807ns'))",
            &[],
            V("9223372036854775807"),
        ),
        (
            "duration_too_big",
            "duration('9223372036854775808ns')",
            &[],
            E("type conversion error"),
        ),
        (
            "duration_min",
            "int(duration('-9223372036854775808ns'))",
            &[],
            V("-9223372036854775807 - 1"),
        ),
        (
            "duration_hours",
            "duration('3723s').getHours()",
            &[],
            V("1"),
        ),
        (
            "duration_minutes",
            "duration('3723s').getMinutes()",
            &[],
            V("62"),
        ),
        (
            "duration_seconds",
            "duration('3723.456s').getSeconds()",
            &[],
            V("3723"),
        ),
        (
            "duration_millis",
            "duration('3723.456s').getMilliseconds()",
            &[],
            V("3723456"),
        ),
        (
            "duration_neg_hours",
            "duration('-90m').getHours()",
            &[],
            V("-1"),
        ),
    ]);
}

/// Timestamp accessors in time zones: `standard.go`'s examples, IANA zones from the system
/// tzdata (checked against Python's `zoneinfo`), and Go's errors.
#[test]
fn time_zones() {
    run(&[
        (
            "year_offset",
            "timestamp('2023-01-01T05:30:00Z').getFullYear('-08:00')",
            &[],
            V("2022"),
        ),
        (
            "month_la",
            "timestamp('2023-01-01T05:30:00Z').getMonth('America/Los_Angeles')",
            &[],
            V("11"),
        ),
        (
            "day_of_year_la",
            "timestamp('2023-01-01T05:00:00Z').getDayOfYear('America/Los_Angeles')",
            &[],
            V("364"),
        ),
        (
            "day_of_month_la",
            "timestamp('2023-07-01T05:00:00Z').getDayOfMonth('America/Los_Angeles')",
            &[],
            V("29"),
        ),
        (
            "date_la",
            "timestamp('2023-07-01T05:00:00Z').getDate('America/Los_Angeles')",
            &[],
            V("30"),
        ),
        (
            "day_of_week_la",
            "timestamp('2023-07-16T05:00:00Z').getDayOfWeek('America/Los_Angeles')",
            &[],
            V("6"),
        ),
        (
            "hours_la_summer",
            "timestamp('2023-07-14T10:30:45.123Z').getHours('America/Los_Angeles')",
            &[],
            V("3"),
        ),
        (
            "hours_la_rule",
            "timestamp('2100-07-01T12:00:00Z').getHours('America/Los_Angeles')",
            &[],
            V("5"),
        ),
        (
            "hours_la_rule_winter",
            "timestamp('2100-01-01T12:00:00Z').getHours('America/Los_Angeles')",
            &[],
            V("4"),
        ),
        (
            "hours_lord_howe_rule",
            "timestamp('2100-01-01T12:00:00Z').getHours('Australia/Lord_Howe')",
            &[],
            V("23"),
        ),
        (
            "minutes_kolkata",
            "timestamp('2023-07-14T10:30:45Z').getMinutes('Asia/Kolkata')",
            &[],
            V("0"),
        ),
        (
            "minutes_kolkata_lmt",
            "timestamp('1900-01-01T12:00:00Z').getMinutes('Asia/Kolkata')",
            &[],
            V("21"),
        ),
        (
            "utc_name",
            "timestamp('2023-07-14T10:30:45Z').getHours('UTC')",
            &[],
            V("10"),
        ),
        (
            "unknown_zone",
            "timestamp(0).getHours('Mars/Olympus')",
            &[],
            E("unknown time zone Mars/Olympus"),
        ),
        (
            "bad_zone_path",
            "timestamp(0).getHours('../etc')",
            &[],
            E("time: invalid location name"),
        ),
        (
            "bad_offset",
            "timestamp(0).getHours('+1:xx')",
            &[],
            E("strconv.Atoi: parsing \"xx\": invalid syntax"),
        ),
        (
            "offset_minutes",
            "timestamp(0).getMinutes('-00:30')",
            &[],
            V("30"),
        ),
        (
            "offset_hours",
            "timestamp(0).getHours('+05:30')",
            &[],
            V("5"),
        ),
    ]);
}

/// Every overload id of cel-go's standard library is declared once.
#[test]
fn overload_ids_unique() {
    let mut ids = std::collections::HashSet::new();
    let mut n = 0;
    for f in super::functions() {
        for o in &f.overloads {
            assert!(ids.insert(o.id.clone()), "duplicate {}", o.id);
            n += 1;
        }
    }
    assert!(n > 150, "{n} overloads");
}

/// Hostile arguments end in errors, never panics.
#[test]
fn hostile_arguments() {
    run(&[
        (
            "duration_dot",
            "duration('.s')",
            &[],
            E("type conversion error"),
        ),
        (
            "duration_frac_only",
            "duration('.5s') == duration('500ms')",
            &[],
            V("true"),
        ),
        (
            "duration_huge_frac",
            "duration('0.99999999999999999999999999h')",
            &[],
            V("duration('1h')"),
        ),
        (
            "duration_many_parts",
            "duration('1h1h1h1h1h1h1h1h1h1h')",
            &[],
            V("duration('10h')"),
        ),
        (
            "duration_overflow_parts",
            "duration('2562047h2562047h')",
            &[],
            E("type conversion error"),
        ),
        (
            "duration_sign_only",
            "duration('-')",
            &[],
            E("type conversion error"),
        ),
        (
            "timestamp_short",
            "timestamp('2023')",
            &[],
            E("type conversion error"),
        ),
        (
            "timestamp_multibyte",
            "timestamp('2023-01-01T00:00:00ü')",
            &[],
            E("type conversion error"),
        ),
        (
            "timestamp_long_frac",
            "timestamp('2023-01-01T00:00:00.1234567890123456789Z') == timestamp('2023-01-01T00:00:00.123456789Z')",
            &[],
            V("true"),
        ),
        ("zone_empty", "timestamp(0).getHours('')", &[], V("0")),
        (
            "zone_colon",
            "timestamp(0).getHours(':')",
            &[],
            E("strconv.Atoi: parsing \"\": invalid syntax"),
        ),
        (
            "zone_huge",
            "timestamp(0).getHours('+99999999999999999999:00')",
            &[],
            E("value out of range"),
        ),
        (
            "zone_wrapping",
            "timestamp(0).getHours('9223372036854775807:00') >= 0",
            &[],
            V("true"),
        ),
        (
            "int_huge",
            "int('99999999999999999999')",
            &[],
            E("type conversion error"),
        ),
        (
            "uint_huge",
            "uint('99999999999999999999')",
            &[],
            E("type conversion error"),
        ),
        (
            "double_garbage",
            "double('1.2.3')",
            &[],
            E("type conversion error"),
        ),
    ]);
}
