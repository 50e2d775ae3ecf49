//! The schema fetchers of both dialects, cases ported from crossplane's tests (each names its
//! upstream file and case) plus our own for what they leave out.

use super::*;
use serde_json::json;

fn document(schemas: Json) -> OpenApiDocument {
    parse_document(&json!({"components": {"schemas": schemas}}).to_string()).unwrap()
}

fn selector(api_version: &str, kind: &str) -> SchemaSelector {
    SchemaSelector {
        api_version: api_version.into(),
        kind: kind.into(),
    }
}

fn gvk(group: &str, version: &str, kind: &str) -> Json {
    json!([{"group": group, "version": version, "kind": kind}])
}

fn found(schema: Json) -> Schema {
    Schema {
        openapi_v3: Some(schema),
    }
}

fn object_meta() -> Json {
    json!({
        "type": "object",
        "description": "ObjectMeta is metadata that all persisted resources must have.",
        "properties": {"name": {"type": "string"}, "namespace": {"type": "string"}},
    })
}

fn deployment() -> Json {
    json!({
        "type": "object",
        "description": "Deployment enables declarative updates for Pods.",
        "x-kubernetes-group-version-kind": gvk("apps", "v1", "Deployment"),
        "properties": {
            "metadata": {"$ref": "#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"},
            "spec": {"type": "object"},
        },
    })
}

fn config_map() -> Json {
    json!({
        "type": "object",
        "description": "ConfigMap holds configuration data.",
        "x-kubernetes-group-version-kind": gvk("", "v1", "ConfigMap"),
    })
}

fn apps_document() -> OpenApiDocument {
    document(json!({
        "io.k8s.api.apps.v1.Deployment": deployment(),
        "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta": object_meta(),
    }))
}

fn core_document() -> OpenApiDocument {
    document(json!({"io.k8s.api.core.v1.ConfigMap": config_map()}))
}

fn flattened_deployment() -> Json {
    let mut want = deployment();
    want["properties"]["metadata"] = object_meta();
    want
}

/// crossplane v2.2.4 `cmd/crank/render/schemas_test.go` `TestFilteringSchemaFetcher`, and the
/// same documents through the engine's fetcher.
#[test]
fn classic_filtering_schema_fetcher() {
    let (apps, core) = (apps_document(), core_document());
    for engine in [false, true] {
        let fetch = |docs: &[OpenApiDocument], s| fetch(docs, &s, engine).unwrap();
        // DeploymentFoundWithFlattenedRefs
        assert_eq!(
            fetch(
                std::slice::from_ref(&apps),
                selector("apps/v1", "Deployment")
            ),
            found(flattened_deployment())
        );
        // ConfigMapFoundCoreType
        assert_eq!(
            fetch(std::slice::from_ref(&core), selector("v1", "ConfigMap")),
            found(config_map())
        );
        // NotFound
        assert_eq!(
            fetch(std::slice::from_ref(&apps), selector("v1", "Pod")),
            Schema::default()
        );
        // MultipleDocuments
        assert_eq!(
            fetch(&[apps.clone(), core.clone()], selector("v1", "ConfigMap")),
            found(config_map())
        );
        // EmptyDocuments
        assert_eq!(
            fetch(&[], selector("apps/v1", "Deployment")),
            Schema::default()
        );
    }
}

fn pod() -> Json {
    json!({
        "type": "object",
        "x-kubernetes-group-version-kind": gvk("", "v1", "Pod"),
        "properties": {"apiVersion": {"type": "string"}, "kind": {"type": "string"}},
    })
}

/// crossplane v2.3.4 `internal/xfn/required_schemas_test.go` `TestOpenAPISchemasFetcherFetch`
/// (the cases that do not mock a failing client).
#[test]
fn engine_openapi_schemas_fetcher() {
    let engine = |docs: &[OpenApiDocument], s| fetch(docs, &s, true);
    let core = document(json!({"io.k8s.api.core.v1.Pod": pod()}));
    // InvalidApiVersion
    assert_eq!(
        engine(std::slice::from_ref(&core), selector("a/b/c", "Pod")).unwrap_err(),
        "cannot parse apiVersion \"a/b/c\": unexpected GroupVersion string: a/b/c"
    );
    // GVNotFound
    assert_eq!(
        engine(
            std::slice::from_ref(&core),
            selector("apps/v1", "Deployment")
        )
        .unwrap(),
        Schema::default()
    );
    // KindNotFound
    assert_eq!(
        engine(std::slice::from_ref(&core), selector("v1", "NotReal")).unwrap(),
        Schema::default()
    );
    // MultiGVKSchemaSkipped
    let delete_options = document(json!({
        "io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions": {
            "type": "object",
            "x-kubernetes-group-version-kind": [
                {"group": "", "version": "v1", "kind": "DeleteOptions"},
                {"group": "apps", "version": "v1", "kind": "DeleteOptions"},
            ],
        },
    }));
    assert_eq!(
        engine(&[delete_options], selector("v1", "DeleteOptions")).unwrap(),
        Schema::default()
    );
    // SuccessCoreGVK
    assert_eq!(
        engine(std::slice::from_ref(&core), selector("v1", "Pod")).unwrap(),
        found(pod())
    );
    // SuccessNonCoreGVK
    let mut plain_deployment = deployment();
    plain_deployment["properties"]["metadata"] = json!({"type": "object"});
    let apps = document(json!({"io.k8s.api.apps.v1.Deployment": plain_deployment.clone()}));
    assert_eq!(
        engine(&[apps], selector("apps/v1", "Deployment")).unwrap(),
        found(plain_deployment)
    );
}

