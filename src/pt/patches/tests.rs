//! function-patch-and-transform v0.10.8's `patches_test.go`, every case, as tables named after
//! the Go cases, plus the dispatch and policy rules of patches.go the Go tests leave out.

use serde_json::{Value, json};

use super::*;
use crate::gostd::fmt::type_name;
use crate::pt::fieldpath::go_equal;
use crate::pt::input::{decode, decode_transform};

/// A composed patch decoded from its JSON, as the function reads it.
fn patch(v: Value) -> ComposedPatch {
    let r = decode(&json!({"resources": [{"name": "r", "patches": [v]}]})).unwrap();
    r.resources[0].patches[0].clone()
}

fn xr(extra: Value) -> Value {
    let mut o = json!({"apiVersion": "test.crossplane.io/v1", "kind": "XR"});
    o.as_object_mut()
        .unwrap()
        .extend(extra.as_object().unwrap().clone());
    o
}

fn cd(extra: Value) -> Value {
    let mut o = json!({"apiVersion": "test.crossplane.io/v1", "kind": "Composed"});
    o.as_object_mut()
        .unwrap()
        .extend(extra.as_object().unwrap().clone());
    o
}

/// Name, patch, from, to, to after, error.
type PatchCase = (
    &'static str,
    Value,
    Value,
    Value,
    Value,
    Option<&'static str>,
);

#[test]
fn apply_from_field_path_patch_table() {
    // TestApplyFromFieldPathPatch
    let owner_refs = |n: &str| json!({"metadata": {"ownerReferences": [{"name": n}, {"name": n}]}});
    let rules = |groups: Value| {
        json!({"spec": {"forProvider": {"accessRules": [
            {"action": "Allow", "destination": "e1", "allowedGroups": groups},
            {"action": "Allow", "destination": "e2", "allowedGroups": groups}
        ]}}})
    };
    let cases: Vec<PatchCase> = vec![
        (
            "ValidFromCompositeFieldPath",
            json!({"type": "FromCompositeFieldPath", "fromFieldPath": "metadata.labels", "toFieldPath": "metadata.labels"}),
            xr(json!({"metadata": {"labels": {"test": "blah"}}})),
            cd(json!({"metadata": {"name": "cd"}})),
            cd(json!({"metadata": {"name": "cd", "labels": {"test": "blah"}}})),
            None,
        ),
        (
            "ValidFromFieldPathWithWildcards",
            json!({"type": "FromCompositeFieldPath", "fromFieldPath": "metadata.name", "toFieldPath": "metadata.ownerReferences[*].name"}),
            xr(json!({"metadata": {"name": "test"}})),
            cd(owner_refs("")),
            cd(owner_refs("test")),
            None,
        ),
        (
            "InvalidCompositeFieldPathPatchWithWildcards",
            json!({"type": "FromCompositeFieldPath", "fromFieldPath": "metadata.name", "toFieldPath": "metadata.ownerReferences[*].badField"}),
            xr(json!({"metadata": {"name": "test"}})),
            cd(owner_refs("test")),
            cd(owner_refs("test")),
            Some("cannot expand ToFieldPath metadata.ownerReferences[*].badField"),
        ),
        (
            "ValidToFieldPathWithWildcardsAndMergePolicy",
            json!({"type": "FromCompositeFieldPath", "fromFieldPath": "spec.parameters.allowedGroups",
                   "toFieldPath": "spec.forProvider.accessRules[*].allowedGroups",
                   "policy": {"toFieldPath": "ForceMergeObjectsAppendArrays"}}),
            xr(json!({"spec": {"parameters": {"allowedGroups": [12345678, 7891234]}}})),
            cd(rules(json!([12345678]))),
            cd(rules(json!([12345678, 7891234]))),
            None,
        ),
        (
            "DefaultToFieldCompositeFieldPathPatch",
            json!({"type": "FromCompositeFieldPath", "fromFieldPath": "metadata.labels"}),
            xr(json!({"metadata": {"labels": {"test": "blah"}}})),
            cd(json!({})),
            cd(json!({"metadata": {"labels": {"test": "blah"}}})),
            None,
        ),
    ];
    for (name, p, from, mut to, want, err) in cases {
        let got = apply_from_field_path_patch(&patch(p).patch, &from, &mut to);
        assert_eq!(
            got.err().map(|e| e.message),
            err.map(String::from),
            "{name}"
        );
        assert_eq!(to, want, "{name}");
    }
}

