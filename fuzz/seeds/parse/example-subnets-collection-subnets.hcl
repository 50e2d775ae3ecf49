# One Subnet per availability zone in spec.zones. for_each only reads the
# XR, never the VPC, because an unknown for_each is a fatal error.
resources subnet {
  for_each = zones

  # Crossplane resource names: subnet-eu-west-1a, subnet-eu-west-1b, ...
  name = "${self.basename}-${each.value}"

  # Rendered once per zone; each.key is the list index, each.value the zone.
  # While vpc is null the VPC lookups fail, so the body is incomplete and
  # the subnet is deferred to a later call instead of failing the run.
  template {
    body = {
      apiVersion = "ec2.aws.upbound.io/v1beta1"
      kind       = "Subnet"
      metadata = {
        name = "${appName}-${each.value}"
      }
      spec = {
        forProvider = {
          region           = vpc.spec.forProvider.region
          vpcId            = vpc.status.atProvider.id
          availabilityZone = each.value
          # /24 number subnetOffset + index inside the VPC's CIDR block.
          cidrBlock = cidrsubnet(vpc.status.atProvider.cidrBlock, 8, subnetOffset + each.key)
          tags = {
            Name = "${appName}-${each.value}"
            App  = appName
          }
        }
      }
    }
  }
}
