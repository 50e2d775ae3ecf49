//! Decoding of the function's input: field names, defaults and Go's messages for mistyped
//! fields.

use serde_json::json;

use super::*;

#[test]
fn decodes_every_part() {
    let input = json!({
        "apiVersion": "pt.fn.crossplane.io/v1beta1",
        "kind": "Resources",
        "patchSets": [{"name": "common", "patches": [{"fromFieldPath": "spec.region"}]}],
        "environment": {"patches": [{"type": "ToCompositeFieldPath", "fromFieldPath": "a", "toFieldPath": "b"}]},
        "writeConnectionSecretToRef": {"name": "s", "namespace": "ns", "patches": [{"fromFieldPath": "x"}]},
        "resources": [{
            "name": "bucket",
            "base": {"apiVersion": "s3/v1", "kind": "Bucket"},
            "patches": [
                {"type": "PatchSet", "patchSetName": "common"},
                {"type": "CombineFromComposite",
                 "combine": {"variables": [{"fromFieldPath": "a"}, {"fromFieldPath": "b"}],
                             "strategy": "string", "string": {"fmt": "%s-%s"}},
                 "toFieldPath": "metadata.name",
                 "policy": {"fromFieldPath": "Required", "toFieldPath": "MergeObjects"}},
                {"fromFieldPath": "spec.size", "transforms": [
                    {"type": "map", "map": {"small": 1, "large": "L", "none": null}},
                    {"type": "match", "match": {"patterns": [{"type": "regexp", "regexp": "^a", "result": {"x": 1}}],
                                                "fallbackTo": "Input", "fallbackValue": null}},
                    {"type": "math", "math": {"type": "ClampMin", "clampMin": 3.0}},
                    {"type": "string", "string": {"type": "Regexp", "regexp": {"match": "(a)", "group": 1}}},
                    {"type": "string", "string": {"type": "Join", "join": {"separator": ","}}},
                    {"type": "string", "string": {"type": "Replace", "replace": {"search": "a", "replace": "b"}}},
                    {"type": "string", "string": {"type": "Convert", "convert": "ToUpper"}},
                    {"type": "convert", "convert": {"toType": "int64", "format": "quantity"}}
                ]}
            ],
            "connectionDetails": [{"name": "u", "type": "FromValue", "value": "v"}],
            "readinessChecks": [{"type": "MatchInteger", "fieldPath": "status.n", "matchInteger": 4},
                                {"type": "MatchCondition", "matchCondition": {"type": "Ready", "status": "True"}}]
        }]
    });
    let r = decode(&input).unwrap();
    assert_eq!(r.kind, "Resources");
    assert_eq!(
        r.patch_sets[0].composed_patches()[0].patch_type(),
        PATCH_FROM_COMPOSITE_FIELD_PATH
    );
    assert_eq!(
        r.environment.as_ref().unwrap().patches[0].patch_type(),
        PATCH_TO_COMPOSITE_FIELD_PATH
    );
    assert_eq!(
        r.write_connection_secret_to_ref.as_ref().unwrap().patches[0]
            .patch
            .from_field_path(),
        "x"
    );
    let res = &r.resources[0];
    assert_eq!(res.base.value().unwrap()["kind"], "Bucket");
    assert_eq!(res.patches[0].patch_set_name(), "common");
    let combine = &res.patches[1];
    assert_eq!(
        combine
            .patch
            .combine
            .as_ref()
            .unwrap()
            .string
            .as_ref()
            .unwrap()
            .format,
        "%s-%s"
    );
    assert_eq!(combine.patch.to_field_path(), "metadata.name");
    assert_eq!(combine.patch.from_field_path_policy(), FROM_POLICY_REQUIRED);
    assert_eq!(
        combine.patch.to_field_path_policy(),
        TO_POLICY_MERGE_OBJECTS
    );
    let t = &res.patches[2].patch.transforms;
    let map = &t[0].map.as_ref().unwrap().pairs;
    assert_eq!(map["small"].value(), Some(&json!(1)));
    assert_eq!(map["none"].value(), None);
    let m = t[1].match_.as_ref().unwrap();
    assert_eq!(m.fallback_to, MATCH_FALLBACK_TO_INPUT);
    assert_eq!(m.fallback_value.value(), None);
    assert_eq!(m.patterns[0].result.value(), Some(&json!({"x": 1})));
    let math = t[2].math.as_ref().unwrap();
    assert_eq!(
        (math.math_type(), math.clamp_min),
        (MATH_CLAMP_MIN, Some(3))
    );
    assert_eq!(
        t[3].string.as_ref().unwrap().regexp.as_ref().unwrap().group,
        Some(GoInt(1))
    );
    assert_eq!(
        t[4].string
            .as_ref()
            .unwrap()
            .join
            .as_ref()
            .unwrap()
            .separator,
        ","
    );
    assert_eq!(
        t[5].string
            .as_ref()
            .unwrap()
            .replace
            .as_ref()
            .unwrap()
            .replace,
        "b"
    );
    assert_eq!(
        t[6].string.as_ref().unwrap().convert.as_deref(),
        Some("ToUpper")
    );
    assert_eq!(
        t[7].convert.as_ref().unwrap().format(),
        CONVERT_FORMAT_QUANTITY
    );
    assert_eq!(t[7].output_type(), Ok(Some("int64".into())));
    assert_eq!(t[0].output_type(), Ok(None));
    assert_eq!(t[2].output_type(), Ok(Some("float64".into())));
    assert_eq!(res.connection_details[0].value.as_deref(), Some("v"));
    assert_eq!(res.readiness_checks[0].match_integer, Some(4));
    assert_eq!(
        res.readiness_checks[1]
            .match_condition
            .as_ref()
            .unwrap()
            .status,
        "True"
    );
}

