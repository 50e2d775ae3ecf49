//! Schema validation speed: the provider CRDs of ../shared/schemas compiled once, then 1,000
//! (and 10,000) rendered-style composed resources validated against them — Buckets, VPCs,
//! Subnets, SecurityGroups and Roles with labels, annotations, owner references and tags, one in
//! ten with a mistake (unknown field, wrong type, bad enum value).
//!
//! Then the Gateway API row, the most CEL-heavy public CRDs: the standard channel of
//! ../shared/schemas/gateway-api (or `$GATEWAY_API_CRDS/standard`, as tests/gateway_api.rs
//! reads them) compiled once, then 1,000 (and 10,000) HTTPRoutes and Gateways — parent
//! references, hostnames, path and header matches, filters, weighted backends; listeners with
//! TLS and allowed routes — one in ten breaking a CEL rule (a relative path, TLS on an HTTP
//! listener).
//!
//! `cargo bench --bench validate` prints the compile times and the time per resource. Under
//! `cargo test --benches` (no `--bench` argument) it validates 1,000 of each once and checks
//! the counts. A row whose CRDs are absent is skipped with a notice.

use fnhcl::schema::{Schemas, validate};
use serde_json::{Value as Json, json};
use std::path::Path;
use std::process::ExitCode;
use std::time::{Duration, Instant};

mod timing;

const CRDS: &str = "../shared/schemas/crds";
const GATEWAY_CRDS: &str = "../shared/schemas/gateway-api";

fn resource(i: usize) -> Json {
    let metadata = json!({
        "generateName": "app-",
        "labels": {"crossplane.io/composite": "app"},
        "annotations": {"crossplane.io/composition-resource-name": format!("r-{i}")},
        "ownerReferences": [{"apiVersion": "example.org/v1", "kind": "XApp", "name": "app", "uid": "", "controller": true, "blockOwnerDeletion": true}],
    });
    let tags = json!({"team": "platform", "index": i.to_string()});
    let (kind, api, mut spec) = match i % 5 {
        0 => (
            "Bucket",
            "s3.aws.upbound.io/v1beta1",
            json!({"forProvider": {"region": "eu-west-1", "tags": tags}}),
        ),
        1 => (
            "VPC",
            "ec2.aws.upbound.io/v1beta1",
            json!({"forProvider": {"region": "eu-west-1", "cidrBlock": "10.0.0.0/16", "enableDnsSupport": true, "tags": tags}}),
        ),
        2 => (
            "Subnet",
            "ec2.aws.upbound.io/v1beta1",
            json!({"forProvider": {"region": "eu-west-1", "cidrBlock": "10.0.1.0/24", "availabilityZone": "eu-west-1a", "vpcIdSelector": {"matchControllerRef": true}, "tags": tags}}),
        ),
        3 => (
            "SecurityGroup",
            "ec2.aws.upbound.io/v1beta1",
            json!({"forProvider": {"region": "eu-west-1", "description": "app", "vpcIdSelector": {"matchControllerRef": true}, "tags": tags}}),
        ),
        _ => (
            "Role",
            "iam.aws.upbound.io/v1beta1",
            json!({"forProvider": {"assumeRolePolicy": "{}", "tags": tags}}),
        ),
    };
    if i % 10 == 7 {
        match i % 3 {
            0 => spec["forProvider"]["regoin"] = json!("eu-west-1"),
            1 => spec["forProvider"]["tags"] = json!(["not", "a", "map"]),
            _ => spec["deletionPolicy"] = json!("Keep"),
        }
    }
    json!({"apiVersion": api, "kind": kind, "metadata": metadata, "spec": spec})
}

fn load(dir: &Path) -> Schemas {
    let mut schemas = Schemas::new();
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .expect("the CRD folder")
        .flatten()
        .map(|e| e.path())
        .collect();
    files.sort();
    for file in files {
        let text = std::fs::read_to_string(&file).expect("a CRD");
        for doc in fnhcl::source::yaml::read_stream(&text).expect("YAML") {
            let json = serde_json::to_value(&doc.value).expect("JSON");
            if json["kind"] != "CustomResourceDefinition" {
                continue;
            }
            schemas
                .add_document(&file.display().to_string(), &json)
                .expect("a schema");
        }
    }
    schemas
}

/// Validates `resources`; the number that have problems.
fn run(schemas: &Schemas, resources: &[Json]) -> usize {
    resources
        .iter()
        .filter(|r| {
            let api = r["apiVersion"].as_str().unwrap_or("");
            let kind = r["kind"].as_str().unwrap_or("");
            let entry = schemas.get(api, kind).expect("a schema for every kind");
            !validate(r, &entry.schema).violations.is_empty()
        })
        .count()
}

