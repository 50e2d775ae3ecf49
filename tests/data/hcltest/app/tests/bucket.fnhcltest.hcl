run "new bucket" {
  xr = yamldecode(file("xr.yaml"))

  assert {
    condition     = resource.bucket.spec.forProvider.region == "eu-west-1"
    error_message = "the bucket must be in the XR's region"
  }
  assert {
    condition     = keys(resource) == ["bucket", "subnet-a", "subnet-b"]
    error_message = "no policy before the bucket exists"
  }
}

run "bucket observed" {
  continue = true
  status = {
    bucket = { atProvider = { arn = "arn:aws:s3:::reports-data" } }
  }

  assert {
    condition     = resource.policy.spec.forProvider.bucket == "reports-data"
    error_message = "the policy names the bucket"
  }
  assert {
    condition = xr.status.arn == "arn:aws:s3:::reports-data"
  }
}

run "converges" {
  xr        = yamldecode(file("xr.yaml"))
  until     = "converged"
  max_steps = 5

  assert {
    condition = length(resource) == 4 && renders == 3
  }
}

run "zones are required" {
  xr = {
    apiVersion = "example.fnhcl.dev/v1alpha1"
    kind       = "XBucket"
    metadata   = { name = "reports" }
    spec       = { region = "eu-west-1" }
  }
  expect_failures = [resources.subnet, "Unsupported attribute"]
}

run "user function" {
  assert {
    condition = invoke("subnet_name", { zone = "a" }) == "net-a"
  }
}