#[test]
fn apply_combine_from_variables_patch_table() {
    // TestApplyCombineFromVariablesPatch
    let combine = |vars: &[&str]| {
        json!({"type": "CombineFromComposite",
               "combine": {"variables": vars.iter().map(|v| json!({"fromFieldPath": v})).collect::<Vec<_>>(),
                           "strategy": "string", "string": {"fmt": "%s-%s"}},
               "toFieldPath": "metadata.labels.destination"})
    };
    // VariableFromFieldPathNotFound
    let mut to = Value::Null;
    let p = patch(combine(&[
        "metadata.labels.source1",
        "metadata.labels.source2",
        "metadata.labels.source3",
    ]));
    let err = apply_combine_from_variables_patch(&p.patch, &xr(json!({})), &mut to).unwrap_err();
    assert_eq!(
        err.message, "metadata: no such field",
        "VariableFromFieldPathNotFound"
    );
    assert!(err.is_not_found(), "VariableFromFieldPathNotFound");
    // ValidCombineFromComposite
    let p = patch(combine(&[
        "metadata.labels.source1",
        "metadata.labels.source2",
    ]));
    let from = xr(json!({"metadata": {"labels": {"source1": "foo", "source2": "bar"}}}));
    let mut to = cd(json!({"metadata": {"labels": {"test": "blah"}}}));
    apply_combine_from_variables_patch(&p.patch, &from, &mut to).unwrap();
    assert_eq!(
        to,
        cd(json!({"metadata": {"labels": {"destination": "foo-bar", "test": "blah"}}})),
        "ValidCombineFromComposite"
    );
}

fn ps(name: &str, paths: &[&str]) -> Value {
    json!({"name": name, "patches": paths.iter().map(|p| json!({"type": "FromCompositeFieldPath", "fromFieldPath": p})).collect::<Vec<_>>()})
}

#[test]
fn composed_templates_table() {
    // TestComposedTemplates
    let from = |p: &str| json!({"type": "FromCompositeFieldPath", "fromFieldPath": p});
    let set = |n: &str| json!({"type": "PatchSet", "patchSetName": n});
    let map_patch = json!({"type": "FromCompositeFieldPath", "fromFieldPath": "metadata.annotations.patch-test-2",
                           "transforms": [{"type": "map", "map": {"k-1": "v-1", "k-2": "v-2"}}]});
    let run = |pss: Value, cts: Value| {
        let r = decode(&json!({"patchSets": pss, "resources": cts})).unwrap();
        composed_templates(&r.patch_sets, &r.resources)
    };
    let want = |cts: Value| decode(&json!({"resources": cts})).unwrap().resources;

    let cts = json!([{"patches": [from("metadata.name"), from("metadata.namespace")]}]);
    assert_eq!(
        run(json!([]), cts.clone()),
        Ok(want(cts)),
        "NoCompositionPatchSets"
    );

    assert_eq!(
        run(json!([]), json!([{"patches": [set("patch-set-1")]}])),
        Err("cannot find PatchSet by name patch-set-1".into()),
        "UndefinedPatchSet"
    );

    let mut set2 = ps("patch-set-2", &["metadata.annotations.patch-test-1"]);
    set2["patches"]
        .as_array_mut()
        .unwrap()
        .push(map_patch.clone());
    let pss = json!([
        ps(
            "patch-set-1",
            &["metadata.namespace", "spec.parameters.test"]
        ),
        set2
    ]);
    let cts = json!([
        {"patches": [set("patch-set-2"), from("metadata.name"), set("patch-set-1")]},
        {"patches": [set("patch-set-1")]}
    ]);
    let expected = json!([
        {"patches": [from("metadata.annotations.patch-test-1"), map_patch, from("metadata.name"),
                     from("metadata.namespace"), from("spec.parameters.test")]},
        {"patches": [from("metadata.namespace"), from("spec.parameters.test")]}
    ]);
    assert_eq!(run(pss, cts), Ok(want(expected)), "DefinedPatchSets");

    // Not in Go's table: the other two errors.
    assert_eq!(
        run(
            json!([{"name": "a", "patches": [{"type": "PatchSet"}]}]),
            json!([])
        ),
        Err("a patch in a PatchSet cannot be of type PatchSet".into())
    );
    assert_eq!(
        run(json!([]), json!([{"patches": [{"type": "PatchSet"}]}])),
        Err("PatchSetName is required by type PatchSet".into())
    );
}

