# HCL-native tests of the bucket: `fnhcl test` runs each `run` block as one case.

# A new XBucket: one Bucket in the XR's region, no ARN on the XR yet.
run "new" {
  xr = yamldecode(file("../xr.yaml"))

  assert {
    condition     = resource.bucket.spec.forProvider.region == "eu-central-1"
    error_message = "the bucket must be in the XR's region"
  }
  assert {
    condition = xr.status.bucket.arn == ""
  }
}

# The next reconcile: the Bucket rendered above is observed, ready, with the ARN AWS gave it.
run "created" {
  continue = true
  status = {
    bucket = { atProvider = { arn = "arn:aws:s3:::billing-reports-data" } }
  }

  assert {
    condition     = xr.status.bucket.arn == "arn:aws:s3:::billing-reports-data"
    error_message = "the XR publishes the bucket's ARN"
  }
}

# Reconciles until the output stops changing: the second render equals the first.
run "settles" {
  xr    = yamldecode(file("../xr.yaml"))
  until = "converged"

  assert {
    condition = renders == 2
  }
}
