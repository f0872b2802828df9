variable "name" {
  type = string
}

variable "subnet" {
  type = string
}

resource "terraform_data" "server" {
  input = {
    name   = var.name
    subnet = var.subnet
  }
  lifecycle {
    create_before_destroy = true
  }
}

output "id" {
  value = terraform_data.server.id
}
