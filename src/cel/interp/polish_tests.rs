//! Tests of the interpreter's follow-up fixes: unguarded dispatch, lazy `or`/`orValue`,
//! library type names as values, `in` over values that refuse equality, program-build
//! errors, optional selection on present values, in-place map accumulators and metering.
//! Each test names the upstream source of its cases.

use super::*;
use crate::cel::cost::Tracker;
use crate::cel::env::Env;
use crate::cel::parser::parse;
use std::sync::LazyLock;

static K8S: LazyLock<Arc<Env>> = LazyLock::new(|| Arc::new(Env::kubernetes()));

/// Parses and evaluates `text` unchecked, with every library.
fn run(text: &str) -> Result<Value, Error> {
    let ast = parse(text).map_err(|e| Error::new(format!("parse: {e}")))?;
    Program::new(ast, K8S.clone()).eval(&HashMap::<String, Value>::new(), &mut Tracker::new(None))
}

/// Parses, type-checks (without the AST validators) and evaluates `text`.
fn run_checked(text: &str) -> Result<Value, Error> {
    let ast = parse(text).map_err(|e| Error::new(format!("parse: {e}")))?;
    let checked = crate::cel::checker::check_types(&ast, &K8S)
        .map_err(|e| Error::new(format!("check: {e}")))?;
    Program::checked(&checked, K8S.clone())
        .eval(&HashMap::<String, Value>::new(), &mut Tracker::new(None))
}

/// Asserts that `text` evaluates to `true`, unchecked and (when `checked`) checked.
fn assert_true(text: &str, checked: bool) {
    let got = run(text);
    assert!(matches!(got, Ok(Value::Bool(true))), "{text}: {got:?}");
    if checked {
        let got = run_checked(text);
        assert!(
            matches!(got, Ok(Value::Bool(true))),
            "{text} (checked): {got:?}"
        );
    }
}

/// Asserts that `text` fails with exactly `message`.
fn assert_error(text: &str, message: &str) {
    let got = run(text);
    assert!(
        matches!(&got, Err(e) if e.message == message),
        "{text}: want {message:?}, got {got:?}"
    );
}

/// cel-go calls overloads whose type guards are off with any arguments: `ext.Lists`'
/// `flatten` (apiextensions-apiserver `validation_test.go` "ext lists version 3", cel-go
/// `ext/lists_test.go` TestLists), and the singleton-bound `sort`, whose implementation
/// reports the incomparable elements itself.
#[test]
fn unguarded_overloads() {
    assert_true("dyn([1,2]).flatten() == [1,2]", true);
    assert_true("dyn([1,[2,[3,4]]]).flatten() == [1,2,[3,4]]", true);
    assert_true("dyn([1,2,[],[],[3,4]]).flatten(1) == [1,2,3,4]", true);
    assert_error("dyn([[1]]).sort()", "list elements must be comparable");
    assert!(
        matches!(run_checked("dyn([[1]]).sort()"), Err(e) if e.message == "list elements must be comparable")
    );
    assert_error("[[1]].sort()", "list elements must be comparable");
    assert_true("dyn(1).or(optional.none()) == 1", false);
    assert_true("dyn(1).orValue(2) == 1", false);
}

/// `or` and `orValue` evaluate their argument only when the receiver is empty (cel-go
/// `cel/library.go` `evalOptionalOr`, `evalOptionalOrValue`; cel-go `cel/cel_test.go`
/// optional short-circuit cases).
#[test]
fn lazy_or() {
    for checked in [false, true] {
        let run = |t: &str| if checked { run_checked(t) } else { run(t) };
        let t = "optional.of(1).or(optional.of(1 / 0)) == optional.of(1)";
        assert!(matches!(run(t), Ok(Value::Bool(true))), "{t}");
        let t = "optional.of(1).orValue(1 / 0) == 1";
        assert!(matches!(run(t), Ok(Value::Bool(true))), "{t}");
        let t = "optional.none().orValue(1 / 0)";
        assert!(
            matches!(run(t), Err(e) if e.message == "division by zero"),
            "{t}"
        );
        let t = "optional.none().or(optional.of(2)).value() == 2";
        assert!(matches!(run(t), Ok(Value::Bool(true))), "{t}");
        let t = "{'a': 1}.?b.orValue(3) == 3";
        assert!(matches!(run(t), Ok(Value::Bool(true))), "{t}");
    }
    // the receiver's error wins
    assert_error("optional.of(1 / 0).orValue(1)", "division by zero");
}

