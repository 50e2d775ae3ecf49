use super::*;
use crate::schema::Schemas;
use serde_json::json;

fn node(schema: Json) -> Node {
    Node::compile(&schema).unwrap()
}

fn messages(resource: Json, schema: &Node) -> Vec<String> {
    validate(&resource, schema)
        .violations
        .into_iter()
        .map(|v| v.message)
        .collect()
}

#[test]
fn go_floats_print_as_go_prints_them() {
    for (f, want) in [
        (1.0, "1"),
        (1.5, "1.5"),
        (123456.0, "123456"),
        (1e6, "1e+06"),
        (1234567.0, "1.234567e+06"),
        (0.0001, "0.0001"),
        (0.00001, "1e-05"),
        (-2.5e-7, "-2.5e-07"),
    ] {
        assert_eq!(go_float(f), want, "{f}");
    }
}

/// Each kind of check, with the API server's message.
#[test]
fn every_check_reports_as_the_api_server_words_it() {
    let schema = node(json!({
        "type": "object",
        "properties": {
            "spec": {
                "type": "object",
                "required": ["region"],
                "properties": {
                    "region": {"type": "string", "enum": ["us-east-1", "eu-west-1"]},
                    "replicas": {"type": "integer", "minimum": 1, "maximum": 10},
                    "name": {"type": "string", "maxLength": 5, "pattern": "^[a-z]+$"},
                    "short": {"type": "string", "minLength": 3},
                    "tags": {"type": "array", "maxItems": 2, "items": {"type": "string"}},
                    "created": {"type": "string", "format": "date-time"},
                    "closed": {"type": "object", "additionalProperties": false, "properties": {"a": {"type": "string"}}},
                    "labels": {"type": "object", "additionalProperties": {"type": "string"}},
                    "port": {"x-kubernetes-int-or-string": true},
                    "free": {"type": "object", "x-kubernetes-preserve-unknown-fields": true}
                }
            }
        }
    }));
    let got = messages(
        json!({
            "apiVersion": "example.org/v1", "kind": "X", "metadata": {"name": "x", "anything": 1},
            "spec": {
                "replicas": "three",
                "name": "ABCDEFG",
                "short": "ab",
                "tags": ["a", "b", "c"],
                "created": "yesterday",
                "closed": {"a": "ok", "b": "no"},
                "labels": {"x": 1},
                "port": true,
                "free": {"whatever": {"deep": 1}},
                "typo": {"nested": 1}
            }
        }),
        &schema,
    );
    assert_eq!(
        got,
        [
            "spec.closed: Invalid value: \"b\": spec.closed.b in body is a forbidden property",
            "spec.created: Invalid value: \"yesterday\": spec.created in body must be of type date-time: \"yesterday\"",
            "spec.labels.x: Invalid value: \"integer\": spec.labels.x in body must be of type string: \"integer\"",
            "spec.name: Too long: may not be more than 5 bytes",
            "spec.port: Invalid value: \"boolean\": spec.port in body must be of type integer,string: \"boolean\"",
            "spec.replicas: Invalid value: \"string\": spec.replicas in body must be of type integer: \"string\"",
            "spec.short: Invalid value: \"ab\": spec.short in body should be at least 3 chars long",
            "spec.tags: Too many: 3: must have at most 2 items",
            "spec.region: Required value",
            "spec.typo: Invalid value: \"typo\": unknown field: \"typo\"",
        ]
    );
    let got = messages(
        json!({"spec": {"region": "mars", "replicas": 11, "name": "abc1"}}),
        &schema,
    );
    assert_eq!(
        got,
        [
            "spec.name: Invalid value: \"abc1\": spec.name in body should match '^[a-z]+$'",
            "spec.region: Unsupported value: \"mars\": supported values: \"us-east-1\", \"eu-west-1\"",
            "spec.replicas: Invalid value: 11: spec.replicas in body should be less than or equal to 10",
        ]
    );
    let got = messages(
        json!({"spec": {"region": "eu-west-1", "replicas": 1.5}}),
        &schema,
    );
    assert_eq!(
        got,
        [
            "spec.replicas: Invalid value: \"number\": spec.replicas in body must be of type integer: \"number\"",
        ]
    );
    assert!(
        messages(
            json!({"spec": {"region": "eu-west-1", "replicas": 3, "port": "http"}}),
            &schema
        )
        .is_empty()
    );
}

