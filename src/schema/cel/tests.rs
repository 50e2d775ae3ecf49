use super::*;
use crate::schema::rule::mentions_old_self;
use serde_json::json;

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
    assert!(!mentions_old_self("self.x == 'oldSelf'"));
    assert!(!mentions_old_self("self.oldSelfish"));
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
        (lists.as_str(), "max recursion depth exceeded"),
        (unbalanced.as_str(), "max recursion depth exceeded"),
    ] {
        let r = rule(json!({ "rule": source }));
        let error = r.compile_error().expect("refused");
        assert!(error.contains(expected), "{error}");
        match r.check(&json!({}), &node) {
            Outcome::Error(e) => assert!(e.starts_with("compilation failed: "), "{e}"),
            other => panic!("{other:?}"),
        }
    }
    // The crate's parser refuses 97 nested parentheses with an error whose own formatting
    // panics: the text is ours, and nothing is printed.
    let deep = format!("{}true{}", "(".repeat(120), ")".repeat(120));
    let r = rule(json!({ "rule": deep }));
    assert!(
        r.compile_error()
            .is_some_and(|e| e.contains("Recursion limit"))
    );
    // Within the limits, a long chain still runs.
    let r = rule(json!({"rule": format!("{} == 200", vec!["1"; 200].join(" + "))}));
    assert_eq!(r.compile_error(), None);
    assert_eq!(r.check(&json!({}), &node), Outcome::Holds);
}

fn small_budget() -> Budget {
    Budget::new(10_000, 50_000, std::time::Duration::from_secs(600))
}

#[test]
fn a_rule_stops_at_the_call_limit_and_the_object_budget() {
    let node = Node::default();
    let value = json!({"items": (0..400).collect::<Vec<i64>>()});
    let nested = rule(json!({
        "rule": "self.items.all(a, self.items.all(b, self.items.all(c, a + b + c >= 0)))"
    }));
    let budget = small_budget();
    assert_eq!(
        nested.check_within(&value, &node, &budget),
        Outcome::CallLimit
    );
    assert!(!budget.exhausted());
    // A cheap rule still runs on the same object.
    let cheap = rule(json!({"rule": "self.items.all(a, a >= 0)"}));
    assert_eq!(cheap.check_within(&value, &node, &budget), Outcome::Holds);
    // Five more expensive calls spend the object's budget: from then on nothing runs.
    let outcomes: Vec<Outcome> = (0..6)
        .map(|_| nested.check_within(&value, &node, &budget))
        .collect();
    assert!(outcomes.contains(&Outcome::OutOfBudget), "{outcomes:?}");
    assert!(budget.exhausted());
    assert_eq!(
        cheap.check_within(&value, &node, &budget),
        Outcome::OutOfBudget
    );
    // A budget error inside `||` stops the rule all the same.
    let hidden = rule(json!({
        "rule": "self.items.exists(a, self.items.exists(b, self.items.exists(c, a + b + c < 0))) || true"
    }));
    assert_eq!(
        hidden.check_within(&value, &node, &small_budget()),
        Outcome::CallLimit
    );
}

#[test]
fn map_and_filter_are_linear_and_keep_their_meaning() {
    let node = Node::default();
    let big = json!({"items": (0..20_000).collect::<Vec<i64>>()});
    // 20,000 items twice over, well within a per-call limit of 100,000 units: the crate's
    // expansion would copy its accumulator on each of them.
    let budget = Budget::new(100_000, 100_000, std::time::Duration::from_secs(600));
    let r = rule(json!({
        "rule": "self.items.map(x, x * 2).filter(x, x % 4 == 0).size() == 10000"
    }));
    assert_eq!(r.check_within(&big, &node, &budget), Outcome::Holds);
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
    // Errors inside the body are the crate's, as before.
    assert!(matches!(
        rule(json!({"rule": "self.items.filter(x, x).size() > 0"})).check(&small, &node),
        Outcome::Error(e) if e.starts_with("No such overload")
    ));
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
    match rule(json!({"rule": "self.word.matches('(')"})).check(&value, &node) {
        Outcome::Error(e) => assert!(e.contains("missing closing ): `(`"), "{e}"),
        other => panic!("{other:?}"),
    }
}