#[test]
fn resolve_transforms_table() {
    // TestResolveTransforms
    let t = |v: Value| decode_transform(&v).unwrap();
    let input = json!({"spec": {"parameters": {"test": "test"}}});
    assert_eq!(
        resolve_transforms(&[], &input),
        Ok(input.clone()),
        "NoTransforms"
    );
    let multiply = t(json!({"type": "math", "math": {"type": "Multiply", "multiply": 2}}));
    let to_float = [
        t(json!({"type": "convert", "convert": {"toType": "float64"}})),
        multiply.clone(),
    ];
    let got = resolve_transforms(&to_float, &json!(2)).unwrap();
    assert!(
        go_equal(&got, &json!(4.0)) && type_name(&got) == "float64",
        "MathTransformWithConversionToFloat64: {got}"
    );
    let to_int = [
        t(json!({"type": "convert", "convert": {"toType": "int64"}})),
        multiply,
    ];
    let got = resolve_transforms(&to_int, &json!(2)).unwrap();
    assert!(
        go_equal(&got, &json!(4)) && type_name(&got) == "int64",
        "MathTransformWithConversionToInt64: {got}"
    );
}

#[test]
fn merge_options_of_policies() {
    // patches.go toMergeOption (not in Go's tests).
    let mo = |p: &str| {
        to_merge_option(Some(&PatchPolicy {
            from_field_path: None,
            to_field_path: Some(p.into()),
        }))
    };
    let o = |k, a| {
        Ok(Some(MergeOptions {
            keep_map_values: k,
            append_slice: a,
        }))
    };
    assert_eq!(to_merge_option(None), Ok(None));
    assert_eq!(to_merge_option(Some(&PatchPolicy::default())), Ok(None));
    assert_eq!(mo("Replace"), Ok(None));
    assert_eq!(mo("MergeObjects"), o(Some(true), None));
    assert_eq!(mo("MergeObject"), o(Some(true), None));
    assert_eq!(mo("MergeObjectsAppendArrays"), o(Some(true), Some(true)));
    assert_eq!(mo("ForceMergeObjects"), o(Some(false), None));
    assert_eq!(mo("ForceMergeObjectsAppendArrays"), o(None, Some(true)));
    assert_eq!(mo("AppendArray"), o(None, Some(true)));
    assert_eq!(
        mo("Sideways").unwrap_err().message,
        "invalid patch policy Sideways"
    );
}

