//! crossplane-runtime v2.1.0's `pkg/fieldpath` test tables (`fieldpath_test.go`,
//! `paved_test.go`, `merge_test.go`), each case named after its Go case.

use serde_json::{Value, json};

use super::*;

/// Segments written as strings: `#3` is index 3, anything else a field.
fn segs(items: &[&str]) -> Segments {
    Segments(
        items
            .iter()
            .map(|s| match s.strip_prefix('#') {
                Some(i) => Segment::Index(i.parse().unwrap()),
                None => Segment::Field(s.to_string()),
            })
            .collect(),
    )
}

#[test]
fn segments_string() {
    // fieldpath_test.go TestSegments
    let cases: &[(&str, Segments, &str)] = &[
        ("SingleField", segs(&["spec"]), "spec"),
        ("SingleIndex", Segments(vec![field_or_index("0")]), "[0]"),
        (
            "FieldsAndIndex",
            segs(&["spec", "containers", "#0", "name"]),
            "spec.containers[0].name",
        ),
        (
            "PeriodsInField",
            segs(&["data", ".config.yml"]),
            "data[.config.yml]",
        ),
        (
            "Wildcard",
            Segments(vec![
                field("spec"),
                field("containers"),
                field_or_index("*"),
                field("name"),
            ]),
            "spec.containers[*].name",
        ),
    ];
    for (name, s, want) in cases {
        assert_eq!(s.to_string(), *want, "{name}");
    }
}

#[test]
fn field_or_index_table() {
    // fieldpath_test.go TestFieldOrIndex
    let cases = [
        ("Field", "coolField", Segment::Field("coolField".into())),
        (
            "QuotedField",
            "'coolField'",
            Segment::Field("coolField".into()),
        ),
        (
            "QuotedFieldWithPeriods",
            "'cool.Field'",
            Segment::Field("cool.Field".into()),
        ),
        ("Index", "3", Segment::Index(3)),
        ("Negative", "-3", Segment::Field("-3".into())),
        ("Float", "3.0", Segment::Field("3.0".into())),
        (
            "Overflow",
            "4294967296",
            Segment::Field("4294967296".into()),
        ),
    ];
    for (name, s, want) in cases {
        assert_eq!(field_or_index(s), want, "{name}");
    }
}

#[test]
fn parse_table() {
    // fieldpath_test.go TestParse
    let ok: &[(&str, &str, &[&str])] = &[
        ("SingleField", "spec", &["spec"]),
        ("SingleIndex", "[0]", &["#0"]),
        ("TwoFields", "metadata.name", &["metadata", "name"]),
        (
            "APIConventionsExample",
            "fields[1].state.current",
            &["fields", "#1", "state", "current"],
        ),
        ("SimpleIndex", "items[0]", &["items", "#0"]),
        (
            "FieldsAndIndex",
            "spec.containers[0].name",
            &["spec", "containers", "#0", "name"],
        ),
        (
            "NestedArray",
            "nested[0][1].name",
            &["nested", "#0", "#1", "name"],
        ),
        (
            "BracketStyleField",
            "spec[containers][0].name",
            &["spec", "containers", "#0", "name"],
        ),
        (
            "BracketFieldWithPeriod",
            "data[.config.yml]",
            &["data", ".config.yml"],
        ),
        (
            "QuotedFieldWithPeriodInBracket",
            "metadata.labels['app.hash']",
            &["metadata", "labels", "app.hash"],
        ),
    ];
    for (name, path, want) in ok {
        assert_eq!(parse(path), Ok(segs(want)), "{name}");
    }
    let bad = [
        (
            "LeadingPeriod",
            ".metadata.name",
            "unexpected '.' at position 0",
        ),
        (
            "TrailingPeriod",
            "metadata.name.",
            "unexpected '.' at position 13",
        ),
        (
            "BracketsFollowingPeriod",
            "spec.containers.[0].name",
            "unexpected '[' at position 16",
        ),
        (
            "DoublePeriod",
            "metadata..name",
            "unexpected '.' at position 9",
        ),
        (
            "DanglingRightBracket",
            "metadata.]name",
            "unexpected ']' at position 9",
        ),
        (
            "DoubleOpenBracket",
            "spec[bracketed[name]]",
            "unexpected '[' at position 14",
        ),
        (
            "DanglingLeftBracket",
            "spec[name",
            "unterminated '[' at position 4",
        ),
        ("EmptyBracket", "spec[]", "unexpected ']' at position 5"),
    ];
    for (name, path, want) in bad {
        assert_eq!(parse(path), Err(want.to_string()), "{name}");
    }
    // Not in Go's table: an empty path has no segments, and reads as nil.
    assert_eq!(parse(""), Ok(Segments::default()));
    assert_eq!(get_value(&json!({"a": 1}), ""), Ok(&Value::Null));
}

