run "never settles" {
  xr = {
    apiVersion = "example.fnhcl.dev/v1alpha1"
    kind       = "XCounter"
    metadata   = { name = "c" }
  }
  until     = "converged"
  max_steps = 3
}