/// Nulls as the API server's decoder and defaulting treat them (apiextensions-apiserver v0.35
/// `pkg/apiserver/schema/defaulting`, prunenulls.go and algorithm.go): a null the schema does
/// not allow is defaulted when there is a default, dropped (so absent, then `Required value`
/// if required) when there is none; a null list item stays and is refused.
#[test]
fn defaults_come_first_and_null_is_absent_unless_nullable() {
    let schema = node(json!({
        "type": "object",
        "properties": {"spec": {"type": "object", "required": ["size", "name"], "properties": {
            "size": {"type": "integer", "default": 1},
            "name": {"type": "string"},
            "note": {"type": "string"},
            "maybe": {"type": "string", "nullable": true},
            "list": {"type": "array", "items": {"type": "string"}}
        }}}
    }));
    let report = validate(
        &json!({"spec": {"size": null, "name": null, "note": null, "maybe": null, "list": ["a", null]}}),
        &schema,
    );
    assert_eq!(
        report.resource,
        json!({"spec": {"size": 1, "maybe": null, "list": ["a", null]}})
    );
    assert_eq!(
        report
            .violations
            .iter()
            .map(|v| v.message.as_str())
            .collect::<Vec<_>>(),
        [
            "spec.list[1]: Invalid value: \"null\": spec.list[1] in body must be of type string: \"null\"",
            "spec.name: Required value",
        ]
    );
}

#[test]
fn cel_rules_run_on_the_pruned_object_with_their_paths() {
    let schema = node(json!({
        "type": "object",
        "x-kubernetes-validations": [{"rule": "self.spec.a < 5", "message": "a is too big"}],
        "properties": {"spec": {"type": "object", "properties": {
            "a": {"type": "integer"},
            "name": {"type": "string", "x-kubernetes-validations": [{"rule": "self.startsWith('x')"}]},
            "labels": {"type": "object", "additionalProperties": {"type": "string",
                "x-kubernetes-validations": [{"rule": "self != 'bad'", "reason": "FieldValueForbidden", "message": "no bad labels"}]}}
        }}}
    }));
    let got = messages(
        json!({"spec": {"a": 7, "name": "yak", "labels": {"k": "bad"}}}),
        &schema,
    );
    assert_eq!(
        got,
        [
            "<nil>: Invalid value: a is too big",
            "spec.labels[k]: Forbidden: no bad labels",
            "spec.name: Invalid value: \"yak\": failed rule: self.startsWith('x')",
        ]
    );
}

fn shared(path: &str) -> Option<Json> {
    let file = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/schemas")
        .join(path);
    let text = std::fs::read_to_string(file).ok()?;
    let docs = crate::source::yaml::read_stream(&text).ok()?;
    docs.into_iter()
        .map(|d| serde_json::to_value(&d.value).unwrap())
        .find(|d| d.is_object())
}

/// The provider's real Bucket CRD: a valid Bucket passes; mistakes are found with their paths.
#[test]
fn a_real_crd_validates_buckets() {
    let Some(crd) = shared("crds/s3.aws.upbound.io_buckets.yaml") else {
        #[allow(clippy::print_stderr)]
        {
            eprintln!("../shared/schemas absent: skipped");
        }
        return;
    };
    let mut schemas = Schemas::new();
    assert_eq!(schemas.add_document("buckets.yaml", &crd).unwrap(), 2);
    let entry = schemas.get("s3.aws.upbound.io/v1beta1", "Bucket").unwrap();
    let ok = json!({
        "apiVersion": "s3.aws.upbound.io/v1beta1", "kind": "Bucket",
        "metadata": {"name": "b", "annotations": {"crossplane.io/composition-resource-name": "bucket"}},
        "spec": {"forProvider": {"region": "us-east-2", "tags": {"team": "a"}}}
    });
    let report = validate(&ok, &entry.schema);
    assert!(report.violations.is_empty(), "{:?}", report.violations);
    // Defaults applied (deletionPolicy, managementPolicies, providerConfigRef).
    assert_eq!(report.resource["spec"]["deletionPolicy"], json!("Delete"));
    let bad = json!({
        "apiVersion": "s3.aws.upbound.io/v1beta1", "kind": "Bucket",
        "metadata": {"name": "b"},
        "spec": {"forProvider": {"regoin": "us-east-2", "forceDestroy": "yes"}, "deletionPolicy": "Keep"}
    });
    let got = messages(bad, &entry.schema);
    assert_eq!(
        got,
        [
            "spec.deletionPolicy: Unsupported value: \"Keep\": supported values: \"Orphan\", \"Delete\"",
            "spec.forProvider.forceDestroy: Invalid value: \"string\": spec.forProvider.forceDestroy in body must be of type boolean: \"string\"",
            "spec.forProvider.region: Required value",
            "spec.forProvider.regoin: Invalid value: \"regoin\": unknown field: \"regoin\"",
        ],
    );
}

