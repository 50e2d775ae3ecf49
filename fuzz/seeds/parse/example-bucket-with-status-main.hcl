# XBucket: one S3 bucket per composite. The bucket's ARN and endpoint are
# copied back to the composite's status once AWS reports them.

# Top-level locals are shared by every block. try() gives optional spec
# fields a default instead of failing when the XR leaves them out.
locals {
  xr     = req.composite
  xrName = xr.metadata.name
  region = try(xr.spec.region, "us-east-1")
  owner  = try(xr.spec.owner, "platform-team")
}

# The single composed resource. Its label, "bucket", is the name Crossplane
# records in the crossplane.io/composition-resource-name annotation.
resource bucket {
  body = {
    apiVersion = "s3.aws.upbound.io/v1beta1"
    kind       = "Bucket"
    metadata = {
      name = "${xrName}-data"
    }
    spec = {
      forProvider = {
        region = region
        tags = {
          Owner     = owner
          ManagedBy = "crossplane"
        }
      }
    }
  }

  # Publishes observed values on the XR. self.resource is the observed
  # Bucket, or null before it exists; try() then falls back to an empty
  # object, so the status is still written (with empty strings).
  composite status {
    locals {
      observed = try(self.resource.status.atProvider, {})
    }
    body = {
      bucket = {
        arn      = try(observed.arn, "")
        endpoint = try(observed.bucketRegionalDomainName, "")
        region   = region
      }
    }
  }
}
