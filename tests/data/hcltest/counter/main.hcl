# Writes a counter that every reconcile increments: it never converges.
composite status {
  body = {
    generation = try(req.composite.status.generation, 0) + 1
  }
}
