//! Unit tests of stream matching and ignore paths.

use super::*;
use serde_json::json;

fn xr(extra: Json) -> Json {
    let mut doc =
        json!({"apiVersion": "example.org/v1", "kind": "XApp", "metadata": {"name": "app"}});
    if let (Json::Object(d), Json::Object(e)) = (&mut doc, extra) {
        d.extend(e);
    }
    doc
}

fn composed(name: &str, value: i64) -> Json {
    json!({
        "apiVersion": "v1",
        "kind": "ConfigMap",
        "metadata": {"annotations": {"crossplane.io/composition-resource-name": name}, "generateName": "app-"},
        "data": {"value": value},
    })
}

fn result(step: &str, message: &str) -> Json {
    json!({"apiVersion": "render.crossplane.io/v1beta1", "kind": "Result", "step": step, "message": message, "severity": "SEVERITY_NORMAL"})
}

fn changes(diff: &StreamDiff) -> Vec<(String, &'static str)> {
    diff.documents
        .iter()
        .map(|d| (d.identity.title(), d.change.word()))
        .collect()
}

#[test]
fn reordered_documents_are_equal() {
    let old = vec![
        xr(json!({})),
        composed("a", 1),
        composed("b", 2),
        result("s", "ok"),
    ];
    let new = vec![
        xr(json!({})),
        composed("b", 2),
        composed("a", 1),
        result("s", "ok"),
    ];
    let diff = diff_streams(&old, &new, &[]);
    assert!(!diff.summary().differs(), "{:?}", changes(&diff));
    assert_eq!(diff.summary().unchanged, 4);
}

#[test]
fn added_removed_and_changed_are_told_apart() {
    let old = vec![xr(json!({})), composed("a", 1), composed("gone", 2)];
    let new = vec![
        xr(json!({"status": {"x": 1}})),
        composed("a", 5),
        composed("new", 3),
    ];
    let diff = diff_streams(&old, &new, &[]);
    assert_eq!(
        changes(&diff),
        vec![
            ("XR example.org/v1 XApp app".to_string(), "changed"),
            ("v1 ConfigMap a".to_string(), "changed"),
            ("v1 ConfigMap new".to_string(), "added"),
            ("v1 ConfigMap gone".to_string(), "removed"),
        ]
    );
    let s = diff.summary();
    assert_eq!((s.changed, s.added, s.removed, s.unchanged), (2, 1, 1, 0));
    let text = diff.documents[1].unified(3, "old", "new");
    assert!(text.contains("-  value: 1\n+  value: 5\n"), "{text}");
}

#[test]
fn results_match_by_position_and_context_by_kind() {
    let context = |v: i64| json!({"apiVersion": "render.crossplane.io/v1beta1", "kind": "Context", "fields": {"v": v}});
    let old = vec![
        xr(json!({})),
        result("s", "one"),
        result("s", "two"),
        context(1),
    ];
    let new = vec![xr(json!({})), result("s", "one"), context(2)];
    let diff = diff_streams(&old, &new, &[]);
    assert_eq!(
        changes(&diff),
        vec![
            ("XR example.org/v1 XApp app".to_string(), "unchanged"),
            ("Result 1 (step \"s\")".to_string(), "unchanged"),
            ("Context".to_string(), "changed"),
            ("Result 2 (step \"s\")".to_string(), "removed"),
        ]
    );
}

#[test]
fn resources_without_a_resource_name_match_by_name() {
    let plain = |ns: &str, name: &str, v: i64| json!({"apiVersion": "v1", "kind": "Secret", "metadata": {"name": name, "namespace": ns}, "data": {"v": v}});
    let old = vec![xr(json!({})), plain("a", "s", 1), plain("b", "s", 1)];
    let new = vec![xr(json!({})), plain("b", "s", 2), plain("a", "s", 1)];
    let diff = diff_streams(&old, &new, &[]);
    assert_eq!(
        changes(&diff)[1..],
        [
            ("v1 Secret b/s".to_string(), "changed"),
            ("v1 Secret a/s".to_string(), "unchanged"),
        ]
    );
}

#[test]
fn ignored_paths_do_not_count() {
    let with = |id: &str, time: &str| {
        json!({
            "apiVersion": "example.org/v1", "kind": "XApp",
            "metadata": {"name": "app", "annotations": {"example.org/build-id": id, "keep": "k"}},
            "status": {"conditions": [{"type": "Ready", "lastTransitionTime": time}, {"type": "Synced", "lastTransitionTime": time}]},
        })
    };
    let old = vec![with("1", "t1")];
    let new = vec![with("2", "t2")];
    assert!(diff_streams(&old, &new, &[]).summary().differs());
    let ignore = [
        IgnorePath::parse("metadata.annotations[example.org/build-id]").unwrap(),
        IgnorePath::parse("status.conditions.lastTransitionTime").unwrap(),
    ];
    let diff = diff_streams(&old, &new, &ignore);
    assert!(
        !diff.summary().differs(),
        "{:?}",
        diff.documents[0].unified(3, "a", "b")
    );
    // The kept annotation is still compared.
    let mut other = with("3", "t3");
    other["metadata"]["annotations"]["keep"] = json!("changed");
    assert!(diff_streams(&old, &[other], &ignore).summary().differs());
}

#[test]
fn ignore_paths_select_list_elements() {
    let mut v = json!({"spec": {"items": [{"id": 1, "x": 1}, {"id": 2, "x": 2}], "all": [1, 2]}});
    IgnorePath::parse("spec.items[1].x")
        .unwrap()
        .remove_from(&mut v);
    IgnorePath::parse("spec.all[*]")
        .unwrap()
        .remove_from(&mut v);
    IgnorePath::parse("spec.items[9].x")
        .unwrap()
        .remove_from(&mut v);
    IgnorePath::parse("no.such[path]")
        .unwrap()
        .remove_from(&mut v);
    assert_eq!(
        v,
        json!({"spec": {"items": [{"id": 1, "x": 1}, {"id": 2}], "all": []}})
    );
}

#[test]
fn malformed_ignore_paths_are_refused() {
    for bad in ["", ".a", "a.", "a..b", "a[b", "a]", "a[]", "a[b]c", "a.[b]"] {
        let err = IgnorePath::parse(bad).expect_err(bad);
        assert_eq!(err.path, bad);
    }
    for good in ["a", "a.b", "a[b.c/d]", "a[0].b", "[x]", "a[b][c]"] {
        assert!(IgnorePath::parse(good).is_ok(), "{good}");
    }
}
