requirement r {
  select {
    apiVersion  = "v1"
    kind        = "ConfigMap"
    matchName   = "a"
    matchLabels = {}
  }
}
