run "defaults" {
  assert {
    condition     = output.message == "hello, world"
    error_message = "unexpected message ${output.message}"
  }
  assert {
    condition     = local.shout == "HELLO, WORLD"
    error_message = "local value"
  }
  assert {
    condition     = data.test_data_source.read_back.value == test_resource.greeter.value
    error_message = "the data source does not read the resource back"
  }
}

run "wrong_expectation" {
  variables {
    greeting = "goodbye"
  }
  assert {
    condition     = output.message == "hello, world"
    error_message = "the greeting changed"
  }
}

run "after_a_failure" {
  assert {
    condition     = length(test_resource.greeter.id) > 0
    error_message = "no id"
  }
}