fn all_rules<'a>(node: &'a Node, out: &mut Vec<&'a crate::schema::cel::Rule>) {
    out.extend(node.rules.iter());
    for child in node.properties.values() {
        all_rules(child, out);
    }
    if let Additional::Schema(child) = &node.additional {
        all_rules(child, out);
    }
    if let Some(items) = &node.items {
        all_rules(items, out);
    }
}

/// Every CRD and XRD of ../shared/schemas loads, and every CEL rule in them compiles.
#[test]
fn every_shared_schema_loads_and_its_rules_compile() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/schemas");
    if !root.is_dir() {
        #[allow(clippy::print_stderr)]
        {
            eprintln!("../shared/schemas absent: skipped");
        }
        return;
    }
    let mut schemas = Schemas::new();
    let mut files = 0;
    for dir in ["crds", "xrds"] {
        for entry in std::fs::read_dir(root.join(dir)).unwrap().flatten() {
            let text = std::fs::read_to_string(entry.path()).unwrap();
            for doc in crate::source::yaml::read_stream(&text).unwrap() {
                let doc = serde_json::to_value(&doc.value).unwrap();
                let added = schemas
                    .add_document(&entry.path().display().to_string(), &doc)
                    .unwrap();
                assert!(added > 0, "{}", entry.path().display());
            }
            files += 1;
        }
    }
    assert!(files >= 15, "{files}");
    let mut rules = Vec::new();
    for entry in schemas.entries() {
        all_rules(&entry.schema, &mut rules);
    }
    assert!(rules.len() >= 15, "{}", rules.len());
    for rule in rules {
        assert_eq!(rule.compile_error(), None, "{}", rule.rule);
    }
    // XRDs give their XR and claim kinds.
    assert!(
        schemas
            .get("aws.platform.upbound.io/v1alpha1", "XAWSNetwork")
            .is_some()
            || schemas.len() > 20
    );
}

/// An XRD's XR gets Crossplane's fields: legacy ones directly under spec (and a claim kind),
/// modern ones under spec.crossplane; status.conditions for all.
#[test]
fn xrds_give_the_schemas_crossplane_builds() {
    let v1 = json!({
        "apiVersion": "apiextensions.crossplane.io/v1", "kind": "CompositeResourceDefinition",
        "metadata": {"name": "xbuckets.example.org"},
        "spec": {
            "group": "example.org",
            "names": {"kind": "XBucket", "plural": "xbuckets"},
            "claimNames": {"kind": "Bucket", "plural": "buckets"},
            "versions": [{"name": "v1", "served": true, "referenceable": true, "schema": {"openAPIV3Schema": {
                "type": "object",
                "properties": {"spec": {"type": "object", "required": ["region"], "properties": {
                    "region": {"type": "string"}
                }}}
            }}}]
        }
    });
    let mut schemas = Schemas::new();
    assert_eq!(schemas.add_document("xrd.yaml", &v1).unwrap(), 2);
    let xr = schemas.get("example.org/v1", "XBucket").unwrap();
    let got = messages(
        json!({
            "apiVersion": "example.org/v1", "kind": "XBucket", "metadata": {"name": "b"},
            "spec": {"compositionRef": {}, "claimRef": {"name": "c"}, "crossplane": {}},
            "status": {"conditions": [{"type": "Ready", "status": "True", "reason": "Available", "lastTransitionTime": "2024-01-01T00:00:00Z"}]}
        }),
        &xr.schema,
    );
    assert_eq!(
        got,
        [
            "spec.claimRef.apiVersion: Required value",
            "spec.claimRef.kind: Required value",
            "spec.claimRef.namespace: Required value",
            "spec.compositionRef.name: Required value",
            "spec.region: Required value",
            "spec.crossplane: Invalid value: \"crossplane\": unknown field: \"crossplane\"",
        ]
    );
    let claim = schemas.get("example.org/v1", "Bucket").unwrap();
    assert!(messages(json!({"apiVersion": "example.org/v1", "kind": "Bucket", "metadata": {"name": "b"}, "spec": {"region": "r", "compositeDeletePolicy": "Background"}}), &claim.schema).is_empty());

    let mut v2 = v1.clone();
    v2["apiVersion"] = json!("apiextensions.crossplane.io/v2");
    v2["spec"].as_object_mut().unwrap().remove("claimNames");
    let mut schemas = Schemas::new();
    assert_eq!(schemas.add_document("xrd.yaml", &v2).unwrap(), 1);
    let xr = schemas.get("example.org/v1", "XBucket").unwrap();
    assert_eq!(xr.scope, crate::schema::load::Scope::Namespaced);
    let got = messages(
        json!({
            "apiVersion": "example.org/v1", "kind": "XBucket",
            "metadata": {"name": "a-name-that-is-far-too-long-for-a-kubernetes-object-name-to-be-valid-x"},
            "spec": {"region": "r", "crossplane": {"compositionUpdatePolicy": "Sometimes"}, "claimRef": {}}
        }),
        &xr.schema,
    );
    assert_eq!(
        got,
        [
            "metadata.name: Too long: may not be more than 63 bytes",
            "spec.crossplane.compositionUpdatePolicy: Unsupported value: \"Sometimes\": supported values: \"Automatic\", \"Manual\"",
            "spec.claimRef: Invalid value: \"claimRef\": unknown field: \"claimRef\"",
        ]
    );
}

