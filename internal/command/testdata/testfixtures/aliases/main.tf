terraform {
  required_providers {
    test = {
      source                = "hashicorp/test"
      configuration_aliases = [test.secondary]
    }
  }
}

resource "test_resource" "primary" {
  value = "primary"
}

resource "test_resource" "secondary" {
  provider = test.secondary
  value    = "secondary"
}

data "test_data_source" "secondary" {
  provider = test.secondary
  id       = test_resource.secondary.id
}
