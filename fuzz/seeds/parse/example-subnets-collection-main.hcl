# XAppNetwork: subnets for one application, carved out of a shared VPC that
# the networking team manages outside this composition. The subnets
# themselves are declared in subnets.hcl; all files form one program.

# Top-level locals, visible in every file of the bundle.
locals {
  xr           = req.composite
  appName      = xr.metadata.name
  network      = try(xr.spec.network, "shared-prod")
  zones        = try(xr.spec.zones, [])
  subnetOffset = try(xr.spec.subnetOffset, 0)

  # The first VPC matched by the requirement below. Before Crossplane has
  # answered (or when nothing matches) the lookup fails and try() yields
  # null, so no warning is raised here.
  vpc = try(req.extra_resources.shared-vpc[0], null)
}

# Asks Crossplane for the existing VPC carrying the network label. The
# matches arrive on the next call as req.extra_resources.shared-vpc.
requirement shared-vpc {
  select {
    apiVersion = "ec2.aws.upbound.io/v1beta1"
    kind       = "VPC"
    matchLabels = {
      "networking.example.fnhcl.dev/network" = network
    }
  }
}
