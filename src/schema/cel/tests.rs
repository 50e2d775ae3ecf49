use super::*;
use crate::schema::node::Node;
use serde_json::{Value as Json, json};

fn rule(json: Json) -> Rule {
    Rule::compile(&json).unwrap()
}

#[test]
fn rules_of_real_crds_hold_and_fail() {
    let node = Node::default();
    let r = rule(
        json!({"rule": "self.plural == self.plural.lowerAscii()", "message": "Plural name must be lowercase"}),
    );
    assert_eq!(
        r.check(&json!({"plural": "buckets"}), &node),
        Outcome::Holds
    );
    assert_eq!(
        r.check(&json!({"plural": "Buckets"}), &node),
        Outcome::Fails("Plural name must be lowercase".into())
    );
    let r = rule(json!({"rule": "!(has(self.name) && has(self.matchLabels))"}));
    assert_eq!(r.check(&json!({"name": "a"}), &node), Outcome::Holds);
    assert_eq!(
        r.check(&json!({"name": "a", "matchLabels": {}}), &node),
        Outcome::Fails("failed rule: !(has(self.name) && has(self.matchLabels))".into())
    );
    let r = rule(
        json!({"rule": "!('*' in self.managementPolicies || 'Create' in self.managementPolicies) || has(self.forProvider.region)"}),
    );
    assert_eq!(
        r.check(
            &json!({"managementPolicies": ["Observe"], "forProvider": {}}),
            &node
        ),
        Outcome::Holds
    );
    assert!(matches!(
        r.check(
            &json!({"managementPolicies": ["*"], "forProvider": {}}),
            &node
        ),
        Outcome::Fails(_)
    ));
}

#[test]
fn transition_rules_are_skipped_and_messages_can_be_expressions() {
    let node = Node::default();
    let r = rule(json!({"rule": "self == oldSelf", "message": "Value is immutable"}));
    assert!(r.transition);
    assert_eq!(r.check(&json!("x"), &node), Outcome::Holds);
    // Only a reference to the variable makes a transition rule.
    assert!(!rule(json!({"rule": "self.x == 'oldSelf'"})).transition);
    assert!(!rule(json!({"rule": "has(self.oldSelf)"})).transition);
    let r = rule(
        json!({"rule": "self.size() < 3", "messageExpression": "'too many: ' + string(self.size())"}),
    );
    assert_eq!(
        r.check(&json!([1, 2, 3]), &node),
        Outcome::Fails("too many: 3".into())
    );
}

#[test]
fn oversized_and_deep_rules_are_errors_about_the_rule() {
    let node = Node::default();
    let chain = format!("{} > 0", vec!["1"; 10_000].join(" + "));
    let nested = format!("{}true{}", "(".repeat(100_000), ")".repeat(100_000));
    let lists = format!("{}1{} == 1", "[".repeat(300), "]".repeat(300));
    let unbalanced = format!("{}true", "(".repeat(40_000));
    for (source, expected) in [
        (chain.as_str(), "max recursion depth exceeded"),
        (
            nested.as_str(),
            "expression code point size exceeds limit: size: 200004",
        ),
        (lists.as_str(), "expression recursion limit exceeded: 250"),
        (
            unbalanced.as_str(),
            "expression recursion limit exceeded: 250",
        ),
    ] {
        let r = rule(json!({ "rule": source }));
        let error = r.compile_error().expect("refused");
        assert!(error.contains(expected), "{error}");
        match r.check(&json!({}), &node) {
            Outcome::CompileError(e) => assert!(e.starts_with("compilation failed: "), "{e}"),
            other => panic!("{other:?}"),
        }
    }
    // 120 nested parentheses are within cel-go's limit.
    let deep = format!("{}true{}", "(".repeat(120), ")".repeat(120));
    assert_eq!(rule(json!({ "rule": deep })).compile_error(), None);
    // Within the limits, a long chain still runs.
    let r = rule(json!({"rule": format!("{} == 200", vec!["1"; 200].join(" + "))}));
    assert_eq!(r.compile_error(), None);
    assert_eq!(r.check(&json!({}), &node), Outcome::Holds);
}

fn small_budget() -> Budget {
    Budget::new(100_000, 500_000, std::time::Duration::from_secs(600))
}

/// Runs `rule` on `value` (untyped) spending from `budget`.
fn within(rule: &Rule, value: &Json, budget: &Budget) -> Outcome {
    let this = crate::schema::celvalue::to_value(value, &Node::default(), false);
    rule.run(&this, None, budget)
}

