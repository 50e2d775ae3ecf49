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
