//! A deterministic generator of a large, realistic function-hcl program for the parse benchmark.
//!
//! No randomness: a fixed-seed linear congruential generator picks the variations, so every run
//! (and the Go side, reading the file written by `--write-input`) sees exactly the same bytes.

use std::fmt::Write;

/// The generated program stops growing once it reaches this many bytes.
const TARGET_BYTES: usize = 1_040_000;

/// A 64-bit LCG (Knuth's MMIX constants) with a fixed seed.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        self.0 >> 33
    }

    /// A value in `0..n`.
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    fn flag(&mut self) -> bool {
        self.below(2) == 0
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len() as u64) as usize]
    }
}

const REGIONS: &[&str] = &[
    "us-east-1",
    "us-west-2",
    "eu-west-1",
    "eu-central-1",
    "ap-south-1",
];
const TEAMS: &[&str] = &["platform", "payments", "search", "identity", "data"];
const TIERS: &[&str] = &["dev", "staging", "prod"];

/// The whole program, between 1,000,000 and 1,100,000 bytes.
pub fn generate() -> String {
    let mut out = String::with_capacity(TARGET_BYTES + 16_384);
    let mut rng = Lcg(0x5eed_f00d_cafe_0001);
    header(&mut out);
    let mut unit = 0;
    while out.len() < TARGET_BYTES {
        unit_block(&mut out, &mut rng, unit);
        unit += 1;
    }
    out
}

fn header(out: &mut String) {
    out.push_str(
        r#"# Generated benchmark input for fnhcl's parse benchmark (benches/parse.rs).
# A large function-hcl program: many units, each with locals, a composed
# resource with a status block, a resource collection and a composite status.

locals {
  xr        = req.composite
  xrName    = xr.metadata.name
  namespace = try(xr.metadata.namespace, "default")
  labels = {
    "app.kubernetes.io/managed-by" = "crossplane"
    "app.kubernetes.io/part-of"    = xrName
  }
  defaultZones = ["a", "b", "c"]
}
"#,
    );
}