/// Kubernetes' IP and CIDR types are type values at run time (apiserver
/// `pkg/cel/library/ip_test.go` and `cidr_test.go`: `type(ip(...)) == net.IP`).
#[test]
fn library_type_names() {
    for t in [
        "type(ip('192.168.0.1')) == net.IP",
        "type(cidr('192.168.0.0/24')) == net.CIDR",
        "type(cidr('2001:db8::/32').ip()) == net.IP",
        "type(ip('192.168.0.1')) != net.CIDR",
    ] {
        assert_true(t, true);
    }
}

/// `in` over a literal list ignores elements that refuse equality with an error, as
/// cel-go's `baseList.Contains` ignores non-bool results (`common/types/list.go`).
#[test]
fn in_ignores_equal_errors() {
    assert_true("ip('1.2.3.4') in [dyn('x'), ip('1.2.3.4')]", false);
    assert_true("!(ip('1.2.3.4') in [dyn('x'), dyn(1)])", false);
    assert_true("!(dyn('x') in [ip('1.2.3.4')])", false);
}

/// Selection below a present optional whose value has no fields: cel-spec
/// `optionals.textproto` `map_null_entry_no_such_key` and `map_present_key_invalid_field`
/// expect `no such key` because cel-go's conformance runner enables
/// `EnableErrorOnBadPresenceTest`; the API server does not (`environment/base.go`), so
/// cel-go's `refQualify` answers "absent": `optional.none()`.
#[test]
fn optional_select_on_present_scalars() {
    assert_true(
        "{'null_key': dyn(null)}.?null_key.invalid.hasValue() == false",
        true,
    );
    assert_true("{true: dyn(0)}[?true].absent.hasValue() == false", true);
    assert_true("!has(dyn(null).x)", false);
}

/// `transformMap` and `transformMapEntry` insert into their accumulator in place (cel-go's
/// folder keeps a mutable map, `interpreter/interpretable.go`), so 5,000 entries take
/// linear time; the errors stay cel-go's (`ext/comprehensions_test.go`).
#[test]
fn transform_map_in_place() {
    let start = std::time::Instant::now();
    assert_true(
        "lists.range(5000).transformMap(i, v, v * 2).size() == 5000 \
         && lists.range(5000).transformMap(i, v, v * 2)[4999] == 9998",
        true,
    );
    assert_true(
        "lists.range(5000).transformMapEntry(i, v, {v: i}).size() == 5000",
        true,
    );
    assert_true(
        "lists.range(5000).transformMap(i, v, v % 2 == 0, v).size() == 2500",
        true,
    );
    assert!(start.elapsed() < std::time::Duration::from_secs(5));
    assert_error(
        "[1, 2].transformMapEntry(i, v, {'k': v})",
        "insert failed: key k already exists",
    );
    assert_error("[1, 2].transformMap(i, v, 1 / 0)", "division by zero");
    // a map accumulator that is a schema-less literal stays a plain map
    assert_true("{'a': 1}.transformMap(k, v, v + 1) == {'a': 2}", true);
}

/// The accumulator is initialised when first read (cel-go `interpreter/interpretable.go`,
/// `folder.ResolveName`): `cel.bind` of a value never used neither fails nor costs.
#[test]
fn lazy_accumulator() {
    assert_true("cel.bind(x, 1 / 0, true)", true);
    assert_error("cel.bind(x, 1 / 0, x + 1)", "division by zero");
    assert_true("cel.bind(x, 2, cel.bind(y, x * 3, y + x)) == 8", true);
    assert_true("cel.bind(x, [1, 2], [0].map(z, x)) == [[1, 2]]", true);
    let cost = |text: &str| {
        let ast = parse(text).unwrap();
        let checked = crate::cel::checker::check_types(&ast, &K8S).unwrap();
        let mut tracker = Tracker::new(None);
        Program::checked(&checked, K8S.clone())
            .eval(&HashMap::<String, Value>::new(), &mut tracker)
            .unwrap();
        tracker.spent()
    };
    assert_eq!(
        cost("cel.bind(x, [1, 2, 3].map(y, y * 2), 1)"),
        cost("cel.bind(x, 0, 1)")
    );
}

