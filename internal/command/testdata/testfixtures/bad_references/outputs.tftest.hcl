run "undeclared_output" {
  assert {
    condition     = output.nothing == null
    error_message = "refers to an output that does not exist"
  }
}
