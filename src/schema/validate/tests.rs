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
            "spec.labels.x: Invalid value: \"number\": spec.labels.x in body must be of type string: \"number\"",
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
            "<nil>: Invalid value: \"\": Checked value must be of type integer (default format) in spec.replicas",
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

#[test]
fn defaults_come_first_and_null_is_refused_unless_nullable() {
    let schema = node(json!({
        "type": "object",
        "properties": {"spec": {"type": "object", "required": ["size"], "properties": {
            "size": {"type": "integer", "default": 1},
            "note": {"type": "string"},
            "maybe": {"type": "string", "nullable": true}
        }}}
    }));
    let report = validate(&json!({"spec": {"note": null, "maybe": null}}), &schema);
    assert_eq!(report.resource["spec"]["size"], json!(1));
    assert_eq!(
        report
            .violations
            .iter()
            .map(|v| v.message.as_str())
            .collect::<Vec<_>>(),
        ["spec.note: Invalid value: \"null\": spec.note in body must be of type string: \"null\""]
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
