run "two" {
  assert {
    condition     = output.values == ["inner-0", "inner-1"]
    error_message = "got ${jsonencode(output.values)}"
  }
  assert {
    condition     = length(module.wrapper) == 2
    error_message = "module instances"
  }
}

run "three" {
  variables {
    count_of = 3
  }
  assert {
    condition     = module.wrapper[2].value == "inner-2"
    error_message = "the third instance"
  }
}

run "planned" {
  command = plan
  variables {
    count_of = 1
  }
  assert {
    condition     = length(output.values) == 1
    error_message = "the plan shrinks to one"
  }
}
