resources c {
  for_each = []
  template {
    body      = {}
    condition = true
  }
}