#[test]
fn defaults_as_go_getters() {
    let p = Patch {
        from_field_path: Some("spec.a".into()),
        ..Patch::default()
    };
    assert_eq!(p.to_field_path(), "spec.a");
    assert_eq!(p.from_field_path_policy(), FROM_POLICY_OPTIONAL);
    assert_eq!(p.to_field_path_policy(), TO_POLICY_REPLACE);
    assert_eq!(Patch::default().from_field_path(), "");
    assert_eq!(
        ComposedPatch::default().patch_type(),
        PATCH_FROM_COMPOSITE_FIELD_PATH
    );
    assert_eq!(ComposedPatch::default().patch_set_name(), "");
    assert_eq!(MathTransform::default().math_type(), MATH_MULTIPLY);
    assert_eq!(ConvertTransform::default().format(), CONVERT_FORMAT_NONE);
    let unknown = Transform {
        type_: "nope".into(),
        ..Transform::default()
    };
    assert_eq!(
        unknown.output_type(),
        Err("unable to get output type, unknown transform type: nope".into())
    );
}

#[test]
fn unknown_values_and_fields_decode() {
    // Unknown enum values are validation's to reject; unknown fields and nulls are ignored.
    let r = decode(&json!({
        "resources": [{"name": null, "bogus": 1, "patches": [{"type": "Sideways", "transforms": null}]}]
    }))
    .unwrap();
    assert_eq!(r.resources[0].name, "");
    assert_eq!(r.resources[0].patches[0].patch_type(), "Sideways");
    assert!(decode(&json!({})).unwrap().resources.is_empty());
}

const PREFIX: &str = "cannot get function input *v1beta1.Resources from *v1.RunFunctionRequest: \
                      cannot unmarshal JSON from *structpb.Struct into *v1beta1.Resources: ";

#[test]
fn mistyped_fields_fail_with_go_messages() {
    let cases = [
        (
            json!({"resources": [{"name": 3}]}),
            r#"json: cannot unmarshal JSON number into Go value of type string within JSON value at "/resources/0/name""#,
        ),
        (
            json!({"resources": {}}),
            r#"json: cannot unmarshal JSON object into Go value of type []v1beta1.ComposedTemplate within JSON value at "/resources""#,
        ),
        (
            json!({"resources": [{"patches": [{"transforms": [{"math": {"multiply": "2"}}]}]}]}),
            r#"json: cannot unmarshal JSON string into Go value of type int64 within JSON value at "/resources/0/patches/0/transforms/0/math/multiply""#,
        ),
        (
            json!({"resources": [{"patches": [{"transforms": [{"math": {"multiply": 2.5}}]}]}]}),
            r#"json: cannot unmarshal JSON number into Go value of type int64 within JSON value at "/resources/0/patches/0/transforms/0/math/multiply": cannot parse "2.5" as signed integer: invalid syntax"#,
        ),
        (
            // The first mistyped member in key order wins: "patches" sorts before "resources".
            json!({"resources": 1, "patchSets": [{"patches": [{"fromFieldPath": true}]}]}),
            r#"json: cannot unmarshal JSON boolean into Go value of type string within JSON value at "/patchSets/0/patches/0/fromFieldPath""#,
        ),
        (
            json!({"resources": [{"patches": [{"transforms": [{"map": "x"}]}]}]}),
            r#"json: cannot unmarshal JSON string into Go value of type v1beta1.MapTransform within JSON value at "/resources/0/patches/0/transforms/0/map": json: cannot unmarshal string into Go value of type map[string]v1.JSON"#,
        ),
        (
            json!({"resources": [{"readinessChecks": [{"matchCondition": []}]}]}),
            r#"json: cannot unmarshal JSON array into Go value of type v1beta1.MatchConditionReadinessCheck within JSON value at "/resources/0/readinessChecks/0/matchCondition""#,
        ),
        (
            json!([]),
            r#"json: cannot unmarshal JSON array into Go value of type v1beta1.Resources"#,
        ),
    ];
    for (input, want) in cases {
        assert_eq!(
            decode(&input).unwrap_err(),
            format!("{PREFIX}{want}"),
            "{input}"
        );
    }
}