/// Evaluates checked `text` with `x = 0` (an int) and returns its cost.
fn cost_with_zero_x(text: &str) -> u64 {
    let mut env = Env::kubernetes();
    env.variable("x", crate::cel::types::Type::Int);
    let env = Arc::new(env);
    let ast = parse(text).unwrap();
    let checked = crate::cel::checker::check_types(&ast, &env).unwrap();
    let vars: HashMap<String, Value> = [("x".to_string(), Value::Int(0))].into_iter().collect();
    let mut tracker = Tracker::new(None);
    let _ = Program::checked(&checked, env).eval(&vars, &mut tracker);
    tracker.spent()
}

/// A call whose argument failed is still observed by cel-go's cost tracker when every
/// argument was evaluated (`interpreter/runtimecost.go`, `dropArgs`): binary and unary calls
/// always, longer calls when the last argument failed.
#[test]
fn failed_arguments_are_charged() {
    // x, `1 / x` and `+`
    assert_eq!(cost_with_zero_x("1 / x + 1"), 3);
    assert_eq!(cost_with_zero_x("-(1 / x)"), 3);
    assert_eq!(cost_with_zero_x("string(1 / x)"), 3);
    // the failing argument is not the last: `substring` is never observed
    assert_eq!(cost_with_zero_x("'abc'.substring(1 / x, 2)"), 2);
    assert!(cost_with_zero_x("'abc'.substring(0, 1 / x)") > 2);
}

/// A bad literal pattern for `find`/`findAll` fails when the program is built
/// (apiextensions-apiserver `pkg/apiserver/schema/cel/validation_test.go`
/// TestValidationExpressions: `compile error: program instantiation failed: error parsing
/// regexp: unexpected ): `)``).
#[test]
fn program_instantiation_errors() {
    let build = |text: &str| {
        let mut env = Env::kubernetes();
        env.variable("s", crate::cel::types::Type::String);
        let env = Arc::new(env);
        let ast = parse(text).unwrap();
        let checked = crate::cel::checker::check_types(&ast, &env).unwrap();
        Program::try_checked(&checked, env).map(|_| ())
    };
    for text in [
        "s.find(')') == ''",
        "s.findAll(')') == []",
        "s.findAll(')', 1) == []",
    ] {
        assert_eq!(
            build(text).unwrap_err().message,
            "error parsing regexp: unexpected ): `)`",
            "{text}"
        );
    }
    assert!(build("s.find('[a-z]+') == ''").is_ok());
    // a pattern computed at run time fails when evaluated instead
    assert!(build("s.find(s + ')') == ''").is_ok());
}

/// `string(timestamp)` shows the offset the timestamp was parsed with: cel-go's
/// `Timestamp.ConvertToType` formats with `time.RFC3339Nano` in the location `time.Parse`
/// kept (`common/types/timestamp.go`); equality and getters are about the instant (the API
/// server's `DefaultUTCTimeZone`).
#[test]
fn timestamp_offsets() {
    for t in [
        "string(timestamp('2021-01-01T00:00:00+01:00')) == '2021-01-01T00:00:00+01:00'",
        "string(timestamp('2021-01-01T00:00:00.5-08:30')) == '2021-01-01T00:00:00.5-08:30'",
        "string(timestamp('2021-01-01T00:00:00+00:00')) == '2021-01-01T00:00:00Z'",
        "string(timestamp('2021-01-01T00:00:00+01:00') + duration('1h')) \
         == '2021-01-01T01:00:00+01:00'",
        "string(timestamp('2021-01-01T00:00:00+01:00') - duration('1h')) \
         == '2020-12-31T23:00:00+01:00'",
        "timestamp('2021-01-01T00:00:00+01:00') == timestamp('2020-12-31T23:00:00Z')",
        "timestamp('2021-01-01T00:00:00+01:00').getHours() == 23",
        "string(timestamp(0)) == '1970-01-01T00:00:00Z'",
        "'%s'.format([timestamp('2021-01-01T00:00:00+01:00')]) == '2021-01-01T00:00:00+01:00'",
    ] {
        assert_true(t, true);
    }
}