const MALFORMED: &str = "cannot parse path \"spec[]\": unexpected ']' at position 5";

fn nf(m: &str) -> Error {
    Error {
        message: m.into(),
        not_found: true,
    }
}

fn plain(m: &str) -> Error {
    Error {
        message: m.into(),
        not_found: false,
    }
}

#[test]
fn is_not_found_survives_wrapping() {
    // paved_test.go TestIsNotFound: NotFound, WrapsNotFound, SomethingElse
    assert!(nf("boom").is_not_found());
    assert!(nf("boom").wrap("because reasons").is_not_found());
    assert_eq!(
        nf("boom").wrap("because reasons").message,
        "because reasons: boom"
    );
    assert!(!plain("boom").is_not_found());
}

#[test]
fn get_value_table() {
    // paved_test.go TestGetValue
    let cases: Vec<(&str, &str, Value, Result<Value, Error>)> = vec![
        (
            "MetadataName",
            "metadata.name",
            json!({"metadata": {"name": "cool"}}),
            Ok(json!("cool")),
        ),
        (
            "ContainerName",
            "spec.containers[0].name",
            json!({"spec": {"containers": [{"name": "cool"}]}}),
            Ok(json!("cool")),
        ),
        (
            "NestedArray",
            "items[0][1]",
            json!({"items": [["a", "b"]]}),
            Ok(json!("b")),
        ),
        (
            "OwnerRefController",
            "metadata.ownerRefs[0].controller",
            json!({"metadata": {"ownerRefs": [{"controller": true}]}}),
            Ok(json!(true)),
        ),
        (
            "MetadataVersion",
            "metadata.version",
            json!({"metadata": {"version": 2}}),
            Ok(json!(2)),
        ),
        (
            "SomeFloat",
            "metadata.version",
            json!({"metadata": {"version": 2.0}}),
            Ok(json!(2.0)),
        ),
        (
            "MetadataNope",
            "metadata.name",
            json!({"metadata": {"nope": "cool"}}),
            Err(nf("metadata.name: no such field")),
        ),
        (
            "InsufficientContainers",
            "spec.containers[1].name",
            json!({"spec": {"containers": [{"name": "cool"}]}}),
            Err(nf("spec.containers[1]: no such element")),
        ),
        (
            "NotAnArray",
            "metadata[1]",
            json!({"metadata": {"nope": "cool"}}),
            Err(plain("metadata: not an array")),
        ),
        (
            "NotAnObject",
            "spec.containers[nope].name",
            json!({"spec": {"containers": [{"name": "cool"}]}}),
            Err(plain("spec.containers: not an object")),
        ),
        ("MalformedPath", "spec[]", json!({}), Err(plain(MALFORMED))),
        (
            "NilParent",
            "spec.containers[*].name",
            json!({"spec": {"containers": null}}),
            Err(nf("spec.containers: expected map, got nil")),
        ),
    ];
    for (name, path, data, want) in cases {
        let got = get_value(&data, path).cloned();
        assert_eq!(got, want, "{name}");
        if let Ok(v) = &got {
            // SomeFloat: 2.0 stays a float64, MetadataVersion's 2 an int64.
            assert_eq!(
                v.as_number().map(is_int64),
                want.as_ref().unwrap().as_number().map(is_int64),
                "{name}"
            );
        }
    }
    assert!(!is_int64(json!(2.0).as_number().unwrap()));
}

