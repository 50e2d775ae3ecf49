locals {
  name = req.composite.metadata.name
}

resource bucket {
  locals {
    region = "eu-west-1"
  }
  body = {
    apiVersion = "s3.aws.upbound.io/v1beta1"
    kind       = "Bucket"
  }
  composite status {
    body = { ok = true }
  }
  ready {
    value = "READY_TRUE"
  }
}

resources subnet {
  for_each = ["a", "b"]
  name     = "subnet-${each.value}"
  template {
    body = {}
  }
}

requirement vpc {
  condition = true
  select {
    apiVersion  = "v1"
    kind        = "VPC"
    matchLabels = { team = "net" }
  }
}

function twice {
  description = "doubles"
  arg n {
    default = 1
  }
  body = n * 2
}

context {
  key   = "k"
  value = invoke("twice", { n = 2 })
}