/// Format errors in the API server's words (apiextensions-apiserver v0.35
/// `pkg/apiserver/validation/validation_test.go` TestValidateCustomResource, its k8sLongName and
/// k8sShortName rows), and valid values of every checked format pass.
#[test]
fn formats_report_as_the_api_server_words_them() {
    let formats = [
        ("isbn", "978-0321751041", "978-0321751042"),
        ("isbn10", "3 401 01319 X", "3 401 01319 x"),
        ("ssn", "191-60-2869", "191-60-286"),
        ("creditcard", "4220 8554 2622 2389", "4220855426213389"),
        ("hexcolor", "#f00", "#ff"),
        ("rgbcolor", "rgb(0,  31, 255)", "rgb(01,31,255)"),
        ("duration", "45 weeks", "3 months"),
        ("ipv4", "192.168.1.01", "1.2.3.256"),
        ("cidr", "192.0.02.1/24", "10.0.0.0/33"),
        (
            "email",
            "\"Fred Bloggs\"@example.com",
            "somebody@somewhere@com",
        ),
        ("hostname", "www.詹姆斯.org", "a.b.c.d"),
        ("k8s-long-name", "a.b", "a.-"),
        ("k8s-short-name", "a", "a-"),
        ("uri", "mailto:someone@example.com", "./rel"),
        ("mac", "0000.5e00.5301", "01:02:03:04:05"),
        ("byte", "aGk=", ""),
    ];
    let properties: serde_json::Map<String, Json> = formats
        .iter()
        .enumerate()
        .map(|(i, (f, _, _))| (format!("f{i}"), json!({"type": "string", "format": f})))
        .collect();
    let schema = node(json!({
        "type": "object",
        "properties": {"spec": {"type": "object", "properties": properties}}
    }));
    let spec = |good: bool| -> Json {
        let fields: serde_json::Map<String, Json> = formats
            .iter()
            .enumerate()
            .map(|(i, f)| (format!("f{i}"), json!(if good { f.1 } else { f.2 })))
            .collect();
        json!({"spec": fields})
    };
    assert_eq!(messages(spec(true), &schema), Vec::<String>::new());
    let got = messages(spec(false), &schema);
    let mut want: Vec<String> = formats
        .iter()
        .enumerate()
        .map(|(i, (f, _, bad))| {
            let q = format!("{bad:?}");
            format!("spec.f{i}: Invalid value: {q}: spec.f{i} in body must be of type {f}: {q}")
        })
        .collect();
    want.sort();
    let mut sorted = got.clone();
    sorted.sort();
    assert_eq!(sorted, want);
    assert!(got.contains(
        &"spec.f11: Invalid value: \"a.-\": spec.f11 in body must be of type k8s-long-name: \"a.-\""
            .to_string()
    ));
}