#[test]
fn a_rule_stops_at_the_call_limit_and_the_object_budget() {
    let value = json!({"items": (0..400).collect::<Vec<i64>>()});
    let nested = rule(json!({
        "rule": "self.items.all(a, self.items.all(b, self.items.all(c, a + b + c >= 0)))"
    }));
    let budget = small_budget();
    assert_eq!(within(&nested, &value, &budget), Outcome::CallLimit);
    assert!(!budget.exhausted());
    // A cheap rule still runs on the same object.
    let cheap = rule(json!({"rule": "self.items.all(a, a >= 0)"}));
    assert_eq!(within(&cheap, &value, &budget), Outcome::Holds);
    // Five more expensive calls spend the object's budget: from then on nothing runs.
    let outcomes: Vec<Outcome> = (0..6).map(|_| within(&nested, &value, &budget)).collect();
    assert!(outcomes.contains(&Outcome::OutOfBudget), "{outcomes:?}");
    assert!(budget.exhausted());
    assert_eq!(within(&cheap, &value, &budget), Outcome::OutOfBudget);
    // A budget error inside `||` stops the rule all the same.
    let hidden = rule(json!({
        "rule": "self.items.exists(a, self.items.exists(b, self.items.exists(c, a + b + c < 0))) || true"
    }));
    assert_eq!(within(&hidden, &value, &small_budget()), Outcome::CallLimit);
}

#[test]
fn map_and_filter_are_linear_and_keep_their_meaning() {
    let node = Node::default();
    let big = json!({"items": (0..20_000).collect::<Vec<i64>>()});
    // 20,000 items twice over, within the per-call limit: an expansion that copied its
    // accumulator on each item would be quadratic.
    let budget = Budget::default();
    let r = rule(json!({
        "rule": "self.items.map(x, x * 2).filter(x, x % 4 == 0).size() == 10000"
    }));
    assert_eq!(within(&r, &big, &budget), Outcome::Holds);
    let small = json!({"items": [1, 2, 3, 4], "m": {"a": 1}});
    for (source, holds) in [
        ("self.items.map(x, x * 10) == [10, 20, 30, 40]", true),
        ("self.items.map(x, x > 2, x) == [3, 4]", true),
        ("self.items.filter(x, x % 2 == 0) == [2, 4]", true),
        ("self.m.map(k, k) == ['a']", true),
        (
            "self.items.map(x, [x].map(y, y + x)) == [[2], [4], [6], [8]]",
            true,
        ),
        ("self.items.exists_one(x, x == 3)", true),
        ("self.items.exists(x, x == 5)", false),
        ("[[1, 2], [3]].all(l, l.all(x, x > 0))", true),
    ] {
        let expected = if holds {
            Outcome::Holds
        } else {
            Outcome::Fails(format!("failed rule: {source}"))
        };
        assert_eq!(
            rule(json!({ "rule": source })).check(&small, &node),
            expected,
            "{source}"
        );
    }
    // A body that is not a bool: no overload of the logical operators takes it.
    assert_eq!(
        rule(json!({"rule": "self.items.filter(x, x).size() > 0"})).check(&small, &node),
        Outcome::NoSuchOverload
    );
    // A message expression may use them too.
    let r = rule(json!({
        "rule": "self.items.size() < 2",
        "messageExpression": "'odd: ' + string(self.items.filter(x, x % 2 == 1).size())"
    }));
    assert_eq!(r.check(&small, &node), Outcome::Fails("odd: 2".into()));
}

#[test]
fn regexes_are_re2s() {
    let node = Node::default();
    let value = json!({"word": "café", "digits": "١٢٣", "text": "a1 b22 c333"});
    for (source, holds) in [
        (r"self.word.matches('^\\w+$')", false),
        (r"self.word.matches('^caf')", true),
        (r"self.digits.matches('^\\d+$')", false),
        (r"matches(self.word, '^\\w+$')", false),
        (r"self.text.find('[0-9]+') == '1'", true),
        (r"self.text.find('x') == ''", true),
        (r"self.text.findAll('[0-9]+') == ['1', '22', '333']", true),
        (r"self.text.findAll('[0-9]+', 2) == ['1', '22']", true),
        (r"self.text.findAll('[0-9]+', -1).size() == 3", true),
    ] {
        let expected = if holds {
            Outcome::Holds
        } else {
            Outcome::Fails(format!("failed rule: {source}"))
        };
        assert_eq!(
            rule(json!({ "rule": source })).check(&value, &node),
            expected,
            "{source}"
        );
    }
    // A literal pattern is checked when the rule compiles (cel-go's `ValidateRegexLiterals`),
    // one computed at run time when it runs.
    match rule(json!({"rule": "self.word.matches('(')"})).check(&value, &node) {
        Outcome::CompileError(e) => assert!(e.contains("invalid matches argument"), "{e}"),
        other => panic!("{other:?}"),
    }
    match rule(json!({"rule": "self.word.matches(self.word + '(')"})).check(&value, &node) {
        Outcome::Error(e) => assert!(e.contains("missing closing ): `café(`"), "{e}"),
        other => panic!("{other:?}"),
    }
}
