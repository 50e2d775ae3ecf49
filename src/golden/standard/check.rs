//! Checking a render's documents against a test's chainsaw assertions: each assertion
//! document is looked up as chainsaw looks it up (apiVersion, kind, name, namespace) and, as
//! `up test run` does, by its `crossplane.io/composition-resource-name` annotation when it
//! gives one; then matched as a subset. A failure names the assertion, the resource, each
//! field path with expected and actual values, and the line of the assertion that asked.

use super::spec::{Assertion, at};
use crate::golden::subset::{self, Found};
use crate::render::RESOURCE_NAME_ANNOTATION as RESOURCE_NAME;
use crate::source::SourceFile;
use crate::source::pointer::Pointer;
use serde_json::Value as Json;

/// How an assertion names the resource it is about: `apiVersion Kind "name" (resource
/// "block")`, the parts it gives.
fn described(doc: &Json) -> String {
    let text = |p: &str| doc.at(p).and_then(Json::as_str);
    let mut out = format!(
        "{} {}",
        text("/apiVersion").unwrap_or("(any apiVersion)"),
        text("/kind").unwrap_or("(any kind)")
    );
    if let Some(name) = text("/metadata/name") {
        out.push_str(&format!(" {name:?}"));
    }
    if let Some(block) = crate::golden::scenario::resource_name(doc) {
        out.push_str(&format!(" (resource {block:?})"));
    }
    out
}

/// The documents an assertion may be about: all, or those of the composition resource name it
/// gives.
fn scoped<'a>(expected: &Json, documents: &'a [Json]) -> Vec<&'a Json> {
    let annotation = |doc: &Json| {
        doc.at("/metadata/annotations")
            .and_then(|a| a.get(RESOURCE_NAME))
            .cloned()
    };
    match annotation(expected) {
        Some(wanted) => documents
            .iter()
            .filter(|d| annotation(d).as_ref() == Some(&wanted))
            .collect(),
        None => documents.iter().collect(),
    }
}

/// The failures of `assertions` against `documents`: one text per failing assertion (empty
/// when all hold). `label` names where the assertions are (`assertions`, `step 2`).
pub fn check(
    file: &SourceFile,
    label: &str,
    assertions: &[Assertion],
    documents: &[Json],
) -> Vec<String> {
    let mut out = Vec::new();
    for (i, assertion) in assertions.iter().enumerate() {
        let docs: Vec<Json> = scoped(&assertion.doc, documents)
            .into_iter()
            .cloned()
            .collect();
        let head = format!(
            "{label}: assertion {} ({})",
            i + 1,
            described(&assertion.doc)
        );
        match subset::find(&assertion.doc, &docs) {
            Found::Matches(_) => {}
            Found::NoCandidate => out.push(format!(
                "{head}: no such resource in the output\n  {}\n",
                at(file, &assertion.node, "actual resource not found")
            )),
            Found::Differs(candidates) => {
                let (_, mismatches) = &candidates[0];
                let mut text = format!("{head} does not match:\n");
                for mismatch in mismatches {
                    let node = subset::node_at(&assertion.node, &mismatch.path);
                    text.push_str(&format!("  {}\n", at(file, node, &mismatch.to_string())));
                }
                if candidates.len() > 1 {
                    text.push_str(&format!(
                        "  ({} other resources of its kind do not match either)\n",
                        candidates.len() - 1
                    ));
                }
                out.push(text);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::SourceMap;
    use serde_json::json;

    #[test]
    fn a_failure_points_at_the_assertion_line() {
        let text = "kind: Bucket\napiVersion: s3/v1\nspec:\n  region: eu-west-1\n";
        let mut map = SourceMap::new();
        let id = map.add("t.yaml".to_string(), text.to_string());
        let node = crate::source::yaml::parse_nodes(text).unwrap().remove(0);
        let assertion = Assertion {
            doc: json!({"kind": "Bucket", "apiVersion": "s3/v1", "spec": {"region": "eu-west-1"}}),
            node,
        };
        let docs =
            [json!({"kind": "Bucket", "apiVersion": "s3/v1", "spec": {"region": "us-east-1"}})];
        let failures = check(
            map.get(id),
            "assertions",
            std::slice::from_ref(&assertion),
            &docs,
        );
        assert_eq!(
            failures,
            [
                "assertions: assertion 1 (s3/v1 Bucket) does not match:\n  t.yaml:4:11: spec.region: Invalid value: \"us-east-1\": Expected value: \"eu-west-1\"\n"
            ]
        );
        let fine = [
            json!({"kind": "Bucket", "apiVersion": "s3/v1", "spec": {"region": "eu-west-1", "x": 1}}),
        ];
        assert!(
            check(
                map.get(id),
                "assertions",
                std::slice::from_ref(&assertion),
                &fine
            )
            .is_empty()
        );
        let failures = check(map.get(id), "step 1", &[assertion], &[]);
        assert_eq!(
            failures,
            [
                "step 1: assertion 1 (s3/v1 Bucket): no such resource in the output\n  t.yaml:1:1: actual resource not found\n"
            ]
        );
    }

    #[test]
    fn the_resource_name_annotation_scopes_the_lookup() {
        let expected = json!({"metadata": {"annotations": {RESOURCE_NAME: "b"}}});
        let docs = [
            json!({"metadata": {"annotations": {RESOURCE_NAME: "a"}}}),
            json!({"metadata": {"annotations": {RESOURCE_NAME: "b"}}}),
        ];
        assert_eq!(scoped(&expected, &docs), vec![&docs[1]]);
    }
}
