//! Whole-program evaluation speed: one RunFunctionRequest against a composition of 200
//! resources (groups with conditions and locals, `resources` collections, status blocks,
//! `ready` blocks, user functions), parsing included, as function-hcl does per request.
//!
//! `cargo bench --bench program` prints the median time per request. Under
//! `cargo test --benches` (no `--bench` argument) it runs once and checks the response.

use std::process::ExitCode;
use std::time::Duration;

mod timing;

use fnhcl::eval::function;
use fnhcl::eval::proto::RunFunctionRequest;
use fnhcl::source::SourceMap;

/// Groups of plain resources and collections of members: 20 × 5 + 10 × 10 = 200 resources.
const GROUPS: usize = 20;
const PER_GROUP: usize = 5;
const COLLECTIONS: usize = 10;
const MEMBERS: usize = 10;
const MEASURE: Duration = Duration::from_secs(3);

fn program() -> String {
    let mut hcl = String::from(
        r#"locals {
  xr      = req.composite
  name    = xr.metadata.name
  region  = try(xr.spec.region, "eu-west-1")
  size    = try(xr.spec.size, 1)
  labels  = { app = name, region = region }
}

function label {
  arg prefix {}
  arg index {
    default = 0
  }
  body = format("%s-%03d", prefix, index)
}

function tags {
  arg extra {
    default = {}
  }
  body = merge(labels_default, extra)
  locals {
    labels_default = { managed-by = "fnhcl" }
  }
}
"#,
    );
    for g in 0..GROUPS {
        hcl.push_str(&format!(
            "\ngroup {{\n  condition = size > 0\n  locals {{\n    tier{g} = \"tier-{g}\"\n  }}\n"
        ));
        for r in 0..PER_GROUP {
            hcl.push_str(&format!(
                r#"  resource g{g}-r{r} {{
    locals {{
      id = invoke("label", {{ prefix = "${{name}}-${{tier{g}}}", index = {r} }})
    }}
    body = {{
      apiVersion = "s3.aws.upbound.io/v1beta1"
      kind       = "Bucket"
      metadata = {{
        name   = id
        labels = merge(labels, invoke("tags", {{ extra = {{ group = "{g}" }} }}))
      }}
      spec = {{
        forProvider = {{
          region = region
          tags   = [for k, v in labels : "${{k}}=${{v}}"]
        }}
      }}
    }}
    composite status {{
      body = {{ buckets = {{ g{g}-r{r} = id }} }}
    }}
    ready {{
      value = size > 0 ? "READY_TRUE" : "READY_FALSE"
    }}
  }}
"#
            ));
        }
        hcl.push_str("}\n");
    }
    for c in 0..COLLECTIONS {
        hcl.push_str(&format!(
            r#"
resources subnets{c} {{
  for_each = [for i in range({MEMBERS}) : cidrsubnet("10.{c}.0.0/16", 8, i)]
  template {{
    body = {{
      apiVersion = "ec2.aws.upbound.io/v1beta1"
      kind       = "Subnet"
      metadata = {{
        name = invoke("label", {{ prefix = self.basename, index = each.key }})
      }}
      spec = {{
        forProvider = {{
          cidrBlock = each.value
          region    = region
        }}
      }}
    }}
  }}
}}
"#
        ));
    }
    hcl
}

fn request() -> RunFunctionRequest {
    serde_json::from_value(serde_json::json!({
        "observed": {"composite": {"resource": {
            "apiVersion": "example.org/v1", "kind": "XBuckets",
            "metadata": {"name": "demo"},
            "spec": {"region": "eu-central-1", "size": 3}
        }}}
    }))
    .expect("a valid request")
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let quick = args.iter().any(|a| a == "--test") || !args.iter().any(|a| a == "--bench");
    let text = program();
    let request = request();
    let mut base = SourceMap::new();
    let file = base.add("main.hcl", text.clone());
    let run = || {
        let mut map = base.clone();
        function::run(&mut map, &request, Some(&[file]))
    };
    let outcome = run();
    let resources = outcome
        .response
        .desired
        .as_ref()
        .map_or(0, |d| d.resources.len());
    let want = GROUPS * PER_GROUP + COLLECTIONS * MEMBERS;
    if outcome.failure.is_some() || resources != want {
        eprintln!(
            "program: expected {want} resources, got {resources}: {:?}",
            outcome.response.results
        );
        return ExitCode::FAILURE;
    }
    if quick {
        println!("program: {want} resources evaluated once, response complete");
        return ExitCode::SUCCESS;
    }
    let (median, runs) = timing::median(MEASURE, run);
    println!(
        "program: {want} resources ({} bytes of HCL), median {:.2} ms per request, {:.1} µs per resource ({} runs)",
        text.len(),
        median.as_secs_f64() * 1e3,
        median.as_secs_f64() * 1e6 / want as f64,
        runs
    );
    ExitCode::SUCCESS
}
