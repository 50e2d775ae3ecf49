locals {
  wanted = req.composite.spec.size
}

resource widget {
  body = {
    apiVersion = "example.org/v1"
    kind       = "Widget"
    spec = {
      size     = wanted
      replicas = 0
      colour   = "blue"
      ports = [
        { port = "http" },
        { name = "metrics" },
      ]
      labels = {
        team = "platform-engineering"
      }
    }
  }
}

resource ok {
  body = {
    apiVersion = "example.org/v1"
    kind       = "Widget"
    spec       = { size = "small" }
  }
}

composite status {
  body = {
    count = "two"
  }
}