/// One Gateway API resource: an HTTPRoute (even `i`) or a Gateway (odd), one in ten of each
/// kind breaking a CEL rule.
fn gateway_resource(i: usize) -> Json {
    let broken = i % 20 == 7 || i % 20 == 12;
    let metadata =
        json!({"name": format!("r-{i}"), "namespace": "default", "labels": {"app": "shop"}});
    if i % 2 == 0 {
        let path = if broken { "cart" } else { "/cart" };
        json!({
            "apiVersion": "gateway.networking.k8s.io/v1",
            "kind": "HTTPRoute",
            "metadata": metadata,
            "spec": {
                "parentRefs": [
                    {"name": "edge", "sectionName": "http"},
                    {"name": "edge", "sectionName": "https"},
                ],
                "hostnames": ["shop.example.com", format!("r{i}.example.com")],
                "rules": [
                    {
                        "matches": [
                            {"path": {"type": "PathPrefix", "value": path}},
                            {"path": {"type": "Exact", "value": "/checkout"}, "method": "POST",
                             "headers": [{"name": "x-tenant", "value": "a"}]},
                        ],
                        "filters": [
                            {"type": "RequestHeaderModifier", "requestHeaderModifier": {
                                "set": [{"name": "x-route", "value": i.to_string()}],
                                "remove": ["x-debug"],
                            }},
                        ],
                        "backendRefs": [
                            {"name": "cart", "port": 8080, "weight": 90},
                            {"name": "cart-canary", "port": 8080, "weight": 10},
                        ],
                        "timeouts": {"request": "10s", "backendRequest": "5s"},
                    },
                    {
                        "matches": [{"path": {"type": "PathPrefix", "value": "/old"}}],
                        "filters": [{"type": "URLRewrite", "urlRewrite": {
                            "path": {"type": "ReplacePrefixMatch", "replacePrefixMatch": "/new"},
                        }}],
                        "backendRefs": [{"name": "web", "port": 80}],
                    },
                ],
            },
        })
    } else {
        let http_tls = if broken {
            json!({"certificateRefs": [{"name": "cert"}]})
        } else {
            Json::Null
        };
        let mut http = json!({"name": "http", "protocol": "HTTP", "port": 80,
                              "allowedRoutes": {"namespaces": {"from": "Same"}}});
        if !http_tls.is_null() {
            http["tls"] = http_tls;
        }
        json!({
            "apiVersion": "gateway.networking.k8s.io/v1",
            "kind": "Gateway",
            "metadata": metadata,
            "spec": {
                "gatewayClassName": "shared",
                "listeners": [
                    http,
                    {"name": "https", "protocol": "HTTPS", "port": 443,
                     "hostname": format!("r{i}.example.com"),
                     "tls": {"mode": "Terminate", "certificateRefs": [{"kind": "Secret", "name": "cert"}]},
                     "allowedRoutes": {"namespaces": {"from": "Selector", "selector": {"matchLabels": {"team": "shop"}}}}},
                    {"name": "tls", "protocol": "TLS", "port": 8443, "hostname": "*.example.com",
                     "tls": {"mode": "Passthrough"}},
                ],
                "addresses": [{"type": "IPAddress", "value": "10.0.0.1"}],
            },
        })
    }
}

/// The Gateway API CRD folder (its `standard` channel).
fn gateway_dir() -> std::path::PathBuf {
    match std::env::var_os("GATEWAY_API_CRDS") {
        Some(dir) => Path::new(&dir).join("standard"),
        None => Path::new(env!("CARGO_MANIFEST_DIR"))
            .join(GATEWAY_CRDS)
            .join("standard"),
    }
}

/// The Gateway API row; false when a count is wrong.
fn gateway_row(quick: bool) -> bool {
    let dir = gateway_dir();
    if !dir.is_dir() {
        println!(
            "validate: {} not found: the Gateway API row is skipped",
            dir.display()
        );
        return true;
    }
    let started = Instant::now();
    let schemas = load(&dir);
    let compile = started.elapsed();
    let resources: Vec<Json> = (0..1000).map(gateway_resource).collect();
    let invalid = run(&schemas, &resources);
    if invalid != 100 {
        eprintln!("validate: expected 100 invalid Gateway API resources of 1,000, got {invalid}");
        return false;
    }
    if quick {
        println!("validate: 1,000 Gateway API resources validated once, 100 invalid as generated");
        return true;
    }
    println!(
        "validate: Gateway API: {} CRDs compiled in {:.1} ms",
        schemas.len(),
        compile.as_secs_f64() * 1e3
    );
    for n in [1_000, 10_000] {
        let resources: Vec<Json> = (0..n).map(gateway_resource).collect();
        let (median, runs) = timing::median(Duration::from_secs(3), || run(&schemas, &resources));
        println!(
            "validate: Gateway API: {n} HTTPRoutes and Gateways in {:.1} ms median, {:.1} µs per resource ({runs} runs)",
            median.as_secs_f64() * 1e3,
            median.as_secs_f64() * 1e6 / n as f64
        );
    }
    true
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let quick = args.iter().any(|a| a == "--test") || !args.iter().any(|a| a == "--bench");
    let gateway_ok = gateway_row(quick);
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(CRDS);
    if !dir.is_dir() {
        println!("validate: {CRDS} not found (../shared is absent): skipped");
        return if gateway_ok {
            ExitCode::SUCCESS
        } else {
            ExitCode::FAILURE
        };
    }
    let started = Instant::now();
    let schemas = load(&dir);
    let compile = started.elapsed();
    let resources: Vec<Json> = (0..1000).map(resource).collect();
    let invalid = run(&schemas, &resources);
    if invalid != 100 {
        eprintln!("validate: expected 100 invalid resources of 1,000, got {invalid}");
        return ExitCode::FAILURE;
    }
    if quick {
        println!("validate: 1,000 resources validated once, 100 invalid as generated");
        return if gateway_ok {
            ExitCode::SUCCESS
        } else {
            ExitCode::FAILURE
        };
    }
    println!(
        "validate: {} schemas compiled in {:.1} ms",
        schemas.len(),
        compile.as_secs_f64() * 1e3
    );
    for n in [1_000, 10_000] {
        let resources: Vec<Json> = (0..n).map(resource).collect();
        let (median, runs) = timing::median(Duration::from_secs(3), || run(&schemas, &resources));
        println!(
            "validate: {n} resources in {:.1} ms median, {:.1} µs per resource ({runs} runs)",
            median.as_secs_f64() * 1e3,
            median.as_secs_f64() * 1e6 / n as f64
        );
    }
    if gateway_ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