#[test]
fn typed_getters_tables() {
    // paved_test.go TestGetString, TestGetBool, TestGetInteger
    let d =
        json!({"metadata": {"name": "cool", "version": 2, "ownerRefs": [{"controller": true}]}});
    assert_eq!(
        get_string(&d, "metadata.name"),
        Ok("cool".into()),
        "GetString MetadataName"
    );
    assert_eq!(
        get_string(&d, "spec[]"),
        Err(plain(MALFORMED)),
        "GetString MalformedPath"
    );
    assert_eq!(
        get_string(&d, "metadata.version"),
        Err(plain("metadata.version: not a string")),
        "NotAString"
    );
    assert_eq!(
        get_bool(&d, "metadata.ownerRefs[0].controller"),
        Ok(true),
        "GetBool OwnerRefController"
    );
    assert_eq!(
        get_bool(&d, "spec[]"),
        Err(plain(MALFORMED)),
        "GetBool MalformedPath"
    );
    assert_eq!(
        get_bool(&d, "metadata.name"),
        Err(plain("metadata.name: not a bool")),
        "NotABool"
    );
    assert_eq!(
        get_integer(&d, "metadata.version"),
        Ok(2),
        "GetInteger MetadataVersion"
    );
    assert_eq!(
        get_integer(&d, "spec[]"),
        Err(plain(MALFORMED)),
        "GetInteger MalformedPath"
    );
    assert_eq!(
        get_integer(&d, "metadata.name"),
        Err(plain("metadata.name: not a (int64) number")),
        "NotANumber"
    );
    // Not in Go's table: a float64 is not an int64.
    assert_eq!(
        get_integer(&json!({"a": 2.0}), "a"),
        Err(plain("a: not a (int64) number"))
    );
}

/// Name, object, path, value, object after, error.
type SetCase = (
    &'static str,
    Value,
    &'static str,
    Value,
    Value,
    Option<&'static str>,
);

#[test]
fn set_value_table() {
    // paved_test.go TestSetValue (NotRejectsHighIndexesIfNoDefaultOptions is left out: P&T
    // always paves with the default maximum index).
    let cases: Vec<SetCase> = vec![
        (
            "MetadataName",
            json!({"metadata": {"name": "lame"}}),
            "metadata.name",
            json!("cool"),
            json!({"metadata": {"name": "cool"}}),
            None,
        ),
        (
            "NonExistentMetadataName",
            json!({}),
            "metadata.name",
            json!("cool"),
            json!({"metadata": {"name": "cool"}}),
            None,
        ),
        (
            "ContainerName",
            json!({"spec": {"containers": [{"name": "lame"}]}}),
            "spec.containers[0].name",
            json!("cool"),
            json!({"spec": {"containers": [{"name": "cool"}]}}),
            None,
        ),
        (
            "NonExistentContainerName",
            json!({}),
            "spec.containers[0].name",
            json!("cool"),
            json!({"spec": {"containers": [{"name": "cool"}]}}),
            None,
        ),
        (
            "NewContainer",
            json!({"spec": {"containers": [{"name": "cool"}]}}),
            "spec.containers[1].name",
            json!("cooler"),
            json!({"spec": {"containers": [{"name": "cool"}, {"name": "cooler"}]}}),
            None,
        ),
        (
            "NestedArray",
            json!({}),
            "data[0][0]",
            json!("a"),
            json!({"data": [["a"]]}),
            None,
        ),
        (
            "GrowNestedArray",
            json!({"data": [["a"]]}),
            "data[0][1]",
            json!("b"),
            json!({"data": [["a", "b"]]}),
            None,
        ),
        (
            "GrowArrayField",
            json!({"data": ["a"]}),
            "data[2]",
            json!("c"),
            json!({"data": ["a", null, "c"]}),
            None,
        ),
        (
            "RejectsHighIndexes",
            json!({"data": ["a"]}),
            "data[1025]",
            json!("c"),
            json!({"data": ["a"]}),
            Some("index 1025 is greater than max allowed index 1024"),
        ),
        (
            "MapStringString",
            json!({"metadata": {}}),
            "metadata.labels",
            json!({"cool": "very"}),
            json!({"metadata": {"labels": {"cool": "very"}}}),
            None,
        ),
        (
            "OwnerReference",
            json!({"metadata": {}}),
            "metadata.ownerRefs[0]",
            json!({"apiVersion": "v", "kind": "k", "name": "n", "uid": "u"}),
            json!({"metadata": {"ownerRefs": [{"apiVersion": "v", "kind": "k", "name": "n", "uid": "u"}]}}),
            None,
        ),
        (
            "NotAnArray",
            json!({"data": {}}),
            "data[0]",
            Value::Null,
            json!({"data": {}}),
            Some("data is not an array"),
        ),
        (
            "NotAnObject",
            json!({"data": []}),
            "data.name",
            Value::Null,
            json!({"data": []}),
            Some("data is not an object"),
        ),
        (
            "MalformedPath",
            json!({}),
            "spec[]",
            Value::Null,
            json!({}),
            Some(MALFORMED),
        ),
    ];
    for (name, data, path, value, want, err) in cases {
        let mut p = Paved::new(data);
        let got = p.set_value(path, value);
        assert_eq!(
            got.err().map(|e| e.message),
            err.map(String::from),
            "{name}"
        );
        assert_eq!(p.value(), &want, "{name}");
    }
}

