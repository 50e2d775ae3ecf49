//! k8s.io/apiextensions-apiserver v0.35.0 `pkg/apiserver/schema/cel/validation_test.go`
//! (TestValidationExpressions): its rules using these libraries, with the test's `self`
//! values ("strings", "ext lists version 3", "string lists", "listSets").

use super::{Case, fails, ok, run, run_with};
use crate::cel::value::{Key, Value};
use std::collections::{BTreeMap, HashMap};

fn run_rules(name: &str, self_value: Value, cases: &[Case]) {
    let vars: HashMap<String, Value> = [("self".to_string(), self_value)].into();
    let mut failures = Vec::new();
    for c in cases {
        let got = run_with(c.expr, &vars);
        let good = match (&got, c.err) {
            (Ok(Value::Bool(true)), None) => true,
            (Err(e), Some(want)) => e.message.contains(want),
            _ => false,
        };
        if !good {
            failures.push(format!("  {}\n    want {:?}, got {:?}", c.expr, c.err, got));
        }
    }
    assert!(failures.is_empty(), "{name}:\n{}", failures.join("\n"));
}

fn object(val1: Value, val2: Value) -> Value {
    let mut m = BTreeMap::new();
    m.insert(Key::String("val1".into()), val1);
    m.insert(Key::String("val2".into()), val2);
    Value::map(m)
}

/// TestValidationExpressions, "strings" (`self.val1 == 'Rook takes 👑'`).
#[test]
fn validation_test_go_strings() {
    let s = Value::string("Rook takes 👑");
    run_rules(
        "strings",
        object(s.clone(), s),
        &[
            ok("self.val1.charAt(3) == 'k'"),
            ok("self.val1.indexOf('o') == 1"),
            ok("self.val1.indexOf('o', 2) == 2"),
            ok("self.val1.replace(' ', 'x') == 'Rookxtakesx👑'"),
            ok("self.val1.replace(' ', 'x', 1) == 'Rookxtakes 👑'"),
            ok("self.val1.split(' ') == ['Rook', 'takes', '👑']"),
            ok("self.val1.split(' ', 2) == ['Rook', 'takes 👑']"),
            ok("self.val1.substring(5) == 'takes 👑'"),
            ok("self.val1.substring(0, 4) == 'Rook'"),
            ok("self.val1.substring(4, 10).trim() == 'takes'"),
            ok("self.val1.upperAscii() == 'ROOK TAKES 👑'"),
            ok("self.val1.lowerAscii() == 'rook takes 👑'"),
            ok(
                "'%d %s %f %s %s'.format([1, 'abc', 1.0, duration('1m'), timestamp('2000-01-01T00:00:00.000Z')]) == '1 abc 1.000000 60s 2000-01-01T00:00:00Z'",
            ),
            ok("'%e'.format([3.14]) == '3.140000×10⁰⁰'"),
            ok("'%o %o %o'.format([7, 8, 9]) == '7 10 11'"),
            ok("'%b %b %b'.format([7, 8, 9]) == '111 1000 1001'"),
        ],
    );
}

