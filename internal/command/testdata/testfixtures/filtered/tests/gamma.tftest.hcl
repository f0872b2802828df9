run "gamma" {
  command = plan
  assert {
    condition     = test_resource.r.value == "r"
    error_message = "r"
  }
}