/// A `pattern` Go cannot compile fails every value it is applied to, in kube-openapi's words
/// (kube-openapi `pkg/validation/validate/values.go` Pattern: "…, but pattern is invalid: …").
#[test]
fn an_invalid_pattern_is_reported_for_each_value() {
    let schema = node(json!({
        "type": "object",
        "properties": {"spec": {"type": "object", "properties": {
            "name": {"type": "string", "pattern": "(abc"},
            "lookahead": {"type": "string", "pattern": "^(?=a)"}
        }}}
    }));
    assert_eq!(
        messages(json!({"spec": {"name": "abc", "lookahead": "a"}}), &schema),
        [
            "spec.lookahead: Invalid value: \"a\": spec.lookahead in body should match '^(?=a), but pattern is invalid: error parsing regexp: invalid or unsupported Perl syntax: `(?=`'",
            "spec.name: Invalid value: \"abc\": spec.name in body should match '(abc, but pattern is invalid: error parsing regexp: missing closing ): `(abc`'",
        ]
    );
    // a field that is absent is not checked
    assert!(messages(json!({"spec": {}}), &schema).is_empty());
}

/// XRDs a cluster or Crossplane refuses, with the words they use: rules of the XRD's own CRD
/// (crossplane v2.2.4 `apis/apiextensions/v1/xrd_types.go`, `v2/xrd_types.go`), claim names
/// (`internal/xcrd/crd.go`, `validateClaimNames`; `crd_test.go`, `TestForCompositeResourceClaim`
/// "ConflictingClaimNames"-style cases), an apiVersion no cluster serves.
#[test]
fn xrds_refused_as_crossplane_and_the_api_server_refuse_them() {
    let base = json!({
        "apiVersion": "apiextensions.crossplane.io/v1", "kind": "CompositeResourceDefinition",
        "metadata": {"name": "xbuckets.example.org"},
        "spec": {
            "group": "example.org",
            "names": {"kind": "XBucket", "plural": "xbuckets"},
            "versions": [{"name": "v1", "served": true, "referenceable": true, "schema": {"openAPIV3Schema": {
                "type": "object", "properties": {"spec": {"type": "object"}}
            }}}]
        }
    });
    let refused = |patch: &dyn Fn(&mut Json)| {
        let mut doc = base.clone();
        patch(&mut doc);
        Schemas::new()
            .add_document("xrd.yaml", &doc)
            .map(|_| ())
            .map_err(|e| e.message)
    };
    assert_eq!(refused(&|_| {}), Ok(()));
    type Patch = Box<dyn Fn(&mut Json)>;
    let cases: Vec<(Patch, &str)> = vec![
        (
            Box::new(|d| d["apiVersion"] = json!("apiextensions.crossplane.io/v1beta1")),
            "no matches for kind \"CompositeResourceDefinition\" in version \"apiextensions.crossplane.io/v1beta1\"",
        ),
        (
            Box::new(|d| {
                d["apiVersion"] = json!("apiextensions.crossplane.io/v2");
                d["spec"]["claimNames"] = json!({"kind": "Bucket", "plural": "buckets"});
            }),
            "spec: Invalid value: \"object\": Claims aren't supported in apiextensions.crossplane.io/v2",
        ),
        (
            Box::new(|d| {
                d["apiVersion"] = json!("apiextensions.crossplane.io/v2");
                d["spec"]["connectionSecretKeys"] = json!(["url"]);
            }),
            "spec: Invalid value: \"object\": XR connection secrets aren't supported in apiextensions.crossplane.io/v2",
        ),
        (
            Box::new(|d| {
                d["apiVersion"] = json!("apiextensions.crossplane.io/v2");
                d["spec"]["scope"] = json!("LegacyCluster");
            }),
            "spec.scope: Unsupported value: \"LegacyCluster\": supported values: \"Namespaced\", \"Cluster\"",
        ),
        (
            Box::new(|d| d["spec"]["scope"] = json!("Global")),
            "spec.scope: Unsupported value: \"Global\": supported values: \"LegacyCluster\", \"Namespaced\", \"Cluster\"",
        ),
        (
            Box::new(|d| {
                d["spec"]["scope"] = json!("Namespaced");
                d["spec"]["claimNames"] = json!({"kind": "Bucket", "plural": "buckets"});
            }),
            "spec: Invalid value: \"object\": Only LegacyCluster composite resources can offer claims",
        ),
        (
            Box::new(|d| {
                d["spec"]["scope"] = json!("Cluster");
                d["spec"]["connectionSecretKeys"] = json!(["url"]);
            }),
            "spec: Invalid value: \"object\": Only LegacyCluster composite resources support connection secrets",
        ),
        (
            Box::new(|d| d["spec"]["names"]["plural"] = json!("XBuckets")),
            "spec.names: Invalid value: \"object\": Plural name must be lowercase",
        ),
        (
            Box::new(|d| d["spec"]["claimNames"] = json!({"kind": "XBucket", "plural": "buckets"})),
            "cannot derive claim CRD from XRD \"xbuckets.example.org\": invalid resource claim names: \"XBucket\" conflicts with composite resource name",
        ),
        (
            Box::new(|d| d["spec"]["claimNames"] = json!({"kind": "Bucket", "plural": "xbuckets"})),
            "cannot derive claim CRD from XRD \"xbuckets.example.org\": invalid resource claim names: \"xbuckets\" conflicts with composite resource name",
        ),
    ];
    for (patch, expected) in cases {
        assert_eq!(refused(&*patch), Err(expected.to_string()));
    }
    // A v1 XRD (scope defaulted to LegacyCluster) may offer claims; a v2 XRD without scope is
    // Namespaced and valid.
    assert_eq!(
        refused(&|d| d["spec"]["claimNames"] = json!({"kind": "Bucket", "plural": "buckets"})),
        Ok(())
    );
    assert_eq!(
        refused(&|d| d["apiVersion"] = json!("apiextensions.crossplane.io/v2")),
        Ok(())
    );
}

