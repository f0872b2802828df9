terraform {
  required_providers {
    local = {
      source = "registry.terraform.io/hashicorp/local"
    }
  }
}

variable "name" {
  type = string
}

resource "local_file" "main" {
  filename = "${path.module}/out/${var.name}.txt"
  content  = var.name
}
