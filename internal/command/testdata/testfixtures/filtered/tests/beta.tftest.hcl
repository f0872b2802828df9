run "beta" {
  assert {
    condition     = test_resource.r.value == "not r"
    error_message = "beta fails, but it is filtered out"
  }
}