#[test]
fn set_value_normalizes_numbers_as_go_json_round_trip() {
    // Not in Go's table: toValidJSON turns an integral float64 into an int64.
    let mut p = Paved::new(json!({}));
    p.set_value("a", json!({"x": 3.0, "y": 2.5, "z": [1e300]}))
        .unwrap();
    let a = &p.value()["a"];
    assert!(is_int64(a["x"].as_number().unwrap()));
    assert_eq!(a["x"], json!(3));
    assert!(!is_int64(a["y"].as_number().unwrap()));
    assert!(!is_int64(a["z"][0].as_number().unwrap()));
}

/// Name, path, object, expanded paths or error.
type ExpandCase = (
    &'static str,
    &'static str,
    Value,
    Result<Vec<&'static str>, Error>,
);

#[test]
fn expand_wildcards_table() {
    // paved_test.go TestExpandWildcards (Go sorts both sides: map order is random there)
    let containers = json!({"spec": {"containers": [{"name": "cool", "image": "latest", "args": ["start", "now", "debug"]}]}});
    let cases: Vec<ExpandCase> = vec![
        (
            "NoWildcardExisting",
            "password",
            json!({"password": "top-secret"}),
            Ok(vec!["password"]),
        ),
        (
            "NoWildcardNonExisting",
            "username",
            json!({"password": "top-secret"}),
            Ok(vec![]),
        ),
        (
            "NestedNoWildcardExisting",
            "items[0][1]",
            json!({"items": [["a", "b"]]}),
            Ok(vec!["items[0][1]"]),
        ),
        (
            "NestedNoWildcardNonExisting",
            "items[0][5]",
            json!({"items": [["a", "b"]]}),
            Ok(vec![]),
        ),
        (
            "NestedArray",
            "items[*][*]",
            json!({"items": [["a", "b", "c"], ["d"]]}),
            Ok(vec![
                "items[0][0]",
                "items[0][1]",
                "items[0][2]",
                "items[1][0]",
            ]),
        ),
        (
            "KeysOfMap",
            "items[*]",
            json!({"items": {"key1": "val1", "key2.as.annotation": "val2"}}),
            Ok(vec!["items.key1", "items[key2.as.annotation]"]),
        ),
        (
            "ArrayOfObjects",
            "spec.containers[*][*]",
            json!({"spec": {"containers": [{"name": "cool", "image": "latest", "args": ["start", "now"]}]}}),
            Ok(vec![
                "spec.containers[0].name",
                "spec.containers[0].image",
                "spec.containers[0].args",
            ]),
        ),
        (
            "MultiLayer",
            "spec.containers[*].args[*]",
            containers.clone(),
            Ok(vec![
                "spec.containers[0].args[0]",
                "spec.containers[0].args[1]",
                "spec.containers[0].args[2]",
            ]),
        ),
        (
            "WildcardInTheBeginning",
            "spec.containers[*].args[1]",
            containers.clone(),
            Ok(vec!["spec.containers[0].args[1]"]),
        ),
        (
            "WildcardAtTheEnd",
            "spec.containers[0].args[*]",
            containers.clone(),
            Ok(vec![
                "spec.containers[0].args[0]",
                "spec.containers[0].args[1]",
                "spec.containers[0].args[2]",
            ]),
        ),
        ("NoData", "metadata[*]", Value::Null, Ok(vec![])),
        (
            "InsufficientContainers",
            "spec.containers[1].args[*]",
            json!({"spec": {"containers": [{"name": "cool"}]}}),
            Ok(vec![]),
        ),
        (
            "UnexpectedWildcard",
            "spec.containers[0].name[*]",
            json!({"spec": {"containers": [{"name": "cool"}]}}),
            Err(plain(
                "cannot expand wildcards for segments: \"spec.containers[0].name[*]\": \"spec.containers[0].name\": unexpected wildcard usage",
            )),
        ),
        (
            "NotAnArray",
            "metadata[1]",
            json!({"metadata": {"nope": "cool"}}),
            Err(plain(
                "cannot expand wildcards for segments: \"metadata[1]\": metadata: not an array",
            )),
        ),
        (
            "NotAnObject",
            "spec.containers[nope].name",
            json!({"spec": {"containers": [{"name": "cool"}]}}),
            Err(plain(
                "cannot expand wildcards for segments: \"spec.containers.nope.name\": spec.containers: not an object",
            )),
        ),
        ("MalformedPath", "spec[]", json!({}), Err(plain(MALFORMED))),
        (
            "NilValue",
            "spec.containers[*].name",
            json!({"spec": {"containers": null}}),
            Err(nf(
                "cannot expand wildcards for segments: \"spec.containers[*].name\": wildcard field \"spec.containers\" is not found in the path",
            )),
        ),
    ];
    for (name, path, data, want) in cases {
        let got = expand_wildcards(&data, path).map(|mut v| {
            v.sort();
            v
        });
        let want = want.map(|v| {
            let mut v: Vec<String> = v.into_iter().map(String::from).collect();
            v.sort();
            v
        });
        assert_eq!(got, want, "{name}");
    }
}

