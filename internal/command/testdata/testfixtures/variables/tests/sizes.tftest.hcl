variables {
  label = "file-level"
}

run "from_the_command_line" {
  assert {
    condition     = test_resource.sized.value == "north-3"
    error_message = "got ${test_resource.sized.value}"
  }
  assert {
    condition     = var.label == "file-level"
    error_message = "a variable only the test file sets"
  }
}

run "overridden_in_the_run" {
  variables {
    region = "south"
    size   = var.size * 2
  }
  assert {
    condition     = test_resource.sized.value == "south-6"
    error_message = "got ${test_resource.sized.value}"
  }
}