/// An XR is validated only against the XRD of its own group, version and kind: another kind of
/// the same group, or a version the XRD does not define, has no schema (`[!] could not find
/// CRD/XRD`), never the wrong one.
#[test]
fn an_xr_meets_only_the_xrd_of_its_kind() {
    let xrd = json!({
        "apiVersion": "apiextensions.crossplane.io/v2", "kind": "CompositeResourceDefinition",
        "metadata": {"name": "xbuckets.example.org"},
        "spec": {
            "group": "example.org",
            "names": {"kind": "XBucket", "plural": "xbuckets"},
            "versions": [{"name": "v1", "served": true, "referenceable": true, "schema": {"openAPIV3Schema": {
                "type": "object", "properties": {"spec": {"type": "object"}}
            }}}]
        }
    });
    let mut schemas = Schemas::new();
    schemas.add_document("xrd.yaml", &xrd).unwrap();
    assert!(schemas.get("example.org/v1", "XBucket").is_some());
    assert!(schemas.get("example.org/v1", "XQueue").is_none());
    assert!(schemas.get("example.org/v2", "XBucket").is_none());
    assert!(schemas.get("other.org/v1", "XBucket").is_none());
}

/// apiextensions-apiserver v0.35 `pkg/apiserver/validation/validation_test.go`,
/// `TestValidateCustomResource` (case names as there): the same messages, compared as sets as
/// that test compares them. One difference by design: a null the schema does not allow is
/// dropped before validation, as the API server's decoder drops it, so `{"field": null}` of
/// "!nullable" is valid here (that test calls the validator without the decoder).
#[test]
fn custom_resources_validate_as_the_api_server_validates_them() {
    let check = |field: Json, cases: &[(Json, &[&str])]| {
        let schema = node(json!({"type": "object", "properties": {"field": field}}));
        for (object, expected) in cases {
            let mut got = messages(object.clone(), &schema);
            got.sort();
            let mut want: Vec<String> = expected.iter().map(|s| s.to_string()).collect();
            want.sort();
            assert_eq!(got, want, "{object}");
        }
    };
    let type_error = |t: &str, actual: &str| {
        format!(
            "field: Invalid value: \"{actual}\": field in body must be of type {t}: \"{actual}\""
        )
    };
    // "!nullable", "nullable": every JSON type named as kube-openapi names it.
    for nullable in [false, true] {
        let field = json!({"type": "object", "nullable": nullable});
        check(
            field.clone(),
            &[
                (json!({}), &[]),
                (json!({"field": {}}), &[]),
                (json!({"field": null}), &[]),
            ],
        );
        for (value, name) in [
            (json!("foo"), "string"),
            (json!(42), "integer"),
            (json!(true), "boolean"),
            (json!(1.2), "number"),
            (json!([]), "array"),
        ] {
            let want = type_error("object", name);
            check(
                field.clone(),
                &[(json!({"field": value}), &[want.as_str()])],
            );
        }
    }
    // "nullable and no type": anything goes.
    for value in [
        json!({}),
        json!(null),
        json!("foo"),
        json!(42),
        json!(true),
        json!(1.2),
        json!([]),
    ] {
        check(json!({"nullable": true}), &[(json!({"field": value}), &[])]);
    }
    // "x-kubernetes-int-or-string", with and without nullable, and with the user's anyOf or
    // allOf of anyOf.
    let int_or_string = [
        json!({"x-kubernetes-int-or-string": true}),
        json!({"x-kubernetes-int-or-string": true, "nullable": true}),
    ];
    for field in int_or_string {
        check(
            field.clone(),
            &[(json!({"field": 42}), &[]), (json!({"field": "foo"}), &[])],
        );
        for (value, name) in [
            (json!(true), "boolean"),
            (json!(1.2), "number"),
            (json!({}), "object"),
            (json!([]), "array"),
        ] {
            let want = type_error("integer,string", name);
            check(
                field.clone(),
                &[(json!({"field": value}), &[want.as_str()])],
            );
        }
    }
    let any_of = json!({"nullable": true, "x-kubernetes-int-or-string": true,
                        "anyOf": [{"type": "integer"}, {"type": "string"}]});
    let all_of = json!({"nullable": true, "x-kubernetes-int-or-string": true,
                        "allOf": [{"anyOf": [{"type": "integer"}, {"type": "string"}]}]});
    for field in [&any_of, &all_of] {
        check(
            field.clone(),
            &[
                (json!({"field": null}), &[]),
                (json!({"field": 42}), &[]),
                (json!({"field": "foo"}), &[]),
            ],
        );
    }
    for (value, name) in [
        (json!(true), "boolean"),
        (json!(1.2), "number"),
        (json!({}), "object"),
        (json!([]), "array"),
    ] {
        let mut want = vec![
            "<nil>: Invalid value: \"\": \"field\" must validate at least one schema (anyOf)"
                .to_string(),
            type_error("integer,string", name),
            type_error("integer", name),
        ];
        let wanted: Vec<&str> = want.iter().map(String::as_str).collect();
        check(
            any_of.clone(),
            &[(json!({"field": value.clone()}), &wanted)],
        );
        want.push("<nil>: Invalid value: \"\": \"field\" must validate all the schemas (allOf). None validated".into());
        let wanted: Vec<&str> = want.iter().map(String::as_str).collect();
        check(all_of.clone(), &[(json!({"field": value}), &wanted)]);
    }
    // "required field".
    let schema = node(
        json!({"type": "object", "required": ["field"], "properties": {
            "field": {"type": "object", "required": ["nested"], "properties": {"nested": {}}}
        }}),
    );
    assert_eq!(
        messages(json!({"test": "a"}), &schema)[0],
        "field: Required value"
    );
    assert_eq!(
        messages(json!({"field": {}}), &schema),
        ["field.nested: Required value"]
    );
    // "enum".
    check(
        json!({"type": "object", "required": ["nestedint", "nestedstring"], "properties": {
            "nestedint": {"type": "integer", "enum": [1, 2]},
            "nestedstring": {"type": "string", "enum": ["a", "b"]}
        }}),
        &[
            (
                json!({"field": {}}),
                &[
                    "field.nestedint: Required value",
                    "field.nestedstring: Required value",
                ],
            ),
            (
                json!({"field": {"nestedint": "x", "nestedstring": true}}),
                &[
                    "field.nestedint: Invalid value: \"string\": field.nestedint in body must be of type integer: \"string\"",
                    "field.nestedint: Unsupported value: \"x\": supported values: \"1\", \"2\"",
                    "field.nestedstring: Invalid value: \"boolean\": field.nestedstring in body must be of type string: \"boolean\"",
                    "field.nestedstring: Unsupported value: true: supported values: \"a\", \"b\"",
                ],
            ),
        ],
    );
}

