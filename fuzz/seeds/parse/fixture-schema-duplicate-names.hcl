resource a {
  body = {}
}
resources c {
  for_each = []
  template {
    body = {}
  }
}
group {
  resource a {
    body = {}
  }
  resources c {
    for_each = []
    template {
      body = {}
    }
  }
}
requirement r {
  select {
    apiVersion = "v1"
    kind       = "ConfigMap"
    matchName  = "x"
  }
}
requirement r {
  select {
    apiVersion = "v1"
    kind       = "ConfigMap"
    matchName  = "y"
  }
}