#[test]
fn composed_and_environment_dispatch() {
    // patches.go ApplyComposedPatch and ApplyEnvironmentPatch (not in Go's tests).
    let oxr = xr(json!({"spec": {"a": "x", "b": "y"}}));
    let ocd = cd(json!({"status": {"id": "i-1"}}));
    let mut dxr = xr(json!({}));
    let mut dcd = cd(json!({}));
    let mut env = json!({"region": "eu"});
    let apply =
        |p: Value, ocd: Option<&Value>, dcd: &mut Value, dxr: &mut Value, env: &mut Value| {
            apply_composed_patch(&patch(p), ocd, dcd, &oxr, dxr, env)
        };
    apply(
        json!({"fromFieldPath": "spec.a", "toFieldPath": "spec.a"}),
        None,
        &mut dcd,
        &mut dxr,
        &mut env,
    )
    .unwrap();
    apply(json!({"type": "FromEnvironmentFieldPath", "fromFieldPath": "region", "toFieldPath": "spec.region"}), None, &mut dcd, &mut dxr, &mut env).unwrap();
    apply(json!({"type": "CombineFromEnvironment", "combine": {"variables": [{"fromFieldPath": "region"}], "strategy": "string", "string": {"fmt": "r-%s"}}, "toFieldPath": "spec.r"}), None, &mut dcd, &mut dxr, &mut env).unwrap();
    // Without an observed resource, patches from it do nothing.
    apply(json!({"type": "ToCompositeFieldPath", "fromFieldPath": "status.id", "toFieldPath": "status.id"}), None, &mut dcd, &mut dxr, &mut env).unwrap();
    assert_eq!(dxr, xr(json!({})));
    apply(json!({"type": "ToCompositeFieldPath", "fromFieldPath": "status.id", "toFieldPath": "status.id"}), Some(&ocd), &mut dcd, &mut dxr, &mut env).unwrap();
    apply(json!({"type": "ToEnvironmentFieldPath", "fromFieldPath": "status.id", "toFieldPath": "id"}), Some(&ocd), &mut dcd, &mut dxr, &mut env).unwrap();
    apply(json!({"type": "CombineToComposite", "combine": {"variables": [{"fromFieldPath": "status.id"}], "strategy": "string", "string": {"fmt": "%s!"}}, "toFieldPath": "status.bang"}), Some(&ocd), &mut dcd, &mut dxr, &mut env).unwrap();
    assert_eq!(
        dcd,
        cd(json!({"spec": {"a": "x", "region": "eu", "r": "r-eu"}}))
    );
    assert_eq!(dxr, xr(json!({"status": {"id": "i-1", "bang": "i-1!"}})));
    assert_eq!(env, json!({"region": "eu", "id": "i-1"}));
    let missing = apply(
        json!({"fromFieldPath": "spec.nope"}),
        None,
        &mut dcd,
        &mut dxr,
        &mut env,
    )
    .unwrap_err();
    assert!(missing.is_not_found());
    assert_eq!(missing.message, "spec.nope: no such field");

    let env_patch = |p: Value| {
        let r = decode(&json!({"environment": {"patches": [p]}})).unwrap();
        r.environment.unwrap().patches[0].clone()
    };
    let mut env = json!({});
    let mut dxr = xr(json!({}));
    apply_environment_patch(
        &env_patch(json!({"fromFieldPath": "spec.a", "toFieldPath": "a"})),
        &mut env,
        &oxr,
        &mut dxr,
    )
    .unwrap();
    apply_environment_patch(&env_patch(json!({"type": "ToCompositeFieldPath", "fromFieldPath": "a", "toFieldPath": "status.a"})), &mut env, &oxr, &mut dxr).unwrap();
    apply_environment_patch(
        &env_patch(json!({"type": "CombineFromEnvironment", "fromFieldPath": "a"})),
        &mut env,
        &oxr,
        &mut dxr,
    )
    .unwrap();
    assert_eq!(env, json!({"a": "x"}));
    assert_eq!(dxr, xr(json!({"status": {"a": "x"}})));
}

#[test]
fn combine_errors() {
    let c = |v: Value| {
        decode(&json!({"resources": [{"patches": [{"combine": v}]}]}))
            .unwrap()
            .resources[0]
            .patches[0]
            .patch
            .combine
            .clone()
            .unwrap()
    };
    assert_eq!(
        combine(&c(json!({"strategy": "nope"})), &[])
            .unwrap_err()
            .message,
        "combine strategy nope is not supported"
    );
    assert_eq!(
        combine(&c(json!({"strategy": "string"})), &[])
            .unwrap_err()
            .message,
        "given combine strategy string requires configuration"
    );
    assert_eq!(
        combine(
            &c(json!({"strategy": "string", "string": {"fmt": "%d-%s"}})),
            &[json!(1)]
        ),
        Ok(json!("1-%!s(MISSING)"))
    );
}