/// Pruning as apiextensions-apiserver v0.35 `pkg/apiserver/schema/pruning/algorithm.go` prunes
/// (the behaviours its `algorithm_test.go` `TestPrune` covers, in our own cases): unknown
/// fields go and are reported; `x-kubernetes-preserve-unknown-fields` keeps them (its list
/// items too) while known fields below are still pruned; `additionalProperties: false` and a
/// map without a schema keep their keys but nothing under them; embedded resources keep
/// `apiVersion`, `kind` and `metadata`.
#[test]
fn unknown_fields_pruned_as_the_api_server_prunes_them() {
    let schema = node(json!({
        "type": "object",
        "properties": {"spec": {"type": "object", "properties": {
            "known": {"type": "string"},
            "free": {"type": "object", "x-kubernetes-preserve-unknown-fields": true,
                     "properties": {"strict": {"type": "object", "properties": {"a": {"type": "string"}}}}},
            "freeList": {"type": "array", "x-kubernetes-preserve-unknown-fields": true,
                         "items": {"type": "object", "properties": {"a": {"type": "string"}}}},
            "closed": {"type": "object", "additionalProperties": false},
            "template": {"type": "object", "x-kubernetes-embedded-resource": true,
                         "properties": {"spec": {"type": "object", "properties": {"x": {"type": "string"}}}}}
        }}}
    }));
    let report = validate(
        &json!({
            "apiVersion": "example.org/v1", "kind": "Thing", "metadata": {"name": "n"},
            "spec": {
                "known": "k", "extra": 1,
                "free": {"anything": {"deep": true}, "strict": {"a": "x", "b": "y"}},
                "freeList": [{"a": "x", "kept": 1}],
                "closed": {"k": {"below": 1}},
                "template": {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c"},
                             "spec": {"x": "1", "y": "2"}}
            }
        }),
        &schema,
    );
    let unknown: Vec<&str> = report
        .violations
        .iter()
        .filter(|v| v.kind == Kind::UnknownField)
        .map(|v| v.message.as_str())
        .collect();
    assert_eq!(
        unknown,
        [
            "spec.closed.k.below: Invalid value: \"below\": unknown field: \"below\"",
            "spec.extra: Invalid value: \"extra\": unknown field: \"extra\"",
            "spec.free.strict.b: Invalid value: \"b\": unknown field: \"b\"",
            "spec.template.spec.y: Invalid value: \"y\": unknown field: \"y\"",
        ]
    );
    assert_eq!(
        report.resource["spec"],
        json!({
            "known": "k",
            "free": {"anything": {"deep": true}, "strict": {"a": "x"}},
            "freeList": [{"a": "x", "kept": 1}],
            "closed": {"k": {}},
            "template": {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c"},
                         "spec": {"x": "1"}}
        })
    );
}

