variable "greeting" {
  type    = string
  default = "hello"
}

resource "test_resource" "greeter" {
  value = "${var.greeting}, world"
}

data "test_data_source" "read_back" {
  id = test_resource.greeter.id
}

locals {
  shout = upper(test_resource.greeter.value)
}

output "message" {
  value = test_resource.greeter.value
}
