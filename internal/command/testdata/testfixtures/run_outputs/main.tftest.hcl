provider "test" {
  resource_prefix = run.setup.prefix
  data_prefix     = run.setup.prefix
}

run "setup" {
  variables {
    seed = "alpha"
  }
  module {
    source = "./setup"
  }
}

run "uses_setup" {
  variables {
    name = "${run.setup.prefix}-named"
  }
  assert {
    condition     = test_resource.named.value == "pre-alpha-named"
    error_message = "got ${test_resource.named.value}"
  }
  assert {
    condition     = data.test_data_source.lookup.value == "pre-alpha-named"
    error_message = "the data source reads through the same prefix"
  }
}

run "setup_again" {
  variables {
    seed     = "beta"
    first_id = run.setup.seed_id
  }
  module {
    source = "./setup"
  }
  assert {
    condition     = output.seed_id == var.first_id
    error_message = "the setup module's state is kept between its runs"
  }
  assert {
    condition     = output.prefix == "pre-beta"
    error_message = "got ${output.prefix}"
  }
}