/// Lengths in code points (kube-openapi counts runes), `maxProperties`, `multipleOf` and bounds
/// on int64 values printed in full (kube-openapi `pkg/validation/validate` string and number
/// validators, as `TestValidateCustomResource` reports them).
#[test]
fn lengths_properties_and_numbers_as_kube_openapi_counts_them() {
    let schema = node(
        json!({"type": "object", "properties": {"spec": {"type": "object", "properties": {
            "short": {"type": "string", "maxLength": 2, "minLength": 2},
            "map": {"type": "object", "maxProperties": 1, "additionalProperties": {"type": "string"}},
            "even": {"type": "integer", "multipleOf": 2},
            "big": {"type": "integer", "maximum": 5}
        }}}}),
    );
    // Two code points, four bytes: valid.
    assert!(
        messages(
            json!({"spec": {"short": "éé", "even": 4, "big": 5}}),
            &schema
        )
        .is_empty()
    );
    assert_eq!(
        messages(
            json!({"spec": {"short": "ééé", "map": {"a": "1", "b": "2"}, "even": 3, "big": 9007199254740993_i64}}),
            &schema
        ),
        [
            "spec.big: Invalid value: 9007199254740993: spec.big in body should be less than or equal to 5",
            "spec.even: Invalid value: 3: spec.even in body should be a multiple of 2",
            "spec.map: Too many: 2: must have at most 1 item",
            "spec.short: Too long: may not be more than 2 bytes",
        ]
    );
}
