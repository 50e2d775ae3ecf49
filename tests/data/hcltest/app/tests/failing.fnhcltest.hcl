# Runs that fail, each in its own way (tests/cli.rs snapshots what they print).
run "wrong region" {
  xr = yamldecode(file("xr.yaml"))

  assert {
    condition     = resource.bucket.spec.forProvider.region == "us-east-1"
    error_message = "the bucket must be in us-east-1, not ${resource.bucket.spec.forProvider.region}"
  }
  assert {
    condition = resource["subnet-a"].metadata.name == invoke("subnet_name", { zone = "a" })
  }
}

run "no such field" {
  xr = yamldecode(file("xr.yaml"))

  assert {
    condition = resource.bucket.spec.size > 1
  }
}

run "fails elsewhere" {
  xr = {
    apiVersion = "example.fnhcl.dev/v1alpha1"
    kind       = "XBucket"
    metadata   = { name = "reports" }
    spec       = { region = "eu-west-1" }
  }
  expect_failures = [resource.bucket, "Unsupported attribute"]
}

run "renders after all" {
  xr              = yamldecode(file("xr.yaml"))
  expect_failures = ["boom"]
}
