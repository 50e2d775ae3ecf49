//! The subset against cases of the JMESPath compliance suite (jmespath/jmespath.test,
//! `tests/*.json`, case by case as named) and of kyverno-json's and chainsaw's own tests.

use super::*;
use serde_json::json;

fn search(expression: &str, data: &Json) -> Result<Json, String> {
    compile(expression)?.search(data, &[], &mut Budget::new(BUDGET))
}

#[track_caller]
fn check(data: &Json, cases: &[(&str, Json)]) {
    for (expression, expected) in cases {
        let got = search(expression, data).unwrap_or_else(|e| panic!("{expression}: {e}"));
        assert!(
            equal(&got, expected),
            "{expression}: got {got}, expected {expected}"
        );
    }
}

fn fails(expression: &str, data: &Json) -> String {
    match search(expression, data) {
        Ok(value) => panic!("{expression}: expected an error, got {value}"),
        Err(why) => why,
    }
}

/// jmespath.test `tests/basic.json`, `indices.json`, `slice.json` (cases as written there).
#[test]
fn fields_indexes_and_slices() {
    let data = json!({"foo": {"bar": {"baz": "correct"}}, "list": [0, 1, 2, 3, 4]});
    check(
        &data,
        &[
            ("foo", json!({"bar": {"baz": "correct"}})),
            ("foo.bar.baz", json!("correct")),
            ("foo.bar.baz.bad", json!(null)),
            ("bad.morebad.morebad", json!(null)),
            ("\"foo\".\"bar\"", json!({"baz": "correct"})),
            ("list[0]", json!(0)),
            ("list[-1]", json!(4)),
            ("list[-6]", json!(null)),
            ("list[1:3]", json!([1, 2])),
            ("list[::2]", json!([0, 2, 4])),
            ("list[::-1]", json!([4, 3, 2, 1, 0])),
            ("list[-2:]", json!([3, 4])),
            ("list[10:]", json!([])),
            ("foo[0]", json!(null)),
        ],
    );
    assert!(fails("list[::0]", &data).contains("step cannot be 0"));
}

/// jmespath.test `tests/wildcard.json`, `filters.json`, `multiselect.json`, `pipe.json`.
#[test]
fn projections_filters_multiselect_and_pipes() {
    let data = json!({
        "people": [
            {"name": "a", "age": 10, "tags": ["x", "y"]},
            {"name": "b", "age": 30, "tags": ["z"]},
            {"name": "c"}
        ],
        "map": {"one": {"v": 1}, "two": {"v": 2}}
    });
    check(
        &data,
        &[
            ("people[*].name", json!(["a", "b", "c"])),
            ("people[*].age", json!([10, 30])),
            ("people[].tags[]", json!(["x", "y", "z"])),
            ("people[*].tags[0]", json!(["x", "z"])),
            ("map.*.v", json!([1, 2])),
            ("people[?age > `20`].name", json!(["b"])),
            (
                "people[?name == 'a' || name == 'c'].name",
                json!(["a", "c"]),
            ),
            ("people[?age && !contains(tags, 'z')].name", json!(["a"])),
            ("people[?age >= `10` && age < `30`] | [0].name", json!("a")),
            ("people[*].name | [0]", json!("a")),
            ("people[*].name[0]", json!([])),
            ("people[0].[name, age]", json!(["a", 10])),
            ("people[0].{n: name, a: age}", json!({"n": "a", "a": 10})),
            ("missing.[a, b]", json!(null)),
            ("people[?name == `\"b\"`].age", json!([30])),
            ("people[?age == `10.0`].name", json!(["a"])),
            ("people[?'a' < name].name", json!([])),
        ],
    );
}

/// jmespath.test `tests/functions.json`, and chainsaw's and kyverno's extras.
#[test]
fn functions() {
    let data = json!({
        "n": [1, 3, 2], "s": ["b", "a"], "o": {"b": 1, "a": 2}, "e": "",
        "people": [{"n": "x", "a": 3}, {"n": "y", "a": 1}]
    });
    check(
        &data,
        &[
            ("length(n)", json!(3)),
            ("length('héllo')", json!(5)),
            ("length(o)", json!(2)),
            ("keys(o)", json!(["a", "b"])),
            ("values(o)", json!([2, 1])),
            ("contains(n, `3`)", json!(true)),
            ("contains('foobar', 'oba')", json!(true)),
            ("starts_with('foobar', 'foo')", json!(true)),
            ("ends_with('foobar', 'foo')", json!(false)),
            ("to_string(`1`)", json!("1")),
            ("to_string('x')", json!("x")),
            ("to_number('12')", json!(12)),
            ("to_number('1.5')", json!(1.5)),
            ("to_number('inf')", json!(null)),
            ("type(o)", json!("object")),
            ("join(', ', s)", json!("b, a")),
            ("max(n)", json!(3)),
            ("min(s)", json!("a")),
            ("sort(n)", json!([1, 2, 3])),
            ("sort(s)", json!(["a", "b"])),
            ("not_null(missing, e, `1`)", json!("")),
            ("sum(n)", json!(6)),
            ("avg(n)", json!(2)),
            ("abs(`-2`)", json!(2)),
            ("ceil(`1.2`)", json!(2)),
            ("floor(`1.8`)", json!(1)),
            ("reverse(s)", json!(["a", "b"])),
            ("merge(o, `{\"c\": 3}`)", json!({"a": 2, "b": 1, "c": 3})),
            ("to_array(`1`)", json!([1])),
            ("sort_by(people, &a)[*].n", json!(["y", "x"])),
            ("max_by(people, &a).n", json!("x")),
            ("min_by(people, &a).n", json!("y")),
            ("map(&n, people)", json!(["x", "y"])),
            ("to_upper('ab')", json!("AB")),
            ("to_lower('AB')", json!("ab")),
            ("trim_space('  a ')", json!("a")),
            ("trim('xxaxx', 'x')", json!("a")),
            ("trim_prefix('v1.2', 'v')", json!("1.2")),
            ("split('a,b', ',')", json!(["a", "b"])),
            ("replace_all('a-b-c', '-', '_')", json!("a_b_c")),
            ("equal_fold('Ab', 'aB')", json!(true)),
            ("concat('a', 'b')", json!("ab")),
            ("regex_match('^x[0-9]+$', 'x12')", json!(true)),
        ],
    );
    assert!(fails("length(`1`)", &data).starts_with("invalid type"));
    assert!(fails("length(n, n)", &data).starts_with("invalid arity"));
    assert!(fails("nope(n)", &data).starts_with("unknown function"));
    assert!(fails("sort_by(people, n)", &data).contains("&expression"));
    assert!(fails("max(`[1, \"a\"]`)", &data).starts_with("invalid type"));
}