/// Gateway API-style CRD rules, compiled once and evaluated 10,000 times each; prints µs
/// per evaluation. Run with `cargo test bench_crd_rules -- --ignored --nocapture`.
#[test]
#[ignore]
#[allow(clippy::print_stdout)] // a benchmark run by hand: its numbers are its output
fn bench_crd_rules() {
    use crate::cel::types::Type;
    let rules = [
        "self.listeners.all(l1, self.listeners.exists_one(l2, l1.name == l2.name))",
        "self.listeners.all(l, l.protocol in ['HTTP', 'TCP', 'UDP'] ? !has(l.tls) : true)",
        "self.listeners.all(l, !has(l.hostname) || \
         l.hostname.matches(r'^(\\*\\.)?[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$'))",
        "size(self.listeners) <= 64 && size(self.gatewayClassName) < 253",
        "self.?infrastructure.?labels.orValue({}).all(k, size(k) <= 63)",
        "self.listeners.all(l, l.port >= 1 && l.port <= 65535)",
        "self.listeners.map(l, l.name).filter(n, n.startsWith('http')).size() >= 0",
    ];
    let listener = |i: usize| {
        let mut m = BTreeMap::new();
        m.insert(
            Key::String("name".into()),
            Value::string(&format!("http-{i}")),
        );
        m.insert(Key::String("protocol".into()), Value::string("HTTP"));
        m.insert(Key::String("port".into()), Value::Int(8080 + i as i64));
        m.insert(
            Key::String("hostname".into()),
            Value::string(&format!("a{i}.example.com")),
        );
        Value::map(m)
    };
    let mut spec = BTreeMap::new();
    spec.insert(
        Key::String("listeners".into()),
        Value::list((0..8).map(listener).collect()),
    );
    spec.insert(Key::String("gatewayClassName".into()), Value::string("eg"));
    let vars: HashMap<String, Value> = [("self".to_string(), Value::map(spec))]
        .into_iter()
        .collect();
    let mut env = Env::kubernetes();
    env.variable("self", Type::map(Type::String, Type::Dyn));
    let env = Arc::new(env);
    let mut total = std::time::Duration::ZERO;
    const N: u32 = 10_000;
    for rule in rules {
        let ast = parse(rule).unwrap();
        let checked = crate::cel::checker::check_types(&ast, &env).unwrap();
        let program = Program::try_checked(&checked, env.clone()).unwrap();
        let start = std::time::Instant::now();
        for _ in 0..N {
            let mut tracker = Tracker::new(Some(1_000_000));
            let v = program.eval(&vars, &mut tracker);
            assert!(matches!(v, Ok(Value::Bool(true))), "{rule}: {v:?}");
        }
        let took = start.elapsed();
        total += took;
        println!("{:8.2} µs  {rule}", took.as_secs_f64() * 1e6 / f64::from(N));
    }
    println!(
        "{:8.2} µs  per rule on average",
        total.as_secs_f64() * 1e6 / f64::from(N) / rules.len() as f64
    );
}

/// Deeply nested comprehensions check, estimate and evaluate on the schema layer's 64 MB
/// stack, with stack use linear in the nesting (cel-go's parser allows 250 levels of
/// recursion; evaluation takes 4 to 8 MB for 240 levels in a debug build).
#[test]
fn deep_nested_comprehensions() {
    let depth = 240;
    let mut text = String::from("1");
    for i in 0..depth {
        text = format!("[1].map(x{i}, {text})");
    }
    let handle = std::thread::Builder::new()
        .stack_size(64 << 20)
        .spawn(move || {
            let cost = |text: &str| {
                let ast = parse(text).unwrap();
                let checked = crate::cel::checker::check(&ast, &K8S).unwrap();
                let sizes = crate::cel::cost::HintSizes::default();
                let _ = crate::cel::cost::estimate(&checked, &sizes);
            };
            cost(&text);
            run_checked(&text).map(|v| matches!(v, Value::List(_)))
        })
        .unwrap();
    let got = handle.join().unwrap();
    assert!(matches!(got, Ok(true)), "{got:?}");
}

/// Programs are built once and shared: the schema layer may evaluate one from several
/// threads.
#[test]
fn programs_are_shareable() {
    fn shareable<T: Send + Sync>() {}
    shareable::<Program>();
}