/// TestValidationExpressions, "ext lists version 3".
#[test]
fn validation_test_go_ext_lists_version_3() {
    let l = run("[1, 2, 3]").expect("a list");
    run_rules(
        "ext lists version 3",
        object(l.clone(), l),
        &[
            ok("lists.range(4) == [0,1,2,3]"),
            ok("lists.range(0) == []"),
            ok("[5,1,2,3].reverse() == [3,2,1,5]"),
            ok("[].reverse() == []"),
            ok("[1].reverse() == [1]"),
            ok(
                "['are', 'you', 'as', 'bored', 'as', 'I', 'am'].reverse() == ['am', 'I', 'as', 'bored', 'as', 'you', 'are']",
            ),
            ok("[false, true, true].reverse().reverse() == [false, true, true]"),
            ok("[1,2,3,4].slice(0, 4) == [1,2,3,4]"),
            ok("[1,2,3,4].slice(0, 0) == []"),
            ok("[1,2,3,4].slice(1, 1) == []"),
            ok("[1,2,3,4].slice(4, 4) == []"),
            ok("[1,2,3,4].slice(1, 3) == [2, 3]"),
            ok("dyn([]).flatten() == []"),
            ok("[].sort() == []"),
            ok("[1].sort() == [1]"),
            ok("[4, 3, 2, 1].sort() == [1, 2, 3, 4]"),
            ok(r#"["d", "a", "b", "c"].sort() == ["a", "b", "c", "d"]"#),
            ok("[].sortBy(e, e) == []"),
            ok(r#"["a"].sortBy(e, e) == ["a"]"#),
            ok("[-3, 1, -5, -2, 4].sortBy(e, -(e * e)) == [-5, 4, -3, -2, 1]"),
            ok("[-3, 1, -5, -2, 4].map(e, e * 2).sortBy(e, -(e * e)) == [-10, 8, -6, -4, 2]"),
            ok("lists.range(3).sortBy(e, -e) == [2, 1, 0]"),
            ok(
                r#"["a", "c", "b", "first"].sortBy(e, e == "first" ? "" : e) == ["first", "a", "b", "c"]"#,
            ),
            ok(
                "[{'name': 'foo'}, {'name': 'bar'}, {'name': 'baz'}].sortBy(e, e.name) == [{'name': 'bar'}, {'name': 'baz'}, {'name': 'foo'}]",
            ),
            ok("[].distinct() == []"),
            ok("[1].distinct() == [1]"),
            ok("[-2, 5, -2, 1, 1, 5, -2, 1].distinct() == [-2, 5, 1]"),
            ok("['c', 'a', 'a', 'b', 'a', 'b', 'c', 'c'].distinct() == ['c', 'a', 'b']"),
            ok("[[1], [1], [2]].distinct() == [[1], [2]]"),
            ok(
                "[{'name': 'a'}, {'name': 'b'}, {'name': 'a'}].distinct() == [{'name': 'a'}, {'name': 'b'}]",
            ),
            ok("[[1],[2],[3,4]].flatten() == [1,2,3,4]"),
            fails(
                "[1,2,3,4].slice(3, 0) != [1,2]",
                "cannot slice(3, 0), start index must be less than or equal to end index",
            ),
            fails(
                "[1,2,3,4].slice(0, 10) != [1,2]",
                "cannot slice(0, 10), list is length 4",
            ),
            fails(
                "[1,2,3,4].slice(-5, 10) != [1,2]",
                "cannot slice(-5, 10), negative indexes not supported",
            ),
            fails(
                "[1,2,3,4].slice(-5, -3) != [1,2]",
                "cannot slice(-5, -3), negative indexes not supported",
            ),
            fails(
                "[[1],[2],[3,4]].flatten(-1) == [1,2,3,4]",
                "level must be non-negative",
            ),
        ],
    );
}

/// TestValidationExpressions, "string lists" and "listSets" (their join and sets rows).
#[test]
fn validation_test_go_string_lists_and_list_sets() {
    let l = run("['a', 'b', 'c']").expect("a list");
    run_rules(
        "string lists / listSets",
        object(l.clone(), l),
        &[
            ok("self.val1.join('-') == 'a-b-c'"),
            ok("['a', 'b', 'c'].join('-') == 'a-b-c'"),
            ok("self.val1.join() == 'abc'"),
            ok("['a', 'b', 'c'].join() == 'abc'"),
            ok("sets.contains(['a', 'b'], [])"),
            ok("sets.contains(['a', 'b'], ['b'])"),
            ok("!sets.contains(['a', 'b'], ['c'])"),
            ok("sets.equivalent([], [])"),
            ok("sets.equivalent(['c', 'b', 'a'], ['b', 'c', 'a'])"),
            ok("!sets.equivalent(['a', 'b'], ['b', 'c'])"),
            ok("sets.intersects(['a', 'b'], ['b', 'c'])"),
            ok("!sets.intersects([], [])"),
            ok("!sets.intersects(['a', 'b'], [])"),
            ok("!sets.intersects(['a', 'b'], ['c', 'd'])"),
            ok("sets.contains([1, 2], [2])"),
            ok("sets.contains([true, false], [false])"),
            ok("sets.contains([1.25, 1.5], [1.5])"),
            ok("sets.contains([{'a': 1}, {'b': 2}], [{'b': 2}])"),
            ok("sets.contains([[1, 2], [3, 4]], [[3, 4]])"),
            ok(
                "sets.contains([timestamp('2000-01-01T00:00:00.000+01:00'), timestamp('2012-01-01T00:00:00.000+01:00')], [timestamp('2012-01-01T00:00:00.000+01:00')])",
            ),
            ok("sets.contains([duration('1h'), duration('2h')], [duration('2h')])"),
            ok("sets.equivalent([1, 2], [1, 2])"),
            ok("sets.equivalent([true, false], [true, false])"),
            ok("sets.equivalent([1.25, 1.5], [1.25, 1.5])"),
            ok("sets.equivalent([{'a': 1}, {'b': 2}], [{'a': 1}, {'b': 2}])"),
            ok("sets.equivalent([[1, 2], [3, 4]], [[1, 2], [3, 4]])"),
            ok(
                "sets.equivalent([timestamp('2012-01-01T00:00:00.000+01:00')], [timestamp('2012-01-01T00:00:00.000+01:00')])",
            ),
            ok(
                "sets.equivalent([duration('1h'), duration('2h')], [duration('1h'), duration('2h')])",
            ),
            ok("sets.intersects([1, 2], [2])"),
            ok("sets.intersects([true, false], [false])"),
            ok("sets.intersects([1.25, 1.5], [1.5])"),
            ok("sets.intersects([{'a': 1}, {'b': 2}], [{'b': 2}])"),
            ok("sets.intersects([[1, 2], [3, 4]], [[3, 4]])"),
            ok(
                "sets.intersects([timestamp('2000-01-01T00:00:00.000+01:00'), timestamp('2012-01-01T00:00:00.000+01:00')], [timestamp('2012-01-01T00:00:00.000+01:00')])",
            ),
            ok("sets.intersects([duration('1h'), duration('2h')], [duration('2h')])"),
        ],
    );
}

/// TestValidationExpressions, "optionals".
#[test]
fn validation_test_go_optionals() {
    let self_value = run("{'presentObj': {'presentStr': 'value'}, 'm': {'k': 'v'}, 'l': ['a']}")
        .expect("an object");
    run_rules(
        "optionals",
        self_value,
        &[
            ok("self.?presentObj.?presentStr == optional.of('value')"),
            ok("self.presentObj.?presentStr == optional.of('value')"),
            ok("self.presentObj.?presentStr.or(optional.of('nope')) == optional.of('value')"),
            ok("self.presentObj.?presentStr.orValue('') == 'value'"),
            ok("self.presentObj.?presentStr.hasValue() == true"),
            ok("self.presentObj.?presentStr.optMap(v, v == 'value').hasValue()"),
            ok("self.?absentObj.?absentStr == optional.none()"),
            ok("self.?absentObj.?absentStr.or(optional.of('nope')) == optional.of('nope')"),
            ok("self.?absentObj.?absentStr.orValue('nope') == 'nope'"),
            ok("self.?absentObj.?absentStr.hasValue() == false"),
            ok("self.?absentObj.?absentStr.optMap(v, v == 'value').hasValue() == false"),
            ok("self.m[?'k'] == optional.of('v')"),
            ok("self.m[?'k'].or(optional.of('nope')) == optional.of('v')"),
            ok("self.m[?'k'].orValue('') == 'v'"),
            ok("self.m[?'k'].hasValue() == true"),
            ok("self.m[?'k'].optMap(v, v == 'v').hasValue()"),
            ok("self.m[?'x'] == optional.none()"),
            ok("self.m[?'x'].or(optional.of('nope')) == optional.of('nope')"),
            ok("self.m[?'x'].orValue('nope') == 'nope'"),
            ok("self.m[?'x'].hasValue() == false"),
            ok("self.l[?0] == optional.of('a')"),
            ok("self.l[?1] == optional.none()"),
            ok("self.l[?0].orValue('') == 'a'"),
            ok("self.l[?0].hasValue() == true"),
            ok("self.l[?0].optMap(v, v == 'a').hasValue()"),
            ok("self.l[?1].or(optional.of('nope')) == optional.of('nope')"),
            ok("self.l[?1].orValue('nope') == 'nope'"),
            ok("self.l[?1].hasValue() == false"),
            ok("optional.ofNonZeroValue(1).hasValue()"),
            ok("optional.ofNonZeroValue(uint(1)).hasValue()"),
            ok("optional.ofNonZeroValue(1.1).hasValue()"),
            ok("optional.ofNonZeroValue('a').hasValue()"),
            ok("optional.ofNonZeroValue(true).hasValue()"),
            ok("optional.ofNonZeroValue(['a']).hasValue()"),
            ok("optional.ofNonZeroValue({'k': 'v'}).hasValue()"),
            ok("optional.ofNonZeroValue(timestamp('2011-08-18T00:00:00.000+01:00')).hasValue()"),
            ok("optional.ofNonZeroValue(duration('19h3m37s10ms')).hasValue()"),
            ok("optional.ofNonZeroValue(null) == optional.none()"),
            ok("optional.ofNonZeroValue(0) == optional.none()"),
            ok("optional.ofNonZeroValue(uint(0)) == optional.none()"),
            ok("optional.ofNonZeroValue(0.0) == optional.none()"),
            ok("optional.ofNonZeroValue('') == optional.none()"),
            ok("optional.ofNonZeroValue(false) == optional.none()"),
            ok("optional.ofNonZeroValue([]) == optional.none()"),
            ok("optional.ofNonZeroValue({}) == optional.none()"),
            ok(
                "optional.ofNonZeroValue(timestamp('0001-01-01T00:00:00.000+00:00')) == optional.none()",
            ),
            ok("optional.ofNonZeroValue(duration('0s')) == optional.none()"),
            ok("{?'k': optional.none(), 'k2': 'v2'} == {'k2': 'v2'}"),
            ok("{?'k': optional.of('v'), 'k2': 'v2'} == {'k': 'v', 'k2': 'v2'}"),
            ok("['a', ?optional.none(), 'c'] == ['a', 'c']"),
            ok("['a', ?optional.of('v'), 'c'] == ['a', 'v', 'c']"),
            fails(
                "self.absentObj.?absentStr == optional.none()",
                "no such key: absentObj",
            ),
        ],
    );
}

/// TestValidationExpressions, the maps section's two-variable comprehensions
/// (`self.val == {'b': 1, 'd': 2}`).
#[test]
fn validation_test_go_two_variable_comprehensions() {
    let self_value = run("{'val': {'b': 1, 'd': 2}}").expect("an object");
    run_rules(
        "maps",
        self_value,
        &[
            ok("self.val.all(k, v, v > 0)"),
            ok("self.val.exists(k, v, v == 2)"),
            ok("self.val.existsOne(k, v, v == 2)"),
            ok("self.val.transformMap(k, v, v > 1, v + 1).size() == 1"),
            ok("self.val.transformMap(k, v, v + 1).size() == 2"),
            ok("self.val.transformMapEntry(k, v, v > 1, {k + '2': v + 1}).size() == 1"),
            ok("self.val.transformMapEntry(k, v, {k + '2': v + 1}).size() == 2"),
        ],
    );
}
