variable "name" {
  type = string
}

resource "test_resource" "named" {
  value = var.name
}

data "test_data_source" "lookup" {
  id = test_resource.named.id
}