/// `FlattensReferencedSchemas` and `FlattensNestedReferencedSchemas` of the same test: a
/// reference through `items` is expanded too.
#[test]
fn references_are_expanded_transitively() {
    let owner = json!({"type": "object", "properties": {"uid": {"type": "string"}, "name": {"type": "string"}}});
    let docs = [document(json!({
        "example.com.v1.NestedResource": {
            "type": "object",
            "x-kubernetes-group-version-kind": gvk("example.com", "v1", "NestedResource"),
            "properties": {"metadata": {"$ref": "#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"}},
        },
        "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta": {
            "type": "object",
            "properties": {
                "name": {"type": "string"},
                "ownerReferences": {"type": "array", "items": {"$ref": "#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.OwnerReference"}},
            },
        },
        "io.k8s.apimachinery.pkg.apis.meta.v1.OwnerReference": owner.clone(),
    }))];
    let got = fetch(&docs, &selector("example.com/v1", "NestedResource"), true).unwrap();
    assert_eq!(
        got,
        found(json!({
            "type": "object",
            "x-kubernetes-group-version-kind": gvk("example.com", "v1", "NestedResource"),
            "properties": {"metadata": {
                "type": "object",
                "properties": {
                    "name": {"type": "string"},
                    "ownerReferences": {"type": "array", "items": owner},
                },
            }},
        }))
    );
}

/// Ours, after Kubernetes' `resolver.PopulateRefs`: a reference wrapped in `allOf` replaces
/// its schema (description and all), a reference back into the schema being expanded is an
/// open object, and additionalProperties is followed.
#[test]
fn wrapped_and_circular_references() {
    let docs = [document(json!({
        "example.com.v1.Tree": {
            "x-kubernetes-group-version-kind": gvk("example.com", "v1", "Tree"),
            "properties": {
                "node": {"description": "the root", "allOf": [{"$ref": "#/components/schemas/Node"}]},
            },
        },
        "Node": {
            "type": "object",
            "additionalProperties": {"$ref": "#/components/schemas/Node"},
        },
    }))];
    let got = fetch(&docs, &selector("example.com/v1", "Tree"), true).unwrap();
    assert_eq!(
        got.openapi_v3.unwrap()["properties"]["node"],
        json!({"type": "object", "additionalProperties": {"type": "object"}})
    );
    let broken = [document(json!({
        "example.com.v1.Broken": {
            "x-kubernetes-group-version-kind": gvk("example.com", "v1", "Broken"),
            "properties": {"a": {"$ref": "#/components/schemas/Missing"}},
        },
    }))];
    assert_eq!(
        fetch(&broken, &selector("example.com/v1", "Broken"), false).unwrap_err(),
        "cannot flatten schema references: internal error: cannot resolve Ref \"#/components/schemas/Missing\": schema not found"
    );
}

/// Ours: references that fan out are expanded within a bound, not exponentially.
#[test]
fn fanned_out_references_are_bounded() {
    let mut schemas = serde_json::Map::new();
    for level in 0..40 {
        let next = json!({"$ref": format!("#/components/schemas/L{}", level + 1)});
        schemas.insert(
            format!("L{level}"),
            json!({"properties": {"a": next.clone(), "b": next}}),
        );
    }
    schemas.insert("L40".into(), json!({"type": "string"}));
    schemas["L0"]["x-kubernetes-group-version-kind"] = gvk("example.com", "v1", "Fan");
    let docs = [document(Json::Object(schemas))];
    let err = fetch(&docs, &selector("example.com/v1", "Fan"), true).unwrap_err();
    assert!(err.contains("more than 200000 nodes"), "{err}");
}

/// Ours: the engine serves a group-version from the first document declaring one of its
/// kinds and compares exactly; the classic fetcher searches every document, ignoring case in
/// group and version.
#[test]
fn the_dialects_search_differently() {
    let first =
        document(json!({"Other": {"x-kubernetes-group-version-kind": gvk("", "v1", "Pod")}}));
    let second = core_document();
    let docs = [first, second];
    assert_eq!(
        fetch(&docs, &selector("v1", "ConfigMap"), true).unwrap(),
        Schema::default()
    );
    assert_eq!(
        fetch(&docs, &selector("v1", "ConfigMap"), false).unwrap(),
        found(config_map())
    );
    let apps = [apps_document()];
    assert_eq!(
        fetch(&apps, &selector("Apps/V1", "Deployment"), false).unwrap(),
        found(flattened_deployment())
    );
    assert_eq!(
        fetch(&apps, &selector("Apps/V1", "Deployment"), true).unwrap(),
        Schema::default()
    );
}

#[test]
fn documents_must_have_the_openapi_shape() {
    assert_eq!(parse_document("null").unwrap(), OpenApiDocument::default());
    assert_eq!(parse_document("{}").unwrap(), OpenApiDocument::default());
    assert!(parse_document("not valid json").is_err());
    assert_eq!(
        parse_document("[]").unwrap_err().message,
        "an OpenAPI document is an object, not an array"
    );
    assert_eq!(
        parse_document(r#"{"components": {"schemas": {"A": 1}}}"#)
            .unwrap_err()
            .message,
        "`components.schemas.A` is an object, not a number"
    );
    let err = parse_document("{\n  \"a\": 1,\n}").unwrap_err();
    assert_eq!(err.message, "trailing comma at line 3 column 1");
    assert_eq!(err.offset, Some(12), "the closing brace after the comma");
    let doc = parse_document(r#"{"components": {"schemas": {"A": null, "B": {}}}}"#).unwrap();
    assert_eq!(doc.schemas.keys().collect::<Vec<_>>(), ["B"]);
}