#[test]
fn merge_value_table() {
    // merge_test.go TestMergeValue
    let (src, src2, dst) = ("e1-from-source", "e1-from-source-2", "e1-from-destination");
    let keep = |b| {
        Some(MergeOptions {
            keep_map_values: Some(b),
            append_slice: None,
        })
    };
    let append = |b| {
        Some(MergeOptions {
            keep_map_values: None,
            append_slice: Some(b),
        })
    };
    let cases: Vec<(&str, Value, Value, Option<MergeOptions>, Value)> = vec![
        (
            "MergeArrayNoMergeOptions",
            json!({"a": dst}),
            json!([src]),
            None,
            json!({"a": [src]}),
        ),
        (
            "MergeArrayNoAppend",
            json!({"a": [dst]}),
            json!([src]),
            append(false),
            json!({"a": [src]}),
        ),
        (
            "MergeArrayAppend",
            json!({"a": [dst]}),
            json!([src]),
            append(true),
            json!({"a": [dst, src]}),
        ),
        (
            "MergeArrayAppendDuplicate",
            json!({"a": [dst, src]}),
            json!([src, src2]),
            append(true),
            json!({"a": [dst, src, src2]}),
        ),
        (
            "MergeMapNoMergeOptions",
            json!({"a": {"a": dst}}),
            json!({"a": src}),
            None,
            json!({"a": {"a": src}}),
        ),
        (
            "MergeMapNoKeep",
            json!({"a": {"a": dst}}),
            json!({"a": src}),
            keep(false),
            json!({"a": {"a": src}}),
        ),
        (
            "MergeMapKeep",
            json!({"a": {"a": dst}}),
            json!({"a": src}),
            keep(true),
            json!({"a": {"a": dst}}),
        ),
    ];
    for (name, object, value, mo, want) in cases {
        let mut p = Paved::new(object);
        p.merge_value("a", value, mo.as_ref()).unwrap();
        assert_eq!(p.value(), &want, "{name}");
    }
}

#[test]
fn mergo_semantics() {
    // Not in Go's tables: mergo's rules for nested objects, empty values and appends.
    let both = MergeOptions {
        keep_map_values: Some(true),
        append_slice: Some(true),
    };
    let force = MergeOptions {
        keep_map_values: Some(false),
        append_slice: None,
    };
    let mut p =
        Paved::new(json!({"a": {"keep": "d", "empty": "", "nested": {"x": 1, "l": [1]}, "n": 5}}));
    p.merge_value(
        "a",
        json!({"keep": "s", "empty": "s", "nested": {"y": 2, "l": [2]}, "new": true}),
        Some(&both),
    )
    .unwrap();
    assert_eq!(
        p.value(),
        &json!({"a": {"keep": "d", "empty": "s", "nested": {"x": 1, "y": 2, "l": [1, 2]}, "n": 5, "new": true}})
    );
    let mut p = Paved::new(json!({"a": {"x": {"y": 1}, "s": "d", "z": 1}}));
    p.merge_value(
        "a",
        json!({"x": {"w": 2}, "s": null, "z": {"o": 1}}),
        Some(&force),
    )
    .unwrap();
    assert_eq!(
        p.value(),
        &json!({"a": {"x": {"y": 1, "w": 2}, "s": null, "z": {"o": 1}}})
    );
    let mut p = Paved::new(json!({"a": {"l": "text"}}));
    let err = p
        .merge_value("a", json!({"l": [1]}), Some(&both))
        .unwrap_err();
    assert_eq!(
        err.message,
        "failed to merge values: cannot append two slices with different type ([]interface {}, string)"
    );
}
