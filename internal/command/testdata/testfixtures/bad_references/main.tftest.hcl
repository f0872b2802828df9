run "fine" {}

run "undeclared" {
  assert {
    condition     = test_resource.missing.value == "x"
    error_message = "refers to a resource that does not exist"
  }
}

run "skipped" {}
