provider "test" {
  resource_prefix = "one"
  data_prefix     = "one"
}

provider "test" {
  alias           = "two"
  resource_prefix = "two"
  data_prefix     = "two"
}

run "mapped" {
  providers = {
    test           = test
    test.secondary = test.two
  }
  assert {
    condition     = data.test_data_source.secondary.value == "secondary"
    error_message = "the secondary configuration reads what it wrote"
  }
}
