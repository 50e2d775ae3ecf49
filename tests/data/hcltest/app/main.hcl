# A bucket in the XR's region, and a policy once the bucket is observed.
locals {
  xr     = req.composite
  region = lower(xr.spec.region)
}

function subnet_name {
  arg zone {}
  body = "net-${zone}"
}

resource bucket {
  body = {
    apiVersion = "s3.aws.upbound.io/v1beta1"
    kind       = "Bucket"
    metadata = {
      name = "${xr.metadata.name}-data"
    }
    spec = {
      forProvider = {
        region = region
      }
    }
  }

  composite status {
    body = {
      arn = try(self.resource.status.atProvider.arn, "")
    }
  }
}

resource policy {
  condition = try(req.resource.bucket, null) != null
  body = {
    apiVersion = "iam.aws.upbound.io/v1beta1"
    kind       = "Policy"
    spec = {
      forProvider = {
        bucket = req.resource.bucket.metadata.name
      }
    }
  }
}

# One subnet per zone, named by the user function.
resources subnet {
  for_each = toset(xr.spec.zones)
  template {
    body = {
      apiVersion = "ec2.aws.upbound.io/v1beta1"
      kind       = "Subnet"
      metadata = {
        name = invoke("subnet_name", { zone = each.value })
      }
      spec = {
        forProvider = {
          availabilityZone = "${region}${each.value}"
        }
      }
    }
  }
}
