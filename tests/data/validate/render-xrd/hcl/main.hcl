composite status {
  body = {
    seen = [req.composite.spec.replicas, req.composite.spec.region, req.composite.spec.tier.name]
  }
}