fn unit_block(out: &mut String, rng: &mut Lcg, i: usize) {
    let region = rng.pick(REGIONS);
    let team = rng.pick(TEAMS);
    let tier = rng.pick(TIERS);
    let size = 1 + rng.below(16);
    let days = 7 + rng.below(358);
    let ratio = rng.below(1000);
    let port = 1024 + rng.below(60_000);
    let force = rng.flag();
    let versioning = rng.flag();

    // Locals of the unit.
    let _ = write!(
        out,
        r#"
# ---------------------------------------------------------------------------
# Unit {i}: owned by the {team} team ({tier}).
# ---------------------------------------------------------------------------

// Values shared by the blocks of unit {i}.
locals {{
  name{i}    = "${{xrName}}-u{i}"
  region{i}  = try(xr.spec.units[{i}].region, "{region}")
  zones{i}   = try(xr.spec.units[{i}].zones, defaultZones)
  size{i}    = try(xr.spec.units[{i}].size, {size}) * 2 + 1
  enabled{i} = !try(xr.spec.units[{i}].disabled, false) && length(zones{i}) > 0
  tags{i} = merge(labels, {{
    for k, v in try(xr.spec.units[{i}].tags, {{}}) : lower(k) => v if v != ""
  }})
  zoneNames{i} = [for z in zones{i} : upper("${{region{i}}}${{z}}")]
}}
"#
    );

    // A composed resource, with its status block.
    let kind = rng.below(4);
    let (api, kind_name) = match kind {
        0 => ("s3.aws.upbound.io/v1beta1", "Bucket"),
        1 => ("rds.aws.upbound.io/v1beta1", "Instance"),
        2 => ("sqs.aws.upbound.io/v1beta1", "Queue"),
        _ => ("iam.aws.upbound.io/v1beta1", "Role"),
    };
    let _ = write!(
        out,
        r#"
# The main {kind_name} of unit {i}.
resource main-{i} {{
  body = {{
    apiVersion = "{api}"
    kind       = "{kind_name}"
    metadata = {{
      name      = "${{local.name{i}}}-${{self.name}}"
      namespace = namespace
      labels = merge(tags{i}, {{
        "example.org/unit" = "{i}"
        "example.org/team" = "{team}"
      }})
      annotations = {{
        "crossplane.io/external-name" = format("%s-%d", name{i}, {i})
      }}
    }}
    spec = {{
      forProvider = {{
        region       = region{i}
        forceDestroy = {force}
        replicas     = enabled{i} ? size{i} : 0
        ratio        = 0.{ratio:03}
        limits       = [1, 2, 3.5, -4, 1e3, {size}]
        zones        = zoneNames{i}
        owner        = try(xr.spec.units[{i}].owner, "{team}")
"#
    );
    match kind {
        0 => {
            let _ = write!(
                out,
                r#"        versioning = {{
          enabled   = {versioning}
          mfaDelete = false
        }}
        lifecycleRule = [
          {{ id = "expire-{i}", enabled = true, expiration = {{ days = {days} }} }},
          {{ id = "archive-{i}", enabled = {versioning}, prefix = "logs/", transition = {{ days = {half}, storageClass = "GLACIER" }} }},
        ]
        policy = <<-EOT
          {{
            "Version": "2012-10-17",
            "Statement": [
              {{
                "Effect": "Allow",
                "Principal": {{"AWS": "arn:aws:iam::123456789012:root"}},
                "Action": ["s3:GetObject", "s3:PutObject"],
                "Resource": "arn:aws:s3:::${{name{i}}}/*"
              }}
            ]
          }}
        EOT
"#,
                half = days / 2
            );
        }
        1 => {
            let _ = write!(
                out,
                r#"        engine           = "postgres"
        engineVersion    = try(xr.spec.units[{i}].version, "16.{minor}")
        instanceClass    = lookup({{ dev = "db.t3.micro", staging = "db.t3.medium", prod = "db.r6g.large" }}, "{tier}", "db.t3.micro")
        allocatedStorage = max({size} * 10, 20)
        port             = {port}
        multiAz          = "{tier}" == "prod" ? true : {versioning}
        parameters = [
          for p in try(xr.spec.units[{i}].parameters, []) : {{
            name  = p.name
            value = tostring(p.value)
          }}
        ]
        # Maintenance windows, one per zone.
        windows = {{ for idx, z in zones{i} : z => format("sun:0%d:00-sun:0%d:30", idx, idx) }}
"#,
                minor = rng.below(6)
            );
        }
        2 => {
            let _ = write!(
                out,
                r#"        delaySeconds             = {delay}
        messageRetentionSeconds  = {days} * 86400
        visibilityTimeoutSeconds = coalesce(try(xr.spec.units[{i}].timeout, null), 30)
        fifoQueue                = {force}
        redrivePolicy = jsonencode({{
          deadLetterTargetArn = "arn:aws:sqs:${{region{i}}}:123456789012:${{name{i}}}-dlq"
          maxReceiveCount     = {size}
        }})
"#,
                delay = rng.below(900)
            );
        }
        _ => {
            let _ = write!(
                out,
                r#"        assumeRolePolicy = <<-EOT
          {{
            "Version": "2012-10-17",
            "Statement": [{{"Effect": "Allow", "Principal": {{"Service": "ec2.amazonaws.com"}}, "Action": "sts:AssumeRole"}}]
          }}
        EOT
        managedPolicyArns = [
          "arn:aws:iam::aws:policy/ReadOnlyAccess",
          "arn:aws:iam::123456789012:policy/${{name{i}}}-extra",
        ]
        maxSessionDuration = {session}
"#,
                session = 3600 * (1 + rng.below(12))
            );
        }
    }
    let _ = write!(
        out,
        r#"        description = "unit {i} of ${{xrName}}: %{{ if enabled{i} }}enabled%{{ else }}disabled%{{ endif }}"
      }}
      providerConfigRef = {{
        name = try(xr.spec.providerConfig, "default")
      }}
      deletionPolicy = "{tier}" == "prod" ? "Orphan" : "Delete"
    }}
  }}

  composite status {{
    locals {{
      observed = try(self.resource.status.atProvider, {{}})
    }}
    body = {{
      main{i} = {{
        id    = try(observed.id, "")
        arn   = try(observed.arn, "")
        ready = self.resource != null ? "yes" : "no"
      }}
    }}
  }}
}}
"#
    );

    // A resource collection, one per zone.
    let cidr_base = i % 256;
    let _ = write!(
        out,
        r#"
resources subnet-{i} {{
  for_each = {{ for idx, z in zones{i} : z => idx }}

  # Crossplane names: <name>-<zone>.
  name = "${{self.basename}}-${{each.key}}"

  template {{
    body = {{
      apiVersion = "ec2.aws.upbound.io/v1beta1"
      kind       = "Subnet"
      metadata = {{
        name   = "${{local.name{i}}}-${{each.key}}"
        labels = tags{i}
      }}
      spec = {{
        forProvider = {{
          region           = region{i}
          availabilityZone = "${{region{i}}}${{each.key}}"
          cidrBlock        = cidrsubnet("10.{cidr_base}.0.0/16", 8, each.value + {offset})
          mapPublicIpOnLaunch = each.value % 2 == 0 && "{tier}" != "prod"
          vpcIdSelector = {{
            matchLabels = {{ "networking.example.org/network" = try(xr.spec.network, "shared") }}
          }}
          tags = {{ for k, v in tags{i} : k => v if !startswith(k, "internal/") }}
        }}
      }}
    }}
  }}
}}

composite status {{
  body = {{
    unit{i} = {{
      zones   = length(zones{i})
      subnets = [for z in zones{i} : format("%s-%s", name{i}, z)]
      healthy = enabled{i} && length(zones{i}) >= {min_zones}
    }}
  }}
}}
"#,
        offset = rng.below(64),
        min_zones = 1 + rng.below(3)
    );
}