/// JEP-16 arithmetic and bindings, as chainsaw's `array-assertion` example uses them
/// (kyverno/chainsaw, testdata/e2e/examples/array-assertion/assertions.yaml).
#[test]
fn arithmetic_and_bindings() {
    let data = json!({"a": 7, "b": 2});
    let bindings = [("index".to_string(), json!(1))];
    let run = |e: &str| {
        compile(e)
            .and_then(|c| c.search(&data, &bindings, &mut Budget::new(BUDGET)))
            .unwrap()
    };
    assert_eq!(
        run("join('-', ['nginx', to_string($index + `1`)])"),
        json!("nginx-2")
    );
    assert_eq!(run("a + b * `3`"), json!(13));
    assert_eq!(run("a - b - `1`"), json!(4));
    assert_eq!(run("a / b"), json!(3.5));
    assert_eq!(run("a // b"), json!(3));
    assert_eq!(run("a % b"), json!(1));
    assert_eq!(run("-a"), json!(-7));
    assert_eq!(run("$.a"), json!(7));
    assert!(fails("a / `0`", &data).contains("division by zero"));
    assert!(fails("$nope", &data).contains("variable not defined: $nope"));
    assert!(fails("'x' + `1`", &data).starts_with("invalid type"));
}

/// jmespath.test `tests/syntax.json`: errors, each naming where.
#[test]
fn syntax_errors_name_the_column() {
    for (expression, column) in [
        ("foo.", 5),
        ("foo[", 5),
        ("[?foo == `1`", 13),
        ("foo.1", 5),
        ("'unclosed", 1),
        ("`{bad json}`", 1),
        ("a b", 3),
        ("\"f\"(1)", 1),
    ] {
        let why = compile(expression).unwrap_err();
        assert!(
            why.starts_with(&format!("syntax error at column {column}:")),
            "{expression}: {why}"
        );
    }
}

#[test]
fn limits_bound_text_depth_and_work() {
    let long = "a".repeat(MAX_TEXT + 1);
    assert!(compile(&long).unwrap_err().contains("longer than"));
    let deep = format!("{}a{}", "(".repeat(200), ")".repeat(200));
    assert!(compile(&deep).unwrap_err().contains("nests more than"));
    let chain = vec!["a"; 200].join(".");
    assert!(compile(&chain).unwrap_err().contains("nests more than"));
    // Each stage doubles what the last built: the budget ends it long before memory does.
    let doubling = vec!["[@, @, @, @]"; 40].join(" | ");
    let why = fails(&doubling, &json!({"x": [1, 2, 3, 4, 5, 6, 7, 8]}));
    assert!(why.contains("budget"), "{why}");
    // A budget spent stays spent.
    let mut budget = Budget::new(10);
    let e = compile("[a, a, a, a, a, a, a, a, a, a, a]").unwrap();
    assert!(e.search(&json!({"a": 1}), &[], &mut budget).is_err());
    assert!(
        compile("a")
            .unwrap()
            .search(&json!({"a": 1}), &[], &mut budget)
            .is_err()
    );
}

/// The whole compliance suite (every case but the benchmarks: 892 at its commit 53abcc3),
/// from a checkout of jmespath/jmespath.test whose `tests` folder `JMESPATH_COMPLIANCE` names:
/// `JMESPATH_COMPLIANCE=… cargo test --lib compliance -- --ignored`. A case expecting an error
/// passes with any error.
#[test]
#[ignore = "needs a checkout of jmespath/jmespath.test"]
fn compliance() {
    let dir = std::env::var("JMESPATH_COMPLIANCE")
        .expect("JMESPATH_COMPLIANCE names the suite's tests folder");
    let mut failed = Vec::new();
    let mut passed = 0;
    let mut entries: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if name == "benchmarks.json" {
            continue;
        }
        let suites: Json = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        for suite in suites.as_array().unwrap() {
            for case in suite["cases"].as_array().unwrap() {
                let expression = case["expression"].as_str().unwrap();
                let got = search(expression, &suite["given"]);
                let ok = match (&got, case.get("result"), case.get("error")) {
                    (Ok(got), Some(want), _) => equal(got, want),
                    (Err(_), _, Some(_)) => true,
                    _ => false,
                };
                if ok {
                    passed += 1;
                } else {
                    failed.push(format!("{name}: {expression}: got {got:?}, want {case}"));
                }
            }
        }
    }
    assert!(
        failed.is_empty(),
        "{passed} passed; failed:\n{}",
        failed.join("\n")
    );
    assert!(passed >= 892, "only {passed} cases found");
}
